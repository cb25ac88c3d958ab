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
