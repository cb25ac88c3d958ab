"""Packs build on each other and mix without engine code (DESIGN.md: a mix of
packs is several packs compiled together)."""

from pathlib import Path

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.engine import pieces, turn
from swdsl.engine.invariants import violations
from swdsl.engine.setup import new_game
from swdsl.engine.state import RaceInst
from swdsl.packs.loader import load_packs


def _extras(tmp_path, requires=True):
    pack = tmp_path / "extras"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: extras\n" + ("requires: [classic]\n" if requires else "")
                                    + "terrains: [farmland]\n")
    (pack / "frogs.sw").write_text(
        "race Frogs {\n  banner 6\n  supply 11\n"
        "  on turn.end: gain 1 coin for each my regions where terrain is farmland\n}\n")
    return pack


def test_a_pack_that_requires_classic_adds_a_race(tmp_path):
    loaded = load_packs([str(_extras(tmp_path))])
    assert not [d for d in loaded.diagnostics if d.is_error]
    rs = loaded.ruleset
    assert "Frogs" in rs.races and "Ratmen" in rs.races and sorted(rs.setups) == [2, 3, 4, 5]
    r = CliRunner().invoke(main, ["simulate", "--pack", str(tmp_path / "extras"), "--players", "4",
                                  "--games", "4", "--check-invariants"])
    assert r.exit_code == 0, r.output


def test_two_packs_on_the_command_line_mix(tmp_path):
    pack = _extras(tmp_path, requires=False)
    loaded = load_packs(["classic", str(pack)])
    assert "Frogs" in loaded.ruleset.races and len(loaded.ruleset.races) == 16


def test_a_name_two_packs_declare_keeps_both_qualified_and_says_so_at_both(tmp_path):
    """Design decision 1 (docs/mixing.md): both declarations are kept, as `pack:Name`."""
    pack = _extras(tmp_path)
    (pack / "ratmen.sw").write_text("race Ratmen {\n  banner 8\n  supply 13\n}\n")
    loaded = load_packs([str(pack)])
    clash = sorted((Path(d.path).parent.name, d.message) for d in loaded.diagnostics if d.code == "SW181")
    assert [p for p, _ in clash] == ["extras", "races"]
    assert "also declared by classic" in clash[0][1] and "extras:Ratmen" in clash[0][1]
    rs = loaded.ruleset
    assert {"classic:Ratmen", "extras:Ratmen"} <= set(rs.races) and "Ratmen" not in rs.races
    assert rs.races["extras:Ratmen"].shown == "Ratmen" and rs.races["extras:Ratmen"].tokens == 8


def test_one_pack_declaring_a_name_twice_is_an_error(tmp_path):
    pack = _extras(tmp_path)
    (pack / "frogs2.sw").write_text("race Frogs {\n  banner 8\n  supply 13\n}\n")
    clash = [d for d in load_packs([str(pack)]).diagnostics if d.code == "SW124"]
    assert clash and "declared twice" in clash[0].message and "frogs.sw" in clash[0].hint


# ---- Underground pieces on classic maps (tests/lang/mixing) ------------------------------

MIXING = str(Path(__file__).parent / "lang" / "mixing")


def _lost_tribe_regions(game):
    return [r for r, reg in enumerate(game.board.regions) if "lost_tribe" in reg.symbols]


def test_monster_lairs_are_n_plus_one_apart_and_the_lost_tribes_fill_the_rest():
    """underground.md §1.3 and docs/rulings.md D7: "Take 2 Monster tokens plus 2 more per player. Put pairs of Monsters on
    Lost-Tribe-symbol regions, avoiding adjacent regions. Then put a Lost Tribe on every
    Lost-Tribe-symbol region left without Monsters." """
    rs = load_packs([MIXING]).ruleset
    layouts = set()
    for players, seed in ((2, 1), (2, 2), (2, 3), (3, 1), (4, 1)):
        g = new_game(rs, players, seed)
        lairs = [r for r in _lost_tribe_regions(g) if g.occupant[r] is not None
                 and g.occupant[r].race.name == "Monsters"]
        assert len(lairs) == players + 1 and all(g.tokens[r] == 2 for r in lairs)
        assert not any(g.board.neighbours[a] & set(lairs) for a in lairs), "two lairs border each other"
        rest = set(_lost_tribe_regions(g)) - set(lairs)
        assert rest and all(g.occupant[r].race.name == "Lost Tribes" for r in rest)
        assert not violations(g)
        if players == 2:
            layouts.add(tuple(lairs))
    assert len(layouts) > 1, "the seed chooses the lairs"


def test_underground_terrains_count_as_their_classic_equals():
    """underground.md §1.4: "Foresta di funghi = Foresta (Forest)" — Shrooms score on classic forests."""
    rs = load_packs([MIXING]).ruleset
    g = new_game(rs, 2, 1)
    forests = [r for r, reg in enumerate(g.board.regions) if reg.terrain == "forest" and g.occupant[r] is None][:2]
    hills = [r for r, reg in enumerate(g.board.regions) if reg.terrain == "hill" and g.occupant[r] is None][:1]
    shrooms = RaceInst(g.next_id, rs.races["Shrooms"], None, 0)
    g.races[shrooms.id] = shrooms
    g.players[0].active = shrooms
    for r in forests + hills:
        g.occupant[r], g.tokens[r] = shrooms, pieces.take_from_tray(g, shrooms, 1)
        shrooms.regions.add(r)
    before = g.players[0].coins
    turn.score(g, 0)
    assert g.players[0].coins - before == 3 + 2  # 1 per region, +1 per forest


def test_an_equivalence_with_an_unknown_name_is_reported(tmp_path):
    pack = tmp_path / "bad"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: bad\nrequires: [classic]\nterrains: [mushroom_forest]\n"
                                    "equivalences:\n  - [forest, mushroom_forrest]\n  - [hill]\n")
    codes = [(d.code, d.span.line) for d in load_packs([str(pack)]).diagnostics if d.is_error]
    assert sorted(codes) == [("SW238", 5), ("SW238", 6)]


def test_a_mixed_game_plays_through_with_invariants():
    r = CliRunner().invoke(main, ["simulate", "--pack", MIXING, "--players", "3", "--games", "6",
                                  "--check-invariants"])
    assert r.exit_code == 0 and "invariants: all held" in r.output, r.output
