"""Can any race make a first conquest on each map of a pack?

A race holding no region may only attack where `conquest.entry` holds (the
pack's entry rule). A pack whose entry rule holds nowhere on one of its maps
plays games in which nobody ever conquers: legal, silent, and useless. The
engine answers the question itself, so the warning knows no rule by name; a
map without edge regions is named as the cause when marking every region an
edge would have let races in.
"""

from __future__ import annotations

import dataclasses

from swdsl.diagnostics import Diagnostic
from swdsl.engine.board import Board
from swdsl.engine.errors import ContentError
from swdsl.engine.legal import can_target
from swdsl.engine.position import Position
from swdsl.engine.ruleset import Ruleset
from swdsl.packs.yamlnodes import Reader


def first_conquest_warnings(ruleset: Ruleset, manifests) -> list[Diagnostic]:
    """SW243 for each setup map where no race (with no power, or with any power) may enter
    a region; SW244 instead when the map has no edge region and the entry rule needs one."""
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        for count, entry in sorted(m.setup.items()):
            setup = ruleset.setups.get(count)
            if setup is None or ("map" in entry and setup.board is None):
                continue
            board = setup.board or Position(ruleset, count).game.board
            if board.name in seen:
                continue
            seen.add(board.name)
            node = entry["map"][1] if "map" in entry else entry["node"]
            where = f"map {board.name}" if setup.board else f"the boards drawn for {count} players"
            playable = sorted(n for n, c in ruleset.races.items() if not c.neutral)
            if not any(r.edge for r in board.regions):
                entering = _entering(ruleset, count, board, playable)
                all_edges = Board.build(board.name, [dataclasses.replace(r, edge=True) for r in board.regions],
                                        [(a, b) for a, nb in enumerate(board.neighbours) for b in nb if a < b])
                kept_out = _entering(ruleset, count, all_edges, [r for r in playable if r not in entering])
                if kept_out:
                    rd.warning(node, "SW244", f"{where} has no edge region, and the pack's entry rule needs one: "
                               f"{_some(kept_out)} could make a first conquest only at an edge",
                               "mark the regions at the border of the board `edge: true` in the map")
                    continue
                if entering:
                    continue
            elif any(_enters(ruleset, count, board, race, None) for race in playable):  # one race is enough
                continue
            if playable and not any(_enters(ruleset, count, board, playable[0], power)
                                    for power in sorted(ruleset.powers)):
                rd.warning(node, "SW243", f"no race can make a first conquest on {where}: the entry rule "
                           "(`conquest.entry`) holds for none of its regions",
                           "write an edition rule `modify conquest.entry set true when …` that some region meets")
    return diags


def _entering(ruleset: Ruleset, players: int, board: Board, races: list[str]) -> set[str]:
    """Those of `races` that, with no power, find a region they may attack while holding none."""
    return {race for race in races if _enters(ruleset, players, board, race, None)}


def _enters(ruleset: Ruleset, players: int, board: Board, race: str, power: str | None) -> bool:
    try:
        pos = Position(ruleset, players, board=board, setup_pieces=True)
        inst = pos.race(race, 0, power)
        game = pos.start()
        return any(can_target(game, inst, r) for r in range(len(board)))
    except ContentError:
        return True  # the content stops a game here; playing it reports that, not this check


def _some(names: set[str]) -> str:
    shown = sorted(names)
    return ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
