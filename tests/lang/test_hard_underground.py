"""Behaviour tests of the Underground hard items (tests/lang/hard/items), each docstring quoting
its rule. Map ids are tiny.yaml's: 7 the only crystal, 3 and 11 the rivers, 2 and 13 forests."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from handmade import R, empty_game, put

from swdsl.engine import pieces, turn
from swdsl.engine.legal import DECLINE, Action, ability_actions, apply, can_target, legal_actions, use_ability
from swdsl.engine.stats import conquest_cost, explain


def mid(g, r) -> int:
    return int(g.board.regions[r].id)


def offered(g, inst, key, phase="conquest") -> set:
    """Map ids of the first choice of every `key` action on offer to `inst`."""
    return {mid(g, a.b[0]) for a in ability_actions(g, inst, phase) if a.a == key}


def where(g, marker) -> list:
    """Map ids of the regions holding `marker`, one entry per piece."""
    return sorted(mid(g, r) for r, ms in enumerate(g.markers) for n, _ in ms if n == marker)


def lay(g, marker, rid):
    g.markers[R(g, rid)].append((marker, None))


def acting(g, inst, phase="conquer"):
    g.phase, g.acting, g.current = phase, inst, inst.player


def scored(g, seat) -> int:
    before = g.players[seat].coins
    turn.score(g, seat)
    return g.players[seat].coins - before


def attack(g, inst, rid):
    """An ordinary conquest of `rid` by `inst`, paying its cost."""
    inst.hand += conquest_cost(g, inst, R(g, rid))
    turn.conquer(g, inst, R(g, rid), conquest_cost(g, inst, R(g, rid)))


def wisps_roll(rs, roll):
    """The Wisps on crystal 7 with 2 in hand roll `roll` against region 12 (cost 4)."""
    g = empty_game(rs)
    wisps = put(g, "Will-o'-Wisps", 0, {7: 2}, hand=2)
    foe = put(g, "Ghouls", 1, {12: 2})
    acting(g, wisps)
    g.rng = SimpleNamespace(choice=lambda faces: roll)  # the die rolls `roll`
    use_ability(g, wisps, "Will-o'-Wisps/guided_roll", (R(g, 12),))
    assert g.die == roll
    return g, wisps, foe


@pytest.mark.parametrize("roll, placed", [(2, 2), (3, 1)])
def test_wisps_roll_then_must_conquer_with_cost_minus_roll_tokens(rs, roll, placed):
    """§2.5 "If tokens in hand plus the roll are enough, the player must conquer it";
    R50 "tokens placed = max(1, cost − roll)"."""
    g, wisps, foe = wisps_roll(rs, roll)
    assert g.occupant[R(g, 12)] is wisps and g.tokens[R(g, 12)] == placed and wisps.hand == 2 - placed
    assert g.phase == "conquer" and foe.pending == 1


def test_wisps_roll_that_falls_short_ends_the_conquests(rs):
    """R50: "a roll that still falls short ends the conquest phase"."""
    g, wisps, foe = wisps_roll(rs, 0)
    assert g.phase == "redeploy" and g.occupant[R(g, 12)] is foe and wisps.hand == 2


def test_wisps_roll_only_for_crystal_targets_and_shortfalls_up_to_three(rs):
    """§2.5 CONDITION: "the target is a Crystal region, or a region adjacent to a Crystal
    region the Wisps control"; R50 "rolling is allowed only when the shortfall is at most 3"."""
    g = empty_game(rs)
    wisps = put(g, "Will-o'-Wisps", 0, {12: 1}, hand=2)
    put(g, "Ghouls", 1, {7: 2, 13: 2, 14: 2, 8: 5})
    # 7 is crystal; 13 borders a crystal the Wisps do not hold; 14 borders no crystal
    assert offered(g, wisps, "Will-o'-Wisps/guided_roll") == {7}
    attack(g, wisps, 7)
    # now 13 borders the Wisps' crystal; 8 does too but is 5 short (7 - 2)
    assert offered(g, wisps, "Will-o'-Wisps/guided_roll") == {13}


