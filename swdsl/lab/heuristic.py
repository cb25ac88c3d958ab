"""A heuristic bot that plays Small World sensibly, written only against the
engine's vocabulary (legal actions, clones, stats, the board), so it plays any
pack or mix without knowing an item by name.

Two layers. `Tactics` is a fast policy with no lookahead: conquer the regions
worth most per token (a region's worth to this race is measured once, by
letting the engine score a copy of the game with and without it), make a
final conquest when nothing else is affordable, redeploy towards threatened
borders, decline when the race is spent. `HeuristicBot` uses Tactics for the
moves within a turn and plays the rest of the turn ahead on clones where a
choice shapes the whole game: which combo to pick (what the board offers the
race and power shows in the coins that turn brings) and whether an ability is
worth using. Search bots (search.py) play Tactics in their playouts.
"""

from __future__ import annotations

import random
from typing import cast

from swdsl.engine import market
from swdsl.engine import turn as engine_turn
from swdsl.engine.actions import DECLINE, END, PASS, Action
from swdsl.engine.errors import ContentError
from swdsl.engine.legal import apply_legal, legal_actions
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import conquest_cost, value

# how far ahead a turn's income counts when judging a combo, in turns
INCOME_HORIZON = 3
INCOME_WEIGHT = 0.7
MAX_ABILITY_TRIALS = 4  # abilities tried per look
ABILITY_LOOKS = 2  # looks per turn: an ability not found worth it by then waits for the next turn
SPENT_BELOW = 1  # a race that can buy at most this many regions more is spent


def rounds_left(game: Game) -> int:
    """Turns the current player has after this one."""
    return game.setup.rounds - game.round


