"""The universal Small World turn (core-rules.md §2–§12) and its hook points.

The turn is a queue of steps; `advance` runs automatic steps until the next
player decision. Every change of state a rule can cause goes through the
functions here (conquer, lose a region, decline, place a marker…), which fire
the events of engine/vocabulary.py.
"""

from __future__ import annotations

from swdsl.engine.state import Conquest, Game, RaceInst
from swdsl.engine.stats import Ctx, fold

MAX_TRIGGER_DEPTH = 8


# ---- events ---------------------------------------------------------------------


def fire(game: Game, event: str, inst: RaceInst | None, **bindings) -> None:
    """Run the triggers of `event`: edition rules, then the race and its power,
    then markers with rules the race holds, then powers bound to its regions.
    A chain deeper than MAX_TRIGGER_DEPTH stops (a pack cannot loop forever)."""
    triggers = list(game.ruleset.rule_triggers.get(event, ()))
    if inst is not None:
        triggers.extend(inst.triggers.get(event, ()))
        if game.ruleset.hooked_markers:
            for r in sorted(inst.regions):
                for name, _ in game.markers[r]:
                    if name in game.ruleset.hooked_markers:
                        triggers.extend(game.ruleset.markers[name].triggers.get(event, ()))
        if game.bound_powers:
            for r in sorted(inst.regions):
                for name in game.bound_powers.get(r, ()):
                    triggers.extend(game.ruleset.powers[name].triggers.get(event, ()))
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


# ---- coins ----------------------------------------------------------------------


def gain(game: Game, seat: int | None, amount: int) -> None:
    if seat is None or amount <= 0:
        return
    amount = min(amount, game.bank)
    game.bank -= amount
    game.players[seat].coins += amount


def pay(game: Game, seat: int | None, amount: int, to: int | None = None) -> None:
    if seat is None or amount <= 0:
        return
    p = game.players[seat]
    amount = min(amount, p.coins)
    p.coins -= amount
    if to is None:
        game.bank += amount
    else:
        game.players[to].coins += amount


# ---- tokens and markers ------------------------------------------------------------


def take_from_tray(game: Game, inst: RaceInst, wanted: int) -> int:
    got = max(0, min(wanted, game.tray[inst.race.name]))
    game.tray[inst.race.name] -= got
    return got


def to_tray(game: Game, inst: RaceInst, n: int) -> None:
    game.tray[inst.race.name] += n


def place_marker(game: Game, name: str, region: int, owner: RaceInst | None) -> bool:
    left = game.pools.get(name)
    if left is not None:
        if left <= 0:
            return False
        game.pools[name] = left - 1
    game.markers[region].append((name, owner.id if owner else None))
    return True


def remove_marker(game: Game, region: int, index: int) -> None:
    name, _ = game.markers[region].pop(index)
    if name in game.pools:
        game.pools[name] += 1


def remove_markers(game: Game, region: int, keep) -> None:
    """Remove every marker of `region` for which keep(name, owner) is false."""
    marks = game.markers[region]
    for i in range(len(marks) - 1, -1, -1):
        if not keep(*marks[i]):
            remove_marker(game, region, i)


def _markers_leave_with(game: Game, region: int, inst: RaceInst) -> None:
    """R6.4: markers bound to a race leave when the region stops holding it."""
    if game.markers[region]:
        defs = game.ruleset.markers
        remove_markers(game, region, lambda n, o: not (defs[n].bound and o == inst.id))


def vacate(game: Game, inst: RaceInst, region: int) -> int:
    """The race leaves `region`, taking its tokens back into hand."""
    n = game.tokens[region]
    game.tokens[region] = 0
    game.occupant[region] = None
    inst.regions.discard(region)
    _markers_leave_with(game, region, inst)
    inst.hand += n
    return n


def set_aside(game: Game, inst: RaceInst, n: int) -> None:
    """Take n tokens off the map, most crowded regions first; a region left
    empty is abandoned (R65). They come back when troops are readied."""
    while n > 0 and inst.regions:
        r = max(sorted(inst.regions), key=lambda x: game.tokens[x])
        if game.tokens[r] > 1:
            game.tokens[r] -= 1
        else:
            vacate(game, inst, r)
            inst.hand -= 1
        inst.reserve += 1
        n -= 1
    take = min(n, inst.hand)
    inst.hand -= take
    inst.reserve += take


