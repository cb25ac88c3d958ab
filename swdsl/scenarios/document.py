"""Scenario files as values that remember where they were written.

A scenario file is YAML read through the same careful path as every pack file;
its mappings and lists keep the span of each key and item, so every check and
every failure can point at the line and column the designer wrote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from swdsl.diagnostics import Diagnostic, Span
from swdsl.files import read_text
from swdsl.packs.yamlnodes import Reader, span_of


class _Spans(dict):
    """Each key's YAML node, read as its span: most spans are never read, and a
    scenario file has tens of thousands of nodes. `pop` gives the node, to move it."""

    def __getitem__(self, key: Any) -> Span:
        return span_of(super().__getitem__(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return span_of(super().__getitem__(key)) if key in self else default


class _SpanList(list):
    """Each item's YAML node, read as its span (as _Spans)."""

    def __getitem__(self, i: Any) -> Any:
        return span_of(super().__getitem__(i))


class Mapping(dict):
    """A mapping that remembers the span of each key and of each value."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.key_spans = _Spans()
        self.spans = _Spans()

    def span(self, key: str, default: Span) -> Span:
        return self.spans.get(key, default)

    def line(self, key: str, default: int) -> int:
        return self.key_spans[key].line if key in self.key_spans else default


class Sequence(list):
    """A list that remembers the span of each item."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.spans = _SpanList()


def values(node, rd: Reader) -> Any:
    """YAML node → Python values whose mappings and lists remember spans."""
    if isinstance(node, yaml.MappingNode):
        out = Mapping()
        for key, (knode, vnode) in rd.mapping(node, "a mapping").items():
            out[key] = values(vnode, rd)
            out.key_spans[key], out.spans[key] = knode, vnode
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = Sequence(values(n, rd) for n in node.value)
        seq.spans = _SpanList(node.value)
        return seq
    if node.tag.endswith(":int"):
        return rd.integer(node, "a number", minimum=-(10**9))
    if node.tag.endswith(":bool"):
        return node.value.lower() in ("true", "yes", "on", "y")
    if node.tag.endswith(":null"):
        return None
    return node.value


def span_in(container: Any, key: Any, default: Span) -> Span:
    """Where `container[key]` was written (a mapping's key or a list's index)."""
    if isinstance(container, Mapping):
        return container.spans.get(key, default)
    if isinstance(container, Sequence) and isinstance(key, int) and 0 <= key < len(container.spans):
        return container.spans[key]
    return default


def read_file(path: Path) -> tuple[list[tuple[Span, Mapping]], list[Diagnostic]]:
    """The scenarios of a file, each with its span, and the problems of the file itself."""
    diags: list[Diagnostic] = []
    rd = Reader(str(path), diags)
    text = read_text(path, diags)
    if text is None:
        return [], diags
    root = rd.load(text)
    if root is None:
        return [], diags
    doc = values(root, rd)
    if diags:
        return [], diags
    if not isinstance(doc, Mapping) or not isinstance(doc.get("scenarios"), Sequence):
        return [], [Diagnostic(str(path), Span(), "SW401", "a scenario file has a `scenarios:` list",
                               "see docs/scenarios.md")]
    found = []
    scenarios = doc["scenarios"]
    for i, sc in enumerate(scenarios):
        span = scenarios.spans[i]
        if not isinstance(sc, Mapping) or "name" not in sc:
            diags.append(Diagnostic(str(path), span, "SW402", "a scenario needs a `name:`",
                                    "each scenario is a mapping with name, rule, given, do, expect"))
            continue
        found.append((span, sc))
    return found, diags


def scenario_files(pack_dir: Path) -> list[Path]:
    folder = pack_dir / "tests"
    try:
        return sorted(p for p in folder.glob("**/*.yaml")) if folder.is_dir() else []
    except OSError:
        return []
