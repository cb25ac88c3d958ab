"""Scenario files are checked like rules (a designer's first day): every problem at once, at its
line and column, with a code and a did-you-mean; nothing of Python's own leaks out."""

import shutil

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import load_ruleset, resolve_pack
from swdsl.scenarios import read_file, validate

BROKEN = """\
scenarios:
  - name: many problems
    expect: {coins: [1, 1]}
    given:
      players: 2
      phase: conqeur
      dice: [5]
      coins: [5]
      races:
        - {player: 1, race: Ratman, regions: {"2": 1}}
        - {player: 1, race: Giants, power: Flying, regions: {"2": 1, "99": 2}}
        - {player: 2, race: Elves, power: Flying, hand: 20}
      markers: {"3": [mountin]}
      colour: red
    do:
      - conqer 5
      - ability nosuch 3
"""


def problems(tmp_path, text):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    found, diags = read_file(path)
    assert not diags
    (span, sc), = found
    return validate(str(path), load_ruleset(["classic"]), sc, span)


def test_every_problem_is_reported_at_once_with_its_position(tmp_path):
    got = {(d.code, d.span.line) for d in problems(tmp_path, BROKEN)}
    assert got >= {
        ("SW407", 3),   # expect before do (a warning)
        ("SW405", 6),   # phase conqeur
        ("SW406", 7),   # a die roll that is no face
        ("SW406", 8),   # coins for one player of two
        ("SW405", 10),  # race Ratman
        ("SW405", 11),  # region 99
        ("SW406", 12),  # power Flying given twice
        ("SW406", 12),  # 20 Elves in hand: 11 in the box
        ("SW405", 13),  # marker mountin
        ("SW404", 14),  # key colour
        ("SW408", 16),  # conqer
        ("SW405", 17),  # ability nosuch
    }


def test_problems_say_what_was_meant(tmp_path):
    by_line = {}
    for d in problems(tmp_path, BROKEN):
        by_line.setdefault(d.span.line, []).append(d.message + " | " + d.hint)
    assert any("'conquer'" in m for m in by_line[6])
    assert any("'Ratmen'" in m for m in by_line[10])
    assert any("'mountain'" in m for m in by_line[13])
    assert any("'conquer'" in m for m in by_line[16])
    assert all(d.span.col >= 1 for d in problems(tmp_path, BROKEN))


def test_check_checks_a_packs_scenarios_too(tmp_path):
    pack = tmp_path / "classic"
    shutil.copytree(resolve_pack("classic"), pack)
    (pack / "tests" / "broken.yaml").write_text(BROKEN)
    r = CliRunner().invoke(main, ["check", str(pack)])
    assert r.exit_code == 1
    assert "broken.yaml:10:" in r.output and "SW405 unknown race 'Ratman'" in r.output
    assert "Traceback" not in r.output


def test_players_in_expect_are_numbered_from_one_and_name_known_markers(tmp_path):
    text = """\
scenarios:
  - name: players expected
    given: {players: 2}
    do: [end]
    expect:
      players: {3: {markers: []}, 1: {markers: [mountin]}, 2: {pieces: []}}
"""
    got = {(d.code, d.message) for d in problems(tmp_path, text)}
    assert ("SW406", "no player 3") in got
    assert ("SW405", "unknown marker 'mountin'") in got
    assert ("SW404", "unknown key 'pieces' in player 2") in got


def test_a_race_or_power_on_show_in_the_given_market_cannot_also_be_on_the_table(tmp_path):
    """Giving a race a power the scenario's `market` shows would silently shift the market."""
    from swdsl.scenarios.play import load_file

    path = tmp_path / "s.yaml"
    path.write_text("""\
scenarios:
  - name: Alchemist twice
    given:
      players: 2
      market: [[Humans, Alchemist], [Dwarves, Hill]]
      races:
        - {player: 1, race: Ratmen, power: Alchemist}
    expect: {hand: 0}
  - name: Dwarves twice
    given:
      players: 2
      market: [[Humans, Alchemist], [Dwarves, Hill]]
      races:
        - {player: 1, race: Dwarves, power: Flying}
    expect: {hand: 0}
""")
    outcomes, diags = load_file(path, load_ruleset(["classic"]))
    assert not diags
    messages = [" ".join(f.message for f in o.failures) for o in outcomes]
    assert "power 'Alchemist' is on show in the market given" in messages[0]
    assert "race 'Dwarves' is on show in the market given" in messages[1]
