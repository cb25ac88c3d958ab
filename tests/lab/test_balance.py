"""The balance report: its counts agree with the games, its intervals are Wilson's,
outliers are the items whose interval excludes the fair share, every format
carries it, and --compare finds what changed between two versions of a pack."""

import csv
import io
import json
import shutil
import sys

import pytest
from click.testing import CliRunner

from swdsl.cli import main
from swdsl.lab.balance import report
from swdsl.lab.compare import compare
from swdsl.lab.intervals import difference, games_for, wilson
from swdsl.lab.render import comparison_text
from swdsl.resources import bundled_packs_dir
from swdsl.sim import Job, simulate


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_wilson_intervals():
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(50, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    assert wilson(0, 0) == (0.0, 1.0)
    d, low, high = difference(50, 100, 70, 100)  # Newcombe's example scale: +20 points
    assert d == pytest.approx(0.2) and 0.06 < low < 0.08 and 0.31 < high < 0.34
    assert games_for(0.05) == 385


@pytest.fixture(scope="module")
def rep():
    return report(simulate(Job(("classic",), 3, 7, ("random",) * 3), 40))


def test_counts_agree_with_the_games(rep):
    assert rep["games"] == 40 and sum(s["wins"] for s in rep["seats"]) == 40
    assert rep["fair_share"] == pytest.approx(1 / 3, abs=1e-4)
    picks = sum(rep["market"]["picks_by_position"])
    for kind in ("races", "powers", "combos"):
        assert sum(r["picked"] for r in rep[kind]) == picks == sum(r["games"] for r in rep[kind])
        for r in rep[kind]:
            assert r["offered"] >= r["picked"]
            assert sum(p["picked"] for p in r["by_position"]) == r["picked"]
            if r["games"]:
                assert r["low"] <= r["win_rate"] <= r["high"]
    wins = sum(r["wins"] for r in rep["races"])
    assert 0 < wins <= picks


def test_outliers_are_intervals_that_exclude_the_fair_share(rep):
    fair = rep["fair_share"]
    flagged = {(o["kind"], o["name"]) for o in rep["outliers"]}
    for kind in ("races", "powers", "combos"):
        for r in rep[kind]:
            excluded = r["games"] >= 10 and (r["low"] > fair or r["high"] < fair)
            assert ((kind[:-1], r["name"]) in flagged) == excluded
            assert r["outlier"] == (None if not excluded else "strong" if r["low"] > fair else "weak")


def test_same_seed_same_report_whatever_the_jobs():
    a = json.loads(run("balance", "--games", "8", "--seed", "3", "--bots", "random", "--format", "json").output)
    b = json.loads(run("balance", "--games", "8", "--seed", "3", "--bots", "random", "--jobs", "2",
                       "--format", "json").output)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_text_csv_and_json_formats():
    r = run("balance", "--games", "6", "--bots", "heuristic,random", "--players", "2")
    assert r.exit_code == 0, r.output
    assert "Balance of classic: 6 games, 2 players, bots heuristic, random" in r.output
    for title in ("Seats", "Races", "Powers", "Picks by market position", "Winning margin", "Declines by round"):
        assert title in r.output
    rows = list(csv.DictReader(io.StringIO(run("balance", "--games", "6", "--bots", "random",
                                               "--format", "csv").output)))
    kinds = {row["kind"] for row in rows}
    assert kinds == {"race", "power", "combo", "seat"}
    assert all(0 <= float(row["win_rate"]) <= 1 for row in rows if row["win_rate"])


def test_html_report_is_self_contained_with_plots(tmp_path):
    out = tmp_path / "report.html"
    r = run("balance", "--games", "10", "--bots", "random", "--format", "html", "--out", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert page.count('src="data:image/png;base64,') == 4  # seats, races, powers, race x power
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert "<h2>Race × power</h2>" in page and "<th>pick rate at 6</th>" in page


def test_html_without_matplotlib_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    r = run("balance", "--games", "2", "--bots", "random", "--format", "html")
    assert r.exit_code == 2
    assert "SW330" in r.output and "pip install 'swdsl[report]'" in r.output


def test_compare_two_versions_of_a_pack(tmp_path):
    tweaked = tmp_path / "classic"
    shutil.copytree(bundled_packs_dir() / "classic", tweaked)
    race = tweaked / "races" / "ratmen.sw"
    race.write_text(race.read_text().replace("banner 8", "banner 3"))
    r = run("balance", "--games", "12", "--bots", "random", "--compare", str(tweaked), "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["content"] == [{"kind": "race", "name": "Ratmen", "change": "changed"}]
    assert doc["before"]["games"] == doc["after"]["games"] == 12
    ratmen = next(x for x in doc["races"] if x["name"] == "Ratmen")
    assert ratmen["low"] <= ratmen["change"] <= ratmen["high"]
    text = comparison_text(doc)
    assert "Content changed: race Ratmen changed" in text and "Significant changes:" in text


def test_compare_writes_text_json_or_csv():
    r = run("balance", "--games", "2", "--compare", "classic", "--format", "html")
    assert r.exit_code == 2 and "SW300" in r.output and "--compare writes text, json or csv" in r.output
    r = run("balance", "--games", "4", "--bots", "random", "--compare", "classic", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert {row["kind"] for row in rows} == {"race", "power", "seat"}
    assert all(row["change"] in ("0.0", "") and row["significant"] == "False" for row in rows)  # same pack: no change


def test_compare_checks_the_other_version_before_playing(tmp_path):
    r = run("balance", "--games", "10000", "--compare", str(tmp_path / "nowhere"))
    assert r.exit_code == 1 and "SW222" in r.output and "Balance of" not in r.output


def test_compare_finds_a_significant_change():
    before = {"games": 400, "partial": False, "packs": ["a"], "seats": [],
              "races": [{"name": "R", "wins": 100, "games": 400, "win_rate": 0.25}], "powers": []}
    after = dict(before, packs=["b"], races=[{"name": "R", "wins": 200, "games": 400, "win_rate": 0.5}])
    doc = compare(before, after, [])
    (row,) = doc["races"]
    assert row["significant"] and row["change"] == pytest.approx(0.25)
    same = compare(before, before, [])
    assert not same["races"][0]["significant"]


def test_compare_names_changed_pack_settings_and_maps(tmp_path):
    tweaked = tmp_path / "classic"
    shutil.copytree(bundled_packs_dir() / "classic", tweaked)
    manifest = tweaked / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("2: {map: maps/2p.yaml, rounds: 10, coins: 5}",
                                                     "2: {map: maps/2p.yaml, rounds: 8, coins: 5}"))
    two = tweaked / "maps" / "2p.yaml"
    two.write_text(two.read_text().replace("1: {terrain: sea, edge: true}", "1: {terrain: lake, edge: true}"))
    r = run("balance", "--games", "4", "--bots", "random", "--compare", str(tweaked), "--format", "json")
    doc = json.loads(r.output)
    assert {"kind": "pack.yaml", "name": "setup 2", "change": "changed"} in doc["content"]
    assert {"kind": "map", "name": "classic-2p", "change": "changed"} in doc["content"]
