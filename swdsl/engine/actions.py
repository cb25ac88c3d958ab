"""An action is a small tuple: (kind, a, b) — what players and bots play, what saved games record.
legal.py decides which are legal now and plays them."""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class Action(NamedTuple):
    kind: str
    a: int | str | None = None  # a region, a market position, an ability's key
    b: tuple | None = None  # an ability's or a trigger's choices


_NEW: Final[Any] = tuple.__new__
_MADE: Final[dict[tuple, Action]] = {}  # the actions without choices made so far, by (kind, a, None)
_KEPT: Final = 1 << 16  # at most (a game's are a few hundred: its kinds by its regions and market rows)


def new_action(kind: str, a: int | str | None = None, b: tuple | None = None) -> Action:
    """`Action(kind, a, b)`, made without the named tuple's own `__new__`, which is Python even in the
    compiled engine (a fifth of a microsecond each; legality makes a few per decision, replay one per
    action); one without choices is made once and looked up after (a fifth of the cost). Only an int, a
    name or None is looked up: True would find the action of 1, equal to it as a key."""
    if b is not None or not (a is None or type(a) is int or type(a) is str):
        return _NEW(Action, (kind, a, b))
    key = (kind, a, None)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= _KEPT:
            _MADE.clear()
        found = _MADE[key] = _NEW(Action, key)
    return found


class IllegalAction(Exception):
    """apply() refused an action; the game is unchanged."""


END = Action("end")
DECLINE = Action("decline")
PASS = Action("pass")
