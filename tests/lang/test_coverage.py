"""docs/language/coverage.md: one row per item of the three catalogs, each with the file that
says it and an honest status."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "language" / "coverage.md"
STATUSES = {"pack", "expressible", "gap"}

# catalog -> kind -> count, from classic.md, underground.md and warcraft.md
ITEMS = {
    "classic": {"race": 14, "power": 20},
    "underground": {"race": 15, "power": 21, "relic": 6, "place": 9},
    "warcraft": {"race": 16, "power": 20, "artifact": 5, "place": 7},
}
TOTALS = {"classic": 34, "underground": 51, "warcraft": 48}


def _rows() -> list[dict]:
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in ITEMS:
            rows.append(dict(zip(("catalog", "kind", "item", "constructs", "file", "status"), cells)))
    return rows


def test_one_row_per_item_of_each_catalog():
    counts = Counter((r["catalog"], r["kind"]) for r in _rows())
    for catalog, kinds in ITEMS.items():
        for kind, n in kinds.items():
            assert counts[(catalog, kind)] == n, f"{catalog} {kind}: {counts[(catalog, kind)]} rows, expected {n}"
        items = sum(counts[(catalog, k)] for k in kinds)
        assert items == TOTALS[catalog]
        assert counts[(catalog, "edition rule")] >= 3, f"{catalog}: edition rules missing"


def test_rows_are_unique_and_have_a_known_status():
    rows = _rows()
    keys = Counter((r["catalog"], r["kind"], r["item"]) for r in rows)
    assert [k for k, n in keys.items() if n > 1] == []
    for r in rows:
        assert r["status"] in STATUSES, r
        assert r["constructs"], r
        if r["status"] == "gap":
            assert "missing" in r["constructs"], f"{r['item']}: a gap must say what is missing"


def test_pack_rows_are_in_the_classic_pack(classic):
    for r in _rows():
        if r["catalog"] == "classic" and r["kind"] in ("race", "power"):
            assert r["status"] == "pack", r
            table = classic.races if r["kind"] == "race" else classic.powers
            assert r["item"] in table, f"{r['item']} is marked `pack` but packs/classic has no such {r['kind']}"


def test_pack_rows_name_files_that_exist():
    for r in _rows():
        if r["status"] == "pack":
            paths = [p.strip() for p in r["file"].split(",")]
            for path in paths:
                assert (ROOT / path).exists(), f"{r['item']}: no file {path}"


@pytest.mark.parametrize("catalog", list(ITEMS))
def test_every_item_of_a_catalog_is_in_its_pack(catalog):
    """Each race, power, relic, artifact and place is written in a file of its edition's pack."""
    for r in _rows():
        if r["catalog"] == catalog and r["kind"] != "edition rule":
            assert r["status"] == "pack" and r["file"].startswith(f"packs/{catalog}/") and r["file"].endswith(".sw"), r
