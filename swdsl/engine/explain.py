"""Why a stat has its value: the same fold as the engine's (stats.py), every step recorded, for
scenarios' expectations and the lab's narration."""

from __future__ import annotations

from typing import Any

import attrs

from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import conquest_cost, value


@attrs.frozen
class Explanation:
    stat: str
    value: Any
    steps: tuple[tuple, ...]

    def __str__(self) -> str:
        parts = []
        for source, op, v, _before, _after in self.steps:
            if source in ("floor", "cap"):
                parts.append(f", {source} {v}")
            elif op == "set":
                parts.append(f"{source} {v}" if not parts else f"{source} sets {v}")
            elif op == "times":
                parts.append(f"×{v} {source}")
            elif op in ("at least", "at most"):
                parts.append(f", {op} {v} {source}")
            else:
                parts.append(f"{'+' if v >= 0 else '-'}{abs(v)} {source}")
        return f"{self.stat} {self.value} = " + " ".join(parts).replace(" ,", ",")


def explain(game: Game, stat: str, inst: RaceInst, **bindings) -> Explanation:
    """Why a stat has its value: the base and every modifier that applied."""
    steps: list = []
    if stat == "conquest.cost":
        result = conquest_cost(game, inst, bindings["target"], steps)
    else:
        result = value(game, stat, inst, steps, **bindings)
    return Explanation(stat, result, tuple(steps))
