"""Stats: values the engine asks the rules for, each an entry with its base,
bounds and bindings, folded through modifiers.

Fold order (documented in docs/architecture.md):
  1. the engine's base value (the entry's `base`);
  2. edition rules (`rule` declarations), in pack order;
  3. the subject race's banner, then its power;
  4. content the race holds through its regions (holdings.py: relics, places,
     bound powers), each in the race's current state like its own;
  5. every "times" modifier, in the same order;
  6. every "at least" and "at most" modifier: bounds on the final value;
  7. the stat's own floor and cap (conquest.cost ≥ 1).
A "by" modifier adds, a "set" modifier replaces, a "times" modifier multiplies
(after all the others, so doubling a region's coins doubles every bonus); each
may carry its own floor and cap, applied right after it. "at least N" is what a
designer reads as "never below N, whatever else applies".

Protection: where the defender shields a region (`region.shielded`), the
attacker's own modifiers that favour it — as the stat's `favours` says — are
skipped; edition rules still apply. `explain` (explain.py) runs the same fold and
records every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from swdsl.engine import caches
from swdsl.engine.caches import NOT_KEPT, kept_for_kind
from swdsl.engine.entries import Ctx, Stat
from swdsl.engine.holdings import defenders, held, held_mods
from swdsl.engine.hooks import Modifier
from swdsl.engine.state import Game, RaceInst


def _immune_base(game: Game, inst: RaceInst | None, b: dict) -> bool:
    region, attacker = b["target"], b.get("attacker")
    for name, owner, _ in game.markers[region]:
        if game.ruleset.markers[name].immune:
            holder = game.races.get(owner) if owner is not None else game.occupant[region]
            if holder is None or attacker is None or holder.player != attacker.player:
                return True
    return False


def _defense_base(game: Game, inst: RaceInst | None, b: dict) -> int:
    return sum(game.ruleset.markers[n].defense for n, *_ in game.markers[b["target"]])


def _const(v: Any):
    """A base that does not depend on the game (`value` then skips computing it)."""
    def base(game: Game, inst: RaceInst | None, b: dict) -> Any:
        return v
    base.constant = v  # type: ignore[attr-defined]
    return base


_TARGET: Final = {"target": "region"}
_AGAINST: Final = {"target": "region", "attacker": "race"}

STATS: Final = {s.name: s for s in [
    Stat("tokens.granted", "tokens a race receives when its combo is picked", "int",
         "banner number + badge number (capped by the tokens left in the tray)", "race",
         lambda game, inst, b: inst.race.tokens + (inst.power.tokens if inst.power else 0) if inst else 0),
    Stat("conquest.cost", "tokens needed to conquer `target`", "int",
         "2 + tokens in the region (and pieces that count as tokens) + region.defense + travel.cost", "attacker",
         lambda game, inst, b: _cost_base(game, inst, b["target"], None), _TARGET, floor=1, favours="less"),
    Stat("region.defense", "extra defence of `target` against `attacker`", "int",
         "sum of the `defense` of the markers in the region", "defender", _defense_base, _AGAINST),
    Stat("conquest.as_empty", "whether the race prices `target` as if it held no race token: the cost leaves "
         "the tokens out and `target is empty` holds while it is folded (the conquest itself goes on as usual)",
         "bool", "false", "attacker", _const(False), _TARGET, favours="true"),
    Stat("travel.cost", "extra cost of reaching `target` (added to conquest.cost)", "int", "0", "attacker",
         _const(0), _TARGET, favours="less"),
    Stat("conquest.reachable", "whether `target` may be attacked from where the race stands (reach: a rule "
         "may extend it without making regions adjacent)", "bool",
         "`target` is adjacent to a region of the race (region.adjacent)",
         "attacker", lambda game, inst, b: bool(inst and adjacency.adjacent_to_any(game, inst, b["target"], inst.regions)),
         _TARGET, favours="true"),
    Stat("region.adjacent", "whether `target` and `other` count as adjacent for this race: declared adjacency, "
         "which every rule of the race asking about borders sees (`borders`, `neighbours`, `group`, `groups()`, "
         "`reach()`, what it may attack); inside a `region.adjacent` rule, `borders` are the map's", "bool",
         "they share a border on the map", "race",
         lambda game, inst, b: b["other"] in game.board.neighbours[b["target"]],
         {"target": "region", "other": "region"}, favours="true"),
    Stat("region.linked", "whether `target` and `other` are joined for this race where it follows chains of "
         "regions — its groups (`group`, `groups()`) and `reach()` — without being adjacent: `borders`, "
         "`neighbours` and what it may attack stay as they were", "bool", "false", "race", _const(False),
         {"target": "region", "other": "region"}),
    Stat("conquest.entry", "whether `target` may be the race's first conquest (it holds no region yet)", "bool",
         "false: packs say where races enter", "attacker", _const(False), _TARGET, favours="true"),
    Stat("region.conquerable", "whether `target` may be conquered at all by this race", "bool", "true",
         "attacker", _const(True), _TARGET, favours="true"),
    Stat("region.immune", "whether `target` is closed to `attacker` (conquest and its abilities)", "bool",
         "true if an `immune` marker of another player lies there", "defender", _immune_base, _AGAINST),
    Stat("conquest.final", "whether the race may make a final conquest with the die", "bool", "true",
         "attacker", _const(True)),
    Stat("loss.discard", "tokens the defender discards when it loses `target`, or when `attacker`'s `discard … "
         "from` hits it there (the rest withdraw); `conquest` is true for a conquest or a `rout`, false for a "
         "discard", "int", "1 (a declined race loses every token)", "defender",
         lambda game, inst, b: game.tokens[b["target"]] if inst is not None and inst.declined else 1,
         {"target": "region", "attacker": "race", "conquest": "bool"}),
    Stat("decline.keep", "tokens the race keeps in `target` when it goes into decline", "int", "1", "race",
         _const(1), _TARGET),
    Stat("race.plays", "whether the race plays a turn of its own (conquests, then redeployment) in its "
         "player's turn; declined races that do play first", "bool", "true for the active race, false for a "
         "declined one", "race", lambda game, inst, b: bool(inst is not None and not inst.declined)),
    Stat("decline.slot", "whether this declined race takes the player's one declined-race slot", "bool",
         "true", "race", _const(True)),
    Stat("decline.after_scoring", "whether the race may go into decline right after scoring a turn", "bool",
         "false", "race", _const(False)),
    Stat("score.region", "coins `target` scores for its race at the end of the owner's turn", "int", "1",
         "race", _const(1), _TARGET),
    Stat("region.shielded", "whether `target` is shielded from `attacker`: the attacker's own favourable "
         "modifiers (cheaper, reachable, enterable, conquerable) are ignored there and its abilities cannot "
         "choose it", "bool", "false", "defender", _const(False), _AGAINST),
    Stat("region.minimum", "the fewest tokens the race may keep in `target` when readying troops and "
         "redeploying; a region left with fewer sends them to the race's most crowded region", "int", "1",
         "race", _const(1), _TARGET, floor=1),
    Stat("redeploy.vacate", "whether the race must empty `target` when it redeploys", "bool", "false",
         "race", _const(False), _TARGET),
    Stat("combo.fee", "coins a player taking a combo below this one puts on it (or pays the bank for it); asked of "
         "the combo: its race and power as if on the table, with no region", "int", "1", "the combo", _const(1),
         {"row": "int"}, floor=0),
    Stat("redeploy.gather", "whether the race may take tokens back into hand from `target` when it redeploys "
         "(`gather`): a rule may forbid moving troops, or allow it only from some regions", "bool", "true",
         "race", _const(True), _TARGET),
]}

# each stat's base and (floor, cap), where it has either, read at every fold (a Stat is an attrs entry:
# its fields are Python attribute lookups)
_BASES: Final[dict[str, Callable[[Any, Any, dict], Any]]] = {n: s.base for n, s in STATS.items()}
_BOUNDED: Final[dict[str, tuple[Any, Any]]] = {n: (s.floor, s.cap) for n, s in STATS.items()
                                               if s.floor is not None or s.cap is not None}
_FAVOURED: Final = {
    "less": lambda before, after: after < before,
    "true": lambda before, after: bool(after) and not before,
}


def modified(game: Game, stat: str, inst: RaceInst | None) -> bool:
    """Could any rule change `stat` for `inst`? When not, the engine uses its base
    (and searches the frontier instead of every region, and so on). Content held
    through regions counts only if the race holds some that modifies the stat."""
    ix = game.index
    if stat in ix.rule_mods or inst is not None and stat in inst.mods:
        return True
    if inst is None or not (stat in ix.marker_stats or game.bound_powers and stat in ix.power_stats):
        return False
    return stat in held(game, inst).stats


class Plan:
    """How a stat folds for a race, worked out once per stat and what the race brings to it (the
    modifiers of its banner and power, its state) and again only when powers come to be bound to
    regions or the race's hooks change (they clear its plans): a fold is then a loop over a short
    tuple, and one that depends on the map and `target` only is a per-board table. A plain class:
    mypyc makes it and reads its fields natively (a named tuple's are Python attribute lookups at
    every fold, a dataclass's `__init__` Python at every plan made)."""

    def __init__(self, bound: bool, mods: tuple[Modifier, ...], held: bool, favoured: Callable[[Any, Any], bool] | None,
                 table: int | None, borders: int | None, local: bool, gated: bool) -> None:
        self.bound = bound  # whether some power was bound to a region when it was made
        self.mods = mods  # edition rules', banner's and power's modifiers that apply, in fold order
        self.held = held  # content held through regions may add modifiers (relics, places, bound powers)
        self.favoured = favoured  # what a shield undoes, when shields exist
        self.table = table  # the per-board table's key when the value is a function of the map and `target` only
        self.borders = borders  # which borders the table was made with, when it reads some (_borders)
        self.local = local  # the table reads only `target`'s own facts: its values are kept per kind of region
        self.gated = gated  # some of its modifiers have a gate (Modifier.gate): a fold leaves out those closed (_gated)


def plan(game: Game, stat: str, inst: RaceInst | None) -> Plan:
    """The race's plan for `stat` (edition rules only for nobody), kept in the race (`fold_cache`, which
    every change of its banner, power or state clears) while powers bound to regions are as they were."""
    bound = bool(game.bound_powers)
    if inst is not None:
        p = inst.fold_cache.get(stat)
        if p is not None and p.bound is bound and caches.SWITCH.on:
            return p
    if not caches.SWITCH.on:
        return _make_plan(game, stat, inst, bound)
    if inst is None:
        p = game.index.plans.get((stat, bound))
        return p if p is not None else _shared_plan(game, stat, None, bound)
    p = inst.fold_cache[stat] = _shared_plan(game, stat, inst, bound)
    return p


_NO_MODS: Final[dict] = {}


def _shared_plan(game: Game, stat: str, inst: RaceInst | None, bound: bool) -> Plan:
    """Races share their plans (the ruleset's index keeps them) by what a plan is made from: the modifiers
    their banner and power bring to the stat and to region.adjacent (the borders it reads), their state
    and whether powers are bound. Most banners and powers bring nothing to most stats: a race new to the
    table finds its plans made."""
    if inst is None:
        key: tuple = (stat, bound)
    elif stat not in inst.mods and "region.adjacent" not in inst.mods:  # its banner and power bring nothing
        key = (stat, inst.declined, bound)
    else:
        race = inst.race.modifiers
        power = inst.power.modifiers if inst.power is not None else _NO_MODS
        key = (stat, id(race.get(stat)), id(power.get(stat)), id(race.get("region.adjacent")),
               id(power.get("region.adjacent")), inst.declined, bound)
    p = game.index.plans.get(key)
    if p is None:
        p = game.index.plans[key] = _make_plan(game, stat, inst, bound)
    return p


def _make_plan(game: Game, stat: str, inst: RaceInst | None, bound: bool) -> Plan:
    ix = game.index
    mods = ix.rule_mods.get(stat, ())
    if inst is not None:
        mods = tuple(m for m in mods + inst.mods.get(stat, ()) if inst.scope_ok(m.scope))
    if ix.reorders:
        mods = tuple(sorted(mods, key=_late))
    held = inst is not None and (stat in ix.marker_stats or bound and stat in ix.power_stats)
    # a shield undoes a race's or content's modifier, never an edition rule's
    shields = "region.shielded" in ix.modified_stats and (held or any(m.origin != "rule" for m in mods))
    favoured = _FAVOURED.get(STATS[stat].favours) if shields else None
    # borders are the map's inside a region.adjacent fold; elsewhere those the race's own rules declare
    borders = None
    if stat != "region.adjacent" and any(m.map_only == "adjacency" for m in mods):
        own = inst is not None and ("region.adjacent" in ix.rule_mods or "region.adjacent" in inst.mods)
        declared = plan(game, "region.adjacent", inst).table if own else _MAP
        borders = _LIVE if declared is None else declared
    table = None
    if mods and "target" in STATS[stat].bindings and borders != _LIVE and all(m.map_only for m in mods):
        table = ix.tables.setdefault((stat, mods, borders), len(ix.tables))
    return Plan(bound, mods, held, favoured, table, borders,
                table is not None and all(m.map_only == "region" for m in mods), any(m.gate is not None for m in mods))


_MAP: Final = -1  # a plan's borders: the map's;
_LIVE: Final = -2  # declared ones that are no per-board table


def _borders(game: Game, inst: RaceInst | None) -> int:
    """Which borders `inst`'s rules see now: the map's, the per-board table of those it declares, or
    _LIVE (held content declares some, or a shield may undo some). A table reading borders serves only
    while they are those it was made with (not inside a region.adjacent fold of a race declaring its own)."""
    if inst is None or not declares_adjacency(game, inst):
        return _MAP
    p = plan(game, "region.adjacent", inst)
    if p.table is None or p.held and held_mods(game, inst, "region.adjacent") \
            or p.favoured is not None and shielding(game, inst):
        return _LIVE
    return p.table


def shielding(game: Game, inst: RaceInst) -> bool:
    """Whether a race on the board may shield one of its regions from `inst` (region.shielded): folds a
    shield could change are then not a function of the map and their regions."""
    return "region.shielded" in game.index.modified_stats and any(
        d is not inst and d.regions and modified(game, "region.shielded", d) for d in game.races.values())


def fold(game: Game, stat: str, base: Any, inst: RaceInst | None, b: dict[str, Any], parts: list | None = None,
         p: Plan | None = None):
    """The value of `stat` for `inst` from `base`, by the race's plan `p` (looked up if not given);
    appends steps to `parts` if given."""
    if p is None:
        p = plan(game, stat, inst)
    mods = with_held(game, stat, inst, p) if p.held else p.mods  # type: ignore[arg-type]
    if (p.gated or p.held) and mods and parts is None and caches.SWITCH.on:
        target = b.get("target")
        if type(target) is int:
            mods = _gated(game, inst, mods, target)
    if mods:
        folding = game.folding
        # a rule of this stat that asks for the stat itself (same race, same bindings) reads its base;
        # the bindings as they are now (a rule's `as x` binds more into them while it is read): a copy,
        # made in C (their items as a tuple went through a view object, at every fold)
        bound = b.copy()
        if not folding or not _folding_now(folding, stat, inst, bound):
            folding.append((stat, inst, bound))
            try:
                base = folded(base, Ctx(game, inst, b), p, mods, parts)
            finally:
                folding.pop()
    if stat in _BOUNDED:
        return _bounded(_BOUNDED[stat], base, parts)
    return base


def _folding_now(folding: list[tuple], stat: str, inst: RaceInst | None, bound: dict[str, Any]) -> bool:
    """Whether `stat` is being folded for `inst` with these bindings already (a plain loop: a fold inside a
    fold asks it)."""
    for s, i, fb in folding:
        if s == stat and i is inst and fb == bound:
            return True
    return False


def _gated(game: Game, inst: RaceInst | None, mods: tuple[Modifier, ...], target: int) -> tuple[Modifier, ...]:
    """Those of `mods` whose gate (Modifier.gate) holds at `target`, ungated (asking only the rest of their
    condition): a gate reads only the target's own facts, so this is kept in the ruleset's index per modifiers
    and kind of region (Board.kind_ids), for every board."""
    by_kind = game.index.gates.get(mods)
    if by_kind is None:
        by_kind = game.index.gates[mods] = []
    kind = game.board.kind_ids[target]
    found = kept_for_kind(by_kind, kind)
    if found is NOT_KEPT:
        ctx = Ctx(game, inst, {"target": target})
        found = by_kind[kind] = tuple(m if m.gate is None else m.ungated for m in mods if m.gate is None or m.gate(ctx))
    return found


def with_held(game: Game, stat: str, inst: RaceInst, p: Plan) -> tuple[Modifier, ...]:
    """The plan's modifiers and those of the content the race holds now, in fold order: kept with what
    it holds (holdings.Held.folds), per stat for the plan it was worked out with."""
    h = held(game, inst)
    if stat not in h.stats:
        return p.mods
    found = h.folds.get(stat)
    if found is not None and found[0] is p:
        return found[1]
    mods = p.mods + held_mods(game, inst, stat)
    if game.index.reorders:
        mods = tuple(sorted(mods, key=_late))
    h.folds[stat] = p, mods
    return mods


def folded(value: Any, ctx: Ctx, p: Plan, mods: tuple[Modifier, ...], parts: list | None) -> Any:
    """The modifiers `mods` folded into `value`, in order."""
    favoured = p.favoured
    shield = favoured is not None and shielded(ctx.game, ctx.me, ctx.b.get("target"))
    for m in mods:
        if m.when is not None and not m.when(ctx):
            continue
        before = value
        v = m.value(ctx)
        value = _OPS[m.op](value, v)
        bounded = ""
        if m.floor is not None and value < (f := m.floor(ctx)):
            value, bounded = f, f" (floor {f})"
        if m.cap is not None and value > (c := m.cap(ctx)):
            value, bounded = c, f" (cap {c})"
        if shield and m.origin != "rule" and favoured(before, value):  # type: ignore[misc]
            value = before
            if parts is not None:
                parts.append((f"{m.source} (shielded)", "by", 0, before, before))
            continue
        if parts is not None:
            parts.append((m.source + bounded, m.op, v, before, value))
    return value


def _bounded(bounds: tuple[Any, Any], value: Any, parts: list | None) -> Any:
    floor, cap = bounds
    if floor is not None and value < floor:
        if parts is not None:
            parts.append(("floor", "set", floor, value, floor))
        value = floor
    if cap is not None and value > cap:
        if parts is not None:
            parts.append(("cap", "set", cap, value, cap))
        value = cap
    return value


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "by": lambda value, v: value + v, "set": lambda value, v: v, "times": lambda value, v: value * v,
    "at least": max, "at most": min}
