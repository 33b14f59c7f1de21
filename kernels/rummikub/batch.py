"""Batch runner for Rummikub: the same contract as the other games' ``batch`` modules.

Python threads hand pieces of the index range to a serial nogil kernel (``kernels.common.runner``);
every game is seeded from (run seed, game index), so results are identical for any thread count and
any chunking. Each piece makes one solver workspace and reuses it for all its games.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.runner import run_in_threads
from rummysim.kernels.rummikub.engine import new_workspace, play_game, play_single_round
from rummysim.kernels.rummikub.layout import G_SIZE, H_SIZE, R_HAND_CAP
from rummysim.strategies.ids import EXTERNAL


def run_games(rules, lineup, params, seed, start, count, out_games, out_hands):
    """Play games start..start+count-1 into out_games[count, G_SIZE] (and out_hands if it has rows)."""
    want_hands = out_hands.shape[0] > 0

    def work(a: int, b: int) -> None:
        hands = out_hands[a:b] if want_hands else out_hands
        play_games(rules, lineup, params, seed, start + a, out_games[a:b], hands)

    run_in_threads(count, work)


def run_hands(rules, lineup, params, seed, start, count, out_hands):
    """``--unit hands``: independent rounds start..start+count-1 into out_hands[count, H_SIZE]."""

    def work(a: int, b: int) -> None:
        play_hands(rules, lineup, params, seed, start + a, out_hands[a:b])

    run_in_threads(count, work)


@njit
def play_games(rules, lineup, params, seed, start, out_games, out_hands):
    """Games start.. into every row of out_games (and of out_hands if it has rows), one thread."""
    want_hands = out_hands.shape[0] > 0
    empty_hands = np.zeros((0, H_SIZE), dtype=np.int32)
    ws = new_workspace()
    for i in range(out_games.shape[0]):
        hands_rows = out_hands[i] if want_hands else empty_hands
        play_game(rules, lineup, params, seed, start + i, out_games[i], hands_rows, None, ws, None)


@njit
def play_hands(rules, lineup, params, seed, start, out_hands):
    ws = new_workspace()
    for i in range(out_hands.shape[0]):
        play_single_round(rules, lineup, params, seed, start + i, out_hands[i], ws)


@njit
def run_game_traced(rules, lineup, params, seed, game, trace):
    """Play one game recording every action into trace; returns (game row, rows used, overflowed)."""
    out_game = np.zeros(G_SIZE, dtype=np.int64)
    out_hands = np.zeros((rules[R_HAND_CAP], H_SIZE), dtype=np.int32)
    used, over = play_game(rules, lineup, params, seed, game, out_game, out_hands, trace, new_workspace(), None)
    return out_game, used, over


@njit
def play_game_into_rk(rules, lineup, params, seed, game, out_game, out_hands, trace, ext):
    """One game for the step API (``rummysim.stepenv``): ``ext`` (int32, one flag per seat) marks
    the seats whose plays are asked outside numba (``strategies.rummikub.external``)."""
    return play_game(rules, lineup, params, seed, game, out_game, out_hands, trace, new_workspace(), ext)


def engine_variant_rk(rules: np.ndarray, lineup: np.ndarray) -> str:
    """The compiled specialization a run plays: ``step-api`` when a seat is external (a Python
    strategy plays through the step API's engine), else "" (Rummikub compiles one variant)."""
    return "step-api" if (lineup >= EXTERNAL).any() else ""
