"""Scenarios checked like rules: every problem of a scenario file, at once, as
`file:line:col: CODE message` with a hint and did-you-mean, before anything runs.

Codes: SW403 a value of the wrong shape, SW404 an unknown key, SW405 an unknown
name (race, power, marker, region, phase, pool, ability, face), SW406 a
position that cannot exist (a region given twice, tokens beyond the supply, a
die roll that is not a face…), SW407 (warning) an `expect:` written before
`do:`, SW408 an action that cannot be read.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import Any

import yaml

from swdsl.diagnostics import Diagnostic, Span, did_you_mean
from swdsl.engine.ruleset import Ruleset
from swdsl.packs.maps import load_map
from swdsl.scenarios.document import Mapping, Sequence, span_in
from swdsl.scenarios.names import ambiguous, key_of

SCENARIO_KEYS = {"name", "rule", "given", "do", "expect"}
GIVEN_KEYS = {"players", "map", "boards", "empty_board", "coins", "current", "round", "races", "markers", "dice",
              "draws", "market", "market_coins", "pile", "columns", "phase", "face_down", "board"}
FAMILIES = {"race": "race", "power": "power", "marker": "piece", "hidden": "pool"}  # names a mix may qualify
EXPECT_KEYS = {"coins", "regions", "hand", "races", "cost", "legal", "illegal", "phase", "round", "current",
               "tray", "winner", "market", "market_coins", "stack_bottom", "pools", "hidden", "players", "vars",
               "columns", "powers", "team_winner", "team_scores", "discarded"}
RACE_KEYS = {"player", "race", "power", "declined", "hand", "regions", "turns", "vars"}
REGION_FIELDS = {"race", "tokens", "markers", "player", "declined", "face_down"}
RACE_FIELDS = {"hand", "declined", "regions", "power", "reserve", "pending"}  # and "var NAME"
PHASES = ("start", "conquer", "redeploy")
EXPECTED_PHASES = ("start", "pick", "conquer", "redeploy", "defend", "scoring", "after", "choose", "over")
ACTIONS = ("pick", "decline", "abandon", "conquer", "final", "ability", "choose", "end", "place", "gather", "pass")
REGION_ACTIONS = ("conquer", "final", "abandon", "place", "gather")


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml where installed: the same text, faster


class _InlineMaps:
    """The inline maps read for the last ruleset, by text and file: a map that several scenarios draw
    is read once, and not again when they run. A board is never handed to another ruleset: the values
    rules memoise in a board are one ruleset's."""

    def __init__(self) -> None:
        self.last: tuple[Ruleset | None, dict[tuple[str, str], tuple]] = (None, {})  # one value: threads agree

    def board(self, plain: Any, ruleset: Ruleset, where: str) -> tuple:
        owner, read = self.last
        if owner is not ruleset or len(read) >= 256:
            read = {}
            self.last = ruleset, read
        key = (repr(plain), where)
        if key not in read:
            board, problems = load_map(yaml.dump(plain, Dumper=_DUMPER), where, ruleset.terrains, ruleset.symbols)
            read[key] = board, tuple(problems)
        return read[key]


_INLINE = _InlineMaps()


def inline_board(given: Mapping, ruleset: Ruleset, where: str):
    """The board an inline `map:` describes (None with its problems if it is not a map)."""
    board, problems = _INLINE.board(_plain(given["map"]), ruleset, where)
    return board, list(problems)


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


