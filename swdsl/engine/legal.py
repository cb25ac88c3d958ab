"""Legal actions: the single source of legality, and `apply`.

An action is a small tuple: (kind, a, b). Kinds:
  pick k            take the combo at position k (0-based)
  decline           put the active race into decline instead of expanding
  abandon r         abandon region r (only before the first conquest, R12)
  conquer r         conquer region r paying its cost from hand
  final r           final conquest: name r, roll the die (R9)
  ability key c     use an ability, with c the tuple of its choices
  end               stop conquering (conquer phase) or finish redeploying
  place r           put a token from hand (or withdrawn tokens) into r
  gather r          take all but the minimum of r back into hand (once per region)
  pass              decline nothing after scoring; or make no choice where a trigger `may choose`
  choose - c        a trigger's choices c, asked of its race's player (who may not be the current one)

Each kind has one predicate deciding whether an argument is allowed now; both
`legal_actions` (which tries the arguments worth trying: conquest targets come
from the frontier unless a rule makes more regions reachable) and `is_legal`
(which tries one) ask it, so no condition is written twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, cast

from swdsl.engine import market, pieces, turn
from swdsl.engine.content import Choice
from swdsl.engine.entries import Ctx
from swdsl.engine.errors import ContentError
from swdsl.engine.events import player_races
from swdsl.engine.holdings import held_content
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import conquest_cost, declares_adjacency, is_immune, modified, region_minimum, value


class Action(NamedTuple):
    kind: str
    a: object = None
    b: object = None


class IllegalAction(Exception):
    """apply() refused an action; the game is unchanged."""


END = Action("end")
DECLINE = Action("decline")
PASS = Action("pass")


# ---- conquests --------------------------------------------------------------------


def candidates(game: Game, inst: RaceInst) -> list[int]:
    """Regions worth testing as conquest targets."""
    if not inst.regions or modified(game, "conquest.reachable", inst) or declares_adjacency(game, inst):
        return [r for r in range(len(game.board)) if r not in inst.regions]
    nb = game.board.neighbours
    front: set[int] = set()
    for r in inst.regions:
        front |= nb[r]
    front -= inst.regions
    return sorted(front)


def conquerable(game: Game, inst: RaceInst, r: int) -> bool:
    """May `inst` conquer `r` wherever it lies (region.conquerable, not immune)?"""
    if not value(game, "region.conquerable", inst, target=r):
        return False
    return not ((game.markers[r] or game.occupant[r] is not None) and is_immune(game, r, inst))


def can_target(game: Game, inst: RaceInst, r: int) -> bool:
    """May `inst` attack `r` at all, whatever the cost?"""
    if not conquerable(game, inst, r):
        return False
    if inst.regions:
        return bool(value(game, "conquest.reachable", inst, target=r))
    return bool(value(game, "conquest.entry", inst, target=r))


def conquest_verdict(game: Game, inst: RaceInst, r: int) -> tuple[str, int] | None:
    """("conquer", cost) if `inst` can pay for `r`, ("final", cost) if only a
    final conquest with the die could take it (R9), None if neither."""
    if r in inst.regions or inst.hand <= 0 or not can_target(game, inst, r):
        return None
    cost = conquest_cost(game, inst, r)
    if cost <= inst.hand:
        return "conquer", cost
    if cost - inst.hand <= turn.final_shortfall(game) and inst.hand >= region_minimum(game, inst, r) \
            and value(game, "conquest.final", inst):
        return "final", cost
    return None


def _conquests(game: Game, inst: RaceInst) -> list[Action]:
    out = []
    for r in candidates(game, inst):
        v = conquest_verdict(game, inst, r)
        if v is not None:
            out.append(Action(v[0], r))
    return out


def _conquest_allows(kind: str):
    def allows(game: Game, inst: RaceInst, r: Any):
        v = conquest_verdict(game, inst, r)
        return v is not None and v[0] == kind and v[1]
    return allows


# ---- abilities ----------------------------------------------------------------------


def held_abilities(game: Game, inst: RaceInst) -> list:
    """The race's own abilities, then those of the content it holds (relics,
    places, bound powers), then the edition rules' ones."""
    own = list(inst.abilities) + list(game.ruleset.rule_abilities)
    held = held_content(game, inst)
    return own + [a for c in held for a in c.abilities] if held else own


