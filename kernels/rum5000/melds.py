"""The 5000 Rummy table: card values, legal plays (RULES.md §4.3-4.6) and applying them.

A seat's cards are counts per card id. Plays are enumerated canonically: a group takes every
natural card of its rank the seat may use, a sequence uses a natural card wherever the seat has
one and a wild card elsewhere, and the wild card put down is the lowest id (or the card a duty
names). This keeps the candidate list short without hiding a kind of play from any strategy.

The play functions take the table as one seat sees it, a ``Table5`` record, and work on copies as
well as on the live table, so strategies can play ahead. None of them allocates: the callers own
every buffer (the engine's context, the strategies' play-ahead workspace, the going-out search's
``Search5`` made by ``new_search5``), so they are compiled without reference counting
(``kernels.common._jit``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum5000.layout import (
    T_CARD, T_JOIN, T_LAYOFF, T_MELD, T_TRADE,
    C_CARD, C_HI, C_KEY, C_LO, C_MELD, C_MELD2, C_NCARDS, C_NNAT, C_NWILD, C_POS, C_SIZE, C_TYPE,
    C_VALUE, CARD_IDS, K_GROUP, K_SEQ, K_WILD, M_ALIVE, M_CARD, M_CREATOR, M_CRED, M_KEY, M_KIND,
    M_LEN, M_LO, M_SIZE, MAX_CAND5, MAX_MELDS5, MAX_SEQ, P_ADD_GROUP, P_ADD_SEQ, P_ADD_WILD, P_JOIN,
    P_NEW_GROUP, P_NEW_SEQ, P_NEW_WILD, P_STOP, P_TRADE, SC_CALL_TOP, SC_DUTY, SC_FULL, SLOTS,
)

HIGH_END = 1
LOW_END = 2
SEARCH_DEPTH = 16  # plays the R5K-OUT-3 search goes deep: a hand's cards + 4, at most this
# Play-ahead applies plays with no trace; it passes an int64 vector of this size as the ``st`` that
# ``record`` would keep the cursor in (and never reads with a None trace), typed like the live
# state vector, so that play-ahead and the untraced live table share one compiled ``apply_play5``.
NO_TRACE_CURSOR = 2

Table5 = namedtuple("Table5", "melds n_melds grp ends wild vals team")
"""A table as one seat plays on it: the meld rows (``M_*``), int64[1] holding the number of meld
ids used, the seat's row of ``grp`` (R5K-GROUP-2; its partnership's in Persian 5000), the sequence
ends it traded at per meld this turn (``HIGH_END``/``LOW_END``, R5K-SEQ-6), the wild rank, the
card values, and ``team``: -1, or in Persian 5000 the seat's partnership, whose melds are one
meld area (V5K-9)."""


# ----------------------------------------------------------------------------- copies


@njit_noalloc
def copy_vector(dst, src):
    """dst[:] = src for 1-D arrays, as a loop: numba's array assignment may allocate a temporary."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit_noalloc
def copy_head(dst, src, k):
    """dst[:k] = src[:k] for 1-D arrays, as a loop."""
    for i in range(k):
        dst[i] = src[i]


@njit_noalloc
def clear_head(dst, k):
    """dst[:k] = 0 for 1-D arrays, as a loop."""
    for i in range(k):
        dst[i] = 0


@njit_noalloc
def copy_rows(dst, src, rows):
    """The meld rows 0..rows-1 of ``src`` into ``dst``: every header field and the slots in use.

    A table copy takes only the rows of the meld ids in use, and of each only its first ``M_LEN``
    card and credit slots: no play reads a row beyond them or a slot at or past a meld's length
    before writing it (``new_meld`` sets every header field of the next row; additions and joins
    write their slots first). Copying 2 x ``SLOTS`` slots per row was most of the going-out
    search's copying (issue 19).
    """
    for r in range(rows):
        for j in range(M_CARD):
            dst[r, j] = src[r, j]
        for i in range(src[r, M_LEN]):
            dst[r, M_CARD + i] = src[r, M_CARD + i]
            dst[r, M_CRED + i] = src[r, M_CRED + i]


# ----------------------------------------------------------------------------- cards and values


@njit_noalloc
def rank_at(pos):
    """Rank a sequence position stands for: 1..13, and 14 is the ace above the king."""
    return 1 if pos == 14 else pos


@njit_noalloc
def is_wild(card, wild):
    return card % 16 == wild


@njit_noalloc
def fill_values(vals, wild):
    """R5K-VAL-1/2 into vals[CARD_IDS]: K..8 = 10, 7..2 = 5, A = 200; the wild rank 100/200/400."""
    vals[:] = 0
    wild_value = 400 if wild == 1 else (200 if wild == 12 or wild == 10 else 100)
    for s in range(4):
        for r in range(1, 14):
            if r == wild:
                v = wild_value
            elif r == 1:
                v = 200
            elif r >= 8:
                v = 10
            else:
                v = 5
            vals[16 * s + r] = v


