"""Run summaries from result frames: per-seat win rates and scores with 95% intervals."""

from __future__ import annotations

import polars as pl

from rummysim.analysis.stats import mean_ci, wilson


def summarize_games(games: pl.DataFrame, strategies: list[str]) -> dict:
    """Per-seat wins and final scores, mean hands per game and turns per hand, capped games."""
    n = games.height
    seats = []
    for s, name in enumerate(strategies):
        col = f"score_{s}"
        wins = int((games["winner"] == s).sum())
        mean = float(games[col].mean()) if n else float("nan")
        std = float(games[col].std()) if n > 1 else float("nan")
        lo, hi = wilson(wins, n)
        slo, shi = mean_ci(mean, std, n)
        seats.append(
            {
                "seat": s,
                "strategy": name,
                "wins": wins,
                "win_rate": wins / n if n else float("nan"),
                "win_rate_ci": [lo, hi],
                "mean_score": mean,
                "mean_score_ci": [slo, shi],
            }
        )
    hands = int(games["hands"].sum())
    return {
        "games": n,
        "hands": hands,
        "capped_games": int(games["capped"].sum()),
        "capped_hands": int(games["capped_hands"].sum()),
        "mean_hands_per_game": hands / n if n else float("nan"),
        "mean_turns_per_hand": float(games["turns"].sum()) / hands if hands else float("nan"),
        "seats": seats,
    }


def summarize_hands(hands: pl.DataFrame, strategies: list[str]) -> dict:
    """Per-seat mean hand score and going-out rate for independent hands (``--unit hands``)."""
    n = hands.height
    seats = []
    for s, name in enumerate(strategies):
        col = f"score_{s}"
        outs = int((hands["out_seat"] == s).sum())
        mean = float(hands[col].mean()) if n else float("nan")
        std = float(hands[col].std()) if n > 1 else float("nan")
        lo, hi = wilson(outs, n)
        slo, shi = mean_ci(mean, std, n)
        seats.append(
            {
                "seat": s,
                "strategy": name,
                "went_out": outs,
                "out_rate": outs / n if n else float("nan"),
                "out_rate_ci": [lo, hi],
                "mean_hand_score": mean,
                "mean_hand_score_ci": [slo, shi],
            }
        )
    return {
        "hands": n,
        "capped_hands": int((hands["reason"] == "turn_cap").sum()),
        "mean_turns_per_hand": float(hands["turns"].mean()) if n else float("nan"),
        "ends": {r: int(c) for r, c in hands["reason"].value_counts().iter_rows()},
        "seats": seats,
    }
