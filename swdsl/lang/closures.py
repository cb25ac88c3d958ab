"""Expressions compiled to closures: each AST expression becomes a function
of a Ctx, built once; nothing walks the tree while a game runs."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final

from swdsl.engine import caches
from swdsl.engine import queries as Q
from swdsl.engine.entries import Ctx, Variable
from swdsl.engine.frontier import candidates
from swdsl.engine.holdings import where
from swdsl.engine.stats import declares_adjacency
from swdsl.engine.vocabulary import ATTRIBUTES, FORMS, FUNCTIONS, LOG_STATES, SETS, STATES, VALUES
from swdsl.lang import ast, memos
from swdsl.lang.ast import children, conjuncts, nodes, reads_adjacency


def const(v):
    return lambda ctx: v


def _it(ctx: Ctx) -> Any:
    return ctx.it


def _my_regions(ctx: Ctx) -> Any:
    return () if ctx.me is None else ctx.me.regions


def all_of(tests: list) -> Callable[[Ctx], bool]:
    """The conjunction of `tests` (each a closure of a Ctx), asked in order."""
    if not tests:
        return const(True)
    found = tests[0]
    for t in tests[1:]:
        found = _and(found, t)
    return found


def _and(a, b) -> Callable[[Ctx], bool]:
    return lambda ctx: True if a(ctx) and b(ctx) else False


def _compared_to(op: str, a: Callable[[Ctx], Any], k: int) -> Callable[[Ctx], bool]:
    """`a op k` for a number `k` written in the rule."""
    if op == "==":
        return lambda ctx: a(ctx) == k
    if op == "!=":
        return lambda ctx: a(ctx) != k
    if op == "<":
        return lambda ctx: a(ctx) < k
    if op == "<=":
        return lambda ctx: a(ctx) <= k
    if op == ">":
        return lambda ctx: a(ctx) > k
    return lambda ctx: a(ctx) >= k


_UNREAD: Final = object()  # a hoisted part of a `where` not read yet in this selection


def _read_once(fn: Callable[[Ctx], Any], cell: list) -> Callable[[Ctx], Any]:
    """`fn`, read once per selection: its value kept in `cell` (the selection marks it unread); read
    every time with the caches off (a speed device: tests play the same games without it)."""
    def once(ctx: Ctx) -> Any:
        v = cell[0]
        if v is _UNREAD or not caches.SWITCH.on:
            v = cell[0] = fn(ctx)
        return v
    return once


def _face_down(ctx: Ctx) -> list[int]:
    return sorted(ctx.game.face_down)


def _with_markers(ctx: Ctx) -> list[int]:
    return [r for r, marks in enumerate(ctx.game.markers) if marks]


def called(fn: Callable[..., Any], ctx: Ctx, getters: list) -> Any:
    """`fn(ctx, *values)` of each getter's value, the arguments spelled out where few (a call with
    `*values` builds a tuple and takes Python's slow path: at every effect and expression form)."""
    n = len(getters)
    if n == 0:
        return fn(ctx)
    if n == 1:
        return fn(ctx, getters[0](ctx))
    if n == 2:
        return fn(ctx, getters[0](ctx), getters[1](ctx))
    if n == 3:
        return fn(ctx, getters[0](ctx), getters[1](ctx), getters[2](ctx))
    return fn(ctx, *[g(ctx) for g in getters])

_NOTHING_OF: Final = {"int": 0, "regions": [], "players": [], "races": [], "powers": [], "areas": [], "markers": []}
_MAP_ATTRIBUTES = {("terrain", "region"), ("area", "region"), ("neighbours", "region")}  # fixed by the map
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "/": lambda a, b: a // b if b else 0}


