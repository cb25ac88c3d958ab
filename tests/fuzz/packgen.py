"""A semantic pack generator: small packs of random but well-formed rules.

Everything the rules language can say is taken from the engine's vocabulary
(`swdsl.engine.vocabulary`): every event, stat, modifier operation, effect (its
parameters and the syntax its entry declares), attribute, state, log state,
named value, function, region set, scope, phase, limit and property. A
construct added to the vocabulary is generated without touching this file;
tests/fuzz/test_generator.py proves that every entry is generated and that
each one alone passes `swdsl check`.

Expressions are built by type (int, bool, region, regions, race, races, player,
players, power, powers, terrain, combos, and the words of a `choose c: [a, b]`)
in an environment that knows the bindings of the event, stat or ability (and
its choices), the declaration's variables, the element of a `where` (`it`, or a
name given with `as`) and whether `here` exists. Every compound sub-expression
is parenthesised, so the text parses whatever nests. The grammar's own forms
that no entry describes (`choose`, `may choose`, word options, `unlimited
"why"`) are written here by hand and counted in the coverage test too.

The pack around the rules says what pack.yaml can say (test_generator.py
proves that every key the loader reads is written): a map, now and then modular
boards drawn as islands, setups with seats and teams (and a team score), market
columns, placements of neutral races, markers and hidden pools (face down),
equivalences, budgets, and sometimes a pack inside it that it requires (the
powers and the terrains come from there).

A pack is data (`Pack`): its manifest, other YAML files and declarations, each
declaration a list of item lines; `Pack.write(folder)` writes the files and the
shrinker in harness.py removes declarations and items while a failure persists.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs

from swdsl.engine import vocabulary as V
from swdsl.engine.entries import BLOCK, EXPRESSION_KINDS, FLAG
from swdsl.engine.outcome import TEAM_SCORES
from swdsl.lang.checker import COST_STATS, MAX_CHOICES
from swdsl.lang.typer import ELEMENT as SET_ELEMENT  # a set type -> the type of its elements
from swdsl.packs.loader import LANGUAGE_VERSION

NUMBERS = [0, 1, 1, 2, 2, 3, 5, -1, -2, -10, 7, 100, 10**6, 10**9, 99999999999999999999]
PLACEHOLDER = re.compile(r"\b[A-Z]+\b")  # a parameter in an entry's syntax: `gain N coins`, `sum(N for each NAME …`


# ---- the environment an expression is generated in ---------------------------------------------------------------

@attrs.frozen
class Env:
    kind: str  # the declaration's kind
    bindings: dict  # name -> type (event, stat, ability choices, `as` names)
    variables: dict  # name -> "int" | "player"
    it: str | None = None  # the element type inside `where`
    stat: str = ""  # the stat a modifier folds into (`cost of` is refused in cost stats)
    words: dict = attrs.field(factory=dict)  # the words an `option` binding may hold (`choose c: [a, b]`)
    event: str = ""  # the event of the trigger being written

    def with_it(self, t: str, name: str | None = None) -> Env:
        b = dict(self.bindings)
        if name:
            b[name] = t
        return attrs.evolve(self, it=t, bindings=b)

    def bind(self, name: str, t: str) -> Env:
        return attrs.evolve(self, bindings={**self.bindings, name: t})


@attrs.define
class Names:
    """The pack's names, which rules may use."""

    terrains: list[str]
    symbols: list[str]
    markers: list[str]  # markers, relics and places
    marker_tags: list[str]
    races: list[str]
    powers: list[str]
    tags: list[str]
    pools: list[str]
    player_vars: list[str] = attrs.field(factory=list)  # `player var`s: read `NAME of PLAYER`


