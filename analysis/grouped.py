"""Per-group aggregates that Polars' streaming engine runs in bounded memory.

A ``quantile`` or a ``unique`` inside a ``group_by`` makes Polars fall back to its in-memory
engine, which holds every row of the query, and so does its sorted group-by on keys that are a
file's constants (``analyze`` grew by about 150 bytes a row: issue 21, point 7). Here every
group-by leads with a hash of its keys (:func:`group_by`), and the quantiles and lists come from
small streamed tables instead: quantiles from the count
of each value per group (exact: game lengths, turns and scores are whole numbers, and the linear
interpolation is that of ``Expr.quantile(q, "linear")``), and a group's distinct side maps and
lineups from a ``group_by`` on them. Memory then grows with the groups and the distinct values,
not with the rows.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence

import polars as pl

LIST_LIMIT = 64  # distinct side maps or lineups kept per group
_VALUE = "_value"
_COUNT = "_count"
_HASH = "_keys_hash"

Collect = Callable[[pl.LazyFrame], pl.DataFrame]


def group_by(lf: pl.LazyFrame, keys: Sequence[str], aggs: Sequence[pl.Expr]) -> pl.LazyFrame:
    """``lf.group_by(keys).agg(aggs)`` in bounded memory. Keys that are constants of a file (its
    metadata, attached as literal columns) are flagged sorted, and Polars then picks its sorted
    group-by, which holds all of a group's rows until the key changes: with one group, the whole
    dataset. Leading with a hash of the keys (a column never flagged sorted) keeps the streamed
    hash group-by; the keys themselves still decide the groups."""
    hashed = lf.with_columns(pl.struct(list(keys)).hash(0).alias(_HASH))
    return hashed.group_by([_HASH, *keys]).agg(list(aggs)).drop(_HASH)


def quantiles_from_counts(values: Sequence[float], counts: Sequence[int], qs: Sequence[float]) -> list[float | None]:
    """The ``qs`` quantiles (linear interpolation) of a sample given as sorted distinct values and
    how often each occurs; None for an empty sample."""
    n = sum(counts)
    if n == 0:
        return [None] * len(qs)
    ends = list(itertools.accumulate(counts))  # the 0-based rank after each value's last copy, plus 1

    def ranked(i: int) -> float:
        return float(values[bisect.bisect_right(ends, i)])

    out: list[float | None] = []
    for q in qs:
        pos = q * (n - 1)
        lo, hi = ranked(math.floor(pos)), ranked(math.ceil(pos))
        out.append(lo + (pos - math.floor(pos)) * (hi - lo))
    return out


def quantile_table(lf: pl.LazyFrame, keys: Sequence[str], value: pl.Expr, qs: Sequence[float],
                   names: Sequence[str], collect: Collect) -> pl.DataFrame:
    """Per group of ``keys``: the ``qs`` quantiles of ``value`` (nulls left out), in columns ``names``."""
    counts = collect(group_by(lf.select(*keys, value.alias(_VALUE)).drop_nulls(_VALUE), [*keys, _VALUE],
                              [pl.len().alias(_COUNT)]))
    per_group = counts.sort(_VALUE).group_by(list(keys), maintain_order=True).agg(pl.col(_VALUE), pl.col(_COUNT))
    rows = []
    for row in per_group.iter_rows(named=True):
        figures = quantiles_from_counts(row[_VALUE], row[_COUNT], qs)
        rows.append({**{k: row[k] for k in keys}, **dict(zip(names, figures))})
    schema = {**{k: per_group.schema[k] for k in keys}, **{name: pl.Float64 for name in names}}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def distinct_table(lf: pl.LazyFrame, keys: Sequence[str], columns: dict[str, pl.Expr], collect: Collect) -> pl.DataFrame:
    """Per group of ``keys``: the sorted distinct non-null values of each expression of
    ``columns`` (up to LIST_LIMIT), as list columns named by its keys."""
    combos = collect(group_by(lf.select(*keys, *[e.alias(name) for name, e in columns.items()]), [*keys, *columns],
                              [pl.len().alias(_COUNT)]))
    return combos.group_by(list(keys)).agg(
        pl.col(name).drop_nulls().unique().sort().head(LIST_LIMIT) for name in columns)


def join_on_keys(frame: pl.DataFrame, extra: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """``frame`` with the columns of ``extra`` for its group (a null key matches a null key)."""
    return frame.join(extra, on=list(keys), how="left", nulls_equal=True)
