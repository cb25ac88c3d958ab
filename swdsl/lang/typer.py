"""Types of expressions: the half of the checker that reads `… where …`,
attributes, tests and names, resolving each against the vocabulary and the pack.

`Typer.expr` returns an expression's type ("int", "bool", "region", "regions",
"race", …, or "?" once an error was reported) and records what each name
resolved to in `Checked.resolved`, so the compiler never guesses again.
"""

from __future__ import annotations

from contextlib import contextmanager

import attrs

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.engine import vocabulary as V
from swdsl.engine.entries import EXPRESSION_KINDS
from swdsl.lang import ast
from swdsl.lang.names import Lookup, Names, family_of


@attrs.define
class PackNames:
    """Names the packs define: the checker's view of them. `markers`, `races`, `powers` and
    `pools` hold every spelling (short and qualified, for suggestions); `names` says which
    declaration a name written in a file means (`pack_of` gives the file's pack)."""

    terrains: set[str] = attrs.field(factory=set)
    symbols: set[str] = attrs.field(factory=set)
    markers: set[str] = attrs.field(factory=set)
    races: set[str] = attrs.field(factory=set)
    powers: set[str] = attrs.field(factory=set)
    tags: set[str] = attrs.field(factory=set)
    marker_tags: set[str] = attrs.field(factory=set)  # kinds (relic, place) and tags of markers
    alike: dict[str, frozenset[str]] = attrs.field(factory=dict)  # pack.yaml `equivalences`
    pools: set[str] = attrs.field(factory=set)
    names: Names = attrs.field(factory=Names)
    pack_of: dict[str, str] = attrs.field(factory=dict)  # rules file -> its pack
    vocab: dict[str, set[str]] = attrs.field(factory=dict)  # pack -> the terrains it declares

    def like(self, name: str) -> frozenset[str]:
        """The terrains and symbols that count as `name`, itself included."""
        return self.alike.get(name, frozenset({name}))

    def seen_by(self, path: str) -> set[str]:
        """The terrains the pack of the file `path` and the packs it requires declare (all of them
        when no pack owns the file)."""
        pack = self.pack_of.get(path)
        if pack is None or pack not in self.vocab:
            return self.terrains
        return {t for level in self.names.levels.get(pack, ()) for p in level for t in self.vocab.get(p, ())}

    def lookup(self, family: str, name: str, path: str) -> Lookup:
        """What `name`, written in the file `path`, means among the declarations of `family`."""
        return self.names.lookup(family, name, self.pack_of.get(path, ""))


@attrs.define
class Checked:
    diagnostics: list[Diagnostic] = attrs.field(factory=list)
    resolved: dict[int, tuple] = attrs.field(factory=dict)  # id(node) -> resolution
    used_markers: set[str] = attrs.field(factory=set)
    shared: dict[str, ast.VarDecl] = attrs.field(factory=dict)  # `game var`s and `player var`s by name
    # per declaration (family, key): what its rules need to find on the map — ("place", terrain or
    # symbol), ("marker", key), ("kind", kind or tag) — and what they put there — ("marker", key), ("pool", key)
    tests: dict[tuple[str, str], set[tuple[str, str]]] = attrs.field(factory=dict)
    mentions: dict[tuple[str, str], set[tuple[str, str]]] = attrs.field(factory=dict)  # tests, needed or not
    puts: dict[tuple[str, str], set[tuple[str, str]]] = attrs.field(factory=dict)


class _Env:
    def __init__(self, decl: ast.Decl, bindings: dict[str, str], variables: dict[str, str], it: str | None = None,
                 words: dict[str, tuple[str, ...]] | None = None):
        self.decl = decl
        self.bindings = bindings
        self.variables = variables
        self.it = it
        self.words = words or {}  # the words an `option` binding may hold (`choose bonus: [tokens, coins]`)

    def inner(self, it: str) -> _Env:
        return _Env(self.decl, self.bindings, self.variables, it, self.words)

    def bind(self, name: str, type_: str, words: tuple[str, ...] = ()) -> _Env:
        return _Env(self.decl, {**self.bindings, name: type_}, self.variables, self.it,
                    {**self.words, name: words} if words else self.words)


ELEMENT = {"regions": "region", "players": "player", "races": "race", "powers": "power", "areas": "area",
           "markers": "marker"}
