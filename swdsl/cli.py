"""The command line: check | test | info | simulate | balance | replay | new | reference.

Exit codes: 0 success, 1 findings or failures, 2 usage errors. No input a user
gives — packs, maps, scenarios, saved games, arguments — ends in a traceback.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from swdsl.diagnostics import Diagnostic, PackError, Span, printable, render_text, use_color
from swdsl.engine import build as engine_build
from swdsl.files import describe, file_kind, read_text
from swdsl.lab.commands import balance, simulate
from swdsl.resources import bundled_packs_dir, default_pack


class _Group(click.Group):
    """The command group: `-h` as `--help`, bare `swdsl` prints the help, usage
    errors in our format with exit 2, Ctrl-C exits 130."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
        kwargs.setdefault("invoke_without_command", True)
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if any("\0" in a for a in args):  # no file or pack name can hold one
            raise click.UsageError("an argument holds a NUL byte", ctx)
        return super().parse_args(ctx, args)

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
@click.version_option(package_name="swdsl", message=f"%(prog)s %(version)s ({engine_build()} engine)")
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


def _loaded_or_exit(refs: list[str]):
    """The compiled packs (a LoadedPack), or their diagnostics and exit 1."""
    from swdsl.packs.loader import load_packs

    loaded = load_packs(refs)
    errors = [d for d in loaded.diagnostics if d.is_error]
    if errors or loaded.ruleset is None:
        _show([_relative(d) for d in errors or [Diagnostic(",".join(refs), Span(), "SW222", "no pack loaded")]], {})
        sys.exit(1)
    return loaded


def _board(loaded, board: str | None, param: str = "--board") -> str | None:
    """`--board PACK`: a pack of the mix that has setups (a usage error otherwise)."""
    if board is not None and board not in loaded.boards:
        raise click.BadParameter(f"no pack of the mix named '{board}' provides a board (boards: "
                                 f"{', '.join(loaded.boards) or 'none'})", param_hint=param)
    return board


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
        with _rare_collections():
            _check_targets(targets, diags, sources, packs)
            if len(paths) > 1 and len(targets) == len(paths) and \
                    not any(file_kind(Path(t)) == "file" for t in targets) and not any(d.is_error for d in diags):
                _check_mix(targets, diags, packs)
    except KeyboardInterrupt:
        click.echo(render(fmt, _dedupe(diags), sources, packs, strict, use_color(sys.stdout)))
        click.echo("interrupted: a partial result (the packs checked so far)", err=True)
        sys.exit(130)
    diags = _dedupe(diags)
    click.echo(render(fmt, diags, sources, packs, strict, use_color(sys.stdout)))
    failed = any(d.is_error for d in diags) or (strict and diags)
    sys.exit(1 if failed else 0)


