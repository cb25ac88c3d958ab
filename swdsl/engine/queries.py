"""What rules can read: attributes, states, named values, functions and region
sets, each an entry with its doc and implementation (a function of a Ctx).

The checker accepts exactly these names and the compiled rules call these
functions; nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from swdsl.engine.adjacency import adjacent_to_any, linked, links, neighbours
from swdsl.engine.entries import Attribute, Ctx, Form, Function, Param, RegionSet, State, Value
from swdsl.engine.holdings import defenders, where
from swdsl.engine.legal import can_target, conquerable
from swdsl.engine.pieces import is_kind, offered_powers, strength
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import AS_EMPTY, conquest_cost, declares_adjacency, is_immune


def as_regions(v: Any) -> Iterable[Any]:
    """One element (a region, a player, a race…), a set of them, or nothing, as something to loop over."""
    if v is None:
        return ()
    return (v,) if isinstance(v, int) else v


def has_tag(inst: RaceInst | None, name: str) -> bool:
    """A race carries a tag: its banner's or its power's (or their names), or one given for the turn."""
    if inst is None:
        return False
    return name in inst.tags or name in inst.turn_tags


def has_marker(game: Game, region: int, name: str) -> bool:
    for n, _, _ in game.markers[region]:  # a plain loop: asked of every target, any() costs 6 times more
        if n == name:
            return True
    return False


def has_piece_kind(game: Game, region: int, kind: str) -> bool:
    """A marker of that kind (`relic`, `place`) or tag lies in the region."""
    for n, _, _ in game.markers[region]:
        if is_kind(game, n, kind):
            return True
    return False


def markers_in(game: Game, regions: Any) -> list[tuple[int, str, int]]:
    """Every face-up marker piece of the regions, each once: (region, name, k), the k-th of that name there."""
    out = []
    for r in as_regions(regions):
        seen: dict[str, int] = {}
        for name, _, _ in game.markers[r]:
            k = seen[name] = seen.get(name, -1) + 1
            out.append((r, name, k))
    return out


def piece_is(game: Game, piece: tuple[int, str, int], kind: str) -> bool:
    """A marker piece (of `markers of`) is so named, of that kind or carries that tag."""
    return is_kind(game, piece[1], kind)


def one(xs: Any) -> Any:
    """The first element of a selection in its order (regions and areas by number, players by seat,
    races in the order they came to the table, powers by name, markers by region), or None."""
    return min(xs, key=_order, default=None)


def _order(x: Any) -> Any:
    return x.id if isinstance(x, RaceInst) else x


def areas(ctx: Ctx) -> list[int]:
    """The map's areas (islands, board parts), by number."""
    return list(ctx.game.board.areas)


def player_has_marker(game: Game, seat: int | None, name: str) -> bool:
    if seat is not None:
        for n, _ in game.players[seat].markers:
            if n == name:
                return True
    return False


def borders(ctx: Ctx, subject: Any, other: Any) -> bool:
    """A region (or some region of a set) is adjacent, for the race asking, to a region or a set of regions."""
    if subject is None or other is None:
        return False
    game, me = ctx.game, ctx.me
    if declares_adjacency(game, me):
        others = (other,) if isinstance(other, int) else tuple(other)
        subjects = (subject,) if isinstance(subject, int) else tuple(subject)
        return any(adjacent_to_any(game, me, a, others) for a in subjects)  # type: ignore[arg-type]
    nb = game.board.neighbours
    for r in (subject,) if isinstance(subject, int) else subject:  # a loop: no closure made at every ask
        if other in nb[r] if isinstance(other, int) else not nb[r].isdisjoint(other):  # any iterable, in one C call
            return True
    return False


def _map_borders(ctx: Ctx) -> tuple[frozenset[int], ...] | None:
    """The map's borders when they are the asking race's (it declares no adjacency): read from the board's
    table, with no fold, as a search walks them region by region; else None (adjacency.neighbours)."""
    return None if declares_adjacency(ctx.game, ctx.me) else ctx.game.board.neighbours


