"""Reading the files users give: one careful path for every kind of file.

Packs, maps, scenarios and saved games are read here: a size budget (read no
more than the budget, so /dev/zero or a 6 MB map cannot hang a tool), UTF-8
with its errors placed at their line and column, NUL bytes refused, a byte
order mark dropped, and every file-system problem (a missing file, a name too
long or with a NUL byte, no permission, a directory) turned into a diagnostic.
`inside` keeps the paths a pack names inside its folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from swdsl.diagnostics import Diagnostic, Span

MAX_RULES_BYTES = 256 * 1024  # a rules file (the parser's own limit)
MAX_YAML_BYTES = 1024 * 1024  # pack.yaml, a map, a scenario file, a saved game


def read_text(path: Path, diags: list[Diagnostic], limit: int = MAX_YAML_BYTES, shown: str = "") -> str | None:
    """The file's text, or None with a diagnostic (SW220 unreadable, SW221 not text, SW005 too large)."""
    name = shown or str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the name
        diags.append(Diagnostic(name, Span(), "SW220", f"cannot read file: {describe(err)}",
                                "check the path and permissions"))
        return None
    if len(data) > limit:
        diags.append(Diagnostic(name, Span(), "SW005", f"file larger than {limit // 1024} KiB",
                                "split the content into several files"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col = _position(data, err.start)
        diags.append(Diagnostic(name, Span(line, col, line, col + 1), "SW221",
                                f"the file is not UTF-8 text (byte 0x{data[err.start]:02x})", "save it as UTF-8"))
        return None
    if "\x00" in text:
        at = text.index("\x00")
        line, col = _position(text, at)
        diags.append(Diagnostic(name, Span(line, col, line, col + 1), "SW221", "the file contains NUL bytes",
                                "save it as plain text"))
        return None
    return text.removeprefix("\ufeff")  # a byte-order mark some editors write


def _position(data: bytes | str, at: int) -> tuple[int, int]:
    nl = b"\n" if isinstance(data, bytes) else "\n"
    line = data[:at].count(nl) + 1  # type: ignore[arg-type]
    col = at - (data.rfind(nl, 0, at) + 1) + 1  # type: ignore[arg-type]
    return line, col


def describe(err: BaseException) -> str:
    """An OS error in words, without Python's repr."""
    if isinstance(err, ValueError):
        return "the name contains a NUL byte"
    if isinstance(err, OSError):
        return err.strerror or type(err).__name__
    return str(err)


def file_kind(path: Path) -> str:
    """"file", "dir" or "" (missing, unreadable, or a name the system refuses)."""
    try:
        return "dir" if path.is_dir() else "file" if path.is_file() else ""
    except (OSError, ValueError):
        return ""


def unreadable_folders(folder: Path) -> list[tuple[str, str]]:
    """(folder, reason) for every folder under `folder` that cannot be listed
    (a glob would skip them silently)."""
    found: list[tuple[str, str]] = []
    for _ in os.walk(folder, onerror=lambda err: found.append((err.filename or str(folder), describe(err)))):
        pass
    return found


def inside(folder: Path, path: Path) -> bool:
    """Whether `path`, once links are followed, lies inside `folder`."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False
