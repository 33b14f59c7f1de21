"""Stakes of 5000 Rummy's Doubling (V5K-13) and Limit-Poker (V5K-14) runs, per betting-policy pair.

A stakes run's game rows hold each seat's net stake units or chips of the session (``stake_k``)
and its hand rows, when written, the hand's stake (Doubling: the stake when the hand ended;
Limit-Poker: the pot) and its payouts (docs/trace-format.md, "Stakes"). The run's betting policies
are its ``betting`` metadata, one per seat, so a pair of policies is a group here, beside the
play lineup and any ``by`` key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from rummysim.analysis.load import GAMES, HANDS, Dataset, open_source
from rummysim.analysis.stats import mean_ci
from rummysim.analysis.tables import By, Source, resolve_by
from rummysim.errors import InputError

STAKE_SCHEMA = {
    "lineup": pl.String, "betting": pl.String, "games": pl.Int64, "hands": pl.Int64,
    "stake_0_per_game": pl.Float64, "stake_0_lo": pl.Float64, "stake_0_hi": pl.Float64, "stake_0_per_hand": pl.Float64,
    "mean_hand_stake": pl.Float64, "hand_stake_lo": pl.Float64, "hand_stake_hi": pl.Float64,
    "hand_stake_p90": pl.Float64, "folded_share": pl.Float64,
}
_ENDED_BY_STAKES = ("fold", "concede")


def _keys(ds: Dataset, by: Sequence[str]) -> list[str]:
    return list(dict.fromkeys([*by, "lineup", "betting"]))


def _as_text(keys: Sequence[str]) -> list[pl.Expr]:
    return [pl.col(k).cast(pl.String) for k in keys]


def _game_stats(ds: Dataset, keys: list[str]) -> pl.DataFrame:
    lf = ds.scan(GAMES, keys).with_columns(_as_text(keys))
    s0 = pl.col("stake_0").cast(pl.Float64)
    return lf.group_by(keys).agg(
        pl.len().alias("games"), pl.col("hands").sum().alias("hands"), s0.mean().alias("m"), s0.std().alias("sd"),
        s0.sum().alias("t"),
    ).collect()


def _hand_stats(ds: Dataset, keys: list[str]) -> pl.DataFrame | None:
    if HANDS not in ds.kinds() or "stake" not in ds.row_columns(HANDS):
        return None
    lf = ds.scan(HANDS, keys).with_columns(_as_text(keys))
    stake = pl.col("stake").cast(pl.Float64)
    return lf.group_by(keys).agg(
        pl.len().alias("n_h"), stake.mean().alias("hm"), stake.std().alias("hsd"),
        stake.quantile(0.9).alias("hp90"),
        pl.col("reason").cast(pl.String).is_in(_ENDED_BY_STAKES).mean().alias("folded"),
    ).collect()


def stakes(source: Source, by: By = None) -> pl.DataFrame:
    """One row per group and betting-policy pair of a stakes run: seat 0's mean net stake units or
    chips per game with its 95% interval and per hand; with hand rows, the mean stake per hand
    (Doubling: the stake reached; Limit-Poker: the pot) with its 95% interval and p90, and the
    share of hands ended by a fold or a concession.

    Raises:
        InputError: no game rows with stake columns (not a Doubling or Limit-Poker run).
    """
    ds = open_source(source)
    by = resolve_by(ds, by)
    if GAMES not in ds.kinds() or "stake_0" not in ds.row_columns(GAMES):
        raise InputError(f"{ds.label} has no stake columns: run a stakes game (r5k_doubling=true or "
                         "r5k_limit_poker=true)")
    keys = _keys(ds, by)
    games = _game_stats(ds, keys)
    hands = _hand_stats(ds, keys)
    if hands is not None:
        games = games.join(hands, on=keys, how="left", nulls_equal=True)
    rows = []
    for r in games.sort(keys, nulls_last=True).to_dicts():
        lo, hi = mean_ci(r["m"], r["sd"] if r["sd"] is not None else math.nan, r["games"])
        row = {**{k: r.get(k) for k in by}, "lineup": r.get("lineup"), "betting": r.get("betting"),
               "games": r["games"], "hands": r["hands"], "stake_0_per_game": r["m"], "stake_0_lo": lo,
               "stake_0_hi": hi, "stake_0_per_hand": r["t"] / r["hands"] if r["hands"] else None,
               "mean_hand_stake": None, "hand_stake_lo": None, "hand_stake_hi": None, "hand_stake_p90": None,
               "folded_share": None}
        if r.get("n_h"):
            hlo, hhi = mean_ci(r["hm"], r["hsd"] if r["hsd"] is not None else math.nan, r["n_h"])
            row.update(mean_hand_stake=r["hm"], hand_stake_lo=hlo, hand_stake_hi=hhi, hand_stake_p90=r["hp90"],
                       folded_share=r["folded"])
        rows.append({k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
    schema = {**{k: pl.String for k in by if k not in STAKE_SCHEMA}, **STAKE_SCHEMA}
    return pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)