@njit_noalloc
def count_cards(av):
    total = 0
    for c in range(CARD_IDS):
        total += av[c]
    return total


@njit_noalloc
def holds_none(av):
    """``count_cards(av) == 0``, stopping at the first card held."""
    for c in range(CARD_IDS):
        if av[c] != 0:
            return False
    return True


@njit_noalloc
def wild_count(av, wild):
    return av[wild] + av[16 + wild] + av[32 + wild] + av[48 + wild]


@njit_noalloc
def natural_count(av, rank, wild):
    if rank == wild:
        return 0
    return av[rank] + av[16 + rank] + av[32 + rank] + av[48 + rank]


@njit_noalloc
def pick_wild(av, wild, must):
    """The wild card to put down: the duty's card if it is a wild card held, else the lowest id."""
    if must >= 0 and must % 16 == wild and av[must] > 0:
        return must
    for s in range(4):
        c = 16 * s + wild
        if av[c] > 0:
            return c
    return -1


@njit_noalloc
def pick_natural(av, rank, must):
    """A natural card of ``rank`` to give in a trade: the duty's card first, else the lowest suit."""
    if must >= 0 and must % 16 == rank and av[must] > 0:
        return must
    for s in range(4):
        c = 16 * s + rank
        if av[c] > 0:
            return c
    return -1


# ----------------------------------------------------------------------------- meld facts


@njit_noalloc
def meld_hi(melds, m):
    return melds[m, M_LO] + melds[m, M_LEN] - 1


@njit_noalloc
def credited_to(melds, m, seat):
    k = 0
    for i in range(melds[m, M_LEN]):
        if melds[m, M_CRED + i] == seat:
            k += 1
    return k


@njit_noalloc
def credited_to_team(melds, m, team):
    k = 0
    for i in range(melds[m, M_LEN]):
        if melds[m, M_CRED + i] % 2 == team:
            k += 1
    return k


@njit_noalloc
def owns_sequence(melds, m, seat, team):
    """R5K-SEQ-4/6: a seat's own sequence is one it laid or one holding 3+ cards it added; in
    Persian 5000 (``team`` >= 0) one its partnership laid or holding 3+ cards the partners added."""
    if team >= 0:
        return melds[m, M_CREATOR] % 2 == team or credited_to_team(melds, m, team) >= 3
    return melds[m, M_CREATOR] == seat or credited_to(melds, m, seat) >= 3


@njit_noalloc
def group_allowed(grp_seat, rank, m):
    """R5K-GROUP-2: the seat may put cards of ``rank`` into meld m (-1: a new group)."""
    return grp_seat[rank] == -1 or grp_seat[rank] == m


@njit_noalloc
def seq_gap(av, suit, p, wild):
    """1 if sequence position p of ``suit`` needs a wild card (no natural card held for it), else 0."""
    r = rank_at(p)
    return 1 if r == wild or av[16 * suit + r] == 0 else 0


@njit_noalloc
def seq_card_value(av, suit, p, wild, vals):
    """Points of the card that fills position p: the natural card if held, else a wild card."""
    r = rank_at(p)
    if r == wild or av[16 * suit + r] == 0:
        return vals[wild]
    return vals[16 * suit + r]


@njit_noalloc
def held_positions(av, suit, wild):
    """Bit p (1..14) set when sequence position p of ``suit`` takes a natural card held
    (``seq_gap`` 0): bit r for each rank held but the wild rank, and bit 14 as the ace's."""
    mask = 0
    for r in range(1, 14):
        if av[16 * suit + r] > 0:
            mask |= 1 << r
    mask &= ~(1 << wild)
    if mask & 2:
        mask |= 1 << 14
    return mask


@njit_noalloc
def short_windows(held, nw):
    """Bit lo set when positions lo..lo+2 need at most ``nw`` wild cards, given the mask ``held``
    of ``held_positions``: all three held, two of three, one, or any with three wild cards."""
    h1 = held >> 1
    h2 = held >> 2
    if nw >= 3:
        return -1
    if nw == 2:
        return held | h1 | h2
    if nw == 1:
        return (held & h1) | (held & h2) | (h1 & h2)
    return held & h1 & h2


@njit_noalloc
def seq_cost(av, suit, lo, hi, wild):
    """Wild cards needed to fill positions lo..hi of ``suit`` using naturals where held."""
    need = 0
    for p in range(lo, hi + 1):
        need += seq_gap(av, suit, p, wild)
    return need


@njit_noalloc
def seq_uses(av, suit, lo, hi, wild, must, need):
    """Does filling lo..hi (naturals first; ``need`` wild cards, ``seq_cost``) put the card ``must`` down?"""
    if must < 0:
        return True
    if must % 16 == wild:
        return need > 0 and av[must] > 0
    if must // 16 != suit:
        return False
    for p in range(lo, hi + 1):
        if rank_at(p) == must % 16:
            return True
    return False


@njit_noalloc
def seq_value(av, suit, lo, hi, wild, vals):
    v = 0
    for p in range(lo, hi + 1):
        v += seq_card_value(av, suit, p, wild, vals)
    return v