def gnome_position(rs, defender, declined=False):
    """A Vengeful attacker holding the Great Brass Pipes (forest 2) and the Troll's Socks
    (1), against `defender` in forest 13 and hill 4, whose player holds a Vengeance token."""
    g = empty_game(rs)
    att = put(g, "Ghouls", 0, {2: 2, 1: 1}, power="Vengeful", hand=8)
    lay(g, "great_brass_pipes", 2)
    lay(g, "trolls_socks", 1)
    put(g, defender, 1, {13: 1, 4: 1}, declined=declined)
    pieces.give_marker(g, "vengeance", 1, att)
    return g, att


def test_gnomes_strip_opponents_pipes_discounts_and_relics(rs):
    """§2.6 "Opponents cannot use race abilities, powers, or any Place or Relic effect
    against the Gnomes ... cannot reach them with the Great Brass Pipes"; R45."""
    g, att = gnome_position(rs, "Goblins")  # the same position against another race
    assert can_target(g, att, R(g, 13)) and conquest_cost(g, att, R(g, 4)) == 2
    assert offered(g, att, "trolls_socks/socks") == {4, 13}
    g, att = gnome_position(rs, "Underground Gnomes")
    assert not can_target(g, att, R(g, 13))  # Pipes: no reach
    assert conquest_cost(g, att, R(g, 4)) == 3  # Vengeful: no discount
    assert offered(g, att, "trolls_socks/socks") == set()  # the Socks cannot choose them
    assert "(shielded)" in str(explain(g, "conquest.cost", att, target=R(g, 4)))


def test_gnome_shield_only_while_active_and_edition_rules_still_apply(rs):
    """R45: "Protection applies only while the Gnomes are active ... The attacker's own
    penalties still apply" (edition rules are not the attacker's benefits)."""
    g, att = gnome_position(rs, "Underground Gnomes", declined=True)
    assert can_target(g, att, R(g, 13)) and conquest_cost(g, att, R(g, 4)) == 2
    g = empty_game(rs)
    put(g, "Underground Gnomes", 1, {13: 1})
    newcomer = put(g, "Ghouls", 0, {}, hand=5)
    assert can_target(g, newcomer, R(g, 13))  # the edition's edge entry still lets it in


def test_lizardmen_cross_an_occupied_river_without_conquering_it(rs):
    """§2.9 "Lizardmen may pass through a River region, occupied or not, without conquering
    it and without leaving a token"; R47 "including Kraken-held ones"."""
    for race in ("Ghouls", "Lizardmen"):  # the same position, without and with the rule
        g = empty_game(rs)
        me = put(g, race, 0, {10: 2}, hand=6)
        foe = put(g, "Goblins", 1, {11: 2, 13: 1})
        assert can_target(g, me, R(g, 13)) == (race == "Lizardmen")
        assert not can_target(g, me, R(g, 12))  # across land, not a river
    acting(g, me)
    apply(g, Action("conquer", R(g, 13)))
    assert g.occupant[R(g, 13)] is me and me.hand == 6 - 3
    assert g.occupant[R(g, 11)] is foe and g.tokens[R(g, 11)] == 2  # the river is untouched


def test_quarrelsome_gains_one_coin_per_isolated_group(rs):
    """§3.6 "+1 coin per isolated group of your regions ... two groups give 2"."""
    g = empty_game(rs)
    put(g, "Ghouls", 0, {1: 1, 2: 1, 9: 1, 12: 1, 14: 1}, power="Quarrelsome")
    assert scored(g, 0) == 5 + 3  # groups {1, 2}, {9}, {12, 14}


