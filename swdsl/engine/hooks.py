"""The hooks a compiled declaration gives the engine: stat modifiers, event triggers, abilities and
their choices, each plain data plus the compiler's closures.

Why a module of their own, of dataclasses: the engine reads their fields at every decision (which
abilities are offered, which triggers run, which modifiers fold), and mypyc compiles dataclasses as
native classes whose fields compiled code reads directly, where an attrs class's go through Python's
generic attribute lookup. Frozen; equal only to themselves (their closures are, anyway), so hashing one
is free."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Fn = Callable[[Any], Any]


@dataclass(frozen=True, eq=False)  # a key of per-board tables and of declared neighbours (stats.py): by identity
class Modifier:
    stat: str
    op: str  # "by" adds, "set" replaces, "times" multiplies (after every by and set), "at least"/"at most" bound last
    value: Fn
    when: Fn | None
    floor: Fn | None
    cap: Fn | None
    scope: str  # active | declined | always
    source: str  # the declaration it comes from, for explain()
    origin: str = "race"  # the kind of that declaration: a shielded region ignores all but edition rules
    where: str = ""  # file:line:col of the rule
    # what it reads: "" the game; "map" only the map and the stat's regions (`target`, and `other` for
    # region.adjacent); "adjacency" those and borders (map-only for a race that declares no adjacency of
    # its own, and inside region.adjacent): a fold of such modifiers is a per-board table; "region" only
    # `target`'s own facts (terrain, symbols, edge): the table's values are shared by every board
    map_only: str = ""
    # the reads that alone keep it from being map-only (variables, `here`), when there are such: with
    # their values fixed it reads only the map and the stat's regions (borders too, for region.adjacent,
    # where they are the map's), so a race's declared neighbours are kept per board and their values
    given: tuple[Fn, ...] = ()
    # region.adjacent: the parts of `when` that read `target` and not `other` (None: none do): where they
    # fail, the modifier leaves a whole row of declared neighbours as the map has it (adjacency._declared)
    row: Fn | None = None
    # a rule of a stat of `target` whose `when` has conjuncts that read only the target's own facts (its
    # terrain, symbols, edge: one value per kind of region): those as its gate, and the same rule asking
    # only the other conjuncts (`when` None if there are none). A fold leaves out the rules whose gate
    # fails at the target's kind and takes the others ungated (stats._gated): `travel.cost by 1 when
    # target has entry and …` asks nothing of a region without an entry
    gate: Fn | None = None
    ungated: Modifier | None = None
    # some of its parts read neither `target` nor any other binding (`target borders reach(my regions, …)`):
    # they are read once per decision (memos.per_decision), so legality runs in a reading scope
    per_decision: bool = False


@dataclass(frozen=True, eq=False)
class Trigger:
    event: str
    when: Fn | None
    scope: str
    run: Fn
    source: str
    audience: str = "me"  # me | ours: also when the event happens to another race of the player
    where: str = ""  # file:line:col of the rule
    choose: tuple[Choice, ...] = ()  # asked of the race's player once the action that fired it is done
    optional: bool = False  # `may choose`: the player may pass
    cancels: bool = False  # may `cancel conquest` (the engine notes a conquest's loss only if some trigger may)


@dataclass(frozen=True, eq=False)
class Choice:
    """One `choose` of an ability: its name, what it picks (region, player,
    power), its options and a test of one option."""

    name: str
    kind: str
    options: Fn  # options(ctx) -> sorted values
    is_option: Callable[[Any, Any], bool]  # is_option(ctx, value)
    base: Fn | None = None  # base(ctx) -> values the options are among (a `where`'s unfiltered set), or None
    few: bool = False  # base is narrower than every region (markers' regions, map-only parts, a race's regions)


@dataclass(frozen=True, eq=False)
class Ability:
    """A player choice contributed to legal_actions: `choose` lists each
    choice's name, its options and a test of one option (to check a single
    action without listing them all); `run` applies the effects with the
    choices bound."""

    key: str  # "DECLARATION/NAME": unique in a ruleset
    name: str
    source: str
    phase: str
    limit: int | None
    per: str | None  # turn | game
    per_owner: bool
    when: Fn | None
    scope: str
    choose: tuple[Choice, ...]
    run: Fn
    where: str = ""  # file:line:col of the rule
    possible: Fn | None = None  # possible(ctx with the choices bound): its effects can be made (a conquest paid)
    few: Fn | None = None  # its one choice's base when it is few (Choice.few): read before `when`, none left none asked
    # several choices, each among few values none of which depends on an earlier choice: the combinations
    # worth checking are the product of their bases, drawn by position (abilities._nth)
    product: bool = False
