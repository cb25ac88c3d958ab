"""Abilities: which are on offer to the acting race (its own, the edition rules', those of what it
holds, and its player's other races' that work in decline), every combination of their choices that
is legal now, the choices a waiting trigger asks for, and using one. legal.py lists and checks them
with the other action kinds."""

from __future__ import annotations

import functools
from typing import Any

from swdsl.engine.actions import Action, new_action
from swdsl.engine.entries import Ctx
from swdsl.engine.holdings import any_attached, held, may_hold
from swdsl.engine.hooks import Ability, Choice
from swdsl.engine.state import Game, RaceInst


def held_abilities(game: Game, inst: RaceInst, phase: str | None = None) -> tuple[Ability, ...]:
    """The race's own abilities, then the edition rules' ones, then those of the content it holds
    (relics, places, bound powers; with `phase`: only if some held content has abilities in that
    phase)."""
    ix = game.index
    own = inst.abilities + ix.rule_abilities
    if phase is not None and not may_hold(game, phase, ix.held_phases, ix.power_phases):
        return own
    extra = held(game, inst).abilities
    return own + extra if extra else own


def ability_users(game: Game, inst: RaceInst) -> list[RaceInst]:
    """Whose abilities are on offer while `inst` acts: the acting race, then its player's other races
    (their abilities written `while declined` or `always`: a declined race still uses them)."""
    users = [inst]
    if inst.player is not None and game.index.lasting_abilities:
        p = game.players[inst.player]
        if p.active is not None and p.active is not inst:
            users.append(p.active)
        for o in p.declined:  # a loop, not a generator: asked at every decision
            if o is not inst:
                users.append(o)
    return users


def ability_key(ab: Ability, user: RaceInst, inst: RaceInst) -> str:
    """The action key of `user`'s ability while `inst` acts: its own key, or `key@race id` for another
    race of the player."""
    return ab.key if user is inst else f"{ab.key}@{user.id}"


def _choices(ctx: Ctx, choose: tuple[Choice, ...], i: int = 0, want: tuple | None = None) -> list[tuple]:
    """Every combination of an ability's choices (or only `want`, if it is
    one); a later choice may depend on the earlier ones, which are bound while
    its options are listed."""
    if i == len(choose):
        return [()]
    c = choose[i]
    if want is None:
        options = c.options(ctx)
    else:
        options = [want[i]] if i < len(want) and c.is_option(ctx, want[i]) else []
    out: list[tuple] = []
    for v in options:
        ctx.b[c.name] = v
        out.extend((v,) + rest for rest in _choices(ctx, choose, i + 1, want))
    ctx.b.pop(c.name, None)
    return out


def _uses(game: Game, per: str | None) -> dict:
    return game.uses if per == "game" else game.turn.uses


def _offered(game: Game, inst: RaceInst, phase: str,
             key_wanted: str | None = None) -> list[tuple[RaceInst, str, Ability, Ctx, dict, Any]]:
    """(user, action key, ability, ctx, uses, first) of each ability that may be used in `phase` (or
    only the one keyed `key_wanted`), its own limits and condition passed; its choices still to
    check. `first`: the values its one choice is among, when they are few (Choice.few), else None;
    they are read before the condition, an ability with none left out unasked (an edition rule's
    ability offered to every race at every decision, choosing a region where some marker lies, is
    mostly left out so). A list, not a generator: asked at every decision."""
    out: list[tuple[RaceInst, str, Ability, Ctx, dict, Any]] = []
    if phase not in game.index.ability_phases:
        return out
    for user in ability_users(game, inst):
        for ab in held_abilities(game, user, phase):
            if ab.phase != phase or not user.scope_ok(ab.scope) or user is not inst and ab.scope == "active":
                continue
            key = ability_key(ab, user, inst)
            if key_wanted is not None and key != key_wanted:
                continue
            uses = _uses(game, ab.per)
            if ab.limit is not None and not ab.per_owner and uses.get((user.id, ab.key), 0) >= ab.limit:
                continue
            ctx = Ctx(game, user, {})
            first = None
            if ab.few is not None:
                first = ab.few(ctx)
                if not first:
                    continue
            if ab.when is not None and not ab.when(ctx):
                continue
            out.append((user, key, ab, ctx, uses, first))
    return out


def _combos(game: Game, user: RaceInst, key: str, ab: Ability, ctx: Ctx, uses: dict, want: tuple | None) -> list[Action]:
    """The ability's legal actions: every combination of its choices (or `want` only)."""
    out = []
    for combo in _choices(ctx, ab.choose, 0, want):
        if ab.per_owner and ab.limit is not None:
            owner = game.owner_of(combo[0]) if combo else None
            if uses.get((user.id, ab.key, owner), 0) >= ab.limit:
                continue
        if ab.possible is not None and not ab.possible(Ctx(game, user, _bound(ab, combo))):
            continue
        out.append(new_action("ability", key, tuple(combo)))
    return out


