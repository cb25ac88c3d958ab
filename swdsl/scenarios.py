"""Scenario tests designers write without Python (format: docs/scenarios.md).

A scenario file holds `scenarios:`, each with `given` (a board state at a
player's decision point), `do` (actions, with fixed die rolls, and optional
`expect:` checkpoints) and `expect` (coins, regions, hands, costs, legal and
illegal actions). Failures name the scenario file and line, and show the
expected and the actual value; a conquest cost mismatch is explained.
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import yaml

from swdsl.diagnostics import Diagnostic, Span
from swdsl.engine import pieces, turn
from swdsl.engine.invariants import violations
from swdsl.engine.legal import (
    Action, IllegalAction, ability_users, apply, explain_illegal, held_abilities, legal_actions,
)
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import new_game
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import explain_cost
from swdsl.packs.maps import load_map
from swdsl.packs.yamlnodes import Reader
from swdsl.sim import winner


class LDict(dict):
    """A mapping that remembers the line of each key."""

    lines: dict


class LList(list):
    lines: list


def plain(node, rd: Reader):
    """YAML node → Python values whose mappings and lists remember lines."""
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.lines = {}
        for key, (knode, vnode) in rd.mapping(node, "a mapping").items():
            out[key] = plain(vnode, rd)
            out.lines[key] = knode.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        out = LList(plain(n, rd) for n in node.value)
        out.lines = [n.start_mark.line + 1 for n in node.value]
        return out
    if node.tag.endswith(":int"):
        return int(node.value.replace("_", ""), 0)
    if node.tag.endswith(":bool"):
        return node.value.lower() in ("true", "yes", "on", "y")
    if node.tag.endswith(":null"):
        return None
    return node.value


@attrs.define
class Failure:
    path: str
    line: int
    scenario: str
    message: str


@attrs.define
class Outcome:
    path: str
    name: str
    line: int
    rule: str
    failures: list[Failure]


class ScenarioError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


class _ScriptedDice(random.Random):
    """The game's RNG, except that die rolls come from the scenario's list."""

    def __init__(self, seed: int, die: tuple[int, ...], rolls: list[int]):
        super().__init__(seed)
        self.die, self.rolls = die, list(rolls)

    def choice(self, seq):
        if seq is self.die and self.rolls:
            return self.rolls.pop(0)
        return super().choice(seq)


GIVEN_KEYS = {"players", "map", "boards", "empty_board", "coins", "current", "round", "races", "markers", "dice", "market",
              "market_coins", "phase"}
EXPECT_KEYS = {"coins", "regions", "hand", "races", "cost", "legal", "illegal", "phase", "round", "current",
               "tray", "winner", "market", "market_coins", "stack_bottom"}


def load_file(path: Path, ruleset: Ruleset) -> tuple[list[Outcome], list[Diagnostic]]:
    diags: list[Diagnostic] = []
    rd = Reader(str(path), diags)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [], [Diagnostic(str(path), Span(), "SW400", f"cannot read scenario file: {err}", "save it as UTF-8")]
    root = rd.load(text)
    if root is None:
        return [], diags
    doc = plain(root, rd)
    if diags:
        return [], diags
    if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
        return [], [Diagnostic(str(path), Span(), "SW401", "a scenario file has a `scenarios:` list",
                               "see docs/scenarios.md")]
    outcomes = []
    for i, sc in enumerate(doc["scenarios"]):
        line = doc["scenarios"].lines[i]
        if not isinstance(sc, dict) or "name" not in sc:
            diags.append(Diagnostic(str(path), Span(line, 1, line, 2), "SW402", "a scenario needs a `name:`",
                                    "each scenario is a mapping with name, rule, given, do, expect"))
            continue
        outcomes.append(run_scenario(path, sc, line, ruleset))
    return outcomes, diags


def run_scenario(path: Path, sc: dict, line: int, ruleset: Ruleset) -> Outcome:
    name = str(sc.get("name"))
    out = Outcome(str(path), name, line, str(sc.get("rule", "")), [])
    try:
        game = build(path, sc.get("given") or {}, ruleset, line)
        steps = sc.get("do") or []
        if not isinstance(steps, list):
            raise ScenarioError(line, "`do` must be a list of actions")
        for j, step in enumerate(steps):
            sline = steps.lines[j] if hasattr(steps, "lines") else line
            if isinstance(step, dict) and "expect" in step:
                out.failures += check(path, name, game, step["expect"], sline)
                continue
            action = parse_action(game, str(step), sline)
            try:
                apply(game, action)
            except IllegalAction as err:
                raise ScenarioError(sline, f"action '{step}' is illegal: {err}") from None
            bad = violations(game)
            if bad:
                raise ScenarioError(sline, f"after '{step}' an invariant broke: {bad[0]}")
        if "expect" in sc:
            out.failures += check(path, name, game, sc["expect"], sc.lines.get("expect", line)
                                  if hasattr(sc, "lines") else line)
    except ScenarioError as err:
        out.failures.append(Failure(str(path), err.line, name, str(err)))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
        # a value of the wrong kind somewhere in the scenario's data
        out.failures.append(Failure(str(path), line, name, f"SW403 malformed scenario: {type(err).__name__}: {err} "
                                                            "(see docs/scenarios.md for each key's form)"))
    return out


# ---- given --------------------------------------------------------------------


def _region(game: Game, rid, line: int) -> int:
    r = game.board.by_id.get(str(rid))
    if r is None:
        raise ScenarioError(line, f"no region '{rid}' on map {game.board.name}")
    return r


def _lines(d, key, default):
    return d.lines.get(key, default) if hasattr(d, "lines") else default


def build(path: Path, given: dict, ruleset: Ruleset, line: int) -> Game:
    unknown = set(given) - GIVEN_KEYS
    if unknown:
        raise ScenarioError(line, f"unknown key(s) in given: {', '.join(sorted(unknown))} "
                                  f"(known: {', '.join(sorted(GIVEN_KEYS))})")
    players = int(given.get("players", 2))
    if players not in ruleset.setups:
        raise ScenarioError(line, f"the pack has no setup for {players} players")
    setup = ruleset.setups[players]
    rs = ruleset
    if "map" in given:
        diags: list[Diagnostic] = []
        text = yaml.safe_dump(_unline(given["map"]))
        board, diags = load_map(text, f"{path} (inline map)", rs.terrains, rs.symbols)
        if board is None or any(d.is_error for d in diags):
            raise ScenarioError(_lines(given, "map", line), "inline map: " + "; ".join(d.message for d in diags))
        setup = attrs.evolve(setup, board=board,
                             placements=() if given.get("empty_board", True) else setup.placements)
    elif "boards" in given:
        setup = attrs.evolve(setup, board=_islands(setup, given["boards"], _lines(given, "boards", line)),
                             layout=None, placements=() if given.get("empty_board") else setup.placements)
    elif given.get("empty_board"):
        setup = attrs.evolve(setup, placements=())
    rs = attrs.evolve(ruleset, setups={**ruleset.setups, players: setup})
    game = new_game(rs, players, 0)
    game.rng = _ScriptedDice(0, rs.die, [int(x) for x in given.get("dice", [])])
    if "coins" in given:
        coins = given["coins"]
        for seat, c in enumerate(coins):
            game.bank += game.players[seat].coins - int(c)
            game.players[seat].coins = int(c)
    if "market" in given:
        _set_market(game, given["market"], _lines(given, "market", line))
    if "market_coins" in given:
        _set_market_coins(game, given["market_coins"], _lines(given, "market_coins", line))
    for k, spec in enumerate(given.get("races", [])):
        _place_race(game, spec, given["races"].lines[k] if hasattr(given["races"], "lines") else line)
    for rid, names in (given.get("markers") or {}).items():
        r = _region(game, rid, _lines(given, "markers", line))
        for n in names if isinstance(names, list) else [names]:
            if n not in rs.markers:
                raise ScenarioError(_lines(given, "markers", line), f"unknown marker '{n}'")
            occupant = game.occupant[r]
            pieces.place_marker(game, n, r, occupant if occupant and occupant.player is not None else None)
    seat = int(given.get("current", 1)) - 1
    if not 0 <= seat < players:
        raise ScenarioError(line, f"current player {seat + 1} does not exist")
    game.current = game.actor = seat
    game.round = int(given.get("round", 1))
    p = game.players[seat]
    game.queue = [("defend", None), ("score", None), ("after", None), ("next", None)]
    if p.active is None:
        game.phase, game.acting = "pick", None
        game.queue.insert(0, ("main", None))
        turn.advance(game)
    else:
        game.phase, game.acting = given.get("phase", "conquer"), p.active
    game.actions.clear()
    bad = violations(game)
    if bad:
        raise ScenarioError(line, f"the given state breaks an invariant: {bad[0]}")
    return game


def _islands(setup, names, line: int):
    """The board made of the named faces of the pack's modular boards, islands 1, 2, … in that order."""
    if setup.layout is None:
        raise ScenarioError(line, "`boards` names faces of modular boards, and this setup has a fixed map")
    faces = {face.name: face for _, face in setup.layout.faces}
    if not isinstance(names, list) or not names:
        raise ScenarioError(line, f"`boards` is a list of board faces ({', '.join(sorted(faces))})")
    unknown = [str(n) for n in names if str(n) not in faces]
    if unknown:
        raise ScenarioError(line, f"no board face '{unknown[0]}' (faces: {', '.join(sorted(faces))})")
    return setup.layout.compose(tuple(faces[str(n)] for n in names))


