"""The universal Small World turn (core-rules.md §2–§12) and its hook points.

The turn is a queue of steps; `advance` runs automatic steps until the next
player decision. Conquest, losses, decline, scoring and the market live here;
moving single pieces lives in pieces.py and running triggers in events.py.

Every race of the player for which the stat `race.plays` holds plays a turn of
its own: conquests, then redeployment. By default that is the active race
only; a declined race that plays does so first (R66).
"""

from __future__ import annotations

from swdsl.engine import caches, chance, market, undo
from swdsl.engine.abilities import ability_actions, decision_actions
from swdsl.engine.entries import Ctx
from swdsl.engine.events import fire, fire_each, hears, player_races, run_trigger
from swdsl.engine.holdings import any_attached, defenders, held_content, laid, taken
from swdsl.engine.pieces import (
    attacked,
    enter,
    gain,
    losses,
    markers_leave_with,
    move_coins,
    new_race,
    offered_powers,
    pay,
    refill_powers,
    remove_markers,
    remove_player_markers,
    remove_race,
    settle,
    take_from_tray,
    to_tray,
    vacate,
)
from swdsl.engine.state import Conquest, Game, RaceInst, TurnState
from swdsl.engine.stats import local_values, modified, region_minimum, value

# ---- conquest ----------------------------------------------------------------------


def conquer(game: Game, inst: RaceInst, region: int, tokens: int, *, from_tray: bool = False,
            destroy: bool = False, spare: bool = False, warned: bool = False) -> None:
    """`inst` takes `region` with `tokens` of its own (from hand or tray); the
    defender hears `region.attacked` before anything moves (unless `warned`: it heard it already)."""
    defender = game.occupant[region] if warned else attacked(game, region, inst)
    if defender is inst:
        return
    tally = undo.Tally(game, region) if game.index.cancels else None  # only if some rule may take it back
    defending = defenders(game, region)
    game.turn.log.append(Conquest(region, inst.id, defender.id if defender else None,
                                  defender.player if defender else None, game.tokens[region] > 0,
                                  bool(defender and not defender.declined and defender.player is not None)))
    lost = 0
    if defender is not None:
        lost = lose_region(game, defender, region, inst, destroy, spare, tally)
    if from_tray:
        tokens = take_from_tray(game, inst, tokens)
    else:
        tokens = min(tokens, inst.hand)
        inst.hand -= tokens
    if tokens <= 0:
        return
    enter(game, inst, region, tokens)
    game.turn.conquered = True
    game.turn.undo = tally and tally.loss(inst)  # `cancel conquest` takes it back while the conquest's triggers run
    try:
        if hears(game, "conquest.done"):
            fire(game, "conquest.done", inst, target=region, defender=defender, defenders=defending, losses=lost)
    finally:
        game.turn.undo = None


def lose_region(game: Game, defender: RaceInst, region: int, attacker: RaceInst, destroy: bool,
                spare: bool = False, tally: undo.Tally | None = None) -> int:
    """Losses and withdrawal (core-rules §6): an active race discards 1 token, a
    declined one all of them, unless its rules say otherwise (loss.discard) or
    the conquest destroys or spares the defenders; an ownerless race, with
    nobody to redeploy, always loses all. The attacker then hears `tokens.lost`.
    `tally` counts the loss's own steps, not its triggers' (cancel conquest).
    Returns how many tokens went to the tray."""
    if tally is not None:
        tally.open()
    n = game.tokens[region]
    if destroy:
        discard = n
    elif spare and defender.player is not None:
        discard = 0
    else:
        discard = losses(game, defender, region, attacker, n, conquest=True)
    to_tray(game, defender, discard)
    defender.pending += n - discard
    game.tokens[region] = 0
    game.occupant[region] = None
    defender.release(region)
    defender.lost.add(region)
    if tally is not None:
        tally.close()
    # fired while the region's markers are still there, so its triggers can test them
    if hears(game, "region.lost"):
        fire(game, "region.lost", defender, target=region, attacker=attacker)
    if tally is not None:
        tally.open()
    marks = game.markers[region]
    if marks:
        defs = game.ruleset.markers
        for i in range(len(marks) - 1, -1, -1):
            name, owner, _ = marks[i]
            if owner == defender.id and defs[name].returns:
                game.turn.returning.append(marks.pop(i))
                taken(game, name, region)
        markers_leave_with(game, region, defender)
    if defender.declined and not defender.regions and defender.player is not None:
        remove_race(game, defender)
    if tally is not None:
        tally.close()
    if hears(game, "tokens.lost"):
        fire(game, "tokens.lost", attacker, target=region, attacker=attacker, defender=defender, losses=discard)
    return discard


