"""Game state: plain mutable data. Rules live in turn.py, legality in legal.py.

`Game` is the persistent state of a game; `TurnState` (at `game.turn`) is what
the current turn keeps while it runs and drops when the next one begins: its
phase and acting race, the steps still to run, the conquest log, uses of
abilities limited per turn. `Game.clone()` copies both cheaply, sharing the
compiled ruleset and the board (never copied), so search bots can play ahead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from swdsl.engine.board import Board
from swdsl.engine.content import Content
from swdsl.engine.hooks import Ability, Modifier, Trigger
from swdsl.engine.index import Index
from swdsl.engine.ruleset import Ruleset, Setup

if TYPE_CHECKING:
    from swdsl.engine.stats import Plan

Piece = tuple[str, int | None, int]
"""A marker on the map: its name, the id of the race it belongs to (None: nobody's) and the number it
carries (its strength, `place … with N`; 0 for most pieces)."""


class RaceInst:
    """A race on the table: a banner (and its power) held by a player, or a
    neutral race placed by setup. It lives until its last token leaves the map
    after decline, and its banner goes back to the market. A plain class: mypyc makes it natively
    (a dataclass's `__init__` is Python, and a race is made at every pick). `hooks_of`: a race whose
    hooks it shares (a copy), instead of working them out."""

    def __init__(self, id: int, race: Content, power: Content | None, player: int | None, declined: bool = False,
                 hooks_of: RaceInst | None = None) -> None:
        self.id = id
        self.race = race
        self.power = power
        self.player = player
        self.declined = declined
        self.hand = 0
        self.reserve = 0  # set aside: back in hand when troops are readied
        self.pending = 0  # withdrawn after a loss: redeployed at the end of the attacker's turn
        self.turns = 0
        self.regions: set[int] = set()
        self.vars: dict[str, Any] = {}
        self.lost: set[int] = set()  # regions lost since its last turn
        self.troops: dict[str, int] = {}  # marker pieces serving as its tokens (`recruit`)
        self.turn_tags: set[str] = set()  # tags it carries until the end of the turn (`tag`)
        # derived from race + power (rebuilt when the power changes); never part of the state
        self.mods: dict[str, tuple[Modifier, ...]] = {}
        self.triggers: dict[str, tuple[Trigger, ...]] = {}
        self.abilities: tuple[Ability, ...] = ()
        self.tags: frozenset[str] = frozenset()  # its banner's and power's tags and names (`has TAG`)
        self.turn_vars: tuple[tuple[str, Any], ...] = ()  # (name, initial value) of its variables reset every turn
        self.fold_cache: dict[str, Plan] = {}  # per stat, its fold plan (stats.plan)
        # what it holds through its regions: (the marker index's record of holdings, the regions with content,
        # what it holds) as holdings.held read them; every change of `regions` goes through hold/release/
        # release_all, which drop it when a region with content comes or goes
        self.holding: tuple | None = None
        self.ordered: list[int] | None = None  # its regions sorted (in_order), dropped with every change of them
        if hooks_of is None:
            self.rebuild_hooks()
        else:
            self.mods, self.triggers, self.abilities = hooks_of.mods, hooks_of.triggers, hooks_of.abilities
            self.tags, self.turn_vars = hooks_of.tags, hooks_of.turn_vars

    def rebuild_hooks(self) -> None:
        parts = [self.race] + ([self.power] if self.power else [])
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        abilities: list[Ability] = []
        for c in parts:
            for stat, ms in c.modifiers.items():
                mods.setdefault(stat, []).extend(ms)
            for event, ts in c.triggers.items():
                trigs.setdefault(event, []).extend(ts)
            abilities.extend(c.abilities)
            for name, (init, _) in c.variables.items():
                self.vars.setdefault(name, init)
        self.mods = {k: tuple(v) for k, v in mods.items()}
        self.triggers = {k: tuple(v) for k, v in trigs.items()}
        self.abilities = tuple(abilities)
        self.tags = frozenset({tag for c in parts for tag in c.tags} | {c.name for c in parts})
        self.turn_vars = tuple((name, init) for c in parts for name, (init, reset) in c.variables.items()
                               if reset == "turn")
        self.fold_cache.clear()

    def hold(self, region: int) -> None:
        """The race now holds `region` (what it holds through its regions is looked at again if content
        with rules lies there)."""
        self.regions.add(region)
        self.ordered = None
        self._changed(region)

    def release(self, region: int) -> None:
        """The race no longer holds `region`."""
        self.regions.discard(region)
        self.ordered = None
        self._changed(region)

    def _changed(self, region: int) -> None:
        """What the race holds through its regions stays the same unless `region` is one of those the
        marker index it was read from lists with content with rules (holdings.where)."""
        holding = self.holding
        if holding is not None and region in holding[1]:
            self.holding = None

    def release_all(self) -> None:
        """The race holds no region any more."""
        self.regions.clear()
        self.ordered = None
        self.holding = None

    def in_order(self) -> list[int]:
        """Its regions in order, kept until they change (legality asks at every decision, for each kind
        of action on them): the caller reads it, and copies it to change it."""
        found = self.ordered
        if found is None:
            found = self.ordered = sorted(self.regions)
        return found

    def scope_ok(self, scope: str) -> bool:
        if scope == "always":
            return True
        return (scope == "declined") == self.declined

    @property
    def name(self) -> str:
        if self.power is not None:
            return f"{self.power.name} {self.race.name}"
        return self.race.name

    def copy(self) -> RaceInst:
        """The same race, with state of its own and the derived hooks shared."""
        c = RaceInst(self.id, self.race, self.power, self.player, self.declined, hooks_of=self)
        c.hand, c.reserve, c.pending, c.turns = self.hand, self.reserve, self.pending, self.turns
        c.regions, c.vars, c.lost = set(self.regions), dict(self.vars), set(self.lost)
        c.troops, c.turn_tags, c.fold_cache = dict(self.troops), set(self.turn_tags), dict(self.fold_cache)
        return c


class Player:
    """A seat at the table: its coins, its active race and declined ones, the markers in front of it."""

    def __init__(self, seat: int, coins: int = 0, active: RaceInst | None = None, declined: list[RaceInst] | None = None,
                 markers: list[tuple[str, int | None]] | None = None, vars: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.coins = coins
        self.active = active
        self.declined: list[RaceInst] = [] if declined is None else declined
        # held in front of them: (marker, giver race id)
        self.markers: list[tuple[str, int | None]] = [] if markers is None else markers
        self.vars: dict[str, Any] = {} if vars is None else vars  # its `player var`s


class MarketState:
    """Banner queues, one per market column, facing one power queue (R10): row
    i of a column pairs its i-th banner with the i-th power while i < visible;
    coins[c][i] lie on that combo."""

    def __init__(self, columns: list[list[str]], powers: list[str], coins: list[list[int]],
                 discard: list[str] | None = None, tokens: list[list[int]] | None = None,
                 pieces: list[list[list[str]]] | None = None, out: list[str] | None = None) -> None:
        self.columns = columns
        self.powers = powers
        self.coins = coins
        self.discard: list[str] = [] if discard is None else discard
        # tokens and markers rules put on each combo, for its taker
        self.tokens: list[list[int]] = tokens or [[0] * len(c) for c in coins]
        self.pieces: list[list[list[str]]] = pieces or [[[] for _ in c] for c in coins]
        self.out: list[str] = [] if out is None else out  # banners the setup's board discards: never on offer

    def banners(self) -> list[str]:
        return [b for column in self.columns for b in column]

    def copy(self) -> MarketState:
        return MarketState([list(c) for c in self.columns], list(self.powers), [list(c) for c in self.coins],
                           list(self.discard), [list(c) for c in self.tokens],
                           [[list(p) for p in c] for c in self.pieces], list(self.out))


@dataclass(frozen=True)
class Decision:
    """A trigger that chooses, waiting for its race's player (turn.py `ask`)."""

    trigger: Trigger
    race: RaceInst
    bindings: dict[str, Any] = field(compare=False)


class Conquest(NamedTuple):
    """One entry of the turn's conquest log (a tuple: one is made per conquest)."""

    region: int
    attacker: int
    defender: int | None
    defender_player: int | None
    occupied: bool  # held race tokens just before (R79)
    defender_active: bool


class TurnState:
    """What the current turn keeps while it runs; a new turn starts a new one
    (only `phase`, the acting seat and the steps carry the turn forward).

    A plain class, not a dataclass: one is made every turn, and mypyc compiles a written `__init__`
    where a dataclass's is generated Python (13k instructions each, 7% of a replay, measured)."""

    def __init__(self, phase: str = "pick", actor: int = 0, queue: list[tuple[str, RaceInst | None]] | None = None):
        self.phase = phase  # start | pick | conquer | redeploy | defend | scoring | after | choose | over
        self.actor = actor  # the seat deciding now
        self.acting: RaceInst | None = None  # the race acting now
        self.queue: list[tuple[str, RaceInst | None]] = [] if queue is None else queue  # the turn's steps still to run
        self.log: list[Conquest] = []
        self.gone: dict[int, RaceInst] = {}  # races that left the table this turn
        self.uses: dict[tuple, int] = {}  # uses of abilities limited per turn
        self.die = 0  # the last die roll
        self.conquered = False  # the acting race conquered in this conquest step
        self.abandoned = False  # … or abandoned a region
        self.picked = False  # the active race was picked this turn
        self.starting = False  # the turn is at its start: its `during start` abilities, its `turn.start` triggers
        self.revealed: list[str] = []  # powers that came on offer this turn, refilling the market
        self.declined = False  # a race went into decline this turn
        self.gathered: set[int] = set()
        self.placed: set[int] = set()
        self.readied: dict[int, int] = {}  # tokens the active race took into hand, per region
        self.returning: list[Piece] = []  # markers going back to their owners
        self.depth = 0  # triggers running inside triggers
        self.runs = 0  # triggers run in the current action (pack.yaml `budgets: trigger_runs`)
        self.resumed: set[int] = set()  # races given a second conquest step this turn
        self.decisions: list[Decision] = []  # triggers waiting for their player's choice
        # what the turn returns to once they are made: "queue" (its next step) or (phase, acting, actor)
        self.resume: Any = None
        self.undo: Any = None  # while a conquest's own triggers run: what `cancel conquest` takes back (undo.py)


class Game:
    """The whole state of a game (and what it is played with: ruleset, setup, board, seed).

    A plain class: a dataclass's generated `__init__` is Python, run at every new game and every clone
    a search bot plays ahead on; mypyc compiles a written one."""

    def __init__(self, ruleset: Ruleset, setup: Setup, board: Board, seed: int, rng: random.Random,
                 players: list[Player], market: MarketState, bank: int, tray: dict[str, int], pools: dict[str, int],
                 hidden: dict[str, list[str]], occupant: list[RaceInst | None], tokens: list[int],
                 markers: list[list[Piece]], races: dict[int, RaceInst] | None = None,
                 neutrals: dict[str, RaceInst] | None = None, next_id: int = 1, round: int = 1, current: int = 0,
                 uses: dict[tuple, int] | None = None, bound_powers: dict[int, list[str]] | None = None,
                 worn: dict[str, str] | None = None, vars: dict[str, Any] | None = None,
                 face_down: dict[int, list[str]] | None = None, script: dict[str, list[Any]] | None = None,
                 actions: list[tuple] | None = None, turn: TurnState | None = None,
                 ledger: list[tuple[int, int, str]] | None = None, cause: str = "setup", won_by: int | None = None,
                 destroyed: dict[str, int] | None = None) -> None:
        self.ruleset = ruleset
        self.setup = setup
        self.board = board
        self.seed = seed
        self.rng = rng
        self.players = players
        self.market = market
        self.bank = bank
        self.tray = tray
        self.pools = pools  # marker pieces left in the box
        self.hidden = hidden  # setup pools of face-down markers
        self.occupant = occupant
        self.tokens = tokens
        self.markers = markers  # per region, face up
        self.races: dict[int, RaceInst] = {} if races is None else races
        self.neutrals: dict[str, RaceInst] = {} if neutrals is None else neutrals
        self.next_id = next_id
        self.round = round
        self.current = current
        self.uses: dict[tuple, int] = {} if uses is None else uses  # uses of abilities limited per game
        # region -> powers bound to it (`draw power`)
        self.bound_powers: dict[int, list[str]] = {} if bound_powers is None else bound_powers
        self.worn: dict[str, str] = {} if worn is None else worn  # marker -> the marker whose rules it wears (`copy`)
        self.vars: dict[str, Any] = {} if vars is None else vars  # the variables of edition rules and `game var`s
        # region -> markers lying there face down
        self.face_down: dict[int, list[str]] = {} if face_down is None else face_down
        # chance outcomes fixed in advance (chance.py)
        self.script: dict[str, list[Any]] = {} if script is None else script
        self.actions: list[tuple] = [] if actions is None else actions
        self.turn: TurnState = TurnState() if turn is None else turn
        # the game's history of coins: (seat, change, why), `cause` naming what moves them now
        self.ledger: list[tuple[int, int, str]] = [] if ledger is None else ledger
        self.cause = cause
        self.won_by = won_by  # the seat a rule gave the game to (`win the game`)
        # per race: tokens out of the game for good (`destroy`)
        self.destroyed: dict[str, int] = {} if destroyed is None else destroyed
        self.reading_adjacency: set[int] = set()  # races whose region.adjacent rules are being read
        self.reading_links: set[int] = set()  # races whose region.linked rules are being read (no links followed)
        self.folding: list[tuple] = []  # the stats being folded now: (stat, race, a copy of the bindings)
        # not state: where the face-up markers lie (holdings.where), None once a marker or bound power moves
        self.where: Any = None
        # not state: the facts kept while the game is only read (caches.reads), None outside such a scope
        self.kept: dict | None = None
        self.index: Index = ruleset.index  # the ruleset's, read natively at every decision

    @property
    def over(self) -> bool:
        return self.turn.phase == "over" or self.won_by is not None

    @property
    def phase(self) -> str:
        return "over" if self.over else self.turn.phase

    @property
    def acting(self) -> RaceInst | None:
        return self.turn.acting

    @property
    def actor(self) -> int:
        return self.turn.actor

    def owner_of(self, region: int) -> int | None:
        inst = self.occupant[region]
        return None if inst is None else inst.player

    def visible_combos(self) -> list[tuple[int, int, str, str]]:
        """(column, row, banner, power) of every combo on offer, column by column."""
        m = self.market
        out: list[tuple[int, int, str, str]] = []
        for c, column in enumerate(m.columns):
            n = min(self.index.visible, len(column), len(m.powers))
            out.extend((c, i, column[i], m.powers[i]) for i in range(n))
        return out

    def may_pick(self, seat: int, column: int) -> bool:
        """A seat with tags may only take banners from columns sharing one."""
        seats, columns = self.setup.seats, self.ruleset.market.columns
        if seat >= len(seats) or not seats[seat] or not columns:
            return True
        return bool(set(seats[seat]) & set(columns[column]))

    def scores(self) -> list[int]:
        return [p.coins for p in self.players]

    def tokens_on_map(self, seat: int) -> int:
        return sum(self.tokens[r] for r, inst in enumerate(self.occupant) if inst is not None and inst.player == seat)

    def clone(self) -> Game:
        """An independent copy to play ahead on; the ruleset, setup and board are shared."""
        races = {i: inst.copy() for i, inst in self.races.items()}
        t = self.turn
        gone = {i: inst.copy() for i, inst in t.gone.items()}

        def same(inst: RaceInst | None) -> RaceInst | None:
            return None if inst is None else races.get(inst.id) or gone.get(inst.id) or inst.copy()

        rng = random.Random()
        rng.setstate(self.rng.getstate())
        players = [Player(p.seat, p.coins, same(p.active), [same(d) for d in p.declined],  # type: ignore[misc]
                          list(p.markers), dict(p.vars)) for p in self.players]

        def bound(b: dict[str, Any]) -> dict[str, Any]:
            return {k: same(v) if isinstance(v, RaceInst) else v for k, v in b.items()}

        resume = (t.resume[0], same(t.resume[1]), t.resume[2]) if isinstance(t.resume, tuple) else t.resume
        turn = TurnState(t.phase, t.actor, [(s, same(i)) for s, i in t.queue])
        turn.acting, turn.log, turn.gone, turn.uses, turn.die = same(t.acting), list(t.log), gone, dict(t.uses), t.die
        turn.conquered, turn.abandoned, turn.picked, turn.declined = t.conquered, t.abandoned, t.picked, t.declined
        turn.starting = t.starting
        turn.revealed, turn.gathered, turn.placed = list(t.revealed), set(t.gathered), set(t.placed)
        turn.readied = dict(t.readied)
        turn.returning, turn.depth, turn.runs, turn.resumed = list(t.returning), t.depth, t.runs, set(t.resumed)
        turn.decisions = [Decision(d.trigger, same(d.race), bound(d.bindings)) for d in t.decisions]  # type: ignore[arg-type]
        turn.resume = resume
        return Game(self.ruleset, self.setup, self.board, self.seed, rng, players, self.market.copy(), self.bank,
                    dict(self.tray), dict(self.pools), {k: list(v) for k, v in self.hidden.items()},
                    [same(i) for i in self.occupant], list(self.tokens), [list(m) for m in self.markers], races,
                    {n: same(i) for n, i in self.neutrals.items()}, self.next_id, self.round, self.current,  # type: ignore[misc]
                    dict(self.uses), {r: list(v) for r, v in self.bound_powers.items()}, dict(self.worn),
                    dict(self.vars), {r: list(v) for r, v in self.face_down.items()},
                    {k: list(v) for k, v in self.script.items()}, list(self.actions), turn, list(self.ledger),
                    self.cause, self.won_by, dict(self.destroyed))