def count_groups(ctx: Ctx, regions: Iterable[int]) -> int:
    """How many separate groups `regions` form, joined by adjacency among them (and the race's links)."""
    left = set(regions)
    n = 0
    nb = _map_borders(ctx)
    joins = links(ctx.game, ctx.me)
    while left:
        n += 1
        stack = [left.pop()]
        while stack:
            x = stack.pop()
            for y in _joined(ctx, x, nb, joins):
                if y in left:
                    left.discard(y)
                    stack.append(y)
    return n


def _joined(ctx: Ctx, x: int, nb: tuple[frozenset[int], ...] | None, joins: bool) -> frozenset[int]:
    """The regions a chain may step to from `x` for the asking race: its neighbours, and the regions its
    rules link to `x` (region.linked)."""
    near = neighbours(ctx.game, ctx.me, x) if nb is None else nb[x]
    return near | linked(ctx.game, ctx.me, x) if joins else near


def reach(ctx: Ctx, start: Iterable[int], through: Iterable[int]) -> list[int]:
    """`start` and every region of `through` joined to it by a chain of adjacent regions of `through`."""
    inside = set(through)
    seen = set(start)
    stack = list(seen)
    nb = _map_borders(ctx)
    joins = links(ctx.game, ctx.me)
    while stack:
        x = stack.pop()
        for y in _joined(ctx, x, nb, joins):
            if y in inside and y not in seen:
                seen.add(y)
                stack.append(y)
    return sorted(seen)


def group(ctx: Ctx, r: int) -> list[int]:
    """`r` and the regions joined to it through regions of the same race."""
    inst = ctx.game.occupant[r]
    if inst is None:
        return [r]
    return reach(ctx, [r], inst.regions)


def marker_region(ctx: Ctx, name: str) -> int | None:
    """The region holding the marker `name`: the one this race holds, if several."""
    regions = where(ctx.game)[0].get(name)
    if not regions:
        return None
    occupant = ctx.game.occupant
    return next((r for r in regions if occupant[r] is ctx.me), regions[0]) if ctx.me is not None else regions[0]


def _owner(ctx: Ctx, r: int) -> int | None:
    inst = ctx.game.occupant[r]
    return None if inst is None else inst.player


def _defeats(ctx: Ctx, inst: RaceInst | None) -> int:
    if inst is None or ctx.me is None:
        return 0
    me, n = ctx.me.id, 0
    for c in ctx.game.turn.log:  # plain loops here and below: a generator costs more than a short log
        if c.attacker == me and c.defender == inst.id:
            n += 1
    return n


