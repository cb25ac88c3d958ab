"""Scenario tests designers write without Python (format: docs/scenarios.md).

A scenario file holds `scenarios:`, each with `given` (a board state at a
player's decision point), `do` (actions, with fixed die rolls, and optional
`expect:` checkpoints) and `expect` (coins, regions, hands, costs, legal and
illegal actions). Failures name the scenario file and line, and show the
expected and the actual value; a conquest cost mismatch is explained.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import attrs
import yaml

from swdsl.diagnostics import Diagnostic, Span
from swdsl.engine.errors import ContentError, engine_bug
from swdsl.engine.invariants import violations
from swdsl.engine.legal import (
    Action,
    IllegalAction,
    ability_users,
    apply,
    explain_illegal,
    held_abilities,
    legal_actions,
)
from swdsl.engine.outcome import winner
from swdsl.engine.position import Position, PositionError
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.state import Game
from swdsl.engine.stats import explain
from swdsl.files import read_text
from swdsl.packs.maps import load_map
from swdsl.packs.yamlnodes import Reader


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
        return rd.integer(node, "a number", minimum=-(10**9))
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


GIVEN_KEYS = {"players", "map", "boards", "empty_board", "coins", "current", "round", "races", "markers", "dice",
              "draws", "market", "market_coins", "phase"}
EXPECT_KEYS = {"coins", "regions", "hand", "races", "cost", "legal", "illegal", "phase", "round", "current",
               "tray", "winner", "market", "market_coins", "stack_bottom", "pools", "hidden", "players"}


def read_file(path: Path) -> tuple[list[tuple[int, dict]], list[Diagnostic]]:
    """The scenarios of a file, each with its line, and the problems of the file itself."""
    diags: list[Diagnostic] = []
    rd = Reader(str(path), diags)
    text = read_text(path, diags)
    if text is None:
        return [], diags
    root = rd.load(text)
    if root is None:
        return [], diags
    doc = plain(root, rd)
    if diags:
        return [], diags
    if not isinstance(doc, dict) or not isinstance(doc.get("scenarios"), list):
        return [], [Diagnostic(str(path), Span(), "SW401", "a scenario file has a `scenarios:` list",
                               "see docs/scenarios.md")]
    found = []
    for i, sc in enumerate(doc["scenarios"]):
        line = doc["scenarios"].lines[i]
        if not isinstance(sc, dict) or "name" not in sc:
            diags.append(Diagnostic(str(path), Span(line, 1, line, 2), "SW402", "a scenario needs a `name:`",
                                    "each scenario is a mapping with name, rule, given, do, expect"))
            continue
        found.append((line, sc))
    return found, diags


def load_file(path: Path, ruleset: Ruleset) -> tuple[list[Outcome], list[Diagnostic]]:
    """Run every scenario of a file."""
    found, diags = read_file(path)
    return [run_scenario(path, sc, line, ruleset) for line, sc in found], diags


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
            except ContentError as err:
                raise ScenarioError(sline, f"after '{step}' the game stopped: {err.where}: {err.code} {err.message}"
                                    ) from None
            except Exception as err:  # noqa: BLE001 - an engine bug must be reported, not crash the run
                raise ScenarioError(sline, engine_bug(err, f"action '{step}'")) from None
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
    board, pieces_too = setup.board, not given.get("empty_board")
    if "map" in given:
        text = yaml.safe_dump(_unline(given["map"]))
        board, diags = load_map(text, f"{path} (inline map)", ruleset.terrains, ruleset.symbols)
        if board is None or any(d.is_error for d in diags):
            raise ScenarioError(_lines(given, "map", line), "inline map: " + "; ".join(d.message for d in diags))
        pieces_too = given.get("empty_board") is False
    elif "boards" in given:
        board = _islands(setup, given["boards"], _lines(given, "boards", line))
    at = line
    try:
        pos = Position(ruleset, players, board=board, setup_pieces=pieces_too)
        pos.script("die", [int(x) for x in given.get("dice", [])])
        at = _lines(given, "draws", line)
        for pool, names in (given.get("draws") or {}).items():
            if pool not in ruleset.setups[players].pools:
                raise ScenarioError(at, f"no hidden pool '{pool}' (pools: {', '.join(ruleset.setups[players].pools)})")
            pos.script(str(pool), [str(n) for n in (names if isinstance(names, list) else [names])])
        at = line
        for seat, c in enumerate(given.get("coins", [])):
            pos.coins(seat, int(c))
        if "market" in given:
            at = _lines(given, "market", line)
            combos = given["market"]
            if not all(isinstance(c, list) and len(c) == 2 for c in combos):
                raise ScenarioError(at, f"market entries are [Race, Power] pairs of this pack, not {combos!r}")
            pos.market([(str(r), str(p)) for r, p in combos])
        if "market_coins" in given:
            at = _lines(given, "market_coins", line)
            coins = given["market_coins"]
            if not isinstance(coins, list) or not all(isinstance(c, int) for c in coins):
                raise ScenarioError(at, f"market_coins is a list of coin counts, not {coins!r}")
            pos.market_coins(coins)
        game = pos.game
        for k, spec in enumerate(given.get("races", [])):
            at = given["races"].lines[k] if hasattr(given["races"], "lines") else line
            regions = {_region(game, rid, at): int(n) for rid, n in (spec.get("regions") or {}).items()}
            pos.race(spec.get("race"), int(spec.get("player", 1)) - 1, spec.get("power"),
                     declined=bool(spec.get("declined", False)), regions=regions, hand=int(spec.get("hand", 0)),
                     turns=int(spec.get("turns", 2)), variables=dict(spec.get("vars") or {}))
        at = _lines(given, "markers", line)
        for rid, names in (given.get("markers") or {}).items():
            r = _region(game, rid, at)
            for n in names if isinstance(names, list) else [names]:
                pos.marker(r, n)
        at = line
        game = pos.start(int(given.get("current", 1)) - 1, int(given.get("round", 1)), given.get("phase", "conquer"))
    except PositionError as err:
        raise ScenarioError(at, str(err)) from None
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


# ---- actions ------------------------------------------------------------------


def parse_action(game: Game, text: str, line: int) -> Action:
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ScenarioError(line, f"cannot read action '{text}': {err}") from None
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
        matches = [(key, ab) for key, ab in offered if args[0] in (ab.name, ab.key, key)]
        if not matches:
            have = ", ".join(sorted({ab.name for _, ab in offered}))
            raise ScenarioError(line, f"no ability '{args[0]}' can be offered now (abilities here: {have or 'none'})")
        key, ab = matches[0]
        if len(args) - 1 != len(ab.choose):
            raise ScenarioError(line, f"ability '{args[0]}' chooses {len(ab.choose)} thing(s): "
                                      + " ".join(c.kind for c in ab.choose) or "nothing")
        return Action("ability", key, tuple(_choice(game, c.kind, x, line) for c, x in zip(ab.choose, args[1:])))
    raise ScenarioError(line, f"cannot read action '{text}' (forms: pick N, conquer R, final R, abandon R, "
                              "place R, gather R, ability NAME [R | pN | POWER …], end, decline, pass)")


def _choice(game: Game, kind: str, word: str, line: int):
    """An ability's choice as written: a region id, a player `p2`, or a power name."""
    if kind == "player":
        if word[:1] == "p" and word[1:].isdigit() and 1 <= int(word[1:]) <= len(game.players):
            return int(word[1:]) - 1
        raise ScenarioError(line, f"'{word}' is not a player (write p1, p2, …)")
    if kind == "power":
        if word not in game.ruleset.powers:
            raise ScenarioError(line, f"unknown power '{word}'")
        return word
    return _region(game, word, line)


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
        return f"pick {a.a + 1}"  # type: ignore[operator]
    if a.kind == "ability":
        key = str(a.a).split("@", 1)[0]
        ab = next((ab for k, ab in _offered_abilities(game) if k == a.a), None)
        kinds = [c.kind for c in ab.choose] if ab else ["region"] * len(a.b)  # type: ignore[arg-type]
        words = [f"p{c + 1}" if k == "player" else shlex.quote(c) if k == "power" else game.board.regions[c].id
                 for k, c in zip(kinds, a.b)]  # type: ignore[arg-type]
        return " ".join(["ability", key.split("/", 1)[1]] + words)
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
        why = explain(game, "conquest.cost", game.acting, target=r)
        if why.value != int(want):
            fail("cost", f"cost of region {rid}: expected {want}, got {why}")
    legal = legal_actions(game)
    texts = {_action_text(game, a) for a in legal}

    def is_legal(key: str, text: str) -> bool | None:
        """Compare actions, not texts (`ability peace p2` names a player, not region 2);
        None if the text names no possible action (an unknown region…)."""
        words = text.split()
        if words[:1] == ["ability"] and len(words) > 1:
            names = {k for k, ab in _offered_abilities(game) if words[1] in (ab.name, ab.key, k)}
            if len(words) == 2 or not names:  # any use of that ability (none if nothing offers it)
                return any(a.kind == "ability" and a.a in names for a in legal)
        try:
            return parse_action(game, text, line) in legal
        except ScenarioError as err:
            fail(key, str(err))
            return None

    for t in exp.get("legal") or []:
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
    for key, got in (("phase", game.turn.phase), ("round", game.round), ("current", game.current + 1)):
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
    for name, want in (exp.get("pools") or {}).items():
        if game.pools.get(name) != want:
            fail("pools", f"pieces of {name} left in the box: expected {want}, got {game.pools.get(name)}")
    for name, want in (exp.get("hidden") or {}).items():
        got = len(game.hidden.get(name, []))
        if got != want:
            fail("hidden", f"markers left in the hidden pool {name}: expected {want}, got {got}")
    for seat, want in (exp.get("players") or {}).items():
        if not isinstance(seat, int) or not 1 <= seat <= len(game.players):
            fail("players", f"no player {seat}")
            continue
        got = {"markers": sorted(n for n, _ in game.players[seat - 1].markers)}
        for key, value in (want or {}).items():
            if key not in got:
                fail("players", f"player {seat}: unknown field '{key}' (known: {', '.join(got)})")
            elif got[key] != sorted(value):
                fail("players", f"player {seat}: expected {key} {sorted(value)!r}, got {got[key]!r}")
    if "winner" in exp:
        if winner(game) + 1 != int(exp["winner"]):
            fail("winner", f"winner: expected player {exp['winner']}, got player {winner(game) + 1}")
    return fails


def scenario_files(pack_dir: Path) -> list[Path]:
    folder = pack_dir / "tests"
    return sorted(p for p in folder.glob("**/*.yaml")) if folder.is_dir() else []
