"""Positions set up by hand on the hard pack's tiny map, for behaviour tests of
the hard items: an empty board, races put where a test wants them."""

from __future__ import annotations

from swdsl.engine import pieces
from swdsl.engine.setup import new_game
from swdsl.engine.state import RaceInst


def empty_game(rs):
    g = new_game(rs, 2, 1)
    for r in range(len(g.board)):  # an empty board: no Monsters, no markers
        if g.occupant[r] is not None:
            pieces.to_tray(g, g.occupant[r], g.tokens[r])
            g.occupant[r].regions.discard(r)
            g.occupant[r], g.tokens[r] = None, 0
        pieces.remove_markers(g, r, lambda name, owner: False)  # back to their pools
    return g


def R(g, rid) -> int:
    return g.board.by_id[str(rid)]


def put(g, race, seat, regions, power=None, declined=False, hand=0):
    rs = g.ruleset
    inst = RaceInst(g.next_id, rs.races[race], rs.powers[power] if power else None, seat, declined=declined)
    g.next_id += 1
    g.races[inst.id] = inst
    for rid, n in regions.items():
        r = R(g, rid)
        g.occupant[r], g.tokens[r] = inst, pieces.take_from_tray(g, inst, n)
        inst.regions.add(r)
    inst.hand = pieces.take_from_tray(g, inst, hand)
    if seat is not None:
        p = g.players[seat]
        if declined:
            p.declined.append(inst)
        else:
            p.active = inst
    return inst
