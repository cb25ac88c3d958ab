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
  gather r          take all but one token of r back into hand (once per region)
  pass              decline nothing after scoring
Targets come from the frontier (regions bordering the race) unless a rule makes
more regions reachable; nothing tries every region by default.
"""

from __future__ import annotations

from typing import NamedTuple

from swdsl.engine import events, pieces, turn
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import Ctx, conquest_cost, fold, is_immune, modified, region_minimum


class Action(NamedTuple):
    kind: str
    a: object = None
    b: object = None


class IllegalAction(Exception):
    """apply() refused an action; the game is unchanged."""


END = Action("end")
DECLINE = Action("decline")
PASS = Action("pass")


def candidates(game: Game, inst: RaceInst) -> list[int]:
    """Regions worth testing as conquest targets."""
    if not inst.regions or modified(game, "conquest.reachable", inst):
        return [r for r in range(len(game.board)) if r not in inst.regions]
    nb = game.board.neighbours
    front: set[int] = set()
    for r in inst.regions:
        front |= nb[r]
    front -= inst.regions
    return sorted(front)


def conquerable(game: Game, inst: RaceInst, r: int) -> bool:
    """May `inst` conquer `r` wherever it lies (region.conquerable, not immune)?"""
    if modified(game, "region.conquerable", inst) and not fold(
            game, "region.conquerable", True, inst, {"target": r}):
        return False
    return not ((game.markers[r] or game.occupant[r] is not None) and is_immune(game, r, inst))


def can_target(game: Game, inst: RaceInst, r: int) -> bool:
    """May `inst` attack `r` at all, whatever the cost?"""
    if not conquerable(game, inst, r):
        return False
    if inst.regions:
        base = bool(game.board.neighbours[r] & inst.regions)
        if modified(game, "conquest.reachable", inst):
            return bool(fold(game, "conquest.reachable", base, inst, {"target": r}))
        return base
    return bool(fold(game, "conquest.entry", False, inst, {"target": r}))


def conquest_actions(game: Game, inst: RaceInst) -> list[Action]:
    out: list[Action] = []
    hand = inst.hand
    if hand <= 0:
        return out
    final_ok = None
    for r in candidates(game, inst):
        if not can_target(game, inst, r):
            continue
        cost = conquest_cost(game, inst, r)
        if cost <= hand:
            out.append(Action("conquer", r))
        elif cost - hand <= 3 and hand >= region_minimum(game, inst, r):
            if final_ok is None:
                final_ok = bool(fold(game, "conquest.final", True, inst, {}))
            if final_ok:
                out.append(Action("final", r))
    return out


def held_abilities(game: Game, inst: RaceInst) -> list:
    """The race's own abilities, then those of the relics and places in its
    regions and of the powers bound to them, then the edition rules' ones."""
    held = events.held_content(game, inst)
    own = list(inst.abilities) + list(game.ruleset.rule_abilities)
    if not held:
        return own
    return own + [a for c in held for a in c.abilities]


def ability_users(game: Game, inst: RaceInst) -> list[tuple[RaceInst, str]]:
    """Whose abilities are on offer while `inst` acts, with the suffix of their
    action keys: the acting race's, then its player's other races' (those
    written `while declined` or `always`: a declined race still uses them)."""
    users = [(inst, "")]
    if inst.player is not None and game.ruleset.lasting_abilities:
        users += [(o, f"@{o.id}") for o in events.player_races(game, inst.player) if o is not inst]
    return users


def _choices(ctx: Ctx, choose, i: int = 0, want: tuple | None = None) -> list[tuple]:
    """Every combination of an ability's choices (or only `want`, if it is
    one); a later choice may depend on the earlier ones, which are bound while
    its options are listed."""
    if i == len(choose):
        return [()]
    name, fn, is_option = choose[i]
    if want is None:
        options = fn(ctx)
    else:
        options = [want[i]] if i < len(want) and is_option(ctx, want[i]) else []
    out = []
    for v in options:
        ctx.b[name] = v
        out.extend((v,) + rest for rest in _choices(ctx, choose, i + 1, want))
    ctx.b.pop(name, None)
    return out


