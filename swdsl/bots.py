"""Bots play through legal_actions like anyone else; `play` is the play loop.
Stronger bots, and bots by name, are in swdsl/lab/."""

from __future__ import annotations

import random
from typing import Any, cast

from swdsl.engine import market
from swdsl.engine.legal import Action, apply_legal, legal_actions, sample
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import conquest_cost


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game: Game, actions: list[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]

    def act(self, game: Game) -> tuple[Action, object]:
        """One legal action, uniform like `choose`, checked alone instead of listing them all."""
        found = sample(game, self.rng)
        if found is None:
            raise ValueError(f"no legal action in the {game.phase} phase")
        return found


class GreedyBot:
    """Takes the action worth the most coins this turn, by a cheap estimate:
    the richest affordable combo, then every conquest it can pay for (cheapest
    first, since each region scores 1), abilities when offered, decline when the
    active race can no longer expand; ties broken by its seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def value(self, game: Game, a: Action) -> float:
        k = a.kind
        inst = game.acting
        arg: Any = a.a
        if k == "pick":
            column, row, race, power = game.visible_combos()[arg]
            rs = game.ruleset
            return rs.races[race].tokens + rs.powers[power].tokens + game.market.coins[column][row] \
                - market.price(game, column, row)
        if k == "conquer":
            return 10 - conquest_cost(game, cast(RaceInst, inst), arg) / 10
        if k == "final":
            return 5
        if k == "ability":
            return 8
        if k == "decline":
            return 9.5 if inst is not None and inst.hand < 3 and len(inst.regions) > 3 else -1
        if k == "place":
            return 1 + 1 / (1 + game.tokens[arg])
        if k == "gather":
            return -1
        return 0

    def choose(self, game: Game, actions: list[Action]) -> Action:
        best, out = None, []
        for a in actions:
            v = self.value(game, a)
            if best is None or v > best:
                best, out = v, [a]
            elif v == best:
                out.append(a)
        return out[self.rng.randrange(len(out))]


def play(game: Game, bots: list, check=None, limit: int | None = None, watchers: tuple = ()) -> int:
    """Play to the end, or to `limit` actions (the pack's action budget by default);
    `check(game)` after every action, and each watcher's `before(game, action)` and
    `after(game, action)` around it. A bot with `act(game)` draws its action itself (with its
    verdict); the others choose from `legal_actions`. Returns the actions played."""
    n = 0
    limit = game.index.action_budget if limit is None else limit
    acts = [getattr(bot, "act", None) for bot in bots]
    while not game.over and n < limit:
        act = acts[game.actor]
        verdict = None
        if act is not None:
            action, verdict = act(game)
        else:
            action = bots[game.actor].choose(game, legal_actions(game))
        for w in watchers:
            w.before(game, action)
        apply_legal(game, action, verdict)
        n += 1
        for w in watchers:
            w.after(game, action)
        if check is not None:
            check(game)
    return n