def remove_tokens(game: Game, region: int, n: int) -> int:
    """n tokens of whichever race holds `region` go back to its tray; an emptied
    region is left, and a declined race with no region left leaves the table."""
    inst = game.occupant[region]
    if inst is None:
        return 0
    k = max(0, min(n, game.tokens[region]))
    game.tokens[region] -= k
    to_tray(game, inst, k)
    if game.tokens[region] == 0:
        vacate(game, inst, region)
        if inst.declined and not inst.regions and inst.player is not None:
            remove_race(game, inst)
    return k


def shift_tokens(game: Game, src: int, dst: int, n: int) -> int:
    """Up to n tokens of the race holding `src` move into `dst`, which it must
    hold too; an emptied `src` is left."""
    inst = game.occupant[src]
    if inst is None or src == dst or game.occupant[dst] is not inst:
        return 0
    k = max(0, min(n, game.tokens[src]))
    game.tokens[src] -= k
    game.tokens[dst] += k
    if game.tokens[src] == 0:
        vacate(game, inst, src)
    return k


def swap_regions(game: Game, a: int, b: int) -> None:
    """Everything in `a` and `b` changes place, race tokens and markers, except
    places and `fixed` markers; whoever holds the tokens holds the region."""
    if a == b:
        return
    ia, ib = game.occupant[a], game.occupant[b]
    for inst, r in ((ia, a), (ib, b)):
        if inst is not None:
            inst.regions.discard(r)
    game.occupant[a], game.occupant[b] = ib, ia
    game.tokens[a], game.tokens[b] = game.tokens[b], game.tokens[a]
    for inst, r in ((ib, a), (ia, b)):
        if inst is not None:
            inst.regions.add(r)
    defs = game.ruleset.markers
    ma, mb = game.markers[a], game.markers[b]
    game.markers[a] = [m for m in ma if defs[m[0]].fixed] + [m for m in mb if not defs[m[0]].fixed]
    game.markers[b] = [m for m in mb if defs[m[0]].fixed] + [m for m in ma if not defs[m[0]].fixed]


def draw_marker(game: Game, pool: str, region: int, inst: RaceInst | None) -> str | None:
    """The top marker of a hidden pool (shuffled at setup) goes face up into
    `region`; its rules work at once (`marker.drawn`)."""
    left = game.hidden.get(pool)
    if not left:
        return None
    name = left.pop()
    game.markers[region].append((name, None))
    fire(game, "marker.drawn", inst, target=region)
    return name


def return_markers(game: Game, name: str, region: int, pool: str) -> None:
    """The `name` markers of `region` go back on top of the hidden pool, unrevealed."""
    marks = game.markers[region]
    for i in range(len(marks) - 1, -1, -1):
        if marks[i][0] == name:
            marks.pop(i)
            game.hidden.setdefault(pool, []).append(name)


def bind_power(game: Game, region: int) -> str | None:
    """The top power of the market's stack is bound to `region` for the rest of
    the game: the race holding the region has its rules (no tokens)."""
    m = game.market
    visible = game.ruleset.market.visible
    if len(m.powers) < visible:
        refill_powers(game)
    if not m.powers:
        return None
    name = m.powers.pop(min(visible, len(m.powers)) - 1)
    if len(m.powers) < visible:
        refill_powers(game)
    game.bound_powers.setdefault(region, []).append(name)
    return name


def offered_powers(game: Game) -> list[str]:
    return game.market.powers[: len(game.visible_combos())]


def swap_power(game: Game, inst: RaceInst, name: str) -> None:
    """The race's power changes place with an offered one; its tokens follow the
    badge numbers (more from the tray, or back to it from hand)."""
    offered = offered_powers(game)
    if inst.power is None or name not in offered or name == inst.power.name:
        return
    old = inst.power
    game.market.powers[offered.index(name)] = old.name
    inst.power = game.ruleset.powers[name]
    inst.rebuild_hooks()
    diff = inst.power.tokens - old.tokens
    if diff > 0:
        inst.hand += take_from_tray(game, inst, diff)
    else:
        k = min(-diff, inst.hand)
        inst.hand -= k
        to_tray(game, inst, k)


