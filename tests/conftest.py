"""Shared fixtures: the bundled classic ruleset, loaded once."""

import pytest

from swdsl.packs.loader import load_ruleset


@pytest.fixture(scope="session")
def classic():
    return load_ruleset(["classic"])


def pytest_collection_modifyitems(items):
    """The long randomized runs (`slow`) first: the suite is spread over the cores (pytest-xdist, work
    stealing), and a long run started last ran alone at the end (CI: a 2-core machine, a time limit)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
