"""A new game from a ruleset, a player count and a seed (core-rules §1)."""

from __future__ import annotations

import random

from swdsl.engine import pieces, turn
from swdsl.engine.ruleset import Placement, Ruleset
from swdsl.engine.state import Game, MarketState, Player, RaceInst


def new_game(ruleset: Ruleset, players: int, seed: int) -> Game:
    setup = ruleset.setups[players]
    rng = random.Random(seed)
    banners = sorted(ruleset.banners)
    powers = sorted(ruleset.powers)
    rng.shuffle(banners)
    rng.shuffle(powers)
    board = setup.new_board(rng)
    n = len(board)
    game = Game(
        ruleset=ruleset, setup=setup, board=board, seed=seed, rng=rng,
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
        for r in _placement_regions(game, pl, players):
            if pl.race:
                inst = game.neutrals.get(pl.race)
                if inst is None:
                    inst = RaceInst(game.next_id, ruleset.races[pl.race], None, None, declined=True)
                    game.next_id += 1
                    game.neutrals[pl.race] = game.races[inst.id] = inst
                old = game.occupant[r]
                if old is not None:
                    pieces.to_tray(game, old, game.tokens[r])
                    old.regions.discard(r)
                got = pieces.take_from_tray(game, inst, pl.count)
                game.occupant[r], game.tokens[r] = (inst, got) if got else (None, 0)
                if got:
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


def _placement_regions(game: Game, pl: Placement, players: int) -> list[int]:
    """The regions a placement fills: those matching it (a race only where no
    race stands unless it displaces it), all of them or `pick` of them chosen
    with the game's seed, never two bordering ones if `apart`."""
    out = []
    for r, region in enumerate(game.board.regions):
        hit = region.terrain == pl.match if pl.match_kind == "terrain" else pl.match in region.symbols
        if hit and (not pl.race or pl.displace or game.occupant[r] is None):
            out.append(r)
    if pl.pick is None:
        return out
    per_player, plus = pl.pick
    wanted = per_player * players + plus
    game.rng.shuffle(out)
    chosen: list[int] = []
    for r in out:
        if len(chosen) == wanted:
            break
        if not (pl.apart and game.board.neighbours[r] & set(chosen)):
            chosen.append(r)
    return sorted(chosen)
