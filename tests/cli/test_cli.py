"""The command line as a user runs it: exit codes, formats, no tracebacks."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from swdsl.cli import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_check_bundled_packs_is_clean():
    r = run("check")
    assert r.exit_code == 0, r.output
    assert "0 error(s)" in r.output


def _broken_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "broken"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: broken\nterrains: [forest]\n")
    (pack / "race.sw").write_text('race "Bad, Race" {\n  banner 5\n  supply 10\n  modify conquest.cots by -1\n}\n')
    return pack


def test_check_reports_file_line_col_code_and_exit_1(tmp_path):
    r = run("check", str(_broken_pack(tmp_path)))
    assert r.exit_code == 1
    assert "race.sw:4:10: SW101 unknown stat 'conquest.cots'" in r.output
    assert "did you mean 'conquest.cost'?" in r.output


def test_check_github_format_escapes(tmp_path):
    r = run("check", "--format", "github", str(_broken_pack(tmp_path)))
    line = next(x for x in r.output.splitlines() if "SW101" in x)
    assert line.startswith("::error file=") and ",line=4,col=10," in line
    assert "::" in line.split("title=")[1]


def test_check_sarif_is_sarif_2_1_0(tmp_path):
    r = run("check", "--format", "sarif", str(_broken_pack(tmp_path)))
    doc = json.loads(r.output)
    assert doc["version"] == "2.1.0"
    res = doc["runs"][0]["results"][0]
    assert res["ruleId"] == "SW101" and res["level"] == "error"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["region"]["startLine"] == 4 and loc["artifactLocation"]["uri"].endswith("race.sw")
    assert {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]} == {"SW101"}


def test_check_junit_one_suite_per_pack_one_case_per_file(tmp_path):
    r = run("check", "--format", "junit", str(_broken_pack(tmp_path)), "classic")
    root = ET.fromstring(r.output)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {"broken", "classic"}
    assert suites["broken"].get("failures") == "1"
    assert suites["classic"].get("failures") == "0"
    assert len(list(suites["classic"].iter("testcase"))) > 30


def test_check_strict_fails_on_warnings(tmp_path):
    pack = tmp_path / "warn"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: warn\n")
    (pack / "m.sw").write_text("marker unused {\n  defense 1\n}\n")
    assert run("check", str(pack)).exit_code == 0
    r = run("check", "--strict", str(pack))
    assert r.exit_code == 1 and "SW143" in r.output


def test_check_json_counts(tmp_path):
    doc = json.loads(run("check", "--format", "json", str(_broken_pack(tmp_path))).output)
    assert doc["errors"] == 1 and doc["diagnostics"][0]["code"] == "SW101"


def test_usage_error_exits_2():
    r = run("simulate", "--players", "nine")
    assert r.exit_code == 2
    assert "SW300" in r.output


def test_simulate_json_and_invariants():
    r = run("simulate", "--players", "3", "--games", "6", "--seed", "4", "--format", "json", "--check-invariants")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    for key in ("games", "seconds", "games_per_second", "actions", "invariant_violations", "wins"):
        assert key in doc
    assert doc["games"] == 6 and sum(doc["wins"]) == 6 and doc["invariant_violations"] == []


def test_simulate_same_seed_same_results_whatever_jobs():
    one = json.loads(run("simulate", "--games", "8", "--seed", "9", "--format", "json").output)
    two = json.loads(run("simulate", "--games", "8", "--seed", "9", "--jobs", "2", "--format", "json").output)
    assert one["wins"] == two["wins"] and one["actions"] == two["actions"]
    assert one["mean_score"] == two["mean_score"]


def test_greedy_bots_beat_random_ones_at_scoring():
    greedy = json.loads(run("simulate", "--games", "10", "--bots", "greedy", "--format", "json").output)
    rand = json.loads(run("simulate", "--games", "10", "--bots", "random", "--format", "json").output)
    assert sum(greedy["mean_score"]) > sum(rand["mean_score"])


def test_info_json_lists_the_classic_pack():
    doc = json.loads(run("info", "classic", "--format", "json").output)
    races = {r["name"]: r for r in doc["races"]}
    assert races["Ratmen"]["tokens"] == 8 and races["Ratmen"]["supply"] == 13
    assert len([r for r in doc["races"] if not r["neutral"]]) == 14
    assert len(doc["powers"]) == 20
    assert {p["name"]: p["tokens"] for p in doc["powers"]}["Merchant"] == 2
    assert [(m["players"], m["regions"]) for m in doc["maps"]] == [(2, 23), (3, 30), (4, 39), (5, 48)]
    assert doc["markers"] and doc["rules"]


def test_info_text_runs():
    r = run("info")
    assert r.exit_code == 0 and "Ratmen" in r.output


def test_check_a_folder_of_packs_checks_each(tmp_path):
    import shutil

    from swdsl.resources import bundled_packs_dir

    shutil.copytree(bundled_packs_dir() / "classic", tmp_path / "one")
    _broken_pack(tmp_path)
    r = run("check", str(tmp_path))
    assert r.exit_code == 1 and "SW101" in r.output and "SW223" not in r.output


def test_ctrl_c_stops_test_at_once_with_a_partial_result(monkeypatch):
    """A designer's first day: Ctrl-C stops `swdsl test`, prints what finished, exits 130."""
    import swdsl.scenarios as scenarios

    real, calls = scenarios.run_scenario, []

    def interrupted(*args):
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(scenarios, "run_scenario", interrupted)
    r = CliRunner().invoke(main, ["test", "classic"])
    assert r.exit_code == 130
    assert "classic: 3 passed, 0 failed" in r.output and "partial" in r.output


def test_bare_swdsl_prints_help_and_dash_h_works():
    r = CliRunner().invoke(main, [])
    assert r.exit_code == 0 and "Usage:" in r.output and "SW" not in r.output
    for args in (["-h"], ["check", "-h"], ["simulate", "-h"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 0 and "Usage:" in r.output, args
