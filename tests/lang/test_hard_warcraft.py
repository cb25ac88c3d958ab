"""Behaviour tests of the Warcraft items of the hard pack (tests/lang/hard/items), on
positions set up by hand (tests/lang/handmade.py) and run through the engine's own
functions. Rule texts: /work/shared/rules/warcraft.md and rulings.md."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from handmade import R, empty_game, put

from swdsl.engine import events, pieces, turn
from swdsl.engine.legal import Action, ability_actions, apply, legal_actions, use_ability
from swdsl.engine.stats import conquest_cost, is_immune


def conquering(g, inst):
    """`inst` enters its conquest phase; nothing else of the turn is queued."""
    turn.start_conquests(g, inst)
    g.queue.clear()
    return inst


def offered(g, kinds=("conquer", "final", "ability")):
    return {(a.kind, a.a, a.b) for a in legal_actions(g) if a.kind in kinds}


def ids(g, *rids):
    return tuple(R(g, x) for x in rids)


# ---- Gnomes (Warcraft): gnomes_warcraft.sw -------------------------------------------------

def assault(rs, hand, defenders, *rolls):
    """Gnomes on region 1 air-assault region 13 (not adjacent), held by Humans."""
    g = empty_game(rs)
    gn = conquering(g, put(g, "Warcraft Gnomes", 0, {1: 1}, hand=hand))
    hum = put(g, "Humans", 1, {13: defenders})
    faces = list(rolls)
    g.rng = SimpleNamespace(choice=lambda seq: faces.pop(0), faces=faces)  # a die rolling `rolls` in order
    use_ability(g, gn, "Warcraft Gnomes/air_assault", ids(g, 13))
    return g, gn, hum


def test_gnome_air_assault_counts_as_adjacent_and_the_roll_lowers_the_cost(rs):
    """warcraft.md §1.2: "Name the target. It counts as adjacent. ... roll the reinforcement die
    for free and subtract the pips from the cost"; R16: max(1, cost - roll); once per turn."""
    g = empty_game(rs)
    gn = conquering(g, put(g, "Warcraft Gnomes", 0, {1: 1}, hand=3))
    put(g, "Humans", 1, {13: 2})
    targets = {a.b for a in ability_actions(g, gn, "conquest") if a.a == "Warcraft Gnomes/air_assault"}
    assert ids(g, 13) in targets and ids(g, 6) not in targets  # far away is fine; the chasm never
    g, gn, hum = assault(rs, 3, 2, 2)  # cost 4 - roll 2 = 2 tokens
    assert g.occupant[R(g, 13)] is gn and g.tokens[R(g, 13)] == 2 and gn.hand == 1
    assert hum.pending == 1 and g.phase == "conquer"  # an ordinary conquest: the turn goes on
    assert not ability_actions(g, gn, "conquest")  # once per turn
    g, gn, _ = assault(rs, 3, 0, 3)  # empty: cost 2 - 3, but at least 1 token
    assert g.tokens[R(g, 13)] == 1 and gn.hand == 2


def test_gnome_assault_short_of_tokens_becomes_the_final_conquest_with_a_second_roll(rs):
    """R16: "If not, and the shortfall is at most 3, the assault becomes the final conquest, with
    the second roll the text grants." (cost 4 - 0 = 4, hand 1: short by 3)"""
    g, gn, hum = assault(rs, 1, 2, 0, 3)
    assert g.occupant[R(g, 13)] is gn and g.tokens[R(g, 13)] == 1 and gn.hand == 0
    assert g.phase == "redeploy"  # it was the final conquest
    g, gn, hum = assault(rs, 1, 2, 0, 2)  # the second roll falls short too
    assert g.occupant[R(g, 13)] is hum and g.tokens[R(g, 13)] == 2 and gn.hand == 1
    assert g.phase == "redeploy"


