"""Packs build on each other and mix without engine code (DESIGN.md: a mix of
packs is several packs compiled together)."""

import os
import re
from pathlib import Path

import pytest
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


# ---- issue #11: a mix is one game (docs/mixing.md) -------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
MIXES = {"classic+underground": MIXING, "classic+warcraft": str(ROOT / "tests/mixes/classic-warcraft"),
         "bfa+underground": str(ROOT / "tests/mixes/bfa-underground"),
         "underground+warcraft": str(ROOT / "tests/mixes/underground-warcraft"),
         "classic+underground+warcraft": str(ROOT / "tests/mixes/editions")}


def test_the_short_name_means_the_pack_s_own_and_a_qualified_name_one_pack_s():
    """Decision 1: inside a pack a name means its own declaration, then its required packs'."""
    rs = load_packs([MIXES["classic+underground+warcraft"]]).ruleset
    assert {"underground:Gnomes", "warcraft:Gnomes", "classic:Dwarves", "warcraft:Dwarves"} <= set(rs.races)
    assert "Gnomes" not in rs.races and rs.races["warcraft:Gnomes"].shown == "Gnomes"
    assert {"underground:Mining", "warcraft:Mining"} <= set(rs.powers)
    assert {"classic:mountain", "warcraft:mountain"} <= set(rs.markers)
    assert rs.spellings["race"]["Gnomes"] == ("underground:Gnomes", "warcraft:Gnomes")
    assert rs.spellings["race"]["classic:Ratmen"] == ("Ratmen",)  # a unique name may be qualified too


def test_a_name_no_pack_of_the_file_tells_apart_is_an_error_listing_the_qualified_names(tmp_path):
    pack = tmp_path / "cairns"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: cairns\nrequires: [classic, warcraft]\n")
    (pack / "a.sw").write_text("rule Cairns {\n  modify score.region by 1 when target has mountain\n}\n"
                               "rule Tors {\n  modify score.region by 1 when target has warcraft:mountain\n}\n")
    diags = [d for d in load_packs([str(pack)]).diagnostics if d.is_error]
    assert [(d.code, d.span.line) for d in diags] == [("SW182", 2)]
    assert "classic:mountain, warcraft:mountain" in diags[0].message


def test_board_rules_apply_only_on_their_own_pack_s_board():
    """Decision 2: Underground pieces on a classic board bring no River rule onto classic Seas."""
    loaded = load_packs([MIXES["classic+underground+warcraft"]])
    rules = {b: {r.name for r in loaded.ruleset_for(b).rules} for b in loaded.boards}
    assert {"Border entry", "Water"} <= rules["classic"] and not {"Rivers", "Chasms", "Edge entry"} & rules["classic"]
    assert {"Rivers", "Chasms", "Edge entry"} <= rules["underground"] and "Water" not in rules["underground"]
    assert {"Entry regions", "Travel cost", "Lake and Sea"} <= rules["warcraft"]
    for board in loaded.boards:  # the rules about races and pieces hold on every board
        assert {"Monster lairs", "Faction bonus", "Artifacts and Legendary Places"} <= rules[board]


def test_the_board_and_its_setup_come_from_one_pack_and_its_own_pieces_stay_on_it():
    """Decision 3: a placement marked `board: true` runs only on its pack's board."""
    loaded = load_packs([MIXES["classic+underground+warcraft"]])
    assert loaded.boards == ["classic", "underground", "warcraft"] and loaded.mix.board_for(3) == "classic"
    for board, kept in (("classic", "classic:mountain"), ("underground", "black_mountain"),
                        ("warcraft", "warcraft:mountain")):
        setup = loaded.ruleset_for(board).setups[3]
        pieces_ = {pl.marker for pl in setup.placements if pl.match_kind == "terrain"}
        assert pieces_ == {kept}, (board, pieces_)
    assert loaded.ruleset_for("warcraft").setups[3].layout is not None
    assert [loaded.ruleset_for(b).bank for b in loaded.boards] == [515, 508, 520]  # each edition's own box


def test_a_mix_pack_names_its_board_and_the_default_is_the_first_with_a_setup(tmp_path):
    assert load_packs([MIXING]).mix.board_for(2) == "classic"
    loaded = load_packs([MIXES["underground+warcraft"]])
    assert loaded.mix.board_for(4) == "underground" and loaded.ruleset.setups[4].board.name == "underground-4p"
    pack = tmp_path / "uw"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: uw\nrequires: [underground, warcraft]\nboard: warcraft\n")
    assert load_packs([str(pack)]).ruleset.setups[2].layout is not None


