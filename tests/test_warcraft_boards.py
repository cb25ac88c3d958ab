"""The Warcraft pack's 12 island faces (packs/warcraft/maps) match the tables of
docs/packs/warcraft.md, keep the rules of the islands (core-rules.md §1.1, §4; warcraft.md §0, §3;
research/maps.md) and never need more Mountains or Murlocs than the box holds (numbers.md §3.4),
whatever boards and faces a game draws."""

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from swdsl.packs.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "packs" / "warcraft.md"
BOX = {"mountain": 10, "murloc": 15}  # numbers.md §3.4
LAND = ("farmland", "forest", "hill", "mountain", "swamp")
SYMBOLS = ("entry", "magic", "cavern", "murloc", "treasure")


@pytest.fixture(scope="module")
def warcraft():
    return load_ruleset([str(ROOT / "packs" / "warcraft")])


def doc_table(*columns: str) -> list[dict[str, str]]:
    """The rows of the table of docs/packs/warcraft.md whose header starts with `columns`."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    head = "| " + " | ".join(columns) + " |"
    start = next(i for i, x in enumerate(lines) if x.startswith(head))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (c.strip() for c in line.strip("|").split("|")))))
    return rows


def faces(rs):
    """face name -> (size, board number from 1, Board), from pack.yaml `boards:`."""
    layout = rs.setups[2].layout
    return {face.name: (size, n, face) for size, boards in layout.boards.items()
            for n, board in enumerate(boards, start=1) for face in board}


def counts(board) -> Counter:
    c = Counter(r.terrain for r in board.regions)
    c.update(s for r in board.regions for s in r.symbols)
    c["lake/sea"] = c["lake"] + c["sea"]
    return c


def test_every_face_is_in_the_doc_table_with_its_counts(warcraft):
    table = {row["face"]: row for row in doc_table("face")}
    got = faces(warcraft)
    assert sorted(table) == sorted(got)
    for name, (size, n, board) in got.items():
        row, c = table[name], counts(board)
        assert row["board"] == f"{size} {n}", name
        assert int(row["regions"]) == len(board), name
        assert int(row["borders"]) == board.border_count, name
        for key in LAND + SYMBOLS:
            assert int(row[key]) == c[key], (name, key)
        number, water = row["lake/sea"].split()
        assert int(number) == c["lake/sea"] and c[water] == c["lake/sea"], name


def test_six_double_sided_boards_of_7_9_and_11_regions(warcraft):
    layout = warcraft.setups[2].layout
    assert {size: [len(b) for b in boards] for size, boards in layout.boards.items()} == \
        {"large": [2, 2], "medium": [2, 2], "small": [2, 2]}
    size_of = {"large": 11, "medium": 9, "small": 7}
    for size, _, board in faces(warcraft).values():
        assert len(board) == size_of[size], board.name


def test_each_face_keeps_the_rules_of_an_island(warcraft):
    """One treasure (S/M/L) region, two entry regions at least, at most one Lake/Sea (the Well of
    Eternity's "the Lake or Sea region of the island"), no piece's symbol on the water, one
    connected island, ids named after it; and our design: exactly one Lake/Sea, a Magic source and
    a Cavern on every face (docs/packs/warcraft.md "The boards")."""
    for _, _, board in faces(warcraft).values():
        c = counts(board)
        assert c["treasure"] == 1, board.name
        assert c["entry"] >= 2, board.name
        assert c["lake/sea"] == 1, board.name
        assert c["magic"] >= 1 and c["cavern"] >= 1, board.name
        assert all(r.id.startswith(board.name + ".") for r in board.regions), board.name
        water = {i for i, r in enumerate(board.regions) if r.terrain in ("lake", "sea")}
        assert not any(water & {i for i, r in enumerate(board.regions) if "treasure" in r.symbols
                                or "entry" in r.symbols or "murloc" in r.symbols}), board.name
        seen, todo = {0}, [0]
        while todo:
            for b in board.neighbours[todo.pop()] - seen:
                seen.add(b)
                todo.append(b)
        assert len(seen) == len(board), f"{board.name} is not connected"


def test_region_ids_differ_across_all_faces(warcraft):
    ids = [r.id for _, _, board in faces(warcraft).values() for r in board.regions]
    assert len(ids) == len(set(ids))


def draws(setup):
    """Every set of faces a game with this setup can draw: `count` different boards of each size,
    one face of each."""
    layout = setup.layout
    per_size = [[list(itertools.product(*boards))
                 for boards in itertools.combinations(layout.boards[size], count)]
                for size, count in layout.sizes]
    for pick in itertools.product(*per_size):
        for faces_of_sizes in itertools.product(*pick):
            yield [face for group in faces_of_sizes for face in group]


def need(faces_drawn) -> dict[str, int]:
    return {"mountain": sum(counts(f)["mountain"] for f in faces_drawn),
            "murloc": sum(counts(f)["murloc"] for f in faces_drawn)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_box_holds_enough_mountains_and_murlocs_for_every_draw(warcraft, players):
    assert warcraft.markers["mountain"].limit == BOX["mountain"]
    assert warcraft.races["Murlocs"].supply == BOX["murloc"]
    setup = warcraft.setups[players]
    worst = {"mountain": 0, "murloc": 0}
    for drawn in draws(setup):
        assert len(drawn) == players  # one island per player (core-rules.md §1.1)
        for piece, n in need(drawn).items():
            worst[piece] = max(worst[piece], n)
    assert worst["mountain"] <= BOX["mountain"] and worst["murloc"] <= BOX["murloc"]
    row = next(r for r in doc_table("players", "Mountains, worst draw") if r["players"] == str(players))
    assert int(row["Mountains, worst draw"].split("=")[-1]) == worst["mountain"]
    assert int(row["Murlocs, worst draw"].split("=")[-1]) == worst["murloc"]


def test_the_setup_table_matches_pack_yaml(warcraft):
    for row in doc_table("players", "boards (W-IT L126-131)"):
        setup = warcraft.setups[int(row["players"])]
        boards = re.findall(r"(\d) (large|medium|small)", row["boards (W-IT L126-131)"])
        wanted = Counter({size: int(n) for n, size in boards})
        assert Counter(dict(setup.layout.sizes)) == wanted, row["players"]
        assert setup.rounds == int(row["rounds (W-IT L137)"])
        assert setup.coins == 5
        assert sum(len(f) for f in next(draws(setup))) == int(row["regions"])
