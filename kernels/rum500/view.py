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
    DJ_READY, GB_DEALERS_JOKER, OB_DEALER, OB_DJ, OB_EFFECT, OB_GONE_JOKERS, OB_HAND_INDEX, OB_OUT_MASK,
    R_GAMBIT, ST_DEALER, ST_DJ, ST_EFFECT, ST_GONE_JOKERS, ST_HAND_INDEX, ST_OUT_MASK, ST_SEAT,
    OB_HAND_SIZE, OB_MUST_CARD, OB_MY_DISCARDS, OB_MY_JOKERS, OB_N, OB_NO_DISCARD, OB_N_MELDS, OB_PILE_LEN, OB_SEAT,
    OB_STOCK, OB_TEAMS, OB_TOTAL, OB_TURN, PARTNER_NONE, R_PARTNERSHIP, ST_JOKERS, ST_MUST_CARD, ST_N, ST_NO_DISCARD, ST_N_MELDS,
    ST_PACK_SIZE, ST_PILE_LEN, ST_STOCK_POS, ST_TOTAL, ST_TURN, ST_DISCARDED,
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
def observe_public_gambit(st, rules, obs):
    """Dealer's gambit, all public (V500-GAMBIT-1/3): the effect, the dealer, the dealer's joker,
    the cards out of play; and the hand index."""
    obs[OB_HAND_INDEX] = st[ST_HAND_INDEX]
    obs[OB_DEALER] = st[ST_DEALER]
    if rules[R_GAMBIT] != 0:
        obs[OB_EFFECT] = st[ST_EFFECT]
        obs[OB_DJ] = st[ST_DJ]
        obs[OB_OUT_MASK] = st[ST_OUT_MASK]
        obs[OB_GONE_JOKERS] = st[ST_GONE_JOKERS]


@njit_inline
def observe_public(st, hands, rules, seat, obs):
    """Fill ``seat``'s observation with public information only (C-INFO-1): no card of any hand,
    not even its own joker count (the Dealer's gambit nomination is made from this alone)."""
    n = st[ST_N]
    obs[:] = 0
    obs[OB_TEAMS] = 1 if rules[R_PARTNERSHIP] != PARTNER_NONE else 0
    obs[OB_SEAT] = seat
    obs[OB_N] = n
    obs[OB_STOCK] = stock_size(st)
    obs[OB_PILE_LEN] = st[ST_PILE_LEN]
    obs[OB_N_MELDS] = st[ST_N_MELDS]
    obs[OB_MUST_CARD] = st[ST_MUST_CARD]
    obs[OB_NO_DISCARD] = st[ST_NO_DISCARD]
    obs[OB_TURN] = st[ST_TURN]
    for s in range(n):
        obs[OB_HAND_SIZE + s] = hand_size(st, hands, s)
        obs[OB_TOTAL + s] = st[ST_TOTAL + s]
    observe_public_gambit(st, rules, obs)


@njit_inline
def observe(st, hands, rules, seat, obs, mine):
    """Fill the seat's observation: public information plus its own hand (C-INFO-1)."""
    observe_public(st, hands, rules, seat, obs)
    obs[OB_MY_JOKERS] = st[ST_JOKERS + seat]
    obs[OB_MY_DISCARDS] = st[ST_DISCARDED + seat]
    mine[0] = hands[seat, 0]
    mine[1] = hands[seat, 1]


@njit_inline
def gambit_of(st, rules, seat):
    """``Table.gambit`` for ``seat``'s holding: 0 without Dealer's gambit, else the hand's effect,
    with ``GB_DEALERS_JOKER`` when the seat is the dealer, in its own turn (``ST_SEAT``), and the
    dealer's joker is still beside it (V500-GAMBIT-7)."""
    if rules[R_GAMBIT] == 0:
        return 0
    ready = seat >= 0 and seat == st[ST_DEALER] and seat == st[ST_SEAT] and st[ST_DJ] == DJ_READY
    return st[ST_EFFECT] | (GB_DEALERS_JOKER if ready else 0)


@njit_inline
def table_of(g, seat):
    """The ``Table`` of game context ``g`` as it is now, with ``seat``'s lay-off rights and use of
    the dealer's joker (seat -1: any meld and no dealer's joker, for tests that hold for every
    seat)."""
    team = layoff_team(g.rules, seat) if seat >= 0 else -1
    return Table(g.melds, g.st[ST_N_MELDS], g.vals, g.ace_low, g.rules, team, gambit_of(g.st, g.rules, seat))


@njit_inline
def seat_view(g, seat):
    """Observe the game for ``seat`` into the context's buffers and return the seat's ``View``."""
    observe(g.st, g.hands, g.rules, seat, g.obs, g.mine)
    return View(g.obs, g.mine, g.pile,
                Table(g.melds, g.obs[OB_N_MELDS], g.vals, g.ace_low, g.rules, layoff_team(g.rules, seat),
                      gambit_of(g.st, g.rules, seat)))
