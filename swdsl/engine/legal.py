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

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from swdsl.engine import caches, market, pieces, turn
from swdsl.engine.abilities import ability_actions, ability_candidates, decision_actions, use_ability
from swdsl.engine.actions import Action, IllegalAction, new_action
from swdsl.engine.errors import ContentError
from swdsl.engine.frontier import candidates
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import conquest_cost, is_immune, region_minimum, value

# ---- conquests --------------------------------------------------------------------


def conquerable(game: Game, inst: RaceInst, r: int) -> bool:
    """May `inst` conquer `r` wherever it lies (region.conquerable, not immune)?"""
    if not value(game, "region.conquerable", inst, target=r):
        return False
    return not ((game.markers[r] or game.occupant[r] is not None) and is_immune(game, r, inst))


def can_target(game: Game, inst: RaceInst, r: int, near: bool = False) -> bool:
    """May `inst` attack `r` at all, whatever the cost? (Reach first: it rules out the most regions;
    `near`: r is on the race's frontier, in reach by the map's borders.)"""
    if not near and not value(game, "conquest.reachable" if inst.regions else "conquest.entry", inst, target=r):
        return False
    return conquerable(game, inst, r)


def conquest_verdict(game: Game, inst: RaceInst, r: int, near: bool = False) -> tuple[str, int] | None:
    """("conquer", cost) if `inst` can pay for `r`, ("final", cost) if only a
    final conquest with the die could take it (R9), None if neither."""
    if r in inst.regions or inst.hand <= 0 or not can_target(game, inst, r, near):
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
    targets, near = candidates(game, inst)
    for r in targets:
        v = conquest_verdict(game, inst, r, near)
        if v is not None:
            out.append(new_action(v[0], r))
    return out


def _conquest_allows(kind: str):
    def allows(game: Game, inst: RaceInst, r: Any):
        v = conquest_verdict(game, inst, r)
        return v[1] if v is not None and v[0] == kind else None
    return allows


# ---- the table of action kinds ---------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Kind:
    """An action kind in one phase: a guard on the whole turn state, the
    arguments worth trying, and the predicate an argument must pass (None: every
    option is allowed, and only options are). Both legal_actions and is_legal
    ask these, so no condition is written twice. (A dataclass: mypyc reads its fields directly.)"""

    guard: Callable[[Game, RaceInst], bool] | None  # None: always (no call at every decision)
    options: Callable[[Game, RaceInst], list]  # a new list each time
    allows: Callable[[Game, RaceInst, Any], Any] | None = None
    has: Callable[[Game, RaceInst, Any], bool] | None = None  # `a in options(…)`, told without listing them


def _region(game: Game, a: Any) -> bool:
    return type(a) is int and 0 <= a < len(game.tokens)  # exactly an int: True is no region


def _may_decline(game: Game, inst: RaceInst) -> bool:
    t = game.turn
    if t.phase == "after":
        return True
    return inst is game.players[game.current].active and not (t.picked or t.conquered or t.abandoned or t.resumed)


def _may_gather(game: Game, inst: RaceInst, r: Any) -> bool:
    t = game.turn
    return r not in t.gathered and r not in t.placed and game.tokens[r] > region_minimum(game, inst, r) \
        and value(game, "redeploy.gather", inst, target=r)


def _pick_options(game: Game, inst: Any) -> list[int]:
    return list(range(len(game.visible_combos())))


def _may_pick(game: Game, inst: Any, k: Any) -> bool:
    offers = game.visible_combos()
    return isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(offers) \
        and market.price(game, offers[k][0], offers[k][1]) <= game.players[game.current].coins \
        and game.may_pick(game.current, offers[k][0])


def _none(game: Game, inst: Any) -> list:
    return [None]


def _regions(game: Game, inst: RaceInst) -> list[int]:
    return list(inst.in_order())


def _holds(game: Game, inst: RaceInst, r: Any) -> bool:
    return r in inst.regions


