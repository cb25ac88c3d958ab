"""The balance report: from the games of a run to what a designer asks of them.

Per race, per power and per combo: times offered and picked (and the pick rate
at each market position), games played, win rate with its 95% Wilson
interval, coins and regions per turn while active, turns active, declines. Per
seat: win rate (first-player advantage). Game length, winning margin, when races
decline, and the outliers: items whose interval excludes the fair share
(1 / players). A combo picked is one "game" of its race, its power and itself:
it won if its player won (ties go by the engine's tie-break).

The report is plain data (JSON-able); lab/render.py and lab/html.py show it.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from swdsl.lab.intervals import wilson
from swdsl.sim import Run

MIN_GAMES = 10  # fewer games than this never make an outlier


class _Tally:
    def __init__(self, positions: int):
        self.offered = [0] * positions
        self.picked = [0] * positions
        self.games = self.wins = self.turns = self.coins = self.regions = self.declined = 0
        self.decline_turns: list[int] = []

    def row(self, name: str, fair: float) -> dict:
        low, high = wilson(self.wins, self.games)
        offered, picked = sum(self.offered), sum(self.picked)
        return {
            "name": name, "offered": offered, "picked": picked,
            "pick_rate": _rate(picked, offered),
            "by_position": [{"offered": o, "picked": p, "pick_rate": _rate(p, o)}
                            for o, p in zip(self.offered, self.picked)],
            "games": self.games, "wins": self.wins, "win_rate": _rate(self.wins, self.games),
            "low": round(low, 4), "high": round(high, 4),
            "coins_per_turn": _mean(self.coins, self.turns), "regions_per_turn": _mean(self.regions, self.turns),
            "turns_active": _mean(self.turns, self.games), "declined": self.declined,
            "turns_before_decline": _mean(sum(self.decline_turns), len(self.decline_turns)),
            "outlier": _outlier(self.games, low, high, fair),
        }


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _mean(total: float, n: int) -> float | None:
    return round(total / n, 3) if n else None


def _outlier(n: int, low: float, high: float, fair: float) -> str | None:
    if n < MIN_GAMES:
        return None
    return "strong" if low > fair else "weak" if high < fair else None


def report(run: Run) -> dict:
    """Only finished games are measured; the others are counted under `integrity`."""
    job, every = run.job, run.results
    results = [r for r in every if r.finished and r.error is None]
    players = job.players
    fair = 1 / players
    positions = max((row + 1 for r in results for o in r.offers for _, _, row in o.combos), default=0)
    tallies: dict[str, dict[str, _Tally]] = {"races": {}, "powers": {}, "combos": {}}

    def tally(kind: str, name: str) -> _Tally:
        t = tallies[kind].get(name)
        if t is None:
            t = tallies[kind][name] = _Tally(positions)
        return t

    seat_wins = [0] * players
    declines: dict[int, int] = {}
    for r in results:
        seat_wins[r.winner] += 1
        for offer in r.offers:
            for k, (race, power, row) in enumerate(offer.combos):
                for kind, name in _names(race, power):
                    t = tally(kind, name)
                    t.offered[row] += 1
                    t.picked[row] += k == offer.taken
        for app in r.appearances:
            won = app.seat == r.winner
            if app.declined is not None:
                declines[app.declined] = declines.get(app.declined, 0) + 1
            for kind, name in _names(app.race, app.power):
                t = tally(kind, name)
                t.games += 1
                t.wins += won
                t.turns += app.turns
                t.coins += app.coins
                t.regions += app.regions
                if app.declined is not None:
                    t.declined += 1
                    t.decline_turns.append(app.turns)
    sections = {kind: sorted((t.row(name, fair) for name, t in ts.items()), key=lambda x: x["name"])
                for kind, ts in tallies.items()}
    seats: list[dict[str, Any]] = []
    for s in range(players):
        low, high = wilson(seat_wins[s], len(results))
        seats.append({"seat": s + 1, "games": len(results), "wins": seat_wins[s],
                      "win_rate": _rate(seat_wins[s], len(results)), "low": round(low, 4), "high": round(high, 4),
                      "mean_score": _mean(sum(r.scores[s] for r in results), len(results)),
                      "outlier": _outlier(len(results), low, high, fair)})
    rates = [x["win_rate"] for x in seats if x["win_rate"] is not None]
    picks = [sum(t.picked[k] for t in tallies["races"].values()) for k in range(positions)]
    return {
        "packs": list(job.packs), "players": players, "bots": list(job.bots), "seed": job.seed,
        "games": len(results), "partial": run.partial, "seconds": round(run.seconds, 3), "fair_share": round(fair, 4),
        "races": sections["races"], "powers": sections["powers"], "combos": sections["combos"], "seats": seats,
        "seat_balance": round(1 - (max(rates) - min(rates)), 4) if rates else None,
        "market": {"picks_by_position": picks},
        "length": _spread([r.actions for r in results]),
        "margin": _spread([_margin(r.scores) for r in results]),
        "declines_by_round": {str(k): v for k, v in sorted(declines.items())},
        "outliers": [{"kind": kind[:-1], **{k: row[k] for k in ("name", "games", "win_rate", "low", "high",
                                                                  "outlier")}}
                     for kind in ("races", "powers", "combos", "seats") for row in
                     (sections[kind] if kind != "seats" else [dict(x, name=f"seat {x['seat']}") for x in seats])
                     if row["outlier"]],
        "integrity": {"games_without_conquest": sum(r.conquests == 0 for r in results),
                      "unfinished": sum(not r.finished and r.error is None for r in every),
                      "errors": [f"game {r.index}: {r.error}" for r in every if r.error]},
    }


def _names(race: str, power: str) -> Iterable[tuple[str, str]]:
    return (("races", race), ("powers", power), ("combos", f"{power} {race}"))


def _margin(scores: tuple[int, ...]) -> int:
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else top[0]


def _spread(values: list[int]) -> dict:
    if not values:
        return {"mean": None, "median": None, "min": None, "max": None}
    return {"mean": round(statistics.fmean(values), 2), "median": statistics.median(values),
            "min": min(values), "max": max(values)}
