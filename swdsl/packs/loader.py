"""Packs: pack.yaml + maps + rules files → one compiled Ruleset.

Several packs load into one mix: a name two packs declare is qualified by its
pack (swdsl/lang/names.py), their terrains and symbols add up, and games are
played on the board of one pack (swdsl/packs/mixing.py). Every problem in any
file is collected before anything is compiled.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import attrs

from swdsl.diagnostics import Diagnostic, PackError, Span, did_you_mean
from swdsl.engine.outcome import TEAM_SCORES
from swdsl.engine.ruleset import Budgets, Market, Placement, Ruleset, Setup
from swdsl.files import MAX_RULES_BYTES, MAX_YAML_BYTES, file_kind, inside, read_text, unreadable_folders
from swdsl.lang import ast
from swdsl.lang.checker import PackNames, check, unused_markers
from swdsl.lang.compiler import compile_copies, compile_decls
from swdsl.lang.names import family_of
from swdsl.lang.parser import parse_source
from swdsl.packs.declare import declare, shown
from swdsl.packs.first_conquest import first_conquest_warnings
from swdsl.packs.mixing import Mix, mix_findings, nearest
from swdsl.packs.setups import check_placements, load_setups, modular_boards
from swdsl.packs.yamlnodes import Reader
from swdsl.resources import bundled_packs_dir

LANGUAGE_VERSION = 1
# bounds on what pack.yaml may ask for: beyond them a game could not be played in reasonable time or memory
VOCABULARY_CODES = {"SW115", "SW116", "SW117"}  # unknown pool, terrain, symbol: pack.yaml declares them
MAX_ROUNDS = 100
MAX_VISIBLE = 64
MAX_COINS = 1_000_000
MAX_PER_REGION = 100
BUDGET_KEYS = {"trigger_runs": ("triggers run in one action", 100_000),
               "number": ("the largest value a variable may hold", 10**12),
               "actions": ("actions in one game", 1_000_000)}
MANIFEST_KEYS = {
    "name": "the pack's name", "edition": "the edition it belongs to", "version": "the pack's version",
    "language": "the rules-language version it is written in", "description": "one line about it",
    "requires": "packs it builds on", "terrains": "terrain names", "symbols": "region symbol names",
    "equivalences": "groups of terrains and symbols that count as each other (mixing editions)",
    "coins": "coins in the box (the bank)",
    "die": "faces of the reinforcement die", "market": "the combo market", "setup": "setup per player count",
    "placements": "pieces placed at setup", "pools": "hidden marker pools", "rules": "rules files (globs)",
    "boards": "modular boards: per size, the physical boards, each a list of its faces (map files)",
    "budgets": "what content may spend: trigger_runs per action, number (largest variable value), actions per game",
    "board": "the pack of the mix whose board games are played on (its setups), by default the first that has one",
    "team_score": "how a team's score comes from its players' coins: lowest, sum (the default) or highest",
}
SETUP_KEYS = {"map": "map file", "boards": "modular boards drawn for each game: how many of each size",
              "rounds": "number of rounds", "coins": "starting coins per player",
              "seats": "per seat, the market column tags it may pick from",
              "teams": "per seat, the team it plays in"}
MARKET_KEYS = {"visible": "rows on offer", "payment": "combos (a coin on each combo above) or bank",
               "columns": "banner columns, each a list of the tags its banners carry"}
PLACEMENT_KEYS = {"symbol": "regions with this symbol", "terrain": "regions of this terrain",
                  "race": "a neutral race's tokens", "marker": "a marker", "count": "how many per region",
                  "pool": "markers drawn from this hidden pool, one per region (or `count`)",
                  "face_down": "the markers drawn from `pool` lie face down until revealed (`reveal`)",
                  "regions": "how many of the matching regions, chosen at random (a number or `players + N`)",
                  "apart": "the chosen regions never border each other",
                  "displace": "a race placed there sends the tokens already there back to their tray",
                  "board": "part of the pack's board: placed only when the pack provides the board of a mix"}


@attrs.define
class Manifest:
    path: Path
    name: str = ""
    edition: str = ""
    version: str = ""
    description: str = ""
    requires: list[str] = attrs.field(factory=list)
    requires_nodes: list = attrs.field(factory=list)  # the yaml node of each entry, for diagnostics
    terrains: set[str] = attrs.field(factory=set)
    symbols: set[str] = attrs.field(factory=set)
    coins: int | None = None
    die: tuple[int, ...] | None = None
    market: Market | None = None
    setup: dict[int, dict] = attrs.field(factory=dict)
    placements: list[tuple[Placement, object, bool]] = attrs.field(factory=list)  # (placement, node, board only)
    pools: dict[str, list[tuple[str, object]]] = attrs.field(factory=dict)
    equivalences: list[tuple[list[str], object]] = attrs.field(factory=list)
    rules: list[str] = attrs.field(factory=lambda: ["**/*.sw"])
    boards: dict[str, list[list[tuple[str, object]]]] = attrs.field(factory=dict)  # size -> boards -> (face path, node)
    budgets: dict[str, int] = attrs.field(factory=dict)
    board: tuple[str, object] | None = None  # `board: PACK` and its node
    nodes: dict[str, object] = attrs.field(factory=dict)  # the node declaring each terrain, symbol and pool; `name`
    needs: list[str] = attrs.field(factory=list)  # the names of the packs it requires, once loaded
    team_score: tuple[str, object] | None = None  # (lowest | sum | highest, its yaml node)
    broken: bool = False  # pack.yaml could not be read: its vocabulary is unknown


@attrs.define
class LoadedPack:
    """What `swdsl check` and `info` need: the ruleset (if it compiled; for a mix, on its default
    board) and all findings; `mix` gives the ruleset on any board of the mix."""

    ruleset: Ruleset | None
    manifests: list[Manifest]
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    decls: list[ast.Decl]
    mix: Mix | None = None

    @property
    def boards(self) -> list[str]:
        """The packs that can provide the board."""
        return self.mix.boards if self.mix is not None else []

    def ruleset_for(self, board: str | None = None, players: int | None = None) -> Ruleset | None:
        """The ruleset of games on `board`'s board, or on the default board for `players`."""
        if self.mix is None:
            return None
        return self.mix.ruleset(board or self.mix.board_for(players))


