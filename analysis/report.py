"""A self-contained HTML report of result files: what was played, charts (Altair, rendered by
vl-convert) and tables.

The page opens with the run's description (:mod:`analysis.describe`: the variations, named by
preset and overrides, with players, lineups, games and seeds). Then the charts (specs in
:mod:`analysis.charts`), drawn from the small per-group results of :mod:`analysis.tables` and
rendered to inline SVG (no JavaScript, no network) and optionally to PNG files, each exactly
``width`` x ``height`` pixels (``width * scale`` in a PNG):

- win rate by position in the order of play (P1..PN) per variation, 95% intervals, fair line 1/N;
- the balance index per variation, ranked, and against the mean game length (two or more groups);
- game length (mean hands per game per variation as bars; one group: its distribution as bars);
- how hands end (with hand rows), the final score distributions;
- with lineups of two or more strategies: each seat's win rate and strategy, the strategy matrix;
- for a ``compare`` or ``tournament`` file (:mod:`analysis.duels`): the score difference of each
  pairing with its interval, and a tournament's ladder.

Tables: the run, the summary of ``rummysim analyze``, the balance ranking, the seats, and as the
data allows the strategies, stakes, pairings and ladder.

Needs the optional extra ``report``: ``python3 -m pip install 'rummysim[report]'``.

Example:
    >>> from analysis.report import write_report
    >>> write_report("runs/first.parquet", "report.html", png_dir="charts")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rummysim.analysis import charts, fmt, tables
from rummysim.analysis.charts import Chart, Palette
from rummysim.analysis.describe import RunDescription, describe_runs
from rummysim.analysis.duels import Duels, duel_file, read_duels
from rummysim.analysis.load import GAMES, HANDS, Dataset, open_source
from rummysim.analysis.sessions import stakes as stakes_table
from rummysim.analysis.stats import format_p
from rummysim.errors import InputError, RummysimError
from rummysim.output import OutputTarget, output_target, write_text_atomic

INSTALL_HINT = "python3 -m pip install 'rummysim[report]'"
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
    description: RunDescription | None = None
    missing: list[str] = field(default_factory=list)  # charts the data cannot give, and why


@dataclass
class ReportResult:
    html: Path
    charts: list[str]
    tables: list[str]
    pngs: list[Path]


# ---------------------------------------------------------------------------------------------
# tables


def _summary_table(summary: pl.DataFrame, labels: list[str]) -> HtmlTable:
    cols = ["group", "unit", "games", "hands", "P1 win rate", "P1 edge (pp)", "95% CI", "mean score",
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
    cols = ["rank", "group", "players", "games", "balance index", "95% CI", "fair?", "worst position (pp)", "P1 edge (pp)",
            "95% CI", "hands/game", "95% CI", "turns/hand", "capped"]
    rows = []
    for r in bal.to_dicts():
        fair = r["consistent_with_fair"]
        rows.append([
            str(r["rank"]), tables.group_label(r, by), "mixed" if r["players"] is None else str(r["players"]),
            fmt.num(r["games"] if r["unit"] == "games" else r["hands"], 0) + ("" if r["unit"] == "games" else " hands"),
            fmt.num(r["balance_index"], 3), fmt.ci(r["balance_lo"], r["balance_hi"], digits=3),
            "n/a" if fair is None else ("yes" if fair else "no"),
            "n/a" if r["worst_position"] is None else f"{r['worst_position']} {fmt.pp(r['worst_edge'])}",
            fmt.pp(r["first_edge"]), fmt.ci(r["first_edge_lo"], r["first_edge_hi"], 100, sign=True),
            fmt.num(r["hands_per_game_mean"], 2), fmt.ci(r["hands_per_game_lo"], r["hands_per_game_hi"], digits=2),
            fmt.num(r["turns_per_hand_mean"], 1), fmt.pct(r["capped_share"]),
        ])
    return HtmlTable("balance", "Balance ranking", cols, rows)


def _run_table(desc: RunDescription) -> HtmlTable:
    cols = ["variation", "full rules", "players", "lineup", "games", "seed"]
    rows = [[line.variation, line.rules_command or "-", line.players, line.lineup,
             fmt.num(line.games, 0) + ("" if line.unit == "games" else " hands"), ", ".join(line.seeds[:3])
             + (f" and {len(line.seeds) - 3} more" if len(line.seeds) > 3 else "")] for line in desc.lines]
    return HtmlTable("run", "What was played", cols, rows)


def _pairings_table(duels: Duels) -> HtmlTable:
    cols = ["A", "B", "deals", "games", f"A - B per hand ({duels.unit})", "95% CI", "per game", "95% CI", "p", "A win rate"]
    rows = [[r["strategy"], r["opponent"], fmt.num(r["deals"], 0), fmt.num(r["games"], 0), f"{r['diff_per_hand']:+.2f}",
             fmt.ci(r["diff_per_hand_lo"], r["diff_per_hand_hi"], digits=2), f"{r['diff_per_game']:+.1f}",
             fmt.ci(r["diff_per_game_lo"], r["diff_per_game_hi"]), _p(r["p_value"]), fmt.pct(r["win_rate"])]
            for r in duels.pairings.to_dicts()]
    return HtmlTable("pairings", "Score difference of each pairing (duplicate deals)", cols, rows)


def _ladder_table(duels: Duels) -> HtmlTable:
    cols = ["rank", "strategy", f"per hand against the others ({duels.unit})", "95% CI", "per game", "95% CI", "win rate"]
    rows = [[str(r["rank"]), r["strategy"], f"{r['diff_per_hand']:+.2f}",
             fmt.ci(r["diff_per_hand_lo"], r["diff_per_hand_hi"], digits=2), f"{r['diff_per_game']:+.1f}",
             fmt.ci(r["diff_per_game_lo"], r["diff_per_game_hi"]), fmt.pct(r["win_rate"])]
            for r in duels.ladder.to_dicts()] if duels.ladder is not None else []
    return HtmlTable("ladder", "Ladder: mean score difference against the other strategies", cols, rows)


def _p(p: float | None) -> str:
    return format_p(p) if p is not None else "n/a"


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


def side_noun(sides: pl.DataFrame) -> str:
    """``seat`` while every side of the seat table is one seat (every game today), else ``side``."""
    members = [m for m in sides["members"].to_list() if m is not None] if "members" in sides.columns else []
    return "side" if any("+" in m or m == "mixed" for m in members) else "seat"


def _member_labels(sides: pl.DataFrame) -> list[str]:
    return [m if m is not None else str(k) for k, m in zip(sides["side"].to_list(), sides["members"].to_list())]


@dataclass
class _Groups:
    """The report's groups: labels in the order of the balance ranking, one colour each."""

    order: list[str]
    palette: Palette

    def sort(self, labels: list[str]) -> list[str]:
        rank = {g: i for i, g in enumerate(self.order)}
        return sorted(dict.fromkeys(labels), key=lambda g: rank.get(g, len(rank)))


