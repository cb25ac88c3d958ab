"""Packs: pack.yaml + maps + rules files → one compiled Ruleset.

Several packs load into one ruleset (a mix): their names must not clash, their
terrains and symbols add up, and the setups come from the first pack that has
them. Every problem in any file is collected before anything is compiled.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import attrs

from swdsl.diagnostics import Diagnostic, PackError, Span, did_you_mean
from swdsl.engine.outcome import TEAM_SCORES
from swdsl.engine.ruleset import Budgets, Layout, Market, Placement, Ruleset, Setup
from swdsl.engine.vocabulary import EFFECTS
from swdsl.files import MAX_RULES_BYTES, MAX_YAML_BYTES, file_kind, inside, read_text, unreadable_folders
from swdsl.lang import ast
from swdsl.lang.checker import PackNames, check, unused_markers
from swdsl.lang.compiler import compile_copies, compile_decls
from swdsl.lang.parser import parse_source
from swdsl.packs.first_conquest import first_conquest_warnings
from swdsl.packs.maps import load_map
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
                  "displace": "a race placed there sends the tokens already there back to their tray"}


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
    placements: list[tuple[Placement, object]] = attrs.field(factory=list)
    pools: dict[str, list[tuple[str, object]]] = attrs.field(factory=dict)
    equivalences: list[tuple[list[str], object]] = attrs.field(factory=list)
    rules: list[str] = attrs.field(factory=lambda: ["**/*.sw"])
    boards: dict[str, list[list[tuple[str, object]]]] = attrs.field(factory=dict)  # size -> boards -> (face path, node)
    budgets: dict[str, int] = attrs.field(factory=dict)
    team_score: tuple[str, object] | None = None  # (lowest | sum | highest, its yaml node)
    broken: bool = False  # pack.yaml could not be read: its vocabulary is unknown


@attrs.define
class LoadedPack:
    """What `swdsl check` and `info` need: the ruleset (if it compiled) and all findings."""

    ruleset: Ruleset | None
    manifests: list[Manifest]
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    decls: list[ast.Decl]


def resolve_pack(ref: str) -> Path:
    """A pack folder from a path or the name of a bundled pack."""
    p = Path(ref)
    if file_kind(p) == "dir" or p.suffix or "/" in ref:
        return p
    return bundled_packs_dir() / ref


def bundled_names() -> str:
    return ", ".join(sorted(p.name for p in bundled_packs_dir().iterdir() if file_kind(p) == "dir"))


def pack_file(m: Manifest, rel: str, node, rd: Reader, what: str) -> Path | None:
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
            m.placements.append((pl, node))
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
        for name, (_, vnode) in rd.mapping(top["pools"][1], "pools").items():
            m.pools[name] = [(rd.text(n, "marker") or "", n) for n in rd.sequence(vnode, f"pool {name}")]
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
    manifests: list[Manifest] = []  # required packs first: the order rules fold and pieces are placed in
    ranked: list[Manifest] = []  # a pack before the packs it requires: whose market, die, setups… count
    seen: set[Path] = set()

    def add(ref: str, via: Manifest | None = None, node=None) -> None:
        if via is None:
            folder = Path(os.path.realpath(resolve_pack(ref)))
        else:  # a bundled pack's name, or a folder inside the requiring pack
            rd = Reader(str(via.path / "pack.yaml"), diags)
            inner = "/" in ref or "\\" in ref or ref.startswith(".")
            if inner and (Path(ref).is_absolute() or not inside(via.path, via.path / ref)):
                rd.error(node, "SW236", f"required pack '{ref}' lies outside the pack folder",
                         "require a bundled pack by name, or a pack folder inside this one")
                return
            folder = Path(os.path.realpath(via.path / ref if inner else bundled_packs_dir() / ref))
            if file_kind(folder / "pack.yaml") != "file":
                rd.error(node, "SW222", f"required pack '{ref}' not found",
                         "give a bundled pack name (" + bundled_names() + ") or a pack folder inside this one")
                return
        if folder in seen:
            return
        seen.add(folder)
        m = read_manifest(folder, diags, sources)
        if m is None:
            return
        ranked.append(m)
        for req, req_node in zip(m.requires, m.requires_nodes):
            add(req, m, req_node)
        manifests.append(m)

    for ref in refs:
        add(ref)
    names = PackNames()
    for m in manifests:
        names.terrains |= m.terrains
        names.symbols |= m.symbols
        names.pools |= set(m.pools)
    _equivalences(manifests, names, diags)
    decls: list[ast.Decl] = []
    for m in manifests:
        for path in _rule_files(m, diags):
            text = _read(path, diags, sources)
            if text is not None:
                got, errs = parse_source(text, str(path))
                decls.extend(got)
                diags.extend(errs)
                if not got and not errs:
                    diags.append(Diagnostic(str(path), Span(1, 1, 1, 2), "SW007", "the file declares nothing",
                                            "it is empty or holds only comments; add declarations or delete it",
                                            "warning"))
    by_name: dict[tuple[str, str], ast.Decl] = {}
    for d in decls:
        family = "piece" if d.kind in ("marker", "relic", "place") else d.kind
        key = (family, d.name)
        if key in by_name:
            first = by_name[key]
            where = f"line {first.name_span.line}" if first.path == d.path else \
                f"{_shown(first.path)}:{first.name_span.line}"
            diags.append(Diagnostic(d.path, d.name_span, "SW124", f"{d.kind} '{d.name}' is declared twice",
                                    f"the first is at {where}; rename one"))
            continue
        by_name[key] = d
        if d.kind == "race":
            names.races.add(d.name)
            names.tags |= {a for i in d.items if isinstance(i, ast.Prop) and i.name == "tags" for a in i.args}
        elif d.kind == "power":
            names.powers.add(d.name)
            names.tags |= {a for i in d.items if isinstance(i, ast.Prop) and i.name == "tags" for a in i.args}
        elif family == "piece":
            names.markers.add(d.name)
            names.marker_tags |= {d.kind} | {a for i in d.items if isinstance(i, ast.Prop) and i.name == "tags"
                                             for a in i.args}
        names.tags |= _tag_words(d)
    unique = list(by_name.values())
    checked = check(unique, names)
    if any(m.broken for m in manifests):  # terrains, symbols and pools come from pack.yaml: not known now
        diags.extend(d for d in checked.diagnostics if d.code not in VOCABULARY_CODES)
    else:
        diags.extend(checked.diagnostics)
    placed = {pl.marker for m in manifests for pl, _ in m.placements if pl.marker}
    placed |= {n for m in manifests for members in m.pools.values() for n, _ in members}
    diags.extend(unused_markers(unique, checked, placed))
    limits = {d.name: int(i.args[0]) for d in unique for i in d.items
              if isinstance(i, ast.Prop) and i.name == "limit" and i.args and isinstance(i.args[0], int)}
    setups = _setups(manifests, ranked, names, diags, sources, limits)
    team_score = next((m.team_score for m in ranked if m.team_score), None)
    if team_score and not any(s.teams for s in setups.values()):
        manifest = next(m for m in ranked if m.team_score is team_score)
        Reader(str(manifest.path / "pack.yaml"), diags).warning(
            team_score[1], "SW252", "`team_score` says how teams score, and no setup gives teams",
            "give the players teams in their setups (`teams: [red, blue]`), or leave `team_score` out")
    ruleset = None
    if not any(d.is_error for d in diags):
        contents = compile_decls(unique, checked)
        first = manifests[0] if manifests else None
        ruleset = Ruleset(
            name="+".join(m.name for m in manifests) or "empty",
            races={c.name: c for c in contents if c.kind == "race"},
            powers={c.name: c for c in contents if c.kind == "power"},
            markers={c.name: c for c in contents if c.kind in ("marker", "relic", "place")},
            rules=[c for c in contents if c.kind == "rule"],
            copied=compile_copies(unique, checked, contents),
            setups=setups,
            market=next((m.market for m in ranked if m.market), Market()),
            die=next((m.die for m in ranked if m.die), (0, 0, 0, 1, 2, 3)),
            bank=next((m.coins for m in ranked if m.coins), 1000),
            team_score=team_score[0] if team_score else "sum",
            budgets=Budgets(**{k: v for m in manifests for k, v in m.budgets.items()}),
            terrains=frozenset(names.terrains), symbols=frozenset(names.symbols),
        )
        diags.extend(first_conquest_warnings(ruleset, manifests))
        if first is not None and not ruleset.setups:
            diags.append(Diagnostic(str(first.path / "pack.yaml"), Span(), "SW231", "no setup for any player count",
                                    "add `setup:` with at least one player count", "warning"))
    return LoadedPack(ruleset, manifests, diags, sources, unique)


def _tag_words(d: ast.Decl) -> set[str]:
    """Tags a declaration gives races for a turn (`tag RACE with NAME`)."""
    out: set[str] = set()
    stack = [s for i in d.items if isinstance(i, (ast.Trigger, ast.Ability))
             for s in i.steps]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.Effect):
            out.update(arg.text for p, arg in zip(EFFECTS[e.kind].params, e.args)
                       if p.kind == "tag" and isinstance(arg, ast.Name))
            stack.extend(x for block in e.blocks() for x in block)
    return out


def _shown(path: str) -> str:
    """A path as a message shows it: relative to the working folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if len(rel) < len(path) else path


