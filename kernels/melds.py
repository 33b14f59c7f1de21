"""Meld geometry and the enumeration of melds and lay-offs a holding can make (R500-MELD-*).

Sets (R500-MELD-1/2/6) are 3-4 cards of one rank with distinct natural suits; jokers stand for
the rank only. Runs (R500-MELD-3/4/5) are 3-13 consecutive *positions* of one suit, position
1..13 = rank and 14 = the ace played high, never holding both 1 and 14. All tests work on the
first count plane ``p1``: a meld never holds two copies of one card.

``enumerate_plays`` lists candidate play actions into an int64 table (columns ``A_*``). For each
rank, suit window or meld end it emits the *canonical* action: every needed position is filled
with a held natural card when there is one, otherwise with a joker. Every legal meld or lay-off
is therefore reachable up to the choice of which copy or joker fills a slot. The same function,
restricted to actions containing one card, decides whether a deep discard take is legal
(R500-DRAW-5, C-LEGAL-1), so legality and the actions offered afterwards always agree.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.cards import U1, bit, has_card, popcount
from kernels.layout import (
    A_KEY,
    A_LEN,
    A_LO,
    A_MASK,
    A_MELD,
    A_NCARDS,
    A_NJOK,
    A_TYPE,
    A_VALUE,
    ACT_LAYOFF,
    ACT_MELD_RUN,
    ACT_MELD_SET,
    JOKER,
    KIND_SET,
    MK_KEY,
    MK_KIND,
    MK_LEN,
    MK_LO,
    MK_NJOK,
    MK_SUITS,
)

NO_CARD = -1


@njit
def pos_card(suit, pos):
    """Natural card id that occupies run position pos (1..14) of a suit."""
    return 16 * suit + (1 if pos == 14 else pos)


@njit
def run_lane(p1, suit):
    """Held positions of a suit as bits 1..14 (bit 14 aliases the ace for ace-high runs)."""
    lane = (np.uint64(p1) >> np.uint64(16 * suit)) & np.uint64(0x3FFE)
    return lane | ((lane & np.uint64(2)) << np.uint64(13))


@njit
def lane_has(lane, pos):
    return (lane >> np.uint64(pos)) & U1 == U1


@njit
def slot_value(vals, ace_low, card, kind, pos):
    """Points a card scores on the table (R500-SCORE-2): an ace at run position 1 is used low."""
    if card == JOKER:
        return vals[JOKER]
    if kind != KIND_SET and pos == 1:
        return ace_low
    return vals[card]


@njit
def must_matches(must, mask, njok):
    """True if an action putting down (mask, njok) contains the card ``must`` (C-TURN-4)."""
    if must < 0:
        return True
    if must == JOKER:
        return njok > 0
    return (mask >> np.uint64(must)) & U1 == U1


@njit
def _emit(cand, n, limit, typ, meld, key, lo, length, mask, njok, value, ncards):
    if n >= limit:
        return n
    cand[n, A_TYPE] = typ
    cand[n, A_MELD] = meld
    cand[n, A_KEY] = key
    cand[n, A_LO] = lo
    cand[n, A_LEN] = length
    cand[n, A_MASK] = np.int64(mask)
    cand[n, A_NJOK] = njok
    cand[n, A_VALUE] = value
    cand[n, A_NCARDS] = ncards
    return n + 1


@njit
def _enumerate_sets(p1, jok, must, vals, cand, n, limit):
    must_rank = -1
    if must >= 0 and must != JOKER:
        must_rank = must & 15
    for r in range(1, 14):
        if must_rank > 0 and r != must_rank:
            continue
        smask = 0
        for s in range(4):
            if has_card(p1, 16 * s + r):
                smask |= 1 << s
        nsuit = popcount(np.uint64(smask))
        if nsuit + jok < 3:
            continue
        for sub in range(16):
            if sub & ~smask:
                continue
            k = popcount(np.uint64(sub))
            mask = np.uint64(0)
            value = 0
            for s in range(4):
                if sub & (1 << s):
                    mask |= bit(16 * s + r)
                    value += vals[16 * s + r]
            for j in range(0, min(jok, 4 - k) + 1):
                size = k + j
                if size < 3:
                    continue
                if not must_matches(must, mask, j):
                    continue
                n = _emit(cand, n, limit, ACT_MELD_SET, -1, r, 0, size, mask, j, value + j * vals[JOKER], size)
                if n >= limit:
                    return n
    return n


@njit
def _enumerate_runs(p1, jok, must, vals, ace_low, cand, n, limit):
    for s in range(4):
        if must >= 0 and must != JOKER and (must >> 4) != s:
            continue
        lane = run_lane(p1, s)
        if popcount(lane) + jok < 3 or lane == 0:
            continue
        for lo in range(1, 13):
            gaps = 0
            naturals = 0
            mask = np.uint64(0)
            value = 0
            for hi in range(lo, 15):
                if lo == 1 and hi == 14:
                    break  # R500-MELD-4: never ace low and high in one run
                if lane_has(lane, hi):
                    naturals += 1
                    mask |= bit(pos_card(s, hi))
                    value += ace_low if hi == 1 else vals[pos_card(s, hi)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                length = hi - lo + 1
                if length >= 3 and naturals >= 1 and must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, ACT_MELD_RUN, -1, s, lo, length, mask, gaps, value, length)
                    if n >= limit:
                        return n
    return n


@njit
def _enumerate_layoffs(p1, jok, must, melds, n_melds, vals, ace_low, cand, n, limit):
    for m in range(n_melds):
        if melds[m, MK_KIND] == KIND_SET:
            r = melds[m, MK_KEY]
            if melds[m, MK_LEN] >= 4:
                continue  # R500-MELD-1: a set never exceeds 4 cards
            present = melds[m, MK_SUITS]
            for s in range(4):
                c = 16 * s + r
                if (present >> s) & 1 == 0 and has_card(p1, c):  # R500-MELD-2
                    b = bit(c)
                    if must_matches(must, b, 0):
                        n = _emit(cand, n, limit, ACT_LAYOFF, m, r, 0, melds[m, MK_LEN] + 1, b, 0, vals[c], 1)
            if jok > 0 and must_matches(must, np.uint64(0), 1):
                n = _emit(cand, n, limit, ACT_LAYOFF, m, r, 0, melds[m, MK_LEN] + 1, np.uint64(0), 1, vals[JOKER], 1)
        else:
            s = melds[m, MK_KEY]
            lo = melds[m, MK_LO]
            length = melds[m, MK_LEN]
            hi = lo + length - 1
            lane = run_lane(p1, s)
            # extend the high end by d cards (R500-MELD-8: one card or a block of them)
            gaps = 0
            mask = np.uint64(0)
            value = 0
            for d in range(1, 14):
                p = hi + d
                if p > 14 or (lo == 1 and p == 14) or length + d > 13:
                    break
                if lane_has(lane, p):
                    mask |= bit(pos_card(s, p))
                    value += vals[pos_card(s, p)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                if must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, ACT_LAYOFF, m, s, lo, length + d, mask, gaps, value, d)
            # extend the low end
            gaps = 0
            mask = np.uint64(0)
            value = 0
            for d in range(1, 14):
                p = lo - d
                if p < 1 or (hi == 14 and p == 1) or length + d > 13:
                    break
                if lane_has(lane, p):
                    mask |= bit(pos_card(s, p))
                    value += ace_low if p == 1 else vals[pos_card(s, p)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                if must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, ACT_LAYOFF, m, s, p, length + d, mask, gaps, value, d)
        if n >= limit:
            return n
    return n


@njit
def enumerate_plays(p1, jok, must, melds, n_melds, vals, ace_low, cand, n, limit):
    """Append the canonical melds and lay-offs of holding (p1, jok) to ``cand`` from row n.

    With ``must`` >= 0 only actions containing that card (a natural id or JOKER) are listed.
    Returns the new row count, at most ``limit``.
    """
    n = _enumerate_sets(p1, jok, must, vals, cand, n, limit)
    n = _enumerate_runs(p1, jok, must, vals, ace_low, cand, n, limit)
    n = _enumerate_layoffs(p1, jok, must, melds, n_melds, vals, ace_low, cand, n, limit)
    return n


@njit
def card_playable(card, p1, jok, melds, n_melds, vals, ace_low, scratch):
    """True if ``card`` can be put on the table from holding (p1, jok) and the table (R500-DRAW-5)."""
    return enumerate_plays(p1, jok, card, melds, n_melds, vals, ace_low, scratch, 0, 1) > 0


@njit
def run_slot_card(melds, m, pos):
    """Card id at run position pos of meld m (for tests and rendering)."""
    return melds[m, 6 + pos - melds[m, MK_LO]]


@njit
def meld_joker_count(melds, m):
    return melds[m, MK_NJOK]
