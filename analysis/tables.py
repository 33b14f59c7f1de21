"""The statistics of result files as Polars DataFrames: summary, balance, payoffs, strategies.

Every function takes a *source* (a result file, a folder of them, a glob, an
:class:`analysis.load.Dataset`, or a frame of game or hand rows) and ``by``, the columns to group
by: row columns, hive partition keys, or run metadata attached per file (``game``, ``players``,
``lineup``, ``seed``, ``unit`` and every rule flag, e.g. ``r500_target``). ``by=None`` groups by
what tells the files apart (hive keys and the configuration metadata whose values differ between
files, plus a ``lineup`` row column); ``by=[]`` (or ``""``) puts everything in one group. The rows
are scanned lazily and aggregated in one pass per kind, so the data may be larger than memory; only
the small per-group results are built in Python.

Conventions:

- Statistics are by *side*, the seats that win together (``sim.sides``; a file's map is its
  ``sides`` metadata). Every game today has one seat per side, so side k is seat k and every
  figure is the seat's. A side's score is its ``side_score_k``.
- A side's *win rate* is wins / games: a game without a winner (``winner_side = -1``: capped, or
  drawn) counts as a loss for every side. Its fair share is 1/S for S sides (the mean of 1/S when
  a group mixes player counts). Intervals are 95% Wilson intervals for proportions and normal
  intervals for means (``analysis.stats``).
- The *first seat* of a game is the seat left of the first dealer, ``(first_dealer + 1) mod N``,
  who plays first in the first hand; the *first side* (the ``first_seat_*`` statistics) is its
  side. Positions of play (balance) number the sides in the order they first play.
- Data of independent hands (``--unit hands``) has no games: there a side "wins" a hand when one
  of its seats goes out, the first side is that of the seat left of the hand's dealer, and the
  score statistics are hand scores. The ``unit`` column says which applies.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from rummysim.analysis.grouped import distinct_table, group_by, join_on_keys, quantile_table
from rummysim.analysis.load import (
    COUNTERS, FIRST_SIDE_COL, GAMES, HANDS, N_COL, PATH_COL, SIDE_MAP_COL, SIDES_COL, VARIATION, VARIATION_COVERS,
    WIN_POS_COL, WIN_SIDE, Dataset, damaged_message, open_source, side_seat,
)
from rummysim.analysis.stats import mean_ci, wilson, z_two_sided
from rummysim.analysis.summary import side_strategy
from rummysim.errors import InputError
from rummysim.sides import SideMap

Source = str | Path | Dataset | pl.DataFrame | pl.LazyFrame
By = str | Sequence[str] | None

QUANTILES = (0.10, 0.25, 0.50, 0.75, 0.90)
STOCK_REASONS = ("stock_out", "stock_end", "passes")  # Rummikub's pool-empty passes end like a stock-out
STALL_REASONS = ("idle_guard", "turn_cap", "stall")

PAYOFF_MODES = ("difference", "game-point", "stakes")
BALANCE_ALPHA = 0.05
_KEY = "_group"


# ---------------------------------------------------------------------------------------------
# grouping


def default_by(ds: Dataset) -> list[str]:
    """Hive keys and configuration metadata that differ between files, plus a ``lineup`` row column.

    When the files name their variations (``variation``: preset and overrides), the keys the label
    stands for (game, preset, a sweep's cell, every rule flag) are grouped by the label instead,
    provided it tells the files apart as finely, and keys with one value everywhere are left out:
    a sweep of presets groups as ``boathouse``, not as fourteen flags. Files that would make one
    group are grouped by their (one) variation, so the group is named by what it played.
    """
    by = ds.varying_constants()
    # a sweep's lineup column repeats its files' lineup metadata, already in `by` if it varies
    sweep_only = all(f.chunk is not None for f in ds.files_of(GAMES) if "lineup" in f.columns)
    if "lineup" in ds.row_columns(GAMES) and "lineup" not in by and not (ds.files and sweep_only):
        by.append("lineup")
    return _by_variation(ds, by)


def _by_variation(ds: Dataset, by: list[str]) -> list[str]:
    if not ds.files or any(VARIATION not in f.meta for f in ds.files):
        return by
    if not by:  # one group: named by what it played
        return [VARIATION]
    flags = {k for f in ds.files for k in f.rule_flags}
    covered = [k for k in by if k in VARIATION_COVERS or k in flags]
    if not covered:
        return by
    consts = [f.constants() for f in ds.files]
    rest = [k for k in by if k not in covered and len({repr(c.get(k)) for c in consts}) > 1]
    key = lambda c, keys: tuple(repr(c.get(k)) for k in keys)  # noqa: E731
    finer = {(key(c, [VARIATION, *rest]), key(c, covered)) for c in consts}
    if len(finer) != len({k for k, _ in finer}):  # the label merges files the keys tell apart
        return by
    return [VARIATION, *rest]


def resolve_by(ds: Dataset, by: By) -> list[str]:
    """``by`` as a list of existing column names (typed error naming an unknown column)."""
    if by is None:
        return default_by(ds)
    names = [b.strip() for b in by.split(",")] if isinstance(by, str) else [str(b).strip() for b in by]
    names = list(dict.fromkeys(n for n in names if n))
    ds.check_columns(names)
    return names


def group_label(row: dict, by: Sequence[str]) -> str:
    """``k=v; k=v`` for a group's key values (a variation by its label alone); ``all`` without
    grouping."""
    if not by:
        return "all"
    return "; ".join(_fmt_key(row.get(k)) if k == VARIATION else f"{k}={_fmt_key(row.get(k))}" for k in by)


def _fmt_key(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "-" if v is None else str(v)


def _keys(by: Sequence[str]) -> list[str]:
    return list(by) if by else [_KEY]


def _with_key(lf: pl.LazyFrame, by: Sequence[str]) -> pl.LazyFrame:
    return lf if by else lf.with_columns(pl.lit(0, dtype=pl.Int8).alias(_KEY))


def _scan(ds: Dataset, kind: str, by: Sequence[str], extra: Sequence[str] = ()) -> pl.LazyFrame | None:
    """Rows of ``kind`` carrying every ``by`` column; hand rows borrow game-row columns they lack
    (``first_dealer``, a ``lineup`` row column, ...) from their games."""
    want = list(dict.fromkeys([*by, *extra]))
    lf = ds.scan(kind, want)
    if lf is None:
        return None
    if kind == HANDS and GAMES in ds.kinds():
        hand_cols = set(ds.row_columns(HANDS)) | set(ds.constant_columns(HANDS))
        link = [c for c in want if c not in hand_cols and c in ds.row_columns(GAMES)]
        if link and "game_index" in ds.row_columns(HANDS):
            hands = ds.scan(kind, want, with_path=True).drop(link)
            hands = hands.with_columns(pl.col(PATH_COL).str.replace(r"\.hands\.parquet$", ".parquet"))
            games = ds.scan(GAMES, [], with_path=True).select(PATH_COL, "game_index", *link)
            lf = hands.join(games, on=[PATH_COL, "game_index"], how="left").drop(PATH_COL)
    return _with_key(lf, by)


def _collect(lf: pl.LazyFrame, ds: Dataset) -> pl.DataFrame:
    """Run a query; a file that is corrupt past its footer becomes a typed error naming it."""
    try:
        return lf.collect(engine="streaming")
    except (pl.exceptions.PolarsError, OSError) as exc:
        bad = ds.unreadable()
        if bad is not None:
            raise InputError(damaged_message(*bad)) from None
        message = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot analyse {ds.label}: {message}") from None


# ---------------------------------------------------------------------------------------------
# one pass per kind: counts and moments per group


def _side_scores(sides: int) -> list[str]:
    return [f"side_score_{k}" for k in range(sides)]


def _game_aggs(sides: int, names: Sequence[str]) -> list[pl.Expr]:
    w = pl.col(WIN_SIDE[GAMES]).cast(pl.Int32)
    n = pl.col(N_COL)
    ns = pl.col(SIDES_COL)
    scores = _side_scores(sides)
    aggs = [
        pl.len().alias("games"),
        (w >= 0).sum().alias("decided"),
        pl.col("capped").cast(pl.Int64).sum().alias("capped_games"),
        n.min().alias("seats_min"),
        n.max().alias("seats"),
        ns.min().alias("sides_min"),
        ns.max().alias("sides"),
        (1.0 / ns).mean().alias("fair"),
        (w == pl.col(FIRST_SIDE_COL)).sum().alias("first_wins"),
        pl.col("hands").sum().alias("hands_total"),
        pl.col("hands").mean().alias("hpg_mean"),
        pl.col("hands").std().alias("hpg_std"),
        pl.col("turns").sum().alias("turns_total"),
        pl.col("turns").mean().alias("tpg_mean"),
        pl.coalesce([pl.when(w == s).then(pl.col(c)) for s, c in enumerate(scores)]).mean().alias("winner_score_mean"),
    ]
    if "capped_hands" in names:
        aggs.append(pl.col("capped_hands").cast(pl.Int64).sum().alias("capped_hands"))
    aggs += _side_aggs(w, scores, "")
    return aggs


def _side_aggs(winner: pl.Expr, scores: Sequence[str], prefix: str) -> list[pl.Expr]:
    """Per side: wins, presence, fair share and score moments; per position of play: wins."""
    ns = pl.col(SIDES_COL)
    pos = pl.col(WIN_POS_COL)
    aggs = []
    for k, c in enumerate(scores):
        present = pl.col(c).is_not_null()
        aggs += [
            (winner == k).sum().alias(f"{prefix}wins_{k}"),
            present.sum().alias(f"{prefix}present_{k}"),
            (1.0 / ns).filter(present).mean().alias(f"{prefix}fair_{k}"),
            pl.col(c).mean().alias(f"{prefix}smean_{k}"),
            pl.col(c).std().alias(f"{prefix}sstd_{k}"),
        ]
    for k in range(len(scores)):
        aggs.append(((winner >= 0) & (pos == k)).sum().alias(f"{prefix}pos_{k}"))
    return aggs


def _hand_aggs(sides: int, names: Sequence[str]) -> list[pl.Expr]:
    o = pl.col(WIN_SIDE[HANDS]).cast(pl.Int32)
    n = pl.col(N_COL)
    ns = pl.col(SIDES_COL)
    reason = pl.col("reason")
    scores = _side_scores(sides)
    aggs = [
        pl.len().alias("h_hands"),
        (o >= 0).sum().alias("h_decided"),
        n.min().alias("h_seats_min"),
        n.max().alias("h_seats"),
        ns.min().alias("h_sides_min"),
        ns.max().alias("h_sides"),
        (1.0 / ns).mean().alias("h_fair"),
        (o == pl.col(FIRST_SIDE_COL)).sum().alias("h_first_wins"),
        pl.col("turns").mean().alias("h_turns_mean"),
        pl.col("turns").std().alias("h_turns_std"),
        (reason == "out").mean().alias("h_ends_out"),
        reason.is_in(STOCK_REASONS).mean().alias("h_ends_stock_out"),
        reason.is_in(STALL_REASONS).mean().alias("h_ends_stall"),
        (reason == "turn_cap").sum().alias("h_turn_cap"),
    ]
    for counter in COUNTERS:
        if counter in names:
            aggs.append(pl.col(counter).mean().alias(f"h_{counter}"))
    aggs += _side_aggs(o, scores, "h_")
    return aggs


def _pooled_scores(lf: pl.LazyFrame, keys: Sequence[str], sides: int, prefix: str, ds: Dataset) -> pl.DataFrame:
    """Mean and quantiles of every side's score pooled, per group (one stacked column: this
    streams far better than exploding a list inside the aggregation)."""
    stacked = pl.concat([lf.select(*keys, pl.col(c).cast(pl.Float64).alias("_v")) for c in _side_scores(sides)])
    means = _collect(group_by(stacked.drop_nulls("_v"), keys, [pl.col("_v").mean().alias(f"{prefix}score_mean")]), ds)
    names = [f"{prefix}score_p{round(q * 100)}" for q in QUANTILES]
    spread = quantile_table(stacked, keys, pl.col("_v"), QUANTILES, names, lambda q: _collect(q, ds))
    return join_on_keys(means, spread, keys)


def _lineup_lists(lf: pl.LazyFrame, keys: Sequence[str], names: Sequence[str], prefix: str, ds: Dataset) -> pl.DataFrame:
    """The group's side maps (``""`` for one seat per side) and its lineups, each paired with its
    rows' map as ``lineup|map`` (no ``|`` for one seat per side), up to 64 of each."""
    side_map = pl.col(SIDE_MAP_COL)
    columns = {f"{prefix}sidemaps": side_map.fill_null("")}
    if "lineup" in names:
        paired = pl.concat_str([pl.col("lineup").cast(pl.String), side_map], separator="|", ignore_nulls=True)
        columns[f"{prefix}lineups"] = pl.when(pl.col("lineup").is_not_null()).then(paired)
    return distinct_table(lf, keys, columns, lambda q: _collect(q, ds))


