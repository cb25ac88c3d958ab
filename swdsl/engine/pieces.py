"""Moving pieces: coins, tokens, markers and powers placed on the map.

These are the primitives every rule reaches the state through; they keep the
invariants (supply, coin total, marker pools) true by construction: anything
taken comes from somewhere and anything removed goes somewhere.
"""

from __future__ import annotations

from collections.abc import Callable

from swdsl.engine import chance
from swdsl.engine.content import Content
from swdsl.engine.events import fire, hears
from swdsl.engine.holdings import laid, taken
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import modified, region_minimum, value

# ---- coins ----------------------------------------------------------------------


def gain(game: Game, seat: int | None, amount: int) -> None:
    """The bank pays `seat` up to `amount` coins (never more than it holds)."""
    if seat is None or amount <= 0:
        return
    amount = min(amount, game.bank)
    game.bank -= amount
    move_coins(game, seat, amount)


def pay(game: Game, seat: int | None, amount: int, to: int | None = None) -> None:
    """`seat` pays up to `amount` coins (never more than it has) to the bank or to `to`."""
    if seat is None or amount <= 0:
        return
    amount = min(amount, game.players[seat].coins)
    move_coins(game, seat, -amount)
    if to is None:
        game.bank += amount
    else:
        move_coins(game, to, amount)


def move_coins(game: Game, seat: int, delta: int) -> None:
    """A player's coins change; the ledger says why (`game.cause`)."""
    if delta:
        game.players[seat].coins += delta
        game.ledger.append((seat, delta, game.cause))


# ---- races, tokens and markers -------------------------------------------------------


def new_race(game: Game, race: Content, power: Content | None, player: int | None,
             declined: bool = False) -> RaceInst:
    """A banner (with its power) comes to the table for `player`, or a race of nobody (player None)."""
    inst = RaceInst(game.next_id, race, power, player, declined=declined)
    game.next_id += 1
    game.races[inst.id] = inst
    return inst


def occupy(game: Game, inst: RaceInst, region: int, n: int) -> int:
    """Set-up placement: `inst` holds `region` with up to n tokens from its tray;
    tokens already there go back to their own tray. Nothing fires: the table is being laid out."""
    tokens = take_from_tray(game, inst, n)
    _put(game, inst, region, tokens)
    return tokens


def enter(game: Game, inst: RaceInst, region: int, tokens: int) -> int:
    """`inst` holds `region` with `tokens` it already took (from hand or tray);
    a region it did not hold fires `region.entered`."""
    if _put(game, inst, region, tokens) and hears(game, "region.entered"):
        fire(game, "region.entered", inst, target=region)
    return tokens


def _put(game: Game, inst: RaceInst, region: int, tokens: int) -> bool:
    """Put the tokens in; True if the race did not hold the region. Tokens of
    another race still there (a trigger may have put them back) go to their
    tray, so a region and its race's record always agree."""
    old = game.occupant[region]
    if old is not None and old is not inst:
        to_tray(game, old, game.tokens[region])
        old.release(region)
        game.occupant[region], game.tokens[region] = None, 0
    if tokens <= 0:
        return False
    new = game.occupant[region] is not inst
    game.occupant[region] = inst
    game.tokens[region] += tokens
    inst.hold(region)
    return new



def on_table(game: Game, inst: RaceInst | None) -> bool:
    """Whether the race is on the table: one that left it (a rule of its own, still running, took its
    last region) gains no tokens, pieces or regions."""
    return inst is not None and game.races.get(inst.id) is inst


def take_from_tray(game: Game, inst: RaceInst, wanted: int) -> int:
    got = max(0, min(wanted, game.tray[inst.race.name]))
    game.tray[inst.race.name] -= got
    return got


def to_tray(game: Game, inst: RaceInst, n: int, destroy: bool = False) -> None:
    """n of the race's tokens leave play: pieces recruited as its tokens go
    first, back to their pool; the rest go back to the race's tray, or with
    `destroy` out of the game for good (its supply shrinks)."""
    n = max(0, n)
    if inst.troops:
        for name in sorted(inst.troops):
            back = min(n, inst.troops[name])
            if back:
                inst.troops[name] -= back
                if name in game.pools:
                    game.pools[name] += back
                n -= back
    if destroy:
        game.destroyed[inst.race.name] = game.destroyed.get(inst.race.name, 0) + n
    else:
        game.tray[inst.race.name] += n


