"""The semantic fuzzer's loop, shared by tests/fuzz/test_semantic.py and benchmarks/soak.py.

Each seed's generated pack (packgen.py) is loaded and, without errors, played
under the guards of harness.py; each failure is classified against the
regression cases (known.py): counted under its case while that case is open,
else returned as new (or as a regression of a case marked fixed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .harness import Failure, run_pack
from .known import SEMANTIC, Known, classify
from .packgen import Pack, generate

KINDS = {"crash": "crashes", "loader": "loader exceptions", "violation": "invariant violations", "hang": "hangs",
         "cap": "games cut off by the action cap"}


def fuzz_packs(seeds: Iterable[int], games: int, bots: str = "mixed") -> tuple[Counter, list[tuple[Failure, Pack, Known | None]]]:
    """Generate and play the packs of `seeds`, `games` games per player count (random and greedy
    bots in turn, or the lab's: `bots`): (counts, the failures no open case records, each with its
    pack and the entry it matched, if any)."""
    stats: Counter = Counter()
    unknown = []
    for seed in seeds:
        pack, _ = generate(seed)
        res = run_pack(pack, games, bots=bots)
        stats["packs"] += 1
        stats["packs refused by check"] += bool(res.errors)
        stats["games"] += res.games
        stats["actions"] += res.actions
        stats["stopped by content (SW5xx)"] += res.stopped
        text = "\n".join(pack.files().values())
        for f in res.failures:
            stats[KINDS[f.kind]] += 1
            known = classify(f"{f.kind}: {f.message} @ {f.where}", SEMANTIC, text, tuple(res.warnings))
            if known is not None and known.status == "open":
                stats[f"known: {known.case}"] += 1
            else:
                unknown.append((f, pack, known))
    return stats, unknown
