"""Which batch kernels play a rules vector: 500 Rum and Standard Rummy, or 5000 Rummy.

The two engines are compiled separately, so a 500 Rum run never loads the 5000 kernels; the
imports are local for that reason.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rummysim.kernels.rum500 import layout as L


def _is_5000(vector: np.ndarray) -> bool:
    return int(vector[L.R_GAME]) == L.GAME_5000


def games_runner(vector: np.ndarray) -> Callable:
    """``run(rules, lineup, params, seed, start, count, out_games, out_hands)``."""
    if _is_5000(vector):
        from rummysim.kernels.rum5000.batch import run_games5

        return run_games5
    from rummysim.kernels.rum500.batch import run_games

    return run_games


def hands_runner(vector: np.ndarray) -> Callable:
    """``run(rules, lineup, params, seed, start, count, out_hands)`` for ``--unit hands``."""
    if _is_5000(vector):
        from rummysim.kernels.rum5000.batch import run_hands5

        return run_hands5
    from rummysim.kernels.rum500.batch import run_hands

    return run_hands


def traced_runner(vector: np.ndarray) -> Callable:
    """``run(rules, lineup, params, seed, game, trace) -> (game row, rows used, overflowed)``."""
    if _is_5000(vector):
        from rummysim.kernels.rum5000.batch import run_game_traced5

        return run_game_traced5
    from rummysim.kernels.rum500.batch import run_game_traced

    return run_game_traced
