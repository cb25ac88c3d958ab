"""Byte and structure mutations of every kind of file the tools read, and of their arguments.

The seed is tests/fuzz/seed/ (pack.yaml, a map, a rules file, a scenario file)
plus a saved game written by `swdsl simulate --save-dir`. A mutation is chosen
with a seeded generator from:

- byte mutations: flip a bit, put an awkward byte (NUL, 0xff, a lone UTF-8 lead
  byte, CR, tab, a bracket, a colon…), insert, delete, duplicate or swap spans,
  truncate, splice in a trap;
- traps every reader must survive (issue 14): a recursive YAML alias, an alias
  bomb, a 5,000-digit number, a very long string, invalid UTF-8, a byte-order
  mark (which must be accepted), NUL bytes, deep nesting, YAML tags, CR line
  endings;
- structure mutations: the file parsed (YAML or JSON), one value somewhere
  replaced by a value of another kind (a huge or negative number, a long or
  control-character string, a list, a mapping, null, a deep nest), a key
  removed or added, a list item repeated; then written back.

`cli_arguments` builds random command lines for every command from click's own
description of its parameters (so a new option is fuzzed without a change here),
with awkward values: too-long names, NUL bytes, directories, dangling symlinks,
files under a file, lone surrogates, 5,000-digit numbers.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
from pathlib import Path

import yaml

SEED = Path(__file__).parent / "seed"
SEED_FILES = {  # the kind of file → its path in the seed pack
    "pack.yaml": "pack.yaml",
    "map": "maps/small.yaml",
    "rules": "rules.sw",
    "scenario": "tests/seed.yaml",
}

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))
YAML_TRAPS = [
    "&a [*a]", "a: &a [*a]\n", "a: &a {b: *a}\n", ALIAS_BOMB, "9" * 5000, "-" + "9" * 5000, "0x" + "f" * 4000,
    "x" * 200_000, '"' + "y" * 100_000 + '"', "\x00", "\ufeff", "[" * 5000 + "]" * 5000, "{a: " * 2000 + "1" + "}" * 2000,
    "!!python/object/apply:os.system [echo]", "!!binary aGVsbG8=", "!!set {a, b}", "? [a, b]\n: c\n", "<<: *a\n",
    "\t", "\r", "\r\n", ": :", "- - -", "---\n...\n---\n", "%YAML 1.1\n---\n", "&anchor", "*undefined", ".inf", "-.nan",
    "1e400", "0o777", "1_000_000", "~", "yes", "on", "1.10", "'\\x00'", '"\\x00"', '"\\ud800"', "\u202e", "\x1b[31m",
]
BYTE_TRAPS = [b"\xff", b"\xfe\xff", b"\xc3", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xef\xbb\xbf",
              b"\x00", b"\x80", b"\r"]
AWKWARD = [0x00, 0xFF, 0x80, 0xC3, 0x0A, 0x0D, 0x09, 0x22, 0x27, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x26, 0x2A, 0x21,
           0x23, 0x2D, 0x20, 0x7C, 0x3E, 0x25, 0x40, 0x60, 0x1B]
KEYS = ["bogus", "name", "map", "rounds", "coins", "regions", "given", "do", "expect", "count", "", "0", "1", "-1",
        "players", "races", "terrain", "scenarios", "packs", "actions", "seed", "columns", "powers", "teams",
        "team_score", "team_winner", "team_scores", "x" * 300, "\x00", "\ud800"]
RULE_TRAPS = ["{", "}", "(", ")", "(" * 30, "not " * 200, "9" * 5000, "-" + "9" * 300, '"' + "z" * 5000 + '"',
              "\x1b[2J", "[bold]x[/bold]", "race", "on turn.end: ", "modify conquest.cost by ", "ability a {",
              "if true: " * 12, " where ", "\u00e9", "\u202e", "\x0c", "\r", "# " + "c" * 3000]


def mutate_bytes(data: bytes, rng: random.Random, kind: str = "yaml") -> bytes:
    """One to four byte-level mutations (or a trap spliced in)."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        at = rng.randint(0, len(buf))
        if op == 0 and buf:  # flip a bit
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:  # an awkward byte
            buf[rng.randrange(len(buf))] = rng.choice(AWKWARD)
        elif op == 2:  # insert random bytes
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3 and buf:  # delete a span
            buf[at:at + rng.randint(1, 40)] = b""
        elif op == 4 and buf:  # duplicate a span
            i = rng.randrange(len(buf))
            buf[at:at] = buf[i:i + rng.randint(1, 200)]
        elif op == 5 and buf:  # truncate
            del buf[at:]
        elif op == 6:  # a trap
            traps = YAML_TRAPS if kind in ("yaml", "json") else RULE_TRAPS
            buf[at:at] = rng.choice(traps).encode("utf-8", "surrogatepass")
        elif op == 7:  # a byte the decoder trips on
            buf[at:at] = rng.choice(BYTE_TRAPS)
        else:  # swap two lines
            lines = bytes(buf).split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                buf = bytearray(b"\n".join(lines))
    return bytes(buf)


