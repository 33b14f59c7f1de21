"""A fast model of the rest of a 5000 Rummy hand, for ``search``'s play-outs (strategies/rum5000/search.py).

The engine imports the strategies, so a play-out cannot call it: the model keeps its own small
world (``World5``: every hand, a copy of the table with every seat's R5K-GROUP-2 row, the pile
and the stock) and plays it with the meld primitives of ``kernels.rum5000.melds``. Every seat
plays one fast greedy policy (``model_turn``):

* draw: the top discard when it goes onto the table this turn with the hand (a play holding it,
  R5K-DRAW-1's duty scope), else the stock; with the stock empty and no take the hand ends
  (R5K-STOCK-1 b);
* play: the highest-valued play until none puts points down (greedy's and the heuristic's play at
  ``hold_5000=0``), melding the last card goes out (R5K-OUT-1);
* discard: the least useful card, the most valuable among equals, wild cards last
  (``usefulness``, greedy's key); discarding the last card goes out.

Simplified against the rules: no rummy calls, deep or whole-pile takes, stall end (R5K-DRAW-5) or
first-turn bonuses (going out scores 200, R5K-OUT-2); a play-out stops after ``MAX_TURNS`` turns.
The hand is scored as R5K-SCORE-1 does, from the credits of every table card, and a play-out's
result is the searching seat's score less the mean of the others'. The play functions allocate
nothing: the world is made once per game (``new_world5``, in the strategies' play-ahead workspace).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.layout import MAX_SEATS
from rummysim.kernels.rum5000.layout import (
    C_TYPE, C_SIZE, C_VALUE, CARD_IDS, DECK5, K_GROUP, M_ALIVE, M_CARD, M_CRED, M_KEY, M_KIND, M_LEN, M_SIZE,
    MAX_CAND5, MAX_MELDS5, O_HAND_SIZE, P_STOP, SC_DUTY, SC_FULL,
)
from rummysim.kernels.rum5000.melds import (
    NO_TRACE_CURSOR, Table5, apply_play5, clear_head, copy_head, copy_rows, copy_vector, enumerate_plays5, holds_none, is_wild,
)

MAX_TURNS = 60  # a play-out ends here if no one went out (hands last about three turns a seat)
OUT_BONUS = 200  # R5K-OUT-2 after the first turn
MAX_PLAYS = 40  # plays per turn at most, as the engine's play phase

W_PILE_LEN = 0  # World5.st: cards in the pile
W_STOCK_POS = 1  # next stock card
W_STOCK_LEN = 2  # stock cards dealt
W_OUT = 3  # the seat that went out, or -1
W_SIZE = 4

World5 = namedtuple("World5", "hands melds n_melds grp ends pile stock st cand single cursor tally")
"""A dealt world: the hands (one row a seat), the table (meld rows, meld ids used, each seat's
group row, the ends traded this turn), the pile and the stock (``st`` holds their lengths and the
seat out), and the play-out's scratch: play candidates, the one-card vector, the trace cursor
stand-in and the per-seat score tally."""


@njit
def new_world5():
    return World5(
        np.zeros((MAX_SEATS, CARD_IDS), dtype=np.int64),
        np.zeros((MAX_MELDS5, M_SIZE), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.full((MAX_SEATS, 14), -1, dtype=np.int64),
        np.zeros(MAX_MELDS5, dtype=np.int64),
        np.zeros(DECK5, dtype=np.int64),
        np.zeros(DECK5, dtype=np.int64),
        np.zeros(W_SIZE, dtype=np.int64),
        np.empty((MAX_CAND5, C_SIZE), dtype=np.int64),
        np.zeros(CARD_IDS, dtype=np.int64),
        np.zeros(NO_TRACE_CURSOR, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
    )


# ----------------------------------------------------------------------------- greedy pieces


@njit_noalloc
def best_play(cand, n):
    """Index of the highest-valued play; STOP (row 0) when nothing puts points down."""
    best = 0
    best_v = 0
    for i in range(n):
        if cand[i, C_TYPE] != P_STOP and cand[i, C_VALUE] > best_v:
            best = i
            best_v = cand[i, C_VALUE]
    return best


@njit_noalloc
def usefulness(hand, c, wild):
    """How much card c helps the rest of the hand: same-rank partners and near same-suit cards."""
    r = c % 16
    s = c // 16
    score = 0
    for t in range(4):
        score += 2 * hand[16 * t + r]
    score -= 2  # the card itself
    for d in (-2, -1, 1, 2):
        rr = r + d
        if 1 <= rr <= 13:
            score += hand[16 * s + rr]
    return score


@njit_noalloc
def discard_key(hand, c, wild, vals):
    """Greedy's discard order, lowest first: least useful, most valuable among equals, wild cards last."""
    key = usefulness(hand, c, wild) * 1000.0 - vals[c]
    if is_wild(c, wild):
        key += 1e9
    return key


# ----------------------------------------------------------------------------- dealing


@njit_noalloc
def set_table(w, tab, me, n):
    """The seat's table copied into the world, with every seat's group row rebuilt from the
    public credits (R5K-GROUP-2: a seat credited in a group of a rank plays that rank there);
    the seat's own row is its own."""
    n_melds = tab.n_melds[0]
    copy_rows(w.melds, tab.melds, n_melds)
    w.n_melds[0] = n_melds
    clear_head(w.ends, n_melds)
    for s in range(n):
        for r in range(14):
            w.grp[s, r] = -1
    for m in range(n_melds):
        if w.melds[m, M_ALIVE] == 0 or w.melds[m, M_KIND] != K_GROUP:
            continue
        for i in range(w.melds[m, M_LEN]):
            w.grp[w.melds[m, M_CRED + i], w.melds[m, M_KEY]] = m
    copy_vector(w.grp[me], tab.grp)