def ability_actions(game: Game, inst: RaceInst, phase: str, only: Action | None = None) -> list[Action]:
    """The abilities on offer in `phase`; with `only`, just that one if legal."""
    out: list[Action] = []
    for user, suffix in ability_users(game, inst):
        for ab in held_abilities(game, user):
            key = ab.key + suffix
            if ab.phase != phase or not user.scope_ok(ab.scope) or (only is not None and key != only.a):
                continue
            if user is not inst and ab.scope == "active":
                continue
            if ab.limit is not None and not ab.per_owner and game.uses.get((user.id, ab.per, ab.key), 0) >= ab.limit:
                continue
            ctx = Ctx(game, user, {})
            if ab.when is not None and not ab.when(ctx):
                continue
            want = only.b if only is not None and isinstance(only.b, tuple) else None
            if only is not None and want is None:
                continue
            for combo in _choices(ctx, ab.choose, 0, want):
                if ab.per_owner and ab.limit is not None:
                    owner = game.owner_of(combo[0]) if combo else None
                    if game.uses.get((user.id, ab.per, ab.key, owner), 0) >= ab.limit:
                        continue
                out.append(Action("ability", key, tuple(combo)))
    return out


def legal_actions(game: Game) -> list[Action]:
    phase = game.phase
    inst = game.acting
    if phase == "pick":
        coins = game.players[game.current].coins
        seat = game.current
        return [Action("pick", k) for k, (column, row, _, _) in enumerate(game.visible_combos())
                if row <= coins and game.may_pick(seat, column)]
    if phase == "conquer":
        out: list[Action] = []
        p = game.players[game.current]
        fresh = not game.conquered_in_phase and not game.abandoned_in_phase
        if fresh and inst is p.active and not game.picked_this_turn:
            out.append(DECLINE)
        if not game.conquered_in_phase:
            out.extend(Action("abandon", r) for r in sorted(inst.regions))
        out.extend(conquest_actions(game, inst))
        out.extend(ability_actions(game, inst, "conquest"))
        out.append(END)
        return out
    if phase == "redeploy":
        out = []
        if inst.hand > 0 and inst.regions:
            out.extend(Action("place", r) for r in sorted(inst.regions))
        else:
            out.append(END)
        for r in sorted(inst.regions):
            if game.tokens[r] > 1 and r not in game.gathered and r not in game.placed \
                    and game.tokens[r] > region_minimum(game, inst, r):
                out.append(Action("gather", r))
        out.extend(ability_actions(game, inst, "redeploy"))
        return out
    if phase == "defend":
        return [Action("place", r) for r in sorted(inst.regions)]
    if phase == "after":
        return [DECLINE, PASS]
    return []


def is_legal(game: Game, action: Action) -> bool:
    """Whether `action` is in legal_actions(game), decided without listing them
    all (replays check every action this way). Uses the same predicates as
    legal_actions; a property test keeps the two in agreement."""
    return _check(game, action) is not False


def _check(game: Game, action: Action):
    """False if illegal; else True, or the conquest cost for conquer/final."""
    kind, a = action.kind, action.a
    phase, inst = game.phase, game.acting
    region = isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(game.board)
    if action.b is not None and kind != "ability":
        return False
    if phase == "conquer":
        if kind in ("conquer", "final"):
            if not region or a in inst.regions or inst.hand <= 0 or not can_target(game, inst, a):
                return False
            cost = conquest_cost(game, inst, a)
            if kind == "conquer":
                return cost if cost <= inst.hand else False
            ok = 0 < cost - inst.hand <= 3 and inst.hand >= region_minimum(game, inst, a) \
                and bool(fold(game, "conquest.final", True, inst, {}))
            return cost if ok else False
        if kind == "end":
            return a is None
        if kind == "abandon":
            return region and not game.conquered_in_phase and a in inst.regions
        if kind == "decline":
            return (a is None and inst is game.players[game.current].active and not game.picked_this_turn
                    and not game.conquered_in_phase and not game.abandoned_in_phase)
    elif phase == "redeploy":
        if kind == "place":
            return region and inst.hand > 0 and a in inst.regions
        if kind == "gather":
            return region and a in inst.regions and game.tokens[a] > 1 and a not in game.gathered \
                and a not in game.placed and game.tokens[a] > region_minimum(game, inst, a)
        if kind == "end":
            return a is None and (inst.hand <= 0 or not inst.regions)
    elif phase == "defend":
        return kind == "place" and region and a in inst.regions
    elif phase == "pick":
        if kind != "pick" or not isinstance(a, int) or isinstance(a, bool):
            return False
        offers = game.visible_combos()
        return 0 <= a < len(offers) and offers[a][1] <= game.players[game.current].coins \
            and game.may_pick(game.current, offers[a][0])
    elif phase == "after":
        return kind in ("decline", "pass") and a is None
    if kind == "ability" and phase in ("conquer", "redeploy"):
        return action in ability_actions(game, inst, "conquest" if phase == "conquer" else "redeploy", action)
    return False