def awkward_value(rng: random.Random, depth: int = 0):
    """A value of a random kind, often one nobody expects there."""
    choice = rng.randrange(16)
    if choice == 0:
        return rng.choice([0, 1, -1, 2, 7, 1000, 10**9, 10**18, -(10**12)])
    if choice == 1:
        return 10 ** rng.choice([20, 300, 5000]) - 1
    if choice == 2:
        return rng.choice(["", " ", "x" * rng.choice([300, 5000, 100_000]), "a\x00b", "\x1b[31mred", "[bold]b[/]",
                           "\ud800", "é", "../../etc", "/dev/zero", "maps/small.yaml", "-1", "yes", "1.10",
                           "players + 1", "classic", "seed", "forest", "Ants"])
    if choice == 3:
        return None
    if choice == 4:
        return rng.choice([True, False])
    if choice == 5:
        return rng.choice([1.5, -0.0, float("inf"), 1e300])
    if choice == 6 and depth < 2:
        return [awkward_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if choice == 7 and depth < 2:
        return {rng.choice(KEYS): awkward_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    if choice == 8:
        nest: object = 1
        for _ in range(rng.choice([50, 500, 3000])):
            nest = [nest]
        return nest
    if choice == 9:
        return []
    if choice == 10:
        return {}
    if choice == 11:
        return rng.randint(-5, 12)
    return rng.choice(["forest", "hill", "Ants", "Bees", "Rich", "rock", "gem", "hoard", "conquer 3", "end", "pick 1",
                       "ability swoop 7", "place 3", "decline", "p1", "magic"])


def _paths(doc):
    """Every (path, value) in a parsed document, to 30 levels."""
    stack = [((), doc)]
    while stack:
        prefix, value = stack.pop()
        yield prefix, value
        if len(prefix) >= 30:
            continue
        if isinstance(value, dict):
            stack.extend((prefix + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((prefix + (i,), v) for i, v in enumerate(value))


def mutate_structure(doc, rng: random.Random):
    """A copy of a parsed document with one to three values changed."""
    import copy

    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        spots = list(_paths(doc))
        path, value = rng.choice(spots)
        op = rng.randrange(5)
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if not path:
            doc = awkward_value(rng) if op == 0 else doc
            continue
        key = path[-1]
        if op <= 1:  # replace the value
            parent[key] = awkward_value(rng)
        elif op == 2 and isinstance(parent, dict):  # remove the key
            del parent[key]
        elif op == 2 and isinstance(parent, list):
            del parent[key]
        elif op == 3 and isinstance(value, dict):  # a key nobody knows, or a known one in the wrong place
            value[rng.choice(KEYS)] = awkward_value(rng)
        elif op == 4 and isinstance(value, list) and value:  # repeat an item
            value.extend([rng.choice(value)] * rng.choice([1, 2, 50]))
        else:
            parent[key] = awkward_value(rng)
    return doc


@contextlib.contextmanager
def _any_digits():
    """Writing a 5,000-digit number needs Python's digit limit lifted for a moment."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def dump_yaml(doc) -> bytes:
    with _any_digits():
        try:
            return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100_000).encode("utf-8", "surrogatepass")
        except (yaml.YAMLError, RecursionError, ValueError):
            return b"x: [\n"


def dump_json(doc) -> bytes:
    with _any_digits():
        try:
            return json.dumps(doc).encode("utf-8", "surrogatepass")
        except (RecursionError, ValueError, TypeError):
            return b"{"


def mutate_file(data: bytes, kind: str, rng: random.Random) -> bytes:
    """A mutation of a file of `kind`: yaml (pack.yaml, maps, scenarios), json (saved games) or rules."""
    if kind in ("yaml", "json") and rng.random() < 0.4:
        try:
            doc = yaml.safe_load(data) if kind == "yaml" else json.loads(data)
        except Exception:  # noqa: BLE001 - an already broken file is mutated byte-wise
            doc = None
        if doc is not None:
            changed = mutate_structure(doc, rng)
            return dump_yaml(changed) if kind == "yaml" else dump_json(changed)
    if kind == "json" and rng.random() < 0.3:  # JSON's own traps in a saved game
        return json_trap(data, rng)
    return mutate_bytes(data, rng, kind)


def json_trap(data: bytes, rng: random.Random) -> bytes:
    try:
        rec = json.loads(data)
    except ValueError:
        return data
    key = rng.choice(["packs", "players", "seed", "actions", "checksum", "swdsl"])
    trap = rng.choice([
        "9" * 5000, "[" * 100_000 + "]" * 100_000, '"\\u0000"', '["cla\\u0000ssic"]', '["\\ud800"]', f'["{"p" * 5000}"]',
        '["/dev/zero"]', '["."]', '[""]', "1e999", "-1", "true", "null", "{}", '[["conquer", ' + "9" * 5000 + "]]",
        '[["pick", 0, [' + "[" * 3000 + "]" * 3000 + "]]]", '[["nope"]]', "[[]]", "[1]", '"' + "f" * 100_000 + '"',
    ])
    body = json.dumps({k: v for k, v in rec.items() if k != key})
    return (body[:-1] + f', "{key}": {trap}' + "}").encode("utf-8", "surrogatepass")


# ---- command lines ----------------------------------------------------------------------------------------------

def awkward_paths(tmp: Path) -> list[str]:
    """Paths that trip file handling: made once per scratch folder."""
    (tmp / "dir").mkdir(exist_ok=True)
    (tmp / "file.txt").write_text("not a pack\n")
    (tmp / "empty.json").write_text("")
    dangling = tmp / "dangling"
    if not os.path.lexists(dangling):
        os.symlink(tmp / "nowhere", dangling)
    loop = tmp / "loop"
    if not os.path.lexists(loop):
        os.symlink(loop, loop)
    return [str(tmp / "dir"), str(tmp / "file.txt"), str(tmp / "file.txt" / "below"), str(dangling), str(loop),
            str(tmp / "empty.json"), str(tmp / ("n" * 300)), str(tmp / "x") * 30, "a\x00b", "\udcff", "", "-",
            "\x1b[31m", str(tmp / "new-folder"), "/", "/proc/self/status", "~nobody", "nopack", str(SEED)]


WRITES = {"save_dir", "out_file", "name", "file"}  # parameters a command writes to (`new NAME`, `--out`…)
READ_ONLY_FILE = {"replay"}  # commands whose FILE argument is only read
NETWORK = {"scheduler"}  # parameters that reach other machines: never fuzzed
SMALL = {  # values that keep a run short: never millions of games, hundreds of processes or deep searches
    "games": ["0", "1", "2", "-1", "9" * 5000, "abc", ""],
    "jobs": ["1", "0", "-1", "9" * 5000, "x"],
    "bots": ["random", "greedy", "random,greedy", "heuristic", "search:1", "search:0", "search:-1", "nope", "",
             ",", "search:" + "9" * 5000, "random,random,random,random,random,random,random,random,random"],
}


def cli_arguments(rng: random.Random, tmp: Path, files: dict[str, str]) -> list[str]:
    """A random command line for a random command, from click's description of the commands: each
    parameter gets awkward values of its kind. Whatever a command writes goes below `tmp` only."""
    import click

    from swdsl.cli import main

    awkward = awkward_paths(tmp)
    paths = awkward + list(files.values())
    writable = [p for p in awkward if p.startswith(str(tmp))] + ["a\x00b", "", "\udcff", "new-relative-folder"]
    numbers = ["0", "1", "2", "-1", "9" * 5000, "1e3", "0x10", "", "3", "abc", "\x00", "99999999999999999999"]
    name = rng.choice(list(main.commands))
    cmd = main.commands[name]
    args = [name]
    for param in cmd.params:
        option = isinstance(param, click.Option)
        if param.name in NETWORK or (option and rng.random() < 0.5):
            continue
        if not option and name in ("info", "replay", "reference") and rng.random() < 0.05:
            continue  # (check and test with no pack go through every bundled pack: slow, and tested elsewhere)
        if option and param.is_flag:
            args.append(rng.choice(param.opts))
            continue
        if param.name in SMALL:
            pool = SMALL[param.name]
        elif isinstance(param.type, click.Choice):
            pool = list(param.type.choices) + ["nope", ""]
        elif isinstance(param.type, (click.types.IntParamType, click.IntRange)):
            pool = numbers
        elif param.name in WRITES and name not in READ_ONLY_FILE:  # only ever below the scratch folder
            pool = writable
        else:
            pool = paths
        times = rng.choice([1, 1, 2]) if option or param.nargs == -1 else 1
        for _ in range(times):
            args += [rng.choice(param.opts), rng.choice(pool)] if option else [rng.choice(pool)]
    if rng.random() < 0.1:
        args.append(rng.choice(["--bogus", "--help", "--", "-x", "--version"]))
    if "games" in {p.name for p in cmd.params} and "--games" not in args:
        args += ["--games", "1"]
    return args


# ---- scenarios, written from scratch -----------------------------------------------------------------------------

SEED_RACES = ["Ants", "Bees", "Crows"]
SEED_POWERS = ["Rich", "Stout", "Seeker"]
SEED_REGIONS = [str(r) for r in range(1, 8)]
SEED_COLUMNS = ["crawlers", "flyers"]  # the tags of its market columns
SEED_TEAMS = ["red", "blue"]  # the teams of its 4-player setup


def random_scenarios(rng: random.Random) -> bytes:
    """A scenario file for the seed pack whose values all have the right kinds (docs/scenarios.md):
    random positions, actions and expectations. Most actions are illegal and most expectations
    wrong; what must never happen is an engine error (SW599 or an exception reported as a
    malformed scenario) or an action the engine accepts that breaks an invariant."""
    out = []
    for k in range(rng.randint(1, 3)):
        players = rng.choice([2, 2, 3, 4])  # 4: the setup with teams
        free = SEED_REGIONS[:]
        rng.shuffle(free)
        races = []
        for seat, race in enumerate(rng.sample(SEED_RACES, rng.randint(0, min(players, 3)))):
            held = {free.pop(): rng.randint(1, 4) for _ in range(rng.randint(0, 3)) if free}
            spec = {"player": seat + 1, "race": race, "power": rng.choice(SEED_POWERS), "hand": rng.randint(0, 9),
                    "regions": held}
            if rng.random() < 0.2:
                spec["declined"] = True
            if race == "Bees" and rng.random() < 0.5:
                spec["vars"] = {"stings": rng.randint(-3, 5)}
            if rng.random() < 0.2:
                spec["turns"] = rng.randint(0, 4)
            races.append(spec)
        if free and rng.random() < 0.4:
            races.append({"race": "Wild", "regions": {free.pop(): rng.randint(1, 3)}})
        given: dict = {"players": players, "empty_board": rng.random() < 0.7, "races": races,
                       "coins": [rng.randint(0, 8) for _ in range(players)]}
        if rng.random() < 0.4:
            given["markers"] = {rng.choice(SEED_REGIONS): [rng.choice(["rock", "gem", "well"])]}
        if rng.random() < 0.5:
            given["dice"] = [rng.randint(0, 3) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.2:
            given["draws"] = {"hoard": [rng.choice(["gem", "well"])]}
        if rng.random() < 0.2:
            given["market"] = [[r, p] for r, p in zip(rng.sample(SEED_RACES, 2), rng.sample(SEED_POWERS, 2))]
        if rng.random() < 0.2:
            given["market_coins"] = [rng.randint(0, 2) for _ in range(2)]
        if rng.random() < 0.2:
            given["columns"] = {rng.choice(SEED_COLUMNS): rng.sample(SEED_RACES, rng.randint(1, 2))}
        given["current"] = rng.randint(1, players)
        given["round"] = rng.randint(1, 3)
        if rng.random() < 0.3:
            given["phase"] = rng.choice(["conquer", "redeploy", "start"])
        steps = []
        for _ in range(rng.randint(0, 8)):
            r = rng.choice(SEED_REGIONS)
            steps.append(rng.choice([f"conquer {r}", f"final {r}", f"abandon {r}", "end", "end", f"place {r}",
                                     f"gather {r}", "decline", "pass", f"pick {rng.randint(1, 4)}",
                                     f"ability swoop {r}", f"ability dig {r}"]))
            if rng.random() < 0.15:
                steps.append({"expect": {"hand": rng.randint(0, 9)}})
        expect = rng.choice([{}, {"coins": [rng.randint(0, 9) for _ in range(players)]},
                             {"regions": {rng.choice(SEED_REGIONS): rng.choice(["empty", {"race": rng.choice(SEED_RACES)}])}},
                             {"legal": [f"conquer {rng.choice(SEED_REGIONS)}"]},
                             {"cost": {rng.choice(SEED_REGIONS): rng.randint(1, 6)}},
                             {"tray": {rng.choice(SEED_RACES): rng.randint(0, 12)}},
                             {"pools": {"rock": rng.randint(0, 6)}}, {"phase": "redeploy"},
                             {"columns": {rng.choice(SEED_COLUMNS): rng.sample(SEED_RACES, rng.randint(0, 2))}},
                             {"powers": rng.sample(SEED_POWERS, rng.randint(0, 3))},
                             {"team_winner": rng.choice(SEED_TEAMS + [SEED_TEAMS])},
                             {"team_scores": {rng.choice(SEED_TEAMS): rng.randint(0, 9)}}])
        sc = {"name": f"generated {k}", "rule": "tests/fuzz", "given": given, "do": steps}
        if expect:
            sc["expect"] = expect
        out.append(sc)
    return dump_yaml({"scenarios": out})
