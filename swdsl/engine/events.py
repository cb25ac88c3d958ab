"""Events: running the triggers that content hangs on the engine's hook points."""

from __future__ import annotations

from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import Ctx

MAX_TRIGGER_DEPTH = 8


def fire(game: Game, event: str, inst: RaceInst | None, **bindings) -> None:
    """Run the triggers of `event`: edition rules, then the race and its power,
    then markers with rules the race holds, then powers bound to its regions;
    then the `by ours` triggers of the player's other races. A chain deeper
    than MAX_TRIGGER_DEPTH stops (a pack cannot loop forever)."""
    triggers = game.ruleset.rule_triggers.get(event, ())
    if inst is not None:
        triggers = triggers + _own_triggers(game, inst, event)
    listeners = _listeners(game, event, inst) if event in game.ruleset.wide_events else ()
    if not (triggers or listeners) or game.trigger_depth >= MAX_TRIGGER_DEPTH:
        return
    game.trigger_depth += 1
    try:
        ctx = Ctx(game, inst, bindings)
        for t in triggers:
            if inst is not None and not inst.scope_ok(t.scope):
                continue
            if t.when is None or t.when(ctx):
                t.run(ctx)
        for other, t in listeners:
            octx = Ctx(game, other, bindings)
            if t.when is None or t.when(octx):
                t.run(octx)
    finally:
        game.trigger_depth -= 1


def _own_triggers(game: Game, inst: RaceInst, event: str) -> tuple:
    triggers = inst.triggers.get(event, ())
    if game.ruleset.hooked_markers or game.bound_powers:
        for c in held_content(game, inst):
            triggers = triggers + c.triggers.get(event, ())
    return triggers


def _listeners(game: Game, event: str, inst: RaceInst | None) -> list:
    """(race, trigger) for the `by ours` triggers of the player's other races."""
    if inst is None or inst.player is None:
        return []
    return [(other, t) for other in player_races(game, inst.player) if other is not inst
            for t in _own_triggers(game, other, event) if t.audience == "ours" and other.scope_ok(t.scope)]


def held_content(game: Game, inst: RaceInst) -> list:
    """Relics and places with rules in the race's regions (and the rules they
    copy), then the powers bound to its regions: each declaration once."""
    hooked = game.ruleset.hooked_markers
    if not hooked and not game.bound_powers:
        return []
    out, seen = [], set()
    for r in sorted(inst.regions):
        held = []
        for n, _ in game.markers[r]:
            if n in hooked:
                held.append(game.ruleset.markers[n])
                if n in game.copies:
                    held.append(game.ruleset.copy_of(n, game.copies[n]))
        held += [game.ruleset.powers[n] for n in game.bound_powers.get(r, ())]
        for c in held:
            if id(c) not in seen:
                seen.add(id(c))
                out.append(c)
    return out


def player_races(game: Game, seat: int) -> list[RaceInst]:
    p = game.players[seat]
    return ([p.active] if p.active else []) + list(p.declined)