PHASES: Final[dict[str, dict[str, Kind]]] = {
    "pick": {"pick": Kind(None, _pick_options, _may_pick)},
    "conquer": {
        "decline": Kind(_may_decline, _none),
        "abandon": Kind(lambda game, inst: not (game.turn.conquered or inst.id in game.turn.resumed), _regions,
                        has=_holds),
        "conquer": Kind(lambda game, inst: inst.hand > 0, _conquests, _conquest_allows("conquer")),
        "final": Kind(lambda game, inst: inst.hand > 0, _conquests, _conquest_allows("final")),
        "ability": Kind(None, lambda game, inst: ability_actions(game, inst, "conquest")),
        "end": Kind(None, _none),
    },
    "redeploy": {
        "place": Kind(lambda game, inst: inst.hand > 0, _regions, has=_holds),
        "end": Kind(lambda game, inst: inst.hand <= 0 or not inst.regions, _none),
        "gather": Kind(None, _regions, _may_gather, _holds),
        "ability": Kind(None, lambda game, inst: ability_actions(game, inst, "redeploy")),
    },
    "defend": {"place": Kind(None, _regions, has=_holds)},
    "start": {"ability": Kind(None, lambda game, inst: ability_actions(game, inst, "start")),
              "end": Kind(None, _none)},
    "scoring": {"ability": Kind(None, lambda game, inst: ability_actions(game, inst, "scoring")),
                "end": Kind(None, _none)},
    "after": {"decline": Kind(_may_decline, _none), "pass": Kind(None, _none)},
    "choose": {"choose": Kind(None, lambda game, inst: decision_actions(game)),
               "pass": Kind(lambda game, inst: game.turn.decisions[0].trigger.optional, _none)},
}
ABILITY_PHASE: Final = {"conquer": "conquest", "redeploy": "redeploy", "start": "start", "scoring": "scoring"}
_WHOLE: Final = {"conquer", "final", "ability", "choose"}  # kinds whose options are whole actions (conquer lists the finals)
_REGION_KINDS = {"abandon", "conquer", "final", "place", "gather"}
# how `sample` draws each kind: conquest targets, abilities, whole actions, or arguments
_DRAWS: Final = {phase: [(kind, rule, "target" if kind == "conquer" else "ability" if kind == "ability" else
                   "whole" if kind in _WHOLE else "argument") for kind, rule in kinds.items() if kind != "final"]
          for phase, kinds in PHASES.items()}


@caches.reads
def legal_actions(game: Game) -> list[Action]:
    kinds = PHASES.get(game.turn.phase)
    if not kinds or game.over:
        return []
    inst: Any = game.turn.acting  # None in the pick phase, whose kinds ask nothing of it
    out: list[Action] = []
    for kind, rule in kinds.items():
        if kind == "final" or rule.guard is not None and not rule.guard(game, inst):
            continue
        if kind in _WHOLE:
            out.extend(rule.options(game, inst))
        elif rule.allows is None:
            out.extend(new_action(kind, a) for a in rule.options(game, inst))
        else:
            allows = rule.allows
            out.extend(new_action(kind, a) for a in rule.options(game, inst) if allows(game, inst, a))
    return out


@caches.reads
def sample(game: Game, rng: random.Random) -> tuple[Action, Any] | None:
    """A legal action drawn uniformly, with its verdict (a conquest's cost), or None if there is none.

    Why: a bot that needs one action should not price every target. The arguments worth trying
    (each legal action among them once, and maybe others) are drawn at random and checked one at a
    time, a rejected one set apart: the first to pass is uniform among the legal actions, whichever
    illegal ones were set apart on the way. A conquest target stands for `conquer` and `final`
    together (at most one is legal); an ability choosing among a `where` selection stands for
    each value the selection tests, one whose later choices are among few values for each
    combination worth checking (abilities.ability_candidates), and the one drawn is checked alone."""
    draws = _DRAWS.get(game.turn.phase)
    if draws is None or game.over:
        return None
    inst: Any = game.turn.acting  # None in the pick phase, whose kinds ask nothing of it
    # (kind, arguments, check): check None when all are legal; kind "" when the arguments are actions,
    # "whole" when check gives the action with its verdict
    groups: list[tuple[str, list, Any]] = []
    total = 0
    args: list[Any]
    for kind, rule, how in draws:
        if rule.guard is not None and not rule.guard(game, inst):
            continue
        if how == "target":
            args, near = candidates(game, inst)
            groups.append(("whole", args, _near_target if near else _target))
        elif how == "ability":
            args, unlisted = ability_candidates(game, inst, ABILITY_PHASE[game.turn.phase])
            groups.append(("", args, None))
            for values, check in unlisted:
                groups.append(("whole", values, check))
                total += len(values)
        elif how == "whole":
            args = rule.options(game, inst)
            groups.append(("", args, None))
        else:
            args = rule.options(game, inst)  # a new list: rejected arguments are taken out of it
            groups.append((kind, args, rule.allows))
        total += len(args)
    while total:
        i, g = int(rng.random() * total), 0  # uniform to within 2**-53
        while i >= len(groups[g][1]):
            i -= len(groups[g][1])
            g += 1
        kind, args, check = groups[g]
        a: Any = args[i]
        if check is None:
            return (new_action(kind, a) if kind else a), None
        verdict = check(game, inst, a)
        if verdict:
            if kind == "whole":  # the verdict is the action and its verdict
                return verdict
            return (new_action(kind, a) if kind else a), None
        args[i] = args[-1]
        args.pop()
        total -= 1
    return None


def _target(game: Game, inst: RaceInst, r: int, near: bool = False) -> tuple[Action, int] | None:
    v = conquest_verdict(game, inst, r, near)
    return None if v is None else (new_action(v[0], r), v[1])