def resolve_pack(ref: str) -> Path:
    """A pack folder from a path or the name of a bundled pack."""
    p = Path(ref)
    if file_kind(p) == "dir" or p.suffix or "/" in ref:
        return p
    return bundled_packs_dir() / ref


def bundled_names() -> str:
    return ", ".join(sorted(p.name for p in bundled_packs_dir().iterdir() if file_kind(p) == "dir"))


def _read(path: Path, diags: list[Diagnostic], sources: dict[str, str]) -> str | None:
    limit = MAX_RULES_BYTES if path.suffix == ".sw" else MAX_YAML_BYTES
    text = read_text(path, diags, limit)
    if text is not None:
        sources[str(path)] = text
    return text


def read_manifest(folder: Path, diags: list[Diagnostic], sources: dict[str, str]) -> Manifest | None:
    path = folder / "pack.yaml"
    if file_kind(folder) != "dir":
        diags.append(Diagnostic(str(folder), Span(), "SW222", f"no pack at '{folder}'",
                                "give a pack folder (with pack.yaml) or a bundled pack name: " + bundled_names()))
        return None
    if file_kind(path) != "file":
        diags.append(Diagnostic(str(path), Span(), "SW223", "the pack has no pack.yaml",
                                "create pack.yaml with at least `name:` (see docs/packs/format.md)"))
        return None
    text = _read(path, diags, sources)
    rd = Reader(str(path), diags)
    root = rd.load(text) if text is not None else None
    if root is None:  # the rules files are still checked: a broken pack.yaml hides none of their errors
        return Manifest(folder, name=folder.name, broken=True)
    top = rd.mapping(root, "pack.yaml")
    rd.unknown_keys(top, MANIFEST_KEYS, "pack.yaml")
    m = Manifest(folder)

    def text_of(key, required=False):
        if key in top:
            return rd.text(top[key][1], key) or ""
        if required:
            rd.error(root, "SW224", f"pack.yaml has no '{key}'", f"add `{key}: …`")
        return ""

    m.name = text_of("name", True) or folder.name
    if "name" in top:
        m.nodes["name"] = top["name"][1]
    if "board" in top:
        m.board = (text_of("board"), top["board"][1])
    m.edition, m.version, m.description = text_of("edition"), text_of("version"), text_of("description")
    if "language" in top:
        lang = rd.integer(top["language"][1], "language")
        if lang is not None and lang != LANGUAGE_VERSION:
            rd.error(top["language"][1], "SW225", f"language version {lang} is not supported",
                     f"this swdsl reads language {LANGUAGE_VERSION}")
    for key, target in (("terrains", m.terrains), ("symbols", m.symbols)):
        if key in top:
            for n in rd.sequence(top[key][1], key):
                v = rd.text(n, key[:-1])
                if v:
                    target.add(v)
                    m.nodes.setdefault(v, n)
    if "requires" in top:
        for n in rd.sequence(top["requires"][1], "requires"):
            if v := rd.text(n, "pack"):
                m.requires.append(v)
                m.requires_nodes.append(n)
    if "rules" in top:
        m.rules = []
        for n in rd.sequence(top["rules"][1], "rules"):
            v = rd.text(n, "rules glob")
            if v and (Path(v).is_absolute() or ".." in Path(v).parts):
                rd.error(n, "SW236", f"rules pattern '{v}' reaches outside the pack folder",
                         "rules patterns are relative to the pack folder, like `races/*.sw`; "
                         "use `requires:` to build on another pack")
            elif v:
                m.rules.append(v)
    if "coins" in top:
        m.coins = rd.integer(top["coins"][1], "coins", 0, MAX_COINS)
    if "die" in top:
        faces = [rd.integer(n, "die face", 0, 100) for n in rd.sequence(top["die"][1], "die")[:101]]
        if faces and None not in faces:
            m.die = tuple(faces)  # type: ignore[arg-type]
        elif not faces:
            rd.error(top["die"][1], "SW226", "the die has no faces")
    if "budgets" in top:
        f = rd.mapping(top["budgets"][1], "budgets")
        rd.unknown_keys(f, {k: d for k, (d, _) in BUDGET_KEYS.items()}, "budgets")
        m.budgets = {k: v for k, (_, most) in BUDGET_KEYS.items() if k in f
                     and (v := rd.integer(f[k][1], k, 1, most)) is not None}
    if "market" in top:
        f = rd.mapping(top["market"][1], "market")
        rd.unknown_keys(f, MARKET_KEYS, "market")
        visible = rd.integer(f["visible"][1], "visible", 1, MAX_VISIBLE) if "visible" in f else 6
        payment = rd.text(f["payment"][1], "payment") if "payment" in f else "combos"
        if payment not in ("combos", "bank"):
            rd.error(f["payment"][1], "SW227", f"unknown payment '{payment}'", "use `combos` or `bank`")
            payment = "combos"
        columns = tuple(tuple(_names(rd, n, "column tag")) for n in rd.sequence(f["columns"][1], "columns")) \
            if "columns" in f else ()
        m.market = Market(visible or 6, payment, columns)
    if "team_score" in top:
        node = top["team_score"][1]
        how = rd.text(node, "team_score")
        if how in TEAM_SCORES:
            m.team_score = (how, node)
        elif how is not None:
            rd.error(node, "SW251", f"unknown team_score '{how}'", "use `lowest`, `sum` or `highest`")
    if "setup" in top:
        for count, (knode, vnode) in rd.mapping(top["setup"][1], "setup").items():
            if not count.isdigit() or not 1 <= int(count) <= 8:
                rd.error(knode, "SW228", f"setup key '{count}' is not a player count",
                         "use a number of players from 1 to 8, like `2:`")
                continue
            f = rd.mapping(vnode, f"setup {count}")
            rd.unknown_keys(f, SETUP_KEYS, f"setup {count}")
            entry = {"node": knode}
            if ("map" in f) == ("boards" in f):
                rd.error(knode, "SW229", f"setup {count} needs a map or modular boards, not "
                         + ("both" if "map" in f else "neither"),
                         "add `map: maps/….yaml`, or `boards: {large: 1, small: 1}` with `boards:` in pack.yaml")
            elif "map" in f:
                entry["map"] = (rd.text(f["map"][1], "map"), f["map"][1])
            else:
                entry["boards"] = ([(size, rd.integer(v, f"boards of size {size}", 1))
                                    for size, (_, v) in rd.mapping(f["boards"][1], "boards").items()], f["boards"][1])
            entry["rounds"] = rd.integer(f["rounds"][1], "rounds", 1, MAX_ROUNDS) if "rounds" in f else 10
            entry["coins"] = rd.integer(f["coins"][1], "coins", 0, MAX_COINS) if "coins" in f else 5
            entry["seats"] = tuple(tuple(_names(rd, n, "seat tag")) for n in rd.sequence(f["seats"][1], "seats")) \
                if "seats" in f else ()
            entry["teams"] = tuple(_names(rd, f["teams"][1], "team")) if "teams" in f else ()
            m.setup[int(count)] = entry
    if "placements" in top:
        for node in rd.sequence(top["placements"][1], "placements"):
            f = rd.mapping(node, "a placement")
            rd.unknown_keys(f, PLACEMENT_KEYS, "a placement")
            kind = "symbol" if "symbol" in f else "terrain" if "terrain" in f else None
            what = "race" if "race" in f else "marker" if "marker" in f else "pool" if "pool" in f else None
            if kind is None or what is None:
                rd.error(node, "SW230", "a placement needs `symbol:` or `terrain:`, and `race:`, `marker:` or `pool:`")
                continue
            face_down = bool(rd.boolean(f["face_down"][1], "face_down")) if "face_down" in f else False
            if face_down and what != "pool":
                rd.error(f["face_down"][1], "SW246", "only markers drawn from a hidden pool lie face down",
                         "draw them: `{symbol: treasure, pool: treasures, face_down: true}`")
            count = rd.integer(f["count"][1], "count", 1, MAX_PER_REGION) if "count" in f else 1
            pick = _pick(rd, f["regions"][1]) if "regions" in f else None
            pl = Placement(kind, rd.text(f[kind][1], kind) or "", **{what: rd.text(f[what][1], what) or ""},
                           count=count or 1, pick=pick, face_down=face_down,
                           apart=bool(rd.boolean(f["apart"][1], "apart")) if "apart" in f else False,
                           displace=bool(rd.boolean(f["displace"][1], "displace")) if "displace" in f else False)
            m.placements.append((pl, node, bool(rd.boolean(f["board"][1], "board")) if "board" in f else False))
    if "equivalences" in top:
        for node in rd.sequence(top["equivalences"][1], "equivalences"):
            group = _names(rd, node, "terrain or symbol")
            if len(group) < 2:
                rd.error(node, "SW238", "an equivalence group needs at least two names",
                         "write a list such as `[forest, mushroom_forest]`")
            else:
                m.equivalences.append((group, node))
    if "boards" in top:
        for size, (_, vnode) in rd.mapping(top["boards"][1], "boards").items():
            m.boards[size] = [[(rd.text(n, "board face") or "", n) for n in rd.sequence(b, "a board's faces")]
                              for b in rd.sequence(vnode, f"{size} boards")]
    if "pools" in top:
        for name, (knode, vnode) in rd.mapping(top["pools"][1], "pools").items():
            m.pools[name] = [(rd.text(n, "marker") or "", n) for n in rd.sequence(vnode, f"pool {name}")]
            m.nodes.setdefault(name, knode)
    return m