def test_what_a_board_discards_never_reaches_the_market_and_is_said_once():
    """Decision 4: taken out at setup (banners set aside, badges on the discard pile)."""
    loaded = load_packs([MIXES["classic+underground+warcraft"]])
    rs = loaded.ruleset_for("underground")
    assert {("race", "Kobolds"), ("power", "Hill"), ("power", "warcraft:Mining"), ("race", "classic:Humans")} \
        <= rs.setups[4].discarded
    out = {key for _, key in rs.setups[4].discarded}
    game = new_game(rs, 4, 3)
    offered = set(game.market.banners()) | set(game.market.powers)
    assert not offered & out
    assert sorted(game.market.out + game.market.discard) == sorted(out)
    assert not violations(game)
    why = loaded.mix.discarded("underground", 4)[("race", "Kobolds")]
    assert why == ["it tests cavern, on no region of the map"]


def test_a_race_discarded_leaves_a_power_of_the_same_name_on_offer(tmp_path):
    """Races and powers are apart (decision 1: one name per family): discarding the race Swamp of a
    designer's pack keeps classic's power Swamp."""
    pack = tmp_path / "ice"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: ice\nrequires: [classic]\nterrains: [glacier]\n")
    (pack / "swamp.sw").write_text("race Swamp {\n  banner 6\n  supply 11\n"
                                   "  on turn.end: gain 1 coin for each my regions where terrain is glacier\n}\n")
    rs = load_packs([str(pack)]).ruleset
    assert rs.setups[3].discarded == {("race", "Swamp")}
    game = new_game(rs, 3, 0)
    assert game.market.out == ["Swamp"] and not game.market.discard and "Swamp" in game.market.powers + [
        p for _, _, _, p in game.visible_combos()]


def test_a_power_only_partly_about_an_absent_terrain_is_kept(tmp_path):
    """A test under `not`, in a side of `or` or in a branch of `if` is no need (docs/mixing.md "What
    is discarded"): of four glacier powers on the classic board, only the one that needs a glacier goes."""
    pack = tmp_path / "ice"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: ice\nrequires: [classic]\nterrains: [glacier]\n")
    (pack / "powers.sw").write_text(
        "power Frostbite {\n  badge 3\n  on turn.end: gain 1 coin for each my regions where terrain is glacier\n}\n"
        "power Thaw {\n  badge 3\n"
        "  on turn.end: gain 1 coin for each my regions where terrain is glacier or terrain is forest\n}\n"
        "power Drift {\n  badge 3\n"
        "  on conquest.done: if terrain of target is glacier: gain 2 coins else: gain 1 coin\n}\n"
        "power Shelter {\n  badge 3\n"
        "  on turn.end: gain 1 coin for each my regions where not (terrain is glacier)\n}\n")
    loaded = load_packs([str(pack)])
    assert not [d for d in loaded.diagnostics if d.is_error], loaded.diagnostics
    assert loaded.ruleset.setups[2].discarded == {("power", "Frostbite")}
    assert {("race", "Flames"), ("race", "Spiderines")} == load_packs([MIXING]).ruleset.setups[2].discarded


def test_the_team_variant_mixes_on_its_board_with_teams_and_faction_columns():
    """packs/bfa comes first, so its board, seats, teams and faction columns hold; the races of
    another edition fit no column and are discarded, their powers join the deck (docs/mixing.md "Teams")."""
    from swdsl.engine.position import Position

    loaded = load_packs(["bfa", "underground"])
    assert loaded.boards == ["bfa", "warcraft", "underground"] and loaded.mix.board_for(4) == "bfa"
    rs = loaded.ruleset_for(players=4)
    assert rs.team_score == "lowest" and rs.setups[4].teams == ("alliance", "horde", "alliance", "horde")
    assert loaded.mix.discarded("bfa", 4)[("race", "Drow")] == \
        ["it carries no tag of the market's columns (alliance; horde; neutral)"]
    game = new_game(rs, 4, 7)
    assert [len(c) for c in game.market.columns] == [6, 6, 4] and "Drow" in game.market.out
    assert "Fisher" in game.market.powers + [p for *_, p in game.visible_combos()]
    assert not violations(game)
    board = Position(rs, 2).game.board  # on any map a banner without a column stays set aside…
    pos = Position(rs, 2, board=board)
    assert "Drow" in pos.game.market.out
    pos.race("Drow", 0, "Fisher")  # …and a scenario may still give it to a player
    assert "Drow" not in pos.game.market.out and not violations(pos.game)
    other = loaded.ruleset_for("underground")
    assert other.team_score == "sum" and not other.market.columns and not other.setups[4].teams


