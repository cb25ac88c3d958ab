"""Lark's parse tree → the typed AST (lang/ast.py), with source spans."""

from __future__ import annotations

from lark import Token, Transformer, v_args

from swdsl.diagnostics import Span
from swdsl.engine.entries import BLOCK, FLAG
from swdsl.engine.vocabulary import EFFECTS
from swdsl.lang import ast


def span_of(meta_or_tok) -> Span:
    if isinstance(meta_or_tok, Token):
        tok = meta_or_tok
        return Span(tok.line or 1, tok.column or 1, tok.end_line or 0, tok.end_column or 0)
    m = meta_or_tok
    if getattr(m, "empty", True):
        return Span()
    return Span(m.line, m.column, m.end_line, m.end_column)




@v_args(meta=True)
class ToAst(Transformer):
    """Lark tree → ast nodes."""

    def __init__(self, path: str, line_offset: int = 0):
        super().__init__()
        self.path = path
        self.offset = line_offset  # the parsed text starts this many lines into the file

    def _span(self, meta_or_tok) -> Span:
        sp = span_of(meta_or_tok)
        if not self.offset or sp == Span():
            return sp
        return Span(sp.line + self.offset, sp.col, sp.end_line + self.offset if sp.end_line else 0, sp.end_col)

    # declarations
    def start(self, meta, decls):
        return list(decls)

    def decl(self, meta, children):
        kind, (name, name_span), *items = children
        return ast.Decl(kind=str(kind), name=name, name_span=name_span, items=tuple(items), path=self.path, span=self._span(meta))

    def name(self, meta, children):
        tok = children[0]
        text = str(tok)
        if tok.type == "STRING":
            text = text[1:-1]
        return text, self._span(tok)

    def doc(self, meta, children):
        return ast.Doc(text=str(children[0])[1:-1], span=self._span(meta))

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
        return ast.Prop(name=str(children[0]), args=tuple(args), span=self._span(meta))

    def signed_int(self, meta, children):
        return -int(children[0])

    def dotted(self, meta, children):
        return ast.Name(text=".".join(str(c) for c in children), span=self._span(meta))

    def modifier(self, meta, children):
        stat, op, value, *rest = children
        opts = {k: v for k, v in rest}
        return ast.Modifier(
            stat=stat, op=op, value=value, when=opts.get("when"), floor=opts.get("floor"),
            cap=opts.get("cap"), scope=opts.get("scope"), span=self._span(meta),
        )

    def mod_by(self, meta, _):
        return "by"

    def mod_set(self, meta, _):
        return "set"

    def mod_times(self, meta, _):
        return "times"

    def mod_at_least(self, meta, _):
        return "at least"

    def mod_at_most(self, meta, _):
        return "at most"

    def when(self, meta, c):
        return ("when", c[0])

    def floor(self, meta, c):
        return ("floor", c[0])

    def cap(self, meta, c):
        return ("cap", c[0])

    def scope_while(self, meta, c):
        return ("scope", ast.Scope(kind=str(c[0]), span=self._span(meta)))

    def scope_always(self, meta, c):
        return ("scope", ast.Scope(kind="always", span=self._span(meta)))

    def trigger(self, meta, children):
        event, *rest = children
        body = rest.pop()
        opts = dict(rest)
        return ast.Trigger(event=event, audience=opts.get("audience"), when=opts.get("when"), scope=opts.get("scope"),
                           steps=body if isinstance(body, tuple) else (body,), span=self._span(meta))

    def steps(self, meta, children):
        return tuple(children)

    def audience(self, meta, c):
        return ("audience", ast.Name(text=str(c[0]), span=self._span(c[0])))

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
        return ast.Ability(name=str(name), limit=opts.get("limit"), phases=opts.get("phase", ()), when=opts.get("when"),
                           scope=opts.get("scope"), steps=tuple(steps), span=self._span(meta))

    def limit(self, meta, children):
        rest = list(children)
        if rest[0].type == "STRING":
            return ("limit", ast.Limit(count=None, per=None, key=None, span=self._span(meta),
                                       reason=str(rest[0])[1:-1].strip()))
        count = 1
        if isinstance(rest[0], Token) and rest[0].type == "INT":
            count = int(rest.pop(0))
        per = ast.Name(text=str(rest[0]), span=self._span(rest[0]))
        key = rest[1] if len(rest) > 1 else None
        return ("limit", ast.Limit(count=count, per=per, key=key, span=self._span(meta)))

    def per_key(self, meta, c):
        return ast.Name(text=str(c[0]), span=self._span(c[0]))

    def phase(self, meta, c):
        return ("phase", tuple(ast.Name(text=str(n), span=self._span(n)) for n in c))

    def choose(self, meta, c):
        return ast.Choose(name=str(c[0]), selection=c[1], span=self._span(meta))

    def options(self, meta, c):
        return ast.Options(names=tuple(c[0]), span=self._span(meta))

    def may_choose(self, meta, c):
        return ast.Choose(name=str(c[0]), selection=c[1], span=self._span(meta), optional=True)

    def var_decl(self, meta, children):
        shared = ""
        if isinstance(children[0], Token) and children[0].type == "VAR_OWNER":
            shared, children = str(children[0]), children[1:]
        init, reset = 0, None
        for c in children[1:]:
            if c[0] == "init":
                init = c[1]
            else:
                reset = c[1]
        return ast.VarDecl(name=str(children[0]), init=init, reset=reset, span=self._span(meta), shared=shared)

    def var_init(self, meta, c):
        v = c[0]
        if isinstance(v, int):
            return ("init", v)
        return ("init", int(v) if v.type == "INT" else str(v))

    def var_reset(self, meta, c):
        return ("reset", ast.Name(text=str(c[0]), span=self._span(c[0])))

    # effects: every alternative of `effect` is named after its entry; its parts are the entry's arguments
    def __default__(self, data, children, meta):
        entry = EFFECTS.get(str(data))
        if entry is None:
            return super().__default__(data, children, meta)
        args = []
        for param, child in zip(entry.params, children):
            if param.kind == BLOCK and child is not None:
                child = _effect_tuple(child)
            elif param.kind == FLAG:
                child = bool(child)
            elif isinstance(child, Token):  # a name written in the rule (`for each NAME in …`)
                child = ast.Name(text=str(child), span=self._span(child))
            args.append(child)
        return ast.Effect(kind=entry.name, span=self._span(meta), args=tuple(args))

    def word(self, meta, c):
        return ast.Name(text=str(c[0]), span=self._span(c[0]))

    def gain_each(self, meta, c):
        return c[0]

    def with_strength(self, meta, c):
        return c[0]

    def slot_var(self, meta, c):
        return ast.Name(text=str(c[0]), span=self._span(c[0]))

    def slot_of(self, meta, c):
        return ast.Slot(kind="of", name=ast.Name(text=str(c[0]), span=self._span(c[0])), subject=c[1],
                        span=self._span(meta))

    def slot_strength(self, meta, c):
        return ast.Slot(kind="strength", name=ast.Name(text=str(c[1]), span=self._span(c[1])), subject=c[2],
                        span=self._span(meta))

    def using(self, meta, c):
        return c[0]

    def from_tray(self, meta, c):
        return True

    def destroying(self, meta, c):
        return True

    def sparing(self, meta, c):
        return True

    def from_hand(self, meta, c):
        return True

    def as_empty(self, meta, c):
        return True

    def as_conquest(self, meta, c):
        return True

    def face_down(self, meta, c):
        return True

    # expressions
    def int_(self, meta, c):
        return ast.Int(value=int(c[0]), span=self._span(meta))

    def ref(self, meta, c):
        return ast.Ref(name=str(c[0]), span=self._span(meta))

    def region_set(self, meta, c):
        return ast.RegionSet(qual=str(c[0]), span=self._span(meta))

    def all_regions(self, meta, c):
        return ast.RegionSet(qual="all", span=self._span(meta))

    def regions_of(self, meta, c):  # `regions` is a keyword, so the attribute needs its own rule
        return ast.Attr(name="regions", subject=c[-1], span=self._span(meta))

    def count(self, meta, c):
        return ast.Count(of=c[0], span=self._span(meta))

    def attr(self, meta, c):
        return ast.Attr(name=str(c[0]), subject=c[1], span=self._span(meta))

    def call(self, meta, c):
        return ast.Call(func=str(c[0]), args=tuple(c[1:]), span=self._span(meta))

    def sum(self, meta, c):  # sum(VALUE for each NAME in SELECTION)
        value, name, each = c
        return ast.Form(kind="sum", span=self._span(meta),
                        args=(value, ast.Name(text=str(name), span=self._span(name)), each))

    def strength(self, meta, c):  # strength of MARKER in REGION
        _, marker, region = c
        return ast.Form(kind="strength", span=self._span(meta),
                        args=(ast.Name(text=str(marker), span=self._span(marker)), region))

    def neg(self, meta, c):
        if isinstance(c[0], ast.Int):
            return ast.Int(value=-c[0].value, span=self._span(meta))
        return ast.Neg(value=c[0], span=self._span(meta))

    def arith(self, meta, c):
        return ast.Arith(op=str(c[1]), left=c[0], right=c[2], span=self._span(meta))

    def or_(self, meta, c):
        return ast.BoolOp(op="or", left=c[0], right=c[1], span=self._span(meta))

    def and_(self, meta, c):
        return ast.BoolOp(op="and", left=c[0], right=c[1], span=self._span(meta))

    def not_(self, meta, c):
        return ast.Not(value=c[0], span=self._span(meta))

    def filtered(self, meta, c):
        name = str(c[1]) if len(c) == 3 else None
        return ast.Filtered(base=c[0], cond=c[-1], span=self._span(meta), name=name)

    def is_(self, meta, c):
        negate = any(isinstance(x, Token) and x.type == "NOT" for x in c)
        c = [x for x in c if not (isinstance(x, Token) and x.type == "NOT")]
        subject, arg = (c[0], c[1]) if len(c) == 2 else (None, c[0])
        return ast.Test(kind="is_not" if negate else "is", subject=subject, arg=arg, names=(), span=self._span(meta))

    def in_(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="in", subject=subject, arg=None, names=tuple(c[-1]), span=self._span(meta))

    def names(self, meta, c):
        return [str(x) for x in c]

    def has(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="has", subject=subject, arg=None, names=(str(c[-1]),), span=self._span(meta))

    def was(self, meta, c):
        subject = c[0] if len(c) == 2 else None
        return ast.Test(kind="was", subject=subject, arg=None, names=(str(c[-1]),), span=self._span(meta))

    def borders(self, meta, c):
        subject, arg = (c[0], c[1]) if len(c) == 2 else (None, c[0])
        return ast.Test(kind="borders", subject=subject, arg=arg, names=(), span=self._span(meta))

    def compare(self, meta, c):
        return ast.Compare(op=str(c[1]), left=c[0], right=c[2], span=self._span(meta))


def _effect_tuple(x) -> tuple:
    if isinstance(x, tuple):
        return x
    return (x,)
