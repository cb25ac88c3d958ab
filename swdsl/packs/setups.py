"""The setups of a pack that provides the board: its maps or modular boards, with
the placements and hidden pools of every pack of the mix (pack.yaml `setup:`,
`boards:`, `placements:`, `pools:`).

Placements and pools are checked once for the whole mix, each name read in its
own pack (a placement names the declaration its own pack sees);
maps are loaded once per pack. A placement marked `board: true` belongs to its
pack's board: it runs only when that pack (or a pack requiring it) provides the board.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from swdsl.diagnostics import Diagnostic, did_you_mean
from swdsl.engine.ruleset import Layout, Placement, Setup
from swdsl.files import file_kind, inside
from swdsl.lang.typer import FAMILY_WORDS, PackNames
from swdsl.packs.maps import load_map
from swdsl.packs.yamlnodes import Reader


@attrs.frozen
class Placed:
    """A checked placement: its pack, and whether it belongs to that pack's board."""

    placement: Placement
    pack: str
    board_only: bool


def resolve_name(rd: Reader, node, names: PackNames, family: str, name: str, pack: str, unknown_code: str,
                 what: str) -> str | None:
    """The key of a name pack.yaml writes (a placement's race, marker or pool, a pool's member), read in
    its pack; a name it does not know (`unknown_code`), two packs' name (SW182) or a pack that does not
    declare it (SW183) reported, None then."""
    found = names.names.lookup(family, name, pack)
    if found.key is not None:
        return found.key
    if found.wrong_pack:
        rd.error(node, "SW183", f"no pack '{found.wrong_pack}' of this mix declares the {FAMILY_WORDS[family]} "
                 f"'{name.rpartition(':')[2]}'", did_you_mean(name, found.ambiguous) or "")
    elif found.ambiguous:
        rd.error(node, "SW182", f"'{name}' names the {FAMILY_WORDS[family]} of several packs: "
                 + ", ".join(found.ambiguous), f"write one of {', '.join(found.ambiguous)}")
    else:
        spelt = {"race": names.races, "piece": names.markers, "pool": names.pools}[family]
        rd.error(node, unknown_code, what, did_you_mean(name, spelt) or ("pools are declared in pack.yaml under "
                                                                         "`pools:`" if family == "pool" else ""))
    return None


def check_placements(manifests, names: PackNames, diags: list[Diagnostic],
                     limits: dict[str, int]) -> tuple[list[Placed], dict[str, tuple[str, ...]]]:
    """Every pack's placements and hidden pools, their names read as keys; the problems reported."""
    placed: list[Placed] = []
    pools: dict[str, tuple[str, ...]] = {}
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        for pl, node, board_only in m.placements:
            vocab = names.symbols if pl.match_kind == "symbol" else names.terrains
            if pl.match not in vocab:
                rd.error(node, "SW232", f"placement on unknown {pl.match_kind} '{pl.match}'",
                         did_you_mean(pl.match, vocab) or "")
                continue
            what = "race" if pl.race else "piece" if pl.marker else "pool"
            name = pl.race or pl.marker or pl.pool
            message = {"race": f"placement of unknown race '{name}'", "piece": f"placement of unknown marker '{name}'",
                       "pool": f"placement draws from unknown pool '{name}'"}[what]
            key = resolve_name(rd, node, names, what, name, m.name, "SW245" if what == "pool" else "SW232", message)
            if key is None:
                continue
            if pl.marker and pl.count > limits.get(key, pl.count):
                rd.error(node, "SW242", f"{pl.count} {pl.marker} per region, and the box holds "
                         f"{limits[key]}", "lower `count`, or raise the marker's `limit`")
                continue
            field = {"race": "race", "piece": "marker", "pool": "pool"}[what]
            alike = names.like(pl.match) - {pl.match}
            placed.append(Placed(attrs.evolve(pl, **{field: key}, alike=alike), m.name, board_only))
        for name, members in m.pools.items():
            keys = []
            for member, node in members:
                key = resolve_name(rd, node, names, "piece", member, m.name, "SW233",
                                   f"pool '{name}' names unknown marker '{member}'")
                keys.append(key or member)
            pools[names.names.key("pool", m.name, name)] = tuple(keys)
    return placed, pools


