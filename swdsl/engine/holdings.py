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

from typing import Final

from swdsl.engine import caches
from swdsl.engine.content import Content
from swdsl.engine.hooks import Ability, Modifier, Trigger
from swdsl.engine.state import Game, RaceInst


def attached(game: Game, region: int) -> list[Content]:
    """The content with rules lying in `region`: hooked markers (and what they wear), then bound powers."""
    rs = game.ruleset
    hooked, worn = game.index.hooked_markers, game.worn  # read once: a Ruleset's attribute is a dictionary lookup
    out = []
    for name, _, _ in game.markers[region]:
        if name in hooked:
            out.append(rs.markers[name])
            if name in worn:
                out.append(rs.worn_by(name, worn[name]))
    for name in game.bound_powers.get(region, ()):
        out.append(rs.powers[name])
    return out


def defenders(game: Game, region: int) -> int:
    """The race tokens in `region` plus the pieces there that `count as token` for the race holding
    it (its own and nobody's): what a conquest must beat and what `tokens of` counts."""
    n = game.tokens[region]
    inst = game.occupant[region]
    if inst is None or not game.index.token_markers or not game.markers[region]:
        return n
    counted = game.index.token_markers
    for name, owner, _ in game.markers[region]:  # a loop: asked of every conquest target
        if name in counted and (owner is None or owner == inst.id):
            n += 1
    return n


def any_attached(game: Game) -> bool:
    """Could any region hold content with rules? (Most packs have none: the engine then skips the search.)"""
    return bool(game.index.hooked_markers or game.bound_powers)


def may_hold(game: Game, name: str, on_markers: frozenset[str], on_powers: frozenset[str]) -> bool:
    """Could held content have rules for `name` (an event, an ability phase), given what markers and
    powers have (Index.held_events, …)? When not, the holdings are not looked at."""
    return name in on_markers or bool(game.bound_powers) and name in on_powers


class Held:
    """What a race holds through its regions: the regions with content with rules, that content (each
    declaration once, in region order), the stats it modifies and its abilities; its modifiers of a
    stat (with the race's declined state), triggers of an event and the fold's modifiers of a stat are
    worked out at their first use. A plain class: mypyc makes and reads it natively."""

    def __init__(self, regions: set[int], content: tuple[Content, ...], stats: frozenset[str],
                 abilities: tuple[Ability, ...]) -> None:
        self.regions = regions
        self.content = content
        self.stats = stats
        self.abilities = abilities
        self.mods: dict[tuple[str, bool], tuple[Modifier, ...]] = {}
        self.triggers: dict[str, tuple[Trigger, ...]] = {}
        self.folds: dict[str, tuple] = {}  # per stat, (the race's plan, its modifiers and these in fold order): stats.fold


NOTHING_HELD: Final = Held(set(), (), frozenset(), ())


def where(game: Game) -> tuple[dict[str, tuple[int, ...]], frozenset[int], dict[RaceInst, Held]]:
    """Where the face-up markers lie (each name's regions, in order), the regions holding content with
    rules (hooked markers, bound powers) and what each race asked about holds there. Kept in the game
    up to date: a marker laid or taken away tells `laid` or `taken`; every other writer of `markers`,
    `bound_powers` and `worn` (a swap, a power bound, a marker copying another, a conquest undone) sets
    `game.where` to None, so it is worked out again at its next use."""
    found = game.where
    if found is not None and caches.SWITCH.on:
        return found
    names: dict[str, list[int]] = {}
    hooked, rs = set(game.bound_powers), game.index.hooked_markers
    for r, marks in enumerate(game.markers):
        for name, _, _ in marks:
            regions = names.get(name)  # not setdefault: it would make a list for every marker
            if regions is None:
                names[name] = [r]
            elif regions[-1] != r:
                regions.append(r)
            else:
                continue
            if name in rs:
                hooked.add(r)
    found = {name: tuple(regions) for name, regions in names.items()}, frozenset(hooked), {}
    if caches.SWITCH.on:
        game.where = found
    return found


