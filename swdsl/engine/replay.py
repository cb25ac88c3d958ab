"""A game is (packs, players, seed, actions); saved as JSON with a checksum of
its whole state, it replays exactly."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from swdsl.engine.actions import Action, new_action
from swdsl.engine.legal import apply
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import new_game
from swdsl.engine.state import Game, RaceInst

FORMAT = 1


def _race(inst: RaceInst) -> list:
    return [inst.id, inst.race.name, inst.power.name if inst.power else None, inst.player, inst.declined,
            inst.hand, inst.reserve, inst.pending, inst.turns, sorted(inst.regions), sorted(inst.vars.items()),
            sorted(inst.lost), sorted(inst.troops.items()), sorted(inst.turn_tags)]


def _id(inst: RaceInst | None) -> int | None:
    return None if inst is None else inst.id


def _plain(v: Any) -> Any:
    return v.id if isinstance(v, RaceInst) else v


def _piece(p: tuple) -> tuple:
    """A marker as written before pieces carried a strength, when its strength is 0."""
    return p if p[2] else p[:2]


def snapshot(game: Game) -> dict[str, Any]:
    """Everything that defines the state, persistent and of the turn, in a
    canonical JSON-able form (compiled hooks and caches are not state). Parts
    that most games leave empty (player variables, face-down markers, banners discarded) are
    written only when used, so the checksums of saved games stay valid."""
    t = game.turn
    shown: dict[str, Any] = {"face_down": sorted((r, sorted(v)) for r, v in game.face_down.items())} \
        if game.face_down else {}
    shown |= {"out": sorted(game.market.out)} if game.market.out else {}
    return {
        "round": game.round, "current": game.current, "bank": game.bank, "next_id": game.next_id,
        "won_by": game.won_by,
        "players": [[p.coins, _id(p.active), [d.id for d in p.declined], sorted(p.markers, key=str)]
                    + ([sorted(p.vars.items())] if p.vars else []) for p in game.players],
        "regions": [[_id(inst), game.tokens[r], sorted(map(_piece, game.markers[r]), key=str)]
                    for r, inst in enumerate(game.occupant)],
        **shown,
        "races": sorted(_race(i) for i in game.races.values()),
        "neutrals": sorted((n, i.id) for n, i in game.neutrals.items()),
        "market": [game.market.columns, game.market.powers, game.market.coins, game.market.discard,
                   game.market.tokens, game.market.pieces],
        "tray": sorted(game.tray.items()), "destroyed": sorted(game.destroyed.items()),
        "pools": sorted(game.pools.items()),
        "hidden": sorted(game.hidden.items()), "uses": sorted(map(list, game.uses.items()), key=str),
        "bound_powers": sorted(game.bound_powers.items()), "worn": sorted(game.worn.items()),
        "vars": sorted(game.vars.items()),
        "script": sorted(game.script.items()), "rng": hashlib.sha256(repr(game.rng.getstate()).encode()).hexdigest(),
        "turn": [t.phase, t.actor, _id(t.acting), [[s, _id(i)] for s, i in t.queue],
                 [list(c) for c in t.log],
                 sorted(_race(i) for i in t.gone.values()), sorted(map(list, t.uses.items()), key=str), t.die,
                 t.conquered, t.abandoned, t.picked, t.revealed, t.declined, sorted(t.gathered), sorted(t.placed),
                 sorted(t.readied.items()),
                 [_piece(p) for p in t.returning], t.depth, t.runs, sorted(t.resumed),
                 [[d.trigger.where, d.trigger.source, d.race.id, sorted((k, _plain(v)) for k, v in d.bindings.items())]
                  for d in t.decisions],
                 [t.resume[0], _id(t.resume[1]), t.resume[2]] if isinstance(t.resume, tuple) else t.resume,
                 *(["starting"] if t.starting else [])],  # only while a turn starts: saved checksums stand
    }


def checksum(game: Game) -> str:
    text = json.dumps(snapshot(game), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def record(game: Game, packs: list[str] | dict) -> dict:
    """The game as a save: `packs` is what names its packs (names, or the identity saves.py writes)."""
    return {"swdsl": FORMAT, "packs": packs, "players": len(game.players), "seed": game.seed,
            "actions": [list(a) for a in game.actions], "checksum": checksum(game)}


def actions_of(rec: dict) -> list[Action]:
    """The recorded actions, checked for shape: [kind, a, b] with a a number, a
    name or null and b a list of numbers and names. Raises ValueError naming
    the first malformed one."""
    out = []
    for i, raw in enumerate(rec.get("actions", ())):
        if type(raw) is not list or not 1 <= len(raw) <= 3 or type(raw[0]) is not str:
            raise ValueError(f"action {i + 1} is not a [kind, a, b] list")
        a = raw[1] if len(raw) > 1 else None
        b = raw[2] if len(raw) > 2 else None
        if type(a) not in _ARGUMENT:
            raise ValueError(f"action {i + 1} has an argument that is not a number or a name")
        if b is not None:
            if type(b) not in (list, tuple) or not all(type(x) in _CHOICE for x in b):
                raise ValueError(f"action {i + 1} has choices that are not numbers or names")
            b = tuple(b)
        out.append(new_action(raw[0], a, b))
    return out


_CHOICE = {int, str}  # exact types: a bool (a subclass of int) is no number here
_ARGUMENT = _CHOICE | {type(None)}


def replay(ruleset: Ruleset, rec: dict) -> Game:
    """Replay a record through `apply` (each action checked for legality);
    raises ValueError on a malformed record, IllegalAction, or ContentError."""
    actions = actions_of(rec)
    game = new_game(ruleset, int(rec["players"]), int(rec["seed"]))
    for action in actions:
        apply(game, action)
    return game
