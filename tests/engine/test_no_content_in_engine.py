"""The engine names no content (DESIGN.md: the one idea)."""

import re
from pathlib import Path

NAMES = re.compile(r"\b(amazons|ratmen|kraken|murlocs?|tauren|goblins|lost.?tribes?|faction|dwarves|giants|"
                   r"halflings|sorcerers|ghouls|balrog|pandaren|berserk|seafaring|diplomat)\b", re.I)


def test_swdsl_names_no_race_power_or_edition():
    root = Path(__file__).resolve().parents[2] / "swdsl"
    hits = [f"{p}:{i}" for p in root.rglob("*.py")
            for i, line in enumerate(p.read_text().splitlines(), 1) if NAMES.search(line)]
    assert hits == []