class Gen:
    """Random expressions, effects and items over the vocabulary, from a seeded generator."""

    def __init__(self, rng: random.Random, names: Names, max_depth: int = 4):
        self.rng = rng
        self.names = names
        self.max_depth = max_depth
        self.used: set[tuple[str, str]] = set()  # (family, entry) generated: the coverage of the vocabulary
        self.fresh = 0

    def note(self, family: str, name: str) -> None:
        self.used.add((family, name))

    def pick(self, xs):
        return xs[self.rng.randrange(len(xs))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def new_name(self, prefix: str) -> str:
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    # ---- expressions
    def expr(self, env: Env, t: str, depth: int = 0) -> str | None:
        """An expression of type `t`, or None if nothing of that type exists here."""
        options = self._producers(env, t, depth)
        self.rng.shuffle(options)
        options.sort(key=lambda o: -o[0] * self.rng.random())
        for _, make in options:
            text = make()
            if text is not None:
                return text
        return None

    def any_of(self, env: Env, types, depth: int = 0) -> tuple[str, str] | None:
        """(text, type) for one of `types` that can be produced here."""
        ts = list(types)
        self.rng.shuffle(ts)
        for t in ts:
            text = self.expr(env, t, depth)
            if text is not None:
                return text, t
        return None

    def _producers(self, env: Env, t: str, depth: int) -> list:
        """(weight, thunk) pairs that produce an expression of type t (a thunk may give None)."""
        deep = depth >= self.max_depth
        d = depth + 1
        out: list = []
        add = lambda w, f: out.append((w, f))  # noqa: E731
        # names bound here: event and stat bindings, choices, `as` names, `it`
        for name, bt in env.bindings.items():
            if bt == t:
                add(3, lambda name=name: self._noted("binding", name, name))
        if env.it == t:
            add(3, lambda: "it")
        for name, vt in env.variables.items():
            if vt == t:
                add(2, lambda name=name: name)
        for v in V.VALUES.values():
            if v.type == t and (not v.per_declaration or env.kind in ("relic", "place", "figure")):
                add(1, lambda v=v: self._noted("value", v.name, v.name))
        if t == "int":
            add(4, lambda: str(self._number()))
        if t == "terrain" and self.names.terrains:
            add(1, lambda: self.pick(self.names.terrains))
        if t == "regions":
            for s in V.SETS.values():
                add(1, lambda s=s: self._noted("set", s.qual, s.syntax))
        if t == "bool" and deep:
            add(1, lambda: self.pick(["true", "false"]))
        if deep:
            return out
        # attributes: `NAME of SUBJECT`, and bare race attributes (of `me`)
        for (name, subject), a in V.ATTRIBUTES.items():
            if a.type != t or (name == "cost" and env.stat in COST_STATS):
                continue
            fresh = ("attribute", f"{name} of {subject}") not in self.used  # the pack's first: more likely
            add(6 if fresh else 2, lambda name=name, subject=subject: self._attr(env, name, subject, d))
            if subject == "race" and self._bare_ok(env, name):
                add(1, lambda name=name: self._noted("attribute", f"{name} of race", name))
            if env.it == subject and self._bare_ok(env, name):
                add(1, lambda name=name, subject=subject: self._noted("attribute", f"{name} of {subject}", name))
        for f in V.FUNCTIONS.values():
            if f.type == t:
                add(2, lambda f=f: self._call(env, f, d))
        for form in V.FORMS.values():
            if form.type == t:
                add(1, lambda form=form: self._form(env, form, d))
        if t == "int" and self.names.player_vars:  # `NAME of PLAYER`: another player's value
            add(1, lambda: self._player_var(env, d))
        if t == "int":
            add(2, lambda: self._arith(env, d))
            add(1, lambda: self._wrap(f"-{self.expr(env, 'int', d)}"))
            add(2, lambda: self._count(env, d))
        if t in SET_ELEMENT:
            add(3, lambda: self._filtered(env, t, d))
        if t == "bool":
            add(1, lambda: self.pick(["true", "false"]))
            add(3, lambda: self._state(env, d))
            add(2, lambda: self._compare(env, d))
            add(2, lambda: self._boolop(env, d))
            add(1, lambda: self._wrap(f"not {self.expr(env, 'bool', d)}"))
            add(2, lambda: self._terrain_test(env, d))
            add(2, lambda: self._has(env, d))
            add(1, lambda: self._borders(env, d))
            add(1, lambda: self._was(env, d))
            add(1, lambda: self._equal(env, d))
            for name, words in env.words.items():
                add(3, lambda name=name, words=words: self._noted(
                    "test", "option in", f"({name} in [{', '.join(self.rng.sample(words, self.rng.randint(1, len(words))))}])"))
        return out

    def _noted(self, family: str, name: str, text: str) -> str:
        self.note(family, name)
        return text

    def _bare_ok(self, env: Env, name: str) -> bool:
        """A bare attribute name is read as one only if nothing else has that name here."""
        return name not in env.bindings and name not in env.variables and name not in V.VALUES and name != "it"

    def _number(self) -> int:
        return self.pick(NUMBERS) if self.chance(0.3) else self.rng.randint(0, 4)

    @staticmethod
    def _wrap(text: str | None) -> str | None:
        """A compound expression in parentheses; None when one of its parts could not be made
        (an f-string then holds the word None, which no generated name contains)."""
        return None if text is None or "None" in text else f"({text})"

    def _attr(self, env: Env, name: str, subject: str, d: int) -> str | None:
        s = self.expr(env, subject, d)
        if s is None:
            return None
        self.note("attribute", f"{name} of {subject}")
        return f"({name} of {s})"

    def _call(self, env: Env, f, d: int) -> str | None:
        params = list(f.params)
        if f.variadic:
            params += [params[-1]] * self.rng.randint(1, 3)
        args = []
        for p in params:
            got = self.any_of(env, EXPRESSION_KINDS[p.kind], d)
            if got is None:
                return None
            args.append(got[0])
        self.note("function", f.name)
        return f"{f.name}({', '.join(args)})"

    def _arith(self, env: Env, d: int) -> str | None:
        op = self.pick(["+", "-", "*", "/"])
        a, b = self.expr(env, "int", d), self.expr(env, "int", d)
        if op == "/" and b is not None and b.strip("()") == "0":
            b = "1"
        self.note("operator", op)
        return self._wrap(f"{a} {op} {b}")

    def _player_var(self, env: Env, d: int) -> str | None:
        who = self.expr(env, "player", d)
        if who is None:
            return None
        self.note("variable", "player var of a player")
        return f"({self.pick(self.names.player_vars)} of {who})"

    def _count(self, env: Env, d: int) -> str | None:
        got = self.any_of(env, SET_ELEMENT, d)
        return None if got is None else f"(count {got[0]})"

    def _filtered(self, env: Env, t: str, d: int) -> str | None:
        base = self.expr(env, t, d)
        if base is None:
            return None
        name = self.new_name("x") if self.chance(0.3) else None
        cond = self.expr(env.with_it(SET_ELEMENT[t], name), "bool", d)
        self.note("selection", f"{t} where" + (" as" if name else ""))
        return f"({base}{f' as {name}' if name else ''} where {cond})"

    def _subject(self, env: Env, t: str, d: int) -> tuple[str, str] | None:
        """A test's subject: left out inside `where` when it is the element."""
        if env.it == t and self.chance(0.5):
            return "", ""
        s = self.expr(env, t, d)
        return None if s is None else (s, " ")

    def _state(self, env: Env, d: int) -> str | None:
        subject, name = self.pick(list(V.STATES))
        got = self._subject(env, subject, d)
        if got is None:
            return None
        s, sep = got
        neg = "not " if self.chance(0.3) else ""
        self.note("state", f"{subject} is {name}")
        return f"({s}{sep}is {neg}{name})"

    def _was(self, env: Env, d: int) -> str | None:
        subject, name = self.pick(list(V.LOG_STATES))
        got = self._subject(env, subject, d)
        if got is None:
            return None
        self.note("log state", f"{subject} was {name}")
        return f"({got[0]}{got[1]}was {name})"

    def _compare(self, env: Env, d: int) -> str | None:
        op = self.pick(["==", "!=", "<", "<=", ">", ">="])
        return self._wrap(f"{self.expr(env, 'int', d)} {op} {self.expr(env, 'int', d)}")

    def _equal(self, env: Env, d: int) -> str | None:
        """`==`/`!=` or `is` between two values of one type (players, races, regions, powers, terrains)."""
        t = self.pick(["player", "race", "region", "power", "terrain"])
        a, b = self.expr(env, t, d), self.expr(env, t, d)
        if a is None or b is None:
            return None
        if self.chance(0.5) and (b in env.bindings or b in env.variables or b in V.VALUES):
            return f"({a} is {b})"  # `is` compares with a name; any other word would be a state
        return f"({a} {self.pick(['==', '!='])} {b})"

    def _boolop(self, env: Env, d: int) -> str | None:
        return self._wrap(f"{self.expr(env, 'bool', d)} {self.pick(['and', 'or'])} {self.expr(env, 'bool', d)}")

    def _terrain_test(self, env: Env, d: int) -> str | None:
        if not self.names.terrains:
            return None
        t = self.pick(["region", "terrain"])
        got = self._subject(env, t, d) if t == "region" else (self.expr(env, "terrain", d), " ")
        if got is None or got[0] is None:
            return None
        s, sep = got
        if self.chance(0.5):
            ts = self.rng.sample(self.names.terrains, self.rng.randint(1, min(3, len(self.names.terrains))))
            return f"({s}{sep}in [{', '.join(ts)}])"
        return f"({s}{sep}is {'not ' if self.chance(0.2) else ''}{self.pick(self.names.terrains)})"

    def _has(self, env: Env, d: int) -> str | None:
        subject = self.pick(["region", "race", "player"])
        words = {"region": self.names.symbols + self.names.markers + self.names.marker_tags,
                 "race": self.names.tags + self.names.races + self.names.powers,
                 "player": self.names.markers}[subject]
        if not words:
            return None
        got = self._subject(env, subject, d)
        if got is None:
            return None
        self.note("has", subject)
        return f"({got[0]}{got[1]}has {self.pick(words)})"

    def _borders(self, env: Env, d: int) -> str | None:
        a = self.any_of(env, ("region", "regions"), d)
        b = self.any_of(env, ("region", "regions"), d)
        if a is None or b is None:
            return None
        self.note("test", "borders")
        return f"({a[0]} borders {b[0] if b[0].startswith('(') else f'({b[0]})'})"

    # ---- effects
    def effects(self, env: Env, depth: int = 0, count: int | None = None) -> list[str]:
        n = count if count is not None else self.rng.randint(1, 3)
        out = []
        for _ in range(n * 3):
            if len(out) == n:
                break
            e = self.effect(env, depth)
            if e is not None:
                out.append(e)
        return out

    def effect(self, env: Env, depth: int = 0, entry=None) -> str | None:
        if entry is None:  # effects this pack has not used yet, and may use here, are more likely
            fresh = [e for e in V.EFFECTS.values() if ("effect", e.name) not in self.used and usable(e, env)]
            entry = self.pick(fresh if fresh and self.chance(0.5) else list(V.EFFECTS.values()))
        if depth >= 2 and any(p.kind == BLOCK for p in entry.params):
            return None
        if not usable(entry, env):
            return None
        values = self.arguments(env, entry, depth)
        if values is None:
            return None
        for a, b, _ in entry.exclusive:  # parts that cannot go together: keep the first
            if values.get(a) not in (None, False) and values.get(b) not in (None, False):
                values[b] = False if values[b] is True else None
        self.note("effect", entry.name)
        return render(entry, values)

    def arguments(self, env: Env, entry, depth: int) -> dict | None:
        """Values for an effect's or a form's parameters. A `name` parameter (`for each NAME in S`)
        stands for each element of the set that follows it: the blocks and the per-element part
        (`sum(N for each …)`) are made last, with the name bound."""
        values: dict[str, str | bool | None] = {}
        types: dict[str, str] = {}
        later = [p for p in entry.params if p.kind == BLOCK or p.name == getattr(entry, "per_element", "")]
        names: list[str] = []
        for p in entry.params:
            if p in later:
                continue
            if p.optional and self.chance(0.5):
                values[p.name] = None
            elif p.kind == FLAG:
                values[p.name] = self.chance(0.5)
            elif p.kind == "name":
                values[p.name] = self.new_name("e")
                names.append(values[p.name])
            elif p.kind in EXPRESSION_KINDS:
                wanted = (types[p.same_as],) if p.same_as in types else EXPRESSION_KINDS[p.kind]
                got = self.any_of(env, wanted, 1)
                if got is None:
                    if not p.optional:
                        return None
                    values[p.name] = None
                    continue
                values[p.name], types[p.name] = got
                if names and got[1] in SET_ELEMENT:
                    for n in names:
                        env = env.bind(n, SET_ELEMENT[got[1]])
                    names = []
            else:
                word = self.word(env, p.kind)
                if word is None:
                    return None
                values[p.name], types[p.name] = word
        for p in later:
            if p.kind == BLOCK:
                values[p.name] = None if p.optional and self.chance(0.5) else self.block(env, depth + 1)
            else:
                got = self.any_of(env, EXPRESSION_KINDS[p.kind], 2)
                if got is None:
                    return None
                values[p.name] = got[0]
        return values

    def _form(self, env: Env, form, d: int) -> str | None:
        """An expression form of the vocabulary (`sum(N for each NAME in S)`, `strength of M in R`)."""
        values = self.arguments(env, form, d)
        if values is None:
            return None
        self.note("form", form.name)
        return f"({render(form, values)})"

    def block(self, env: Env, depth: int) -> str:
        effects = self.effects(env, depth, self.rng.randint(1, 2)) or ["end conquests"]
        if len(effects) == 1 and self.chance(0.5):
            return effects[0]
        return "{\n" + "".join(f"    {e}\n" for e in effects) + "  }"

    def word(self, env: Env, kind: str) -> tuple[str, str] | None:
        """(name, type) for a name written in an effect."""
        n = self.names
        if kind == "marker":
            return (self.pick(n.markers), "") if n.markers else None
        if kind == "pool":
            pool = self.pick(n.pools + list(V.POOLS))
            self.note("pool", pool)
            return pool, ""
        if kind in ("var", "counter"):
            if n.player_vars and self.chance(0.15):  # a slot: another player's variable
                who = self.expr(env, "player", 2)
                if who is not None:
                    self.note("slot", "player var of a player")
                    return f"{self.pick(n.player_vars)} of {who}", "int"
            if n.markers and self.chance(0.1):  # a slot: the strength of a marker
                where = self.expr(env, "region", 2)
                if where is not None:
                    self.note("slot", "strength of a marker")
                    return f"strength of {self.pick(n.markers)} in {where}", "int"
            ok = [v for v, t in env.variables.items() if kind == "var" or t == "int"]
            return (v := self.pick(ok), env.variables[v]) if ok else None
        if kind == "piece":
            options = n.marker_tags + n.markers
            return (self.pick(options), "") if options else None
        if kind == "tag":
            return self.pick(n.tags + ["fuzzed"]), ""
        raise AssertionError(f"unknown word kind {kind!r}: teach the generator")

    # ---- items
    def modifier(self, env: Env, stat=None) -> str:
        stat = stat or self.pick(list(V.STATS.values()))
        env = attrs.evolve(env, bindings={**env.bindings, **stat.bindings}, stat=stat.name)
        ops = list(V.MODIFIER_OPS) if stat.type == "int" else ["set"]
        op = self.pick(ops)
        value = self.expr(env, stat.type)
        text = f"modify {stat.name} {op} {value}"
        if self.chance(0.5):
            text += f" when {self.expr(env, 'bool')}"
        if stat.type == "int":
            if self.chance(0.4):
                text += f" floor {self.expr(env, 'int', 2)}"
            if self.chance(0.3):
                text += f" cap {self.expr(env, 'int', 2)}"
        text += self.scope()
        self.note("stat", stat.name)
        self.note("modifier", op)
        return text

    def scope(self) -> str:
        if not self.chance(0.3):
            return ""
        s = self.pick(list(V.SCOPES))
        self.note("scope", s)
        return " always" if s == "always" else f" while {s}"

    def trigger(self, env: Env, event=None) -> str:
        event = event or self.pick(list(V.EVENTS.values()))
        env = attrs.evolve(env, bindings={**env.bindings, **event.bindings}, event=event.name)
        text = f"on {event.name}"
        if self.chance(0.2):
            audience = self.pick(list(V.AUDIENCES))
            self.note("audience", audience)
            text += f" by {audience}"
        if self.chance(0.4):
            text += f" when {self.expr(env, 'bool')}"
        text += self.scope()
        self.note("event", event.name)
        if self.chance(0.2):  # a trigger that asks its player
            chooses, env = self.chooses(env, may=True)
            steps = chooses + self.effects(env, 0)
            return f"{text}: {{\n" + "".join(f"    {s}\n" for s in steps) + "  }"
        return f"{text}: {self.block(env, 0)}"

    def chooses(self, env: Env, may: bool) -> tuple[list[str], Env]:
        """Up to MAX_CHOICES `choose` steps (`may choose` in triggers), from a selection or a list of
        words; the environment with their names bound."""
        out = []
        for _ in range(self.rng.randint(0 if not may else 1, MAX_CHOICES)):
            var = self.new_name("c")
            verb = "may choose" if may and self.chance(0.5) else "choose"
            if self.chance(0.2):
                words = self.rng.sample(["tokens", "coins", "peace", "war"], self.rng.randint(1, 3))
                out.append(f"{verb} {var}: [{', '.join(words)}]")
                env = attrs.evolve(env, bindings={**env.bindings, var: "option"},
                                   words={**env.words, var: tuple(words)})
                self.note("step", f"{verb} from words")
                continue
            t = self.pick(["regions", "players", "powers"])
            sel = self.expr(env, t)
            if sel is not None:
                out.append(f"{verb} {var}: {sel}")
                env = env.bind(var, SET_ELEMENT[t])
                self.note("choose", t)
                self.note("step", verb)
        return out, env

    def ability(self, env: Env) -> str:
        name = self.new_name("ab")
        text = f"ability {name}"
        when = self.expr(env, "bool") if self.chance(0.5) else None  # choices are not known to `when`
        chooses, env = self.chooses(env, may=False)
        if self.chance(0.93):
            period = self.pick(list(V.LIMIT_PERIODS))
            count = "once" if self.chance(0.6) else f"{self.rng.randint(2, 3)} times"
            text += f" {count} per {period}"
            self.note("limit", period)
            first = chooses[0].split()[1].rstrip(":") if chooses else ""
            if env.bindings.get(first) == "region" and self.chance(0.3):  # per owner of the region chosen first
                key = self.pick(list(V.LIMIT_KEYS))
                text += f" per {key}"
                self.note("limit key", key)
        else:  # no count: the pack must say what bounds it (the checker cannot)
            text += ' unlimited "each use spends something"'
            self.note("limit", "unlimited")
        phase = self.pick(list(V.PHASES))
        self.note("phase", phase)
        text += f" during {phase}"
        if when is not None:
            text += f" when {when}"
        text += self.scope()
        steps = chooses + self.effects(env, 0)
        return text + " {\n" + "".join(f"    {s}\n" for s in steps) + "  }"

    def var(self) -> tuple[str, str, str]:
        """(name, type, declaration)."""
        name = self.new_name("v")
        if self.chance(0.2):
            return name, "player", f"var {name} = none" + (" per turn" if self.chance(0.3) else "")
        init = self.pick(["", f" = {self.rng.randint(-3, 5)}"])
        reset = ""
        if self.chance(0.3):
            reset = f" per {self.pick(list(V.VAR_RESETS))}"
            self.note("var reset", reset.split()[-1])
        return name, "int", f"var {name}{init}{reset}"


def _alternatives(inner: str) -> list[str]:
    """A bracket's alternatives: `from REGION | from tray` and `destroying|sparing defenders`."""
    if " | " in inner:
        return inner.split(" | ")
    first, _, rest = inner.partition(" ")
    return [f"{w} {rest}".strip() for w in first.split("|")]


def usable(entry, env: Env) -> bool:
    """An effect written only in one trigger (`cancel conquest`: "in a `conquest.done` trigger: …") is usable
    there alone."""
    only = re.match(r"in an? `([\w.]+)` trigger", entry.doc)
    return not only or env.event == only.group(1)


def render(entry, values: dict) -> str:
    """An effect's or a form's text from its entry's declared syntax (`gain N coins [for each
    SELECTION]`): each upper-case word is the next parameter; a bracketed part is written when its
    parameter is given, a bracket without one is a flag (written when set), and of a bracket's
    alternatives (`[from REGION | from tray]`) the first one given is written."""
    params = iter(entry.params)
    out: list[str] = []

    def fill(text: str) -> tuple[str, bool]:
        """The text with its parameters, and whether every one of them is given."""
        given = True

        def one(m):
            nonlocal given
            value = values[next(params).name]
            given = given and value is not None
            return str(value)
        filled = PLACEHOLDER.sub(one, text)
        return filled, given

    for bracket, plain in re.findall(r"\[([^\]]*)\]|([^\[]+)", entry.syntax):
        if plain:
            out.append(fill(plain)[0])
            continue
        written = False
        for alt in _alternatives(bracket):
            if PLACEHOLDER.search(alt):
                text, given = fill(alt)
            else:
                p = next(params)
                assert p.kind == FLAG, f"{entry.name}: a bracket without a parameter must be a flag"
                text, given = alt, bool(values[p.name])
            if given and not written:
                out.append(f" {text} ")
                written = True
    left = list(params)
    assert not left, f"{entry.name}: its syntax does not name {[p.name for p in left]}"
    return re.sub(r" +", " ", "".join(out)).strip()


# ---- packs ----------------------------------------------------------------------------------------------------

@attrs.define
class Decl:
    kind: str
    name: str
    items: list[str]
    folder: str = ""  # the pack it is written in: "" this one, BASE the pack inside it that it requires

    def text(self) -> str:
        name = self.name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.name) else f'"{self.name}"'
        return f"{self.kind} {name} {{\n" + "".join(f"  {i}\n" for i in self.items) + "}\n"


