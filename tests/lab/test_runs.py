"""Runs as a user starts them: Ctrl-C keeps what finished (also with --jobs), the
progress bar lives on a terminal's stderr, a Dask cluster gives the same report
as this machine, simulate says what it played and warns when nothing was
conquered, and every mistake is a diagnostic."""

import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from swdsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
SWDSL = [sys.executable, "-m", "swdsl.cli"]


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_within_a_second_with_a_partial_result(jobs, tmp_path):
    # Ctrl-C as in a terminal: a suite started in the background (`cmd &`) ignores SIGINT, and a child
    # inherits that; a terminal's job does not
    proc = subprocess.Popen(SWDSL + ["simulate", "--games", "100000", "--jobs", jobs, "--save-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not any(tmp_path.iterdir()) and time.monotonic() < deadline:  # games under way once one is saved
        time.sleep(0.05)
    assert proc.poll() is None
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = proc.communicate(timeout=10)
    assert time.monotonic() - sent < 1.0
    assert proc.returncode == 130, err
    assert "PARTIAL: interrupted after" in out and "of 100000 games" in out
    assert "Traceback" not in err


def test_progress_bar_on_a_terminals_stderr_only(tmp_path):
    out = tmp_path / "out.txt"
    leader, follower = pty.openpty()
    with out.open("w") as stdout:
        proc = subprocess.Popen(SWDSL + ["simulate", "--games", "150"], stdout=stdout,
                                stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 20)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=30)
    os.close(leader)
    assert proc.returncode == 0
    assert b"simulating" in seen  # the bar, on the terminal
    text = out.read_text()
    assert text.startswith("150 games") and "simulating" not in text and "\x1b" not in text
    piped = subprocess.run(SWDSL + ["simulate", "--games", "20"], capture_output=True, text=True)
    assert piped.stderr == ""  # no bar when stderr is not a terminal


def test_a_dask_cluster_gives_the_same_report():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        far = run("balance", "--games", "12", "--players", "3", "--bots", "random", "--format", "json",
                  "--scheduler", cluster.scheduler_address)
    here = run("balance", "--games", "12", "--players", "3", "--bots", "random", "--format", "json", "--jobs", "2")
    assert far.exit_code == 0, far.output
    a, b = json.loads(far.output), json.loads(here.output)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_without_dask_the_cli_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    r = run("simulate", "--games", "2", "--scheduler", "tcp://127.0.0.1:8786")
    assert r.exit_code == 2
    assert "SW330" in r.output and "pip install 'swdsl[dask]'" in r.output


def test_an_unusable_scheduler_address_is_a_diagnostic():
    pytest.importorskip("distributed")
    r = run("simulate", "--games", "2", "--scheduler", "nonsense://nowhere")
    assert r.exit_code == 1 and "SW331" in r.output and "hint:" in r.output


def test_simulate_says_what_it_played():
    r = run("simulate", "--games", "3", "--players", "3", "--pack", str(ROOT / "packs" / "classic"))
    assert "played: packs classic, map classic-3p" in r.output  # the pack's name, not its folder
    r = run("simulate", "--games", "4", "--pack", "warcraft")
    assert "played: packs warcraft, " in r.output and "board layouts" in r.output


def test_simulate_warns_when_no_game_had_a_conquest(tmp_path):
    pack = tmp_path / "noentry"
    shutil.copytree(ROOT / "tests" / "engine" / "islands", pack)
    rules = pack / "rules.sw"
    text = rules.read_text()
    rules.write_text(text[text.index("\nrace "):])  # no entry rule: no race may ever enter
    r = run("simulate", "--games", "3", "--pack", str(pack))
    assert r.exit_code == 0, r.output
    assert "SW332 (warning) none of the 3 games had a single conquest" in r.output
    assert "SW332" not in run("simulate", "--games", "3", "--pack", str(ROOT / "tests" / "engine" / "islands")).output


def test_per_seat_bots_and_bad_bot_names():
    r = run("simulate", "--games", "2", "--bots", "heuristic,random,search:4", "--players", "3")
    assert r.exit_code == 0 and "bots heuristic, random, search:4" in r.output
    for bots in ("wizard", "random,random,random", "search:lots"):
        r = run("simulate", "--games", "2", "--bots", bots)
        assert r.exit_code == 2 and "SW300" in r.output, bots


def test_an_unwritable_report_file_is_a_diagnostic(tmp_path):
    r = run("balance", "--games", "2", "--bots", "random", "--out", str(tmp_path / "no" / "such" / "r.txt"))
    assert r.exit_code == 1 and "SW333" in r.output
