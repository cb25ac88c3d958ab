"""Every project ruling is tested (the brief: "decide it as a numbered ruling in docs/rulings.md
and test it"): each `## Dn.` of docs/rulings.md is cited by a scenario or a test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_ruling_is_cited_by_a_scenario_or_a_test():
    rulings = sorted({int(n) for n in re.findall(r"(?m)^## D(\d+)\.", (ROOT / "docs/rulings.md").read_text())})
    assert rulings, "docs/rulings.md has no ruling"
    sources = [*ROOT.glob("packs/*/tests/*.yaml"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("tests/**/tests/*.yaml")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources if p.name != Path(__file__).name)
    uncited = [d for d in rulings if not re.search(rf"rulings\.md D{d}\b", text)]
    assert uncited == [], f"rulings no scenario or test cites: {[f'D{d}' for d in uncited]}"
