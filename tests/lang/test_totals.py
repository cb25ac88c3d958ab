"""Totals, loops, shared variables and richer pieces at their edges: empty selections, a
selection that changes while a loop runs, strengths at their bounds, per-turn resets, and the
state they leave (checksum, clone). The invented items' behaviour is in
tests/lang/designs/tests/totals.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from swdsl.engine import pieces
from swdsl.engine.errors import ContentError
from swdsl.engine.legal import Action, apply
from swdsl.engine.position import Position
from swdsl.engine.replay import checksum, snapshot
from swdsl.packs.loader import load_ruleset

MAP = {0: "a", 1: "b", 2: "c", 3: "d"}


def _ruleset(tmp_path: Path, rules: str, extra: str = ""):
    """A pack holding `rules` and two plain races, on a strip map a - b - c - d (no edge region)."""
    pack = tmp_path / "p"
    (pack / "maps").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "name: p\nterrains: [forest]\nsetup:\n  2: {map: maps/strip.yaml, rounds: 10, coins: 5}\n" + extra)
    (pack / "races.sw").write_text("race Ratmen {\n  banner 8\n  supply 13\n}\n\nrace Humans {\n  banner 5\n"
                                   "  supply 10\n}\n")
    (pack / "maps" / "strip.yaml").write_text(
        "name: strip\nregions:\n" + "".join(f"  {n}: {{terrain: forest}}\n" for n in MAP.values())
        + "borders: [[a, b], [b, c], [c, d]]\n")
    (pack / "rules.sw").write_text(rules)
    return load_ruleset([str(pack)])


def _end_turn(game):
    apply(game, Action("end"))
    apply(game, Action("end"))


def test_sum_and_one_of_an_empty_selection(tmp_path):
    rs = _ruleset(tmp_path, """
race Seers {
  banner 5
  supply 10
  var total = 9
  var first = 9
  var found = 9
  on turn.end: {
    set total to sum(tokens of r for each r in my regions where is edge)
    set first to tokens of one of (my regions where is edge)
    set found to 0
    if one of (my regions where is edge) is edge: set found to 1
    if one of (opponents where coins of it > 100) == none: set found to found + 10
  }
}
""")
    pos = Position(rs, 2)
    pos.race("Seers", 0, None, regions={0: 2})
    game = pos.start()
    _end_turn(game)
    seers = next(i for i in game.races.values() if i.race.name == "Seers")
    assert seers.vars == {"total": 0, "first": 0, "found": 10}  # no such region, no such player


def test_one_of_is_the_first_in_order_and_none_compares(tmp_path):
    rs = _ruleset(tmp_path, """
race Seers {
  banner 5
  supply 10
  var first = 0
  on turn.end: set first to tokens of one of my regions
}
""")
    pos = Position(rs, 2)
    pos.race("Seers", 0, None, regions={3: 1, 1: 4})
    game = pos.start()
    _end_turn(game)
    assert next(i for i in game.races.values() if i.race.name == "Seers").vars["first"] == 4  # b before d


def test_for_each_takes_its_selection_once(tmp_path):
    rs = _ruleset(tmp_path, """
race Settlers {
  banner 5
  supply 10
  on turn.end: for each r in my regions: add 1 token to one of (regions where is empty)
}
""")
    pos = Position(rs, 2)
    pos.race("Settlers", 0, None, regions={0: 1, 1: 1})
    game = pos.start()
    _end_turn(game)
    assert [game.occupant[r] is not None for r in range(4)] == [True, True, True, True]
    assert game.tokens == [1, 1, 1, 1]  # two regions, two new ones: not a loop over what it adds


def test_strength_stays_at_zero_or_above_and_within_the_budget(tmp_path):
    rs = _ruleset(tmp_path, """
race Builders {
  banner 5
  supply 10
  on turn.end: {
    place fort in my regions with -3
    increase strength of fort in one of my regions by 2
    decrease strength of fort in one of my regions by 5
  }
  on turn.start: increase strength of fort in one of my regions by 2000000
}