_ORDER: Final = {"by": 0, "set": 0, "times": 1, "at least": 2, "at most": 2}


def _late(m: Modifier) -> int:
    """by and set in the order written, then every times, then the final bounds."""
    return _ORDER[m.op]


_CONSTANT: Final = {n: _bounded((s.floor, s.cap), s.base.constant, None) for n, s in STATS.items()
             if hasattr(s.base, "constant")}
_PAIRED: Final = frozenset(n for n, s in STATS.items() if "other" in s.bindings)  # of two regions: tables by pair
_NOTHING: Final = object()


def value(game: Game, stat: str, inst: RaceInst | None, parts: list | None = None, **b) -> Any:
    """A stat's value for `inst`: its base, folded if any rule could change it (from the board's
    table when the fold depends on the map and `target` only)."""
    constant = _CONSTANT.get(stat, _NOTHING)
    if parts is None and stat not in game.index.modified_stats:  # no content modifies it: its base
        if constant is not _NOTHING:
            return constant
        base = _BASES[stat](game, inst, b)
        return _bounded(_BOUNDED[stat], base, None) if stat in _BOUNDED else base
    p = plan(game, stat, inst)
    if not (p.mods or p.held):
        if constant is not _NOTHING and parts is None:
            return constant
        base = _BASES[stat](game, inst, b)
        if parts is not None:
            parts.append(("base", "set", base, base, base))
        return _bounded(_BOUNDED[stat], base, parts) if stat in _BOUNDED else base
    if parts is None and tabled(game, p, stat, inst, b["target"] if p.table is not None else None):
        memo = game.board.memo
        if stat in _PAIRED:  # its base and modifiers read the map, `target` and `other`
            key = (p.table, b["target"], b["other"])
            found = memo.get(key, _NOTHING)
            if found is _NOTHING:
                found = memo[key] = fold(game, stat, _BASES[stat](game, inst, b), inst, b, None, p)
            return found
        base = constant
        if base is _NOTHING:  # a base read from the game: one table per value it takes
            base = _BASES[stat](game, inst, b)
        if p.local:  # the value for that kind of region on any board (a drawn board is new at most games)
            return _local_value(game, stat, base, inst, p, _by_kind(game, p, base), b["target"], b)
        table = memo.get((p.table, base))
        if table is None:
            table = memo[(p.table, base)] = [_NOTHING] * len(game.board)
        found = table[b["target"]]
        if found is _NOTHING:
            found = table[b["target"]] = fold(game, stat, base, inst, b, None, p)
        return found
    base = _BASES[stat](game, inst, b) if constant is _NOTHING else constant
    if parts is not None:
        parts.append(("base", "set", base, base, base))
    return fold(game, stat, base, inst, b, parts, p)


