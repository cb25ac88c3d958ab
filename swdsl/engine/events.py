"""Events: the hook points of the turn, each an entry, and running the triggers
that content hangs on them."""

from __future__ import annotations

from typing import Final

from swdsl.engine.entries import Ctx, Event
from swdsl.engine.errors import ContentError
from swdsl.engine.holdings import held_triggers, may_hold
from swdsl.engine.hooks import Trigger
from swdsl.engine.state import Decision, Game, RaceInst

_REGION: Final = {"target": "region"}

EVENTS: Final = {e.name: e for e in [
    Event("round.start", "a round begins, before its first player's turn (round 1 included); an edition rule "
          "hears it once per race on the table, as that race", audience="every race on the table", everyone=True),
    Event("turn.start", "a player's turn begins, after their active race readied its troops",
          audience="the player's races"),
    Event("combo.picked", "the acting race was just taken from the market, its tokens in hand", declined=False),
    Event("combo.skipped", "the race just picked skipped the combo in market position `row` (from 1 at the top), "
          "putting `coins` on it; once per combo skipped, after the payment, before `combo.picked`",
          {"row": "int", "coins": "int"}, declined=False),
    Event("region.attacked", "another race is about to take `target` from this race or make its tokens leave it "
          "(a conquest, `rout`, `discard`/`destroy … from`, `move … tokens from`, `swap`); fires for the "
          "defender before anything moves — for a final conquest, before the die: the attempt is an attack, "
          "whatever the roll", {"target": "region", "attacker": "race"},
          audience="the defending race"),
    Event("conquest.done", "the acting race took `target` (from `defender`, if anyone held it, who had "
          "`defenders` tokens there, pieces that count as tokens included, and lost `losses` of them to its "
          "tray); `rout … as conquest` fires it too, `target` left empty",
          {"target": "region", "defender": "race", "defenders": "int", "losses": "int"}),
    Event("region.lost", "this race lost `target` to `attacker`; fires for the defender",
          {"target": "region", "attacker": "race"}, audience="the defending race"),
    Event("tokens.lost", "this race made `defender` lose tokens in `target` (a conquest, `rout`, `discard`/"
          "`destroy … from`); `losses` is how many really left play (to the tray or out of the game, after "
          "`loss.discard`; 0 when all withdraw); `attacker` is this race, for `by anyone` listeners",
          {"target": "region", "attacker": "race", "defender": "race", "losses": "int"},
          audience="the race that caused the loss"),
    Event("region.entered", "this race came to hold `target`, which it did not hold: a conquest, `swap`, `add … "
          "to` an empty region, the `conquer` effect", _REGION, audience="the race entering"),
    Event("region.abandoned", "this race stopped holding `target` without losing it to another race: `abandon`, "
          "or emptied by a rule (`vacate`, `discard`/`destroy`/`move … tokens from`, `set aside`, the region "
          "minimum, `redeploy.vacate`, decline)", _REGION, audience="the race leaving"),
    Event("marker.drawn", "a hidden marker was just drawn into `target` (`draw`) or turned face up there "
          "(`reveal`); the rules of the markers there work at once", _REGION),
    Event("conquests.end", "the acting race's conquests are over (by choice or after the final roll)"),
    Event("redeploy.start", "the acting race begins redeploying; tokens from conquests are in place"),
    Event("redeploy.end", "the acting race finished redeploying"),
    Event("decline", "this race is going into decline (fires before it flips)", audience="the declining race",
          declined=False),
    Event("turn.end", "scoring: after the base 1 coin per region, bonuses are paid here",
          audience="the player's races"),
    Event("game.end", "the last turn is over, before the final count: end-of-game bonuses and penalties "
          "(`gain`, `pay`); an edition rule hears it once per race on the table, as that race",
          audience="every race on the table", everyone=True),
]}

MAX_TRIGGER_DEPTH: Final = 8