class Validator:
    def __init__(self, path: str, ruleset: Ruleset):
        self.path, self.rs = path, ruleset
        self.diags: list[Diagnostic] = []
        every = [a for c in [*ruleset.races.values(), *ruleset.powers.values(), *ruleset.markers.values(),
                             *ruleset.rules, *ruleset.copied.values()] for a in c.abilities]
        self.abilities = {a.name: a for a in every} | {a.key: a for a in every}

    # ---- reporting
    def error(self, span: Span, code: str, message: str, hint: str = "") -> None:
        self.diags.append(Diagnostic(self.path, span, code, message, hint))

    def unknown(self, span: Span, what: str, name: Any, known: Iterable[str], hint: str = "") -> None:
        family = FAMILIES.get(what.split()[0])
        several = ambiguous(self.rs, family, name) if family else ()
        if several:
            self.error(span, "SW405", f"'{name}' names the {what} of several packs: {', '.join(several)}",
                       f"write one of {', '.join(several)}")
            return
        choices = sorted(str(k) for k in known)
        self.error(span, "SW405", f"unknown {what} '{name}'",
                   did_you_mean(str(name), choices) or hint or (f"known: {', '.join(choices[:12])}"
                                                                + (", …" if len(choices) > 12 else "")))

    def known(self, value: Any, span: Span, what: str, names: Iterable[Any], shown: Iterable[str] = ()) -> bool:
        """`value` names one of `names` (SW403 if it is no name at all, SW405 if it is unknown)."""
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            self.error(span, "SW403", f"a {what} is a name, not {_described(type(value))}", "see docs/scenarios.md")
            return False
        if value not in names:
            self.unknown(span, what, value, shown or names)
            return False
        return True

    def name_list(self, m: Mapping, key: str, at: Span, what: str, names: Iterable[Any],
                  shown: Iterable[str] = ()) -> None:
        """`key` lists names of one kind (`pile`, `powers`, `stack_bottom`)."""
        items = m.get(key) or []
        if self.shape(items, list, m.span(key, at), f"`{key}`"):
            for i, name in enumerate(items):
                self.known(name, span_in(items, i, at), what, names, shown)

    def keys(self, m: Mapping, known: set[str], what: str) -> None:
        for key in m:
            if key not in known:
                self.error(m.key_spans[key], "SW404", f"unknown key '{key}' in {what}",
                           did_you_mean(key, known) or "known keys: " + ", ".join(sorted(known)))

    def shape(self, value: Any, kind: type | tuple, span: Span, what: str) -> bool:
        if isinstance(value, bool) and kind is int or not isinstance(value, kind):
            self.error(span, "SW403", f"{what} must be {_described(kind)}", "see docs/scenarios.md")
            return False
        return True

    def count(self, value: Any, span: Span, what: str, least: int = 0) -> bool:
        if not self.shape(value, int, span, what):
            return False
        if value < least:
            self.error(span, "SW406", f"{what} is {value}; it must be at least {least}")
            return False
        return True

    # ---- a scenario
    def scenario(self, sc: Mapping, at: Span) -> None:
        self.keys(sc, SCENARIO_KEYS, "a scenario")
        order = list(sc)
        if "expect" in sc and "do" in sc and order.index("expect") < order.index("do"):
            self.diags.append(Diagnostic(self.path, sc.key_spans["expect"], "SW407",
                                         "`expect:` is written before `do:`; it is checked after all the actions",
                                         "to check a moment between actions, put `- expect: {…}` inside `do:`",
                                         "warning"))
        given = sc.get("given") or Mapping()
        if not isinstance(given, Mapping):
            self.shape(given, dict, sc.span("given", at), "`given`")
            return
        self.keys(given, GIVEN_KEYS, "given")
        players, regions = self.given(given, at)
        steps = sc.get("do") or Sequence()
        if self.shape(steps, list, sc.span("do", at), "`do`"):
            for i, step in enumerate(steps):
                span = span_in(steps, i, at)
                if isinstance(step, Mapping) and "expect" in step:
                    self.keys(step, {"expect"}, "a checkpoint")
                    self.expect(step["expect"], step.span("expect", span), players, regions)
                elif isinstance(step, str):
                    self.action(step, span, regions)
                else:
                    self.error(span, "SW403", "each step of `do` is an action or `expect: {…}`",
                               "write actions as text: `conquer 5`")
        if "expect" in sc:
            self.expect(sc["expect"], sc.span("expect", at), players, regions)

    def given(self, given: Mapping, at: Span) -> tuple[int, set[str] | None]:
        rs = self.rs
        players = given.get("players", 2)
        if not self.count(players, given.span("players", at), "players", 1) or players not in rs.setups:
            if isinstance(players, int) and players >= 1:
                self.error(given.span("players", at), "SW406", f"the pack has no setup for {players} players",
                           "setups: " + ", ".join(map(str, sorted(rs.setups))))
            return 0, None
        setup = rs.setups[players]
        regions: set[str] | None = {r.id for r in setup.board.regions} if setup.board else None
        if setup.layout is not None:
            regions = {r.id for _, face in setup.layout.faces for r in face.regions}
        if "map" in given:
            board, problems = inline_board(given, rs, f"{self.path} (inline map)")
            errors = [d for d in problems if d.is_error]
            if board is None or errors:
                self.error(given.span("map", at), "SW403", "the inline map is not a map: "
                           + "; ".join(d.message for d in errors[:3]), "write it like a map file (docs/packs/format.md)")
                return players, None
            regions = {r.id for r in board.regions}
        elif "boards" in given and self.shape(given["boards"], list, given.span("boards", at), "`boards`"):
            faces = {face.name: face for _, face in setup.layout.faces} if setup.layout else {}
            if not faces:
                self.error(given.span("boards", at), "SW406", "`boards` names faces of modular boards, and this "
                           "setup has a fixed map")
            for i, name in enumerate(given["boards"]):
                if str(name) not in faces and faces:
                    self.unknown(span_in(given["boards"], i, at), "board face", name, faces)
            regions = {r.id for n in given["boards"] if str(n) in faces for r in faces[str(n)].regions}
        self.coins(given, at, players)
        for key, least in (("current", 1), ("round", 1)):
            if key in given:
                self.count(given[key], given.span(key, at), key, least)
        if isinstance(given.get("current"), int) and given["current"] > players:
            self.error(given.span("current", at), "SW406", f"player {given['current']} does not exist "
                       f"({players} players)")
        if "phase" in given and given["phase"] not in PHASES:
            self.unknown(given.span("phase", at), "phase", given["phase"], PHASES,
                         "a position starts in the start, conquer or redeploy phase")
        for i, roll in enumerate(given.get("dice") or []):
            span = span_in(given["dice"], i, at)
            if self.shape(roll, int, span, "a die roll") and roll not in rs.die:
                self.error(span, "SW406", f"the die has no face {roll}", f"its faces: {list(rs.die)}")
        self.draws(given, at, players)
        self.market(given, at)
        self.races(given, at, players, regions)
        for key in ("markers", "face_down"):
            markers = given.get(key) or Mapping()
            if self.shape(markers, dict, given.span(key, at), f"`{key}`"):
                for rid, names in markers.items():
                    span = markers.key_spans[rid]
                    self.region(rid, span, regions)
                    for name in names if isinstance(names, list) else [names]:
                        self.known(name, span, "marker", rs.markers)
        return players, regions

    def coins(self, m: Mapping, at: Span, players: int) -> None:
        coins = m.get("coins")
        if coins is None or not self.shape(coins, list, m.span("coins", at), "`coins`"):
            return
        if len(coins) != players:
            self.error(m.span("coins", at), "SW406", f"`coins` lists {len(coins)} players, the game has {players}")
        for i, c in enumerate(coins):
            self.count(c, span_in(coins, i, at), "coins")

    def draws(self, given: Mapping, at: Span, players: int) -> None:
        draws = given.get("draws") or Mapping()
        if not self.shape(draws, dict, given.span("draws", at), "`draws`"):
            return
        pools = self.rs.setups[players].pools
        for pool, names in draws.items():
            span = draws.key_spans[pool]
            if pool not in pools:
                self.unknown(span, "hidden pool", pool, pools)
                continue
            for name in names if isinstance(names, list) else [names]:
                if name not in pools[pool]:
                    self.unknown(span, f"marker of the pool {pool}", name, set(pools[pool]))

    def market(self, given: Mapping, at: Span) -> None:
        combos = given.get("market") or []
        if not self.shape(combos, list, given.span("market", at), "`market`"):
            return
        for i, combo in enumerate(combos):
            span = span_in(combos, i, at)
            if not (isinstance(combo, list) and len(combo) == 2):
                self.error(span, "SW403", "a market entry is a [Race, Power] pair")
                continue
            self.known(combo[0], span, "race", self.rs.races, self.rs.banners)
            self.known(combo[1], span, "power", self.rs.powers)
        coins = given.get("market_coins") or []
        if self.shape(coins, list, given.span("market_coins", at), "`market_coins`"):
            for i, c in enumerate(coins):
                self.count(c, span_in(coins, i, at), "market coins")
        columns = given.get("columns") or Mapping()
        if self.shape(columns, dict, given.span("columns", at), "`columns`"):
            tags = {t for c in self.rs.market.columns for t in c}
            for tag, names in columns.items():
                span = columns.key_spans.get(tag, at)
                if tag not in tags:
                    self.unknown(span, "market column tag", tag, tags)
                elif self.shape(names, list, span, f"column {tag}"):
                    for name in names:
                        self.known(name, span, "race", self.rs.races, self.rs.banners)
        self.name_list(given, "pile", at, "power", self.rs.powers)

    def races(self, given: Mapping, at: Span, players: int, regions: set[str] | None) -> None:
        specs = given.get("races") or []
        if not self.shape(specs, list, given.span("races", at), "`races`"):
            return
        held: dict[str, str] = {}
        counted: dict[str, int] = {}
        seen_powers: set[str] = set()
        actives: set[int] = set()
        for i, spec in enumerate(specs):
            span = span_in(specs, i, at)
            if not self.shape(spec, dict, span, "a race"):
                continue
            self.keys(spec, RACE_KEYS, "a race")
            name = spec.get("race")
            if not self.known(name, spec.span("race", span), "race", self.rs.races):
                continue
            neutral = self.rs.races[name].neutral
            if not neutral:
                seat = spec.get("player", 1)
                if not self.count(seat, spec.span("player", span), "player", 1):
                    continue
                if seat > players:
                    self.error(spec.span("player", span), "SW406", f"player {seat} does not exist ({players} players)")
                if not spec.get("declined"):
                    if seat in actives:
                        self.error(span, "SW406", f"player {seat} is given two active races")
                    actives.add(seat)
                power = spec.get("power")
                if power is not None and not self.known(power, spec.span("power", span), "power", self.rs.powers):
                    power = None
                elif power is not None and power in seen_powers:
                    self.error(spec.span("power", span), "SW406", f"power '{power}' is given to two races")
                seen_powers.add(power)
            tokens = 0
            owned = spec.get("regions") or Mapping()
            if self.shape(owned, dict, spec.span("regions", span), "`regions`"):
                for rid, n in owned.items():
                    rspan = owned.key_spans[rid]
                    self.region(rid, rspan, regions)
                    if str(rid) in held:
                        self.error(rspan, "SW406", f"region {rid} is given to {held[str(rid)]} and to {name}")
                    held[str(rid)] = name
                    if self.count(n, owned.span(rid, rspan), f"tokens in region {rid}", 1):
                        tokens += n
            if "hand" in spec and self.count(spec["hand"], spec.span("hand", span), "hand"):
                tokens += spec["hand"]
            counted[name] = counted.get(name, 0) + tokens
            supply = self.rs.races[name].supply
            if counted[name] > supply:
                self.error(span, "SW406", f"{name} are given {counted[name]} tokens; the box holds {supply}",
                           "no token comes from nowhere: give fewer")

    def region(self, rid: Any, span: Span, regions: set[str] | None) -> None:
        if regions is not None and str(rid) not in regions:
            self.unknown(span, "region", rid, regions)

    # ---- actions and expectations
    def action(self, text: str, span: Span, regions: set[str] | None) -> None:
        try:
            words = shlex.split(text)
        except ValueError as err:
            self.error(span, "SW408", f"cannot read action '{text}': {err}")
            return
        if not words:
            self.error(span, "SW408", "an empty action")
            return
        kind, args = words[0], words[1:]
        if kind not in ACTIONS:
            self.error(span, "SW408", f"unknown action '{kind}'",
                       did_you_mean(kind, ACTIONS) or "actions: " + ", ".join(ACTIONS))
        elif kind == "pick":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
                self.error(span, "SW408", "`pick N` takes a position from 1")
        elif kind == "place" and len(args) == 2:
            self.region(args[0], span, regions)
            if not args[1].isdigit() or int(args[1]) < 1:
                self.error(span, "SW408", "`place R N` places N tokens: N is a whole number from 1")
        elif kind in REGION_ACTIONS:
            if len(args) != 1:
                self.error(span, "SW408", f"`{kind} R` takes one region")
            else:
                self.region(args[0], span, regions)
        elif kind == "ability":
            if not args:
                self.error(span, "SW408", "`ability NAME …` names the ability")
            elif args[0] not in self.abilities:
                self.unknown(span, "ability", args[0], {n for n in self.abilities if "/" not in n})
            else:
                ab = self.abilities.get(args[0])
                for c, word in zip(ab.choose if ab else (), args[1:]):
                    if c.kind == "region":
                        self.region(word, span, regions)
                    elif c.kind == "power" and key_of(self.rs, "power", word) not in self.rs.powers:
                        self.unknown(span, "power", word, self.rs.powers)
        elif kind == "choose":
            if not args:
                self.error(span, "SW408", "`choose …` gives the waiting trigger's choices: a region, `pN` or a power")
        elif args:
            self.error(span, "SW408", f"`{kind}` takes nothing")

    def expect(self, exp: Any, at: Span, players: int, regions: set[str] | None) -> None:
        if not self.shape(exp, dict, at, "`expect`"):
            return
        self.keys(exp, EXPECT_KEYS, "expect")
        for key, value in exp.items():
            if value is None:
                self.error(exp.span(key, at), "SW403", f"`{key}` is empty", "give the value it expects, or leave "
                           "the key out (docs/scenarios.md)")
        if exp.get("coins") is not None:
            self.coins(exp, at, players)
        if exp.get("winner") is not None:
            self.count(exp["winner"], exp.span("winner", at), "`winner` (a player number)", 1)
        self.expected_market(exp, at)
        for key in ("hand", "round", "current"):
            if key in exp:
                self.shape(exp[key], int, exp.span(key, at), f"`{key}`")
        for key in ("regions", "cost"):
            value = exp.get(key) or Mapping()
            if self.shape(value, dict, exp.span(key, at), f"`{key}`"):
                for rid, want in value.items():
                    self.region(rid, value.key_spans[rid], regions)
                    if key == "cost":
                        self.shape(want, int, value.key_spans[rid], f"the cost of region {rid}")
                    elif isinstance(want, Mapping):
                        self.keys(want, REGION_FIELDS, f"region {rid}")
                    elif want != "empty":
                        self.error(value.key_spans[rid], "SW403", f"region {rid} is expected as a mapping of its "
                                   "fields, or `empty`", "see docs/scenarios.md")
        races = exp.get("races") or Mapping()
        if self.shape(races, dict, exp.span("races", at), "`races`"):
            for name, want in races.items():
                if name not in self.rs.races:
                    self.unknown(races.key_spans[name], "race", name, self.rs.races)
                if want != "gone" and want is not None and not isinstance(want, Mapping):
                    self.error(races.key_spans[name], "SW403", f"the race {name} is expected as a mapping of its "
                               "fields, or `gone`", "see docs/scenarios.md")
                if isinstance(want, Mapping):
                    for key in want:
                        if key not in RACE_FIELDS and not str(key).startswith("var "):
                            self.error(want.key_spans[key], "SW404", f"unknown key '{key}' for a race",
                                       did_you_mean(str(key), RACE_FIELDS) or "known: " + ", ".join(sorted(RACE_FIELDS))
                                       + ", var NAME")
        for key in ("legal", "illegal"):
            items = exp.get(key) or []
            if self.shape(items, list, exp.span(key, at), f"`{key}`"):
                for i, item in enumerate(items):
                    text = item.get("action") if isinstance(item, Mapping) else item
                    if isinstance(item, Mapping) and "reason" in item:
                        self.shape(item["reason"], str, item.span("reason", at), "a `reason`")
                    if isinstance(text, str):
                        self.action(text, span_in(items, i, at), regions)
                    else:
                        self.error(span_in(items, i, at), "SW403", f"each of `{key}` is an action, or "
                                   "{action: …, reason: …}")
        if "phase" in exp and exp["phase"] not in EXPECTED_PHASES:
            self.unknown(exp.span("phase", at), "phase", exp["phase"], EXPECTED_PHASES)
        discarded = exp.get("discarded") or []
        if self.shape(discarded, list, exp.span("discarded", at), "`discarded`"):
            for name in discarded:
                if name not in self.rs.races and name not in self.rs.powers:
                    self.unknown(exp.key_spans.get("discarded", at), "race or power", name,
                                 set(self.rs.banners) | set(self.rs.powers))
        for key, what, known in (("tray", "race", self.rs.races), ("pools", "marker", self.rs.markers),
                                 ("hidden", "hidden pool", {p for st in self.rs.setups.values() for p in st.pools})):
            counts = exp.get(key) or Mapping()
            if self.shape(counts, dict, exp.span(key, at), f"`{key}`"):
                for name, n in counts.items():
                    if name not in known:
                        self.unknown(counts.key_spans.get(name, at), what, name, known)
                    self.shape(n, int, counts.key_spans.get(name, at), f"`{key}` of {name}")
        seats = exp.get("players") or Mapping()
        if self.shape(seats, dict, exp.span("players", at), "`players`"):
            for seat, want in seats.items():
                span = seats.key_spans.get(seat, at)
                if not (str(seat).isdigit() and 1 <= int(seat) <= players):
                    self.error(span, "SW406", f"no player {seat}", f"players are numbered 1 to {players}")
                elif self.shape(want, dict, span, f"player {seat}"):
                    for key in want:
                        if key != "markers" and not str(key).startswith("var "):
                            self.error(want.key_spans[key], "SW404", f"unknown key '{key}' in player {seat}",
                                       "known: markers, var NAME")
                    for name in want.get("markers") or []:
                        if name not in self.rs.markers:
                            self.unknown(span, "marker", name, self.rs.markers)
        self.columns(exp, at)
        self.teams(exp, at, players)

    def columns(self, exp: Mapping, at: Span) -> None:
        """`columns` names market columns by a tag of theirs and lists banners; `powers` lists powers."""
        columns = exp.get("columns") or Mapping()
        if self.shape(columns, dict, exp.span("columns", at), "`columns`"):
            tags = {t for c in self.rs.market.columns for t in c}
            for tag, banners in columns.items():
                span = columns.key_spans[tag]
                if str(tag) not in tags:
                    self.unknown(span, "market column", tag, tags,
                                 "" if tags else "the market has one column: use `market` and `stack_bottom`")
                if self.shape(banners, list, columns.span(tag, span), f"the column {tag}"):
                    for name in banners:
                        self.known(name, span, "race", self.rs.races, self.rs.banners)
        self.name_list(exp, "powers", at, "power", self.rs.powers)

    def expected_market(self, exp: Mapping, at: Span) -> None:
        """`market` lists [Race, Power] pairs, `market_coins` numbers, `stack_bottom` banners."""
        combos = exp.get("market") or []
        if self.shape(combos, list, exp.span("market", at), "`market`"):
            for i, combo in enumerate(combos):
                if not (isinstance(combo, list) and len(combo) == 2):
                    self.error(span_in(combos, i, at), "SW403", "a market entry is a [Race, Power] pair")
        coins = exp.get("market_coins") or []
        if self.shape(coins, list, exp.span("market_coins", at), "`market_coins`"):
            for i, c in enumerate(coins):
                self.count(c, span_in(coins, i, at), "market coins")
        self.name_list(exp, "stack_bottom", at, "race", self.rs.races, self.rs.banners)

    def teams(self, exp: Mapping, at: Span, players: int) -> None:
        """`team_winner` (a team, or a list of teams sharing the victory) and `team_scores`
        name teams of the setup for this player count."""
        if ("team_winner" not in exp and "team_scores" not in exp) or players not in self.rs.setups:
            return
        teams = set(self.rs.setups[players].teams)
        if not teams:
            key = "team_winner" if "team_winner" in exp else "team_scores"
            self.error(exp.span(key, at), "SW406", f"the setup for {players} players gives no teams",
                       "pack.yaml gives teams per seat: `teams: [red, blue]` in a setup")
            return
        if "team_winner" in exp:
            want, span = exp["team_winner"], exp.span("team_winner", at)
            for team in want if isinstance(want, list) else [want]:
                if str(team) not in teams:
                    self.unknown(span, "team", team, teams)
        scores = exp.get("team_scores") or Mapping()
        if self.shape(scores, dict, exp.span("team_scores", at), "`team_scores`"):
            for team, n in scores.items():
                span = scores.key_spans[team]
                if str(team) not in teams:
                    self.unknown(span, "team", team, teams)
                self.shape(n, int, scores.span(team, span), f"the score of {team}")


def _described(kind: type | tuple) -> str:
    if isinstance(kind, type) and issubclass(kind, dict):
        kind = dict
    return {int: "a whole number", list: "a list", dict: "a mapping (key: value lines)", str: "text",
            type(None): "nothing"}.get(kind, "another kind of value")  # type: ignore[call-overload]


def validate(path: str, ruleset: Ruleset, scenario: Mapping, at: Span) -> list[Diagnostic]:
    """Every problem of one scenario, before it runs."""
    v = Validator(path, ruleset)
    v.scenario(scenario, at)
    return v.diags
