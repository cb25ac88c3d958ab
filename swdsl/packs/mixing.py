"""A mix: the compiled content of several packs, played on the board of one of them
(docs/mixing.md).

Every pack that has setups can provide the board. The ruleset for a board takes
that pack's setups (maps or modular boards, rounds, coins), its bank, market, die
and team scoring (or those it inherits from the packs it requires), every pack's
placements and pools, every rule except the `board` rules of the packs it does not
build on, and leaves out of its market the races and powers that make no sense
there: those whose rules test terrains, symbols or pieces (`terrain is X`, `has S`,
`in [...]`, `has MARKER`) none of which can be on that board, directly or through
an equivalence, and, when its market has columns, the races that fit none. The
races and powers of the board's pack and of the packs it requires always make
sense on it.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from swdsl.diagnostics import Diagnostic, Span
from swdsl.engine.board import Region
from swdsl.engine.content import Content
from swdsl.engine.ruleset import Budgets, Market, Placement, Ruleset, Setup
from swdsl.lang import ast
from swdsl.lang.names import PIECES, family_of
from swdsl.packs.setups import faces_of
from swdsl.packs.yamlnodes import span_of

BOARD_TAG = "board"  # a rule tagged so applies only on its pack's board (or a requiring pack's)
ITEMS = ("race", "power")  # what a board discards


@attrs.define
class Mix:
    name: str
    packs: list[str]  # in load order: required packs before the packs requiring them
    ranked: list[str]  # each pack before the packs it requires: the order a board is chosen in
    contents: list[Content]
    home: dict[tuple[str, str], str]  # (family, key) -> the pack that declares it
    setups: dict[str, dict[int, Setup]]  # per pack that provides a board: its setups
    markets: dict[str, Market]
    dice: dict[str, tuple[int, ...]]
    banks: dict[str, int]
    team_scores: dict[str, str]
    budgets: Budgets
    copied: dict
    spellings: dict[str, dict[str, tuple[str, ...]]]
    tests: dict[tuple[str, str], set[tuple[str, str]]]  # Checked.tests: what each declaration needs on the map
    mentions: dict[tuple[str, str], set[tuple[str, str]]]  # Checked.mentions: all it tests there
    puts: dict[tuple[str, str], set[tuple[str, str]]]  # Checked.puts: what it puts there
    pools: dict[str, tuple[str, ...]]
    alike: dict[str, frozenset[str]]
    terrains: frozenset[str]
    symbols: frozenset[str]
    chosen: str = ""  # pack.yaml `board:`
    lineage: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # pack -> itself, the packs it requires, nearest first
    _rulesets: dict[str | None, Ruleset] = attrs.field(factory=dict)
    _discards: dict[tuple[str, int], dict[tuple[str, str], list[str]]] = attrs.field(factory=dict)

    @property
    def boards(self) -> list[str]:
        """The packs that can provide the board: in the order given, a pack before the packs it requires."""
        return [p for p in self.ranked if self.setups.get(p)]

    @property
    def played_on(self) -> list[str]:
        """The boards its games may be played on: the one pack.yaml names, or any."""
        return [self.chosen] if self.chosen else self.boards

    def board_for(self, players: int | None = None) -> str | None:
        """The board of a game: pack.yaml's `board:`, else the first pack with a setup for the players
        (with any setup when no count is given)."""
        if self.chosen:
            return self.chosen
        return next((p for p in self.boards if players is None or players in self.setups[p]), None)

    def ruleset(self, board: str | None) -> Ruleset:
        """The ruleset of games on `board`'s board (None: no board, no setup)."""
        if board not in self._rulesets:
            self._rulesets[board] = self._build(board)
        return self._rulesets[board]

    def first(self, values: dict, board: str | None):
        """A setting of the game on `board` (its market, die, bank…): the board pack's own, or the one it
        inherits from the packs it requires, or the first pack's."""
        return nearest(values, self.lineage.get(board or "", ())) or nearest(values, self.ranked)

    def _build(self, board: str | None) -> Ruleset:
        setups = {n: attrs.evolve(s, discarded=frozenset(self.discarded(board, n)))
                  for n, s in self.setups.get(board or "", {}).items()}
        by_kind = {k: {c.name: c for c in self.contents if c.kind in kinds}
                   for k, kinds in (("race", ("race",)), ("power", ("power",)), ("piece", PIECES))}
        return Ruleset(
            name=self.name, races=by_kind["race"], powers=by_kind["power"], markers=by_kind["piece"],
            rules=[c for c in self.contents if c.kind == "rule" and self.applies(c, board)],
            copied=self.copied, setups=setups, market=self.first(self.markets, board) or Market(),
            die=self.first(self.dice, board) or (0, 0, 0, 1, 2, 3), bank=self.first(self.banks, board) or 1000,
            budgets=self.budgets,
            team_score=nearest(self.team_scores, self.lineage.get(board or "", ())) or "sum",
            terrains=self.terrains, symbols=self.symbols, spellings=self.spellings)

    def applies(self, rule: Content, board: str | None) -> bool:
        """A rule tagged `board` applies only on the board of its pack, or of a pack that requires it
        (which inherits its edition rules); every other rule always."""
        return BOARD_TAG not in rule.tags or self.home.get(("rule", rule.name)) in self.lineage.get(board or "", ())

    def like(self, name: str) -> frozenset[str]:
        return self.alike.get(name, frozenset({name}))

    def discarded(self, board: str | None, players: int) -> dict[tuple[str, str], list[str]]:
        """The races and powers (kind, key) that are never on offer on `board`'s setup for `players`,
        each with why: of packs the board's pack does not build on, those that need what cannot be
        there; of every pack, a race that fits no column of the market."""
        key = (board or "", players)
        if key not in self._discards:
            setup = self.setups.get(board or "", {}).get(players)
            self._discards[key] = self._discard(board, setup) if setup is not None else {}
        return self._discards[key]

    def _discard(self, board: str | None, setup: Setup) -> dict[tuple[str, str], list[str]]:
        regions = [r for face in faces_of(setup) for r in face.regions]
        present = {t for r in regions for t in (r.terrain, *r.symbols)}
        placed: set[str] = set()
        for pl in setup.placements:
            if any(_hits(pl, r) for r in regions):
                placed |= {pl.marker} if pl.marker else set(self.pools.get(pl.pool, ()))
        kinds = {c.name: {c.kind, *c.tags} for c in self.contents if c.kind in PIECES}
        others = [c for c in self.contents if c.kind in ITEMS and not c.neutral
                  and self.home.get((c.kind, c.name)) not in self.lineage.get(board or "", ())]
        market = self.first(self.markets, board) or Market()
        unfit = {(c.kind, c.name): [_NO_COLUMN + " ("
                                    + "; ".join(map(", ".join, market.columns)) + ")"]
                 for c in self.contents if c.kind == "race" and not c.neutral and market.column_for(c.tags) is None}
        items = [(c.kind, c.name) for c in others if self.tests.get((c.kind, c.name)) and (c.kind, c.name) not in unfit]
        out: dict[tuple[str, str], list[str]] = dict(unfit)
        while True:  # an item discarded puts nothing on the map: what depends only on that goes too
            puts = {p for c in self.contents if (c.kind, c.name) not in out and (c.kind != "rule" or self.applies(c, board))
                    for p in self.puts.get((family_of(c.kind), c.name), ())}
            markers = placed | {n for what, n in puts if what == "marker"}
            markers |= {m for what, n in puts if what == "pool" for m in self.pools.get(n, ())}
            there = {"place": lambda n: not self.like(n).isdisjoint(present), "marker": markers.__contains__,
                     "kind": {k for m in markers for k in kinds.get(m, ())}.__contains__}
            found = unfit | {item: self._why(self.tests[item]) for item in items
                             if not any(there[what](n) for what, n in self.tests[item])}
            if found == out:
                return out
            out = found

    def _why(self, needs: set[tuple[str, str]]) -> list[str]:
        """What an item needs that none of is on the board, as the check says it."""
        places = sorted(f"{n} (or {', '.join(sorted(self.like(n) - {n}))})" if len(self.like(n)) > 1 else n
                        for what, n in needs if what == "place")
        pieces = sorted(n if what == "marker" else f"{n} pieces" for what, n in needs if what != "place")
        return [f"it tests {', '.join(places)}, on no region of the map"] * bool(places) + \
            [f"it tests {', '.join(pieces)}, which nothing puts on this board"] * bool(pieces)


