"""A self-contained HTML report of result files: charts (Altair, rendered by vl-convert) and tables.

The charts are drawn from the small per-group results of :mod:`analysis.tables` (never from the
raw rows), rendered to inline SVG for the HTML (no JavaScript, no network) and optionally to PNG
files. Every chart is a single view sized to exactly ``width`` x ``height`` pixels (padding,
axes and legends included), so a PNG is ``width * scale`` x ``height * scale``.

Charts: win rates of the sides (of the seats while every side is one seat: the word the report
uses follows the data, see :func:`side_noun`) with 95% intervals per group, the balance index per
group, game length (hands per game; turns per hand for independent-hand data), final score distribution, how hands
end (with hand rows), and the strategy matrix heatmap (when the lineups hold two or more
strategies). Tables: the summary of `rummysim analyze`, the seat table, the balance ranking and, with
lineups, the strategy table.

Needs the optional extra ``report``: ``python3 -m pip install 'rummysim[report]'``.

Example:
    >>> from analysis.report import write_report
    >>> write_report("runs/first.parquet", "report.html", png_dir="charts")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import html
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rummysim.analysis import fmt

from rummysim.analysis import tables
from rummysim.analysis.load import GAMES, HANDS, Dataset, open_source
from rummysim.analysis.sessions import stakes as stakes_table
from rummysim.errors import InputError, RummysimError
from rummysim.output import OutputTarget, output_target, write_text_atomic

INSTALL_HINT = "python3 -m pip install 'rummysim[report]'"
WIDTH = 720
MAX_LINES = 20  # groups drawn in the distribution charts


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rummysim")
    except PackageNotFoundError:
        return "(not installed)"


def _require() -> tuple[Any, Any]:
    try:
        import altair as alt
        import vl_convert as vlc
    except ImportError as exc:
        missing = getattr(exc, "name", None) or "altair"
        raise RummysimError(
            f"the report needs the optional packages altair and vl-convert-python ({missing} is not installed); "
            f"install them with: {INSTALL_HINT}"
        ) from None
    return alt, vlc


@dataclass
class Chart:
    """One chart: its name (file stem and HTML id), title, caption and Vega-Lite spec."""

    name: str
    title: str
    caption: str
    spec: dict
    width: int
    height: int


@dataclass
class HtmlTable:
    name: str
    title: str
    columns: list[str]
    rows: list[list[str]]


@dataclass
class Report:
    """Everything a report shows, before rendering."""

    title: str
    source: str
    by: list[str]
    files: int
    charts: list[Chart] = field(default_factory=list)
    tables: list[HtmlTable] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class ReportResult:
    html: Path
    charts: list[str]
    tables: list[str]
    pngs: list[Path]


# ---------------------------------------------------------------------------------------------
# charts


def _finish(alt, chart, name: str, title: str, caption: str, height: int) -> Chart:
    chart = chart.properties(width=WIDTH, height=height, title=title).configure(
        autosize=alt.AutoSizeParams(type="fit", contains="padding"), background="white",
        font="Helvetica, Arial, sans-serif",
    ).configure_legend(orient="bottom", columns=4, labelLimit=400)
    return Chart(name, title, caption, chart.to_dict(), WIDTH, height)


def _palette(n: int) -> str:
    return "tableau10" if n <= 10 else "category20"


def side_noun(sides: pl.DataFrame) -> str:
    """``seat`` while every side of the seat table is one seat (every game today), else ``side``."""
    members = [m for m in sides["members"].to_list() if m is not None] if "members" in sides.columns else []
    return "side" if any("+" in m or m == "mixed" for m in members) else "seat"


def _member_labels(sides: pl.DataFrame) -> list[str]:
    return [m if m is not None else str(k) for k, m in zip(sides["side"].to_list(), sides["members"].to_list())]


def _seat_chart(alt, seats: pl.DataFrame, labels: list[str], unit: str) -> Chart:
    data = seats.with_columns((pl.col("win_rate") - pl.col("win_dev")).alias("fair"))
    noun = side_noun(seats)
    members = _member_labels(data)
    if len(labels) == 1:  # one group: name each side's strategy in the legend
        names = [f"{m} {st}" if st else m for m, st in zip(members, data["strategy"].to_list())]
    else:
        names = members
    data = data.with_columns(pl.Series("seat_label", names, dtype=pl.String))
    order = list(dict.fromkeys(names))
    n_seats = len(order)
    base = alt.Chart(alt.Data(values=data.to_dicts())).encode(
        y=alt.Y("group:N", sort=labels, title=None, axis=alt.Axis(labelLimit=260)),
        yOffset=alt.YOffset("seat_label:N", sort=order),
    )
    color = alt.Color("seat_label:N", title=noun, sort=order, scale=alt.Scale(scheme=_palette(n_seats)))
    what = "win rate" if unit == "games" else "going-out rate"
    rules = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("win_lo:Q", title=f"{what} (95% Wilson interval; black tick: fair share 1/N)", axis=alt.Axis(format="%")),
        x2="win_hi:Q", color=color,
    )
    points = base.mark_point(filled=True, size=60, opacity=1).encode(
        x="win_rate:Q", color=color,
        tooltip=["group:N", alt.Tooltip("seat_label:N", title=noun), "strategy:N", alt.Tooltip("win_rate:Q", format=".1%"),
                 alt.Tooltip("win_lo:Q", format=".1%"), alt.Tooltip("win_hi:Q", format=".1%")],
    )
    fair = base.mark_tick(color="black", thickness=2).encode(x="fair:Q")
    height = 130 + len(labels) * (n_seats * 22 + 16)
    return _finish(alt, alt.layer(rules, points, fair), "seat_win_rates", f"{noun.capitalize()} {what}s per variation",
                   f"Each {noun}'s {what} with its 95% Wilson interval; the black tick is the fair share 1/N.", height)


def _balance_chart(alt, bal: pl.DataFrame, by: list[str]) -> Chart:
    data = bal.filter(pl.col("balance_index").is_not_null()).with_columns(
        pl.Series("group", [tables.group_label(r, by) for r in bal.filter(pl.col("balance_index").is_not_null()).to_dicts()])
    )
    order = data["group"].to_list()
    base = alt.Chart(alt.Data(values=data.select("group", "rank", "balance_index", "balance_lo", "balance_hi",
                                                 "worst_position", "players").to_dicts())).encode(
        y=alt.Y("group:N", sort=order, title=None, axis=alt.Axis(labelLimit=260)),
    )
    rules = base.mark_rule(strokeWidth=2, color="#4c78a8").encode(
        x=alt.X("balance_lo:Q", title="balance index max|N·q − 1| (0 = fair), 95% interval"), x2="balance_hi:Q"
    )
    points = base.mark_point(filled=True, size=60, color="#e45756").encode(
        x="balance_index:Q",
        tooltip=["group:N", "rank:Q", alt.Tooltip("balance_index:Q", format=".3f"), "worst_position:N"],
    )
    height = 90 + max(1, len(order)) * 26
    return _finish(alt, alt.layer(rules, points), "balance", "Balance index per variation (lower is fairer)",
                   "Largest relative edge of any position in the order of play (P1 = left of the first dealer); "
                   "the bar is a simultaneous 95% interval.", height)


def _lines(alt, data: pl.DataFrame, x_title: str, y_title: str, color: str, color_title: str, sort: list | None,
           name: str, title: str, caption: str) -> Chart:
    n = data[color].n_unique() if data.height else 1
    integer = data.height > 0 and data["value"].dtype.is_integer()
    axis = alt.Axis(tickMinStep=1, format="d") if integer else alt.Axis()
    chart = alt.Chart(alt.Data(values=data.to_dicts())).mark_line(point=alt.OverlayMarkDef(size=20)).encode(
        x=alt.X("value:Q", title=x_title, axis=axis),
        y=alt.Y("share:Q", title=y_title, axis=alt.Axis(format="%")),
        color=alt.Color(f"{color}:N", title=color_title, sort=sort, scale=alt.Scale(scheme=_palette(n))),
        tooltip=[f"{color}:N", "value:Q", "count:Q", alt.Tooltip("share:Q", format=".2%")],
    )
    return _finish(alt, chart, name, title, caption, 330 + 22 * math.ceil(n / 4))


def _with_group(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    if frame.height == 0:
        return frame.with_columns(pl.lit("all").alias("group"))
    labels = [tables.group_label(r, by) for r in frame.select(by).to_dicts()] if by else ["all"] * frame.height
    return frame.with_columns(pl.Series("group", labels, dtype=pl.String))


def _top_groups(frame: pl.DataFrame, labels: list[str], weights: dict[str, int]) -> tuple[pl.DataFrame, str]:
    if len(labels) <= MAX_LINES:
        return frame, ""
    keep = sorted(labels, key=lambda g: -weights.get(g, 0))[:MAX_LINES]
    return frame.filter(pl.col("group").is_in(keep)), f" (the {MAX_LINES} largest of {len(labels)} groups)"


def _endings_chart(alt, summary: pl.DataFrame, labels: list[str]) -> Chart:
    rows = []
    for label, r in zip(labels, summary.to_dicts()):
        for key, name in (("ends_out", "went out"), ("ends_stock_out", "stock out"), ("ends_stall", "stall")):
            if r.get(key) is not None:
                rows.append({"group": label, "end": name, "share": r[key]})
    chart = alt.Chart(alt.Data(values=rows)).mark_bar().encode(
        y=alt.Y("group:N", sort=labels, title=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("share:Q", stack="normalize", title="share of hands", axis=alt.Axis(format="%")),
        color=alt.Color("end:N", title="hand ended by", sort=["went out", "stock out", "stall"],
                        scale=alt.Scale(domain=["went out", "stock out", "stall"], range=["#59a14f", "#f28e2b", "#e15759"])),
        tooltip=["group:N", "end:N", alt.Tooltip("share:Q", format=".2%")],
    )
    height = 90 + len({r["group"] for r in rows}) * 26
    return _finish(alt, chart, "hand_endings", "How hands end",
                   "Shares of hands that ended by someone going out, by the stock running out, or by a stall "
                   "(loop guard or turn cap).", height)


def _matrix_chart(alt, matrix: pl.DataFrame, pooled: bool, fair: float = 0.5) -> Chart:
    names = sorted(set(matrix["strategy"].to_list()) | set(matrix["opponent"].to_list()))
    data = matrix.select("strategy", "opponent", "pairs", "win_rate", "win_lo", "win_hi").to_dicts()
    base = alt.Chart(alt.Data(values=data)).encode(
        x=alt.X("opponent:N", sort=names, title="opponent (at another seat)", axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("strategy:N", sort=names, title="strategy"),
    )
    heat = base.mark_rect().encode(
        color=alt.Color("win_rate:Q", title="win rate", scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=fair),
                        legend=alt.Legend(format="%")),
        tooltip=["strategy:N", "opponent:N", "pairs:Q", alt.Tooltip("win_rate:Q", format=".1%"),
                 alt.Tooltip("win_lo:Q", format=".1%"), alt.Tooltip("win_hi:Q", format=".1%")],
    )
    text = base.mark_text(fontSize=13).encode(
        text=alt.Text("win_rate:Q", format=".1%"),
        color=alt.condition("datum.win_rate > 0.8 || datum.win_rate < 0.2", alt.value("white"), alt.value("black")),
    )
    height = 170 + 70 * len(names)
    title = "Strategy matrix" + (" (all groups pooled)" if pooled else "")
    return _finish(alt, alt.layer(heat, text), "strategy_matrix", title,
                   "Win rate of a seat playing the row strategy when the column strategy sits at another seat "
                   "(white = the fair share 1/N).", height)


# ---------------------------------------------------------------------------------------------
# tables


def _summary_table(summary: pl.DataFrame, labels: list[str]) -> HtmlTable:
    cols = ["group", "unit", "games", "hands", "first seat win", "first seat advantage (pp over 1/N)", "95% CI", "mean score",
            "p10", "p50", "p90", "winner mean", "hands/game mean", "p50", "p90", "turns/hand mean", "p50", "p90",
            "went out", "stock out", "stall", "capped games", "capped hands", "calls/hand", "floats/hand",
            "deep takes/hand"]
    rows = []
    for label, r in zip(labels, summary.to_dicts()):
        rows.append([
            label, r["unit"], fmt.num(r["games"], 0), fmt.num(r["hands"], 0), fmt.pct(r["first_seat_win_rate"]),
            fmt.pp(r["first_seat_adv"]), fmt.ci(r["first_seat_adv_lo"], r["first_seat_adv_hi"], 100, sign=True),
            fmt.num(r["score_mean"]), fmt.num(r["score_p10"], 0), fmt.num(r["score_p50"], 0), fmt.num(r["score_p90"], 0),
            fmt.num(r["winner_score_mean"]), fmt.num(r["hands_per_game_mean"], 2), fmt.num(r["hands_per_game_p50"], 0),
            fmt.num(r["hands_per_game_p90"], 0), fmt.num(r["turns_per_hand_mean"], 2), fmt.num(r["turns_per_hand_p50"], 0),
            fmt.num(r["turns_per_hand_p90"], 0), fmt.pct(r["ends_out"]), fmt.pct(r["ends_stock_out"]), fmt.pct(r["ends_stall"]),
            fmt.num(r["capped_games"], 0), fmt.num(r["capped_hands"], 0),
            *[fmt.num(r[f"{c}_per_hand"], 3) for c in tables.COUNTERS],
        ])
    return HtmlTable("summary", "Summary per group", cols, rows)


def _seats_table(seats: pl.DataFrame, by: list[str]) -> HtmlTable:
    noun = side_noun(seats)
    cols = ["group", noun, "strategy", "win rate", "95% CI", "vs 1/N", "mean score", "95% CI"]
    rows = [[tables.group_label(r, by), m, r["strategy"] or "-", fmt.pct(r["win_rate"]),
             fmt.ci(r["win_lo"], r["win_hi"], 100), fmt.pp(r["win_dev"]), fmt.num(r["mean_score"]),
             fmt.ci(r["mean_score_lo"], r["mean_score_hi"])] for r, m in zip(seats.to_dicts(), _member_labels(seats))]
    return HtmlTable("seats", f"{noun.capitalize()}s", cols, rows)


def _balance_table(bal: pl.DataFrame, by: list[str]) -> HtmlTable:
    cols = ["rank", "group", "players", "games", "balance index", "95% CI", "fair?", "worst position", "P1 edge (relative)",
            "95% CI", "hands/game", "95% CI", "turns/hand", "capped"]
    rows = []
    for r in bal.to_dicts():
        fair = r["consistent_with_fair"]
        rows.append([
            str(r["rank"]), tables.group_label(r, by), "mixed" if r["players"] is None else str(r["players"]),
            fmt.num(r["games"] if r["unit"] == "games" else r["hands"], 0) + ("" if r["unit"] == "games" else " hands"),
            fmt.num(r["balance_index"], 3), fmt.ci(r["balance_lo"], r["balance_hi"], digits=3),
            "n/a" if fair is None else ("yes" if fair else "no"),
            "n/a" if r["worst_position"] is None else f"{r['worst_position']} {r['worst_edge'] * 100:+.1f}%",
            "n/a" if r["first_edge"] is None else f"{r['first_edge'] * 100:+.1f}%",
            fmt.ci(r["first_edge_lo"], r["first_edge_hi"], 100, sign=True),
            fmt.num(r["hands_per_game_mean"], 2), fmt.ci(r["hands_per_game_lo"], r["hands_per_game_hi"], digits=2),
            fmt.num(r["turns_per_hand_mean"], 1), fmt.pct(r["capped_share"]),
        ])
    return HtmlTable("balance", "Balance ranking", cols, rows)


def _stakes_table(frame: pl.DataFrame, by: list[str]) -> HtmlTable:
    cols = ["group", "lineup", "betting (seat 0, seat 1)", "games", "seat 0 net per game", "95% CI",
            "seat 0 net per hand", "expected stake per hand", "95% CI", "p90", "folded or conceded"]
    rows = [[tables.group_label(r, by), r["lineup"] or "-", r["betting"] or "-", fmt.num(r["games"], 0),
             fmt.num(r["stake_0_per_game"], 3), fmt.ci(r["stake_0_lo"], r["stake_0_hi"], digits=3),
             fmt.num(r["stake_0_per_hand"], 3), fmt.num(r["mean_hand_stake"], 3),
             fmt.ci(r["hand_stake_lo"], r["hand_stake_hi"], digits=3), fmt.num(r["hand_stake_p90"], 0),
             fmt.pct(r["folded_share"])] for r in frame.to_dicts()]
    return HtmlTable("stakes", "Stakes by betting-policy pair (Doubling: stake units; Limit-Poker: chips)", cols, rows)


def _strategies_table(strat: pl.DataFrame, by: list[str]) -> HtmlTable:
    cols = ["group", "strategy", "seat-games", "win rate", "95% CI", "fair share", "edge", "mean score"]
    rows = [[tables.group_label(r, by), r["strategy"], fmt.num(r["seat_games"], 0), fmt.pct(r["win_rate"]),
             fmt.ci(r["win_lo"], r["win_hi"], 100), fmt.pct(r["fair"]), fmt.pp(r["edge"]), fmt.num(r["mean_score"])]
            for r in strat.to_dicts()]
    return HtmlTable("strategies", "Strategies", cols, rows)


# ---------------------------------------------------------------------------------------------
# building and writing


def build_report(source: tables.Source, by: tables.By = None, title: str | None = None) -> Report:
    """Compute every table and chart spec of the report (altair needed, vl-convert not yet)."""
    alt, _ = _require()
    ds: Dataset = open_source(source)
    by = tables.resolve_by(ds, by)
    label = str(source) if not isinstance(source, (Dataset, pl.DataFrame, pl.LazyFrame)) else ds.label
    rep = Report(title or f"rummysim report: {label}", label, by, len(ds.files))

    summary = tables.summarize(ds, by)
    labels = [tables.group_label(r, by) for r in summary.to_dicts()]
    seats = _with_group(tables.seat_table(summary, by), by)
    bal = tables.balance(ds, by)
    # balance() adds players to the grouping when the data mixes player counts
    bal_by = by if "players" in by or bal["players"].n_unique() <= 1 else [*by, "players"]
    unit = "games" if GAMES in ds.kinds() else "hands"
    weights = {lab: (r.get("games") or r.get("hands") or 0) for lab, r in zip(labels, summary.to_dicts())}

    rep.charts.append(_seat_chart(alt, seats, labels, unit))
    rep.charts.append(_balance_chart(alt, bal, bal_by))

    if GAMES in ds.kinds():
        length = _with_group(tables.distribution(ds, "hands", by, kind=GAMES), by)
        length, note = _top_groups(length, labels, weights)
        rep.charts.append(_lines(alt, length, "hands per game", "share of games", "group", "group", labels,
                                 "game_length", "Game length" + note,
                                 "Distribution of the number of hands a game lasts."))
    else:
        length = _with_group(tables.distribution(ds, "turns", by, kind=HANDS), by)
        length, note = _top_groups(length, labels, weights)
        rep.charts.append(_lines(alt, length, "turns per hand", "share of hands", "group", "group", labels,
                                 "game_length", "Hand length" + note,
                                 "Distribution of the number of turns a hand lasts (independent hands)."))

    kind = GAMES if GAMES in ds.kinds() else HANDS
    what = "final score" if kind == GAMES else "hand score"
    noun = side_noun(seats)
    if len(labels) == 1:
        scores = tables.distribution(ds, "score", by, kind=kind, bins=40, per_side=True)
        names = dict(zip(seats["side"].to_list(), _member_labels(seats)))
        side_sort = [names.get(k, str(k)) for k in sorted(scores["side"].unique().to_list())]
        label = pl.col("side").replace_strict(names, default=pl.col("side").cast(pl.String), return_dtype=pl.String)
        scores = scores.select(label.alias(noun), pl.exclude("side"))
        rep.charts.append(_lines(alt, scores, what, f"share of {noun}s", noun, noun, side_sort,
                                 "score_distribution", f"Distribution of {what}s by {noun}",
                                 f"Each {noun}'s {what}s in bins of equal width."))
    else:
        scores = _with_group(tables.distribution(ds, "score", by, kind=kind, bins=40), by)
        scores, note = _top_groups(scores, labels, weights)
        rep.charts.append(_lines(alt, scores, what, f"share of {noun}s", "group", "group", labels,
                                 "score_distribution", f"Distribution of {what}s" + note,
                                 f"Every {noun}'s {what}s pooled per group, in bins of equal width."))

    if summary["ends_out"].drop_nulls().len():
        rep.charts.append(_endings_chart(alt, summary, labels))

    strat = None
    if "lineup" in ds.columns():
        strat = tables.strategies(ds, by)
        if strat.height and strat["strategy"].n_unique() >= 2:
            matrix = tables.strategy_matrix(ds, [])
            fair = float((strat["fair"] * strat["seat_games"]).sum() / strat["seat_games"].sum())
            rep.charts.append(_matrix_chart(alt, matrix, pooled=len(labels) > 1, fair=fair))
        else:
            strat = None

    rep.tables.append(_summary_table(summary, labels))
    rep.tables.append(_seats_table(seats, by))
    rep.tables.append(_balance_table(bal, bal_by))
    if strat is not None:
        rep.tables.append(_strategies_table(strat, by))
    if GAMES in ds.kinds() and "stake_0" in ds.row_columns(GAMES):
        rep.tables.append(_stakes_table(stakes_table(ds, by), by))
        rep.notes.append(_STAKES_NOTE)
    rep.notes.append(_BALANCE_NOTE)
    return rep


_STAKES_NOTE = (
    "Stakes (V5K-13 Doubling, V5K-14 Limit-Poker): a game is a session of 2 hands. The expected stake per hand is "
    "the mean, over the hand rows (written with --hands), of the stake a hand ended at (Doubling) or its pot "
    "(Limit-Poker); seat 0's net is what it won per game and per hand, in stake units or chips."
)

_BALANCE_NOTE = (
    "Balance index: positions are numbered in the order of play of the first hand (P1 = the seat left of the "
    "first dealer, PN = the first dealer). With q_k the share of the games with a winner that position k won, the "
    "index is max_k |N·q_k − 1|: 0 is perfectly fair, 0.10 means some position wins 10% more (or less) often "
    "than its fair share 1/N. Its 95% interval comes from simultaneous (Bonferroni) Wilson intervals for the q_k; "
    "'fair? yes' means the interval reaches 0."
)

_CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:2rem auto;max-width:1200px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
.meta{color:#666}figure{margin:1.5rem 0}figcaption{color:#555;font-size:.9rem;margin-top:.3rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1.5rem;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;white-space:nowrap}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}nav a{margin-right:1rem}
"""