def _grouped(lf: pl.LazyFrame, keys: Sequence[str], aggs: list[pl.Expr], ds: Dataset, prefix: str,
             quantiles: Sequence[tuple[str, str]] = ()) -> pl.DataFrame:
    """``aggs`` per group, with the group's lineups and the p50 and p90 of each ``(column,
    name)`` of ``quantiles``, each a streamed query (``analysis.grouped``): none holds the rows."""
    names = lf.collect_schema().names()
    frame = _collect(group_by(lf, keys, aggs), ds)
    frame = join_on_keys(frame, _lineup_lists(lf, keys, names, prefix, ds), keys)
    for column, name in quantiles:
        spread = quantile_table(lf, keys, pl.col(column), (0.5, 0.9), [f"{name}_p50", f"{name}_p90"],
                                lambda q: _collect(q, ds))
        frame = join_on_keys(frame, spread, keys)
    return frame


def _aggregate(ds: Dataset, by: Sequence[str]) -> list[dict]:
    """Per-group raw aggregates of game rows and hand rows, merged, sorted by the keys."""
    keys = _keys(by)
    frames = []
    for kind, aggs, prefix in ((GAMES, _game_aggs, ""), (HANDS, _hand_aggs, "h_")):
        lf = _scan(ds, kind, by, ["lineup"])
        if lf is None:
            continue
        names = lf.collect_schema().names()
        spread = [("hands", "hpg")] if kind == GAMES else [("turns", "h_turns")]
        frames.append(_grouped(lf, keys, aggs(ds.sides(kind), names), ds, prefix, spread))
        frames.append(_pooled_scores(lf, keys, ds.sides(kind), prefix, ds))
    if not frames:
        raise InputError(f"no game or hand rows in {ds.label}")
    merged = frames[0] if len(frames) == 1 else (
        pl.concat(frames, how="diagonal_relaxed")
        .group_by(keys, maintain_order=True)
        .agg(pl.all().drop_nulls().first())
    )
    return merged.sort(keys, nulls_last=True).to_dicts()


