"""Setting up a game and its hands: streams and first dealer, the pack, the shuffle and the deal.

R500-SETUP-2/3/4, R500-DEAL-1/2 (RSTD-SETUP-1), V500-UPCHOICE's extra card for the first player,
and the V500-STOCKEND reshuffle that turns the discard pile into a new stock.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.planes import add_card, card_id
from rummysim.kernels.common.rng import STREAM_GAME, STREAM_SEAT, below, seed_stream, shuffle_int16
from rummysim.kernels.common.trace import record, record_cards
from rummysim.kernels.rum500.layout import (
    JOKER, MAX_SEATS, R_DEAL_SIZE, R_DECKS, R_JOKERS, R_N_PLAYERS, R_UPCHOICE, ST_BONUS, ST_CALLS,
    ST_DEALER, ST_DEEP_TAKES, ST_DISCARDED, ST_FLOATS, ST_GAME_INDEX, ST_HAND_INDEX, ST_IDLE, ST_JOKERS, ST_N,
    ST_N_MELDS, ST_OPENED, ST_PACK_SIZE, ST_PILE_LEN, ST_SEAT, ST_STOCK_POS, ST_TURN, T_DECK,
    T_HAND_START, T_RESHUFFLE, T_RESTOCK,
)


@njit_inline
def fill_pack(rules, pack):
    """Pack for R500-SETUP-2/3 (RSTD-SETUP-1): decks x 52 naturals plus the jokers; returns its size."""
    n = 0
    for _ in range(rules[R_DECKS]):
        for s in range(4):
            for r in range(1, 14):
                pack[n] = card_id(s, r)
                n += 1
    for _ in range(rules[R_JOKERS]):
        pack[n] = JOKER
        n += 1
    return n


@njit_noalloc
def start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace):
    """Shuffle and deal (R500-DEAL-1/2, C-CARD-4, V500-UPCHOICE's extra card for the first player)."""
    n = st[ST_N]
    size = fill_pack(rules, pack)
    shuffle_int16(rng_deal, pack, size)
    st[ST_PACK_SIZE] = size
    hands[:, :] = 0
    for s in range(MAX_SEATS):
        st[ST_JOKERS + s] = 0
        st[ST_OPENED + s] = 0
        st[ST_BONUS + s] = 0
        st[ST_DISCARDED + s] = 0
    deal = rules[R_DEAL_SIZE]
    dealer = st[ST_DEALER]
    first = (dealer + 1) % n
    pos = 0
    for i in range(n):
        seat = (dealer + 1 + i) % n
        count = deal + 1 if (i == 0 and rules[R_UPCHOICE] != 0) else deal
        for _ in range(count):
            c = np.int64(pack[pos])
            pos += 1
            if c == JOKER:
                st[ST_JOKERS + seat] += 1
            else:
                add_card(hands[seat], c)
    st[ST_PILE_LEN] = 0
    if rules[R_UPCHOICE] == 0:
        pile[0] = pack[pos]  # R500-DEAL-2: the upcard
        st[ST_PILE_LEN] = 1
        pos += 1
    st[ST_STOCK_POS] = pos
    st[ST_N_MELDS] = 0
    st[ST_TURN] = 0
    st[ST_IDLE] = 0
    st[ST_CALLS] = 0
    st[ST_FLOATS] = 0
    st[ST_DEEP_TAKES] = 0
    st[ST_SEAT] = first
    record(trace, st, T_HAND_START, st[ST_HAND_INDEX], dealer, size, deal, first, 0, 0)
    record_cards(trace, st, T_DECK, 0, pack, size)


@njit_noalloc
def reshuffle(g, seat):
    """V500-STOCKEND reshuffle: every pile card but the top becomes a new, shuffled stock."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    top = st[ST_PILE_LEN] - 1
    for i in range(top):
        pack[i] = pile[i]
    shuffle_int16(rng_deal, pack, top)
    pile[0] = pile[top]
    st[ST_PILE_LEN] = 1
    st[ST_PACK_SIZE] = top
    st[ST_STOCK_POS] = 0
    record(trace, st, T_RESHUFFLE, seat, top, 0, 0, 0, 0, 0)
    record_cards(trace, st, T_RESTOCK, 0, pack, top)


@njit
def seed_game(g, seed, game):
    """Per-seat decision streams and the first dealer (R500-SETUP-4) from (seed, game)."""
    st = g.st
    rules = g.rules
    rngs = g.rngs
    n = rules[R_N_PLAYERS]
    for s in range(n):
        seed_stream(rngs[s], seed, game, STREAM_SEAT, s)
    rng_game = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_game, seed, game, STREAM_GAME, 0)
    st[ST_N] = n
    st[ST_GAME_INDEX] = game
    st[ST_DEALER] = below(rng_game, n)
