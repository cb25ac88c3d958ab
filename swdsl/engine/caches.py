"""The caches the engine keeps while games run, and one switch for them all, so
a test can turn them off and check that they never change a result.

The caches, and why each is always right (docs/architecture.md, Speed):
- fold plans (stats.plan): per race and stat, checked at each use against what
  they were made from (banner, power, declined state, powers bound or not);
- per-board tables and memos (stats.value, lang/closures.py): only values that
  depend on the map and the stat's regions alone (`target`, and `other` for
  region.adjacent; borders too: the map's, or those a race declares when they are a
  per-board table themselves, the table keyed by which), kept in the board, which
  never changes — or, when they read only a region's own facts, in the ruleset's index by kind of
  region (Board.kind_ids), for every board — and used only while the race holds no content modifying the stat, no
  shield applies, and it sees the borders the table was made with (stats.tabled);
- a race's declared neighbours when its region.adjacent rules read only the map, the two
  regions, variables and `here` (stats._neighbours_key): kept in the board, keyed by those
  rules and the values those reads have now, so they are what a fresh fold finds; and
  the other way round, per region, the regions whose neighbours include it
  (frontier.bordering), kept so while no race on the board may shield a region from it;
- where markers lie and what each race holds through them (holdings.where), kept
  in the game and dropped by every writer of markers, bound powers and worn rules;
  each race's answer is kept in it too (`RaceInst.holding`) while that index and
  its regions are the same (every writer of its regions drops it);
- facts kept while a game is only read (`reading`): what each conquest costs, a
  race's declared neighbours of a region. Deciding legality, and choosing among
  legal actions, reads the game and writes nothing, so these cannot change until
  it is over.
"""

from __future__ import annotations

import functools
import threading
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


class _Reading(threading.local):
    """The game being read in this thread, and the facts worked out about it."""

    game: Any = None
    memo: dict | None = None  # made at the first fact kept


_SCOPE = _Reading()


NOT_KEPT: Final[Any] = object()


def kept_for_kind(values: list, kind: int) -> Any:
    """The value kept in `values` for the region kind numbered `kind` (Board.kind_ids), or NOT_KEPT (the
    list grows to hold it)."""
    if kind >= len(values):
        values.extend([NOT_KEPT] * (kind + 1 - len(values)))
    return values[kind]


def kept(game: Any) -> dict | None:
    """The facts kept about `game` while it is only read, or None when it may change."""
    if _SCOPE.game is not game or not SWITCH.on:
        return None
    memo = _SCOPE.memo
    if memo is None:
        memo = _SCOPE.memo = {}
    return memo


@contextmanager
def reading(game: Any) -> Iterator[None]:
    """While the block runs, `game` is only read: facts about it are kept (calls inside share them)."""
    if _SCOPE.game is not None:
        yield
        return
    _SCOPE.game = game
    try:
        yield
    finally:
        _SCOPE.game = _SCOPE.memo = None


def reads(fn: F) -> F:
    """`fn(game, …)` only reads the game (legality): it runs `reading` it when something asked
    in it may be asked again — a race's neighbours, where declared adjacency is worked out live
    (`Index.live_adjacency`); a conquest's cost is asked once per target there, and the scope
    itself costs a twentieth of a random game."""
    @functools.wraps(fn)
    def scoped(game: Game, *args: Any) -> Any:
        if _SCOPE.game is not None or not game.index.live_adjacency:
            return fn(game, *args)
        _SCOPE.game = game
        try:
            return fn(game, *args)
        finally:
            _SCOPE.game = _SCOPE.memo = None
    return scoped  # type: ignore[return-value]