# ---------------------------------------------------------------------------------------------
# the summary (rummysim analyze)


def _key_schema(by: Sequence[str], rows: list[dict]) -> dict[str, pl.DataType]:
    """Dtypes of the group key columns, from their values (String when all are null)."""
    schema: dict[str, pl.DataType] = {}
    for k in by:
        values = [r.get(k) for r in rows if r.get(k) is not None]
        schema[k] = pl.Series(values).dtype if values else pl.String
    return schema


def _typed(rows: list[dict], by: Sequence[str], stats: dict[str, pl.DataType]) -> pl.DataFrame:
    """Rows as a frame with fixed dtypes: the keys, then the statistics (stable even when a column
    is all null, e.g. game lengths of independent-hand data)."""
    schema = _key_schema(by, rows)
    schema.update({k: v for k, v in stats.items() if k not in schema})
    return pl.DataFrame([{k: r.get(k) for k in schema} for r in rows], schema=schema, orient="row")


def _num(v: object) -> float | None:
    if v is None:
        return None
    f = float(v)
    return None if math.isnan(f) else f


def _ratio(a: object, b: object) -> float | None:
    return None if a is None or not b else float(a) / float(b)


def _one(values: set[str]) -> str | None:
    return None if not values else values.pop() if len(values) == 1 else "mixed"


def _side_map(text: str, seats: int) -> SideMap:
    return SideMap.from_json(text) if text else SideMap.identity(seats)


def _strategies(row: dict, sides: int, prefix: str = "") -> list[str | None]:
    """Each side's strategy over the group's lineups (:func:`analysis.summary.side_strategy`):
    its name, ``mixed``, or None if unknown."""
    pairs = [str(x).split("|") + [""] for x in (row.get(prefix + "lineups") or [])]
    lineups = [(names.split(","), _side_map(text, len(names.split(",")))) for names, text, *_ in pairs]
    return [_one({side_strategy(m, names, k) for names, m in lineups if k < m.n_sides}) for k in range(sides)]


def _members(row: dict, sides: int, prefix: str = "") -> list[str | None]:
    """Each side's seats over the group's side maps (``"0"``, ``"0+2"``, or ``mixed``)."""
    maps = [SideMap.from_json(t) if t else None for t in (row.get(prefix + "sidemaps") or [])]
    return [_one({m.label(k) if m else str(k) for m in maps if m is None or k < m.n_sides}) for k in range(sides)]


def _unit_view(row: dict) -> dict:
    """The per-side counts of a group: from game rows, or from hand rows when there are no games."""
    p = "" if row.get("games") else "h_"
    total, decided = (row["games"], row["decided"]) if p == "" else (row["h_hands"], row["h_decided"])
    sides = row[p + "sides"]
    return {
        "unit": "games" if p == "" else "hands", "total": total, "decided": decided, "fair": row[p + "fair"],
        "seats": row[p + "seats"], "seats_min": row[p + "seats_min"], "sides": sides, "sides_min": row[p + "sides_min"],
        "first_wins": row[p + "first_wins"],
        "wins": [row.get(f"{p}wins_{k}") for k in range(sides)],
        "present": [row.get(f"{p}present_{k}") for k in range(sides)],
        "fair_s": [row.get(f"{p}fair_{k}") for k in range(sides)],
        "smean": [row.get(f"{p}smean_{k}") for k in range(sides)],
        "sstd": [row.get(f"{p}sstd_{k}") for k in range(sides)],
        "pos": [row.get(f"{p}pos_{k}") for k in range(sides)],
        "members": _members(row, sides, p),
        "strategies": _strategies(row, sides, p),
    }


