"""The engine's vocabulary: the contract between the engine and the rules language.

Each construct is an entry declared once, next to its implementation: events
(events.py), stats (stats.py), effects (effects.py), and attributes, states,
log states, named values, functions, expression forms and region sets (queries.py); entries.py
gives their shape. This module gathers them, with the words the grammar fixes
(modifier operations, scopes, phases, limits, declaration properties). The
checker resolves names against it, the compiler binds to it and
docs/language.md is generated from it. Nothing here names content.
"""

from __future__ import annotations

from swdsl.engine.effects import EFFECTS
from swdsl.engine.events import EVENTS
from swdsl.engine.queries import ATTRIBUTES, FORMS, FUNCTIONS, LOG_STATES, SETS, STATES, VALUES
from swdsl.engine.stats import STATS

__all__ = ["EFFECTS", "EVENTS", "STATS", "ATTRIBUTES", "FORMS", "FUNCTIONS", "LOG_STATES", "SETS", "STATES",
           "VALUES", "AUDIENCES", "MODIFIER_OPS", "POOLS", "PHASES", "LIMIT_PERIODS", "LIMIT_KEYS", "SCOPES",
           "VAR_RESETS", "SHARED_VARS", "DECL_PROPS", "PLAYER_MARKERS"]

AUDIENCES = {
    "ours": "`on EVENT by ours`: the trigger also runs when the event happens to another race of the same "
            "player (`me` stays the race whose rule it is)",
    "anyone": "`on EVENT by anyone`: the trigger also runs when the event happens to any other race on the "
              "table, whoever's (`me` stays the race whose rule it is; the event's bindings say where and who)",
}

MODIFIER_OPS = {
    "by": "adds to the value",
    "set": "replaces the value",
    "times": "multiplies the value; every `times` applies after all `by` and `set` modifiers",
    "at least": "a floor on the final value: applies after every other modifier of every layer (`by`, `set`, "
                "`times`), whoever wrote them — unlike a modifier's own `floor`, which bounds only the value "
                "right after that modifier",
    "at most": "a cap on the final value, after every other modifier of every layer",
}

POOLS = {
    "power": "`draw power into REGION`: the top power of the market's stack is bound to REGION for the rest "
             "of the game; the race holding REGION has its rules (its badge brings no tokens)",
}

PHASES = {
    "start": "the start of the player's turn: after the active race readied its troops, before the `turn.start` "
             "triggers run (`end` goes on); offered only when such an ability can be used",
    "conquest": "the conquest step of the race's turn (abilities offered beside conquests)",
    "redeploy": "the redeployment step, after conquests",
    "scoring": "the end of the turn, after the redeployment or the decline, before the turn is scored (`end` "
               "goes on); offered only when such an ability can be used — to the active race, or to the race "
               "that just declined",
}

LIMIT_PERIODS = {"turn": "reset at the start of each of the owner's turns", "game": "never reset"}
LIMIT_KEYS = {"owner": "counted separately for each owner of the region chosen"}

SCOPES = {
    "active": "while the race is active (the default)",
    "declined": "while the race is in decline",
    "always": "active or declined",
}

VAR_RESETS = {"turn": "the variable returns to its initial value at the start of the owner's turn (a `game var`: "
                     "of every turn; a `player var`: of its player's turn)"}

SHARED_VARS = {
    "game": "`game var NAME = N`: one value for the whole game, read and written by every rule of every pack",
    "player": "`player var NAME = N`: one value per player, read and written by every rule of every pack; "
              "`NAME` is the value of the rule's own player, `NAME of PLAYER` another's",
}

PLAYER_MARKERS = "the player holds that marker in front of them (`give`)"

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
        "survives": ("names", "`survives decline`: the badge stays with the declined banner until that race "
                              "leaves the table (its pieces work on in decline: R59), as it does for a power with "
                              "rules `while declined` or `always`"),
    },
    "marker": {
        "defense": ("int", "added to the conquest cost of its region"),
        "immune": ("flag", "its region is closed to other players' races"),
        "limit": ("int", "pieces in the box; none can be placed once all are out"),
        "bound": ("flag", "it leaves when its region stops holding the race that placed it"),
        "survives": ("names", "`survives decline`: it stays when its race goes into decline"),
        "returns": ("flag", "when its region is conquered it goes back to its owner, who re-places it"),
        "fixed": ("flag", "it never leaves its region (`swap`, `move`)"),
        "counts": ("names", "`counts as token`: it counts as one race token of the race holding its region "
                            "(its owner's, or anyone's if it is nobody's): in the conquest cost, `defenders` "
                            "and `tokens of`; it never holds a region by itself"),
        "tags": ("names", "free labels"),
    },
}
DECL_PROPS["relic"] = dict(DECL_PROPS["marker"])
DECL_PROPS["place"] = dict(DECL_PROPS["marker"])
DECL_PROPS["figure"] = dict(DECL_PROPS["marker"])
DECL_PROPS["rule"] = {"tags": ("names", "free labels")}
