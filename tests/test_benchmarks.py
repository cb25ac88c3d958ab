"""benchmarks/bench.py runs side by side: another checkout (here this one again) is measured in the
same rounds, and the row gets its ratios (a row growing while it was read once stopped every run with
a baseline or the peer)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_measures_a_baseline_side_by_side(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--packs", "classic", "--players", "2",
                           "--games", "2", "--reps", "1", "--baseline", f"again={ROOT}",
                           "--skip", "features,search,jobs,check", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    row = json.loads(out.read_text())["throughput"]["classic"]["2"]
    assert row["swdsl"]["games"] == row["again"]["games"] == 2
    assert set(row["ratio_to_again"]) == {"games_per_second", "actions_per_second", "replay_actions_per_second"}
    assert all(v > 0 for v in row["ratio_to_again"].values())
    assert "no peer measured" in done.stderr


def test_rulework_counts_what_the_rules_ask_of_an_action():
    """benchmarks/rulework.py: per action, the rules' work (closures called, folds, triggers run, ability
    offers); counted on the pure Python engine, refused with a word on the compiled one."""
    from swdsl.engine import stats

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "rulework.py"), "--packs", "classic,warcraft",
                           "--players", "2", "--games", "2"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    if not stats.__file__.endswith(".py"):  # the compiled engine's functions are not seen by a profile function
        assert done.returncode != 0 and "pure Python engine" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    classic, warcraft = counts["classic"]["2"], counts["warcraft"]["2"]
    assert classic["rule closures called"] > 0 and classic["conquest verdicts"] > 0
    assert warcraft["triggers run"] > 0 and warcraft["ability offers asked"] > 0
    # Warcraft's edition rules (travel cost, faction bonus, the Aegis toll...) ask more of every action
    assert warcraft["rule closures called"] > classic["rule closures called"]
