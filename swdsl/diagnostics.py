"""Diagnostics: every problem a user can cause is one of these, never a traceback.

A diagnostic names a file position, a stable code (documented in docs/errors.md),
a message and a hint. Everything that reads user input collects them in a list so
that all problems are reported at once.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable

import attrs


@attrs.frozen
class Span:
    """A region of a source file, 1-based lines and columns, end exclusive."""

    line: int = 1
    col: int = 1
    end_line: int = 0
    end_col: int = 0

    @property
    def width(self) -> int:
        if self.end_line == self.line and self.end_col > self.col:
            return self.end_col - self.col
        return 1


@attrs.frozen
class Diagnostic:
    path: str
    span: Span
    code: str
    message: str
    hint: str = ""
    severity: str = "error"  # or "warning"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def headline(self) -> str:
        return f"{self.path}:{self.span.line}:{self.span.col}: {self.code} {self.message}"


class PackError(Exception):
    """Raised with the diagnostics that make a pack, map or scenario unusable."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.headline() for d in diagnostics))
        self.diagnostics = diagnostics


def use_color(stream) -> bool:
    """Colour on a terminal, never when piped or when NO_COLOR is set (no-color.org)."""
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A hint naming the closest known names (only the near-best), or ''."""
    names = sorted(set(choices))
    close = difflib.get_close_matches(word, names, n=3, cutoff=0.6)
    if not close:
        return ""
    ratio = lambda c: difflib.SequenceMatcher(None, word, c).ratio()  # noqa: E731
    best = ratio(close[0])
    close = [c for c in close if ratio(c) >= best - 0.05]
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f, *range(0x80, 0xa0)]}


def printable(text: str) -> str:
    """Text from a pack, safe to print on a terminal: control characters (escape
    sequences included) are shown as \\xNN instead of being obeyed, and what UTF-8
    cannot encode (a file name's undecodable bytes, a lone surrogate) as '?'."""
    return text.translate(_CONTROL).encode("utf-8", "replace").decode("utf-8")


_NOT_XML = {c: None for c in [*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20), 0xfffe, 0xffff]}


def xml_text(text: str) -> str:
    """Text that XML 1.0 can hold: the characters it cannot are dropped (lone
    surrogates too)."""
    return "".join(ch for ch in text.translate(_NOT_XML) if not 0xd800 <= ord(ch) <= 0xdfff)


_RED, _YELLOW, _BOLD, _CYAN, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[36m", "\x1b[0m"


def render_text(diags: list[Diagnostic], sources: dict[str, str], color: bool = False) -> str:
    """The human format: headline, the source line with a caret, and the hint
    (coloured for a terminal when `color`)."""
    out = []
    paint = (lambda code, text: f"{code}{text}{_RESET}") if color else (lambda code, text: text)
    for d in diags:
        label = paint(_RED if d.is_error else _YELLOW, d.code if d.is_error else f"{d.code} (warning)")
        out.append(paint(_BOLD, printable(f"{d.path}:{d.span.line}:{d.span.col}:")) + f" {label} "
                   + printable(d.message))
        text = sources.get(d.path)
        if text is not None:
            lines = text.splitlines()
            if 1 <= d.span.line <= len(lines):
                src = printable(lines[d.span.line - 1].expandtabs(1))
                gutter = f"{d.span.line:>5} | "
                out.append(gutter + src)
                width = min(d.span.width, max(1, len(src) - d.span.col + 1))
                out.append(" " * (len(gutter) - 2) + "| " + " " * (d.span.col - 1)
                           + paint(_RED if d.is_error else _YELLOW, "^" * width))
        if d.hint:
            out.append("      " + paint(_CYAN, "hint:") + printable(f" {d.hint}"))
    return "\n".join(out)
