"""Chance: every random outcome of a game comes from here, drawn with the game's
seeded generator, so a game is a pure function of (ruleset, players, seed,
actions).

A scenario or a test fixes outcomes in advance with `game.script`: `die` lists
die rolls, and a hidden pool's name lists the markers its next draws give.
Scripted outcomes are used first, in order; then chance takes over again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from swdsl.engine.state import Game

T = TypeVar("T")


def pick(game: Game, what: str, options: Sequence[T]) -> T:
    """One of `options`, at random, unless the script fixes the next `what`."""
    fixed = game.script.get(what)
    if fixed:
        return fixed.pop(0)
    return options[game.rng.randrange(len(options))] if len(options) > 1 else options[0]


def shuffle(game: Game, items: list) -> None:
    """`random.shuffle(items)` with the game's generator, step for step (the same order from the same
    state): written out so that a compiled loop draws with `getrandbits` itself, where the library's is
    Python code calling Python code per item (a new game's largest cost after seeding)."""
    draw = game.rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1  # random._randbelow(n): k random bits, drawn again until below n
        k = n.bit_length()
        j = draw(k)
        while j >= n:
            j = draw(k)
        items[i], items[j] = items[j], items[i]


def roll(game: Game) -> int:
    """A roll of the reinforcement die (pack.yaml `die`); it is also the turn's `die`."""
    game.turn.die = pick(game, "die", game.ruleset.die)
    return game.turn.die


def draw(game: Game, pool: str, wanted: Callable[[str], bool] | None = None) -> str | None:
    """The top marker of a hidden pool, or the one the script names next (taken out of the pool).
    With `wanted`, the topmost marker it accepts (the first accepted of the script, which
    keeps the others in order), or None if the pool holds none."""
    left = game.hidden.get(pool)
    if not left:
        return None
    fixed = game.script.get(pool)
    if fixed:
        i = next((i for i, n in enumerate(fixed) if n in left and (wanted is None or wanted(n))), None)
        if i is not None and (wanted is not None or i == 0):
            name = fixed.pop(i)
            left.remove(name)
            return name
    if wanted is None:
        return left.pop()
    for i in range(len(left) - 1, -1, -1):
        if wanted(left[i]):
            return left.pop(i)
    return None
