"""What compiled rules see when they run (its own module so that it is compiled with the
engine: closures read its fields at every call)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from swdsl.engine.state import Game, RaceInst


class Ctx:
    """What compiled rules see: the game, the race the rule belongs to (`me`),
    the bindings of the event, stat or ability, and the element being tested
    inside `where` (`it`)."""

    __slots__ = ("game", "me", "b", "it")

    def __init__(self, game: Game, me: RaceInst | None, b: dict[str, Any] | None = None):
        self.game = game
        self.me = me
        self.b = b if b is not None else {}
        self.it: Any = None
