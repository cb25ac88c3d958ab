"""Shared fixtures: the bundled classic ruleset, loaded once."""

import pytest

from swdsl.packs.loader import load_ruleset


@pytest.fixture(scope="session")
def classic():
    return load_ruleset(["classic"])