def local_values(game: Game, stat: str, inst: RaceInst, regions: list[int]) -> list | None:
    """`inst`'s values of `stat` at each of `regions` (as `target`), all read at once from the values by
    kind of region when its plan reads only each region's own facts and nothing held or shielded adds
    or undoes a modifier now; else None (each region is asked in turn)."""
    p = plan(game, stat, inst)
    base = _CONSTANT.get(stat, _NOTHING)
    if not p.local or p.favoured is not None or base is _NOTHING or not tabled(game, p, stat, inst, None):
        return None
    values = _by_kind(game, p, base)
    return [_local_value(game, stat, base, inst, p, values, r, None) for r in regions]


def _local_value(game: Game, stat: str, base: Any, inst: RaceInst | None, p: Plan, values: list, target: int,
                 b: dict[str, Any] | None) -> Any:
    """The value of local plan `p` at `target`, from `values` (by kind of region), folded once per kind of
    region and kept in the ruleset's index for every board: its regions' kinds are few and the same."""
    kind = game.board.kind_ids[target]
    found = kept_for_kind(values, kind)
    if found is NOT_KEPT:
        found = values[kind] = fold(game, stat, base, inst, {"target": target} if b is None else b, None, p)
    return found


def kind_values(game: Game, stat: str, base: Any, inst: RaceInst | None, p: Plan) -> list:
    """The values of local plan `p`'s table from `base`, by kind of region (Board.kind_ids), those of every
    kind on this board worked out: a region of each kind not kept yet is folded."""
    values = _by_kind(game, p, base)
    for r in range(len(game.board)):
        _local_value(game, stat, base, inst, p, values, r, None)
    return values