def test_the_checksum_sees_the_banners_a_board_set_aside():
    from swdsl.engine.replay import checksum

    rs = load_packs([MIXES["classic+underground+warcraft"]]).ruleset_for("warcraft")
    game = new_game(rs, 2, 1)
    before = checksum(game)
    game.market.out.append("x")
    assert checksum(game) != before


def test_check_of_several_packs_checks_them_as_one_mix_too():
    r = CliRunner().invoke(main, ["check", "classic", "underground", "warcraft"])
    assert r.exit_code == 0, r.output
    assert "classic+underground+warcraft (mixed) checked" in r.output
    for code in ("SW180", "SW181", "SW185"):
        assert f"{code} (warning)" in r.output, code
    assert re.search(r"gnomes\.sw:\d+:6: SW181 \(warning\) race 'Gnomes' is also declared by underground", r.output)
    assert "SW181" not in CliRunner().invoke(main, ["check", "classic"]).output


def test_simulate_names_the_board_and_what_it_discards():
    r = CliRunner().invoke(main, ["simulate", "--pack", MIXING, "--board", "underground", "--players", "2",
                                  "--games", "2", "--check-invariants"])
    assert r.exit_code == 0, r.output
    assert "the board of underground, map underground-2p" in r.output
    assert "discarded: Hill, Humans, Mounted, Underworld" in r.output and "invariants: all held" in r.output
    bad = CliRunner().invoke(main, ["simulate", "--pack", MIXING, "--board", "warcraft"])
    assert bad.exit_code == 2 and "SW300" in bad.output and "boards: classic, underground" in bad.output


def test_info_of_a_mix_shows_its_board_and_what_it_discards():
    import json

    r = CliRunner().invoke(main, ["info", MIXES["classic+warcraft"], "--board", "warcraft", "--format", "json"])
    data = json.loads(r.output)
    assert data["board"] == "warcraft" and data["boards"] == ["classic", "warcraft"]
    assert data["discarded"]["2"] == ["classic:Dwarves"]
    assert {"name": "warcraft:Dwarves", "shown": "Dwarves"}.items() <= next(
        x for x in data["races"] if x["name"] == "warcraft:Dwarves").items()


def test_balance_compare_of_a_mix_compares_the_settings_of_the_board_played():
    from swdsl.lab.compare import content_changes

    mix = load_packs(["classic", "underground"])
    assert content_changes(mix, mix, ("underground", "underground")) == []
    changed = {c["name"] for c in content_changes(mix, mix, ("classic", "underground"))}
    assert {"bank", "setup 3", "classic-3p", "underground-3p"} <= changed  # the other board's maps, bank, setups