def test_gnome_assault_too_far_short_fails_and_ends_conquests(rs):
    """R16: "Otherwise the assault fails and conquests end. The air assault counts as used
    either way." (cost 6 - 1 = 5, hand 1: short by 4, no second roll)"""
    g, gn, hum = assault(rs, 1, 4, 1, 3)
    assert g.rng.faces == [3]  # one roll only
    assert g.occupant[R(g, 13)] is hum and g.tokens[R(g, 13)] == 4 and gn.hand == 1
    assert g.phase == "redeploy"


# ---- Tauren: tauren.sw -------------------------------------------------------------------------

def test_tauren_conquests_cost_at_least_two(rs):
    """warcraft.md §1.13: "Tauren can never occupy or conquer a region with fewer than 2 tokens,
    so the cost floor is 2." (an empty river costs others 1)"""
    g = empty_game(rs)
    hum = put(g, "Humans", 0, {2: 1})
    tau = put(g, "Tauren", 1, {8: 2})
    assert conquest_cost(g, hum, R(g, 3)) == 1 and conquest_cost(g, tau, R(g, 3)) == 2


def test_tauren_make_no_final_conquest_with_a_single_token(rs):
    """warcraft.md §1.13: "Tauren can never occupy or conquer a region with fewer than 2 tokens";
    R22: "Nothing ... lets Tauren take a region with fewer than 2 tokens"."""
    g = empty_game(rs)
    conquering(g, put(g, "Tauren", 0, {2: 3}, hand=1))
    assert not offered(g, ("final",))


def test_tauren_ready_and_gather_troops_but_keep_two_per_region(rs):
    """warcraft.md §1.13: "No Tauren token may ever be left alone, not even when readying troops."
    (region.minimum 2, when readying troops and when gathering during redeployment)"""
    g = empty_game(rs)
    tau = put(g, "Tauren", 0, {2: 4, 5: 2, 14: 3})
    turn.ready_troops(g, tau)
    assert [g.tokens[r] for r in ids(g, 2, 5, 14)] == [2, 2, 2] and tau.hand == 3
    g = empty_game(rs)
    tau = put(g, "Tauren", 0, {2: 3, 5: 2})
    g.phase, g.acting = "redeploy", tau
    assert offered(g, ("gather",)) == {("gather", R(g, 2), None)}
    apply(g, Action("gather", R(g, 2)))
    assert g.tokens[R(g, 2)] == 2 and tau.hand == 1


def test_a_lone_tauren_token_joins_another_region_at_the_end_of_redeployment(rs):
    """warcraft.md §1.13: "A token that would end up alone must be moved to another Tauren region.\""""
    g = empty_game(rs)
    tau = put(g, "Tauren", 0, {2: 3, 5: 1, 14: 2})
    g.phase, g.acting = "redeploy", tau
    g.queue.clear()
    turn.end_redeploy(g)
    assert g.occupant[R(g, 5)] is None and tau.regions == set(ids(g, 2, 14))
    assert g.tokens[R(g, 2)] == 4 and g.tokens[R(g, 14)] == 2 and tau.hand == 0


def test_declining_tauren_keep_two_tokens_per_region_and_lose_both(rs):
    """warcraft.md §1.13: "On decline they leave 2 tokens per region instead of 1. When such a
    region is conquered, both declined tokens are discarded\""""
    g = empty_game(rs)
    tau = put(g, "Tauren", 0, {2: 4, 5: 2, 14: 3}, hand=2)
    tray = g.tray["Tauren"]
    turn.decline(g, tau)
    assert [g.tokens[r] for r in ids(g, 2, 5, 14)] == [2, 2, 2] and g.tray["Tauren"] == tray + 5
    hum = put(g, "Humans", 1, {1: 1}, hand=8)
    turn.conquer(g, hum, R(g, 2), 4)
    assert g.tray["Tauren"] == tray + 7 and tau.pending == 0


# ---- Defensive: defensive.sw -------------------------------------------------------------------