ATTRIBUTES = {(a.name, a.subject): a for a in [
    Attribute("terrain", "region", "terrain", "the region's terrain", lambda ctx, r: ctx.game.board.regions[r].terrain),
    Attribute("tokens", "region", "int", "race tokens in the region (any race), and the pieces there that count as "
              "its tokens (`counts as token`)", lambda ctx, r: defenders(ctx.game, r)),
    Attribute("owner", "region", "player", "the player whose race holds the region (none if neutral or empty)",
              _owner),
    Attribute("occupant", "region", "race", "the race holding the region", lambda ctx, r: ctx.game.occupant[r]),
    Attribute("neighbours", "region", "regions", "the regions adjacent to it (for the race asking: region.adjacent)",
              lambda ctx, r: sorted(neighbours(ctx.game, ctx.me, r))),
    Attribute("area", "region", "area", "the map area (island, board part) it lies in",
              lambda ctx, r: ctx.game.board.regions[r].area),
    Attribute("markers", "region", "markers", "the face-up markers lying in it, each piece once",
              lambda ctx, r: markers_in(ctx.game, r)),
    Attribute("markers", "regions", "markers", "the face-up markers lying in them, each piece once",
              lambda ctx, rs: markers_in(ctx.game, rs)),
    Attribute("regions", "area", "regions", "the regions of the area",
              lambda ctx, a: list(ctx.game.board.areas.get(a, ()))),
    Attribute("region", "marker", "region", "the region the marker lies in", lambda ctx, m: m[0]),
    Attribute("group", "region", "regions",
              "the region and every region joined to it by adjacency through regions of the same race",
              lambda ctx, r: group(ctx, r)),
    Attribute("cost", "region", "int", "what conquering the region would cost this race now (conquest.cost)",
              lambda ctx, r: conquest_cost(ctx.game, ctx.me, r) if r is not None and ctx.me is not None else 0),
    Attribute("hand", "race", "int", "the race's tokens in hand", lambda ctx, i: i.hand if i else 0),
    Attribute("regions", "race", "regions", "the regions the race holds",
              lambda ctx, i: sorted(i.regions) if i else []),
    Attribute("owner", "race", "player", "the player the race belongs to", lambda ctx, i: i.player if i else None),
    Attribute("turns", "race", "int", "turns the race has played as the active race, this one included",
              lambda ctx, i: i.turns if i else 0),
    Attribute("tray", "race", "int", "the race's tokens left in the tray",
              lambda ctx, i: ctx.game.tray[i.race.name] if i else 0),
    Attribute("power", "race", "power", "the race's special power (none once it is discarded)",
              lambda ctx, i: i.power.name if i is not None and i.power is not None else None),
    Attribute("defeats", "race", "int", "how many regions this race took from that race this turn", _defeats),
    Attribute("coins", "player", "int", "the player's coins",
              lambda ctx, p: ctx.game.players[p].coins if p is not None else 0),
    Attribute("race", "player", "race", "the player's active race",
              lambda ctx, p: ctx.game.players[p].active if p is not None else None),
    Attribute("regions", "player", "regions", "regions held by any of the player's races",
              lambda ctx, p: [r for r, i in enumerate(ctx.game.occupant) if i is not None and i.player == p]
              if p is not None else []),
    *[Attribute("one", f"{element}s", element, f"the first {element} of the selection (in its order: {order}), or "
                "none", lambda ctx, xs: one(xs))
      for element, order in (("region", "by number"), ("player", "by seat"), ("race", "as they came to the "
                             "table"), ("power", "by name"), ("area", "by number"), ("marker", "by region"))],
]}


def _occ(ctx: Ctx, r: int) -> RaceInst | None:
    return ctx.game.occupant[r]


def _ours(ctx: Ctx, inst: RaceInst | None) -> bool:
    return inst is not None and ctx.me is not None and ctx.me.player is not None and inst.player == ctx.me.player


def _enemy(ctx: Ctx, inst: RaceInst | None) -> bool:
    return inst is not None and inst.player is not None and (ctx.me is None or inst.player != ctx.me.player)


STATES: dict[tuple[str, str], State] = {(s.subject, s.name): s for s in [
    State("edge", "region", "touches the map edge", lambda ctx, r: ctx.game.board.regions[r].edge),
    State("face_down", "region", "a marker lies face down there (placed so at setup, not yet revealed)",
          lambda ctx, r: r in ctx.game.face_down),
    State("empty", "region", "holds no race token (or is priced as if empty: conquest.as_empty)",
          lambda ctx, r: ctx.game.tokens[r] == 0 or ctx.b.get(AS_EMPTY) == r),
    State("occupied", "region", "holds at least one race token (and is not priced as if empty)",
          lambda ctx, r: ctx.game.tokens[r] > 0 and ctx.b.get(AS_EMPTY) != r),
    State("mine", "region", "held by this race", lambda ctx, r: _occ(ctx, r) is ctx.me),
    State("ours", "region", "held by any race of this race's player", lambda ctx, r: _ours(ctx, _occ(ctx, r))),
    State("enemy", "region", "held by another player's race", lambda ctx, r: _enemy(ctx, _occ(ctx, r))),
    State("neutral", "region", "held by a race that belongs to nobody",
          lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).player is None),  # type: ignore[union-attr]
    State("declined", "region", "held by a declined race",
          lambda ctx, r: _occ(ctx, r) is not None and _occ(ctx, r).declined),  # type: ignore[union-attr]
    State("active", "region", "held by an active race",
          lambda ctx, r: _occ(ctx, r) is not None and not _occ(ctx, r).declined),  # type: ignore[union-attr]
    State("immune", "region", "closed to this race (region.immune)",
          lambda ctx, r: ctx.me is not None and is_immune(ctx.game, r, ctx.me)),
    State("attackable", "region", "a legal conquest target for this race right now, whatever its cost",
          lambda ctx, r: ctx.me is not None and _occ(ctx, r) is not ctx.me and can_target(ctx.game, ctx.me, r)),
    State("conquerable", "region", "a region this race could conquer wherever it lies (region.conquerable, not "
          "immune, not its own)",
          lambda ctx, r: ctx.me is not None and _occ(ctx, r) is not ctx.me and conquerable(ctx.game, ctx.me, r)),
    State("active", "race", "the race is its player's active race", lambda ctx, i: i is not None and not i.declined),
    State("declined", "race", "the race is in decline", lambda ctx, i: i is not None and i.declined),
    State("neutral", "race", "the race belongs to nobody", lambda ctx, i: i is not None and i.player is None),
    State("mine", "race", "the race is this race", lambda ctx, i: i is ctx.me),
    State("ours", "race", "the race belongs to this race's player", _ours),
    State("enemy", "race", "the race belongs to another player", _enemy),
    State("revealed", "power", "came on offer in the market this turn, revealed to refill it after a pick",
          lambda ctx, p: p in ctx.game.turn.revealed),
    State("me", "player", "the player this race belongs to",
          lambda ctx, p: ctx.me is not None and p == ctx.me.player),
]}


