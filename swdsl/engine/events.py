"""Events: running the triggers that content hangs on the engine's hook points."""

from __future__ import annotations

from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import Ctx

MAX_TRIGGER_DEPTH = 8


def fire(game: Game, event: str, inst: RaceInst | None, **bindings) -> None:
    """Run the triggers of `event`: edition rules, then the race and its power,
    then markers with rules the race holds, then powers bound to its regions.
    A chain deeper than MAX_TRIGGER_DEPTH stops (a pack cannot loop forever)."""
    triggers = game.ruleset.rule_triggers.get(event, ())
    if inst is not None:
        own = inst.triggers.get(event)
        if own:
            triggers = triggers + own
        if game.ruleset.hooked_markers or game.bound_powers:
            for c in held_content(game, inst):
                triggers = triggers + c.triggers.get(event, ())
    if not triggers or game.trigger_depth >= MAX_TRIGGER_DEPTH:
        return
    game.trigger_depth += 1
    try:
        ctx = Ctx(game, inst, bindings)
        for t in triggers:
            if inst is not None and t.scope != "always" and (t.scope == "declined") != inst.declined:
                continue
            if t.when is None or t.when(ctx):
                t.run(ctx)
    finally:
        game.trigger_depth -= 1


def held_content(game: Game, inst: RaceInst) -> list:
    """Relics and places with rules in the race's regions, then the powers
    bound to its regions: each declaration once."""
    hooked = game.ruleset.hooked_markers
    if not hooked and not game.bound_powers:
        return []
    out, seen = [], set()
    for r in sorted(inst.regions):
        held = [game.ruleset.markers[n] for n, _ in game.markers[r] if n in hooked]
        held += [game.ruleset.powers[n] for n in game.bound_powers.get(r, ())]
        for c in held:
            if id(c) not in seen:
                seen.add(id(c))
                out.append(c)
    return out


def player_races(game: Game, seat: int) -> list[RaceInst]:
    p = game.players[seat]
    return ([p.active] if p.active else []) + list(p.declined)
