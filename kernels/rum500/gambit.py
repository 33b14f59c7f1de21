"""Dealer's gambit (V500-GAMBIT): the dealer's joker, the nomination, split takes and blocking.

The effects that change what a play is (wild jokers worth 0, the dealer's joker as an extra joker,
doubled and sealed melds) live in the meld search (``melds._enumerate_gambit``) and in
``table.apply_play``; this module holds the steps of a hand that belong to the gambit alone:

* V500-GAMBIT-1/3: after the deal the dealer's joker lies beside the dealer (``DJ_READY``) and
  the dealer names the effect, a strategy decision from public information only;
* V500-GAMBIT-6: a take from below the top may be split with a joker (hand's, or for the dealer
  the dealer's joker first); the cards inside the split leave play;
* V500-GAMBIT-8: a seat other than the dealer may block the dealer's joker with one of its own.

They run only in the full engine (``stack`` is not None; ``kernels.rum500.batch``).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.planes import bit
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.duties import TurnEnd, finish_ok, opening_need, take_end, turn_end
from rummysim.kernels.rum500.layout import (
    ACT_BLOCK, A_NJOK, A_TYPE, DJ_BLOCKED, DJ_READY, DJ_USED, EFFECT_NONE, EFFECT_SPLIT, JOKER,
    MAX_CAND, PLAY_ALL, PLAY_NEW_ONLY, R_GAMBIT, R_NEW_MELD_ONLY, SOURCE_DEALER,
    SOURCE_HAND, ST_DEALER, ST_DJ, ST_EFFECT, ST_GONE_JOKERS, ST_JOKERS, ST_MUST_CARD, ST_OUT_MASK,
    ST_PILE_LEN, ST_PLACED, ST_PLACED_VALUE, ST_SEAT, T_BLOCK, T_DEALERS_JOKER, T_NOMINATE, T_SPLIT,
)
from rummysim.kernels.rum500.opening import must_play_possible
from rummysim.kernels.rum500.view import observe_public, seat_view, table_of
from rummysim.strategies.rum500.dispatch import choose_nomination, choose_split


@njit_noalloc
def start_gambit(g):
    """V500-GAMBIT-1/3 after the deal: the dealer's joker face up beside the dealer, then the
    dealer's nomination, made before anyone looks at a hand (its strategy gets only the public
    observation)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    dealer = st[ST_DEALER]
    st[ST_EFFECT] = EFFECT_NONE
    st[ST_DJ] = DJ_READY
    st[ST_OUT_MASK] = 0
    st[ST_GONE_JOKERS] = 0
    record(trace, st, T_DEALERS_JOKER, dealer, 0, 0, 0, 0, 0, 0)
    observe_public(st, hands, rules, dealer, obs)
    effect = choose_nomination(family, lineup[dealer], params[dealer], obs, rngs[dealer])
    st[ST_EFFECT] = effect
    record(trace, st, T_NOMINATE, dealer, effect, 0, 0, 0, 0, 0)


@njit_inline
def split_source(st, seat):
    """The joker a split would use: the dealer's joker first, else one from hand; -1 if none."""
    if seat == st[ST_DEALER] and st[ST_DJ] == DJ_READY:
        return SOURCE_DEALER
    if st[ST_JOKERS + seat] > 0:
        return SOURCE_HAND
    return -1