def add_tokens(game: Game, inst: RaceInst, n: int, region: int | None = None) -> int:
    """Up to n tokens from the tray into hand, or into `region` if the race
    holds it or it is empty (the race then holds it, without a conquest)."""
    if not on_table(game, inst):
        return 0
    got = take_from_tray(game, inst, n)
    if region is not None and game.occupant[region] in (inst, None):
        enter(game, inst, region, got)
    else:
        inst.hand += got
    return got


def discard_from_hand(game: Game, inst: RaceInst, n: int, destroy: bool = False) -> int:
    """Up to n tokens from the race's hand back to its tray (or out of the game)."""
    k = max(0, min(n, inst.hand))
    inst.hand -= k
    to_tray(game, inst, k, destroy)
    return k


def destroy_from_tray(game: Game, inst: RaceInst, n: int) -> int:
    """Up to n tokens of the race's tray leave the game for good."""
    k = take_from_tray(game, inst, n)
    to_tray(game, inst, k, destroy=True)
    return k


def hold_back(game: Game, inst: RaceInst, n: int, withdrawn: bool) -> int:
    """Up to n tokens from hand are withdrawn (placed again at the end of the
    turn, like tokens withdrawn after a loss) or set aside (back in hand when
    troops are next readied)."""
    k = max(0, min(n, inst.hand))
    inst.hand -= k
    if withdrawn:
        inst.pending += k
    else:
        inst.reserve += k
    return k


def recruit(game: Game, inst: RaceInst, name: str, n: int) -> int:
    """Up to n `name` pieces from their pool join the race's hand as tokens."""
    if not on_table(game, inst):
        return 0
    left = game.pools.get(name)
    got = max(0, n if left is None else min(n, left))
    if left is not None:
        game.pools[name] = left - got
    inst.troops[name] = inst.troops.get(name, 0) + got
    inst.hand += got
    return got


def dismiss(game: Game, inst: RaceInst, name: str) -> None:
    """Every `name` piece serving as the race's tokens goes back to its pool: from hand
    first, then those set aside or withdrawn, then from its most crowded regions (an
    emptied one is left)."""
    k = inst.troops.pop(name, 0)
    if name in game.pools:
        game.pools[name] += k
    for held in ("hand", "reserve", "pending"):
        take = min(k, getattr(inst, held))
        setattr(inst, held, getattr(inst, held) - take)
        k -= take
    while k > 0 and inst.regions:
        r = max(sorted(inst.regions), key=lambda x: game.tokens[x])
        game.tokens[r] -= 1
        settle(game, inst, r)
        k -= 1


def withdraw(game: Game, inst: RaceInst, region: int, keep: int) -> None:
    """All but `keep` tokens of the race leave `region`, to be placed again at
    the end of the turn like tokens withdrawn after a loss."""
    if game.occupant[region] is not inst:
        return
    k = max(0, game.tokens[region] - keep)
    game.tokens[region] -= k
    inst.pending += k


def copy_marker(game: Game, kind: str, region: int, copier: str) -> None:
    """`copier` wears the rules of the first marker of `region` of that kind
    (relic, place), tag or name, until it copies again; nothing changes if
    there is none (holdings.py: worn rules work for whoever holds the copier)."""
    for name, *_ in game.markers[region]:
        if name != copier and is_kind(game, name, kind):
            game.worn[copier] = name
            game.where = None
            return


def take_piece(game: Game, name: str) -> bool:
    """Take one marker from its pool (R6: nothing once the pool is empty)."""
    left = game.pools.get(name)
    if left is not None:
        if left <= 0:
            return False
        game.pools[name] = left - 1
    return True


def place_marker(game: Game, name: str, region: int, owner: RaceInst | None, strength: int = 0) -> bool:
    """Put a piece from its pool, carrying `strength` (at least 0); a place or a figure belongs to nobody
    (whoever holds its region has it)."""
    if not take_piece(game, name):
        return False
    owned = owner is not None and game.ruleset.markers[name].kind not in ("place", "figure")
    game.markers[region].append((name, owner.id if owner is not None and owned else None, max(0, strength)))
    laid(game, name, region)
    return True


def move_marker(game: Game, inst: RaceInst, name: str, dest: int) -> None:
    """The race's own `name` piece moves to `dest`; else one lying in a region it
    holds (a relic); else a new one from the pool. A `fixed` piece never moves."""
    fixed = game.ruleset.markers[name].fixed
    for mine in (lambda region, owner: owner == inst.id, lambda region, owner: game.occupant[region] is inst):
        for region, marks in enumerate(game.markers):
            for i, piece in enumerate(marks):
                if piece[0] == name and mine(region, piece[1]):
                    if not fixed and region != dest:
                        marks.pop(i)
                        taken(game, name, region)
                        game.markers[dest].append(piece)
                        laid(game, name, dest)
                    return
    place_marker(game, name, dest, inst)


