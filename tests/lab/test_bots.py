"""The lab's bots: seeded and deterministic, one per seat, playing every pack and
mix by the engine's vocabulary; the heuristic beats random play; the search bot
looks ahead on copies and leaves the game alone. (The strength ladder over many
games is measured in benchmarks/ladder.py, not here.)"""

import pytest

from swdsl.bots import RandomBot, play
from swdsl.engine.legal import legal_actions
from swdsl.engine.outcome import winner
from swdsl.engine.replay import checksum
from swdsl.engine.setup import new_game
from swdsl.lab.bots import maker, seat_bots, seat_specs
from swdsl.lab.heuristic import HeuristicBot, Tactics
from swdsl.lab.search import SearchBot
from swdsl.packs.loader import load_ruleset


@pytest.fixture(scope="module")
def packs():
    return {name: load_ruleset([name]) for name in ("classic", "underground", "warcraft")}


def _game(rs, seed, specs):
    game = new_game(rs, len(specs), seed)
    play(game, seat_bots(tuple(specs), seed))
    return game


@pytest.mark.parametrize("spec", ["heuristic", "search:4"])
def test_same_seed_same_game(packs, spec):
    a = _game(packs["classic"], 3, [spec, "random"])
    b = _game(packs["classic"], 3, [spec, "random"])
    assert a.actions == b.actions and checksum(a) == checksum(b)
    assert a.over


def test_the_heuristic_beats_random_play_on_every_bundled_pack(packs):
    for name, rs in packs.items():
        wins = 0
        for i in range(4):  # seat-balanced: the heuristic plays first, then second
            seat = i % 2
            specs = ["random", "random"]
            specs[seat] = "heuristic"
            wins += winner(_game(rs, 100 + i, specs)) == seat
        assert wins >= 3, name


def test_bots_play_a_mix_and_a_modular_board_pack():
    mix = load_ruleset(["classic", "underground"])
    game = _game(mix, 5, ["heuristic", "search:4", "random"])
    assert game.over and sum(game.scores()) > 0


def test_the_search_bot_leaves_the_game_unchanged(packs):
    game = new_game(packs["warcraft"], 2, 9)
    before = checksum(game)
    action = SearchBot(1, playouts=12).choose(game, legal_actions(game))
    assert checksum(game) == before
    assert action in legal_actions(game)


def test_the_search_bot_searches_picks_and_declines_only(packs):
    game = new_game(packs["classic"], 2, 4)
    bot = SearchBot(1, playouts=6)
    assert bot.candidates(game, legal_actions(game)) == legal_actions(game)  # the first pick
    play(game, [RandomBot(1), RandomBot(2)], limit=3)  # into the conquests of the first turn
    assert game.phase == "conquer" and bot.candidates(game, legal_actions(game)) == []


def test_region_worth_sees_what_a_race_scores_there(packs):
    """Worth comes from the engine's own scoring: regions left before scoring
    (redeploy.vacate) are worth nothing; a held region worth at least its coin."""
    rs = packs["underground"]
    game = new_game(rs, 2, 1)
    play(game, [HeuristicBot(1), HeuristicBot(2)], limit=1)
    inst = game.players[0].active
    tactics = Tactics(0)
    worth = [tactics.region_worth(game, inst, r) for r in range(len(game.board))]
    from swdsl.engine.stats import value
    vacated = [r for r in range(len(game.board)) if value(game, "redeploy.vacate", inst, target=r)]
    assert vacated and all(worth[r] == 0 for r in vacated)
    assert max(worth) >= 1


def test_bot_specs():
    assert seat_specs("random", 3) == ("random",) * 3
    assert seat_specs("heuristic, search:8", 2) == ("heuristic", "search:8")
    assert isinstance(maker("search:8")(1), SearchBot) and maker("search:8")(1).playouts == 8
    for bad, words in (("clever", "unknown bot"), ("random:3", "takes no strength"), ("search:x", "playouts"),
                       ("search:0", "playouts")):
        with pytest.raises(ValueError, match=words):
            maker(bad)
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        seat_specs("random,random,random", 2)


def test_the_search_bot_plays_a_table_of_one(tmp_path):
    """A pack may set up a game for one player: with no opponent to measure against, the search
    bot judges a playout by its own standing (found by a soak of generated packs: it crashed)."""
    (tmp_path / "pack.yaml").write_text(
        "name: alone\nterrains: [forest, hill]\nsetup:\n  1: {map: map.yaml, rounds: 3, coins: 5}\n")
    (tmp_path / "map.yaml").write_text(
        "name: m\nregions:\n  1: {terrain: forest, edge: true}\n  2: {terrain: hill, edge: true}\n"
        "  3: {terrain: forest}\nborders:\n  - [1, 2]\n  - [2, 3]\n")
    (tmp_path / "content.sw").write_text(
        "rule Entry {\n  modify conquest.entry set true when target is edge\n}\n"
        + "".join(f"race R{i} {{\n  banner 3\n  supply 8\n}}\npower P{i} {{\n  badge 2\n}}\n" for i in range(6)))
    game = new_game(load_ruleset([str(tmp_path)]), 1, 1)
    play(game, [SearchBot(1, 8)])
    assert game.over and game.players[0].coins > 5