def summarize(source: Source, by: By = None) -> pl.DataFrame:
    """The statistics of ``rummysim analyze``: one row per group, the group keys first.

    Columns: ``unit`` ("games", or "hands" for independent-hand data), ``seats``, ``sides``,
    ``games``, ``hands``, ``decided`` (games with a winner), ``capped_games``; per side ``k``
    (seat k when every side is one seat): ``members_k`` (its seats, ``"0+2"`` for a partnership),
    ``strategy_k``, ``win_rate_k`` with its Wilson interval ``win_lo_k``/``win_hi_k``,
    ``win_dev_k`` (win rate minus the fair share 1/S), ``mean_score_k`` (of ``side_score_k``) with
    ``mean_score_lo_k``/``mean_score_hi_k``; the first side (that of the seat left of the first
    dealer): ``first_seat_win_rate`` (``_lo``/``_hi``) and ``first_seat_adv`` = rate - 1/S
    (``_lo``/``_hi``); final scores of all sides pooled: ``score_mean``, ``score_p10`` .. ``score_p90``, and
    ``winner_score_mean``; ``hands_per_game_{mean,p50,p90}``; ``turns_per_hand_{mean,p50,p90}``
    (quantiles need hand rows); hand ends as shares ``ends_out``, ``ends_stock_out`` (stock_out,
    stock_end), ``ends_stall`` (idle_guard, turn_cap, 5000's stall), ``capped_hands``; ``calls_per_hand``,
    ``floats_per_hand``, ``deep_takes_per_hand`` (null when the hand rows lack the counter or the
    file's rules rule it out, see :func:`analysis.load.counters_in_rules`).

    Example:
        >>> import polars as pl
        >>> games = pl.DataFrame({"game_index": [0, 1, 2, 3], "first_dealer": [0, 1, 0, 1],
        ...     "winner": [0, 1, 1, 1], "hands": [5, 6, 7, 8], "turns": [50, 60, 70, 80],
        ...     "capped": [False] * 4, "score_0": [510, 300, 200, 100], "score_1": [400, 505, 520, 530]})
        >>> summarize(games, by=[]).select("games", "win_rate_1", "first_seat_win_rate").row(0)
        (4, 0.75, 0.25)
    """
    ds = open_source(source)
    by = resolve_by(ds, by)
    rows = _aggregate(ds, by)
    max_sides = max((r.get("sides") or r.get("h_sides") or 0) for r in rows)
    schema, stat_names = _summary_schema(by, rows, max_sides)
    out = []
    for r in rows:
        stats = dict(zip(stat_names, _summary_row(r, max_sides)))
        out.append({**{k: r.get(k) for k in by}, **{k: v for k, v in stats.items() if k not in by}})
    return pl.DataFrame(out, schema=schema, orient="row")


def _summary_schema(by: Sequence[str], rows: list[dict], max_sides: int) -> tuple[dict, list[str]]:
    """Key columns, then the statistics (a statistic named like a key column is left out)."""
    schema = _key_schema(by, rows)
    stats: dict[str, pl.DataType] = {}
    stats.update({"unit": pl.String, "seats": pl.Int64, "sides": pl.Int64, "games": pl.Int64, "hands": pl.Int64,
                  "decided": pl.Int64, "capped_games": pl.Int64})
    for k in range(max_sides):
        stats[f"members_{k}"] = pl.String
        stats[f"strategy_{k}"] = pl.String
        for name in SIDE_STATS:
            stats[f"{name}_{k}"] = pl.Float64
    for name in SUMMARY_TAIL:
        stats[name] = pl.Int64 if name == "capped_hands" else pl.Float64
    schema.update({k: v for k, v in stats.items() if k not in schema})
    return schema, list(stats)


SIDE_STATS = ("win_rate", "win_lo", "win_hi", "win_dev", "mean_score", "mean_score_lo", "mean_score_hi")
SUMMARY_TAIL = (
    "first_seat_win_rate", "first_seat_win_lo", "first_seat_win_hi", "first_seat_adv", "first_seat_adv_lo",
    "first_seat_adv_hi", "score_mean", *[f"score_p{round(q * 100)}" for q in QUANTILES], "winner_score_mean",
    "hands_per_game_mean", "hands_per_game_p50", "hands_per_game_p90",
    "turns_per_hand_mean", "turns_per_hand_p50", "turns_per_hand_p90",
    "ends_out", "ends_stock_out", "ends_stall", "capped_hands",
    *[f"{c}_per_hand" for c in COUNTERS],
)


def _summary_row(row: dict, max_sides: int) -> list:
    """The statistics of one group, in the order of :func:`_summary_schema` (without the keys)."""
    v = _unit_view(row)
    games_unit = v["unit"] == "games"
    total = v["total"]
    out: list = []
    hands_total = row.get("hands_total") if games_unit else row.get("h_hands")
    out += [v["unit"], v["seats"], v["sides"], row.get("games") if games_unit else None, hands_total,
            v["decided"] if games_unit else None, row.get("capped_games") if games_unit else None]
    for k in range(max_sides):
        present = v["present"][k] if k < v["sides"] else 0
        if not present:
            out += [None] * (2 + len(SIDE_STATS))
            continue
        wins = v["wins"][k]
        lo, hi = wilson(wins, present)
        rate = wins / present
        mean, std = _num(v["smean"][k]), _num(v["sstd"][k])
        mlo, mhi = mean_ci(mean, std if std is not None else math.nan, present) if mean is not None else (None, None)
        out += [v["members"][k], v["strategies"][k], rate, lo, hi, rate - v["fair_s"][k], mean, _num(mlo), _num(mhi)]
    flo, fhi = wilson(v["first_wins"], total)
    frate = v["first_wins"] / total
    fair = v["fair"]
    out += [frate, flo, fhi, frate - fair, flo - fair, fhi - fair]
    sp = "" if games_unit else "h_"
    out += [_num(row.get(sp + "score_mean")), *[_num(row.get(f"{sp}score_p{round(q * 100)}")) for q in QUANTILES]]
    out.append(_num(row.get("winner_score_mean")) if games_unit else None)
    out += [_num(row.get("hpg_mean")), _num(row.get("hpg_p50")), _num(row.get("hpg_p90"))] if games_unit else [None] * 3
    if row.get("h_hands"):
        out += [_num(row.get("h_turns_mean")), _num(row.get("h_turns_p50")), _num(row.get("h_turns_p90"))]
        out += [_num(row.get("h_ends_out")), _num(row.get("h_ends_stock_out")), _num(row.get("h_ends_stall"))]
    else:
        out += [_ratio(row.get("turns_total"), row.get("hands_total")), None, None, None, None, None]
    out.append(row.get("capped_hands") if games_unit and row.get("capped_hands") is not None else row.get("h_turn_cap"))
    out += [_num(row.get(f"h_{c}")) for c in COUNTERS]
    return out


def seat_table(summary: pl.DataFrame, by: Sequence[str] | None = None) -> pl.DataFrame:
    """The per-side columns of :func:`summarize` as one row per group and side: ``side``,
    ``members`` (its seats: ``"0"`` when every side is one seat), ``strategy``, then the statistics.

    Example:
        >>> seat_table(summarize("runs/first.parquet"))  # doctest: +SKIP
    """
    by = [c for c in by if c in summary.columns] if by is not None else _key_columns(summary)
    sides = sum(1 for c in summary.columns if c.startswith("win_rate_"))
    parts = []
    for k in range(sides):
        parts.append(summary.select(
            *by, pl.lit(k, dtype=pl.Int64).alias("side"), pl.col(f"members_{k}").alias("members"),
            pl.col(f"strategy_{k}").alias("strategy"), *[pl.col(f"{name}_{k}").alias(name) for name in SIDE_STATS],
        ).with_row_index("_g"))
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts).filter(pl.col("win_rate").is_not_null()).sort("_g", "side").drop("_g")


