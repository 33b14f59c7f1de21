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

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.planes import ALL_NATURALS, U0, U1, add_card, popcount
from rummysim.kernels.rum500.layout import (
    JOKER, MK_CARD, MK_LEN, OB_GONE_JOKERS, OB_MY_JOKERS, OB_N_MELDS, OB_OUT_MASK, OB_PILE_LEN, R_DECKS, R_JOKERS,
)
from rummysim.kernels.common.rng import shuffle_int16


@njit
def seen_cards(view, seen):
    """Fill ``seen`` (uint64[2], count planes) with the natural cards in the seat's hand, on the
    table and in the pile of its ``View``; returns the number of jokers among them."""
    obs = view.obs
    mine = view.mine
    pile = view.pile
    melds = view.table.melds
    seen[0] = mine[0]
    seen[1] = mine[1]
    jokers = obs[OB_MY_JOKERS]
    for m in range(obs[OB_N_MELDS]):
        for i in range(melds[m, MK_LEN]):
            c = np.int64(melds[m, MK_CARD + i])
            if c == JOKER:
                jokers += 1
            else:
                add_card(seen, c)
    for i in range(obs[OB_PILE_LEN]):
        c = np.int64(pile[i])
        if c == JOKER:
            jokers += 1
        else:
            add_card(seen, c)
    # Dealer's gambit (public, 0 otherwise): cards out of play, jokers that doubled a meld or left
    # play, less the dealer's joker when it lies among the meld cards (it is not in the pack)
    gone = np.uint64(obs[OB_OUT_MASK])
    if gone:
        seen[0] |= gone
    return jokers + obs[OB_GONE_JOKERS]


@njit
def unseen_cards(view, unseen):
    """Fill ``unseen`` (uint64[2], count planes) with the natural cards the seat has not seen;
    returns the number of unseen jokers."""
    seen = np.zeros(2, dtype=np.uint64)
    seen_jokers = seen_cards(view, seen)
    rules = view.table.rules
    if rules[R_DECKS] >= 2:
        unseen[0] = ALL_NATURALS & ~seen[1]  # some copy unseen
        unseen[1] = ALL_NATURALS & ~seen[0]  # both copies unseen
    else:
        unseen[0] = ALL_NATURALS & ~seen[0]
        unseen[1] = U0
    return max(0, rules[R_JOKERS] - seen_jokers)


@njit
def unseen_count(unseen, unseen_jokers):
    return popcount(unseen[0]) + popcount(unseen[1]) + unseen_jokers


@njit
def list_planes(planes, jokers, out):
    """Write the cards of count planes (then the jokers) into ``out`` in card-id order; returns the
    count."""
    n = 0
    for plane in range(2):
        x = planes[plane]
        for c in range(64):
            if (x >> np.uint64(c)) & U1:
                out[n] = c
                n += 1
    for _ in range(jokers):
        out[n] = JOKER
        n += 1
    return n


@njit
def sample_unseen(view, rng, out):
    """One determinization: the unseen cards in a uniformly random order drawn from ``rng``.

    The list is built in card-id order from the observation alone before it is shuffled, so the
    same observation and the same random stream give the same sample whatever the hidden cards
    are. Returns the number of cards in ``out``.
    """
    unseen = np.zeros(2, dtype=np.uint64)
    jokers = unseen_cards(view, unseen)
    n = list_planes(unseen, jokers, out)
    shuffle_int16(rng, out, n)
    return n
