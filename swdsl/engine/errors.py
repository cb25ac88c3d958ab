"""When content drives a game where it cannot go on.

A pack's rules can exceed a budget (too many trigger runs in one action, a
variable beyond the size numbers may reach) or otherwise leave the engine
unable to continue. The engine then stops the game with a ContentError naming
the item and the rule that did it (file:line:col); the tools report it as a
diagnostic and the game as failed, never as a traceback.
"""

from __future__ import annotations


class ContentError(Exception):
    """A game stopped by its content: `where` is the rule's file:line:col, `code` a stable SW code."""

    def __init__(self, where: str, code: str, message: str, hint: str = ""):
        super().__init__(f"{where}: {code} {message}")
        self.where, self.code, self.message, self.hint = where, code, message, hint


def engine_bug(err: Exception, during: str) -> str:
    """The message for an exception the engine should never raise: it is a bug, and says what to report."""
    return (f"SW599 internal error during {during}: {type(err).__name__}: {err} — this is a bug in swdsl, not in "
            "the pack; please report it with the pack and this scenario or saved game")
