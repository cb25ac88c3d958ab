"""Saved games: written by `swdsl simulate --save-dir`, checked by `swdsl replay`.

A save names its packs (packs/identity.py) so that it replays from any folder,
and a replay that fails tells a pack changed since the save from an engine that
plays differently. Writing never replaces a file; reading never trusts the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from swdsl.diagnostics import Diagnostic, PackError, Span
from swdsl.engine.errors import ContentError, engine_bug
from swdsl.engine.legal import IllegalAction
from swdsl.engine.replay import actions_of, checksum, record
from swdsl.engine.replay import replay as play_record
from swdsl.engine.state import Game
from swdsl.files import describe, read_text
from swdsl.packs.identity import board_of, changed_packs, refs_of
from swdsl.packs.loader import load_packs

MAX_SAVE_BYTES = 16 * 1024 * 1024  # a game of 100,000 actions


class SaveProblem(Exception):
    """A saved game that cannot be written or replayed, as a diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic)  # the one argument: rebuilt as it was when sent between processes
        self.diagnostic = diagnostic


def _problem(path: str, code: str, message: str, hint: str, line: int = 1, col: int = 1,
             severity: str = "error") -> SaveProblem:
    return SaveProblem(Diagnostic(path, Span(line, col, line, col + 1), code, message, hint, severity))


def write_save(game: Game, path: Path, packs: dict) -> None:
    """Write `game` to `path`, which must not exist yet (O_EXCL: never over a file, nor through a link)."""
    text = json.dumps(record(game, packs))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise _problem(str(path), "SW301", "a saved game would be overwritten",
                          "choose another --save-dir or --seed, or remove the old files") from None
    except OSError as err:
        raise _problem(str(path), "SW310", f"cannot write the saved game: {describe(err)}",
                          "choose a --save-dir you can write") from None


def _a_name(ref: str) -> bool:
    """A pack reference a file system can take: no NUL byte, nothing UTF-8 cannot encode."""
    try:
        ref.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\0" not in ref


def replay_file(file: str, play: Callable[..., object] | None = None) -> tuple[Game, object, list[Diagnostic]]:
    """Replay the saved game in `file` with `play(ruleset, record)` (the engine's replay by
    default; it returns the game, or (game, extra)); the game, the extra and warnings.
    Raises SaveProblem, or PackError when its packs do not load."""
    rec = _read(file)
    refs = refs_of(rec.get("packs"), Path(file))
    if refs is None or not all(_a_name(ref) for ref in refs):
        raise _problem(file, "SW312", "the saved game does not name its packs",
                          "a saved game has packs, players, seed, actions and checksum")
    loaded = load_packs(refs)
    errors = [d for d in loaded.diagnostics if d.is_error]
    if errors or loaded.ruleset is None:
        raise PackError(errors)
    changed = changed_packs(rec["packs"], loaded)
    board = board_of(rec["packs"])
    if board is not None and board not in loaded.boards:
        raise _problem(file, "SW313", f"the game was played on the board of {board}, which no pack of the mix "
                       "provides now", "the packs changed since the save")

    def differs(code: str, message: str, hint: str) -> SaveProblem:
        if changed:
            return _problem(file, "SW318", f"pack `{changed[0]}` changed since this game was saved ({message})",
                               "replay it with the pack as it was when the game was saved (from version control)")
        return _problem(file, code, message, hint)

    rs = loaded.ruleset_for(board, rec["players"]) or loaded.ruleset
    if rec["players"] not in rs.setups:
        raise differs("SW313", f"the packs have no setup for {rec['players']} players", "the packs changed since the save")
    try:
        actions_of(rec)
    except ValueError as err:
        raise _problem(file, "SW312", f"malformed action list: {err}",
                          "a saved game's actions are [kind, a, b] lists") from None
    extra = None
    try:
        got = (play or play_record)(rs, rec)
        game, extra = got if isinstance(got, tuple) else (got, None)
    except IllegalAction as err:
        raise differs("SW314", f"the game does not replay: {err}", "the engine changed since the game was saved") from None
    except ContentError as err:
        raise differs("SW314", f"the game does not replay: {err.where}: {err.code} {err.message}", err.hint) from None
    except Exception as err:  # noqa: BLE001 - an engine bug is reported as one, never a traceback
        raise _problem(file, "SW599", engine_bug(err, "the replay").split(" ", 1)[1],
                          "report it with this saved game") from None
    if checksum(game) != rec["checksum"]:
        raise differs("SW315", "the final state differs from the saved checksum",
                      "the engine changed since the game was saved")
    warnings = [_problem(file, "SW318", f"pack `{changed[0]}` changed since this game was saved; the game still "
                            "replays to the same final state", "", severity="warning").diagnostic] if changed else []
    return game, extra, warnings


def _read(file: str) -> dict:
    problems: list[Diagnostic] = []
    text = read_text(Path(file), problems, shown=file, limit=MAX_SAVE_BYTES)
    if text is None:
        raise SaveProblem(problems[0])
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as err:
        raise _problem(file, "SW311", f"not valid JSON: {err.msg}", "the file is damaged; save the game again",
                          err.lineno, err.colno) from None
    except (RecursionError, ValueError) as err:  # nesting too deep, a number of thousands of digits
        raise _problem(file, "SW311", f"not a JSON file swdsl can read: {str(err).split(':')[0]}",
                          "the file is damaged; save the game again") from None
    need = {"players": int, "seed": int, "actions": list, "checksum": str}
    if not isinstance(rec, dict) or any(type(rec.get(k)) is not t for k, t in need.items()):
        raise _problem(file, "SW312", "not a saved game", "a saved game has packs, players, seed, actions and checksum")
    return rec
