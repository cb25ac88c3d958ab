"""Did my tweak help? Two balance reports of the same seeds and bots on two
versions of a pack: which declarations' text changed, and each race's, power's
and seat's win rate before and after, with the change's 95% interval
(Newcombe): significant when the interval excludes 0."""

from __future__ import annotations

from swdsl.lab.intervals import difference


def compare(before: dict, after: dict, content: list[dict]) -> dict:
    doc = {"games": after["games"], "partial": before["partial"] or after["partial"], "content": content,
           "before": {"label": "+".join(before["packs"]), "games": before["games"]},
           "after": {"label": "+".join(after["packs"]), "games": after["games"]}}
    for kind in ("races", "powers", "seats"):
        key = "seat" if kind == "seats" else "name"
        old = {str(r[key]): r for r in before[kind]}
        new = {str(r[key]): r for r in after[kind]}
        rows = []
        for name in sorted(set(old) | set(new)):
            a, b = old.get(name, {}), new.get(name, {})
            k1, n1, k2, n2 = a.get("wins", 0), a.get("games", 0), b.get("wins", 0), b.get("games", 0)
            change, low, high = difference(k1, n1, k2, n2) if n1 and n2 else (None, None, None)
            rows.append({"name": f"seat {name}" if kind == "seats" else name, "games_before": n1, "games_after": n2,
                         "before": a.get("win_rate"), "after": b.get("win_rate"),
                         "change": _round(change), "low": _round(low), "high": _round(high),
                         "significant": low is not None and high is not None and (low > 0 or high < 0)})
        doc[kind] = rows
    return doc


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)


def content_changes(old, new, boards: tuple[str | None, str | None] = (None, None)) -> list[dict]:
    """Declarations added, removed or whose text changed between two loaded packs
    (swdsl.packs.loader.LoadedPack), whitespace aside; and the pack settings
    (market, die, bank, budgets, setups, placements) and maps that differ, on the board
    each is played on (for a mix; its default board if None)."""
    a, b = _texts(old) | _settings(old, boards[0]), _texts(new) | _settings(new, boards[1])
    out = []
    for key in sorted(set(a) | set(b)):
        change = "added" if key not in a else "removed" if key not in b else "changed" if a[key] != b[key] else None
        if change:
            out.append({"kind": key[0], "name": key[1], "change": change})
    return out


def _settings(loaded, board: str | None) -> dict[tuple[str, str], str]:
    """What a pack.yaml or a map file says, as comparable text."""
    rs = loaded.ruleset_for(board) if board else loaded.ruleset
    if rs is None:
        return {}
    out = {("pack.yaml", key): repr(getattr(rs, key)) for key in ("market", "die", "bank", "budgets")}
    for n, s in rs.setups.items():
        out[("pack.yaml", f"setup {n}")] = repr((s.rounds, s.coins, s.seats, s.teams, s.placements, s.pools))
        if s.board is not None:
            out[("map", s.board.name)] = repr((s.board.regions, s.board.neighbours))
    return out


def _texts(loaded) -> dict[tuple[str, str], str]:
    out = {}
    for d in loaded.decls:
        lines = loaded.sources.get(d.path, "").splitlines()[d.span.line - 1:d.span.end_line]
        out[(d.kind, d.name)] = "\n".join(" ".join(x.split()) for x in lines if x.strip())
    return out
