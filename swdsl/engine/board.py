"""The map as an immutable graph: regions by index, terrain, symbols, borders."""

from __future__ import annotations

import attrs


@attrs.frozen
class Region:
    id: str  # the map's own name for it ("12", "Stormwind")
    terrain: str
    symbols: frozenset[str]
    edge: bool
    area: int


@attrs.frozen
class Board:
    name: str
    regions: tuple[Region, ...]
    neighbours: tuple[frozenset[int], ...]
    by_id: dict[str, int] = attrs.field(eq=False)
    memo: dict = attrs.field(factory=dict, eq=False, repr=False)  # map-only values rules computed once

    @classmethod
    def build(cls, name: str, regions: list[Region], borders: list[tuple[int, int]]) -> "Board":
        adj: list[set[int]] = [set() for _ in regions]
        for a, b in borders:
            adj[a].add(b)
            adj[b].add(a)
        return cls(name, tuple(regions), tuple(frozenset(s) for s in adj), {r.id: i for i, r in enumerate(regions)})

    def __len__(self) -> int:
        return len(self.regions)

    @property
    def border_count(self) -> int:
        return sum(len(n) for n in self.neighbours) // 2