def is_kind(game: Game, name: str, kind: str) -> bool:
    """The marker `name` is of that kind (`relic`, `place`), carries that tag, or is so named."""
    c = game.ruleset.markers[name]
    return name == kind or c.kind == kind or kind in c.tags


def move_piece(game: Game, kind: str, src: int, dest: int) -> None:
    """The first marker of that kind, tag or name lying in `src` moves to `dest`, whoever it belongs to
    (it keeps its owner and strength); a `fixed` one never moves."""
    marks = game.markers[src]
    for i, piece in enumerate(marks):
        if is_kind(game, piece[0], kind) and not game.ruleset.markers[piece[0]].fixed:
            if src != dest:
                marks.pop(i)
                taken(game, piece[0], src)
                game.markers[dest].append(piece)
                laid(game, piece[0], dest)
            return


def strength(game: Game, region: int, name: str) -> int:
    """The strength of the first `name` marker in `region` (0 if there is none)."""
    return next((s for n, _, s in game.markers[region] if n == name), 0)


def set_strength(game: Game, region: int, name: str, value: int) -> None:
    """The first `name` marker in `region` carries `value` from now on (never less than 0)."""
    marks = game.markers[region]
    for i, (n, owner, _) in enumerate(marks):
        if n == name:
            marks[i] = (n, owner, max(0, value))
            return


def remove_marker(game: Game, region: int, index: int) -> None:
    name = game.markers[region].pop(index)[0]
    taken(game, name, region)
    if name in game.pools:
        game.pools[name] += 1


def remove_markers(game: Game, region: int, keep) -> None:
    """Remove every marker of `region` for which keep(name, owner) is false."""
    marks = game.markers[region]
    for i in range(len(marks) - 1, -1, -1):
        if not keep(marks[i][0], marks[i][1]):
            remove_marker(game, region, i)


def markers_leave_with(game: Game, region: int, inst: RaceInst) -> None:
    """R6.4: markers bound to a race leave when the region stops holding it."""
    if game.markers[region]:
        defs = game.ruleset.markers
        remove_markers(game, region, lambda n, o: not (defs[n].bound and o == inst.id))


def vacate(game: Game, inst: RaceInst, region: int) -> int:
    """The race leaves `region`, taking its tokens back into hand (a caller
    sending them elsewhere moves them first). Every way a race stops holding
    a region other than losing it to another race comes here, so it is the
    one place `region.abandoned` fires."""
    n = game.tokens[region]
    game.tokens[region] = 0
    game.occupant[region] = None
    inst.release(region)
    markers_leave_with(game, region, inst)
    inst.hand += n
    fire(game, "region.abandoned", inst, target=region)
    return n


def settle(game: Game, inst: RaceInst, region: int) -> None:
    """After a rule took tokens out of the race's `region`: emptied, the race
    leaves it; left under its minimum, its tokens join the race's most crowded
    other region (docs/rulings.md D5) and it is left — or, with no other region,
    they are withdrawn like tokens after a loss (never alone, R22: a race with no
    region gets them back in hand at the end of the turn, a declined one in its tray)."""
    if game.occupant[region] is not inst:
        return
    n = game.tokens[region]
    if n > 0 and modified(game, "region.minimum", inst) and n < region_minimum(game, inst, region):
        if len(inst.regions) > 1:
            dest = max(sorted(inst.regions - {region}), key=lambda x: game.tokens[x])
            game.tokens[dest] += n
        else:
            inst.pending += n
        game.tokens[region] = n = 0
    if n == 0:
        vacate(game, inst, region)


def set_aside(game: Game, inst: RaceInst, n: int) -> None:
    """Take n tokens off the map, most crowded regions first; a region left
    empty is abandoned (R65). They come back when troops are readied."""
    n = max(0, n)
    while n > 0 and inst.regions:
        r = max(sorted(inst.regions), key=lambda x: game.tokens[x])
        game.tokens[r] -= 1
        inst.reserve += 1
        if game.tokens[r] == 0:
            vacate(game, inst, r)
        n -= 1
    hold_back(game, inst, n, withdrawn=False)


def losses(game: Game, defender: RaceInst, region: int, attacker: RaceInst | None, n: int, conquest: bool) -> int:
    """How many of the n tokens `defender` loses in `region` go to its tray
    (loss.discard; the others withdraw). A race of nobody, with nobody to place
    them again, loses them all."""
    if defender.player is None:
        return n
    found = value(game, "loss.discard", defender, target=region, attacker=attacker, conquest=conquest)
    return min(n, max(0, found))


