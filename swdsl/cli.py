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

from swdsl.diagnostics import Diagnostic, PackError, Span, render_text
from swdsl.resources import bundled_packs_dir, default_pack


class _Group(click.Group):
    def main(self, *args, **kwargs):  # usage errors in our format, exit 2
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as err:
            cmd = err.ctx.command_path if err.ctx else "swdsl"
            click.echo(f"{cmd}: SW300 {err.format_message()}", err=True)
            click.echo(f"      hint: see '{cmd} --help'", err=True)
            sys.exit(2)
        except click.exceptions.Abort:  # Ctrl-C outside a run (runs keep their finished games)
            click.echo("interrupted", err=True)
            sys.exit(130)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.ClickException as err:
            err.show()
            sys.exit(err.exit_code)


@click.group(cls=_Group)
@click.version_option(package_name="swdsl")
def main() -> None:
    """Small World rules engine and pack tools."""


def _show(diags: list[Diagnostic], sources: dict[str, str]) -> None:
    if diags:
        click.echo(render_text(diags, sources), err=True)


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
    for folder in [path] + list(path.parents):
        if (folder / "pack.yaml").is_file():
            return folder
    return None


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif", "junit"]), default="text")
@click.option("--strict", is_flag=True, help="warnings fail too")
def check(paths: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Validate packs (folders) or single files; no argument checks the bundled packs."""
    from swdsl.packs.loader import load_packs
    from swdsl.report import render

    targets = [t for path in (paths or (str(bundled_packs_dir()),)) for t in _expand_pack_folders(path)]
    diags: list[Diagnostic] = []
    sources: dict[str, str] = {}
    packs: dict[str, list[str]] = {}
    for t in targets:
        p = Path(t)
        if not p.exists() and "/" not in t and (bundled_packs_dir() / t).is_dir():
            p = bundled_packs_dir() / t
        if not p.exists():
            diags.append(Diagnostic(t, Span(), "SW222", f"no such pack or file '{t}'", "give a pack folder or a file"))
            packs.setdefault(t, [])
            continue
        only = None
        if p.is_file():
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
        sources.update({_display(Path(k)): v for k, v in loaded.sources.items()})
        found = [_relative(d) for d in loaded.diagnostics]
        if only is not None:
            found = [d for d in found if d.path == only]
            packs.setdefault(loaded.manifests[0].name if loaded.manifests else t, []).append(only)
        else:
            name = loaded.manifests[-1].name if loaded.manifests else t
            files = sorted({_display(Path(k)) for k in loaded.sources})
            packs.setdefault(name, []).extend(files)
        diags.extend(found)
    diags = _dedupe(diags)
    click.echo(render(fmt, diags, sources, packs, strict))
    failed = any(d.is_error for d in diags) or (strict and diags)
    sys.exit(1 if failed else 0)


def _expand_pack_folders(path: str) -> list[str]:
    """A folder holding packs (and no pack.yaml of its own) means each of them."""
    p = Path(path)
    if p.is_dir() and not (p / "pack.yaml").is_file():
        inner = sorted(str(c) for c in p.iterdir() if (c / "pack.yaml").is_file())
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
    """Run the scenario tests in each pack's tests/ folder."""
    from xml.sax.saxutils import escape, quoteattr

    from swdsl.packs.loader import load_ruleset, resolve_pack
    from swdsl.scenarios import load_file, scenario_files

    refs = list(packs) or sorted(p.name for p in bundled_packs_dir().iterdir() if (p / "tests").is_dir())
    failed = False
    suites = []
    for ref in refs:
        try:
            rs = load_ruleset([ref])
        except PackError as err:
            _show([_relative(d) for d in err.diagnostics], {})
            failed = True
            continue
        outcomes, problems = [], []
        files = scenario_files(resolve_pack(ref))
        for f in files:
            got, diags = load_file(f, rs)
            outcomes += got
            problems += [_relative(d) for d in diags]
        if problems:
            _show(problems, {})
            failed = True
        bad = [o for o in outcomes if o.failures]
        failed = failed or bool(bad) or not outcomes
        suites.append((rs.name, outcomes))
        if fmt == "text":
            for o in bad:
                for fl in o.failures:
                    click.echo(f"{_display(Path(fl.path))}:{fl.line}: FAIL {o.name}: {fl.message}")
            click.echo(f"{rs.name}: {len(outcomes) - len(bad)} passed, {len(bad)} failed "
                       f"({len(files)} files)")
    if fmt == "junit":
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
        for name, outcomes in suites:
            fails = sum(bool(o.failures) for o in outcomes)
            lines.append(f"  <testsuite name={quoteattr(name)} tests=\"{len(outcomes)}\" failures=\"{fails}\">")
            for o in outcomes:
                body = "".join(f"<failure message={quoteattr(fl.message)}>{escape(_display(Path(fl.path)))}:"
                               f"{fl.line}: {escape(fl.message)}</failure>" for fl in o.failures)
                lines.append(f"    <testcase classname={quoteattr(_display(Path(o.path)))} "
                             f"name={quoteattr(o.name)}>{body}</testcase>")
            lines.append("  </testsuite>")
        lines.append("</testsuites>")
        click.echo("\n".join(lines))
    sys.exit(1 if failed else 0)


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
        "boards": [{"players": n, "boards": ", ".join(f"{count} {size}" for size, count in s.layout.sizes),
                    "rounds": s.rounds} for n, s in sorted(rs.setups.items()) if s.layout is not None],
        "faces": [{"name": face.name, "size": size, "regions": len(face), "borders": face.border_count}
                  for size, face in _board_faces(rs)],
    }
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{rs.name}[/bold]")
    for title, rows, cols in (
        ("Races", data["races"], ("name", "tokens", "supply")),
        ("Powers", data["powers"], ("name", "tokens")),
        ("Markers", data["markers"], ("name", "kind", "defense", "limit")),
        ("Rules", data["rules"], ("name", "doc")),
        ("Maps", data["maps"], ("players", "name", "regions", "borders", "rounds")),
        ("Modular boards", data["boards"], ("players", "boards", "rounds")),
        ("Board faces", data["faces"], ("size", "name", "regions", "borders")),
    ):
        if not rows and title in ("Maps", "Modular boards", "Board faces"):
            continue
        table = Table(title=f"{title} ({len(rows)})")
        for c in cols:
            table.add_column(c)
        for row in rows:
            table.add_row(*[str(row[c]) if row[c] is not None else "—" for c in cols])
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
    from swdsl.engine.errors import ContentError
    from swdsl.engine.legal import IllegalAction
    from swdsl.engine.replay import checksum
    from swdsl.engine.replay import replay as run
    from swdsl.lab.narrate import narrate_record

    def fail(code: str, message: str, hint: str, line: int = 1, col: int = 1) -> None:
        click.echo(f"{file}:{line}:{col}: {code} {message}", err=True)
        click.echo(f"      hint: {hint}", err=True)
        sys.exit(1)

    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        fail("SW310", f"cannot read the saved game: {err}", "give a file written by `swdsl simulate --save-dir`")
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
        if narrate:
            game, story = narrate_record(rs, rec)
        else:
            game = run(rs, rec)
    except IllegalAction as err:
        fail("SW314", f"the game does not replay: {err}", "the packs or the engine changed since the game was saved")
    except ContentError as err:
        fail("SW314", f"the game does not replay: {err}", "the packs changed since the game was saved")
    except (TypeError, ValueError, KeyError, IndexError) as err:
        fail("SW312", f"malformed action list: {err}", "a saved game's actions are [kind, a, b] lists")
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
        click.echo(f"{file}:1:1: SW310 cannot read or write the file: {getattr(err, 'strerror', None) or err}",
                   err=True)
        sys.exit(1)
    except ValueError as err:
        click.echo(f"{file}:1:1: SW316 {err}", err=True)
        click.echo("      hint: put the two marker lines where the reference goes", err=True)
        sys.exit(1)
    click.echo(f"{file}: {'updated' if changed else 'up to date'}")


if __name__ == "__main__":  # pragma: no cover
    main()