def test_bag_of_wonders_copies_a_relic_with_a_use_of_its_own(rs):
    """§3.8 "The Bag duplicates one Relic in play"; R54 "a second copy with its own
    once-per-turn use ... If no Relic is face up, it does nothing"."""
    g = empty_game(rs)
    mag = put(g, "Ghouls", 0, {1: 1, 2: 1}, power="Magic", hand=6)
    foe = put(g, "Goblins", 1, {5: 3, 4: 2})
    assert offered(g, mag, "Magic/wonder") == set()
    lay(g, "trolls_socks", 2)
    assert offered(g, mag, "Magic/wonder") == {2}
    use_ability(g, mag, "Magic/wonder", (R(g, 2), R(g, 1)))
    assert where(g, "bag_of_wonders") == [1] and offered(g, mag, "Magic/wonder") == set()
    tray = g.tray["Goblins"]
    use_ability(g, mag, "trolls_socks/socks", (R(g, 5),))
    assert offered(g, mag, "bag_of_wonders>trolls_socks/socks") == {4}
    use_ability(g, mag, "bag_of_wonders>trolls_socks/socks", (R(g, 4),))
    assert g.occupant[R(g, 5)] is mag and g.occupant[R(g, 4)] is mag and mag.hand == 2
    assert foe.pending == 5 and g.tray["Goblins"] == tray  # as if empty, twice: nothing discarded


def bag_in_region_1(rs):
    """The Magic race (1, 12) puts the Bag in 1, copying the Scepter the Goblins hold in 14."""
    g = empty_game(rs)
    mag = put(g, "Humans", 0, {1: 1, 12: 3}, power="Magic")
    foe = put(g, "Goblins", 1, {2: 1, 14: 1})
    lay(g, "misers_scepter", 14)
    use_ability(g, mag, "Magic/wonder", (R(g, 14), R(g, 1)))
    return g, mag, foe


def test_bag_goes_back_to_its_owner_when_taken_and_leaves_on_decline(rs):
    """§3.8 "The Bag cannot be taken away. If its region is conquered ... the owner takes
    the Bag back"; R54 "It is removed when the Magic race declines"."""
    g, mag, foe = bag_in_region_1(rs)
    attack(g, foe, 1)
    assert where(g, "bag_of_wonders") == [] and not any(">" in a.a for a in ability_actions(g, foe, "redeploy"))
    turn.start_defence(g)
    assert where(g, "bag_of_wonders") == [12]
    turn.decline(g, mag)
    assert where(g, "bag_of_wonders") == [] and g.pools["bag_of_wonders"] == 1


def test_bag_copying_the_socks_moves_the_bag_not_the_socks(rs):
    """R54 "It sits where it was last used"; §4 "each a unique marker"."""
    g = empty_game(rs)
    mag = put(g, "Ghouls", 0, {1: 1, 2: 1}, power="Magic", hand=4)
    foe = put(g, "Goblins", 1, {14: 1, 5: 3})
    lay(g, "trolls_socks", 14)
    use_ability(g, mag, "Magic/wonder", (R(g, 14), R(g, 2)))
    use_ability(g, mag, "bag_of_wonders>trolls_socks/socks", (R(g, 5),))
    assert g.occupant[R(g, 5)] is mag and foe.pending == 3
    assert where(g, "trolls_socks") == [14] and where(g, "bag_of_wonders") == [5]


def test_bag_copying_the_scepter_doubles_the_bags_region_once(rs):
    """§5.3 "double the coins earned from that region"; R54 "The Bag acts as a second copy"."""
    g = empty_game(rs)
    mag = put(g, "Ghouls", 0, {1: 1, 2: 1, 13: 1}, power="Magic")
    put(g, "Goblins", 1, {14: 1})
    lay(g, "misers_scepter", 14)
    use_ability(g, mag, "Magic/wonder", (R(g, 14), R(g, 2)))
    use_ability(g, mag, "bag_of_wonders>misers_scepter/hoard", (R(g, 13),))
    assert where(g, "misers_scepter") == [14] and where(g, "bag_of_wonders") == [13]
    assert scored(g, 0) == 1 + 1 + 2


