"""The outcome of a game: who won, and by which tie-break."""

from __future__ import annotations

from swdsl.engine.state import Game


def standing(game: Game, seat: int) -> tuple[int, int]:
    """What decides the winner: coins, then race tokens on the map (core-rules §12)."""
    return game.players[seat].coins, game.tokens_on_map(seat)


def ranking(game: Game) -> list[int]:
    """Seats from first to last: the player a rule gave the game to (`win the game`), then by
    standing; players tied on coins and tokens share the place and are listed in turn order
    (docs/rulings.md D3)."""
    return sorted(range(len(game.players)), key=lambda s: (s != game.won_by, tuple(-x for x in standing(game, s)), s))


def winners(game: Game) -> list[int]:
    """Every seat sharing the victory."""
    if game.won_by is not None:
        return [game.won_by]
    best = standing(game, ranking(game)[0])
    return [s for s in range(len(game.players)) if standing(game, s) == best]


def winner(game: Game) -> int:
    """The winner, or the first in turn order of those who share the victory (D3)."""
    return ranking(game)[0]
