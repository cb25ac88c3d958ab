"""What a balance report needs from one game, noted while it is played: the
combos on offer at each pick and which was taken, each picked combo's life
(turns active, coins and regions while active, when it declined), conquests.

The observer watches the play loop (before and after each action) and reads
only the public state, so it costs a few comparisons per action.
"""

from __future__ import annotations

import attrs

from swdsl.engine.legal import Action
from swdsl.engine.state import Game


@attrs.define
class Appearance:
    """A combo a seat picked, and how it fared while it was the seat's active race."""

    seat: int
    race: str
    power: str
    position: int  # its row in the market (0 = the first, free; in a market of several columns, rows repeat)
    turns: int = 0  # turns it ended as the active race
    coins: int = 0  # coins its player gained in those turns
    regions: int = 0  # regions it held at the end of those turns, summed
    declined: int | None = None  # the round it went into decline


@attrs.frozen
class Offer:
    """One pick: the combos on offer, in market order, as (race, power, row), and the one taken."""

    combos: tuple[tuple[str, str, int], ...]
    taken: int


class Observer:
    def __init__(self, game: Game):
        self.appearances: list[Appearance] = []
        self.offers: list[Offer] = []
        self.conquests = 0
        self._by_race: dict[int, Appearance] = {}
        self._picked: Appearance | None = None
        self._start_turn(game)

    def _start_turn(self, game: Game) -> None:
        self._turn = game.turn
        self._seat = game.current
        self._coins = game.players[game.current].coins

    def before(self, game: Game, action: Action) -> None:
        if action.kind == "pick":
            combos = game.visible_combos()
            k: int = action.a  # type: ignore[assignment]
            _, row, race, power = combos[k]
            self.offers.append(Offer(tuple((c[2], c[3], c[1]) for c in combos), k))
            self._picked = Appearance(game.current, race, power, row)
            self.appearances.append(self._picked)
        elif action.kind == "decline" and game.acting is not None:
            app = self._by_race.get(game.acting.id)
            if app is not None:
                app.declined = game.round

    def after(self, game: Game, action: Action) -> None:
        if self._picked is not None:
            active = game.players[self._picked.seat].active
            if active is not None:
                self._by_race[active.id] = self._picked
            self._picked = None
        if game.turn is not self._turn or game.over:
            self._end_turn(game)
            if not game.over:
                self._start_turn(game)

    def _end_turn(self, game: Game) -> None:
        self.conquests += len(self._turn.log)
        p = game.players[self._seat]
        app = self._by_race.get(p.active.id) if p.active is not None else None
        if app is not None:
            app.turns += 1
            app.coins += p.coins - self._coins
            app.regions += len(p.active.regions)  # type: ignore[union-attr]
