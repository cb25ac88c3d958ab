"""Teams as pack data (docs/packs/format.md "Teams", "Packs built on packs"): a setup's `teams`,
the top-level `team_score`, their diagnostics (SW250-SW252), a pack's own market and setups
winning over those of the packs it requires; and the Battle for Azeroth pack (packs/bfa) played
by bots with every invariant checked, its games replayed."""

import shutil

import pytest

from swdsl.bots import RandomBot, play
from swdsl.engine.invariants import violations
from swdsl.engine.outcome import team_scores, team_winners, teams
from swdsl.engine.replay import checksum, record, replay
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs, load_ruleset
from swdsl.resources import bundled_packs_dir
from swdsl.scenarios import read_file, run_scenario, validate


def _pack(tmp_path, body: str):
    """A pack built on classic, with classic's 2-player map and `body` in its pack.yaml."""
    pack = tmp_path / "sides"
    (pack / "maps").mkdir(parents=True)
    shutil.copy(bundled_packs_dir() / "classic" / "maps" / "2p.yaml", pack / "maps" / "2p.yaml")
    (pack / "pack.yaml").write_text("name: sides\nrequires: [classic]\n" + body, encoding="utf-8")
    return load_packs([str(pack)])


def _codes(loaded):
    return sorted((d.code, d.severity) for d in loaded.diagnostics)


def test_teams_and_team_score_are_read_and_win_over_the_required_pack(tmp_path):
    loaded = _pack(tmp_path, "team_score: highest\nmarket: {visible: 3, payment: bank}\n"
                             "setup:\n  2: {map: maps/2p.yaml, rounds: 4, coins: 7, teams: [red, blue]}\n")
    assert _codes(loaded) == []
    rs = loaded.ruleset
    assert rs.team_score == "highest" and rs.market.visible == 3 and rs.market.payment == "bank"
    assert rs.setups[2].teams == ("red", "blue") and rs.setups[2].rounds == 4  # not classic's 10
    assert rs.setups[3].teams == () and rs.setups[3].rounds == 10               # classic's own
    assert rs.bank == load_ruleset(["classic"]).bank and rs.team_score == "highest"
    game = new_game(rs, 2, 1)
    assert teams(game) == {"red": (0,), "blue": (1,)} and team_scores(game) == {"red": 7, "blue": 7}
    assert teams(new_game(rs, 3, 1)) == {} and team_winners(new_game(rs, 3, 1)) == []


def test_without_team_score_a_team_scores_the_sum(tmp_path):
    rs = _pack(tmp_path, "setup:\n  2: {map: maps/2p.yaml, teams: [red, red]}\n").ruleset
    assert rs.team_score == "sum" and team_scores(new_game(rs, 2, 1)) == {"red": 10}


@pytest.mark.parametrize("body, code", [
    ("setup:\n  2: {map: maps/2p.yaml, teams: [red, blue, red]}\n", ("SW250", "error")),
    ("team_score: average\nsetup:\n  2: {map: maps/2p.yaml, teams: [red, blue]}\n", ("SW251", "error")),
    ("team_score: lowest\nsetup:\n  2: {map: maps/2p.yaml}\n", ("SW252", "warning")),
    ("setup:\n  2: {map: maps/2p.yaml, teams: red}\n", ("SW201", "error")),
])
def test_team_keys_are_checked(tmp_path, body, code):
    loaded = _pack(tmp_path, body)
    assert code in _codes(loaded), loaded.diagnostics
    if code[1] == "error":
        assert loaded.ruleset is None


# ---- packs/bfa ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bfa():
    return load_ruleset(["bfa"])


def test_bfa_is_warcraft_with_its_own_market_teams_and_setups(bfa):
    warcraft = load_ruleset(["warcraft"])
    assert set(bfa.races) == set(warcraft.races) and set(bfa.powers) == set(warcraft.powers)
    assert (bfa.market.visible, bfa.market.payment, bfa.team_score) == (4, "bank", "lowest")
    for n, setup in bfa.setups.items():  # Warcraft's boards and rounds, drawn from Warcraft's boards
        assert setup.layout.sizes == warcraft.setups[n].layout.sizes and setup.rounds == warcraft.setups[n].rounds
    game = new_game(bfa, 5, 0)
    assert [len(c) for c in game.market.columns] == [6, 6, 4]  # team-variant.md §3.1
    assert teams(game) == {"alliance": (0, 3), "horde": (1, 4), "neutral": (2,)}


