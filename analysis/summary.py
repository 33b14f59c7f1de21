"""Run summaries from result frames: per-side and per-seat win rates and scores with 95% intervals.

A side wins a game (``winner_side``); a seat counts as winning when its side wins, so with one
seat per side the two lists hold the same figures; in partnership games a side is a team.
"""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from rummysim.analysis.stats import mean_ci, wilson
from rummysim.sides import SideMap, side_of_seat_expr, side_score_columns


class _Rate(NamedTuple):
    """How often one seat or side won (went out) of ``n``, and its mean score, with intervals."""

    count: int
    rate: float
    rate_ci: list[float]
    mean: float
    mean_ci: list[float]


def _rate_entry(wins: int, n: int, scores: pl.Series) -> _Rate:
    mean = float(scores.mean()) if n else float("nan")
    std = float(scores.std()) if n > 1 else float("nan")
    lo, hi = wilson(wins, n)
    slo, shi = mean_ci(mean, std, n)
    return _Rate(wins, wins / n if n else float("nan"), [lo, hi], mean, [slo, shi])


def side_strategy(sides: SideMap, strategies: list[str], side: int) -> str:
    """The strategy of a side's seats: one name, or the names joined by ``+`` when they differ."""
    return "+".join(dict.fromkeys(strategies[s] for s in sides.members(side)))


def _games_entry(key: str, index: int, strategy: str, e: _Rate) -> dict:
    return {key: index, "strategy": strategy, "wins": e.count, "win_rate": e.rate, "win_rate_ci": e.rate_ci,
            "mean_score": e.mean, "mean_score_ci": e.mean_ci}


def drawn_games(games: pl.DataFrame) -> pl.Series:
    """Games that ended drawn: finished (not capped) with the win shared (``tied_seats``), e.g.
    Persian rummy's equal totals after two deals (V500-PERSIAN-5) or a tie of R5K-GAME-2."""
    return (games["winner"] < 0) & (games["tied_seats"] != 0) & ~games["capped"]


def summarize_games(games: pl.DataFrame, strategies: list[str], sides: SideMap) -> dict:
    """Per-side and per-seat wins and final scores, mean hands per game and turns per hand, capped
    games. ``games`` are game rows with their side columns (``winner_side``, ``side_score_k``)."""
    n = games.height
    won = games["winner_side"]
    side_list = []
    for k in range(sides.n_sides):
        e = _rate_entry(int((won == k).sum()), n, games[f"side_score_{k}"])
        side_list.append({**_games_entry("side", k, side_strategy(sides, strategies, k), e),
                          "members": list(sides.members(k))})
    seats = []
    for s, name in enumerate(strategies):
        e = _rate_entry(int((won == sides.of_seat[s]).sum()), n, games[f"score_{s}"])
        seats.append(_games_entry("seat", s, name, e))
    hands = int(games["hands"].sum())
    return {
        "games": n,
        "hands": hands,
        "capped_games": int(games["capped"].sum()),
        "capped_hands": int(games["capped_hands"].sum()),
        "drawn_games": int(drawn_games(games).sum()),
        "mean_hands_per_game": hands / n if n else float("nan"),
        "mean_turns_per_hand": float(games["turns"].sum()) / hands if hands else float("nan"),
        "seats": seats,
        "sides": side_list,
    }


def summarize_stakes(games: pl.DataFrame, strategies: list[str], betting: list[str]) -> list[dict]:
    """Per seat of a stakes session (V5K-13, V5K-14): its play strategy and betting policy and its
    mean net stake units or chips per game (``stake_k``) with a 95% interval, and per hand."""
    n = games.height
    hands = int(games["hands"].sum())
    out = []
    for s, name in enumerate(strategies):
        col = games[f"stake_{s}"]
        mean = float(col.mean()) if n else float("nan")
        lo, hi = mean_ci(mean, float(col.std()) if n > 1 else float("nan"), n)
        out.append({"seat": s, "strategy": name, "betting": betting[s], "mean_stake": mean, "mean_stake_ci": [lo, hi],
                    "stake_per_hand": float(col.sum()) / hands if hands else float("nan")})
    return out


def _hands_entry(key: str, index: int, strategy: str, e: _Rate) -> dict:
    return {key: index, "strategy": strategy, "went_out": e.count, "out_rate": e.rate, "out_rate_ci": e.rate_ci,
            "mean_hand_score": e.mean, "mean_hand_score_ci": e.mean_ci}


def summarize_hands(hands: pl.DataFrame, strategies: list[str], sides: SideMap) -> dict:
    """Per-seat and per-side mean hand score and going-out rate for independent hands
    (``--unit hands``); a side goes out when one of its seats does."""
    n = hands.height
    seats = []
    for s, name in enumerate(strategies):
        e = _rate_entry(int((hands["out_seat"] == s).sum()), n, hands[f"score_{s}"])
        seats.append(_hands_entry("seat", s, name, e))
    by_side = hands.select(side_of_seat_expr(sides, pl.col("out_seat")).alias("out_side"), *side_score_columns(sides))
    side_list = []
    for k in range(sides.n_sides):
        e = _rate_entry(int((by_side["out_side"] == k).sum()), n, by_side[f"side_score_{k}"])
        side_list.append({**_hands_entry("side", k, side_strategy(sides, strategies, k), e),
                          "members": list(sides.members(k))})
    return {
        "hands": n,
        "capped_hands": int((hands["reason"] == "turn_cap").sum()),
        "mean_turns_per_hand": float(hands["turns"].mean()) if n else float("nan"),
        "ends": {r: int(c) for r, c in hands["reason"].value_counts().iter_rows()},
        "seats": seats,
        "sides": side_list,
    }