def give_marker(game: Game, name: str, seat: int, owner: RaceInst | None) -> bool:
    """Put a marker from its pool in front of a player."""
    left = game.pools.get(name)
    if left is not None:
        if left <= 0:
            return False
        game.pools[name] = left - 1
    game.players[seat].markers.append((name, owner.id if owner else None))
    return True


def remove_player_markers(game: Game, seat: int, keep) -> None:
    """Take back every marker of a player for which keep(name, owner) is false."""
    marks = game.players[seat].markers
    for i in range(len(marks) - 1, -1, -1):
        name, owner = marks[i]
        if not keep(name, owner):
            marks.pop(i)
            if name in game.pools:
                game.pools[name] += 1


def remove_race(game: Game, inst: RaceInst) -> None:
    """The race leaves the table: tokens to the tray, banner back to the
    market queue (R10), power to the discards."""
    for r in sorted(inst.regions):
        to_tray(game, inst, game.tokens[r])
        game.tokens[r] = 0
        game.occupant[r] = None
        _markers_leave_with(game, r, inst)
    for r in range(len(game.markers)):
        if game.markers[r]:
            remove_markers(game, r, lambda n, o: o != inst.id)
    for p in game.players:
        if p.markers:
            remove_player_markers(game, p.seat, lambda n, o: o != inst.id)
    inst.regions.clear()
    to_tray(game, inst, inst.hand + inst.reserve + inst.pending)
    inst.hand = inst.reserve = inst.pending = 0
    game.races.pop(inst.id, None)
    if inst.player is None:
        return
    p = game.players[inst.player]
    if p.active is inst:
        p.active = None
    if inst in p.declined:
        p.declined.remove(inst)
    game.market.banners.append(inst.race.name)
    if inst.power is not None:
        game.market.discard.append(inst.power.name)
        inst.power = None


# ---- conquest ----------------------------------------------------------------------


def conquer(game: Game, inst: RaceInst, region: int, tokens: int, *, from_tray: bool = False,
            destroy: bool = False) -> None:
    """`inst` takes `region` with `tokens` of its own (from hand or tray)."""
    defender = game.occupant[region]
    occupied = game.tokens[region] > 0
    game.log.append(Conquest(region, inst.id, defender.id if defender else None,
                             defender.player if defender else None, occupied,
                             bool(defender and not defender.declined and defender.player is not None)))
    if defender is not None:
        lose_region(game, defender, region, inst, destroy)
    if from_tray:
        tokens = take_from_tray(game, inst, tokens)
    else:
        tokens = min(tokens, inst.hand)
        inst.hand -= tokens
    if tokens <= 0:
        return
    game.occupant[region] = inst
    game.tokens[region] = tokens
    inst.regions.add(region)
    game.conquered_in_phase = True
    fire(game, "conquest.done", inst, target=region, defender=defender)


def lose_region(game: Game, defender: RaceInst, region: int, attacker: RaceInst, destroy: bool) -> None:
    """Losses and withdrawal (core-rules §6)."""
    n = game.tokens[region]
    if destroy or defender.declined or defender.player is None:
        discard = n
    else:
        discard = min(n, max(0, fold(game, "loss.discard", 1, defender, {"target": region, "attacker": attacker})))
    to_tray(game, defender, discard)
    defender.pending += n - discard
    game.tokens[region] = 0
    game.occupant[region] = None
    defender.regions.discard(region)
    defender.lost.add(region)
    # fired while the region's markers are still there, so its triggers can test them
    fire(game, "region.lost", defender, target=region, attacker=attacker)
    marks = game.markers[region]
    if marks:
        defs = game.ruleset.markers
        for i in range(len(marks) - 1, -1, -1):
            name, owner = marks[i]
            if owner == defender.id and defs[name].returns:
                marks.pop(i)
                game.queue_returns.append((name, owner))
        _markers_leave_with(game, region, defender)
    if defender.declined and not defender.regions and defender.player is not None:
        remove_race(game, defender)


