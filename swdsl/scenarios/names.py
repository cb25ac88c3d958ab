"""Names in scenarios: a race, power, marker or pool is written by its key, its short
name while one declaration of the mix has it, or `pack:Name` (docs/mixing.md).

`keyed` reads every name a scenario writes as its key, in place (spans kept),
before the scenario is checked and run; a name that means several declarations
is left as written, and the checks say which (`ambiguous`).
"""

from __future__ import annotations

from typing import Any

from swdsl.engine.ruleset import Ruleset
from swdsl.scenarios.document import Mapping


def key_of(rs: Ruleset, family: str, name: Any) -> Any:
    """The key a written name means, or the name as written when it means none or several."""
    found = rs.spellings.get(family, {}).get(name) if isinstance(name, str) else None
    return found[0] if found is not None and len(found) == 1 else name


def ambiguous(rs: Ruleset, family: str, name: Any) -> tuple[str, ...]:
    """The keys a written name may mean, when more than one."""
    found = rs.spellings.get(family, {}).get(name, ()) if isinstance(name, str) else ()
    return found if len(found) > 1 else ()


def keyed(sc: Mapping, rs: Ruleset) -> None:
    """Read the names of a scenario (its `given`, checkpoints and `expect`) as keys."""
    given = sc.get("given")
    if isinstance(given, Mapping):
        _pairs(given.get("market"), rs)
        _each_value(given.get("columns"), rs, "race")
        _items(given, "pile", rs, "power")
        for spec in _listed(given.get("races")):
            if isinstance(spec, Mapping):
                _value(spec, "race", rs, "race")
                _value(spec, "power", rs, "power")
        for key in ("markers", "face_down"):
            _each_value(given.get(key), rs, "piece")
        draws = given.get("draws")
        if isinstance(draws, Mapping):
            _keys(draws, rs, "pool")
            _each_value(draws, rs, "piece")
    for step in _listed(sc.get("do")):
        if isinstance(step, Mapping) and isinstance(step.get("expect"), Mapping):
            _expect(step["expect"], rs)
    if isinstance(sc.get("expect"), Mapping):
        _expect(sc["expect"], rs)


def _expect(exp: Mapping, rs: Ruleset) -> None:
    regions = exp.get("regions")
    for want in regions.values() if isinstance(regions, Mapping) else ():
        if isinstance(want, Mapping):
            _value(want, "race", rs, "race")
            for key in ("markers", "face_down"):
                _items(want, key, rs, "piece")
    for key, family in (("races", "race"), ("tray", "race"), ("pools", "piece"), ("hidden", "pool")):
        if isinstance(exp.get(key), Mapping):
            _keys(exp[key], rs, family)
    for want in exp["races"].values() if isinstance(exp.get("races"), Mapping) else ():
        if isinstance(want, Mapping):
            _value(want, "power", rs, "power")
    _pairs(exp.get("market"), rs)
    _each_value(exp.get("columns"), rs, "race")
    _items(exp, "powers", rs, "power")
    _items(exp, "stack_bottom", rs, "race")
    if isinstance(exp.get("discarded"), list):
        exp["discarded"][:] = [key_of(rs, "race" if n in rs.spellings.get("race", {}) else "power", n)
                               for n in exp["discarded"]]
    seats = exp.get("players")
    for want in seats.values() if isinstance(seats, Mapping) else ():
        if isinstance(want, Mapping):
            _items(want, "markers", rs, "piece")


def _value(m: Mapping, key: str, rs: Ruleset, family: str) -> None:
    if key in m:
        m[key] = key_of(rs, family, m[key])


def _items(m: Mapping, key: str, rs: Ruleset, family: str) -> None:
    """A list of names (or one name) under `key`."""
    value = m.get(key)
    if isinstance(value, list):
        value[:] = [key_of(rs, family, v) for v in value]
    elif key in m:
        _value(m, key, rs, family)


def _each_value(m: Any, rs: Ruleset, family: str) -> None:
    """Every value of a mapping: a name or a list of names."""
    for key in list(m) if isinstance(m, Mapping) else ():
        _items(m, key, rs, family)


def _pairs(combos: Any, rs: Ruleset) -> None:
    """[[Race, Power], …]"""
    for combo in _listed(combos):
        if isinstance(combo, list) and len(combo) == 2:
            combo[:] = [key_of(rs, "race", combo[0]), key_of(rs, "power", combo[1])]


def _listed(value: Any) -> list:
    return value if isinstance(value, list) else []


def _keys(m: Mapping, rs: Ruleset, family: str) -> None:
    """A mapping whose keys are names: each key read as its key, its spans kept."""
    for name in list(m):
        new = key_of(rs, family, name)
        if new != name and new not in m:
            value = m.pop(name)
            m[new] = value
            m.key_spans[new], m.spans[new] = m.key_spans.pop(name), m.spans.pop(name)
