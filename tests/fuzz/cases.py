"""Regression cases as data: one YAML file per bug in tests/fuzz/regressions/cases/.

A case says what triggers the bug and what the CORRECT behaviour is:

    bug: one line: what goes wrong today (the xfail reason while it is open)
    found: where it was found (issue 14, or the fuzzer and its seed)
    status: open | fixed          # open: pytest.mark.xfail(strict=True) until the engine is fixed
    checked: fails on main c4fddb5; passes on main 0546f46   # what the case did on which engine
    root: false                   # true: needs permissions to bite (run as root, it runs as user 65534)
    files: {path: text}           # a pack folder, written to {pack}
    make:                         # big files: `text` repeated `count` times ({n} is the repetition)
      - {path: rules.sw, head: "", text: "race A{n} {\\n}\\n", count: 23800}
    setup:                        # file-system states: chmod, symlink, mkdir, write
      - {chmod: maps, mode: 0}
      - {symlink: saves/game-0-00000.json, to: "{tmp}/outside.json"}
    run:                          # one of:
      cli: [check, "{pack}"]      #   the command line, in process
      games: {players: 2, seeds: 5, bots: random, cap: 2000}   # games with invariants after every action
                                  #   (game seeds 0…seeds-1, or from `first:` on)
    expect:
      exit: [1]                   # cli: the exit codes allowed (0/1/2/130 only, in any case)
      codes: [SW241, SW5..]       # (regular expressions) cli: one of these codes is in the output; games: the content may stop
                                  #   a game with one of these codes (never with another exception), or
                                  #   the checker may refuse the pack with one of them
      refused: any                # games: the checker may refuse the pack with any error
      seconds: 10                 # CPU time of the whole run (a command is stopped at 1.5 times as much CPU
                                  #   time, or three times as long on the wall clock)
      absent: ["\\x1b"]           # cli: text that must not be in the output
      present: ["unfinished"]     # cli: regular expressions one of which must match the output
      xml: true                   # cli: the output is well-formed XML
      json: true                  # cli: the output is valid JSON
      missing: ["{tmp}/outside.json"]   # paths that must not exist afterwards
    isolate: true                 # run it in a child process with a memory limit and a timeout

Placeholders in arguments and paths: {pack} the case's pack folder, {tmp} the
case's scratch folder, {long} a file name of 300 characters, {digits} a number
of 5,000 digits.
"""

from __future__ import annotations

import json
import os
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import yaml

from .harness import deadline, play_guarded, run_cli

CASES = Path(__file__).parent / "regressions" / "cases"
LONG = "n" * 300
DIGITS = "9" * 5000


@attrs.define
class Outcome:
    ok: bool
    why: str
    seconds: float


def all_cases() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def read(path: Path) -> dict:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    for key in ("bug", "found", "status", "run", "expect"):
        assert key in case, f"{path.name}: a case needs `{key}`"
    assert case["status"] in ("open", "fixed"), path.name
    return case


def _fill(text: str, where: dict) -> str:
    for k, v in where.items():
        text = text.replace("{" + k + "}", v)
    return text