SETS = tuple(ELEMENT)


def _by_subject(entries) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for (subject, name), entry in entries.items():
        out.setdefault(subject, {})[name] = entry.doc
    return out


STATES = _by_subject(V.STATES)  # subject -> state name -> doc
LOG = _by_subject(V.LOG_STATES)


class Typer:
    """Typing of expressions; the Checker adds declarations and effects."""

    names: PackNames
    out: Checked
    optional = 0  # > 0 while typing what a rule may do without: its tests are not dependencies

    def marker_name(self, path: str, name: str, span: Span | None, node=None) -> str:
        """Check a marker name (the Checker records which markers are used); its key."""
        raise NotImplementedError

    def named(self, path: str, family: str, name: str, span: Span) -> str | None:
        """The key of the declaration `name` means in the file `path`, or None if no declaration
        of the family has that name. A name two packs declare that the file's pack does not tell
        apart (SW182), or a pack named that does not declare it (SW183), is reported: then ''."""
        found = self.names.lookup(family, name, path)
        if found.key is not None:
            return found.key
        if found.wrong_pack:
            self.error(path, span, "SW183", f"no pack '{found.wrong_pack}' of this mix declares the "
                       f"{FAMILY_WORDS[family]} '{name.rpartition(':')[2]}'",
                       did_you_mean(name, found.ambiguous) or "write the name of a pack of the mix that declares "
                       "it before the colon, or the short name alone")
            return ""
        if found.ambiguous:
            self.error(path, span, "SW182", f"'{name}' names the {FAMILY_WORDS[family]} of several packs: "
                       + ", ".join(found.ambiguous), f"write one of {', '.join(found.ambiguous)}; or require "
                       "only one of the packs that declare it")
            return ""
        return None

    def tested(self, env: _Env, what: str, name: str) -> None:
        """Note what the declaration's rules test on the map (mixing: docs/mixing.md): every mention,
        and the tests its rules need — not one under `not`, in a side of `or`, in a branch of `if`."""
        key = decl_key(env.decl)
        self.out.mentions.setdefault(key, set()).add((what, name))
        if not self.optional:
            self.out.tests.setdefault(key, set()).add((what, name))

    def tested_piece(self, env: _Env, path: str, name: str, span) -> str | None:
        """The key of the piece a `has` names, noted as used and tested ('' when the name is
        ambiguous, reported; None when it names no piece)."""
        key = self.named(path, "piece", name, span)
        if key:
            self.out.used_markers.add(key)
            self.tested(env, "marker", key)
        return key

    @contextmanager
    def maybe(self, really: bool = True):
        """Type what follows as something a rule may do without (see `tested`)."""
        self.optional += really
        try:
            yield
        finally:
            self.optional -= really

    # ---- reporting
    def error(self, path: str, span: Span, code: str, message: str, hint: str = "") -> None:
        self.out.diagnostics.append(Diagnostic(path, span, code, message, hint))

    def warn(self, path: str, span: Span, code: str, message: str, hint: str = "") -> None:
        self.out.diagnostics.append(Diagnostic(path, span, code, message, hint, "warning"))

    def expect(self, env: _Env, e: ast.Expr, want: str) -> None:
        t = self.expr(env, e)
        if t not in (want, "?"):
            self.error(env.decl.path, e.span, "SW103", f"expected {described(want)}, this is {described(t)}")

    def expect_any(self, env: _Env, e: ast.Expr, wants: tuple[str, ...]) -> str:
        t = self.expr(env, e)
        if t not in wants and t != "?":
            wanted = " or ".join(described(w) for w in wants)
            if set(wants) == set(ELEMENT):
                wanted = "a set (of regions, players, races, powers, areas or markers)"
            self.error(env.decl.path, e.span, "SW103", f"expected {wanted}, this is {described(t)}")
        return t

    def var_type(self, v: ast.VarDecl) -> str:
        return "player" if isinstance(v.init, str) else "int"

    def plain(self, path: str, name: str, span: Span) -> bool:
        """A name the rules declare (a variable, an ability, a tag, a bound name) is written without
        a colon, which qualifies names by their pack (SW186); True if so."""
        if ":" in name:
            self.error(path, span, "SW186", f"name '{name}' holds a colon", "a colon separates a pack's name "
                       "from a declaration's (`pack:Name`): declare the name alone")
        return ":" not in name

    def fresh(self, env: _Env, name: ast.Name) -> None:
        """A name given to each element (`for each NAME in …`) must not hide another name."""
        n = name.text
        self.plain(env.decl.path, n, name.span)
        if n in env.bindings or n in env.variables or n in V.VALUES or n == "it":
            what = ("a binding here" if n in env.bindings else "a variable" if n in env.variables
                    else "the element inside `where`" if n == "it" else "a named value")
            self.error(env.decl.path, name.span, "SW173", f"'{n}' is already {what}",
                       "give each element a name of its own, e.g. `for each r in …`")

    def resolve(self, e, res: tuple, type_: str) -> str:
        self.out.resolved[id(e)] = res
        return type_

    def expr(self, env: _Env, e: ast.Expr) -> str:
        path = env.decl.path
        if isinstance(e, ast.Int):
            return "int"
        if isinstance(e, ast.Ref):
            return self.ref(env, e)
        if isinstance(e, ast.RegionSet):
            return "regions"
        if isinstance(e, ast.Count):
            self.expect_any(env, e.of, SETS)
            return "int"
        if isinstance(e, ast.Attr):
            st = self.expr(env, e.subject)
            if st == "?":
                return "?"
            attr = V.ATTRIBUTES.get((e.name, st))
            if attr is None and e.name in env.variables:
                return self.var_of(env, e.name, st, e.span, e)
            if attr is None:
                options = [n for (n, s) in V.ATTRIBUTES if s == st]
                hint = did_you_mean(e.name, options) or ("attributes: " + ", ".join(options) if options else "")
                if (e.name, f"{st}s") in V.ATTRIBUTES:  # `one of target`: an attribute of a selection
                    hint = f"'{e.name} of' takes a selection, e.g. `{e.name} of (my regions where …)`"
                elif not hint and (subjects := sorted({s for (n, s) in V.ATTRIBUTES if n == e.name})):
                    hint = f"'{e.name} of' takes " + " or ".join(described(s) for s in subjects)
                self.error(path, e.span, "SW106", f"{described(st)} has no attribute '{e.name}'", hint)
                return "?"
            return self.resolve(e, ("attr", attr.name, st), attr.type)
        if isinstance(e, ast.Call):
            return self.call(env, e)
        if isinstance(e, ast.Neg):
            self.expect(env, e.value, "int")
            return "int"
        if isinstance(e, ast.Arith):
            self.expect(env, e.left, "int")
            self.expect(env, e.right, "int")
            if e.op == "/" and isinstance(e.right, ast.Int) and e.right.value == 0:
                self.error(path, e.right.span, "SW119", "division by zero")
            return "int"
        if isinstance(e, ast.BoolOp):
            with self.maybe(e.op == "or"):
                self.expect(env, e.left, "bool")
                self.expect(env, e.right, "bool")
            return "bool"
        if isinstance(e, ast.Not):
            with self.maybe():
                self.expect(env, e.value, "bool")
            return "bool"
        if isinstance(e, ast.Compare):
            lt, rt = self.expr(env, e.left), self.expr(env, e.right)
            if e.op in ("==", "!="):
                if "?" not in (lt, rt) and lt != rt:
                    self.error(path, e.span, "SW103", f"cannot compare {described(lt)} with {described(rt)}")
            else:
                for side, t in ((e.left, lt), (e.right, rt)):
                    if t not in ("int", "?"):
                        self.error(path, side.span, "SW103", f"expected a number, this is {described(t)}")
            return "bool"
        if isinstance(e, ast.Test):
            return self.test(env, e)
        if isinstance(e, ast.Form):
            return self.form(env, e)
        if isinstance(e, ast.Filtered):
            bt = self.expect_any(env, e.base, SETS)
            inner = env.inner(ELEMENT.get(bt, "region"))
            if e.name is not None:
                self.plain(path, e.name, e.span)
                inner = inner.bind(e.name, ELEMENT.get(bt, "region"))
            self.expect(inner, e.cond, "bool")
            return bt if bt in SETS else "?"  # a wrong base is reported once, above
        self.error(path, getattr(e, "span", Span()), "SW199", "unsupported expression")
        return "?"

    def var_of(self, env: _Env, name: str, subject: str, span: Span, node=None) -> str:
        """`NAME of PLAYER`: a player variable of that player."""
        v = self.out.shared.get(name)
        if v is None or v.shared != "player":
            kind = f"a {v.shared} variable" if v is not None else "a variable of this declaration"
            self.error(env.decl.path, span, "SW172", f"'{name}' is {kind}, not a player variable",
                       f"only a `player var` has a value per player; write `{name}` alone")
            return "?"
        if subject not in ("player", "?"):
            self.error(env.decl.path, span, "SW103", f"a player variable is of a player, not of {described(subject)}")
        return self.resolve(node, ("pvar", name), self.var_type(v)) if node is not None else self.var_type(v)

    def form(self, env: _Env, e: ast.Form) -> str:
        """An expression form checked against its entry's parameters; the per-element one with the
        element's name bound."""
        f = V.FORMS[e.kind]
        types: dict[str, str] = {}
        name: ast.Name | None = None
        for param, arg in zip(f.params, e.args):
            if param.name == f.per_element:
                continue
            if isinstance(arg, ast.Name):
                if param.kind == "name":
                    name = arg
                    self.fresh(env, arg)
                else:
                    self.marker_name(env.decl.path, arg.text, arg.span, arg)
            else:
                types[param.kind] = self.expect_any(env, arg, EXPRESSION_KINDS[param.kind])
        for param, arg in zip(f.params, e.args):
            if param.name == f.per_element and not isinstance(arg, ast.Name):
                inner = env if name is None else env.bind(name.text, ELEMENT.get(types.get("selection", ""), "region"))
                self.expect_any(inner, arg, EXPRESSION_KINDS[param.kind])
        return f.type

    def call(self, env: _Env, e: ast.Call) -> str:
        f = V.FUNCTIONS[e.func]
        params = list(f.params) + [f.params[-1]] * (len(e.args) - len(f.params)) if f.variadic else list(f.params)
        if len(e.args) != len(params) or (f.variadic and len(e.args) < 2):
            want = "2 or more" if f.variadic else str(len(params))
            self.error(env.decl.path, e.span, "SW103", f"`{e.func}` takes {want} argument{'s' * (want != '1')}",
                       f"write e.g. `{f.example}`")
        for param, a in zip(params, e.args):
            self.expect_any(env, a, EXPRESSION_KINDS[param.kind])
        return f.type

    def ref(self, env: _Env, e: ast.Ref) -> str:
        n = e.name
        if n == "it" and env.it:
            return self.resolve(e, ("it",), env.it)
        if n == "here" and n not in env.bindings and n not in env.variables and env.decl.kind not in ("relic", "place", "figure"):
            self.error(env.decl.path, e.span, "SW125", f"`here` names the region of a relic, place or figure, not of a "
                       f"{env.decl.kind}",
                       "test the marker instead: `regions where has MARKER`")
            return "?"
        if n in env.bindings:
            return self.resolve(e, ("binding", n), env.bindings[n])
        if n in env.variables:
            return self.resolve(e, ("var", n), env.variables[n])
        if n in V.VALUES:
            return self.resolve(e, ("named", n), V.VALUES[n].type)
        if env.it and (n, env.it) in V.ATTRIBUTES:
            return self.resolve(e, ("attr_it", n, env.it), V.ATTRIBUTES[(n, env.it)].type)
        if env.it and n in STATES.get(env.it, {}):  # `regions where enemy`: a state of the element
            return self.resolve(e, ("state_it", env.it, n), "bool")
        if (n, "race") in V.ATTRIBUTES:
            return self.resolve(e, ("attr_me", n), V.ATTRIBUTES[(n, "race")].type)
        if n in self.names.terrains:
            self.tested(env, "place", n)
            return self.resolve(e, ("terrain", n), "terrain")
        choices = list(env.bindings) + list(env.variables) + list(V.VALUES) + [a for a, _ in V.ATTRIBUTES]
        choices += list(self.names.terrains)
        hint = did_you_mean(n, choices)
        bound_in = [x.name for x in list(V.EVENTS.values()) + list(V.STATS.values()) if n in x.bindings]
        if n == "it":
            hint = "`it` is the element being tested, inside `… where …` only"
        elif bound_in:
            more = ", …" if len(bound_in) > 4 else ""
            hint = f"'{n}' is not available here; it exists in {', '.join(bound_in[:4])}{more}"
        if not hint and env.bindings:
            hint = "names here: " + ", ".join(sorted(env.bindings))
        self.error(env.decl.path, e.span, "SW108", f"unknown name '{n}'", hint)
        return "?"

    def of_region(self, e: ast.Test, st: str, like: frozenset[str]) -> str:
        """What a terrain test tests: "region", a "terrain" value, or — for the terrain of a region
        (`terrain of target is mine`, `… where terrain is mine`) when a name counts as another or
        is also a symbol in a mix — "terrain_of": that region, its symbols included (docs/mixing.md)."""
        res = self.out.resolved.get(id(e.subject), ())
        mixed = len(like) > 1 or not like.isdisjoint(self.names.symbols)
        return "terrain_of" if st == "terrain" and mixed and res[:3] in (("attr", "terrain", "region"),
                                                                         ("attr_it", "terrain", "region")) else st

    def subject(self, env: _Env, e: ast.Test) -> str:
        if e.subject is None:
            if env.it is None:
                self.error(env.decl.path, e.span, "SW109", "this test needs a subject",
                           "only inside `where` may the subject be left out; write e.g. `target is edge`")
                return "?"
            return env.it
        return self.expr(env, e.subject)

    def test(self, env: _Env, e: ast.Test) -> str:
        path = env.decl.path
        st = self.subject(env, e)
        if st == "?":
            return "bool"
        if e.kind in ("is", "is_not"):
            arg = e.operand
            if isinstance(arg, ast.Ref) and arg.name in STATES.get(st, {}) and arg.name not in env.bindings \
                    and arg.name not in env.variables:
                if st == "region" and arg.name in self.names.seen_by(path):
                    self.warn(path, arg.span, "SW144", f"'is {arg.name}' tests the state '{arg.name}', not the "
                              f"terrain '{arg.name}'", f"for the terrain write `terrain of … is {arg.name}` "
                              f"(inside `where`: `terrain is {arg.name}`)")
                return self.resolve(e, ("state", st, arg.name), "bool")
            if isinstance(arg, ast.Ref) and st in ("region", "terrain") and arg.name in self.names.terrains:
                self.tested(env, "place", arg.name)
                like = self.names.like(arg.name)
                return self.resolve(e, ("terrain_is", self.of_region(e, st, like), arg.name, like), "bool")
            if isinstance(arg, ast.Ref) and arg.name not in env.bindings and arg.name not in env.variables \
                    and arg.name not in V.VALUES:
                options = list(STATES.get(st, {})) + (list(self.names.terrains) if st in ("region", "terrain") else [])
                hint = did_you_mean(arg.name, options) or ("known: " + ", ".join(sorted(options)) if options
                                                            else f"{described(st)} has no states to test")
                if st == "terrain":
                    self.error(path, arg.span, "SW116", f"unknown terrain '{arg.name}'",
                               did_you_mean(arg.name, options) or "terrains are declared in pack.yaml")
                elif st == "region":
                    self.error(path, arg.span, "SW108", f"unknown state or terrain '{arg.name}' for a region", hint)
                else:
                    self.error(path, arg.span, "SW108", f"unknown state '{arg.name}' for {described(st)}", hint)
                return "bool"
            at = self.expr(env, arg)
            if at != "?" and at != st:
                self.error(path, e.span, "SW103", f"cannot compare {described(st)} with {described(at)}")
            return self.resolve(e, ("equal", st), "bool")
        if e.kind == "in" and st == "option":
            words = env.words.get(e.subject.name, ()) if isinstance(e.subject, ast.Ref) else ()
            for n in e.names:
                if words and n not in words:
                    self.error(path, e.span, "SW158", f"'{n}' is not one of the choices",
                               did_you_mean(n, words) or "the choices: " + ", ".join(words))
            return self.resolve(e, ("option_in", frozenset(e.names)), "bool")
        if e.kind == "in":
            if st not in ("region", "terrain"):
                self.error(path, e.span, "SW103", f"`in [...]` lists terrains; {described(st)} has no terrain")
                return "bool"
            for n in e.names:
                if n not in self.names.terrains:
                    self.error(path, e.span, "SW116", f"unknown terrain '{n}'",
                               did_you_mean(n, self.names.terrains) or "terrains are declared in pack.yaml")
                self.tested(env, "place", n)
            like = frozenset().union(*map(self.names.like, e.names))
            return self.resolve(e, ("terrain_in", self.of_region(e, st, like), like), "bool")
        if e.kind == "has":
            n = e.names[0]
            if st == "region":
                if n in self.names.symbols:
                    self.tested(env, "place", n)
                    return self.resolve(e, ("symbol", n, self.names.like(n)), "bool")
                key = self.tested_piece(env, path, n, e.span)
                if key == "":
                    return "bool"
                if key is not None:
                    return self.resolve(e, ("marker", key), "bool")
                if n in self.names.marker_tags:
                    self.tested(env, "kind", n)
                    return self.resolve(e, ("marker_kind", n), "bool")
                self.error(path, e.span, "SW117", f"unknown symbol or marker '{n}'",
                           did_you_mean(n, self.names.symbols | self.names.markers | self.names.marker_tags)
                           or "symbols are declared in pack.yaml, markers with `marker`")
                return "bool"
            if st == "race":
                family = "power" if n in self.names.powers and n not in self.names.races else "race"
                known = n in self.names.races or n in self.names.powers or ":" in n
                key = self.named(path, family, n, e.span) if known and n not in self.names.tags else None
                if key == "":
                    return "bool"
                if key is None and n not in self.names.tags:
                    self.error(path, e.span, "SW118", f"unknown tag '{n}'",
                               did_you_mean(n, self.names.tags | self.names.races | self.names.powers)
                               or "tags are given with `tags …` in a race or power")
                return self.resolve(e, ("tag", key or n), "bool")
            if st == "player":
                key = self.marker_name(path, n, e.span)
                return self.resolve(e, ("player_marker", key), "bool")
            if st == "marker":
                key = self.tested_piece(env, path, n, e.span)
                if key == "":
                    return "bool"
                if key is None and n in self.names.marker_tags:
                    self.tested(env, "kind", n)
                elif key is None:
                    self.error(path, e.span, "SW117", f"unknown marker, kind or tag '{n}'",
                               did_you_mean(n, self.names.markers | self.names.marker_tags)
                               or "a marker piece is tested by its name, kind (`relic`, `place`) or tag")
                    return "bool"
                return self.resolve(e, ("piece_is", key or n), "bool")
            self.error(path, e.span, "SW103", f"`has` tests regions, races, players and markers, not {described(st)}")
            return "bool"
        if e.kind == "borders":
            if st not in ("region", "regions"):
                self.error(path, e.span, "SW103", f"`borders` tests a region or a set of regions, not {described(st)}")
            self.expect_any(env, e.operand, ("region", "regions"))
            return self.resolve(e, ("borders",), "bool")
        if e.kind == "was":
            n = e.names[0]
            if st not in LOG:
                self.error(path, e.span, "SW103", f"`was` tests a region, a player or a race, not {described(st)}")
                return "bool"
            states = LOG[st]
            if n not in states:
                self.error(path, e.span, "SW108", f"unknown state 'was {n}' for {described(st)}",
                           did_you_mean(n, states) or "known: " + ", ".join(states))
                return "bool"
            return self.resolve(e, ("was", st, n), "bool")
        return "bool"


FAMILY_WORDS = {"race": "race", "power": "power", "piece": "marker, relic or place", "rule": "rule",
                "pool": "pool"}


def decl_key(d: ast.Decl) -> tuple[str, str]:
    """How a declaration is known in `Checked.tests` and `Checked.puts`: its family and key."""
    return family_of(d.kind), d.name


def described(t: str) -> str:
    return {"int": "a number", "bool": "a condition", "region": "a region", "regions": "a set of regions",
            "race": "a race", "player": "a player", "players": "a set of players", "terrain": "a terrain",
            "races": "a set of races", "power": "a power", "powers": "a set of powers", "area": "an area",
            "areas": "a set of areas", "marker": "a marker", "markers": "a set of markers",
            "option": "one of a choice's words", "combos": "the combos on offer", "?": "something unknown"}.get(t, t)