@njit_noalloc
def group_uses(rank, nnat, nwild, wild, must):
    if must < 0:
        return True
    if must % 16 == wild:
        return nwild > 0
    return nnat > 0 and must % 16 == rank


# ----------------------------------------------------------------------------- enumeration


@njit_noalloc
def push_group(cand, n, typ, m, key, nnat, nwild, value):
    """Candidate row n: a group, wild-card group or STOP (``m`` -1), or an addition to group m."""
    if n >= MAX_CAND5:
        return n
    cand[n, C_TYPE] = typ
    cand[n, C_MELD] = m
    cand[n, C_MELD2] = -1
    cand[n, C_KEY] = key
    cand[n, C_LO] = 0
    cand[n, C_HI] = 0
    cand[n, C_NNAT] = nnat
    cand[n, C_NWILD] = nwild
    cand[n, C_CARD] = -1
    cand[n, C_POS] = 0
    cand[n, C_VALUE] = value
    cand[n, C_NCARDS] = nnat + nwild
    return n + 1


@njit_noalloc
def push_seq(cand, n, typ, m, m2, suit, lo, hi, nwild, value):
    """Candidate row n: cards for sequence positions lo..hi (a new sequence, an addition to m, or
    the gap of a join of m and m2; lo > hi is a join without cards)."""
    if n >= MAX_CAND5:
        return n
    cand[n, C_TYPE] = typ
    cand[n, C_MELD] = m
    cand[n, C_MELD2] = m2
    cand[n, C_KEY] = suit
    cand[n, C_LO] = lo
    cand[n, C_HI] = hi
    cand[n, C_NNAT] = 0
    cand[n, C_NWILD] = nwild
    cand[n, C_CARD] = -1
    cand[n, C_POS] = 0
    cand[n, C_VALUE] = value
    cand[n, C_NCARDS] = hi - lo + 1
    return n + 1


@njit_noalloc
def push_trade(cand, n, m, key, pos, card, slot, value):
    """Candidate row n: ``card`` given for the wild card in slot ``slot`` of meld m (``pos``: its
    sequence position, 0 in a group)."""
    if n >= MAX_CAND5:
        return n
    cand[n, C_TYPE] = P_TRADE
    cand[n, C_MELD] = m
    cand[n, C_MELD2] = -1
    cand[n, C_KEY] = key
    cand[n, C_LO] = pos
    cand[n, C_HI] = pos
    cand[n, C_NNAT] = 1
    cand[n, C_NWILD] = 0
    cand[n, C_CARD] = card
    cand[n, C_POS] = slot
    cand[n, C_VALUE] = value
    cand[n, C_NCARDS] = 1
    return n + 1


@njit_inline
def group_plays(av, must, tab, cand, n, scope):
    """New groups (R5K-GROUP-1, R5K-WILD-4) and group additions (R5K-GROUP-2/3)."""
    melds, grp_seat, wild, vals = tab.melds, tab.grp, tab.wild, tab.vals
    nw = wild_count(av, wild)
    single = scope == SC_CALL_TOP
    natural_must = must >= 0 and must % 16 != wild
    group_ranks = 0  # bit r: some live group of rank r is on the table (spares a meld scan per rank)
    for m in range(tab.n_melds[0]):
        if melds[m, M_ALIVE] != 0 and melds[m, M_KIND] == K_GROUP:
            group_ranks |= 1 << melds[m, M_KEY]
    for r in range(1, 14):
        if r == wild or (natural_must and must % 16 != r):
            continue
        k = natural_count(av, r, wild)
        nat_value = k * vals[r]  # every natural card of a rank has the same value
        if group_allowed(grp_seat, r, -1) and not single:
            for w in range(0, nw + 1):
                if k + w >= 3 and group_uses(r, k, w, wild, must):
                    n = push_group(cand, n, P_NEW_GROUP, -1, r, k, w, nat_value + w * vals[wild])
        for m in range(tab.n_melds[0] if (group_ranks >> r) & 1 else 0):
            if melds[m, M_ALIVE] == 0 or melds[m, M_KIND] != K_GROUP or melds[m, M_KEY] != r:
                continue
            if not group_allowed(grp_seat, r, m) or melds[m, M_LEN] >= SLOTS:
                continue
            room = SLOTS - melds[m, M_LEN]
            for kk in (k, 0):  # every natural of the rank held, or wild cards only
                for w in range(0, nw + 1):
                    if kk + w == 0 or kk + w > room or (single and kk + w != 1):
                        continue
                    if group_uses(r, kk, w, wild, must):
                        n = push_group(cand, n, P_ADD_GROUP, m, r, kk, w, kk * vals[r] + w * vals[wild])
                if k == 0:
                    break
    return n


