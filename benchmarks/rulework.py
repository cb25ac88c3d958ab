"""How much rule work an action asks for, per pack: the closures the rules are compiled into called,
stat values asked and folds running modifiers, triggers run, abilities offered and checked, conquest
verdicts — counted, not timed, over random games with fixed seeds.

Why: the editions' actions/s are measured against classic's (issues 9, 10, 15: goal 0.7×); the
engine's own work per action is about the same in every pack, the rules' work is not. This says
how much more of it an Underground or Warcraft action asks for, so a ratio can be read for what it
is. Counts are the same on every machine and in both engine builds; they are taken on the pure
Python engine, whose calls a profile function sees (run it where no engine is compiled in place:
`python hatch_build.py --clean`).

    python benchmarks/rulework.py [--packs classic,underground,warcraft] [--players 2,5] [--games 20]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swdsl.bots import RandomBot, play  # noqa: E402
from swdsl.diagnostics import PackError  # noqa: E402
from swdsl.engine import abilities, effects, events, legal, queries, stats  # noqa: E402
from swdsl.engine.setup import new_game  # noqa: E402
from swdsl.lang import closures, compiler  # noqa: E402
from swdsl.packs.loader import load_ruleset  # noqa: E402


def _counted() -> dict:
    """What one call of each function counted is, by its code object."""
    return {
        stats.value.__code__: "stat values asked",
        stats.folded.__code__: "stat folds running modifiers",
        events.run_trigger.__code__: "triggers run",
        abilities._offered.__code__: "ability offers asked",
        abilities._choosing.__code__: "ability choices checked",
        legal.conquest_verdict.__code__: "conquest verdicts",
    }


def _counter(counts: Counter, counted: dict, rules: tuple[str, ...]):
    """A profile function (sys.setprofile) counting the calls of `counted`, and those of every closure
    the rules are compiled into (an expression, a condition, an effect): the code objects are told
    apart, whatever name a module calls a function by."""
    named: dict = {}

    def profile(frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        what = named.get(code)
        if what is None:
            what = named[code] = counted.get(code) or ("rule closures called" if code.co_filename in rules else "")
        if what:
            counts[what] += 1
    return profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packs", default="classic,underground,warcraft")
    ap.add_argument("--players", default="2,5")
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    if not stats.__file__.endswith(".py"):
        sys.exit("rulework.py counts on the pure Python engine: run `python hatch_build.py --clean` first")
    counts: Counter = Counter()
    counted = _counted()
    rules = tuple(str(Path(m.__file__).resolve()) for m in (closures, compiler, queries, effects))  # the rules' compiled parts
    out: dict = {}
    for pack in args.packs.split(","):
        try:
            rs = load_ruleset(pack.split("+"))
        except PackError as e:  # a pack that does not load: its diagnostics, no traceback
            sys.exit(f"rulework.py: {e}")
        for players in map(int, args.players.split(",")):
            counts.clear()
            actions = 0
            for i in range(args.games):
                game = new_game(rs, players, 9000 + i)
                sys.setprofile(_counter(counts, counted, rules))
                try:
                    actions += play(game, [RandomBot(i * 7 + s) for s in range(players)])
                finally:
                    sys.setprofile(None)
            row = {what: round(n / actions, 2) for what, n in sorted(counts.items())}
            out.setdefault(pack, {})[players] = row
            print(f"  {pack} {players}p, per action: " + "; ".join(f"{k} {v}" for k, v in row.items()), file=sys.stderr)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
