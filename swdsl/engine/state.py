"""Game state: plain mutable data. Rules live in turn.py, legality in legal.py."""

from __future__ import annotations

import random
from typing import Any

import attrs

from swdsl.engine.board import Board
from swdsl.engine.content import Ability, Content, Modifier, Trigger
from swdsl.engine.ruleset import Ruleset, Setup


@attrs.define(eq=False)
class RaceInst:
    """A race on the table: a banner (and its power) held by a player, or a
    neutral race placed by setup. It lives until its last token leaves the map
    after decline, and its banner goes back to the market."""

    id: int
    race: Content
    power: Content | None
    player: int | None
    declined: bool = False
    hand: int = 0
    reserve: int = 0  # set aside: back in hand when troops are readied
    pending: int = 0  # withdrawn after a loss: redeployed at the end of the attacker's turn
    turns: int = 0
    regions: set[int] = attrs.field(factory=set)
    vars: dict[str, Any] = attrs.field(factory=dict)
    lost: set[int] = attrs.field(factory=set)  # regions lost since its last turn
    troops: dict[str, int] = attrs.field(factory=dict)  # marker pieces serving as its tokens (`recruit`)
    turn_tags: set[str] = attrs.field(factory=set)  # tags it carries until the end of the turn (`tag`)
    # hooks of race + power, grouped; rebuilt when the power is discarded
    mods: dict[str, tuple[Modifier, ...]] = attrs.field(factory=dict)
    triggers: dict[str, tuple[Trigger, ...]] = attrs.field(factory=dict)
    abilities: tuple[Ability, ...] = ()
    # per stat: the modifiers that apply in the race's current state (rules first)
    fold_cache: dict[str, tuple[Modifier, ...]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        self.rebuild_hooks()

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
        self.fold_cache.clear()

    def scope_ok(self, scope: str) -> bool:
        if scope == "always":
            return True
        return (scope == "declined") == self.declined

    @property
    def name(self) -> str:
        if self.power is not None:
            return f"{self.power.name} {self.race.name}"
        return self.race.name


@attrs.define(eq=False)
class Player:
    seat: int
    coins: int = 0
    active: RaceInst | None = None
    declined: list[RaceInst] = attrs.field(factory=list)
    vars: dict[str, Any] = attrs.field(factory=dict)
    markers: list[tuple[str, int | None]] = attrs.field(factory=list)  # held in front of them: (marker, giver race id)


@attrs.define(eq=False)
class MarketState:
    """Banner queues, one per market column, facing one power queue (R10): row
    i of a column pairs its i-th banner with the i-th power while i < visible;
    coins[c][i] lie on that combo."""

    columns: list[list[str]]
    powers: list[str]
    coins: list[list[int]]
    discard: list[str] = attrs.field(factory=list)

    def banners(self) -> list[str]:
        return [b for column in self.columns for b in column]


@attrs.define(eq=False)
class Conquest:
    """One entry of the turn's conquest log."""

    region: int
    attacker: int
    defender: int | None
    defender_player: int | None
    occupied: bool  # held race tokens just before (R79)
    defender_active: bool


@attrs.define(eq=False)
class Game:
    ruleset: Ruleset
    setup: Setup
    board: Board
    seed: int
    rng: random.Random
    players: list[Player]
    market: MarketState
    bank: int
    tray: dict[str, int]
    pools: dict[str, int]  # marker pieces left in the box
    hidden: dict[str, list[str]]  # setup pools of face-down markers
    occupant: list[RaceInst | None]
    tokens: list[int]
    markers: list[list[tuple[str, int | None]]]  # per region: (marker, owner race id)
    races: dict[int, RaceInst] = attrs.field(factory=dict)
    gone: dict[int, RaceInst] = attrs.field(factory=dict)  # races that left the table this turn
    neutrals: dict[str, RaceInst] = attrs.field(factory=dict)
    next_id: int = 1
    round: int = 1
    current: int = 0
    phase: str = "pick"
    actor: int = 0
    acting: RaceInst | None = None
    queue: list[Any] = attrs.field(factory=list)  # what the turn still has to run
    log: list[Conquest] = attrs.field(factory=list)
    uses: dict[Any, int] = attrs.field(factory=dict)  # ability uses
    die: int = 0
    conquered_in_phase: bool = False
    abandoned_in_phase: bool = False
    picked_this_turn: bool = False
    declined_this_turn: bool = False
    gathered: set[int] = attrs.field(factory=set)
    placed: set[int] = attrs.field(factory=set)
    actions: list[tuple] = attrs.field(factory=list)
    trigger_depth: int = 0
    queue_returns: list[tuple[str, int]] = attrs.field(factory=list)  # markers going back to owners
    bound_powers: dict[int, list[str]] = attrs.field(factory=dict)  # region -> powers bound to it (`draw power`)
    copies: dict[str, str] = attrs.field(factory=dict)  # marker -> the marker whose rules it copies (`copy`)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def owner_of(self, region: int) -> int | None:
        inst = self.occupant[region]
        return None if inst is None else inst.player

    def visible_combos(self) -> list[tuple[int, int, str, str]]:
        """(column, row, banner, power) of every combo on offer, column by column."""
        m = self.market
        out = []
        for c, column in enumerate(m.columns):
            n = min(self.ruleset.market.visible, len(column), len(m.powers))
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
