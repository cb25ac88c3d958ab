"""Games that do not end normally are reported, never counted (issue: content cannot break a
game, "A game that hits the action cap is reported as unfinished … never counted as a normal
game")."""

import json
import shutil

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import resolve_pack


def test_games_cut_by_the_action_budget_are_unfinished_not_won(tmp_path):
    pack = tmp_path / "short"
    shutil.copytree(resolve_pack("classic"), pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("name: classic", "name: short\nbudgets: {actions: 40}"))
    r = CliRunner().invoke(main, ["simulate", "--pack", str(pack), "--games", "4", "--format", "json"])
    out = json.loads(r.output)
    assert len(out["unfinished"]) == 4 and out["finished"] == 0
    assert out["wins"] == [0, 0] and out["mean_score"] == [0, 0]
    text = CliRunner().invoke(main, ["simulate", "--pack", str(pack), "--games", "4"]).output
    assert "unfinished: 4 game(s) hit the pack's action budget" in text