def _near_target(game: Game, inst: RaceInst, r: int) -> tuple[Action, int] | None:
    return _target(game, inst, r, True)


def _verdict(game: Game, action: Action):
    """None if illegal; else the verdict (the conquest cost for conquer/final)."""
    kind, a, b = action
    rule = PHASES.get(game.turn.phase, _NO_KINDS).get(kind)
    if rule is None or game.won_by is not None:  # a game that is over has no phase with kinds
        return None
    inst: Any = game.turn.acting  # None in the pick phase, whose kinds ask nothing of it
    if rule.guard is not None and not rule.guard(game, inst):
        return None
    if kind == "conquer" or kind == "final":  # one price, nothing worth keeping: no reading scope
        if b is not None or not _region(game, a):
            return None
        return rule.allows(game, inst, a)  # type: ignore[misc]
    if kind in _WHOLE:
        return _whole_verdict(game, inst, action)
    if b is not None:
        return None
    if kind in _REGION_KINDS:
        if not (_region(game, a) and rule.has(game, inst, a)):  # type: ignore[misc]
            return None
    elif kind != "pick" and a is not None:
        return None
    return True if rule.allows is None else rule.allows(game, inst, a) or None


_NO_KINDS: Final[dict[str, Kind]] = {}


@caches.reads
def _whole_verdict(game: Game, inst: RaceInst, action: Action):
    """The verdict on an ability or a choice (listed whole), read in one scope: an ability's
    selection may ask a race's declared neighbours of every region."""
    kind, a, b = action
    if kind == "ability":
        return bool(ability_actions(game, inst, ABILITY_PHASE[game.turn.phase], action)) or None
    return (a is None and isinstance(b, tuple) and action in decision_actions(game)) or None  # choose


def is_legal(game: Game, action: Action) -> bool:
    """Whether `action` is in legal_actions(game), decided without listing them all."""
    return _verdict(game, action) is not None


def apply(game: Game, action: Action) -> None:
    """Play one action; an action not in legal_actions is refused unchanged."""
    if type(action) is not Action:
        action = Action(*action)
    verdict = _verdict(game, action)
    if verdict is None:
        raise IllegalAction(explain_illegal(game, action))
    apply_legal(game, action, verdict if action.kind in ("conquer", "final") else None)


def apply_legal(game: Game, action: Action, cost: int | None = None) -> None:
    """Play an action already known to be legal (bots use this after choosing
    from legal_actions, to avoid generating them twice)."""
    if len(game.actions) >= game.index.action_budget:
        _over_budget(game)
    game.actions.append(action)
    kind = action.kind
    t = game.turn
    t.runs = 0
    inst: Any = t.acting  # None in the pick phase, whose kinds ask nothing of it
    if kind in _REGION_KINDS:
        _apply_to_region(game, inst, kind, action.a, cost)  # type: ignore[arg-type]
    elif kind == "end":
        if t.phase == "conquer":
            turn.end_conquests(game)
        elif t.phase == "redeploy":
            turn.end_redeploy(game)
        else:  # the start or the end of the turn
            if t.phase == "start":
                turn.start_of_turn(game)
            turn.advance(game)
    elif kind == "pick":
        turn.pick(game, action.a)  # type: ignore[arg-type]
    elif kind == "ability":
        use_ability(game, inst, action.a, action.b)  # type: ignore[arg-type]
    elif kind == "decline":
        turn.decline(game, inst)
        turn.advance(game)
    elif kind == "choose":
        turn.decide(game, action.b)
    else:  # pass
        turn.decide(game, None) if t.phase == "choose" else turn.advance(game)
    after = game.turn
    if after.decisions and after.phase != "choose" and not game.over:
        turn.ask(game, (after.phase, after.acting, after.actor))


def _apply_to_region(game: Game, inst: RaceInst, kind: str, r: int, cost: int | None) -> None:
    t = game.turn
    if kind == "place":  # the commonest action first
        game.tokens[r] += 1
        if t.phase == "defend":
            inst.pending -= 1
            if inst.pending == 0:
                turn.advance(game)
        else:
            inst.hand -= 1
            t.placed.add(r)
    elif kind == "conquer" or kind == "final":
        cost = conquest_cost(game, inst, r) if cost is None else cost
        (turn.conquer if kind == "conquer" else turn.final_attempt)(game, inst, r, cost)
    elif kind == "abandon":
        pieces.vacate(game, inst, r)
        t.abandoned = True
    else:  # gather
        keep = region_minimum(game, inst, r)
        inst.hand += game.tokens[r] - keep
        game.tokens[r] = keep
        t.gathered.add(r)


def _over_budget(game: Game) -> None:
    """The game passed the pack's action budget: stop it, naming the ability used most (the
    usual cause: one that nothing bounds)."""
    budget = game.index.action_budget
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
