"""Random self-play with every invariant checked after every action
(core-rules.md §2-§12; the invariants of the engine issue)."""

import pytest

from swdsl.bots import RandomBot, play
from swdsl.engine.invariants import violations
from swdsl.engine.replay import checksum, record, replay
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_ruleset


def _play_checked(ruleset, players, seed):
    game = new_game(ruleset, players, seed)
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    problems = []

    def check(g):
        if not problems:
            problems.extend(violations(g))

    play(game, bots, check)
    return game, problems


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(classic, players):
    for seed in range(30):
        game, problems = _play_checked(classic, players, seed)
        assert not problems, f"seed {seed}: {problems[:3]}"
        assert game.over
        assert game.round == classic.setups[players].rounds


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("pack", ["classic", "underground", "warcraft"])
def test_two_thousand_random_games_of_each_edition_keep_invariants(pack, players):
    """Issues #9 and #10: 2,000 random games per edition across 2-5 players (500 each), every
    invariant after every action, every game ending; a sample replays exactly."""
    ruleset = load_ruleset([pack])
    for i in range(500):
        game, problems = _play_checked(ruleset, players, 10_000 + i)
        assert not problems, f"{pack}, {players} players, seed {10_000 + i}: {problems[:3]}"
        assert game.over
        if i % 100 == 0:
            assert checksum(replay(ruleset, record(game, [pack]))) == checksum(game)


def test_every_race_and_power_gets_played(classic):
    """Over many random games every banner and badge reaches the table."""
    races, powers = set(), set()
    for seed in range(40):
        game = new_game(classic, 5, seed)
        bots = [RandomBot(seed + s) for s in range(5)]

        def note(g):
            for inst in g.races.values():
                races.add(inst.race.name)
                if inst.power:
                    powers.add(inst.power.name)
        play(game, bots, note)
    assert races == set(classic.races)
    assert powers == set(classic.powers)


def test_saved_games_replay_to_the_same_state(classic):
    for seed in range(20):
        game, _ = _play_checked(classic, 2 + seed % 4, seed)
        rec = record(game, ["classic"])
        again = replay(classic, rec)
        assert checksum(again) == rec["checksum"]
        assert again.scores() == game.scores()


def test_same_seed_same_game(classic):
    a, _ = _play_checked(classic, 3, 77)
    b, _ = _play_checked(classic, 3, 77)
    assert a.actions == b.actions and checksum(a) == checksum(b)


def test_the_engine_shuffles_as_the_library_does(classic):
    """chance.shuffle is `random.shuffle` written out (compiled): a seed deals the same market, pools and
    placements as before, so saved games keep replaying; the generator is left in the same state."""
    import random

    from swdsl.engine import chance

    game = new_game(classic, 2, 1)
    for seed in range(200):
        items, mine = list(range(seed % 40)), list(range(seed % 40))
        expected = random.Random(seed)
        game.rng = random.Random(seed)
        expected.shuffle(items)
        chance.shuffle(game, mine)
        assert mine == items and game.rng.getstate() == expected.getstate()
