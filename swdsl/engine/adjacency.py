"""Adjacency as a race sees it: the map's borders, plus what its rules declare (the stat region.adjacent),
asked pair by pair or as a region's neighbours, and kept in the board where that is a function of the map
and a few values (stats.py folds the stat; declares_adjacency tells whether a race's borders are the map's);
and the regions its rules join without a border for the chains it follows (region.linked)."""

from __future__ import annotations

from typing import Any, Final

from swdsl.engine import caches
from swdsl.engine.entries import Ctx
from swdsl.engine.holdings import held_mods
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import Plan, declares_adjacency, folded, modified, plan, shielded, tabled, value, with_held

_UNKNOWN: Final = object()


def adjacent(game: Game, inst: RaceInst | None, a: int, b: int) -> bool:
    """Whether regions `a` and `b` are adjacent for `inst` (region.adjacent: the map's borders, plus
    what its rules declare)."""
    if inst is None or not declares_adjacency(game, inst):
        return b in game.board.neighbours[a]
    game.reading_adjacency.add(inst.id)
    try:
        return bool(value(game, "region.adjacent", inst, target=a, other=b))
    finally:
        game.reading_adjacency.discard(inst.id)


def adjacent_to_any(game: Game, inst: RaceInst, r: int, regions) -> bool:
    """Whether `r` is adjacent, for `inst`, to one of `regions`."""
    if not declares_adjacency(game, inst):
        return not game.board.neighbours[r].isdisjoint(regions)
    key = _neighbours_key(game, inst, r)
    if key is None:
        return any(adjacent(game, inst, r, x) for x in regions if x != r)
    memo = game.board.memo
    found = memo.get(key)  # its neighbours, once neighbours() worked them out
    if found is not None:
        return not found.isdisjoint(regions)
    if len(key) == 3:  # a per-board table: pair by pair, from the table where known (value's key)
        for x in regions:
            if x == r:
                continue
            known = memo.get((key[1], r, x), _UNKNOWN)
            if adjacent(game, inst, r, x) if known is _UNKNOWN else known:
                return True
        return False
    found = memo[key] = _declared(game, inst, r)  # kept for as long as the values it was keyed by
    return not found.isdisjoint(regions)


def neighbours(game: Game, inst: RaceInst | None, r: int) -> frozenset[int]:
    """The regions adjacent to `r` for `inst`. Declared adjacency is asked of every region, so it is
    worked out once: in the board when it is a function of the map and a few values (_neighbours_key),
    else per race and region while the game is only read (caches.reading)."""
    if inst is None or not declares_adjacency(game, inst):
        return game.board.neighbours[r]
    key = _neighbours_key(game, inst, r)
    memo = game.board.memo if key is not None else caches.kept(game)
    if key is None:
        key = (neighbours, inst, r)
    found = None if memo is None else memo.get(key)
    if found is None:
        found = _declared(game, inst, r)
        if memo is not None:
            memo[key] = found
    return found


def links(game: Game, inst: RaceInst | None) -> bool:
    """Whether `inst`'s rules link regions for the chains it follows (region.linked). While one of those
    rules is read, its own chains follow no links: no rule defines links in terms of itself."""
    return inst is not None and inst.id not in game.reading_links and modified(game, "region.linked", inst)


def linked(game: Game, inst: RaceInst | None, r: int) -> frozenset[int]:
    """The regions `inst`'s rules join to `r` without a border (region.linked), for the chains of regions
    it follows (queries.reach, count_groups): kept in the board when its rules read only the map, else
    while the game is only read."""
    if inst is None or not links(game, inst):
        return _NONE
    p = plan(game, "region.linked", inst)
    memo = game.board.memo if tabled(game, p, "region.linked", inst, r) else caches.kept(game)
    key = (linked, p.table, r) if memo is game.board.memo else (linked, inst, r)
    found = None if memo is None else memo.get(key)
    if found is None:
        game.reading_links.add(inst.id)
        try:
            found = frozenset(x for x in range(len(game.board))
                              if x != r and value(game, "region.linked", inst, target=r, other=x))
        finally:
            game.reading_links.discard(inst.id)
        if memo is not None:
            memo[key] = found
    return found


_NONE: Final[frozenset[int]] = frozenset()


def _neighbours_key(game: Game, inst: RaceInst, r: int) -> tuple | None:
    """Where the board keeps the race's declared neighbours of `r` (adjacency_key, and no shield applies
    at `r`). None when they must be worked out."""
    p = plan(game, "region.adjacent", inst)
    if p.favoured is not None and shielded(game, inst, r):
        return None
    key = adjacency_key(game, inst, p)
    return None if key is None else (*key, r)


def adjacency_key(game: Game, inst: RaceInst, p: Plan) -> tuple | None:
    """What the race's declared adjacency (by its plan `p`) is kept in the board with, when it is a function
    of the map and a few values where no shield applies: its region.adjacent modifiers (the plan's and what
    it holds) read only the map, the two regions and variables or `here` (`Modifier.given`), whose values
    the key holds. A per-board table is keyed by its number alone."""
    if not caches.SWITCH.on:
        return None
    held = held_mods(game, inst, "region.adjacent") if p.held else ()
    if p.table is not None and not held:
        return neighbours, p.table
    values: list[Any] = []
    for m in p.mods + held:
        if m.given:
            ctx = Ctx(game, inst, {})
            values.extend(read(ctx) for read in m.given)
        elif not m.map_only:
            return None
    return neighbours, p.mods, held, tuple(values)


def _declared(game: Game, inst: RaceInst, r: int) -> frozenset[int]:
    """The regions `inst`'s region.adjacent fold makes adjacent to `r`: the map's borders when no rule's
    `row` holds at `r` (Modifier.row); else from the per-board table pair by pair where it serves (value),
    else with one plan, one context and the map's borders while its rules are read (so none of them asks
    for the stat again), `other` set in turn."""
    p = plan(game, "region.adjacent", inst)
    table = tabled(game, p, "region.adjacent", inst, r)
    borders = game.board.neighbours[r]
    b = {"target": r, "other": r}
    ctx = Ctx(game, inst, b)
    found = []
    game.reading_adjacency.add(inst.id)
    try:
        mods = p.mods if table or not p.held else with_held(game, "region.adjacent", inst, p)
        mods = tuple(m for m in mods if m.row is None or m.row(ctx))
        if mods and not table:
            for x in range(len(game.board)):
                if x != r:
                    b["other"] = x
                    if folded(x in borders, ctx, p, mods, None):
                        found.append(x)
    finally:
        game.reading_adjacency.discard(inst.id)
    if not mods:
        return borders
    if table:
        return frozenset(x for x in range(len(game.board)) if x != r and adjacent(game, inst, r, x))
    return frozenset(found)
