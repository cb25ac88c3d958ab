"""Content a race holds through its regions: the relics and places lying there
(with the rules they wear, `copy`) and the powers bound to them (`draw power`).

This is one mechanism for every piece of content that works for whoever holds
its region: relics and places of every pack (docs/architecture.md names them),
powers bound to a region, and any designer's. Their modifiers fold into
the holder's stats (stats.py) and their triggers and abilities are the holder's
(events.py, legal.py), each in the holder's current state (a declined holder
uses none unless a rule says `while declined` or `always`).
"""

from __future__ import annotations

from swdsl.engine import caches
from swdsl.engine.content import Content
from swdsl.engine.state import Game, RaceInst


def attached(game: Game, region: int) -> list[Content]:
    """The content with rules lying in `region`: hooked markers (and what they wear), then bound powers."""
    rs = game.ruleset
    out = []
    for name, *_ in game.markers[region]:
        if name in rs.hooked_markers:
            out.append(rs.markers[name])
            if name in game.worn:
                out.append(rs.worn_by(name, game.worn[name]))
    for name in game.bound_powers.get(region, ()):
        out.append(rs.powers[name])
    return out


def defenders(game: Game, region: int) -> int:
    """The race tokens in `region` plus the pieces there that `count as token` for the race holding
    it (its own and nobody's): what a conquest must beat and what `tokens of` counts."""
    n = game.tokens[region]
    inst = game.occupant[region]
    if inst is None or not game.ruleset.token_markers or not game.markers[region]:
        return n
    counted = game.ruleset.token_markers
    return n + sum(1 for name, owner, _ in game.markers[region] if name in counted and owner in (None, inst.id))


def any_attached(game: Game) -> bool:
    """Could any region hold content with rules? (Most packs have none: the engine then skips the search.)"""
    return bool(game.ruleset.hooked_markers or game.bound_powers)


def may_hold(game: Game, name: str, on_markers: frozenset[str], on_powers: frozenset[str]) -> bool:
    """Could held content have rules for `name` (an event, an ability phase), given what markers and
    powers have (ruleset.held_events, …)? When not, the holdings are not looked at."""
    return name in on_markers or bool(game.bound_powers) and name in on_powers


def where(game: Game) -> tuple[dict[str, list[int]], frozenset[int]]:
    """Where the face-up markers lie (each name's regions, in order) and the regions holding content
    with rules (hooked markers, bound powers). Kept in the game until a marker is laid, moved or taken
    away or a power is bound: every writer of `markers` and `bound_powers` sets `game.where` to None,
    so it is worked out again at its next use (once for the many reads between two moves)."""
    found = game.where
    if found is not None and caches.ON:
        return found
    names: dict[str, list[int]] = {}
    hooked, rs = set(game.bound_powers), game.ruleset.hooked_markers
    for r, marks in enumerate(game.markers):
        for name, *_ in marks:
            regions = names.setdefault(name, [])
            if not regions or regions[-1] != r:
                regions.append(r)
                if name in rs:
                    hooked.add(r)
    found = names, frozenset(hooked)
    if caches.ON:
        game.where = found
    return found


def held_content(game: Game, inst: RaceInst) -> list[Content]:
    """The content attached to the race's regions, each declaration once, in region order (worked
    out once per race while the game is only read: caches.reading). The list is not to be changed."""
    if not any_attached(game):
        return []
    memo = caches.kept(game)
    if memo is None:
        return _held(game, inst)
    found = memo.get(inst)
    if found is None:
        found = memo[inst] = _held(game, inst)
    return found


def _held(game: Game, inst: RaceInst) -> list[Content]:
    hits = inst.regions & where(game)[1]
    if not hits:
        return []
    out: list[Content] = []
    for r in sorted(hits):
        for c in attached(game, r):
            if not any(c is x for x in out):
                out.append(c)
    return out