def rout(game: Game, inst: RaceInst, region: int) -> None:
    """`inst` drives the race out of `region` as a conquest would (losses,
    withdrawal, `region.lost`, the turn's conquest log) without entering it."""
    defender = game.occupant[region]
    if defender is None or defender is inst:
        return
    game.log.append(Conquest(region, inst.id, defender.id, defender.player, game.tokens[region] > 0,
                             bool(not defender.declined and defender.player is not None)))
    lose_region(game, defender, region, inst, False)


def final_attempt(game: Game, inst: RaceInst, region: int, cost: int) -> None:
    """R9: target named, one roll, all remaining tokens go in on success."""
    roll = game.rng.choice(game.ruleset.die)
    game.die = roll
    if inst.hand + roll >= cost:
        conquer(game, inst, region, inst.hand)
    end_conquests(game)


# ---- decline ---------------------------------------------------------------------


def decline(game: Game, inst: RaceInst) -> None:
    """core-rules §11; the number kept per region, the exemption from the one
    declined slot and the power kept in decline all come from the rules."""
    fire(game, "decline", inst)
    p = game.players[inst.player]
    keeps = {r: max(0, min(game.tokens[r], fold(game, "decline.keep", 1, inst, {"target": r})))
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
        to_tray(game, inst, game.tokens[r] - keep)
        game.tokens[r] = keep
        if keep == 0:
            game.occupant[r] = None
            inst.regions.discard(r)
            _markers_leave_with(game, r, inst)
    to_tray(game, inst, inst.hand + inst.reserve + inst.pending)
    inst.hand = inst.reserve = inst.pending = 0
    if inst.power is not None and not inst.power.acts_in_decline:
        game.market.discard.append(inst.power.name)
        inst.power = None
        inst.rebuild_hooks()
    if fold(game, "decline.slot", True, inst, {}):
        for old in list(p.declined):
            if fold(game, "decline.slot", True, old, {}):
                remove_race(game, old)
    p.active = None
    p.declined.append(inst)
    game.declined_this_turn = True
    if not inst.regions:
        remove_race(game, inst)


# ---- the turn --------------------------------------------------------------------


def ready_troops(game: Game, inst: RaceInst) -> None:
    for r in inst.regions:
        extra = game.tokens[r] - 1
        if extra > 0:
            game.tokens[r] = 1
            inst.hand += extra
    inst.hand += inst.reserve
    inst.reserve = 0


def begin_turn(game: Game) -> None:
    seat = game.current
    p = game.players[seat]
    game.log.clear()
    game.uses = {k: v for k, v in game.uses.items() if k[1] == "game"}
    game.die = 0
    game.picked_this_turn = game.declined_this_turn = False
    races = player_races(game, seat)
    for inst in races:
        for c in (inst.race, inst.power, *held_content(game, inst)):
            if c is not None:
                for name, (init, reset) in c.variables.items():
                    if reset == "turn":
                        inst.vars[name] = init
    if p.active is not None:
        ready_troops(game, p.active)
        p.active.turns += 1
    for inst in races:
        fire(game, "turn.start", inst)
        inst.lost.clear()
    game.queue = [("act", inst) for inst in p.declined if fold(game, "decline.acts", False, inst, {})]
    game.queue += [("main", None), ("defend", None), ("score", None), ("after", None), ("next", None)]
    advance(game)


def advance(game: Game) -> None:
    """Run automatic steps until a player must decide (or the game is over)."""
    while game.queue:
        step, inst = game.queue.pop(0)
        seat = game.current
        p = game.players[seat]
        game.actor = seat
        if step == "act":
            if inst.id not in game.races or not inst.declined:
                continue
            ready_troops(game, inst)
            start_conquests(game, inst)
            return
        if step == "main":
            if p.active is None:
                if game.visible_combos():
                    game.phase, game.acting = "pick", None
                    return
                continue  # R10: nothing on offer, no race this turn
            start_conquests(game, p.active)
            return
        if step == "defend":
            if start_defence(game):
                game.queue.insert(0, ("defend", None))
                return
            continue
        if step == "score":
            score(game, seat)
            continue
        if step == "after":
            a = p.active
            if a is not None and not game.declined_this_turn and fold(game, "decline.after_scoring", False, a, {}):
                game.phase, game.acting = "after", a
                return
            continue
        if step == "next":
            next_turn(game)
            return


def start_conquests(game: Game, inst: RaceInst) -> None:
    game.phase, game.acting = "conquer", inst
    game.conquered_in_phase = game.abandoned_in_phase = False


def end_conquests(game: Game) -> None:
    inst = game.acting
    fire(game, "conquests.end", inst)
    if game.ruleset.rule_mods.get("redeploy.vacate") or inst.mods.get("redeploy.vacate"):
        for r in sorted(inst.regions):
            if fold(game, "redeploy.vacate", False, inst, {"target": r}):
                vacate(game, inst, r)
    fire(game, "redeploy.start", inst)
    game.gathered.clear()
    game.placed.clear()
    game.phase = "redeploy"


def end_redeploy(game: Game) -> None:
    fire(game, "redeploy.end", game.acting)
    advance(game)


def start_defence(game: Game) -> bool:
    """Defenders redeploy withdrawn tokens at the end of the active turn.
    Returns True if a defender must now choose where."""
    while game.queue_returns:
        name, owner = game.queue_returns.pop(0)
        inst = game.races.get(owner)
        if inst is not None and inst.regions:
            r = min(sorted(inst.regions), key=lambda x: game.tokens[x])
            game.markers[r].append((name, owner))
        elif name in game.pools:
            game.pools[name] += 1
    n = len(game.players)
    for k in range(1, n + 1):
        seat = (game.current + k) % n
        for inst in player_races(game, seat):
            if inst.pending <= 0:
                continue
            if len(inst.regions) > 1:
                game.phase, game.acting, game.actor = "defend", inst, seat
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
    races = player_races(game, seat)
    for inst in races:
        if game.ruleset.rule_mods.get("score.region") or inst.mods.get("score.region"):
            total += sum(fold(game, "score.region", 1, inst, {"target": r}) for r in sorted(inst.regions))
        else:
            total += len(inst.regions)
    gain(game, seat, total)
    for inst in races:
        if inst.id in game.races:
            fire(game, "turn.end", inst)


def next_turn(game: Game) -> None:
    game.current = (game.current + 1) % len(game.players)
    if game.current == 0:
        game.round += 1
        if game.round > game.setup.rounds:
            game.round = game.setup.rounds
            game.phase, game.acting, game.queue = "over", None, []
            return
    begin_turn(game)


def pick(game: Game, position: int) -> None:
    """core-rules §3: pay one coin on each combo above, collect the coins on
    this one, take banner + badge tokens, the market slides up."""
    seat = game.current
    m = game.market
    if game.ruleset.market.payment == "bank":
        pay(game, seat, position)
    else:
        for i in range(position):
            game.players[seat].coins -= 1
            m.coins[i] += 1
    game.players[seat].coins += m.coins[position]
    del m.coins[position]
    m.coins.append(0)
    race = game.ruleset.races[m.banners.pop(position)]
    power = game.ruleset.powers[m.powers.pop(position)]
    if len(m.powers) < game.ruleset.market.visible:
        refill_powers(game)
    inst = RaceInst(game.next_id, race, power, seat)
    game.next_id += 1
    game.races[inst.id] = inst
    game.players[seat].active = inst
    granted = fold(game, "tokens.granted", race.tokens + power.tokens, inst, {})
    inst.hand = take_from_tray(game, inst, granted)
    inst.turns = 1
    game.picked_this_turn = True
    fire(game, "combo.picked", inst)
    start_conquests(game, inst)


def refill_powers(game: Game) -> None:
    """R11: an empty power stack is rebuilt from the shuffled discards."""
    m = game.market
    if m.discard:
        game.rng.shuffle(m.discard)
        m.powers.extend(m.discard)
        m.discard.clear()
