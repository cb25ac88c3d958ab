"""A ruleset: the compiled content of one or more packs, plus their setups."""

from __future__ import annotations

import attrs

from swdsl.engine.board import Board
from swdsl.engine.content import Content
from swdsl.engine.index import Index


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
    markers: dict[str, Content]  # markers, relics, places and figures
    rules: list[Content]
    setups: dict[int, Setup]
    market: Market = Market()
    die: tuple[int, ...] = (0, 0, 0, 1, 2, 3)
    bank: int = 1000
    budgets: Budgets = Budgets()
    team_score: str = "sum"  # how a team's score comes from its players' coins: lowest, sum or highest
    terrains: frozenset[str] = frozenset()
    symbols: frozenset[str] = frozenset()
    copied: dict[tuple[str, str], Content] = attrs.field(factory=dict)  # (wearer, original): rules as worn
    index: Index = attrs.field(init=False, eq=False, repr=False)  # what the engine reads at every decision
    # for the tools, never read by the engine: per family (race, power, piece, pool), each way a name
    # may be written (a key, a display name, another spelling) -> the keys it may mean
    spellings: dict[str, dict[str, tuple[str, ...]]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        self.index = Index(self)

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