def _by_kind(game: Game, p: Plan, base: Any) -> list:
    local = game.index.local
    values = local.get((p.table, base))
    if values is None:
        values = local[(p.table, base)] = []
    return values


def tabled(game: Game, p: Plan, stat: str, inst: RaceInst | None, target: int | None) -> bool:
    """Whether the per-board table of the plan serves `inst` at `target` now: the plan's mods alone
    apply (no held content modifying the stat, no shield at `target`), seeing the borders the table
    was made with."""
    if p.table is None or not caches.SWITCH.on:
        return False
    if p.held and held_mods(game, inst, stat):  # type: ignore[arg-type]  # a plan with held content is a race's
        return False
    if p.borders is not None and _borders(game, inst) != p.borders:
        return False
    return not (p.favoured is not None and shielded(game, inst, target))


def declares_adjacency(game: Game, inst: RaceInst | None) -> bool:
    """Whether `inst`'s rules declare adjacency beyond the map's borders (region.adjacent). While one of
    those rules is read, its own `borders` are the map's: no rule defines adjacency in terms of itself."""
    return inst is not None and inst.id not in game.reading_adjacency and modified(game, "region.adjacent", inst)


def shielded(game: Game, attacker: RaceInst | None, target: int | None) -> bool:
    """Whether the race holding `target` shields it from `attacker` (region.shielded)."""
    if target is None or attacker is None or "region.shielded" not in game.index.modified_stats:
        return False
    defender = game.occupant[target]
    if defender is None or defender is attacker or not modified(game, "region.shielded", defender):
        return False
    return bool(fold(game, "region.shielded", False, defender, {"target": target, "attacker": attacker}))