@attrs.define
class Pack:
    """A generated pack: pack.yaml, maps and rules files (one per declaration kind), and
    perhaps a pack inside it that it requires (BASE/: its own pack.yaml, map and rules)."""

    seed: int
    manifest: str
    data: dict[str, str]  # the other YAML files: maps, board faces, BASE/pack.yaml
    decls: list[Decl]

    def files(self) -> dict[str, str]:
        out = {"pack.yaml": self.manifest, **self.data}
        for folder in sorted({d.folder for d in self.decls}):
            for kind in ("rule", "race", "power", "marker", "relic", "place", "figure"):
                text = "".join(d.text() for d in self.decls if d.kind == kind and d.folder == folder)
                if text:
                    out[f"{folder}/{kind}s.sw" if folder else f"{kind}s.sw"] = text
        return out

    def write(self, folder: Path) -> Path:
        for name, text in self.files().items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        return folder


TERRAINS = ["forest", "hill", "swamp", "sea", "farmland", "mountain"]
TEAMS = ["red", "blue", "green"]
BASE = "base"  # the folder of the pack a generated pack may require
ACTIONS = 1500  # every generated pack's budget of actions per game
SYMBOLS = ["magic", "mine", "cavern", "camp"]


def make_map(rng: random.Random, n: int, terrains: list[str], symbols: list[str], name: str = "fuzz",
             first: int = 1) -> str:
    """A connected map of n regions numbered from `first`: a random tree plus a few more borders."""
    ids = range(first, first + n)
    borders = set()
    for r in ids[1:]:
        borders.add((rng.randint(first, r - 1), r))
    for _ in range(rng.randint(0, n)):
        a, b = rng.sample(ids, 2)
        if (b, a) not in borders:
            borders.add((a, b))
    lines = [f"name: {name}", "regions:"]
    for r in ids:
        sym = rng.sample(symbols, rng.randint(0, min(2, len(symbols))))
        parts = [f"terrain: {rng.choice(terrains)}"]
        if sym:
            parts.append(f"symbols: [{', '.join(sym)}]")
        if r == first or rng.random() < 0.4:
            parts.append("edge: true")
        lines.append(f"  {r}: {{{', '.join(parts)}}}")
    lines.append("borders:")
    lines += [f"  - [{a}, {b}]" for a, b in sorted(borders)]
    return "\n".join(lines) + "\n"