def _key_columns(summary: pl.DataFrame) -> list[str]:
    """The group key columns of a summary frame (everything before ``unit``)."""
    cols = summary.columns
    return cols[: cols.index("unit")] if "unit" in cols else []


# ---------------------------------------------------------------------------------------------
# balance (rummysim analyze --balance)


def balance(source: Source, by: By = None, alpha: float = BALANCE_ALPHA) -> pl.DataFrame:
    """Rank groups (variations) by how fair they are to the sides, and show how long games last.

    **Balance index.** Sides (seats, when every side is one seat) are numbered by *position* in
    the order of play of the first hand: P1 is the side of the seat left of the first dealer (who
    plays first), P2 the next side to play, ..., PN the last (with one seat per side, the first
    dealer). Among the games with a winner (capped and drawn games are left out), let ``q_k`` be
    the share won by position k; with N sides a fair game has ``q_k = 1/N`` for every k. The
    balance index is the largest relative deviation ``|N * q_k - 1|`` (0 fair; 0.10 = some
    position wins 10% more, or less, often than its fair share, e.g. 27.5% instead of 25% with
    4 players)::

        balance_index = max_k |N * q_k - 1|

    0 is perfectly fair; the index is comparable across player counts. Its 95% interval
    (``balance_lo``, ``balance_hi``) comes from simultaneous Wilson intervals for the ``q_k``
    (Bonferroni: each at level ``1 - alpha/N``), mapped through ``|N q - 1|``: the lower end is the
    largest distance from 0 of any position's edge interval (0 when every one contains 0), the
    upper end the largest absolute end. ``consistent_with_fair`` is true when ``balance_lo`` is 0:
    the data cannot tell this variation from a perfectly fair one. The index is estimated with an
    upward bias of the order of ``sqrt(N / decided)`` for a fair game, so compare variations with
    similar game counts, and read the intervals. ``worst_position`` (``P1``..``PN``) and
    ``worst_edge`` say which position is favoured or hurt, ``first_edge`` (with a plain 95%
    interval) is the *P1 edge*. An edge is in the one unit every view uses (the summary's
    ``first_seat_adv`` too): the position's win share minus its fair share 1/N, a difference of
    proportions shown in percentage points (``q_k - 1/N``; 0.025 = +2.5 pp, 27.5% instead of
    25%), so ``balance_index = N * |worst_edge|``.

    For independent-hand data (``unit = hands``) the same is computed over hands that someone went
    out of, with positions counted from each hand's dealer.

    Game length: ``hands_per_game_mean`` with its 95% interval, ``turns_per_game_mean``,
    ``turns_per_hand_mean`` and ``capped_share`` (games ended by an engine cap).

    Rows are sorted by ``balance_index`` (then the upper end of its interval, then game length)
    and numbered in ``rank``. A group that mixes player counts has no positions: when the data
    has several player counts and ``players`` is not in ``by``, it is added.

    Example:
        >>> balance("runs/sweep", by="r500_target").select("rank", "r500_target", "balance_index")  # doctest: +SKIP
    """
    ds = open_source(source)
    by = resolve_by(ds, by)
    if "players" not in by and _player_counts(ds) > 1:
        by = [*by, "players"]
    frame = _typed([_balance_row(row, by, alpha) for row in _aggregate(ds, by)], by, BALANCE_SCHEMA)
    frame = frame.sort(
        [pl.col("balance_index").is_null(), "balance_index", "balance_hi", "hands_per_game_mean"], nulls_last=True
    ).with_row_index("rank", offset=1)
    return frame.with_columns(pl.col("rank").cast(pl.Int64))


def positions(source: Source, by: By = None) -> pl.DataFrame:
    """The win share of each position in the order of play, per group: what the balance index sums up.

    One row per group and position ``P1``..``PN`` (numbered as in :func:`balance`, P1 = the side
    left of the first dealer): ``decided`` (games with a winner), ``wins``, ``win_share`` = wins /
    decided with its 95% Wilson interval ``win_lo``/``win_hi``, ``fair`` = 1/N and ``edge`` =
    win_share - fair (percentage points as a fraction). Groups that mix side counts have no
    positions and are left out; ``players`` is added to ``by`` as in :func:`balance`.

    Example:
        >>> positions("runs/balance").select("variation", "position", "win_share")  # doctest: +SKIP
    """
    ds = open_source(source)
    by = resolve_by(ds, by)
    if "players" not in by and _player_counts(ds) > 1:
        by = [*by, "players"]
    out = []
    for row in _aggregate(ds, by):
        v = _unit_view(row)
        n, decided = v["sides"], v["decided"]
        if v["sides_min"] != n or not decided:
            continue
        for k in range(n):
            wins = v["pos"][k]
            lo, hi = wilson(wins, decided)
            out.append({**{key: row.get(key) for key in by}, "unit": v["unit"], "position": f"P{k + 1}",
                        "decided": decided, "wins": wins, "win_share": wins / decided, "win_lo": lo, "win_hi": hi,
                        "fair": 1 / n, "edge": wins / decided - 1 / n})
    return _typed(out, by, POSITION_SCHEMA)


POSITION_SCHEMA = {
    "unit": pl.String, "position": pl.String, "decided": pl.Int64, "wins": pl.Int64, "win_share": pl.Float64,
    "win_lo": pl.Float64, "win_hi": pl.Float64, "fair": pl.Float64, "edge": pl.Float64,
}
BALANCE_SCHEMA = {
    "unit": pl.String, "players": pl.Int64, "games": pl.Int64, "hands": pl.Int64, "decided": pl.Int64,
    "balance_index": pl.Float64, "balance_lo": pl.Float64, "balance_hi": pl.Float64,
    "consistent_with_fair": pl.Boolean, "worst_position": pl.String, "worst_edge": pl.Float64,
    "first_edge": pl.Float64, "first_edge_lo": pl.Float64, "first_edge_hi": pl.Float64,
    "hands_per_game_mean": pl.Float64, "hands_per_game_lo": pl.Float64, "hands_per_game_hi": pl.Float64,
    "turns_per_game_mean": pl.Float64, "turns_per_hand_mean": pl.Float64, "capped_share": pl.Float64,
}
PAYOFF_SCHEMA = {
    "side": pl.Int64, "members": pl.String, "strategy": pl.String, "games": pl.Int64, "settled": pl.Int64,
    "mean_payoff": pl.Float64,
    "payoff_lo": pl.Float64, "payoff_hi": pl.Float64, "total_payoff": pl.Float64,
}
STRATEGY_SCHEMA = {
    "unit": pl.String, "strategy": pl.String, "seat_games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
    "win_lo": pl.Float64, "win_hi": pl.Float64, "fair": pl.Float64, "edge": pl.Float64, "mean_score": pl.Float64,
    "mean_score_lo": pl.Float64, "mean_score_hi": pl.Float64,
}
MATRIX_SCHEMA = {
    "unit": pl.String, "strategy": pl.String, "opponent": pl.String, "pairs": pl.Int64, "wins": pl.Int64,
    "win_rate": pl.Float64, "win_lo": pl.Float64, "win_hi": pl.Float64,
}


