"""YAML syntax errors in plain words.

The YAML parser says what its grammar expected ("did not find expected key",
"expected <block end>"); a designer needs to hear what is wrong on which line:
an item indented less than its neighbours, a tab, a bracket or a quote left
open, a second colon. `explain` looks at the text around the parser's mark and
says so, with a hint; it falls back to the parser's own words.
"""

from __future__ import annotations

import re

from swdsl.diagnostics import Span

_KEY = re.compile(r"\s*(?:-\s+)?([^\s:#'\"][^:#]*?)\s*:(?:\s|$)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _code(line: str) -> str:
    """The line without its comment (outside quotes, roughly)."""
    out, quote = [], ""
    for ch in line:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            break
        out.append(ch)
    return "".join(out)


def explain(text: str, line: int, col: int, problem: str) -> tuple[Span, str, str]:
    """(where, message, hint) for a YAML syntax error the parser marked at `line`:`col` (1-based)."""
    lines = text.split("\n")
    at = Span(line, col, line, col + 1)
    for n, text_line in enumerate(lines[:line], start=1):
        if "\t" in text_line[: _indent(text_line) + 1]:
            return Span(n, 1, n, 2), "a tab in the indentation", "YAML indents with spaces only: replace the tab"
    opened = _open_bracket(lines[:line])
    if opened is not None and ("expected ','" in problem or "end of stream" in problem or "flow" in problem):
        n, c, ch = opened
        closer = {"[": "]", "{": "}"}[ch]
        return Span(n, c, n, c + 1), f"the '{ch}' opened here is never closed", f"add '{closer}' where it ends"
    quote = _open_quote(lines[:line])
    if quote is not None:
        n, c = quote
        return Span(n, c, n, c + 1), "a quote opened here is never closed", "close it on the same line"
    misplaced = _misindented(lines, line)
    if misplaced is not None:
        return misplaced
    if "mapping values are not allowed" in problem:
        return at, "a second ':' in a value", "quote the value: `key: \"text: with a colon\"`"
    if "'-' indicator" in problem:
        return at, "a list item and a key at the same indentation", \
            "a key cannot follow list items at their level: indent it, or make it an item (`- …`)"
    return at, f"invalid YAML: {problem}", "check the indentation, colons and quotes around this line"


def _misindented(lines: list[str], line: int) -> tuple[Span, str, str] | None:
    """A key indented less than the keys of its block, or deeper than a key that holds no block."""
    for n in range(min(line, len(lines)), 0, -1):  # the marked line, or the last content line before it
        if _code(lines[n - 1]).strip():
            break
    else:
        return None
    current = lines[n - 1]
    key = _KEY.match(_code(current))
    previous = next((lines[i - 1] for i in range(n - 1, 0, -1) if _code(lines[i - 1]).strip()), None)
    if key is None or previous is None:
        return None
    name, ind, prev_ind = key.group(1), _indent(current), _indent(previous)
    prev_key = _KEY.match(_code(previous))
    span = Span(n, ind + 1, n, ind + 1 + len(name))
    if ind < prev_ind:
        parent = next((lines[i - 1] for i in range(n - 1, 0, -1)
                       if _code(lines[i - 1]).strip() and _indent(lines[i - 1]) < prev_ind), None)
        above = f"`{prev_key.group(1)}`" if prev_key else "the line above"
        hint = f"`{name}` is indented less than {above} above it"
        if parent is not None and (pk := _KEY.match(_code(parent))) is not None and _indent(parent) > ind:
            hint += f", but more than the `{pk.group(1)}:` that holds it"
        return span, f"`{name}` is not lined up with the keys around it", \
            hint + f": indent it by {prev_ind} spaces like {above}, or by {_indent(parent or '')} to leave the block"
    if ind > prev_ind and prev_key is not None and _code(previous).rstrip().endswith(":") is False:
        return span, f"`{name}` is indented under `{prev_key.group(1)}`, which already has a value", \
            f"line `{name}` up with `{prev_key.group(1)}`, or move `{prev_key.group(1)}`'s value onto its own lines"
    return None


def _open_bracket(lines: list[str]) -> tuple[int, int, str] | None:
    """The innermost '[' or '{' still open at the end of `lines`."""
    stack: list[tuple[int, int, str]] = []
    for n, line in enumerate(lines, start=1):
        quote = ""
        for c, ch in enumerate(_code(line), start=1):
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch in "[{":
                stack.append((n, c, ch))
            elif ch in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _open_quote(lines: list[str]) -> tuple[int, int] | None:
    """A quote opened and not closed on its line (YAML quotes may span lines, but designers' rarely do)."""
    for n, line in enumerate(lines, start=1):
        quote, start = "", 0
        for c, ch in enumerate(line.split(" #")[0], start=1):
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"" and (c == 1 or line[c - 2] in " :[{,-"):
                quote, start = ch, c
        if quote:
            return n, start
    return None