def build_report(source: tables.Source, by: tables.By = None, title: str | None = None) -> Report:
    """Compute every table and chart spec of the report (altair needed, vl-convert not yet)."""
    alt, _ = _require()
    ds: Dataset = open_source(source)
    by = tables.resolve_by(ds, by)
    label = str(source) if not isinstance(source, (Dataset, pl.DataFrame, pl.LazyFrame)) else ds.label
    rep = Report(title or f"rummysim report: {label}", label, by, len(ds.files))
    rep.description = describe_runs(ds) if ds.files else None

    summary = _with_group(tables.summarize(ds, by), by)
    bal = tables.balance(ds, by)
    # balance() adds players to the grouping when the data mixes player counts
    bal_by = by if "players" in by or bal["players"].n_unique() <= 1 else [*by, "players"]
    bal = _with_group(bal, bal_by)
    groups = _Groups(bal["group"].to_list(), Palette(tuple(dict.fromkeys([*bal["group"].to_list(),
                                                                         *summary["group"].to_list()]))))
    games_unit = GAMES in ds.kinds()
    duels = read_duels(ds) if duel_file(ds) is not None else None
    if duels is not None:  # what a comparison asks first; its groups are seatings, not variations
        _duel_charts(alt, rep, duels)
        _strategy_charts(alt, rep, ds, by, summary, groups)
    _fairness_charts(alt, rep, ds, bal, bal_by, groups, games_unit, against_length=duels is None)
    _length_charts(alt, rep, ds, by, summary, bal, groups, games_unit)
    if duels is None:
        _strategy_charts(alt, rep, ds, by, summary, groups)

    if rep.description is not None:
        rep.tables.append(_run_table(rep.description))
    rep.tables.append(_summary_table(summary, summary["group"].to_list()))
    rep.tables.append(_balance_table(bal.drop("group"), bal_by))
    seats = _with_group(tables.seat_table(summary.drop("group"), by), by)
    rep.tables.append(_seats_table(seats, by))
    if "lineup" in ds.columns():
        strat = tables.strategies(ds, by)
        if strat.height and strat["strategy"].n_unique() >= 2:
            rep.tables.append(_strategies_table(strat, by))
    if games_unit and "stake_0" in ds.row_columns(GAMES):
        rep.tables.append(_stakes_table(stakes_table(ds, by), by))
        rep.notes.append(_STAKES_NOTE)
    if duels is not None:
        rep.tables.append(_pairings_table(duels))
        if duels.ladder is not None:
            rep.tables.append(_ladder_table(duels))
    rep.notes.append(_BALANCE_NOTE)
    rep.notes.append(_LABEL_NOTE)
    return rep