def _player_counts(ds: Dataset) -> int:
    counts = {f.constants().get("players") for f in ds.files}
    return len(counts)


def _balance_row(row: dict, by: Sequence[str], alpha: float) -> dict:
    v = _unit_view(row)
    n, decided = v["sides"], v["decided"]
    players = v["seats"] if v["seats_min"] == v["seats"] else None
    out: dict = {}
    out.update({"unit": v["unit"], "players": players, "games": row.get("games") or None,
                "hands": row.get("hands_total") if v["unit"] == "games" else row.get("h_hands"), "decided": decided})
    index = lo = hi = worst_edge = first = first_lo = first_hi = None
    worst = None
    if v["sides_min"] == n and decided:
        z = z_two_sided(alpha / n)
        edges = []
        for k in range(n):
            wins = v["pos"][k]
            q = wins / decided
            qlo, qhi = wilson(wins, decided, z)
            edges.append((n * q - 1, n * qlo - 1, n * qhi - 1))
        abs_edges = [abs(e) for e, _, _ in edges]
        index = max(abs_edges)
        kmax = abs_edges.index(index)
        worst, worst_edge = f"P{kmax + 1}", edges[kmax][0] / n
        lo = max(0.0 if elo <= 0 <= ehi else min(abs(elo), abs(ehi)) for _, elo, ehi in edges)
        hi = max(max(abs(elo), abs(ehi)) for _, elo, ehi in edges)
        flo, fhi = wilson(v["pos"][0], decided, z_two_sided(alpha))
        first, first_lo, first_hi = edges[0][0] / n, flo - 1 / n, fhi - 1 / n
    out.update({
        "balance_index": index, "balance_lo": lo, "balance_hi": hi,
        "consistent_with_fair": None if lo is None else lo == 0.0,
        "worst_position": worst, "worst_edge": worst_edge,
        "first_edge": first, "first_edge_lo": first_lo, "first_edge_hi": first_hi,
    })
    if v["unit"] == "games":
        mean, std = _num(row.get("hpg_mean")), _num(row.get("hpg_std"))
        hlo, hhi = mean_ci(mean, std if std is not None else math.nan, row["games"])
        tph = _num(row.get("h_turns_mean")) if row.get("h_hands") else _ratio(row.get("turns_total"), row.get("hands_total"))
        out.update({"hands_per_game_mean": mean, "hands_per_game_lo": _num(hlo), "hands_per_game_hi": _num(hhi),
                    "turns_per_game_mean": _num(row.get("tpg_mean")), "turns_per_hand_mean": tph,
                    "capped_share": _ratio(row.get("capped_games"), row["games"])})
    else:
        out.update({"hands_per_game_mean": None, "hands_per_game_lo": None, "hands_per_game_hi": None,
                    "turns_per_game_mean": None, "turns_per_hand_mean": _num(row.get("h_turns_mean")),
                    "capped_share": _ratio(row.get("h_turn_cap"), row.get("h_hands"))})
    for key in ("hands_per_game_mean", "hands_per_game_lo", "hands_per_game_hi", "turns_per_game_mean",
                "turns_per_hand_mean", "capped_share", "balance_index", "balance_lo", "balance_hi", "worst_edge",
                "first_edge", "first_edge_lo", "first_edge_hi"):
        out[key] = None if out[key] is None else float(out[key])
    return {**{k: row.get(k) for k in by}, **{k: v for k, v in out.items() if k not in by}}


# ---------------------------------------------------------------------------------------------
# payoffs (rummysim analyze --payoff)


def payoff_columns(n: int, mode: str, score: str = "score", winner: str = "winner") -> list[pl.Expr]:
    """Payoff of each of ``n`` players of a game row as expressions ``payoff_0..`` (plus ``settled``).

    The players are the seats (columns ``score_k`` and ``winner``), or the sides with
    ``score="side_score", winner="winner_side"`` (what :func:`payoffs` settles).
    Winners: the player in ``winner``; when ``winner`` is -1 in a game that was not capped (a tie,
    R5K-GAME-2, or a drawn game), every player sharing the highest total. Capped games settle
    nothing (every payoff 0, ``settled`` false).

    - ``difference`` (R500-END-3, R5K-GAME-3, V500-PERSIAN-5): each non-winner pays the
      winners' total minus its own, once ("single amount on ties"); tied winners share the pot
      equally. Zero-sum.
    - ``game-point`` (V5K-1, and V5K-2's payoff): the winner gets 1 game point, tied winners
      split it; nobody pays. Under V5K-2 (``r5k_must_go_out_to_win``) the winner is whoever the
      engine recorded (the player who went out and reached the target), not the highest total.
    """
    if mode not in PAYOFF_MODES:
        raise InputError(f"--payoff must be one of {', '.join(PAYOFF_MODES)}, got {mode!r}")
    if mode == "stakes":
        return stake_payoff_columns(n)
    w = pl.col(winner).cast(pl.Int32)
    capped = pl.col("capped")
    scores = [pl.col(f"{score}_{s}").cast(pl.Float64) for s in range(n)]
    top = pl.max_horizontal(scores)
    tie = (w < 0) & ~capped
    is_w = [((w == s) | (tie & (sc == top))).fill_null(False) for s, sc in enumerate(scores)]
    k = pl.sum_horizontal([x.cast(pl.Int32) for x in is_w])
    settled = (w >= 0) | (tie & (k > 0))
    target = pl.when(w >= 0).then(pl.coalesce([pl.when(w == s).then(sc) for s, sc in enumerate(scores)])).otherwise(top)
    pot = pl.sum_horizontal([pl.when(~x).then(target - sc) for x, sc in zip(is_w, scores)])
    out = []
    for s, (x, sc) in enumerate(zip(is_w, scores)):
        if mode == "difference":
            value = pl.when(x).then(pot / k).otherwise(-(target - sc))
        else:
            value = pl.when(x).then(1.0 / k).otherwise(0.0)
        out.append(pl.when(sc.is_null()).then(None).when(~settled).then(0.0).otherwise(value).alias(f"payoff_{s}"))
    out.append(settled.alias("settled"))
    return out


