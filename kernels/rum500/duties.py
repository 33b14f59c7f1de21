"""What the rules ask of the seat this turn, and whether its turn can still end (C-LEGAL-1).

The cards it may not discard (R500-DISC-2, V500-DISCSAME), the points it still owes before its
first meld counts (V500-OPEN30), whether a play may empty its hand (V500-DISCREQ), and the
per-turn counters that track them.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit_inline
from rummysim.kernels.common.planes import bit
from rummysim.kernels.rum500.layout import (
    DISC_ANY_TAKEN, DISC_TOP_SINGLE, JOKER, OUT_DISCARD_REQUIRED, R_DISC_RESTRICT, R_FIRST_MELD_MIN,
    R_GOING_OUT, ST_LONG_RUN, ST_MUST_CARD, ST_NEW_ONLY, ST_NO_DISCARD, ST_OPENED, ST_PLACED,
    ST_PLACED_VALUE, ST_STOCK_DRAWN, ST_TAKEN_JOKER, ST_TAKEN_MASK,
)

TurnEnd = namedtuple("TurnEnd", "forb forb_joker empty_ok")
"""How the seat's turn may end (C-LEGAL-1): the natural cards it may not discard (a mask), whether
it may not discard a joker, and whether it may end with an empty hand (going out or floating)."""


@njit_inline
def empty_hand_allowed(rules):
    """May a play empty the hand? Not with V500-DISCREQ / RSTD-OUT-1's discard_required."""
    return rules[R_GOING_OUT] != OUT_DISCARD_REQUIRED


@njit_inline
def opening_need(st, rules, seat):
    """V500-OPEN30: points still owed by a seat that has not opened this hand (0 if none)."""
    if rules[R_FIRST_MELD_MIN] <= 0 or st[ST_OPENED + seat] != 0:
        return 0
    return rules[R_FIRST_MELD_MIN]


@njit_inline
def forbidden_discards(st, rules):
    """(natural mask, joker forbidden) this turn under V500-DISCSAME / R500-DISC-2."""
    if rules[R_DISC_RESTRICT] == DISC_ANY_TAKEN:
        return np.uint64(st[ST_TAKEN_MASK]), st[ST_TAKEN_JOKER] > 0
    nd = st[ST_NO_DISCARD]
    if nd < 0:
        return np.uint64(0), False
    if nd == JOKER:
        return np.uint64(0), True
    return bit(nd), False


@njit_inline
def take_forbidden(rules, top_single, taken, taken_jok):
    """Cards a take makes undiscardable this turn (R500-DISC-2, V500-DISCSAME)."""
    restriction = rules[R_DISC_RESTRICT]
    if restriction == DISC_ANY_TAKEN or (restriction == DISC_TOP_SINGLE and top_single):
        return taken, taken_jok > 0
    return np.uint64(0), False


@njit_inline
def turn_end(st, rules):
    """The ``TurnEnd`` of the seat in turn, from the cards it took this turn."""
    forb, forb_joker = forbidden_discards(st, rules)
    return TurnEnd(forb, forb_joker, empty_hand_allowed(rules))


@njit_inline
def take_end(rules, top_single, taken, taken_jok):
    """The ``TurnEnd`` after taking ``taken`` (and ``taken_jok`` jokers); see ``take_forbidden``."""
    forb, forb_joker = take_forbidden(rules, top_single, taken, taken_jok)
    return TurnEnd(forb, forb_joker, empty_hand_allowed(rules))


@njit_inline
def finish_ok(p1, jok, end):
    """C-LEGAL-1: the hand is empty and may be (out or floating), or holds a card it may discard
    (``end``: a ``TurnEnd``).

    A hand left holding only forbidden cards could sometimes still be emptied by laying them off;
    such plays are refused anyway, since playing in another order reaches the same end.
    """
    if p1 == 0 and jok == 0:
        return end.empty_ok
    if (p1 & ~end.forb) != 0:
        return True
    return jok > 0 and not end.forb_joker


@njit_inline
def reset_turn(st):
    st[ST_MUST_CARD] = -1
    st[ST_NEW_ONLY] = 0
    st[ST_NO_DISCARD] = -1
    st[ST_TAKEN_MASK] = 0
    st[ST_TAKEN_JOKER] = 0
    st[ST_PLACED] = 0
    st[ST_PLACED_VALUE] = 0
    st[ST_LONG_RUN] = 0
    st[ST_STOCK_DRAWN] = 0


@njit_inline
def mark_opened(st, rules, seat):
    if opening_need(st, rules, seat) > 0 and st[ST_PLACED_VALUE] >= rules[R_FIRST_MELD_MIN]:
        st[ST_OPENED + seat] = 1
