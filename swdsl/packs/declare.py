"""Declarations of a mix: each once per pack, each under its key (swdsl/lang/names.py).

A declaration keeps its name as its key while no other pack of the mix declares
that name in its family; when two packs do, each is known as `pack:Name`, and
the check says so at both (SW181). Two declarations of one name in one pack are
an error (SW124).
"""

from __future__ import annotations

import os

import attrs

from swdsl.diagnostics import Diagnostic
from swdsl.engine.vocabulary import EFFECTS
from swdsl.lang import ast
from swdsl.lang.names import family_of
from swdsl.lang.typer import PackNames
from swdsl.packs.yamlnodes import Reader


def declare(decls: list[ast.Decl], manifests: list, names: PackNames,
             diags: list[Diagnostic]) -> list[ast.Decl]:
    """Each declaration once per pack (SW124), under its key: its name, or `pack:Name` when another pack
    of the mix declares the name too (said by SW181 at each of them)."""
    own: dict[tuple[str, str, str], ast.Decl] = {}
    for d in decls:
        family, pack = family_of(d.kind), names.pack_of.get(d.path, "")
        if ":" in d.name:
            diags.append(Diagnostic(d.path, d.name_span, "SW186", f"{d.kind} name '{d.name}' holds a colon",
                                    "a colon separates a pack's name from a declaration's (`pack:Name`): "
                                    "declare the name alone"))
            continue
        first = own.get((family, pack, d.name))
        if first is not None:
            where = f"line {first.name_span.line}" if first.path == d.path else \
                f"{shown(first.path)}:{first.name_span.line}"
            diags.append(Diagnostic(d.path, d.name_span, "SW124", f"{d.kind} '{d.name}' is declared twice",
                                    f"the first is at {where}; rename one"))
            continue
        own[(family, pack, d.name)] = d
        names.names.declare(family, pack, d.name)
    table = names.names
    for (family, pack, short), d in own.items():
        others = [p for p in table.declared[family][short] if p != pack]
        if others:
            keys = [table.key(family, p, short) for p in table.declared[family][short]]
            diags.append(Diagnostic(d.path, d.name_span, "SW181", f"{d.kind} '{short}' is also declared by "
                                    f"{', '.join(others)}: both are kept, this one as {table.key(family, pack, short)}",
                                    f"a short name means its own pack's (or a required pack's) declaration; "
                                    f"elsewhere write {' or '.join(keys)}", "warning"))
    for m in manifests:
        rd = Reader(str(m.path / "pack.yaml"), diags)
        for pool in m.pools:
            others = [p for p in table.declared.get("pool", {}).get(pool, []) if p != m.name]
            if others:
                rd.warning(m.nodes.get(pool), "SW181", f"pool '{pool}' is also declared by {', '.join(others)}: both "
                           f"are kept, this one as {table.key('pool', m.name, pool)}",
                           "a pool's short name means its own pack's (or a required pack's) pool")
    unique = [attrs.evolve(d, name=table.key(family, pack, short)) for (family, pack, short), d in own.items()]
    names.races, names.powers, names.markers = (table.spellings(f) for f in ("race", "power", "piece"))
    for d in unique:
        tags = {a for i in d.items if isinstance(i, ast.Prop) and i.name == "tags" for a in i.args}
        if d.kind in ("race", "power"):
            names.tags |= tags
        elif d.kind != "rule":
            names.marker_tags |= {d.kind} | tags
        names.tags |= _tag_words(d)
    return unique


def _tag_words(d: ast.Decl) -> set[str]:
    """Tags a declaration gives races for a turn (`tag RACE with NAME`)."""
    out: set[str] = set()
    stack = [s for i in d.items if isinstance(i, (ast.Trigger, ast.Ability))
             for s in i.steps]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.Effect):
            out.update(arg.text for p, arg in zip(EFFECTS[e.kind].params, e.args)
                       if p.kind == "tag" and isinstance(arg, ast.Name))
            stack.extend(x for block in e.blocks() for x in block)
    return out


def shown(path: str) -> str:
    """A path as a message shows it: relative to the working folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if len(rel) < len(path) else path
