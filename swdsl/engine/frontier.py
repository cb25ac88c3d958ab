"""Where a race may attack: its frontier, when the board tells it — the regions bordering its own (by
the map, or by the adjacency it declares when the board keeps it), narrowed or widened by reach rules
that read only the map, the target and those borders, from per-board tables — else every region,
each asked (legal.py's verdicts)."""

from __future__ import annotations

from swdsl.engine import caches
from swdsl.engine.adjacency import adjacency_key, neighbours
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import declares_adjacency, fold, kind_values, modified, plan, shielding, tabled


def candidates(game: Game, inst: RaceInst) -> tuple[list[int], bool]:
    """Regions worth testing as conquest targets (a new list), and whether all of them are in reach
    (the frontier: only the other conditions are left to ask). Kept while the game is only read: a
    decision asks it for the conquest targets and again for each ability choosing among the reach."""
    kept = caches.kept(game)
    if kept is None:
        return _candidates(game, inst)
    key = (candidates, inst)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _candidates(game, inst)
    return list(found[0]), found[1]


def _candidates(game: Game, inst: RaceInst) -> tuple[list[int], bool]:
    front = frontier(game, inst)
    if front is not None:
        return front, True
    return [r for r in range(len(game.board)) if r not in inst.regions], False


def frontier(game: Game, inst: RaceInst) -> list[int] | None:
    """The regions in `inst`'s reach, when the board tells (its borders are the map's, or declared ones
    kept in the board, and its reach rules read only those and the target, where no shield applies):
    the regions bordering its own that are in reach from there, and those its rules put in reach
    wherever they lie (before its first conquest, where it may enter); None when each region must be
    asked. `sample` draws from it too: a region drawn from every region is mostly out of reach, and each
    one asked folds its reach rules (a race declaring adjacency asked four times as much so)."""
    declared = declares_adjacency(game, inst)
    if not inst.regions:
        entry = map_reach(game, inst)
        return None if entry is None else list(entry[1])
    reach = map_reach(game, inst) if modified(game, "conquest.reachable", inst) else (None, ())
    nb = None if reach is None else bordering(game, inst) if declared else game.board.neighbours
    if reach is None or nb is None:
        return None
    near_by: set[int] = set()
    for r in inst.regions:
        near_by |= nb[r]
    near, far = reach
    front = near_by if near is None else {r for r in near_by if near[r]}
    front.update(far)
    front -= inst.regions
    return sorted(front)


def map_reach(game: Game, inst: RaceInst) -> tuple[list[bool] | None, list[int]] | None:
    """Where `inst`'s reach rules put it when they read only the map, the target and borders kept in the
    board (its plan has a per-board table, and no held content or shield can change it now): per region,
    whether it is in reach when it borders the race's regions (None before the first conquest:
    conquest.entry asks no borders), and the regions in reach wherever they lie. None when each region
    must be asked."""
    stat = "conquest.reachable" if inst.regions else "conquest.entry"
    p = plan(game, stat, inst)
    if p.favoured is not None and shielding(game, inst) or not tabled(game, p, stat, inst, None):
        return None
    key = (p.table, "reach")
    found = game.board.memo.get(key)
    if found is None:
        if p.local:  # from the values by kind of region (most boards drawn from modular faces are new)
            kinds = game.board.kind_ids
            near = kind_values(game, stat, True, inst, p) if inst.regions else None
            far = kind_values(game, stat, False, inst, p)
            found = ([bool(near[k]) for k in kinds] if near is not None else None,
                     [r for r, k in enumerate(kinds) if far[k]])
        else:
            regions = range(len(game.board))

            def at(base: bool, r: int) -> bool:
                return bool(fold(game, stat, base, inst, {"target": r}, None, p))
            found = ([at(True, r) for r in regions] if inst.regions else None, [r for r in regions if at(False, r)])
        game.board.memo[key] = found
    return found


def bordering(game: Game, inst: RaceInst) -> list[set[int]] | None:
    """Per region, the regions bordering it by the adjacency `inst` declares: those whose declared
    neighbours include it (declared adjacency need not be symmetric). Kept in the board with that
    adjacency (_adjacency_key) when it is kept there and no race on the board may shield a region from
    `inst`; else None."""
    p = plan(game, "region.adjacent", inst)
    key = None if p.favoured is not None and shielding(game, inst) else adjacency_key(game, inst, p)
    if key is None:
        return None
    memo = game.board.memo
    found = memo.get((bordering, *key[1:]))
    if found is None:
        found = memo[(bordering, *key[1:])] = [set() for _ in range(len(game.board))]
        for r in range(len(game.board)):
            for x in neighbours(game, inst, r):
                found[x].add(r)
    return found
