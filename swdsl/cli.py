"""The command line: check | test | info | simulate | balance | replay | reference.

Exit codes: 0 success, 1 findings or failures, 2 usage errors. No input a user
gives — packs, maps, scenarios, saved games, arguments — ends in a traceback.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from swdsl.diagnostics import Diagnostic, PackError, Span, printable, render_text, use_color
from swdsl.files import describe, file_kind, read_text
from swdsl.resources import bundled_packs_dir, default_pack


class _Group(click.Group):
    """The command group: `-h` as `--help`, bare `swdsl` prints the help, usage
    errors in our format with exit 2, Ctrl-C exits 130."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
        kwargs.setdefault("invoke_without_command", True)
        super().__init__(*args, **kwargs)

    def main(self, *args, **kwargs):  # usage errors in our format, exit 2
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except click.UsageError as err:
            cmd = err.ctx.command_path if err.ctx else "swdsl"
            click.echo(f"{cmd}: SW300 {err.format_message()}", err=True)
            click.echo(f"      hint: see '{cmd} --help'", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.ClickException as err:
            err.show()
            sys.exit(err.exit_code)


@click.group(cls=_Group)
@click.version_option(package_name="swdsl")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Small World rules engine and pack tools."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _show(diags: list[Diagnostic], sources: dict[str, str]) -> None:
    if diags:
        click.echo(render_text(diags, sources, use_color(sys.stderr)), err=True)


def _packs_arg(packs: tuple[str, ...]) -> list[str]:
    return list(packs) or [default_pack()]


def _ruleset_or_exit(refs: list[str]):
    """The compiled packs, or their diagnostics and exit 1."""
    from swdsl.packs.loader import load_ruleset

    try:
        return load_ruleset(refs)
    except PackError as err:
        _show([_relative(d) for d in err.diagnostics], {})
        sys.exit(1)


# ---- check --------------------------------------------------------------------


def _pack_root(path: Path) -> Path | None:
    """The pack folder `path` lies in, if any."""
    for folder in [path] + list(path.parents):
        if file_kind(folder / "pack.yaml") == "file":
            return folder
    return None


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif", "junit"]), default="text")
@click.option("--strict", is_flag=True, help="warnings fail too")
def check(paths: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Validate packs (folders) or single files, the packs' scenario tests included.
    No argument: the pack the current folder is in, else the bundled packs."""
    from swdsl.packs.loader import bundled_names
    from swdsl.report import render

    here = _pack_root(Path.cwd())
    default = (str(here),) if here is not None else (str(bundled_packs_dir()),)
    targets = [t for path in (paths or default) for t in _expand_pack_folders(path)]
    missing = [t for t in targets if not file_kind(Path(t)) and not file_kind(bundled_packs_dir() / t)]
    if missing:
        raise click.UsageError(f"no such pack or file: {missing[0]} (give a pack folder, a file in a pack, or a "
                               f"bundled pack name: {bundled_names()})")
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    packs: dict[str, list[str]] = {}
    try:
        _check_targets(targets, diags, sources, packs)
    except KeyboardInterrupt:
        click.echo(render(fmt, _dedupe(diags), sources, packs, strict, use_color(sys.stdout)))
        click.echo("interrupted: a partial result (the packs checked so far)", err=True)
        sys.exit(130)
    diags = _dedupe(diags)
    click.echo(render(fmt, diags, sources, packs, strict, use_color(sys.stdout)))
    failed = any(d.is_error for d in diags) or (strict and diags)
    sys.exit(1 if failed else 0)


def _check_targets(targets: list[str], diags: list[Diagnostic], sources: dict[str, str],
                   packs: dict[str, list[str]]) -> None:
    from swdsl.packs.loader import load_packs

    for t in targets:
        p = Path(t) if file_kind(Path(t)) else bundled_packs_dir() / t
        only = None
        if file_kind(p) == "file":
            root = _pack_root(p.parent)
            only = _display(p)
            if root is None:
                diags.append(Diagnostic(only, Span(), "SW235", "this file is not inside a pack",
                                        "files are checked with their pack's terrains and markers; "
                                        "put it in a folder with a pack.yaml"))
                packs.setdefault(only, []).append(only)
                continue
            p = root
        loaded = load_packs([str(p)])
        found = list(loaded.diagnostics)
        texts = dict(loaded.sources)
        if loaded.ruleset is not None:
            found += _scenario_problems(p, loaded.ruleset, texts)
        sources.update({_display(Path(k)): v for k, v in texts.items()})
        found = [_relative(d) for d in found]
        name = loaded.manifests[-1].name if loaded.manifests else t
        if only is not None:
            found = [d for d in found if d.path == only]
            packs.setdefault(name, []).append(only)
        else:
            packs.setdefault(name, []).extend(sorted({_display(Path(k)) for k in texts}))
        diags.extend(found)


def _scenario_problems(pack: Path, ruleset, texts: dict[str, str]) -> list[Diagnostic]:
    """Every problem of the pack's scenario files, checked without running them."""
    from swdsl.scenarios import read_file, scenario_files, validate

    out: list[Diagnostic] = []
    for path in scenario_files(pack):
        found, problems = read_file(path)
        out += problems
        for span, sc in found:
            out += validate(str(path), ruleset, sc, span)
        text = read_text(path, [])
        if text is not None:
            texts[str(path)] = text
    return out


def _expand_pack_folders(path: str) -> list[str]:
    """A folder holding packs (and no pack.yaml of its own) means each of them."""
    p = Path(path)
    if file_kind(p) == "dir" and file_kind(p / "pack.yaml") != "file":
        inner = sorted(str(c) for c in p.iterdir() if file_kind(c / "pack.yaml") == "file")
        if inner:
            return inner
    return [path]


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        key = (d.path, d.span, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _display(path: Path) -> str:
    """Paths under the current folder are shown relative to it."""
    full = path.resolve()
    try:
        return str(full.relative_to(Path.cwd()))
    except ValueError:
        return str(full)


def _relative(d: Diagnostic) -> Diagnostic:
    from attrs import evolve

    return evolve(d, path=_display(Path(d.path)))


# ---- test ---------------------------------------------------------------------


@main.command("test")
@click.argument("packs", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "junit"]), default="text")
def test_cmd(packs: tuple[str, ...], fmt: str) -> None:
    """Run the scenario tests in each pack's tests/ folder (no argument: the pack
    the current folder is in, else every bundled pack). Ctrl-C stops at once and
    reports what finished."""
    from swdsl.packs.loader import load_ruleset, resolve_pack
    from swdsl.report import junit_suites
    from swdsl.scenarios import read_file, run_scenario, scenario_files

    here = _pack_root(Path.cwd())
    refs = list(packs) or ([str(here)] if here else sorted(p.name for p in bundled_packs_dir().iterdir()
                                                            if file_kind(p / "tests") == "dir"))
    failed = interrupted = False
    suites: list[tuple[str, list]] = []
    try:
        for ref in refs:
            try:
                rs = load_ruleset([ref])
            except PackError as err:
                _show([_relative(d) for d in err.diagnostics], {})
                failed = True
                continue
            outcomes: list = []
            suites.append((rs.name, outcomes))
            for f in scenario_files(resolve_pack(ref)):
                found, problems = read_file(f)
                if problems:
                    _show([_relative(d) for d in problems], {})
                    failed = True
                for span, sc in found:
                    outcomes.append(run_scenario(f, sc, span, rs))
                    if fmt == "text":
                        _show_failures(outcomes[-1])
            failed = failed or not outcomes
    except KeyboardInterrupt:
        interrupted = True
    for name, outcomes in suites:
        bad = sum(bool(o.failures) for o in outcomes)
        failed = failed or bool(bad)
        if fmt == "text":
            click.echo(f"{name}: {len(outcomes) - bad} passed, {bad} failed")
    if fmt == "junit":
        click.echo(junit_suites([(name, [(_display(Path(o.path)), o.name,
                                          [f"{_display(Path(fl.path))}:{fl.line}: {fl.message}" for fl in o.failures])
                                         for o in outcomes]) for name, outcomes in suites]))
    if interrupted:
        click.echo("interrupted: a partial result (the scenarios that finished)", err=True)
        sys.exit(130)
    sys.exit(1 if failed else 0)


def _show_failures(outcome) -> None:
    for fl in outcome.failures:
        click.echo(printable(f"{_display(Path(fl.path))}:{fl.span.line}:{fl.span.col}: FAIL {outcome.name}: "
                             f"{fl.message}"))


# ---- info ---------------------------------------------------------------------


@main.command()
@click.argument("packs", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def info(packs: tuple[str, ...], fmt: str) -> None:
    """What a pack contains: races, powers, markers, rules and maps."""

    refs = _packs_arg(packs)
    rs = _ruleset_or_exit(refs)
    data = {
        "name": rs.name,
        "races": [{"name": r.name, "tokens": r.tokens, "supply": r.supply, "tags": list(r.tags),
                   "neutral": r.neutral, "doc": r.doc} for r in rs.races.values()],
        "powers": [{"name": p.name, "tokens": p.tokens, "tags": list(p.tags), "doc": p.doc}
                   for p in rs.powers.values()],
        "markers": [{"name": m.name, "kind": m.kind, "defense": m.defense, "immune": m.immune, "limit": m.limit,
                     "doc": m.doc} for m in rs.markers.values()],
        "rules": [{"name": r.name, "doc": r.doc} for r in rs.rules],
        "maps": [{"name": s.board.name, "players": n, "regions": len(s.board), "borders": s.board.border_count,
                  "rounds": s.rounds} for n, s in sorted(rs.setups.items()) if s.board is not None],
        "faces": [{"name": face.name, "size": size, "regions": len(face), "borders": face.border_count}
                  for size, face in _board_faces(rs)],
        "market": {"visible": rs.market.visible, "payment": rs.market.payment,
                   "columns": [list(c) for c in rs.market.columns]},
        "setup": [{"players": n, "board": s.board.name if s.board else
                   ", ".join(f"{count} {size}" for size, count in s.layout.sizes),  # type: ignore[union-attr]
                   "rounds": s.rounds, "coins": s.coins, "seats": [list(x) for x in s.seats]}
                  for n, s in sorted(rs.setups.items())],
        "bank": rs.bank, "die": list(rs.die),
    }
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    console.print(Text(printable(rs.name), style="bold"))
    paid = "on the combos above" if rs.market.payment == "combos" else "to the bank"
    columns = f", columns {data['market']['columns']}" if rs.market.columns else ""
    console.print(Text(f"market: {rs.market.visible} combos on offer, paid {paid}{columns}; "
                       f"bank {rs.bank} coins; die {list(rs.die)}"))
    for title, rows, cols in (
        ("Races", data["races"], ("name", "tokens", "supply", "doc")),
        ("Powers", data["powers"], ("name", "tokens", "doc")),
        ("Markers", data["markers"], ("name", "kind", "defense", "limit", "doc")),
        ("Rules", data["rules"], ("name", "doc")),
        ("Setup", data["setup"], ("players", "board", "rounds", "coins")),
        ("Maps", data["maps"], ("players", "name", "regions", "borders", "rounds")),
        ("Board faces", data["faces"], ("size", "name", "regions", "borders")),
    ):
        if not rows and title in ("Maps", "Board faces"):
            continue
        table = Table(title=f"{title} ({len(rows)})")
        for c in cols:
            table.add_column(c)
        for row in rows:  # pack text is data, never markup
            table.add_row(*[Text(printable(str(row[c])) if row[c] is not None else "—") for c in cols])
        console.print(table)


def _board_faces(rs) -> list:
    """(size, face) of the modular boards of the ruleset's setups, each face once."""
    seen, out = set(), []
    for setup in rs.setups.values():
        for size, face in setup.layout.faces if setup.layout else ():
            if face.name not in seen:
                seen.add(face.name)
                out.append((size, face))
    return out


# ---- simulate, balance ---------------------------------------------------------


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
            click.option("--seed", type=int, default=0, show_default=True),
            click.option("--bots", type=_Bots(), default=default_bots, show_default=True,
                         help="random, greedy, heuristic, search or search:N (N playouts per decision); "
                              "a comma list gives each seat its own"),
            click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
                         help="processes on this machine"),
            click.option("--scheduler", metavar="ADDRESS", help="run on a Dask cluster (needs swdsl[dask])"),
            click.option("--pack", "packs", multiple=True,
                         help="pack name or folder (repeat to mix); default: the bundled default pack"),
        ]):
            f = opt(f)
        return f
    return wrap


