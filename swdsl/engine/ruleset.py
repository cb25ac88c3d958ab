"""A ruleset: the compiled content of one or more packs, plus their setups."""

from __future__ import annotations

import attrs

from swdsl.engine.board import Board
from swdsl.engine.content import Content, SharedVar
from swdsl.engine.hooks import Ability, Modifier, Trigger

_LATE = ("times", "at least", "at most")  # modifier operations a fold applies after the others


@attrs.frozen
class Placement:
    """Setup: put `count` of a neutral race's tokens, of a marker, or of the
    markers drawn from a hidden `pool` (laid `face_down` if asked) on every
    region whose terrain or symbol matches, or on `pick` of them chosen at
    random (never two bordering ones if `apart`). A race goes only where no
    race stands, unless it `displace`s it. A region whose terrain or symbol is
    one of `alike` matches too (names that count as `match` in a mix)."""

    match_kind: str  # terrain | symbol
    match: str
    alike: frozenset[str] = frozenset()
    race: str = ""
    marker: str = ""
    pool: str = ""
    face_down: bool = False
    count: int = 1
    pick: tuple[int, int] | None = None  # (per player, plus): how many regions; None = all
    apart: bool = False
    displace: bool = False


@attrs.frozen
class Market:
    """The combo market: `visible` rows; banner columns (each takes the banners
    carrying one of its tags; none = one column of every banner) facing one
    power column; a combo costs its row, paid on the combos above or to the bank."""

    visible: int = 6
    payment: str = "combos"  # combos: one coin on each combo above; bank: paid to the bank
    columns: tuple[tuple[str, ...], ...] = ()

    def column_for(self, tags) -> int | None:
        """The column of a banner with `tags`: the first sharing one (None: it fits no column)."""
        if not self.columns:
            return 0
        return next((i for i, column in enumerate(self.columns) if not set(column).isdisjoint(tags)), None)


@attrs.frozen
class Layout:
    """Modular boards (islands drawn for each game): per size, the physical boards,
    each a tuple of its faces. A game draws `count` different boards of each
    size in `sizes` and one face of each, with its seed; each face becomes an
    island (area 1, 2, … in draw order)."""

    sizes: tuple[tuple[str, int], ...]
    boards: dict[str, tuple[tuple[Board, ...], ...]]
    composed: dict = attrs.field(factory=dict, eq=False, repr=False)  # faces' ids -> Board (keeps each board's memo)
    parts: dict = attrs.field(factory=dict, eq=False, repr=False)  # each face as an island at its place (Board.compose)

    def draw(self, rng) -> Board:
        faces: list[Board] = []
        for size, count in self.sizes:
            for board in rng.sample(self.boards[size], count):
                faces.append(board[rng.randrange(len(board))] if len(board) > 1 else board[0])
        return self.compose(tuple(faces))

    def compose(self, faces: tuple[Board, ...]) -> Board:
        key = tuple(map(id, faces))  # the layout's own faces: hashing a board by value walks all of it
        board = self.composed.get(key)
        if board is None:
            board = self.composed[key] = Board.compose(faces, self.parts)
        return board

    @property
    def faces(self) -> list[tuple[str, Board]]:
        """(size, face) of every face of every board."""
        return [(size, face) for size, boards in self.boards.items() for board in boards for face in board]


@attrs.frozen
class Setup:
    """How a game for `players` starts: a fixed `board`, or a `layout` of
    modular boards drawn at the start of each game; with `teams`, the players
    form sides and a side wins (outcome.py `team_winners`)."""

    players: int
    board: Board | None
    rounds: int
    coins: int
    placements: tuple[Placement, ...] = ()
    pools: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    seats: tuple[tuple[str, ...], ...] = ()  # per seat: the column tags it may pick from (none: any)
    layout: Layout | None = None
    # ("race" | "power", key) of what makes no sense on this board: never on offer
    discarded: frozenset[tuple[str, str]] = frozenset()
    teams: tuple[str, ...] = ()  # per seat: its team (none: every player for themself)

    def new_board(self, rng) -> Board:
        if self.layout is not None:
            return self.layout.draw(rng)
        assert self.board is not None, "a setup has a board or a layout"
        return self.board


@attrs.frozen
class Budgets:
    """What content may spend (pack.yaml `budgets:`): past one, the game stops
    with a diagnostic naming the rule, never a hang."""

    trigger_runs: int = 1000  # triggers run during one action
    number: int = 1_000_000  # the largest value (either sign) a variable may hold
    actions: int = 20_000  # actions in a game; a game cut off there is unfinished