def test_an_abandoned_bag_goes_back_to_its_owner(rs):
    """§3.8 "If its region is conquered or abandoned, the owner takes the Bag back into hand"."""
    g, mag, foe = bag_in_region_1(rs)
    pieces.vacate(g, mag, R(g, 1))
    attack(g, foe, 1)
    assert where(g, "bag_of_wonders") == []
    assert not any(a.a.startswith("bag_of_wonders") for a in ability_actions(g, foe, "redeploy"))


def test_tomb_redeploys_all_its_tokens_in_the_decline_turn_before_scoring(rs):
    """§3.12 "On decline, all Undead tokens may stay on the map. One final redeployment";
    R52 "in the decline turn, before scoring, among the regions held at that moment"."""
    g = empty_game(rs)
    tomb = put(g, "Humans", 0, {1: 3, 2: 4}, power="Tomb", hand=2)
    acting(g, tomb)
    g.queue = [("defend", None), ("score", None), ("after", None), ("next", None)]
    apply(g, DECLINE)
    assert tomb.declined and g.phase == "defend" and g.acting is tomb and tomb.pending == 5
    assert g.players[0].coins == 5  # not scored yet
    assert legal_actions(g) == [Action("place", R(g, 1)), Action("place", R(g, 2))]
    for _ in range(5):
        apply(g, Action("place", R(g, 2)))
    assert (g.tokens[R(g, 1)], g.tokens[R(g, 2)]) == (1, 6) and g.tray["Humans"] == 10 - 7
    assert g.players[0].coins == 5 + 2 and tomb.power is not None


def test_a_declined_tomb_loses_one_token_and_is_eliminated_with_no_region_left(rs):
    """§3.12 "when one of their regions is conquered, at the end of the attacker's turn
    redeploy all Undead tokens from it except one ... With no region left, they are eliminated"."""
    g = empty_game(rs)
    tomb = put(g, "Humans", 0, {1: 4, 2: 1}, power="Tomb", declined=True)
    foe = put(g, "Goblins", 1, {12: 1})
    attack(g, foe, 1)
    assert tomb.pending == 3 and g.tray["Humans"] == 10 - 5 + 1
    turn.start_defence(g)
    assert g.tokens[R(g, 2)] == 4 and tomb.pending == 0
    attack(g, foe, 2)
    assert tomb.id not in g.races and g.tray["Humans"] == 10


def test_reborn_turns_two_declined_regions_into_active_ones(rs):
    """§3.16 "empty one or two regions of the declined Reborn race. In each, deploy one token
    of your new active race, taken from the tray (or from hand if the tray is empty)"."""
    g = empty_game(rs)
    old = put(g, "Humans", 0, {1: 2, 2: 1, 5: 1}, power="Reborn", declined=True)
    new = put(g, "Ghouls", 0, {12: 2}, hand=3)
    put(g, "Goblins", 1, {14: 1}, power="Reborn", declined=True)
    acting(g, new)
    key = f"Reborn/rebirth@{old.id}"
    assert offered(g, new, key) == {1, 2, 5}
    trays = g.tray["Humans"], g.tray["Ghouls"]
    use_ability(g, new, key, (R(g, 1),))
    assert g.occupant[R(g, 1)] is new and g.tokens[R(g, 1)] == 1 and new.hand == 3
    assert (g.tray["Humans"], g.tray["Ghouls"]) == (trays[0] + 2, trays[1] - 1)
    g.tray["Ghouls"] = 0
    use_ability(g, new, key, (R(g, 2),))
    assert g.occupant[R(g, 2)] is new and g.tokens[R(g, 2)] == 1 and new.hand == 2  # from hand
    assert offered(g, new, key) == set() and g.occupant[R(g, 5)] is old  # two a turn