def _pick(rd: Reader, node) -> tuple[int, int] | None:
    """`regions: 3` → (0, 3); `regions: players + 1` → (1, 1)."""
    value = getattr(node, "value", None)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*players\s*(?:\+\s*(\d+))?\s*", value)
        if m:
            return 1, int(m.group(1) or 0)
        if not value.isdigit():
            rd.error(node, "SW238", f"`regions: {value}` is not a number of regions",
                     "write a number, or `players + N`")
            return None
    n = rd.integer(node, "regions", 1)
    return None if n is None else (0, n)


def _names(rd: Reader, node, what: str) -> list[str]:
    return [v for n in rd.sequence(node, f"{what}s") if (v := rd.text(n, what))]


def load_packs(refs: list[str]) -> LoadedPack:
    """Load and compile packs (a mix when several); never raises on bad input."""
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    manifests, ranked = _manifests(refs, diags, sources)
    names = PackNames()
    lineage = _pack_names(manifests, names, diags)
    for m in manifests:
        names.terrains |= m.terrains
        names.symbols |= m.symbols
        names.vocab[m.name] = set(m.terrains)
        for pool in m.pools:
            names.names.declare("pool", m.name, pool)
    names.pools = names.names.spellings("pool")
    _equivalences(manifests, names, diags)
    decls: list[ast.Decl] = []
    for m in manifests:
        for path in _rule_files(m, diags):
            text = _read(path, diags, sources)
            if text is not None:
                names.pack_of[str(path)] = m.name
                got, errs = parse_source(text, str(path))
                decls.extend(got)
                diags.extend(errs)
                if not got and not errs:
                    diags.append(Diagnostic(str(path), Span(1, 1, 1, 2), "SW007", "the file declares nothing",
                                            "it is empty or holds only comments; add declarations or delete it",
                                            "warning"))
    unique = declare(decls, manifests, names, diags)
    checked = check(unique, names)
    if any(m.broken for m in manifests):  # terrains, symbols and pools come from pack.yaml: not known now
        diags.extend(d for d in checked.diagnostics if d.code not in VOCABULARY_CODES)
    else:
        diags.extend(checked.diagnostics)
    limits = {d.name: int(i.args[0]) for d in unique for i in d.items
              if isinstance(i, ast.Prop) and i.name == "limit" and i.args and isinstance(i.args[0], int)}
    placed, pools = check_placements(manifests, names, diags, limits)
    on_map = {p.placement.marker for p in placed} | {n for members in pools.values() for n in members}
    diags.extend(unused_markers(unique, checked, on_map))
    read = lambda path: _read(path, diags, sources)  # noqa: E731
    boards = {m.name: modular_boards(m, names, diags, read) for m in manifests}
    banks = {m.name: m.coins for m in manifests if m.coins}
    setups: dict[str, dict[int, Setup]] = {}
    for m in manifests:  # required packs first: what a pack inherits is known
        farthest_first = lineage[m.name][::-1]
        setups[m.name] = load_setups(
            m, {size: b for p in farthest_first for size, b in boards[p].items()},
            {n: s for p in farthest_first[:-1] for n, s in setups.get(p, {}).items()}, placed, pools, names,
            nearest(banks, lineage[m.name]) or 1000, diags, frozenset(lineage[m.name]), read)
    chosen = _chosen_board(manifests, setups, diags)
    _team_scores(manifests, setups, lineage, diags)
    if any(d.is_error for d in diags):
        return LoadedPack(None, manifests, diags, sources, unique)
    contents = compile_decls(unique, checked)
    for d, c in zip(unique, contents):
        c.display = names.names.display(d.name)
    home = {(family_of(d.kind), d.name): names.pack_of.get(d.path, "") for d in unique}
    mix = Mix(
        name="+".join(m.name for m in manifests) or "empty", packs=[m.name for m in manifests],
        ranked=[m.name for m in ranked], contents=contents, home=home, setups={k: v for k, v in setups.items() if v},
        markets={m.name: m.market for m in manifests if m.market}, dice={m.name: m.die for m in manifests if m.die},
        banks=banks, team_scores={m.name: m.team_score[0] for m in manifests if m.team_score},
        budgets=Budgets(**{k: v for m in manifests for k, v in m.budgets.items()}),
        copied=compile_copies(unique, checked, contents),
        spellings={f: names.names.spelled(f) for f in ("race", "power", "piece", "pool")},
        tests=checked.tests, mentions=checked.mentions, puts=checked.puts, pools=pools, alike=dict(names.alike),
        terrains=frozenset(names.terrains), symbols=frozenset(names.symbols), chosen=chosen, lineage=lineage)
    ruleset = mix.ruleset(mix.board_for())
    for m in manifests:
        if m.name in mix.played_on:
            diags.extend(first_conquest_warnings(mix.ruleset(m.name), [m]))
    diags.extend(mix_findings(mix, unique, manifests))  # a single pack too: a race no column takes
    if manifests and not mix.boards:
        diags.append(Diagnostic(str(manifests[0].path / "pack.yaml"), Span(), "SW231", "no setup for any player count",
                                "add `setup:` with at least one player count", "warning"))
    return LoadedPack(ruleset, manifests, diags, sources, unique, mix)