def test_watchtower_on_a_farmland_with_a_strict_majority_is_immune(rs):
    """warcraft.md §2.8: "a Farmland region held by this race where it occupies more of the adjacent
    regions than any other race ... A Watchtower region is immune to every ability and every
    conquest attempt"; R26: "a tie gives no tower"."""
    g = empty_game(rs)
    d = put(g, "Humans", 0, {12: 2, 14: 1, 7: 1, 1: 1, 2: 1}, power="Defensive")
    gob = put(g, "Goblins", 1, {13: 2, 4: 1}, hand=8, power="Intimidating")
    events.fire(g, "turn.end", d)  # 12: 2 neighbours to 1; 1: 1 to 1, a tie
    assert [n for n, _ in g.markers[R(g, 12)]] == ["watchtower"] and not g.markers[R(g, 1)]
    assert g.pools["watchtower"] == 5
    assert is_immune(g, R(g, 12), gob) and not is_immune(g, R(g, 1), gob)
    conquering(g, gob)
    touched = {a for _, a, b in offered(g)} | {b[0] for _, a, b in offered(g) if b}
    assert R(g, 1) in touched and R(g, 12) not in touched  # no conquest, no Intimidating


def test_watchtowers_go_when_the_majority_is_lost_and_on_decline(rs):
    """warcraft.md §2.8: "remove Watchtowers from this race's Farmlands that no longer qualify";
    R26: "All towers are removed when the race declines"."""
    g = empty_game(rs)
    d = put(g, "Humans", 0, {12: 2, 14: 1, 7: 1}, power="Defensive", hand=4)
    gob = put(g, "Goblins", 1, {13: 2}, hand=8)
    events.fire(g, "turn.end", d)
    assert g.markers[R(g, 12)]
    turn.conquer(g, gob, R(g, 7), 3)  # now 1 neighbour each
    events.fire(g, "turn.end", d)
    assert not g.markers[R(g, 12)] and g.pools["watchtower"] == 6
    turn.conquer(g, d, R(g, 13), 4)  # 2 neighbours to 1 again: the tower again
    events.fire(g, "turn.end", d)
    assert g.markers[R(g, 12)]
    turn.decline(g, d)
    assert not g.markers[R(g, 12)] and g.pools["watchtower"] == 6 and not is_immune(g, R(g, 12), gob)


# ---- Enraged: enraged.sw -----------------------------------------------------------------------

def test_enraged_gain_the_defending_tokens_from_two_up(rs):
    """warcraft.md §2.13: "CONDITION: at least 2 defending race tokens were in the region. EFFECT:
    gain coins equal to the number of defending race tokens"; R28: declined tokens count, Mountains
    do not."""
    g = empty_game(rs)
    me = put(g, "Humans", 0, {2: 1}, power="Enraged", hand=9)
    put(g, "Goblins", 1, {1: 1, 5: 3})
    put(g, "Tauren", 1, {3: 2}, declined=True)
    g.markers[R(g, 5)].append(("mountain", None))
    gained = []
    for x in (1, 5, 3, 4):  # 1 token, 3 tokens and a Mountain, 2 declined tokens, empty
        coins = g.players[0].coins
        turn.conquer(g, me, R(g, x), 1)
        gained.append(g.players[0].coins - coins)
    assert gained == [0, 3, 2, 0]


# ---- Beastmasters: beastmasters.sw -------------------------------------------------------------

def beastmasters(g, regions, hand=0):
    b = put(g, "Humans", 0, regions, power="Beastmasters", hand=hand)
    return b, g.tray["Humans"]