def _table_html(t: HtmlTable) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in t.rows)
    return (f'<h3 id="h-table-{t.name}">{html.escape(t.title)}</h3>\n'
            f'<table id="table-{t.name}" data-table="{t.name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def render_html(rep: Report, svgs: dict[str, str]) -> str:
    """The report as one HTML document with the charts as inline SVG."""
    nav = " ".join(f'<a href="#chart-{c.name}">{html.escape(c.title)}</a>' for c in rep.charts)
    nav += " " + " ".join(f'<a href="#table-{t.name}">{html.escape(t.title)}</a>' for t in rep.tables)
    figures = "\n".join(
        f'<figure id="chart-{c.name}" data-chart="{c.name}">{svgs[c.name]}'
        f"<figcaption>{html.escape(c.caption)}</figcaption></figure>"
        for c in rep.charts
    )
    tables_html = "\n".join(_table_html(t) for t in rep.tables)
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in rep.notes)
    grouping = ", ".join(rep.by) if rep.by else "none (one group)"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(rep.title)}</title>
<style>{_CSS}</style></head><body>
<h1>{html.escape(rep.title)}</h1>
<p class="meta">Source: {html.escape(rep.source)} ({rep.files} result files); grouped by: {html.escape(grouping)};
written by rummysim {_version()}.</p>
<nav>{nav}</nav>
<section id="charts"><h2>Charts</h2>
{figures}
</section>
<section id="tables"><h2>Tables</h2>
{tables_html}
</section>
<section id="notes"><h2>Notes</h2>{notes}</section>
</body></html>
"""


def write_report(
    source: tables.Source, out: str | Path, by: tables.By = None, png_dir: str | Path | None = None,
    title: str | None = None, scale: float = 1.0,
) -> ReportResult:
    """Write the HTML report to ``out`` (and each chart as ``<png_dir>/<name>.png``).

    Both are checked before the data is read (a device or a folder as ``out``, a ``png_dir``
    that cannot be made or written: one ``InputError`` naming the path), and every file is
    rendered in memory and staged before any is moved into place, so a failure (a full disk)
    leaves none of them: no HTML without its PNGs (issue 21, point 2).

    Example:
        >>> write_report("runs/sweep", "sweep.html", by="r500_target")  # doctest: +SKIP
    """
    target = output_target(out)
    made_folder = _png_folder(Path(png_dir)) if png_dir is not None else None
    try:
        _, vlc = _require()
        rep = build_report(source, by, title)
        svgs = {c.name: vlc.vegalite_to_svg(c.spec) for c in rep.charts}
        page = render_html(rep, svgs).encode()
        pngs = [] if png_dir is None else [(Path(png_dir) / f"{c.name}.png", vlc.vegalite_to_png(c.spec, scale=scale))
                                           for c in rep.charts]
        _publish(pngs, page, target)
    except BaseException:
        if made_folder is not None:
            with contextlib.suppress(OSError):
                made_folder.rmdir()  # only if still empty: nothing of this report in it
        raise
    return ReportResult(Path(out), [c.name for c in rep.charts], [t.name for t in rep.tables], [p for p, _ in pngs])


def _png_folder(folder: Path) -> Path | None:
    """Check (and make) the ``--png`` folder before any work; returns it if it was made here."""
    made = None if folder.exists() else folder
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--png {folder} is not a folder: give a folder for the chart files")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"--png {folder}: cannot write in {exc.filename or folder}: {exc.strerror}") from None
    return made


def _publish(pngs: list[tuple[Path, bytes]], page: bytes, target: OutputTarget) -> None:
    """Stage every file, then move them into place, the HTML last: all of them or none."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in pngs:
            staged.append((_stage(path, data), path))
        if not target.through:
            staged.append((_stage(target.path, page), target.path))
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    if target.through:
        write_text_atomic(page.decode(), target)


def _stage(path: Path, data: bytes) -> str:
    """``data`` in a temporary file beside ``path`` (mode 0644); its name."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fchmod(fd, 0o644)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return tmp