@njit_inline
def wild_group_plays(av, must, tab, cand, n, scope):
    """Wild-card groups (R5K-WILD-3): new ones of 3+ wild cards, and additions by anyone."""
    melds, wild, vals = tab.melds, tab.wild, tab.vals
    nw = wild_count(av, wild)
    if must >= 0 and must % 16 != wild:
        return n
    if scope != SC_CALL_TOP:
        for w in range(3, nw + 1):
            n = push_group(cand, n, P_NEW_WILD, -1, 0, 0, w, w * vals[wild])
    for m in range(tab.n_melds[0]):
        if melds[m, M_ALIVE] == 0 or melds[m, M_KIND] != K_WILD:
            continue
        room = SLOTS - melds[m, M_LEN]
        top = 1 if scope == SC_CALL_TOP else min(nw, room)
        for w in range(1, top + 1):
            if w <= nw:
                n = push_group(cand, n, P_ADD_WILD, m, 0, 0, w, w * vals[wild])
    return n


@njit_inline
def new_sequence_plays(av, must, tab, cand, n):
    """New sequences (R5K-SEQ-1, R5K-WILD-4): 3..13 positions, never both ace positions.

    Each start's windows grow one position at a time, so their wild-card need is a running sum over
    a bit mask of the positions held, not recounted per window (issue 19: the recount was a
    quarter of the 5000 engine's time); a window's value is counted only when it is offered.
    """
    wild, vals = tab.wild, tab.vals
    nw = wild_count(av, wild)
    natural_must = must >= 0 and must % 16 != wild
    for s in range(4):
        if natural_must and must // 16 != s:
            continue  # the named card fits only sequences of its own suit
        held = held_positions(av, s, wild)
        starts = short_windows(held, nw)
        for lo in range(1, 13):
            if (starts >> lo) & 1 == 0:
                continue  # every window from lo holds lo..lo+2, which already needs too many wild cards
            need = 2 - ((held >> lo) & 1) - ((held >> (lo + 1)) & 1)
            for hi in range(lo + 2, min(lo + MAX_SEQ - 1, 14) + 1):
                need += 1 - ((held >> hi) & 1)
                if need > nw:
                    break  # a longer window never needs fewer wild cards
                if seq_uses(av, s, lo, hi, wild, must, need):
                    n = push_seq(cand, n, P_NEW_SEQ, -1, -1, s, lo, hi, need, seq_value(av, s, lo, hi, wild, vals))
    return n


@njit_inline
def sequence_additions(av, must, tab, cand, n, single):
    """Additions at either end, one position outward per card (R5K-SEQ-2/4); the need and value of
    the cards added are running sums as the addition grows."""
    melds, wild, vals = tab.melds, tab.wild, tab.vals
    nw = wild_count(av, wild)
    for m in range(tab.n_melds[0]):
        if melds[m, M_ALIVE] == 0 or melds[m, M_KIND] != K_SEQ:
            continue
        s = melds[m, M_KEY]
        lo = melds[m, M_LO]
        hi = meld_hi(melds, m)
        room = MAX_SEQ - melds[m, M_LEN]
        limit = 1 if single else room
        need = 0
        value = 0
        for j in range(1, limit + 1):  # high end
            if hi + j > 14 or (lo == 1 and hi + j == 14):
                break
            need += seq_gap(av, s, hi + j, wild)
            value += seq_card_value(av, s, hi + j, wild, vals)
            if need > nw:
                break
            if seq_uses(av, s, hi + 1, hi + j, wild, must, need):
                n = push_seq(cand, n, P_ADD_SEQ, m, -1, s, hi + 1, hi + j, need, value)
        need = 0
        value = 0
        for j in range(1, limit + 1):  # low end
            if lo - j < 1 or (hi == 14 and lo - j == 1):
                break
            need += seq_gap(av, s, lo - j, wild)
            value += seq_card_value(av, s, lo - j, wild, vals)
            if need > nw:
                break
            if seq_uses(av, s, lo - j, lo - 1, wild, must, need):
                n = push_seq(cand, n, P_ADD_SEQ, m, -1, s, lo - j, lo - 1, need, value)
    return n


@njit_inline
def join_plays(av, must, tab, seat, cand, n, single):
    """Joining two same-suit sequences (R5K-SEQ-5 with gap cards, R5K-SEQ-6 when adjacent)."""
    melds, ends, wild, vals = tab.melds, tab.ends, tab.wild, tab.vals
    nm = tab.n_melds[0]
    nw = wild_count(av, wild)
    for a in range(nm):
        if melds[a, M_ALIVE] == 0 or melds[a, M_KIND] != K_SEQ:
            continue
        s = melds[a, M_KEY]
        ahi = meld_hi(melds, a)
        for b in range(nm):
            if b == a or melds[b, M_ALIVE] == 0 or melds[b, M_KIND] != K_SEQ or melds[b, M_KEY] != s:
                continue
            blo = melds[b, M_LO]
            if blo <= ahi:
                continue
            gap = blo - ahi - 1
            total = melds[a, M_LEN] + melds[b, M_LEN] + gap
            if total > MAX_SEQ or (melds[a, M_LO] == 1 and meld_hi(melds, b) == 14):
                continue
            if gap == 0:
                if single or must >= 0:
                    continue
                own = owns_sequence(melds, a, seat, tab.team) and owns_sequence(melds, b, seat, tab.team)
                traded = (ends[a] & HIGH_END) != 0 or (ends[b] & LOW_END) != 0
                if own or traded:
                    n = push_seq(cand, n, P_JOIN, a, b, s, 0, -1, 0, 0)
                continue
            if single and gap != 1:
                continue
            need = seq_cost(av, s, ahi + 1, blo - 1, wild)
            if need <= nw and seq_uses(av, s, ahi + 1, blo - 1, wild, must, need):
                n = push_seq(cand, n, P_JOIN, a, b, s, ahi + 1, blo - 1, need,
                             seq_value(av, s, ahi + 1, blo - 1, wild, vals))
    return n