def _rule_files(m: Manifest, diags: list[Diagnostic]) -> list[Path]:
    """The rules files the pack's globs match (never under tests/, never outside
    the pack folder); folders that cannot be listed are reported, not skipped."""
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
            if file_kind(p) == "file" and "tests" not in p.relative_to(m.path).parts and inside(m.path, p):
                files.add(p)
    return sorted(files)


def _equivalences(manifests: list[Manifest], names: PackNames, diags: list[Diagnostic]) -> None:
    """Each name of a group counts as every other name of it (terrains and
    symbols alike): `terrain is forest` also holds on a mushroom forest."""
    known = names.terrains | names.symbols
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        for group, node in m.equivalences:
            unknown = [n for n in group if n not in known]
            if unknown:
                rd.error(node, "SW238", f"equivalence names unknown terrain or symbol '{unknown[0]}'",
                         did_you_mean(unknown[0], known) or "declare it under `terrains:` or `symbols:`")
                continue
            for n in group:
                names.alike[n] = names.alike.get(n, frozenset({n})) | frozenset(group)


def _setups(manifests: list[Manifest], ranked: list[Manifest], names: PackNames, diags: list[Diagnostic],
            sources: dict[str, str], limits: dict[str, int]) -> dict[int, Setup]:
    """Each player count's setup from the first pack in `ranked` that gives one (a pack's own
    setups win over those of the packs it requires); the placements and pools of every pack.
    A setup may draw its own pack's modular boards or those of any pack in play."""
    setups: dict[int, Setup] = {}
    bank = next((m.coins for m in ranked if m.coins), 1000)
    placements: list[Placement] = []
    pools: dict[str, tuple[str, ...]] = {}
    known_pools = {name for m in manifests for name in m.pools}
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        for pl, node in m.placements:
            vocab = names.symbols if pl.match_kind == "symbol" else names.terrains
            if pl.match not in vocab:
                rd.error(node, "SW232", f"placement on unknown {pl.match_kind} '{pl.match}'",
                         did_you_mean(pl.match, vocab) or "")
            elif pl.race and pl.race not in names.races:
                rd.error(node, "SW232", f"placement of unknown race '{pl.race}'", did_you_mean(pl.race, names.races))
            elif pl.marker and pl.marker not in names.markers:
                rd.error(node, "SW232", f"placement of unknown marker '{pl.marker}'",
                         did_you_mean(pl.marker, names.markers))
            elif pl.pool and pl.pool not in known_pools:
                rd.error(node, "SW245", f"placement draws from unknown pool '{pl.pool}'",
                         did_you_mean(pl.pool, known_pools) or "pools are declared in pack.yaml under `pools:`")
            elif pl.marker and pl.count > limits.get(pl.marker, pl.count):
                rd.error(node, "SW242", f"{pl.count} {pl.marker} per region, and the box holds "
                         f"{limits[pl.marker]}", "lower `count`, or raise the marker's `limit`")
            else:
                placements.append(pl)
        for name, members in m.pools.items():
            for member, node in members:
                if member not in names.markers:
                    rd.error(node, "SW233", f"pool '{name}' names unknown marker '{member}'",
                             did_you_mean(member, names.markers))
            pools[name] = tuple(n for n, _ in members)
    loaders, own = {}, {}
    for m in ranked:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        loaders[id(m)] = load = lambda rel, node, m=m, rd=rd: _map_file(m, rel, node, rd, names, diags, sources)
        own[id(m)] = _boards(m, rd, load)
    every = {size: boards for m in reversed(ranked) for size, boards in own[id(m)].items()}
    for m in ranked:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        load, layout = loaders[id(m)], {**every, **own[id(m)]}
        for count, entry in m.setup.items():
            if count in setups or ("map" not in entry and "boards" not in entry):
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
                                  tuple(placements), dict(pools), seats, drawn, entry["teams"])
    return setups


