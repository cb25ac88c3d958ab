"""The engine's vocabulary: every event, stat, attribute, state, effect and phase.

This module is the contract between the engine and the rules language. Each
entry is declared once, with a one-line doc. The checker resolves names against
it, the compiler binds to it and docs/language.md is generated from it. Nothing
here names content: terrains, symbols, markers, races and powers come from packs.

Types used in bindings and attributes: int, bool, region, regions, race, races,
player, players, terrain, power, powers.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Event:
    name: str
    doc: str
    bindings: dict[str, str] = attrs.field(factory=dict)
    audience: str = "acting race"


@attrs.frozen
class Stat:
    name: str
    doc: str
    type: str  # int | bool
    base: str  # what the engine computes before modifiers (documentation)
    subject: str  # whose modifiers fold in: attacker, defender, race
    bindings: dict[str, str] = attrs.field(factory=dict)
    floor: int | None = None


@attrs.frozen
class Attribute:
    name: str
    subject: str  # the type it applies to
    type: str
    doc: str


@attrs.frozen
class Effect:
    syntax: str
    doc: str


EVENTS = {e.name: e for e in [
    Event("turn.start", "a player's turn begins, after their active race readied its troops",
          audience="the player's races"),
    Event("combo.picked", "the acting race was just taken from the market, its tokens in hand"),
    Event("conquest.done", "the acting race took `target` (from `defender`, if anyone held it, who had "
          "`defenders` tokens there)", {"target": "region", "defender": "race", "defenders": "int"}),
    Event("region.lost", "this race lost `target` to `attacker`; fires for the defender",
          {"target": "region", "attacker": "race"}, audience="the defending race"),
    Event("marker.drawn", "a hidden marker was just drawn into `target` (`draw`); the rules of the markers "
          "there work at once", {"target": "region"}),
    Event("conquests.end", "the acting race's conquests are over (by choice or after the final roll)"),
    Event("redeploy.start", "the acting race begins redeploying; tokens from conquests are in place"),
    Event("redeploy.end", "the acting race finished redeploying"),
    Event("decline", "this race is going into decline (fires before it flips)", audience="the declining race"),
    Event("turn.end", "scoring: after the base 1 coin per region, bonuses are paid here",
          audience="the player's races"),
]}

_REGION_BY_ATTACKER = {"target": "region"}

STATS = {s.name: s for s in [
    Stat("tokens.granted", "tokens a race receives when its combo is picked", "int",
         "banner number + badge number (capped by the tokens left in the tray)", "race"),
    Stat("conquest.cost", "tokens needed to conquer `target`", "int",
         "2 + tokens in the region + region.defense + travel.cost", "attacker", _REGION_BY_ATTACKER, floor=1),
    Stat("region.defense", "extra defence of `target` against `attacker`", "int",
         "sum of the `defense` of the markers in the region", "defender",
         {"target": "region", "attacker": "race"}),
    Stat("travel.cost", "extra cost of reaching `target` (added to conquest.cost)", "int", "0",
         "attacker", _REGION_BY_ATTACKER),
    Stat("conquest.reachable", "whether `target` may be attacked from where the race stands", "bool",
         "`target` borders a region of the race", "attacker", _REGION_BY_ATTACKER),
    Stat("conquest.entry", "whether `target` may be the race's first conquest (it holds no region yet)", "bool",
         "false: packs say where races enter", "attacker", _REGION_BY_ATTACKER),
    Stat("region.conquerable", "whether `target` may be conquered at all by this race", "bool",
         "true", "attacker", _REGION_BY_ATTACKER),
    Stat("region.immune", "whether `target` is closed to `attacker` (conquest and its abilities)", "bool",
         "true if an `immune` marker of another player lies there", "defender",
         {"target": "region", "attacker": "race"}),
    Stat("conquest.final", "whether the race may make a final conquest with the die", "bool", "true",
         "attacker"),
    Stat("loss.discard", "tokens the defender discards when it loses `target` (the rest withdraw)", "int",
         "1 (a declined race loses every token)", "defender", {"target": "region", "attacker": "race"}),
    Stat("decline.keep", "tokens the race keeps in `target` when it goes into decline", "int", "1",
         "race", {"target": "region"}),
    Stat("decline.acts", "whether this declined race plays a turn of its own before the active race",
         "bool", "false", "race"),
    Stat("decline.slot", "whether this declined race takes the player's one declined-race slot", "bool",
         "true", "race"),
    Stat("decline.after_scoring", "whether the race may go into decline right after scoring a turn",
         "bool", "false", "race"),
    Stat("score.region", "coins `target` scores for its race at the end of the owner's turn", "int", "1",
         "race", {"target": "region"}),
    Stat("region.shielded", "whether `target` is shielded from `attacker`: the attacker's own favourable "
         "modifiers (cheaper, reachable, enterable, conquerable) are ignored there and its abilities cannot "
         "choose it", "bool", "false", "defender", {"target": "region", "attacker": "race"}),
    Stat("region.minimum", "the fewest tokens the race may keep in `target` when readying troops and "
         "redeploying; a region left with fewer sends them to the race's most crowded region", "int", "1",
         "race", {"target": "region"}),
    Stat("redeploy.vacate", "whether the race must empty `target` when it redeploys", "bool", "false",
         "race", {"target": "region"}),
]}

ATTRIBUTES = {(a.name, a.subject): a for a in [
    Attribute("terrain", "region", "terrain", "the region's terrain"),
    Attribute("tokens", "region", "int", "race tokens in the region (any race)"),
    Attribute("owner", "region", "player", "the player whose race holds the region (none if neutral or empty)"),
    Attribute("occupant", "region", "race", "the race holding the region"),
    Attribute("neighbours", "region", "regions", "the regions bordering it"),
    Attribute("area", "region", "int", "the number of the map area (island, board part) it lies in"),
    Attribute("hand", "race", "int", "the race's tokens in hand"),
    Attribute("regions", "race", "regions", "the regions the race holds"),
    Attribute("owner", "race", "player", "the player the race belongs to"),
    Attribute("turns", "race", "int", "turns the race has played as the active race, this one included"),
    Attribute("tray", "race", "int", "the race's tokens left in the tray"),
    Attribute("coins", "player", "int", "the player's coins"),
    Attribute("race", "player", "race", "the player's active race"),
    Attribute("regions", "player", "regions", "regions held by any of the player's races"),
    Attribute("group", "region", "regions",
              "the region and every region joined to it by borders through regions of the same race"),
    Attribute("power", "race", "power", "the race's special power (none once it is discarded)"),
    Attribute("cost", "region", "int", "what conquering the region would cost this race now (conquest.cost)"),
    Attribute("defeats", "race", "int", "how many regions this race took from that race this turn"),
]}

REGION_STATES = {
    "edge": "touches the map edge",
    "empty": "holds no race token",
    "occupied": "holds at least one race token",
    "mine": "held by this race",
    "ours": "held by any race of this race's player",
    "enemy": "held by another player's race",
    "neutral": "held by a race that belongs to nobody",
    "declined": "held by a declined race",
    "active": "held by an active race",
    "immune": "closed to this race (region.immune)",
    "attackable": "a legal conquest target for this race right now, whatever its cost",
    "conquerable": "a region this race could conquer wherever it lies (region.conquerable, not immune, "
                   "not its own)",
}

RACE_STATES = {
    "active": "the race is its player's active race",
    "declined": "the race is in decline",
    "neutral": "the race belongs to nobody",
    "mine": "the race is this race",
    "ours": "the race belongs to this race's player",
    "enemy": "the race belongs to another player",
}

PLAYER_STATES = {
    "attacked": "this race conquered a region of that player's active race this turn",
    "me": "the player this race belongs to",
}

RACE_LOG_STATES = {
    "defeated": "this race took a region from that race this turn (a conquest or a `rout`)",
}

PLAYER_MARKERS = "the player holds that marker in front of them (`give`)"

LOG_STATES = {
    "occupied": "held race tokens just before this race conquered it this turn",
    "empty": "held no race token just before this race conquered it this turn",
}

REGION_SETS = {
    "all": "`regions`: every region of the map",
    "my": "`my regions`: the regions this race holds",
    "conquered": "`conquered regions`: regions this race conquered this turn",
    "lost": "`lost regions`: regions this race lost since its last turn",
}

NAMED_VALUES = {
    "me": ("race", "the race this rule belongs to"),
    "owner": ("player", "the player this race belongs to"),
    "opponents": ("players", "every other player"),
    "players": ("players", "every player"),
    "true": ("bool", "yes"),
    "false": ("bool", "no"),
    "none": ("player", "nobody (a player variable's empty value)"),
    "die": ("int", "the last die roll of this turn (0 if none)"),
    "round": ("int", "the current round, from 1"),
    "races": ("races", "every race on the table, ownerless ones included, and those that left it this turn"),
    "offered": ("powers", "the powers of the combos on offer in the market"),
    "here": ("region", "in a relic or place: the region it lies in (the one this race holds, if several)"),
}

FUNCTIONS = {
    "min": ("int", "`min(a, b, …)`: the smallest number"),
    "max": ("int", "`max(a, b, …)`: the largest number"),
    "groups": ("int", "`groups(REGIONS)`: how many separate groups the regions form (joined by borders)"),
    "reach": ("regions", "`reach(FROM, THROUGH)`: the regions FROM and every region of THROUGH joined to "
              "them by a chain of borders through THROUGH"),
}

AUDIENCES = {
    "ours": "`on EVENT by ours`: the trigger also runs when the event happens to another race of the same "
            "player (`me` stays the race whose rule it is)",
}

MODIFIER_OPS = {
    "by": "adds to the value",
    "set": "replaces the value",
    "times": "multiplies the value; every `times` applies after all `by` and `set` modifiers",
}

EFFECTS = {e.syntax.split()[0]: e for e in [
    Effect("gain N coins [for each SELECTION]", "the player takes N coins from the bank (N per element)"),
    Effect("pay N coins [to PLAYER]", "the player pays N coins (as many as they have) to the bank or a player"),
    Effect("take N coins from PLAYERS", "the player takes up to N coins from each player selected"),
    Effect("add N tokens [to REGION]", "N tokens from the tray into hand, or into REGION if the race holds it "
           "or it is empty (then the race holds it, without a conquest), as many as are left"),
    Effect("discard N tokens [from REGION]", "N of the race's tokens from hand back to the tray; with REGION, "
           "N tokens of whichever race holds it back to that race's tray (an emptied region is left)"),
    Effect("set aside N tokens", "N tokens leave the map (most crowded regions first) until troops are readied"),
    Effect("place MARKER in SELECTION", "put one MARKER from its pool in each region selected"),
    Effect("remove MARKER from SELECTION", "return the MARKERs in the selected regions (or held by the "
           "selected players) to their pool"),
    Effect("move MARKER to REGION | move N tokens from REGION to REGION",
           "move this race's MARKER (else one lying in a region it holds, such as a relic, else a new one "
           "from the pool) to REGION; tokens: up to N tokens of the race holding the first region go into "
           "the second, which it must hold too (an emptied region is left)"),
    Effect("draw POOL into REGION", "draw a random hidden marker of a setup pool and place it face up "
           "(fires `marker.drawn`); `draw power into REGION` binds a power instead (see POOLS)"),
    Effect("set VAR to N", "set a variable"),
    Effect("increase VAR by N", "add to a variable"),
    Effect("decrease VAR by N", "subtract from a variable"),
    Effect("roll die into VAR", "roll the reinforcement die and keep the result in VAR"),
    Effect("conquer REGION [using N tokens] [from tray] [destroying defenders]",
           "conquer REGION at once, with N tokens (default: its cost) from hand or tray"),
    Effect("vacate SELECTION", "take the race's tokens back into hand from the selected regions"),
    Effect("if CONDITION: EFFECTS [else: EFFECTS]", "run effects only when a condition holds"),
    Effect("rout SELECTION", "drive the races out of the selected regions as a conquest by this race would "
           "(losses, withdrawal, `region.lost`) without entering them: they are left empty"),
    Effect("swap A with B", "regions: exchange their race tokens and markers (places and `fixed` markers "
           "stay); powers: exchange the race's power A for the offered power B (tokens follow the badges)"),
    Effect("give MARKER to PLAYERS", "put one MARKER from its pool in front of each player selected "
           "(`remove MARKER from PLAYERS` takes them back)"),
    Effect("award N coins to PLAYERS", "the bank pays N coins to each player selected"),
    Effect("withdraw SELECTION", "take all but the minimum of the race's tokens from the selected regions; "
           "they are placed again among its regions at the end of the turn, like tokens withdrawn after a loss"),
    Effect("end conquests", "the acting race's conquests end now (it goes on to redeploy)"),
    Effect("recruit N MARKER", "up to N MARKER pieces from their pool join the race's hand and serve as its "
           "tokens; a race discards these first, and they go back to their pool"),
    Effect("dismiss MARKER", "every MARKER serving as the race's tokens goes back to its pool (from hand "
           "first, then from its most crowded regions)"),
    Effect("copy KIND from REGION to MARKER", "the race's MARKERs take on the rules of the KIND (a marker "
           "kind such as `relic`, or a tag) lying in REGION, until copied again"),
    Effect("tag RACE with NAME", "RACE carries the tag NAME until the end of the current turn"),
    Effect("as RACE: EFFECTS", "run effects as RACE (its tokens, hand and regions) instead of this race"),
    Effect("return MARKER to POOL from SELECTION", "put the MARKERs of the selected regions back on top of "
           "the hidden pool POOL, unrevealed"),
]}

POOLS = {
    "power": "`draw power into REGION`: the top power of the market's stack is bound to REGION for the rest "
             "of the game; the race holding REGION has its rules (its badge brings no tokens)",
}

PHASES = {
    "conquest": "the conquest step of the race's turn (abilities offered beside conquests)",
    "redeploy": "the redeployment step, after conquests",
}

LIMIT_PERIODS = {"turn": "reset at the start of each of the owner's turns", "game": "never reset"}
LIMIT_KEYS = {"owner": "counted separately for each owner of the region chosen"}

SCOPES = {
    "active": "while the race is active (the default)",
    "declined": "while the race is in decline",
    "always": "active or declined",
}

VAR_RESETS = {"turn": "the variable returns to its initial value at the start of the owner's turn"}

DECL_PROPS = {
    "race": {
        "banner": ("int", "the banner number: tokens the race brings to a combo"),
        "supply": ("int", "tokens of this race in the box"),
        "tags": ("names", "free labels (a side, a family) that rules can test with `has`"),
        "neutral": ("flag", "a race that belongs to nobody (placed by setup, never in the market)"),
    },
    "power": {
        "badge": ("int", "the badge number: tokens the power adds to a combo"),
        "tags": ("names", "free labels that rules can test"),
    },
    "marker": {
        "defense": ("int", "added to the conquest cost of its region"),
        "immune": ("flag", "its region is closed to other players' races"),
        "limit": ("int", "pieces in the box; none can be placed once all are out"),
        "bound": ("flag", "it leaves when its region stops holding the race that placed it"),
        "survives": ("names", "`survives decline`: it stays when its race goes into decline"),
        "returns": ("flag", "when its region is conquered it goes back to its owner, who re-places it"),
        "fixed": ("flag", "it never leaves its region when contents are swapped (`swap`)"),
        "tags": ("names", "free labels"),
    },
}
DECL_PROPS["relic"] = dict(DECL_PROPS["marker"])
DECL_PROPS["place"] = dict(DECL_PROPS["marker"])
DECL_PROPS["rule"] = {"tags": ("names", "free labels")}