def rout(game: Game, inst: RaceInst, region: int, as_conquest: bool = False) -> None:
    """`inst` drives the race out of `region` as a conquest would (`region.attacked`,
    losses, withdrawal, `region.lost`, the turn's conquest log) without entering
    it; `as_conquest`, it also fires `conquest.done`, for every bonus rule."""
    defender = attacked(game, region, inst)
    if defender is None or defender is inst:
        return
    defenders = game.tokens[region]
    game.turn.log.append(Conquest(region, inst.id, defender.id, defender.player, defenders > 0,
                                  bool(not defender.declined and defender.player is not None)))
    lost = lose_region(game, defender, region, inst, False)
    if as_conquest:
        fire(game, "conquest.done", inst, target=region, defender=defender, defenders=defenders, losses=lost)


def final_shortfall(game: Game) -> int:
    """The most tokens a final conquest may lack: the die's largest face (R9)."""
    return max(game.ruleset.die)


def final_attempt(game: Game, inst: RaceInst, region: int, cost: int) -> None:
    """R9: target named, one roll, all remaining tokens go in on success. The defender hears
    `region.attacked` before the roll: the attempt is an attack, whatever the die says (R19)."""
    if attacked(game, region, inst) is not inst and inst.hand + chance.roll(game) >= cost:
        conquer(game, inst, region, inst.hand, warned=True)
    end_conquests(game)


# ---- decline ---------------------------------------------------------------------


def decline(game: Game, inst: RaceInst) -> None:
    """core-rules §11; the number kept per region, the exemption from the one
    declined slot and the power kept in decline all come from the rules."""
    if game.turn.phase == "conquer" and inst is game.turn.acting:
        unready_troops(game, inst)
    fire(game, "decline", inst)
    p = game.players[inst.player]  # type: ignore[index]
    keeps = {r: max(0, min(game.tokens[r], value(game, "decline.keep", inst, target=r)))
             for r in sorted(inst.regions)}
    inst.declined = True
    inst.fold_cache.clear()
    defs = game.ruleset.markers
    for r in range(len(game.markers)):
        if game.markers[r]:
            remove_markers(game, r, lambda n, o: o != inst.id or defs[n].survives_decline)
    for other in game.players:
        if other.markers:
            remove_player_markers(game, other.seat, lambda n, o: o != inst.id or defs[n].survives_decline)
    for r, keep in keeps.items():
        if game.occupant[r] is not inst:
            continue
        to_tray(game, inst, game.tokens[r] - keep)
        game.tokens[r] = keep
        if keep == 0:
            vacate(game, inst, r)
    to_tray(game, inst, inst.hand + inst.reserve)  # withdrawn tokens (`withdraw`) are placed again
    inst.hand = inst.reserve = 0
    if inst.power is not None and not inst.power.acts_in_decline and not inst.power.survives_decline:
        game.market.discard.append(inst.power.name)
        inst.power = None
        inst.rebuild_hooks()
    if value(game, "decline.slot", inst):
        for old in list(p.declined):
            if value(game, "decline.slot", old):
                remove_race(game, old)
    p.active = None
    p.declined.append(inst)
    game.turn.declined = True
    if not inst.regions:
        remove_race(game, inst)