# ---- the stats with a base of parts (explained step by step) ------------------------


def region_defense(game: Game, region: int, attacker: RaceInst | None, parts: list | None = None) -> int:
    base = 0
    for name, *_ in game.markers[region]:
        d = game.ruleset.markers[name].defense
        if d:
            base += d
            if parts is not None:
                parts.append((f"marker {name}", "by", d, base - d, base))
    defender = game.occupant[region]
    if not modified(game, "region.defense", defender):
        return base
    return fold(game, "region.defense", base, defender, {"target": region, "attacker": attacker}, parts)


# A binding no rule can write: the region a cost fold sees as empty (`conquest.as_empty`),
# read by the states `empty` and `occupied` (queries.py).
AS_EMPTY = "as empty"


def _cost_base(game: Game, inst: RaceInst | None, region: int, parts: list | None, empty: bool = False) -> int:
    base = 2
    if parts is not None:
        parts.append(("base", "set", 2, 0, 2))
    tokens = defenders(game, region)
    if tokens and empty:
        if parts is not None:
            parts.append((f"{tokens} token(s) left out: as if empty", "by", 0, base, base))
    elif tokens:
        base += tokens
        if parts is not None:
            occ = game.occupant[region]
            counted = tokens - game.tokens[region]
            also = f" ({counted} of them pieces that count as tokens)" if counted else ""
            parts.append((f"{tokens} token(s) of {occ.name if occ else '?'}{also}", "by", tokens, base - tokens, base))
    if game.markers[region] or game.occupant[region] is not None:
        base += region_defense(game, region, inst, parts)
    if modified(game, "travel.cost", inst):
        base += fold(game, "travel.cost", 0, inst, _cost_bindings(region, empty), parts)
    return base


