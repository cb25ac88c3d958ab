"""The balance report as one self-contained HTML page: the tables, and plots
drawn with matplotlib (an optional extra: `pip install 'swdsl[report]'`) and
embedded as images — win rate with its interval per race and per power, a
race × power heat map of win rates, and the seats' advantage."""

from __future__ import annotations

import base64
import html
import io

from swdsl.lab.executors import MissingExtra
from swdsl.lab.render import COLUMNS, header

HEAT_MIN_GAMES = 3  # cells with fewer games are left grey


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtra("report", "matplotlib") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return f'<img alt="" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def _intervals(rows: list[dict], title: str, fair: float, label: str = "name") -> str:
    rows = sorted((r for r in rows if r["games"]), key=lambda r: r["win_rate"])
    fig = _figure(8, 0.28 * len(rows) + 1.2)
    ax = fig.add_subplot()
    ys = range(len(rows))
    rates = [r["win_rate"] for r in rows]
    ax.errorbar(rates, ys, xerr=[[r["win_rate"] - r["low"] for r in rows], [r["high"] - r["win_rate"] for r in rows]],
                fmt="o", color="#333", ecolor="#888", capsize=2)
    for y, r in zip(ys, rows):
        if r.get("outlier"):
            ax.plot([r["win_rate"]], [y], "o", color="#c0392b" if r["outlier"] == "strong" else "#2471a3")
    ax.axvline(fair, color="#c0392b", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    ax.set_yticks(list(ys), [f"{r[label]} ({r['games']})" for r in rows], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate, 95% Wilson interval (games played)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return _png(fig)


def _heat(rep: dict) -> str:
    races = [r["name"] for r in rep["races"]]
    powers = [p["name"] for p in rep["powers"]]
    cells = {c["name"]: c for c in rep["combos"]}
    grid = [[_cell(cells.get(f"{p} {r}")) for p in powers] for r in races]
    fig = _figure(max(6, 0.45 * len(powers) + 2.5), max(4, 0.35 * len(races) + 2))
    ax = fig.add_subplot()
    import numpy as np  # matplotlib's own dependency

    data = np.ma.masked_invalid(np.array(grid, dtype=float))
    ax.set_facecolor("#c8c8c8")  # shows through the cells without enough games
    img = ax.imshow(data, cmap="RdBu_r", vmin=0, vmax=min(1.0, 2 * rep["fair_share"]), aspect="auto")
    ax.set_xticks(range(len(powers)), powers, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(races)), races, fontsize=7)
    ax.set_title(f"win rate per race × power (grey: fewer than {HEAT_MIN_GAMES} games)")
    fig.colorbar(img, ax=ax, label="win rate")
    return _png(fig)


def _cell(c: dict | None) -> float:
    return c["win_rate"] if c and c["games"] >= HEAT_MIN_GAMES else float("nan")


def _seats(rep: dict) -> str:
    seats = rep["seats"]
    fig = _figure(5, 3)
    ax = fig.add_subplot()
    xs = [s["seat"] for s in seats]
    rates = [s["win_rate"] or 0 for s in seats]
    ax.bar(xs, rates, color="#7f8c8d",
           yerr=[[r - s["low"] for r, s in zip(rates, seats)], [s["high"] - r for r, s in zip(rates, seats)]],
           capsize=4)
    ax.axhline(rep["fair_share"], color="#c0392b", linestyle="--", linewidth=1)
    ax.set_xticks(xs, [f"seat {x}" for x in xs])
    ax.set_ylabel("win rate, 95% interval")
    ax.set_title(f"seat advantage (balance {rep['seat_balance']})")
    return _png(fig)


def _items(rows: list[dict]) -> str:
    """A table of races, powers or combos, with the pick rate at each market position."""
    positions = max((len(r["by_position"]) for r in rows), default=0)
    at = tuple(f"pick rate at {k + 1}" for k in range(positions))
    wide = [dict(r, **{a: p["pick_rate"] for a, p in zip(at, r["by_position"])}) for r in rows]
    return _table(wide, "name", COLUMNS + at)


def _table(rows: list[dict], first: str, columns=COLUMNS) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in (first,) + tuple(columns))
    body = []
    for r in rows:
        cls = f' class="{r["outlier"]}"' if r.get("outlier") else ""
        cells = "".join(f"<td>{'' if r.get(c) is None else html.escape(str(r.get(c)))}</td>" for c in columns)
        body.append(f"<tr{cls}><td>{html.escape(str(r[first]))}</td>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


STYLE = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;
font-size:13px;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child,
th:first-child{text-align:left}tr.strong{background:#fadbd8}tr.weak{background:#d6eaf8}.partial{color:#c0392b;
font-weight:bold}img{max-width:100%;display:block;margin:1em 0}"""


def as_html(rep: dict) -> str:
    fair = rep["fair_share"]
    title = html.escape(header(rep))
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{STYLE}</style>"
             f"</head><body><h1>Balance report</h1><p>{title}</p>"]
    if rep["partial"]:
        parts.append("<p class='partial'>Partial report: the run was interrupted.</p>")
    parts.append(f"<p>Win rates with 95% Wilson intervals; the fair share is {fair:.1%}. Rows in red (strong) or "
                 "blue (weak) have intervals that exclude it (see docs/balance.md).</p>")
    parts.append("<h2>Seats</h2>" + _seats(rep)
                 + _table(rep["seats"], "seat", ("wins", "win_rate", "low", "high", "mean_score", "outlier")))
    parts.append("<h2>Races</h2>" + _intervals(rep["races"], "win rate per race", fair) + _items(rep["races"]))
    parts.append("<h2>Powers</h2>" + _intervals(rep["powers"], "win rate per power", fair)
                 + _items(rep["powers"]))
    parts.append("<h2>Race × power</h2>" + _heat(rep) + _items(rep["combos"]))
    length, margin = rep["length"], rep["margin"]
    parts.append(f"<h2>Games</h2><p>Picks by market position: {rep['market']['picks_by_position']}. "
                 f"Game length (actions): mean {length['mean']}, median {length['median']}. "
                 f"Winning margin (coins): mean {margin['mean']}, median {margin['median']}. "
                 f"Declines by round: {html.escape(str(rep['declines_by_round']))}.</p>")
    outliers = "".join(f"<li>{html.escape(o['kind'])} {html.escape(o['name'])}: {o['outlier']}, win rate "
                       f"{o['win_rate']:.1%} [{o['low']:.1%}–{o['high']:.1%}] in {o['games']} games</li>"
                       for o in rep["outliers"])
    parts.append(f"<h2>Outliers</h2><ul>{outliers or '<li>none</li>'}</ul></body></html>")
    return "\n".join(parts)
