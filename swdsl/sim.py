"""Simulate many games with bots, reproducibly, here, in a process pool or on a
Dask cluster (swdsl/lab/executors.py).

Game i of a run uses seed (seed, i) and its bots are seeded from it, whatever
the executor and the number of jobs, so results do not depend on either. Each
process loads the packs once. A game keeps what a balance report needs
(lab/observe.py) and, with `trace`, its narration (lab/narrate.py).
"""

from __future__ import annotations

import gc
import json
import os
import time
from pathlib import Path

import attrs

from swdsl.bots import play
from swdsl.engine.errors import ContentError, engine_bug
from swdsl.engine.invariants import violations
from swdsl.engine.outcome import team_winners, winner
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import new_game
from swdsl.lab import executors
from swdsl.lab.bots import seat_bots
from swdsl.lab.narrate import Narrator
from swdsl.lab.observe import Appearance, Observer, Offer
from swdsl.packs.loader import load_ruleset, resolve_pack
from swdsl.saves import write_save


@attrs.frozen
class Job:
    packs: tuple[str, ...]
    players: int
    seed: int
    bots: tuple[str, ...]  # one spec per seat (lab/bots.py)
    board: str | None = None  # the pack whose board the games are played on (None: the mix's default)
    check_invariants: bool = False
    save_dir: str | None = None
    saved_packs: str = ""  # JSON: how saved games name the packs (packs/identity.py)
    trace: bool = False


@attrs.frozen
class GameResult:
    index: int
    seed: int
    scores: tuple[int, ...]
    winner: int
    actions: int
    violations: tuple[str, ...]
    board: str
    conquests: int
    appearances: tuple[Appearance, ...]
    offers: tuple[Offer, ...]
    finished: bool = True  # False: stopped by the pack's action budget
    error: str | None = None  # a ContentError that stopped the game
    trace: str | None = None
    team_winners: tuple[str, ...] = ()  # with teams (pack.yaml `teams:`): the team(s) that won


_RULESETS: dict[tuple, Ruleset] = {}


def _key(packs: tuple[str, ...], board: str | None, players: int | None) -> tuple:
    return tuple(os.path.realpath(resolve_pack(ref)) for ref in packs), board, None if board else players


def ruleset(packs: tuple[str, ...], board: str | None = None, players: int | None = None) -> Ruleset:
    """The packs on `board`'s board (or the default for `players`), loaded once per process (by
    folder: `mypack` differs from folder to folder)."""
    key = _key(packs, board, players)
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = _settled(load_ruleset(list(packs), board, players))
    return rs


def keep(packs: tuple[str, ...], board: str | None, players: int, rs: Ruleset) -> None:
    """Remember a ruleset the caller already loaded (the CLI, which checked the packs first)."""
    _RULESETS[_key(packs, board, players)] = _settled(rs)


def _settled(rs: Ruleset) -> Ruleset:
    """A ruleset kept for the whole process: the loading's garbage collected, and what is alive then
    (the ruleset, its compiled rules) frozen out of the collector's full walks (gc.freeze), which would
    otherwise go over all of it whenever the games' own objects trigger one: 20 ms each, measured."""
    gc.collect()
    gc.freeze()
    return rs


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919) % (2**63)


class _Invariants:
    def __init__(self) -> None:
        self.found: list[str] = []

    def before(self, game, action) -> None:
        pass

    def after(self, game, action) -> None:
        if len(self.found) < 20:
            self.found.extend(f"action {len(game.actions)}: {v}" for v in violations(game))


def run_one(job: Job, index: int) -> GameResult:
    rs = ruleset(job.packs, job.board, job.players)
    seed = game_seed(job.seed, index)
    game = new_game(rs, job.players, seed)
    observer = Observer(game)
    invariants = _Invariants()
    narrator = Narrator(game) if job.trace else None
    watchers = tuple(w for w in (observer, invariants if job.check_invariants else None, narrator) if w is not None)
    error = None
    try:
        n = play(game, seat_bots(job.bots, seed), watchers=watchers)
    except ContentError as err:
        n, error = len(game.actions), str(err)
    except Exception as err:  # noqa: BLE001 - a bug stops its game, reported, never a traceback
        n, error = len(game.actions), engine_bug(err, f"game {index} (seed {seed})")
    if narrator is not None:
        narrator.close(game, error)
    if job.save_dir:
        path = Path(job.save_dir) / f"game-{job.seed}-{index:05d}.json"
        write_save(game, path, json.loads(job.saved_packs))
    return GameResult(index, seed, tuple(game.scores()), winner(game), n, tuple(invariants.found), game.board.name,
                      observer.conquests, tuple(observer.appearances), tuple(observer.offers),
                      game.over, error, narrator.text() if narrator is not None else None,
                      tuple(team_winners(game)))


def _run_chunk(args: tuple[Job, list[int]]) -> list[GameResult]:
    job, indices = args
    return [run_one(job, i) for i in indices]


@attrs.frozen
class Run:
    job: Job
    results: list[GameResult]  # by game index
    seconds: float
    partial: bool  # interrupted: only the games that finished


def simulate(job: Job, games: int, jobs: int = 1, scheduler: str | None = None, progress=None) -> Run:
    """Play games 0…games-1 of `job`; Ctrl-C ends the run early (partial)."""
    ruleset(job.packs, job.board, job.players)  # loaded before any worker starts: forked workers inherit it
    start = time.perf_counter()
    results, partial = executors.run(_run_chunk, job, range(games), jobs, scheduler, progress)
    results.sort(key=lambda r: r.index)
    return Run(job, results, time.perf_counter() - start, partial)


def summary(run: Run) -> dict:
    job, results, seconds = run.job, run.results, run.seconds
    done = [r for r in results if r.finished and r.error is None]  # only finished games count
    wins = [0] * job.players
    for r in done:
        wins[r.winner] += 1
    actions = sum(r.actions for r in results)
    boards: dict[str, int] = {}
    for r in results:
        boards[r.board] = boards.get(r.board, 0) + 1
    out = {
        "packs": list(job.packs), "players": job.players, "bots": list(job.bots), "seed": job.seed,
        "games": len(results), "partial": run.partial, "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 2) if seconds else None,
        "actions": actions, "actions_per_second": round(actions / seconds) if seconds else None,
        "finished": len(done),
        "wins": wins, "mean_score": [round(sum(r.scores[s] for r in done) / max(1, len(done)), 2)
                                     for s in range(job.players)],
        "boards": boards,
        "team_wins": _team_wins(done),
        "games_without_conquest": sum(r.conquests == 0 for r in results),
        "unfinished": [r.index for r in results if not r.finished and r.error is None],
        "errors": [f"game {r.index}: {r.error}" for r in results if r.error],
    }
    if job.check_invariants:
        out["invariant_violations"] = [f"game {r.index}: {v}" for r in results for v in r.violations]
    return out


def _team_wins(results: list[GameResult]) -> dict[str, float]:
    """Wins per team (a victory shared by k teams counts 1/k to each); empty without teams."""
    wins: dict[str, float] = {}
    for r in results:
        for team in r.team_winners:
            wins[team] = wins.get(team, 0) + 1 / len(r.team_winners)
    return {t: round(w, 2) for t, w in sorted(wins.items())}
