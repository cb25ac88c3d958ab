"""Stats fold in the documented order and explain themselves
(docs/architecture.md «The order of modifiers»; core-rules.md §5)."""

from swdsl.engine.legal import Action, apply
from swdsl.engine.setup import new_game
from swdsl.engine.stats import explain
from swdsl.scenarios import build


def _game(classic, race, power, regions, hand=6, markers=None):
    given = {"players": 2, "empty_board": True,
             "races": [{"player": 1, "race": race, "power": power, "hand": hand, "regions": regions}],
             "markers": markers or {}}
    return build("test", given, classic, 1)


def test_cost_explains_base_markers_race_power_and_floor(classic):
    game = _game(classic, "Giants", "Commando", {"6": 1}, markers={"2": ["mountain"]})
    why = explain(game, "conquest.cost", game.acting, target=game.board.by_id["2"])
    text = str(why)
    assert why.value == 1
    assert text.startswith("conquest.cost 1 = base 2 +1 marker mountain -1 Giants -1 Commando")


def test_set_modifier_of_a_power_overrides_an_edition_rule(classic):
    game = _game(classic, "Ratmen", "Seafaring", {"2": 1})
    sea = game.board.by_id["1"]
    why = explain(game, "region.conquerable", game.acting, target=sea)
    assert why.value is True
    assert str(why) == "region.conquerable True = base True Water sets False Seafaring sets True"


def test_tokens_granted_is_banner_plus_badge_plus_modifiers(classic):
    game = new_game(classic, 2, 0)
    m = game.market
    column = m.columns[0]
    column.insert(0, column.pop(column.index("Amazons")))
    apply(game, Action("pick", 0))
    inst = game.acting
    why = explain(game, "tokens.granted", inst)
    assert why.value == 6 + inst.power.tokens + 4
    assert inst.hand == why.value