# ---- the turn --------------------------------------------------------------------


def ready_troops(game: Game, inst: RaceInst) -> None:
    """core-rules §10: all but the minimum of each region into hand, set-aside
    tokens too (remembered: a race that declines instead puts them back)."""
    readied = game.turn.readied
    for r in sorted(inst.regions):
        extra = game.tokens[r] - region_minimum(game, inst, r)
        if extra > 0:
            game.tokens[r] -= extra
            inst.hand += extra
            readied[r] = extra
    inst.hand += inst.reserve
    inst.reserve = 0


def unready_troops(game: Game, inst: RaceInst) -> None:
    """Going into decline is instead of expanding (core-rules §2): the tokens
    readied this turn go back to the regions they came from."""
    for r, n in game.turn.readied.items():
        if r in inst.regions and inst.hand >= n:
            game.tokens[r] += n
            inst.hand -= n
    game.turn.readied.clear()


def begin_turn(game: Game) -> None:
    seat = game.current
    p = game.players[seat]
    game.turn = TurnState(actor=seat)
    for inst in game.races.values():
        inst.turn_tags.clear()
    ix = game.index
    held_vars = ix.held_vars and any_attached(game)
    for inst in player_races(game, seat):
        for name, init in inst.turn_vars:
            inst.vars[name] = init
        for c in held_content(game, inst) if held_vars else ():
            for name, (init, reset) in c.variables.items():
                if reset == "turn":
                    inst.vars[name] = init
    for name, init, every_turn in ix.rule_vars:
        if every_turn or name not in game.vars:
            game.vars[name] = init
    for in_game, name, init in ix.turn_shared:
        (game.vars if in_game else p.vars)[name] = init
    if seat == 0:
        fire_each(game, "round.start")
    if p.active is not None:
        ready_troops(game, p.active)
        p.active.turns += 1
    game.turn.queue = turn_steps(game, seat)
    advance(game)


def turn_steps(game: Game, seat: int) -> list[tuple[str, RaceInst | None]]:
    """A turn's steps, from its start: the start, the declined races that play, the main step and the rest."""
    plays: list[tuple[str, RaceInst | None]] = [
        ("play", inst) for inst in game.players[seat].declined if value(game, "race.plays", inst)]
    return [("start", None), *plays, ("main", None), ("defend", None), ("scoring", None), ("score", None),
            ("after", None), ("next", None)]


def start_of_turn(game: Game) -> None:
    """The `turn.start` triggers of the player's races (after any `during start` ability); then the
    turn's start is over."""
    for inst in player_races(game, game.current):
        fire(game, "turn.start", inst)
        inst.lost.clear()
    game.turn.starting = False


def _offers(game: Game, inst: RaceInst | None, phase: str) -> bool:
    """Does `inst` have an ability of `phase` it could use now? (Only asked when some content has one.)"""
    if inst is None or phase not in game.index.ability_phases:
        return False
    return bool(ability_actions(game, inst, phase))


def advance(game: Game) -> None:
    """Run automatic steps until a player must decide (or the game is over)."""
    turn = game.turn
    while turn.queue and not game.over:
        if turn.decisions and ask(game, "queue"):
            return
        step, inst = turn.queue.pop(0)
        seat = game.current
        p = game.players[seat]
        turn.actor = seat
        if step == "start":
            turn.starting = True
            if _offers(game, p.active, "start"):
                turn.phase, turn.acting = "start", p.active
                return
            start_of_turn(game)
            continue
        if step == "scoring":
            inst = p.active or (p.declined[-1] if turn.declined and p.declined else None)
            if _offers(game, inst, "scoring"):
                turn.phase, turn.acting = "scoring", inst
                return
            continue
        if step in ("play", "again"):  # a declined race's own turn, or a second conquest step
            if inst is None or inst.id not in game.races:
                continue
            ready_troops(game, inst)
            start_conquests(game, inst)
            return
        if step == "main":
            if p.active is None:
                if any(game.may_pick(seat, column) for column, _, _, _ in game.visible_combos()):
                    turn.phase, turn.acting = "pick", None
                    return
                continue  # R10: nothing on offer (that this seat may take), no race this turn
            if not value(game, "race.plays", p.active):
                continue
            start_conquests(game, p.active)
            return
        if step == "defend":
            if start_defence(game):
                turn.queue.insert(0, ("defend", None))
                return
            continue
        if step == "score":
            score(game, seat)
            continue
        if step == "after":
            a = p.active
            if a is not None and not turn.declined and value(game, "decline.after_scoring", a):
                turn.phase, turn.acting = "after", a
                return
            continue
        if step == "next":
            next_turn(game)
            return