def _job(refs: list[str], players: int, seed: int, bots: str, **kw):
    """The run's Job for packs that load and have a setup for `players`, or the diagnostics."""
    from swdsl.lab.bots import seat_specs
    from swdsl.sim import Job

    rs = _ruleset_or_exit(refs)
    if players not in rs.setups:
        raise click.BadParameter(f"the pack has no setup for {players} players (it has: "
                                 f"{', '.join(map(str, sorted(rs.setups))) or 'none'})", param_hint="--players")
    try:
        specs = seat_specs(bots, players)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None
    return Job(tuple(refs), players, seed, specs, **kw), rs


def _play(job, games: int, jobs: int, scheduler: str | None, label: str):
    """Run the games with a progress bar on a terminal's stderr; Ctrl-C gives the
    games finished so far (the run is marked partial)."""
    from swdsl.lab.executors import MissingExtra, SchedulerError
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


def _played(rs, results) -> str:
    """Which packs (by name) and which map or boards the games were played on."""
    boards: dict[str, int] = {}
    for r in results:
        boards[r.board] = boards.get(r.board, 0) + 1
    if len(boards) == 1:
        where = f"map {next(iter(boards))}"
    else:
        common = sorted(boards.items(), key=lambda kv: -kv[1])[:3]
        where = (f"{len(boards)} different board layouts (most played: "
                 + ", ".join(f"{b} ×{n}" for b, n in common) + ")")
    return f"packs {rs.name}, {where}"