@contextmanager
def _rare_collections() -> Iterator[None]:
    """A check keeps most of what it builds (syntax trees, YAML nodes, rulesets): at Python's default
    pace the cycle collector spent a tenth of a check walking them again."""
    before = gc.get_threshold()
    gc.set_threshold(20_000, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


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
            found += _scenario_problems(p, loaded, texts)
        sources.update({_display(Path(k)): v for k, v in texts.items()})
        found = [_relative(d) for d in found]
        name = loaded.manifests[-1].name if loaded.manifests else t
        if only is not None:
            found = [d for d in found if d.path == only]
            packs.setdefault(name, []).append(only)
        else:
            packs.setdefault(name, []).extend(sorted({_display(Path(k)) for k in texts}))
        diags.extend(found)


def _check_mix(targets: list[str], diags: list[Diagnostic], packs: dict[str, list[str]]) -> None:
    """Several packs, each sound alone, checked as one mix: what only the mix shows (names two packs
    declare, content a board discards, missing equivalences: docs/mixing.md)."""
    from swdsl.packs.loader import load_packs

    loaded = load_packs([str(Path(t) if file_kind(Path(t)) else bundled_packs_dir() / t) for t in targets])
    diags.extend(_relative(d) for d in loaded.diagnostics)
    packs.setdefault("+".join(m.name for m in loaded.manifests) + " (mixed)", [])


def _scenario_problems(pack: Path, loaded, texts: dict[str, str]) -> list[Diagnostic]:
    """Every problem of the pack's scenario files, checked without running them."""
    from swdsl.scenarios import read_file, scenario_files, scenario_ruleset, validate
    from swdsl.scenarios.names import keyed

    out: list[Diagnostic] = []
    for path in scenario_files(pack):
        found, problems = read_file(path)
        out += problems
        for span, sc in found:
            rs, wrong = scenario_ruleset(loaded, sc, span, path)
            out += wrong
            if rs is not None:
                keyed(sc, rs)
                out += validate(str(path), rs, sc, span)
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
    try:
        full = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop, a name too long: shown as given
        full = path.absolute()
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
@click.option("--board", metavar="PACK", help="play the scenarios on the board of this pack of the mix "
              "(a scenario's `given: board:` comes first)")
def test_cmd(packs: tuple[str, ...], fmt: str, board: str | None) -> None:
    """Run the scenario tests in each pack's tests/ folder (no argument: the pack
    the current folder is in, else every bundled pack). Ctrl-C stops at once and
    reports what finished."""
    from swdsl.packs.loader import load_packs, resolve_pack
    from swdsl.report import junit_suites
    from swdsl.scenarios import read_file, run_scenario, scenario_files

    here = _pack_root(Path.cwd())
    refs = list(packs) or ([str(here)] if here else sorted(p.name for p in bundled_packs_dir().iterdir()
                                                            if file_kind(p / "tests") == "dir"))
    failed = interrupted = False
    suites: list[tuple[str, list]] = []
    try:
        for ref in refs:
            loaded = load_packs([ref])
            errors = [d for d in loaded.diagnostics if d.is_error]
            if errors or loaded.ruleset is None:
                _show([_relative(d) for d in errors], {})
                failed = True
                continue
            _board(loaded, board)
            outcomes: list = []
            suites.append((loaded.ruleset.name, outcomes))
            for f in scenario_files(resolve_pack(ref)):
                found, problems = read_file(f)
                if problems:
                    _show([_relative(d) for d in problems], {})
                    failed = True
                for span, sc in found:
                    outcomes.append(run_scenario(f, sc, span, loaded, board))
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
@click.option("--board", metavar="PACK", help="for a mix: the pack whose board to show (default: the mix's)")
def info(packs: tuple[str, ...], fmt: str, board: str | None) -> None:
    """What a pack (or a mix of packs) contains: races, powers, markers, rules, maps, and for a
    mix the board it is played on and what that board discards."""

    refs = _packs_arg(packs)
    loaded = _loaded_or_exit(refs)
    board = _board(loaded, board) or (loaded.mix.board_for() if loaded.mix else None)
    rs = loaded.ruleset_for(board) if board else loaded.ruleset
    data = {
        "name": rs.name,
        "board": board if len(loaded.manifests) > 1 else None, "boards": loaded.boards,
        "discarded": {n: sorted(k for _, k in s.discarded) for n, s in sorted(rs.setups.items()) if s.discarded},
        "races": [{"name": r.name, "shown": r.shown, "tokens": r.tokens, "supply": r.supply, "tags": list(r.tags),
                   "neutral": r.neutral, "doc": r.doc} for r in rs.races.values()],
        "powers": [{"name": p.name, "shown": p.shown, "tokens": p.tokens, "tags": list(p.tags), "doc": p.doc}
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
                   "rounds": s.rounds, "coins": s.coins, "seats": [list(x) for x in s.seats],
                   "teams": ", ".join(s.teams)}
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
    if data["board"]:
        others = [b for b in loaded.boards if b != board]
        console.print(Text(printable(f"board: {board}'s" + (f" (also: {', '.join(others)}, with --board)"
                                                              if others else ""))))
    alike: dict[tuple, list[int]] = {}
    for n, names in data["discarded"].items():
        alike.setdefault(tuple(names), []).append(n)
    for names, counts in alike.items():
        whom = "" if len(counts) == len(rs.setups) else f" for {', '.join(map(str, counts))} players"
        console.print(Text(printable(f"discarded{whom} (they make no sense on this board): " + ", ".join(names))))
    for title, rows, cols in (
        ("Races", data["races"], ("name", "tokens", "supply", "doc")),
        ("Powers", data["powers"], ("name", "tokens", "doc")),
        ("Markers", data["markers"], ("name", "kind", "defense", "limit", "doc")),
        ("Rules", data["rules"], ("name", "doc")),
        ("Setup", data["setup"], ("players", "board", "rounds", "coins") + (("teams",) if rs.team_score and any(
            s.teams for s in rs.setups.values()) else ())),
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


# ---- simulate, balance: swdsl/lab/commands.py ---------------------------------

main.add_command(simulate)
main.add_command(balance)


# ---- replay -------------------------------------------------------------------


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--narrate", is_flag=True, help="tell the game as a readable log")
def replay(file: str, narrate: bool) -> None:
    """Replay a saved game; exit 0 only if the final state matches its checksum."""
    from swdsl.lab.narrate import narrate_record
    from swdsl.saves import SaveProblem, replay_file

    try:
        game, story, warnings = replay_file(file, narrate_record if narrate else None)
    except SaveProblem as err:
        _show([err.diagnostic], {})
        sys.exit(1)
    except PackError as err:
        _show([_relative(d) for d in err.diagnostics], {})
        sys.exit(1)
    if story is not None:
        click.echo(story)
    _show(warnings, {})
    click.echo(f"{file}: replayed {len(game.actions)} actions; final state matches")


# ---- new ----------------------------------------------------------------------


@main.command()
@click.argument("name")
def new(name: str) -> None:
    """Create a working pack in the folder NAME: pack.yaml with an entry rule, a small
    map, one race, one power and scenarios; never overwrites anything."""
    from swdsl.scaffold import ScaffoldError, new_pack

    try:
        files = new_pack(Path(name))
    except ScaffoldError as err:
        code, message, hint = err.args
        click.echo(f"{name}: {code} {message}", err=True)
        click.echo(f"      hint: {hint}", err=True)
        sys.exit(2 if code == "SW300" else 1)
    click.echo(f"created pack {Path(name).resolve().name} in {name}/: " + ", ".join(f.as_posix() for f in files))
    click.echo(f"next: swdsl check {name}; swdsl test {name}; swdsl simulate --pack {name}")


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
