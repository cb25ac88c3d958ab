"""Where games run: in this process, in a pool of processes on this machine, or
on a Dask cluster. Work is cut into chunks of game indices and each game's seed
depends only on its index, so every executor gives the same results; results
come back as chunks finish, so Ctrl-C keeps the games already played.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence
from typing import Any

Progress = Callable[[int], None] | None


class MissingExtra(Exception):
    """An optional dependency is not installed; the message says how to install it."""

    def __init__(self, extra: str, module: str):
        super().__init__(f"this needs the optional '{extra}' extra ({module} is not installed)")
        self.hint = f"install it with: pip install 'swdsl[{extra}]'"


class SchedulerError(Exception):
    """The Dask scheduler could not be reached or failed the work."""


def chunks(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Game indices in chunks: several per worker (for balance, progress and prompt
    interruption), at most 25 games each."""
    size = max(1, min(25, len(indices) // max(1, workers * 8)))
    return [list(indices[i:i + size]) for i in range(0, len(indices), size)]


def run(work: Callable[[Any], list], job: Any, indices: Sequence[int], jobs: int = 1,
        scheduler: str | None = None, progress: Progress = None) -> tuple[list, bool]:
    """Every result of work((job, chunk)) over the chunks of `indices`, and whether
    the run was interrupted (Ctrl-C) before all of them finished."""
    if scheduler:
        return _dask(work, job, chunks(indices, 16), scheduler, progress)
    if jobs > 1:
        return _pool(work, job, chunks(indices, jobs), jobs, progress)
    return _here(work, job, indices, progress)


def _here(work, job, indices, progress) -> tuple[list, bool]:
    out: list = []
    try:
        for i in indices:
            out.extend(work((job, [i])))
            if progress:
                progress(1)
    except KeyboardInterrupt:
        return out, True
    return out, False


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(work, job, parts, jobs, progress) -> tuple[list, bool]:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)  # fork: workers inherit loaded packs
    pool = ctx.Pool(jobs, initializer=_quiet_worker)
    out: list = []
    try:
        for got in pool.imap_unordered(work, [(job, p) for p in parts]):
            out.extend(got)
            if progress:
                progress(len(got))
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        return out, True
    pool.close()
    pool.join()
    return out, False


def _dask(work, job, parts, address, progress) -> tuple[list, bool]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise MissingExtra("dask", "dask.distributed") from None
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError, ValueError) as err:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    out: list = []
    futures = client.map(work, [(job, p) for p in parts], pure=False)
    try:
        for fut in as_completed(futures):
            got = fut.result()
            out.extend(got)
            if progress:
                progress(len(got))
    except KeyboardInterrupt:
        client.cancel(futures)
        return out, True
    except (OSError, TimeoutError) as err:
        raise SchedulerError(f"the Dask cluster at {address} failed: {err}") from None
    finally:
        client.close(timeout=2)
    return out, False