class Tactics:
    """The fast policy: every decision from the state at hand, no lookahead."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.worth: dict[tuple, _Worth] = {}

    # ---- what regions are worth ------------------------------------------------------

    def region_worth(self, game: Game, inst: RaceInst, r: int) -> float:
        """Coins region r would bring `inst`'s player at scoring, measured by scoring
        a copy of the game with and without it (bonuses of the race, its power and
        the edition rules included); once per region, race, power and board."""
        key = (inst.race.name, inst.power.name if inst.power else None, game.board.name, inst.player)
        worth = self.worth.get(key)
        if worth is None:
            worth = self.worth[key] = _Worth(game, inst)
        return worth.of(game, inst, r)

    def hurt(self, game: Game, r: int, seat: int | None) -> float:
        """What taking `r` costs its holder: more from an active opponent (a token and
        its future), less from a declined one, nothing from nobody."""
        inst = game.occupant[r]
        if inst is None or inst.player is None or inst.player == seat:
            return 0.0
        return 0.25 if inst.declined else 0.6

    def threat(self, game: Game, inst: RaceInst, r: int) -> float:
        """How exposed a held region is: its neighbours held by others' active races
        count most, then any neighbour the race does not hold."""
        t = 0.0
        for n in game.board.neighbours[r]:
            occ = game.occupant[n]
            if occ is inst:
                continue
            if occ is not None and occ.player is not None and occ.player != inst.player and not occ.declined:
                t += 1.0 + 0.25 * game.tokens[n]
            else:
                t += 0.3
        if game.board.regions[r].edge:
            t += 0.2
        return t

    # ---- decisions -----------------------------------------------------------------------

    def choose(self, game: Game, actions: list[Action]) -> Action:
        phase = game.phase
        if phase == "pick":
            return self.pick(game, actions)
        if phase == "conquer":
            return self.conquer(game, actions)
        if phase == "redeploy":
            return self.redeploy(game, actions)
        if phase == "defend":
            return self.place(game, actions)
        if phase == "after":
            return DECLINE if DECLINE in actions and self.spent(game, game.acting, actions) else PASS
        return actions[0]

    def pick(self, game: Game, actions: list[Action]) -> Action:
        offers = game.visible_combos()
        rs = game.ruleset

        def worth(a: Action) -> float:
            column, row, race, power = offers[cast(int, a.a)]
            return (rs.races[race].tokens + rs.powers[power].tokens + game.market.coins[column][row]
                    + game.market.tokens[column][row] - market.price(game, column, row) + self.rng.random() * 0.01)
        return max(actions, key=worth)

    def conquer(self, game: Game, actions: list[Action]) -> Action:
        inst = game.acting
        assert inst is not None
        if DECLINE in actions and self.spent(game, inst, actions):
            return DECLINE
        gains = []
        for a in actions:
            if a.kind == "conquer":
                r = cast(int, a.a)
                worth = self.region_worth(game, inst, r) + self.hurt(game, r, inst.player)
                if worth > 0:
                    gains.append(((worth + 0.01 * self.rng.random()) / max(1, conquest_cost(game, inst, r)), a))
        if gains:
            return max(gains, key=lambda g: g[0])[1]
        finals = [a for a in actions if a.kind == "final"]
        if finals:
            return min(finals, key=lambda a: (conquest_cost(game, inst, a.a), self.rng.random()))  # type: ignore
        return END if END in actions else actions[0]

    def redeploy(self, game: Game, actions: list[Action]) -> Action:
        inst = game.acting
        assert inst is not None
        for a in actions:
            if a.kind == "gather" and self.threat(game, inst, a.a) == 0:  # type: ignore[arg-type]
                return a
        if any(a.kind == "place" for a in actions):
            return self.place(game, actions)
        return END if END in actions else actions[0]

    def place(self, game: Game, actions: list[Action]) -> Action:
        inst = game.acting
        assert inst is not None
        places = [a for a in actions if a.kind == "place"]
        if not places:
            return END if END in actions else actions[0]
        return max(places, key=lambda a: (self.threat(game, inst, a.a) + 0.01) / (game.tokens[a.a] + 1))  # type: ignore

    def spent(self, game: Game, inst: RaceInst | None, actions: list[Action]) -> bool:
        """Is the race worth less than a fresh one? When its tokens in hand buy at most
        one more region and the game lasts long enough for a new race to pay off."""
        if inst is None or inst.declined or rounds_left(game) < 2:
            return False
        costs = sorted(conquest_cost(game, inst, cast(int, a.a)) for a in actions if a.kind in ("conquer", "final"))
        hand, bought = inst.hand, 0
        for c in costs:
            if c > hand:
                break
            hand -= c
            bought += 1
        return bought <= SPENT_BELOW and inst.turns >= 2 and len(inst.regions) >= 2


class _Worth:
    """What regions are worth to one race: its player's score on copies of the
    game with and without each region, measured when first asked."""

    def __init__(self, game: Game, inst: RaceInst):
        self.base = _score(game, inst, None) if inst.player is not None else None
        self.known: dict[int, float] = {}

    def of(self, game: Game, inst: RaceInst, r: int) -> float:
        worth = self.known.get(r)
        if worth is None:
            if value(game, "redeploy.vacate", inst, target=r):
                worth = 0.0  # left again before scoring
            elif self.base is None:
                worth = 1.0
            else:
                score = _score(game, inst, r)
                worth = 1.0 if score is None else max(0.0, score - self.base)
            self.known[r] = worth
        return worth


def _score(game: Game, inst: RaceInst, region: int | None) -> int | None:
    copy = game.clone()
    me = copy.races.get(inst.id)
    if me is None or me.player is None:
        return None
    if region is not None and region not in me.regions:  # whoever held it is left out of this measure
        copy.tokens[region] = 1
        copy.occupant[region] = me
        me.hold(region)
    before = copy.players[me.player].coins
    try:
        engine_turn.score(copy, me.player)
    except ContentError:
        return None
    return copy.players[me.player].coins - before


# ---- playing ahead -------------------------------------------------------------------------


def finish_turn(game: Game, tactics: Tactics) -> None:
    """Play the current turn to its end (defenders' placements included) with Tactics."""
    now = game.turn
    while not game.over and game.turn is now:
        actions = legal_actions(game)
        apply_legal(game, tactics.choose(game, actions))


class HeuristicBot:
    """Tactics within a turn; turn-long lookahead for picks and abilities."""

    def __init__(self, seed: int):
        self.tactics = Tactics(seed)
        self.rng = self.tactics.rng
        self.refused: tuple[object, set, list[int]] = (None, set(), [0])  # this turn: judged useless, looks taken

    def choose(self, game: Game, actions: list[Action]) -> Action:
        if game.phase == "pick" and len(actions) > 1:
            return max(actions, key=lambda a: self.pick_worth(game, a))
        abilities = [a for a in actions if a.kind == "ability"]
        if abilities and game.actor == game.current:
            use = self.ability(game, actions, abilities)
            if use is not None:
                return use
        return self.tactics.choose(game, [a for a in actions if a.kind != "ability"] or actions)

    def pick_worth(self, game: Game, action: Action) -> float:
        """The coins the turn brings with this combo, and its income for the turns ahead."""
        seat = game.current
        c0 = game.players[seat].coins
        ahead = game.clone()
        try:
            apply_legal(ahead, action)
            c1 = ahead.players[seat].coins
            finish_turn(ahead, self.tactics)
        except ContentError:
            return float("-inf")
        c2 = ahead.players[seat].coins
        horizon = min(rounds_left(game), INCOME_HORIZON) * INCOME_WEIGHT
        return (c2 - c0) + horizon * (c2 - c1) + 0.01 * self.rng.random()

    def ability(self, game: Game, actions: list[Action], abilities: list[Action]) -> Action | None:
        """An ability worth more coins by the end of the turn than going on without it."""
        turn_now, refused, looks = self.refused
        if turn_now is not game.turn:
            refused, looks = set(), [0]
            self.refused = (game.turn, refused, looks)
        fresh = [a for a in abilities if a not in refused]
        if not fresh or looks[0] >= ABILITY_LOOKS:
            return None
        looks[0] += 1
        if len(fresh) > MAX_ABILITY_TRIALS:
            fresh = self.rng.sample(fresh, MAX_ABILITY_TRIALS)
        without = self.turn_coins(game, None)
        best, best_coins = None, without
        for a in fresh:
            coins = self.turn_coins(game, a)
            if coins > best_coins:
                best, best_coins = a, coins
            else:
                refused.add(a)
        return best

    def turn_coins(self, game: Game, first: Action | None) -> float:
        """The player's coins and regions at the end of this turn, played ahead from `first`."""
        seat = game.current
        ahead = game.clone()
        try:
            if first is not None:
                apply_legal(ahead, first)
            finish_turn(ahead, self.tactics)
        except ContentError:
            return float("-inf")
        p = ahead.players[seat]
        return p.coins + 0.5 * (len(p.active.regions) if p.active else 0)
