"""The bank holds the VALUE of an edition's coins, not the number of pieces (numbers.md: classic
35×1 + 20×3 + 24×5 + 30×10; Underground 34×1 + 18×3 + 24×5 + 30×10; Warcraft 35×1 + 20×3 +
25×5 + 30×10). A bank of pieces ran dry in 4-player games."""

import pytest

from swdsl.packs.loader import load_ruleset


@pytest.mark.parametrize("pack, pieces", [
    ("classic", {1: 35, 3: 20, 5: 24, 10: 30}),
    ("underground", {1: 34, 3: 18, 5: 24, 10: 30}),
    ("warcraft", {1: 35, 3: 20, 5: 25, 10: 30}),
])
def test_the_bank_is_worth_the_coins_in_the_box(pack, pieces):
    assert load_ruleset([pack]).bank == sum(value * n for value, n in pieces.items())