def test_beasts_one_per_hill_conquer_as_tokens_and_are_replaced_next_turn(rs):
    """warcraft.md §2.14: "Start of turn: discard all of this race's Beasts; take one Beast per Hill
    region the race occupies at that moment. Beasts act as race tokens: they conquer and are
    redeployed.\""""
    g = empty_game(rs)
    b, tray = beastmasters(g, {4: 1, 14: 3, 2: 1})  # two Hills
    events.fire(g, "turn.start", b)
    assert b.hand == 2 and b.troops == {"beast": 2} and g.pools["beast"] == 3
    turn.conquer(g, b, R(g, 5), 2)  # the two Beasts take region 5
    assert g.occupant[R(g, 5)] is b and b.hand == 0
    g.current = 0
    turn.begin_turn(g)  # ready troops (14: 2, 5: 1 into hand), dismiss 2 Beasts, take 2 new
    assert b.troops == {"beast": 2} and g.pools["beast"] == 3 and b.hand == 1 + 2
    assert g.tray["Humans"] == tray  # Beasts never came from the race's tray


def test_a_beast_is_the_loss_when_a_beastmaster_region_falls(rs):
    """warcraft.md §2.14: "When a region holding at least one Beast is conquered, one Beast is the
    discarded loss and every other piece is redeployed normally.\""""
    g = empty_game(rs)
    b, tray = beastmasters(g, {4: 1, 14: 1}, hand=1)
    events.fire(g, "turn.start", b)
    turn.conquer(g, b, R(g, 5), 3)  # two Beasts and a race token
    gob = put(g, "Goblins", 1, {}, hand=8)
    turn.conquer(g, gob, R(g, 5), 5)
    assert b.troops == {"beast": 1} and g.pools["beast"] == 4 and b.pending == 2
    assert g.tray["Humans"] == tray  # no race token discarded


def test_beasts_leave_first_when_the_beastmasters_decline(rs):
    """R29: "On decline all Beasts leave first, and a region left with only Beasts becomes empty.\""""
    g = empty_game(rs)
    b, _ = beastmasters(g, {4: 1, 14: 1})
    events.fire(g, "turn.start", b)
    turn.conquer(g, b, R(g, 5), 2)  # region 5 holds only the two Beasts
    turn.decline(g, b)
    assert not b.troops.get("beast") and g.pools["beast"] == 5
    assert sum(g.tokens[r] for r in b.regions) == 2  # the 2 race tokens of the 4 pieces stay


# ---- Aegis of Aggramar: aegis.sw ---------------------------------------------------------------

def aegis_position(rs):
    g = empty_game(rs)
    hum = put(g, "Humans", 0, {2: 2, 3: 1})
    g.markers[R(g, 2)].append(("aegis_of_aggramar", None))
    gob = conquering(g, put(g, "Goblins", 1, {5: 2}, hand=8, power="Intimidating"))
    return g, hum, gob


def test_the_aegis_closes_its_region_until_the_opponent_pays_two_for_the_turn(rs):
    """warcraft.md §4.3: "That region is immune to every ability and conquest attempt by an
    opponent, unless that opponent pays 2 coins to the owner"; R35: "One payment of 2 opens the
    region to that opponent for the rest of the current turn, for conquests and for powers"."""
    g, _, gob = aegis_position(rs)
    aegis, toll = R(g, 2), ("ability", "Aegis toll/open_aegis", ids(g, 2))
    assert is_immune(g, aegis, gob)
    assert ("conquer", aegis, None) not in offered(g) and toll in offered(g)
    g.players[1].coins = 1
    assert toll not in offered(g)  # cannot pay
    g.players[1].coins = 5
    apply(g, Action(*toll))
    assert g.players[1].coins == 3 and g.players[0].coins == 7
    assert not is_immune(g, aegis, gob) and toll not in offered(g)
    assert ("conquer", aegis, None) in offered(g)
    assert ("ability", "Intimidating/frighten", ids(g, 2, 3)) in offered(g)
    events.fire(g, "turn.end", gob)  # the turn is over: closed again
    assert is_immune(g, aegis, gob) and g.players[1].markers == [] and g.pools["aegis_toll"] == 6