def load_setups(m, layout: dict[str, tuple[tuple, ...]], inherited: dict[int, Setup], placed: list[Placed],
                pools: dict[str, tuple[str, ...]], names: PackNames, bank: int, diags: list[Diagnostic],
                bases: frozenset[str], read) -> dict[int, Setup]:
    """The setups of the pack `m` when it provides the board: its maps, or modular boards drawn from
    `layout` (its own, or else those of the packs it requires), the placements that run on it (a
    `board: true` one only if its pack is among `bases`: `m` and the packs it requires) and every
    hidden pool. A pack with setups of its own keeps the `inherited` ones (of the packs it requires)
    for the player counts it gives none for; a pack without any provides no board."""
    rd = Reader(str(m.path / "pack.yaml"), diags)
    load = lambda rel, node: _map_file(m, rel, node, rd, names, diags, read)  # noqa: E731
    placements = tuple(p.placement for p in placed if not p.board_only or p.pack in bases)
    setups: dict[int, Setup] = {}
    for count, entry in m.setup.items():
        if "map" not in entry and "boards" not in entry:
            continue
        board = None
        if "map" in entry:
            if not entry["map"][0]:
                continue
            board = load(*entry["map"])
            if board is None:
                continue
        if count * (entry["coins"] or 0) > bank:
            rd.error(entry["node"], "SW241", f"setup {count} deals {count} × {entry['coins']} coins and the "
                     f"bank holds {bank}", "deal fewer coins, or put more in the box with `coins:`")
            continue
        seats = entry["seats"]
        if seats and len(seats) != count:
            rd.error(entry["node"], "SW237", f"setup {count} lists {len(seats)} seats",
                     "give one list of tags per player, or leave `seats` out")
        if entry["teams"] and len(entry["teams"]) != count:
            rd.error(entry["node"], "SW250", f"setup {count} gives {len(entry['teams'])} teams",
                     "give one team per player, in turn order, or leave `teams` out")
        drawn = None
        if "boards" in entry:
            drawn = _drawn_boards(rd, layout, *entry["boards"])
            if drawn is None:
                continue
        setups[count] = Setup(count, board, entry["rounds"] or 10, entry["coins"] or 0,
                              placements, dict(pools), seats, drawn, teams=entry["teams"])
    if not m.setup:
        return {}
    return {**{n: attrs.evolve(s, placements=placements) for n, s in inherited.items()}, **setups}


def pack_file(m, rel: str, node, rd: Reader, what: str) -> Path | None:
    """A file pack.yaml names, which must lie inside the pack folder (links
    followed): never a path that leaves it (SW236), and an existing file (SW234)."""
    path = m.path / rel
    if Path(rel).is_absolute() or ".." in Path(rel).parts or not inside(m.path, path):
        rd.error(node, "SW236", f"{what} '{rel}' lies outside the pack folder",
                 "paths in pack.yaml are relative to the pack folder and stay inside it")
        return None
    if file_kind(path) != "file":
        rd.error(node, "SW234", f"{what} '{rel}' not found", "the path is relative to the pack folder")
        return None
    return path


def _map_file(m, rel: str, node, rd: Reader, names: PackNames, diags: list[Diagnostic], read):
    """A map file named in pack.yaml, loaded and checked (None if unusable)."""
    path = pack_file(m, rel, node, rd, "map file")
    if path is None:
        return None
    text = read(path)
    if text is None:
        return None
    board, errs = load_map(text, str(path), names.terrains, names.symbols)
    diags.extend(errs)
    return board


def modular_boards(m, names: PackNames, diags: list[Diagnostic], read) -> dict[str, tuple[tuple, ...]]:
    """The pack's modular boards: size -> physical boards -> faces, their maps loaded with `read`
    (the loader's careful file reader). Faces are islands of one map in play, so their region ids
    must differ."""
    rd = Reader(str(m.path / "pack.yaml"), diags)
    out: dict[str, tuple[tuple, ...]] = {}
    seen: dict[str, str] = {}
    for size, boards in m.boards.items():
        physical = []
        for faces in boards:
            loaded = []
            for rel, node in faces:
                face = _map_file(m, rel, node, rd, names, diags, read) if rel else None
                if face is None:
                    continue
                for region in face.regions:
                    if region.id in seen and seen[region.id] != face.name:
                        rd.error(node, "SW239", f"region '{region.id}' is on two board faces ({seen[region.id]} "
                                 f"and {face.name})", "faces are islands of one map: give their regions "
                                 "distinct ids, e.g. prefixed with the face's name")
                    seen[region.id] = face.name
                loaded.append(face)
            if not faces:
                rd.error(None, "SW239", f"a {size} board has no faces", "list its faces: `- [maps/a.yaml, maps/b.yaml]`")
            if loaded:
                physical.append(tuple(loaded))
        out[size] = tuple(physical)
    return out


def _drawn_boards(rd: Reader, boards: dict, wanted: list, node) -> Layout | None:
    """A setup's `boards: {size: count}` as a Layout of the pack's boards."""
    sizes = []
    for size, count in wanted:
        if count is None:
            return None
        if size not in boards:
            rd.error(node, "SW240", f"no {size} boards", did_you_mean(size, boards)
                     or "declare them under `boards:` in pack.yaml")
            return None
        if count > len(boards[size]):
            rd.error(node, "SW240", f"{count} {size} boards wanted, the pack has {len(boards[size])}",
                     "a game draws different physical boards")
            return None
        sizes.append((size, count))
    return Layout(tuple(sizes), boards)


def faces_of(setup: Setup) -> list:
    """Every map a setup may play on: its map, or each face of its modular boards."""
    if setup.layout is not None:
        return [face for _, face in setup.layout.faces]
    return [setup.board] if setup.board is not None else []
