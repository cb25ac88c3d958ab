"""Bots by name, as the command line gives them: `random`, `greedy`, `heuristic`,
`search` or `search:N` (N playouts per decision: the strength knob). A list
separated by commas gives each seat its own bot; one name serves every seat."""

from __future__ import annotations

from collections.abc import Callable

from swdsl.bots import GreedyBot, RandomBot
from swdsl.lab.heuristic import HeuristicBot
from swdsl.lab.search import DEFAULT_PLAYOUTS, SearchBot

NAMES = ("random", "greedy", "heuristic", "search")
MAX_PLAYOUTS = 100_000


def maker(spec: str) -> Callable[[int], object]:
    """A function of a seed that builds the bot `spec` names; ValueError says what is wrong."""
    name, _, knob = spec.strip().partition(":")
    if name not in NAMES:
        raise ValueError(f"unknown bot '{name}' (bots: {', '.join(NAMES)})")
    if knob and name != "search":
        raise ValueError(f"bot '{name}' takes no strength (only search:N does)")
    if name == "search":
        playouts = DEFAULT_PLAYOUTS
        if knob:
            if not knob.isdigit() or not 1 <= int(knob) <= MAX_PLAYOUTS:
                raise ValueError(f"search:{knob}: the strength is a number of playouts from 1 to {MAX_PLAYOUTS}")
            playouts = int(knob)
        return lambda seed: SearchBot(seed, playouts)
    return {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot}[name]


def seat_specs(text: str, players: int) -> tuple[str, ...]:
    """One bot spec per seat from `text` (one spec for all, or one per seat)."""
    specs = tuple(s.strip() for s in text.split(","))
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"{len(specs)} bots for {players} players: give one bot, or one per seat")
    for s in specs:
        maker(s)
    return specs


def seat_bots(specs: tuple[str, ...], seed: int) -> list:
    """The bots of one game: seat s seeded from the game's seed and s."""
    return [maker(spec)(seed + 1 + seat) for seat, spec in enumerate(specs)]