@njit_noalloc
def split_options(g, stack, seat, k, opts):
    """Split points for a take from pile index k (V500-GAMBIT-6) into ``opts``: opts[0] = -1 (no
    split), then each s in top+1 .. k+2 (at least one card leaves play) with which the take stays
    legal: card k can still be played with the hand and the cards k, s..top (R500-DRAW-5)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts_, cand, scratch, budget, family = g
    top = st[ST_PILE_LEN] - 1
    need = opening_need(st, rules, seat)
    scope = PLAY_NEW_ONLY if rules[R_NEW_MELD_ONLY] != 0 else PLAY_ALL
    table = table_of(g, seat)
    c = np.int64(pile[k])  # never a joker: under split a joker cannot be a take's selected card
    a1 = hands[seat, 0]
    a2 = hands[seat, 1]
    ajok = st[ST_JOKERS + seat] - (1 if split_source(st, seat) == SOURCE_HAND else 0)
    b = bit(c)
    a2 |= a1 & b
    a1 |= b
    taken = b
    taken_jok = 0
    opts[0] = -1
    n = 1
    for s in range(top + 1, k + 1, -1):
        if s <= top:
            d = np.int64(pile[s])
            if d == JOKER:
                ajok += 1
                taken_jok += 1
            else:
                b = bit(d)
                a2 |= a1 & b
                a1 |= b
                taken |= b
        end = take_end(rules, False, taken, taken_jok)
        if must_play_possible(c, a1, a2, ajok, end, need, table, scope, scratch, stack, budget):
            opts[n] = s
            n += 1
    return n


@njit_noalloc
def split_point(g, stack, seat, k):
    """The split the seat chooses for its take from pile index k: (s, source), or (-1, 0) for
    none (no ``split`` effect, a top-card take, no joker, or the strategy declines)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    if st[ST_EFFECT] != EFFECT_SPLIT or k >= st[ST_PILE_LEN] - 1:
        return -1, 0
    source = split_source(st, seat)
    if source < 0:
        return -1, 0
    nopt = split_options(g, stack, seat, k, opts)
    if nopt <= 1:
        return -1, 0
    pick = choose_split(family, lineup[seat], params[seat], seat_view(g, seat), k, opts, nopt, rngs[seat], scratch)
    return opts[pick], source


@njit_noalloc
def apply_split(st, pile, seat, k, s, source, trace):
    """V500-GAMBIT-6: cards k+1..s-1 leave play, the pile closes up, the joker leaves play. The
    take of card k and the old cards s..top follows (``turn.take_from_pile`` with ``split``)."""
    top = st[ST_PILE_LEN] - 1
    record(trace, st, T_SPLIT, seat, k, s, s - k - 1, source, 0, 0)
    out = np.uint64(st[ST_OUT_MASK])
    for i in range(k + 1, s):
        c = np.int64(pile[i])
        if c == JOKER:
            st[ST_GONE_JOKERS] += 1
        else:
            out |= bit(c)
    st[ST_OUT_MASK] = np.int64(out)
    j = k + 1
    for i in range(s, top + 1):
        pile[j] = pile[i]
        j += 1
    st[ST_PILE_LEN] = j
    if source == SOURCE_DEALER:
        st[ST_DJ] = DJ_USED
    else:
        st[ST_JOKERS + seat] -= 1
        st[ST_GONE_JOKERS] += 1


@njit_noalloc
def block_allowed(st, hands, rules, seat):
    """V500-GAMBIT-8 for ``seat`` now: the dealer's joker is still beside the dealer, the seat is
    not the dealer, it is the seat's own turn, it holds a joker, no duty of its take is pending,
    a pending V500-OPEN30 opening is not half done (as for stopping), and a card it may discard
    is left after the block (a block never empties the hand: docs/rules-decisions.md)."""
    if rules[R_GAMBIT] == 0 or st[ST_DJ] != DJ_READY:
        return False
    if seat == st[ST_DEALER] or seat != st[ST_SEAT] or st[ST_JOKERS + seat] == 0 or st[ST_MUST_CARD] >= 0:
        return False
    need = opening_need(st, rules, seat)
    if not (need <= 0 or st[ST_PLACED] == 0 or st[ST_PLACED_VALUE] >= need):
        return False
    end = turn_end(st, rules)
    return finish_ok(hands[seat, 0], st[ST_JOKERS + seat] - 1, TurnEnd(end.forb, end.forb_joker, False))


@njit_noalloc
def add_block(cand, n):
    """Append the block action to the candidate plays; returns the new count."""
    if n >= MAX_CAND:
        return n
    cand[n, :] = 0
    cand[n, A_TYPE] = ACT_BLOCK
    cand[n, A_NJOK] = 1
    return n + 1


@njit_noalloc
def apply_block(st, seat, trace):
    """V500-GAMBIT-8: a joker from the seat's hand on the dealer's joker; both leave play."""
    st[ST_JOKERS + seat] -= 1
    st[ST_DJ] = DJ_BLOCKED
    st[ST_GONE_JOKERS] += 1
    record(trace, st, T_BLOCK, seat, 0, 0, 0, 0, 0, 0)
