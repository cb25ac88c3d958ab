"""Throughput benchmarks (not timed tests): random-bot games/s and actions/s per
player count on one core, replay actions/s, and `check` time cold and warm.

    python benchmarks/bench.py [--games N] [--pack classic] [--out FILE]

Writes JSON. Reference point (engine issue): smawg 0.23, with no race or power
effects, plays 25 random games/s on the classic 2-player map (5.9 on 5 players)
and replays 160k actions/s on this kind of machine; ratios to those are printed.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import platformdirs

from swdsl.bots import RandomBot, play
from swdsl.engine.replay import record, replay
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs, load_ruleset

PEER = {"games_per_second": {2: 25.0, 5: 5.9}, "replay_actions_per_second": 160_000}


def games(ruleset, players: int, n: int, seed: int) -> dict:
    records = []
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        game = new_game(ruleset, players, seed + i)
        actions += play(game, [RandomBot(seed + i * 7 + s) for s in range(players)])
        records.append(record(game, []))
    seconds = time.perf_counter() - start
    replay_seconds = float("inf")
    for _ in range(3):  # best of three: throughput without the machine's other load
        start = time.perf_counter()
        for rec in records:
            replay(ruleset, rec)
        replay_seconds = min(replay_seconds, time.perf_counter() - start)
    out = {"games": n, "seconds": round(seconds, 3), "games_per_second": round(n / seconds, 1),
           "actions_per_second": round(actions / seconds), "actions": actions,
           "replay_actions_per_second": round(actions / replay_seconds)}
    peer = PEER["games_per_second"].get(players)
    if peer:
        out["ratio_to_smawg_games"] = round(out["games_per_second"] / peer, 1)
    return out


def check_times(pack: str) -> dict:
    cache = Path(platformdirs.user_cache_dir("swdsl"))
    shutil.rmtree(cache, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "swdsl.cli", "check"], check=False, capture_output=True)
    cold = time.perf_counter() - start
    load_packs([pack])
    start = time.perf_counter()
    load_packs([pack])
    warm = time.perf_counter() - start
    return {"all_packs_cold_process_seconds": round(cold, 3), "one_pack_warm_seconds": round(warm, 4)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--pack", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/results/latest.json")
    args = ap.parse_args()
    ruleset = load_ruleset([args.pack])
    games(ruleset, 2, 10, args.seed)  # warm up
    result = {"pack": args.pack, "python": platform.python_version(), "machine": platform.machine(),
              "per_player_count": {n: games(ruleset, n, args.games, args.seed) for n in sorted(ruleset.setups)}}
    replays = [r["replay_actions_per_second"] for r in result["per_player_count"].values()]
    result["replay_actions_per_second_min"] = min(replays)
    result["replay_ratio_to_smawg"] = round(min(replays) / PEER["replay_actions_per_second"], 2)
    result["check"] = check_times(args.pack)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
