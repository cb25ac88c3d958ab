"""Modular boards (pack.yaml `boards:`): a game draws physical boards of each size and one
face of each with its seed, and each face becomes an island (warcraft.md §0, core-rules.md §1.1)."""

import shutil
from pathlib import Path

from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs, load_ruleset
from swdsl.scenarios import load_file

ISLANDS = Path(__file__).parent / "islands"


def faces(board):
    return board.name.split("+")


def test_each_game_draws_its_faces_with_its_seed():
    rs = load_ruleset([str(ISLANDS)])
    drawn = {tuple(faces(new_game(rs, 3, seed).board)) for seed in range(40)}
    assert all(len(f) == 3 and f[0][0] == f[1][0] == "L" and f[2][0] == "S" for f in drawn)
    assert all(f[0][:2] != f[1][:2] for f in drawn)  # two different physical large boards
    assert len(drawn) > 4  # faces and boards vary with the seed
    assert faces(new_game(rs, 3, 7).board) == faces(new_game(rs, 3, 7).board)


def test_faces_become_islands_without_borders_between_them():
    rs = load_ruleset([str(ISLANDS)])
    board = new_game(rs, 2, 1).board
    assert [r.area for r in board.regions] == [1, 1, 1, 1, 2, 2]
    for a, nb in enumerate(board.neighbours):
        assert all(board.regions[b].area == board.regions[a].area for b in nb)
    assert board is new_game(rs, 2, 1).board  # the same faces give the same board (its memo is kept)


def pack_copy(tmp_path, edit):
    folder = tmp_path / "islands"
    shutil.copytree(ISLANDS, folder)
    edit(folder)
    return [d for d in load_packs([str(folder)]).diagnostics if d.is_error]


def test_region_ids_must_differ_across_faces(tmp_path):
    def clash(folder):
        text = (folder / "maps/L2b.yaml").read_text().replace("L2b.3", "L1a.3")
        (folder / "maps/L2b.yaml").write_text(text)
    errors = pack_copy(tmp_path, clash)
    assert [e.code for e in errors] == ["SW239"] and "L1a.3" in errors[0].message


def test_a_setup_cannot_want_more_boards_than_the_pack_has(tmp_path):
    def greedy(folder):
        text = (folder / "pack.yaml").read_text().replace("{large: 2, small: 1}", "{large: 2, small: 2}")
        (folder / "pack.yaml").write_text(text)
    errors = pack_copy(tmp_path, greedy)
    assert [e.code for e in errors] == ["SW240"] and "2 small boards wanted" in errors[0].message


def test_a_setup_needs_a_map_or_boards(tmp_path):
    def neither(folder):
        text = (folder / "pack.yaml").read_text().replace("boards: {large: 1, small: 1}, ", "")
        (folder / "pack.yaml").write_text(text)
    assert [e.code for e in pack_copy(tmp_path, neither)] == ["SW229"]


def test_a_scenario_names_the_faces_it_plays_on(tmp_path):
    rs = load_ruleset([str(ISLANDS)])
    path = tmp_path / "s.yaml"
    path.write_text("""
scenarios:
  - name: a race enters the second island through its entry region
    given:
      boards: [L2b, S1a]
      races:
        - {player: 1, race: Sailors, power: Plain, hand: 5, regions: {L2b.2: 1}}
    do:
      - conquer S1a.1
    expect:
      regions: {S1a.1: {race: Sailors, tokens: 2}}
      illegal: [conquer L2b.4]          # not bordering, and no entry region
  - name: an unknown face is named
    given:
      boards: [L9z]
""")
    outcomes, diags = load_file(path, rs)
    assert not diags
    assert outcomes[0].failures == []
    assert "SW405 unknown board face 'L9z'" in outcomes[1].failures[0].message
