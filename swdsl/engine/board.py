"""The map as an immutable graph: regions by index, terrain, symbols, borders.

Frozen dataclasses in a compiled module: the engine reads a region's terrain and a board's borders at
every price and selection, natively (an attrs class's fields are Python attribute lookups)."""

from __future__ import annotations

from dataclasses import dataclass, field

# every kind of region (its own facts: terrain, symbols, edge) met on any board, numbered in order of first
# sight: a value that reads a region's own facts alone is kept by kind number (caches.kept_for_kind),
# whichever board the region lies on
_KIND_IDS: dict[tuple[str, frozenset[str], bool], int] = {}


@dataclass(frozen=True)
class Region:
    id: str  # the map's own name for it ("12", "Stormwind")
    terrain: str
    symbols: frozenset[str]
    edge: bool
    area: int


@dataclass(frozen=True)
class Board:
    name: str
    regions: tuple[Region, ...]
    neighbours: tuple[frozenset[int], ...]
    by_id: dict[str, int] = field(compare=False)
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # map-only values rules computed once
    # per region, the number of its kind (_KIND_IDS): a rule reading only a region's own facts has one value
    # per kind, whichever board the region lies on (stats.py: region-local tables)
    kind_ids: tuple[int, ...] = field(init=False, compare=False, repr=False)
    # per area (island, board part), its regions in order: `regions of AREA` reads it at every turn end
    areas: dict[int, tuple[int, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        found: dict[int, list[int]] = {}
        for i, r in enumerate(self.regions):
            found.setdefault(r.area, []).append(i)
        object.__setattr__(self, "kind_ids", tuple(_KIND_IDS.setdefault((r.terrain, r.symbols, r.edge), len(_KIND_IDS))
                                                   for r in self.regions))
        object.__setattr__(self, "areas", {area: tuple(regions) for area, regions in sorted(found.items())})

    @classmethod
    def build(cls, name: str, regions: list[Region], borders: list[tuple[int, int]]) -> Board:
        adj: list[set[int]] = [set() for _ in regions]
        for a, b in borders:
            adj[a].add(b)
            adj[b].add(a)
        return cls(name, tuple(regions), tuple(frozenset(s) for s in adj), {r.id: i for i, r in enumerate(regions)})

    @classmethod
    def compose(cls, faces: tuple[Board, ...], parts: dict | None = None) -> Board:
        """One board of several islands: each face keeps its regions and borders
        and becomes area 1, 2, … in the order given (region ids stay the faces' own).
        A game draws a new board at most games: `parts` keeps each face's regions and
        borders as an island at its place (Layout.compose), so one is built only once."""
        regions: list[Region] = []
        neighbours: list[frozenset[int]] = []
        for island, face in enumerate(faces, start=1):
            offset = len(regions)
            key = (id(face), island, offset)
            part = None if parts is None else parts.get(key)
            if part is None:
                part = (tuple(Region(r.id, r.terrain, r.symbols, r.edge, island) for r in face.regions),
                        tuple(frozenset(offset + b for b in nb) for nb in face.neighbours))
                if parts is not None:
                    parts[key] = part
            regions += part[0]
            neighbours += part[1]
        return cls("+".join(f.name for f in faces), tuple(regions), tuple(neighbours),
                   {r.id: i for i, r in enumerate(regions)})

    def __len__(self) -> int:
        return len(self.regions)

    @property
    def border_count(self) -> int:
        return sum(len(n) for n in self.neighbours) // 2
