"""A game as a readable log: picks with prices and coins taken, conquests with
their explained costs, die rolls, abilities and what they changed, losses and
withdrawals, declines, redeployments and the coins each turn scored.

The narrator watches the play loop (before and after each action), so it tells
a game being simulated (`simulate --trace`) and a saved one being replayed
(`replay --narrate`) alike. It reads the public state only; to see die rolls it
gives the game a generator with the same state that notes each roll.
"""

from __future__ import annotations

import random
from typing import cast

from swdsl.engine import market
from swdsl.engine.abilities import held_abilities
from swdsl.engine.actions import Action
from swdsl.engine.explain import explain
from swdsl.engine.legal import apply
from swdsl.engine.replay import actions_of
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import new_game
from swdsl.engine.state import Game, RaceInst


class _NotingDice(random.Random):
    """The game's generator, unchanged, noting each die roll: after setup the
    engine draws with `randrange` only to roll the die (engine/chance.py)."""

    def __init__(self, rng: random.Random, faces: tuple[int, ...]):
        super().__init__()
        self.setstate(rng.getstate())
        self.faces = faces
        self.rolls: list[int] = []

    def randrange(self, start, stop=None, step=1):
        v = super().randrange(start, stop, step)
        if stop is None and start == len(self.faces):
            self.rolls.append(self.faces[v])
        return v


def region_name(game: Game, r: int) -> str:
    region = game.board.regions[r]
    return f"{region.id} ({region.terrain})"


def _holder(game: Game, inst: RaceInst | None) -> str:
    if inst is None:
        return "nobody"
    who = f"seat {inst.player + 1}'s " if inst.player is not None else ""
    return f"{who}{inst.name}{' (declined)' if inst.declined and inst.player is not None else ''}"


def _view(game: Game) -> tuple:
    """What the log compares before and after an action."""
    return (tuple(p.coins for p in game.players), tuple(id(i) if i else None for i in game.occupant),
            tuple(game.tokens), tuple(tuple(n for n, *_ in m) for m in game.markers))