def test_vengeful_marks_attackers_of_any_own_race_discounts_and_takes_back(rs):
    """§3.21 "Give a Vengeance token to every player who attacks any of your races ...
    Attacking a region held by an active or declined race of a player who holds a Vengeance
    token costs 1 less (min 1). Take all Vengeance tokens back at the end of your turn"."""
    g = empty_game(rs)
    veng = put(g, "Ghouls", 0, {1: 2, 4: 1}, power="Vengeful")
    put(g, "Humans", 0, {12: 1}, declined=True)
    foe = put(g, "Goblins", 1, {2: 2})
    put(g, "Cultists", 1, {13: 2}, declined=True)
    assert conquest_cost(g, veng, R(g, 2)) == 4
    attack(g, foe, 12)  # the Vengeful player's declined race
    assert [n for n, _ in g.players[1].markers] == ["vengeance"]
    attack(g, foe, 1)
    assert [n for n, _ in g.players[1].markers] == ["vengeance"] and g.pools["vengeance"] == 3
    assert conquest_cost(g, veng, R(g, 2)) == 3 and conquest_cost(g, veng, R(g, 13)) == 3
    assert conquest_cost(g, veng, R(g, 9)) == 2  # an empty region: nobody's token
    scored(g, 0)
    assert g.players[1].markers == [] and g.pools["vengeance"] == 4


def test_vengeful_player_taking_its_own_declined_region_gets_no_token(rs):
    """§3.21 "Give a Vengeance token to every player who attacks any of your races"."""
    g = empty_game(rs)
    veng = put(g, "Ghouls", 0, {1: 2}, power="Vengeful")
    put(g, "Humans", 0, {2: 1, 4: 1}, declined=True)
    attack(g, veng, 2)
    assert g.players[0].markers == [] and conquest_cost(g, veng, R(g, 4)) == 3


def test_trolls_socks_conquer_as_if_empty_and_the_defender_discards_none(rs):
    """§5.1 "conquer a region as if it were empty. The previous holder redeploys its tokens
    as usual but discards none"; R58: the Socks move to the conquered region."""
    g = empty_game(rs)
    me = put(g, "Ghouls", 0, {2: 1}, hand=2)
    lay(g, "trolls_socks", 2)
    foe = put(g, "Goblins", 1, {5: 3, 10: 1})
    assert conquest_cost(g, me, R(g, 5)) == 5 and offered(g, me, "trolls_socks/socks") == {5}
    tray = g.tray["Goblins"]
    use_ability(g, me, "trolls_socks/socks", (R(g, 5),))
    assert g.occupant[R(g, 5)] is me and g.tokens[R(g, 5)] == 2 and me.hand == 0
    assert foe.pending == 3 and g.tray["Goblins"] == tray
    assert where(g, "trolls_socks") == [5] and g.players[0].markers == [] and g.pools["socked"] == 1
    assert offered(g, me, "trolls_socks/socks") == set()  # once per turn


def test_misers_scepter_doubles_every_per_region_coin_but_not_turn_wide_bonuses(rs):
    """§5.3 "put the Scepter in a region you control; double the coins earned from that
    region"; R55 "Diamond Fields' coin for that region ... Do not double ... Quarreling ...
    It may be placed only in a region held by the active race"."""
    g = empty_game(rs)
    me = put(g, "Ghouls", 0, {1: 1, 2: 1, 13: 1}, power="Quarrelsome")
    lay(g, "diamond_fields", 2)
    lay(g, "misers_scepter", 1)
    assert offered(g, me, "misers_scepter/hoard", "redeploy") == {1, 2, 13}
    use_ability(g, me, "misers_scepter/hoard", (R(g, 2),))
    assert where(g, "misers_scepter") == [2]
    # region 2: (1 + 1 Diamond Fields) x 2; 1: 1; 13: 1 + 1; groups {1, 2} and {13}: +2
    assert scored(g, 0) == 4 + 1 + 2 + 2
    turn.decline(g, me)  # the Ghouls keep every token: the Scepter stays in their region 2
    now = put(g, "Goblins", 0, {14: 1})
    assert where(g, "misers_scepter") == [2] and offered(g, now, f"misers_scepter/hoard@{me.id}", "redeploy") == set()