def test_the_aegis_protects_its_own_region_only(rs):
    """warcraft.md §4.3: "the owner places the Aegis in a region they control. That region is
    immune ..." (not the owner's other regions)."""
    g, _, gob = aegis_position(rs)
    assert not is_immune(g, R(g, 3), gob)


def test_the_aegis_owner_moves_it_to_a_region_they_hold(rs):
    """warcraft.md §4.3: "The owner places the Aegis in a region they control.\""""
    g, hum, _ = aegis_position(rs)
    moves = {a.b for a in ability_actions(g, hum, "redeploy") if a.a == "aegis_of_aggramar/guard"}
    assert moves == {ids(g, 2), ids(g, 3)}
    use_ability(g, hum, "aegis_of_aggramar/guard", ids(g, 3))
    assert not g.markers[R(g, 2)] and g.markers[R(g, 3)] == [("aegis_of_aggramar", None)]
    assert all(a.a != "aegis_of_aggramar/guard" for a in ability_actions(g, hum, "redeploy"))  # once a turn


# ---- Battleground: battleground.sw (with faction_bonus.sw) ------------------------------------

def faction_coins(g, inst, *targets):
    """Coins `inst` earns at the end of the turn after taking `targets` (2 tokens each)."""
    for x in targets:
        turn.conquer(g, inst, R(g, x), 2)
    coins = g.players[inst.player].coins
    events.fire(g, "turn.end", inst)
    return g.players[inst.player].coins - coins


def battleground(rs, race):
    g = empty_game(rs)
    me = conquering(g, put(g, race, 0, {2: 2}, hand=8))
    sides = {("ability", f"battleground/fight_as_{s}", ()) for s in ("alliance", "horde")}
    assert not offered(g) & sides  # not without the Battleground
    g.markers[R(g, 2)].append(("battleground", None))
    return g, me, sides


def test_a_neutral_race_on_the_battleground_fights_for_a_side_for_the_turn(rs):
    """warcraft.md §5.1: "A Neutral race holding it may fight as Alliance or as Horde for that turn.
    It then gets the faction bonus and the Battleground doubling. At the end of the turn it is
    Neutral again. It may choose afresh next turn"; "up to twice per defeated race"."""
    g, pan, sides = battleground(rs, "Pandaren")
    put(g, "Goblins", 1, {1: 1, 5: 1, 3: 1})  # horde
    assert offered(g) & sides == sides
    apply(g, Action("ability", "battleground/fight_as_alliance", ()))
    assert not offered(g) & sides  # one side, once
    assert faction_coins(g, pan, 1, 5, 3) == 2  # Goblins thrice: 1 + 1, not 3
    g.current = 0
    turn.begin_turn(g)
    assert pan.turn_tags == set() and offered(g) & sides == sides


def test_the_battleground_pays_a_second_coin_for_a_race_defeated_twice(rs):
    """warcraft.md §5.1: "The race occupying it earns the faction bonus up to twice per defeated
    race. Example: 2 or more regions taken from the same opposing-faction race in one turn give
    +2."; core-rules §9 (faction_bonus.sw): a race taken from once gives 1."""
    g, hum, sides = battleground(rs, "Humans")
    assert not offered(g) & sides  # the Humans are Alliance already
    put(g, "Goblins", 1, {1: 1, 5: 1})
    put(g, "Tauren", 1, {8: 2, 14: 2}, declined=True)
    assert faction_coins(g, hum, 1, 5, 8) == 2 + 1


def test_a_declined_race_wiped_out_still_pays_the_faction_bonus_and_the_battleground(rs):
    """core-rules §9 (faction_bonus.sw): "+1 coin for each race of the opposing faction ... from
    which you conquered at least one region this turn"; warcraft.md §5.1: "up to twice"."""
    g, hum, _ = battleground(rs, "Humans")
    put(g, "Tauren", 1, {8: 2, 14: 2}, declined=True)
    assert faction_coins(g, hum, 8, 14) == 2


