"""legal_actions is the single source of legality; apply refuses the rest."""

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swdsl.bots import RandomBot
from swdsl.engine.legal import Action, IllegalAction, apply, apply_legal, is_legal, legal_actions
from swdsl.engine.replay import checksum
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_ruleset

KINDS = ["pick", "decline", "abandon", "conquer", "final", "end", "place", "gather", "pass", "ability"]


def _advance(game, steps, seed):
    bot = RandomBot(seed)
    for _ in range(steps):
        if game.over:
            break
        apply_legal(game, bot.choose(game, legal_actions(game)))


ROOT = Path(__file__).resolve().parents[2]
PACKS = [str(p.parent) for p in sorted(ROOT.glob("packs/*/pack.yaml"))]


@cache
def ruleset(pack: str):
    return load_ruleset([pack])


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: Path(p).name)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400), players=st.integers(2, 5))
def test_is_legal_agrees_with_legal_actions(pack, seed, steps, players):
    rs = ruleset(pack)
    players = min(players, max(rs.setups))
    if players not in rs.setups:
        players = min(rs.setups)
    game = new_game(rs, players, seed)
    _advance(game, steps, seed)
    legal = set(legal_actions(game))
    for a in legal:
        assert is_legal(game, a), a
    rng = random.Random(seed)
    n = len(game.board)
    for _ in range(60):
        a = Action(rng.choice(KINDS), rng.choice([None, rng.randrange(-1, n + 1)]), None)
        assert is_legal(game, a) == (a in legal), a
    for a in [x for x in legal if x.kind == "ability"]:  # the same ability, another choice
        other = Action("ability", a.a, tuple(rng.randrange(-1, n + 1) for _ in a.b))
        assert is_legal(game, other) == (other in legal), other
        for key in (None, 0):  # no ability's key: not "any ability with these choices" (a mutated saved game)
            assert not is_legal(game, Action("ability", key, a.b)), key


def test_illegal_action_is_refused_and_changes_nothing(classic):
    game = new_game(classic, 2, 5)
    _advance(game, 40, 5)
    before = checksum(game)
    bad = Action("conquer", 10_000)
    with pytest.raises(IllegalAction):
        apply(game, bad)
    assert checksum(game) == before


def test_a_boolean_argument_is_no_region_even_once_the_action_of_1_was_made(classic):
    """Actions without choices are made once and looked up after (actions.new_action): True equals 1 as a
    key, so a conquest of True must not find the conquest of region 1 and pass as legal."""
    from swdsl.engine.actions import new_action
    game = new_game(classic, 2, 5)
    _advance(game, 40, 5)
    assert new_action("conquer", 1) is new_action("conquer", 1)
    made = new_action("conquer", True)
    assert made.a is True and not is_legal(game, made)


def test_unaffordable_conquest_gives_cost_and_hand(classic):
    """core-rules.md §5: a conquest needs tokens in hand equal to its cost."""
    game, finals = None, []
    for seed in range(50):
        game = new_game(classic, 2, seed)
        bot = RandomBot(seed)
        while not game.over and not finals:
            finals = [a.a for a in legal_actions(game) if a.kind == "final"]
            if not finals:
                apply_legal(game, bot.choose(game, legal_actions(game)))
        if finals:
            break
    before = checksum(game)
    with pytest.raises(IllegalAction, match=r"costs \d+ tokens and .* has \d+ in hand"):
        apply(game, Action("conquer", finals[0]))
    assert checksum(game) == before


def test_the_final_conquest_shortfall_follows_the_pack_die(tmp_path):
    """R9: a final conquest may lack at most what the die can roll — the largest face of the pack's die."""
    import shutil

    from swdsl.engine.position import Position
    from swdsl.packs.loader import resolve_pack

    pack = tmp_path / "bigdie"
    shutil.copytree(resolve_pack("classic"), pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("die: [0, 0, 0, 1, 2, 3]", "die: [0, 0, 0, 2, 4, 6]"))
    rs = load_ruleset([str(pack)])
    region = rs.setups[2].board.by_id
    pos = Position(rs, 2)
    pos.race("Ratmen", 0, "Alchemist", regions={region["2"]: 1}, hand=1)
    pos.race("Humans", 1, "Swamp", regions={region["3"]: 4, region["7"]: 6})
    game = pos.start(0)
    finals = {a.a for a in legal_actions(game) if a.kind == "final"}
    assert region["3"] in finals and is_legal(game, Action("final", region["3"]))  # cost 6: short by 5
    assert not is_legal(game, Action("final", region["7"]))  # cost 8: short by 7, beyond the largest face
