"""region.linked: regions a race's rules join for the chains it follows (its groups, `reach()`), its
borders staying the map's — rulings.md R43, the Spiderines: regions bordering chasms are one group
"for Flocking and Quarreling connectivity", and their borders count "for conquest purposes" only."""

from itertools import combinations

from swdsl.engine.adjacency import adjacent, linked
from swdsl.engine.entries import Ctx
from swdsl.engine.position import Position
from swdsl.engine.queries import count_groups, reach
from swdsl.packs.loader import load_ruleset

WEAVERS = """\
race Weavers {
  banner 5
  supply 10
  modify region.linked set true when terrain of target == mountain and terrain of other == mountain
}
race Knotters {
  banner 5
  supply 10
  modify region.linked set true when count (group of target) > 1 and terrain of other == mountain
}
"""


def _game(tmp_path, race):
    (tmp_path / "pack.yaml").write_text("name: weavers\nlanguage: 1\nrequires: [classic]\n")
    (tmp_path / "weavers.sw").write_text(WEAVERS)
    rs = load_ruleset([str(tmp_path)])
    board = rs.setups[2].board
    mountains = [r for r, region in enumerate(board.regions) if region.terrain == "mountain"]
    a, b = next((a, b) for a, b in combinations(mountains, 2) if b not in board.neighbours[a])
    pos = Position(rs, 2)
    pos.race(race, 0, "Alchemist", regions={a: 1, b: 1}, hand=5)
    game = pos.start(0)
    return game, game.acting, a, b


def test_linked_regions_are_one_group_and_one_chain_but_not_neighbours(tmp_path):
    game, weavers, a, b = _game(tmp_path, "Weavers")
    ctx = Ctx(game, weavers, {})
    assert b in linked(game, weavers, a) and a in linked(game, weavers, b)
    assert count_groups(ctx, weavers.regions) == 1
    assert reach(ctx, [a], [a, b]) == sorted([a, b])
    assert not adjacent(game, weavers, a, b)  # borders stay the map's
    other = Ctx(game, None, {})  # nobody's chains: the map's borders alone
    assert count_groups(other, weavers.regions) == 2


def test_a_link_rule_following_chains_sees_no_links_while_it_is_read(tmp_path):
    """A region.linked rule that asks for the race's group (`group of target`) follows borders alone
    while it is read: no rule defines links in terms of itself, and the game goes on (no loop)."""
    game, knotters, a, b = _game(tmp_path, "Knotters")
    ctx = Ctx(game, knotters, {})
    assert count_groups(ctx, knotters.regions) == 2  # each mountain alone in its group: no link holds
    assert linked(game, knotters, a) == frozenset()
