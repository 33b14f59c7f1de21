"""What a seat has seen and what it has not: the unseen cards, and random deals of them.

Everything here is computed from the seat's observation (C-INFO-1): its own hand, the table melds,
the discard pile, the hand sizes and the stock size (and, under Dealer's gambit, the cards out of
play). The *unseen* cards are the pack minus those
seen cards; they are exactly the cards in the other hands and in the stock, in an order the seat
cannot know. The observation keeps no history, so cards once seen on the pile and later taken
into another hand count as unseen again.

Natural cards are kept as count planes like hands (``kernels.layout``): plane 0 has the cards
with at least one unseen copy, plane 1 those with two (two-deck packs).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.common.planes import ALL_NATURALS, U0, U1, bit, popcount
from rummysim.kernels.rum500.layout import (
    JOKER, MK_CARD, MK_LEN, OB_GONE_JOKERS, OB_MY_JOKERS, OB_N_MELDS, OB_OUT_MASK, OB_PILE_LEN, R_DECKS, R_JOKERS,
)
from rummysim.kernels.common.rng import shuffle_int16


@njit_noalloc
def seen_cards(view):
    """(plane 0, plane 1, jokers): the natural cards in the seat's hand, on the table and in the
    pile of its ``View`` as count planes, and the number of jokers among them. Scalars, not an
    array: the heuristic family calls this at every draw, and without an allocation it compiles
    without reference counting (issue 19)."""
    obs = view.obs
    mine = view.mine
    pile = view.pile
    melds = view.table.melds
    seen0 = mine[0]
    seen1 = mine[1]
    jokers = obs[OB_MY_JOKERS]
    for m in range(obs[OB_N_MELDS]):
        for i in range(melds[m, MK_LEN]):
            c = np.int64(melds[m, MK_CARD + i])
            if c == JOKER:
                jokers += 1
            else:
                seen1 |= seen0 & bit(c)
                seen0 |= bit(c)
    for i in range(obs[OB_PILE_LEN]):
        c = np.int64(pile[i])
        if c == JOKER:
            jokers += 1
        else:
            seen1 |= seen0 & bit(c)
            seen0 |= bit(c)
    # Dealer's gambit (public, 0 otherwise): cards out of play, jokers that doubled a meld or left
    # play, less the dealer's joker when it lies among the meld cards (it is not in the pack)
    seen0 |= np.uint64(obs[OB_OUT_MASK])
    return seen0, seen1, jokers + obs[OB_GONE_JOKERS]


@njit_noalloc
def unseen_planes(view):
    """(plane 0, plane 1, jokers) of the cards the seat has not seen: natural cards as count
    planes, then the number of unseen jokers."""
    seen0, seen1, seen_jokers = seen_cards(view)
    rules = view.table.rules
    if rules[R_DECKS] >= 2:
        unseen0 = ALL_NATURALS & ~seen1  # some copy unseen
        unseen1 = ALL_NATURALS & ~seen0  # both copies unseen
    else:
        unseen0 = ALL_NATURALS & ~seen0
        unseen1 = U0
    return unseen0, unseen1, max(0, rules[R_JOKERS] - seen_jokers)


@njit_noalloc
def unseen_count(unseen0, unseen1, unseen_jokers):
    return popcount(unseen0) + popcount(unseen1) + unseen_jokers


@njit_noalloc
def list_planes(plane0, plane1, jokers, out):
    """Write the cards of count planes (then the jokers) into ``out`` in card-id order; returns the
    count."""
    n = 0
    for plane in range(2):
        x = plane0 if plane == 0 else plane1
        for c in range(64):
            if (x >> np.uint64(c)) & U1:
                out[n] = c
                n += 1
    for _ in range(jokers):
        out[n] = JOKER
        n += 1
    return n


@njit_noalloc
def sample_unseen(view, rng, out):
    """One determinization: the unseen cards in a uniformly random order drawn from ``rng``.

    The list is built in card-id order from the observation alone before it is shuffled, so the
    same observation and the same random stream give the same sample whatever the hidden cards
    are. Returns the number of cards in ``out``.
    """
    unseen0, unseen1, jokers = unseen_planes(view)
    n = list_planes(unseen0, unseen1, jokers, out)
    shuffle_int16(rng, out, n)
    return n
