"""Expectations of a scenario (`expect:`): what must hold at that moment, each
failure said as expected against got, at the key it was written under; a wrong
conquest cost is explained step by step, and wrong coins by where they came from."""

from __future__ import annotations

from pathlib import Path

from swdsl.diagnostics import Span
from swdsl.engine.explain import explain
from swdsl.engine.legal import explain_illegal, legal_actions
from swdsl.engine.outcome import team_scores, team_standing, team_winners, winner
from swdsl.engine.state import Game
from swdsl.scenarios.actions import Failure, ScenarioError, action_text, offered_abilities, parse_action
from swdsl.scenarios.document import Mapping


def check(path: Path, name: str, game: Game, exp: Mapping, at: Span) -> list[Failure]:
    """Every expectation that does not hold, each at the key it was written under."""
    fails: list[Failure] = []

    def fail(key, message):
        fails.append(Failure(str(path), exp.key_spans.get(key, at), name, message))

    if "coins" in exp:
        want = list(exp["coins"])
        if want != game.scores():
            fail("coins", f"coins: expected {want}, got {game.scores()}" + explain_coins(game, want))
    for rid, want in (exp.get("regions") or {}).items():
        r = game.board.by_id.get(str(rid))
        if r is None:
            fail("regions", f"no region '{rid}'")
            continue
        inst = game.occupant[r]
        got = {"race": inst.race.name if inst else None, "tokens": game.tokens[r],
               "markers": sorted(n for n, *_ in game.markers[r]), "face_down": sorted(game.face_down.get(r, [])),
               "player": (inst.player + 1) if inst and inst.player is not None else None,
               "declined": bool(inst and inst.declined)}
        if want == "empty":
            if inst is not None:
                fail("regions", f"region {rid}: expected empty, got {got['tokens']} {got['race']}")
            continue
        for key, value in (want or {}).items():
            if key == "face_down" and isinstance(value, int):  # how many, whichever they are
                got = {**got, key: len(got[key])}
            elif key in ("markers", "face_down"):
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
    texts = {action_text(game, a) for a in legal}

    def is_legal(key: str, text: str) -> bool | None:
        """Compare actions, not texts (`ability peace p2` names a player, not region 2);
        None if the text names no possible action (an unknown region…)."""
        words = text.split()
        if words[:1] == ["ability"] and len(words) > 1:
            names = {k for k, ab in offered_abilities(game) if words[1] in (ab.name, ab.key, k)}
            if len(words) == 2 or not names:  # any use of that ability (none if nothing offers it)
                return any(a.kind == "ability" and a.a in names for a in legal)
        if words[:1] == ["choose"] and game.turn.phase != "choose":  # no trigger is waiting for a choice
            return False
        try:
            return parse_action(game, text, at) in legal
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
                why = explain_illegal(game, parse_action(game, text, at))
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
    if "discarded" in exp:
        got = sorted(game.market.out + game.market.discard)
        if got != sorted(exp["discarded"]):
            fail("discarded", f"discarded (banners set aside, badges on the discard pile): expected "
                              f"{sorted(exp['discarded'])}, got {got}")
    for tag, want in (exp.get("columns") or {}).items():
        column = next((game.market.columns[i] for i, tags in enumerate(game.ruleset.market.columns)
                       if str(tag) in tags), None)
        if column != [str(b) for b in want]:
            fail("columns", f"market column {tag}: expected {list(want)} from row 1 down, got {column}")
    if "powers" in exp and game.market.powers != [str(p) for p in exp["powers"]]:
        fail("powers", f"power column: expected {list(exp['powers'])} from row 1 down, got {game.market.powers}")
    for name, want in (exp.get("pools") or {}).items():
        if game.pools.get(name) != want:
            fail("pools", f"pieces of {name} left in the box: expected {want}, got {game.pools.get(name)}")
    for name, want in (exp.get("hidden") or {}).items():
        got = len(game.hidden.get(name, []))
        if got != want:
            fail("hidden", f"markers left in the hidden pool {name}: expected {want}, got {got}")
    for key, want in (exp.get("players") or {}).items():
        seat = int(key) if str(key).isdigit() else 0  # keys are read as text: `2:` is "2"
        if not 1 <= seat <= len(game.players):
            fail("players", f"no player {key}")
            continue
        p = game.players[seat - 1]
        got = {"markers": sorted(n for n, _ in p.markers), **{f"var {k}": v for k, v in p.vars.items()}}
        for key, value in (want or {}).items():
            value = sorted(value) if key == "markers" else value
            if key == "markers" or key in got:
                if got[key] != value:
                    fail("players", f"player {seat}: expected {key} {value!r}, got {got[key]!r}")
            elif str(key).startswith("var ") and str(key)[4:] in game.index.shared_vars:
                initial = game.index.shared_vars[str(key)[4:]].initial
                if initial != value:
                    fail("players", f"player {seat}: expected {key} {value!r}, got {initial!r}")
            else:
                fail("players", f"player {seat}: unknown field '{key}' (known: markers, var NAME)")
    for name, want in (exp.get("vars") or {}).items():
        known = {**{v.name: v.initial for v in game.index.shared_vars.values() if v.owner == "game"}, **game.vars}
        if name not in known:
            fail("vars", f"no game variable '{name}'" + (f" (known: {', '.join(sorted(known))})" if known else ""))
        elif known[name] != want:
            fail("vars", f"game variable {name}: expected {want!r}, got {known[name]!r}")
    if "winner" in exp:
        if winner(game) + 1 != int(exp["winner"]):
            fail("winner", f"winner: expected player {exp['winner']}, got player {winner(game) + 1}")
    if "team_winner" in exp:
        want = exp["team_winner"]
        want = sorted(str(t) for t in (want if isinstance(want, list) else [want]))
        if sorted(team_winners(game)) != want:
            fail("team_winner", f"team_winner: expected {' and '.join(want)}, got "
                 f"{' and '.join(team_winners(game))} ({explain_teams(game)})")
    for team, want in (exp.get("team_scores") or {}).items():
        got = team_scores(game).get(str(team))
        if got != want:
            fail("team_scores", f"score of team {team}: expected {want}, got {got} ({explain_teams(game)})")
    return fails


def explain_teams(game: Game) -> str:
    """Each team's standing: its score, its best individual score, its tokens on the map."""
    return "; ".join(f"{team} {score} (best player {best}, {tokens} tokens on the map)"
                     for team in team_scores(game) for score, best, tokens in [team_standing(game, team)])


def explain_coins(game: Game, want: list) -> str:
    """Where each player's coins came from since the scenario began (the engine's ledger)."""
    parts = []
    for seat, p in enumerate(game.players):
        if seat < len(want) and want[seat] == p.coins:
            continue
        moves: dict[str, int] = {}
        for who, delta, why in game.ledger:
            if who == seat:
                moves[why] = moves.get(why, 0) + delta
        steps = " ".join(f"{'+' if d >= 0 else '-'}{abs(d)} {why}" for why, d in moves.items() if d)
        parts.append(f"player {seat + 1}: {p.coins - sum(moves.values())} at the start {steps}".rstrip())
    return " (" + "; ".join(parts) + ")" if parts else ""
