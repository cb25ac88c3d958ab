"""The declaration kind `figure`: a piece with rules that belongs to nobody, like a place, and is no
Place — the Underground Balrog ("The Balrog's region is Immune", underground.md §6.9; rulings.md R57
"Its region is immune to everyone"), any designer's monster or statue."""

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.engine.legal import apply, legal_actions
from swdsl.engine.position import Position
from swdsl.engine.stats import value
from swdsl.packs.loader import load_ruleset

PACK = """\
race Sculptors {
  banner 5
  supply 10
  ability carve once per turn during conquest {
    choose r: my regions
    place statue in r
  }
  modify score.region by 1 when target has place
}
place fountain {
  "A fountain, a Place: the Sculptors score 1 more where one is."
}
figure statue {
  "A statue: the region it stands in is closed to everyone and scores 3 more for its holder."
  immune
  modify score.region by 3 when target has statue
}
"""


def _game(tmp_path):
    (tmp_path / "pack.yaml").write_text("name: sculptors\nlanguage: 1\nrequires: [classic]\n")
    (tmp_path / "sculptors.sw").write_text(PACK)
    pos = Position(load_ruleset([str(tmp_path)]), 2)
    pos.race("Sculptors", 0, "Alchemist", regions={0: 2}, hand=5)
    pos.race("Ratmen", 1, "Hill", regions={1: 1})
    return pos.start(0)


def test_a_figure_placed_by_a_race_is_nobodys_its_rules_work_for_the_holder_and_it_is_no_place(tmp_path):
    game = _game(tmp_path)
    sculptors, ratmen = game.acting, game.players[1].active
    assert not value(game, "region.immune", sculptors, target=0, attacker=ratmen)
    apply(game, next(a for a in legal_actions(game) if a.kind == "ability" and a.b == (0,)))
    assert game.markers[0] == [("statue", None, 0)]  # nobody's, though the Sculptors placed it
    assert value(game, "score.region", sculptors, target=0) == 1 + 3  # the statue's +3, no Place's +1
    assert value(game, "region.immune", sculptors, target=0, attacker=ratmen)


def test_a_marker_with_rules_is_refused_and_told_of_figures(tmp_path):
    (tmp_path / "pack.yaml").write_text("name: plain\nlanguage: 1\nrequires: [classic]\n")
    (tmp_path / "plain.sw").write_text("marker stone {\n  modify score.region by 1 when target has stone\n}\n")
    r = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert r.exit_code == 1
    assert "SW107 marker 'stone' has rules" in r.output and "`figure`" in r.output