def nearest(values: dict, packs: Iterable[str]):
    """The value of the first of `packs` that gives one (None if none does)."""
    return next((values[p] for p in packs if values.get(p)), None)


def _hits(pl: Placement, region: Region) -> bool:
    """Whether a placement matches a region, as the engine's setup reads it."""
    if region.terrain == pl.match if pl.match_kind == "terrain" else pl.match in region.symbols:
        return True
    return bool(pl.alike) and (region.terrain in pl.alike or not pl.alike.isdisjoint(region.symbols))


_NO_COLUMN = "it carries no tag of the market's columns"


@attrs.frozen
class Where:
    """Where a finding points: a file and a span."""

    path: str
    span: Span


def findings(mix: Mix, where: dict[tuple[str, str], Where], vocab: dict[str, list[Where]],
             rule_packs_without_board: list[tuple[str, Where]]) -> list[Diagnostic]:
    """What `swdsl check` says of a mix: races and powers a board discards (SW180) or every board
    does (SW184), terrains and symbols tested that a board lacks with no equivalence (SW185), and
    `board` rules of packs that provide no board (SW187)."""
    out: list[Diagnostic] = []
    plays = [(b, n) for b in mix.played_on for n in sorted(mix.setups[b])]
    per_item: dict[tuple[str, str], dict[tuple[str, int], list[str]]] = {}
    for b, n in plays:
        for item, why in mix.discarded(b, n).items():
            per_item.setdefault(item, {})[(b, n)] = why
    for (kind, key), lost in sorted(per_item.items()):
        w = where[(kind, key)]
        if len(lost) == len(plays):
            why = next(iter(lost.values()))
            hint = ("give it a tag of a column (`tags …`), or make it `neutral` if it is never meant to be "
                    "picked" if why[0].startswith(_NO_COLUMN) else "declare an equivalence in pack.yaml if a "
                    "terrain or symbol of these boards plays the part of the one it tests")
            out.append(Diagnostic(w.path, w.span, "SW184", f"{kind} '{key}' is never on offer, on any board: "
                                  + "; ".join(why), hint, "warning"))
            continue
        for b in mix.played_on:
            counts = [n for (bb, n) in lost if bb == b]
            if not counts:
                continue
            whom = "" if len(counts) == len(mix.setups[b]) else f" for {', '.join(map(str, counts))} players"
            out.append(Diagnostic(w.path, w.span, "SW180", f"{kind} '{key}' is discarded on the board of {b}{whom}: "
                                  + "; ".join(lost[(b, counts[0])]), "it never reaches the market there (docs/mixing.md)",
                                  "warning"))
    out += _missing_equivalences(mix, vocab)
    for rule, w in rule_packs_without_board:
        out.append(Diagnostic(w.path, w.span, "SW187", f"rule '{rule}' is tagged `board`, and neither its pack nor "
                              "a pack requiring it provides a board: it never applies", "a `board` rule applies only "
                              "on its pack's board; remove the tag to have it apply on any board", "warning"))
    return out