def ability_actions(game: Game, inst: RaceInst, phase: str, only: Action | None = None) -> list[Action]:
    """The abilities on offer in `phase`; with `only`, just that one if legal."""
    out: list[Action] = []
    want = only.b if only is not None and isinstance(only.b, tuple) else None
    if only is not None and (want is None or not isinstance(only.a, str)):  # no key: no ability (not every one)
        return out
    for user, key, ab, ctx, uses, _ in _offered(game, inst, phase, None if only is None else only.a):  # type: ignore[arg-type]
        out.extend(_combos(game, user, key, ab, ctx, uses, want))
    return out


def ability_candidates(game: Game, inst: RaceInst, phase: str) -> tuple[list[Action], list[tuple]]:
    """(legal, unlisted): the abilities on offer in `phase`; those with one choice among a `where`
    selection, or whose later choices are among few values (Choice.few), are not listed but given as
    (the values or combinations worth checking (their positions when each choice's values are its own:
    _nth), `check(game, inst, v)`: the action choosing `v` and its verdict (None), if legal): `sample`
    checks only the ones it draws."""
    legal: list[Action] = []
    unlisted: list[tuple] = []
    ix = game.index
    if phase not in ix.ability_phases or not (inst.abilities or ix.rule_abilities or ix.lasting_abilities or any_attached(
            game) and may_hold(game, phase, ix.held_phases, ix.power_phases)):
        return legal, unlisted
    for user, key, ab, ctx, uses, first in _offered(game, inst, phase):
        choose = ab.choose
        if len(choose) == 1 and choose[0].base is not None:
            values = choose[0].base(ctx) if first is None else first
            unlisted.append((_distinct(values), functools.partial(_choosing, key, ab, ctx, uses, False)))
        elif ab.product:  # their combinations by position: a product of eight regions by eight is 64 tuples
            values = [_distinct(c.base(ctx)) for c in choose]  # type: ignore[misc]
            n = 1
            for v in values:
                n *= len(v)
            unlisted.append((list(range(n)), functools.partial(_choosing_nth, values, key, ab, ctx, uses)))
        elif len(choose) > 1 and all(c.few for c in choose[1:]):
            unlisted.append((_worth_checking(ctx, choose), functools.partial(_choosing, key, ab, ctx, uses, True)))
        else:
            legal.extend(_combos(game, user, key, ab, ctx, uses, None))
    return legal, unlisted


def _nth(values: list[list], i: int) -> tuple:
    """The i-th combination of one value of each list, the first list's varying slowest (as nested loops)."""
    out: list = []
    for c in range(len(values) - 1, -1, -1):
        v = values[c]
        out.append(v[i % len(v)])
        i //= len(v)
    out.reverse()
    return tuple(out)


def _choosing_nth(values: list[list], key: str, ab: Ability, ctx: Ctx, uses: dict, game: Game, inst: RaceInst,
                  i: int) -> tuple[Action, None] | None:
    return _choosing(key, ab, ctx, uses, True, game, inst, _nth(values, i))


def _worth_checking(ctx: Ctx, choose: tuple[Choice, ...], i: int = 0, prefix: tuple = ()) -> list[tuple]:
    """The combinations worth checking one at a time, each once: the first choice's options, and each later
    choice among the values its `where` tests (the earlier ones bound while they are read)."""
    if i == len(choose):
        return [prefix]
    c = choose[i]
    out: list[tuple] = []
    for v in c.options(ctx) if i == 0 else _distinct(c.base(ctx)):  # type: ignore[misc]
        ctx.b[c.name] = v
        out.extend(_worth_checking(ctx, choose, i + 1, prefix + (v,)))
    ctx.b.pop(c.name, None)
    return out


def _distinct(values: Any) -> list:
    """Each of `values` once, in order (a new list: `sample` takes rejected ones out of it). Told apart
    in C (a set of them): a selection rarely names a value twice, and a loop here ran at every decision."""
    out = list(values)
    if len(set(out)) != len(out):
        out = list(dict.fromkeys(out))
    return out


def _choosing(key: str, ab: Ability, ctx: Ctx, uses: dict, whole: bool, game: Game, inst: RaceInst,
              v: Any) -> tuple[Action, None] | None:
    found = _combos(game, ctx.me, key, ab, ctx, uses, v if whole else (v,))  # type: ignore[arg-type]
    return (found[0], None) if found else None


def decision_actions(game: Game) -> list[Action]:
    """The choices of the first trigger waiting for its player (turn.ask)."""
    d = game.turn.decisions[0]
    return [new_action("choose", None, combo) for combo in _choices(Ctx(game, d.race, dict(d.bindings)), d.trigger.choose)]


def use_ability(game: Game, inst: RaceInst, key: str, choices: tuple) -> None:
    """Run an ability: the acting race's (`key`), or another race's of its
    player (`key@race id`)."""
    user = inst
    if "@" in key:
        key, rid = key.rsplit("@", 1)
        user = game.races[int(rid)]
    ab = next(a for a in held_abilities(game, user) if a.key == key)
    if ab.limit is not None:
        k = (user.id, ab.key, game.owner_of(choices[0])) if ab.per_owner else (user.id, ab.key)
        uses = _uses(game, ab.per)
        uses[k] = uses.get(k, 0) + 1
    game.cause = ab.source
    ab.run(Ctx(game, user, _bound(ab, choices)))


def _bound(ab: Ability, choices: tuple) -> dict:
    """The ability's choices by name."""
    return {c.name: v for c, v in zip(ab.choose, choices)}
