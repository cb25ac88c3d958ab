"""What compiled expressions read at run time: attributes, named values,
region sets, states and log tests, each a small function of (ctx, value).

The checker accepts exactly the names that have an entry here (and in
engine/vocabulary.py, which documents them).
"""

from __future__ import annotations

from swdsl.engine import pieces
from swdsl.engine.legal import can_target, conquerable
from swdsl.engine.stats import conquest_cost, is_immune


def const(v):
    return lambda ctx: v


def has_tag(inst, name: str) -> bool:
    if inst is None:
        return False
    return (name in inst.race.tags or inst.race.name == name or name in inst.turn_tags
            or (inst.power is not None and (name in inst.power.tags or inst.power.name == name)))


def as_regions(v):
    if v is None:
        return ()
    return (v,) if isinstance(v, int) else v


def _region_owner(ctx, r):
    inst = ctx.game.occupant[r]
    return None if inst is None else inst.player


ATTR = {
    ("terrain", "region"): lambda ctx, r: ctx.game.board.regions[r].terrain,
    ("tokens", "region"): lambda ctx, r: ctx.game.tokens[r],
    ("owner", "region"): _region_owner,
    ("occupant", "region"): lambda ctx, r: ctx.game.occupant[r],
    ("neighbours", "region"): lambda ctx, r: sorted(ctx.game.board.neighbours[r]),
    ("area", "region"): lambda ctx, r: ctx.game.board.regions[r].area,
    ("hand", "race"): lambda ctx, i: i.hand if i else 0,
    ("regions", "race"): lambda ctx, i: sorted(i.regions) if i else [],
    ("owner", "race"): lambda ctx, i: i.player if i else None,
    ("turns", "race"): lambda ctx, i: i.turns if i else 0,
    ("tray", "race"): lambda ctx, i: ctx.game.tray[i.race.name] if i else 0,
    ("coins", "player"): lambda ctx, p: ctx.game.players[p].coins if p is not None else 0,
    ("race", "player"): lambda ctx, p: ctx.game.players[p].active if p is not None else None,
    ("regions", "player"): lambda ctx, p: [r for r, i in enumerate(ctx.game.occupant) if i is not None
                                           and i.player == p] if p is not None else [],
    ("group", "region"): lambda ctx, r: _group(ctx.game, r),
    ("power", "race"): lambda ctx, i: i.power.name if i is not None and i.power is not None else None,
    ("cost", "region"): lambda ctx, r: conquest_cost(ctx.game, ctx.me, r) if r is not None else 0,
    ("defeats", "race"): lambda ctx, i: 0 if i is None or ctx.me is None else
    sum(1 for c in ctx.game.log if c.attacker == ctx.me.id and c.defender == i.id),
}


def count_groups(game, regions) -> int:
    """How many separate groups `regions` form, joined by borders among them."""
    left = set(regions)
    n = 0
    while left:
        n += 1
        stack = [left.pop()]
        while stack:
            for y in game.board.neighbours[stack.pop()]:
                if y in left:
                    left.discard(y)
                    stack.append(y)
    return n


def reach(game, start, through) -> list[int]:
    """`start` and every region of `through` joined to it by a chain of borders
    through regions of `through`."""
    through = set(through)
    seen = set(start)
    stack = list(seen)
    while stack:
        for y in game.board.neighbours[stack.pop()]:
            if y in through and y not in seen:
                seen.add(y)
                stack.append(y)
    return sorted(seen)


def marker_region(ctx, name: str):
    """The region holding the marker `name`: the one this race holds, if several."""
    found = None
    for r, marks in enumerate(ctx.game.markers):
        if any(n == name for n, _ in marks):
            if ctx.me is not None and ctx.game.occupant[r] is ctx.me:
                return r
            if found is None:
                found = r
    return found


def _group(game, r):
    """`r` and the regions joined to it through regions of the same race."""
    inst = game.occupant[r]
    seen = {r}
    if inst is None:
        return [r]
    stack = [r]
    while stack:
        for y in game.board.neighbours[stack.pop()]:
            if y not in seen and game.occupant[y] is inst:
                seen.add(y)
                stack.append(y)
    return sorted(seen)