def _manifests(refs: list[str], diags: list[Diagnostic], sources: dict[str, str]) -> tuple[list[Manifest], list[Manifest]]:
    """The packs named and the packs they require, each once: required packs first (the order rules
    fold and pieces are placed in), and ranked, each pack before the packs it requires (the order a
    board is chosen in)."""
    manifests: list[Manifest] = []
    ranked: list[Manifest] = []
    seen: dict[Path, Manifest | None] = {}

    def add(ref: str, via: Manifest | None = None, node=None) -> Manifest | None:
        if via is None:
            folder = Path(os.path.realpath(resolve_pack(ref)))
        else:  # a bundled pack's name, or a folder inside the requiring pack
            rd = Reader(str(via.path / "pack.yaml"), diags)
            if "\0" in ref:
                rd.error(node, "SW222", "a required pack's name holds a NUL byte", "name a pack folder or a bundled pack")
                return None
            inner = "/" in ref or "\\" in ref or ref.startswith(".")
            if inner and (Path(ref).is_absolute() or not inside(via.path, via.path / ref)):
                rd.error(node, "SW236", f"required pack '{ref}' lies outside the pack folder",
                         "require a bundled pack by name, or a pack folder inside this one")
                return None
            folder = Path(os.path.realpath(via.path / ref if inner else bundled_packs_dir() / ref))
            if file_kind(folder / "pack.yaml") != "file":
                rd.error(node, "SW222", f"required pack '{ref}' not found",
                         "give a bundled pack name (" + bundled_names() + ") or a pack folder inside this one")
                return None
        if folder in seen:
            return seen[folder]
        seen[folder] = m = read_manifest(folder, diags, sources)
        if m is None:
            return None
        ranked.append(m)
        for req, req_node in zip(m.requires, m.requires_nodes):
            if (sub := add(req, m, req_node)) is not None:
                m.needs.append(sub.name)
        manifests.append(m)
        return m

    for ref in refs:
        add(ref)
    return manifests, ranked