def _warn_no_conquest(out: dict) -> None:
    if out["games"] and out["games_without_conquest"] == out["games"]:
        click.echo(f"{click.get_current_context().command_path}: SW332 (warning) none of the {out['games']} games "
                   "had a single conquest", err=True)
        click.echo("      hint: check the pack's entry rule (`modify conquest.entry set true when …`): races may have "
                   "nowhere to enter", err=True)


@main.command()
@_game_options("random", 10)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--check-invariants", is_flag=True, help="check the invariants after every action")
@click.option("--save-dir", type=click.Path(file_okay=False), help="write each game as a replayable JSON file")
@click.option("--trace", is_flag=True, help="tell each game as a readable log")
def simulate(players, games, seed, bots, jobs, scheduler, packs, fmt, check_invariants, save_dir, trace) -> None:
    """Play games with bots and report wins, scores and speed."""
    from swdsl.sim import summary

    refs = _packs_arg(packs)
    job, rs = _job(refs, players, seed, bots, check_invariants=check_invariants, save_dir=save_dir, trace=trace)
    if save_dir:
        folder = Path(save_dir)
        folder.mkdir(parents=True, exist_ok=True)
        clash = [f for i in range(games) if (f := folder / f"game-{seed}-{i:05d}.json").exists()]
        if clash:
            click.echo(f"{_display(clash[0])}:1:1: SW301 a saved game would be overwritten "
                       f"({len(clash)} file(s))", err=True)
            click.echo("      hint: choose another --save-dir or --seed, or remove the old files", err=True)
            sys.exit(1)
    run = _play(job, games, jobs, scheduler, "simulating")
    out = summary(run)
    out["packs_played"] = rs.name
    if trace:
        for r in run.results:
            click.echo(f"Game {r.index}\n{r.trace}\n")
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
    else:
        partial = f" — PARTIAL: interrupted after {out['games']} of {games} games" if run.partial else ""
        click.echo(f"{out['games']} games, {players} players, bots {', '.join(job.bots)}, seed {seed}{partial}")
        click.echo(f"  played: {_played(rs, run.results)}")
        for s in range(players):
            click.echo(f"  seat {s + 1}: {out['wins'][s]} wins, mean score {out['mean_score'][s]}")
        click.echo(f"  {out['seconds']} s, {out['games_per_second']} games/s, {out['actions']} actions")
        for line in out["errors"][:10]:
            click.echo(f"  stopped: {line}")
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