def _players(ctx):
    return range(len(ctx.game.players))


NAMED = {
    "me": lambda ctx: ctx.me,
    "owner": lambda ctx: ctx.me.player if ctx.me else None,
    "opponents": lambda ctx: [p for p in _players(ctx) if ctx.me is None or p != ctx.me.player],
    "players": lambda ctx: list(_players(ctx)),
    "true": const(True),
    "false": const(False),
    "none": const(None),
    "die": lambda ctx: ctx.game.die,
    "round": lambda ctx: ctx.game.round,
    "races": lambda ctx: sorted([*ctx.game.races.values(), *ctx.game.gone.values()], key=lambda i: i.id),
    "offered": lambda ctx: pieces.offered_powers(ctx.game),
}


def _conquered(ctx):
    me = ctx.me
    return sorted({c.region for c in ctx.game.log if c.attacker == me.id and ctx.game.occupant[c.region] is me})


SETS = {
    "all": lambda ctx: range(len(ctx.game.board)),
    "my": lambda ctx: sorted(ctx.me.regions) if ctx.me else [],
    "conquered": _conquered,
    "lost": lambda ctx: sorted(ctx.me.lost) if ctx.me else [],
}


def _occ(ctx, r):
    return ctx.game.occupant[r]


STATES = {
    ("region", "edge"): lambda ctx, r: ctx.game.board.regions[r].edge,
    ("region", "empty"): lambda ctx, r: ctx.game.tokens[r] == 0,
    ("region", "occupied"): lambda ctx, r: ctx.game.tokens[r] > 0,
    ("region", "mine"): lambda ctx, r: _occ(ctx, r) is ctx.me,
    ("region", "ours"): lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).player == ctx.me.player
    and ctx.me.player is not None,
    ("region", "enemy"): lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).player is not None
    and _occ(ctx, r).player != ctx.me.player,
    ("region", "neutral"): lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).player is None,
    ("region", "declined"): lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).declined,
    ("region", "active"): lambda ctx, r: _occ(ctx, r) is not None and not _occ(ctx, r).declined,
    ("region", "immune"): lambda ctx, r: is_immune(ctx.game, r, ctx.me),
    ("region", "attackable"): lambda ctx, r: _occ(ctx, r) is not ctx.me and can_target(ctx.game, ctx.me, r),
    ("region", "conquerable"): lambda ctx, r: _occ(ctx, r) is not ctx.me and conquerable(ctx.game, ctx.me, r),
    ("race", "active"): lambda ctx, i: i is not None and not i.declined,
    ("race", "declined"): lambda ctx, i: i is not None and i.declined,
    ("race", "neutral"): lambda ctx, i: i is not None and i.player is None,
    ("race", "mine"): lambda ctx, i: i is ctx.me,
    ("race", "ours"): lambda ctx, i: i is not None and i.player == ctx.me.player,
    ("race", "enemy"): lambda ctx, i: i is not None and i.player is not None and i.player != ctx.me.player,
    ("player", "me"): lambda ctx, p: p == ctx.me.player,
}


def _was_occupied(subject):
    def test(ctx):
        r = subject(ctx)
        for c in reversed(ctx.game.log):
            if c.region == r and c.attacker == ctx.me.id:
                return c.occupied
        return False
    return test


def _was_empty(subject):
    occupied = _was_occupied(subject)

    def test(ctx):
        r = subject(ctx)
        return any(c.region == r and c.attacker == ctx.me.id for c in ctx.game.log) and not occupied(ctx)
    return test


def _was_attacked(subject):
    def test(ctx):
        p = subject(ctx)
        return any(c.attacker == ctx.me.id and c.defender_player == p and c.defender_active for c in ctx.game.log)
    return test


def _was_defeated(subject):
    def test(ctx):
        i = subject(ctx)
        return i is not None and any(c.attacker == ctx.me.id and c.defender == i.id for c in ctx.game.log)
    return test


WAS = {("region", "occupied"): _was_occupied, ("region", "empty"): _was_empty,
        ("player", "attacked"): _was_attacked, ("race", "defeated"): _was_defeated}
