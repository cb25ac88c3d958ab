"""The shape of the language's vocabulary: one entry per construct.

Every event, stat, effect, attribute, state, named value, function and region
set of the rules language is an entry declared once, next to its
implementation (events.py, stats.py, effects.py, queries.py), with its
signature and a one-line doc. The checker checks any construct against its
entry's signature and the compiler binds any construct to its entry's
implementation, so adding a construct is a grammar line, one entry and a test.

Values at run time: int, bool, region (int), regions (a sorted list or a
frozenset of ints), race (RaceInst or None), races, player (seat int or None),
players, power (name), powers, terrain (name), area (its number), areas,
marker (a piece on the map: (region, name, k), the k-th of that name there),
markers. A single value may be None (nobody, nowhere: `one of` an empty set).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from swdsl.engine.context import Ctx

if TYPE_CHECKING:
    from swdsl.engine.state import Game, RaceInst

# Argument kinds of effects and functions. An expression kind names the types
# it accepts; a word kind is a name written in the rule, fixed at compile time.
EXPRESSION_KINDS: dict[str, tuple[str, ...]] = {
    "int": ("int",),
    "bool": ("bool",),
    "region": ("region",),
    "regions": ("region", "regions"),  # one region or a set
    "race": ("race",),
    "player": ("player",),
    "players": ("player", "players"),
    "selection": ("regions", "players", "races", "powers", "areas", "markers"),  # any set (counted)
    "regions|players": ("region", "regions", "player", "players"),
    "region|power": ("region", "power"),
    "region|combos": ("region", "combos"),
    "regions|combos": ("region", "regions", "combos"),
    "value": ("int", "player"),  # a variable's value: typed by the variable
}
WORD_KINDS = {
    "marker": "a marker, relic, place or figure declared in the pack",
    "pool": "a hidden pool of pack.yaml (or `power`: the market's power stack)",
    "var": "a variable of the declaration",
    "counter": "a number variable of the declaration",
    "piece": "a marker kind (`relic`, `place`), a marker tag or a marker name",
    "tag": "a tag name, new or known",
    "name": "a name for each element in turn, bound inside the effects",
}
BLOCK, FLAG = "effects", "flag"


@attrs.frozen
class Param:
    """One argument of an effect or a function."""

    name: str
    kind: str  # an EXPRESSION_KINDS or WORD_KINDS key, BLOCK or FLAG
    optional: bool = False
    same_as: str = ""  # its type must be the type of that earlier argument (`set VAR to …`, `swap A with B`)

    @property
    def is_expression(self) -> bool:
        return self.kind in EXPRESSION_KINDS


@attrs.frozen
class Effect:
    """An effect: `run(ctx, *arguments)` in the order of `params` (None for an
    absent optional one; a block is passed as a function of a Ctx). `by_type`
    replaces `run` by the type the checker found for the first argument whose
    kind accepts several (`remove M from PLAYERS` versus `from REGIONS`)."""

    name: str  # the grammar's alternative (`set_aside`)
    syntax: str
    doc: str
    params: tuple[Param, ...]
    run: Callable[..., Any]
    by_type: dict[str, Callable[..., Any]] = attrs.field(factory=dict)
    takes: str = ""  # the marker argument whose piece it takes from the pool: abilities need one left
    wears: str = ""  # the marker argument that may take on other pieces' rules (`copy`)
    # possible(ctx, *arguments): whether it can be made now; an ability is offered only for choices that pass
    possible: Callable[..., bool] | None = None
    # optional parts that cannot be written together: (part, part, how they read)
    exclusive: tuple[tuple[str, str, str], ...] = ()


@attrs.frozen
class Form:
    """An expression of its own shape (`sum(… for each x in …)`, `strength of
    MARKER in REGION`): `run(ctx, *arguments)` in the order of `params`. The
    parameter named by `per_element` is passed as a function of a Ctx, to be
    evaluated once per element of the selection, with the `name` argument bound."""

    name: str  # the grammar's alternative
    syntax: str
    doc: str
    params: tuple[Param, ...]
    type: str
    run: Callable[..., Any]
    per_element: str = ""


@attrs.frozen
class Function:
    name: str
    params: tuple[Param, ...]
    type: str
    doc: str
    call: Callable[..., Any]  # call(ctx, *values)
    example: str
    variadic: bool = False  # the last parameter repeats (`min(a, b, …)`)
    # its value depends on its arguments and the borders of the race asking only (`reach`, `groups`):
    # the last value is kept with its arguments (closures._borders_only), asked again for every target
    borders_only: bool = False


@attrs.frozen
class Attribute:
    """`NAME of SUBJECT`."""

    name: str
    subject: str
    type: str
    doc: str
    get: Callable[[Ctx, Any], Any]


@attrs.frozen
class State:
    """`SUBJECT is NAME` (or `was NAME`, for the turn's log)."""

    name: str
    subject: str
    doc: str
    test: Callable[[Ctx, Any], bool]


@attrs.frozen
class Value:
    """A named value: `me`, `round`, `opponents`, … `here` depends on the
    declaration it is written in: `get` then takes the declaration's name and
    returns the function of a Ctx."""

    name: str
    type: str
    doc: str
    get: Callable[..., Any]
    per_declaration: bool = False


@attrs.frozen
class RegionSet:
    """`regions`, `my regions`, `conquered regions`, `lost regions`."""

    qual: str
    syntax: str
    doc: str
    get: Callable[[Ctx], Any]


@attrs.frozen
class Event:
    """A hook point of the turn. `everyone`: the engine fires it for every race
    on the table, so no listener needs `by ours`/`by anyone`; `declined`:
    whether it can happen to a declined race (the checker warns otherwise)."""

    name: str
    doc: str
    bindings: dict[str, str] = attrs.field(factory=dict)
    audience: str = "acting race"
    everyone: bool = False
    declined: bool = True


@attrs.frozen
class Stat:
    """A value the engine asks the rules for. `base(game, race, bindings)` is
    the engine's value before modifiers; `floor` and `cap` bound the folded
    value; `favours` says which change favours the race asking (cheaper: "less";
    allowed: "true"), so a shielded region can ignore it (stats.py)."""

    name: str
    doc: str
    type: str  # int | bool
    base_doc: str
    subject: str  # whose modifiers fold in: attacker, defender, race
    base: Callable[[Game, RaceInst | None, dict], Any]
    bindings: dict[str, str] = attrs.field(factory=dict)
    floor: int | None = None
    cap: int | None = None
    favours: str = ""  # "" | "less" | "true"


class Overflow(ValueError):
    """Content went beyond one of its budgets (pack.yaml `budgets`); the rule
    running at the time turns it into a ContentError naming itself."""


@attrs.frozen
class Variable:
    """A variable. Those declared with `var` in races, powers, relics and
    places are kept by the race whose rule runs (`me`); those of edition rules
    and `game var`s by the game, one value for everyone; a `player var` by each
    player (the player of `me`, or the one `seat` names: `debts of PLAYER`)."""

    name: str
    initial: Any
    owner: str  # "race" | "game" | "player"
    seat: Callable[[Ctx], int | None] | None = None  # `NAME of PLAYER`: whose value

    def store(self, ctx: Ctx) -> dict[str, Any] | None:
        if self.owner == "game":
            return ctx.game.vars
        if self.owner == "player":
            seat = self.seat(ctx) if self.seat is not None else ctx.me.player if ctx.me is not None else None
            return None if seat is None else ctx.game.players[seat].vars
        return None if ctx.me is None else ctx.me.vars

    def of(self, seat: Callable[[Ctx], int | None]) -> Variable:
        """This player variable, of the player `seat(ctx)` gives."""
        return attrs.evolve(self, seat=seat)

    def get(self, ctx: Ctx) -> Any:
        store = self.store(ctx)
        return self.initial if store is None else store.get(self.name, self.initial)

    def set(self, ctx: Ctx, value: Any) -> None:
        within_budget(ctx, f"variable '{self.name}'", value)
        store = self.store(ctx)
        if store is not None:
            store[self.name] = value


def within_budget(ctx: Ctx, what: str, value: Any) -> None:
    """A number content keeps (a variable, a marker's strength) stays within pack.yaml `budgets: number`."""
    limit = ctx.game.ruleset.budgets.number
    if isinstance(value, int) and not -limit <= value <= limit:
        raise Overflow(f"{what} would hold {_short(value)}, beyond the budget of ±{limit}")


def _short(n: int) -> str:
    """A number for a message, without writing out a huge one."""
    return str(n) if n.bit_length() < 64 else f"a number of about {int(n.bit_length() * 0.30103)} digits"