def _pack_names(manifests: list[Manifest], names: PackNames, diags: list[Diagnostic]) -> dict[str, tuple[str, ...]]:
    """Pack names qualify the names of a mix, so each pack of a mix has its own and no colon (SW258);
    what each pack sees, its lineage: itself, then the packs it requires, nearest first."""
    first: dict[str, Manifest] = {}
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        if ":" in m.name:
            rd.error(m.nodes.get("name"), "SW258", f"pack name '{m.name}' holds a colon",
                     "a colon separates a pack's name from a declaration's (`pack:Name`): name the pack without one")
        elif m.name in first:
            rd.error(m.nodes.get("name"), "SW258", f"two packs of the mix are named '{m.name}' (the other: "
                     f"{shown(str(first[m.name].path))})", "the name of a pack tells its declarations from another "
                     "pack's: give each pack its own")
        first.setdefault(m.name, m)
    lineage = {}
    for m in manifests:
        levels, done, level = [], {m.name}, [m.name]
        while level:
            levels.append(level)
            level = list(dict.fromkeys(n for p in level if p in first for n in first[p].needs if n not in done))
            done |= set(level)
        names.names.levels[m.name] = tuple(frozenset(level) for level in levels)
        lineage[m.name] = tuple(p for level in levels for p in level)
    return lineage


