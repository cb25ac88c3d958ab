"""Map files: regions (terrain, symbols, edge, area) and borders, checked.

Format (YAML):
    name: my-map
    regions:
      1: {terrain: sea, edge: true}
      2: {terrain: farmland, symbols: [magic], edge: true, area: 1}
    borders: [[1, 2], [1, 6]]
"""

from __future__ import annotations

from collections import deque

import yaml

from swdsl.diagnostics import Diagnostic, did_you_mean
from swdsl.engine.board import Board, Region
from swdsl.packs.yamlnodes import Reader

REGION_KEYS = {"terrain": "the region's terrain", "symbols": "printed symbols", "edge": "touches the map edge",
               "area": "island or board part number"}
MAP_KEYS = {"name": "the map's name", "regions": "the regions", "borders": "pairs of bordering regions",
            "players": "player count it is drawn for (information)", "rounds": "information only"}


def load_map(text: str, path: str, terrains: set[str], symbols: set[str]) -> tuple[Board | None, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    rd = Reader(path, diags)
    root = rd.load(text)
    if root is None:
        return None, diags
    top = rd.mapping(root, "the map")
    rd.unknown_keys(top, MAP_KEYS, "the map")
    name = rd.text(top["name"][1], "map name") if "name" in top else path
    if "regions" not in top:
        rd.error(root, "SW210", "the map has no regions", "add `regions:` with one entry per region")
        return None, diags
    regions: list[Region] = []
    nodes = {}
    for rid, (knode, vnode) in rd.mapping(top["regions"][1], "regions").items():
        fields = rd.mapping(vnode, f"region {rid}")
        rd.unknown_keys(fields, REGION_KEYS, f"region {rid}")
        terrain = rd.text(fields["terrain"][1], "terrain") if "terrain" in fields else None
        if "terrain" not in fields:
            rd.error(knode, "SW211", f"region {rid} has no terrain", "add `terrain: …`")
        elif terrain is not None and terrain not in terrains:
            rd.error(fields["terrain"][1], "SW212", f"unknown terrain '{terrain}'",
                     did_you_mean(terrain, terrains) or "terrains are declared in pack.yaml")
        syms = []
        if "symbols" in fields:
            for s in rd.sequence(fields["symbols"][1], "symbols"):
                sym = rd.text(s, "symbol")
                if sym is not None and sym not in symbols:
                            rd.error(s, "SW213", f"unknown symbol '{sym}'",
                             did_you_mean(sym, symbols) or "symbols are declared in pack.yaml")
                elif sym is not None:
                    syms.append(sym)
        edge = rd.boolean(fields["edge"][1], "edge") if "edge" in fields else False
        area = rd.integer(fields["area"][1], "area") if "area" in fields else 0
        nodes[rid] = knode
        regions.append(Region(rid, terrain or "?", frozenset(syms), bool(edge), area or 0))
    index = {r.id: i for i, r in enumerate(regions)}
    pairs: list[tuple[int, int]] = []
    seen: dict[frozenset, object] = {}
    broken = False  # a border was unreadable: connectivity would be judged on a partial map
    for b in rd.sequence(top["borders"][1], "borders") if "borders" in top else []:
        items = rd.sequence(b, "a border")
        if len(items) != 2:
            if items:
                rd.error(b, "SW214", "a border names exactly two regions", "write [A, B]")
            continue
        ends = [rd.text(x, "region") for x in items]
        bad = None in ends  # already reported by rd.text
        broken = broken or bad
        for x, e in zip(items, ends):
            if e is not None and e not in index:
                broken = True
                rd.error(x, "SW215", f"border to a missing region '{e}'", "every border joins two listed regions")
                bad = True
        if bad:
            continue
        a, c = index[ends[0]], index[ends[1]]
        if a == c:
            rd.error(b, "SW216", f"region {ends[0]} borders itself")
            continue
        key = frozenset((a, c))
        if key in seen:
            rd.error(b, "SW217", f"border {ends[0]}-{ends[1]} listed twice",
                     f"also on line {seen[key].start_mark.line + 1} (borders are symmetric: list each pair once)")
            continue
        seen[key] = b
        pairs.append((a, c))
    if not regions:
        if isinstance(top["regions"][1], yaml.MappingNode):
            rd.error(top["regions"][1], "SW210", "the map has no regions", "add one entry per region under `regions:`")
        return None, diags
    board = Board.build(name or path, regions, pairs)
    if not broken:
        _check_connected(board, rd, nodes)
    return board, diags


def _check_connected(board: Board, rd: Reader, nodes: dict) -> None:
    reached = {0}
    todo = deque([0])
    while todo:
        for n in board.neighbours[todo.popleft()]:
            if n not in reached:
                reached.add(n)
                todo.append(n)
    if len(reached) < len(board):
        areas = {r.area for r in board.regions}
        if len(areas) > 1:
            return  # islands are separate on purpose
        lost = [board.regions[i].id for i in range(len(board)) if i not in reached]
        rd.error(nodes.get(lost[0]), "SW218", f"the map is not connected: {', '.join(lost[:6])} cannot be reached",
                 "add the missing borders, or give islands different `area` numbers")