def _fairness_charts(alt: Any, rep: Report, ds: Dataset, bal: pl.DataFrame, bal_by: list[str], groups: _Groups,
                     games_unit: bool, against_length: bool) -> None:
    pos = _with_group(tables.positions(ds, bal_by), bal_by)
    if pos.height:
        rep.charts.append(charts.position_chart(alt, pos, groups.sort(pos["group"].to_list())))
    ranked = bal.filter(pl.col("balance_index").is_not_null())
    if ranked.height:
        rep.charts.append(charts.balance_chart(alt, ranked, groups.sort(ranked["group"].to_list()), groups.palette))
    if ranked.height >= 2 and against_length:
        rep.charts.append(charts.balance_length_chart(alt, ranked, groups.palette, games_unit))


def _length_charts(alt: Any, rep: Report, ds: Dataset, by: list[str], summary: pl.DataFrame, bal: pl.DataFrame,
                   groups: _Groups, games_unit: bool) -> None:
    labels = summary["group"].to_list()
    weights = {lab: (r.get("games") or r.get("hands") or 0) for lab, r in zip(labels, summary.to_dicts())}
    if games_unit and bal.height >= 2:
        rep.charts.append(charts.length_bars(alt, bal, groups.sort(bal["group"].to_list()), groups.palette))
    elif games_unit:
        dist = tables.distribution(ds, "hands", by, kind=GAMES)
        rep.charts.append(charts.histogram(alt, dist, "hands per game", "share of games", "game_length",
                                           "Game length: hands per game", "How many hands a game lasts."))
    else:
        dist = _with_group(tables.distribution(ds, "turns", by, kind=HANDS), by)
        dist, note = _top_groups(dist, labels, weights)
        rep.charts.append(charts.lines(alt, dist, "turns per hand", "share of hands", groups.palette, "game_length",
                                       "Hand length" + note, "How many turns an independent hand lasts."))
    if summary["ends_out"].drop_nulls().len():
        rep.charts.append(charts.endings_chart(alt, summary, groups.sort(labels)))
    else:
        rep.missing.append("How hands end needs the hand rows: simulate --hands, or hands = true in a sweep's [run].")
    kind = GAMES if games_unit else HANDS
    what = "final score" if games_unit else "hand score"
    if len(labels) == 1:
        seats = _with_group(tables.seat_table(summary.drop("group"), by), by)
        noun = side_noun(seats)
        scores = tables.distribution(ds, "score", by, kind=kind, bins=40, per_side=True)
        names = {side: f"{m}: {st}" if st else m for side, m, st in
                 zip(seats["side"].to_list(), _member_labels(seats), seats["strategy"].to_list())}
        named = pl.col("side").replace_strict(names, default=pl.col("side").cast(pl.String), return_dtype=pl.String)
        scores = scores.with_columns((pl.lit(f"{noun} ") + named).alias("group"))
        palette = Palette(tuple(dict.fromkeys(scores.sort("side")["group"].to_list())))
        rep.charts.append(charts.lines(alt, scores, what, f"share of {noun}s", palette, "score_distribution",
                                       f"Distribution of {what}s by {noun}", f"Each {noun}'s {what}s in bins of equal "
                                       "width.", color_title=noun))
    else:
        scores = _with_group(tables.distribution(ds, "score", by, kind=kind, bins=40), by)
        scores, note = _top_groups(scores, labels, weights)
        rep.charts.append(charts.lines(alt, scores, what, "share of scores", groups.palette, "score_distribution",
                                       f"Distribution of {what}s" + note,
                                       f"Every player's {what}s pooled per group, in bins of equal width."))


