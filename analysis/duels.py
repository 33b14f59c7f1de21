"""The statistics of ``compare`` and ``tournament`` result files, recomputed from their game rows.

``rummysim compare A B --out F`` and ``rummysim tournament S T ... --out F`` write one row per game
with ``deal``, ``rotation`` and ``lineup`` (the strategy per seat of that seating; a tournament's
rows also say their ``pairing``, ``"S vs T"``) and the metadata keys ``command`` and
``strategies``. From these rows this module computes what the commands printed, with the same
statistics (:func:`analysis.stats.diff_stats`, the deal as the unit of analysis): each pairing's
score difference per game and per hand with its 95% interval, and for a tournament the ladder,
each strategy's mean difference against the others.

Example:
    >>> from rummysim.analysis.duels import read_duels
    >>> read_duels("runs/league.parquet").ladder  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from rummysim.analysis.load import GAMES, Dataset, ResultFile, open_source
from rummysim.analysis.stats import diff_stats, wilson
from rummysim.errors import InputError
from rummysim.sides import SideMap

COMMANDS = ("compare", "tournament")

PAIRING_SCHEMA = {
    "strategy": pl.String, "opponent": pl.String, "deals": pl.Int64, "games": pl.Int64,
    "diff_per_game": pl.Float64, "diff_per_game_lo": pl.Float64, "diff_per_game_hi": pl.Float64,
    "diff_per_hand": pl.Float64, "diff_per_hand_lo": pl.Float64, "diff_per_hand_hi": pl.Float64,
    "p_value": pl.Float64, "wins": pl.Int64, "win_rate": pl.Float64, "win_lo": pl.Float64, "win_hi": pl.Float64,
}
LADDER_SCHEMA = {
    "rank": pl.Int64, "strategy": pl.String, "diff_per_hand": pl.Float64, "diff_per_hand_lo": pl.Float64,
    "diff_per_hand_hi": pl.Float64, "diff_per_game": pl.Float64, "diff_per_game_lo": pl.Float64,
    "diff_per_game_hi": pl.Float64, "games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
}


@dataclass
class Duels:
    """One compare or tournament run: ``pairings`` (A against B, one row per pairing), ``ladder``
    (a tournament's strategies ranked; None for a compare) and the unit of the differences."""

    command: str
    strategies: list[str]
    unit: str
    pairings: pl.DataFrame
    ladder: pl.DataFrame | None


def duel_file(ds: Dataset) -> ResultFile | None:
    """The dataset's one compare or tournament file, or None when it is anything else."""
    games = ds.files_of(GAMES)
    if len(games) != 1 or games[0].meta.get("command") not in COMMANDS:
        return None
    return games[0]


def read_duels(source: str | Dataset) -> Duels:
    """The pairings (and a tournament's ladder) of one compare or tournament result file."""
    ds = open_source(source)
    f = duel_file(ds)
    if f is None:
        raise InputError(f"{ds.label} is not one compare or tournament result file (--out of those commands)")
    strategies = _strategies(f)
    stakes = "stake_0" in f.columns
    sides = f.sides or SideMap.identity(f.seats)
    prefix = "stake" if stakes else "side_score"
    score_cols = [f"{prefix}_{k}" for k in range(sides.n_sides)]
    keep = ["deal", "lineup", "hands", "winner_side", *score_cols, *(["pairing"] if "pairing" in f.columns else [])]
    rows = pl.read_parquet(f.path, columns=keep)
    if "pairing" not in rows.columns:
        rows = rows.with_columns(pl.lit(" vs ".join(strategies[:2])).alias("pairing"))
    per_deal = _per_deal(rows, sides, score_cols)
    pairings = _pairings(per_deal)
    ladder = _ladder(per_deal, strategies) if f.meta["command"] == "tournament" else None
    unit = "points" if not stakes else ("stake units" if f.meta.get("r5k_doubling") else "chips")
    return Duels(str(f.meta["command"]), strategies, unit, pairings, ladder)


def _strategies(f: ResultFile) -> list[str]:
    import json

    raw = f.meta.get("strategies")
    try:
        names = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        names = None
    if not isinstance(names, list) or len(names) < 2:
        raise InputError(f"{f.path}: its metadata does not name the strategies of the {f.meta.get('command')}")
    return [str(n) for n in names]


def _per_deal(rows: pl.DataFrame, sides: SideMap, score_cols: list[str]) -> pl.DataFrame:
    """Per pairing and deal: A's score minus B's averaged over the seatings, the mean hands per
    game, and A's and B's wins (as :mod:`rummysim.comparison` tallies them)."""
    parts = []
    for (pairing, lineup), group in rows.group_by(["pairing", "lineup"], maintain_order=True):
        a, b = str(pairing).split(" vs ")
        names = str(lineup).split(",")
        a_sides = sorted({sides.of_seat[s] for s, n in enumerate(names) if n == a})
        b_sides = sorted({sides.of_seat[s] for s, n in enumerate(names) if n == b})
        score_a = pl.mean_horizontal([pl.col(score_cols[k]).cast(pl.Float64) for k in a_sides])
        score_b = pl.mean_horizontal([pl.col(score_cols[k]).cast(pl.Float64) for k in b_sides])
        winner = pl.col("winner_side").cast(pl.Int64)
        parts.append(group.select(
            pl.lit(a).alias("strategy"), pl.lit(b).alias("opponent"), "deal", (score_a - score_b).alias("diff"),
            pl.col("hands").cast(pl.Float64), winner.is_in(a_sides).alias("a_win"), winner.is_in(b_sides).alias("b_win"),
        ))
    return pl.concat(parts).group_by(["strategy", "opponent", "deal"], maintain_order=True).agg(
        pl.col("diff").mean(), pl.col("hands").mean(), pl.len().alias("games"),
        pl.col("a_win").sum(), pl.col("b_win").sum(),
    ).sort("strategy", "opponent", "deal")


def _pairings(per_deal: pl.DataFrame) -> pl.DataFrame:
    out = []
    for (a, b), g in per_deal.group_by(["strategy", "opponent"], maintain_order=True):
        st = diff_stats(g["diff"].to_numpy(), g["hands"].to_numpy())
        games, wins = int(g["games"].sum()), int(g["a_win"].sum())
        lo, hi = wilson(wins, games)
        out.append({"strategy": a, "opponent": b, "deals": st["deals"], "games": games,
                    **_estimates(st), "p_value": st["per_hand"]["p_value"], "wins": wins, "win_rate": wins / games,
                    "win_lo": lo, "win_hi": hi})
    return pl.DataFrame(out, schema=PAIRING_SCHEMA)


def _estimates(st: dict) -> dict[str, float]:
    g, h = st["per_game"], st["per_hand"]
    return {"diff_per_game": g["diff"], "diff_per_game_lo": g["ci"][0], "diff_per_game_hi": g["ci"][1],
            "diff_per_hand": h["diff"], "diff_per_hand_lo": h["ci"][0], "diff_per_hand_hi": h["ci"][1]}


def _ladder(per_deal: pl.DataFrame, strategies: list[str]) -> pl.DataFrame:
    """Each strategy's mean difference against the others, per deal (every pairing plays the same
    deals), as ``tournament`` ranks them."""
    k = len(strategies)
    deals = per_deal["deal"].unique().sort()
    index = {d: i for i, d in enumerate(deals.to_list())}
    diff = np.zeros((k, deals.len()))
    hands = np.zeros((k, deals.len()))
    games = np.zeros(k, dtype=np.int64)
    wins = np.zeros(k, dtype=np.int64)
    pos = {s: i for i, s in enumerate(strategies)}
    for r in per_deal.iter_rows(named=True):
        i, j, d = pos[r["strategy"]], pos[r["opponent"]], index[r["deal"]]
        diff[i, d] += r["diff"]
        diff[j, d] -= r["diff"]
        hands[i, d] += r["hands"]
        hands[j, d] += r["hands"]
        games[[i, j]] += r["games"]
        wins[i] += r["a_win"]
        wins[j] += r["b_win"]
    rows = []
    for i, name in enumerate(strategies):
        st = diff_stats(diff[i] / (k - 1), hands[i] / (k - 1))
        rows.append({"strategy": name, **_estimates(st), "games": int(games[i]), "wins": int(wins[i]),
                     "win_rate": wins[i] / games[i] if games[i] else None})
    rows.sort(key=lambda r: (-r["diff_per_hand"], r["strategy"]))
    return pl.DataFrame([{"rank": n, **r} for n, r in enumerate(rows, 1)], schema=LADDER_SCHEMA)
