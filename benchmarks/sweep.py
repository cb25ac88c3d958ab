"""Sweep benchmarks (not timed tests): the time of a balance report over 10,000
random-bot 4-player classic games with 2 jobs (issue 12: under 60 s on the 2-core
CI machine kind), and how much faster 2 jobs are than 1 (goal: at least 1.8×).
Run it on an idle machine.

    python benchmarks/sweep.py [--games 10000] [--scaling-games 2000] [--out FILE]

Writes JSON (benchmarks/results/sweep.json).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import date
from pathlib import Path

from swdsl.lab.balance import report
from swdsl.lab.render import as_text
from swdsl.sim import Job, simulate


def balance_seconds(games: int, jobs: int, players: int = 4) -> dict:
    """Wall time of the whole report: games played, report built and rendered."""
    start = time.perf_counter()
    run = simulate(Job(("classic",), players, 1, ("random",) * players), games, jobs)
    rep = report(run)
    as_text(rep)
    seconds = time.perf_counter() - start
    return {"games": games, "players": players, "jobs": jobs, "seconds": round(seconds, 2),
            "games_seconds": round(run.seconds, 2), "games_per_second": round(games / run.seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--scaling-games", type=int, default=2_000)
    ap.add_argument("--out", default="benchmarks/results/sweep.json")
    args = ap.parse_args()
    balance_seconds(50, 1)  # warm up: packs loaded, caches filled
    one = balance_seconds(args.scaling_games, 1)
    two = balance_seconds(args.scaling_games, 2)
    result = {"date": date.today().isoformat(), "python": platform.python_version(),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load_before": os.getloadavg()[0],
              "report_10k": balance_seconds(args.games, 2),
              "scaling": {"jobs_1": one, "jobs_2": two,
                          "speedup": round(one["games_seconds"] / two["games_seconds"], 2)}}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
