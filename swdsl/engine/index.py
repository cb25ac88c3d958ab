"""The ruleset's hooks indexed for the engine: which events some trigger hears, which stats some rule
modifies, the edition rules' own hooks, what held content has; and the memos games fill as they run
(fold plans, per-board table keys, values per kind of region).

Why a class of its own, not fields of the Ruleset: the engine asks these at every event, fold and
decision, and a Ruleset is an attrs class, whose fields compiled code reads by Python's generic
attribute lookup (a sixth of a random game's instructions went to such lookups, measured); this is a
plain class in a compiled module, read natively (`Game.index`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from swdsl.engine.content import Content, SharedVar
from swdsl.engine.hooks import Ability, Modifier, Trigger

if TYPE_CHECKING:
    from swdsl.engine.ruleset import Ruleset

_LATE = ("times", "at least", "at most")  # modifier operations a fold applies after the others


class Index:
    def __init__(self, rs: Ruleset) -> None:
        everything = rs.everything()
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        for rule in rs.rules:
            for stat, ms in rule.modifiers.items():
                mods.setdefault(stat, []).extend(ms)
            for event, ts in rule.triggers.items():
                trigs.setdefault(event, []).extend(ts)
        self.rule_mods: dict[str, tuple[Modifier, ...]] = {k: tuple(v) for k, v in mods.items()}
        self.rule_triggers: dict[str, tuple[Trigger, ...]] = {k: tuple(v) for k, v in trigs.items()}
        self.rule_abilities: tuple[Ability, ...] = tuple(a for rule in rs.rules for a in rule.abilities)  # to every race
        self.modified_stats = frozenset(st for c in everything for st in c.modifiers)  # stats any content modifies
        # some modifier is a `times`, `at least` or `at most`: folds order them last
        self.reorders = any(m.op in _LATE for c in everything for ms in c.modifiers.values() for m in ms)
        # some ability works in decline: the player's other races offer theirs
        self.lasting_abilities = any(a.scope != "active" for c in everything for a in c.abilities)
        self.ability_phases = frozenset(a.phase for c in everything for a in c.abilities)
        self.heard_events = frozenset(event for c in everything for event in c.triggers)  # the others never fire
        # events some trigger hears for other races (`by ours`, `by anyone`), and per such event the banners
        # and powers with such a trigger (held content aside): only their races listen
        self.wide_events = frozenset(t.event for c in everything for ts in c.triggers.values() for t in ts
                                     if t.audience != "me")
        self.wide_hearers: dict[str, tuple[Content, ...]] = {
            event: tuple(c for c in [*rs.races.values(), *rs.powers.values()]
                         if any(t.audience != "me" for t in c.triggers.get(event, ())))
            for event in self.wide_events}
        # some trigger may `cancel conquest`: conquests note what they change (undo.py)
        self.cancels = any(t.cancels for c in everything for ts in c.triggers.values() for t in ts)
        copiers = {n for c in everything for n in c.copiers}
        self.hooked_markers = frozenset(n for n, m in rs.markers.items() if m.has_hooks or n in copiers)
        self.marker_stats = frozenset(st for m in rs.markers.values() for st in m.modifiers)  # some relic or place modifies
        # what content held through regions (markers and the rules they wear; powers bound to regions) has:
        # anything else never looks at holdings, so a relic does not slow every event or stat
        held = [*rs.markers.values(), *rs.copied.values()]
        self.held_events = frozenset(event for c in held for event in c.triggers)
        self.held_phases = frozenset(a.phase for c in held for a in c.abilities)  # phases of their abilities
        self.held_vars = any(c.variables for c in [*held, *rs.powers.values()])  # some held content has variables
        self.power_events = frozenset(event for p in rs.powers.values() for event in p.triggers)
        self.power_phases = frozenset(a.phase for p in rs.powers.values() for a in p.abilities)
        self.power_stats = frozenset(st for p in rs.powers.values() for st in p.modifiers)  # powers can be bound
        self.shared_vars: dict[str, SharedVar] = {v.name: v for c in everything for v in c.shared}  # by name
        # what a turn's start sets: the edition rules' variables, (name, initial, whether every turn or only
        # the first time), and the shared ones reset every turn, (whether a game var, name, initial)
        self.rule_vars = tuple((name, init, reset == "turn") for rule in rs.rules
                               for name, (init, reset) in rule.variables.items())
        self.turn_shared = tuple((v.owner == "game", v.name, v.initial) for v in self.shared_vars.values()
                                 if v.reset == "turn")
        self.token_markers = frozenset(n for n, m in rs.markers.items() if m.counts_as_token)  # count as tokens
        # some declared adjacency reads more than the map and a few values (variables, `here`): a race's
        # neighbours are worked out live, and kept while a game is only read (caches.reads)
        live_adjacency = any(not (m.map_only or m.given) for c in [*everything, *rs.copied.values()]
                             for m in c.modifiers.get("region.adjacent", ()))
        # legality and scoring read the game in a scope (caches.reads) where facts worked out are kept: a
        # race's neighbours worked out live, the parts of rules read once per decision
        self.scoped = live_adjacency or any(m.per_decision for c in [*everything, *rs.copied.values()]
                                            for mods in c.modifiers.values() for m in mods)
        self.action_budget = rs.budgets.actions
        self.trigger_budget = rs.budgets.trigger_runs
        self.visible = rs.market.visible  # combos on offer per column
        # worked out while games run, shared by them (stats.py): fold plans per stat, banner, power and
        # state (content ids: the ruleset owns the content), a key per (stat, modifiers) whose fold is a
        # per-board table, and the values of the tables that read a region's own facts alone, by kind of
        # region (Board.kind_ids): every board drawn from modular faces finds them there
        self.plans: dict[tuple, Any] = {}
        self.tables: dict[tuple, int] = {}
        self.local: dict[Any, list] = {}
        self.gates: dict[tuple, list] = {}  # per modifiers and kind of region (stats._gated)
        self.starts: dict[tuple, Any] = {}  # per player count and board: what a new game starts from (setup.Start)
