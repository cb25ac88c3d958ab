"""Cancelling a conquest from its own `conquest.done` triggers (`cancel conquest`).

The engine notes what the defender's loss changed (its tray, pending tokens,
recruited pieces, markers gone from the region) and `cancel conquest` takes
exactly that back, and the attacker's tokens back into its hand (its bound
markers leave with it). What other triggers did meanwhile (coins, other
regions) stays: the conquest is undone, not the turn. The note lives only while
the conquest's own triggers run, never between actions.
"""

from __future__ import annotations

from collections import Counter

import attrs

from swdsl.engine.pieces import markers_leave_with
from swdsl.engine.state import Game, RaceInst


@attrs.frozen
class Loss:
    """What a conquest's loss changed: the defender's side, before and after."""

    region: int
    attacker: RaceInst
    defender: RaceInst | None
    tokens: int  # the defender's tokens in the region before
    markers: Counter  # the region's markers the loss took away
    tray: int  # the defender's tray grew by this
    pools: Counter  # pieces that went back to their pools
    destroyed: int
    troops: Counter  # the defender's recruited pieces lost
    pending: int  # tokens withdrawn
    lost: bool  # the region was newly added to the defender's lost regions
    returning: int  # markers sent back to their owner
    log: int  # the conquest log's length before


def before(game: Game, region: int) -> tuple:
    d = game.occupant[region]
    name = d.race.name if d else ""
    return (Counter(game.markers[region]), game.tray.get(name, 0), Counter(game.pools),
            game.destroyed.get(name, 0), Counter(d.troops) if d else Counter(), d.pending if d else 0,
            bool(d and region in d.lost), len(game.turn.returning), len(game.turn.log))


def note(game: Game, region: int, attacker: RaceInst, defender: RaceInst | None, tokens: int, old: tuple) -> Loss:
    """The difference between `old` (`before`) and now, the loss done."""
    markers, tray, pools, destroyed, troops, pending, lost, returning, log = old
    name = defender.race.name if defender else ""
    return Loss(region, attacker, defender, tokens, markers - Counter(game.markers[region]),
                game.tray.get(name, 0) - tray, Counter(game.pools) - pools,
                game.destroyed.get(name, 0) - destroyed, troops - Counter(defender.troops) if defender else Counter(),
                (defender.pending - pending) if defender else 0, bool(defender and not lost),
                len(game.turn.returning) - returning, log)


def cancel(game: Game) -> None:
    """Undo the conquest whose triggers are running; nothing if there is none, if the region
    changed hands again meanwhile, or if its defender has left the table."""
    loss: Loss | None = game.turn.undo
    if loss is None:
        return
    r, a, d = loss.region, loss.attacker, loss.defender
    if game.occupant[r] is not a or (d is not None and d.id not in game.races):
        return
    game.turn.undo = None
    a.hand += game.tokens[r]
    a.regions.discard(r)
    game.occupant[r], game.tokens[r] = None, 0
    markers_leave_with(game, r, a)
    for piece, n in loss.markers.items():
        game.markers[r].extend([piece] * n)
    game.where = None
    for name, n in loss.pools.items():
        game.pools[name] -= n
    if d is not None:
        game.tray[d.race.name] -= loss.tray
        game.destroyed[d.race.name] = game.destroyed.get(d.race.name, 0) - loss.destroyed
        for name, n in loss.troops.items():  # recruited pieces lost come back to serve
            d.troops[name] = d.troops.get(name, 0) + n
        d.pending -= loss.pending
        if loss.lost:
            d.lost.discard(r)
        game.occupant[r], game.tokens[r] = d, loss.tokens
        d.regions.add(r)
    if loss.returning:
        del game.turn.returning[-loss.returning:]
    del game.turn.log[loss.log:]
    game.turn.conquered = any(c.attacker == a.id for c in game.turn.log)
