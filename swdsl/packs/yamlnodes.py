"""YAML read as positioned nodes, through the safe loader, with its traps caught.

Values are read from yaml's composed node tree, so every error points at the
line and column of the node; duplicate keys and YAML 1.1 surprises (`on:` read
as true, `1.10` read as 1.1) become diagnostics instead of silent changes.
"""

from __future__ import annotations

import yaml

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.packs.yamlwords import explain

BOOL_WORDS = {"yes", "no", "on", "off", "y", "n", "true", "false"}
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where installed: same nodes and marks, faster
MAX_NODES = 200_000  # values in a file once its aliases are expanded


def _expansion_problem(root) -> tuple[object, str, str] | None:
    """A document whose aliases refer to themselves, or expand to more than
    MAX_NODES values (an alias bomb), would make every reader loop or hang;
    return (node, message, hint) for the first such problem."""
    count = 0
    stack: list[tuple[object, frozenset[int]]] = [(root, frozenset())]
    while stack:
        node, above = stack.pop()
        count += 1
        if count > MAX_NODES:
            return root, f"the file expands to more than {MAX_NODES} values", \
                "aliases (`*name`) repeat what an anchor (`&name`) names: use fewer, or write values out"
        children = []
        if isinstance(node, yaml.MappingNode):
            children = [x for pair in node.value for x in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        if children:
            inner = above | {id(node)}
            for child in children:
                if id(child) in inner:
                    return child, "an alias refers to a value that contains it", \
                        "an anchor (`&name`) cannot be used (`*name`) inside its own value"
                stack.append((child, inner))
    return None


def span_of(node) -> Span:
    m, e = node.start_mark, node.end_mark
    end_col = e.column + 1 if e.line == m.line else m.column + 2
    return Span(m.line + 1, m.column + 1, m.line + 1, end_col)


class Reader:
    """Typed access to a node tree; every problem is appended to `diags`."""

    def __init__(self, path: str, diags: list[Diagnostic]):
        self.path = path
        self.diags = diags

    def error(self, node, code: str, message: str, hint: str = "", severity: str = "error") -> None:
        span = span_of(node) if node is not None else Span()
        self.diags.append(Diagnostic(self.path, span, code, message, hint, severity))

    def warning(self, node, code: str, message: str, hint: str = "") -> None:
        self.error(node, code, message, hint, "warning")

    def load(self, text: str):
        try:
            node = yaml.compose(text, Loader=_LOADER)
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
            problem = getattr(err, "problem", None) or str(err).splitlines()[0]
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            span, message, hint = explain(text, line, col, problem)
            self.diags.append(Diagnostic(self.path, span, "SW200", message, hint))
            return None
        except (ValueError, RecursionError) as err:
            self.diags.append(Diagnostic(self.path, Span(), "SW200", f"invalid YAML: {err}", ""))
            return None
        if node is None:
            self.diags.append(Diagnostic(self.path, Span(1, 1, 1, 2), "SW201", "the file is empty",
                                         "write the content as `key: value` lines"))
            return None
        problem = _expansion_problem(node) if "&" in text else None  # no anchor, no alias: nothing to expand
        if problem is not None:
            at, message, hint = problem
            self.diags.append(Diagnostic(self.path, span_of(at), "SW208", message, hint))
            return None
        return node

    def mapping(self, node, what: str) -> dict[str, tuple]:
        """{key: (key_node, value_node)}, reporting duplicate and non-text keys."""
        if not isinstance(node, yaml.MappingNode):
            self.error(node, "SW201", f"{what} must be a mapping (key: value lines)")
            return {}
        out: dict[str, tuple] = {}
        for k, v in node.value:
            if not isinstance(k, yaml.ScalarNode):
                self.error(k, "SW201", f"a key in {what} must be a plain name")
                continue
            key = k.value
            if k.tag.endswith(":bool") and key.lower() in BOOL_WORDS:
                self.error(k, "SW203", f"key '{key}' is read by YAML as a yes/no value",
                           f"quote it: \"{key}\": …")
            if key in out:
                self.error(k, "SW202", f"duplicate key '{key}' in {what}",
                           f"the first one is on line {out[key][0].start_mark.line + 1}; keep one")
                continue
            out[key] = (k, v)
        return out

    def sequence(self, node, what: str) -> list:
        if not isinstance(node, yaml.SequenceNode):
            self.error(node, "SW201", f"{what} must be a list")
            return []
        return list(node.value)

    def scalar(self, node, what: str):
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "SW201", f"{what} must be a single value")
            return None
        return node

    def text(self, node, what: str) -> str | None:
        n = self.scalar(node, what)
        if n is None:
            return None
        if n.tag.endswith(":bool") and n.value.lower() in BOOL_WORDS and not n.style:
            self.error(n, "SW203", f"{what} '{n.value}' is read by YAML as a yes/no value",
                       f"quote it: \"{n.value}\"")
            return None
        if n.tag.endswith(":float") and not n.style:
            self.error(n, "SW204", f"{what} '{n.value}' is read by YAML as the number {_float(n.value)}",
                       f"quote it: \"{n.value}\"")
            return None
        if n.tag.endswith(":null"):
            self.error(n, "SW201", f"{what} is empty")
            return None
        return n.value

    def integer(self, node, what: str, minimum: int = 0, maximum: int = 10**9) -> int | None:
        n = self.scalar(node, what)
        if n is None:
            return None
        if not n.tag.endswith(":int"):
            self.error(n, "SW205", f"{what} must be a whole number, not '{n.value}'")
            return None
        digits = n.value.replace("_", "")
        if len(digits) > 30:
            self.error(n, "SW205", f"{what} is a number of {len(digits)} digits", "no count in a pack is that large")
            return None
        try:
            value = int(digits, 0)
        except ValueError:
            self.error(n, "SW205", f"{what} must be a whole number, not '{n.value}'")
            return None
        if value < minimum:
            self.error(n, "SW205", f"{what} must be at least {minimum}")
            return None
        if value > maximum:
            self.error(n, "SW205", f"{what} must be at most {maximum}")
            return None
        return value

    def boolean(self, node, what: str) -> bool | None:
        n = self.scalar(node, what)
        if n is None:
            return None
        if not n.tag.endswith(":bool"):
            self.error(n, "SW206", f"{what} must be true or false, not '{n.value}'")
            return None
        return n.value.lower() in ("true", "yes", "on", "y")

    def unknown_keys(self, fields: dict[str, tuple], known: dict[str, str], what: str) -> None:
        for key, (knode, _) in fields.items():
            if key not in known:
                self.error(knode, "SW207", f"unknown key '{key}' in {what}",
                           did_you_mean(key, known) or "known keys: " + ", ".join(sorted(known)))


def _float(text: str) -> str:
    try:
        return repr(float(text))
    except ValueError:
        return text
