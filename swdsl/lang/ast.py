"""The typed syntax tree of the rules language; every node carries its source span."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from swdsl.diagnostics import Span


def node(cls):
    return attrs.frozen(cls, kw_only=True)


# ---- expressions ---------------------------------------------------------------


@node
class Int:
    value: int
    span: Span


@node
class Ref:
    """A bare name: a binding (target, it, me), a variable, an attribute of the
    implicit subject, a constant (true, false) or a vocabulary word (forest)."""

    name: str
    span: Span


@node
class RegionSet:
    qual: str  # my | conquered | enemy | lost | all
    span: Span


@node
class Count:
    of: Expr
    span: Span


@node
class Attr:
    name: str
    subject: Expr
    span: Span


@node
class Call:
    func: str
    args: tuple[Expr, ...]
    span: Span


@node
class Neg:
    value: Expr
    span: Span


@node
class Arith:
    op: str
    left: Expr
    right: Expr
    span: Span


@node
class BoolOp:
    op: str  # and | or
    left: Expr
    right: Expr
    span: Span


@node
class Not:
    value: Expr
    span: Span


@node
class Test:
    """`[subject] is|in|has|borders|was ...`; subject None means the filtered element."""

    kind: str  # is | is_not | in | has | borders | was
    subject: Expr | None
    arg: Expr | None
    names: tuple[str, ...]
    span: Span

    @property
    def operand(self) -> Expr:
        """The expression tested against (`is X`, `borders X`), which those tests always have."""
        assert self.arg is not None, self.kind
        return self.arg


@node
class Compare:
    op: str
    left: Expr
    right: Expr
    span: Span


@node
class Filtered:
    base: Expr
    cond: Expr
    span: Span
    name: str | None = None  # `as NAME`: the element's name for nested `where`s


@node
class Form:
    """An expression of its own shape (`sum(…)`, `strength of M in R`): `kind`
    names its entry (engine/queries.py FORMS), `args` are in the entry's order
    (an expression, or a Name written in the rule)."""

    kind: str
    span: Span
    args: tuple[Expr | Name, ...] = ()


Expr = Int | Ref | RegionSet | Count | Attr | Call | Neg | Arith | BoolOp | Not | Test | Compare | Filtered | Form


# ---- effects -------------------------------------------------------------------


@node
class Effect:
    """One effect. `kind` names its entry in the engine's vocabulary
    (engine/effects.py); `args` are its arguments in the entry's order: an
    expression, a `Name` written in the rule (a marker, a variable, a pool…),
    a flag (bool), a block of effects (a tuple), or None for an optional one
    left out."""

    kind: str
    span: Span
    args: tuple[Expr | Name | Slot | bool | tuple[Effect, ...] | None, ...] = ()

    def blocks(self) -> list[tuple[Effect, ...]]:
        """The blocks of effects it runs (`if`, `as`)."""
        return [a for a in self.args if isinstance(a, tuple)]


@node
class Options:
    """`[tokens, coins]` in `choose bonus: [tokens, coins]`: a choice among words."""

    names: tuple[str, ...]
    span: Span


@node
class Choose:
    name: str
    selection: Expr | Options
    span: Span
    optional: bool = False  # `may choose`: the player may also pass (triggers only)


# ---- declaration items ---------------------------------------------------------


@node
class Name:
    text: str
    span: Span


@node
class Slot:
    """Where `set`, `increase`, `decrease` and `roll` write, other than a plain
    variable: `NAME of PLAYER` (kind "of": a player variable of that player) or
    `strength of MARKER in REGION` (kind "strength")."""

    kind: str
    name: Name
    subject: Expr
    span: Span


@node
class Scope:
    kind: str  # active | declined | always
    span: Span


@node
class Prop:
    name: str
    args: tuple[int | str, ...]
    span: Span


@node
class Doc:
    text: str
    span: Span


@node
class Modifier:
    stat: Name
    op: str  # by | set | times
    value: Expr
    when: Expr | None
    floor: Expr | None
    cap: Expr | None
    scope: Scope | None
    span: Span


@node
class Trigger:
    event: Name
    audience: Name | None  # `by ours`: the event may happen to any race of the player
    when: Expr | None
    scope: Scope | None
    steps: tuple[Choose | Effect, ...]  # chooses first, then effects
    span: Span


@node
class Limit:
    count: int | None  # None: `unlimited "why"`
    per: Name | None
    key: Name | None
    span: Span
    reason: str = ""  # why an unlimited ability cannot be used forever


@node
class Ability:
    name: str
    limit: Limit | None
    phases: tuple[Name, ...]  # `during conquest, redeploy`: offered in each (empty: none written)
    when: Expr | None
    scope: Scope | None
    steps: tuple[Choose | Effect, ...]
    span: Span


@node
class VarDecl:
    name: str
    init: int | str  # a number, or `none` for a variable holding a player
    reset: Name | None
    span: Span
    shared: str = ""  # `game var` | `player var`: a variable of the game or of each player, known to every rule


Item = Prop | Doc | Modifier | Trigger | Ability | VarDecl


@node
class Decl:
    kind: str  # race | power | relic | place | marker | rule
    name: str
    name_span: Span
    items: tuple[Item, ...]
    path: str
    span: Span


# ---- walking a tree --------------------------------------------------------------


def conjuncts(e) -> list:
    """The parts of `a and b and …` (e itself if it is no `and`)."""
    if isinstance(e, BoolOp) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def nodes(tree) -> Iterator:
    """Every node of `tree` (a node or a tuple of them), itself included, through nested tuples."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(n)
        elif attrs.has(type(n)):
            yield n
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)))


def children(n) -> list:
    """The nodes directly inside node `n` (through its tuples of nodes)."""
    return [x for f in attrs.fields(type(n)) for v in [getattr(n, f.name)]
            for x in (v if isinstance(v, tuple) else (v,)) if attrs.has(type(x))]


def reads_adjacency(e) -> bool:
    """Whether `e` asks about adjacency (`borders`, `neighbours of`): its value is then map-only
    only for races that declare no adjacency of their own (region.adjacent)."""
    return any(isinstance(n, Test) and n.kind == "borders" or isinstance(n, Attr) and n.name == "neighbours"
               for n in nodes(e))
