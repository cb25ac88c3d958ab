"""Source text → AST declarations, with every syntax error as a diagnostic.

The grammar (grammar/swdsl.lark) is LALR with the contextual lexer. The built
parser is cached in the user's cache directory. A file is split into its
top-level declarations before parsing, so one broken declaration does not hide
the errors of the others.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

import attrs
import platformdirs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.lang import ast
from swdsl.resources import grammar_file

MAX_FILE_BYTES = 256 * 1024
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
    "KIND": "a declaration (race, power, relic, place, marker, rule)",
    "COIN": "'coins'",
    "TOKEN": "'tokens'",
    "SET_QUAL": "'my', 'conquered' or 'lost'",
    "REGIONS": "'regions'",
    "FUNC": "'min' or 'max'",
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


def _cache_file(text: str) -> str:
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    folder = Path(platformdirs.user_cache_dir("swdsl"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return ""
    return str(folder / f"grammar-{digest}.lark.cache")


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    text = grammar_file().read_text()
    options = dict(
        parser="lalr",
        lexer="contextual",
        postlex=_JoinBracketedLines(),
        propagate_positions=True,
        maybe_placeholders=False,
    )
    cache = _cache_file(text)
    if cache:
        try:
            return Lark(text, cache=cache, **options)
        except OSError:
            pass
    return Lark(text, **options)


def _span(meta_or_tok) -> Span:
    if isinstance(meta_or_tok, Token):
        return Span(meta_or_tok.line, meta_or_tok.column, meta_or_tok.end_line, meta_or_tok.end_column)
    m = meta_or_tok
    if getattr(m, "empty", True):
        return Span()
    return Span(m.line, m.column, m.end_line, m.end_column)


_ID = r"[A-Za-z_][A-Za-z0-9_]*"


@v_args(meta=True)
class _ToAst(Transformer):
    """Lark tree → ast nodes."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    # declarations
    def start(self, meta, decls):
        return list(decls)

    def decl(self, meta, children):
        kind, (name, name_span), *items = children
        return ast.Decl(kind=str(kind), name=name, name_span=name_span, items=tuple(items), path=self.path, span=_span(meta))

    def name(self, meta, children):
        tok = children[0]
        text = str(tok)
        if tok.type == "STRING":
            text = text[1:-1]
        return text, _span(tok)

    def doc(self, meta, children):
        return ast.Doc(text=str(children[0])[1:-1], span=_span(meta))

    def prop(self, meta, children):
        args = []
        for c in children[1:]:
            if isinstance(c, int):
                args.append(c)
            elif c.type == "INT":
                args.append(int(c))
            elif c.type == "STRING":
                args.append(str(c)[1:-1])
            else:
                args.append(str(c))
        return ast.Prop(name=str(children[0]), args=tuple(args), span=_span(meta))

    def signed_int(self, meta, children):
        return -int(children[0])

    def dotted(self, meta, children):
        return ast.Name(text=".".join(str(c) for c in children), span=_span(meta))

    def modifier(self, meta, children):
        stat, op, value, *rest = children
        opts = {k: v for k, v in rest}
        return ast.Modifier(
            stat=stat, op=op, value=value, when=opts.get("when"), floor=opts.get("floor"),
            cap=opts.get("cap"), scope=opts.get("scope"), span=_span(meta),
        )

    def mod_by(self, meta, _):
        return "by"

    def mod_set(self, meta, _):
        return "set"

    def when(self, meta, c):
        return ("when", c[0])

    def floor(self, meta, c):
        return ("floor", c[0])

    def cap(self, meta, c):
        return ("cap", c[0])

    def scope_while(self, meta, c):
        return ("scope", ast.Scope(kind=str(c[0]), span=_span(meta)))

    def scope_always(self, meta, c):
        return ("scope", ast.Scope(kind="always", span=_span(meta)))

    def trigger(self, meta, children):
        event, *rest = children
        effects = rest.pop()
        opts = dict(rest)
        return ast.Trigger(event=event, when=opts.get("when"), scope=opts.get("scope"),
                           effects=_effect_tuple(effects), span=_span(meta))

    def effects(self, meta, children):
        return tuple(children)

    def ability(self, meta, children):
        name, *rest = children
        opts, steps = {}, []
        for c in rest:
            if isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str):
                opts[c[0]] = c[1]
            else:
                steps.append(c)
        return ast.Ability(name=str(name), limit=opts.get("limit"), phase=opts.get("phase"), when=opts.get("when"),
                           scope=opts.get("scope"), steps=tuple(steps), span=_span(meta))

    def limit(self, meta, children):
        count = 1
        rest = list(children)
        if isinstance(rest[0], Token) and rest[0].type == "INT":
            count = int(rest.pop(0))
        per = ast.Name(text=str(rest[0]), span=_span(rest[0]))
        key = rest[1] if len(rest) > 1 else None
        return ("limit", ast.Limit(count=count, per=per, key=key, span=_span(meta)))

    def per_key(self, meta, c):
        return ast.Name(text=str(c[0]), span=_span(c[0]))

    def phase(self, meta, c):
        return ("phase", ast.Name(text=str(c[0]), span=_span(c[0])))

    def choose(self, meta, c):
        return ast.Choose(name=str(c[0]), selection=c[1], span=_span(meta))

    def var_decl(self, meta, children):
        init, reset = 0, None
        for c in children[1:]:
            if c[0] == "init":
                init = c[1]
            else:
                reset = c[1]
        return ast.VarDecl(name=str(children[0]), init=init, reset=reset, span=_span(meta))

    def var_init(self, meta, c):
        v = c[0]
        if isinstance(v, int):
            return ("init", v)
        return ("init", int(v) if v.type == "INT" else str(v))

    def var_reset(self, meta, c):
        return ("reset", ast.Name(text=str(c[0]), span=_span(c[0])))

    # effects
    def _effect(self, kind, meta, args=(), word=None, **kw):
        return ast.Effect(kind=kind, span=_span(meta), args=tuple(args),
                          word=str(word) if word is not None else "",
                          word_span=_span(word) if word is not None else None, **kw)

    def gain(self, meta, c):
        exprs = [x for x in c if not isinstance(x, Token)]
        return self._effect("gain", meta, exprs)

    def for_each(self, meta, c):
        return c[0]

    def pay(self, meta, c):
        return self._effect("pay", meta, [x for x in c if not isinstance(x, Token)])

    def take(self, meta, c):
        return self._effect("take", meta, [x for x in c if not isinstance(x, Token)])

    def add_tokens(self, meta, c):
        return self._effect("add", meta, [x for x in c if not isinstance(x, Token)])

    def discard_tokens(self, meta, c):
        return self._effect("discard", meta, [x for x in c if not isinstance(x, Token)])

    def set_aside(self, meta, c):
        return self._effect("set_aside", meta, [c[0]])

    def place(self, meta, c):
        return self._effect("place", meta, [c[1]], word=c[0])

    def remove(self, meta, c):
        return self._effect("remove", meta, [c[1]], word=c[0])

    def move(self, meta, c):
        return self._effect("move", meta, [c[1]], word=c[0])

    def draw(self, meta, c):
        return self._effect("draw", meta, [c[1]], word=c[0])

    def set_var(self, meta, c):
        return self._effect("set", meta, [c[1]], word=c[0])

    def increase(self, meta, c):
        return self._effect("increase", meta, [c[1]], word=c[0])

    def decrease(self, meta, c):
        return self._effect("decrease", meta, [c[1]], word=c[0])

    def roll(self, meta, c):
        return self._effect("roll", meta, [], word=c[0])

    def vacate(self, meta, c):
        return self._effect("vacate", meta, [c[0]])

    def rout(self, meta, c):
        return self._effect("rout", meta, [c[0]])

    def move_tokens(self, meta, c):
        return self._effect("move_tokens", meta, [x for x in c if not isinstance(x, Token)])

    def swap(self, meta, c):
        return self._effect("swap", meta, [c[0], c[1]])

    def give(self, meta, c):
        return self._effect("give", meta, [c[1]], word=c[0])

    def award(self, meta, c):
        return self._effect("award", meta, [x for x in c if not isinstance(x, Token)])

    def return_(self, meta, c):
        # `return MARKER to POOL from SELECTION`: word = marker, options = (pool,)
        return self._effect("return", meta, [c[2]], word=c[0], options=(str(c[1]),))

    def conquer(self, meta, c):
        target, *opts = c
        args = [target]
        flags = []
        using = None
        for kind, value in opts:
            if kind == "using":
                using = value
            else:
                flags.append(kind)
        if using is not None:
            args.append(using)
        return self._effect("conquer", meta, args, options=tuple(flags))

    def using(self, meta, c):
        return ("using", c[0])

    def from_tray(self, meta, c):
        return ("from_tray", None)

    def destroying(self, meta, c):
        return ("destroying", None)

    def if_(self, meta, c):
        cond, then, *orelse = c
        return self._effect("if", meta, [cond], then=_effect_tuple(then),
                            orelse=_effect_tuple(orelse[0]) if orelse else ())

    # expressions
    def int_(self, meta, c):
        return ast.Int(value=int(c[0]), span=_span(meta))

    def ref(self, meta, c):
        return ast.Ref(name=str(c[0]), span=_span(meta))

    def region_set(self, meta, c):
        return ast.RegionSet(qual=str(c[0]), span=_span(meta))

    def all_regions(self, meta, c):
        return ast.RegionSet(qual="all", span=_span(meta))

    def regions_of(self, meta, c):  # `regions` is a keyword, so the attribute needs its own rule
        return ast.Attr(name="regions", subject=c[-1], span=_span(meta))

    def count(self, meta, c):
        return ast.Count(of=c[0], span=_span(meta))

    def attr(self, meta, c):
        return ast.Attr(name=str(c[0]), subject=c[1], span=_span(meta))

    def call(self, meta, c):
        return ast.Call(func=str(c[0]), args=tuple(c[1:]), span=_span(meta))

    def neg(self, meta, c):
        if isinstance(c[0], ast.Int):
            return ast.Int(value=-c[0].value, span=_span(meta))
        return ast.Neg(value=c[0], span=_span(meta))

    def arith(self, meta, c):
        return ast.Arith(op=str(c[1]), left=c[0], right=c[2], span=_span(meta))

    def or_(self, meta, c):
        return ast.BoolOp(op="or", left=c[0], right=c[1], span=_span(meta))

    def and_(self, meta, c):
        return ast.BoolOp(op="and", left=c[0], right=c[1], span=_span(meta))

    def not_(self, meta, c):
        return ast.Not(value=c[0], span=_span(meta))

    def filtered(self, meta, c):
        return ast.Filtered(base=c[0], cond=c[1], span=_span(meta))

    def _test(self, kind, meta, c, *, arg_last=True):
        subject = c[0] if len(c) == 2 else None
        return subject, c[-1]

    def is_(self, meta, c):
        negate = any(isinstance(x, Token) and x.type == "NOT" for x in c)
        c = [x for x in c if not (isinstance(x, Token) and x.type == "NOT")]
        subject, arg = (c[0], c[1]) if len(c) == 2 else (None, c[0])
        return ast.Test(kind="is_not" if negate else "is", subject=subject, arg=arg, names=(), span=_span(meta))

    def in_(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="in", subject=subject, arg=None, names=tuple(c[-1]), span=_span(meta))

    def names(self, meta, c):
        return [str(x) for x in c]

    def has(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="has", subject=subject, arg=None, names=(str(c[-1]),), span=_span(meta))

    def was(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="was", subject=subject, arg=None, names=(str(c[-1]),), span=_span(meta))

    def borders(self, meta, c):
        subject, arg = (c[0], c[1]) if len(c) == 2 else (None, c[0])
        return ast.Test(kind="borders", subject=subject, arg=arg, names=(), span=_span(meta))

    def compare(self, meta, c):
        return ast.Compare(op=str(c[1]), left=c[0], right=c[2], span=_span(meta))


