"""The classic pack's scenario tests, run as a designer runs them: `swdsl test classic`."""

import re
import shutil

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import resolve_pack


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_classic_scenarios_pass():
    r = run("test", "classic")
    assert r.exit_code == 0, r.output
    m = re.search(r"classic: (\d+) passed, (\d+) failed \((\d+) files\)", r.output)
    assert m, r.output
    passed, failed, files = map(int, m.groups())
    assert failed == 0
    assert passed >= 50
    assert files >= 4


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
    assert re.search(rf"bad\.yaml:{cost_line}: FAIL a deliberately wrong scenario: ", cost_fail), cost_fail
    # expected vs got, and the cost explained step by step (region 6 holds a Mountain)
    assert "expected 2, got conquest.cost 3 = base 2 +1 marker mountain" in cost_fail
    coins_fail = next(x for x in fails if "coins:" in x)
    assert f"bad.yaml:{coins_line}: FAIL" in coins_fail
    assert "expected [9, 9], got [5, 5]" in coins_fail
    assert re.search(r"classic: \d+ passed, 1 failed", r.output)