@attrs.define
class Ruleset:
    name: str
    races: dict[str, Content]
    powers: dict[str, Content]
    markers: dict[str, Content]  # markers, relics and places
    rules: list[Content]
    setups: dict[int, Setup]
    market: Market = Market()
    die: tuple[int, ...] = (0, 0, 0, 1, 2, 3)
    bank: int = 1000
    budgets: Budgets = Budgets()
    team_score: str = "sum"  # how a team's score comes from its players' coins: lowest, sum or highest
    terrains: frozenset[str] = frozenset()
    symbols: frozenset[str] = frozenset()
    rule_mods: dict[str, tuple[Modifier, ...]] = attrs.field(factory=dict)
    rule_triggers: dict[str, tuple[Trigger, ...]] = attrs.field(factory=dict)
    rule_abilities: tuple[Ability, ...] = ()  # offered to every acting race
    reorders: bool = False  # some modifier is a `times`, `at least` or `at most`: folds order them last
    lasting_abilities: bool = False  # some ability works in decline: the player's other races offer theirs
    ability_phases: frozenset[str] = frozenset()  # the phases some ability is offered in
    modified_stats: frozenset[str] = frozenset()  # stats any content modifies
    heard_events: frozenset[str] = frozenset()  # events some trigger hears: the others are not fired at all
    wide_events: frozenset[str] = frozenset()  # events some trigger hears for other races (`by ours`, `by anyone`)
    # per such event, the banners and powers with such a trigger (held content aside): only their races listen
    wide_hearers: dict[str, tuple[Content, ...]] = attrs.field(factory=dict)
    cancels: bool = False  # some trigger may `cancel conquest`: conquests note what they change (undo.py)
    copied: dict[tuple[str, str], Content] = attrs.field(factory=dict)  # (wearer, original): rules as worn
    hooked_markers: frozenset[str] = frozenset()
    marker_stats: frozenset[str] = frozenset()  # stats some relic or place modifies
    # what content held through regions (markers and the rules they wear; powers bound to regions) has:
    # anything else never looks at holdings, so a relic does not slow every event or stat
    held_events: frozenset[str] = frozenset()
    held_phases: frozenset[str] = frozenset()  # phases of their abilities
    held_vars: bool = False  # some held content has variables
    power_events: frozenset[str] = frozenset()
    power_phases: frozenset[str] = frozenset()
    power_stats: frozenset[str] = frozenset()  # stats some power modifies (powers can be bound to regions)
    shared_vars: dict[str, SharedVar] = attrs.field(factory=dict)  # `game var`s and `player var`s, by name
    token_markers: frozenset[str] = frozenset()  # markers that count as their holder's tokens
    # some declared adjacency reads more than the map and a few values (variables, `here`): a race's
    # neighbours are worked out live, and kept while a game is only read (caches.reads)
    live_adjacency: bool = False
    # worked out while games run, shared by them (stats.py): fold plans per stat, banner, power and
    # state (content ids: the ruleset owns the content), a key per (stat, modifiers) whose fold is a
    # per-board table, and the values of the tables that read a region's own facts alone, by kind of
    # region (Board.kind_ids): every board drawn from modular faces finds them there
    plans: dict = attrs.field(factory=dict, eq=False, repr=False)
    tables: dict = attrs.field(factory=dict, eq=False, repr=False)
    local: dict = attrs.field(factory=dict, eq=False, repr=False)
    gates: dict = attrs.field(factory=dict, eq=False, repr=False)  # per modifiers and kind of region (stats._gated)
    # for the tools, never read by the engine: per family (race, power, piece, pool), each way a name
    # may be written (a key, a display name, another spelling) -> the keys it may mean
    spellings: dict[str, dict[str, tuple[str, ...]]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        for rule in self.rules:
            for stat, ms in rule.modifiers.items():
                mods.setdefault(stat, []).extend(ms)
            for event, ts in rule.triggers.items():
                trigs.setdefault(event, []).extend(ts)
        self.rule_mods = {k: tuple(v) for k, v in mods.items()}
        self.rule_triggers = {k: tuple(v) for k, v in trigs.items()}
        self.rule_abilities = tuple(a for rule in self.rules for a in rule.abilities)
        everything = self.everything()
        self.modified_stats = frozenset(st for c in everything for st in c.modifiers)
        self.reorders = any(m.op in _LATE for c in everything for ms in c.modifiers.values() for m in ms)
        self.lasting_abilities = any(a.scope != "active" for c in everything for a in c.abilities)
        self.ability_phases = frozenset(a.phase for c in everything for a in c.abilities)
        self.heard_events = frozenset(event for c in everything for event in c.triggers)
        self.wide_events = frozenset(t.event for c in everything for ts in c.triggers.values() for t in ts
                                     if t.audience != "me")
        self.wide_hearers = {event: tuple(c for c in [*self.races.values(), *self.powers.values()]
                                          if any(t.audience != "me" for t in c.triggers.get(event, ())))
                             for event in self.wide_events}
        self.cancels = any(t.cancels for c in everything for ts in c.triggers.values() for t in ts)
        copiers = {n for c in everything for n in c.copiers}
        self.hooked_markers = frozenset(n for n, m in self.markers.items() if m.has_hooks or n in copiers)
        self.marker_stats = frozenset(st for m in self.markers.values() for st in m.modifiers)
        self.power_stats = frozenset(st for p in self.powers.values() for st in p.modifiers)
        held = [*self.markers.values(), *self.copied.values()]
        self.held_events = frozenset(event for c in held for event in c.triggers)
        self.held_phases = frozenset(a.phase for c in held for a in c.abilities)
        self.held_vars = any(c.variables for c in [*held, *self.powers.values()])
        self.power_events = frozenset(event for p in self.powers.values() for event in p.triggers)
        self.power_phases = frozenset(a.phase for p in self.powers.values() for a in p.abilities)
        self.shared_vars = {v.name: v for c in everything for v in c.shared}
        self.token_markers = frozenset(n for n, m in self.markers.items() if m.counts_as_token)
        self.live_adjacency = any(not (m.map_only or m.given) for c in [*everything, *self.copied.values()]
                                  for m in c.modifiers.get("region.adjacent", ()))

    def everything(self) -> list[Content]:
        """Every race, power, marker and edition rule."""
        return [*self.races.values(), *self.powers.values(), *self.markers.values(), *self.rules]

    def worn_by(self, wearer: str, original: str) -> Content:
        """The rules of `original` worn by the marker `wearer` (compiled with its
        own name meaning the wearer, and abilities with uses of their own)."""
        return self.copied.get((wearer, original)) or self.markers[original]

    @property
    def banners(self) -> list[str]:
        return [n for n, r in self.races.items() if not r.neutral]

    def column_of(self, race: str) -> int:
        """The market column a banner belongs to: the first whose tags it carries (the first column
        for a race in play that fits none: a scenario may give it)."""
        return self.market.column_for(self.races[race].tags) or 0
