"""Reproduce what a fuzz test reported, as files you can run the tools on.

    python -m tests.fuzz.repro pack SEED OUT [--shrink]   # the generated pack of SEED, played as the test plays it
    python -m tests.fuzz.repro mutation KIND N OUT        # the seed pack with mutation N of KIND applied
    python -m tests.fuzz.repro scenario N OUT             # the seed pack with written scenario N

KIND is pack.yaml, map, rules, scenario or "saved game" (then OUT/game.json is
the same mutation of a save of the same game; the save names its pack by path,
so its bytes, and a byte-level mutation's effect, may differ slightly). With
--shrink, the pack is cut down while its first failure persists. Then: `swdsl
check OUT`, `swdsl test OUT`, `swdsl simulate --pack OUT --check-invariants`,
`swdsl replay OUT/game.json`.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

from .harness import run_cli, run_pack, shrink
from .mutate import SEED, SEED_FILES, mutate_file, random_scenarios
from .packgen import generate


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pack")
    p.add_argument("seed", type=int)
    p.add_argument("out", type=Path)
    p.add_argument("--shrink", action="store_true")
    m = sub.add_parser("mutation")
    m.add_argument("kind", choices=[*SEED_FILES, "saved game"])
    m.add_argument("n", type=int)
    m.add_argument("out", type=Path)
    s = sub.add_parser("scenario")
    s.add_argument("n", type=int)
    s.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    if args.what == "pack":
        pack, _ = generate(args.seed)
        res = run_pack(pack, 1, bots="mixed")
        for f in res.failures:
            print(f.describe(), file=sys.stderr)
        if args.shrink and res.failures:
            pack = shrink(pack, res.failures[0], 1, budget=120.0, bots="mixed")
        pack.write(args.out)
    else:
        shutil.copytree(SEED, args.out)
        if args.what == "scenario":
            (args.out / SEED_FILES["scenario"]).write_bytes(random_scenarios(random.Random(f"written scenario-{args.n}")))
        elif args.kind == "saved game":  # as the test's fixture writes it, then mutated
            run_cli(["simulate", "--pack", str(args.out), "--games", "1", "--seed", "3", "--save-dir",
                     str(args.out / "saves")])
            (game,) = (args.out / "saves").glob("*.json")
            data = mutate_file(game.read_bytes(), "json", random.Random(f"saved game-{args.n}"))
            (args.out / "game.json").write_bytes(data)
        else:
            target = args.out / SEED_FILES[args.kind]
            fmt = "rules" if args.kind == "rules" else "yaml"
            target.write_bytes(mutate_file(target.read_bytes(), fmt, random.Random(f"{args.kind}-{args.n}")))
    print(args.out)


if __name__ == "__main__":
    main()
