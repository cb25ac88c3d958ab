"""Markers laid face down from a hidden pool during play, shuffled, returned and revealed by kind — what
the Goblins' bombs need (warcraft.md §1.4: "Place bombs from the top of the pile face down, without
looking"; rulings.md R15: a later Goblin player "continues with the remaining pile, reshuffled") and any
designer's hidden pieces, on a test pack."""

from swdsl.engine.legal import apply, legal_actions
from swdsl.engine.position import Position
from swdsl.packs.loader import load_ruleset

PACK = """\
race Sappers {
  banner 5
  supply 10
  ability mine 3 times per turn during conquest {
    choose r: regions where is edge and not is face_down
    draw charges into r face down
  }
  ability stir 3 times per turn during conquest {
    shuffle charges
  }
  ability fetch 3 times per turn during conquest {
    choose r: regions where is face_down
    return blast to charges from r
  }
  ability show 3 times per turn during conquest {
    choose r: regions where is face_down
    reveal blast from r
  }
}
marker blast {
  "It goes off."
  tags charge
}
marker dud {
  "It does not."
  tags charge
}
"""


def _game(tmp_path, seed=0):
    (tmp_path / "pack.yaml").write_text(
        "name: sappers\nlanguage: 1\nrequires: [classic]\npools:\n  charges: [blast, blast, dud, dud, dud, dud]\n")
    (tmp_path / "sappers.sw").write_text(PACK)
    pos = Position(load_ruleset([str(tmp_path)]), 2, seed=seed)
    pos.race("Sappers", 0, "Alchemist", regions={0: 1}, hand=5)
    return pos.start(0)


def _use(game, ability, region=None):
    action = next(a for a in legal_actions(game) if a.kind == "ability" and a.a == f"Sappers/{ability}"
                  and (region is None or a.b == (region,)))
    apply(game, action)


def test_a_marker_drawn_face_down_is_unseen_until_revealed_and_goes_back_on_top_when_returned(tmp_path):
    game = _game(tmp_path)
    r = next(a.b[0] for a in legal_actions(game) if a.kind == "ability" and a.a == "Sappers/mine")
    game.hidden["charges"] = ["dud", "dud", "dud", "dud", "dud", "blast"]  # the top is the last
    _use(game, "mine", r)
    assert game.face_down[r] == ["blast"] and game.markers[r] == [] and game.hidden["charges"] == ["dud"] * 5
    _use(game, "fetch", r)  # back on top of the pile, unrevealed
    assert r not in game.face_down and game.hidden["charges"] == ["dud"] * 5 + ["blast"]


def test_revealing_by_kind_turns_up_only_that_kind(tmp_path):
    game = _game(tmp_path)
    r = next(a.b[0] for a in legal_actions(game) if a.kind == "ability" and a.a == "Sappers/mine")
    game.face_down[r] = ["dud", "blast"]
    _use(game, "show", r)
    assert game.face_down[r] == ["dud"] and [m[0] for m in game.markers[r]] == ["blast"]


def test_shuffling_a_pool_reorders_what_is_left_with_the_games_generator(tmp_path):
    orders = set()
    for seed in range(8):
        game = _game(tmp_path, seed)
        before = list(game.hidden["charges"])
        _use(game, "stir")
        assert sorted(game.hidden["charges"]) == sorted(before)  # the same markers, none drawn
        orders.add(tuple(game.hidden["charges"]))
        again = _game(tmp_path, seed)
        _use(again, "stir")
        assert again.hidden["charges"] == game.hidden["charges"]  # the same seed, the same order
    assert len(orders) > 1


def test_nothing_is_offered_to_draw_from_an_empty_pool(tmp_path):
    """warcraft.md §1.4 Goblins: "LIMITS: once the pile is empty, no more bombs"."""
    game = _game(tmp_path)
    assert any(a.a == "Sappers/mine" for a in legal_actions(game) if a.kind == "ability")
    game.hidden["charges"] = []
    assert not any(a.a == "Sappers/mine" for a in legal_actions(game) if a.kind == "ability")
