"""Source text → AST declarations, with every syntax error as a diagnostic.

The grammar (grammar/swdsl.lark) is LALR with the contextual lexer. Building
its tables took a fifth of a first `swdsl check`, so the package ships them
(parser.table, stamped with the grammar's digest and lark's version) and a test
rewrites them when the grammar changes; with any other grammar or lark the
parser is built and cached in the user's cache directory. A file is split into
its top-level declarations before parsing, so one broken declaration does not
hide the errors of the others.
"""

from __future__ import annotations

import hashlib
import pickle
import re
from functools import lru_cache
from pathlib import Path

import attrs
import lark
import platformdirs
from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.files import MAX_RULES_BYTES
from swdsl.lang import ast
from swdsl.lang.transform import ToAst, span_of
from swdsl.resources import grammar_file

MAX_FILE_BYTES = MAX_RULES_BYTES
MAX_NESTING = 24
MAX_TREE_DEPTH = 128  # syntax-tree levels: keeps the checker and compiler far from Python's recursion limit

_HUMAN = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "_NL": "the end of the line",
    "CMP": "a comparison (==, <, …)",
    "ADD": "'+' or '-'",
    "MUL": "'*' or '/'",
    "KIND": "a declaration (race, power, relic, place, figure, marker, rule)",
    "_COIN": "'coins'",
    "_TOKEN": "'tokens'",
    "SET_QUAL": "'my', 'conquered' or 'lost'",
    "REGIONS": "'regions'",
    "FUNC": "a function (min, max, groups, reach)",
    "NOT": "'not'",
    "$END": "the end of the file",
}


class _JoinBracketedLines:
    """Post-lexer: a line break inside ( ) or [ ] is just space.

    It also reports a bracket or brace left open at the point where that is
    certain ('}' inside brackets, or the end of the declaration), naming where
    it was opened instead of where the parser ran out of input."""

    always_accept = ("_NL",)

    def process(self, stream):
        brackets: list[Token] = []
        braces: list[Token] = []
        for tok in stream:
            if tok.type == "_NL":
                if brackets:
                    continue
            elif tok.type in ("LPAR", "LSQB"):
                brackets.append(tok)
                if len(brackets) > MAX_NESTING:
                    raise _TooDeep(tok)
            elif tok.type in ("RPAR", "RSQB"):
                if brackets:
                    brackets.pop()
            elif tok.type == "LBRACE":
                if brackets:
                    raise _Unclosed(brackets[-1])
                braces.append(tok)
            elif tok.type == "RBRACE":
                if brackets:
                    raise _Unclosed(brackets[-1])
                if braces:
                    braces.pop()
            yield tok
        if brackets or braces:
            raise _Unclosed((brackets or braces)[-1], braces)


class _TooDeep(LarkError):
    def __init__(self, tok):
        self.token = tok


class _Unclosed(LarkError):
    """An opening bracket or brace that is never closed (and the braces still open)."""

    def __init__(self, tok, braces=()):
        self.token = tok
        self.braces = list(braces)


TABLE = Path(__file__).with_name("parser.table")


def _options() -> dict:
    return dict(parser="lalr", lexer="contextual", postlex=_JoinBracketedLines(), propagate_positions=True,
                maybe_placeholders=True)


def _stamp(text: str) -> dict[str, str]:
    """What a saved parser must have been built from: this grammar text, by this lark."""
    return {"grammar": hashlib.sha256(text.encode()).hexdigest(), "lark": lark.__version__}


def write_table(path: Path = TABLE) -> None:
    """Save the parser built from the grammar, after its stamp (the test of the table calls it)."""
    text = grammar_file().read_text()
    with path.open("wb") as f:
        pickle.dump(_stamp(text), f)
        Lark(text, **_options()).save(f)


def _shipped(text: str, path: Path) -> Lark | None:
    """The parser saved in `path`, if its stamp is this grammar's and this lark's."""
    try:
        with path.open("rb") as f:
            return Lark.load(f) if pickle.load(f) == _stamp(text) else None
    except Exception:  # missing, damaged, or from an unknown lark: the parser is built instead
        return None


