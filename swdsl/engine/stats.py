"""Stats: values the engine asks the rules for, folded through modifiers.

Fold order (documented in docs/architecture.md):
  1. the engine's base value;
  2. edition rules (`rule` declarations), in pack order;
  3. the subject race's banner, then its power;
  4. markers with rules in the region concerned (relics, places), then markers
     the subject race holds elsewhere, then powers bound to its regions
     (`draw power`), each in the race's current state like its own;
  5. every "times" modifier, in the same order;
  6. the stat's own floor and cap from the vocabulary (conquest.cost ≥ 1).
A "by" modifier adds, a "set" modifier replaces, a "times" modifier multiplies
(after all the others, so doubling a region's coins doubles every bonus); each
may carry its own floor and cap, applied right after it. Where the defender
shields a region (`region.shielded`), the attacker's own favourable modifiers
are skipped; edition rules still apply. `explain` runs the same fold and
records every step.
"""

from __future__ import annotations

from typing import Any

import attrs

from swdsl.engine.content import Modifier
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.vocabulary import STATS


class Ctx:
    """What a compiled expression sees: the game, the race the rule belongs to
    (`me`), and the bindings of the event, stat or ability."""

    __slots__ = ("game", "me", "b", "it")

    def __init__(self, game: Game, me: RaceInst | None, b: dict[str, Any] | None = None):
        self.game = game
        self.me = me
        self.b = b if b is not None else {}
        self.it = None


def _held_marker_mods(game: Game, inst: RaceInst | None, stat: str, target: int | None):
    """Modifiers of hooked markers (relics, places) that apply to this stat, then
    those of powers bound to regions the race holds: only those whose scope
    matches the race's state (a declined race uses no relic unless stated)."""
    hooked = game.ruleset.hooked_markers
    if inst is None:
        return ()
    out = []
    if hooked:
        regions = set(inst.regions)
        if target is not None:
            regions.add(target)
        for r in sorted(regions):
            for name, _owner in game.markers[r]:
                if name in hooked:
                    out.extend(m for m in game.ruleset.markers[name].modifiers.get(stat, ()) if inst.scope_ok(m.scope))
                    if name in game.copies:
                        out.extend(m for m in game.ruleset.copy_of(name, game.copies[name]).modifiers.get(stat, ())
                                   if inst.scope_ok(m.scope))
    if game.bound_powers:
        for r in sorted(inst.regions):
            for name in game.bound_powers.get(r, ()):
                out.extend(m for m in game.ruleset.powers[name].modifiers.get(stat, ()) if inst.scope_ok(m.scope))
    return out


def modified(game: Game, stat: str, inst: RaceInst | None) -> bool:
    """Could any rule change `stat` for `inst`? When not, the engine skips the
    fold and uses its base (the frontier instead of every region, and so on)."""
    rs = game.ruleset
    return (stat in rs.rule_mods or (inst is not None and stat in inst.mods) or stat in rs.marker_stats
            or bool(game.bound_powers) and stat in rs.power_stats)


def _applicable(game: Game, stat: str, inst: RaceInst) -> tuple[Modifier, ...]:
    mods = list(game.ruleset.rule_mods.get(stat, ())) + list(inst.mods.get(stat, ()))
    return tuple(m for m in mods if m.scope == "always" or (m.scope == "declined") == inst.declined)


def fold(game: Game, stat: str, base: Any, inst: RaceInst | None, b: dict[str, Any], parts: list | None = None):
    """The value of `stat` for `inst` given `base`; appends steps to `parts` if given."""
    if inst is not None:
        mods = inst.fold_cache.get(stat)
        if mods is None:
            mods = inst.fold_cache[stat] = _applicable(game, stat, inst)
    else:
        mods = game.ruleset.rule_mods.get(stat, ())
    if game.ruleset.hooked_markers or game.bound_powers:
        mods = mods + tuple(_held_marker_mods(game, inst, stat, b.get("target")))
    value = base
    if mods:
        ctx = Ctx(game, inst, b)
        shield = stat in _FAVOURS and shielded(game, inst, b.get("target"))
        for m in sorted(mods, key=_times_last) if game.ruleset.multiplies else mods:
            if m.when is not None and not m.when(ctx):
                continue
            before = value
            v = m.value(ctx)
            value = value + v if m.op == "by" else value * v if m.op == "times" else v
            if m.floor is not None:
                value = max(value, m.floor(ctx))
            if m.cap is not None:
                value = min(value, m.cap(ctx))
            if shield and m.origin != "rule" and _FAVOURS[stat](before, value):
                value = before
                if parts is not None:
                    parts.append((f"{m.source} (shielded)", "by", 0, before, before))
                continue
            if parts is not None:
                parts.append((m.source, m.op, v, before, value))
    floor = _FLOORS.get(stat)
    if floor is not None and value < floor:
        if parts is not None:
            parts.append(("floor", "set", floor, value, floor))
        value = floor
    return value


_FLOORS = {name: s.floor for name, s in STATS.items() if s.floor is not None}