def _rule_files(m: Manifest, diags: list[Diagnostic]) -> list[Path]:
    """The rules files the pack's globs match (never under tests/, never in a pack
    folder inside this one, never outside the pack folder); folders that cannot be
    listed are reported, not skipped."""
    for folder, reason in unreadable_folders(m.path):
        diags.append(Diagnostic(folder, Span(), "SW220", f"cannot read folder: {reason}",
                                "rules files in it would be missing; check its permissions"))
    files: set[Path] = set()
    for pattern in m.rules:
        try:
            found = list(m.path.glob(pattern))
        except (ValueError, NotImplementedError, OSError):
            continue  # a pattern glob cannot use matches nothing
        for p in found:
            parts = p.relative_to(m.path).parts
            if file_kind(p) == "file" and "tests" not in parts and inside(m.path, p) and \
                    not any(file_kind(m.path.joinpath(*parts[:i]) / "pack.yaml") == "file" for i in range(1, len(parts))):
                files.add(p)
    return sorted(files)


def _equivalences(manifests: list[Manifest], names: PackNames, diags: list[Diagnostic]) -> None:
    """Each name of a group counts as every other name of it (terrains and symbols alike): `terrain
    is forest` also holds on a mushroom forest. A group names at least one terrain or symbol of its
    pack or of the packs it requires (SW257); names of packs outside the mix are left out until a
    mix brings them (a bundled pack's names only: any other is misspelt, SW238)."""
    known = names.terrains | names.symbols
    vocab = {m.name: m.terrains | m.symbols for m in manifests}
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        own = {n for level in names.names.levels.get(m.name, ()) for p in level for n in vocab.get(p, ())}
        for group, node in m.equivalences:
            unknown = [n for n in group if n not in known and n not in _bundled_vocabulary()]
            if unknown:
                rd.error(node, "SW238", f"equivalence names unknown terrain or symbol '{unknown[0]}'",
                         did_you_mean(unknown[0], known | _bundled_vocabulary())
                         or "declare it under `terrains:` or `symbols:`")
            elif own.isdisjoint(group):
                rd.error(node, "SW257", "the equivalence names no terrain or symbol of this pack or of the packs it "
                         "requires", "a pack says what its own names (or its required packs') count as")
            else:
                present = [n for n in group if n in known]
                for n in present if len(present) > 1 else ():
                    names.alike[n] = names.alike.get(n, frozenset({n})) | frozenset(present)


