"""Compile checked declarations into engine content: closures, never tree walks.

Every expression becomes a Python closure taking a Ctx (closures.py), and every
effect is bound to its entry in the engine's vocabulary: the entry's
implementation is called with the argument values. Nothing here evaluates
pack text as Python or changes the game; effects reach the game only through
the engine's implementations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from swdsl.engine.content import Content, SharedVar
from swdsl.engine.effects import Strength
from swdsl.engine.entries import BLOCK, FLAG, Ctx, Overflow, Variable
from swdsl.engine.errors import ContentError
from swdsl.engine.hooks import Ability, Choice, Modifier, Trigger
from swdsl.engine.stats import shielded
from swdsl.engine.vocabulary import DECL_PROPS, EFFECTS, FUNCTIONS, STATS
from swdsl.lang import ast, memos
from swdsl.lang.ast import children, conjuncts, nodes, reads_adjacency
from swdsl.lang.checker import Checked
from swdsl.lang.closures import ExprCompiler, all_of, called, const, in_reach
from swdsl.lang.typer import ELEMENT

Run = Callable[[Ctx], Any]
# properties that take names (`tags a b`, `survives decline`): their words are kept as a tuple
# the region states whose test folds a stat (immunity, reach, cost)
_FOLDING_STATES = frozenset({("region", "immune"), ("region", "attackable"), ("region", "conquerable")})
NAMES_PROPS = frozenset(n for props in DECL_PROPS.values() for n, (kind, _) in props.items() if kind == "names")


class Compiler(ExprCompiler):
    def __init__(self, checked: Checked):
        self.res = checked.resolved
        self.hoisted = {}
        self.shared = {n: Variable(n, None if v.init == "none" else v.init, v.shared) for n, v in checked.shared.items()}

    # ---- declarations
    def compile(self, d: ast.Decl, wearer: str | None = None) -> Content:
        """Compile `d`; with `wearer`, as the rules another marker wears
        (`copy … to WEARER`): the marker's own name then means the wearer."""
        c = Content(kind=d.kind, name=d.name)
        self.decl_name = wearer or d.name
        self.rename = {d.name: wearer} if wearer else {}
        self.key_prefix = f"{wearer}>" if wearer else ""
        self.wearers: set[str] = set()
        owner = "game" if d.kind == "rule" else "race"
        self.variables = {i.name: Variable(i.name, None if i.init == "none" else i.init, owner)
                          for i in d.items if isinstance(i, ast.VarDecl) and not i.shared}
        self.path = d.path
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        abilities = []
        docs = []
        for item in d.items:
            if isinstance(item, ast.Prop):
                c.props[item.name] = item.args[0] if len(item.args) == 1 and item.name not in NAMES_PROPS \
                    else (tuple(item.args) if item.args else True)
            elif isinstance(item, ast.Doc):
                docs.append(item.text)
            elif isinstance(item, ast.VarDecl):
                init = None if item.init == "none" else item.init
                reset = item.reset.text if item.reset else None
                if item.shared:
                    c.shared += (SharedVar(item.name, item.shared, init, reset),)  # type: ignore[arg-type]
                else:
                    c.variables[item.name] = (init, reset)
            elif isinstance(item, ast.Modifier):
                m = self.modifier(d, item)
                mods.setdefault(m.stat, []).append(m)
            elif isinstance(item, ast.Trigger):
                chooses, effects = self.chooses(item.steps)
                t = Trigger(item.event.text, self.opt(item.when), item.scope.kind if item.scope else "active",
                            self.block(tuple(effects)), d.name, item.audience.text if item.audience else "me",
                            self.where(item.span), tuple(chooses),
                            any(s.optional for s in item.steps if isinstance(s, ast.Choose)),
                            any(isinstance(n, ast.Effect) and n.kind == "cancel_conquest" for n in nodes(item.steps)))
                trigs.setdefault(t.event, []).append(t)
            elif isinstance(item, ast.Ability):
                abilities.extend(self.ability(d, item))
        c.modifiers = {k: tuple(v) for k, v in mods.items()}
        c.triggers = {k: tuple(v) for k, v in trigs.items()}
        c.abilities = tuple(abilities)
        c.doc = " ".join(docs)
        c.copiers = frozenset(self.wearers)
        return c

    def modifier(self, d: ast.Decl, m: ast.Modifier) -> Modifier:
        parts = [e for e in (m.value, m.when, m.floor, m.cap) if e is not None]
        once = self.per_decision(parts) if "target" in STATS[m.stat.text].bindings else []
        try:
            return self._modifier(d, m, parts, bool(once))
        finally:
            for n in once:
                del self.hoisted[n]

    def per_decision(self, parts: list) -> list[int]:
        """The selections, counts and reaches in a rule of `target` that read no binding, no element
        outside their own `where`s and no stat, and are not map-only (those are kept per board): the
        same at every region a decision asks about, so each is compiled to be read once per decision
        (memos.per_decision) while the rule is compiled. Their node ids."""
        found = []
        stack = list(parts)
        while stack:
            n = stack.pop()
            if self.static(n):
                continue
            if isinstance(n, (ast.Count, ast.Filtered, ast.Call)) and self._unbound(n) and self._costly(n):
                self.hoisted[id(n)] = memos.per_decision(self.expr(n))
                found.append(id(n))
                continue
            stack.extend([n.base] if isinstance(n, ast.Filtered) else children(n))
        return found

    def _costly(self, e: ast.Expr) -> bool:
        """Whether `e` walks the map: a reach or groups, a region's group or neighbours, or a selection of every
        region that no marker narrows (`regions where is occupied …`); reading a cheaper one again costs
        less than keeping it."""
        for n in nodes(e):
            res = self.res.get(id(n), ("",))
            if isinstance(n, ast.Call) and FUNCTIONS[n.func].borders_only \
                    or res[0] in ("attr", "attr_it") and tuple(res[1:3]) in (("group", "region"), ("neighbours", "region")):
                return True
            if isinstance(n, ast.Filtered) and isinstance(n.base, ast.RegionSet) and n.base.qual == "all" and not any(
                    isinstance(c, ast.Test) and self.res.get(id(c), ("",))[0] in ("marker", "marker_kind")
                    for c in conjuncts(n.cond)):
                return True
        return False

    def _unbound(self, e: ast.Expr) -> bool:
        """Whether `e` reads no binding, no element outside the `where`s in it, and no stat (asked inside
        its own fold, a stat reads its base: its value would depend on where it is read)."""
        for n in nodes(e):
            res = self.res.get(id(n), ("",))
            if res[0] == "binding" or res[0] in ("attr", "attr_it") and tuple(res[1:3]) == ("cost", "region") \
                    or res[0] in ("state", "state_it") and tuple(res[1:3]) in _FOLDING_STATES:
                return False
        return not self._mentions_element(e, None)

    def _modifier(self, d: ast.Decl, m: ast.Modifier, parts: list, per_decision: bool) -> Modifier:
        targeted = "target" in STATS[m.stat.text].bindings
        when = self.per_target(m.when) if m.when is not None and targeted else self.opt(m.when)
        regions = frozenset(name for name, kind in STATS[m.stat.text].bindings.items() if kind == "region")
        map_only, given = "", []  # type: tuple[str, list[ast.Ref]]
        if regions == {"target"} and all(self.local(e) for e in parts):
            map_only = "region"
        elif all(self.static(e, regions) for e in parts):
            map_only = "adjacency" if any(reads_adjacency(e) for e in parts) else "map"
        elif not all(self.static(e, regions, given) for e in parts):
            given = []
        reads = {self.res.get(id(g)): self.expr(g) for g in given}  # each variable, and `here`, once
        row = self.row(m.when) if m.when is not None and "other" in STATS[m.stat.text].bindings else None
        gate, rest = self.gate(m.when) if m.when is not None and "target" in regions else (None, None)
        value, floor, cap = self.expr(m.value), self.opt(m.floor), self.opt(m.cap)

        def made(when: Callable | None, gate: Callable | None = None, ungated: Modifier | None = None) -> Modifier:
            return Modifier(m.stat.text, m.op, value, when, floor, cap, m.scope.kind if m.scope else "active",
                            d.name, d.kind, self.where(m.span), map_only, tuple(reads.values()), row, gate, ungated,
                            per_decision)
        return made(when) if gate is None else made(when, gate, made(rest))

    def gate(self, when: ast.Expr) -> tuple:
        """A targeted rule's gate and the rest of its condition (Modifier.gate): the conjuncts of `when`
        that read only the target's own facts, and the others, each as one test (None if there is none)."""
        parts = conjuncts(when)
        own = [c for c in parts if self.local(c)]
        if not own:
            return None, None
        rest = [c for c in parts if not self.local(c)]
        return self.conjunction(own, self.expr), self.conjunction(rest, self.per_target)

    def row(self, when: ast.Expr):
        """The conjuncts of a region.adjacent rule's `when` that do not read `other`, as one test (None if
        every one does): where `terrain of target == terrain of here` fails (at most regions), the whole
        row of declared neighbours is the map's, with no region asked."""
        own = [c for c in conjuncts(when) if not any(isinstance(n, ast.Ref) and n.name == "other" for n in nodes(c))]
        return self.conjunction(own, self.per_target)

    @staticmethod
    def conjunction(parts: list, compile: Callable):
        """The conjuncts `parts` as one test, each compiled by `compile` (None if there is none)."""
        return all_of([compile(c) for c in parts]) if parts else None

    def chooses(self, steps: tuple) -> tuple[list[Choice], list[ast.Effect]]:
        """The choices of an ability or a trigger, and its effects."""
        chooses, effects = [], []
        for step in steps:
            if not isinstance(step, ast.Choose):
                effects.append(step)
            elif isinstance(step.selection, ast.Options):
                chooses.append(_words(step.name, step.selection.names))
            else:
                options, is_option = self.options(step.selection), self.is_option(step.selection)
                kind = self.res.get(id(step), ("regions",))[0]
                if kind == "regions":
                    options, is_option = _unshielded(options, is_option)
                chooses.append(Choice(step.name, ELEMENT.get(kind, "region"), options, is_option,
                                      *self.unfiltered(step.selection)))
        return chooses, effects

    def ability(self, d: ast.Decl, a: ast.Ability) -> list[Ability]:
        """The ability once per phase it is offered in (`during start, conquest`): one key, one run and one
        count of uses, whichever phase it is used in."""
        chooses, effects = self.chooses(a.steps)
        limit = a.limit
        phases = [p.text for p in a.phases] or ["conquest"]
        first = Ability(
            key=f"{self.key_prefix}{d.name}/{a.name}", name=a.name, source=d.name, phase=phases[0],
            limit=limit.count if limit else None, per=limit.per.text if limit and limit.per else None,
            per_owner=bool(limit and limit.key), when=self._pieces_left(self.opt(a.when), effects),
            scope=a.scope.kind if a.scope else "active", choose=tuple(chooses), run=self.block(tuple(effects)),
            where=self.where(a.span), possible=self._possible(effects),
            few=chooses[0].base if len(chooses) == 1 and chooses[0].few else None,
            product=len(chooses) > 1 and all(c.base is not None and c.few for c in chooses) and self._apart(a.steps),
        )
        return [first] + [dataclasses.replace(first, phase=p) for p in phases[1:]]

    def _apart(self, steps: tuple) -> bool:
        """Whether no choice's values worth checking (its base) read an earlier choice."""
        earlier: set[str] = set()
        for step in steps:
            if isinstance(step, ast.Choose):
                if not isinstance(step.selection, ast.Options) and not earlier.isdisjoint(self.base_reads(step.selection)):
                    return False
                earlier.add(step.name)
        return True

    def options(self, sel: ast.Expr):
        fn = self.expr(sel)
        return lambda ctx: sorted(fn(ctx))

    def unfiltered(self, sel: ast.Expr) -> tuple[Any, bool]:
        """The values a selection tests (closures.candidates; one with no `where`, its options): a bot
        drawing one action checks one of them instead of listing the options; and whether they are few (narrowed,
        or not every region; a race's reach is no few values: it is asked only of an ability whose
        condition passed)."""
        if not isinstance(sel, ast.Filtered):  # no condition: its options are all worth checking
            return self.options(sel), not (isinstance(sel, ast.RegionSet) and sel.qual == "all")
        narrowed = self.narrowed(sel)
        if narrowed is not None:
            return narrowed, narrowed is not in_reach
        return self.expr(sel.base), not (isinstance(sel.base, ast.RegionSet) and sel.base.qual == "all")

    def is_option(self, sel: ast.Expr):
        """Whether one value is among a selection's options, testing the
        `where` condition on that value only."""
        if not isinstance(sel, ast.Filtered):
            fn = self.expr(sel)
            return lambda ctx, v: v in fn(ctx)
        cond = self.expr(sel.cond)
        if isinstance(sel.base, ast.RegionSet) and sel.base.qual == "all":
            def in_base(ctx, v):
                return isinstance(v, int) and 0 <= v < len(ctx.game.board)
        else:
            base = self.expr(sel.base)

            def in_base(ctx, v):
                return v in base(ctx)
        name = sel.name

        def is_option(ctx, v):
            if not in_base(ctx, v):
                return False
            saved, ctx.it = ctx.it, v
            if name is not None:
                ctx.b[name] = v
            try:
                return bool(cond(ctx))
            finally:
                ctx.it = saved
        return is_option

    def opt(self, e):
        return None if e is None else self.expr(e)

    def where(self, span) -> str:
        return f"{self.path}:{span.line}:{span.col}"

    def _pieces_left(self, when, effects: list[ast.Effect]):
        """An ability whose effects take a piece from its pool is offered only
        while that pool has pieces left (R6: an effect takes only what is left) —
        unless the ability first puts that piece back (`remove M …` then `place M …`:
        a figure moved, the one piece there is)."""
        removed: set[str] = set()
        taken_set: set[str] = set()
        for e in effects:
            for p, arg in zip(EFFECTS[e.kind].params, e.args):
                if not isinstance(arg, ast.Name) or p.kind != "marker":
                    continue
                if e.kind == "remove":
                    removed.add(self._word(arg))
                elif p.name == EFFECTS[e.kind].takes and self._word(arg) not in removed:
                    taken_set.add(self._word(arg))
        taken = sorted(taken_set)
        if not taken:
            return when

        def pieces_left(ctx):
            pools = ctx.game.pools
            return all(pools.get(m, 1) > 0 for m in taken) and (when is None or when(ctx))
        return pieces_left

    def _possible(self, effects: list[ast.Effect]):
        """Whether the ability's own effects that say when they can be made
        (a `conquer` it cannot pay) all can, with its choices bound; None if none says."""
        tests = [(EFFECTS[e.kind].possible, self._getters(e)) for e in effects if EFFECTS[e.kind].possible]
        if not tests:
            return None

        def possible(ctx):
            return all(called(test, ctx, getters) for test, getters in tests)
        return possible

    # ---- effects
    def block(self, effects: tuple[ast.Effect, ...]) -> Run:
        fns = [self.effect(e) for e in effects]
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def slot(self, slot: ast.Slot) -> Variable | Strength:
        """What `set`, `increase`… write: a player's variable, or a marker's strength."""
        if slot.kind == "strength":
            return Strength(self._word(slot.name), self.expr(slot.subject))
        return self.variable(slot.name.text).of(self.expr(slot.subject))

    def effect(self, e: ast.Effect) -> Run:
        """Bind an effect to its entry: each argument becomes a getter (an
        expression's closure, or a constant), and the entry's implementation
        is called with their values."""
        entry = EFFECTS[e.kind]
        run = entry.by_type.get(self.res.get(id(e), ("",))[0], entry.run)
        getters = self._getters(e)
        where = self.where(e.span)

        def bound(ctx):
            try:
                called(run, ctx, getters)
            except Overflow as err:
                raise ContentError(where, "SW500", str(err), "raise the budget in pack.yaml `budgets:` if this is "
                                   "meant, or bound the value") from None
        return bound

    def _getters(self, e: ast.Effect) -> list[Run]:
        """One getter per argument of the effect: an expression's closure, or a constant."""
        entry = EFFECTS[e.kind]
        getters: list[Run] = []
        for param, arg in zip(entry.params, e.args):
            if param.kind == BLOCK:
                getters.append(const(self.block(arg) if arg is not None else None))  # type: ignore[arg-type]
            elif param.kind == FLAG:
                getters.append(const(bool(arg)))
            elif isinstance(arg, ast.Name) and param.kind in ("var", "counter"):
                getters.append(const(self.variable(arg.text)))
            elif isinstance(arg, ast.Slot):
                getters.append(const(self.slot(arg)))
            elif isinstance(arg, ast.Name) and param.kind == "name":
                getters.append(const(arg.text))
            elif isinstance(arg, ast.Name):
                word = self._word(arg)
                if param.name == entry.wears:
                    self.wearers.add(word)
                getters.append(const(word))
            else:
                getters.append(const(None) if arg is None else self.expr(arg))  # type: ignore[arg-type]
        return getters