@njit_inline
def trade_plays(av, must, tab, cand, n):
    """Natural-for-wild trades (R5K-TRADE-1/2; R5K-WILD-3: never from a wild-card group)."""
    melds, grp_seat, wild, vals = tab.melds, tab.grp, tab.wild, tab.vals
    for m in range(tab.n_melds[0]):
        kind = melds[m, M_KIND]
        if melds[m, M_ALIVE] == 0 or kind == K_WILD:
            continue
        if kind == K_GROUP:
            r = melds[m, M_KEY]
            if not group_allowed(grp_seat, r, m):
                continue
            c = pick_natural(av, r, must)
            if c < 0 or (must >= 0 and c != must):
                continue
            for i in range(melds[m, M_LEN]):
                if is_wild(melds[m, M_CARD + i], wild):
                    n = push_trade(cand, n, m, r, 0, c, i, vals[c])
                    break
        else:
            s = melds[m, M_KEY]
            lo = melds[m, M_LO]
            for i in range(melds[m, M_LEN]):
                if not is_wild(melds[m, M_CARD + i], wild):
                    continue
                r = rank_at(lo + i)
                if r == wild:
                    continue  # no natural card of the wild rank exists
                c = 16 * s + r
                if av[c] > 0 and (must < 0 or c == must):
                    n = push_trade(cand, n, m, s, lo + i, c, i, vals[c])
    return n


@njit_noalloc
def enumerate_plays5(av, must, tab, seat, scope, cand, stop_ok):
    """Every canonical legal play for cards ``av`` on table ``tab`` (row 0 is STOP when ``stop_ok``)."""
    n = 0
    if stop_ok:
        n = push_group(cand, n, P_STOP, -1, 0, 0, 0, 0)
    single = scope == SC_CALL_TOP
    n = group_plays(av, must, tab, cand, n, scope)
    n = wild_group_plays(av, must, tab, cand, n, scope)
    if not single:
        n = new_sequence_plays(av, must, tab, cand, n)
    n = sequence_additions(av, must, tab, cand, n, single)
    n = join_plays(av, must, tab, seat, cand, n, single)
    if scope != SC_DUTY:
        n = trade_plays(av, must, tab, cand, n)
    return n


@njit_noalloc
def card_placeable(card, tab, seat, single, cand):
    """Can this one card go onto the table by itself (an addition, a trade or a one-card join)?

    Used for V5K-3 rummy calls and V5K-5's meldable last card; hand cards play no part. ``single``
    is scratch int64[CARD_IDS] for the one card.
    """
    single[:] = 0
    single[card] = 1
    return enumerate_plays5(single, card, tab, seat, SC_CALL_TOP, cand, False) > 0


# ----------------------------------------------------------------------------- applying plays


@njit_noalloc
def put_slot(melds, m, i, card, seat, hand, trace, st, pos):
    melds[m, M_CARD + i] = card
    melds[m, M_CRED + i] = seat
    hand[card] -= 1
    record(trace, st, T_CARD, seat, m, card, pos, 0, 0, 0)


@njit_noalloc
def fill_group(tab, m, hand, rank, act, must, seat, trace, st):
    """Put play ``act``'s natural cards of ``rank`` (lowest suit first), then its wild cards, into group m."""
    melds = tab.melds
    i = melds[m, M_LEN]
    left = act[C_NNAT]
    for s in range(4):
        c = 16 * s + rank
        while left > 0 and hand[c] > 0:
            put_slot(melds, m, i, c, seat, hand, trace, st, 0)
            i += 1
            left -= 1
    for _ in range(act[C_NWILD]):
        put_slot(melds, m, i, pick_wild(hand, tab.wild, must), seat, hand, trace, st, 0)
        i += 1
    melds[m, M_LEN] = i


@njit_noalloc
def seq_card(hand, suit, pos, wild, must):
    r = rank_at(pos)
    c = 16 * suit + r
    if r != wild and hand[c] > 0:
        return c
    return pick_wild(hand, wild, must)