def _strategy_charts(alt: Any, rep: Report, ds: Dataset, by: list[str], summary: pl.DataFrame, groups: _Groups) -> None:
    """Seat win rates and the strategy matrix, when the lineups hold two strategies or more (with
    one strategy everywhere and a random first dealer, seats are fair by construction)."""
    if "lineup" not in ds.columns():
        return
    strat = tables.strategies(ds, by)
    if not strat.height or strat["strategy"].n_unique() < 2:
        return
    seats = _with_group(tables.seat_table(summary.drop("group"), by), by)
    noun = side_noun(seats)
    members = _member_labels(seats)
    named = [f"{noun} {m}: {st}" if st else f"{noun} {m}" for m, st in zip(members, seats["strategy"].to_list())]
    if summary.height > 1:
        named = [f"{noun} {m}" for m in members]
    seats = seats.with_columns(pl.Series("seat_label", named, dtype=pl.String))
    what = "win rate" if GAMES in ds.kinds() else "going-out rate"
    rep.charts.append(charts.seat_chart(alt, seats, groups.sort(seats["group"].to_list()), noun, what))
    matrix = tables.strategy_matrix(ds, [])
    fair = float((strat["fair"] * strat["seat_games"]).sum() / strat["seat_games"].sum())
    rep.charts.append(charts.matrix_chart(alt, matrix, pooled=summary.height > 1, fair=fair))


def _duel_charts(alt: Any, rep: Report, duels: Duels) -> None:
    pairs = duels.pairings.with_columns((pl.col("strategy") + " − " + pl.col("opponent")).alias("pair"))
    order = pairs["pair"].to_list()
    what = "A − B" if duels.command == "compare" else "row − column"
    rep.charts.append(charts.difference_chart(
        alt, pairs, "pair", order, duels.unit, "score_difference", "Score difference on duplicate deals",
        f"Mean {duels.unit} per hand that the first strategy of each pairing gains on the second ({what}), with "
        "the 95% interval across deals; the dashed line is no difference.",
    ))
    if duels.ladder is not None:
        ladder = duels.ladder.with_columns((pl.col("rank").cast(pl.String) + ". " + pl.col("strategy")).alias("who"))
        rep.charts.append(charts.difference_chart(
            alt, ladder, "who", ladder["who"].to_list(), duels.unit, "ladder", "Ladder",
            f"Each strategy's mean {duels.unit} per hand against the others (the mean over its pairings, deal by "
            "deal), best first, with 95% intervals.",
        ))


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
    "'fair? yes' means the interval reaches 0. An edge (P1 edge, worst position) is a position's win share "
    "minus its fair share 1/N in percentage points (pp), the unit of the summary's P1 edge too: "
    "balance index = N x |worst edge|."
)

