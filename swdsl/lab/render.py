"""A balance report (lab/balance.py) or a comparison (lab/compare.py) as text
tables, CSV or JSON. The HTML report with plots is lab/html.py."""

from __future__ import annotations

import csv
import io
import json

from rich.console import Console
from rich.table import Table

COLUMNS = ("offered", "picked", "pick_rate", "games", "wins", "win_rate", "low", "high", "coins_per_turn",
           "regions_per_turn", "turns_active", "declined", "turns_before_decline", "outlier")
TEXT_COMBOS = 10  # the strongest and weakest combos shown in text (all are in JSON, CSV and HTML)


def as_json(doc: dict) -> str:
    return json.dumps(doc, indent=2)


def as_csv(rep: dict) -> str:
    """One row per race, power, combo and seat; pick rates per market position at the end."""
    positions = len(rep["market"]["picks_by_position"])
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(("kind", "name") + COLUMNS + tuple(f"pick_rate_at_{k + 1}" for k in range(positions)))
    for kind in ("races", "powers", "combos"):
        for row in rep[kind]:
            w.writerow((kind[:-1], row["name"]) + tuple(_cell(row[c]) for c in COLUMNS)
                       + tuple(_cell(p["pick_rate"]) for p in row["by_position"]))
    for s in rep["seats"]:
        w.writerow(("seat", f"seat {s['seat']}") + tuple(_cell(s.get(c)) for c in COLUMNS))
    return out.getvalue()


def _cell(v) -> str:
    return "" if v is None else str(v)


def _pct(v) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _num(v) -> str:
    return "—" if v is None else f"{v:g}"


def _interval(row: dict) -> str:
    return f"{_pct(row['win_rate'])} [{_pct(row['low'])}–{_pct(row['high'])}]"


def _flag(row: dict) -> str:
    return {"strong": "▲ strong", "weak": "▼ weak"}.get(row.get("outlier") or "", "")


def _console(width: int = 130) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=width, force_terminal=False, color_system=None), buf


def header(rep: dict) -> str:
    partial = " — PARTIAL: interrupted, only the games that finished" if rep["partial"] else ""
    return (f"Balance of {'+'.join(rep['packs'])}: {rep['games']} games, {rep['players']} players, "
            f"bots {', '.join(rep['bots'])}, seed {rep['seed']}{partial}")


def as_text(rep: dict) -> str:
    con, buf = _console()
    con.print(header(rep))
    fair = rep["fair_share"]
    con.print(f"Win rates with 95% Wilson intervals; fair share {_pct(fair)}. ▲/▼: the interval excludes the "
              f"fair share (at least 10 games).")
    seats = Table(title=f"Seats (balance {_num(rep['seat_balance'])})")
    for c in ("seat", "wins", "win rate [95%]", "mean score", ""):
        seats.add_column(c)
    for s in rep["seats"]:
        seats.add_row(str(s["seat"]), str(s["wins"]), _interval(s), _num(s["mean_score"]), _flag(s))
    con.print(seats)
    for kind in ("races", "powers"):
        con.print(_items(kind.capitalize(), rep[kind]))
    played = [c for c in rep["combos"] if c["games"] >= 10]
    ranked = sorted(played, key=lambda c: -(c["win_rate"] or 0))
    shown = ranked if len(ranked) <= 2 * TEXT_COMBOS else ranked[:TEXT_COMBOS] + ranked[-TEXT_COMBOS:]
    con.print(_items(f"Combos played at least 10 times ({len(played)} of {len(rep['combos'])}"
                     f"{'; strongest and weakest shown' if shown is not ranked else ''})", shown))
    picks = rep["market"]["picks_by_position"]
    total = sum(picks) or 1
    con.print("Picks by market position: " + ", ".join(f"{k + 1}: {n} ({100 * n / total:.0f}%)"
                                                       for k, n in enumerate(picks)))
    for name, key in (("Game length (actions)", "length"), ("Winning margin (coins)", "margin")):
        s = rep[key]
        con.print(f"{name}: mean {_num(s['mean'])}, median {_num(s['median'])}, "
                  f"range {_num(s['min'])}–{_num(s['max'])}")
    con.print("Declines by round: " + (", ".join(f"{k}: {v}" for k, v in rep["declines_by_round"].items())
                                       or "none"))
    outliers = rep["outliers"]
    con.print(f"Outliers ({len(outliers)}): " + ("; ".join(f"{o['kind']} {o['name']} {o['outlier']} "
                                                            f"{_interval(o)} in {o['games']} games" for o in outliers)
                                                 or "none"))
    if outliers:
        con.print("  (at 95%, about 1 fair item in 20 is flagged by chance: confirm with more games)")
    _integrity(con, rep["integrity"])
    return buf.getvalue().rstrip()


def _items(title: str, rows: list[dict]) -> Table:
    t = Table(title=title)
    for c in ("name", "offered", "picked", "pick rate", "games", "win rate [95%]", "coins/turn", "regions/turn",
              "turns", "declined", ""):
        t.add_column(c)
    for r in rows:
        t.add_row(r["name"], str(r["offered"]), str(r["picked"]), _pct(r["pick_rate"]), str(r["games"]),
                  _interval(r), _num(r["coins_per_turn"]), _num(r["regions_per_turn"]), _num(r["turns_active"]),
                  str(r["declined"]), _flag(r))
    return t


def _integrity(con: Console, integrity: dict) -> None:
    if integrity["games_without_conquest"]:
        con.print(f"{integrity['games_without_conquest']} game(s) ended with no conquest at all")
    if integrity["unfinished"]:
        con.print(f"{integrity['unfinished']} game(s) hit the action budget and are not measured")
    for e in integrity["errors"][:5]:
        con.print(f"  {e}")


def comparison_text(doc: dict) -> str:
    con, buf = _console()
    con.print(f"Comparing {doc['before']['label']} → {doc['after']['label']}: {doc['games']} games each, "
              f"same seeds and bots{' — PARTIAL' if doc['partial'] else ''}")
    changes = doc["content"]
    con.print("Content changed: " + ("; ".join(f"{c['kind']} {c['name']} {c['change']}" for c in changes)
                                     or "no declaration's text changed"))
    for kind in ("races", "powers", "seats"):
        rows = doc[kind]
        t = Table(title=f"{kind.capitalize()}: win rate before → after, change with its 95% interval")
        for c in ("name", "games", "before", "after", "change [95%]", ""):
            t.add_column(c)
        for r in sorted(rows, key=lambda r: (not r["significant"], -abs(r["change"] or 0))):
            t.add_row(r["name"], f"{r['games_before']} → {r['games_after']}", _pct(r["before"]), _pct(r["after"]),
                      f"{_signed(r['change'])} [{_signed(r['low'])}, {_signed(r['high'])}]",
                      "significant" if r["significant"] else "")
        con.print(t)
    sig = [f"{r['name']} {_signed(r['change'])}" for k in ("races", "powers", "seats") for r in doc[k]
           if r["significant"]]
    con.print("Significant changes: " + (", ".join(sig) or "none (the differences are within chance)"))
    return buf.getvalue().rstrip()


def comparison_csv(doc: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("kind", "name", "games_before", "games_after", "before", "after", "change", "low", "high",
                "significant"))
    for kind in ("races", "powers", "seats"):
        for r in doc[kind]:
            w.writerow((kind[:-1], r["name"], r["games_before"], r["games_after"], r["before"], r["after"],
                        r["change"], r["low"], r["high"], r["significant"]))
    return buf.getvalue()


def _signed(v) -> str:
    return "—" if v is None else f"{100 * v:+.1f} pts"
