"""Values the compiled rules keep instead of working them out again: map-only values per board and
target (or per kind of region, in the ruleset: on any board), map-only selections per board, the
last value of a function of its arguments and borders alone (and of the race's links, region.linked: it is
worked out again for a race linking regions) — each worked out again whenever the race reading it
declares adjacency of its own (its borders are not the map's) — and a rule's parts that read no binding,
once per decision. None is kept with the caches off."""

from __future__ import annotations

from typing import Any, Final

from swdsl.engine import caches
from swdsl.engine.adjacency import links
from swdsl.engine.caches import NOT_KEPT, kept_for_kind
from swdsl.engine.entries import Ctx
from swdsl.engine.stats import AS_EMPTY, declares_adjacency

_MISSING: Final = object()


def per_target(fn, adjacency: bool, local: bool):
    """Memoise a value that depends only on the map and `target`, per board and target; one that reads
    only the target's own facts, in the ruleset per kind of region (Board.kind_ids): on any board."""
    def cached(ctx: Ctx) -> Any:
        if adjacency and declares_adjacency(ctx.game, ctx.me) or not caches.SWITCH.on:
            return fn(ctx)
        target = ctx.b.get("target")
        if local and target is not None:
            values = ctx.game.index.local.get(cached)
            if values is None:
                values = ctx.game.index.local[cached] = []
            kind = ctx.game.board.kind_ids[target]
            got = kept_for_kind(values, kind)
            if got is NOT_KEPT:
                got = values[kind] = fn(ctx)
            return got
        memo, key = ctx.game.board.memo, (cached, target)
        got = memo.get(key, _MISSING)
        if got is _MISSING:
            got = memo[key] = fn(ctx)
        return got
    return cached


def by_arguments(call, args):
    """A call of a function of its arguments and borders alone (`reach`, `groups`): for a race that
    declares no adjacency of its own and links no regions (region.linked), its last value is kept in the
    board with the arguments' values and given again while they are the same (a reach rule's `target
    borders reach(my regions, …)` asks the same reach for every target)."""
    def kept(ctx):
        values = [a(ctx) for a in args]
        if declares_adjacency(ctx.game, ctx.me) or links(ctx.game, ctx.me) or not caches.SWITCH.on:
            return call(ctx, *values)
        key = tuple(v if v is None or isinstance(v, (int, frozenset)) else tuple(v) for v in values)
        memo = ctx.game.board.memo
        last = memo.get(kept)
        if last is None or last[0] != key:
            last = memo[kept] = key, call(ctx, *values)
        found = last[1]
        return list(found) if isinstance(found, list) else found  # a list of its own for whoever asked
    return kept


def per_decision(fn):
    """A part of a rule of `target` that reads no binding (`reach(my regions, regions where is river)` in
    `target borders …`), read once while the game is only read (caches.kept: a decision, a turn's coins)
    rather than once per region asked: kept per race asking, whether its borders are the map's for the
    moment (inside its own region.adjacent rules), whether its chains follow its links (not inside its
    region.linked rules) and the region priced as if empty, the only facts besides the game's it may read."""
    def once(ctx: Ctx) -> Any:
        memo = caches.kept(ctx.game)
        if memo is None:
            return fn(ctx)
        me = ctx.me
        key = (once, me, me is not None and me.id in ctx.game.reading_adjacency,
               me is not None and me.id in ctx.game.reading_links, ctx.b.get(AS_EMPTY))
        got = memo.get(key, _MISSING)
        if got is _MISSING:
            got = memo[key] = fn(ctx)
        return got
    return once


def per_board(fn, adjacency: bool, keep=frozenset):
    """Memoise a map-only selection in the board it was computed on (`keep`: as what)."""
    def cached(ctx: Ctx) -> Any:
        if adjacency and declares_adjacency(ctx.game, ctx.me) or not caches.SWITCH.on:
            return keep(fn(ctx))
        memo = ctx.game.board.memo
        got = memo.get(cached)
        if got is None:
            got = memo[cached] = keep(fn(ctx))
        return got
    return cached
