"""Events: the hook points of the turn, each an entry, and running the triggers
that content hangs on them."""

from __future__ import annotations

from swdsl.engine.content import Trigger
from swdsl.engine.entries import Ctx, Event
from swdsl.engine.errors import ContentError
from swdsl.engine.holdings import any_attached, held_content
from swdsl.engine.state import Decision, Game, RaceInst

EVENTS = {e.name: e for e in [
    Event("turn.start", "a player's turn begins, after their active race readied its troops",
          audience="the player's races"),
    Event("combo.picked", "the acting race was just taken from the market, its tokens in hand"),
    Event("conquest.done", "the acting race took `target` (from `defender`, if anyone held it, who had "
          "`defenders` tokens there, pieces that count as tokens included)",
          {"target": "region", "defender": "race", "defenders": "int"}),
    Event("region.lost", "this race lost `target` to `attacker`; fires for the defender",
          {"target": "region", "attacker": "race"}, audience="the defending race"),
    Event("marker.drawn", "a hidden marker was just drawn into `target` (`draw`) or turned face up there "
          "(`reveal`); the rules of the markers there work at once", {"target": "region"}),
    Event("conquests.end", "the acting race's conquests are over (by choice or after the final roll)"),
    Event("redeploy.start", "the acting race begins redeploying; tokens from conquests are in place"),
    Event("redeploy.end", "the acting race finished redeploying"),
    Event("decline", "this race is going into decline (fires before it flips)", audience="the declining race"),
    Event("turn.end", "scoring: after the base 1 coin per region, bonuses are paid here",
          audience="the player's races"),
]}

MAX_TRIGGER_DEPTH = 8


def fire(game: Game, event: str, inst: RaceInst | None, **bindings) -> None:
    """Run the triggers of `event`: edition rules, then the race and its power,
    then the content it holds (relics, places, bound powers); then the `by ours`
    triggers of the player's other races. A chain deeper than MAX_TRIGGER_DEPTH
    stops (a pack cannot loop forever)."""
    triggers = game.ruleset.rule_triggers.get(event, ())
    if inst is not None:
        triggers = triggers + _own_triggers(game, inst, event)
    listeners = _listeners(game, event, inst) if event in game.ruleset.wide_events else ()
    turn = game.turn
    if not (triggers or listeners) or turn.depth >= MAX_TRIGGER_DEPTH:
        return
    turn.depth += 1
    try:
        ctx = Ctx(game, inst, bindings)
        for t in triggers:
            if inst is not None and not inst.scope_ok(t.scope):
                continue
            if t.when is None or t.when(ctx):
                _run(game, t, ctx)
        for other, t in listeners:
            octx = Ctx(game, other, bindings)
            if t.when is None or t.when(octx):
                _run(game, t, octx)
    finally:
        turn.depth -= 1


def _run(game: Game, t: Trigger, ctx: Ctx) -> None:
    """Run a trigger; one that chooses waits for its race's player instead (turn.ask)."""
    if t.choose:
        if ctx.me is not None and ctx.me.player is not None:
            game.turn.decisions.append(Decision(t, ctx.me, dict(ctx.b)))
        return
    run_trigger(game, t, ctx)


def run_trigger(game: Game, t: Trigger, ctx: Ctx) -> None:
    _count(game, t)
    game.cause = t.source
    t.run(ctx)


def _count(game: Game, t: Trigger) -> None:
    """One more trigger run in this action; past the budget the game stops, naming the trigger."""
    game.turn.runs += 1
    budget = game.ruleset.budgets.trigger_runs
    if game.turn.runs > budget:
        raise ContentError(t.where, "SW501", f"more than {budget} triggers ran in one action (this one is "
                           f"{t.event} of {t.source})", "triggers that set each other off loop; raise "
                           "`budgets: trigger_runs` in pack.yaml only if this much is meant")


def _own_triggers(game: Game, inst: RaceInst, event: str) -> tuple:
    triggers = inst.triggers.get(event, ())
    if any_attached(game):
        for c in held_content(game, inst):
            triggers = triggers + c.triggers.get(event, ())
    return triggers


def _listeners(game: Game, event: str, inst: RaceInst | None) -> list:
    """(race, trigger) for the `by ours` triggers of the player's other races."""
    if inst is None or inst.player is None:
        return []
    return [(other, t) for other in player_races(game, inst.player) if other is not inst
            for t in _own_triggers(game, other, event) if t.audience == "ours" and other.scope_ok(t.scope)]


def player_races(game: Game, seat: int) -> list[RaceInst]:
    p = game.players[seat]
    return ([p.active] if p.active else []) + list(p.declined)