def _unline(v):
    if isinstance(v, dict):
        return {k: _unline(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_unline(x) for x in v]
    return v


def _set_market(game: Game, combos, line: int) -> None:
    m, rs = game.market, game.ruleset
    wanted = []
    for c in combos:
        if not isinstance(c, list) or len(c) != 2 or c[0] not in rs.races or c[1] not in rs.powers:
            raise ScenarioError(line, f"market entries are [Race, Power] pairs of this pack, not {c!r}")
        wanted.append(c)
    column = m.columns[0]  # a scenario's market is the first column's
    for race, power in wanted:
        if race not in column:
            raise ScenarioError(line, f"race '{race}' is not in the first market column")
        column.remove(race)
        (m.powers if power in m.powers else m.discard).remove(power)
    column[:0] = [c[0] for c in wanted]
    m.powers[:0] = [c[1] for c in wanted]


def _set_market_coins(game: Game, coins, line: int) -> None:
    """Coins lying on the visible combos, from the top; they come from the bank."""
    rows = game.market.coins[0]
    if not isinstance(coins, list) or len(coins) > len(rows) or any(not isinstance(c, int) or c < 0
                                                                     for c in coins):
        raise ScenarioError(line, f"market_coins is a list of at most {len(rows)} coin counts, not {coins!r}")
    for i, c in enumerate(coins):
        game.bank += rows[i] - c
        rows[i] = c


def _place_race(game: Game, spec: dict, line: int) -> None:
    rs = game.ruleset
    name = spec.get("race")
    if name not in rs.races:
        raise ScenarioError(line, f"unknown race '{name}'")
    race = rs.races[name]
    if race.neutral:
        inst = game.neutrals.get(name)
        if inst is None:
            inst = RaceInst(game.next_id, race, None, None, declined=True)
            game.next_id += 1
            game.neutrals[name] = game.races[inst.id] = inst
    else:
        seat = int(spec.get("player", 1)) - 1
        if not 0 <= seat < len(game.players):
            raise ScenarioError(line, f"player {seat + 1} does not exist")
        power = spec.get("power")
        if power is not None and power not in rs.powers:
            raise ScenarioError(line, f"unknown power '{power}'")
        column = game.market.columns[rs.column_of(name)]
        if name not in column:
            raise ScenarioError(line, f"race '{name}' is already on the table")
        column.remove(name)
        if power is not None:
            (game.market.powers if power in game.market.powers else game.market.discard).remove(power)
        declined = bool(spec.get("declined", False))
        inst = RaceInst(game.next_id, race, rs.powers[power] if power else None, seat, declined=declined)
        game.next_id += 1
        game.races[inst.id] = inst
        p = game.players[seat]
        if declined:
            p.declined.append(inst)
        elif p.active is not None:
            raise ScenarioError(line, f"player {seat + 1} already has an active race")
        else:
            p.active = inst
        inst.turns = int(spec.get("turns", 2))
        for var, value in (spec.get("vars") or {}).items():
            inst.vars[var] = value
    for rid, n in (spec.get("regions") or {}).items():
        r = _region(game, rid, line)
        old = game.occupant[r]
        if old is not None:
            pieces.to_tray(game, old, game.tokens[r])
            old.regions.discard(r)
        got = pieces.take_from_tray(game, inst, int(n))
        game.occupant[r], game.tokens[r] = inst, got
        inst.regions.add(r)
    inst.hand = pieces.take_from_tray(game, inst, int(spec.get("hand", 0)))


# ---- actions ------------------------------------------------------------------


def parse_action(game: Game, text: str, line: int) -> Action:
    words = text.split()
    if not words:
        raise ScenarioError(line, "empty action")
    kind, args = words[0], words[1:]
    if kind in ("end", "decline", "pass") and not args:
        return Action(kind)
    if kind == "pick" and len(args) == 1 and args[0].isdigit():
        return Action("pick", int(args[0]) - 1)
    if kind in ("conquer", "final", "abandon", "place", "gather") and len(args) == 1:
        return Action(kind, _region(game, args[0], line))
    if kind == "ability" and args:
        offered = _offered_abilities(game)
        matches = [key for key, ab in offered if args[0] in (ab.name, ab.key, key)]
        if not matches:
            have = ", ".join(sorted({ab.name for _, ab in offered}))
            raise ScenarioError(line, f"no ability '{args[0]}' can be offered now (abilities here: {have or 'none'})")
        choices = tuple(int(x[1:]) - 1 if x[:1] == "p" and x[1:].isdigit() else _region(game, x, line)
                        for x in args[1:])
        return Action("ability", matches[0], choices)
    raise ScenarioError(line, f"cannot read action '{text}' (forms: pick N, conquer R, final R, abandon R, "
                              "place R, gather R, ability NAME [R…], end, decline, pass)")


def _offered_abilities(game: Game) -> list:
    """(action key, ability) of every ability the engine could offer the acting
    race now: its own, its relics' and places', the edition rules', and its
    player's other races' (keys `…@race id`)."""
    inst = game.acting
    if inst is None:
        return []
    return [(ab.key + suffix, ab) for user, suffix in ability_users(game, inst)
            for ab in held_abilities(game, user)]


def _action_text(game: Game, a: Action) -> str:
    if a.kind == "pick":
        return f"pick {a.a + 1}"
    if a.kind == "ability":
        name = a.a.split("@", 1)[0].split("/", 1)[1]
        return " ".join(["ability", name] + [game.board.regions[c].id for c in a.b])
    if isinstance(a.a, int):
        return f"{a.kind} {game.board.regions[a.a].id}"
    return a.kind


# ---- expect -------------------------------------------------------------------


def check(path: Path, name: str, game: Game, exp: dict, line: int) -> list[Failure]:
    fails: list[Failure] = []

    def fail(key, message):
        fails.append(Failure(str(path), _lines(exp, key, line), name, message))

    if not isinstance(exp, dict):
        return [Failure(str(path), line, name, "`expect` must be a mapping")]
    unknown = set(exp) - EXPECT_KEYS
    if unknown:
        fail(sorted(unknown)[0], f"unknown expectation(s): {', '.join(sorted(unknown))} "
                                 f"(known: {', '.join(sorted(EXPECT_KEYS))})")
    if "coins" in exp:
        want = [int(c) for c in exp["coins"]]
        if want != game.scores():
            fail("coins", f"coins: expected {want}, got {game.scores()}")
    for rid, want in (exp.get("regions") or {}).items():
        r = game.board.by_id.get(str(rid))
        if r is None:
            fail("regions", f"no region '{rid}'")
            continue
        inst = game.occupant[r]
        got = {"race": inst.race.name if inst else None, "tokens": game.tokens[r],
               "markers": sorted(n for n, _ in game.markers[r]),
               "player": (inst.player + 1) if inst and inst.player is not None else None,
               "declined": bool(inst and inst.declined)}
        if want == "empty":
            if inst is not None:
                fail("regions", f"region {rid}: expected empty, got {got['tokens']} {got['race']}")
            continue
        for key, value in (want or {}).items():
            if key == "markers":
                value = sorted(value)
            if key not in got:
                fail("regions", f"region {rid}: unknown field '{key}' (known: {', '.join(got)})")
            elif got[key] != value:
                fail("regions", f"region {rid}: expected {key} {value!r}, got {got[key]!r}")
    if "hand" in exp:
        got = game.acting.hand if game.acting else 0
        if got != int(exp["hand"]):
            fail("hand", f"hand: expected {exp['hand']}, got {got}")
    for race, want in (exp.get("races") or {}).items():
        insts = [i for i in game.races.values() if i.race.name == race]
        if want == "gone":
            if insts:
                fail("races", f"race {race}: expected gone, it is on the table")
            continue
        if not insts:
            fail("races", f"race {race}: not on the table")
            continue
        inst = insts[0]
        got = {"hand": inst.hand, "declined": inst.declined, "regions": len(inst.regions),
               "power": inst.power.name if inst.power else None, "reserve": inst.reserve,
               "pending": inst.pending, **{f"var {k}": v for k, v in inst.vars.items()}}
        for key, value in (want or {}).items():
            if got.get(key, "—") != value:
                fail("races", f"race {race}: expected {key} {value!r}, got {got.get(key, '—')!r}")
    for rid, want in (exp.get("cost") or {}).items():
        r = game.board.by_id.get(str(rid))
        if r is None or game.acting is None:
            fail("cost", f"cannot compute the cost of region '{rid}' now")
            continue
        why = explain_cost(game, game.acting, r)
        if why.value != int(want):
            fail("cost", f"cost of region {rid}: expected {want}, got {why}")
    legal = legal_actions(game)
    texts = {_action_text(game, a) for a in legal}

    def is_legal(key: str, text: str) -> bool | None:
        """Compare actions, not texts (`ability peace p2` names a player, not region 2);
        None if the text names no possible action (an unknown region…)."""
        words = text.split()
        if words[:1] == ["ability"] and len(words) > 1 and not any(
                words[1] in (ab.name, ab.key, key) for key, ab in _offered_abilities(game)):
            return False  # an ability nothing offers here
        try:
            return parse_action(game, text, line) in legal
        except ScenarioError as err:
            fail(key, str(err))
            return None

    for k, t in enumerate(exp.get("legal") or []):
        if is_legal("legal", str(t)) is False:
            fail("legal", f"expected '{t}' to be legal; legal now: {', '.join(sorted(texts)) or 'nothing'}")
    for item in exp.get("illegal") or []:
        text = item["action"] if isinstance(item, dict) else str(item)
        reason = item.get("reason", "") if isinstance(item, dict) else ""
        got = is_legal("illegal", text)
        if got is None:
            continue
        if got:
            fail("illegal", f"expected '{text}' to be illegal, but it is legal")
            continue
        if reason:
            try:
                why = explain_illegal(game, parse_action(game, text, line))
            except ScenarioError as err:
                why = str(err)
            if reason.lower() not in why.lower():
                fail("illegal", f"'{text}' is illegal, but the reason is \"{why}\", not \"{reason}\"")
    for key, got in (("phase", game.phase), ("round", game.round), ("current", game.current + 1)):
        if key in exp and exp[key] != got:
            fail(key, f"{key}: expected {exp[key]!r}, got {got!r}")
    for race, want in (exp.get("tray") or {}).items():
        if game.tray.get(race) != want:
            fail("tray", f"tray of {race}: expected {want}, got {game.tray.get(race)}")
    if "market" in exp:
        got = [[race, power] for _, _, race, power in game.visible_combos()][: len(exp["market"])]
        if got != [list(c) for c in exp["market"]]:
            fail("market", f"market: expected {exp['market']}, got {got}")
    if "market_coins" in exp:
        got = list(game.market.coins[0][: len(exp["market_coins"])])
        if got != [int(c) for c in exp["market_coins"]]:
            fail("market_coins", f"market_coins: expected {exp['market_coins']}, got {got}")
    if "stack_bottom" in exp:
        want = [str(b) for b in exp["stack_bottom"]]
        queue = game.market.columns[0]
        got = queue[-len(want):] if want else []
        if got != want:
            fail("stack_bottom", f"stack_bottom: expected the banner queue to end with {want}, got {queue}")
    if "winner" in exp:
        if winner(game) + 1 != int(exp["winner"]):
            fail("winner", f"winner: expected player {exp['winner']}, got player {winner(game) + 1}")
    return fails


def scenario_files(pack_dir: Path) -> list[Path]:
    folder = pack_dir / "tests"
    return sorted(p for p in folder.glob("**/*.yaml")) if folder.is_dir() else []
