"""Events a scenario cannot reach because a scenario starts in the middle of a turn: the
`round.start` of round 1 (fired by `new_game`) and the `game.end` of a whole game, each
heard once per race on the table (active or not: the rule says `always`)."""

from swdsl.bots import RandomBot, play
from swdsl.engine.events import table_races
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_ruleset

RULES = """
rule Tally {
  "Counts the races that heard each event."
  var starts = 0
  var ends = 0
  on round.start always: increase starts by 1
  on game.end always: increase ends by 1
}
"""


def _ruleset(tmp_path):
    (tmp_path / "pack.yaml").write_text("name: tally\nrequires: [classic]\n")
    (tmp_path / "rules.sw").write_text(RULES)
    return load_ruleset([str(tmp_path)])


def test_round_one_starts_for_the_races_set_up_on_the_table(tmp_path):
    game = new_game(_ruleset(tmp_path), 2, 0)
    lost_tribes = [inst for inst in table_races(game) if inst.player is None]
    assert lost_tribes and game.vars["starts"] == len(lost_tribes)  # nobody has picked a race yet


def test_the_game_ends_once_for_every_race_still_on_the_table(tmp_path):
    game = new_game(_ruleset(tmp_path), 3, 4)
    play(game, [RandomBot(4 + s) for s in range(3)])
    assert game.over and game.vars["ends"] == len(table_races(game)) > 0
    assert game.vars["starts"] >= game.setup.rounds  # at least one race on the table each round