@njit_noalloc
def deal_world(w, tab, hand, pile, pile_len, me, n, obs, sample, n_sample, stock_len):
    """Deal ``sample[:n_sample]`` (the unseen cards in a random order): each other seat its
    observed hand size (``obs``), from the next seat on, then ``stock_len`` to the stock; the seat keeps
    ``hand`` and the table and the pile are as seen."""
    set_table(w, tab, me, n)
    copy_vector(w.hands[me], hand)
    k = 0
    for d in range(1, n):
        s = (me + d) % n
        clear_head(w.hands[s], CARD_IDS)
        for _ in range(obs[O_HAND_SIZE + s]):
            if k < n_sample:
                w.hands[s, sample[k]] += 1
                k += 1
    st = w.st
    st[W_STOCK_POS] = 0
    st[W_STOCK_LEN] = 0
    while k < n_sample and st[W_STOCK_LEN] < stock_len:
        w.stock[st[W_STOCK_LEN]] = sample[k]
        st[W_STOCK_LEN] += 1
        k += 1
    copy_head(w.pile, pile, pile_len)
    st[W_PILE_LEN] = pile_len
    st[W_OUT] = -1


# ----------------------------------------------------------------------------- one turn


@njit_noalloc
def seat_table(w, s, wild, vals):
    return Table5(w.melds, w.n_melds, w.grp[s], w.ends, wild, vals, -1)


@njit_noalloc
def takes_top(w, s, tab):
    """The model's take test: the top discard fits a play with the hand now."""
    top = w.pile[w.st[W_PILE_LEN] - 1]
    hand = w.single  # scratch: the hand with the top card
    copy_vector(hand, w.hands[s])
    hand[top] += 1
    return enumerate_plays5(hand, top, tab, s, SC_DUTY, w.cand, False) > 0


@njit_noalloc
def model_draw(w, s, tab):
    """The model's draw for seat s; False when the hand ends instead (R5K-STOCK-1 b)."""
    st = w.st
    if st[W_PILE_LEN] > 0 and takes_top(w, s, tab):
        st[W_PILE_LEN] -= 1
        w.hands[s, w.pile[st[W_PILE_LEN]]] += 1
        return True
    if st[W_STOCK_POS] >= st[W_STOCK_LEN]:
        return False
    w.hands[s, w.stock[st[W_STOCK_POS]]] += 1
    st[W_STOCK_POS] += 1
    return True


@njit_noalloc
def model_plays(w, s, tab):
    """Highest-valued plays until none puts points down; True when the hand is then empty."""
    hand = w.hands[s]
    clear_head(w.ends, w.n_melds[0])  # R5K-SEQ-6: ends traded count within one turn
    for _ in range(MAX_PLAYS):
        if holds_none(hand):
            break
        n = enumerate_plays5(hand, -1, tab, s, SC_FULL, w.cand, True)
        i = best_play(w.cand, n)
        if w.cand[i, C_TYPE] == P_STOP:
            break
        apply_play5(w.cand[i], hand, tab, s, -1, None, w.cursor)
    return holds_none(hand)


@njit_noalloc
def discard_card(w, s, c):
    """Seat s discards c; True when that was its last card (it goes out)."""
    w.hands[s, c] -= 1
    w.pile[w.st[W_PILE_LEN]] = c
    w.st[W_PILE_LEN] += 1
    return holds_none(w.hands[s])


@njit_noalloc
def model_discard(w, s, wild, vals):
    """Greedy's discard for seat s; True when it goes out by it."""
    hand = w.hands[s]
    best = -1
    best_key = 1e18
    for c in range(CARD_IDS):
        if hand[c] > 0:
            key = discard_key(hand, c, wild, vals)
            if key < best_key:
                best_key = key
                best = c
    return discard_card(w, s, best)


@njit_noalloc
def finish_turn(w, s, wild, vals):
    """Seat s's plays and discard after its draw; True when it goes out."""
    tab = seat_table(w, s, wild, vals)
    if model_plays(w, s, tab) or model_discard(w, s, wild, vals):
        w.st[W_OUT] = s
        return True
    return False


@njit_noalloc
def model_turn(w, s, wild, vals):
    """One whole turn of seat s; True when the hand ends with it."""
    if not model_draw(w, s, seat_table(w, s, wild, vals)):
        return True
    return finish_turn(w, s, wild, vals)


@njit_noalloc
def play_rest(w, first, n, wild, vals):
    """The hand played out from seat ``first`` on, at most ``MAX_TURNS`` turns."""
    s = first
    for _ in range(MAX_TURNS):
        if model_turn(w, s, wild, vals):
            return
        s = (s + 1) % n


@njit_noalloc
def hand_result(w, me, n, vals):
    """R5K-SCORE-1 on the world: the seat's score less the mean of the others'."""
    score = w.tally
    for s in range(n):
        score[s] = 0
        for c in range(CARD_IDS):
            score[s] -= w.hands[s, c] * vals[c]
    out = w.st[W_OUT]
    if out >= 0:
        score[out] += OUT_BONUS
    for m in range(w.n_melds[0]):
        if w.melds[m, M_ALIVE] == 0:
            continue
        for i in range(w.melds[m, M_LEN]):
            score[w.melds[m, M_CRED + i]] += vals[w.melds[m, M_CARD + i]]
    others = 0.0
    for s in range(n):
        if s != me:
            others += score[s]
    return score[me] - others / (n - 1)
