"""Card bitsets: counting, iterating, adding and removing cards, and card values.

A holding is two count planes (see ``kernels.layout``): ``p1`` has the bits of cards held at
least once, ``p2`` of cards held twice. With one deck ``p2`` stays 0 and every operation reduces
to single-mask arithmetic. Jokers are counted apart.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.rum500.layout import (
    JOKER,
    R_ACE_VALUE,
    R_DIVISOR,
    R_JOKER_VALUE,
    R_VALUES,
    VALUES_5_10_15,
    VALUES_ALL5,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
U16 = np.uint64(16)
U32 = np.uint64(32)
U48 = np.uint64(48)
LANE_RANKS = np.uint64(0x3FFE)  # bits 1..13 of a suit lane
ALL_NATURALS = LANE_RANKS | (LANE_RANKS << np.uint64(16)) | (LANE_RANKS << np.uint64(32)) | (
    LANE_RANKS << np.uint64(48)
)
RANK_IN_EACH_SUIT = np.uint64(0x0001000100010001)  # shifted left by r: rank r in all four suits
ACES_LOW = RANK_IN_EACH_SUIT << U1  # the four aces


@njit_noalloc
def popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit_noalloc
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero mask."""
    x = np.uint64(x)
    low = x & (~x + U1)
    return popcount(low - U1)


@njit_noalloc
def bit(card):
    return U1 << np.uint64(card)


@njit_noalloc
def card_of(suit, rank):
    return 16 * suit + rank


@njit_noalloc
def suit_of(card):
    return card >> 4


@njit_noalloc
def rank_of(card):
    return card & 15


@njit_noalloc
def has_card(p1, card):
    return (p1 >> np.uint64(card)) & U1 == U1


@njit_inline
def add_card(planes, card):
    """Add one copy of a natural card to planes (uint64[2])."""
    b = bit(card)
    planes[1] |= planes[0] & b
    planes[0] |= b


@njit_inline
def remove_card(planes, card):
    """Remove one copy of a natural card held at least once."""
    b = bit(card)
    if planes[1] & b:
        planes[1] &= ~b
    else:
        planes[0] &= ~b


@njit_inline
def remove_mask(planes, m):
    """Remove one copy of every card in mask m (each held at least once), without branches."""
    planes[0] &= ~(m & ~planes[1])
    planes[1] &= ~m


@njit_inline
def n_cards(p1, p2, jokers):
    return popcount(p1) + popcount(p2) + jokers


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
            vals[16 * s + r] = v
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