def board_files(rng: random.Random, terrains: list[str], symbols: list[str]) -> tuple[dict[str, str], list[str], str]:
    """The maps of a pack, the ways its setups may lay out the board (`map: map.yaml`, or now and
    then modular boards drawn for each game as islands, `boards: {small: 1}`) and pack.yaml's
    `boards:` listing the physical boards and their faces."""
    maps = {"map.yaml": make_map(rng, rng.randint(4, 12), terrains, symbols)}
    if rng.random() > 0.15:
        return maps, ["map: map.yaml"], ""
    boards: dict[str, list[list[str]]] = {}
    for size in rng.sample(["large", "small"], rng.randint(1, 2)):
        for _ in range(rng.randint(1, 2)):  # physical boards, each with one or two faces
            faces = []
            for _ in range(rng.randint(1, 2)):
                face = len(maps)  # region ids differ across faces: face k numbers them from 100 k
                maps[f"maps/face{face}.yaml"] = make_map(rng, rng.randint(3, 6), terrains, symbols, f"face{face}",
                                                         100 * face)
                faces.append(f"maps/face{face}.yaml")
            boards.setdefault(size, []).append(faces)
    drawn = ", ".join(f"{size}: {rng.randint(1, len(b))}" for size, b in boards.items())
    listed = "".join(f"\n  {size}:" + "".join(f"\n    - [{', '.join(f)}]" for f in b) for size, b in boards.items())
    return maps, ["map: map.yaml", f"boards: {{{drawn}}}"], f"boards:{listed}"


