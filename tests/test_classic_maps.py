"""The four official maps, transcribed into the pack, match the published counts
(tests/data/classic_maps.json, copied from the rules' facts.json `classic.maps_from_smawg`, which
cites smawg's map data; classic.md §1)."""

import json
from collections import Counter
from pathlib import Path

import pytest

FACTS = Path(__file__).resolve().parent / "data" / "classic_maps.json"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_map_matches_facts(classic, players):
    facts = json.loads(FACTS.read_text())["maps"][str(players)]
    board = classic.setups[players].board
    assert len(board) == facts["regions"]
    assert board.border_count == facts["borders"]
    terrains = Counter(r.terrain.capitalize() for r in board.regions)
    for terrain in ("Farmland", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake"):
        assert terrains[terrain] == facts[terrain], terrain
    symbols = Counter(s for r in board.regions for s in r.symbols)
    assert symbols["magic"] == facts["Magic"] and symbols["mine"] == facts["Mine"]
    assert symbols["cavern"] == facts["Cavern"] and symbols["lost_tribe"] == facts["LostTribe"]
    assert classic.setups[players].rounds == facts["turns"]