# attacker stats a shield guards, and when a change favours the attacker
_FAVOURS = {
    "conquest.cost": lambda before, after: after < before,
    "travel.cost": lambda before, after: after < before,
    "conquest.reachable": lambda before, after: bool(after) and not before,
    "conquest.entry": lambda before, after: bool(after) and not before,
    "region.conquerable": lambda before, after: bool(after) and not before,
}


def _times_last(m: Modifier) -> bool:
    return m.op == "times"


def shielded(game: Game, attacker: RaceInst | None, target: int | None) -> bool:
    """Whether the race holding `target` shields it from `attacker` (region.shielded)."""
    if target is None or attacker is None or "region.shielded" not in game.ruleset.modified_stats:
        return False
    defender = game.occupant[target]
    if defender is None or defender is attacker or not modified(game, "region.shielded", defender):
        return False
    return bool(fold(game, "region.shielded", False, defender, {"target": target, "attacker": attacker}))


def region_defense(game: Game, region: int, attacker: RaceInst | None, parts: list | None = None) -> int:
    base = 0
    for name, _owner in game.markers[region]:
        d = game.ruleset.markers[name].defense
        if d:
            base += d
            if parts is not None:
                parts.append((f"marker {name}", "by", d, base - d, base))
    defender = game.occupant[region]
    if not modified(game, "region.defense", defender):
        return base
    return fold(game, "region.defense", base, defender, {"target": region, "attacker": attacker}, parts)


def conquest_cost(game: Game, inst: RaceInst, region: int, parts: list | None = None) -> int:
    base = 2
    if parts is not None:
        parts.append(("base", "set", 2, 0, 2))
    tokens = game.tokens[region]
    if tokens:
        base += tokens
        if parts is not None:
            occ = game.occupant[region]
            parts.append((f"{tokens} token(s) of {occ.name if occ else '?'}", "by", tokens, base - tokens, base))
    if game.markers[region] or game.occupant[region] is not None:
        base += region_defense(game, region, inst, parts)
    b = {"target": region}
    if modified(game, "travel.cost", inst):
        base += fold(game, "travel.cost", 0, inst, b, parts)
    return fold(game, "conquest.cost", base, inst, b, parts)


def is_immune(game: Game, region: int, attacker: RaceInst) -> bool:
    base = False
    for name, owner in game.markers[region]:
        if game.ruleset.markers[name].immune:
            holder = game.races.get(owner) if owner is not None else game.occupant[region]
            if holder is None or holder.player != attacker.player:
                base = True
                break
    defender = game.occupant[region]
    if defender is None or not modified(game, "region.immune", defender):
        return base
    return bool(fold(game, "region.immune", base, defender, {"target": region, "attacker": attacker}))


def region_minimum(game: Game, inst: RaceInst, region: int) -> int:
    """The fewest tokens `inst` may keep in `region` (region.minimum, at least 1)."""
    if not modified(game, "region.minimum", inst):
        return 1
    return max(1, fold(game, "region.minimum", 1, inst, {"target": region}))


def stat(game: Game, name: str, inst: RaceInst | None, base: Any, **bindings) -> Any:
    """Generic access used by the turn code for stats without a special base."""
    return fold(game, name, base, inst, bindings)


@attrs.frozen
class Explanation:
    stat: str
    value: Any
    steps: tuple[tuple, ...]

    def __str__(self) -> str:
        parts = []
        for source, op, v, before, after in self.steps:
            if op == "set":
                parts.append(f"{source} {v}" if not parts else f"{source} sets {v}")
            elif op == "times":
                parts.append(f"×{v} {source}")
            else:
                parts.append(f"{'+' if v >= 0 else '-'}{abs(v)} {source}")
        return f"{self.stat} {self.value} = " + " ".join(parts)


def explain_cost(game: Game, inst: RaceInst, region: int) -> Explanation:
    steps: list = []
    value = conquest_cost(game, inst, region, steps)
    return Explanation("conquest.cost", value, tuple(steps))


def _base(game: Game, stat: str, inst: RaceInst | None, b: dict) -> Any:
    """The engine's base value of a stat (engine/vocabulary.py says it in words)."""
    target = b.get("target")
    if stat == "tokens.granted":
        return inst.race.tokens + (inst.power.tokens if inst.power else 0)
    if stat == "conquest.reachable":
        return bool(inst.regions and game.board.neighbours[target] & inst.regions)
    if stat == "region.defense":
        return sum(game.ruleset.markers[n].defense for n, _ in game.markers[target])
    if stat == "loss.discard" and inst.declined:
        return game.tokens[target]
    return {"travel.cost": 0, "conquest.entry": False, "region.conquerable": True, "region.immune": False,
            "conquest.final": True, "loss.discard": 1, "decline.keep": 1, "decline.acts": False,
            "decline.slot": True, "decline.after_scoring": False, "score.region": 1,
            "redeploy.vacate": False, "region.shielded": False, "region.minimum": 1}[stat]


def explain(game: Game, stat: str, inst: RaceInst, **bindings) -> Explanation:
    """Why a stat has its value: the base and every modifier that applied."""
    if stat == "conquest.cost":
        return explain_cost(game, inst, bindings["target"])
    base = _base(game, stat, inst, bindings)
    steps: list = [("base", "set", base, base, base)]
    value = fold(game, stat, base, inst, bindings, steps)
    return Explanation(stat, value, tuple(steps))
