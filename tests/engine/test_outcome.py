"""The outcome of a game with teams (pack.yaml `teams`, `team_score`; outcome.py): team scores,
the tie-breaks between teams (best individual score, then race tokens on the map, then shared:
rulings.md R63), and games without teams unchanged."""

import attrs
import pytest

from swdsl.engine.outcome import ranking, team_ranking, team_scores, team_winners, teams, winner, winners
from swdsl.engine.position import Position


def _game(ruleset, coins, tokens=(), team_seats=(), how="sum"):
    """A classic game with these coins, `tokens[i]` Ratmen-like tokens of player i on the map, and
    the seats in teams."""
    rs = attrs.evolve(ruleset, team_score=how)
    pos = Position(rs, len(coins))
    for seat, n in enumerate(coins):
        pos.coins(seat, n)
    races = iter(["Ratmen", "Amazons", "Dwarves", "Elves", "Giants"])
    region = iter(range(len(pos.game.board)))
    for seat, n in enumerate(tokens):
        if n:
            pos.race(next(races), seat, regions={next(region): n})
    game = pos.start()
    game.setup = attrs.evolve(game.setup, teams=tuple(team_seats))
    return game


def test_without_teams_nothing_changes(classic):
    game = _game(classic, [7, 9, 9], tokens=[1, 2, 3])
    assert teams(game) == {} and team_scores(game) == {}
    assert team_ranking(game) == [] and team_winners(game) == []
    assert ranking(game) == [2, 1, 0] and winner(game) == 2 and winners(game) == [2]
    game.won_by = 0
    assert team_winners(game) == [] and winner(game) == 0


def test_teams_in_seat_order(classic):
    game = _game(classic, [1, 2, 3, 4, 5], team_seats=["a", "b", "n", "a", "b"])
    assert teams(game) == {"a": (0, 3), "b": (1, 4), "n": (2,)}


@pytest.mark.parametrize("how, scores, won", [("lowest", {"a": 51, "b": 72, "n": 67}, ["b"]),
                                               ("sum", {"a": 139, "b": 151, "n": 67}, ["b"]),
                                               ("highest", {"a": 88, "b": 79, "n": 67}, ["a"])])
def test_a_team_scores_the_lowest_the_sum_or_the_highest_of_its_players(classic, how, scores, won):
    # team-variant.md §6's worked example: A1 51, H1 79, N 67, A2 88, H2 72
    game = _game(classic, [51, 79, 67, 88, 72], team_seats=["a", "b", "n", "a", "b"], how=how)
    assert team_scores(game) == scores
    assert team_winners(game) == won


def test_a_tie_goes_to_the_tied_team_with_the_best_player_not_to_a_beaten_one(classic):
    game = _game(classic, [51, 79, 72, 88, 72], tokens=[0, 0, 5, 0, 0],
                 team_seats=["a", "b", "n", "a", "b"], how="lowest")
    assert team_scores(game) == {"a": 51, "b": 72, "n": 72}
    assert team_ranking(game) == ["b", "n", "a"]  # 79 beats 72 before tokens count; 88 is not tied
    assert team_winners(game) == ["b"]


def test_then_the_most_tokens_on_the_map_then_shared(classic):
    game = _game(classic, [60, 70, 70, 60], tokens=[2, 1, 2, 2], team_seats=["a", "b", "a", "b"], how="lowest")
    assert team_winners(game) == ["a"]  # 60 and 70 each; 4 tokens against 3
    game = _game(classic, [60, 70, 70, 60], tokens=[2, 2, 1, 1], team_seats=["a", "b", "a", "b"], how="lowest")
    assert team_ranking(game) == ["a", "b"] and team_winners(game) == ["a", "b"]


def test_a_player_given_the_game_gives_it_to_their_team(classic):
    game = _game(classic, [10, 1, 10, 1], team_seats=["a", "b", "a", "b"])
    game.won_by = 3
    assert team_ranking(game)[0] == "b" and team_winners(game) == ["b"]