def stake_payoff_columns(n: int) -> list[pl.Expr]:
    """``stakes`` (V5K-13 Doubling, V5K-14 Limit-Poker): each seat's net stake units or chips of the
    session, as the kernels settled them (``stake_k``; a stakes game's seats are its sides)."""
    return [*(pl.col(f"stake_{s}").cast(pl.Float64).alias(f"payoff_{s}") for s in range(n)),
            (~pl.col("capped")).alias("settled")]


def payoffs(source: Source, mode: str = "difference", by: By = None) -> pl.DataFrame:
    """Stakes settled between the sides from game rows (RULES.md AMB-47): one row per group and side.

    ``mode`` is ``difference`` or ``game-point``; see :func:`payoff_columns` for the rules, applied
    to the side scores; or ``stakes``: the net stake units or chips of a Doubling or Limit-Poker
    session (the game rows' ``stake_k``, :func:`stake_payoff_columns`). Columns: the group keys, ``side``, ``members`` (its seats), ``strategy``,
    ``games`` (that the side played), ``settled``
    (those with a winner),
    ``mean_payoff`` per game (unsettled games count 0) with its 95% interval ``payoff_lo``,
    ``payoff_hi``, and ``total_payoff``.

    Example:
        >>> import polars as pl
        >>> g = pl.DataFrame({"game_index": [0], "first_dealer": [0], "winner": [0], "hands": [3],
        ...     "turns": [30], "capped": [False], "score_0": [520], "score_1": [300], "score_2": [450]})
        >>> payoffs(g, "difference", by=[])["total_payoff"].to_list()
        [290.0, -220.0, -70.0]
    """
    ds = open_source(source)
    if mode not in PAYOFF_MODES:
        raise InputError(f"--payoff must be one of {', '.join(PAYOFF_MODES)}, got {mode!r}")
    by = resolve_by(ds, by)
    lf = _scan(ds, GAMES, by, ["lineup"])
    if lf is None:
        raise InputError(f"payoffs need game rows; {ds.label} has only hand rows")
    sides = ds.sides(GAMES)
    if mode == "stakes" and "stake_0" not in ds.row_columns(GAMES):
        raise InputError(f"--payoff stakes needs the stake columns of a stakes run (r5k_doubling=true or "
                         f"r5k_limit_poker=true); {ds.label} has none")
    lf = lf.with_columns(payoff_columns(sides, mode, score="side_score", winner=WIN_SIDE[GAMES]))
    aggs = []
    for s in range(sides):
        p = pl.col(f"payoff_{s}")
        aggs += [p.count().alias(f"n_{s}"), pl.col("settled").filter(p.is_not_null()).sum().alias(f"settled_{s}"),
                 p.mean().alias(f"m_{s}"), p.std().alias(f"sd_{s}"), p.sum().alias(f"t_{s}")]
    keys = _keys(by)
    rows = _grouped(lf, keys, aggs, ds, "").sort(keys, nulls_last=True).to_dicts()
    out = []
    for row in rows:
        strategies, members = _strategies(row, sides), _members(row, sides)
        for s in range(sides):
            n = row[f"n_{s}"]
            if not n:
                continue
            mean, sd = float(row[f"m_{s}"]), _num(row[f"sd_{s}"])
            lo, hi = mean_ci(mean, sd if sd is not None else math.nan, n)
            out.append({**{k: row.get(k) for k in by}, "side": s, "members": members[s], "strategy": strategies[s],
                        "games": n,
                        "settled": row[f"settled_{s}"], "mean_payoff": mean, "payoff_lo": _num(lo), "payoff_hi": _num(hi),
                        "total_payoff": float(row[f"t_{s}"])})
    return _typed(out, by, PAYOFF_SCHEMA)


# ---------------------------------------------------------------------------------------------
# strategy tables


def _seat_rows(ds: Dataset, by: Sequence[str]) -> tuple[pl.LazyFrame, int, int, str]:
    """Rows with a ``lineup``, their seats and sides, and which kind they come from (games, else hands)."""
    for kind in (GAMES, HANDS):
        lf = _scan(ds, kind, by, ["lineup"])
        if lf is not None:
            return lf, ds.seats(kind), ds.sides(kind), kind
    raise InputError(f"no game or hand rows in {ds.label}")


def _seat_strategy(s: int) -> pl.Expr:
    return pl.col("lineup").cast(pl.String).str.split(",").list.get(s, null_on_oob=True)


def _seat_won(s: int, win_col: str) -> pl.Expr:
    """Seat ``s``'s side won the game (went out of the hand)."""
    return pl.col(win_col).cast(pl.Int32) == pl.col(side_seat(s))


def _seat_side_score(s: int, sides: int) -> pl.Expr:
    """The score of seat ``s``'s side (null where the row has no seat ``s``)."""
    return pl.coalesce([pl.when(pl.col(side_seat(s)) == k).then(pl.col(f"side_score_{k}")) for k in range(sides)])


def _has_lineups(ds: Dataset) -> bool:
    return "lineup" in ds.columns()


def _lineup_rows(source: Source, by: By):
    """(dataset, group keys, seat rows, seats, sides, row kind, winning side column) for the
    strategy views."""
    ds = open_source(source)
    by = resolve_by(ds, by)
    if not _has_lineups(ds):
        raise InputError(f"{ds.label} has no lineups (no lineup column or metadata)")
    lf, seats, sides, kind = _seat_rows(ds, by)
    return ds, by, lf, seats, sides, kind, WIN_SIDE[kind]


