"""The lab's commands: `simulate` and `balance`. swdsl/cli.py registers them;
they use its helpers (packs by name, pack diagnostics, paths shown relative),
imported when a command runs."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path

import attrs
import click

from swdsl.diagnostics import printable


class _Bots(click.ParamType):
    name = "bots"

    def convert(self, value, param, ctx):
        from swdsl.lab.bots import maker

        try:
            for spec in str(value).split(","):
                maker(spec)
        except ValueError as err:
            self.fail(str(err), param, ctx)
        return str(value)


def _game_options(default_bots: str, default_games: int):
    """The options simulate and balance share: what to play, with which bots, where."""
    def wrap(f):
        for opt in reversed([
            click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True),
            click.option("--games", type=click.IntRange(1, 10_000_000), default=default_games, show_default=True),
            click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True),
            click.option("--bots", type=_Bots(), default=default_bots, show_default=True,
                         help="random, greedy, heuristic, search or search:N (N playouts per decision); "
                              "a comma list gives each seat its own"),
            click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
                         help="processes on this machine"),
            click.option("--scheduler", metavar="ADDRESS", help="run on a Dask cluster (needs swdsl[dask])"),
            click.option("--pack", "packs", multiple=True,
                         help="pack name or folder (repeat to mix); default: the bundled default pack"),
            click.option("--board", metavar="PACK", help="play on the board of this pack of the mix (default: "
                         "the mix pack's `board:`, else the first pack with a setup for the players)"),
        ]):
            f = opt(f)
        return f
    return wrap


def _job(refs: list[str], players: int, seed: int, bots: str, board: str | None = None, **kw):
    """The run's Job for packs that load and have a setup for `players` on the board asked for (the
    mix's default board for `players` if none), its ruleset, and the pack whose board it is."""
    from swdsl.cli import _board, _loaded_or_exit
    from swdsl.lab.bots import seat_specs
    from swdsl.sim import Job, keep

    loaded = _loaded_or_exit(refs)
    board = _board(loaded, board) or (loaded.mix.board_for(players) if loaded.mix else None)
    rs = loaded.ruleset_for(board) if board else loaded.ruleset
    if players not in rs.setups:
        raise click.BadParameter(f"the pack{f' {board}' if board else ''} has no setup for {players} players (it "
                                 f"has: {', '.join(map(str, sorted(rs.setups))) or 'none'})", param_hint="--players")
    try:
        specs = seat_specs(bots, players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None
    job = Job(tuple(refs), players, seed, specs, board if len(loaded.manifests) > 1 else None, **kw)
    keep(job.packs, job.board, players, rs)
    return job, rs


def _play(job, games: int, jobs: int, scheduler: str | None, label: str):
    """Run the games with a progress bar on a terminal's stderr; Ctrl-C gives the
    games finished so far (the run is marked partial)."""
    from swdsl.cli import _show
    from swdsl.lab.executors import MissingExtra, SchedulerError
    from swdsl.saves import SaveProblem
    from swdsl.sim import simulate as run

    with _progress(games, label) as progress:
        try:
            return run(job, games, jobs, scheduler, progress)
        except MissingExtra as err:
            click.echo(f"{click.get_current_context().command_path}: SW330 {err}", err=True)
            click.echo(f"      hint: {err.hint}", err=True)
            sys.exit(2)
        except SchedulerError as err:
            click.echo(f"{click.get_current_context().command_path}: SW331 {err}", err=True)
            click.echo("      hint: start one with `dask scheduler` and workers with `dask worker ADDRESS`, "
                       "or leave out --scheduler", err=True)
            sys.exit(1)
        except SaveProblem as err:
            _show([err.diagnostic], {})
            sys.exit(1)


@contextmanager
def _progress(total: int, label: str):
    """A progress bar on stderr while stderr is a terminal (so it shows when stdout
    is redirected, and stays out of pipes and logs); None otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    import time

    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True, auto_refresh=False)
    task = bar.add_task(label, total=total)
    last = [0.0]

    def advance(n: int) -> None:
        bar.advance(task, n)
        if time.monotonic() - last[0] > 0.1:
            last[0] = time.monotonic()
            bar.refresh()
    bar.start()
    try:
        yield advance
    finally:
        bar.stop()


def _played(rs, results, board: str | None) -> str:
    """Which packs (by name), whose board, and which map or boards the games were played on."""
    boards: dict[str, int] = {}
    for r in results:
        boards[r.board] = boards.get(r.board, 0) + 1
    if len(boards) == 1:
        where = f"map {next(iter(boards))}"
    else:
        common = sorted(boards.items(), key=lambda kv: -kv[1])[:3]
        where = (f"{len(boards)} different board layouts (most played: "
                 + ", ".join(f"{b} ×{n}" for b, n in common) + ")")
    return f"packs {rs.name}, {f'the board of {board}, ' if board else ''}{where}"


def _warn_no_conquest(out: dict) -> None:
    if out["games"] and out["games_without_conquest"] == out["games"]:
        click.echo(f"{click.get_current_context().command_path}: SW332 (warning) none of the {out['games']} games "
                   "had a single conquest", err=True)
        click.echo("      hint: check the pack's entry rule (`modify conquest.entry set true when …`): races may have "
                   "nowhere to enter", err=True)


@click.command()
@_game_options("random", 10)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--check-invariants", is_flag=True, help="check the invariants after every action")
@click.option("--save-dir", type=click.Path(file_okay=False), help="write each game as a replayable JSON file")
@click.option("--trace", is_flag=True, help="tell each game as a readable log")
def simulate(players, games, seed, bots, jobs, scheduler, packs, board, fmt, check_invariants, save_dir, trace) -> None:
    """Play games with bots and report wins, scores and speed."""
    from swdsl.cli import _display, _packs_arg
    from swdsl.files import describe
    from swdsl.packs.identity import saved_packs
    from swdsl.sim import summary

    refs = _packs_arg(packs)
    job, rs = _job(refs, players, seed, bots, board, check_invariants=check_invariants, save_dir=save_dir,
                   trace=trace)
    if save_dir:
        folder = Path(save_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            click.echo(f"{save_dir}:1:1: SW310 cannot make the folder for saved games: {describe(err)}", err=True)
            click.echo("      hint: choose a --save-dir you can write", err=True)
            sys.exit(1)
        job = attrs.evolve(job, saved_packs=json.dumps(saved_packs(refs, folder, job.board)))
        clash = [f for i in range(games) if (f := folder / f"game-{seed}-{i:05d}.json").exists()]
        if clash:
            click.echo(f"{_display(clash[0])}:1:1: SW301 a saved game would be overwritten "
                       f"({len(clash)} file(s))", err=True)
            click.echo("      hint: choose another --save-dir or --seed, or remove the old files", err=True)
            sys.exit(1)
    run = _play(job, games, jobs, scheduler, "simulating")
    out = summary(run)
    out["packs_played"] = rs.name
    out["board_of"] = job.board
    out["discarded"] = sorted(k for _, k in rs.setups[players].discarded)
    if trace and fmt == "json":
        out["traces"] = [r.trace for r in run.results]
    elif trace:
        for r in run.results:
            click.echo(f"Game {r.index}\n{r.trace}\n")
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
    else:
        partial = f" — PARTIAL: interrupted after {out['games']} of {games} games" if run.partial else ""
        click.echo(f"{out['games']} games, {players} players, bots {', '.join(job.bots)}, seed {seed}{partial}")
        click.echo(f"  played: {_played(rs, run.results, job.board)}")
        if out["discarded"]:
            click.echo(f"  discarded: {', '.join(out['discarded'])} (they make no sense on this board: "
                       "never on offer)")
        for s in range(players):
            click.echo(f"  seat {s + 1}: {out['wins'][s]} wins, mean score {out['mean_score'][s]}")
        if out["team_wins"]:
            click.echo("  teams: " + ", ".join(f"{team} {n:g} wins" for team, n in out["team_wins"].items()))
        click.echo(f"  {out['seconds']} s, {out['games_per_second']} games/s, {out['actions']} actions")
        if out["unfinished"]:
            click.echo(f"  unfinished: {len(out['unfinished'])} game(s) hit the pack's action budget "
                       f"(budgets: actions) and are not counted in wins and scores")
        for line in out["errors"][:10]:
            click.echo(f"  stopped: {line}")
        if out["errors"]:
            click.echo(f"  failed: {len(out['errors'])} game(s) stopped by their content or the engine, "
                       "not counted in wins and scores")
        if check_invariants:
            v = out["invariant_violations"]
            click.echo(f"  invariants: {'all held' if not v else f'{len(v)} violation(s)'}")
            for line in v[:10]:
                click.echo(f"    {line}")
    _warn_no_conquest(out)
    if run.partial:
        sys.exit(130)
    if (check_invariants and out["invariant_violations"]) or out["errors"]:
        sys.exit(1)


@click.command()
@_game_options("heuristic", 200)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv", "html"]), default="text",
              show_default=True, help="html needs swdsl[report]")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="write the report to this file")
@click.option("--compare", "compare_packs", multiple=True, metavar="PACK",
              help="the other version of the pack(s): same seeds and bots, what changed and whether it is "
                   "significant")
def balance(players, games, seed, bots, jobs, scheduler, packs, board, fmt, out_file, compare_packs) -> None:
    """Which races, powers and combos win too often: a balance report over many games."""
    from swdsl.cli import _packs_arg
    from swdsl.lab import balance as lab_balance
    from swdsl.lab import render

    refs = _packs_arg(packs)
    job, _ = _job(refs, players, seed, bots, board)
    if compare_packs and fmt == "html":
        raise click.BadParameter("--compare writes text, json or csv", param_hint="--format")
    other = _job(list(compare_packs), players, seed, bots, board)[0] if compare_packs else None
    run = _play(job, games, jobs, scheduler, "balance")
    partial = run.partial
    if other is not None and not partial:
        from swdsl.lab.compare import compare, content_changes
        from swdsl.packs.loader import load_packs

        after = _play(other, games, jobs, scheduler, "balance (compared)")
        partial = after.partial
        played = {r.index for r in after.results}  # interrupted: compare the same games only
        before = attrs.evolve(run, results=[r for r in run.results if r.index in played], partial=partial)
        rep = lab_balance.report(after)
        doc = compare(lab_balance.report(before), rep, content_changes(load_packs(refs), load_packs(list(compare_packs)),
                                                                       (job.board, other.board)))
        text = {"json": render.as_json, "csv": render.comparison_csv}.get(fmt, render.comparison_text)(doc)
    else:
        rep = lab_balance.report(run)
        if fmt == "html":
            from swdsl.lab.executors import MissingExtra
            from swdsl.lab.html import as_html

            try:
                text = as_html(rep)
            except MissingExtra as err:
                click.echo(f"{click.get_current_context().command_path}: SW330 {err}", err=True)
                click.echo(f"      hint: {err.hint}", err=True)
                sys.exit(2)
        else:
            text = {"json": render.as_json, "csv": render.as_csv, "text": render.as_text}[fmt](rep)
    if out_file:
        try:
            Path(out_file).write_text(text + "\n", encoding="utf-8")
        except OSError as err:
            click.echo(printable(f"{out_file}:1:1: SW333 cannot write the report: {err.strerror or err}"), err=True)
            click.echo("      hint: choose a file in a folder that exists and that you may write to", err=True)
            sys.exit(1)
        click.echo(printable(f"{out_file}: {rep['games']} games{' (partial)' if partial else ''}"))
    else:
        click.echo(text)
    integrity = dict(rep["integrity"], games=rep["games"])
    _warn_no_conquest(integrity)
    if partial:
        sys.exit(130)
