"""Positions: a game set up at a chosen moment, for scenario tests, tools and
tests, through the same primitives a game uses (every token comes from its
tray, every marker from its pool, every coin from the bank).

    pos = Position(ruleset, players=2)                 # the pack's board, no setup pieces
    pos.race("Frogs", player=0, power="Leaping", regions={5: 1}, hand=6)
    pos.marker(5, "mountain")
    game = pos.start(current=0)                        # the current player decides now
"""

from __future__ import annotations

from typing import Any

from swdsl.engine import chance, pieces, turn
from swdsl.engine.board import Board
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import place_setup_pieces, prepared
from swdsl.engine.state import Game, RaceInst, TurnState


class PositionError(ValueError):
    """A position that cannot exist: an unknown name, a race given twice, more tokens than its supply."""


class Position:
    def __init__(self, ruleset: Ruleset, players: int, *, board: Board | None = None, setup_pieces: bool = False,
                 seed: int = 0):
        if players not in ruleset.setups:
            raise PositionError(f"the pack has no setup for {players} players")
        self.game = prepared(ruleset, players, seed, board)
        self.shown: set[str] = set()  # races and powers a `market` call put on show
        if setup_pieces:
            place_setup_pieces(self.game)
        else:
            for pool in self.game.hidden.values():
                chance.shuffle(self.game, pool)

    def coins(self, seat: int, n: int) -> None:
        """Player `seat` holds `n` coins (the difference comes from or goes to the bank)."""
        g = self.game
        if n < 0 or n - g.players[seat].coins > g.bank:
            raise PositionError(f"player {seat + 1} cannot hold {n} coins (the bank has {g.bank})")
        g.bank += g.players[seat].coins - n
        g.players[seat].coins = n
        g.ledger.clear()  # a position's coins are where its history starts

    def race(self, name: str, player: int | None = None, power: str | None = None, *, declined: bool = False,
             regions: dict[int, int] | None = None, hand: int = 0, turns: int = 2,
             variables: dict[str, Any] | None = None) -> RaceInst:
        """Put a race on the table: a banner from the market for `player`, or a race of nobody."""
        g, rs = self.game, self.game.ruleset
        if name not in rs.races:
            raise PositionError(f"unknown race '{name}'")
        content = rs.races[name]
        if content.neutral:
            inst = g.neutrals.get(name)
            if inst is None:
                inst = g.neutrals[name] = pieces.new_race(g, content, None, None, declined=True)
        else:
            if player is None or not 0 <= player < len(g.players):
                raise PositionError(f"race '{name}' needs a player from 1 to {len(g.players)}")
            column = g.market.columns[rs.column_of(name)]
            if name in self.shown:
                raise PositionError(f"race '{name}' is on show in the market given, so no player holds it")
            if name not in column and name not in g.market.out:  # a banner set aside may be given too
                raise PositionError(f"race '{name}' is already on the table")
            if power is not None and power not in rs.powers:
                raise PositionError(f"unknown power '{power}'")
            if power is not None and power not in g.market.powers and power not in g.market.discard:
                raise PositionError(f"power '{power}' is already on the table")
            if power is not None and power in self.shown:
                raise PositionError(f"power '{power}' is on show in the market given, so no race holds it")
            p = g.players[player]
            if not declined and p.active is not None:
                raise PositionError(f"player {player + 1} already has an active race")
            (column if name in column else g.market.out).remove(name)
            if power is not None:
                (g.market.powers if power in g.market.powers else g.market.discard).remove(power)
            inst = pieces.new_race(g, content, rs.powers[power] if power else None, player, declined)
            (p.declined.append(inst) if declined else setattr(p, "active", inst))
            inst.turns = turns
            inst.vars.update(variables or {})
        for r, n in (regions or {}).items():
            self._tokens(inst, n)
            pieces.occupy(g, inst, r, n)
        self._tokens(inst, hand)
        inst.hand += pieces.take_from_tray(g, inst, hand)
        return inst

    def _tokens(self, inst: RaceInst, n: int) -> None:
        left = self.game.tray[inst.race.name]
        if n < 0 or n > left:
            raise PositionError(f"{inst.race.name} has {left} tokens left in the box, not {n}")

    def marker(self, region: int, name: str) -> None:
        """A marker from its pool in `region`. It belongs to the player's race holding the region, as
        if that race had placed it — unless the setup places such pieces or they are drawn from a
        hidden pool: those belong to nobody (R84; a relic drawn from a lair is nobody's)."""
        g = self.game
        if name not in g.ruleset.markers:
            raise PositionError(f"unknown marker '{name}'")
        holder = g.occupant[region]
        found = {pl.marker for pl in g.setup.placements} | {m for pool in g.setup.pools.values() for m in pool}
        nobodys = holder is None or holder.player is None or name in found
        if not pieces.place_marker(g, name, region, None if nobodys else holder):
            raise PositionError(f"no {name} left in the box")

    def face_down(self, region: int, name: str) -> None:
        """A marker lying face down in `region` (as a `face_down` placement lays it), nobody's: taken
        out of the hidden pool that holds it, else from the box."""
        g = self.game
        if name not in g.ruleset.markers:
            raise PositionError(f"unknown marker '{name}'")
        pool = next((p for p in g.hidden.values() if name in p), None)
        if pool is not None:
            pool.remove(name)
        elif not pieces.take_piece(g, name):
            raise PositionError(f"no {name} left in the box")
        g.face_down.setdefault(region, []).append(name)

    def market(self, combos: list[tuple[str, str]]) -> None:
        """The first combos on offer, in order (banners of the first market column)."""
        g, rs = self.game, self.game.ruleset
        column = g.market.columns[0]
        if any(race not in rs.races or power not in rs.powers for race, power in combos):
            raise PositionError("market entries are [Race, Power] pairs of this pack")
        for race, power in combos:
            if race not in column:
                raise PositionError(f"race '{race}' is not in the first market column")
            if power not in g.market.powers and power not in g.market.discard:
                raise PositionError(f"power '{power}' is not in the market")
            column.remove(race)
            (g.market.powers if power in g.market.powers else g.market.discard).remove(power)
        column[:0] = [race for race, _ in combos]
        g.market.powers[:0] = [power for _, power in combos]
        self.shown |= {name for combo in combos for name in combo}

    def column(self, tag: str, banners: list[str]) -> None:
        """The market column carrying `tag` starts with these banners, in order (the rest as shuffled)."""
        g, rs = self.game, self.game.ruleset
        index = next((i for i, tags in enumerate(rs.market.columns) if tag in tags), None)
        if index is None:
            raise PositionError(f"no market column carries the tag '{tag}'")
        column = g.market.columns[index]
        for name in banners:
            if name not in column:
                raise PositionError(f"race '{name}' is not in the {tag} column (or already on the table)")
            column.remove(name)
        column[:0] = banners
        self.shown |= set(banners)

    def pile(self, powers: list[str]) -> None:
        """The powers on top of the face-down pile, in order (under the visible ones)."""
        g = self.game
        m, visible = g.market, g.ruleset.market.visible
        for power in powers:
            if power not in g.ruleset.powers:
                raise PositionError(f"unknown power '{power}'")
            if power in m.powers[:visible]:
                raise PositionError(f"power '{power}' is on show in the market, not in the pile")
            if power not in m.powers and power not in m.discard:
                raise PositionError(f"power '{power}' is already on the table")
            (m.powers if power in m.powers else m.discard).remove(power)
        m.powers[visible:visible] = powers

    def market_coins(self, coins: list[int]) -> None:
        """Coins lying on the first combos, from the top (taken from the bank)."""
        g = self.game
        rows = g.market.coins[0]
        if len(coins) > len(rows) or any(c < 0 for c in coins):
            raise PositionError(f"market coins are at most {len(rows)} counts ≥ 0")
        for i, c in enumerate(coins):
            g.bank += rows[i] - c
            rows[i] = c

    def script(self, what: str, outcomes: list[Any]) -> None:
        """Fix chance in advance: `die` rolls, or the next draws of a hidden pool (chance.py)."""
        self.game.script.setdefault(what, []).extend(outcomes)

    def start(self, current: int = 0, round: int = 1, phase: str = "conquer") -> Game:
        """The game at `current`'s decision: with an active race, its `phase`
        (troops already readied; `start`: the turn's start, before its `during start`
        abilities and `turn.start` triggers); without one, the combo pick."""
        g = self.game
        if not 0 <= current < len(g.players):
            raise PositionError(f"player {current + 1} does not exist")
        if phase not in ("start", "conquer", "redeploy"):
            raise PositionError(f"a position starts in the start, conquer or redeploy phase, not '{phase}'")
        g.current, g.round = current, round
        steps = ["defend", "scoring", "score", "after", "next"]
        g.turn = TurnState(actor=current, queue=[(step, None) for step in steps])
        active = g.players[current].active
        if phase == "start":
            g.turn.queue = turn.turn_steps(g, current)
            turn.advance(g)
        elif active is None:
            g.turn.queue.insert(0, ("main", None))
            turn.advance(g)
        else:
            g.turn.phase, g.turn.acting = phase, active
            if phase == "redeploy":
                g.turn.gathered.clear()
        g.actions.clear()
        return g
