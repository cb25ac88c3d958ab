"""The hardest items of the three catalogs, written in the language (tests/lang/hard).

Each item must check, compile to hooks and play; the behaviour tests below set
up a position by hand and run the compiled hooks through the engine's own
functions, one generic construct at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from handmade import R, empty_game, put

from swdsl.bots import GreedyBot, RandomBot, play
from swdsl.engine import events, pieces, turn
from swdsl.engine.invariants import violations
from swdsl.engine.legal import Action, ability_actions, apply, can_target, held_abilities, legal_actions, use_ability
from swdsl.engine.setup import new_game
from swdsl.engine.stats import conquest_cost, fold, is_immune

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


# ---- positions set up by hand (tests/lang/handmade.py) -----------------------------------


def test_goblin_bombs_explode_fizzle_and_go_back_on_the_pile(rs):
    g = empty_game(rs)
    gob = put(g, "Goblins", 0, {2: 2})
    hum = put(g, "Humans", 1, {1: 3, 5: 1})
    g.markers[R(g, 1)].append(("live_bomb", None))
    g.markers[R(g, 5)].append(("dud_bomb", None))
    g.markers[R(g, 8)].append(("live_bomb", None))  # empty region: back on the pile
    pile = len(g.hidden["bombs"])
    events.fire(g, "turn.start", gob)
    assert g.occupant[R(g, 1)] is None and g.tokens[R(g, 1)] == 0  # exploded: left empty, nobody enters
    assert hum.pending == 2 and g.occupant[R(g, 5)] is hum  # 1 discarded, 2 withdrawn; the dud did nothing
    assert all(not m for m in g.markers)
    assert len(g.hidden["bombs"]) == pile + 1 and g.hidden["bombs"][-1] == "live_bomb"
    assert any(c.region == R(g, 1) and c.attacker == gob.id for c in g.log)  # a conquest for the bonus


def test_bombs_are_laid_next_to_the_goblins_in_active_enemy_regions(rs):
    g = empty_game(rs)
    gob = put(g, "Goblins", 0, {2: 2})
    put(g, "Humans", 1, {1: 1, 14: 1})
    options = {a.b for a in ability_actions(g, gob, "redeploy") if a.a == "Goblins/bomb"}
    assert options == {(R(g, 1),)}
    use_ability(g, gob, "Goblins/bomb", (R(g, 1),))
    assert [n for n, _ in g.markers[R(g, 1)]] in (["live_bomb"], ["dud_bomb"])
    assert not ability_actions(g, gob, "redeploy")  # one bomb per region


def test_pandaren_harmony_gates_and_tolls_once_a_turn(rs):
    g = empty_game(rs)
    pan = put(g, "Pandaren", 0, {1: 1, 4: 1})
    events.fire(g, "turn.end", pan)  # nobody attacked: every opponent gets Harmony
    assert [n for n, _ in g.players[1].markers] == ["harmony"]
    gob = put(g, "Goblins", 1, {2: 6}, hand=8)
    g.players[1].coins = 1
    assert is_immune(g, R(g, 1), gob)  # cannot pay: cannot attack
    g.players[1].coins = 5
    assert not is_immune(g, R(g, 1), gob)
    turn.conquer(g, gob, R(g, 1), 3)
    turn.conquer(g, gob, R(g, 4), 3)
    assert g.players[1].coins == 3 and g.players[0].coins == 7  # 2 coins, once
    events.fire(g, "turn.start", pan)
    assert g.players[1].markers == [] and g.pools["harmony"] == 4


def test_military_objectives_pay_non_horde_conquerors_and_the_humans(rs):
    g = empty_game(rs)
    hum = put(g, "Humans", 0, {12: 2})
    use_ability(g, hum, "Humans/objective", (R(g, 13),))
    use_ability(g, hum, "Humans/objective", (R(g, 14),))
    gob = put(g, "Goblins", 1, {8: 3}, hand=6)
    turn.conquer(g, gob, R(g, 14), 2)  # Horde: nothing, the objective stays
    assert g.players[1].coins == 5 and any(n == "objective" for n, _ in g.markers[R(g, 14)])
    pan = put(g, "Pandaren", 1, {11: 3}, hand=6)
    turn.conquer(g, pan, R(g, 13), 2)
    assert g.players[1].coins == 7 and g.players[0].coins == 7
    assert not g.markers[R(g, 13)] and g.pools["objective"] == 1


def test_intimidating_moves_a_token_or_discards_a_lone_one(rs):
    g = empty_game(rs)
    me = put(g, "Humans", 0, {2: 2}, power="Intimidating")
    foe = put(g, "Goblins", 1, {1: 2, 12: 1})
    acts = {(a.a, a.b) for a in ability_actions(g, me, "conquest")}
    assert ("Intimidating/frighten", (R(g, 1), R(g, 12))) in acts
    use_ability(g, me, "Intimidating/frighten", (R(g, 1), R(g, 12)))
    assert g.tokens[R(g, 1)] == 1 and g.tokens[R(g, 12)] == 2
    use_ability(g, me, "Intimidating/frighten", (R(g, 1), R(g, 12)))
    assert g.occupant[R(g, 1)] is None and R(g, 1) not in foe.regions  # emptied: left
    lone = put(g, "Cultists", 1, {5: 1}, declined=True)
    use_ability(g, me, "Intimidating/scatter", (R(g, 5),))
    assert lone.id not in g.races  # its last token discarded: the declined race leaves
    assert not ability_actions(g, me, "conquest")  # three uses a turn


def test_portal_swaps_everything_but_fixed_markers(rs):
    g = empty_game(rs)
    mage = put(g, "Humans", 0, {1: 2}, power="Portal Mage")
    gob = put(g, "Goblins", 1, {7: 3})
    g.markers[R(g, 1)].append(("objective", mage.id))
    g.markers[R(g, 7)].append(("mountain", None))
    use_ability(g, mage, "Portal Mage/portal", (R(g, 1), R(g, 7)))
    assert g.occupant[R(g, 7)] is mage and g.tokens[R(g, 7)] == 2 and mage.regions == {R(g, 7)}
    assert g.occupant[R(g, 1)] is gob and g.tokens[R(g, 1)] == 3 and gob.regions == {R(g, 1)}
    assert [n for n, _ in g.markers[R(g, 7)]] == ["mountain", "objective"]


def test_champion_frees_a_conquest_and_is_ransomed(rs):
    g = empty_game(rs)
    champ = put(g, "Humans", 0, {1: 1}, power="Championing", hand=2)
    put(g, "Goblins", 1, {2: 3})
    use_ability(g, champ, "Championing/champion", (R(g, 2),))
    assert g.occupant[R(g, 2)] is champ and g.tokens[R(g, 2)] == 1 and champ.hand == 1
    assert ("champion", champ.id) in g.markers[R(g, 2)]
    pan = put(g, "Pandaren", 1, {3: 5}, hand=6)
    assert conquest_cost(g, pan, R(g, 2)) == 4  # 2 + 1 token + 1 for the Champion
    turn.conquer(g, pan, R(g, 2), 4)
    assert champ.pending == 1 and g.players[0].coins == 4 and g.players[1].coins == 6
    assert g.queue_returns == [("champion", champ.id)]


def test_stonehedge_binds_a_power_to_its_region(rs):
    g = empty_game(rs)
    g.market.powers = ["Diplomat", "Championing", "Intimidating", "Portal Mage", "Vampire"]
    holder = put(g, "Humans", 0, {4: 3})
    g.hidden["relics"] = ["stonehedge"]
    pieces.draw_marker(g, "relics", R(g, 4), holder)
    assert g.bound_powers == {R(g, 4): ["Vampire"]} and "Vampire" not in g.market.powers
    assert "Vampire/bite" in {a.key for a in held_abilities(g, holder)}
    put(g, "Goblins", 1, {5: 1})
    assert ("ability", "Vampire/bite", (R(g, 5),)) in [tuple(a) for a in ability_actions(g, holder, "conquest")]
    other = put(g, "Cultists", 1, {12: 2})
    assert "Vampire/bite" not in {a.key for a in held_abilities(g, other)}


def test_shadow_mimes_swap_their_power_and_tokens_follow_the_badge(rs):
    g = empty_game(rs)
    g.market.powers = ["Intimidating", "Championing", "Portal Mage", "Vampire"]
    mimes = put(g, "Shadow Mimes", 0, {}, power="Diplomat", hand=12)
    mimes.turns = 1
    g.phase, g.acting = "conquer", mimes
    offered = {a.b for a in legal_actions(g) if a.kind == "ability"}
    assert ("Intimidating",) in offered and ("Diplomat",) not in offered
    apply(g, Action("ability", "Shadow Mimes/mimic", ("Intimidating",)))
    assert mimes.power.name == "Intimidating" and mimes.hand == 11  # 7 + 4
    assert g.market.powers[0] == "Diplomat"
    assert "Intimidating/frighten" in {a.key for a in mimes.abilities}


def test_flames_attack_as_if_empty_next_to_the_volcano_and_their_chain(rs):
    g = empty_game(rs)
    flames = put(g, "Flames", 0, {5: 1, 10: 1, 9: 1})
    events.fire(g, "combo.picked", flames)
    assert ("the_volcano", flames.id) in g.markers[R(g, 6)]
    foe = put(g, "Goblins", 1, {7: 3, 4: 2, 12: 2})
    assert conquest_cost(g, flames, R(g, 7)) == 2  # borders the Volcano
    assert conquest_cost(g, flames, R(g, 4)) == 2  # borders 5, joined to the Volcano
    g.occupant[R(g, 5)] = None
    flames.regions.discard(R(g, 5))
    assert conquest_cost(g, flames, R(g, 4)) == 4  # 9 is no longer joined to it
    assert foe.regions


def test_great_ancient_goes_with_the_first_conquest_and_makes_it_immune(rs):
    g = empty_game(rs)
    cult = put(g, "Cultists", 0, {}, hand=6)
    turn.conquer(g, cult, R(g, 2), 2)
    turn.conquer(g, cult, R(g, 3), 2)
    assert ("great_ancient", cult.id) in g.markers[R(g, 2)] and not g.markers[R(g, 3)]
    assert conquest_cost(g, cult, R(g, 5)) == 1  # borders the Great Ancient: 2 - 1
    foe = put(g, "Goblins", 1, {1: 3})
    assert is_immune(g, R(g, 2), foe) and not is_immune(g, R(g, 3), foe)


def test_silver_hammers_are_gathered_then_swung_in_conquests(rs):
    g = empty_game(rs)
    dw = put(g, "Iron Dwarves", 0, {2: 1, 5: 1, 14: 1}, hand=5)
    events.fire(g, "redeploy.end", dw)
    assert dw.vars["hammers"] == 3
    use_ability(g, dw, "Iron Dwarves/swing", ())
    use_ability(g, dw, "Iron Dwarves/swing", ())
    assert conquest_cost(g, dw, R(g, 1)) == 1  # 3 - 2 hammers, floor 1
    turn.conquer(g, dw, R(g, 1), 1)
    assert dw.vars["spent"] == 2 and dw.vars["ready"] == 0
    assert len([a for a in ability_actions(g, dw, "conquest") if a.a == "Iron Dwarves/swing"]) == 1


def test_balrog_conquers_for_the_pentacle_holder_with_two_losses(rs):
    g = empty_game(rs)
    holder = put(g, "Humans", 0, {2: 2})
    g.markers[R(g, 2)].append(("wickedest_pentacle", None))
    foe = put(g, "Goblins", 1, {5: 4, 10: 1})
    use_ability(g, holder, "wickedest_pentacle/balrog", (R(g, 5),))
    assert g.occupant[R(g, 5)] is None and foe.pending == 2  # 2 discarded, 2 withdrawn
    assert [n for n, _ in g.markers[R(g, 5)]] == ["mountain", "balrog"] or \
        [n for n, _ in g.markers[R(g, 5)]] == ["balrog"]
    assert not can_target(g, foe, R(g, 5)) and not can_target(g, holder, R(g, 5))
    turn.score(g, 0)
    # 1 for region 2 only (the Balrog's region scores for nobody), +1 faction bonus: the
    # Balrog's conquest is the holder's, and the Humans (alliance) defeated the Goblins (horde)
    assert g.players[0].coins == 5 + 1 + 1


def test_faction_bonus_counts_each_defeated_race_of_the_other_side_once(rs):
    g = empty_game(rs)
    gob = put(g, "Goblins", 0, {2: 1}, hand=10)
    hum = put(g, "Humans", 1, {1: 1, 5: 1})
    old = put(g, "Cultists", 1, {3: 1}, declined=True)
    turn.conquer(g, gob, R(g, 1), 3)
    turn.conquer(g, gob, R(g, 5), 3)
    turn.conquer(g, gob, R(g, 3), 3)
    coins = g.players[0].coins
    events.fire(g, "turn.end", gob)
    assert g.players[0].coins == coins + 1  # Humans once; the Cultists have no side
    assert hum.id in g.races and old.id not in g.races


def test_rivers_cost_one_and_are_left_at_redeployment(rs):
    g = empty_game(rs)
    me = put(g, "Humans", 0, {2: 1}, hand=4)
    assert conquest_cost(g, me, R(g, 3)) == 1
    assert fold(g, "redeploy.vacate", False, me, {"target": R(g, 3)}) is True
    turn.conquer(g, me, R(g, 3), 1)
    g.phase, g.acting = "conquer", me
    turn.end_conquests(g)
    assert g.occupant[R(g, 3)] is None and me.hand == 4


def test_conquering_monsters_draws_a_relic_into_the_region(rs):
    g = new_game(rs, 2, 3)
    me = put(g, "Humans", 0, {1: 1}, hand=8)
    lair = R(g, 4)
    assert g.tokens[lair] == 2
    turn.conquer(g, me, lair, 4)
    drawn = [n for n, _ in g.markers[lair]]
    assert len(drawn) == 1 and drawn[0] in ("stonehedge", "wickedest_pentacle")