def attacked(game: Game, region: int, by: RaceInst | None) -> RaceInst | None:
    """`by` is about to make the tokens in `region` leave: the holder hears
    `region.attacked` first (if it is another race). The holder afterwards."""
    holder = game.occupant[region]
    if by is not None and holder is not None and holder is not by and hears(game, "region.attacked"):
        fire(game, "region.attacked", holder, target=region, attacker=by)
    return game.occupant[region]


def remove_tokens(game: Game, region: int, n: int, by: RaceInst | None = None, destroy: bool = False) -> int:
    """n tokens of whichever race holds `region` leave it. Another race's (`by`'s
    doing) is a loss: `region.attacked` first, its loss.discard decides how many
    go to its tray (the others withdraw), and `by` hears `tokens.lost`. With
    `destroy` they all leave the game instead. The region is then settled (left
    if emptied, joined to another under its minimum), and a declined race with
    no region left leaves the table. Returns the tokens that left play."""
    inst = attacked(game, region, by)
    k = max(0, min(n, game.tokens[region]))
    if inst is None or k == 0:
        return 0
    hit = by is not None and by is not inst
    gone = losses(game, inst, region, by, k, conquest=False) if hit and not destroy else k
    game.tokens[region] -= k
    to_tray(game, inst, gone, destroy)
    inst.pending += k - gone
    settle(game, inst, region)
    if inst.declined and not inst.regions and inst.player is not None:
        remove_race(game, inst)
    if hit:
        fire(game, "tokens.lost", by, target=region, attacker=by, defender=inst, losses=gone)
    return gone


def shift_tokens(game: Game, src: int, dst: int, n: int, by: RaceInst | None = None) -> int:
    """Up to n tokens of the race holding `src` move into `dst`, which it must
    hold too (`region.attacked` first if that race is not `by`); `src` is then
    settled (left if emptied, joined to another region under its minimum)."""
    inst = game.occupant[src]
    if inst is None or src == dst or game.occupant[dst] is not inst:
        return 0
    if attacked(game, src, by) is not inst or game.occupant[dst] is not inst:
        return 0
    k = max(0, min(n, game.tokens[src]))
    game.tokens[src] -= k
    game.tokens[dst] += k
    settle(game, inst, src)
    return k


def swap_regions(game: Game, a: int, b: int, by: RaceInst | None = None) -> None:
    """Everything in `a` and `b` changes place, race tokens and markers, except
    places and `fixed` markers (face-down markers lie apart: they stay too);
    whoever holds the tokens holds the region. The holders other than `by` hear
    `region.attacked` first; a race that comes to hold a region it did not hold
    hears `region.entered` (its old one is not abandoned: its tokens moved, they
    did not leave)."""
    if a == b:
        return
    attacked(game, a, by)
    attacked(game, b, by)
    ia, ib = game.occupant[a], game.occupant[b]
    for inst, r in ((ia, a), (ib, b)):
        if inst is not None:
            inst.release(r)
    game.occupant[a], game.occupant[b] = ib, ia
    game.tokens[a], game.tokens[b] = game.tokens[b], game.tokens[a]
    for inst, r in ((ib, a), (ia, b)):
        if inst is not None:
            inst.hold(r)
    defs = game.ruleset.markers
    ma, mb = game.markers[a], game.markers[b]
    game.markers[a] = [m for m in ma if defs[m[0]].fixed] + [m for m in mb if not defs[m[0]].fixed]
    game.markers[b] = [m for m in mb if defs[m[0]].fixed] + [m for m in ma if not defs[m[0]].fixed]
    game.where = None
    if ia is not ib:
        for inst, r in ((ia, b), (ib, a)):
            if inst is not None:
                fire(game, "region.entered", inst, target=r)


def draw_marker(game: Game, pool: str, region: int, inst: RaceInst | None, kind: str = "") -> str | None:
    """The top marker of a hidden pool (shuffled at setup) — the top one of
    that kind, tag or name if `kind` is given — goes face up into `region`;
    its rules work at once (`marker.drawn`)."""
    name = chance.draw(game, pool, (lambda n: is_kind(game, n, kind)) if kind else None)
    if name is None:
        return None
    game.markers[region].append((name, None, 0))
    laid(game, name, region)
    fire(game, "marker.drawn", inst, target=region)
    return name