def prop_text(kind: str, prop: str, rng: random.Random, tags: list[str]) -> str:
    """A property of a declaration from its entry: a number, a flag, tags, or the words its doc
    quotes (`survives decline`, `counts as token`)."""
    what, doc = V.DECL_PROPS[kind][prop]
    if what == "int":
        return f"{prop} {rng.randint(0, 2)}"
    if what == "flag":
        return prop
    if prop == "tags":
        return f"tags {rng.choice(tags)}"
    quoted = re.search(rf"`({prop} [a-z ]+)`", doc)
    assert quoted, f"{kind} {prop}: its doc quotes no example to write"
    return quoted.group(1)


def generate(seed: int) -> tuple[Pack, Gen]:
    """A small random pack: a tiny map, a few races, powers, markers, relics, places and edition rules."""
    rng = random.Random(seed)
    terrains = rng.sample(TERRAINS, rng.randint(2, len(TERRAINS)))
    symbols = rng.sample(SYMBOLS, rng.randint(1, len(SYMBOLS)))
    races = [f"Race{i}" for i in range(rng.randint(2, 6))]
    powers = [f"Power{i}" for i in range(rng.randint(2, 5))]
    markers = [f"mark{i}" for i in range(rng.randint(1, 3))]
    relics = [f"relic{i}" for i in range(rng.randint(0, 2))]
    places = [f"place{i}" for i in range(rng.randint(0, 2))]
    figures = [f"figure{i}" for i in range(rng.randint(0, 1))]
    tags = rng.sample(["alliance", "horde", "undead", "sea"], 2)
    pools = ["treasure"] if relics or places else []
    neutral = "Wild" if rng.random() < 0.5 else None
    names = Names(terrains, symbols, markers + relics + places + figures,
                  ["marker", tags[0]] + ["relic"] * bool(relics) + ["place"] * bool(places) + ["figure"] * bool(figures),
                  races + ([neutral] if neutral else []),
                  powers, tags, pools)
    g = Gen(rng, names)
    decls: list[Decl] = []
    shared = {}  # `game var` and `player var`: every declaration sees them
    for i in range(rng.randint(0, 2)):
        owner = rng.choice(list(V.SHARED_VARS))
        name = f"{owner}{i}"
        shared[name] = f"{owner} var {name} = {rng.randint(0, 3)}" + (" per turn" if rng.random() < 0.3 else "")
        g.note("shared var", owner)
        if owner == "player":
            names.player_vars.append(name)

    def body(kind: str, extra: list[str], rules: int) -> list[str]:
        items = list(extra)
        variables: dict[str, str] = {name: "int" for name in shared}
        for _ in range(rng.randint(0, 2)):
            name, t, text = g.var()
            variables[name] = t
            items.append(text)
        if rng.random() < 0.3:
            items.append(f'"{kind} made by the fuzzer"')
        env = Env(kind, {}, variables)
        for _ in range(rules):
            what = rng.random()
            if what < 0.4:
                items.append(g.modifier(env))
            elif what < 0.8:
                items.append(g.trigger(env))
            elif kind != "marker":
                items.append(g.ability(env))
        return items

    entry = g.expr(Env("rule", {"target": "region"}, {}, stat="conquest.entry"), "bool")
    decls.append(Decl("rule", "Entry", [*shared.values(), f"modify conquest.entry set true when target is edge or {entry}"]))
    for i in range(rng.randint(0, 2)):
        decls.append(Decl("rule", f"Rule{i}", body("rule", [f"tags {tags[0]}"] * (rng.random() < 0.3), rng.randint(1, 2))))
    for r in races:
        supply = rng.randint(6, 14)
        props = [f"banner {rng.randint(1, min(supply, 7))}", f"supply {supply}"]
        if r in races[:2] or rng.random() < 0.3:  # each market column has a banner
            props.append(f"tags {tags[races.index(r)] if r in races[:2] else rng.choice(tags)}")
        decls.append(Decl("race", r, body("race", props, rng.randint(0, 5))))
    if neutral:
        decls.append(Decl("race", neutral, ["neutral", f"supply {rng.randint(3, 12)}"]))
    for p in powers:
        props = [f"badge {rng.randint(0, 5)}"]
        if p == powers[0] or rng.random() < 0.3:
            props.append(f"tags {tags[1] if p == powers[0] else rng.choice(tags)}")
        props += [prop_text("power", x, rng, tags) for x in V.DECL_PROPS["power"]
                  if x not in ("badge", "tags") and rng.random() < 0.2]
        decls.append(Decl("power", p, body("power", props, rng.randint(0, 5))))
    def piece(kind: str, name: str, rules: int) -> Decl:
        others = [prop_text(kind, p, rng, tags) for p in V.DECL_PROPS[kind] if p != "limit"]
        props = [f"limit {rng.randint(1, 9)}"] + rng.sample(others, rng.randint(0, 3))
        if name == markers[0]:  # the tag `has` tests on regions
            props = [x for x in props if not x.startswith("tags ")] + [f"tags {tags[0]}"]
        return Decl(kind, name, body(kind, props, rules))

    decls += [piece("marker", m, 0) for m in markers]
    decls += [piece("relic", m, rng.randint(1, 2)) for m in relics]
    decls += [piece("place", m, rng.randint(1, 2)) for m in places]
    decls += [piece("figure", m, rng.randint(1, 2)) for m in figures]
    for d in decls:
        for item in d.items:
            if item.startswith("tags "):
                g.note("property", f"{d.kind} tags")
            elif not item.startswith(("modify", "on ", "ability", "var", "game var", "player var", '"')):
                g.note("property", f"{d.kind} {item.split()[0]}")
    maps, layouts, boards = board_files(rng, terrains, symbols)
    players = sorted(rng.sample([1, 2, 3, 4], rng.randint(1, 2)))
    lines = [f"name: fuzz{seed}"]
    if rng.random() < 0.1:
        lines += ["edition: Fuzz", 'version: "0.1"', f"language: {LANGUAGE_VERSION}", "description: made by the fuzzer"]
    setups = []
    seats = rng.random() < 0.05
    for p in players:
        extra = f", seats: [{', '.join(f'[{rng.choice(tags)}]' for _ in range(p))}]" if seats else ""
        if rng.random() < 0.3:  # the players in teams, a team winning together
            extra += f", teams: [{', '.join(rng.choice(TEAMS) for _ in range(p))}]"
        setups.append(f"  {p}: {{{rng.choice(layouts)}, rounds: {rng.randint(2, 6)}, coins: {rng.randint(0, 5)}{extra}}}")
    if rng.random() < (0.6 if "teams:" in "".join(setups) else 0.05):
        lines.append(f"team_score: {rng.choice(list(TEAM_SCORES))}")
    if rng.random() < 0.15:  # packs built on packs: the powers and the terrains come from a pack inside this one
        data = {f"{BASE}/pack.yaml": "\n".join([
            f"name: base{seed}", f"terrains: [{', '.join(terrains)}]", f"symbols: [{', '.join(symbols)}]",
            f"die: [{rng.randint(0, 2)}]", f"coins: {rng.choice([100, 500])}", "setup:",
            *(f"  {p}: {{map: map.yaml, rounds: {rng.randint(2, 4)}, coins: 1}}" for p in players)]) + "\n",
            f"{BASE}/map.yaml": maps["map.yaml"]}
        for d in decls:
            if d.kind == "power":
                d.folder = BASE
        setups = [s for s in setups if rng.random() < 0.7]  # the base pack's setups for the rest
        lines += [f"requires: [./{BASE}]", 'rules: ["*.sw"]']
        if rng.random() < 0.3:  # a mix pack: played on the base pack's board, with no setups of its own
            setups = []
            lines.append(f"board: base{seed}")
    else:
        data = {}
        lines += [f"terrains: [{', '.join(terrains)}]", f"symbols: [{', '.join(symbols)}]"]
    lines += [f"coins: {rng.choice([60, 200, 1000])}",
              f"die: [{', '.join(map(str, rng.choice([[0, 1], [0, 0, 1, 2, 3], [2]])))}]",
              "market:", f"  visible: {rng.randint(1, 6)}", f"  payment: {rng.choice(['combos', 'bank'])}"]
    if seats or rng.random() < 0.2:  # banner columns by tag (a race without the tag goes to the first)
        lines.append(f"  columns: [[{tags[0]}], [{tags[1]}]]")
    if setups:
        lines += ["setup:", *setups]
    if boards:
        lines.append(boards)
    placements = []
    if neutral:
        how = rng.choice(["", ", regions: players + 1", ", regions: 2, apart: true", ", displace: true"])
        placements.append(f"  - {{symbol: {symbols[0]}, race: {neutral}, count: {rng.randint(1, 2)}{how}}}")
    if rng.random() < 0.5:
        placements.append(f"  - {{terrain: {terrains[0]}, marker: {markers[0]}{', board: true' * (rng.random() < 0.3)}}}")
    if pools and rng.random() < 0.3:  # markers drawn from the hidden pool, perhaps face down until revealed
        placements.append(f"  - {{symbol: {symbols[-1]}, pool: treasure{', face_down: true' * (rng.random() < 0.5)}}}")
    if placements:
        lines += ["placements:", *placements]
    if pools:
        lines += ["pools:", f"  treasure: [{', '.join(relics + places)}]"]
    if rng.random() < 0.2:
        lines += ["equivalences:", f"  - [{terrains[0]}, {terrains[1]}]"]
    budgets = [f"actions: {ACTIONS}"]  # finished games here take at most ~600 actions
    if rng.random() < 0.2:
        budgets.append(f"trigger_runs: {rng.choice([20, 200])}")
    if rng.random() < 0.2:
        budgets.append(f"number: {rng.choice([100, 10**6])}")
    lines.append(f"budgets: {{{', '.join(budgets)}}}")
    return Pack(seed, "\n".join(lines) + "\n", {**maps, **data}, decls), g