def hears(game: Game, event: str) -> bool:
    """Whether some content has a trigger of `event` (Index.heard_events). The busiest call sites ask it
    before firing: most events of a pack go unheard, and the bindings of a call are made before it runs."""
    return event in game.index.heard_events


def fire(game: Game, event: str, inst: RaceInst | None, **bindings) -> None:
    """Run the triggers of `event`: edition rules, then the race and its power,
    then the content it holds (relics, places, bound powers); then the `by ours`
    triggers of the player's other races and the `by anyone` triggers of every
    other race. A chain deeper than MAX_TRIGGER_DEPTH stops (a pack cannot loop
    forever)."""
    ix = game.index
    if event not in ix.heard_events:
        return
    triggers: tuple[Trigger, ...] = ix.rule_triggers.get(event, ())
    if inst is not None:
        own = _own_triggers(game, inst, event) if ix.held_events or game.bound_powers else inst.triggers.get(event)
        if own:
            triggers = triggers + own if triggers else own
    listeners = _listeners(game, event, inst) if event in ix.wide_events else ()
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
    budget = game.index.trigger_budget
    if game.turn.runs > budget:
        raise ContentError(t.where, "SW501", f"more than {budget} triggers ran in one action (this one is "
                           f"{t.event} of {t.source})", "triggers that set each other off loop; raise "
                           "`budgets: trigger_runs` in pack.yaml only if this much is meant")


def _own_triggers(game: Game, inst: RaceInst, event: str) -> tuple[Trigger, ...]:
    triggers = inst.triggers.get(event, ())
    ix = game.index
    if may_hold(game, event, ix.held_events, ix.power_events):
        held = held_triggers(game, inst, event)
        if held:
            triggers = triggers + held
    return triggers


def _listeners(game: Game, event: str, inst: RaceInst | None) -> list[tuple[RaceInst, Trigger]]:
    """(race, trigger) for the other races that hear the event happen to `inst`:
    `by ours` triggers of the player's other races, `by anyone` triggers of every race."""
    if inst is None:
        return []
    out: list[tuple[RaceInst, Trigger]] = []
    ix = game.index
    hearers = None if may_hold(game, event, ix.held_events, ix.power_events) else ix.wide_hearers.get(event, ())
    if hearers is not None and not _on_table(game, hearers):
        return out
    for other in table_races(game):
        if other is inst or hearers is not None and not any(other.race is c or other.power is c for c in hearers):
            continue
        heard = _own_triggers(game, other, event)
        if heard:
            ours = inst.player is not None and other.player == inst.player
            out.extend((other, t) for t in heard
                       if (t.audience == "anyone" or t.audience == "ours" and ours) and other.scope_ok(t.scope))
    return out


def _on_table(game: Game, hearers: tuple) -> bool:
    """Whether some race on the table is one of `hearers` or has one as its power (most events of a
    game, none is: the table is not put in order for nothing)."""
    for inst in game.races.values():
        for c in hearers:
            if inst.race is c or inst.power is c:
                return True
    return False


def player_races(game: Game, seat: int) -> list[RaceInst]:
    p = game.players[seat]
    races = [p.active] if p.active is not None else []
    races.extend(p.declined)
    return races


def table_races(game: Game) -> list[RaceInst]:
    """Every race on the table: the players' in turn order (each player's active race
    first), then the races of nobody."""
    seated = [inst for seat in range(len(game.players)) for inst in player_races(game, seat)]
    nobody = [i for i in game.races.values() if i.player is None]  # no generator: asked at many events
    if len(nobody) > 1:
        nobody.sort(key=_race_id)
    return seated + nobody


def _race_id(inst: RaceInst) -> int:
    return inst.id


def fire_each(game: Game, event: str) -> None:
    """Fire `event` for every race on the table, in turn order (`round.start`, `game.end`)."""
    if event not in game.index.heard_events:
        return
    for inst in table_races(game):
        if inst.id in game.races:
            fire(game, event, inst)
