"""The hardest items of the three catalogs, written in the language (tests/lang/hard).

Each item must check, compile to hooks and play. Their behaviour is tested by the
pack's scenarios (tests/lang/hard/tests/*.yaml, run by tests/test_scenarios.py and
`swdsl test tests/lang/hard`): positions built through the Position API, actions
played through `apply`, the invariants checked after every action.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from swdsl.bots import GreedyBot, RandomBot, play
from swdsl.engine.invariants import violations
from swdsl.engine.setup import new_game
from swdsl.scenarios import scenario_files

HARD = Path(__file__).parent / "hard"

# item -> (kind, declaration name)
ITEMS = {
    "Goblins' bombs": ("race", "Goblins"),
    "Pandaren harmony": ("race", "Pandaren"),
    "Humans' military objectives": ("race", "Humans"),
    "Intimidating": ("power", "Intimidating"),
    "Portal Mages": ("power", "Portal Mage"),
    "Championing": ("power", "Championing"),
    "Stonehedge": ("place", "stonehedge"),
    "Shadow Mimes": ("race", "Shadow Mimes"),
    "Flames and the volcano": ("race", "Flames"),
    "Cultists and the Great Ancient": ("race", "Cultists"),
    "Iron Dwarves' silver hammers": ("race", "Iron Dwarves"),
    "Sorcerers": ("race", "Sorcerers"),
    "Ghouls": ("race", "Ghouls"),
    "Diplomat": ("power", "Diplomat"),
    "Vampire": ("power", "Vampire"),
    "the Wickedest Pentacle's Balrog": ("place", "wickedest_pentacle"),
    "the Warcraft faction bonus": ("rule", "Faction bonus"),
    "the Underground river rule": ("rule", "Rivers"),
    "monsters drawing relics": ("rule", "Monsters draw relics"),
    # the items the first version of the language could not say (docs/language/coverage.md)
    "Will-o'-Wisps": ("race", "Will-o'-Wisps"),
    "Gnomes (Underground)": ("race", "Underground Gnomes"),
    "Lizardmen": ("race", "Lizardmen"),
    "Quarrelsome": ("power", "Quarrelsome"),
    "Magic (Bag of Wonders)": ("power", "Magic"),
    "Tomb": ("power", "Tomb"),
    "Reborn": ("power", "Reborn"),
    "Vengeful": ("power", "Vengeful"),
    "Troll's Socks": ("relic", "trolls_socks"),
    "Miser's Scepter": ("relic", "misers_scepter"),
    "Altar of Souls": ("place", "altar_of_souls"),
    "Diamond Fields": ("place", "diamond_fields"),
    "Great Brass Pipes": ("place", "great_brass_pipes"),
    "Gnomes (Warcraft)": ("race", "Warcraft Gnomes"),
    "Tauren": ("race", "Tauren"),
    "Defensive": ("power", "Defensive"),
    "Enraged": ("power", "Enraged"),
    "Beastmasters": ("power", "Beastmasters"),
    "Aegis of Aggramar": ("relic", "aegis_of_aggramar"),
    "Battleground": ("place", "battleground"),
    "Karazhan": ("place", "karazhan"),
    "Well of Eternity": ("place", "well_of_eternity"),
}


def test_pack_has_no_error(hard_loaded):
    errors = [str(d) for d in hard_loaded.diagnostics if d.is_error]
    assert errors == []


def test_one_file_per_item_each_quoting_its_rule():
    files = sorted((HARD / "items").glob("*.sw"))
    assert len(files) == len(ITEMS)
    for f in files:
        first = f.read_text().splitlines()[0]
        assert first.startswith("# ") and ".md §" in first, f"{f.name} must open with its rule's file and section"


@pytest.mark.parametrize("item", list(ITEMS))
def test_item_compiles_to_hooks(rs, item):
    kind, name = ITEMS[item]
    table = {"race": rs.races, "power": rs.powers, "place": rs.markers, "relic": rs.markers,
             "rule": {r.name: r for r in rs.rules}}[kind]
    assert name in table, f"{item}: no {kind} '{name}'"
    c = table[name]
    assert c.kind == kind
    assert c.modifiers or c.triggers or c.abilities, f"{item}: no modifier, trigger or ability"


def test_random_games_play_through_and_keep_invariants(rs):
    for seed in range(12):
        game = new_game(rs, 2, seed)
        problems: list[str] = []

        def check(g):
            if not problems:
                problems.extend(violations(g))

        bots = [RandomBot(seed), GreedyBot(seed + 1) if seed % 2 else RandomBot(seed + 1)]
        play(game, bots, check)
        assert game.over and not problems, f"seed {seed}: {problems[:3]}"


def test_the_items_behaviour_is_in_scenarios():
    names = {p.name for p in scenario_files(HARD)}
    assert {"underground.yaml", "warcraft.yaml"} <= names
