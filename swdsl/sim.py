"""Simulate many games with bots, in parallel, reproducibly.

Game i of a run uses seed (seed, i) whatever the number of jobs, so results do
not depend on --jobs. Workers load the packs once each.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs

from swdsl.bots import BOTS, play
from swdsl.engine.invariants import violations
from swdsl.engine.outcome import winner
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_ruleset, resolve_pack
from swdsl.saves import write_save


@attrs.frozen
class Job:
    packs: tuple[str, ...]
    players: int
    seed: int
    bots: str
    check_invariants: bool
    save_dir: str | None
    saved_packs: str = ""  # JSON: how saved games name the packs (packs/identity.py)


@attrs.frozen
class GameResult:
    index: int
    seed: int
    scores: tuple[int, ...]
    winner: int
    actions: int
    violations: tuple[str, ...]


_RULESETS: dict = {}


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919) % (2**63)


def run_one(job: Job, index: int) -> GameResult:
    key = tuple(os.path.realpath(resolve_pack(ref)) for ref in job.packs)  # `mypack` differs from folder to folder
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = load_ruleset(list(job.packs))
    seed = game_seed(job.seed, index)
    game = new_game(rs, job.players, seed)
    bots = [BOTS[job.bots](seed + 1 + seat) for seat in range(job.players)]
    found: list[str] = []

    def check(g):
        if len(found) < 20:
            found.extend(f"action {len(g.actions)}: {v}" for v in violations(g))

    n = play(game, bots, check if job.check_invariants else None)
    if job.save_dir:
        path = Path(job.save_dir) / f"game-{job.seed}-{index:05d}.json"
        write_save(game, path, json.loads(job.saved_packs))
    return GameResult(index, seed, tuple(game.scores()), winner(game), n, tuple(found))


def _run_chunk(args):
    job, indices = args
    return [run_one(job, i) for i in indices]


def simulate(job: Job, games: int, jobs: int = 1, progress=None) -> tuple[list[GameResult], float]:
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs <= 1:
        for i in range(games):
            results.append(run_one(job, i))
            if progress:
                progress(1)
    else:
        chunks = [list(range(i, games, jobs * 4)) for i in range(min(games, jobs * 4))]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for chunk in pool.map(_run_chunk, [(job, c) for c in chunks]):
                results.extend(chunk)
                if progress:
                    progress(len(chunk))
    results.sort(key=lambda r: r.index)
    return results, time.perf_counter() - start


def summary(job: Job, results: list[GameResult], seconds: float) -> dict:
    wins = [0] * job.players
    for r in results:
        wins[r.winner] += 1
    actions = sum(r.actions for r in results)
    out = {
        "packs": list(job.packs), "players": job.players, "bots": job.bots, "seed": job.seed,
        "games": len(results), "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 2) if seconds else None,
        "actions": actions, "actions_per_second": round(actions / seconds) if seconds else None,
        "wins": wins, "mean_score": [round(sum(r.scores[s] for r in results) / max(1, len(results)), 2)
                                     for s in range(job.players)],
    }
    if job.check_invariants:
        out["invariant_violations"] = [f"game {r.index}: {v}" for r in results for v in r.violations]
    return out