@njit_noalloc
def fill_positions(tab, m, first_slot, act, hand, must, seat, trace, st):
    """Put cards for play ``act``'s positions C_LO..C_HI of its suit into slots first_slot.. of meld m.

    Each card is chosen from what the hand holds after the cards before it went down, so a wild
    card goes where no natural card is left.
    """
    lo = act[C_LO]
    for p in range(lo, act[C_HI] + 1):
        card = seq_card(hand, act[C_KEY], p, tab.wild, must)
        put_slot(tab.melds, m, first_slot + p - lo, card, seat, hand, trace, st, p)


@njit_noalloc
def new_meld(melds, nm, kind, key, lo, seat):
    """Meld row nm's header; its slots are filled by the play (``copy_rows`` relies on it)."""
    melds[nm, M_KIND] = kind
    melds[nm, M_KEY] = key
    melds[nm, M_LO] = lo
    melds[nm, M_LEN] = 0
    melds[nm, M_CREATOR] = seat
    melds[nm, M_ALIVE] = 1


@njit_noalloc
def shift_up(melds, m, k):
    """Make room for k cards below a sequence's first position."""
    for i in range(melds[m, M_LEN] - 1, -1, -1):
        melds[m, M_CARD + i + k] = melds[m, M_CARD + i]
        melds[m, M_CRED + i + k] = melds[m, M_CRED + i]


@njit_noalloc
def apply_play5(act, hand, tab, seat, must, trace, st):
    """Carry out candidate row ``act`` for ``seat`` on table ``tab``; returns the number of cards put down.

    ``tab.ends`` records the sequence ends at which the seat trades (R5K-SEQ-6). Every action is
    recorded into ``trace`` with its cursor in ``st`` (``kernels.common.trace``); play-ahead passes
    a None trace.
    """
    melds, ends = tab.melds, tab.ends
    typ = act[C_TYPE]
    m = act[C_MELD]
    if typ == P_NEW_GROUP or typ == P_NEW_SEQ or typ == P_NEW_WILD:
        m = tab.n_melds[0]
        if m >= MAX_MELDS5:
            return 0
        tab.n_melds[0] = m + 1
        ends[m] = 0  # a new meld has no traded end (so the table copies clear only the ends in use)
        if typ == P_NEW_GROUP:
            new_meld(melds, m, K_GROUP, act[C_KEY], 0, seat)
            record(trace, st, T_MELD, seat, m, K_GROUP, act[C_KEY], 0, act[C_NCARDS], 0)
            fill_group(tab, m, hand, act[C_KEY], act, must, seat, trace, st)
            tab.grp[act[C_KEY]] = m
        elif typ == P_NEW_WILD:
            new_meld(melds, m, K_WILD, 0, 0, seat)
            record(trace, st, T_MELD, seat, m, K_WILD, 0, 0, act[C_NCARDS], 0)
            fill_group(tab, m, hand, 0, act, must, seat, trace, st)
        else:
            new_meld(melds, m, K_SEQ, act[C_KEY], act[C_LO], seat)
            record(trace, st, T_MELD, seat, m, K_SEQ, act[C_KEY], act[C_LO], act[C_NCARDS], 0)
            fill_positions(tab, m, 0, act, hand, must, seat, trace, st)
            melds[m, M_LEN] = act[C_NCARDS]
        return act[C_NCARDS]
    if typ == P_ADD_GROUP or typ == P_ADD_WILD:
        record(trace, st, T_LAYOFF, seat, m, act[C_NCARDS], 0, 0, 0, 0)
        fill_group(tab, m, hand, melds[m, M_KEY], act, must, seat, trace, st)
        if typ == P_ADD_GROUP:
            tab.grp[melds[m, M_KEY]] = m
        return act[C_NCARDS]
    if typ == P_ADD_SEQ:
        k = act[C_NCARDS]
        lo = melds[m, M_LO]
        if act[C_LO] < lo:
            record(trace, st, T_LAYOFF, seat, m, k, act[C_LO], 0, 0, 0)
            shift_up(melds, m, k)
            melds[m, M_LO] = act[C_LO]
            fill_positions(tab, m, 0, act, hand, must, seat, trace, st)
            ends[m] &= ~LOW_END
        else:
            record(trace, st, T_LAYOFF, seat, m, k, lo, 0, 0, 0)
            fill_positions(tab, m, melds[m, M_LEN], act, hand, must, seat, trace, st)
            ends[m] &= ~HIGH_END
        melds[m, M_LEN] += k
        return k
    if typ == P_JOIN:
        b = act[C_MELD2]
        k = act[C_NCARDS]
        record(trace, st, T_JOIN, seat, m, b, k, 0, 0, 0)
        start = melds[m, M_LEN]
        if k > 0:
            fill_positions(tab, m, start, act, hand, must, seat, trace, st)
        for i in range(melds[b, M_LEN]):
            melds[m, M_CARD + start + k + i] = melds[b, M_CARD + i]
            melds[m, M_CRED + start + k + i] = melds[b, M_CRED + i]
        melds[m, M_LEN] = start + k + melds[b, M_LEN]
        melds[b, M_ALIVE] = 0
        ends[m] = (ends[m] & LOW_END) | (ends[b] & HIGH_END)
        ends[b] = 0
        return k
    if typ == P_TRADE:
        i = act[C_POS]
        c = act[C_CARD]
        taken = melds[m, M_CARD + i]
        pos = melds[m, M_LO] + i if melds[m, M_KIND] == K_SEQ else 0
        record(trace, st, T_TRADE, seat, m, c, taken, pos, 0, 0)
        melds[m, M_CARD + i] = c
        melds[m, M_CRED + i] = seat
        hand[c] -= 1
        hand[taken] += 1
        if melds[m, M_KIND] == K_GROUP:
            tab.grp[melds[m, M_KEY]] = m  # AMB-31: a trade counts as adding to that group
        else:
            if i == 0:
                ends[m] |= LOW_END
            if i == melds[m, M_LEN] - 1:
                ends[m] |= HIGH_END
        return 1
    return 0


