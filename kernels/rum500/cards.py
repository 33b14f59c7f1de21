"""Card values of 500 Rum and Standard Rummy (R500-SCORE-2, V500-VALUES, RSTD-SCORE-1).

Cards and holdings are the count planes of ``kernels.common.planes``; this module adds what they
are worth: the value of each card id under the rules, and of a mask or a whole holding.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.planes import U1, card_id, lowest_bit_index
from rummysim.kernels.rum500.layout import (
    JOKER,
    R_ACE_VALUE,
    R_DIVISOR,
    R_JOKER_VALUE,
    R_VALUES,
    VALUES_5_10_15,
    VALUES_ALL5,
)


@njit
def natural_value_table(rules):
    """int64[65]: value of each natural card id (aces not used low) and, at JOKER, of a joker."""
    vals = np.zeros(JOKER + 1, dtype=np.int64)
    scheme = rules[R_VALUES]
    for s in range(4):
        for r in range(1, 14):
            if r == 1:
                v = rules[R_ACE_VALUE]  # arrives divided
            elif scheme == VALUES_ALL5:
                v = 5 // rules[R_DIVISOR]
            elif scheme == VALUES_5_10_15:
                v = (5 if r <= 9 else 10) // rules[R_DIVISOR]
            else:
                v = (r if r <= 10 else 10) // rules[R_DIVISOR]
            vals[card_id(s, r)] = v
    vals[JOKER] = rules[R_JOKER_VALUE]
    return vals


@njit_noalloc
def mask_value(vals, m):
    """Sum of the values of the natural cards in mask m (aces valued as not used low)."""
    total = 0
    x = np.uint64(m)
    while x:
        i = lowest_bit_index(x)
        total += vals[i]
        x &= x - U1
    return total


@njit_noalloc
def holding_value(vals, p1, p2, jokers):
    return mask_value(vals, p1) + mask_value(vals, p2) + jokers * vals[JOKER]
