"""A new game from a ruleset, a player count and a seed (core-rules §1)."""

from __future__ import annotations

import random

from swdsl.engine import pieces, turn
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.state import Game, MarketState, Player, RaceInst


def new_game(ruleset: Ruleset, players: int, seed: int) -> Game:
    setup = ruleset.setups[players]
    rng = random.Random(seed)
    banners = sorted(ruleset.banners)
    powers = sorted(ruleset.powers)
    rng.shuffle(banners)
    rng.shuffle(powers)
    n = len(setup.board)
    game = Game(
        ruleset=ruleset, setup=setup, board=setup.board, seed=seed, rng=rng,
        players=[Player(seat, coins=setup.coins) for seat in range(players)],
        market=MarketState([[] for _ in ruleset.market.columns or [()]], powers,
                           [[0] * ruleset.market.visible for _ in ruleset.market.columns or [()]]),
        bank=ruleset.bank - players * setup.coins,
        tray={name: race.supply for name, race in ruleset.races.items()},
        pools={name: m.limit for name, m in ruleset.markers.items() if m.limit is not None},
        hidden={}, occupant=[None] * n, tokens=[0] * n, markers=[[] for _ in range(n)],
    )
    for banner in banners:
        game.market.columns[ruleset.column_of(banner)].append(banner)
    for pl in setup.placements:
        for r, region in enumerate(setup.board.regions):
            hit = region.terrain == pl.match if pl.match_kind == "terrain" else pl.match in region.symbols
            if not hit:
                continue
            if pl.race:
                inst = game.neutrals.get(pl.race)
                if inst is None:
                    inst = RaceInst(game.next_id, ruleset.races[pl.race], None, None, declined=True)
                    game.next_id += 1
                    game.neutrals[pl.race] = game.races[inst.id] = inst
                got = pieces.take_from_tray(game, inst, pl.count)
                if got:
                    game.occupant[r], game.tokens[r] = inst, got
                    inst.regions.add(r)
            else:
                for _ in range(pl.count):
                    pieces.place_marker(game, pl.marker, r, None)
    for name, members in setup.pools.items():
        pool = list(members)
        rng.shuffle(pool)
        game.hidden[name] = pool
    turn.begin_turn(game)
    return game
