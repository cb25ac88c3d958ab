"""Soak: many generated packs, many games, every invariant after every action.

    python benchmarks/soak.py [--packs N] [--games M] [--seed S] [--jobs J] [--bots lab] [--out FILE]

Each pack comes from the semantic generator of the test suite
(tests/fuzz/packgen.py: a tiny map and a few races, powers, markers, relics,
places and edition rules of random but well-formed rules over the whole
vocabulary). It is loaded (`load_packs` must not raise); if it has no error, M
games per player count are played by random and greedy bots (with `--bots lab`, by the
lab's heuristic and search bots, which list actions and play ahead on copies) under the guards
of tests/fuzz/harness.py (invariants after every action, an action cap, a
budget of CPU time per game). Prints JSON: packs, games, actions, crashes,
violations, hangs, games cut off, games the content stopped with a diagnostic
(SW5xx, by design), and which failures the regression cases already record
(tests/fuzz/known.py) — `new` lists any failure no case records yet.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz.semantic import KINDS, fuzz_packs  # noqa: E402


def soak(seeds: range, games: int, bots: str = "mixed") -> dict:
    """Counts for the packs of `seeds` (one worker's share), and the first new failures."""
    counts, unknown = fuzz_packs(seeds, games, bots)
    new = [f.describe() + (f" (case {known.case} is marked fixed)" if known else "") for f, _, known in unknown[:20]]
    return {"counts": dict(counts), "new": new}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packs", type=int, default=2000)
    ap.add_argument("--games", type=int, default=3, help="games per player count of each pack")
    ap.add_argument("--seed", type=int, default=1_000_000, help="the first pack's seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bots", choices=["mixed", "lab"], default="mixed",
                    help="random and greedy bots in turn, or the lab's heuristic and search bots")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    start = time.perf_counter()
    shares = [range(args.seed + j, args.seed + args.packs, args.jobs) for j in range(args.jobs)]
    if args.jobs == 1:
        parts = [soak(shares[0], args.games, args.bots)]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(soak, shares, [args.games] * args.jobs, [args.bots] * args.jobs))
    total: Counter = Counter()
    new: list[str] = []
    for p in parts:
        total.update(p["counts"])
        new += p["new"]
    out = {
        "packs": total["packs"], "seeds": [args.seed, args.seed + args.packs - 1], "games per player count": args.games,
        "bots": args.bots,
        **{k: total[k] for k in ("packs refused by check", "games", "actions", "stopped by content (SW5xx)")},
        **{k: total[k] for k in KINDS.values()},
        "known": {k.split(": ", 1)[1]: v for k, v in sorted(total.items()) if k.startswith("known: ")},
        "new": new,
        "seconds": round(time.perf_counter() - start, 1), "jobs": args.jobs, "python": platform.python_version(),
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
