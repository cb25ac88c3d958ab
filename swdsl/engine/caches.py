"""The caches the engine keeps while games run, and one switch for them all, so
a test can turn them off and check that they never change a result.

The caches, and why each is always right (docs/architecture.md, Speed):
- fold plans (stats.plan): per race and stat, cleared with the race's hooks (a new
  power, decline) and checked at each use against whether powers are bound; shared
  in the ruleset by what they are made from (the modifiers the banner and power
  bring to the stat and to region.adjacent, the race's state, bound powers);
- per-board tables and memos (stats.value, lang/closures.py): only values that
  depend on the map and the stat's regions alone (`target`, and `other` for
  region.adjacent; borders too: the map's, or those a race declares when they are a
  per-board table themselves, the table keyed by which), kept in the board, which
  never changes — or, when they read only a region's own facts, in the ruleset's index by kind of
  region (Board.kind_ids), for every board — and used only while the race holds no content modifying the stat, no
  shield applies, and it sees the borders the table was made with (stats.tabled);
- a race's declared neighbours when its region.adjacent rules read only the map, the two
  regions, variables and `here` (adjacency._neighbours_key): kept in the board, keyed by those
  rules and the values those reads have now, so they are what a fresh fold finds; and
  the other way round, per region, the regions whose neighbours include it
  (frontier.bordering), kept so while no race on the board may shield a region from it;
- where markers lie and what each race holds through them (holdings.where), kept
  in the game and dropped by every writer of markers, bound powers and worn rules;
  each race's answer is kept in it too (`RaceInst.holding`) while that index and
  its regions with content are the same (a writer of its regions drops it when
  the region is one of those);
- a race's regions in order (`RaceInst.in_order`), dropped by each of the three
  writers of its regions (hold, release, release_all);
- facts kept while a game is only read (`reading`): what each conquest costs, a
  race's declared neighbours of a region, the parts of a rule that read no binding
  (memos.per_decision), a race's conquest candidates (frontier.candidates). Deciding legality, choosing among legal actions and
  working out a turn's coins read the game and write nothing, so these cannot
  change until it is over.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from swdsl.engine.state import Game

F = TypeVar("F", bound=Callable[..., Any])


class Switch:
    """Whether the caches are on: a test turns them off (`caches.SWITCH.on = False`) to check that they
    never change a result. A native object that compiled code reads directly, where a module's global
    is looked up by name at every read (and the engine reads it at every fold plan and holding)."""

    on: bool = True


SWITCH: Final = Switch()


NOT_KEPT: Final[Any] = object()


def kept_for_kind(values: list, kind: int) -> Any:
    """The value kept in `values` for the region kind numbered `kind` (Board.kind_ids), or NOT_KEPT (the
    list grows to hold it)."""
    if kind >= len(values):
        values.extend([NOT_KEPT] * (kind + 1 - len(values)))
    return values[kind]


def kept(game: Game) -> dict | None:
    """The facts kept about `game` while it is only read, or None when it may change."""
    return game.kept if SWITCH.on else None


@contextmanager
def reading(game: Game) -> Iterator[None]:
    """While the block runs, `game` is only read: facts about it are kept (calls inside share them)."""
    if game.kept is not None:
        yield
        return
    game.kept = {}
    try:
        yield
    finally:
        game.kept = None


def reads(fn: F) -> F:
    """`fn(game, …)` only reads the game (legality, scoring): it runs `reading` it when something
    asked in it may be asked again (`Index.scoped`) — a race's neighbours, where declared adjacency
    is worked out live, or the parts of rules read once per decision (memos.per_decision); a
    conquest's cost is asked once per target there. The facts are kept in the game (`Game.kept`):
    a game is read by one thread at a time. Its arguments after the game are two at most, each passed as
    such: `*args` built a tuple and took Python's slow call at every decision."""
    @functools.wraps(fn)
    def scoped(game: Game, a: Any = _NO_ARGUMENT, b: Any = _NO_ARGUMENT) -> Any:
        if game.kept is not None or not game.index.scoped:
            return _called(fn, game, a, b)
        game.kept = {}
        try:
            return _called(fn, game, a, b)
        finally:
            game.kept = None
    return scoped  # type: ignore[return-value]


_NO_ARGUMENT: Final[Any] = object()


def _called(fn: Callable[..., Any], game: Game, a: Any, b: Any) -> Any:
    """`fn(game, a, b)` with the arguments given."""
    if a is _NO_ARGUMENT:
        return fn(game)
    return fn(game, a) if b is _NO_ARGUMENT else fn(game, a, b)
