"""An action is a small tuple: (kind, a, b) — what players and bots play, what saved games record.
legal.py decides which are legal now and plays them."""

from __future__ import annotations

from typing import NamedTuple


class Action(NamedTuple):
    kind: str
    a: object = None
    b: object = None


class IllegalAction(Exception):
    """apply() refused an action; the game is unchanged."""


END = Action("end")
DECLINE = Action("decline")
PASS = Action("pass")
