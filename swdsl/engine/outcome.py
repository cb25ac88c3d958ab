"""The outcome of a game: who won, and by which tie-break; with teams, which team won."""

from __future__ import annotations

from collections.abc import Callable, Iterable

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


# ---- teams: players who form sides (pack.yaml `teams`, `team_score`) --------------------------

# a team's score from its players' coins
TEAM_SCORES: dict[str, Callable[[Iterable[int]], int]] = {"lowest": min, "sum": sum, "highest": max}


def teams(game: Game) -> dict[str, tuple[int, ...]]:
    """Each team and its seats in turn order, teams in the order of their first seat;
    empty when the setup gives no teams."""
    out: dict[str, list[int]] = {}
    for seat, team in enumerate(game.setup.teams[: len(game.players)]):
        out.setdefault(team, []).append(seat)
    return {team: tuple(seats) for team, seats in out.items()}


def team_score(game: Game, team: str) -> int:
    """The team's score: the lowest, the sum or the highest of its players' coins (`team_score`)."""
    return TEAM_SCORES[game.ruleset.team_score](game.players[s].coins for s in teams(game)[team])


def team_scores(game: Game) -> dict[str, int]:
    """Every team's score, teams in the order of their first seat (what a report shows per game)."""
    return {team: team_score(game, team) for team in teams(game)}


def team_standing(game: Game, team: str) -> tuple[int, int, int]:
    """What decides between teams: the team's score, then the best individual score among
    its players, then its players' race tokens on the map in total (the base tie-break,
    core-rules §12, carried over to teams: rulings.md R63)."""
    seats = teams(game)[team]
    return (team_score(game, team), max(game.players[s].coins for s in seats),
            sum(game.tokens_on_map(s) for s in seats))


def team_ranking(game: Game) -> list[str]:
    """Teams from first to last: the team of the player a rule gave the game to (`win the
    game`), then by standing; teams tied on all three share the place, in seat order."""
    order = list(teams(game))
    won = game.setup.teams[game.won_by] if order and game.won_by is not None else None
    return sorted(order, key=lambda t: (t != won, tuple(-x for x in team_standing(game, t)), order.index(t)))


def team_winners(game: Game) -> list[str]:
    """Every team sharing the victory (one unless the tie-breaks leave a tie); empty without
    teams. What a simulation counts per game as wins per team."""
    ranked = team_ranking(game)
    if not ranked or game.won_by is not None:
        return ranked[:1]
    best = team_standing(game, ranked[0])
    return [t for t in ranked if team_standing(game, t) == best]
