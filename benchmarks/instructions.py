"""Instructions per action, counted by valgrind's callgrind: the same count on every run.

Why: on a shared machine CPU time moves by 30% and more between runs, and a comparison of
two builds or checkouts drowns in it; an instruction count does not move (the hash seed is
fixed). It is not time — compiled code and the interpreter retire instructions at different
rates — so bench.py's timings stay the measure, and this is the check that a change is real.

    python benchmarks/instructions.py [--packs classic,underground] [--players 2,5] [--games 30]
        [--baseline [NAME=]DIR ...]

Games are played once by this checkout with random bots and recorded; each checkout then
replays the same records (every action checked for legality), and plays the same seeds, under
callgrind. A run that only loads the ruleset and the records is subtracted from each, so the
count is the work of the actions alone. Needs valgrind.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _worker(pack: str, players: int, records: str, what: str) -> None:
    """Load the ruleset and the records, then do `what`: nothing, replay them, or play their seeds."""
    from swdsl.bots import RandomBot, play
    from swdsl.engine.replay import replay
    from swdsl.engine.setup import new_game
    from swdsl.packs.loader import load_ruleset

    rs = load_ruleset(pack.split("+"))
    with open(records, "rb") as f:
        recs = pickle.load(f)
    replay(rs, recs[0])  # warm: the board's memo and the fold plans filled
    actions = 0
    for i, rec in enumerate(recs[1:], 1):
        if what == "replay":
            actions += len(replay(rs, rec).actions)
        elif what == "play":  # an older checkout's bots may play other games from the same seeds
            actions += play(new_game(rs, players, rec["seed"]), [RandomBot(i * 7 + s) for s in range(players)])
    print(actions)


def _record(pack: str, players: int, games: int, path: str) -> int:
    from swdsl.bots import RandomBot, play
    from swdsl.engine.replay import record
    from swdsl.engine.setup import new_game
    from swdsl.packs.loader import load_ruleset

    rs = load_ruleset(pack.split("+"))
    recs = []
    for i in range(games + 1):
        game = new_game(rs, players, 7000 + i)
        play(game, [RandomBot(i * 7 + s) for s in range(players)])
        recs.append(record(game, pack.split("+")))
    with open(path, "wb") as f:
        pickle.dump(recs, f)
    return sum(len(r["actions"]) for r in recs[1:])


def _count(checkout: Path, pack: str, players: int, records: str, what: str) -> tuple[int, int]:
    """The instructions of a run, and the actions it played."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                           __file__, "--worker", pack, str(players), records, what],
                          capture_output=True, text=True, env=env, cwd=checkout, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1)), int(done.stdout.split()[-1])  # type: ignore[union-attr]


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        _worker(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packs", default="classic")
    ap.add_argument("--players", default="2")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--baseline", action="append", default=[], metavar="[NAME=]DIR")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind (Debian: apt install valgrind)")
    sides = {"this": ROOT, **{name or "baseline": Path(path).resolve()
                              for name, _, path in (b.rpartition("=") for b in args.baseline)}}
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pack in args.packs.split(","):
            for players in map(int, args.players.split(",")):
                records = str(Path(tmp) / f"{pack}-{players}.pkl")
                actions = _record(pack, players, args.games, records)
                row: dict = {"recorded_actions": actions}
                for name, checkout in sides.items():
                    base, _ = _count(checkout, pack, players, records, "load")
                    row[name] = {}
                    for what in ("replay", "play"):
                        count, played = _count(checkout, pack, players, records, what)
                        row[name][what] = round((count - base) / played)
                out.setdefault(pack, {})[players] = row
                print(f"  {pack} {players}p, instructions per action: "
                      + "; ".join(f"{n} replay {row[n]['replay']}, play {row[n]['play']}" for n in sides),
                      file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