@pytest.mark.parametrize("holder_declined", [False, True])
def test_altar_of_souls_trades_a_declined_token_for_three_coins(rs, holder_declined):
    """§6.1 "you may remove one token of your declined race from any region. If you do, gain
    3 coins. SCOPE: works even if the race holding the Altar is declined"."""
    g = empty_game(rs)
    active = put(g, "Ghouls", 0, {1: 2})
    old = put(g, "Cultists", 0, {12: 2, 13: 1}, declined=True)
    put(g, "Goblins", 1, {14: 1}, declined=True)  # an opponent's declined race: not offered
    lay(g, "altar_of_souls", 13 if holder_declined else 1)
    acting(g, active, "redeploy")
    key = "altar_of_souls/offering" + (f"@{old.id}" if holder_declined else "")
    assert offered(g, active, key, "redeploy") == {12, 13}
    use_ability(g, active, key, (R(g, 12),))
    assert g.tokens[R(g, 12)] == 1 and g.players[0].coins == 5 + 3 and g.tray["Cultists"] == 10 - 2
    assert offered(g, active, key, "redeploy") == set()  # once per turn


def test_diamond_fields_pay_per_same_terrain_region_of_the_holder_also_in_decline(rs):
    """§6.2 "+1 coin for the Diamond Fields region, plus +1 for every other region the same
    race controls with the same terrain. SCOPE: also in decline"."""
    g = empty_game(rs)
    holder = put(g, "Ghouls", 0, {2: 1, 13: 1, 1: 1}, declined=True)
    lay(g, "diamond_fields", 2)
    assert holder.declined and scored(g, 0) == 2 + 2 + 1  # forests 2 and 13
    g = empty_game(rs)
    put(g, "Ghouls", 0, {2: 1, 1: 1})
    lay(g, "diamond_fields", 2)
    put(g, "Goblins", 1, {13: 1})
    assert scored(g, 1) == 1 and scored(g, 0) == 2 + 1  # another race's forest: nothing


def test_great_brass_pipes_join_the_holders_same_terrain_regions(rs):
    """§6.6 "the holder treats all regions of the same terrain type as this one as
    adjacent"; R56 "For the holder's active race ... for conquest only"."""
    g = empty_game(rs)
    holder = put(g, "Ghouls", 0, {2: 1}, hand=5)
    lay(g, "great_brass_pipes", 2)
    assert can_target(g, holder, R(g, 13)) and not can_target(g, holder, R(g, 12))
    acting(g, holder)
    apply(g, Action("conquer", R(g, 13)))
    assert g.occupant[R(g, 13)] is holder
    g = empty_game(rs)
    put(g, "Humans", 0, {2: 1}, declined=True)
    lay(g, "great_brass_pipes", 2)
    active = put(g, "Ghouls", 0, {14: 1}, hand=5)
    assert not can_target(g, active, R(g, 13))  # held by the player's declined race: no Pipes


def test_the_gnome_shield_hides_regions_not_players_from_abilities(rs):
    """underground.md §2.6: the shield is about Gnome *regions*; an ability choosing a player
    (Diplomat's peace) still offers the Gnomes' player, even when a shielded region has the same
    number as that seat."""
    g = empty_game(rs)
    seat_one_region = g.board.regions[1].id  # region index 1, like seat 1
    gnomes = put(g, "Underground Gnomes", 1, {seat_one_region: 2})
    dip = put(g, "Goblins", 0, {12: 2}, power="Diplomat")
    assert g.occupant[1] is gnomes
    offered = {a.b for a in ability_actions(g, dip, "redeploy") if a.a == "Diplomat/peace"}
    assert offered == {(1,)}