def test_saved_games_of_a_mix_replay_exactly(tmp_path):
    r = CliRunner().invoke(main, ["simulate", "--pack", MIXES["underground+warcraft"], "--board", "warcraft",
                                  "--players", "3", "--games", "2", "--save-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    for save in sorted(tmp_path.glob("*.json")):
        assert '"board": "warcraft"' in save.read_text()
        again = CliRunner().invoke(main, ["replay", str(save)])
        assert again.exit_code == 0 and "final state matches" in again.output, again.output


def test_scenarios_accept_qualified_names_and_say_which_packs_a_short_name_means(tmp_path):
    from swdsl.scenarios import read_file, run_scenario

    doc = tmp_path / "s.yaml"
    doc.write_text("scenarios:\n  - name: two Gnomes\n    given:\n      races:\n"
                   "        - {player: 1, race: Gnomes, hand: 3}\n"
                   "  - name: one\n    given:\n      board: nowhere\n")
    loaded = load_packs([MIXES["underground+warcraft"]])
    (first, sc1), (second, sc2) = read_file(doc)[0]
    fails = run_scenario(doc, sc1, first, loaded).failures
    assert len(fails) == 1 and "SW405 'Gnomes' names the race of several packs: underground:Gnomes, warcraft:Gnomes" \
        in fails[0].message
    fails = run_scenario(doc, sc2, second, loaded).failures
    assert "SW405 unknown board 'nowhere'" in fails[0].message and "underground, warcraft" in fails[0].message


def test_swdsl_test_runs_a_mix_pack_s_scenarios_on_the_boards_they_ask_for():
    r = CliRunner().invoke(main, ["test", MIXES["underground+warcraft"]])
    assert r.exit_code == 0 and "0 failed" in r.output, r.output
    r = CliRunner().invoke(main, ["test", MIXING, "--board", "atlantis"])
    assert r.exit_code == 2 and "SW300" in r.output


# The soak: random games of every pair of editions, of the three, and of the team variant with
# Underground, shared out among each mix's boards and 2-5 players (docs/mixing.md "The soak tests").
SOAK_GAMES = int(os.environ.get("SWDSL_MIX_GAMES", "80"))  # per mix; the figure is 1,000
SOAK_BOARDS = {"classic+underground": ("classic", "underground"), "classic+warcraft": ("classic", "warcraft"),
               "underground+warcraft": ("underground", "warcraft"),
               "classic+underground+warcraft": ("classic", "underground", "warcraft"), "bfa+underground": ("bfa",)}
SOAK_CELLS = [(mix, board, players) for mix, boards in SOAK_BOARDS.items() for board in boards for players in (2, 3, 4, 5)]


def _soak_games(mix: str, board: str, players: int) -> int:
    """This cell's share of the mix's games."""
    cells = [(b, n) for m, b, n in SOAK_CELLS if m == mix]
    return SOAK_GAMES // len(cells) + (cells.index((board, players)) < SOAK_GAMES % len(cells))


@pytest.mark.slow
@pytest.mark.parametrize("mix, board, players", SOAK_CELLS)
def test_random_games_of_every_pair_and_of_the_triple_keep_invariants(mix, board, players):
    """Issue #11: random games of each pair of editions and of the three, across 2-5 players and
    every board, every invariant after every action; every 25th game replays exactly."""
    from swdsl.bots import RandomBot, play
    from swdsl.engine.replay import checksum, record, replay

    rs = load_packs([MIXES[mix]]).ruleset_for(board)
    for i in range(_soak_games(mix, board, players)):
        seed = 30_000 + i
        game = new_game(rs, players, seed)
        problems: list[str] = []
        play(game, [RandomBot(seed * 10 + s) for s in range(players)],
             lambda g: problems.extend(violations(g)) if not problems else None)
        assert not problems, f"{mix} on {board}'s board, {players} players, seed {seed}: {problems[:3]}"
        assert game.over
        if i % 25 == 0:
            assert checksum(replay(rs, record(game, [MIXES[mix]]))) == checksum(game)


def test_the_soak_shares_out_every_game_of_a_mix():
    for mix in SOAK_BOARDS:
        assert sum(_soak_games(m, b, n) for m, b, n in SOAK_CELLS if m == mix) == SOAK_GAMES


def test_a_pack_with_its_own_map_inherits_the_board_rules_and_pieces_of_the_packs_it_requires(tmp_path):
    """A `board` rule or placement of a required pack applies on the requiring pack's board (docs/packs/format.md:
    "A pack that `requires` another inherits its entry rule")."""
    pack = tmp_path / "isle"
    (pack / "maps").mkdir(parents=True)
    (pack / "pack.yaml").write_text("name: isle\nrequires: [classic]\nboard: isle\n"
                                    "setup:\n  2: {map: maps/isle.yaml}\n")
    (pack / "maps" / "isle.yaml").write_text("name: isle\nregions:\n  1: {terrain: mountain, edge: true}\n"
                                             "  2: {terrain: hill, edge: true}\nborders: [[1, 2]]\n")
    loaded = load_packs([str(pack), "underground"])  # mixed on the command line with a pack it does not require
    assert not [d for d in loaded.diagnostics if d.is_error], loaded.diagnostics
    rules = {r.name for r in loaded.ruleset.rules}
    assert {"Border entry", "Water"} <= rules and not {"Rivers", "Edge entry"} & rules  # classic is required…
    game = new_game(loaded.ruleset, 2, 0)
    assert [n for n, *_ in game.markers[0]] == ["mountain"]  # …and its Mountain lies on the isle's mountain
