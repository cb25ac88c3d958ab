"""A search bot: Monte-Carlo playouts over `Game.clone()` at the decisions that
shape a game — which combo to pick, whether to go into decline — and the
heuristic bot's moves everywhere else.

Each candidate is played on copies of the game: the candidate, then every
player's Tactics (heuristic.py) until the end of the bot's next turn, and the
position is judged by coins plus the income the player's regions promise, against
the best opponent. Copies see no more than a player would: their die rolls come
from the bot's own generator and face-down pools are shuffled. The strength knob
is the number of playouts per decision, shared among the candidates by UCB1.
"""

from __future__ import annotations

import math

from swdsl.engine import caches
from swdsl.engine.actions import DECLINE, Action
from swdsl.engine.errors import ContentError
from swdsl.engine.legal import apply_legal, legal_actions
from swdsl.engine.state import Game
from swdsl.lab.heuristic import INCOME_HORIZON, INCOME_WEIGHT, HeuristicBot, Tactics, rounds_left

DEFAULT_PLAYOUTS = 32
EXPLORE = 2.0  # UCB1's exploration, in coins


class SearchBot:
    def __init__(self, seed: int, playouts: int = DEFAULT_PLAYOUTS):
        self.heuristic = HeuristicBot(seed)
        self.rng = self.heuristic.rng
        self.tactics = Tactics(seed + 1)
        self.playouts = playouts

    def choose(self, game: Game, actions: list[Action]) -> Action:
        candidates = self.candidates(game, actions)
        if len(candidates) < 2 or self.playouts < len(candidates):
            return self.heuristic.choose(game, actions)
        return self.search(game, candidates)

    def candidates(self, game: Game, actions: list[Action]) -> list[Action]:
        """The choices worth searching: picks, and declining against the heuristic's move."""
        if game.phase == "pick":
            return actions
        if DECLINE in actions and game.actor == game.current:
            other = self.heuristic.choose(game, [a for a in actions if a != DECLINE])
            return [DECLINE, other]
        return []

    def search(self, game: Game, candidates: list[Action]) -> Action:
        seat = game.current
        n = [0] * len(candidates)
        total = [0.0] * len(candidates)
        for i in range(self.playouts):
            if i < len(candidates):
                k = i
            else:
                k = max(range(len(candidates)),
                        key=lambda j: total[j] / n[j] + EXPLORE * math.sqrt(math.log(i) / n[j]))
            n[k] += 1
            total[k] += self.playout(game, candidates[k], seat)
        return candidates[max(range(len(candidates)), key=lambda j: (total[j] / n[j], -j))]

    def playout(self, game: Game, first: Action, seat: int) -> float:
        ahead = self.determinized(game)
        turns = 0
        try:
            apply_legal(ahead, first)
            now = ahead.turn
            while not ahead.over:
                if ahead.turn is not now:
                    now = ahead.turn
                    if ahead.current == seat:
                        turns += 1
                    elif turns:
                        break
                with caches.reading(ahead):  # the tactics only read: costs and holdings priced once
                    action = self.tactics.choose(ahead, legal_actions(ahead))
                apply_legal(ahead, action)
        except ContentError:
            return -1000.0
        return judge(ahead, seat)

    def determinized(self, game: Game) -> Game:
        """A copy whose chance is the bot's own: fresh die rolls, face-down pools shuffled."""
        ahead = game.clone()
        ahead.rng.seed(self.rng.getrandbits(64))
        for pool in ahead.hidden.values():
            ahead.rng.shuffle(pool)
        return ahead


def standing(game: Game, seat: int) -> float:
    """Coins, plus the coins the player's regions promise over the next turns."""
    p = game.players[seat]
    regions = sum(len(inst.regions) for inst in ([p.active] if p.active else []) + p.declined)
    horizon = min(rounds_left(game) + (1 if game.current < seat else 0), INCOME_HORIZON)
    return p.coins + INCOME_WEIGHT * horizon * regions


def judge(game: Game, seat: int) -> float:
    """The player's standing against the best opponent's (alone at the table: its own)."""
    mine = standing(game, seat)
    return mine - max((standing(game, s) for s in range(len(game.players)) if s != seat), default=0)
