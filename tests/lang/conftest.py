"""Fixtures of the language tests: the hard pack (tests/lang/hard), loaded once."""

from pathlib import Path

import pytest

from swdsl.packs.loader import load_packs

HARD = Path(__file__).parent / "hard"


@pytest.fixture(scope="session")
def hard_loaded():
    return load_packs([str(HARD)])


@pytest.fixture(scope="session")
def rs(hard_loaded):
    """The hard pack's ruleset."""
    assert hard_loaded.ruleset is not None
    return hard_loaded.ruleset