def laid(game: Game, name: str, region: int) -> None:
    """A `name` marker was just laid face up in `region` (a move's second half): the index of where markers
    lie is brought up to date in place of being made again at its next use. What races hold through their
    regions is kept unless the marker has rules (a bomb or a toll changes nobody's holdings)."""
    found = game.where
    if found is None:
        return
    names, hooked, kept = found
    regions = names.get(name, ())
    hooks = name in game.index.hooked_markers
    if region in regions and not hooks:
        return  # one more of a marker already there: the same index
    names = dict(names)
    if region not in regions:
        names[name] = tuple(sorted((*regions, region)))
    if hooks:
        hooked, kept = hooked | {region}, {}
    game.where = names, hooked, kept


def taken(game: Game, name: str, region: int) -> None:
    """A `name` marker was just taken out of `region` (a move's first half): as `laid`."""
    found = game.where
    if found is None:
        return
    names, hooked, kept = found
    rules = game.index.hooked_markers
    hooks = name in rules
    still = any(n == name for n, _, _ in game.markers[region])
    if still and not hooks:
        return
    names = dict(names)
    if not still:
        rest = tuple(r for r in names.get(name, ()) if r != region)
        if rest:
            names[name] = rest
        else:
            names.pop(name, None)
    if hooks:
        if region not in game.bound_powers and not any(n in rules for n, _, _ in game.markers[region]):
            hooked = hooked - {region}
        kept = {}
    game.where = names, hooked, kept


def held(game: Game, inst: RaceInst) -> Held:
    """What the race holds through its regions now. Kept in the race (`inst.holding`) while the marker
    index's record of holdings is the same object (laying or taking away a marker with rules, or a new
    index, makes a new one) and no region with content came to it or left it (hold and release drop it);
    and in that record while its regions with content stay the same."""
    index = game.where
    memo = inst.holding
    if memo is not None and index is not None and memo[0] is index[2] and caches.SWITCH.on:
        return memo[2]
    if index is None or not caches.SWITCH.on:
        if not (game.index.hooked_markers or game.bound_powers):
            return NOTHING_HELD
        index = where(game)
    found = _held(game, inst, index)
    if caches.SWITCH.on:
        inst.holding = index[2], index[1], found
    return found


def _held(game: Game, inst: RaceInst, index: tuple) -> Held:
    """What the race holds through the regions with content of `index` (the index's record of it, made
    again when those regions differ)."""
    hooked = index[1]
    if hooked.isdisjoint(inst.regions):
        return NOTHING_HELD
    hits = inst.regions & hooked
    kept = index[2]
    found = kept.get(inst)
    if found is None or found.regions != hits:
        content: list[Content] = []
        for r in sorted(hits):
            for c in attached(game, r):
                if not any(c is x for x in content):
                    content.append(c)
        found = kept[inst] = Held(hits, tuple(content), frozenset(st for c in content for st in c.modifiers),
                                  tuple(a for c in content for a in c.abilities))
    return found


def held_content(game: Game, inst: RaceInst) -> tuple[Content, ...]:
    """The content attached to the race's regions, each declaration once, in region order."""
    return held(game, inst).content


def held_mods(game: Game, inst: RaceInst, stat: str) -> tuple[Modifier, ...]:
    """The modifiers of `stat` that content the race holds adds now, in its current state."""
    h = held(game, inst)
    if stat not in h.stats:
        return ()
    key = (stat, inst.declined)
    found = h.mods.get(key)
    if found is None:
        found = h.mods[key] = tuple(m for c in h.content for m in c.modifiers.get(stat, ()) if inst.scope_ok(m.scope))
    return found


def held_triggers(game: Game, inst: RaceInst, event: str) -> tuple[Trigger, ...]:
    """The triggers of `event` of the content the race holds."""
    h = held(game, inst)
    if not h.content:
        return ()
    found = h.triggers.get(event)
    if found is None:
        found = h.triggers[event] = tuple(t for c in h.content for t in c.triggers.get(event, ()))
    return found
