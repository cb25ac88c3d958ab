"""Cancelling a conquest from its own `conquest.done` triggers (`cancel conquest`).

The engine notes what the defender's loss itself changed (its tray, pending
tokens, recruited pieces, markers gone from the region: a `Tally` over the
loss's own steps) and `cancel conquest` takes exactly that back, and the attacker's tokens back into its hand (its bound
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


class Tally:
    """Counts what a loss changes over its own steps only (`lose_region` opens and closes it around
    them): what the triggers it sets off between them do (`region.lost` recruiting, say) is theirs
    and stays, like everything else other triggers do."""

    def __init__(self, game: Game, region: int):
        self.game, self.region = game, region
        self.defender = game.occupant[region]
        self.tokens = game.tokens[region]
        self.log = len(game.turn.log)
        self.steps: list[tuple[tuple, tuple]] = []
        self._at: tuple = ()

    def _now(self) -> tuple:
        game, d = self.game, self.defender
        name = d.race.name if d else ""
        return (Counter(game.markers[self.region]), game.tray.get(name, 0), Counter(game.pools),
                game.destroyed.get(name, 0), Counter(d.troops) if d else Counter(), d.pending if d else 0,
                bool(d and self.region in d.lost), len(game.turn.returning))

    def open(self) -> None:
        self._at = self._now()

    def close(self) -> None:
        self.steps.append((self._at, self._now()))

    def loss(self, attacker: RaceInst) -> Loss:
        """The sum of the steps' changes."""
        markers: Counter = Counter()
        pools: Counter = Counter()
        troops: Counter = Counter()
        tray = destroyed = pending = returning = 0
        lost = False
        for (m0, t0, p0, d0, r0, w0, l0, n0), (m1, t1, p1, d1, r1, w1, l1, n1) in self.steps:
            markers.update(m0)
            markers.subtract(m1)
            pools.update(p1)
            pools.subtract(p0)
            troops.update(r0)
            troops.subtract(r1)
            tray, destroyed, pending, returning = tray + t1 - t0, destroyed + d1 - d0, pending + w1 - w0, \
                returning + n1 - n0
            lost = lost or (l1 and not l0)
        return Loss(self.region, attacker, self.defender, self.tokens, +markers, tray, +pools, destroyed, +troops,
                    pending, lost, returning, self.log)


def cancel(game: Game) -> None:
    """Undo the conquest whose triggers are running; nothing if there is none, if the region
    changed hands again meanwhile, if its defender has left the table, or if a trigger took
    from a pool again a piece the loss had put back there (it cannot serve twice)."""
    loss: Loss | None = game.turn.undo
    if loss is None:
        return
    r, a, d = loss.region, loss.attacker, loss.defender
    if game.occupant[r] is not a or (d is not None and d.id not in game.races) \
            or any(game.pools.get(name, 0) < n for name, n in loss.pools.items()):
        return
    game.turn.undo = None
    a.hand += game.tokens[r]
    a.release(r)
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
        d.hold(r)
    if loss.returning:
        del game.turn.returning[-loss.returning:]
    del game.turn.log[loss.log:]
    game.turn.conquered = any(c.attacker == a.id for c in game.turn.log)
