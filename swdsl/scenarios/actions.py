"""Scenario actions as designers write them (`conquer 5`, `ability bite 7`,
`ability swap "Two Words"`), read into engine actions and written back.
Also the outcome of a scenario and its failures, each with where it was written."""

from __future__ import annotations

import shlex

import attrs

from swdsl.diagnostics import Diagnostic, Span
from swdsl.engine.abilities import ability_key, ability_users, held_abilities
from swdsl.engine.actions import Action
from swdsl.engine.legal import legal_actions
from swdsl.engine.state import Game
from swdsl.scenarios.names import key_of


@attrs.define
class Failure:
    path: str
    span: Span
    scenario: str
    message: str

    @property
    def line(self) -> int:
        return self.span.line


@attrs.define
class Outcome:
    path: str
    name: str
    span: Span
    rule: str
    failures: list[Failure]
    problems: list[Diagnostic] = attrs.field(factory=list)  # found before running: the scenario did not run


class ScenarioError(Exception):
    def __init__(self, span: Span, message: str):
        super().__init__(message)
        self.span = span


def region(game: Game, rid, span: Span) -> int:
    r = game.board.by_id.get(str(rid))
    if r is None:
        raise ScenarioError(span, f"no region '{rid}' on map {game.board.name}")
    return r


def parse_step(game: Game, text: str, span: Span) -> tuple[Action, int]:
    """A step of `do`: an action, and how many times it is played (`place R N` places N tokens)."""
    words = text.split()
    if len(words) == 3 and words[0] == "place" and words[2].isdigit():
        return parse_action(game, " ".join(words[:2]), span), int(words[2])
    return parse_action(game, text, span), 1


def parse_action(game: Game, text: str, span: Span) -> Action:
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ScenarioError(span, f"cannot read action '{text}': {err}") from None
    if not words:
        raise ScenarioError(span, "empty action")
    kind, args = words[0], words[1:]
    if kind in ("end", "decline", "pass") and not args:
        return Action(kind)
    if kind == "pick" and len(args) == 1 and args[0].isdigit():
        return Action("pick", int(args[0]) - 1)
    if kind in ("conquer", "final", "abandon", "place", "gather") and len(args) == 1:
        return Action(kind, region(game, args[0], span))
    if kind == "ability" and args:
        offered = offered_abilities(game)
        matches = [(key, ab) for key, ab in offered if args[0] in (ab.name, ab.key, key)]
        if not matches:
            have = ", ".join(sorted({ab.name for _, ab in offered}))
            raise ScenarioError(span, f"no ability '{args[0]}' can be offered now (abilities here: {have or 'none'})")
        if len({ab.key for _, ab in matches}) > 1:  # the same name on two pieces: the one usable now
            usable = {a.a for a in legal_actions(game) if a.kind == "ability"}
            matches = [(key, ab) for key, ab in matches if key in usable] or matches
            if len({ab.key for _, ab in matches}) > 1:
                raise ScenarioError(span, f"several abilities '{args[0]}' can be used now: name one of "
                                    + ", ".join(sorted({ab.key for _, ab in matches})))
        key, ab = matches[0]
        if len(args) - 1 != len(ab.choose):
            raise ScenarioError(span, f"ability '{args[0]}' chooses {len(ab.choose)} thing(s): "
                                + (" ".join(c.kind for c in ab.choose) or "nothing"))
        return Action("ability", key, tuple(_choice(game, c.kind, x, span) for c, x in zip(ab.choose, args[1:])))
    if kind == "choose" and args:
        if game.turn.phase != "choose":
            raise ScenarioError(span, "no trigger is waiting for a choice now")
        choose = game.turn.decisions[0].trigger.choose
        if len(args) != len(choose):
            raise ScenarioError(span, f"the waiting trigger chooses {len(choose)} thing(s): "
                                + " ".join(c.kind for c in choose))
        return Action("choose", None, tuple(_choice(game, c.kind, x, span) for c, x in zip(choose, args)))
    raise ScenarioError(span, f"cannot read action '{text}' (forms: pick N, conquer R, final R, abandon R, "
                              "place R, gather R, ability NAME [R | pN | POWER …], choose R | pN | POWER …, end, "
                              "decline, pass)")


def _choice(game: Game, kind: str, word: str, span: Span):
    """An ability's choice as written: a region id, a player `p2`, or a power name."""
    if kind == "player":
        if word[:1] == "p" and word[1:].isdigit() and 1 <= int(word[1:]) <= len(game.players):
            return int(word[1:]) - 1
        raise ScenarioError(span, f"'{word}' is not a player (write p1, p2, …)")
    if kind == "power":
        key = key_of(game.ruleset, "power", word)
        if key not in game.ruleset.powers:
            raise ScenarioError(span, f"unknown power '{word}'")
        return key
    if kind == "option":
        return word
    return region(game, word, span)


def _words(game: Game, choose, values) -> list[str]:
    """Choices as a designer writes them: a region id, `p2`, a power's name."""
    kinds = [c.kind for c in choose] if choose else ["region"] * len(values)
    return [f"p{c + 1}" if k == "player" else shlex.quote(c) if k in ("power", "option") else game.board.regions[c].id
            for k, c in zip(kinds, values)]


def offered_abilities(game: Game) -> list:
    """(action key, ability) of every ability the engine could offer the acting
    race now: its own, its relics' and places', the edition rules', and its
    player's other races' (keys `…@race id`)."""
    inst = game.acting
    if inst is None:
        return []
    return [(ability_key(ab, user, inst), ab) for user in ability_users(game, inst) for ab in held_abilities(game, user)]


def action_text(game: Game, a: Action) -> str:
    if a.kind == "pick":
        return f"pick {a.a + 1}"  # type: ignore[operator]
    if a.kind == "ability":
        key = str(a.a).split("@", 1)[0]
        ab = next((ab for k, ab in offered_abilities(game) if k == a.a), None)
        return " ".join(["ability", key.split("/", 1)[1]] + _words(game, ab.choose if ab else None, a.b))
    if a.kind == "choose":
        return " ".join(["choose"] + _words(game, game.turn.decisions[0].trigger.choose, a.b))
    if isinstance(a.a, int):
        return f"{a.kind} {game.board.regions[a.a].id}"
    return a.kind