def prepare(case: dict, tmp: Path) -> dict:
    """Write the case's files and set up its file-system state; the placeholders' values."""
    pack = tmp / "pack"
    pack.mkdir(parents=True)
    where = {"pack": str(pack), "tmp": str(tmp), "long": LONG, "digits": DIGITS}
    for rel, text in (case.get("files") or {}).items():
        path = pack / _fill(rel, where)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, {"long": LONG, "digits": DIGITS}), encoding="utf-8")
    for big in case.get("make") or ():
        path = pack / big["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "".join(big["text"].replace("{n}", str(i)) for i in range(big["count"]))
        path.write_text(big.get("head", "") + body, encoding="utf-8")
    for step in case.get("setup") or ():
        if "mkdir" in step:
            (pack / step["mkdir"]).mkdir(parents=True, exist_ok=True)
        elif "symlink" in step:
            link = pack / step["symlink"]
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(_fill(step["to"], where), link)
        elif "chmod" in step:
            os.chmod(pack / step["chmod"], step["mode"])
        elif "write" in step:
            (pack / step["write"]).parent.mkdir(parents=True, exist_ok=True)
            data = step["bytes"].encode("latin-1") if "bytes" in step else _fill(step["text"], where).encode()
            (pack / step["write"]).write_bytes(data)
        else:
            raise AssertionError(f"unknown setup step {step}")
    return where


def run_case(case: dict, tmp: Path) -> Outcome:
    """Run a case; with `isolate: true` in a child process with a memory limit and a timeout
    (for bugs that allocate without end or loop inside C code, where no signal can stop them).
    A `root: true` case run by root is run by an unprivileged user instead (see as_nobody)."""
    if case.get("root") and os.geteuid() == 0:
        return as_nobody(case)
    if case.get("isolate"):
        return _isolated(case, tmp)
    return _run(case, tmp)


NOBODY = 65534  # the conventional unprivileged user and group


def can_drop_privileges() -> bool:
    return hasattr(os, "setuid") and os.geteuid() == 0


def as_nobody(case: dict) -> Outcome:
    """Permissions do not bite for root: run the case in a child process that gives up root
    (user and group 65534) in a scratch folder it owns. Everything the tools import is
    imported first, since the interpreter's own folder may be closed to that user."""
    import importlib
    import pkgutil
    import shutil
    import tempfile

    import swdsl
    from swdsl.lang.parser import lark_parser
    from swdsl.packs.loader import load_packs

    for mod in pkgutil.walk_packages(swdsl.__path__, "swdsl."):  # every module of the tools, before giving up root
        try:
            importlib.import_module(mod.name)
        except ImportError:  # an optional extra that is not installed
            pass
    for name in ("click.testing", "rich.console", "rich.table", "rich.text", "rich.progress", "xml.sax.saxutils",
                 "concurrent.futures", "multiprocessing.pool"):
        importlib.import_module(name)
    lark_parser()
    load_packs([str(Path(__file__).parent / "seed")])  # warms every lazy import of loading
    tmp = Path(tempfile.mkdtemp(prefix="swdsl-nobody-"))
    os.chmod(tmp, 0o755)
    os.chown(tmp, NOBODY, NOBODY)
    try:
        return _isolated(case, tmp, drop=True)
    finally:
        for folder, dirs, _ in os.walk(tmp):
            for d in dirs:
                os.chmod(os.path.join(folder, d), 0o755)
        shutil.rmtree(tmp, ignore_errors=True)


MEMORY = 1536 * 1024 * 1024  # bytes of address space an isolated case may use


def _isolated(case: dict, tmp: Path, drop: bool = False) -> Outcome:
    import multiprocessing
    import resource

    budget = float(case["expect"].get("seconds", 20)) * 3 + 10
    ctx = multiprocessing.get_context("fork")
    reader, writer = ctx.Pipe(duplex=False)

    def child():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        if drop:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.environ["HOME"] = str(tmp)
        try:
            out = _run(case, tmp)
        except BaseException as err:  # noqa: BLE001 - MemoryError and the like: report them
            out = Outcome(False, f"{type(err).__name__}: {str(err)[:300]}", 0.0)
        writer.send(out)

    start = time.perf_counter()
    proc = ctx.Process(target=child)
    proc.start()
    got = reader.recv() if reader.poll(budget) else None
    proc.join(1)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if got is None:
        why = f"no answer within {budget:.0f} s" if proc.exitcode is None or proc.exitcode < 0 else \
            f"the run died (exit {proc.exitcode})"
        return Outcome(False, why, time.perf_counter() - start)
    return got


def _run(case: dict, tmp: Path) -> Outcome:
    where = prepare(case, tmp)
    expect = case["expect"]
    run = case["run"]
    start = time.process_time()  # CPU time: a loaded machine must not fail a case
    try:
        if "cli" in run:
            return _cli(run, expect, where, start)
        return _games(run, expect, where, start)
    finally:
        for step in case.get("setup") or ():  # let pytest clean up what was locked
            if "chmod" in step:
                os.chmod(Path(where["pack"]) / step["chmod"], 0o755)


def _cli(run: dict, expect: dict, where: dict, start: float) -> Outcome:
    args = [_fill(str(a), where) for a in run["cli"]]
    budget = float(expect.get("seconds", 20))
    with deadline(budget * 1.5, cpu=True):  # a run far past its budget is stopped, not waited out
        got = run_cli(args, seconds=budget * 3 + 10, cwd=Path(where["tmp"]))  # wall clock: only a hang goes past it
    took = time.process_time() - start
    if got.failure is not None:
        return Outcome(False, got.failure.describe() + "\n" + got.failure.detail[-1500:], took)
    out = got.output
    problems = []
    if "exit" in expect and got.exit_code not in expect["exit"]:
        problems.append(f"exit code {got.exit_code}, expected one of {expect['exit']}")
    if "codes" in expect and not any(re.search(rf"\b{c}\b", out) for c in expect["codes"]):  # codes are patterns
        problems.append(f"none of the codes {expect['codes']} in the output")
    for text in expect.get("absent", ()):
        if text in out:
            problems.append(f"{text!r} is in the output")
    if expect.get("present") and not any(re.search(p, out, re.I) for p in expect["present"]):
        problems.append(f"nothing in the output matches {expect['present']}")
    if expect.get("json"):
        try:
            json.loads(out[out.index("{"):] if "{" in out else out)
        except ValueError as err:
            problems.append(f"the output is not valid JSON: {err}")
    if expect.get("xml"):
        try:
            ET.fromstring(out[out.index("<"):] if "<" in out else out)
        except ET.ParseError as err:
            problems.append(f"the output is not well-formed XML: {err}")
    for path in expect.get("missing", ()):
        if os.path.lexists(_fill(path, where)) and Path(_fill(path, where)).exists():
            problems.append(f"{_fill(path, where)} was written")
    if took > budget:
        problems.append(f"took {took:.1f} s of CPU, more than {budget} s")
    why = "; ".join(problems) + ("\n--- output:\n" + out[-1500:] if problems else "")
    return Outcome(not problems, why, took)


def _code_in(code: str, patterns) -> bool:
    return any(re.fullmatch(p, code) for p in patterns)


def _games(run: dict, expect: dict, where: dict, start: float) -> Outcome:
    from swdsl.packs.loader import load_packs

    loaded = load_packs([where["pack"]])
    errors = [f"{d.code} {d.message}" for d in loaded.diagnostics if d.is_error]
    allowed = set(expect.get("codes", ()))
    if errors:  # the checker refused the pack: right only if that is what the case expects
        ok = expect.get("refused") == "any" or any(_code_in(e.split()[0], allowed) for e in errors)
        return Outcome(ok, "" if ok else f"the pack does not load: {errors[:3]}", time.process_time() - start)
    g = run["games"]
    budget = float(expect.get("seconds", 20))
    problems = []
    first = g.get("first", 0)
    for seed in range(first, first + g.get("seeds", 5)):
        res = play_guarded(loaded.ruleset, g.get("players", 2), seed, g.get("bots", "random"),
                           cap=g.get("cap", 2000), seconds=budget * 3 + 10)
        if res.failure is not None:
            problems.append(f"seed {seed}: {res.failure.describe()}\n{res.failure.detail[-800:]}")
            break
        if res.stopped and not _code_in(res.stopped.split()[0], allowed):
            problems.append(f"seed {seed}: the game stopped with {res.stopped}, expected it to go on")
            break
    took = time.process_time() - start
    if took > budget:
        problems.append(f"took {took:.1f} s of CPU, more than {budget} s")
    return Outcome(not problems, "; ".join(problems), took)