def _map_file(m: Manifest, rel: str, node, rd: Reader, names: PackNames, diags: list[Diagnostic],
              sources: dict[str, str]):
    """A map file named in pack.yaml, loaded and checked (None if unusable)."""
    path = pack_file(m, rel, node, rd, "map file")
    if path is None:
        return None
    text = _read(path, diags, sources)
    if text is None:
        return None
    board, errs = load_map(text, str(path), names.terrains, names.symbols)
    diags.extend(errs)
    return board


def _boards(m: Manifest, rd: Reader, load) -> dict[str, tuple[tuple, ...]]:
    """The pack's modular boards: size -> physical boards -> faces. Faces are
    islands of one map in play, so their region ids must differ."""
    out: dict[str, tuple[tuple, ...]] = {}
    seen: dict[str, str] = {}
    for size, boards in m.boards.items():
        physical = []
        for faces in boards:
            loaded = []
            for rel, node in faces:
                face = load(rel, node) if rel else None
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


def load_ruleset(refs: list[str]) -> Ruleset:
    """The ruleset of packs that must be valid (simulate, replay, test)."""
    loaded = load_packs(refs)
    errors = [d for d in loaded.diagnostics if d.is_error]
    if errors or loaded.ruleset is None:
        raise PackError(errors or [Diagnostic(",".join(refs), Span(), "SW222", "no pack loaded")])
    return loaded.ruleset
