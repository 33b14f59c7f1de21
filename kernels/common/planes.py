"""Card ids and count planes: the bit layout of a holding, shared by every game that uses it.

A natural card's id is ``16 * suit + rank`` (``card_id``; rank A=1..K=13, one 16-bit lane per suit
of a uint64, ``SUIT_SHIFT`` in ``kernels.common.layout``); bits 0, 14 and 15 of each lane stay
empty. A holding is two count planes: ``p1`` has the bits of the cards held at least once, ``p2``
of those held twice. With one deck ``p2`` stays 0 and every operation reduces to single-mask
arithmetic. Jokers are counted apart. Nothing here knows a game's card values or meld rules.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.layout import SUIT_SHIFT

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
def card_id(suit, rank):
    """Id (bit index) of the natural card of a suit (0..3) and rank (1..13)."""
    return SUIT_SHIFT * suit + rank


@njit_noalloc
def suit_of(card):
    return card >> 4


@njit_noalloc
def rank_of(card):
    return card & 15


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
