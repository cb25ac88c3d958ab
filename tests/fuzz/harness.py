"""Running what the fuzzers generate, with guards, and describing what goes wrong.

A game is played by random (or greedy) bots with the engine's invariants checked
after every action, under an action cap and a budget of CPU time: a hang is
stopped by a timer signal (ITIMER_PROF) and reported, not waited out (CPU time,
so that a loaded machine does not make a slow game a hang). Any
exception, violation, hang, or a game cut off by the cap is a `Failure`, with a
signature (what went wrong, without the numbers) so that the same bug found by
many seeds is counted once, and a shrinker that removes declarations and items
of a generated pack while the failure's signature persists.

A game the content stops on purpose, with a diagnostic naming the rule (the
engine's ContentError: SW5xx), is not a failure: that is the designed way for
content to end a game it cannot continue (issue 14). It is counted as stopped.
"""

from __future__ import annotations

import contextlib
import re
import signal
import tempfile
import threading
import time
import traceback
from pathlib import Path

import attrs

from swdsl.bots import GreedyBot, RandomBot
from swdsl.engine.invariants import violations
from swdsl.engine.legal import apply_legal, legal_actions
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs

try:  # the engine's diagnostic for content that stops a game (issue 14); absent in older engines
    from swdsl.engine.errors import ContentError
except ImportError:  # pragma: no cover
    class ContentError(Exception):  # type: ignore[no-redef]
        pass

ACTION_CAP = 3000  # actions in one fuzzed game: small maps and 2-4 rounds never need more
GAME_SECONDS = 10.0  # CPU time for one game (the slowest, stopped at the 1,500-action budget, take about 4 s)
LOAD_SECONDS = 5.0  # CPU time to load a generated pack


class Hang(Exception):
    """A guarded run went past its time budget."""


