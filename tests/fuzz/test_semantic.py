"""The semantic fuzzer: random well-formed packs over the whole vocabulary, loaded and played.

Each generated pack (tests/fuzz/packgen.py) goes through `load_packs`, which
must never raise; a pack without errors is played by random and greedy bots
with the invariants checked after every action, an action cap and a budget of
CPU time per game (tests/fuzz/harness.py). Every failure must be one the
regression cases already record (tests/fuzz/known.py); a new one fails the
test with its seed, a shrunk pack and a case file ready to add to
tests/fuzz/regressions/cases/.

Budgets: the default run plays FAST packs (seeds 0…); the slow test (marked
`slow`, run by CI) plays SLOW more. SWDSL_FUZZ_SEED=N moves both windows, to
explore new seeds by hand.
"""

from __future__ import annotations

import os
import textwrap
import time

import pytest
import yaml

from .harness import shrink
from .semantic import fuzz_packs

FAST = 200  # packs in the default run, one game per player count (random or greedy bots), ~8 s of CPU
SLOW = 480  # packs in the slow run, likewise, ~21 s of CPU
GAMES = 1  # games per player count: more packs find more than more games of each
BASE = int(os.environ.get("SWDSL_FUZZ_SEED", "0"))


def report(unknown) -> str:
    """The first new failures, each with its seed, a shrunk pack and a case file to add."""
    seen, parts = set(), []
    for f, pack, known in unknown:
        if f.signature in seen:
            continue
        seen.add(f.signature)
        if len(parts) == 3:
            parts.append(f"… and more ({len({x[0].signature for x in unknown})} distinct failures in all)")
            break
        small = shrink(pack, f, GAMES, budget=20.0, bots="mixed") if len(parts) == 0 else pack
        head = f"{f.describe()}" + (f"\n  (recorded as {known.case}, which is marked fixed: a regression)" if known else "")
        case = {"bug": f"TODO one line: {f.message[:100]}", "found": f"the semantic fuzzer, pack seed {pack.seed}",
                "status": "open", "files": small.files(),
                "run": {"games": {"players": f.players or 2, "seeds": 6, "bots": f.bots or "random", "cap": 2000}},
                "expect": {"seconds": 20}}
        parts.append(head + "\n" + textwrap.indent(f.detail[-1200:], "  | ") + "\n  a case for tests/fuzz/regressions/cases/"
                     "NAME.yaml (shrunk; check the seed reproduces it):\n"
                     + textwrap.indent(yaml.safe_dump(case, sort_keys=False, width=200), "    "))
    return "\n\n".join(parts)


CHUNKS = 4  # the budgets are split so that pytest-xdist spreads them over the cores


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_generated_packs_load_and_play_within_the_fast_budget(chunk):
    first, count = BASE + chunk * FAST // CHUNKS, FAST // CHUNKS
    start = time.perf_counter()
    stats, unknown = fuzz_packs(range(first, first + count), GAMES)
    print(f"semantic fuzz (fast): seeds {first}…{first + count - 1}: {dict(stats)} in {time.perf_counter() - start:.1f} s")
    assert not unknown, "new failures (SWDSL_FUZZ_SEED to explore more):\n" + report(unknown)
    assert stats["packs refused by check"] <= count // 20, f"the generator writes packs the checker refuses: {stats}"
    assert stats["games"] >= count


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_generated_packs_load_and_play_within_the_large_budget(chunk):
    first, count = BASE + 100_000 + chunk * SLOW // CHUNKS, SLOW // CHUNKS
    start = time.perf_counter()
    stats, unknown = fuzz_packs(range(first, first + count), GAMES)
    print(f"semantic fuzz (slow): seeds {first}…{first + count - 1}: {dict(stats)} in {time.perf_counter() - start:.1f} s")
    assert not unknown, "new failures:\n" + report(unknown)
    assert stats["packs refused by check"] <= count // 20, stats