def _conquest(ctx: Ctx, region: int):
    """The acting race's latest conquest of `region` this turn (None if none)."""
    for c in reversed(ctx.game.turn.log):
        if c.region == region and ctx.me is not None and c.attacker == ctx.me.id:
            return c
    return None


def _was_occupied(ctx: Ctx, r: int) -> bool:
    c = _conquest(ctx, r)
    return c is not None and c.occupied


def _was_empty(ctx: Ctx, r: int) -> bool:
    c = _conquest(ctx, r)
    return c is not None and not c.occupied


def _was_attacked(ctx: Ctx, p: int | None) -> bool:
    if ctx.me is None:
        return False
    me = ctx.me.id
    for c in ctx.game.turn.log:
        if c.attacker == me and c.defender_player == p and c.defender_active:
            return True
    return False


def _was_defeated(ctx: Ctx, i: RaceInst | None) -> bool:
    if i is None or ctx.me is None:
        return False
    me = ctx.me.id
    for c in ctx.game.turn.log:
        if c.attacker == me and c.defender == i.id:
            return True
    return False


LOG_STATES: dict[tuple[str, str], State] = {(s.subject, s.name): s for s in [
    State("occupied", "region", "held race tokens just before this race conquered it this turn",
          _was_occupied),
    State("empty", "region", "held no race token just before this race conquered it this turn",
          _was_empty),
    State("attacked", "player", "this race conquered a region of that player's active race this turn",
          _was_attacked),
    State("defeated", "race", "this race took a region from that race this turn (a conquest or a `rout`)",
          _was_defeated),
]}


def _players(ctx: Ctx) -> range:
    return range(len(ctx.game.players))


def _races(ctx: Ctx) -> list[RaceInst]:
    """Every race on the table and those that left it this turn, by id (ints sort without a key function)."""
    races, gone = ctx.game.races, ctx.game.turn.gone
    if not gone:
        return [races[i] for i in sorted(races)]
    return [races[i] if i in races else gone[i] for i in sorted([*races, *gone])]


def _here(declaration: str):
    return lambda ctx: marker_region(ctx, declaration)


VALUES = {v.name: v for v in [
    Value("me", "race", "the race this rule belongs to", lambda ctx: ctx.me),
    Value("owner", "player", "the player this race belongs to", lambda ctx: ctx.me.player if ctx.me else None),
    Value("opponents", "players", "every other player",
          lambda ctx: [p for p in _players(ctx) if ctx.me is None or p != ctx.me.player]),
    Value("players", "players", "every player", lambda ctx: list(_players(ctx))),
    Value("true", "bool", "yes", lambda ctx: True),
    Value("false", "bool", "no", lambda ctx: False),
    Value("none", "player", "nobody (a player variable's empty value)", lambda ctx: None),
    Value("die", "int", "the last die roll of this turn (0 if none)", lambda ctx: ctx.game.turn.die),
    Value("round", "int", "the current round, from 1", lambda ctx: ctx.game.round),
    Value("starting", "bool", "the player's turn is at its start: its `during start` abilities and its `turn.start` "
          "triggers (false from its first pick, conquest or declined race's play on)",
          lambda ctx: ctx.game.turn.starting),
    Value("races", "races", "every race on the table, ownerless ones included, and those that left it this turn",
          _races),
    Value("offered", "powers", "the powers of the combos on offer in the market",
          lambda ctx: offered_powers(ctx.game)),
    Value("combos", "combos", "the combos on offer in the market, as a place to put things: `add N tokens to "
          "combos`, `place MARKER in combos` (each combo's taker collects what lies on it)", lambda ctx: None),
    Value("areas", "areas", "every area of the map (island, board part)", areas),
    Value("here", "region", "in a relic, place or figure: the region it lies in (the one this race holds, if several)",
          _here, per_declaration=True),
]}

