"""Check declarations against the engine's vocabulary and the pack's names.

The checker types every expression, resolves every name and collects every
problem as a diagnostic (all at once, never only the first). What it resolved
is kept in `Checked.resolved` so the compiler never guesses again.
"""

from __future__ import annotations

import difflib
import os

import attrs

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.engine import vocabulary as V
from swdsl.engine.entries import EXPRESSION_KINDS
from swdsl.lang import ast
from swdsl.lang.typer import ELEMENT, Checked, PackNames, Typer, _Env, decl_key, described

# effects that bring a piece onto the map, and the kind of their argument naming it (a marker or a pool)
PUTS_ON_MAP = {"place": "marker", "move": "marker", "recruit": "marker", "draw": "pool", "draw_kind": "pool"}
MAX_ITEMS = 200
MAX_EFFECTS = 64
MAX_CHOICES = 2


class Checker(Typer):
    def __init__(self, names: PackNames):
        self.names = names
        self.out = Checked()

    # ---- declarations
    def check(self, decls: list[ast.Decl]) -> Checked:
        self.collect_shared(decls)
        for d in decls:
            self.check_decl(d)
        return self.out

    def collect_shared(self, decls: list[ast.Decl]) -> None:
        """The `game var`s and `player var`s of every declaration: every rule may use them. One
        declared again must say the same (it may, to show what an item relies on)."""
        where: dict[str, ast.Decl] = {}
        shared = self.out.shared
        for d in decls:
            for v in d.items:
                if not isinstance(v, ast.VarDecl) or not v.shared:
                    continue
                first = shared.get(v.name)
                if first is None:
                    shared[v.name], where[v.name] = v, d
                elif (first.shared, first.init, first.reset and first.reset.text) != \
                        (v.shared, v.init, v.reset and v.reset.text):
                    self.error(d.path, v.span, "SW170", f"{v.shared} variable '{v.name}' is declared differently "
                               f"in {where[v.name].kind} '{where[v.name].name}' ({os.path.basename(where[v.name].path)}"
                               f":{first.span.line})", f"declare it the same way everywhere: `{_declared(first)}`")

    def check_decl(self, d: ast.Decl) -> None:
        if len(d.items) > MAX_ITEMS:
            self.error(d.path, d.span, "SW006", f"{d.kind} '{d.name}' has more than {MAX_ITEMS} items",
                       "split it into several declarations")
            return
        variables = {n: self.var_type(v) for n, v in self.out.shared.items()}
        own: set[str] = set()
        for item in d.items:
            if isinstance(item, (ast.VarDecl, ast.Ability)):
                self.plain(d.path, item.name, item.span)
            if isinstance(item, ast.Prop) and item.name == "tags":
                for tag in item.args:
                    self.plain(d.path, str(tag), item.span)
            if isinstance(item, ast.VarDecl):
                if item.name in own:
                    self.error(d.path, item.span, "SW120", f"variable '{item.name}' declared twice")
                elif not item.shared and item.name in self.out.shared:
                    v = self.out.shared[item.name]
                    self.error(d.path, item.span, "SW171", f"variable '{item.name}' has the name of a "
                               f"{v.shared} variable", f"every rule sees `{_declared(v)}`: use it, or give this "
                               "one another name")
                own.add(item.name)
                variables[item.name] = self.var_type(item)
                if isinstance(item.init, str) and item.init != "none":
                    self.error(d.path, item.span, "SW121", f"a variable starts as a number or `none`, not '{item.init}'")
                if item.reset is not None and item.reset.text not in V.VAR_RESETS:
                    self.error(d.path, item.reset.span, "SW122", f"unknown reset period '{item.reset.text}'",
                               did_you_mean(item.reset.text, V.VAR_RESETS) or "use `per turn`")
        self.check_props(d)
        for item in d.items:
            if isinstance(item, ast.Modifier):
                self.check_modifier(d, item, variables)
            elif isinstance(item, ast.Trigger):
                self.check_trigger(d, item, variables)
            elif isinstance(item, ast.Ability):
                self.check_ability(d, item, variables)
        if d.kind == "marker" and any(isinstance(i, (ast.Modifier, ast.Trigger)) for i in d.items):
            self.error(d.path, d.name_span, "SW107", f"marker '{d.name}' has rules",
                       "a marker is a plain piece; declare it as a `relic`, `place` or `figure` to give it rules")

    def check_props(self, d: ast.Decl) -> None:
        allowed = V.DECL_PROPS[d.kind]
        seen: dict[str, ast.Prop] = {}
        misspelt: set[str] = set()  # known properties an unknown one is close to: not also reported missing
        for item in d.items:
            if not isinstance(item, ast.Prop):
                continue
            if item.name not in allowed:
                misspelt.update(difflib.get_close_matches(item.name, list(allowed), n=1, cutoff=0.6))
                hint = did_you_mean(item.name, list(allowed) + ["modify", "on", "ability", "var"])
                self.error(d.path, item.span, "SW110", f"unknown property '{item.name}' for a {d.kind}",
                           hint or "properties here: " + ", ".join(sorted(allowed)))
                continue
            if item.name in seen:
                self.error(d.path, item.span, "SW111", f"property '{item.name}' given twice")
            seen[item.name] = item
            kind, _ = allowed[item.name]
            args = item.args
            if kind == "int" and (len(args) != 1 or not isinstance(args[0], int) or args[0] < 0):
                self.error(d.path, item.span, "SW112", f"'{item.name}' takes one whole number ≥ 0",
                           f"write `{item.name} 5`")
            elif kind == "flag" and args:
                self.error(d.path, item.span, "SW112", f"'{item.name}' takes no value", f"write `{item.name}` alone")
            elif kind == "names":
                if not args or not all(isinstance(a, str) for a in args):
                    self.error(d.path, item.span, "SW112", f"'{item.name}' takes one or more names")
                elif item.name == "survives" and args != ("decline",):
                    self.error(d.path, item.span, "SW112", "only `survives decline` is known")
                elif item.name == "counts" and args != ("as", "token"):
                    self.error(d.path, item.span, "SW112", "only `counts as token` is known")
        required = {"race": ("supply",), "power": ("badge",)}.get(d.kind, ())
        for prop in required:
            if prop not in seen and prop not in misspelt:
                self.error(d.path, d.name_span, "SW113", f"{d.kind} '{d.name}' has no '{prop}'",
                           f"add `{prop} N` to the declaration")
        if d.kind == "race" and "banner" not in seen and "neutral" not in seen and "banner" not in misspelt:
            self.error(d.path, d.name_span, "SW113", f"race '{d.name}' has no 'banner'",
                       "add `banner N`, or `neutral` for a race that belongs to nobody")
        if d.kind == "race" and "banner" in seen and "supply" in seen:
            banner, supply = seen["banner"].args, seen["supply"].args
            if banner and supply and isinstance(banner[0], int) and isinstance(supply[0], int) and banner[0] > supply[0]:
                self.error(d.path, seen["banner"].span, "SW114", f"banner {banner[0]} is more than the supply {supply[0]}",
                           "a combo could never be paid out; raise the supply")

    def _scope(self, d: ast.Decl, scope: ast.Scope | None) -> str:
        if scope is None:
            return "active"
        if scope.kind not in V.SCOPES:
            self.error(d.path, scope.span, "SW130", f"unknown scope 'while {scope.kind}'",
                       did_you_mean(scope.kind, V.SCOPES) or "use `while active`, `while declined` or `always`")
            return "active"
        return scope.kind

    def check_modifier(self, d: ast.Decl, m: ast.Modifier, variables) -> None:
        stat = V.STATS.get(m.stat.text)
        self._scope(d, m.scope)
        if stat is None:
            self.error(d.path, m.stat.span, "SW101", f"unknown stat '{m.stat.text}'",
                       did_you_mean(m.stat.text, V.STATS) or "see docs/language.md for the stats")
            return
        env = _Env(d, dict(stat.bindings), variables)
        t = self.expr(env, m.value)
        if m.op != "set" and stat.type != "int":
            self.error(d.path, m.span, "SW102", f"'{stat.name}' is a yes/no stat: use `set true` or `set false`")
        elif t not in (stat.type, "?"):
            self.error(d.path, m.value.span, "SW103", f"'{stat.name}' needs {described(stat.type)}, this is {described(t)}")
        if stat.name in COST_STATS:
            for node in _nodes(m):
                if isinstance(node, ast.Attr) and node.name == "cost":
                    self.error(d.path, node.span, "SW126", f"`cost of` inside a {stat.name} modifier would "
                               "ask for itself", "compute the cost from its parts: `tokens of target`, …")
        if m.when is not None:
            self.expect(env, m.when, "bool")
        for bound in (m.floor, m.cap):
            if bound is not None:
                if stat.type != "int":
                    self.error(d.path, bound.span, "SW104", "floors and caps apply to number stats only")
                else:
                    self.expect(env, bound, "int")
        if (stat.name == "conquest.cost" and m.op == "by" and m.floor is None
                and isinstance(m.value, ast.Int) and m.value.value < 0):
            self.warn(d.path, m.span, "SW140", "a conquest discount without `floor`",
                      "the rules leave at least 1 token per conquest; write `floor 1` to say so")
        if isinstance(m.when, ast.Ref) and m.when.name == "false":
            self.warn(d.path, m.when.span, "SW141", "this modifier never applies (`when false`)")

    def check_trigger(self, d: ast.Decl, t: ast.Trigger, variables) -> None:
        event = V.EVENTS.get(t.event.text)
        scope = self._scope(d, t.scope)
        if event is None:
            self.error(d.path, t.event.span, "SW100", f"unknown event '{t.event.text}'",
                       did_you_mean(t.event.text, V.EVENTS) or "see docs/language.md for the events")
            return
        if not event.declined and scope == "declined":
            self.warn(d.path, t.span, "SW142", f"this trigger can never fire: `{event.name}` happens while the race "
                      "is active", "remove `while declined`")
        if isinstance(t.when, ast.Ref) and t.when.name == "false":
            self.warn(d.path, t.when.span, "SW142", "this trigger can never fire (`when false`)")
        if t.audience is not None and t.audience.text not in V.AUDIENCES:
            self.error(d.path, t.audience.span, "SW132", f"unknown audience 'by {t.audience.text}'",
                       did_you_mean(t.audience.text, V.AUDIENCES) or "use `by ours` or `by anyone`")
        elif t.audience is not None and event.everyone:
            self.warn(d.path, t.audience.span, "SW161", f"`{event.name}` already happens to every race on the table: "
                      f"`by {t.audience.text}` would run this trigger again for each other race",
                      f"remove `by {t.audience.text}`")
        env = _Env(d, dict(event.bindings), variables)
        if t.when is not None:
            self.expect(env, t.when, "bool")
        self.steps(env, t.steps, "a trigger")
        if event.name != "conquest.done":
            self._no_cancel(d, t.steps, f"`on {event.name}`")

    def check_ability(self, d: ast.Decl, a: ast.Ability, variables) -> None:
        self._scope(d, a.scope)
        if d.kind == "marker":
            self.error(d.path, a.span, "SW150", "abilities belong to races, powers, relics, places, figures and "
                       "rules, not to a marker", "declare it as a `relic`, `place` or `figure`")
        if not a.phases:
            self.error(d.path, a.span, "SW151", f"ability '{a.name}' has no phase",
                       "say when it is offered: `during conquest` or `during redeploy`")
        for phase in a.phases:
            if phase.text not in V.PHASES:
                self.error(d.path, phase.span, "SW152", f"unknown phase '{phase.text}'",
                           did_you_mean(phase.text, V.PHASES) or "phases: " + ", ".join(V.PHASES))
        if a.limit is None or a.limit.per is None and not a.limit.reason:
            self.error(d.path, a.limit.span if a.limit else a.span, "SW154", f"ability '{a.name}' has no limit",
                       "add `once per turn` or `N times per turn`; or, when something else stops it (each use "
                       "spends a token from the hand…), say what: `unlimited \"each use spends a token\"`")
        elif a.limit.per is not None:
            if a.limit.per.text not in V.LIMIT_PERIODS:
                self.error(d.path, a.limit.per.span, "SW153", f"unknown limit period '{a.limit.per.text}'",
                           did_you_mean(a.limit.per.text, V.LIMIT_PERIODS) or "use `per turn` or `per game`")
            if a.limit.key is not None and a.limit.key.text not in V.LIMIT_KEYS:
                self.error(d.path, a.limit.key.span, "SW153", f"unknown limit key '{a.limit.key.text}'",
                           did_you_mean(a.limit.key.text, V.LIMIT_KEYS) or "use `per owner`")
        env = _Env(d, {}, variables)
        if a.when is not None:
            self.expect(env, a.when, "bool")
        chooses = [s for s in a.steps if isinstance(s, ast.Choose)]
        if a.limit is not None and a.limit.key is not None and not chooses:
            self.error(d.path, a.limit.span, "SW153", "`per owner` needs a `choose` of a region")
        for c in chooses:
            if c.optional:
                self.error(d.path, c.span, "SW157", "`may choose` belongs to triggers: using an ability is "
                           "already the player's choice", "write `choose`")
        self.steps(env, a.steps, "an ability")
        if a.limit is not None and a.limit.key is not None and chooses \
                and self.out.resolved.get(id(chooses[0]), ("?",))[0] not in ("regions", "?"):
            self.error(d.path, a.limit.span, "SW153", "`per owner` counts uses per owner of the region chosen "
                       "first, and this ability's first choice is no region", "choose the region first")
        self._no_cancel(d, a.steps, "an ability")

    def _no_cancel(self, d: ast.Decl, steps: tuple, where: str) -> None:
        """`cancel conquest` undoes the conquest whose `conquest.done` triggers are running: nowhere else."""
        stack = list(steps)
        while stack:
            e = stack.pop()
            if isinstance(e, ast.Effect):
                if e.kind == "cancel_conquest":
                    self.error(d.path, e.span, "SW162", f"`cancel conquest` in {where}: there is no conquest to undo",
                               "write it in an `on conquest.done` trigger")
                stack.extend(x for block in e.blocks() for x in block)

    def steps(self, env: _Env, steps: tuple, what: str) -> None:
        """`choose` steps (of an ability, or of a trigger asking its player) bind their names for the
        effects; the engine makes every choice before any effect runs."""
        chooses = [s for s in steps if isinstance(s, ast.Choose)]
        if len(chooses) > MAX_CHOICES:
            self.error(env.decl.path, chooses[MAX_CHOICES].span, "SW155",
                       f"{what} chooses at most {MAX_CHOICES} things")
        for step in steps:
            if isinstance(step, ast.Choose):
                self.plain(env.decl.path, step.name, step.span)
            if not isinstance(step, ast.Choose):
                self.effects(env, (step,))
            elif isinstance(step.selection, ast.Options):
                self.out.resolved[id(step)] = ("options",)
                env = env.bind(step.name, "option", step.selection.names)
            else:
                t = self.expr(env, step.selection)
                if t not in ("regions", "players", "powers", "?"):
                    self.error(env.decl.path, step.selection.span, "SW156",
                               f"choose from regions, players or powers, not {described(t)}")
                    t = "regions"
                self.out.resolved[id(step)] = (t,)
                env = env.bind(step.name, ELEMENT.get(t, "region"))

    # ---- effects
    def effects(self, env: _Env, effects: tuple[ast.Effect, ...], depth: int = 0) -> None:
        if not effects:
            return
        if len(effects) > MAX_EFFECTS or depth > 8:
            self.error(env.decl.path, effects[0].span, "SW006", "too many or too deeply nested effects")
            return
        for e in effects:
            self.effect(env, e, depth)

    def effect(self, env: _Env, e: ast.Effect, depth: int) -> None:
        """Check an effect against its entry's signature, argument by argument."""
        entry = V.EFFECTS.get(e.kind)
        if entry is None:
            self.error(env.decl.path, e.span, "SW199", f"unsupported effect '{e.kind}'")
            return
        given = {p.name for p, arg in zip(entry.params, e.args) if arg is not None and arg is not False}
        for a, b, what in entry.exclusive:
            if a in given and b in given:
                self.error(env.decl.path, e.span, "SW160", f"{what} cannot go together", "keep one of them: "
                           f"`{entry.syntax}`")
        types: dict[str, str] = {}
        words: dict[str, str] = {}
        name: ast.Name | None = None
        inner = env  # what its blocks see: with `for each NAME in …`, NAME bound to each element
        branches = e.kind == "if"  # a branch may not run; with `else`, neither needs the condition
        for param, arg in zip(entry.params, e.args):
            if arg is None or isinstance(arg, bool):
                continue
            if isinstance(arg, tuple):
                with self.maybe(branches):
                    self.effects(inner, arg, depth + 1)
            elif isinstance(arg, ast.Slot):
                types[param.name], words[param.name] = self.slot(env, arg), arg.name.text
            elif isinstance(arg, ast.Name) and param.kind == "name":
                name = arg
                self.fresh(env, arg)
            elif isinstance(arg, ast.Name):
                types[param.name], words[param.name] = self.word(env, param.kind, arg), arg.text
            elif param.same_as and types.get(param.same_as, "?") != "?":
                want, t = types[param.same_as], self.expr(env, arg)
                if t not in (want, "?"):
                    what = f"'{words[param.same_as]}' holds" if param.same_as in words else "it needs"
                    self.error(env.decl.path, arg.span, "SW103", f"{what} {described(want)}, this is {described(t)}")
                types[param.name] = t
            else:
                with self.maybe(branches and e.args[-1] is not None):
                    types[param.name] = self.expect_any(env, arg, EXPRESSION_KINDS[param.kind])
                if name is not None and param.kind == "selection":
                    inner = env.bind(name.text, ELEMENT.get(types[param.name], "region"))
        put = PUTS_ON_MAP.get(e.kind)
        for param, arg in zip(entry.params, e.args):
            if put and param.kind == put and isinstance(arg, ast.Name):
                key = self.out.resolved.get(id(arg), ("key", arg.text))[1]
                self.out.puts.setdefault(decl_key(env.decl), set()).add((put, key))
        overloaded = next((p.name for p in entry.params if len(EXPRESSION_KINDS.get(p.kind, ())) > 1
                           and entry.by_type), None)
        if overloaded is not None:
            self.out.resolved[id(e)] = (types.get(overloaded, "?"),)

    def slot(self, env: _Env, slot: ast.Slot) -> str:
        """`NAME of PLAYER` or `strength of MARKER in REGION`, written by `set`, `increase`…: its type."""
        if slot.kind == "strength":
            self.marker_name(env.decl.path, slot.name.text, slot.name.span, slot.name)
            self.expect(env, slot.subject, "region")
            return "int"
        return self.var_of(env, slot.name.text, self.expr(env, slot.subject), slot.span)

    def word(self, env: _Env, kind: str, name: ast.Name) -> str:
        """Check a name written in an effect (a marker, a pool, a variable…); the type it stands for."""
        path, n = env.decl.path, name.text
        if kind == "marker":
            self.marker_name(path, n, name.span, name)
        elif kind == "pool" and n not in V.POOLS:
            key = self.named(path, "pool", n, name.span)
            if key:
                self.out.resolved[id(name)] = ("key", key)
            elif key is None:
                self.error(path, name.span, "SW115", f"unknown marker pool '{n}'",
                           did_you_mean(n, self.names.pools) or "pools are declared in pack.yaml under `pools:`")
        elif kind == "piece" and n not in self.names.marker_tags:
            key = self.named(path, "piece", n, name.span)
            if key:
                self.out.resolved[id(name)] = ("key", key)
            elif key is None:
                self.error(path, name.span, "SW117", f"unknown marker kind or tag '{n}'",
                           did_you_mean(n, self.names.marker_tags | self.names.markers)
                           or "copy a kind (`relic`, `place`), a marker tag or a marker")
        elif kind in ("var", "counter"):
            vt = env.variables.get(n)
            if vt is None:
                self.error(path, name.span, "SW123", f"unknown variable '{n}'",
                           did_you_mean(n, env.variables) or f"declare it: `var {n} = 0`")
                return "?"
            if kind == "counter" and vt != "int":
                self.error(path, name.span, "SW103", f"'{n}' holds a player, not a number")
            return vt
        return "?"

    def marker_name(self, path: str, name: str, span: Span | None, node=None) -> str:
        key = self.named(path, "piece", name, span or Span())
        if key is None:
            self.error(path, span or Span(), "SW105", f"unknown marker '{name}'",
                       did_you_mean(name, self.names.markers) or "declare it with `marker NAME { … }`")
        elif key:
            self.out.used_markers.add(key)
            if node is not None:
                self.out.resolved[id(node)] = ("key", key)
        return key or name

    # ---- expressions
COST_STATS = ("conquest.cost", "travel.cost", "region.defense")


def _nodes(root):
    """Every AST node under `root` (expressions of a modifier)."""
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        for f in attrs.fields(type(n)):
            v = getattr(n, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if attrs.has(type(x)):
                    stack.append(x)


def _declared(v: ast.VarDecl) -> str:
    reset = f" per {v.reset.text}" if v.reset else ""
    return f"{v.shared} var {v.name} = {v.init}{reset}"


def check(decls: list[ast.Decl], names: PackNames) -> Checked:
    return Checker(names).check(decls)


def unused_markers(decls: list[ast.Decl], checked: Checked, placed: set[str]) -> list[Diagnostic]:
    """Warnings for markers nothing places, tests or sets up."""
    out = []
    for d in decls:
        if d.kind == "marker" and d.name not in checked.used_markers and d.name not in placed:
            out.append(Diagnostic(d.path, d.name_span, "SW143", f"marker '{d.name}' is never used",
                                  "no rule places or tests it and setup does not place it", "warning"))
    return out