def ability_users(game: Game, inst: RaceInst) -> list[tuple[RaceInst, str]]:
    """Whose abilities are on offer while `inst` acts, with the suffix of their
    action keys: the acting race's, then its player's other races' (those
    written `while declined` or `always`: a declined race still uses them)."""
    users = [(inst, "")]
    if inst.player is not None and game.ruleset.lasting_abilities:
        users += [(o, f"@{o.id}") for o in player_races(game, inst.player) if o is not inst]
    return users


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


def ability_actions(game: Game, inst: RaceInst, phase: str, only: Action | None = None) -> list[Action]:
    """The abilities on offer in `phase`; with `only`, just that one if legal."""
    out: list[Action] = []
    want = only.b if only is not None and isinstance(only.b, tuple) else None
    if only is not None and want is None:
        return out
    for user, suffix in ability_users(game, inst):
        for ab in held_abilities(game, user):
            key = ab.key + suffix
            if ab.phase != phase or not user.scope_ok(ab.scope) or (only is not None and key != only.a):
                continue
            if user is not inst and ab.scope == "active":
                continue
            uses = _uses(game, ab.per)
            if ab.limit is not None and not ab.per_owner and uses.get((user.id, ab.key), 0) >= ab.limit:
                continue
            ctx = Ctx(game, user, {})
            if ab.when is not None and not ab.when(ctx):
                continue
            for combo in _choices(ctx, ab.choose, 0, want):
                if ab.per_owner and ab.limit is not None:
                    owner = game.owner_of(combo[0]) if combo else None
                    if uses.get((user.id, ab.key, owner), 0) >= ab.limit:
                        continue
                if ab.possible is not None and not ab.possible(Ctx(game, user, _bound(ab, combo))):
                    continue
                out.append(Action("ability", key, tuple(combo)))
    return out


def decision_actions(game: Game) -> list[Action]:
    """The choices of the first trigger waiting for its player (turn.ask)."""
    d = game.turn.decisions[0]
    return [Action("choose", None, combo) for combo in _choices(Ctx(game, d.race, dict(d.bindings)), d.trigger.choose)]


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


def _bound(ab, choices: tuple) -> dict:
    """The ability's choices by name."""
    return {c.name: v for c, v in zip(ab.choose, choices)}


# ---- the table of action kinds ---------------------------------------------------------


class Kind(NamedTuple):
    """An action kind in one phase: a guard on the whole turn state, the
    arguments worth trying, and the predicate an argument must pass (None: every
    option is allowed, and only options are). Both legal_actions and is_legal
    ask these, so no condition is written twice."""

    guard: Callable[[Game, RaceInst], bool]
    options: Callable[[Game, RaceInst], Iterable[Any]]
    allows: Callable[[Game, RaceInst, Any], Any] | None = None


def _always(game: Game, inst: Any) -> bool:
    return True