def strategies(source: Source, by: By = None) -> pl.DataFrame:
    """Per strategy: seat-games played, wins, win rate with its Wilson interval, fair share and edge.

    Pools every seat a strategy sat in (from the run's ``lineup``: a ``lineup`` row column or the
    file metadata); a seat wins when its side wins. ``fair`` is the mean of 1/S (S sides) over
    those seat-games and ``edge`` = win rate - fair; ``mean_score`` is the mean final score of
    the seat's side. For independent-hand data a win is going out.

    Example:
        >>> strategies("runs/first.parquet", by=[])  # doctest: +SKIP
    """
    ds, by, lf, seats, sides, kind, win_col = _lineup_rows(source, by)
    parts = []
    for s in range(seats):
        parts.append(lf.select(
            *_keys(by), _seat_strategy(s).alias("strategy"), _seat_won(s, win_col).alias("win"),
            (1.0 / pl.col(SIDES_COL)).alias("inv"), _seat_side_score(s, sides).cast(pl.Float64).alias("score"),
        ).filter(pl.col("score").is_not_null() & pl.col("strategy").is_not_null()))
    keys = [*_keys(by), "strategy"]
    agg = _collect(group_by(pl.concat(parts), keys, [
        pl.len().alias("seat_games"), pl.col("win").sum().alias("wins"), pl.col("inv").mean().alias("fair"),
        pl.col("score").mean().alias("mean_score"), pl.col("score").std().alias("sd"),
    ]), ds).sort(keys, nulls_last=True)
    out = []
    for row in agg.to_dicts():
        n, wins = row["seat_games"], row["wins"]
        lo, hi = wilson(wins, n)
        sd = _num(row["sd"])
        slo, shi = mean_ci(row["mean_score"], sd if sd is not None else math.nan, n)
        out.append({**{k: row.get(k) for k in by}, "unit": kind, "strategy": row["strategy"], "seat_games": n,
                    "wins": wins, "win_rate": wins / n, "win_lo": lo, "win_hi": hi, "fair": row["fair"],
                    "edge": wins / n - row["fair"], "mean_score": row["mean_score"], "mean_score_lo": _num(slo),
                    "mean_score_hi": _num(shi)})
    return _typed(out, by, STRATEGY_SCHEMA)


def strategy_matrix(source: Source, by: By = None) -> pl.DataFrame:
    """Head-to-head: how often a seat playing ``strategy`` wins when ``opponent`` sits at a seat of
    another side.

    Counted over ordered pairs of seats (i, j) of different sides in every game: ``pairs`` is the
    number of such seat pairs with strategy at i and opponent at j, ``wins`` those where i's side won, and
    ``win_rate`` = wins / pairs with a Wilson interval. With 2 players this is the plain
    head-to-head win rate; with more, pairs from one game are not independent, so the intervals
    are narrower than they should be. For independent-hand data a win is going out.

    Example:
        >>> strategy_matrix("runs/league", by=[]).pivot("opponent", index="strategy", values="win_rate")  # doctest: +SKIP
    """
    ds, by, lf, seats, _sides, kind, win_col = _lineup_rows(source, by)
    parts = []
    for i in range(seats):
        for j in range(seats):
            if i != j:
                opposed = pl.col(f"score_{i}").is_not_null() & pl.col(f"score_{j}").is_not_null() & (
                    pl.col(side_seat(i)) != pl.col(side_seat(j)))
                parts.append(lf.filter(opposed).select(
                    *_keys(by), _seat_strategy(i).alias("strategy"), _seat_strategy(j).alias("opponent"),
                    _seat_won(i, win_col).alias("win"),
                ).filter(pl.col("strategy").is_not_null() & pl.col("opponent").is_not_null()))
    keys = [*_keys(by), "strategy", "opponent"]
    if not parts:  # one seat: no pairs
        return _typed([], by, MATRIX_SCHEMA)
    agg = _collect(group_by(pl.concat(parts), keys, [pl.len().alias("pairs"), pl.col("win").sum().alias("wins")]), ds)
    out = []
    for row in agg.sort(keys, nulls_last=True).to_dicts():
        lo, hi = wilson(row["wins"], row["pairs"])
        out.append({**{k: row.get(k) for k in by}, "unit": kind, "strategy": row["strategy"],
                    "opponent": row["opponent"], "pairs": row["pairs"], "wins": row["wins"],
                    "win_rate": row["wins"] / row["pairs"], "win_lo": lo, "win_hi": hi})
    return _typed(out, by, MATRIX_SCHEMA)


# ---------------------------------------------------------------------------------------------
# distributions (for charts)


def distribution(
    source: Source, column: str, by: By = None, kind: str = GAMES, bins: int | None = None, per_side: bool = False,
) -> pl.DataFrame:
    """Counts of the values of ``column`` per group: group keys, ``value``, ``count``, ``share``.

    ``column`` may be ``score`` (every side's score pooled, or per side in a ``side`` column with
    ``per_side``). With ``bins`` the values are put in about that many equal-width bins of a round
    width, labelled by their lower end. Shares add up to 1 per group (and side).

    Example:
        >>> distribution("runs/first.parquet", "hands", by=[])  # doctest: +SKIP
    """
    ds = open_source(source)
    by = resolve_by(ds, by)
    lf = _scan(ds, kind, by)
    if lf is None:
        return pl.DataFrame()
    keys = _keys(by)
    if column == "score" and per_side:
        lf = pl.concat([
            lf.select(*keys, pl.lit(k, dtype=pl.Int64).alias("side"), pl.col(c).alias("value"))
            for k, c in enumerate(_side_scores(ds.sides(kind)))
        ], how="diagonal_relaxed").drop_nulls("value")
        keys = [*keys, "side"]
    elif column == "score":
        scores = _side_scores(ds.sides(kind))
        lf = lf.select(*keys, pl.concat_list(scores).alias("value")).explode("value").drop_nulls("value")
    else:
        lf = lf.select(*keys, pl.col(column).alias("value"))
    if bins:
        lo, hi = _collect(lf.select(pl.col("value").min().alias("lo"), pl.col("value").max().alias("hi")), ds).row(0)
        width = _nice_width(lo, hi, bins)
        lf = lf.with_columns(((pl.col("value") / width).floor() * width).alias("value"))
    counts = _collect(group_by(lf, [*keys, "value"], [pl.len().alias("count")]), ds)
    counts = counts.with_columns((pl.col("count") / pl.col("count").sum().over(keys)).alias("share"))
    return counts.sort([*keys, "value"], nulls_last=True).drop(_KEY, strict=False)


def _nice_width(lo: object, hi: object, bins: int) -> float:
    if lo is None or hi is None or hi == lo:
        return 1.0
    raw = (float(hi) - float(lo)) / bins
    mag = 10 ** math.floor(math.log10(raw))
    for step in (1, 2, 2.5, 5, 10):
        if raw <= step * mag:
            return step * mag
    return 10 * mag


# ---------------------------------------------------------------------------------------------
# output helpers


def to_records(frame: pl.DataFrame) -> list[dict]:
    """Rows as JSON-safe dicts (NaN and infinities become None)."""
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        return v
    return [{k: clean(v) for k, v in row.items()} for row in frame.to_dicts()]


def to_json(frame: pl.DataFrame) -> str:
    """The rows as a JSON list of objects."""
    return json.dumps(to_records(frame), indent=2, default=str)
