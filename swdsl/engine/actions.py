"""An action is a small tuple: (kind, a, b) — what players and bots play, what saved games record.
legal.py decides which are legal now and plays them."""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class Action(NamedTuple):
    kind: str
    a: int | str | None = None  # a region, a market position, an ability's key
    b: tuple | None = None  # an ability's or a trigger's choices


_NEW: Final[Any] = tuple.__new__


def new_action(kind: str, a: int | str | None = None, b: tuple | None = None) -> Action:
    """`Action(kind, a, b)`, made without the named tuple's own `__new__`, which is Python even in the
    compiled engine (a fifth of a microsecond each; legality makes a few per decision, replay one per
    action)."""
    return _NEW(Action, (kind, a, b))


class IllegalAction(Exception):
    """apply() refused an action; the game is unchanged."""


END = Action("end")
DECLINE = Action("decline")
PASS = Action("pass")
