"""The Underground and Warcraft packs hold the hardest items of the three catalogs (once also
written in a test pack of their own, retired when the packs defined every one of them). Each item
file opens with its rule, both packs load without an error, and random games of both keep every
invariant. Their behaviour is in the packs' scenarios (packs/*/tests, run by
tests/test_scenarios.py and `swdsl test`), but for one that needs a classic power: the last test.
"""

from __future__ import annotations

from itertools import takewhile
from pathlib import Path

import pytest

from swdsl.bots import GreedyBot, RandomBot, play
from swdsl.engine.invariants import violations
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs, load_ruleset
from swdsl.scenarios import read_file, run_scenario

ROOT = Path(__file__).resolve().parents[2]
PACKS = {"underground": ("races", "powers", "relics", "places"),
         "warcraft": ("races", "powers", "artifacts", "places")}


@pytest.fixture(scope="module", params=sorted(PACKS))
def pack(request):
    return request.param


@pytest.fixture(scope="module")
def loaded(pack):
    return load_packs([str(ROOT / "packs" / pack)])


def test_pack_has_no_error(loaded):
    assert [str(d) for d in loaded.diagnostics if d.is_error] == []


def test_one_file_per_item_each_quoting_its_rule(pack):
    files = [f for kind in PACKS[pack] for f in sorted((ROOT / "packs" / pack / kind).glob("*.sw"))]
    assert files
    for f in files:
        opening = list(takewhile(lambda line: line.startswith("#"), f.read_text().splitlines()))
        assert any(".md §" in line for line in opening), f"{f.name} must open with its rule's file and section"


def test_random_games_play_through_and_keep_invariants(loaded):
    rs = loaded.ruleset
    assert rs is not None
    for seed in range(12):
        game = new_game(rs, 2, seed)
        problems: list[str] = []

        def check(g):
            if not problems:
                problems.extend(violations(g))

        bots = [RandomBot(seed), GreedyBot(seed + 1) if seed % 2 else RandomBot(seed + 1)]
        play(game, bots, check)
        assert game.over and not problems, f"seed {seed}: {problems[:3]}"


GNOMES_AND_DIPLOMAT = """\
scenarios:
  - name: the Gnome shield hides regions, not players, from abilities
    rule: 'underground.md §2.6 Gnomes (the shield is about Gnome regions); rulings.md R45'
    given:
      # the Ratmen (Diplomat) hold A; the Gnomes B
      map:
        name: two
        regions:
          A: {terrain: farmland, edge: true}
          B: {terrain: mine, edge: true}
        borders: [[A, B]]
      phase: redeploy
      races:
        - {player: 1, race: Ratmen, power: Diplomat, regions: {A: 2}}
        - {player: 2, race: Gnomes, power: Wise, regions: {B: 2}}
    expect:
      legal: [ability peace p2]
      illegal: [ability peace p1]
"""


def test_the_gnome_shield_hides_regions_not_players(tmp_path):
    """No Underground ability chooses a player: the Underground Gnomes meet one in a mix with
    classic, whose Diplomat chooses the player to be at peace with."""
    path = tmp_path / "gnomes.yaml"
    path.write_text(GNOMES_AND_DIPLOMAT)
    found, diags = read_file(path)
    assert not diags and len(found) == 1
    span, sc = found[0]
    outcome = run_scenario(path, sc, span, load_ruleset(["classic", str(ROOT / "packs" / "underground")]))
    assert not outcome.failures, [f.message for f in outcome.failures]