@lru_cache(maxsize=1)
def _bundled_vocabulary() -> frozenset[str]:
    """The terrains and symbols the bundled packs declare: an equivalence may name them outside a mix."""
    out: set[str] = set()
    for folder in sorted(bundled_packs_dir().iterdir()):
        if file_kind(folder / "pack.yaml") == "file":
            m = read_manifest(folder, [], {})
            if m is not None:
                out |= m.terrains | m.symbols
    return frozenset(out)


def _team_scores(manifests: list[Manifest], setups: dict, lineage: dict[str, tuple[str, ...]],
                 diags: list[Diagnostic]) -> None:
    """`team_score` counts on the boards of its pack and of the packs requiring it: a setup there must
    give teams (SW252)."""
    for m in manifests:
        if m.team_score and not any(s.teams for b, of in setups.items() if m.name in lineage[b] for s in of.values()):
            Reader(str(m.path / "pack.yaml"), diags).warning(
                m.team_score[1], "SW252", "`team_score` says how teams score, and no setup gives teams",
                "give the players teams in their setups (`teams: [red, blue]`), or leave `team_score` out")


def _chosen_board(manifests: list[Manifest], setups: dict, diags: list[Diagnostic]) -> str:
    """The pack a mix pack names with `board:` (the last that names one): a pack of the mix (SW255)
    that has setups (SW256); a pack that names another's board has no setups of its own (SW259)."""
    chosen = ""
    for m in manifests:
        if m.board is None:
            continue
        rd = Reader(str(m.path / "pack.yaml"), diags)
        name, node = m.board
        packs = [x.name for x in manifests]
        if name not in packs:
            rd.error(node, "SW255", f"`board: {name}` names no pack of this mix",
                     did_you_mean(name, packs) or "the packs of the mix: " + ", ".join(packs))
        elif not setups.get(name):
            rd.error(node, "SW256", f"pack '{name}' has no setup: it provides no board",
                     "packs with setups: " + (", ".join(p for p in packs if setups.get(p)) or "none"))
        else:
            chosen = name
            if name != m.name and m.setup:
                rd.warning(node, "SW259", f"games of this pack are played on the board of {name}: its own `setup:` "
                           "is never used", "leave out `board:` (or `setup:`), or write `board:` with the pack's "
                           "own name")
    return chosen


def load_ruleset(refs: list[str], board: str | None = None, players: int | None = None) -> Ruleset:
    """The ruleset of packs that must be valid (simulate, replay, test), on the board of the pack
    `board`, or the default board for `players`."""
    loaded = load_packs(refs)
    errors = [d for d in loaded.diagnostics if d.is_error]
    if errors or loaded.ruleset is None:
        raise PackError(errors or [Diagnostic(",".join(refs), Span(), "SW222", "no pack loaded")])
    if board is not None and board not in loaded.boards:
        raise PackError([Diagnostic(",".join(refs), Span(), "SW255", f"no pack of the mix named '{board}' provides "
                                    "a board", "boards: " + (", ".join(loaded.boards) or "none"))])
    return loaded.ruleset_for(board, players) or loaded.ruleset
