"""Stats fold in the documented order and explain themselves
(docs/architecture.md «The order of modifiers»; core-rules.md §5)."""

from swdsl.engine import caches
from swdsl.engine.explain import explain
from swdsl.engine.legal import Action, apply
from swdsl.engine.pieces import new_race, remove_race
from swdsl.engine.position import Position
from swdsl.engine.setup import new_game
from swdsl.engine.stats import _gated, plan, value
from swdsl.packs.loader import load_ruleset


def _game(classic, race, power, regions, hand=6, markers=()):
    pos = Position(classic, 2)
    ids = classic.setups[2].board.by_id
    pos.race(race, 0, power, regions={ids[r]: n for r, n in regions.items()}, hand=hand)
    for region, name in markers:
        pos.marker(ids[region], name)
    return pos.start(0)


def test_cost_explains_base_markers_race_power_and_floor(classic):
    game = _game(classic, "Giants", "Commando", {"6": 1}, markers=[("2", "mountain")])
    why = explain(game, "conquest.cost", game.acting, target=game.board.by_id["2"])
    assert why.value == 1
    assert str(why) == "conquest.cost 1 = base 2 +1 marker mountain -1 Giants -1 Commando"


def test_a_floor_is_shown_when_it_binds(classic):
    """classic.md §3.4 Commando and §2.5 Giants: 2 -1 -1 would leave 0; Commando's floor keeps 1."""
    game = _game(classic, "Giants", "Commando", {"6": 1})
    why = explain(game, "conquest.cost", game.acting, target=game.board.by_id["2"])
    assert why.value == 1
    assert str(why) == "conquest.cost 1 = base 2 -1 Giants -1 Commando (floor 1)"


def test_set_modifier_of_a_power_overrides_an_edition_rule(classic):
    game = _game(classic, "Ratmen", "Seafaring", {"2": 1})
    sea = game.board.by_id["1"]
    why = explain(game, "region.conquerable", game.acting, target=sea)
    assert why.value is True
    assert str(why) == "region.conquerable True = base True Water sets False Seafaring sets True"


def test_tokens_granted_is_banner_plus_badge_plus_modifiers(classic):
    pos = Position(classic, 2)
    pos.market([("Amazons", "Alchemist")])
    game = pos.start(0)
    apply(game, Action("pick", 0))
    inst = game.acting
    why = explain(game, "tokens.granted", inst)
    assert why.value == 6 + inst.power.tokens + 4
    assert inst.hand == why.value


BULLS = """\
race Bulls {
  banner 6
  supply 12
  modify conquest.cost at least 2
}
race Oxen {
  banner 6
  supply 12
  modify conquest.cost by 0 floor 2
}
"""


def _bulls(tmp_path):
    from swdsl.packs.loader import load_ruleset

    (tmp_path / "pack.yaml").write_text("name: bulls\nlanguage: 1\nrequires: [classic]\n")
    (tmp_path / "bulls.sw").write_text(BULLS)
    return load_ruleset([str(tmp_path)])


def test_at_least_bounds_the_final_value_after_every_layer(tmp_path):
    """issue «The language says what designers invent», floors: `at least 2` on a race holds
    whatever its power takes off afterwards (classic.md §3.13 Mounted: -1 on Hill and Farmland)."""
    rs = _bulls(tmp_path)
    game = _game(rs, "Bulls", "Mounted", {"6": 1})
    why = explain(game, "conquest.cost", game.acting, target=game.board.by_id["5"])  # an empty hill
    assert why.value == 2
    assert str(why) == "conquest.cost 2 = base 2 -1 Mounted, at least 2 Bulls"


def test_a_modifiers_own_floor_binds_only_where_it_is_written(tmp_path):
    """The per-modifier floor bounds the value right after its modifier: a later discount undoes it."""
    rs = _bulls(tmp_path)
    game = _game(rs, "Oxen", "Mounted", {"6": 1})
    assert explain(game, "conquest.cost", game.acting, target=game.board.by_id["5"]).value == 1


def test_a_rule_whose_gate_is_closed_at_a_region_is_not_asked_there():
    """Warcraft's `modify travel.cost by 1 when target has entry and not target borders my regions`
    (packs/warcraft/rules.sw, "Travel cost"; rules/warcraft.md, entry regions and travel cost): the part
    of its condition that reads only the region (Modifier.gate: `target has entry`) leaves the rule out
    of a fold at every region without an entry, kept per kind of region; at an entry region the fold
    asks only the rest. The values are those folded with the caches off."""
    rs = load_ruleset(["warcraft"])
    (rule,) = next(r for r in rs.rules if r.name == "Travel cost").modifiers["travel.cost"]
    assert rule.gate is not None and rule.ungated is not None and rule.ungated.when is not None
    game = new_game(rs, 2, 3)
    inst = new_race(game, rs.races[sorted(rs.banners)[0]], None, 0)
    entries = {r for r, region in enumerate(game.board.regions) if "entry" in region.symbols}
    assert entries and len(entries) < len(game.board)
    for r in range(len(game.board)):
        kept = _gated(game, inst, (rule,), r)
        assert kept == ((rule.ungated,) if r in entries else ())
        cost = value(game, "travel.cost", inst, target=r)
        caches.SWITCH.on = False
        try:
            assert value(game, "travel.cost", inst, target=r) == cost == (1 if r in entries else 0)
        finally:
            caches.SWITCH.on = True


def test_races_share_the_plans_of_what_their_banner_and_power_bring(classic):
    """stats._shared_plan: a plan is made once per stat and what the banner and power bring to it — races
    whose banner and power bring nothing to conquest.cost share one plan, a power that does (Mounted) has
    its own, and a race that left the table with its power discarded folds its banner's alone."""
    game = new_game(classic, 2, 1)
    ratmen = new_race(game, classic.races["Ratmen"], classic.powers["Alchemist"], 0)
    amazons = new_race(game, classic.races["Amazons"], classic.powers["Wealthy"], 1)
    mounted = new_race(game, classic.races["Ratmen"], classic.powers["Mounted"], 1)
    assert plan(game, "conquest.cost", ratmen) is plan(game, "conquest.cost", amazons)
    assert plan(game, "conquest.cost", mounted) is not plan(game, "conquest.cost", ratmen)
    assert any(m.source == "Mounted" for m in plan(game, "conquest.cost", mounted).mods)
    game.players[1].active = mounted
    remove_race(game, mounted)
    assert plan(game, "conquest.cost", mounted) is plan(game, "conquest.cost", ratmen)
    caches.SWITCH.on = False
    try:  # made afresh, the same modifiers
        assert plan(game, "conquest.cost", mounted).mods == plan(game, "conquest.cost", ratmen).mods
    finally:
        caches.SWITCH.on = True
