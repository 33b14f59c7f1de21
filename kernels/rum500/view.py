"""What a seat sees of the game: the stock and hand sizes, its observation, and its ``View``.

The observation vector (``OB_*``) holds only public information (C-INFO-1): sizes, scores and the
duties of the turn; the seat's own cards go beside it in ``mine``. A strategy receives them as a
``View``, with the public discard pile and table: nothing else of the state.
"""

from __future__ import annotations

from collections import namedtuple

from rummysim.kernels.common._jit import njit_inline
from rummysim.kernels.common.planes import n_cards
from rummysim.kernels.rum500.layout import (
    OB_HAND_SIZE, OB_MUST_CARD, OB_MY_JOKERS, OB_N, OB_NO_DISCARD, OB_N_MELDS, OB_PILE_LEN, OB_SEAT,
    OB_STOCK, OB_TEAMS, OB_TOTAL, OB_TURN, PARTNER_NONE, R_PARTNERSHIP, ST_JOKERS, ST_MUST_CARD, ST_N, ST_NO_DISCARD, ST_N_MELDS,
    ST_PACK_SIZE, ST_PILE_LEN, ST_STOCK_POS, ST_TOTAL, ST_TURN,
)
from rummysim.kernels.rum500.melds import Table, layoff_team

View = namedtuple("View", "obs mine pile table")
"""What a strategy is given at a decision (C-INFO-1): the seat's observation (``OB_*``), its own
cards (count planes, uint64[2]), the discard pile (``pile[:obs[OB_PILE_LEN]]``) and the ``Table``."""


@njit_inline
def stock_size(st):
    return st[ST_PACK_SIZE] - st[ST_STOCK_POS]


@njit_inline
def hand_size(st, hands, seat):
    return n_cards(hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_inline
def observe(st, hands, rules, seat, obs, mine):
    """Fill the seat's observation: public information plus its own hand (C-INFO-1)."""
    n = st[ST_N]
    obs[:] = 0
    obs[OB_TEAMS] = 1 if rules[R_PARTNERSHIP] != PARTNER_NONE else 0
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


@njit_inline
def table_of(g, seat):
    """The ``Table`` of game context ``g`` as it is now, with ``seat``'s lay-off rights (seat -1:
    any meld, for tests that hold for every seat)."""
    team = layoff_team(g.rules, seat) if seat >= 0 else -1
    return Table(g.melds, g.st[ST_N_MELDS], g.vals, g.ace_low, g.rules, team)


@njit_inline
def seat_view(g, seat):
    """Observe the game for ``seat`` into the context's buffers and return the seat's ``View``."""
    observe(g.st, g.hands, g.rules, seat, g.obs, g.mine)
    return View(g.obs, g.mine, g.pile,
                Table(g.melds, g.obs[OB_N_MELDS], g.vals, g.ace_low, g.rules, layoff_team(g.rules, seat)))