def apply(game: Game, action: Action) -> None:
    """Play one action; an action not in legal_actions is refused unchanged."""
    if type(action) is not Action:
        action = Action(*action)
    verdict = _check(game, action)
    if verdict is False:
        raise IllegalAction(explain_illegal(game, action))
    apply_legal(game, action, verdict if action.kind in ("conquer", "final") else None)


def apply_legal(game: Game, action: Action, cost: int | None = None) -> None:
    """Play an action already known to be legal (bots use this after choosing
    from legal_actions, to avoid generating them twice)."""
    game.actions.append(action)
    kind = action.kind
    inst = game.acting
    if kind in ("conquer", "final") and cost is None:
        cost = conquest_cost(game, inst, action.a)
    if kind == "pick":
        turn.pick(game, action.a)
    elif kind == "conquer":
        turn.conquer(game, inst, action.a, cost)
    elif kind == "final":
        turn.final_attempt(game, inst, action.a, cost)
    elif kind == "abandon":
        pieces.vacate(game, inst, action.a)
        game.abandoned_in_phase = True
    elif kind == "ability":
        use_ability(game, inst, action.a, action.b)
    elif kind == "end":
        if game.phase == "conquer":
            turn.end_conquests(game)
        else:
            turn.end_redeploy(game)
    elif kind == "place":
        if game.phase == "defend":
            inst.pending -= 1
            game.tokens[action.a] += 1
            if inst.pending == 0:
                turn.advance(game)
        else:
            inst.hand -= 1
            game.tokens[action.a] += 1
            game.placed.add(action.a)
    elif kind == "gather":
        keep = region_minimum(game, inst, action.a)
        inst.hand += game.tokens[action.a] - keep
        game.tokens[action.a] = keep
        game.gathered.add(action.a)
    elif kind == "decline":
        turn.decline(game, inst)
        if game.phase == "after":
            turn.advance(game)
        else:
            game.queue = [s for s in game.queue if s[0] != "act"]
            turn.advance(game)
    elif kind == "pass":
        turn.advance(game)


def use_ability(game: Game, inst: RaceInst, key: str, choices: tuple) -> None:
    """Run an ability: the acting race's (`key`), or another race's of its
    player (`key@race id`)."""
    user = inst
    if "@" in key:
        key, rid = key.rsplit("@", 1)
        user = game.races[int(rid)]
    ab = next(a for a in held_abilities(game, user) if a.key == key)
    if ab.limit is not None:
        k = (user.id, ab.per, ab.key, game.owner_of(choices[0])) if ab.per_owner else (user.id, ab.per, ab.key)
        game.uses[k] = game.uses.get(k, 0) + 1
    ctx = Ctx(game, user, {name: value for (name, _, _), value in zip(ab.choose, choices)})
    ab.run(ctx)


def explain_illegal(game: Game, action: Action) -> str:
    """Why an action is not legal now, in words."""
    if game.over:
        return "the game is over"
    kinds = {a.kind for a in legal_actions(game)}
    if action.kind not in kinds:
        return f"'{action.kind}' is not possible in the {game.phase} phase (possible: {', '.join(sorted(kinds))})"
    inst = game.acting
    if action.kind in ("conquer", "final") and isinstance(action.a, int) and 0 <= action.a < len(game.board):
        r = action.a
        rid = game.board.regions[r].id
        if r in inst.regions:
            return f"region {rid} is already held by {inst.name}"
        if not can_target(game, inst, r):
            return f"region {rid} cannot be attacked by {inst.name} now (not reachable, immune or not conquerable)"
        cost = conquest_cost(game, inst, r)
        if action.kind == "conquer":
            return f"region {rid} costs {cost} tokens and {inst.name} has {inst.hand} in hand"
        return f"a final conquest of region {rid} needs a shortfall of 1 to 3 (cost {cost}, hand {inst.hand})"
    return f"{tuple(action)} is not among the legal actions"
