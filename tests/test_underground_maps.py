"""The four Underground maps (packs/underground/maps) match the table of counts in
docs/packs/underground.md, so the document cannot drift from them, and each has the
structure of the edition (underground.md §0.1-§0.3, core-rules.md §1.2, rulings.md R8,
R41; docs/rulings.md D10-D12): a map edge, one river whose two ends lie on the edge,
chasms with a volcano among them, at most 7 lairs and 9 Black Mountains, all of it
reachable without crossing a chasm."""

from collections import Counter
from pathlib import Path

import pytest

from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "packs" / "underground.md"
TABLE_MARK = "<!-- map table: checked by tests/test_underground_maps.py -->"
PLAYERS = (2, 3, 4, 5)
LAND = ("mine", "mushroom_forest", "crystal", "mudpool", "black_mountain")
ROWS = ("regions", "land regions", "mine", "mushroom forest", "crystal", "mud pool", "black mountain",
        "river regions", "river regions on the edge", "abyssal chasms", "volcano chasms", "Monster lairs",
        "Black Mountain tiles", "edge regions", "borders", "land bordering a river", "land bordering a chasm",
        "rounds")


@pytest.fixture(scope="module")
def underground():
    return load_ruleset([str(ROOT / "packs" / "underground")])


def doc_table() -> dict[str, dict[int, int]]:
    """{row: {players: value}} from the table that follows TABLE_MARK."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    rows = lines[lines.index(TABLE_MARK) + 1:]
    rows = rows[:next(i for i, line in enumerate(rows) if not line.startswith("|"))]
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    players = [int(c.rstrip("p")) for c in head[1:]]
    table = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0]] = {n: int(v) for n, v in zip(players, cells[1:])}
    return table


def graph(board, keep):
    """The regions `keep` accepts, and their borders among themselves."""
    nodes = {i for i, r in enumerate(board.regions) if keep(r)}
    return nodes, {i: board.neighbours[i] & nodes for i in nodes}


def connected(nodes, adj) -> bool:
    if not nodes:
        return True
    start = next(iter(nodes))
    seen, todo = {start}, [start]
    while todo:
        for m in adj[todo.pop()] - seen:
            seen.add(m)
            todo.append(m)
    return seen == nodes


def measure(rs, players: int) -> dict[str, int]:
    """The table's rows, counted on the map and on a game set up on it."""
    setup = rs.setups[players]
    board = setup.board
    regions = board.regions
    terrains = Counter(r.terrain for r in regions)
    game = new_game(rs, players, 0)
    land = [i for i, r in enumerate(regions) if r.terrain in LAND]

    def bordering(terrain):
        return sum(1 for i in land if any(regions[n].terrain == terrain for n in board.neighbours[i]))

    return {
        "regions": len(board),
        "land regions": len(land),
        "mine": terrains["mine"],
        "mushroom forest": terrains["mushroom_forest"],
        "crystal": terrains["crystal"],
        "mud pool": terrains["mudpool"],
        "black mountain": terrains["black_mountain"],
        "river regions": terrains["river"],
        "river regions on the edge": sum(1 for r in regions if r.terrain == "river" and r.edge),
        "abyssal chasms": terrains["chasm"],
        "volcano chasms": sum(1 for r in regions if r.terrain == "chasm" and "volcano" in r.symbols),
        "Monster lairs": sum(1 for i in range(len(board))
                             if game.occupant[i] is not None and game.occupant[i].race.name == "Monsters"),
        "Black Mountain tiles": sum(1 for marks in game.markers for name, *_ in marks if name == "black_mountain"),
        "edge regions": sum(1 for r in regions if r.edge),
        "borders": board.border_count,
        "land bordering a river": bordering("river"),
        "land bordering a chasm": bordering("chasm"),
        "rounds": setup.rounds,
    }


def test_the_table_lists_every_count():
    table = doc_table()
    assert list(table) == list(ROWS)
    assert all(sorted(row) == list(PLAYERS) for row in table.values())


@pytest.mark.parametrize("players", PLAYERS)
def test_map_matches_the_table(underground, players):
    got = measure(underground, players)
    assert got == {row: values[players] for row, values in doc_table().items()}


@pytest.mark.parametrize("players", PLAYERS)
def test_one_river_from_edge_to_edge(underground, players):
    """UG L230-233: exactly two River regions touch the edge; they are the two ends of one
    chain of River regions (R41)."""
    board = underground.setups[players].board
    rivers, adj = graph(board, lambda r: r.terrain == "river")
    ends = {i for i in rivers if len(adj[i]) == 1}
    assert connected(rivers, adj)
    assert all(len(adj[i]) <= 2 for i in rivers)
    assert ends == {i for i in rivers if board.regions[i].edge}
    assert len(ends) == 2


@pytest.mark.parametrize("players", PLAYERS)
def test_pieces_fit_in_the_box(underground, players):
    """14 Monsters, two per lair (UG L98, R8); 9 Black Mountain tiles (UG L102); one
    Volcano, placed on a chasm with the volcano symbol (UG L248-249)."""
    regions = underground.setups[players].board.regions
    lairs = [r for r in regions if "monster" in r.symbols]
    volcanos = [r for r in regions if "volcano" in r.symbols]
    assert len(lairs) <= 7
    assert sum(1 for r in regions if r.terrain == "black_mountain") <= 9
    assert volcanos and all(r.terrain == "chasm" for r in volcanos)


@pytest.mark.parametrize("players", PLAYERS)
def test_lairs_lie_apart_on_open_land(underground, players):
    """D11: a lair is a land region without a Black Mountain (the rulebook's example is a
    mud pool, UG L250-254), and no two lairs border each other (as UG L511-515 asks when
    lairs are placed on a classic map)."""
    board = underground.setups[players].board
    lairs = {i for i, r in enumerate(board.regions) if "monster" in r.symbols}
    assert all(board.regions[i].terrain in LAND and board.regions[i].terrain != "black_mountain"
               for i in lairs)
    assert all(not board.neighbours[i] & lairs for i in lairs)
    assert len(lairs) == players + 2


@pytest.mark.parametrize("players", PLAYERS)
def test_every_region_is_reached_without_crossing_a_chasm(underground, players):
    """The map is connected, and so are its land and rivers alone: chasms are gone around
    (UG L245-247), never needed to reach a region."""
    board = underground.setups[players].board
    assert connected(*graph(board, lambda r: True))
    assert connected(*graph(board, lambda r: r.terrain != "chasm"))
    assert any(r.edge for r in board.regions)
