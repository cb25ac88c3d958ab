"""Compile checked declarations into engine content: closures, never tree walks.

Every expression becomes a Python closure taking a Ctx; the AST is not looked
at again once a game runs. Nothing here evaluates pack text as Python: the
only operations a pack can reach are the ones written out below.
"""

from __future__ import annotations

from swdsl.engine import pieces, turn
from swdsl.engine.content import Ability, Content, Modifier, Trigger
from swdsl.engine.stats import Ctx, conquest_cost, region_minimum, shielded
from swdsl.lang import ast
from swdsl.lang.checker import Checked
from swdsl.lang.closures import ExprCompiler
from swdsl.lang.runtime import as_regions, const


class Compiler(ExprCompiler):
    def __init__(self, checked: Checked):
        self.res = checked.resolved

    # ---- declarations
    def compile(self, d: ast.Decl, wearer: str | None = None) -> Content:
        """Compile `d`; with `wearer`, as the rules another marker takes on
        (`copy … to WEARER`): the marker's own name then means the wearer."""
        c = Content(kind=d.kind, name=d.name)
        self.decl_name = wearer or d.name
        self.rename = {d.name: wearer} if wearer else {}
        self.key_prefix = f"{wearer}>" if wearer else ""
        self.copiers: set[str] = set()
        # initial values, for a race reading the variables of a relic or a bound power it never declared
        self.inits = {i.name: (None if i.init == "none" else i.init) for i in d.items if isinstance(i, ast.VarDecl)}
        mods: dict[str, list[Modifier]] = {}
        trigs: dict[str, list[Trigger]] = {}
        abilities = []
        docs = []
        for item in d.items:
            if isinstance(item, ast.Prop):
                c.props[item.name] = item.args[0] if len(item.args) == 1 and item.name != "tags" \
                    and item.name != "survives" else (tuple(item.args) if item.args else True)
            elif isinstance(item, ast.Doc):
                docs.append(item.text)
            elif isinstance(item, ast.VarDecl):
                init = None if item.init == "none" else item.init
                c.variables[item.name] = (init, item.reset.text if item.reset else None)
            elif isinstance(item, ast.Modifier):
                m = self.modifier(d, item)
                mods.setdefault(m.stat, []).append(m)
            elif isinstance(item, ast.Trigger):
                t = Trigger(item.event.text, self.opt(item.when), item.scope.kind if item.scope else "active",
                            self.block(item.effects), d.name, item.audience.text if item.audience else "me")
                trigs.setdefault(t.event, []).append(t)
            elif isinstance(item, ast.Ability):
                abilities.append(self.ability(d, item))
        c.modifiers = {k: tuple(v) for k, v in mods.items()}
        c.triggers = {k: tuple(v) for k, v in trigs.items()}
        c.abilities = tuple(abilities)
        c.doc = " ".join(docs)
        c.copiers = frozenset(self.copiers)
        return c

    def modifier(self, d: ast.Decl, m: ast.Modifier) -> Modifier:
        value = m.value
        fn = self.expr(value)
        if isinstance(value, ast.Ref) and value.name in ("true", "false"):
            fn = const(value.name == "true")
        return Modifier(m.stat.text, m.op, fn, self.opt(m.when), self.opt(m.floor), self.opt(m.cap),
                        m.scope.kind if m.scope else "active", d.name, d.kind)

    def ability(self, d: ast.Decl, a: ast.Ability) -> Ability:
        chooses = []
        effects = []
        for step in a.steps:
            if isinstance(step, ast.Choose):
                options, is_option = self.options(step.selection), self.is_option(step.selection)
                if self.res.get(id(step), ("regions",))[0] == "regions":
                    options, is_option = _unshielded(options, is_option)
                chooses.append((step.name, options, is_option))
            else:
                effects.append(step)
        limit = a.limit
        return Ability(
            key=f"{self.key_prefix}{d.name}/{a.name}", name=a.name, source=d.name, phase=a.phase.text if a.phase else "conquest",
            limit=limit.count if limit else None, per=limit.per.text if limit else None,
            per_owner=bool(limit and limit.key), when=_with_pieces_left(self.opt(a.when), effects, self.rename),
            scope=a.scope.kind if a.scope else "active", choose=tuple(chooses), run=self.block(tuple(effects)),
        )

    def options(self, sel: ast.Expr):
        fn = self.expr(sel)
        return lambda ctx: sorted(fn(ctx))

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

    # ---- effects
    def block(self, effects: tuple[ast.Effect, ...]):
        fns = [self.effect(e) for e in effects]
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def effect(self, e: ast.Effect):
        k = e.kind
        args = [self.expr(a) for a in e.args]
        word = self.rename.get(e.word, e.word)
        if k == "gain":
            amount = args[0]
            if len(args) > 1:
                each = args[1]
                return lambda ctx: pieces.gain(ctx.game, ctx.me.player, amount(ctx) * len(each(ctx)))
            return lambda ctx: pieces.gain(ctx.game, ctx.me.player, amount(ctx))
        if k == "pay":
            amount = args[0]
            to = args[1] if len(args) > 1 else const(None)
            return lambda ctx: pieces.pay(ctx.game, ctx.me.player, amount(ctx), to(ctx))
        if k == "take":
            amount, victim = args
            return lambda ctx: [pieces.pay(ctx.game, seat, amount(ctx), ctx.me.player) for seat in as_regions(victim(ctx))]
        if k == "add":
            return self._add(args)
        if k == "discard":
            return self._discard(args)
        if k == "set_aside":
            n = args[0]
            return lambda ctx: pieces.set_aside(ctx.game, ctx.me, n(ctx))
        if k == "place":
            where = args[0]
            return lambda ctx: [pieces.place_marker(ctx.game, word, r, ctx.me) for r in as_regions(where(ctx))]
        if k == "remove":
            where = args[0]
            if self.res.get(id(e), ("regions",))[0] in ("player", "players"):
                def take_back(ctx):
                    for seat in as_regions(where(ctx)):
                        pieces.remove_player_markers(ctx.game, seat, lambda n, o: n != word)
                return take_back

            def remove(ctx):
                for r in as_regions(where(ctx)):
                    pieces.remove_markers(ctx.game, r, lambda n, o: n != word)
            return remove
        if k == "give":
            who = args[0]
            return lambda ctx: [pieces.give_marker(ctx.game, word, seat, ctx.me) for seat in as_regions(who(ctx))]
        if k == "award":
            amount, who = args
            return lambda ctx: [pieces.gain(ctx.game, seat, amount(ctx)) for seat in as_regions(who(ctx))]
        if k == "return":
            where, pool = args[0], e.options[0]
            return lambda ctx: [pieces.return_markers(ctx.game, word, r, pool) for r in as_regions(where(ctx))]
        if k == "rout":
            where = args[0]
            return lambda ctx: [turn.rout(ctx.game, ctx.me, r) for r in as_regions(where(ctx))]
        if k == "move_tokens":
            n, src, dst = args

            def shift(ctx):
                a, b = src(ctx), dst(ctx)
                if a is not None and b is not None:
                    pieces.shift_tokens(ctx.game, a, b, n(ctx))
            return shift
        if k == "swap":
            a, b = args

            def swap(ctx):
                x, y = a(ctx), b(ctx)
                if isinstance(x, str) and isinstance(y, str):
                    pieces.swap_power(ctx.game, ctx.me, y)
                elif isinstance(x, int) and isinstance(y, int):
                    pieces.swap_regions(ctx.game, x, y)
            return swap
        if k == "move":
            return self._move(word, args[0])
        if k == "draw":
            where = args[0]
            if word == "power":
                return lambda ctx: pieces.bind_power(ctx.game, where(ctx)) if where(ctx) is not None else None
            return lambda ctx: pieces.draw_marker(ctx.game, word, where(ctx), ctx.me) if where(ctx) is not None else None
        if k in ("set", "increase", "decrease"):
            value = args[0]
            if k == "set":
                def set_(ctx):
                    ctx.me.vars[word] = value(ctx)
                return set_
            sign = 1 if k == "increase" else -1

            def bump(ctx):
                ctx.me.vars[word] = (ctx.me.vars.get(word) or 0) + sign * value(ctx)
            return bump
        if k == "roll":
            def roll(ctx):
                ctx.game.die = ctx.game.rng.choice(ctx.game.ruleset.die)
                ctx.me.vars[word] = ctx.game.die
            return roll
        if k == "conquer":
            return self._conquer(args, e.options)
        if k == "withdraw":
            where = args[0]
            return lambda ctx: [pieces.withdraw(ctx.game, ctx.me, r, region_minimum(ctx.game, ctx.me, r))
                                for r in as_regions(where(ctx)) if ctx.game.occupant[r] is ctx.me]
        if k == "end_conquests":
            def end(ctx):
                if ctx.game.phase == "conquer" and ctx.game.acting is ctx.me:
                    turn.end_conquests(ctx.game)
            return end
        if k == "recruit":
            n = args[0]
            return lambda ctx: pieces.recruit(ctx.game, ctx.me, word, n(ctx))
        if k == "dismiss":
            return lambda ctx: pieces.dismiss(ctx.game, ctx.me, word)
        if k == "copy":
            where, kind = args[0], e.options[0]
            self.copiers.add(word)
            return lambda ctx: pieces.copy_marker(ctx.game, kind, where(ctx), word) if where(ctx) is not None else None
        if k == "tag":
            who = args[0]
            def tag(ctx):
                race = who(ctx)
                if race is not None:
                    race.turn_tags.add(word)
            return tag
        if k == "as":
            who, then = args[0], self.block(e.then)

            def as_(ctx):
                other = who(ctx)
                if other is not None and other.id in ctx.game.races:
                    octx = Ctx(ctx.game, other, ctx.b)
                    octx.it = ctx.it
                    then(octx)
            return as_
        if k == "vacate":
            where = args[0]
            return lambda ctx: [pieces.vacate(ctx.game, ctx.me, r) for r in as_regions(where(ctx))
                                if ctx.game.occupant[r] is ctx.me]
        if k == "if":
            cond, then = args[0], self.block(e.then)
            orelse = self.block(e.orelse) if e.orelse else None

            def if_(ctx):
                if cond(ctx):
                    then(ctx)
                elif orelse is not None:
                    orelse(ctx)
            return if_
        raise ValueError(f"unknown effect {k}")  # the checker rejects these first

    def _add(self, args):
        n = args[0]
        where = args[1] if len(args) > 1 else None

        def add(ctx):
            g, me = ctx.game, ctx.me
            got = pieces.take_from_tray(g, me, n(ctx))
            r = where(ctx) if where else None
            if r is not None and got and g.occupant[r] is None and g.tokens[r] == 0:
                g.occupant[r] = me  # an empty region is taken without a conquest
                me.regions.add(r)
            if r is not None and g.occupant[r] is me:
                g.tokens[r] += got
            else:
                me.hand += got
        return add

    def _discard(self, args):
        n = args[0]
        where = args[1] if len(args) > 1 else None

        def discard(ctx):
            g, me, k = ctx.game, ctx.me, n(ctx)
            r = where(ctx) if where else None
            if r is not None:
                pieces.remove_tokens(g, r, k)  # whichever race holds it
                return
            k = min(k, me.hand)
            me.hand -= k
            pieces.to_tray(g, me, k)
        return discard

    def _move(self, word, dest):
        def move(ctx):
            g, me = ctx.game, ctx.me
            r = dest(ctx)
            if r is None:
                return
            # the race's own piece, else one lying in a region it holds (a relic), else a new one
            for mine in (lambda region, owner: owner == me.id, lambda region, owner: g.occupant[region] is me):
                for region, marks in enumerate(g.markers):
                    for i, (name, owner) in enumerate(marks):
                        if name == word and mine(region, owner):
                            marks.pop(i)
                            g.markers[r].append((name, owner))
                            return
            pieces.place_marker(g, word, r, me)
        return move

    def _conquer(self, args, options):
        target = args[0]
        using = args[1] if len(args) > 1 else None
        from_tray = "from_tray" in options
        destroy = "destroying" in options

        def conquer(ctx):
            g, me = ctx.game, ctx.me
            r = target(ctx)
            if r is None or g.occupant[r] is me:
                return
            n = using(ctx) if using else conquest_cost(g, me, r)
            turn.conquer(g, me, r, max(1, n), from_tray=from_tray, destroy=destroy)
        return conquer

def _unshielded(options, is_option):
    """A region choice leaves out the regions shielded from the race (region.shielded)."""
    def unshielded_options(ctx):
        found = options(ctx)
        if "region.shielded" not in ctx.game.ruleset.modified_stats:
            return found
        return [r for r in found if not shielded(ctx.game, ctx.me, r)]

    def unshielded_option(ctx, r):
        return is_option(ctx, r) and not ("region.shielded" in ctx.game.ruleset.modified_stats
                                          and shielded(ctx.game, ctx.me, r))
    return unshielded_options, unshielded_option


def _with_pieces_left(when, effects, rename):
    """An ability whose effect places a marker is offered only while that
    marker's pool has pieces left (R6: an effect takes only what is left)."""
    placed = sorted({rename.get(e.word, e.word) for e in effects if e.kind == "place"})
    if not placed:
        return when

    def pieces_left(ctx):
        pools = ctx.game.pools
        return all(pools.get(m, 1) > 0 for m in placed) and (when is None or when(ctx))
    return pieces_left


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