marker fort {
  limit 2
}
""")
    pos = Position(rs, 2)
    pos.race("Builders", 0, None, regions={0: 1})
    pos.race("Humans", 1, None, regions={3: 1})
    game = pos.start()
    _end_turn(game)
    assert game.markers[0] == [("fort", next(iter(game.races)), 0)]
    assert pieces.strength(game, 0, "fort") == 0
    with pytest.raises(ContentError) as err:
        _end_turn(game)  # the other player's turn; then the Builders' starts, and overflows
    assert err.value.code == "SW500" and "strength of fort" in err.value.message


def test_game_and_player_variables_reset_per_turn(tmp_path):
    rs = _ruleset(tmp_path, """
rule Tally {
  game var calls = 0 per turn
  player var moves = 0 per turn
  player var total = 0
  on turn.end: {
    increase calls by 1
    increase moves by 2
    increase total by 3
    gain calls coins
  }
}
""")
    pos = Position(rs, 2)
    pos.race("Ratmen", 0, None, regions={0: 1})
    pos.race("Humans", 1, None, regions={3: 1})
    game = pos.start()
    _end_turn(game)  # player 2's turn begins: the game's count starts again, player 1's stays
    assert game.vars["calls"] == 0 and game.scores() == [7, 5]  # 5 + 1 region + 1 call
    assert game.players[0].vars == {"moves": 2, "total": 3} and game.players[1].vars == {"moves": 0}
    _end_turn(game)  # player 1's turn begins
    assert game.scores() == [7, 7]  # one call this turn too, not two
    assert game.players[0].vars == {"moves": 0, "total": 3} and game.players[1].vars == {"moves": 2, "total": 3}


def test_checksum_and_clone_see_strengths_face_down_markers_and_player_variables(tmp_path):
    rs = _ruleset(tmp_path, "marker fort {\n  limit 2\n}\n",
                  "pools:\n  chests: [fort]\n")
    pos = Position(rs, 2)
    pos.race("Ratmen", 0, None, regions={0: 1})
    game = pos.start()
    pieces.place_marker(game, "fort", 1, None)
    assert snapshot(game)["regions"][1][2] == [("fort", None)]  # written as before strengths existed
    before = checksum(game)
    pieces.set_strength(game, 1, "fort", 2)
    assert checksum(game) != before
    game.players[1].vars["debts"] = 1
    game.face_down[2] = ["fort"]
    copy = game.clone()
    assert checksum(copy) == checksum(game)
    copy.players[1].vars["debts"] = 5
    copy.face_down[2].append("x")
    assert game.players[1].vars == {"debts": 1} and game.face_down == {2: ["fort"]}


def test_a_draw_of_a_kind_the_pool_lacks_draws_nothing(tmp_path):
    rs = _ruleset(tmp_path, """
relic gold {
  tags coin
}

relic map {
  tags paper
}

relic pebble {
  tags stone
}

race Diggers {
  banner 5
  supply 10
  on turn.end: draw stone from chests into one of my regions
}
""", "pools:\n  chests: [gold, map]\n")
    pos = Position(rs, 2)
    pos.race("Diggers", 0, None, regions={0: 1})
    game = pos.start()
    _end_turn(game)
    assert game.markers[0] == [] and sorted(game.hidden["chests"]) == ["gold", "map"]


def test_a_race_leaving_the_table_leaves_its_surviving_unbound_markers(tmp_path):
    rs = _ruleset(tmp_path, """
marker banner_stone {
  survives decline
  limit 1
}

marker camp {
  survives decline
  bound
  limit 1
}
""")
    pos = Position(rs, 2)
    inst = pos.race("Ratmen", 0, None, declined=True, regions={0: 1, 1: 1})
    pos.race("Humans", 0, None, regions={3: 1})
    game = pos.game
    pieces.place_marker(game, "banner_stone", 2, inst)
    pieces.place_marker(game, "camp", 1, inst)
    pieces.remove_race(game, inst)
    assert game.markers[2] == [("banner_stone", None, 0)]  # stays, nobody's
    assert game.markers[1] == [] and game.pools["camp"] == 1
