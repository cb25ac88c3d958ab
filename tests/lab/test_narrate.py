"""Games you can read: `replay --narrate` and `simulate --trace` tell the game with
race and power names, prices, explained costs, die rolls, losses, redeployments,
declines and the coins of each turn, and telling a game does not change it."""

import json
import re

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.engine.replay import checksum, record
from swdsl.engine.setup import new_game
from swdsl.lab.narrate import narrate_record
from swdsl.packs.loader import load_ruleset
from swdsl.sim import Job, run_one


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_replay_narrate_tells_the_saved_game(tmp_path):
    assert run("simulate", "--games", "1", "--seed", "2", "--bots", "heuristic", "--save-dir", str(tmp_path)).exit_code == 0
    (saved,) = tmp_path.glob("*.json")
    r = run("replay", str(saved), "--narrate")
    assert r.exit_code == 0, r.output
    text = r.output
    assert text.startswith("classic: 2 players, seed ") and "map classic-2p, 10 rounds" in text
    assert "Round 1\n  Seat 1, 5 coins: no race\n    picks " in text
    assert re.search(r"picks \w[\w ]+ at position \d \((free|pays \d coins?)", text)
    assert re.search(r"conquers \S+ \(\w+\): conquest\.cost \d+ = base 2", text)
    assert re.search(r"scores \+\d+ coins \(\d+ in all\)", text)
    assert re.search(r"redeploys: [+-]\d+ in ", text)
    assert "declines " in text and "Round 10" in text and "Final: seat" in text
    assert text.rstrip().endswith("final state matches")


def test_narrated_die_rolls_are_the_games_and_telling_changes_nothing():
    rs = load_ruleset(["classic"])
    result = run_one(Job(("classic",), 3, 11, ("heuristic", "random", "random"), trace=True), 0)
    game = new_game(rs, 3, result.seed)
    from swdsl.bots import play
    from swdsl.lab.bots import seat_bots

    play(game, seat_bots(("heuristic", "random", "random"), result.seed))
    told, text = narrate_record(rs, record(game, ["classic"]))
    assert checksum(told) == checksum(game)
    assert text == result.trace  # the same story live and replayed
    rolls = re.findall(r"rolls (\d): (taken|fails)", text)
    assert rolls and all(int(r) in rs.die for r, _ in rolls)
    # a final conquest is taken exactly when the hand and the roll cover the cost
    for hand, cost, roll, verdict in re.findall(r"with (\d+) in hand: conquest\.cost (\d+) = [^;]*; rolls (\d): (\w+)",
                                                text):
        assert (int(hand) + int(roll) >= int(cost)) == (verdict == "taken")


def test_losses_and_withdrawals_are_told():
    result = run_one(Job(("classic",), 2, 4, ("heuristic", "heuristic"), trace=True), 1)
    assert re.search(r"seat \d's [\w ]+ loses 1 token, withdraws \d+", result.trace)
    assert "Lost" in result.trace  # the neutral race of the map, by its name


def test_simulate_trace_prints_each_game():
    r = run("simulate", "--games", "2", "--bots", "random", "--trace", "--jobs", "2")
    assert r.exit_code == 0, r.output
    assert r.output.count("Final: seat") == 2 and "Game 0\n" in r.output and "Game 1\n" in r.output
    doc = json.loads(run("simulate", "--games", "2", "--trace", "--format", "json").output)
    assert len(doc["traces"]) == 2 and all(t.startswith("classic: 2 players") for t in doc["traces"])


def test_abilities_are_told_by_name():
    """Underground races and powers have abilities; their uses are told with the item's name."""
    rs = load_ruleset(["underground"])
    for i in range(10):
        text = run_one(Job(("underground",), 2, i, ("random", "random"), trace=True), 0).trace
        uses = re.findall(r"uses (\w+) \(([^)]+)\)", text)
        if uses:
            names = set(rs.races) | set(rs.powers) | set(rs.markers)
            assert all(source in names for _, source in uses)
            return
    raise AssertionError("no ability used in ten random games")


def test_narrate_of_a_bad_file_is_a_diagnostic(tmp_path):
    f = tmp_path / "g.json"
    f.write_text(json.dumps({"packs": ["classic"], "players": 2, "seed": 1, "actions": [["fly", 3]],
                             "checksum": "x"}))
    r = run("replay", str(f), "--narrate")
    assert r.exit_code == 1 and "SW314" in r.output