# ----------------------------------------------------------------------------- going out without drawing


Search5 = namedtuple("Search5", "hands tables grps n_melds ends cands order count next_play cover path cursor")
"""Work arrays of the R5K-OUT-3 search (``meld_out_path``): per level, the cards, the table and the
plays offered there; ``path`` receives the plays found. ``cursor`` stands for the state vector
beside a None trace (see ``NO_TRACE_CURSOR``)."""


@njit
def new_search5():
    levels = SEARCH_DEPTH + 1
    return Search5(
        np.empty((levels, CARD_IDS), dtype=np.int64),
        np.empty((levels, MAX_MELDS5, M_SIZE), dtype=np.int64),
        np.empty((levels, 14), dtype=np.int64),
        np.empty((levels, 1), dtype=np.int64),
        np.empty((levels, MAX_MELDS5), dtype=np.int64),
        np.empty((SEARCH_DEPTH, MAX_CAND5, C_SIZE), dtype=np.int64),
        np.empty((SEARCH_DEPTH, MAX_CAND5), dtype=np.int64),
        np.empty(SEARCH_DEPTH, dtype=np.int64),
        np.empty(SEARCH_DEPTH, dtype=np.int64),
        np.empty(CARD_IDS, dtype=np.int64),
        np.empty((SEARCH_DEPTH, C_SIZE), dtype=np.int64),
        np.zeros(NO_TRACE_CURSOR, dtype=np.int64),
    )


@njit_noalloc
def mark_positions(cov, av, suit, lo, hi, wild):
    for p in range(lo, hi + 1):
        c = 16 * suit + rank_at(p)
        if rank_at(p) != wild and av[c] > 0:
            cov[c] = 1


@njit_inline
def all_cards_covered(av, cand, n, wild, cov):
    """A quick necessary test for melding out: every held card is in some play offered now."""
    cov[:] = 0
    wild_used = False
    for i in range(n):
        typ = cand[i, C_TYPE]
        if cand[i, C_NWILD] > 0 or typ == P_NEW_WILD or typ == P_ADD_WILD:
            wild_used = True
        if (typ == P_NEW_GROUP or typ == P_ADD_GROUP) and cand[i, C_NNAT] > 0:
            for s in range(4):
                cov[16 * s + cand[i, C_KEY]] = 1
        elif typ == P_NEW_SEQ or typ == P_ADD_SEQ or (typ == P_JOIN and cand[i, C_NCARDS] > 0):
            mark_positions(cov, av, cand[i, C_KEY], cand[i, C_LO], cand[i, C_HI], wild)
        elif typ == P_TRADE:
            cov[cand[i, C_CARD]] = 1
    for c in range(CARD_IDS):
        if av[c] > 0 and cov[c] == 0 and not (is_wild(c, wild) and wild_used):
            return False
    return True


@njit_noalloc
def in_short_window(av, suit, p, wild, nw):
    """Is position p of ``suit`` in a three-position window whose gaps the ``nw`` wild cards fill?"""
    for lo in range(max(1, p - 2), min(p, 12) + 1):
        if seq_gap(av, suit, lo, wild) + seq_gap(av, suit, lo + 1, wild) + seq_gap(av, suit, lo + 2, wild) <= nw:
            return True
    return False


@njit_noalloc
def sequence_takes(av, melds, m, p, wild, nw):
    """Could a play on sequence m put down the natural card of position p (its suit's)?

    An addition reaches p when the walk outward from the nearer end (``sequence_additions``) gets
    there before the wild cards held run out or the sequence is full; a trade when p holds a wild
    card (``trade_plays``).
    """
    lo = melds[m, M_LO]
    hi = meld_hi(melds, m)
    room = MAX_SEQ - melds[m, M_LEN]
    if p > hi:
        return p - hi <= room and not (lo == 1 and p == 14) and seq_cost(av, melds[m, M_KEY], hi + 1, p, wild) <= nw
    if p < lo:
        return lo - p <= room and not (hi == 14 and p == 1) and seq_cost(av, melds[m, M_KEY], p, lo - 1, wild) <= nw
    return is_wild(melds[m, M_CARD + p - lo], wild)


