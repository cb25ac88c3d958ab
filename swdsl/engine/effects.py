"""Effects: what rules can do, each an entry with its syntax, doc, signature and
implementation. Implementations reach the game only through the primitives of
pieces.py and turn.py (which keep the invariants) and chance.py.

An implementation is called as `run(ctx, *arguments)`, arguments in the order
of the entry's parameters (the grammar's order): expression values, names
written in the rule, flags, and blocks of effects as functions of a Ctx.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from swdsl.engine import chance, market, pieces, turn, undo
from swdsl.engine.entries import Ctx, Effect, Param, Variable, within_budget
from swdsl.engine.queries import as_regions, bound_each
from swdsl.engine.stats import conquest_cost, region_minimum


def _gain(ctx: Ctx, amount: int, each: Any) -> None:
    n = amount if each is None else amount * len(each)
    pieces.gain(ctx.game, ctx.me.player, n)  # type: ignore[union-attr]


def _take(ctx: Ctx, amount: int, victims: Any) -> None:
    for seat in as_regions(victims):
        pieces.pay(ctx.game, seat, amount, ctx.me.player)  # type: ignore[union-attr]


def _discard(ctx: Ctx, n: int, where: int | None) -> None:
    if where is not None:
        pieces.remove_tokens(ctx.game, where, n, ctx.me)  # whichever race holds it
    else:
        pieces.discard_from_hand(ctx.game, ctx.me, n)  # type: ignore[arg-type]


def _destroy(ctx: Ctx, n: int, where: int | None, from_tray: bool) -> None:
    if where is not None:
        pieces.remove_tokens(ctx.game, where, n, ctx.me, destroy=True)
    elif from_tray:
        pieces.destroy_from_tray(ctx.game, ctx.me, n)  # type: ignore[arg-type]
    else:
        pieces.discard_from_hand(ctx.game, ctx.me, n, destroy=True)  # type: ignore[arg-type]


def _set_aside(ctx: Ctx, n: int, from_hand: bool) -> None:
    if from_hand:
        pieces.hold_back(ctx.game, ctx.me, n, withdrawn=False)  # type: ignore[arg-type]
    else:
        pieces.set_aside(ctx.game, ctx.me, n)  # type: ignore[arg-type]


def _each_region(primitive: Callable[..., Any]) -> Callable[..., None]:
    """An effect applying `primitive(game, me, r)` to every region selected."""
    def run(ctx: Ctx, where: Any) -> None:
        for r in as_regions(where):
            primitive(ctx.game, ctx.me, r)
    return run


def _vacate(game, me, r: int) -> None:
    if game.occupant[r] is me:
        pieces.vacate(game, me, r)


def _withdraw(game, me, r: int) -> None:
    if game.occupant[r] is me:
        pieces.withdraw(game, me, r, region_minimum(game, me, r))


def _shift(ctx: Ctx, n: int, src: int | None, dst: int | None) -> None:
    if src is not None and dst is not None:
        pieces.shift_tokens(ctx.game, src, dst, n, ctx.me)


def _draw(ctx: Ctx, pool: str, where: int | None, face_down: bool) -> None:
    if where is None:
        return
    if pool == "power":
        pieces.bind_power(ctx.game, where)
    elif face_down:
        pieces.lay_from_pool(ctx.game, pool, where, face_down=True)
    else:
        pieces.draw_marker(ctx.game, pool, where, ctx.me)


def _can_draw(ctx: Ctx, pool: str, *_: Any) -> bool:
    """A hidden pool has a marker left to draw (the market's stack of powers is never said empty)."""
    return pool == "power" or bool(ctx.game.hidden.get(pool))


def _draw_kind(ctx: Ctx, kind: str, pool: str, where: int | None) -> None:
    if where is not None:
        pieces.draw_marker(ctx.game, pool, where, ctx.me, kind)


def _reveal_kind(ctx: Ctx, kind: str, where: Any) -> None:
    for r in as_regions(where):
        pieces.reveal(ctx.game, r, ctx.me, kind)


def _move_piece(ctx: Ctx, kind: str, src: int | None, dest: int | None) -> None:
    if src is not None and dest is not None:
        pieces.move_piece(ctx.game, kind, src, dest)


@attrs.frozen
class Strength:
    """`strength of MARKER in REGION` as something to write (`set`, `increase`, `decrease`, `roll`)."""

    marker: str
    region: Callable[[Ctx], int | None]

    def get(self, ctx: Ctx) -> int:
        r = self.region(ctx)
        return 0 if r is None else pieces.strength(ctx.game, r, self.marker)

    def set(self, ctx: Ctx, value: int) -> None:
        within_budget(ctx, f"the strength of {self.marker}", value)
        r = self.region(ctx)
        if r is not None:
            pieces.set_strength(ctx.game, r, self.marker, value)


def _for_each(ctx: Ctx, name: str, each: Any, then: Callable[[Ctx], None]) -> None:
    for _ in bound_each(ctx, name, each):
        then(ctx)


def _set(ctx: Ctx, var: Variable | Strength, v: Any) -> None:
    var.set(ctx, v)


def _bump(sign: int):
    def run(ctx: Ctx, var: Variable | Strength, n: int) -> None:
        var.set(ctx, (var.get(ctx) or 0) + sign * n)
    return run


def _roll(ctx: Ctx, var: Variable | Strength) -> None:
    var.set(ctx, chance.roll(ctx.game))


def _conquest_tokens(ctx: Ctx, r: int | None, empty: bool, using: int | None, from_tray: bool) -> int:
    """The tokens a `conquer` effect puts in (N, or the cost; never fewer than the
    region's minimum), or 0 if it cannot: not a region, already the race's, or
    fewer than that in hand (or tray)."""
    g, me = ctx.game, ctx.me
    if r is None or me is None or not pieces.on_table(g, me) or g.occupant[r] is me:
        return 0
    n = using if using is not None else conquest_cost(g, me, r, empty=empty)
    n = max(1, n, region_minimum(g, me, r))
    return n if n <= (g.tray[me.race.name] if from_tray else me.hand) else 0


def _can_conquer(ctx: Ctx, r: int | None, empty: bool, using: int | None, from_tray: bool, *_: bool) -> bool:
    return _conquest_tokens(ctx, r, empty, using, from_tray) > 0


def _conquer(ctx: Ctx, r: int | None, empty: bool, using: int | None, from_tray: bool, destroying: bool,
             sparing: bool) -> None:
    n = _conquest_tokens(ctx, r, empty, using, from_tray)
    if n:
        turn.conquer(ctx.game, ctx.me, r, n, from_tray=from_tray, destroy=destroying,  # type: ignore[arg-type]
                     spare=sparing)


def _rout(ctx: Ctx, where: Any, as_conquest: bool) -> None:
    for r in as_regions(where):
        turn.rout(ctx.game, ctx.me, r, as_conquest)  # type: ignore[arg-type]


def _end_conquests(ctx: Ctx) -> None:
    if ctx.game.turn.phase == "conquer" and ctx.game.turn.acting is ctx.me:
        turn.end_conquests(ctx.game)


def _resume_conquests(ctx: Ctx) -> None:
    t = ctx.game.turn
    if t.acting is ctx.me and t.phase == "redeploy" and ctx.me is not None and ctx.me.id not in t.resumed:
        t.resumed.add(ctx.me.id)
        t.queue.insert(0, ("again", ctx.me))


def _win(ctx: Ctx) -> None:
    if ctx.me is not None and ctx.me.player is not None:
        turn.finish(ctx.game, ctx.me.player)


def _copy(ctx: Ctx, kind: str, where: int | None, marker: str) -> None:
    if where is not None:
        pieces.copy_marker(ctx.game, kind, where, marker)


def _tag(ctx: Ctx, race: Any, name: str) -> None:
    if race is not None:
        race.turn_tags.add(name)


def _as(ctx: Ctx, race: Any, then: Callable[[Ctx], None]) -> None:
    if race is not None and race.id in ctx.game.races:
        other = Ctx(ctx.game, race, ctx.b)
        other.it = ctx.it
        then(other)


def _if(ctx: Ctx, cond: bool, then: Callable[[Ctx], None], orelse: Callable[[Ctx], None] | None) -> None:
    if cond:
        then(ctx)
    elif orelse is not None:
        orelse(ctx)


def _remove_from_regions(ctx: Ctx, marker: str, where: Any) -> None:
    for r in as_regions(where):
        pieces.remove_markers(ctx.game, r, lambda n, o: n != marker)


def _remove_from_players(ctx: Ctx, marker: str, who: Any) -> None:
    for seat in as_regions(who):
        pieces.remove_player_markers(ctx.game, seat, lambda n, o: n != marker)


def _place(ctx: Ctx, marker: str, where: Any, strength: int | None) -> None:
    within_budget(ctx, f"the strength of {marker}", strength)
    for r in as_regions(where):
        pieces.place_marker(ctx.game, marker, r, ctx.me, strength or 0)


def _give(ctx: Ctx, marker: str, who: Any) -> None:
    for seat in as_regions(who):
        pieces.give_marker(ctx.game, marker, seat, ctx.me)


def _award(ctx: Ctx, n: int, who: Any) -> None:
    for seat in as_regions(who):
        pieces.gain(ctx.game, seat, n)


def _return(ctx: Ctx, marker: str, pool: str, where: Any) -> None:
    for r in as_regions(where):
        pieces.return_markers(ctx.game, marker, r, pool)


def _swap(ctx: Ctx, a: Any, b: Any) -> None:
    if a is not None and b is not None:
        pieces.swap_regions(ctx.game, a, b, ctx.me)


def _swap_power(ctx: Ctx, a: Any, b: Any) -> None:
    if isinstance(b, str):
        pieces.swap_power(ctx.game, ctx.me, b)  # type: ignore[arg-type]


N, AMOUNT = Param("n", "int"), Param("amount", "int")
MARKER = Param("marker", "marker")
REGION, REGIONS = Param("region", "region"), Param("regions", "regions")
PLAYERS = Param("players", "players")

EFFECTS = {e.name: e for e in [
    Effect("gain", "gain N coins [for each SELECTION]", "the player takes N coins from the bank (N per element)",
           (AMOUNT, Param("each", "selection", optional=True)), _gain),
    Effect("pay", "pay N coins [to PLAYER]", "the player pays N coins (as many as they have) to the bank or a player",
           (AMOUNT, Param("to", "player", optional=True)),
           lambda ctx, amount, to: pieces.pay(ctx.game, ctx.me.player, amount, to)),
    Effect("take", "take N coins from PLAYERS", "the player takes up to N coins from each player selected",
           (AMOUNT, PLAYERS), _take),
    Effect("add", "add N tokens [to REGION]", "N tokens from the tray into hand, or into REGION if the race holds it "
           "or it is empty (then the race holds it, without a conquest), as many as are left",
           (N, Param("to", "region|combos", optional=True)), lambda ctx, n, to: pieces.add_tokens(ctx.game, ctx.me, n, to),
           by_type={"combos": lambda ctx, n, to: market.put_tokens(ctx.game, n)}),
    Effect("discard", "discard N tokens [from REGION]", "N of the race's tokens from hand back to the tray; with "
           "REGION, N tokens of whichever race holds it leave it: the race's own go back to its tray; another "
           "race's are a loss (`region.attacked` first; its `loss.discard` says how many of the N go to its tray, "
           "the others are withdrawn; `tokens.lost` follows). A region emptied is left, one left under its "
           "minimum joins the holder's most crowded region", (N, Param("from", "region", optional=True)), _discard),
    Effect("destroy", "destroy N tokens [from REGION | from tray]", "N tokens leave the game for good (the race's "
           "supply shrinks): from hand, from the race's tray, or of whichever race holds REGION (another race's: "
           "`region.attacked` first, `tokens.lost` after; `loss.discard` is not asked)",
           (N, Param("from", "region", optional=True), Param("from_tray", "flag")), _destroy,
           exclusive=(("from", "from_tray", "`from REGION` and `from tray`"),)),
    Effect("set_aside", "set aside N tokens [from hand]", "N tokens leave the map (most crowded regions first; "
           "`from hand`: only from hand) until troops are next readied", (N, Param("from_hand", "flag")),
           _set_aside),
    Effect("withdraw_tokens", "withdraw N tokens from hand", "N tokens from hand join the race's withdrawn tokens, "
           "placed again among its regions at the end of the turn like tokens withdrawn after a loss", (N,),
           lambda ctx, n: pieces.hold_back(ctx.game, ctx.me, n, withdrawn=True)),
    Effect("place", "place MARKER in SELECTION [with N]", "put one MARKER from its pool in each region selected; "
           "`with N`: each carries the number N, its strength (`strength of MARKER in REGION`; never below 0); "
           "`place MARKER in combos`: on every combo on offer, for its taker",
           (MARKER, Param("regions", "regions|combos"), Param("strength", "int", optional=True)), _place,
           takes="marker", by_type={"combos": lambda ctx, m, where, strength: market.put_marker(ctx.game, m)}),
    Effect("remove", "remove MARKER from SELECTION", "return the MARKERs in the selected regions (or held by the "
           "selected players) to their pool", (MARKER, Param("from", "regions|players")), _remove_from_regions,
           by_type={"player": _remove_from_players, "players": _remove_from_players}),
    Effect("move", "move MARKER to REGION", "move this race's MARKER (else one lying in a region it holds, such as a "
           "relic, else a new one from the pool) to REGION; a `fixed` marker never moves",
           (MARKER, REGION), lambda ctx, m, r: pieces.move_marker(ctx.game, ctx.me, m, r) if r is not None else None),
    Effect("move_piece", "move KIND from REGION to REGION", "move the first marker of that kind, tag or name lying "
           "in the first region, whoever it belongs to (it keeps its owner and strength), to the second; a "
           "`fixed` one never moves", (Param("kind", "piece"), Param("from", "region"), Param("to", "region")),
           _move_piece),
    Effect("draw", "draw POOL into REGION [face down]", "draw a random hidden marker of a setup pool and place it "
           "face up (fires `marker.drawn`); `face down`: it lies there face down, nobody's, unseen by `has` and its "
           "rules asleep, until it is revealed (`reveal`) or returned (`return`); `draw power into REGION` binds the "
           "top power of the market's stack to REGION for the rest of the game: the race holding REGION has its "
           "rules (its badge brings no tokens)",
           (Param("pool", "pool"), REGION, Param("face_down", "flag")), _draw, possible=_can_draw),
    Effect("draw_kind", "draw KIND from POOL into REGION", "draw the topmost marker of that kind, tag or name of a "
           "hidden pool (the others stay in order) and place it face up (fires `marker.drawn`); nothing if the "
           "pool holds none", (Param("kind", "piece"), Param("pool", "pool"), REGION), _draw_kind),
    Effect("reveal", "reveal SELECTION", "turn face up the markers lying face down in the selected regions (pack.yaml "
           "`face_down` placements); they are nobody's, their rules work at once (fires `marker.drawn`)",
           (REGIONS,), _each_region(lambda game, me, r: pieces.reveal(game, r, me))),
    Effect("reveal_kind", "reveal KIND from SELECTION", "turn face up only the face-down markers of that kind, tag "
           "or name in the selected regions (the others stay face down); as `reveal`",
           (Param("kind", "piece"), REGIONS),
           _reveal_kind),
    Effect("shuffle", "shuffle POOL", "shuffle what is left of a hidden pool (markers returned on top of it included)",
           (Param("pool", "pool"),), lambda ctx, pool: chance.shuffle(ctx.game, ctx.game.hidden.get(pool, []))),
    Effect("attack", "attack REGION", "an attack on REGION that moves nothing (an ability's conquest attempt that "
           "failed): its holder, if another race, hears `region.attacked`",
           (REGION,), lambda ctx, r: pieces.attacked(ctx.game, r, ctx.me) if r is not None else None),
    Effect("set", "set VAR to N", "set a variable (`NAME of PLAYER`: a player variable of that player; "
           "`strength of MARKER in REGION`: the number a marker carries)",
           (Param("var", "var"), Param("value", "value", same_as="var")), _set),
    Effect("increase", "increase VAR by N", "add to a variable (or a player variable of a player, or a marker's "
           "strength, as for `set`)", (Param("var", "counter"), N), _bump(1)),
    Effect("decrease", "decrease VAR by N", "subtract from a variable (or a player variable of a player, or a "
           "marker's strength, as for `set`)", (Param("var", "counter"), N), _bump(-1)),
    Effect("roll", "roll die into VAR", "roll the reinforcement die and keep the result in VAR",
           (Param("var", "counter"),), _roll),
    Effect("conquer", "conquer REGION [as empty] [using N tokens] [from tray] [destroying|sparing defenders]",
           "conquer REGION at once, with N tokens (default: its cost; `as empty`: its cost as if it held no race "
           "token) from hand or tray, never fewer than the region's minimum; not possible with fewer (an ability "
           "is not offered for it). `destroying defenders`: they are all discarded; `sparing defenders`: none is",
           (REGION, Param("as_empty", "flag"), Param("using", "int", optional=True), Param("from_tray", "flag"),
            Param("destroying", "flag"), Param("sparing", "flag")), _conquer, possible=_can_conquer,
           exclusive=(("destroying", "sparing", "`destroying defenders` and `sparing defenders`"),
                      ("as_empty", "using", "`as empty` (its cost) and `using N tokens`"))),
    Effect("vacate", "vacate SELECTION", "take the race's tokens back into hand from the selected regions",
           (REGIONS,), _each_region(_vacate)),
    Effect("rout", "rout SELECTION [as conquest]", "drive the races out of the selected regions as a conquest by "
           "this race would (`region.attacked`, losses, withdrawal, `region.lost`, `tokens.lost`) without entering "
           "them: they are left empty; `as conquest`: each also counts as a conquest for every bonus rule "
           "(`conquest.done`)", (REGIONS, Param("as_conquest", "flag")), _rout),
    Effect("move_tokens", "move N tokens from REGION to REGION", "up to N tokens of the race holding the first "
           "region go into the second, which it must hold too (another race's: `region.attacked` first); an "
           "emptied region is left, one left under its minimum joins the holder's most crowded region",
           (N, Param("from", "region"), Param("to", "region")), _shift),
    Effect("swap", "swap A with B", "regions: exchange their race tokens and markers (places, `fixed` and "
           "face-down markers stay; holders other than this race hear `region.attacked` first, a race coming to "
           "hold a region hears `region.entered`); powers: exchange the race's power A for the offered power B "
           "(tokens follow the badges)",
           (Param("a", "region|power"), Param("b", "region|power", same_as="a")), _swap,
           by_type={"power": _swap_power}),
    Effect("give", "give MARKER to PLAYERS", "put one MARKER from its pool in front of each player selected "
           "(`remove MARKER from PLAYERS` takes them back)", (MARKER, PLAYERS),
           _give, takes="marker"),
    Effect("award", "award N coins to PLAYERS", "the bank pays N coins to each player selected", (AMOUNT, PLAYERS),
           _award),
    Effect("return", "return MARKER to POOL from SELECTION", "put the MARKERs of the selected regions, face up or "
           "face down, back on top of the hidden pool POOL, unrevealed", (MARKER, Param("pool", "pool"), REGIONS),
           _return),
    Effect("withdraw", "withdraw SELECTION", "take all but the minimum of the race's tokens from the selected "
           "regions; they are placed again among its regions at the end of the turn, like tokens withdrawn after "
           "a loss", (REGIONS,), _each_region(_withdraw)),
    Effect("end_conquests", "end conquests", "the acting race's conquests end now (it goes on to redeploy)", (),
           _end_conquests),
    Effect("resume_conquests", "resume conquests", "after this redeployment the acting race readies its troops "
           "again and has a second conquest step, then redeploys again (once per turn; from its redeployment or "
           "`redeploy.end`)", (), _resume_conquests),
    Effect("cancel_conquest", "cancel conquest", "in a `conquest.done` trigger: the conquest is undone — the "
           "defender gets back its tokens, markers and the region, the attacker its tokens in hand; what other "
           "triggers did stays (nothing if the defender has left the table, or if a trigger took again from its "
           "pool a piece the loss had put back there)", (), lambda ctx: undo.cancel(ctx.game)),
    Effect("win", "win the game", "the game ends at once and this race's player wins it, whatever the coins "
           "(a race of nobody wins nothing)", (), _win),
    Effect("recruit", "recruit N MARKER", "up to N MARKER pieces from their pool join the race's hand and serve as "
           "its tokens; a race discards these first, and they go back to their pool", (N, MARKER),
           lambda ctx, n, m: pieces.recruit(ctx.game, ctx.me, m, n)),
    Effect("dismiss", "dismiss MARKER", "every MARKER serving as the race's tokens goes back to its pool (from hand "
           "first, then from its most crowded regions)", (MARKER,), lambda ctx, m: pieces.dismiss(ctx.game, ctx.me, m)),
    Effect("copy", "copy KIND from REGION to MARKER", "the MARKERs wear the rules of the KIND (a marker kind such as "
           "`relic`, a tag or a marker) lying in REGION, until they copy again",
           (Param("kind", "piece"), REGION, MARKER), _copy, wears="marker"),
    Effect("tag", "tag RACE with NAME", "RACE carries the tag NAME until the end of the current turn",
           (Param("race", "race"), Param("tag", "tag")), _tag),
    Effect("as", "as RACE: EFFECTS", "run effects as RACE (its tokens, hand and regions) instead of this race",
           (Param("race", "race"), Param("then", "effects")), _as),
    Effect("if", "if CONDITION: EFFECTS [else: EFFECTS]", "run effects only when a condition holds",
           (Param("condition", "bool"), Param("then", "effects"), Param("else", "effects", optional=True)), _if),
    Effect("for_each", "for each NAME in SELECTION: EFFECTS", "run effects once per element of the selection "
           "(taken once, before the first run), NAME standing for the element",
           (Param("name", "name"), Param("each", "selection"), Param("then", "effects")), _for_each),
]}