# ---- decisions: triggers that ask their player ------------------------------------------


def ask(game: Game, resume) -> bool:
    """Pause the turn on the first waiting decision that has a choice to make (a race
    gone, or nothing to choose from, drops it); `resume` is what follows once every
    decision is made: "queue" (the turn's next step) or (phase, acting, actor)."""
    t = game.turn
    while t.decisions:
        d = t.decisions[0]
        if d.race.id in game.races and d.race.player is not None and decision_actions(game):
            if t.resume is None:  # the first of a series: what follows them all
                t.resume = resume
            t.phase, t.acting, t.actor = "choose", d.race, d.race.player
            return True
        t.decisions.pop(0)
    return False


def decide(game: Game, choices: tuple | None) -> None:
    """The player's choice for the first waiting decision (None: they pass); its
    effects run, then the next decision is asked or the turn resumes."""
    t = game.turn
    d = t.decisions.pop(0)
    if choices is not None:
        run_trigger(game, d.trigger, Ctx(game, d.race, {**d.bindings,
                                                         **{c.name: v for c, v in zip(d.trigger.choose, choices)}}))
    if ask(game, None):
        return
    resume, t.resume = t.resume, None
    if resume == "queue":
        advance(game)
    else:
        t.phase, t.acting, t.actor = resume


def start_conquests(game: Game, inst: RaceInst) -> None:
    turn = game.turn
    turn.phase, turn.acting = "conquer", inst
    turn.conquered = turn.abandoned = False


def end_conquests(game: Game) -> None:
    if game.over:  # a rule ended the game during the last conquest
        return
    inst = game.turn.acting
    assert inst is not None
    fire(game, "conquests.end", inst)
    if modified(game, "redeploy.vacate", inst):  # which regions to empty is asked before any is emptied
        regions = inst.in_order()
        leaving = local_values(game, "redeploy.vacate", inst, regions) or [
            value(game, "redeploy.vacate", inst, target=r) for r in regions]
        for r, leaves in zip(regions, leaving):
            if leaves and game.occupant[r] is inst:
                vacate(game, inst, r)
    fire(game, "redeploy.start", inst)
    game.turn.gathered.clear()
    game.turn.placed.clear()
    game.turn.phase = "redeploy"


def end_redeploy(game: Game) -> None:
    if game.over:
        return
    inst = game.turn.acting
    assert inst is not None
    join_short_regions(game, inst)
    fire(game, "redeploy.end", inst)
    advance(game)


def join_short_regions(game: Game, inst: RaceInst) -> None:
    """A region left with fewer tokens than its minimum sends them to the race's
    most crowded other region (docs/rulings.md D5)."""
    if modified(game, "region.minimum", inst):
        for r in sorted(inst.regions):
            settle(game, inst, r)