@main.command()
@_game_options("heuristic", 200)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv", "html"]), default="text",
              show_default=True, help="html needs swdsl[report]")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="write the report to this file")
@click.option("--compare", "compare_packs", multiple=True, metavar="PACK",
              help="the other version of the pack(s): same seeds and bots, what changed and whether it is "
                   "significant")
def balance(players, games, seed, bots, jobs, scheduler, packs, fmt, out_file, compare_packs) -> None:
    """Which races, powers and combos win too often: a balance report over many games."""
    from swdsl.lab import balance as lab_balance
    from swdsl.lab import render

    refs = _packs_arg(packs)
    job, _ = _job(refs, players, seed, bots)
    if compare_packs and fmt == "html":
        raise click.BadParameter("--compare writes text, json or csv", param_hint="--format")
    run = _play(job, games, jobs, scheduler, "balance")
    rep = lab_balance.report(run)
    partial = run.partial
    if compare_packs:
        from swdsl.lab.compare import compare, content_changes
        from swdsl.packs.loader import load_packs

        other, _ = _job(list(compare_packs), players, seed, bots)
        if not partial:
            after = _play(other, games, jobs, scheduler, "balance (compared)")
            partial = after.partial
            doc = compare(rep, lab_balance.report(after),
                          content_changes(load_packs(refs), load_packs(list(compare_packs))))
            text = {"json": render.as_json, "csv": _comparison_csv}.get(fmt, render.comparison_text)(doc)
        else:
            text = render.as_text(rep)
    else:
        if fmt == "html":
            from swdsl.lab.executors import MissingExtra
            from swdsl.lab.html import as_html

            try:
                text = as_html(rep)
            except MissingExtra as err:
                click.echo(f"swdsl balance: SW330 {err}", err=True)
                click.echo(f"      hint: {err.hint}", err=True)
                sys.exit(2)
        else:
            text = {"json": render.as_json, "csv": render.as_csv, "text": render.as_text}[fmt](rep)
    if out_file:
        try:
            Path(out_file).write_text(text + "\n", encoding="utf-8")
        except OSError as err:
            click.echo(f"{out_file}:1:1: SW333 cannot write the report: {err.strerror or err}", err=True)
            click.echo("      hint: choose a file in a folder that exists and that you may write to", err=True)
            sys.exit(1)
        click.echo(f"{out_file}: {rep['games']} games{' (partial)' if partial else ''}")
    else:
        click.echo(text)
    integrity = dict(rep["integrity"], games=rep["games"])
    _warn_no_conquest(integrity)
    if partial:
        sys.exit(130)


