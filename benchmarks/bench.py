"""Throughput benchmarks (not timed tests, issue 15). One core, fixed seeds, every rule
of each pack in play, random bots:

- games/s and actions/s per pack and player count, and replay actions/s (recorded games
  applied again, each action checked for legality); each pack's actions/s against
  classic's at the same player count, classic measured in the same rounds and the rounds'
  ratios' median reported with their range (goal: Underground, Warcraft and a mix ≥ 0.7×);
- side by side with the peer, smawg, when a Python that has it is given (`--smawg
  PYTHON` or SWDSL_SMAWG_PYTHON; install it in a venv of its own, never here), and
  with other checkouts of swdsl (`--baseline [NAME=]DIR`, repeatable: an older commit's
  code and packs), interleaved run by run;
- what one relic and two places cost a classic game (benchmarks/packs/features);
- a search-bot decision with 100 playouts at the first pick of a 2-player game;
- `--jobs 2` against `--jobs 1`, and `swdsl check` of every bundled pack cold and of
  one pack warm.

    python benchmarks/bench.py [--packs classic,underground,warcraft] [--players 2,5]
        [--games 200] [--reps 3] [--smawg PYTHON] [--baseline [NAME=]DIR ...] [--out FILE]

A pack list entry may mix packs: `classic+underground+warcraft`. Every measurement runs
in a fresh process and counts CPU time (time.process_time), so waiting for a busy
machine is not counted; runs of this checkout, the baseline and the peer alternate,
and the best of the repetitions is reported with the median. Each checkout runs the engine
build importable from it (`python hatch_build.py --inplace` compiles one in place; the JSON
says which ran). Writes JSON
(benchmarks/results/latest.json) and prints a summary saying whether a peer ran.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FEATURES = str(HERE / "packs" / "features")


# ---- measurements, each run in a process of its own (`--worker`) -------------------------


def _throughput(packs: list[str], players: int, games: int, seed: int) -> dict:
    from swdsl.bots import RandomBot, play
    from swdsl.engine.replay import record, replay
    from swdsl.engine.setup import new_game

    rs = _ruleset(packs)
    for i in range(3):  # warm: the board's memo and the fold plans filled, as in a long run
        play(new_game(rs, players, 10**6 + i), [RandomBot(i * 7 + s) for s in range(players)])
    records, actions = [], 0
    start = time.process_time()
    for i in range(games):
        game = new_game(rs, players, seed + i)
        actions += play(game, [RandomBot(seed + i * 7 + s) for s in range(players)])
        records.append(record(game, packs))
    seconds = time.process_time() - start
    start = time.process_time()
    for rec in records:
        replay(rs, rec)
    return {"engine": "swdsl", "build": _engine_build(), "games": games, "actions": actions, "seconds": seconds,
            "replay_seconds": time.process_time() - start}


def _ruleset(packs: list[str]):
    """The ruleset as `swdsl simulate` loads it (sim.ruleset: once, settled for the collector), or as
    a checkout older than that loads it."""
    try:
        from swdsl.sim import ruleset
    except ImportError:
        from swdsl.packs.loader import load_ruleset
        return load_ruleset(packs)
    return ruleset(tuple(packs))


def _engine_build() -> str:
    """Which engine ran: 'compiled' (mypyc, hatch_build.py) or 'pure Python'."""
    try:
        from swdsl.engine import build
    except ImportError:  # a checkout older than the compiled build
        return "pure Python"
    return build()


def _search(packs: list[str], playouts: int, seeds: int) -> dict:
    from swdsl.engine.legal import legal_actions
    from swdsl.engine.setup import new_game
    from swdsl.lab.search import SearchBot

    rs = _ruleset(packs)
    times = []
    for seed in range(1, seeds + 1):
        game = new_game(rs, 2, seed)
        bot = SearchBot(seed, playouts)
        start = time.process_time()
        bot.choose(game, legal_actions(game))
        times.append(time.process_time() - start)
    return {"playouts": playouts, "seconds": times}


def _jobs(games: int, jobs: int) -> dict:
    from swdsl.sim import Job, simulate

    simulate(Job(("classic",), 4, 1, ("random",) * 4), 20, 1)  # the pack loaded before workers fork
    run = simulate(Job(("classic",), 4, 1, ("random",) * 4), games, jobs)
    return {"games": games, "jobs": jobs, "seconds": run.seconds}


def _warm_load(pack: str) -> dict:
    from swdsl.packs.loader import load_packs

    load_packs([pack])
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        load_packs([pack])
        best = min(best, time.perf_counter() - start)
    return {"seconds": best}


def worker(kind: str, args: list[str]) -> None:
    if kind == "throughput":
        out = _throughput(args[0].split("+"), int(args[1]), int(args[2]), int(args[3]))
    elif kind == "search":
        out = _search(args[0].split("+"), int(args[1]), int(args[2]))
    elif kind == "jobs":
        out = _jobs(int(args[0]), int(args[1]))
    else:
        out = _warm_load(args[0])
    print(json.dumps(out))


# ---- running workers side by side ------------------------------------------------------------


def _run(command: list[str], checkout: Path | None = None) -> dict:
    """One measurement in a fresh process: this checkout's worker, another checkout's
    (its code, this script), or the peer's script."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=checkout or ROOT, check=False)
    if done.returncode != 0:
        return {"error": (done.stderr or done.stdout).strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _swdsl(kind: str, *args, checkout: Path | None = None) -> dict:
    return _run([sys.executable, str(Path(__file__).resolve()), "--worker", kind, *map(str, args)], checkout)


def _rates(runs: list[dict]) -> dict:
    """Best and median of games/s, actions/s and replay actions/s over the repetitions."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"error": runs[0]["error"]}
    out: dict = {"games": ok[0]["games"], "actions": ok[0]["actions"], "repetitions": len(ok),
                 "build": ok[0].get("build", "pure Python")}
    for name, value in (("games_per_second", lambda r: r["games"] / r["seconds"]),
                        ("actions_per_second", lambda r: r["actions"] / r["seconds"]),
                        ("replay_actions_per_second", lambda r: r["actions"] / r["replay_seconds"])):
        values = [value(r) for r in ok]
        out[name] = round(max(values), 1)
        out[name + "_median"] = round(statistics.median(values), 1)
    return out


def throughput(entries: list[str], counts: list[int], games: int, reps: int, smawg: str | None,
               baselines: dict[str, Path]) -> dict:
    """Per pack and player count: this checkout, the baselines and the peer, interleaved. A pack
    other than classic is measured with classic at the same player count in the same rounds, and
    its actions/s against classic's is the median of the rounds' ratios: on a shared machine the
    speed moves by more than the ratio sought between rows measured minutes apart."""
    out: dict = {}
    for entry in entries:
        for players in counts:
            sides: dict[str, list] = {"swdsl": [], **{name: [] for name in baselines}}
            if smawg is not None and entry == "classic":
                sides["smawg"] = []
            if entry != "classic":
                sides[PAIRED] = []
            for rep in range(reps):
                order = list(sides) if rep % 2 == 0 else list(reversed(sides))
                for side in order:
                    if side == "swdsl":
                        sides[side].append(_swdsl("throughput", entry, players, games, 1))
                    elif side == PAIRED:
                        sides[side].append(_swdsl("throughput", "classic", players, games, 1))
                    elif side == "smawg":
                        sides[side].append(_run([smawg, str(HERE / "peer_smawg.py"), str(players), str(games), "1"]))
                    else:
                        sides[side].append(_swdsl("throughput", entry, players, games, 1, checkout=baselines[side]))
            row = {side: _rates(runs) for side, runs in sides.items() if side != PAIRED}
            for side in list(row):  # the ratios are added to the row
                if side != "swdsl" and "error" not in row[side] and "error" not in row["swdsl"]:
                    row[f"ratio_to_{side}"] = {k: round(row["swdsl"][k] / row[side][k], 2) for k in
                                               ("games_per_second", "actions_per_second", "replay_actions_per_second")}
            if entry != "classic":
                row.update(_paired(sides["swdsl"], sides[PAIRED]))
            out.setdefault(entry, {})[players] = row
            print(f"  {entry} {players}p: {_line(row)}", file=sys.stderr)
    return out


PAIRED = "classic, same rounds"


def _paired(pack: list[dict], classic: list[dict]) -> dict:
    """The pack's actions/s over classic's, round by round (each pair measured back to back): the
    median and the range of the rounds' ratios."""
    ratios = sorted((p["actions"] / p["seconds"]) / (c["actions"] / c["seconds"])
                    for p, c in zip(pack, classic) if "error" not in p and "error" not in c)
    if not ratios:
        return {}
    return {"actions_per_second_vs_classic": round(statistics.median(ratios), 2),
            "actions_per_second_vs_classic_range": [round(ratios[0], 2), round(ratios[-1], 2)]}


def _line(row: dict) -> str:
    s = row["swdsl"]
    if "error" in s:
        return f"error {s['error']}"
    text = f"({s['build']}) {s['games_per_second']} games/s, {s['actions_per_second']:.0f} actions/s, replay " \
           f"{s['replay_actions_per_second']:.0f} actions/s"
    for side in row:
        if side.startswith("ratio_to_"):
            r = row[side]
            text += f"; × {side[9:]}: games {r['games_per_second']}, replay {r['replay_actions_per_second']}"
    if "actions_per_second_vs_classic" in row:
        low, high = row["actions_per_second_vs_classic_range"]
        text += f"; actions/s × classic's (same rounds): {row['actions_per_second_vs_classic']} ({low}–{high})"
    return text


def features(games: int, reps: int) -> dict:
    """CPU per classic game with and without one relic and two places, interleaved."""
    plain, held = [], []
    for _ in range(reps):
        plain.append(_swdsl("throughput", "classic", 2, games, 1))
        held.append(_swdsl("throughput", FEATURES, 2, games, 1))
    a, b = _rates(plain), _rates(held)
    if "error" in a or "error" in b:
        return {"error": a.get("error") or b.get("error")}
    return {"classic_actions_per_second": a["actions_per_second"], "with_features_actions_per_second":
            b["actions_per_second"], "cost_per_action": round(a["actions_per_second"] / b["actions_per_second"], 2)}


def search(entries: list[str], playouts: int, seeds: int) -> dict:
    out = {}
    for entry in entries:
        got = _swdsl("search", entry, playouts, seeds)
        if "error" in got:
            out[entry] = got
            continue
        times = got["seconds"]
        out[entry] = {"playouts": playouts, "decisions": len(times), "median_seconds": round(statistics.median(times), 3),
                      "best_seconds": round(min(times), 3)}
    return out


def jobs(games: int) -> dict:
    one, two = _swdsl("jobs", games, 1), _swdsl("jobs", games, 2)
    if "error" in one or "error" in two:
        return {"error": one.get("error") or two.get("error")}
    return {"games": games, "jobs_1_seconds": round(one["seconds"], 2), "jobs_2_seconds": round(two["seconds"], 2),
            "speedup": round(one["seconds"] / two["seconds"], 2)}


def check_times(pack: str) -> dict:
    """`swdsl check` of every bundled pack in a fresh process with no parser cache (CPU and
    wall seconds), and the best warm load of one pack."""
    import platformdirs

    shutil.rmtree(platformdirs.user_cache_dir("swdsl"), ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "swdsl.cli", "check"], check=False, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    warm = _swdsl("warm", pack)
    return {"all_packs_cold_cpu_seconds": round(cpu, 3), "all_packs_cold_wall_seconds": round(wall, 3),
            "one_pack_warm_seconds": round(warm.get("seconds", float("nan")), 4),
            # PYTHONDONTWRITEBYTECODE set and no .pyc yet: every start compiles the modules from source
            "bytecode_written": not os.environ.get("PYTHONDONTWRITEBYTECODE")}


def machine() -> str:
    model = ""
    try:
        model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{platform.machine()}, {os.cpu_count()} cores{', ' + model if model else ''}"


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packs", default="classic,underground,warcraft")
    ap.add_argument("--players", default="2,5")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--smawg", default=os.environ.get("SWDSL_SMAWG_PYTHON"),
                    help="a Python that can import smawg (default: $SWDSL_SMAWG_PYTHON)")
    ap.add_argument("--baseline", action="append", default=[], metavar="[NAME=]DIR",
                    help="another checkout of swdsl, measured side by side (repeatable)")
    ap.add_argument("--jobs-games", type=int, default=2000)
    ap.add_argument("--skip", default="", help="sections to leave out: features,search,jobs,check")
    ap.add_argument("--out", default=str(HERE / "results" / "latest.json"))
    args = ap.parse_args()
    entries = [e for e in args.packs.split(",") if e]
    skip = set(args.skip.split(","))
    baselines = {name or "baseline": Path(path).resolve()
                 for name, _, path in (b.rpartition("=") for b in args.baseline)}
    result: dict = {"date": date.today().isoformat(), "python": platform.python_version(), "machine": machine(),
                    "load_before": round(os.getloadavg()[0], 2), "measure": "CPU seconds of one process",
                    "peer": f"smawg, side by side ({args.smawg})" if args.smawg else "no peer measured",
                    "baselines": {name: str(path) for name, path in baselines.items()}}
    result["throughput"] = throughput(entries, [int(n) for n in args.players.split(",")], args.games, args.reps,
                                      args.smawg, baselines)
    if "features" not in skip:
        result["features"] = features(args.games, args.reps)
    if "search" not in skip:
        result["search_decision"] = search(entries, 100, 5)
    if "jobs" not in skip:
        result["jobs"] = jobs(args.jobs_games)
    if "check" not in skip:
        result["check"] = check_times(entries[0])
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    if not args.smawg:
        print("no peer measured: give --smawg PYTHON (or SWDSL_SMAWG_PYTHON) to run smawg side by side",
              file=sys.stderr)


if __name__ == "__main__":
    main()