def _words(name: str, words: tuple[str, ...]) -> Choice:
    """`choose NAME: [a, b]`: a choice among words."""
    return Choice(name, "option", lambda ctx: list(words), lambda ctx, v: v in words)


def _unshielded(options, is_option):
    """A region choice leaves out the regions shielded from the race (region.shielded)."""
    def unshielded_options(ctx):
        found = options(ctx)
        if "region.shielded" not in ctx.game.index.modified_stats:
            return found
        return [r for r in found if not shielded(ctx.game, ctx.me, r)]

    def unshielded_option(ctx, r):
        return is_option(ctx, r) and not ("region.shielded" in ctx.game.index.modified_stats
                                          and shielded(ctx.game, ctx.me, r))
    return unshielded_options, unshielded_option


def compile_decls(decls: list[ast.Decl], checked: Checked) -> list[Content]:
    c = Compiler(checked)
    return [c.compile(d) for d in decls]


def compile_copies(decls: list[ast.Decl], checked: Checked, contents: list[Content]) -> dict:
    """For every marker some `copy` effect writes to, the rules of each relic
    and place it could copy, compiled as worn by it: (wearer, original) → Content."""
    wearers = sorted({w for c in contents for w in c.copiers})
    c = Compiler(checked)
    return {(w, d.name): c.compile(d, wearer=w) for w in wearers for d in decls
            if d.kind in ("relic", "place") and d.name != w}
