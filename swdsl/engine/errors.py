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
