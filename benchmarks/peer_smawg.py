"""The peer's side of the throughput benchmark: smawg (the Python Small World engine,
classic core turn, no race or power rules) plays random-bot games and replays them,
on its standard map for the player count. Run by bench.py with a Python that has
smawg installed (never vendored here); it imports nothing from swdsl.

    PYTHON_WITH_SMAWG benchmarks/peer_smawg.py PLAYERS GAMES SEED

Prints one JSON line. The bot is swdsl's random bot in smawg's terms: uniform over the
legal actions, at swdsl's granularity (a redeployment places one token per action);
smawg has no list of legal actions, so the bot tries every action and keeps those its
rules accept. Replaying applies the recorded actions through `Game.do`, which checks
each against the rules, with the recorded die rolls.
"""

from __future__ import annotations

import json
import random
import sys
import time
from importlib import metadata, resources

import smawg
from pydantic import TypeAdapter
from smawg import Assets, Game
from smawg.basic_rules import (
    Abandon,
    Conquer,
    ConquerWithDice,
    Decline,
    Deploy,
    EndTurn,
    SelectCombo,
    StartRedeployment,
)


def _candidates(game: Game) -> list:
    regions = range(len(game.regions))
    own = list(game.player.active_regions)
    return ([Decline(), StartRedeployment(), EndTurn()] + [SelectCombo(i) for i in range(len(game.combos))]
            + [Abandon(r) for r in own] + [Conquer(r) for r in regions] + [ConquerWithDice(r) for r in regions]
            + [Deploy(1, r) for r in own])


def _play(assets: Assets, seed: int, index: int) -> tuple[Assets, list, list[int]]:
    shuffled = assets.shuffle(random.Random(seed + index))
    dice = random.Random(seed + index + 1)
    rolls: list[int] = []

    def roll() -> int:
        rolls.append(smawg.roll_dice(dice))
        return rolls[-1]

    game = Game(shuffled, dice_roll_func=roll)
    bot = random.Random(seed + index * 7)
    actions = []
    while not game.has_ended:
        legal = [a for a in _candidates(game) if next(iter(game.rules.check(a)), None) is None]
        action = legal[bot.randrange(len(legal))]
        game.do(action)
        actions.append(action)
    return shuffled, actions, rolls


def main() -> None:
    players, games, seed = (int(x) for x in sys.argv[1:4])
    raw = json.loads((resources.files(smawg) / "assets" / f"standard_{players}_players.json").read_text())
    assets = TypeAdapter(Assets).validate_python(raw)
    start = time.process_time()
    played = [_play(assets, seed, i) for i in range(games)]
    seconds = time.process_time() - start
    actions = sum(len(a) for _, a, _ in played)
    start = time.process_time()
    for shuffled, recorded, rolls in played:
        again = iter(rolls)
        game = Game(shuffled, dice_roll_func=lambda: next(again))
        for action in recorded:
            game.do(action)
    replay_seconds = time.process_time() - start
    print(json.dumps({"engine": "smawg", "version": metadata.version("smawg"), "players": players,
                      "games": games, "actions": actions, "seconds": seconds, "replay_seconds": replay_seconds}))


if __name__ == "__main__":
    main()