def _region(game: Game, a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(game.board)


def _may_decline(game: Game, inst: RaceInst) -> bool:
    t = game.turn
    if t.phase == "after":
        return True
    return inst is game.players[game.current].active and not (t.picked or t.conquered or t.abandoned or t.resumed)


def _may_gather(game: Game, inst: RaceInst, r: Any) -> bool:
    t = game.turn
    return r not in t.gathered and r not in t.placed and game.tokens[r] > region_minimum(game, inst, r) \
        and value(game, "redeploy.gather", inst, target=r)


def _pick_options(game: Game, inst: Any) -> range:
    return range(len(game.visible_combos()))


def _may_pick(game: Game, inst: Any, k: Any) -> bool:
    offers = game.visible_combos()
    return isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(offers) \
        and market.price(game, offers[k][0], offers[k][1]) <= game.players[game.current].coins \
        and game.may_pick(game.current, offers[k][0])


def _none(game: Game, inst: Any) -> tuple:
    return (None,)


def _regions(game: Game, inst: RaceInst) -> list[int]:
    return sorted(inst.regions)


PHASES: dict[str, dict[str, Kind]] = {
    "pick": {"pick": Kind(_always, _pick_options, _may_pick)},
    "conquer": {
        "decline": Kind(_may_decline, _none),
        "abandon": Kind(lambda game, inst: not (game.turn.conquered or inst.id in game.turn.resumed), _regions),
        "conquer": Kind(lambda game, inst: inst.hand > 0, _conquests, _conquest_allows("conquer")),
        "final": Kind(lambda game, inst: inst.hand > 0, _conquests, _conquest_allows("final")),
        "ability": Kind(_always, lambda game, inst: ability_actions(game, inst, "conquest")),
        "end": Kind(_always, _none),
    },
    "redeploy": {
        "place": Kind(lambda game, inst: inst.hand > 0, _regions),
        "end": Kind(lambda game, inst: inst.hand <= 0 or not inst.regions, _none),
        "gather": Kind(_always, _regions, _may_gather),
        "ability": Kind(_always, lambda game, inst: ability_actions(game, inst, "redeploy")),
    },
    "defend": {"place": Kind(_always, _regions)},
    "start": {"ability": Kind(_always, lambda game, inst: ability_actions(game, inst, "start")),
              "end": Kind(_always, _none)},
    "scoring": {"ability": Kind(_always, lambda game, inst: ability_actions(game, inst, "scoring")),
                "end": Kind(_always, _none)},
    "after": {"decline": Kind(_may_decline, _none), "pass": Kind(_always, _none)},
    "choose": {"choose": Kind(_always, lambda game, inst: decision_actions(game)),
               "pass": Kind(lambda game, inst: game.turn.decisions[0].trigger.optional, _none)},
}
ABILITY_PHASE = {"conquer": "conquest", "redeploy": "redeploy", "start": "start", "scoring": "scoring"}
_WHOLE = {"conquer", "final", "ability", "choose"}  # kinds whose options are whole actions (conquer lists the finals)
_REGION_KINDS = {"abandon", "conquer", "final", "place", "gather"}


def legal_actions(game: Game) -> list[Action]:
    kinds = PHASES.get(game.turn.phase)
    if not kinds or game.over:
        return []
    inst: RaceInst = game.turn.acting  # type: ignore[assignment]
    out: list[Action] = []
    for kind, rule in kinds.items():
        if kind == "final" or not rule.guard(game, inst):
            continue
        if kind in _WHOLE:
            out.extend(rule.options(game, inst))
        elif rule.allows is None:
            out.extend(Action(kind, a) for a in rule.options(game, inst))
        else:
            allows = rule.allows
            out.extend(Action(kind, a) for a in rule.options(game, inst) if allows(game, inst, a))
    return out


def _verdict(game: Game, action: Action):
    """False if illegal; else a truthy verdict (the conquest cost for conquer/final)."""
    kind, a, b = action.kind, action.a, action.b
    rule = PHASES.get(game.turn.phase, {}).get(kind)
    inst: RaceInst = game.turn.acting  # type: ignore[assignment]
    if rule is None or game.over or not rule.guard(game, inst):
        return False
    if kind == "ability":
        return bool(ability_actions(game, inst, ABILITY_PHASE[game.turn.phase], action))
    if kind == "choose":
        return action.a is None and isinstance(b, tuple) and action in decision_actions(game)
    if b is not None or (kind in _REGION_KINDS and not _region(game, a)) or (kind not in _REGION_KINDS
                                                                            and kind != "pick" and a is not None):
        return False
    if rule.allows is None:
        return a in rule.options(game, inst)
    return rule.allows(game, inst, a) if kind in _WHOLE or kind == "pick" or a in rule.options(game, inst) \
        else False


def is_legal(game: Game, action: Action) -> bool:
    """Whether `action` is in legal_actions(game), decided without listing them all."""
    return _verdict(game, action) is not False


def apply(game: Game, action: Action) -> None:
    """Play one action; an action not in legal_actions is refused unchanged."""
    if type(action) is not Action:
        action = Action(*action)
    verdict = _verdict(game, action)
    if verdict is False:
        raise IllegalAction(explain_illegal(game, action))
    apply_legal(game, action, verdict if action.kind in ("conquer", "final") else None)


def apply_legal(game: Game, action: Action, cost: int | None = None) -> None:
    """Play an action already known to be legal (bots use this after choosing
    from legal_actions, to avoid generating them twice)."""
    if len(game.actions) >= game.ruleset.budgets.actions:
        _over_budget(game)
    game.actions.append(action)
    kind = action.kind
    t = game.turn
    t.runs = 0
    inst = cast(RaceInst, t.acting)
    if kind == "pick":
        turn.pick(game, cast(int, action.a))
    elif kind == "ability":
        use_ability(game, inst, cast(str, action.a), cast(tuple, action.b))
    elif kind == "end":
        if t.phase == "conquer":
            turn.end_conquests(game)
        elif t.phase == "redeploy":
            turn.end_redeploy(game)
        else:  # the start or the end of the turn
            if t.phase == "start":
                turn.start_of_turn(game)
            turn.advance(game)
    elif kind == "decline":
        turn.decline(game, inst)
        turn.advance(game)
    elif kind == "choose":
        turn.decide(game, cast(tuple, action.b))
    elif kind == "pass":
        turn.decide(game, None) if t.phase == "choose" else turn.advance(game)
    else:
        _apply_to_region(game, inst, kind, cast(int, action.a), cost)
    after = game.turn
    if after.decisions and after.phase != "choose" and not game.over:
        turn.ask(game, (after.phase, after.acting, after.actor))


def _apply_to_region(game: Game, inst: RaceInst, kind: str, r: int, cost: int | None) -> None:
    t = game.turn
    if kind in ("conquer", "final"):
        cost = conquest_cost(game, inst, r) if cost is None else cost
        (turn.conquer if kind == "conquer" else turn.final_attempt)(game, inst, r, cost)
    elif kind == "abandon":
        pieces.vacate(game, inst, r)
        t.abandoned = True
    elif kind == "place":
        game.tokens[r] += 1
        if t.phase == "defend":
            inst.pending -= 1
            if inst.pending == 0:
                turn.advance(game)
        else:
            inst.hand -= 1
            t.placed.add(r)
    elif kind == "gather":
        keep = region_minimum(game, inst, r)
        inst.hand += game.tokens[r] - keep
        game.tokens[r] = keep
        t.gathered.add(r)


def _over_budget(game: Game) -> None:
    """The game passed the pack's action budget: stop it, naming the ability used most (the
    usual cause: one that nothing bounds)."""
    budget = game.ruleset.budgets.actions
    used = Counter(str(a[1]).split("@", 1)[0] for a in game.actions if a[0] == "ability")
    key, times = used.most_common(1)[0] if used else ("", 0)
    ab = next((a for c in game.ruleset.everything() for a in c.abilities if a.key == key), None)
    what = f" (ability {ab.name} of {ab.source}, used {times} times)" if ab is not None else ""
    raise ContentError(ab.where if ab is not None else game.ruleset.name, "SW502",
                       f"the game passed its budget of {budget} actions{what}",
                       "an ability used again and again is the usual cause: give it a limit (`once per turn`), or "
                       "raise `budgets: actions` in pack.yaml if games are meant to be this long")


def explain_illegal(game: Game, action: Action) -> str:
    """Why an action is not legal now, in words."""
    if game.over:
        return "the game is over"
    kinds = {a.kind for a in legal_actions(game)}
    if action.kind not in kinds:
        return f"'{action.kind}' is not possible in the {game.turn.phase} phase (possible: {', '.join(sorted(kinds))})"
    inst = game.turn.acting
    if action.kind in ("conquer", "final") and _region(game, action.a) and inst is not None:
        r: int = action.a  # type: ignore[assignment]
        rid = game.board.regions[r].id
        if r in inst.regions:
            return f"region {rid} is already held by {inst.name}"
        if not can_target(game, inst, r):
            return f"region {rid} cannot be attacked by {inst.name} now (not reachable, immune or not conquerable)"
        cost = conquest_cost(game, inst, r)
        if action.kind == "conquer":
            return f"region {rid} costs {cost} tokens and {inst.name} has {inst.hand} in hand"
        return (f"a final conquest of region {rid} needs a shortfall of 1 to {turn.final_shortfall(game)} "
                f"(cost {cost}, hand {inst.hand})")
    return f"{tuple(action)} is not among the legal actions"
