"""A game is (packs, players, seed, actions); saved as JSON with a checksum of
its final state, it replays exactly."""

from __future__ import annotations

import hashlib
import json

from swdsl.engine.legal import Action, apply
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import new_game
from swdsl.engine.state import Game

FORMAT = 1


def snapshot(game: Game) -> dict:
    """Everything that defines the state, in a canonical JSON-able form."""
    return {
        "round": game.round, "current": game.current, "phase": game.phase,
        "coins": [p.coins for p in game.players], "bank": game.bank,
        "regions": [[inst.name if inst else None, game.tokens[r], sorted(n for n, _ in game.markers[r])]
                    for r, inst in enumerate(game.occupant)],
        "races": sorted([i.name, i.player, i.declined, i.hand, i.reserve, i.pending] for i in game.races.values()),
        "market": [game.market.columns, game.market.powers, game.market.coins, sorted(game.market.discard)],
        "tray": sorted(game.tray.items()), "pools": sorted(game.pools.items()),
    }


def checksum(game: Game) -> str:
    text = json.dumps(snapshot(game), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def record(game: Game, packs: list[str]) -> dict:
    return {"swdsl": FORMAT, "packs": packs, "players": len(game.players), "seed": game.seed,
            "actions": [list(a) for a in game.actions], "checksum": checksum(game)}


def replay(ruleset: Ruleset, rec: dict) -> Game:
    """Replay a record; raises IllegalAction (or KeyError/TypeError on a
    malformed record) — the CLI turns those into diagnostics."""
    game = new_game(ruleset, int(rec["players"]), int(rec["seed"]))
    for raw in rec["actions"]:
        b = raw[2] if len(raw) > 2 else None
        apply(game, Action(raw[0], raw[1] if len(raw) > 1 else None, tuple(b) if isinstance(b, list) else b))
    return game