_INT = Param("n", "int")
_REGIONS = Param("regions", "regions")
FUNCTIONS = {f.name: f for f in [
    Function("min", (_INT,), "int", "`min(a, b, …)`: the smallest number",
             lambda ctx, *xs: min(x or 0 for x in xs), "min(tokens of target, 3)", variadic=True),
    Function("max", (_INT,), "int", "`max(a, b, …)`: the largest number",
             lambda ctx, *xs: max(x or 0 for x in xs), "max(1, cost of target - die)", variadic=True),
    Function("groups", (_REGIONS,), "int", "`groups(REGIONS)`: how many separate groups the regions form "
             "(joined by adjacency)", lambda ctx, rs: count_groups(ctx, as_regions(rs)), "groups(my regions)",
             borders_only=True),
    Function("reach", (Param("from", "regions"), Param("through", "regions")), "regions",
             "`reach(FROM, THROUGH)`: the regions FROM and every region of THROUGH joined to them by a chain of "
             "adjacent regions of THROUGH",
             lambda ctx, a, b: reach(ctx, as_regions(a), as_regions(b)),
             "reach(my regions, regions where terrain is river)", borders_only=True),
]}


def _conquered(ctx: Ctx) -> list[int]:
    me = ctx.me
    if me is None:
        return []
    return sorted({c.region for c in ctx.game.turn.log if c.attacker == me.id and ctx.game.occupant[c.region] is me})


SETS = {s.qual: s for s in [
    RegionSet("all", "regions", "every region of the map", lambda ctx: range(len(ctx.game.board))),
    RegionSet("my", "my regions", "the regions this race holds", lambda ctx: list(ctx.me.in_order()) if ctx.me else []),
    RegionSet("conquered", "conquered regions", "regions this race conquered this turn", _conquered),
    RegionSet("lost", "lost regions", "regions this race lost since its last turn",
              lambda ctx: sorted(ctx.me.lost) if ctx.me else []),
]}


_MISSING = object()


def bound_each(ctx: Ctx, name: str, items: Any) -> Iterator[Any]:
    """Each element of a selection (taken once, before the first) with `name` bound to it in `ctx`;
    the name's previous binding comes back afterwards."""
    saved = ctx.b.get(name, _MISSING)
    try:
        for x in list(as_regions(items)):
            ctx.b[name] = x
            yield x
    finally:
        if saved is _MISSING:
            ctx.b.pop(name, None)
        else:
            ctx.b[name] = saved


def _sum(ctx: Ctx, name: str, items: Any, value: Any) -> int:
    """`value` (a function of a Ctx) added up with `name` bound to each element in turn."""
    return sum(value(ctx) or 0 for _ in bound_each(ctx, name, items))


FORMS = {f.name: f for f in [
    Form("sum", "sum(N for each NAME in SELECTION)", "N added up over the selection, NAME standing for each "
         "element in turn (0 for an empty one)", (_INT, Param("name", "name"), Param("each", "selection")), "int",
         lambda ctx, value, name, items: _sum(ctx, name, items, value), per_element="n"),
    Form("strength", "strength of MARKER in REGION", "the number the first MARKER of REGION carries (`place "
         "MARKER in … with N`); 0 if there is none", (Param("marker", "marker"), Param("region", "region")), "int",
         lambda ctx, marker, r: 0 if r is None else strength(ctx.game, r, marker)),
]}
