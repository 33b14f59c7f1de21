"""What a seat sees of the game: the stock and hand sizes, and its observation (C-INFO-1).

The observation vector (``OB_*``) holds only public information and the seat's own hand size
counts; the seat's own cards go beside it in ``mine``. It is all a strategy receives of the state.
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_inline
from rummysim.kernels.common.planes import n_cards
from rummysim.kernels.rum500.layout import (
    OB_HAND_SIZE, OB_MUST_CARD, OB_MY_JOKERS, OB_N, OB_NO_DISCARD, OB_N_MELDS, OB_PILE_LEN, OB_SEAT,
    OB_STOCK, OB_TOTAL, OB_TURN, ST_JOKERS, ST_MUST_CARD, ST_N, ST_NO_DISCARD, ST_N_MELDS,
    ST_PACK_SIZE, ST_PILE_LEN, ST_STOCK_POS, ST_TOTAL, ST_TURN,
)


@njit_inline
def stock_size(st):
    return st[ST_PACK_SIZE] - st[ST_STOCK_POS]


@njit_inline
def hand_size(st, hands, seat):
    return n_cards(hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_inline
def observe(st, hands, seat, obs, mine):
    """Fill the seat's observation: public information plus its own hand (C-INFO-1)."""
    n = st[ST_N]
    obs[:] = 0
    obs[OB_SEAT] = seat
    obs[OB_N] = n
    obs[OB_STOCK] = stock_size(st)
    obs[OB_PILE_LEN] = st[ST_PILE_LEN]
    obs[OB_N_MELDS] = st[ST_N_MELDS]
    obs[OB_MY_JOKERS] = st[ST_JOKERS + seat]
    obs[OB_MUST_CARD] = st[ST_MUST_CARD]
    obs[OB_NO_DISCARD] = st[ST_NO_DISCARD]
    obs[OB_TURN] = st[ST_TURN]
    for s in range(n):
        obs[OB_HAND_SIZE + s] = hand_size(st, hands, s)
        obs[OB_TOTAL + s] = st[ST_TOTAL + s]
    mine[0] = hands[seat, 0]
    mine[1] = hands[seat, 1]
