"""The report's charts as Vega-Lite specs (Altair), each one view of exactly ``width`` x ``height``.

Drawn from the small per-group results of :mod:`analysis.tables` and :mod:`analysis.duels`, never
from the raw rows. Conventions that keep them readable at a glance:

- a variation keeps one colour in every chart (:class:`Palette`, in the order of the balance
  ranking), and its name is on an axis wherever one row is one variation, so no legend is
  needed there; a legend that is needed lists every entry (its rows are counted into the height);
- rates are zoomed to the data, with the reference (the fair share 1/N, a zero difference) always
  inside the axis and drawn as a labelled rule; bars start at zero;
- quantitative axes have few ticks with a fixed format and drop labels that would overlap.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import polars as pl

WIDTH = 760
LABEL_LIMIT = 300  # pixels of an axis label (a variation's name) before it is cut
ROW = 18  # pixels per legend row
FONT = "Helvetica, Arial, sans-serif"
ENDINGS = (("ends_out", "went out", "#59a14f"), ("ends_stock_out", "stock out", "#f28e2b"),
           ("ends_stall", "stall", "#e15759"))


@dataclass
class Chart:
    """One chart: its name (file stem and HTML id), title, caption and Vega-Lite spec."""

    name: str
    title: str
    caption: str
    spec: dict
    width: int
    height: int


@dataclass(frozen=True)
class Palette:
    """One colour per group label, the same in every chart."""

    labels: tuple[str, ...]

    def scale(self, alt: Any) -> Any:
        scheme = "tableau10" if len(self.labels) <= 10 else "category20"
        return alt.Scale(domain=list(self.labels), scheme=scheme)


def finish(alt: Any, chart: Any, name: str, title: str, caption: str, height: int, legend_columns: int = 4) -> Chart:
    """The chart at ``WIDTH`` x ``height`` (padding, axes and legends included), white, one font."""
    chart = chart.properties(width=WIDTH, height=height, title=alt.TitleParams(title, fontSize=15, anchor="start"))
    chart = chart.configure(autosize=alt.AutoSizeParams(type="fit", contains="padding"), background="white", font=FONT)
    chart = chart.configure_axis(labelFontSize=12, titleFontSize=12, labelOverlap="greedy")
    chart = chart.configure_legend(orient="bottom", columns=legend_columns, labelLimit=0, titleLimit=0,
                                   labelFontSize=12, titleFontSize=12, symbolLimit=0)
    return Chart(name, title, caption, chart.to_dict(), WIDTH, height)


def legend_rows(n: int, columns: int) -> int:
    return ROW * (math.ceil(n / columns) + 1)


def zoomed(values: list[float], reference: float | None = None, pad: float = 0.01, floor: float | None = 0.0,
           step: float = 0.01, ceiling: float | None = None) -> list[float]:
    """An axis domain around ``values`` (and ``reference``), padded and rounded to ``step``; an end
    within ``5 * step`` of ``floor`` or ``ceiling`` (0% and 100% of a rate) snaps to it."""
    points = [v for v in values if v is not None and math.isfinite(v)]
    if reference is not None:
        points.append(reference)
    if not points:
        return [0.0, 1.0]
    lo = math.floor((min(points) - pad) / step) * step
    hi = math.ceil((max(points) + pad) / step) * step
    if floor is not None:
        lo = floor if lo - floor <= 5 * step else lo
    if ceiling is not None:
        hi = ceiling if ceiling - hi <= 5 * step else hi
    return [round(lo, 10), round(hi, 10)]


def _axis(alt: Any, title: str, fmt: str, ticks: int = 8, **extra: Any) -> Any:
    return alt.Axis(title=title, format=fmt, tickCount=ticks, labelFlush=True, **extra)


def _group_axis(alt: Any) -> Any:
    return alt.Axis(title=None, labelLimit=LABEL_LIMIT, labelFontSize=12)


# ---------------------------------------------------------------------------------------------
# fairness


def position_chart(alt: Any, pos: pl.DataFrame, order: list[str]) -> Chart:
    """Win share of each position in the order of play per variation, 95% intervals, fair line."""
    n_pos = pos["position"].n_unique()
    names = sorted(pos["position"].unique().to_list(), key=lambda p: int(p[1:]))
    fairs = sorted(set(pos["fair"].to_list()))
    domain = zoomed([*pos["win_lo"].to_list(), *pos["win_hi"].to_list()], fairs[0] if len(fairs) == 1 else None,
                    ceiling=1.0)
    data = pos.with_columns(pl.col("group")).to_dicts()
    base = alt.Chart(alt.Data(values=data)).encode(
        y=alt.Y("group:N", sort=order, axis=_group_axis(alt)),
        yOffset=alt.YOffset("position:N", sort=names),
        color=alt.Color("position:N", sort=names, scale=alt.Scale(scheme="viridis" if n_pos > 4 else "tableau10"),
                        title="position in the order of play (P1 = left of the first dealer, the first to play)"),
    )
    x = alt.X("win_lo:Q", scale=alt.Scale(domain=domain, zero=False, nice=False),
              axis=_axis(alt, "share of the decided games won (95% Wilson interval)", ".0%"))
    bars = base.mark_rule(strokeWidth=2.5).encode(x=x, x2="win_hi:Q")
    dots = base.mark_point(filled=True, size=55, opacity=1).encode(
        x="win_share:Q",
        tooltip=["group:N", "position:N", alt.Tooltip("win_share:Q", format=".1%"), alt.Tooltip("win_lo:Q", format=".1%"),
                 alt.Tooltip("win_hi:Q", format=".1%"), "wins:Q", "decided:Q"],
    )
    layers = [bars, dots]
    if len(fairs) == 1:
        fair = fairs[0]
        ref = alt.Chart(alt.Data(values=[{"fair": fair, "text": f"fair share 1/N = {fair:.0%}"}]))
        layers += [ref.mark_rule(color="black", strokeDash=[5, 3], strokeWidth=1.5).encode(x="fair:Q"),
                   ref.mark_text(align="left", baseline="top", dx=4, dy=2, fontSize=11).encode(
                       x="fair:Q", y=alt.value(0), text="text:N")]
    else:  # mixed player counts: each variation's own 1/N
        layers.append(base.mark_tick(thickness=2).encode(x="fair:Q", color=alt.value("black")))
    groups = len(order)
    height = 110 + groups * (n_pos * 14 + 12) + legend_rows(n_pos, n_pos)
    return finish(alt, alt.layer(*layers), "position_win_rates", "Win rate by position in the order of play",
                  "Each position's share of the games with a winner, with its 95% Wilson interval; the dashed line "
                  "is the fair share 1/N. A fair variation has every position's interval across the line.",
                  height, legend_columns=n_pos)


def balance_length_chart(alt: Any, bal: pl.DataFrame, palette: Palette, games_unit: bool) -> Chart:
    """Balance index against mean game length, one point per variation, intervals on both axes."""
    length, lo, hi = (("hands_per_game_mean", "hands_per_game_lo", "hands_per_game_hi") if games_unit
                      else ("turns_per_hand_mean", "turns_per_hand_mean", "turns_per_hand_mean"))
    data = bal.filter(pl.col("balance_index").is_not_null() & pl.col(length).is_not_null())
    data = data.select("group", "rank", "balance_index", "balance_lo", "balance_hi", pl.col(length).alias("len"),
                       pl.col(lo).alias("len_lo"), pl.col(hi).alias("len_hi")).with_columns(
        pl.col("rank").cast(pl.String).alias("tag"))
    rows = data.to_dicts()
    what = "mean hands per game (95% interval)" if games_unit else "mean turns per hand"
    x_dom = zoomed([*data["len_lo"].to_list(), *data["len_hi"].to_list()], pad=0.3, floor=0.0, step=0.5)
    y_dom = zoomed(data["balance_hi"].to_list(), 0.0, pad=0.02, step=0.05)
    height = 460 + legend_rows(len(rows), 2)
    place_tags(rows, x_dom, y_dom, (WIDTH - 80, height - legend_rows(len(rows), 2) - 90))
    ranks = {r["group"]: f"{r['rank']}  {r['group']}" for r in rows}
    base = alt.Chart(alt.Data(values=rows)).encode(
        color=alt.Color("group:N", scale=palette.scale(alt), sort=list(palette.labels), legend=alt.Legend(
            title="variation, numbered by its balance rank", values=[r["group"] for r in rows],
            labelExpr=f"{json.dumps(ranks)}[datum.label] || datum.label")),
    )
    x = alt.X("len:Q", scale=alt.Scale(domain=x_dom, zero=False, nice=False), axis=_axis(alt, what, ".1f"))
    y = alt.Y("balance_index:Q", scale=alt.Scale(domain=y_dom, nice=False),
              axis=_axis(alt, "balance index max|N·q − 1| (0 = fair; 95% interval)", ".2f", ticks=6))
    vertical = base.mark_rule(strokeWidth=2, opacity=0.8).encode(x=x, y=alt.Y("balance_lo:Q"), y2="balance_hi:Q")
    horizontal = base.mark_rule(strokeWidth=2, opacity=0.8).encode(x=alt.X("len_lo:Q"), x2="len_hi:Q", y=y)
    dots = base.mark_point(filled=True, size=110, opacity=1, stroke="white", strokeWidth=1).encode(
        x="len:Q", y="balance_index:Q",
        tooltip=["group:N", "rank:Q", alt.Tooltip("balance_index:Q", format=".3f"), alt.Tooltip("len:Q", format=".2f")],
    )
    tags = base.mark_text(fontSize=13, fontWeight="bold", align="center", baseline="middle").encode(
        x="tag_x:Q", y="tag_y:Q", text="tag:N")
    zero = alt.Chart(alt.Data(values=[{"y": 0}])).mark_rule(color="black").encode(y="y:Q")
    return finish(alt, alt.layer(zero, vertical, horizontal, dots, tags), "balance_vs_length",
                  "Balance index against game length (lower is fairer)",
                  "One point per variation, numbered by its balance rank: up is less fair (the largest relative "
                  "deviation of any position from 1/N), right is longer games; both bars are 95% intervals (the "
                  "balance one simultaneous over the positions).", height, legend_columns=2)


# offsets in pixels that clear the point itself (a 14 px box) for a tag of up to two digits
_TAG_SPOTS = [(17, -12), (17, 12), (-17, -12), (-17, 12), (0, -18), (0, 18), (25, 0), (-25, 0), (28, -24),
              (-28, 24), (28, 24), (-28, -24), (0, -32), (0, 32)]


def place_tags(rows: list[dict], x_dom: list[float], y_dom: list[float], plot: tuple[int, int]) -> None:
    """Put each point's tag (``tag_x``, ``tag_y`` in data units) beside it where it covers no other
    point and no tag placed before it (fairest first), trying spots around the point in turn."""
    w, h = plot
    sx, sy = w / (x_dom[1] - x_dom[0]), h / (y_dom[1] - y_dom[0])
    points = [((r["len"] - x_dom[0]) * sx, (y_dom[1] - r["balance_index"]) * sy) for r in rows]
    taken: list[tuple[float, float, float, float]] = [(px - 7, py - 7, px + 7, py + 7) for px, py in points]
    for r, (px, py) in sorted(zip(rows, points), key=lambda pair: pair[0]["rank"]):
        half_w, half_h = 4 + 4 * len(r["tag"]), 8
        for dx, dy in _TAG_SPOTS:
            box = (px + dx - half_w, py + dy - half_h, px + dx + half_w, py + dy + half_h)
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
                break
        else:
            dx, dy = _TAG_SPOTS[0]
        taken.append(box)
        r["tag_x"], r["tag_y"] = r["len"] + dx / sx, r["balance_index"] - dy / sy


def balance_chart(alt: Any, bal: pl.DataFrame, order: list[str], palette: Palette) -> Chart:
    """The balance index of every variation with its interval, ranked (fairest at the top)."""
    data = bal.filter(pl.col("balance_index").is_not_null()).select(
        "group", "rank", "balance_index", "balance_lo", "balance_hi", "worst_position").to_dicts()
    dom = zoomed([r["balance_hi"] for r in data], 0.0, pad=0.02, step=0.05)
    base = alt.Chart(alt.Data(values=data)).encode(
        y=alt.Y("group:N", sort=order, axis=_group_axis(alt)),
        color=alt.Color("group:N", scale=palette.scale(alt), legend=None),
    )
    x = alt.X("balance_lo:Q", scale=alt.Scale(domain=dom, nice=False),
              axis=_axis(alt, "balance index max|N·q − 1| (0 = fair), 95% simultaneous interval", ".2f", ticks=6))
    rules = base.mark_rule(strokeWidth=3).encode(x=x, x2="balance_hi:Q")
    points = base.mark_point(filled=True, size=80, opacity=1, color="black").encode(
        x="balance_index:Q", tooltip=["group:N", "rank:Q", alt.Tooltip("balance_index:Q", format=".3f"), "worst_position:N"])
    height = 100 + max(1, len(order)) * 30
    return finish(alt, alt.layer(rules, points), "balance", "Balance index per variation (lower is fairer)",
                  "Largest relative deviation of any position's win share from 1/N in the order of play (P1 = left of the first dealer), "
                  "fairest first; the bar is a simultaneous 95% interval, and one that reaches 0 cannot be told "
                  "from a fair game.", height)


# ---------------------------------------------------------------------------------------------
# length and endings


def length_bars(alt: Any, bal: pl.DataFrame, order: list[str], palette: Palette) -> Chart:
    """Mean hands per game of every variation as bars from zero, with their 95% intervals."""
    data = bal.filter(pl.col("hands_per_game_mean").is_not_null()).select(
        "group", "hands_per_game_mean", "hands_per_game_lo", "hands_per_game_hi").with_columns(
        pl.col("hands_per_game_mean").round(2).cast(pl.String).alias("text")).to_dicts()
    top = max([r["hands_per_game_hi"] or r["hands_per_game_mean"] for r in data] + [1.0])
    base = alt.Chart(alt.Data(values=data)).encode(y=alt.Y("group:N", sort=order, axis=_group_axis(alt)))
    x = alt.X("hands_per_game_mean:Q", scale=alt.Scale(domain=[0, math.ceil(top * 1.12)], nice=False),
              axis=_axis(alt, "mean hands per game (black: 95% interval)", ".0f"))
    bars = base.mark_bar(height={"band": 0.7}).encode(
        x=x, color=alt.Color("group:N", scale=palette.scale(alt), legend=None),
        tooltip=["group:N", alt.Tooltip("hands_per_game_mean:Q", format=".2f")])
    ci = base.mark_rule(color="black", strokeWidth=2).encode(x="hands_per_game_lo:Q", x2="hands_per_game_hi:Q")
    text = base.mark_text(align="left", dx=6, fontSize=12).encode(x="hands_per_game_hi:Q", text="text:N")
    height = 100 + max(1, len(order)) * 30
    return finish(alt, alt.layer(bars, ci, text), "game_length", "Game length: hands per game",
                  "Mean number of hands a game lasts per variation, with its 95% interval.", height)


def histogram(alt: Any, data: pl.DataFrame, x_title: str, y_title: str, name: str, title: str, caption: str,
              color: str = "#4c78a8") -> Chart:
    """One distribution as bars (integer values each their own bar)."""
    rows = data.select("value", "count", "share").to_dicts()
    values = sorted(r["value"] for r in rows)
    integer = data.height > 0 and data["value"].dtype.is_integer()
    step = 1 if integer else (values[1] - values[0] if len(values) > 1 else 1)
    width = max(1, round(0.8 * (WIDTH - 120) / max(1, (values[-1] - values[0]) / step + 1))) if values else 10
    x = alt.X("value:Q", scale=alt.Scale(domain=[values[0] - step, values[-1] + step] if values else [0, 1], nice=False),
              axis=_axis(alt, x_title, "d", tickMinStep=1 if integer else None))
    chart = alt.Chart(alt.Data(values=rows)).mark_bar(size=width, color=color).encode(
        x=x, y=alt.Y("share:Q", axis=_axis(alt, y_title, ".0%", ticks=6)),
        tooltip=["value:Q", "count:Q", alt.Tooltip("share:Q", format=".1%")])
    return finish(alt, chart, name, title, caption, 340)


def endings_chart(alt: Any, summary: pl.DataFrame, order: list[str]) -> Chart:
    """Shares of hands by how they ended, one stacked bar per variation."""
    rows = []
    for r in summary.to_dicts():
        for key, name, _ in ENDINGS:
            if r.get(key) is not None:
                rows.append({"group": r["group"], "end": name, "share": r[key],
                             "text": f"{r[key]:.1%}" if r[key] >= 0.06 else ""})
    names = [n for _, n, _ in ENDINGS]
    rows = [{**r, "order": names.index(r["end"])} for r in rows]
    base = alt.Chart(alt.Data(values=rows)).encode(
        y=alt.Y("group:N", sort=order, axis=_group_axis(alt)),
        x=alt.X("share:Q", stack="normalize", axis=_axis(alt, "share of hands", ".0%", ticks=5)),
        order=alt.Order("order:Q"),
    )
    bars = base.mark_bar(height={"band": 0.75}).encode(
        color=alt.Color("end:N", title="hand ended by", sort=names,
                        scale=alt.Scale(domain=names, range=[c for _, _, c in ENDINGS])),
        tooltip=["group:N", "end:N", alt.Tooltip("share:Q", format=".1%")])
    text = base.mark_text(color="white", fontSize=12, fontWeight="bold", align="center").encode(
        text="text:N", x=alt.X("share:Q", stack="normalize", bandPosition=0.5))
    height = 110 + len({r["group"] for r in rows}) * 30 + legend_rows(3, 3)
    return finish(alt, alt.layer(bars, text), "hand_endings", "How hands end",
                  "Share of hands that ended by someone going out, by the stock running out, or by a stall "
                  "(loop guard or turn cap), per variation.", height, legend_columns=3)


def lines(alt: Any, data: pl.DataFrame, x_title: str, y_title: str, palette: Palette, name: str, title: str,
          caption: str, color_title: str = "variation") -> Chart:
    """Distributions of several groups as lines (every group in the legend)."""
    chart = alt.Chart(alt.Data(values=data.select("group", "value", "count", "share").to_dicts())).mark_line(
        point=alt.OverlayMarkDef(size=18), strokeWidth=2).encode(
        x=alt.X("value:Q", axis=_axis(alt, x_title, "d")),
        y=alt.Y("share:Q", axis=_axis(alt, y_title, ".0%", ticks=6)),
        color=alt.Color("group:N", title=color_title, scale=palette.scale(alt), sort=list(palette.labels)),
        tooltip=["group:N", "value:Q", "count:Q", alt.Tooltip("share:Q", format=".1%")],
    )
    columns = 2 if max((len(g) for g in palette.labels), default=0) > 30 else 3
    return finish(alt, chart, name, title, caption, 340 + legend_rows(len(palette.labels), columns),
                  legend_columns=columns)


# ---------------------------------------------------------------------------------------------
# strategies and duels


def seat_chart(alt: Any, seats: pl.DataFrame, order: list[str], noun: str, what: str) -> Chart:
    """Each seat's (side's) win rate with its interval per group, its strategy in the legend."""
    data = seats.with_columns((pl.col("win_rate") - pl.col("win_dev")).alias("fair"))
    names = data["seat_label"].to_list()
    seat_order = list(dict.fromkeys(names))
    domain = zoomed([*data["win_lo"].to_list(), *data["win_hi"].to_list(), *data["fair"].to_list()], ceiling=1.0)
    base = alt.Chart(alt.Data(values=data.to_dicts())).encode(
        y=alt.Y("group:N", sort=order, axis=_group_axis(alt)),
        yOffset=alt.YOffset("seat_label:N", sort=seat_order),
        color=alt.Color("seat_label:N", title=noun, sort=seat_order,
                        scale=alt.Scale(scheme="tableau10" if len(seat_order) <= 10 else "category20")),
    )
    rules = base.mark_rule(strokeWidth=2.5).encode(
        x=alt.X("win_lo:Q", scale=alt.Scale(domain=domain, zero=False, nice=False),
                axis=_axis(alt, f"{what} (95% Wilson interval; black tick: fair share 1/N)", ".0%")),
        x2="win_hi:Q")
    points = base.mark_point(filled=True, size=55, opacity=1).encode(
        x="win_rate:Q", tooltip=["group:N", alt.Tooltip("seat_label:N", title=noun), "strategy:N",
                                 alt.Tooltip("win_rate:Q", format=".1%")])
    fair = base.mark_tick(thickness=2).encode(x="fair:Q", color=alt.value("black"))
    n = len(seat_order)
    height = 110 + len(order) * (n * 16 + 14) + legend_rows(n, 3)
    return finish(alt, alt.layer(rules, points, fair), "seat_win_rates", f"{noun.capitalize()} {what}s and their strategies",
                  f"Each {noun}'s {what} with its 95% Wilson interval and the strategy it played; the black tick is "
                  "the fair share 1/N.", height, legend_columns=3)


def matrix_chart(alt: Any, matrix: pl.DataFrame, pooled: bool, fair: float = 0.5) -> Chart:
    names = sorted(set(matrix["strategy"].to_list()) | set(matrix["opponent"].to_list()))
    data = matrix.select("strategy", "opponent", "pairs", "win_rate", "win_lo", "win_hi").to_dicts()
    base = alt.Chart(alt.Data(values=data)).encode(
        x=alt.X("opponent:N", sort=names, title="opponent (at another seat)", axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("strategy:N", sort=names, title="strategy"),
    )
    heat = base.mark_rect().encode(
        color=alt.Color("win_rate:Q", title="win rate", scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=fair),
                        legend=alt.Legend(format=".0%", orient="right")),
        tooltip=["strategy:N", "opponent:N", "pairs:Q", alt.Tooltip("win_rate:Q", format=".1%")],
    )
    text = base.mark_text(fontSize=14).encode(
        text=alt.Text("win_rate:Q", format=".1%"),
        color=alt.condition("datum.win_rate > 0.8 || datum.win_rate < 0.2", alt.value("white"), alt.value("black")),
    )
    title = "Strategy matrix" + (" (all groups pooled)" if pooled else "")
    return finish(alt, alt.layer(heat, text), "strategy_matrix", title,
                  "Win rate of a seat playing the row strategy when the column strategy sits at another seat "
                  "(white = the fair share 1/N).", 170 + 70 * len(names))


def difference_chart(alt: Any, frame: pl.DataFrame, label: str, order: list[str], unit: str, name: str, title: str,
                     caption: str) -> Chart:
    """Score differences per hand with their 95% intervals against a zero line, one row each."""
    data = [{**r, "text": f"{r['diff_per_hand']:+.2f}  [{r['diff_per_hand_lo']:+.2f}, {r['diff_per_hand_hi']:+.2f}]"}
            for r in frame.select(pl.col(label).alias("row"), "diff_per_hand", "diff_per_hand_lo",
                                  "diff_per_hand_hi").to_dicts()]
    ends = [r["diff_per_hand_lo"] for r in data] + [r["diff_per_hand_hi"] for r in data]
    span = max(1.0, max(abs(v) for v in ends) if ends else 1.0)
    domain = zoomed(ends, 0.0, pad=0.3 * span, floor=None, step=10 ** math.floor(math.log10(span)) / 2)
    base = alt.Chart(alt.Data(values=data)).encode(y=alt.Y("row:N", sort=order, axis=_group_axis(alt)))
    x = alt.X("diff_per_hand_lo:Q", scale=alt.Scale(domain=domain, nice=False),
              axis=_axis(alt, f"difference in {unit} per hand (95% interval; the deal is the unit)", "~r",
                         labelExpr="datum.value > 0 ? '+' + datum.label : datum.label"))
    rules = base.mark_rule(strokeWidth=3, color="#4c78a8").encode(x=x, x2="diff_per_hand_hi:Q")
    dots = base.mark_point(filled=True, size=90, opacity=1, color="#4c78a8").encode(
        x="diff_per_hand:Q", tooltip=["row:N", alt.Tooltip("diff_per_hand:Q", format="+.2f")])
    text = base.mark_text(dy=-12, fontSize=12).encode(x="diff_per_hand:Q", text="text:N")
    zero = alt.Chart(alt.Data(values=[{"x": 0}])).mark_rule(color="black", strokeDash=[5, 3]).encode(x="x:Q")
    height = 110 + max(1, len(order)) * 44
    return finish(alt, alt.layer(zero, rules, dots, text), name, title, caption, height)