def lay_from_pool(game: Game, pool: str, region: int, face_down: bool) -> str | None:
    """Setup: the top marker of a hidden pool lies in `region`, nobody's. Face down, its rules
    sleep, `has` does not see it and a `swap` leaves it, until it is revealed."""
    name = chance.draw(game, pool)
    if name is not None and face_down:
        game.face_down.setdefault(region, []).append(name)
    elif name is not None:
        game.markers[region].append((name, None, 0))
        laid(game, name, region)
    return name


def reveal(game: Game, region: int, inst: RaceInst | None, kind: str = "") -> None:
    """The face-down markers of `region` (of that kind, tag or name if `kind` is given) turn face up,
    nobody's; their rules work at once (`marker.drawn`)."""
    names = _take_face_down(game, region, lambda n: not kind or is_kind(game, n, kind))
    if not names:
        return
    game.markers[region].extend((n, None, 0) for n in names)
    for n in names:
        laid(game, n, region)
    fire(game, "marker.drawn", inst, target=region)


def return_markers(game: Game, name: str, region: int, pool: str) -> None:
    """The `name` markers of `region`, face up or face down, go back on top of the hidden pool, unrevealed."""
    marks = game.markers[region]
    for i in range(len(marks) - 1, -1, -1):
        if marks[i][0] == name:
            marks.pop(i)
            taken(game, name, region)
            game.hidden.setdefault(pool, []).append(name)
    lying = _take_face_down(game, region, lambda n: n == name)
    if lying:
        game.hidden.setdefault(pool, []).extend(lying)


def _take_face_down(game: Game, region: int, wanted: Callable[[str], bool]) -> list[str]:
    """The face-down markers of `region` that `wanted` accepts, taken off it (the others stay face down)."""
    got: list[str] = []
    rest: list[str] = []
    for n in game.face_down.pop(region, ()):
        (got if wanted(n) else rest).append(n)
    if rest:
        game.face_down[region] = rest
    return got


def bind_power(game: Game, region: int) -> str | None:
    """The top power of the face-down pile (under the visible ones; the discards
    shuffled in if it is empty) is bound to `region` for the rest of the game:
    the race holding the region has its rules (no tokens). None if there is none."""
    m = game.market
    visible = game.index.visible
    if len(m.powers) <= visible:
        refill_powers(game)
    if len(m.powers) <= visible:
        return None
    name = m.powers.pop(visible)
    game.bound_powers.setdefault(region, []).append(name)
    game.where = None
    return name


def offered_powers(game: Game) -> list[str]:
    return game.market.powers[: max((row + 1 for _, row, _, _ in game.visible_combos()), default=0)]


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
    if not take_piece(game, name):
        return False
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
    market queue (R10), power to the discards. Its markers go back to the box,
    except those that `survive decline` and are not `bound`: they stay on the
    map, nobody's now (an Artifact stays where it was last used). A race already gone (a trigger
    set off on the way removed it) is left as it is: its banner goes back once."""
    if game.races.get(inst.id) is not inst:
        return
    for r in sorted(inst.regions):
        to_tray(game, inst, game.tokens[r])
        game.tokens[r] = 0
        game.occupant[r] = None
        markers_leave_with(game, r, inst)
    defs = game.ruleset.markers
    for r in range(len(game.markers)):
        if game.markers[r]:
            marks = game.markers[r]
            for i, (n, o, s) in enumerate(marks):
                if o == inst.id and defs[n].survives_decline and not defs[n].bound:
                    marks[i] = (n, None, s)
            remove_markers(game, r, lambda n, o: o != inst.id)
    for p in game.players:
        if p.markers:
            remove_player_markers(game, p.seat, lambda n, o: o != inst.id)
    inst.release_all()
    to_tray(game, inst, inst.hand + inst.reserve + inst.pending)
    inst.hand = inst.reserve = inst.pending = 0
    game.races.pop(inst.id, None)
    game.turn.gone[inst.id] = inst
    if inst.player is None:
        return
    p = game.players[inst.player]
    if p.active is inst:
        p.active = None
    if inst in p.declined:
        p.declined.remove(inst)
    game.market.columns[game.ruleset.column_of(inst.race.name)].append(inst.race.name)
    if inst.power is not None:
        game.market.discard.append(inst.power.name)
        inst.power = None
        inst.rebuild_hooks()  # its banner's alone, as its plans are made from (stats.plan)


def refill_powers(game: Game) -> None:
    """R11: an empty power stack is rebuilt from the shuffled discards."""
    m = game.market
    if m.discard:
        chance.shuffle(game, m.discard)
        m.powers.extend(m.discard)
        m.discard.clear()
