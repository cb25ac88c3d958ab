"""Running a scenario: its position through the engine's Position API, its
actions through `apply` with the invariants checked after every one.

A scenario is validated first (validate.py); what can still go wrong here is
the game's own doing: an illegal action, a content stop, a broken invariant,
or an engine bug, each reported at the line of the step.
"""

from __future__ import annotations

from pathlib import Path

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.engine.errors import ContentError, engine_bug
from swdsl.engine.invariants import violations
from swdsl.engine.legal import IllegalAction, apply
from swdsl.engine.position import Position, PositionError
from swdsl.engine.ruleset import Ruleset
from swdsl.engine.setup import place_setup_pieces
from swdsl.engine.state import Game
from swdsl.scenarios.actions import Failure, Outcome, ScenarioError, parse_step, region
from swdsl.scenarios.document import Mapping, Sequence, read_file, span_in
from swdsl.scenarios.expect import check
from swdsl.scenarios.names import keyed
from swdsl.scenarios.validate import inline_board, validate


def load_file(path: Path, ruleset: Ruleset) -> tuple[list[Outcome], list[Diagnostic]]:
    """Run every scenario of a file (those with problems are not run: their problems are reported)."""
    found, diags = read_file(path)
    return [run_scenario(path, sc, span, ruleset) for span, sc in found], diags


def scenario_ruleset(loaded, sc: Mapping, at: Span, path: Path, board: str | None = None
                     ) -> tuple[Ruleset | None, list[Diagnostic]]:
    """The ruleset a scenario of a pack (a LoadedPack) runs with: on the board its `given: board:`
    names, else on `board` (`swdsl test --board`), else the mix's default for its player count."""
    given = sc.get("given")
    given = given if isinstance(given, Mapping) else Mapping()
    want = given.get("board")
    if want is not None:
        if str(want) not in loaded.boards:
            return None, [Diagnostic(str(path), given.span("board", at), "SW405", f"unknown board '{want}'",
                                     did_you_mean(str(want), loaded.boards) or "the packs of the mix that provide a "
                                     "board: " + (", ".join(loaded.boards) or "none"))]
        return loaded.ruleset_for(str(want)), []
    players = given.get("players", 2)
    return loaded.ruleset_for(board, players if isinstance(players, int) else None) or loaded.ruleset, []


def run_scenario(path: Path, sc: Mapping, at: Span, rules, board: str | None = None) -> Outcome:
    """Run a scenario with a Ruleset, or with a pack (a LoadedPack) on the board it wants
    (`scenario_ruleset`)."""
    name = str(sc.get("name"))
    out = Outcome(str(path), name, at, str(sc.get("rule", "")), [])
    ruleset, out.problems = (rules, []) if isinstance(rules, Ruleset) else scenario_ruleset(rules, sc, at, path, board)
    if ruleset is None:
        out.failures = [Failure(d.path, d.span, name, f"{d.code} {d.message} ({d.hint})") for d in out.problems]
        return out
    keyed(sc, ruleset)
    out.problems = validate(str(path), ruleset, sc, at)
    if any(d.is_error for d in out.problems):
        out.failures = [Failure(d.path, d.span, name, f"{d.code} {d.message}" + (f" ({d.hint})" if d.hint else ""))
                        for d in out.problems if d.is_error]
        return out
    try:
        game = build(path, sc.get("given") or Mapping(), ruleset, at)
        steps = sc.get("do") or Sequence()
        for j, step in enumerate(steps):
            span = span_in(steps, j, at)
            if isinstance(step, Mapping) and "expect" in step:
                out.failures += check(path, name, game, step["expect"], span)
                continue
            action, times = parse_step(game, str(step), span)
            try:
                for _ in range(times):
                    apply(game, action)
            except IllegalAction as err:
                raise ScenarioError(span, f"action '{step}' is illegal: {err}") from None
            except ContentError as err:
                raise ScenarioError(span, f"after '{step}' the game stopped: {err.where}: {err.code} {err.message}"
                                    ) from None
            except Exception as err:  # noqa: BLE001 - an engine bug must be reported, not crash the run
                raise ScenarioError(span, engine_bug(err, f"action '{step}'")) from None
            bad = violations(game)
            if bad:
                raise ScenarioError(span, f"after '{step}' an invariant broke: {bad[0]}")
        if "expect" in sc:
            out.failures += check(path, name, game, sc["expect"], sc.span("expect", at))
    except ScenarioError as err:
        out.failures.append(Failure(str(path), err.span, name, str(err)))
    return out


# ---- given --------------------------------------------------------------------


def build(path: Path, given: Mapping, ruleset: Ruleset, at: Span) -> Game:
    """The scenario's position, built through the engine's Position API."""
    players = given.get("players", 2)
    setup = ruleset.setups[players]
    board, pieces_too = None, not given.get("empty_board")  # None: the setup's own (its discards apply)
    if "map" in given:
        board, _ = inline_board(given, ruleset, f"{path} (inline map)")
        pieces_too = given.get("empty_board") is False
    elif "boards" in given:
        faces = {face.name: face for _, face in setup.layout.faces}  # type: ignore[union-attr]
        board = setup.layout.compose(tuple(faces[str(n)] for n in given["boards"]))  # type: ignore[union-attr]
    where = at
    try:
        laid_by_setup = pieces_too and any(pl.pool in (given.get("draws") or {}) for pl in setup.placements)
        pos = Position(ruleset, players, board=board, setup_pieces=pieces_too and not laid_by_setup)
        pos.script("die", list(given.get("dice") or []))
        for pool, names in (given.get("draws") or {}).items():
            pos.script(str(pool), [str(n) for n in (names if isinstance(names, list) else [names])])
        if laid_by_setup:  # `draws` of a pool the setup lays from: the setup draws them first
            place_setup_pieces(pos.game)
        for seat, c in enumerate(given.get("coins") or []):
            where = span_in(given["coins"], seat, at)
            pos.coins(seat, c)
        where = given.span("market", at)
        pos.market([(str(r), str(p)) for r, p in given.get("market") or []])
        where = given.span("columns", at)
        for tag, names in (given.get("columns") or {}).items():
            pos.column(str(tag), [str(n) for n in names])
        where = given.span("pile", at)
        pos.pile([str(p) for p in given.get("pile") or []])
        where = given.span("market_coins", at)
        pos.market_coins(list(given.get("market_coins") or []))
        game = pos.game
        specs = given.get("races") or Sequence()
        for k, spec in enumerate(specs):
            where = span_in(specs, k, at)
            regions = {region(game, rid, where): n for rid, n in (spec.get("regions") or {}).items()}
            pos.race(spec["race"], spec.get("player", 1) - 1, spec.get("power"),
                     declined=bool(spec.get("declined", False)), regions=regions, hand=spec.get("hand", 0),
                     turns=spec.get("turns", 2), variables=dict(spec.get("vars") or {}))
        for key, put in (("markers", pos.marker), ("face_down", pos.face_down)):
            markers = given.get(key) or Mapping()
            for rid, names in markers.items():
                where = markers.key_spans[rid]
                for n in names if isinstance(names, list) else [names]:
                    put(region(game, rid, where), n)
        where = at
        game = pos.start(given.get("current", 1) - 1, given.get("round", 1), given.get("phase", "conquer"))
    except PositionError as err:
        raise ScenarioError(where, str(err)) from None
    bad = violations(game)
    if bad:
        raise ScenarioError(at, f"the given state breaks an invariant: {bad[0]}")
    return game


