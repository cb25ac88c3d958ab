"""Byte and structure mutations of every kind of file the tools read, and of their arguments.

Each kind of file of the seed pack (tests/fuzz/seed: pack.yaml, a map, a rules
file, a scenario file) and a saved game (written by `swdsl simulate
--save-dir`) is mutated (tests/fuzz/mutate.py) and given to the command that
reads it, in process through click's CliRunner: `check` (and, now and then,
`info`, `test` and `simulate`) for the pack's files, `test` for scenarios,
`replay` for saved games; random command lines cover every command and option.
Scenario files are also written from scratch with values of the right kinds
(random positions, actions and expectations), to reach the engine.
A Python traceback, an exit code other than 0/1/2/130 or a run past its time
budget is a failure; every failure must be one a regression case records
(tests/fuzz/known.py), else the test prints the seed and the file to reproduce it.

Budgets: FAST mutations per kind in the default run, SLOW in the slow test.
SWDSL_FUZZ_SEED=N moves the seeds.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from .harness import Failure, run_cli
from .known import MUTATION, classify
from .mutate import SEED, SEED_FILES, cli_arguments, mutate_file, random_scenarios

FAST = {"pack.yaml": 100, "map": 80, "rules": 100, "scenario": 80, "written scenario": 60, "saved game": 120,
        "arguments": 120}
SLOW = {k: v * 3 for k, v in FAST.items()}  # ~20 s of CPU (FAST: ~7 s)
BASE = int(os.environ.get("SWDSL_FUZZ_SEED", "0"))
SECONDS = 10.0  # one command


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A scratch folder with a copy of the seed pack and a saved game of it."""
    root = tmp_path_factory.mktemp("mutations")
    pack = root / "pack"
    shutil.copytree(SEED, pack)
    saves = root / "saves"
    ran = run_cli(["simulate", "--pack", str(pack), "--games", "1", "--seed", "3", "--save-dir", str(saves)], cwd=root)
    assert ran.failure is None and ran.exit_code == 0, ran.output
    (game,) = saves.glob("*.json")
    return root, pack, game


def engine_trouble(args: list[str], output: str) -> Failure | None:
    """In a scenario whose values all have the right kinds, an exception reported as a malformed
    scenario (SW403 with a Python exception's name) or an action that breaks an invariant is
    the engine's fault."""
    m = re.search(r"SW403 malformed scenario: (\w+Error): .*|after '[^']*' an invariant broke: .*", output)
    if m is None:
        return None
    return Failure("cli", f"swdsl {' '.join(args[:1])}: {m.group(0)[:300]}", detail=output[-2000:],
                   key=f"test: {m.group(1) or 'invariant broke'}")


def tally(ran, exits: Counter, unknown: list[str], what: str, context: str = "") -> None:
    """Count a run by its exit code, a failure under the case that records it; a failure no open
    case records goes to `unknown`, with `what` ran (how to reproduce it) and its `context`."""
    exits[ran.exit_code if ran.failure is None else "failure"] += 1
    if ran.failure is None:
        return
    f = ran.failure
    known = classify(f"{f.kind}: {f.message} @ {f.where}", MUTATION)
    exits[f"known: {known.case}" if known else "NEW"] += 1
    if known is None or known.status != "open":
        unknown.append(f"{what}: {f.describe()}" + (f" — recorded as {known.case}, marked fixed: a regression"
                                                      if known else "") + "\n" + context + f.detail[-1200:])


def _commands(kind: str, pack: Path, rng: random.Random) -> list[list[str]]:
    if kind in ("scenario", "written scenario"):
        return [["test", str(pack)]]
    extra = rng.choice([[], [], ["info", str(pack)], ["test", str(pack)],
                        ["simulate", "--pack", str(pack), "--games", "1", "--check-invariants"],
                        ["check", "--format", rng.choice(["json", "sarif", "junit", "github"]), str(pack)]])
    return [["check", str(pack)]] + ([extra] if extra else [])


def fuzz_files(kind: str, count: int, first: int, root: Path, pack: Path, game: Path) -> tuple[int, list[str], dict]:
    """Mutate one kind of file `count` times: (runs, reports of failures not known to be open, outcomes)."""
    if kind == "saved game":
        target, fmt = game, "json"
    elif kind == "written scenario":
        target, fmt = pack / SEED_FILES["scenario"], ""
    else:
        target, fmt = pack / SEED_FILES[kind], "rules" if kind == "rules" else "yaml"
    original = target.read_bytes()
    runs, unknown = 0, []
    exits: Counter = Counter()
    try:
        for i in range(first, first + count):
            rng = random.Random(f"{kind}-{i}")
            data = random_scenarios(rng) if kind == "written scenario" else mutate_file(original, fmt, rng)
            target.write_bytes(data)
            commands = [["replay", str(game)]] if kind == "saved game" else _commands(kind, pack, rng)
            for args in commands:
                ran = run_cli(args, seconds=SECONDS, cwd=root)
                runs += 1
                if ran.failure is None and kind == "written scenario":
                    ran.failure = engine_trouble(args, ran.output)
                tally(ran, exits, unknown, f"{kind} mutation {i} (random.Random({f'{kind}-{i}'!r}))",
                      f"  the file ({len(data)} bytes) begins: {data[:300]!r}\n")
    finally:
        target.write_bytes(original)
    return runs, unknown, dict(exits)


def fuzz_arguments(count: int, first: int, root: Path, pack: Path, game: Path) -> tuple[int, list[str], dict]:
    """`count` random command lines: (runs, reports of failures not known to be open, outcomes)."""
    scratch = root / "args"
    scratch.mkdir(exist_ok=True)
    unknown = []
    exits: Counter = Counter()
    for i in range(first, first + count):
        rng = random.Random(f"arguments-{i}")
        args = cli_arguments(rng, scratch, {"pack": str(pack), "game": str(game)})
        ran = run_cli(args, seconds=SECONDS, cwd=scratch)
        tally(ran, exits, unknown, f"command line {i}: swdsl {args!r}")
    return count, unknown, dict(exits)


def _run(workdir, kind: str, n: int, first: int) -> tuple[str, list[str]]:
    root, pack, game = workdir
    start = time.perf_counter()
    if kind == "arguments":
        runs, new, exits = fuzz_arguments(n, first, root, pack, game)
    else:
        runs, new, exits = fuzz_files(kind, n, first, root, pack, game)
    return f"{kind}: {n} mutations, {runs} runs, {time.perf_counter() - start:.1f} s, outcomes {exits}", new


@pytest.mark.parametrize("kind", list(FAST))
def test_mutated_files_and_arguments_never_end_in_a_traceback(workdir, kind):
    counts, unknown = _run(workdir, kind, FAST[kind], BASE)
    print(f"mutation fuzz (fast): {counts}")
    assert not unknown, f"{len(unknown)} new failures:\n\n" + "\n\n".join(unknown[:4])


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(SLOW))
def test_mutated_files_and_arguments_never_end_in_a_traceback_large_budget(workdir, kind):
    counts, unknown = _run(workdir, kind, SLOW[kind], BASE + 100_000)
    print(f"mutation fuzz (slow): {counts}")
    assert not unknown, f"{len(unknown)} new failures:\n\n" + "\n\n".join(unknown[:4])
