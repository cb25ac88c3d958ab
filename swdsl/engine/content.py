"""Compiled content: what packs become once compiled, and what the engine runs.

The engine never sees syntax. A race, power, relic, place, figure, marker or edition
rule arrives here as plain data plus closures: stat modifiers and event
triggers grouped per stat and per event, and abilities the player may use
(hooks.py).
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from swdsl.engine.hooks import Ability, Modifier, Trigger


@attrs.frozen
class SharedVar:
    """A `game var` (one value) or `player var` (one value per player), declared in any declaration
    and read and written by every rule of every pack."""

    name: str
    owner: str  # game | player
    initial: int | None
    reset: str | None = None  # turn: back to its start at the start of each turn (of its player)


@attrs.define
class Content:
    """One declaration, compiled."""

    kind: str  # race | power | relic | place | marker | rule
    name: str  # its key: unique in the ruleset
    props: dict[str, Any] = attrs.field(factory=dict)
    modifiers: dict[str, tuple[Modifier, ...]] = attrs.field(factory=dict)
    triggers: dict[str, tuple[Trigger, ...]] = attrs.field(factory=dict)
    abilities: tuple[Ability, ...] = ()
    variables: dict[str, tuple[int | str | None, str | None]] = attrs.field(factory=dict)  # name -> (start, reset)
    shared: tuple[SharedVar, ...] = ()  # the `game var`s and `player var`s it declares
    copiers: frozenset[str] = frozenset()  # markers its `copy` effects give other rules to
    doc: str = ""
    display: str = ""  # the name to show, when the key is longer (two packs of a mix declare the name)

    @property
    def shown(self) -> str:
        return self.display or self.name

    @property
    def acts_in_decline(self) -> bool:
        """True if any hook works while declined: such a power stays with its banner (R59)."""
        hooks = [m for ms in self.modifiers.values() for m in ms] + [t for ts in self.triggers.values() for t in ts]
        return any(h.scope != "active" for h in hooks) or any(a.scope != "active" for a in self.abilities)

    # typed views of the properties, each worked out at its first read (the props are set once, when
    # the declaration is compiled): the engine reads them in its hottest loops (has_tag, a region's defence)
    @functools.cached_property
    def tokens(self) -> int:
        return int(self.props.get("banner", self.props.get("badge", 0)))

    @functools.cached_property
    def supply(self) -> int:
        return int(self.props.get("supply", 0))

    @functools.cached_property
    def neutral(self) -> bool:
        return bool(self.props.get("neutral"))

    @functools.cached_property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.props.get("tags", ()))

    @functools.cached_property
    def defense(self) -> int:
        return int(self.props.get("defense", 0))

    @functools.cached_property
    def immune(self) -> bool:
        return bool(self.props.get("immune"))

    @functools.cached_property
    def limit(self) -> int | None:
        value = self.props.get("limit")
        return None if value is None else int(value)

    @functools.cached_property
    def bound(self) -> bool:
        return bool(self.props.get("bound"))

    @functools.cached_property
    def survives_decline(self) -> bool:
        return "decline" in self.props.get("survives", ())

    @functools.cached_property
    def counts_as_token(self) -> bool:
        """A piece that counts as one of its holder's race tokens (defenders, `tokens of`, the cost)."""
        return self.props.get("counts") == ("as", "token")

    @functools.cached_property
    def returns(self) -> bool:
        return bool(self.props.get("returns"))

    @functools.cached_property
    def fixed(self) -> bool:
        """It never leaves its region (places never move; `fixed` markers neither)."""
        return self.kind == "place" or bool(self.props.get("fixed"))

    @property
    def has_hooks(self) -> bool:
        return bool(self.modifiers or self.triggers or self.abilities)