def start_defence(game: Game) -> bool:
    """Defenders redeploy withdrawn tokens at the end of the active turn.
    Returns True if a defender must now choose where."""
    turn = game.turn
    while turn.returning:
        piece = turn.returning.pop(0)
        name, owner, _ = piece
        inst = game.races.get(owner) if owner is not None else None
        if inst is not None and inst.regions:
            r = min(sorted(inst.regions), key=lambda x: game.tokens[x])
            game.markers[r].append(piece)
            laid(game, name, r)
        elif name in game.pools:
            game.pools[name] += 1
    for inst in game.races.values():  # most turns: nobody to redeploy (a loop: asked at every turn's end)
        if inst.pending > 0:
            break
    else:
        return False
    n = len(game.players)
    for k in range(1, n + 1):
        seat = (game.current + k) % n
        for inst in player_races(game, seat):
            if inst.pending <= 0:
                continue
            if len(inst.regions) > 1:
                turn.phase, turn.acting, turn.actor = "defend", inst, seat
                return True
            if inst.regions:
                r = next(iter(inst.regions))
                game.tokens[r] += inst.pending
            elif inst.declined:
                to_tray(game, inst, inst.pending)
            else:
                inst.hand += inst.pending  # re-enters next turn as a first conquest
            inst.pending = 0
    return False


def score(game: Game, seat: int) -> None:
    """core-rules §9: 1 coin per region of every race of the player (the
    score.region stat), then turn.end bonuses."""
    total = 0
    game.cause = "regions"
    races = player_races(game, seat)
    for inst in races:
        total += region_coins(game, inst) if modified(game, "score.region", inst) else len(inst.regions)
    gain(game, seat, total)
    for inst in races:
        if inst.id in game.races:
            fire(game, "turn.end", inst)


@caches.reads
def region_coins(game: Game, inst: RaceInst) -> int:
    """What `inst`'s regions score (score.region), read in one scope: the parts of its rules that read
    no region are read once for all of them."""
    regions = inst.in_order()
    found = local_values(game, "score.region", inst, regions)
    return sum(value(game, "score.region", inst, target=r) for r in regions) if found is None else sum(found)


def next_turn(game: Game) -> None:
    game.current = (game.current + 1) % len(game.players)
    if game.current == 0:
        game.round += 1
        if game.round > game.setup.rounds:
            game.round = game.setup.rounds
            fire_each(game, "game.end")
            finish(game)
            return
    begin_turn(game)


def finish(game: Game, winner: int | None = None) -> None:
    """The game ends: after the last round, or at once when a rule gives `winner` the game."""
    if winner is not None and game.won_by is None:
        game.won_by = winner
    game.turn.phase, game.turn.acting, game.turn.queue = "over", None, []


def pick(game: Game, offer: int) -> None:
    """core-rules §3: the combo in row k costs k coins, one on each combo above
    it (their `combo.fee`), or to the bank; banner + badge tokens; the taker
    collects what lies on the combo; its column and the power column slide up."""
    seat = game.current
    m = game.market
    column, row, _, _ = game.visible_combos()[offer]
    game.cause = "the market"
    to_bank = game.ruleset.market.payment == "bank"
    fees = [market.fee(game, column, i) for i in range(row)]
    if to_bank:
        pay(game, seat, sum(fees))
    else:
        for i, fee in enumerate(fees):
            move_coins(game, seat, -fee)
            m.coins[column][i] += fee
    before = offered_powers(game)
    race = game.ruleset.races[m.columns[column].pop(row)]
    power = game.ruleset.powers[m.powers.pop(row)]
    if len(m.powers) < game.ruleset.market.visible:
        refill_powers(game)
    game.turn.revealed = [p for p in offered_powers(game) if p not in before]
    inst = new_race(game, race, power, seat)
    game.players[seat].active = inst
    inst.hand = take_from_tray(game, inst, value(game, "tokens.granted", inst))
    market.collect(game, column, row, inst)
    inst.turns = 1
    game.turn.picked = True
    if hears(game, "combo.skipped"):
        for i, fee in enumerate(fees):
            fire(game, "combo.skipped", inst, row=i + 1, coins=0 if to_bank else fee)
    fire(game, "combo.picked", inst)
    start_conquests(game, inst)