@njit_noalloc
def natural_may_go_down(av, tab, c, nw):
    """Might some play of the full scope put down the held natural card c (``could_cover_all``)?"""
    wild, melds = tab.wild, tab.melds
    r = c % 16
    s = c // 16
    if tab.grp[r] == -1 and natural_count(av, r, wild) + nw >= 3:
        return True  # a new group (R5K-GROUP-2 allowing)
    if in_short_window(av, s, r, wild, nw) or (r == 1 and in_short_window(av, s, 14, wild, nw)):
        return True  # a new sequence: every one holding the card holds such a window
    for m in range(tab.n_melds[0]):
        if melds[m, M_ALIVE] == 0:
            continue
        kind = melds[m, M_KIND]
        if kind == K_GROUP and melds[m, M_KEY] == r:
            return True  # an addition or a trade, R5K-GROUP-2 allowing
        if kind == K_SEQ and melds[m, M_KEY] == s:
            if sequence_takes(av, melds, m, r, wild, nw) or (r == 1 and sequence_takes(av, melds, m, 14, wild, nw)):
                return True
    return False


@njit_noalloc
def could_cover_all(av, tab):
    """A cheap test, made before enumerating, that ``all_cards_covered`` can pass.

    Every held natural card must lie in a play that might be offered with the full scope: a new
    group of its rank, any play on a group of its rank, a three-position window of its suit within
    the wild cards held (every longer new sequence holds one), or an addition or a trade on a
    sequence of its suit (a join's gap is an addition to its lower sequence). That is a superset
    of the cards the offered plays cover, so False here means ``all_cards_covered`` would say
    False: the search drops the branch without the enumeration (issue 19: most of the search's
    enumerations ended so). Wild cards are taken as coverable.
    """
    wild = tab.wild
    nw = wild_count(av, wild)
    for c in range(CARD_IDS):
        if av[c] > 0 and not is_wild(c, wild) and not natural_may_go_down(av, tab, c, nw):
            return False
    return True


@njit_noalloc
def order_by_cards(cand, n, order):
    """Indexes of the plays that put cards down, most cards first (stable); returns their count."""
    most = 0
    for i in range(n):
        most = max(most, cand[i, C_NCARDS])
    k = 0
    for want in range(most, 0, -1):  # no play puts down more than ``most`` cards
        for i in range(n):
            if cand[i, C_NCARDS] == want:
                order[k] = i
                k += 1
    return k


@njit_inline
def search_level(search, depth, tab):
    """The table at one level of the search."""
    return Table5(search.tables[depth], search.n_melds[depth], search.grps[depth], search.ends[depth], tab.wild,
                  tab.vals, tab.team)


@njit_noalloc
def meld_out_path(hand, tab, seat, budget, search):
    """R5K-OUT-3: plays that put every card down this turn, found by depth-first search.

    Iterative (kernels never recurse), most cards first, at most ``budget`` plays tried, and a
    branch is dropped when some held card fits no offered play (``could_cover_all`` tells most of
    those before the plays are enumerated); the sequence ends start untraded.
    Returns the number of plays written to ``search.path`` or -1. Nothing passed in is changed.
    """
    depth_max = min(count_cards(hand) + 4, SEARCH_DEPTH)
    hs, cands, order, count, nxt = search.hands, search.cands, search.order, search.count, search.next_play
    copy_vector(hs[0], hand)
    copy_rows(search.tables[0], tab.melds, tab.n_melds[0])
    copy_vector(search.grps[0], tab.grp)
    search.n_melds[0, 0] = tab.n_melds[0]
    clear_head(search.ends[0], tab.n_melds[0])
    depth = 0
    expand = True
    while depth >= 0:
        if expand:
            level = search_level(search, depth, tab)
            count[depth] = 0
            if could_cover_all(hs[depth], level):
                n = enumerate_plays5(hs[depth], -1, level, seat, SC_FULL, cands[depth], False)
                if all_cards_covered(hs[depth], cands[depth], n, tab.wild, search.cover):
                    count[depth] = order_by_cards(cands[depth], n, order[depth])
            nxt[depth] = 0
            expand = False
        if nxt[depth] >= count[depth] or budget <= 0:
            depth -= 1
            continue
        act = cands[depth, order[depth, nxt[depth]]]
        nxt[depth] += 1
        budget -= 1
        copy_vector(hs[depth + 1], hs[depth])
        copy_rows(search.tables[depth + 1], search.tables[depth], search.n_melds[depth, 0])
        copy_vector(search.grps[depth + 1], search.grps[depth])
        search.n_melds[depth + 1, 0] = search.n_melds[depth, 0]
        copy_head(search.ends[depth + 1], search.ends[depth], search.n_melds[depth, 0])
        apply_play5(act, hs[depth + 1], search_level(search, depth + 1, tab), seat, -1, None, search.cursor)
        copy_vector(search.path[depth], act)
        if holds_none(hs[depth + 1]):
            return depth + 1
        if depth + 1 < depth_max:
            depth += 1
            expand = True
    return -1