_LABEL_NOTE = (
    "Variations are named by their preset (rummysim rules list) and the flags that differ from it, as --rule "
    "takes them: '500-rum +r500_target=1000' is the 500-rum preset with r500_target=1000. Its full rules: "
    "rummysim rules show 500-rum -r r500_target=1000 (the 'full rules' column of What was played)."
)

_CSS = """
body{font-family:Helvetica,Arial,sans-serif;margin:2rem auto;max-width:1200px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
.meta{color:#666}.lead{font-size:1.1rem}.missing{color:#8a5300}figure{margin:1.5rem 0}figcaption{color:#555;font-size:.9rem;margin-top:.3rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1.5rem;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;white-space:nowrap}
th{background:#f3f3f3}.num{text-align:right}nav a{margin-right:1rem}
"""


_NUMBER = re.compile(r"^([+\-−]?[0-9.,]+( ?(%|pp|hands))?|\[[^\]]*\]|n/a|-|< ?1e-300|P\d+ [+\-].*)$")


def _numeric_columns(t: HtmlTable) -> list[bool]:
    """Columns whose every cell is a number, an interval or n/a: right-aligned; text reads left."""
    return [all(_NUMBER.match(str(row[i]).strip()) for row in t.rows) if t.rows else True
            for i in range(len(t.columns))]


def _table_html(t: HtmlTable) -> str:
    right = _numeric_columns(t)
    cls = [' class="num"' if r else "" for r in right]
    head = "".join(f"<th{c}>{html.escape(col)}</th>" for c, col in zip(cls, t.columns))
    body = "".join("<tr>" + "".join(f"<td{c}>{html.escape(str(v))}</td>" for c, v in zip(cls, row)) + "</tr>"
                   for row in t.rows)
    return (f'<h3 id="h-table-{t.name}">{html.escape(t.title)}</h3>\n'
            f'<table id="table-{t.name}" data-table="{t.name}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def _description_html(rep: Report, run: HtmlTable | None) -> str:
    """The run's description at the top: the sweep's name or the files, then what was played."""
    if rep.description is None:
        return ""
    notes = "".join(f"<p class=\"meta\">{html.escape(n)}</p>" for n in rep.description.notes)
    table = _table_html(run) if run is not None else ""
    return f'<section id="run"><p class="lead">{html.escape(rep.description.heading)}</p>{notes}{table}</section>'


def render_html(rep: Report, svgs: dict[str, str]) -> str:
    """The report as one HTML document with the charts as inline SVG."""
    nav = " ".join(f'<a href="#chart-{c.name}">{html.escape(c.title)}</a>' for c in rep.charts)
    nav += " " + " ".join(f'<a href="#table-{t.name}">{html.escape(t.title)}</a>' for t in rep.tables)
    figures = "\n".join(
        f'<figure id="chart-{c.name}" data-chart="{c.name}">{svgs[c.name]}'
        f"<figcaption>{html.escape(c.caption)}</figcaption></figure>"
        for c in rep.charts
    )
    run = [t for t in rep.tables if t.name == "run"]
    tables_html = "\n".join(_table_html(t) for t in rep.tables if t.name != "run")
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in rep.notes)
    missing = "".join(f'<p class="missing">{html.escape(m)}</p>' for m in rep.missing)
    grouping = ", ".join(rep.by) if rep.by else "none (one group)"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(rep.title)}</title>
<style>{_CSS}</style></head><body>
<h1>{html.escape(rep.title)}</h1>
{_description_html(rep, run[0] if run else None)}
<p class="meta">Source: {html.escape(rep.source)} ({rep.files} result files); grouped by: {html.escape(grouping)};
written by rummysim {_version()}.</p>
<nav>{nav}</nav>
<section id="charts"><h2>Charts</h2>
{figures}
{missing}
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
