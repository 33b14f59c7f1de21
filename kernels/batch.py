"""Batch runner: many games in parallel, each seeded from (run seed, game index).

``run_games`` is the only ``prange`` loop. Every game allocates its own state, draws its
randomness from counter-based streams keyed by its index, and writes only its own output rows, so
results are bit-identical for any thread count and any chunking of the index range.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from kernels._jit import njit, njit_parallel
from kernels.cards import natural_value_table
from kernels.engine import play_game, play_single_hand
from kernels.layout import G_SIZE, H_SIZE, R_ACE_LOW_VALUE, R_HAND_CAP, TRACE_COLS


@njit_parallel
def run_games(rules, lineup, params, seed, start, count, out_games, out_hands):
    """Play games start..start+count-1 into out_games[count, G_SIZE] (and out_hands if it has rows).

    ``out_hands`` is int32[count, hand_cap, H_SIZE] when hand rows are wanted, else shape
    (0, 0, H_SIZE).
    """
    vals = natural_value_table(rules)
    ace_low = rules[R_ACE_LOW_VALUE]
    no_trace = np.zeros((0, TRACE_COLS), dtype=np.int32)
    want_hands = out_hands.shape[0] > 0
    empty_hands = np.zeros((0, H_SIZE), dtype=np.int32)
    for i in prange(count):
        hands_rows = out_hands[i] if want_hands else empty_hands
        play_game(rules, vals, ace_low, lineup, params, seed, start + i, out_games[i], hands_rows, no_trace)


@njit_parallel
def run_hands(rules, lineup, params, seed, start, count, out_hands):
    """``--unit hands``: independent hands start..start+count-1 into out_hands[count, H_SIZE]."""
    vals = natural_value_table(rules)
    for i in prange(count):
        play_single_hand(rules, vals, rules[R_ACE_LOW_VALUE], lineup, params, seed, start + i, out_hands[i])


@njit
def run_game_traced(rules, lineup, params, seed, game, trace):
    """Play one game recording every action into trace; returns (game row, rows used, overflowed)."""
    vals = natural_value_table(rules)
    out_game = np.zeros(G_SIZE, dtype=np.int64)
    out_hands = np.zeros((rules[R_HAND_CAP], H_SIZE), dtype=np.int32)
    used, over = play_game(rules, vals, rules[R_ACE_LOW_VALUE], lineup, params, seed, game, out_game, out_hands, trace)
    return out_game, used, over