def _effect_tuple(x) -> tuple:
    if isinstance(x, tuple):
        return x
    return (x,)


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
        chunks.append((a, "\n" * a + "\n".join(lines[a:b]) + "\n"))
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


def _syntax_diagnostic(path: str, err: Exception, source: str = "") -> Diagnostic:
    if isinstance(err, _TooDeep):
        tok = err.token
        return Diagnostic(path, _span(tok), "SW004", f"brackets nested deeper than {MAX_NESTING} levels",
                          "split the expression into variables or simpler conditions")
    if isinstance(err, _Unclosed):
        tok = err.token
        closer = _CLOSER.get(str(tok), "")
        hint = f"add the missing '{closer}'"
        if closer == "}":
            hint += " at the end of the block"
            if len(err.braces) > 1:
                hint += f"; {len(err.braces)} blocks are open, the outermost from line {err.braces[0].line}"
        return Diagnostic(path, _span(tok), "SW003", f"'{tok}' is never closed", hint)
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
                hint = f"the '{opened[0]}' on line {opened[1]} is not closed: add '{_CLOSER[opened[0]]}'"
        if not hint and str(tok) == "=" and "CMP" in expected:
            hint = "compare with '=='"
        if not hint and expected == {"_NL"}:
            hint = "put each item on its own line"
        if not hint and source and (typo := _line_keyword(source, tok.line)) is not None:
            word, span, hint = typo
            return Diagnostic(path, span, "SW001", f"syntax error: unknown keyword '{word}'", hint)
        if not hint:
            hint = "expected " + ", ".join(human[:8]) + (", …" if len(human) > 8 else "")
        span = _span(tok)
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
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        return [], [Diagnostic(path, Span(), "SW005", f"file larger than {MAX_FILE_BYTES // 1024} KiB",
                               "split the content into several files")]
    decls: list[ast.Decl] = []
    diags: list[Diagnostic] = []
    parser = lark_parser()
    for _, chunk in _chunks(text):
        if not chunk.strip():
            continue
        line = _first_line(chunk)
        too_deep = Diagnostic(path, Span(line, 1, line, 2), "SW004", "expression too long or nested too deeply",
                              "split it into variables or simpler conditions")
        try:
            tree = parser.parse(chunk)
            deep = _too_deep(tree)
            if deep is not None:
                span = _span(deep if isinstance(deep, Token) else deep.meta)
                diags.append(attrs.evolve(too_deep, span=span) if span != Span() else too_deep)
                continue
            decls.extend(_ToAst(path).transform(tree))
        except (UnexpectedInput, _TooDeep, _Unclosed) as err:
            diags.append(_syntax_diagnostic(path, err, chunk))
        except LarkError as err:  # the transformer wraps errors in VisitError
            inner = getattr(err, "orig_exc", err)
            diags.append(too_deep if isinstance(inner, RecursionError) else _syntax_diagnostic(path, inner, chunk))
        except RecursionError:
            diags.append(too_deep)
    return decls, diags
