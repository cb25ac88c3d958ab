"""The bots' strength ladder (not a timed test): on each bundled edition, 2-player
games of one bot against another, seat-balanced (each seed is played twice, the
bots swapping seats), fixed seeds. Goals (issue 12): heuristic beats random in at
least 90% of games, search beats heuristic in at least 60%. Also times one
search decision with 100 playouts from the first turn (issue 15: under 0.15 s).

    python benchmarks/ladder.py [--games N] [--jobs J] [--search search:32] [--out FILE]

Writes JSON (benchmarks/results/ladder.json).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import date
from pathlib import Path

from swdsl.engine.legal import legal_actions
from swdsl.engine.setup import new_game
from swdsl.lab.intervals import wilson
from swdsl.lab.search import SearchBot
from swdsl.sim import Job, ruleset, simulate

PACKS = ("classic", "underground", "warcraft")


def duel(pack: str, strong: str, weak: str, games: int, seed: int, jobs: int) -> dict:
    """`strong` against `weak`: games/2 seeds, each played with the bots in both seats."""
    start = time.perf_counter()
    wins = 0
    for seat, bots in enumerate(((strong, weak), (weak, strong))):
        run = simulate(Job((pack,), 2, seed, bots), games // 2, jobs)
        wins += sum(r.winner == seat for r in run.results)
    n = 2 * (games // 2)
    low, high = wilson(wins, n)
    return {"pack": pack, "bots": f"{strong} vs {weak}", "games": n, "wins": wins, "win_rate": round(wins / n, 4),
            "low": round(low, 4), "high": round(high, 4), "seconds": round(time.perf_counter() - start, 1)}


def decision_time(pack: str, playouts: int = 100, repeat: int = 5) -> float:
    """Seconds for one search decision (the first pick of a 2-player game), best of `repeat`."""
    rs = ruleset((pack,))
    best = float("inf")
    for i in range(repeat):
        game = new_game(rs, 2, 1 + i)
        bot = SearchBot(i, playouts)
        start = time.perf_counter()
        bot.choose(game, legal_actions(game))
        best = min(best, time.perf_counter() - start)
    return round(best, 4)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="games per pair and pack (seat-balanced)")
    ap.add_argument("--search-games", type=int, default=100)
    ap.add_argument("--search", default="search:32", help="the search bot and its strength")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--out", default="benchmarks/results/ladder.json")
    args = ap.parse_args()
    result: dict = {"date": date.today().isoformat(), "python": platform.python_version(),
                    "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load_before": os.getloadavg()[0], "duels": [],
                    "search_decision_seconds_100_playouts": {}}
    for pack in PACKS:
        for strong, weak, n in (("heuristic", "random", args.games), (args.search, "heuristic", args.search_games)):
            row = duel(pack, strong, weak, n, args.seed, args.jobs)
            result["duels"].append(row)
            print(json.dumps(row), flush=True)
        result["search_decision_seconds_100_playouts"][pack] = decision_time(pack)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