def _cost_bindings(region: int, empty: bool) -> dict[str, Any]:
    return {"target": region, AS_EMPTY: region} if empty else {"target": region}


def conquest_cost(game: Game, inst: RaceInst, region: int, parts: list | None = None, empty: bool = False) -> int:
    """What conquering `region` costs `inst`; `empty` (or its conquest.as_empty) prices it as if it held no
    race token."""
    memo = caches.kept(game) if parts is None else None
    if memo is None:
        return _conquest_cost(game, inst, region, parts, empty)
    key = (inst, region, empty)
    cost = memo.get(key)
    if cost is None:
        cost = memo[key] = _conquest_cost(game, inst, region, None, empty)
    return cost


def _conquest_cost(game: Game, inst: RaceInst, region: int, parts: list | None, empty: bool) -> int:
    if not empty and "conquest.as_empty" in game.index.modified_stats and modified(game, "conquest.as_empty", inst):
        empty = bool(value(game, "conquest.as_empty", inst, target=region))
    return fold(game, "conquest.cost", _cost_base(game, inst, region, parts, empty), inst,
                _cost_bindings(region, empty), parts)


def is_immune(game: Game, region: int, attacker: RaceInst) -> bool:
    base = _immune_base(game, None, {"target": region, "attacker": attacker}) if game.markers[region] else False
    defender = game.occupant[region]
    if defender is None or not modified(game, "region.immune", defender):
        return base
    return bool(fold(game, "region.immune", base, defender, {"target": region, "attacker": attacker}))


def region_minimum(game: Game, inst: RaceInst, region: int) -> int:
    """The fewest tokens `inst` may keep in `region` (region.minimum, at least 1)."""
    if "region.minimum" not in game.index.modified_stats or not modified(game, "region.minimum", inst):
        return _CONSTANT["region.minimum"]  # most races, even where one has a minimum of its own
    return value(game, "region.minimum", inst, target=region)


# adjacency (region.adjacent) is read through folds: its module imports this one, so it is imported last
from swdsl.engine import adjacency  # noqa: E402
