"""Instructions per action, counted by valgrind's callgrind: the same count on every run.

Why: on a shared machine CPU time moves by 30% and more between runs, and a comparison of
two builds or checkouts drowns in it; an instruction count does not move (the hash seed is
fixed). It is not time — compiled code and the interpreter retire instructions at different
rates — so bench.py's timings stay the measure, and this is the check that a change is real.

    python benchmarks/instructions.py [--packs classic,underground] [--players 2,5] [--games 30]
        [--baseline [NAME=]DIR ...] [--draws]

Each checkout records games of the same seeds with random bots (its own: an older checkout's
rules may not accept a newer one's games), then replays them (every action checked for
legality) and plays the same seeds again, under callgrind. A run that only loads the ruleset
and the records (and warms the caches on the first game: replayed, and drawn at each of its
positions) is subtracted from each, so the count is the work of the actions alone.
With --draws, also a random bot's draw (`legal.sample`) on the recorded positions: the records
of this checkout are applied again (unchecked), once with a draw made at every position before
its action and once without, by every checkout. Every checkout then decides on the same
positions, so a change to which action a draw picks is measured without the spread between one
set of games and another (Underground at 5 players: 69k instructions per action over 8 games,
82k over 24 others). Needs valgrind.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _worker(pack: str, players: int, records: str, what: str, games: int) -> None:
    """Record `games` games with random bots, or load the ruleset and the records, then do `what`:
    nothing, replay them, or play their seeds again. Prints the actions it played."""
    from swdsl.bots import RandomBot, play
    from swdsl.engine.legal import apply_legal, sample
    from swdsl.engine.replay import actions_of, record, replay
    from swdsl.engine.setup import new_game
    from swdsl.packs.loader import load_ruleset

    rs = load_ruleset(pack.split("+"))
    gc.collect()  # every checkout settled alike: a full collection walking the loaded ruleset would land
    gc.freeze()  # in one run and not another (7% of a count, measured), whatever the checkout does itself
    if what == "record":
        games_played = []
        for i in range(games + 1):
            game = new_game(rs, players, 7000 + i)
            play(game, [RandomBot(i * 7 + s) for s in range(players)])
            games_played.append(record(game, pack.split("+")))
        with open(records, "wb") as f:
            pickle.dump(games_played, f)
        return
    with open(records, "rb") as f:
        recs = pickle.load(f)
    replay(rs, recs[0])  # warm: the board's memo and the fold plans filled, as in a long run
    warm, draws = new_game(rs, players, recs[0]["seed"]), random.Random(4)
    for action in actions_of(recs[0]):  # and what only drawing fills (declared borders per region)
        sample(warm, draws)
        apply_legal(warm, action)
    actions = 0
    rng = random.Random(5)
    for i, rec in enumerate(recs[1:], 1):
        if what == "replay":
            actions += len(replay(rs, rec).actions)
        elif what == "play":
            actions += play(new_game(rs, players, rec["seed"]), [RandomBot(i * 7 + s) for s in range(players)])
        elif what in ("apply", "draw"):  # the positions again, with a draw at each (read only) or without
            game = new_game(rs, players, rec["seed"])
            for action in actions_of(rec):
                if what == "draw":
                    sample(game, rng)
                apply_legal(game, action)
                actions += 1
    print(actions)


def _count(checkout: Path, pack: str, players: int, records: str, what: str, games: int = 0) -> tuple[int, int]:
    """The instructions of a run, and the actions it played (records are made without valgrind)."""
    command = [sys.executable, __file__, "--worker", pack, str(players), records, what, str(games)]
    if what != "record":
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=checkout, check=False)
    if done.returncode != 0:  # a checkout that cannot play this pack, or a broken one: say which, no traceback
        last = (done.stderr or done.stdout).strip().splitlines()[-1:]
        sys.exit(f"instructions.py: {checkout} failed to {what} {pack} at {players} players: {' '.join(last)}")
    if what == "record":
        return 0, 0
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1)), int(done.stdout.split()[-1])  # type: ignore[union-attr]


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        _worker(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packs", default="classic")
    ap.add_argument("--players", default="2")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--baseline", action="append", default=[], metavar="[NAME=]DIR")
    ap.add_argument("--draws", action="store_true", help="also a random bot's draw on this checkout's recorded positions")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind (Debian: apt install valgrind)")
    sides = {"this": ROOT, **{name or "baseline": Path(path).resolve()
                              for name, _, path in (b.rpartition("=") for b in args.baseline)}}
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pack in args.packs.split(","):
            for players in map(int, args.players.split(",")):
                row: dict = {}
                for name, checkout in sides.items():
                    records = str(Path(tmp) / f"{name}-{pack}-{players}.pkl")  # its own games: rules change
                    _count(checkout, pack, players, records, "record", args.games)
                    base, _ = _count(checkout, pack, players, records, "load")
                    row[name] = {}
                    for what in ("replay", "play"):
                        count, played = _count(checkout, pack, players, records, what)
                        row[name][what] = round((count - base) / played)
                    if args.draws:  # on this checkout's positions (recorded first), for every checkout alike
                        shared = str(Path(tmp) / f"this-{pack}-{players}.pkl")
                        plain, played = _count(checkout, pack, players, shared, "apply")
                        drawn, _ = _count(checkout, pack, players, shared, "draw")
                        row[name]["draw"] = round((drawn - plain) / played)
                out.setdefault(pack, {})[players] = row
                print(f"  {pack} {players}p, instructions per action: "
                      + "; ".join(f"{n} replay {row[n]['replay']}, play {row[n]['play']}"
                                  + (f", draw {row[n]['draw']}" if args.draws else "") for n in sides),
                      file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
