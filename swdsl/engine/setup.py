"""A new game from a ruleset, a player count and a seed (core-rules §1)."""

from __future__ import annotations

import random

from swdsl.engine import chance, pieces, turn
from swdsl.engine.board import Board
from swdsl.engine.ruleset import Placement, Ruleset
from swdsl.engine.state import Game, MarketState, Player


def new_game(ruleset: Ruleset, players: int, seed: int) -> Game:
    """The game at its first decision: setup done, the first player to pick."""
    game = prepared(ruleset, players, seed)
    place_setup_pieces(game)
    turn.begin_turn(game)
    return game


def prepared(ruleset: Ruleset, players: int, seed: int, board: Board | None = None) -> Game:
    """The table before the setup pieces: market shuffled and laid out, coins
    dealt, the board drawn (or `board`), hidden pools shuffled. On the setup's
    own board, the races and powers it discards (they make no sense there) are
    never on offer: their banners set aside, their badges on the discard pile; so
    is, on any board, a banner that fits no market column."""
    setup = ruleset.setups[players]
    start = _start(ruleset, players, board is None)
    game = Game(
        ruleset=ruleset, setup=setup, board=board or setup.board or Board.build("?", [], []),
        seed=seed, rng=random.Random(seed),
        players=[Player(seat, coins=setup.coins) for seat in range(players)],
        market=MarketState([[] for _ in range(start.columns_count)], list(start.powers),
                           [[0] * ruleset.market.visible for _ in range(start.columns_count)],
                           discard=list(start.discard), out=list(start.out)),
        bank=ruleset.bank - players * setup.coins, tray=dict(start.tray), pools=dict(start.pools),
        hidden={}, occupant=[], tokens=[], markers=[],
    )
    banners = list(start.banners)
    chance.shuffle(game, banners)
    chance.shuffle(game, game.market.powers)
    if board is None and setup.layout is not None:
        game.board = setup.layout.draw(game.rng)
    n = len(game.board)
    game.occupant, game.tokens, game.markers = [None] * n, [0] * n, [[] for _ in range(n)]
    for banner in banners:
        game.market.columns[start.columns[banner]].append(banner)
    for name, members in setup.pools.items():  # a limited piece in a hidden pool comes out of the box
        game.hidden[name] = [m for m in members if pieces.take_piece(game, m)]
    return game


class Start:
    """What every new game of a ruleset and player count starts from before its shuffles: the banners
    and powers on offer, in order, those set aside, the trays, the pieces in the box and each banner's
    market column. Worked out once (Index.starts): a replay or a search plays many short games."""

    def __init__(self, ruleset: Ruleset, players: int, own_board: bool) -> None:
        out = (ruleset.setups[players].discarded if own_board else frozenset()) | {
            ("race", b) for b in ruleset.banners if ruleset.market.column_for(ruleset.races[b].tags) is None}
        self.columns = {b: ruleset.column_of(b) for b in ruleset.banners if ("race", b) not in out}
        self.columns_count = len(ruleset.market.columns or [()])
        self.banners = sorted(self.columns)
        self.powers = sorted(p for p in ruleset.powers if ("power", p) not in out)
        self.discard = sorted(p for p in ruleset.powers if ("power", p) in out)
        self.out = sorted(b for b in ruleset.banners if ("race", b) in out)
        self.tray = {name: race.supply for name, race in ruleset.races.items()}
        self.pools = {name: m.limit for name, m in ruleset.markers.items() if m.limit is not None}


def _start(ruleset: Ruleset, players: int, own_board: bool) -> Start:
    key = (players, own_board)
    found = ruleset.index.starts.get(key)
    if found is None:
        found = ruleset.index.starts[key] = Start(ruleset, players, own_board)
    return found


def place_setup_pieces(game: Game) -> None:
    """The setup placements (neutral races, markers, and markers drawn from a
    hidden pool, shuffled before its first draw, on matching regions), then the
    other hidden pools shuffled."""
    shuffled: set[str] = set()
    for pl in game.setup.placements:
        for r in _placement_regions(game, pl):
            if pl.race:
                inst = game.neutrals.get(pl.race)
                if inst is None:
                    inst = pieces.new_race(game, game.ruleset.races[pl.race], None, None, declined=True)
                    game.neutrals[pl.race] = inst
                pieces.occupy(game, inst, r, pl.count)
            elif pl.pool:
                if pl.pool not in shuffled:
                    shuffled.add(pl.pool)
                    chance.shuffle(game, game.hidden.get(pl.pool, []))
                for _ in range(pl.count):
                    pieces.lay_from_pool(game, pl.pool, r, pl.face_down)
            else:
                for _ in range(pl.count):
                    pieces.place_marker(game, pl.marker, r, None)
    for name, pool in game.hidden.items():
        if name not in shuffled:
            chance.shuffle(game, pool)


def _placement_regions(game: Game, pl: Placement) -> list[int]:
    """The regions a placement fills: those matching it (a race only where no
    race stands unless it displaces it), all of them or `pick` of them chosen
    with the game's seed, never two bordering ones if `apart`."""
    out = []
    for r, region in enumerate(game.board.regions):
        hit = region.terrain == pl.match if pl.match_kind == "terrain" else pl.match in region.symbols
        hit = hit or bool(pl.alike) and (region.terrain in pl.alike or not pl.alike.isdisjoint(region.symbols))
        if hit and (not pl.race or pl.displace or game.occupant[r] is None):
            out.append(r)
    if pl.pick is None:
        return out
    per_player, plus = pl.pick
    wanted = per_player * len(game.players) + plus
    chance.shuffle(game, out)
    chosen: list[int] = []
    for r in out:
        if len(chosen) == wanted:
            break
        if not (pl.apart and game.board.neighbours[r] & set(chosen)):
            chosen.append(r)
    return sorted(chosen)