def _cache_file(text: str) -> str:
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    folder = Path(platformdirs.user_cache_dir("swdsl"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return ""
    return str(folder / f"grammar-{digest}.lark.cache")


def build_parser(text: str, table: Path) -> Lark:
    """The saved parser in `table` when it fits `text`, else the one in the user's cache (built if need be)."""
    shipped = _shipped(text, table)
    if shipped is not None:
        return shipped
    cache = _cache_file(text)
    if cache:
        try:
            return Lark(text, cache=cache, **_options())
        except OSError:
            pass
    return Lark(text, **_options())


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    return build_parser(grammar_file().read_text(), TABLE)


# ---- splitting and error reporting ------------------------------------------------

_DECL_START = re.compile(r"^\s*(race|power|relic|place|marker|rule)\b")


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split at lines that start a declaration at brace depth 0 (or after a
    line that left braces unbalanced): (first line number, chunk text)."""
    lines = text.split("\n")
    starts = []
    depth = 0
    for i, line in enumerate(lines):
        code = re.sub(r'"[^"\n]*"', '""', line).split("#", 1)[0]
        if _DECL_START.match(code) and (depth == 0 or "{" in code):
            starts.append(i)
            depth = 0
        depth += code.count("{") - code.count("}")
        depth = max(depth, 0)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    chunks = []
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        chunks.append((a, "\n".join(lines[a:b]) + "\n"))
    return chunks


def _human(terminal: str) -> str:
    """How an error message names a terminal: never a raw grammar name."""
    if terminal in _HUMAN:
        return _HUMAN[terminal]
    try:
        pattern = lark_parser().get_terminal(terminal).pattern
    except KeyError:
        return ""
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return ""


_CLOSER = {"(": ")", "[": "]", "{": "}"}


def _keywords(expected: set[str]) -> list[str]:
    out = []
    for t in expected:
        try:
            pattern = lark_parser().get_terminal(t).pattern
        except KeyError:
            continue
        value = pattern.value.replace(_WORD_END, "")
        if pattern.type == "str":
            out.append(value)
        elif re.fullmatch(r"[a-z|():\"? ]+", value):
            out.extend(re.findall(r"[a-z]+", value))
    return out


_WORD_END = "(?![A-Za-z0-9_])"  # the grammar's keywords end at a word boundary


def _line_keyword(source: str, line: int) -> tuple[str, Span, str] | None:
    """A misspelt keyword at the start of a line (`modfy …`), which the grammar
    otherwise reads as a property name: (word, its span, 'did you mean' hint)."""
    from swdsl.engine.vocabulary import DECL_PROPS

    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", lines[line - 1])
    if m is None:
        return None
    word = m.group(1)
    props = {p for kind in DECL_PROPS.values() for p in kind}
    keywords = set(_keywords({t.name for t in lark_parser().terminals}))
    if word in keywords or word in props:
        return None
    hint = did_you_mean(word, keywords)
    return (word, Span(line, m.start(1) + 1, line, m.end(1) + 1), hint) if hint else None


def _open_bracket(source: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The innermost '(' or '[' still open before (line, col), skipping strings and comments."""
    stack: list[tuple[str, int, int]] = []
    for n, text in enumerate(source.split("\n")[:line], start=1):
        if n == line:
            text = text[: col - 1]
        text = re.sub(r'"[^"\n]*"', lambda m: " " * len(m.group()), text).split("#", 1)[0]
        for c, ch in enumerate(text, start=1):
            if ch in "([":
                stack.append((ch, n, c))
            elif ch in ")]" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _syntax_diagnostic(path: str, err: Exception, source: str = "", offset: int = 0) -> Diagnostic:
    """The diagnostic of a syntax error in `source`, a declaration's text that
    starts `offset` lines into the file (the caller moves the span; hints that
    name lines name the file's)."""
    if isinstance(err, _TooDeep):
        tok = err.token
        return Diagnostic(path, span_of(tok), "SW004", f"brackets nested deeper than {MAX_NESTING} levels",
                          "split the expression into variables or simpler conditions")
    if isinstance(err, _Unclosed):
        tok = err.token
        closer = _CLOSER.get(str(tok), "")
        hint = f"add the missing '{closer}'"
        if closer == "}":
            hint += " at the end of the block"
            if len(err.braces) > 1:
                hint += f"; {len(err.braces)} blocks are open, the outermost from line {err.braces[0].line + offset}"
        return Diagnostic(path, span_of(tok), "SW003", f"'{tok}' is never closed", hint)
    if isinstance(err, UnexpectedCharacters):
        ch = err.char if hasattr(err, "char") else "?"
        span = Span(err.line, err.column, err.line, err.column + 1)
        if ch == '"':
            return Diagnostic(path, span, "SW002", "unterminated string",
                              'a quoted text must end with \'"\' on the same line')
        hint = "names use the letters a-z and A-Z, digits and '_'; other text goes in double quotes"
        if ch == "\r":
            hint = "a line ends with a lone carriage return; save the file with \\n (or \\r\\n) line endings"
        elif ch == "\ufeff":
            hint = "remove the byte-order mark (an invisible character) here"
        return Diagnostic(path, span, "SW002", f"unexpected character {ch!r}", hint)
    if isinstance(err, (UnexpectedToken, UnexpectedEOF)):
        tok = getattr(err, "token", None)
        expected = set(getattr(err, "accepts", ()) or getattr(err, "expected", ()) or ())
        human = sorted({h for t in expected if (h := _human(t))})
        if tok is None or tok.type == "$END":
            line = getattr(err, "line", 1) if getattr(err, "line", -1) > 0 else 1
            return Diagnostic(path, Span(line, 1, line, 2), "SW003", "unexpected end of file",
                              "a '}' may be missing" if "'}'" in human else "expected " + ", ".join(human[:8]))
        shown = "end of line" if tok.type == "_NL" else repr(str(tok))
        hint = ""
        if tok.type == "NAME":
            hint = did_you_mean(str(tok), _keywords(expected))
        if not hint and source and expected & {"RPAR", "RSQB"}:
            opened = _open_bracket(source, tok.line, tok.column)
            starts_line = not source.split("\n")[tok.line - 1][: tok.column - 1].strip()
            if opened is not None and (tok.type == "RBRACE" or (opened[1] < tok.line and starts_line)):
                hint = f"the '{opened[0]}' on line {opened[1] + offset} is not closed: add '{_CLOSER[opened[0]]}'"
        if not hint and str(tok) == "=" and "CMP" in expected:
            hint = "compare with '=='"
        if not hint and expected == {"_NL"}:
            hint = "put each item on its own line"
        if not hint and source and (typo := _line_keyword(source, tok.line)) is not None:
            word, span, hint = typo
            return Diagnostic(path, span, "SW001", f"syntax error: unknown keyword '{word}'", hint)
        if not hint:
            hint = "expected " + ", ".join(human[:8]) + (", …" if len(human) > 8 else "")
        span = span_of(tok)
        if tok.type == "_NL":
            span = Span(tok.line, tok.column, tok.line, tok.column + 1)
        return Diagnostic(path, span, "SW001", f"syntax error: unexpected {shown}", hint)
    return Diagnostic(path, Span(), "SW001", "syntax error", "")


def _too_deep(tree: Tree) -> Tree | Token | None:
    """A node deeper than MAX_TREE_DEPTH levels (None if there is none), found without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            return node
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)
    return None


def _first_line(chunk: str) -> int:
    for i, line in enumerate(chunk.split("\n")):
        if line.strip():
            return i + 1
    return 1


def parse_source(text: str, path: str) -> tuple[list[ast.Decl], list[Diagnostic]]:
    """Parse one file: its declarations and every syntax error found."""
    decls, diags = _parsed(text, path)
    return list(decls), list(diags)


@lru_cache(maxsize=1024)
def _parsed(text: str, path: str) -> tuple[tuple[ast.Decl, ...], tuple[Diagnostic, ...]]:
    """Parsed once per process: a pack several packs require (a check of the bundled packs, a mix)
    is read again with each; the syntax tree and the diagnostics are frozen."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        return (), (Diagnostic(path, Span(), "SW005", f"file larger than {MAX_FILE_BYTES // 1024} KiB",
                               "split the content into several files"),)
    decls: list[ast.Decl] = []
    diags: list[Diagnostic] = []
    parser = lark_parser()
    for offset, chunk in _chunks(text):
        if not chunk.strip():
            continue
        found: list[Diagnostic] = []
        line = _first_line(chunk)
        too_deep = Diagnostic(path, Span(line, 1, line, 2), "SW004", "expression too long or nested too deeply",
                              "split it into variables or simpler conditions")
        try:
            tree = parser.parse(chunk)
            deep = _too_deep(tree)
            if deep is not None:
                span = span_of(deep if isinstance(deep, Token) else deep.meta)
                found.append(attrs.evolve(too_deep, span=span) if span != Span() else too_deep)
            else:
                decls.extend(ToAst(path, offset).transform(tree))
        except (UnexpectedInput, _TooDeep, _Unclosed) as err:
            found.append(_syntax_diagnostic(path, err, chunk, offset))
            found.extend(_more_syntax_errors(parser, path, chunk, err, offset))
        except LarkError as err:  # the transformer wraps errors in VisitError
            inner = getattr(err, "orig_exc", err)
            found.append(too_deep if isinstance(inner, RecursionError) else _syntax_diagnostic(path, inner, chunk, offset))
        except RecursionError:
            found.append(too_deep)
        diags.extend(_shifted(d, offset) for d in found)
    return tuple(decls), tuple(diags)


def _shifted(d: Diagnostic, lines: int) -> Diagnostic:
    """A diagnostic found in a declaration's text, placed in its file."""
    sp = d.span
    if not lines or sp == Span():
        return d
    return attrs.evolve(d, span=Span(sp.line + lines, sp.col, sp.end_line + lines if sp.end_line else 0, sp.end_col))


MAX_SYNTAX_ERRORS = 20  # per declaration


def _more_syntax_errors(parser: Lark, path: str, chunk: str, err: Exception, offset: int) -> list[Diagnostic]:
    """The syntax errors after the first in one declaration: blank the faulty
    item (a whole block if the line opens one) and parse again, while each
    error lies further down than the one before."""
    out: list[Diagnostic] = []
    lines = chunk.split("\n")
    first = _first_line(chunk)
    while len(out) < MAX_SYNTAX_ERRORS and isinstance(err, (UnexpectedToken, UnexpectedCharacters)):
        line = err.line
        if not first < line <= len(lines) or not _blank_item(lines, line - 1):
            break
        try:
            parser.parse("\n".join(lines))
            break
        except (UnexpectedInput, _TooDeep, _Unclosed) as again:
            if getattr(again, "line", -1) <= line:
                break
            err = again
            out.append(_syntax_diagnostic(path, again, chunk, offset))
        except (LarkError, RecursionError):
            break
    return out


def _blank_item(lines: list[str], i: int) -> bool:
    """Empty line i, and the lines of the block it opens; False at a closing brace."""
    code = re.sub(r'"[^"\n]*"', '""', lines[i]).split("#", 1)[0]
    if code.strip() == "}":
        return False
    depth = code.count("{") - code.count("}")
    lines[i] = ""
    while depth > 0 and i + 1 < len(lines):
        i += 1
        code = re.sub(r'"[^"\n]*"', '""', lines[i]).split("#", 1)[0]
        depth += code.count("{") - code.count("}")
        lines[i] = "" if depth > 0 else lines[i].replace("}", "", 1)
    return True