class Narrator:
    def __init__(self, game: Game):
        self.lines: list[str] = []
        self.dice = _NotingDice(game.rng, game.ruleset.die)
        game.rng = self.dice
        setup = game.setup
        self.lines.append(f"{game.ruleset.name}: {len(game.players)} players, seed {game.seed}, "
                          f"map {game.board.name}, {setup.rounds} rounds")
        self.round = 0
        self.moves: dict[int, int] = {}  # redeployment being told: region -> tokens placed (or gathered, < 0)
        self.mover: RaceInst | None = None
        self._start_turn(game)

    # ---- turns ----------------------------------------------------------------------------

    def _start_turn(self, game: Game) -> None:
        self.turn, self.seat = game.turn, game.current
        if game.round != self.round:
            self.round = game.round
            self.lines.append(f"Round {game.round}")
        p = game.players[self.seat]
        races = ([p.active.name] if p.active else []) + [f"{d.name} (declined)" for d in p.declined]
        self.lines.append(f"  Seat {self.seat + 1}, {p.coins} coins: {', '.join(races) or 'no race'}")

    def say(self, text: str) -> None:
        self.lines.append(f"    {text}")

    # ---- actions ----------------------------------------------------------------------------

    def before(self, game: Game, action: Action) -> None:
        if action.kind not in ("place", "gather") or game.acting is not self.mover:
            self._flush_moves(game)
        if action.kind in ("place", "gather"):
            self.mover = game.acting
        self.view = _view(game)
        self.coins = game.players[game.current].coins
        self.dice.rolls.clear()
        self.note = self._intent(game, action)

    def _intent(self, game: Game, action: Action) -> dict:
        """What the action's story needs from the state before it."""
        inst = game.acting
        kind = action.kind
        if kind == "pick":
            column, row, race, power = game.visible_combos()[cast(int, action.a)]
            return {"row": row, "price": market.price(game, column, row), "lying": game.market.coins[column][row]}
        if kind in ("conquer", "final") and inst is not None:
            r: int = action.a  # type: ignore[assignment]
            defender = game.occupant[r]
            return {"cost": str(explain(game, "conquest.cost", inst, target=r)), "hand": inst.hand,
                    "defender": defender, "tokens": game.tokens[r],
                    "tray": game.tray[defender.race.name] if defender else 0,
                    "pending": defender.pending if defender else 0}
        if kind == "decline" and inst is not None:
            return {"inst": inst}
        if kind == "ability" and inst is not None:
            key, _, rid = cast(str, action.a).partition("@")
            user = game.races.get(int(rid), inst) if rid.isdigit() else inst
            return {"ability": next((a for a in held_abilities(game, user) if a.key == key), None), "key": key}
        return {}

    def after(self, game: Game, action: Action) -> None:
        getattr(self, f"_{action.kind}", self._other)(game, action)
        if self.dice.rolls and action.kind != "final":
            self.say(f"die: rolled {', '.join(map(str, self.dice.rolls))}")
        if game.turn is not self.turn or game.over:
            self._flush_moves(game)
            p = game.players[self.seat]
            self.say(f"scores {p.coins - self.coins:+d} coins ({p.coins} in all)")
            if not game.over:
                self._start_turn(game)

    def _pick(self, game: Game, action: Action) -> None:
        inst = game.players[self.seat].active
        row, price, lying = self.note["row"], self.note["price"], self.note["lying"]
        paid = f"pays {price} coin{'s' if price != 1 else ''}" if price else "free"
        took = f", takes {lying} coin{'s' if lying != 1 else ''} lying on it" if lying else ""
        name = inst.name if inst else "?"
        self.say(f"picks {name} at position {row + 1} ({paid}{took}): {inst.hand if inst else 0} tokens")

    def _conquer(self, game: Game, action: Action) -> None:
        r: int = action.a  # type: ignore[assignment]
        self.say(f"conquers {region_name(game, r)}: {self.note['cost']}")
        self._losses(game, r)
        self._changes(game, skip={r})

    def _final(self, game: Game, action: Action) -> None:
        r: int = action.a  # type: ignore[assignment]
        roll = ", ".join(map(str, self.dice.rolls)) or "nothing"
        taken = game.occupant[r] is not None and game.occupant[r] is game.acting
        self.say(f"final conquest of {region_name(game, r)} with {self.note['hand']} in hand: {self.note['cost']}; "
                 f"rolls {roll}: {'taken' if taken else 'fails'}")
        if taken:
            self._losses(game, r)
        self._changes(game, skip={r})

    def _losses(self, game: Game, r: int) -> None:
        defender: RaceInst | None = self.note["defender"]
        if defender is None or not self.note["tokens"]:
            return
        lost = game.tray[defender.race.name] - self.note["tray"]
        withdrawn = defender.pending - self.note["pending"]
        self.say(f"  {_holder(game, defender)} loses {lost} token{'s' if lost != 1 else ''}"
                 + (f", withdraws {withdrawn}" if withdrawn > 0 else ""))

    def _ability(self, game: Game, action: Action) -> None:
        found = self.note.get("ability")
        name = f"{found.name} ({found.source})" if found else self.note.get("key", action.a)
        choices = ", ".join(self._choice(game, c, v) for c, v in zip(found.choose if found else (), cast(tuple, action.b or ())))
        self.say(f"uses {name}" + (f" on {choices}" if choices else ""))
        self._changes(game)

    def _choice(self, game: Game, choice, v) -> str:
        if choice.kind == "region" and isinstance(v, int):
            return region_name(game, v)
        if choice.kind == "player" and isinstance(v, int):
            return f"seat {v + 1}"
        return str(v)

    def _decline(self, game: Game, action: Action) -> None:
        inst: RaceInst = self.note["inst"]
        self.say(f"declines {inst.race.name}: {len(inst.regions)} region{'s' if len(inst.regions) != 1 else ''} kept")
        self._changes(game)

    def _abandon(self, game: Game, action: Action) -> None:
        self.say(f"abandons {region_name(game, action.a)}")  # type: ignore[arg-type]

    def _place(self, game: Game, action: Action) -> None:
        r: int = action.a  # type: ignore[assignment]
        self.moves[r] = self.moves.get(r, 0) + 1

    def _gather(self, game: Game, action: Action) -> None:
        r: int = action.a  # type: ignore[assignment]
        self.moves[r] = self.moves.get(r, 0) - (self.view[2][r] - game.tokens[r])

    def _other(self, game: Game, action: Action) -> None:
        self._changes(game)

    def _flush_moves(self, game: Game) -> None:
        if any(self.moves.values()):
            who = _holder(game, self.mover)
            parts = [f"{n:+d} in {region_name(game, r)}" for r, n in sorted(self.moves.items()) if n]
            self.say(f"{who} redeploys: {', '.join(parts)}")
        self.moves, self.mover = {}, None

    def _changes(self, game: Game, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        """What else the action changed: coins, regions taken or left, tokens (not
        when the turn ended: the next player readying troops is no news), markers."""
        coins, occ, tokens, marks = self.view
        ended = game.turn is not self.turn or game.over
        for s, p in enumerate(game.players):
            if p.coins != coins[s] and s != self.seat:
                self.say(f"  seat {s + 1}: {p.coins - coins[s]:+d} coins")
        for r in range(len(game.board)):
            if r in skip:
                continue
            inst = game.occupant[r]
            if (id(inst) if inst else None) != occ[r] or (tokens[r] != game.tokens[r] and not ended):
                self.say(f"  {region_name(game, r)}: now {_holder(game, inst)}, {game.tokens[r]} tokens")
            now = tuple(n for n, *_ in game.markers[r])
            if now != marks[r]:
                self.say(f"  {region_name(game, r)}: markers {', '.join(now) or 'none'}")
        mine = game.players[self.seat].coins - self.coins
        if mine and not ended:
            self.say(f"  {mine:+d} coins")

    # ---- the end ----------------------------------------------------------------------------

    def close(self, game: Game, error: str | None = None) -> None:
        from swdsl.engine.outcome import ranking

        if error:
            self.lines.append(f"Stopped: {error}")
        elif not game.over:
            self.lines.append("Stopped by the pack's action budget")
        order = ranking(game)
        self.lines.append("Final: " + ", ".join(f"seat {s + 1} {game.players[s].coins} coins" for s in order))

    def text(self) -> str:
        return "\n".join(self.lines)


def narrate_record(ruleset: Ruleset, rec: dict) -> tuple[Game, str]:
    """Replay a saved game (each action checked for legality) and tell it."""
    game = new_game(ruleset, int(rec["players"]), int(rec["seed"]))
    narrator = Narrator(game)
    for action in actions_of(rec):
        narrator.before(game, action)
        apply(game, action)
        narrator.after(game, action)
    narrator.close(game)
    return game, narrator.text()