def _play(ruleset, players, seed, watch=None):
    game = new_game(ruleset, players, seed)
    bad: list[str] = []

    def check(g):
        bad.extend(violations(g)[:1])
        if watch:
            watch(g)
    play(game, [RandomBot(seed * 10 + s) for s in range(players)], check)
    return game, bad


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bfa_games_keep_invariants_and_each_seat_plays_its_faction(bfa, players):
    played: set[tuple[int, tuple[str, ...]]] = set()

    def note(g):
        played.update((i.player, i.race.tags) for i in g.races.values() if i.player is not None)
    for seed in range(3):
        game, bad = _play(bfa, players, seed, note)
        assert game.over and not bad, bad
        assert team_winners(game)
    # each seat takes its own faction's banners only; with 2 or 4 players nobody a Neutral one (D70)
    assert {(seat, tags) for seat, tags in played} == {(s, (t,)) for s, t in enumerate(bfa.setups[players].teams)}


def test_saved_bfa_games_replay(bfa):
    for players in (2, 5):
        game, _ = _play(bfa, players, 7)
        rec = record(game, ["bfa"])
        again = replay(bfa, rec)
        assert checksum(again) == rec["checksum"] and team_winners(again) == team_winners(game)


@pytest.mark.slow
def test_a_thousand_bfa_games_keep_every_invariant(bfa):
    for i in range(1000):
        players = 2 + i % 4
        game, bad = _play(bfa, players, 50_000 + i)
        assert game.over and not bad, f"game {i} ({players} players): {bad}"


TEAM_EXPECTATIONS = """\
scenarios:
  - name: team expectations checked before anything runs
    given: {players: PLAYERS}
    expect:
      team_winner: [horde, hord]
      team_scores: {alliance: 5, neutrall: 5, horde: many}
      columns: {alliance: [Humans], allies: [Humanz]}
      powers: [Sailing, Sailors]
"""


def _scenario_problems(tmp_path, ruleset, players):
    path = tmp_path / "s.yaml"
    path.write_text(TEAM_EXPECTATIONS.replace("PLAYERS", str(players)))
    (span, sc), = read_file(path)[0]
    return {(d.code, d.span.line, d.message, d.hint) for d in validate(str(path), ruleset, sc, span)}


def test_scenarios_name_teams_and_columns_the_pack_has(tmp_path, bfa):
    assert _scenario_problems(tmp_path, bfa, 4) >= {
        ("SW405", 5, "unknown team 'hord'", "did you mean 'horde'?"),
        ("SW405", 6, "unknown team 'neutrall'", "known: alliance, horde"),  # 4 players: no Neutral team
        ("SW403", 6, "the score of horde must be a whole number", "see docs/scenarios.md"),
        ("SW405", 7, "unknown market column 'allies'", "did you mean 'alliance'?"),
        ("SW405", 7, "unknown race 'Humanz'", "did you mean 'Humans'?"),
    }
    assert ("SW405", 8, "unknown power 'Sailors'") in {p[:3] for p in _scenario_problems(tmp_path, bfa, 4)}


def test_team_expectations_need_a_setup_with_teams(tmp_path, classic):
    got = {p[:3] for p in _scenario_problems(tmp_path, classic, 2)}
    assert ("SW406", 5, "the setup for 2 players gives no teams") in got
    assert ("SW405", 7, "unknown market column 'allies'") in got  # classic's market has one column


WRONG_WINNER = """\
scenarios:
  - name: a wrong team winner
    given:
      players: 2
      map: {regions: {keep: {terrain: farmland}}, borders: []}
      coins: [30, 20]
      races:
        - {player: 2, race: Orcs, power: Sailing, regions: {keep: 3}}
    expect:
      team_winner: horde
      team_scores: {horde: 21}
"""


def test_a_wrong_team_expectation_shows_every_team_standing(tmp_path, bfa):
    path = tmp_path / "s.yaml"
    path.write_text(WRONG_WINNER)
    (span, sc), = read_file(path)[0]
    fails = [f.message for f in run_scenario(path, sc, span, bfa).failures]
    standings = "alliance 30 (best player 30, 0 tokens on the map); horde 20 (best player 20, 3 tokens on the map)"
    assert fails == [f"team_winner: expected horde, got alliance ({standings})",
                     f"score of team horde: expected 21, got 20 ({standings})"]


def test_simulate_reports_wins_per_team():
    """Issue #10: `swdsl simulate` on the team variant reports wins per team as well as per seat."""
    import json

    from click.testing import CliRunner

    from swdsl.cli import main

    r = CliRunner().invoke(main, ["simulate", "--pack", "bfa", "--players", "4", "--games", "6", "--format", "json"])
    out = json.loads(r.output)
    assert set(out["team_wins"]) <= {"alliance", "horde"}
    assert sum(out["team_wins"].values()) == out["finished"] == 6
    text = CliRunner().invoke(main, ["simulate", "--pack", "bfa", "--players", "4", "--games", "6"]).output
    assert "  teams: " in text