def _comparison_csv(doc: dict) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("kind", "name", "games_before", "games_after", "before", "after", "change", "low", "high",
                "significant"))
    for kind in ("races", "powers", "seats"):
        for r in doc[kind]:
            w.writerow((kind[:-1], r["name"], r["games_before"], r["games_after"], r["before"], r["after"],
                        r["change"], r["low"], r["high"], r["significant"]))
    return buf.getvalue()


# ---- replay -------------------------------------------------------------------


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--narrate", is_flag=True, help="tell the game as a readable log")
def replay(file: str, narrate: bool) -> None:
    """Replay a saved game; exit 0 only if the final state matches its checksum."""
    from swdsl.engine.errors import ContentError, engine_bug
    from swdsl.engine.legal import IllegalAction
    from swdsl.engine.replay import actions_of, checksum
    from swdsl.engine.replay import replay as run
    from swdsl.lab.narrate import narrate_record

    def fail(code: str, message: str, hint: str, line: int = 1, col: int = 1) -> None:
        click.echo(f"{file}:{line}:{col}: {code} {message}", err=True)
        click.echo(f"      hint: {hint}", err=True)
        sys.exit(1)

    problems: list[Diagnostic] = []
    text = read_text(Path(file), problems, shown=file)
    if text is None:
        _show(problems, {})
        sys.exit(1)
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as err:
        fail("SW311", f"not valid JSON: {err.msg}", "the file is damaged; save the game again", err.lineno, err.colno)
    need = {"packs": list, "players": int, "seed": int, "actions": list, "checksum": str}
    if not isinstance(rec, dict) or any(not isinstance(rec.get(k), t) for k, t in need.items()):
        fail("SW312", "not a saved game", "a saved game has packs, players, seed, actions and checksum")
    rs = _ruleset_or_exit([str(p) for p in rec["packs"]])
    if rec["players"] not in rs.setups:
        fail("SW313", f"the packs have no setup for {rec['players']} players", "the packs changed since the save")
    story = None
    try:
        actions_of(rec)
    except ValueError as err:
        fail("SW312", f"malformed action list: {err}", "a saved game's actions are [kind, a, b] lists")
    try:
        if narrate:
            game, story = narrate_record(rs, rec)
        else:
            game = run(rs, rec)
    except IllegalAction as err:
        fail("SW314", f"the game does not replay: {err}", "the packs or the engine changed since the game was saved")
    except ContentError as err:
        fail("SW314", f"the game does not replay: {err.where}: {err.code} {err.message}", err.hint)
    except Exception as err:  # noqa: BLE001 - an engine bug is reported as one, never a traceback
        fail("SW599", engine_bug(err, "the replay").split(" ", 1)[1], "report it with this saved game")
    if story is not None:
        click.echo(story)
    actual = checksum(game)
    if actual != rec["checksum"]:
        fail("SW315", "the final state differs from the saved checksum",
             "the packs or the engine changed since the game was saved")
    click.echo(f"{file}: replayed {len(rec['actions'])} actions; final state matches")


# ---- reference ----------------------------------------------------------------


@main.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False))
def reference(file: str | None) -> None:
    """Print the language reference (generated from the engine's vocabulary), or
    rewrite it in FILE between its reference markers (docs/language.md)."""
    from swdsl.lang.reference import render, update

    if file is None:
        click.echo(render())
        return
    try:
        changed = update(Path(file))
    except (OSError, UnicodeError) as err:
        click.echo(f"{file}:1:1: SW310 cannot write the file: {describe(err)}", err=True)
        click.echo("      hint: give the docs/language.md of a checkout you can write", err=True)
        sys.exit(1)
    except ValueError as err:
        click.echo(f"{file}:1:1: SW316 {err}", err=True)
        click.echo("      hint: put the two marker lines where the reference goes", err=True)
        sys.exit(1)
    click.echo(f"{file}: {'updated' if changed else 'up to date'}")


if __name__ == "__main__":  # pragma: no cover
    main()