# ---- Karazhan: karazhan.sw ---------------------------------------------------------------------

def test_karazhan_scores_one_more_per_other_region_of_its_terrain(rs):
    """warcraft.md §5.3: "+1 coin per other region the race controls with the same terrain type as
    Karazhan's region"; R38: "The match uses the base terrain only" (symbols do not count)."""
    def score(mine, declined):
        g = empty_game(rs)
        put(g, "Humans", 0, mine)
        put(g, "Goblins", 0, declined, declined=True)
        g.markers[R(g, 2)].append(("karazhan", None))
        coins = g.players[0].coins
        turn.score(g, 0)
        return g.players[0].coins - coins
    # Karazhan on forest 2; 13 is a forest (with a magic symbol), 8 a mushroom forest
    assert score({2: 1, 13: 1, 8: 1, 1: 1}, {14: 1}) == 5 + 1
    assert score({2: 1, 8: 1, 1: 1}, {13: 1}) == 4  # the player's other race is not "the race"


# ---- Well of Eternity: well_of_eternity.sw -----------------------------------------------------

def revealed_well(rs):
    g = empty_game(rs)
    finder = put(g, "Humans", 0, {4: 1, 13: 1})
    g.hidden["relics"] = ["well_of_eternity"]
    pieces.draw_marker(g, "relics", R(g, 4), finder)
    return g, finder


def test_the_well_moves_to_the_lake_when_revealed(rs):
    """warcraft.md §5.6: "On reveal: move the marker to the Lake/Sea region of the same island.\""""
    g, _ = revealed_well(rs)
    assert [n for n, _ in g.markers[R(g, 15)]] == ["well_of_eternity"]
    assert not any(g.markers[:R(g, 15)])  # nowhere else: not left in the lair
    coins = g.players[0].coins
    turn.score(g, 0)  # 2 regions, and 13 is the Well's only neighbour: +2
    assert g.players[0].coins == coins + 2 + 2


def test_the_well_stays_when_the_race_that_found_it_declines(rs):
    """warcraft.md §3: "Legendary Places never move. The one exception: the Well of Eternity is
    moved to a Lake/Sea region when revealed.\""""
    g, finder = revealed_well(rs)
    turn.decline(g, finder)
    assert [n for n, _ in g.markers[R(g, 15)]] == ["well_of_eternity"]


@pytest.mark.parametrize("position, gains", [
    ({("Humans", 0, False): {7: 1, 12: 1}, ("Goblins", 1, False): {11: 1}}, [2, 0]),
    ({("Humans", 0, False): {7: 1}, ("Goblins", 1, False): {11: 1}}, [0, 0]),  # a tie
    ({("Humans", 0, True): {7: 1, 12: 1}, ("Goblins", 1, False): {11: 1}}, [2, 0]),  # declined
    ({("Humans", 0, False): {7: 1}, ("Cultists", 0, True): {12: 1}, ("Goblins", 1, False): {11: 2}}, [0, 0]),
    ({("Humans", 0, False): {7: 1}, ("Goblins", 1, False): {11: 1, 12: 1, 15: 1}}, [0, 2]),
])
def test_the_well_pays_two_to_the_race_with_a_strict_majority_of_its_neighbours(rs, position, gains):
    """warcraft.md §5.6: "End of turn: the race, active or declined, that controls more regions
    adjacent to the Well than any other race gains +2 coins. A tie gives nothing." (majority per
    race: the player's two races do not add up; the Well put on 13 by hand, neighbours 7 11 12 15)"""
    g = empty_game(rs)
    g.markers[R(g, 13)].append(("well_of_eternity", None))
    races = [put(g, name, seat, regions, declined=declined) for (name, seat, declined), regions in position.items()]
    coins = [p.coins for p in g.players]
    for inst in races:
        events.fire(g, "turn.end", inst)
    assert [p.coins - c for p, c in zip(g.players, coins)] == gains