class ExprCompiler:
    """Compiles expressions; `res` is what the checker resolved each name to."""

    def variable(self, name: str) -> Variable:
        """A variable of the declaration, a `game var` or `player var`, or one a race reads of a relic or
        bound power it never declared."""
        return self.variables.get(name) or self.shared.get(name) or Variable(name, None, "race")

    res: dict[int, tuple]
    variables: dict[str, Variable]  # the declaration's own
    shared: dict[str, Variable]  # every declaration's `game var`s and `player var`s
    decl_name: str  # the declaration being compiled (`here` finds its marker)
    rename: dict[str, str]  # marker names read as others (a copied relic's own name means its wearer)
    hoisted: dict[int, Callable[[Ctx], Any]]  # while a `where` is compiled: its parts read once per selection

    def expr(self, e: ast.Expr):
        found = self.hoisted.get(id(e))
        if found is not None:
            return found
        m = getattr(self, "_" + type(e).__name__.lower())
        return m(e)

    def _word(self, name: ast.Name) -> str:
        """A marker's, pool's or piece's name as the checker resolved it (its key in a mix), read as
        the wearer's own name where a copied relic names itself."""
        res = self.res.get(id(name))
        text = res[1] if res and res[0] == "key" else name.text
        return self.rename.get(text, text)

    def _int(self, e: ast.Int):
        return const(e.value)

    def _ref(self, e: ast.Ref):
        res = self.res.get(id(e), ("named", e.name))
        kind = res[0]
        if kind == "it":
            return _it
        if kind == "binding":
            name = res[1]

            def binding(ctx: Ctx) -> Any:
                return ctx.b.get(name)
            return binding
        if kind == "var":
            return self.variable(res[1]).get
        if kind == "terrain":
            return const(res[1])
        if kind in ("attr_it", "state_it"):
            of_it = ATTRIBUTES[(res[1], res[2])].get if kind == "attr_it" else STATES[(res[1], res[2])].test

            def its(ctx: Ctx) -> Any:
                return of_it(ctx, ctx.it)
            return its
        if kind == "attr_me":
            get = ATTRIBUTES[(res[1], "race")].get

            def mine(ctx: Ctx) -> Any:
                return get(ctx, ctx.me)
            return mine
        value = VALUES[res[1]]
        return value.get(self.decl_name) if value.per_declaration else value.get

    def _regionset(self, e: ast.RegionSet):
        return SETS[e.qual].get

    def _count(self, e: ast.Count):
        of = self.expr(e.of)
        return lambda ctx: len(of(ctx))

    def _attr(self, e: ast.Attr):
        res, subject = self.res[id(e)], self.expr(e.subject)
        if res[0] == "pvar":  # `debts of PLAYER`
            return self.variable(res[1]).of(subject).get
        _, name, st = res
        entry = ATTRIBUTES[(name, st)]
        get, nothing = entry.get, _NOTHING_OF.get(entry.type)
        bound = self.res.get(id(e.subject), ("",))
        if isinstance(e.subject, ast.Ref) and bound[0] == "binding":  # `tokens of target`: read in place
            key = bound[1]

            def attr_of(ctx: Ctx) -> Any:
                v = ctx.b.get(key)
                return nothing if v is None else get(ctx, v)
            return attr_of

        def attr(ctx: Ctx) -> Any:
            v = subject(ctx)
            return nothing if v is None else get(ctx, v)  # of nobody, nowhere (`one of` an empty set)
        return attr

    def _form(self, e: ast.Form):
        """An expression form bound to its entry: each argument a getter, the per-element one passed as
        its function."""
        entry = FORMS[e.kind]
        getters = []
        for param, arg in zip(entry.params, e.args):
            if isinstance(arg, ast.Name):
                getters.append(const(self._word(arg) if param.kind == "marker" else arg.text))
            elif param.name == entry.per_element:
                getters.append(const(self.expr(arg)))
            else:
                getters.append(self.expr(arg))
        run = entry.run
        return lambda ctx: called(run, ctx, getters)

    def _call(self, e: ast.Call):
        args = [self.expr(a) for a in e.args]
        call = FUNCTIONS[e.func].call
        if FUNCTIONS[e.func].borders_only:
            return memos.by_arguments(call, args)
        return lambda ctx: called(call, ctx, args)

    def _neg(self, e: ast.Neg):
        v = self.expr(e.value)
        return lambda ctx: -(v(ctx) or 0)

    def _arith(self, e: ast.Arith):
        f, a, b = _ARITH[e.op], self.expr(e.left), self.expr(e.right)
        return lambda ctx: f(a(ctx) or 0, b(ctx) or 0)

    def _boolop(self, e: ast.BoolOp):
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "and":  # a bool without calling bool(): every rule's condition runs through these
            return _and(a, b)
        return lambda ctx: True if a(ctx) or b(ctx) else False

    def _not(self, e: ast.Not):
        v = self.expr(e.value)
        return lambda ctx: not v(ctx)

    def _compare(self, e: ast.Compare):
        a = self.expr(e.left)
        if isinstance(e.right, ast.Int):  # `uses < 3`, `count (…) > 0`: the number read once, compared in place
            return _compared_to(e.op, a, e.right.value)
        f, b = _CMP[e.op], self.expr(e.right)
        return lambda ctx: f(a(ctx), b(ctx))

    def _filtered(self, e: ast.Filtered):
        near, narrowed = self._narrowing(e)
        base, name = narrowed or self.expr(e.base), e.name
        cells = self._hoist(e)
        cond = self.expr(e.cond)
        # candidates narrowed to the regions bordering X are all that `borders X` passes, unless the race
        # declares adjacency of its own (then they are every region): the conjunct is asked only then
        rest = None if near is None else all_of([self.expr(c) for c in conjuncts(e.cond) if c is not near])
        for n in cells:
            del self.hoisted[n]
        held = list(cells.values())

        def filtered(ctx: Ctx) -> list:
            saved = ctx.it
            out = []
            test = cond if rest is None or declares_adjacency(ctx.game, ctx.me) else rest
            outer = None
            if held:
                outer = [c[0] for c in held]  # a selection read again inside itself keeps its own values
                for c in held:
                    c[0] = _UNREAD
            for x in base(ctx):
                ctx.it = x
                if name is not None:
                    ctx.b[name] = x
                if test(ctx):
                    out.append(x)
            if outer is not None:
                for c, v in zip(held, outer):
                    c[0] = v
            ctx.it = saved
            return out
        if isinstance(e.base, ast.RegionSet) and e.base.qual == "all" and self.static(e.cond):
            return memos.per_board(filtered, reads_adjacency(e.cond))
        return filtered

    def _hoist(self, e: ast.Filtered) -> dict[int, list]:
        """The counts and selections of `e`'s condition that do not read its element (`count (neighbours of
        f where is mine)` while testing each race), each compiled to be read once per selection, at its
        first use, and kept in a cell of its own (by node id) while `e`'s condition is compiled."""
        cells: dict[int, list] = {}
        stack: list[Any] = [e.cond]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.Count, ast.Filtered)) and not self._mentions_element(n, e.name):
                fn, cell = self.expr(n), [_UNREAD]
                cells[id(n)] = cell
                self.hoisted[id(n)] = _read_once(fn, cell)
                continue
            if isinstance(n, ast.Filtered):  # a `where` inside: its own condition tests its own elements
                stack.append(n.base)
                continue
            stack.extend(children(n))
        return cells

    def candidates(self, e: ast.Filtered):
        """The values a `where` tests: its base, or fewer (narrowed)."""
        return self.narrowed(e) or self.expr(e.base)

    def narrowed(self, e: ast.Filtered):
        """The values worth testing of a `where` over every region, or None: for `regions where … has
        M …` only the regions where M lies (holdings.where), for `… has a KIND …` those where some
        marker lies, for `regions where … borders X …` (X not depending on the element) only the
        regions bordering X, in order, for a race that declares no adjacency of its own, for `… is
        attackable …` the regions in the race's reach (as `sample` draws targets), for `… is face_down
        …` the regions where something lies face down, and else those passing the parts that read only
        the map: the others cannot pass, and markers are few, X often a race's few regions, its reach a
        frontier."""
        return self._narrowing(e)[1]

    def base_reads(self, sel: ast.Expr) -> set[str]:
        """The bindings a selection's values worth testing (`candidates`) may read: those its base names and
        those of the conjuncts a narrowing reads (tests of the element, `occupant == X`), not those the
        condition alone tests (`it != a`)."""
        parts = (sel,) if not isinstance(sel, ast.Filtered) else (sel.base, *[
            c for c in conjuncts(sel.cond) if isinstance(c, ast.Test) and c.subject is None
            or isinstance(c, ast.Compare) and c.op == "=="])
        return {self.res[id(n)][1] for n in nodes(parts) if self.res.get(id(n), ("",))[0] == "binding"}

    def _narrowing(self, e: ast.Filtered) -> tuple[ast.Test | None, Any]:
        """`narrowed`'s closure for `e` (or None), with the `borders X` conjunct when it narrows `e` to the
        regions bordering X."""
        tests = [c for c in conjuncts(e.cond) if isinstance(c, ast.Test) and c.kind != "is_not" and c.subject is None]
        logged = next((self.res[id(c)][1] for c in tests if c.kind == "was"), None)
        if logged is not None:
            return None, self._logged(e, logged)
        if not (isinstance(e.base, ast.RegionSet) and e.base.qual == "all"):
            return None, None
        base = self.expr(e.base)
        named = next((self.res[id(c)][1] for c in tests if self.res.get(id(c), ("",))[0] == "marker"), None)
        if named is not None:
            name = self.rename.get(named, named)

            def marked(ctx: Ctx) -> Any:
                return where(ctx.game)[0].get(name, ())
            return None, marked
        if any(self.res.get(id(c), ("",))[0] == "marker_kind" for c in tests):
            return None, _with_markers
        held_by = self._occupant_is(e)
        if held_by is not None:
            return None, held_by
        if any(self.res.get(id(c), ("",)) == ("state", "region", "attackable") for c in tests):
            return None, in_reach
        if any(self.res.get(id(c), ("",)) == ("state", "region", "face_down") for c in tests):
            return None, _face_down
        near = self._near(e)
        if near is None:
            return None, self._map_prefilter(base, conjuncts(e.cond))
        other = near[1]

        def bordering(ctx: Ctx) -> Any:
            if declares_adjacency(ctx.game, ctx.me):
                return base(ctx)
            x = other(ctx)
            if x is None:
                return ()
            nb = ctx.game.board.neighbours
            return sorted(nb[x] if isinstance(x, int) else set().union(*(nb[r] for r in x)))
        return near[0], bordering

    def _near(self, e: ast.Filtered) -> tuple[ast.Test, Callable[[Ctx], Any]] | None:
        """For `regions where … borders X …` (X not depending on the element): that conjunct and X; else None."""
        if not (isinstance(e.base, ast.RegionSet) and e.base.qual == "all"):
            return None
        for c in conjuncts(e.cond):
            if isinstance(c, ast.Test) and c.kind == "borders" and c.subject is None \
                    and self.res.get(id(c), ("",))[0] == "borders" and not self._mentions_element(c.operand, e.name):
                return c, self._region_set(c.operand)
        return None

    def _region_set(self, e: ast.Expr) -> Callable[[Ctx], Any]:
        """A region or regions as `borders` reads them: `my regions` as the race's own set, unsorted."""
        if isinstance(e, ast.RegionSet) and e.qual == "my":
            return _my_regions
        return self.expr(e)

    def _logged(self, e: ast.Filtered, kind: str):
        """For `… where was STATE …` (a state of this turn's conquests): the elements that this race's
        conquests of the turn name (their regions, the players or races they were taken from), in the
        base's order; the others cannot pass, and a turn has few conquests."""
        base = self.expr(e.base)

        def logged(ctx: Ctx) -> Any:
            me = ctx.me
            if me is None:
                return ()
            mine = [c for c in ctx.game.turn.log if c.attacker == me.id]
            if not mine:
                return ()
            if kind == "race":
                races = {c.defender for c in mine}
                return [x for x in base(ctx) if x is not None and x.id in races]
            named = {c.region for c in mine} if kind == "region" else {c.defender_player for c in mine}
            return [x for x in base(ctx) if x in named]
        return logged

    def _occupant_is(self, e: ast.Filtered):
        """For `regions where occupant == X …` (X not depending on the element), the regions X holds,
        in order (every region if X is nobody: the empty ones pass); else None."""
        for c in conjuncts(e.cond):
            if not (isinstance(c, ast.Compare) and c.op == "=="):
                continue
            for mine, other in ((c.left, c.right), (c.right, c.left)):
                if (isinstance(mine, ast.Ref) and self.res.get(id(mine), ("",))[:2] == ("attr_it", "occupant")
                        and not self._mentions_element(other, e.name)):
                    race, every = self.expr(other), self.expr(e.base)

                    def held_by(ctx: Ctx) -> Any:
                        x = race(ctx)
                        return every(ctx) if x is None else sorted(x.regions)
                    return held_by
        return None

    def _map_prefilter(self, base, conjuncts: list):
        """The regions passing the conjuncts that read only the map (`has magic`, `terrain is sea`),
        kept in the board, in order, when others are left to test: `regions where has magic and not is
        immune` tests immunity on the few magic regions only."""
        static = [c for c in conjuncts if self.static(c)]
        if not static or len(static) == len(conjuncts):  # all of them: the whole selection is kept per board
            return None
        tests = [self.expr(c) for c in static]

        def passing(ctx: Ctx) -> list:
            saved = ctx.it
            out = []
            for x in base(ctx):
                ctx.it = x
                if all(test(ctx) for test in tests):
                    out.append(x)
            ctx.it = saved
            return out
        return memos.per_board(passing, any(reads_adjacency(c) for c in static), tuple)

    def _mentions_element(self, e, name: str | None) -> bool:
        """Whether `e` reads the element a `where` is testing (`it`, its `as` name), outside the
        `where`s nested in it (which test elements of their own)."""
        stack = [e]
        while stack:
            n = stack.pop()
            res = self.res.get(id(n), ("",))
            if isinstance(n, ast.Ref) and (res[0] in ("it", "attr_it", "state_it") or res == ("binding", name)):
                return True
            if isinstance(n, ast.Test) and n.subject is None:
                return True
            if isinstance(n, ast.Filtered):
                if name is not None and any(isinstance(x, ast.Ref) and self.res.get(id(x), ("",)) == ("binding", name)
                                            for x in nodes(n.cond)):
                    return True  # its `as` name read inside a nested `where`
                stack.append(n.base)
                continue
            stack.extend(children(n))
        return False

    def static(self, e, fixed: frozenset[str] = frozenset(), given: list | None = None) -> bool:
        """True if `e` depends only on the map (terrain, symbols, edge, borders)
        and the bindings in `fixed`: such a value is computed once per map (and
        per value of those bindings), not at every evaluation. With `given`, a variable or `here` is
        taken as fixed too, and its reference appended to `given`."""
        if isinstance(e, ast.Int):
            return True
        if isinstance(e, ast.Ref):
            res = self.res.get(id(e), ("?",))
            if given is not None and (res[0] == "var" or res == ("named", "here")):
                given.append(e)
                return True
            return res[0] in ("it", "terrain") or e.name in ("true", "false") or res == ("state_it", "region", "edge") \
                or res[0] == "attr_it" and (res[1], res[2]) in _MAP_ATTRIBUTES \
                or res[0] == "binding" and res[1] in fixed
        if isinstance(e, ast.Attr):
            res = self.res.get(id(e), ("?",))
            return (res[1:] if len(res) == 3 else ()) in _MAP_ATTRIBUTES and self.static(e.subject, fixed, given)
        if isinstance(e, ast.BoolOp):
            return self.static(e.left, fixed, given) and self.static(e.right, fixed, given)
        if isinstance(e, (ast.Not, ast.Neg)):
            return self.static(e.value, fixed, given)
        if isinstance(e, (ast.Arith, ast.Compare)):
            return self.static(e.left, fixed, given) and self.static(e.right, fixed, given)
        if isinstance(e, ast.Count):
            return self.static(e.of, fixed, given)
        if isinstance(e, ast.Filtered):
            return isinstance(e.base, ast.RegionSet) and e.base.qual == "all" and self.static(e.cond, fixed, given)
        if isinstance(e, ast.Test):
            res = self.res.get(id(e), ("?",))
            subject_ok = e.subject is None or self.static(e.subject, fixed, given)
            if res[0] in ("terrain_is", "terrain_in", "symbol"):
                return subject_ok
            if res[0] == "state" and res[2] == "edge":
                return subject_ok
            if res[0] == "borders":
                return subject_ok and self.static(e.operand, fixed, given)
        return False

    def local(self, e) -> bool:
        """True if `e` reads only the facts of `target` itself (its terrain, symbols, whether it lies at
        the edge): no other region, border, area or count. Such a value is the same for every region of
        a kind, on any board (stats.py: region-local tables)."""
        if isinstance(e, ast.Int):
            return True
        if isinstance(e, ast.Ref):
            res = self.res.get(id(e), ("?",))
            return res[0] == "terrain" or e.name in ("true", "false") or res == ("binding", "target")
        if isinstance(e, ast.Attr):
            res = self.res.get(id(e), ("?",))
            return (res[1:] if len(res) == 3 else ()) == ("terrain", "region") and self.local(e.subject)
        if isinstance(e, (ast.BoolOp, ast.Arith, ast.Compare)):
            return self.local(e.left) and self.local(e.right)
        if isinstance(e, (ast.Not, ast.Neg)):
            return self.local(e.value)
        if isinstance(e, ast.Test):
            res = self.res.get(id(e), ("?",))
            local_test = res[0] in ("terrain_is", "terrain_in", "symbol") or res[0] == "state" and res[2] == "edge"
            return local_test and e.subject is not None and self.local(e.subject)  # their names are constants
        return False

    def per_target(self, e) -> Callable[[Ctx], Any]:
        """`e` compiled; if it depends only on the map and `target`, its value is
        kept per board and target (a modifier's `when terrain of target is sea`), or per kind of region
        when it reads only the target's own facts."""
        fn = self.expr(e)
        if self.static(e, frozenset({"target"})) and not self.static(e):
            return memos.per_target(fn, reads_adjacency(e), self.local(e))
        return fn

    def _test(self, e: ast.Test):
        """A test as `check(ctx, value)` of its subject's value; a subject that is nobody or nowhere
        (`one of` an empty set) passes no test but `is` equality."""
        res = self.res.get(id(e), ("none",))
        kind = res[0]
        check: Callable[[Ctx, Any], bool]
        if kind == "state":
            check = STATES[(res[1], res[2])].test
        elif kind in ("terrain_is", "terrain_in", "symbol"):
            check = _looks_like(res[-1], region=res[0] == "symbol" or res[1] in ("region", "terrain_of"))
        elif kind == "option_in":
            words = res[1]
            check = lambda ctx, v: v in words  # noqa: E731
        elif kind == "equal":
            arg = self.expr(e.operand)
            check = lambda ctx, v: v == arg(ctx)  # noqa: E731
        elif kind in ("marker", "marker_kind", "player_marker", "piece_is"):
            name = self.rename.get(res[1], res[1]) if kind == "marker" else res[1]
            has: Any = {"marker": Q.has_marker, "marker_kind": Q.has_piece_kind,
                                        "player_marker": Q.player_has_marker, "piece_is": Q.piece_is}[kind]

            def check(ctx: Ctx, v: Any) -> bool:
                return has(ctx.game, v, name)
        elif kind == "tag":
            name = res[1]
            check = lambda ctx, v: Q.has_tag(v, name)  # noqa: E731
        elif kind == "borders":
            arg = self._region_set(e.operand)
            check = lambda ctx, v: Q.borders(ctx, v, arg(ctx))  # noqa: E731
        elif kind == "was":
            check = LOG_STATES[(res[1], res[2])].test
        else:
            return const(False)
        of: ast.Expr | None = e.subject
        if kind in ("terrain_is", "terrain_in") and res[1] == "terrain_of":  # the terrain of a region: that region
            of = e.subject.subject if isinstance(e.subject, ast.Attr) else None  # `terrain` alone: the element's
        if of is None:  # the element inside `where`
            def test(ctx: Ctx) -> bool:
                return check(ctx, ctx.it)
        else:
            bound = self.res.get(id(of), ("",))
            if kind != "equal" and isinstance(of, ast.Ref) and bound[0] == "binding":  # `target is …`: read in place
                key = bound[1]  # a name of its own: `check` reads `name`

                def test(ctx: Ctx) -> bool:
                    v = ctx.b.get(key)
                    return v is not None and check(ctx, v)
            else:
                subject = self.expr(of)
                if kind == "equal":
                    test = lambda ctx: check(ctx, subject(ctx))  # noqa: E731
                else:
                    test = lambda ctx: (v := subject(ctx)) is not None and check(ctx, v)  # noqa: E731
        if e.kind == "is_not":
            return lambda ctx: not test(ctx)
        return test


def _looks_like(names: frozenset[str], region: bool) -> Callable[[Ctx, Any], bool]:
    """A test of terrains and symbols: a region matches if its terrain or one of
    its symbols is among `names` (a name and its pack.yaml equivalents); a
    terrain value matches if it is among them."""
    if not region:
        return lambda ctx, v: v in names
    if len(names) == 1:  # no equivalents: one name, a terrain or a symbol
        (name,) = names

        def one(ctx: Ctx, r: int) -> bool:
            reg = ctx.game.board.regions[r]
            return reg.terrain == name or name in reg.symbols
        return one

    def test(ctx: Ctx, r: int) -> bool:
        reg = ctx.game.board.regions[r]
        return reg.terrain in names or not names.isdisjoint(reg.symbols)
    return test


def in_reach(ctx: Ctx) -> list[int]:
    """The regions worth testing for `is attackable`: the race's frontier where the board tells it, else
    every region but its own (frontier.candidates, as `sample` draws conquest targets)."""
    return [] if ctx.me is None else candidates(ctx.game, ctx.me)[0]