def _missing_equivalences(mix: Mix, vocab: dict[str, list[Where]]) -> list[Diagnostic]:
    """SW185: a terrain or symbol that the content of packs a board does not build on tests, that is
    on no map of that board and that no equivalence counts as something there (once, with every
    such board)."""
    lacking: dict[str, list[str]] = {}
    for b in mix.played_on:
        present = {t for s in mix.setups[b].values() for face in faces_of(s) for r in face.regions
                   for t in (r.terrain, *r.symbols)}
        idle = {c.name for c in mix.contents if c.kind == "rule" and not mix.applies(c, b)}
        tested = sorted({name for (family, key), found in mix.mentions.items()
                         if mix.home.get((family, key)) not in mix.lineage.get(b, ())
                         and not (family == "rule" and key in idle) for what, name in found if what == "place"})
        for name in tested:
            if mix.like(name).isdisjoint(present) and name in vocab:
                lacking.setdefault(name, []).append(b)
    out = []
    for name, boards in sorted(lacking.items()):
        w, on = vocab[name][0], " or ".join(boards)
        out.append(Diagnostic(w.path, w.span, "SW185", f"'{name}' is on no map of {on}, and no equivalence counts "
                              "it as a terrain or symbol there: what tests it never holds on that board",
                              f"if something of {on}'s maps plays its part, say so: `equivalences: [[{name}, …]]`",
                              "warning"))
    return out


def mix_findings(mix: Mix, decls: list[ast.Decl], manifests: list) -> list[Diagnostic]:
    """What the check of a mix says beyond its packs' own (`findings`), at the declarations and the
    pack.yaml lines concerned."""
    where = {(family_of(d.kind), d.name): Where(d.path, d.name_span) for d in decls}
    vocab: dict[str, list[Where]] = {}
    for m in manifests:
        for n in m.terrains | m.symbols:
            vocab.setdefault(n, []).append(Where(str(m.path / "pack.yaml"), span_of(m.nodes[n])))
    idle = [(d.name, Where(d.path, d.name_span)) for d in decls if d.kind == "rule"
            and BOARD_TAG in {a for i in d.items if isinstance(i, ast.Prop) and i.name == "tags" for a in i.args}
            and not any(mix.home.get(("rule", d.name)) in mix.lineage.get(b, ()) for b in mix.boards)]
    return findings(mix, where, vocab, idle)