@contextlib.contextmanager
def deadline(seconds: float, cpu: bool = False):
    """Raise Hang in the guarded code once `seconds` have passed: of the process's CPU time
    with `cpu` (a loop without end), else of the wall clock (a command may also block). Main
    thread only; elsewhere the code runs unguarded, and the caller's own step timing must do."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    timer, signum = (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)

    def ring(signum, frame):
        raise Hang(f"still running after {seconds} s" + (" of CPU time" if cpu else ""))

    old = signal.signal(signum, ring)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, old)


@attrs.define
class Failure:
    kind: str  # loader | crash | violation | hang | cap | cli
    message: str
    where: str = ""  # the innermost swdsl frame of a crash
    seed: int | None = None  # the pack's seed
    game_seed: int | None = None
    players: int | None = None
    action: int | None = None  # actions played when it happened
    detail: str = ""  # a traceback or the last actions
    key: str = ""  # the signature, when the message varies too much (a command's arguments)
    bots: str = ""  # the bots of the game: random, greedy or lab

    @property
    def signature(self) -> str:
        """What went wrong without the numbers and names that vary between seeds."""
        if self.key:
            return f"{self.kind}: {self.key}"
        text = re.sub(r"-?\d+", "N", self.message)
        text = re.sub(r"\b(Race|Power|mark|relic|place|ab|v|c|x)N\b", r"\1*", text)
        text = re.sub(r"'[^']*'", "'…'", text)
        return f"{self.kind}: {text[:160]}" + (f" @ {self.where}" if self.where else "")

    def describe(self) -> str:
        at = [f"pack seed {self.seed}"] if self.seed is not None else []
        if self.game_seed is not None:
            at.append(f"{self.players} players, {self.bots} bots, game seed {self.game_seed}")
        if self.action is not None:
            at.append(f"after {self.action} actions")
        return f"{self.kind}: {self.message}" + (f" [{self.where}]" if self.where else "") + f" ({', '.join(at)})"


def innermost_swdsl_frame(err: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(err.__traceback__) if "/swdsl/" in f.filename]
    if not frames:
        return ""
    f = frames[-1]
    return f"{f.filename.split('/swdsl/', 1)[1]}:{f.name}"


@attrs.define
class GameResult:
    actions: int
    finished: bool
    stopped: str = ""  # the content's diagnostic, if the content stopped the game
    failure: Failure | None = None
    seconds: float = 0.0


def _seats(bots: str, seed: int, players: int) -> list:
    """The bots of a game: random, greedy, or the lab's (heuristic and 4-playout search seats in
    turn: they list actions, price targets and play ahead on copies of the game)."""
    if bots == "lab":
        from swdsl.lab.heuristic import HeuristicBot
        from swdsl.lab.search import SearchBot

        return [SearchBot(seed * 7 + s, 4) if s % 2 else HeuristicBot(seed * 7 + s) for s in range(players)]
    bot = GreedyBot if bots == "greedy" else RandomBot
    return [bot(seed * 7 + s) for s in range(players)]


def play_guarded(ruleset, players: int, seed: int, bots: str = "random", cap: int = ACTION_CAP,
                 seconds: float = GAME_SECONDS) -> GameResult:
    """One game with invariants after every action, an action cap and a budget of CPU time. The cap
    is the pack's own budget of actions (`budgets: actions`) when that is lower: a game that goes
    past it without the engine stopping it was cut off."""
    budget = getattr(getattr(ruleset, "budgets", None), "actions", None)
    if budget is not None:
        cap = min(cap, budget + 1)
    start = time.perf_counter()
    n = 0
    game = None

    def fail(kind: str, message: str, where: str = "", detail: str = "") -> GameResult:
        tail = "" if game is None else " ".join(map(str, game.actions[-6:]))
        return GameResult(n, False, failure=Failure(kind, message, where, None, seed, players, n,
                                                    detail or f"last actions: {tail}", bots=bots),
                          seconds=time.perf_counter() - start)

    try:
        with deadline(seconds, cpu=True):
            game = new_game(ruleset, players, seed)
            seats = _seats(bots, seed, players)
            bad = violations(game)
            if bad:
                return fail("violation", f"at setup: {bad[0]}")
            while not game.over:
                if n >= cap:
                    return fail("cap", f"the game did not end within {cap} actions (round {game.round} of "
                                       f"{game.setup.rounds}), and nothing stopped it")
                actions = legal_actions(game)
                if not actions:
                    return fail("crash", "no legal action and the game is not over")
                apply_legal(game, seats[game.actor].choose(game, actions))
                n += 1
                bad = violations(game)
                if bad:
                    return fail("violation", bad[0])
    except Hang as err:
        return fail("hang", str(err))
    except ContentError as err:
        return GameResult(n, False, stopped=f"{getattr(err, 'code', '')} {getattr(err, 'message', err)}",
                          seconds=time.perf_counter() - start)
    except RecursionError as err:
        return fail("crash", f"RecursionError: {str(err)[:100]}", innermost_swdsl_frame(err))
    except Exception as err:  # noqa: BLE001 - every exception is a finding
        return fail("crash", f"{type(err).__name__}: {str(err)[:200]}", innermost_swdsl_frame(err),
                    traceback.format_exc(limit=-6))
    return GameResult(n, True, seconds=time.perf_counter() - start)


@attrs.define
class PackResult:
    seed: int
    errors: list[str]  # the codes of the loader's errors (a generated pack should have none)
    warnings: list[str]
    games: int = 0
    stopped: int = 0
    actions: int = 0
    failures: list[Failure] = attrs.field(factory=list)


def load_guarded(folder: Path):
    """load_packs under a deadline: (LoadedPack, None) or (None, Failure)."""
    try:
        with deadline(LOAD_SECONDS, cpu=True):
            return load_packs([str(folder)]), None
    except Hang as err:
        return None, Failure("hang", f"load_packs: {err}")
    except Exception as err:  # noqa: BLE001
        return None, Failure("loader", f"load_packs raised {type(err).__name__}: {str(err)[:200]}",
                             innermost_swdsl_frame(err), traceback.format_exc(limit=-6))


def run_pack(pack, games: int, folder: Path | None = None, bots: str = "random") -> PackResult:
    """Load a generated pack; if it has no error, play `games` games per player count (with
    `mixed` bots, random and greedy ones in turn, starting with greedy on odd seeds)."""
    with tempfile.TemporaryDirectory() as tmp:
        where = pack.write(Path(folder or tmp) / f"fuzz{pack.seed}")
        loaded, failure = load_guarded(where)
    if failure is not None:
        failure.seed = pack.seed
        return PackResult(pack.seed, [], [], failures=[failure])
    errors = [d.code for d in loaded.diagnostics if d.is_error]
    out = PackResult(pack.seed, errors, [d.code for d in loaded.diagnostics if not d.is_error])
    rs = loaded.ruleset
    if errors or rs is None:
        return out
    for players in sorted(rs.setups):
        for i in range(games):
            kind = ("random", "greedy")[(pack.seed + i) % 2] if bots == "mixed" else bots
            res = play_guarded(rs, players, pack.seed * 1000 + i, kind)
            out.games += 1
            out.actions += res.actions
            out.stopped += bool(res.stopped)
            if res.failure is not None:
                res.failure.seed = pack.seed
                out.failures.append(res.failure)
    return out


def shrink(pack, failure: Failure, games: int, budget: float = 30.0, bots: str = "random"):
    """The smallest pack (fewest declarations, then items) that still fails with the same signature."""
    import copy

    want = failure.signature
    stop = time.perf_counter() + budget

    def fails(candidate) -> bool:
        if time.perf_counter() > stop:
            return False
        res = run_pack(candidate, games, bots=bots)
        return any(f.signature == want for f in res.failures)

    best = copy.deepcopy(pack)
    i = 0
    while i < len(best.decls):  # whole declarations first (never the last race or power: the market needs one)
        d = best.decls[i]
        same = [x for x in best.decls if x.kind == d.kind and "neutral" not in x.items]
        if d.kind in ("race", "power") and len(same) <= 1 and "neutral" not in d.items:
            i += 1
            continue
        trial = copy.deepcopy(best)
        del trial.decls[i]
        if fails(trial):
            best = trial
        else:
            i += 1
    for di in range(len(best.decls)):
        j = 0
        while j < len(best.decls[di].items):
            item = best.decls[di].items[j]
            if re.match(r"(banner|supply|badge|neutral|limit)\b", item):
                j += 1
                continue
            trial = copy.deepcopy(best)
            del trial.decls[di].items[j]
            if fails(trial):
                best = trial
                continue
            lines = item.split("\n")  # a block: try without each of its effects
            k = 1
            while k < len(lines) - 1:
                if "{" in lines[k] or "}" in lines[k]:
                    k += 1
                    continue
                trial = copy.deepcopy(best)
                trial.decls[di].items[j] = "\n".join(lines[:k] + lines[k + 1:])
                if fails(trial):
                    best, lines = trial, lines[:k] + lines[k + 1:]
                else:
                    k += 1
            j += 1
    return best


# ---- the command line, in process ------------------------------------------------------------------------------

CLI_EXITS = (0, 1, 2, 130)  # success, findings, usage, interrupted: anything else is a failure
CLI_SECONDS = 10.0


@attrs.define
class CliRun:
    args: list[str]
    exit_code: int | None
    output: str  # stdout and stderr together
    seconds: float
    failure: Failure | None = None


def run_cli(args: list[str], seconds: float = CLI_SECONDS, cwd: Path | None = None) -> CliRun:
    """`swdsl ARGS` through click's CliRunner, under a wall-clock budget. A
    failure is a Python traceback (an exception other than SystemExit, or
    "Traceback" in the output), an internal error the tools caught and report
    as a bug (SW599), an exit code outside 0/1/2/130, or a hang."""
    from click.testing import CliRunner

    from swdsl.cli import main

    start = time.perf_counter()
    command = args[0] if args else ""
    runner = CliRunner()
    old = Path.cwd()
    try:
        if cwd is not None:
            import os
            os.chdir(cwd)
        with deadline(seconds):
            result = runner.invoke(main, args, catch_exceptions=True)
    except Hang as err:  # the timer rang outside the command (click's own parsing)
        return CliRun(args, None, "", time.perf_counter() - start,
                      Failure("hang", f"swdsl {_shown(args)}: {err}", key=f"{command} hangs"))
    finally:
        if cwd is not None:
            import os
            os.chdir(old)
    took = time.perf_counter() - start
    out = result.output
    exc = result.exception
    failure = None
    if isinstance(exc, Hang):
        failure = Failure("hang", f"swdsl {_shown(args)}: {exc}", key=f"{command} hangs")
    elif exc is not None and not isinstance(exc, SystemExit):
        where = innermost_swdsl_frame(exc)
        failure = Failure("cli", f"swdsl {_shown(args)} raised {type(exc).__name__}: {str(exc)[:160]}", where,
                          detail="".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-6)),
                          key=f"{command} raises {type(exc).__name__} @ {where}")
    elif "Traceback (most recent call last)" in out:
        last = [x for x in out.strip().splitlines() if x and not x.startswith(" ")][-1:]
        failure = Failure("cli", f"swdsl {_shown(args)} printed a traceback: {last[0][:160] if last else ''}",
                          detail=out[-2000:], key=f"{command} prints a traceback: {(last or [''])[0].split(':')[0]}")
    elif "SW599" in out:  # the tools caught an engine exception: still a bug in swdsl, by its own words
        line = next(x for x in out.splitlines() if "SW599" in x)
        failure = Failure("cli", f"swdsl {_shown(args)} reported an internal error: {line.strip()[:300]}",
                          detail=out[-2000:], key=f"{command} reports SW599: {line.split('SW599', 1)[1][:60]}")
    elif result.exit_code not in CLI_EXITS:
        failure = Failure("cli", f"swdsl {_shown(args)} exited with {result.exit_code}", detail=out[-1000:],
                          key=f"{command} exits with {result.exit_code}")
    return CliRun(args, result.exit_code, out, took, failure)


def _shown(args: list[str]) -> str:
    """The arguments for a message: long ones cut, control characters escaped."""
    def one(a: str) -> str:
        a = a.encode("unicode_escape", "backslashreplace").decode("ascii")
        return a if len(a) <= 60 else f"{a[:40]}…({len(a)} chars)"
    return " ".join(one(a) for a in args)
