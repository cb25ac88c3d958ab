"""The game state is complete and cloneable (engine issue: "A complete, cloneable state")."""

import pytest

from swdsl.bots import RandomBot, play
from swdsl.engine.legal import apply_legal, legal_actions
from swdsl.engine.replay import checksum, snapshot
from swdsl.engine.setup import new_game
from swdsl.engine.state import Conquest, Decision


def _midgame(ruleset, players, seed, steps):
    game = new_game(ruleset, players, seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if game.over:
            break
        apply_legal(game, bot.choose(game, legal_actions(game)))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_playing_on_a_clone_leaves_the_original_unchanged(classic, seed):
    game = _midgame(classic, 3, seed, 150)
    before = checksum(game)
    copy = game.clone()
    assert checksum(copy) == before
    assert copy.ruleset is game.ruleset and copy.board is game.board  # shared, never copied
    play(copy, [RandomBot(seed + s) for s in range(3)])
    assert copy.over and checksum(game) == before
    # and the original plays on exactly as it would have without the clone
    again = _midgame(classic, 3, seed, 150)
    play(game, [RandomBot(seed + s) for s in range(3)])
    play(again, [RandomBot(seed + s) for s in range(3)])
    assert checksum(game) == checksum(again)


def test_a_clone_plays_the_same_game_as_its_original(classic):
    game = _midgame(classic, 4, 11, 200)
    copy = game.clone()
    bots_a = [RandomBot(7 + s) for s in range(4)]
    bots_b = [RandomBot(7 + s) for s in range(4)]
    play(game, bots_a)
    play(copy, bots_b)
    assert checksum(game) == checksum(copy) and game.actions == copy.actions


def _fields(game):
    """One change to each part of the state, in turn."""
    inst = next(iter(game.races.values()))
    t = game.turn
    return {
        "round": lambda: setattr(game, "round", game.round + 1),
        "won by": lambda: setattr(game, "won_by", 1),
        "current": lambda: setattr(game, "current", (game.current + 1) % len(game.players)),
        "bank": lambda: setattr(game, "bank", game.bank - 1),
        "next_id": lambda: setattr(game, "next_id", game.next_id + 1),
        "coins": lambda: setattr(game.players[0], "coins", game.players[0].coins + 1),
        "player markers": lambda: game.players[0].markers.append(("x", None)),
        "tokens": lambda: game.tokens.__setitem__(0, game.tokens[0] + 1),
        "occupant": lambda: game.occupant.__setitem__(0, None if game.occupant[0] else inst),
        "races": lambda: game.races.pop(inst.id),
        "markers": lambda: game.markers[0].append(("x", None, 0)),
        "strength": lambda: game.markers[0].append(("x", None, 1)),
        "face down": lambda: game.face_down.setdefault(0, []).append("x"),
        "player vars": lambda: game.players[0].vars.__setitem__("v", 1),
        "player active": lambda: setattr(game.players[0], "active", None if game.players[0].active else inst),
        "player declined": lambda: game.players[0].declined.append(inst),
        "race hand": lambda: setattr(inst, "hand", inst.hand + 1),
        "race reserve": lambda: setattr(inst, "reserve", inst.reserve + 1),
        "race pending": lambda: setattr(inst, "pending", inst.pending + 1),
        "race turns": lambda: setattr(inst, "turns", inst.turns + 1),
        "race declined": lambda: setattr(inst, "declined", not inst.declined),
        "race vars": lambda: inst.vars.__setitem__("v", 1),
        "race lost": lambda: inst.lost.add(0),
        "race troops": lambda: inst.troops.__setitem__("x", 1),
        "race tags": lambda: inst.turn_tags.add("x"),
        "market": lambda: game.market.powers.reverse(),
        "market coins": lambda: game.market.coins[0].__setitem__(0, game.market.coins[0][0] + 1),
        "discards": lambda: game.market.discard.append("x"),
        "tray": lambda: game.tray.__setitem__(inst.race.name, game.tray[inst.race.name] + 1),
        "pools": lambda: game.pools.__setitem__("x", 1),
        "destroyed": lambda: game.destroyed.__setitem__(inst.race.name, 1),
        "hidden": lambda: game.hidden.__setitem__("x", ["y"]),
        "uses": lambda: game.uses.__setitem__((1, "x"), 1),
        "bound powers": lambda: game.bound_powers.__setitem__(0, ["x"]),
        "worn": lambda: game.worn.__setitem__("x", "y"),
        "game vars": lambda: game.vars.__setitem__("v", 1),
        "runs": lambda: setattr(t, "runs", t.runs + 1),
        "script": lambda: game.script.__setitem__("die", [1]),
        "rng": lambda: game.rng.random(),
        "phase": lambda: setattr(t, "phase", "after"),
        "actor": lambda: setattr(t, "actor", t.actor + 1),
        "acting": lambda: setattr(t, "acting", None if t.acting else inst),
        "queue": lambda: t.queue.append(("next", None)),
        "log": lambda: t.log.append(Conquest(0, 1, None, None, False, False)),
        "gone": lambda: t.gone.__setitem__(inst.id, inst),
        "turn uses": lambda: t.uses.__setitem__((1, "x"), 1),
        "die": lambda: setattr(t, "die", t.die + 1),
        "conquered": lambda: setattr(t, "conquered", not t.conquered),
        "abandoned": lambda: setattr(t, "abandoned", not t.abandoned),
        "picked": lambda: setattr(t, "picked", not t.picked),
        "starting": lambda: setattr(t, "starting", not t.starting),
        "revealed": lambda: t.revealed.append("x"),
        "declined": lambda: setattr(t, "declined", not t.declined),
        "gathered": lambda: t.gathered.add(0),
        "placed": lambda: t.placed.add(0),
        "readied": lambda: t.readied.__setitem__(0, 1),
        "returning": lambda: t.returning.append(("x", 1, 0)),
        "depth": lambda: setattr(t, "depth", t.depth + 1),
        "decisions": lambda: t.decisions.append(Decision(_any_trigger(game), inst, {"target": 0})),
        "resume": lambda: setattr(t, "resume", "queue"),
        "resumed": lambda: t.resumed.add(1),
    }


def _any_trigger(game):
    return next(t for c in game.ruleset.races.values() for ts in c.triggers.values() for t in ts)


def test_the_checksum_covers_every_field_of_the_state(classic):
    names = list(_fields(_midgame(classic, 2, 3, 60)))
    for name in names:
        game = _midgame(classic, 2, 3, 60)
        before = checksum(game)
        _fields(game)[name]()
        assert checksum(game) != before, f"the checksum does not see {name}"


def test_a_clone_copies_every_field_of_the_state(classic):
    """Each change above survives a clone: a search bot plays ahead on the game as it is (a field that
    `clone` forgot would be its default on the copy)."""
    for name in _fields(_midgame(classic, 2, 3, 60)):
        game = _midgame(classic, 2, 3, 60)
        _fields(game)[name]()
        assert checksum(game.clone()) == checksum(game), f"a clone loses {name}"


# every field of the state, and the change above that shows the checksum sees it
COVERED = {
    "Game": {"round": "round", "current": "current", "bank": "bank", "next_id": "next_id", "players": "coins",
             "market": "market", "tray": "tray", "destroyed": "destroyed", "pools": "pools", "hidden": "hidden",
             "occupant": "occupant", "tokens": "tokens", "markers": "markers", "races": "races", "neutrals": "races",
             "uses": "uses", "bound_powers": "bound powers", "worn": "worn", "vars": "game vars",
             "face_down": "face down", "script": "script", "rng": "rng", "turn": "phase", "won_by": "won by"},
    "Player": {"coins": "coins", "active": "player active", "declined": "player declined",
               "markers": "player markers", "vars": "player vars"},
    "TurnState": {"phase": "phase", "actor": "actor", "acting": "acting", "queue": "queue", "log": "log",
                  "gone": "gone", "uses": "turn uses", "die": "die", "conquered": "conquered",
                  "abandoned": "abandoned", "picked": "picked", "starting": "starting", "revealed": "revealed",
                  "declined": "declined", "gathered": "gathered",
                  "placed": "placed", "readied": "readied", "returning": "returning", "depth": "depth",
                  "runs": "runs", "resumed": "resumed", "decisions": "decisions", "resume": "resume"},
    "RaceInst": {"declined": "race declined", "hand": "race hand", "reserve": "race reserve",
                 "pending": "race pending", "turns": "race turns", "vars": "race vars", "lost": "race lost",
                 "troops": "race troops", "turn_tags": "race tags", "regions": "occupant"},
}
# what is not state: the game's definition (shared or replayed from), identity, and derived caches
NOT_STATE = {"Game": {"ruleset", "index", "setup", "board", "seed", "actions", "ledger", "cause", "reading_adjacency",
                      "reading_links", "where", "folding", "kept"}, "Player": {"seat"},
             "TurnState": {"undo"},  # set only while a conquest's own triggers run
             "RaceInst": {"id", "race", "power", "player", "mods", "triggers", "abilities", "tags", "turn_vars", "fold_cache",
                          "holding", "ordered"}}


def test_every_field_of_the_state_is_covered_by_a_change(classic):
    from swdsl.engine.content import Content
    from swdsl.engine.state import RaceInst

    game = _midgame(classic, 2, 3, 60)
    for made in (game, game.turn, RaceInst(0, Content("race", "Elves"), None, None), game.players[0]):
        cls = type(made)  # a plain class: what its __init__ sets, as compiled (mypyc) or not
        fields = set(getattr(cls, "__mypyc_attrs__", ()) or vars(made))
        assert fields == set(COVERED[cls.__name__]) | NOT_STATE[cls.__name__], cls.__name__


def test_a_move_of_tokens_between_races_changes_the_checksum(classic):
    game = _midgame(classic, 2, 3, 60)
    before = checksum(game)
    r = next(r for r, inst in enumerate(game.occupant) if inst is not None)
    game.occupant[r] = None
    assert checksum(game) != before
    assert set(snapshot(game)) >= {"players", "regions", "races", "market", "turn"}
