"""Every scenario of every pack (packs/*, and the test packs under tests/) is a pytest case
of its own, named after its file and scenario, run as `swdsl test` runs it."""

import re
import shutil
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import load_packs, resolve_pack
from swdsl.scenarios import read_file, run_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[1]
PACKS = sorted(p.parent for p in [*ROOT.glob("packs/*/pack.yaml"), *ROOT.glob("tests/**/pack.yaml")]
               if (p.parent / "tests").is_dir() and "bad" not in p.parts)


@cache
def loaded(pack: Path):
    """The pack as `swdsl test` loads it: each scenario runs on the board it asks for (a mix)."""
    return load_packs([str(pack)])


def _cases():
    for pack in PACKS:
        for path in scenario_files(pack):
            found, diags = read_file(path)
            assert not diags, diags
            for span, sc in found:
                yield pytest.param(pack, path, span, sc, id=f"{path.relative_to(ROOT)}:{span.line} {sc['name']}")


@pytest.mark.parametrize("pack, path, span, sc", list(_cases()))
def test_scenario(pack, path, span, sc):
    outcome = run_scenario(path, sc, span, loaded(pack))
    assert not outcome.failures, "\n".join(f"{f.path}:{f.line}: {f.message}" for f in outcome.failures)


def test_every_bundled_pack_has_scenarios():
    for pack in ROOT.glob("packs/*/pack.yaml"):
        assert scenario_files(pack.parent), pack.parent


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


BAD = """\
scenarios:
  - name: a deliberately wrong scenario
    rule: core-rules.md §5
    given:
      players: 2
      races:
        - {player: 1, race: Ratmen, power: Alchemist, hand: 8, regions: {"2": 1}}
    expect:
      cost: {"6": 2}
      coins: [9, 9]
"""


def test_a_failing_scenario_is_reported_with_its_line_and_an_explained_cost(tmp_path):
    pack = tmp_path / "classic"
    shutil.copytree(resolve_pack("classic"), pack)
    (pack / "tests" / "bad.yaml").write_text(BAD, encoding="utf-8")
    r = run("test", str(pack))
    assert r.exit_code == 1, r.output
    lines = BAD.splitlines()
    cost_line = next(i for i, x in enumerate(lines, 1) if x.strip().startswith("cost:"))
    coins_line = next(i for i, x in enumerate(lines, 1) if x.strip().startswith("coins:"))
    fails = [x for x in r.output.splitlines() if ": FAIL " in x]
    assert len(fails) == 2, r.output
    cost_fail = next(x for x in fails if "cost of region 6" in x)
    assert re.search(rf"bad\.yaml:{cost_line}:\d+: FAIL a deliberately wrong scenario: ", cost_fail), cost_fail
    # expected vs got, and the cost explained step by step (region 6 holds a Mountain)
    assert "expected 2, got conquest.cost 3 = base 2 +1 marker mountain" in cost_fail
    coins_fail = next(x for x in fails if "coins:" in x)
    assert re.search(rf"bad\.yaml:{coins_line}:\d+: FAIL", coins_fail)
    assert "expected [9, 9], got [5, 5]" in coins_fail
    assert re.search(r"classic: \d+ passed, 1 failed", r.output)


MALFORMED = [
    'scenarios: [{name: a, given: {players: abc}}]',
    'scenarios: [{name: a, given: {races: [{player: 1, race: Ratmen, regions: [1, 2]}]}}]',
    'scenarios: [{name: a, given: {races: 7}}]',
    'scenarios: [{name: a, expect: {illegal: [{reason: x}]}}]',
    'scenarios: [{name: a, expect: {coins: x}}]',
]


def test_malformed_scenarios_fail_at_their_line_without_traceback(tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(resolve_pack("classic"), pack)
    for f in (pack / "tests").glob("*.yaml"):
        f.unlink()
    for i, body in enumerate(MALFORMED):
        (pack / "tests" / f"m{i}.yaml").write_text(body + "\n")
    r = CliRunner().invoke(main, ["test", str(pack)])
    assert r.exit_code == 1
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    assert f"0 passed, {len(MALFORMED)} failed" in r.output
    fails = [x for x in r.output.splitlines() if ": FAIL " in x]
    assert len(fails) == len(MALFORMED)
    assert all(re.search(r"m\d\.yaml:1:\d+: FAIL a: SW40\d ", x) for x in fails), fails
    assert not re.search(r"\w+Error|Traceback", r.output)
