"""The 5000 Rummy table: card values, legal plays (RULES.md §4.3-4.6) and applying them.

A seat's cards are counts per card id. Plays are enumerated canonically: a group takes every
natural card of its rank the seat may use, a sequence uses a natural card wherever the seat has
one and a wild card elsewhere, and the wild card put down is the lowest id (or the card a duty
names). This keeps the candidate list short without hiding a kind of play from any strategy.
Every function works on copies as well as on the live table, so strategies can play ahead.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum5000.layout import (
    T_CARD, T_JOIN, T_LAYOFF, T_MELD, T_TRADE,
    C_CARD, C_HI, C_KEY, C_LO, C_MELD, C_MELD2, C_NCARDS, C_NNAT, C_NWILD, C_POS, C_SIZE, C_TYPE,
    C_VALUE, CARD_IDS, K_GROUP, K_SEQ, K_WILD, M_ALIVE, M_CARD, M_CREATOR, M_CRED, M_KEY, M_KIND,
    M_LEN, M_LO, MAX_CAND5, MAX_MELDS5, MAX_SEQ, P_ADD_GROUP, P_ADD_SEQ, P_ADD_WILD, P_JOIN,
    P_NEW_GROUP, P_NEW_SEQ, P_NEW_WILD, P_STOP, P_TRADE, SC_CALL_TOP, SC_DUTY, SC_FULL, SLOTS,
)

HIGH_END = 1
LOW_END = 2


# ----------------------------------------------------------------------------- cards and values


@njit
def rank_at(pos):
    """Rank a sequence position stands for: 1..13, and 14 is the ace above the king."""
    return 1 if pos == 14 else pos


@njit
def is_wild(card, wild):
    return card % 16 == wild


@njit
def value_table(wild):
    """R5K-VAL-1/2: K..8 = 10, 7..2 = 5, A = 200; every card of the wild rank 100/200/400."""
    vals = np.zeros(CARD_IDS, dtype=np.int64)
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
    return vals


@njit
def count_cards(av):
    total = 0
    for c in range(CARD_IDS):
        total += av[c]
    return total


@njit
def wild_count(av, wild):
    return av[wild] + av[16 + wild] + av[32 + wild] + av[48 + wild]


@njit
def natural_count(av, rank, wild):
    if rank == wild:
        return 0
    return av[rank] + av[16 + rank] + av[32 + rank] + av[48 + rank]


@njit
def pick_wild(av, wild, must):
    """The wild card to put down: the duty's card if it is a wild card held, else the lowest id."""
    if must >= 0 and must % 16 == wild and av[must] > 0:
        return must
    for s in range(4):
        c = 16 * s + wild
        if av[c] > 0:
            return c
    return -1


@njit
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


@njit
def meld_hi(melds, m):
    return melds[m, M_LO] + melds[m, M_LEN] - 1


@njit
def credited_to(melds, m, seat):
    k = 0
    for i in range(melds[m, M_LEN]):
        if melds[m, M_CRED + i] == seat:
            k += 1
    return k


@njit
def owns_sequence(melds, m, seat):
    """R5K-SEQ-4/6: a seat's own sequence is one it laid or one holding 3+ cards it added."""
    return melds[m, M_CREATOR] == seat or credited_to(melds, m, seat) >= 3


@njit
def group_allowed(grp_seat, rank, m):
    """R5K-GROUP-2: the seat may put cards of ``rank`` into meld m (-1: a new group)."""
    return grp_seat[rank] == -1 or grp_seat[rank] == m


@njit
def seq_cost(av, suit, lo, hi, wild):
    """Wild cards needed to fill positions lo..hi of ``suit`` using naturals where held."""
    need = 0
    for p in range(lo, hi + 1):
        r = rank_at(p)
        if r == wild or av[16 * suit + r] == 0:
            need += 1
    return need


@njit
def seq_uses(av, suit, lo, hi, wild, must):
    """Does filling lo..hi (naturals first) put the card ``must`` down?"""
    if must < 0:
        return True
    if must % 16 == wild:
        return seq_cost(av, suit, lo, hi, wild) > 0 and av[must] > 0
    if must // 16 != suit:
        return False
    for p in range(lo, hi + 1):
        if rank_at(p) == must % 16:
            return True
    return False


@njit
def seq_value(av, suit, lo, hi, wild, vals):
    v = 0
    for p in range(lo, hi + 1):
        r = rank_at(p)
        if r == wild or av[16 * suit + r] == 0:
            v += vals[wild]
        else:
            v += vals[16 * suit + r]
    return v


@njit
def group_uses(rank, nnat, nwild, wild, must):
    if must < 0:
        return True
    if must % 16 == wild:
        return nwild > 0
    return nnat > 0 and must % 16 == rank


# ----------------------------------------------------------------------------- enumeration


@njit
def push(cand, n, typ, m, m2, key, lo, hi, nnat, nwild, card, pos, value, ncards):
    if n >= MAX_CAND5:
        return n
    cand[n, C_TYPE] = typ
    cand[n, C_MELD] = m
    cand[n, C_MELD2] = m2
    cand[n, C_KEY] = key
    cand[n, C_LO] = lo
    cand[n, C_HI] = hi
    cand[n, C_NNAT] = nnat
    cand[n, C_NWILD] = nwild
    cand[n, C_CARD] = card
    cand[n, C_POS] = pos
    cand[n, C_VALUE] = value
    cand[n, C_NCARDS] = ncards
    return n + 1


@njit
def group_plays(av, must, melds, nm, grp_seat, wild, vals, cand, n, scope):
    """New groups (R5K-GROUP-1, R5K-WILD-4) and group additions (R5K-GROUP-2/3)."""
    nw = wild_count(av, wild)
    single = scope == SC_CALL_TOP
    natural_must = must >= 0 and must % 16 != wild
    for r in range(1, 14):
        if r == wild or (natural_must and must % 16 != r):
            continue
        k = natural_count(av, r, wild)
        nat_value = k * vals[r]  # every natural card of a rank has the same value
        if group_allowed(grp_seat, r, -1) and not single:
            for w in range(0, nw + 1):
                if k + w >= 3 and group_uses(r, k, w, wild, must):
                    n = push(cand, n, P_NEW_GROUP, -1, -1, r, 0, 0, k, w, -1, 0, nat_value + w * vals[wild], k + w)
        for m in range(nm):
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
                        n = push(cand, n, P_ADD_GROUP, m, -1, r, 0, 0, kk, w, -1, 0, kk * vals[r] + w * vals[wild], kk + w)
                if k == 0:
                    break
    return n


@njit
def wild_group_plays(av, must, melds, nm, wild, vals, cand, n, scope):
    """Wild-card groups (R5K-WILD-3): new ones of 3+ wild cards, and additions by anyone."""
    nw = wild_count(av, wild)
    if must >= 0 and must % 16 != wild:
        return n
    if scope != SC_CALL_TOP:
        for w in range(3, nw + 1):
            n = push(cand, n, P_NEW_WILD, -1, -1, 0, 0, 0, 0, w, -1, 0, w * vals[wild], w)
    for m in range(nm):
        if melds[m, M_ALIVE] == 0 or melds[m, M_KIND] != K_WILD:
            continue
        room = SLOTS - melds[m, M_LEN]
        top = 1 if scope == SC_CALL_TOP else min(nw, room)
        for w in range(1, top + 1):
            if w <= nw:
                n = push(cand, n, P_ADD_WILD, m, -1, 0, 0, 0, 0, w, -1, 0, w * vals[wild], w)
    return n


@njit
def new_sequence_plays(av, must, wild, vals, cand, n):
    """New sequences (R5K-SEQ-1, R5K-WILD-4): 3..13 positions, never both ace positions."""
    nw = wild_count(av, wild)
    natural_must = must >= 0 and must % 16 != wild
    for s in range(4):
        if natural_must and must // 16 != s:
            continue  # the named card fits only sequences of its own suit
        for lo in range(1, 13):
            for hi in range(lo + 2, min(lo + MAX_SEQ - 1, 14) + 1):
                need = seq_cost(av, s, lo, hi, wild)
                if need > nw:
                    break  # a longer window never needs fewer wild cards
                if seq_uses(av, s, lo, hi, wild, must):
                    n = push(cand, n, P_NEW_SEQ, -1, -1, s, lo, hi, 0, need, -1, 0,
                             seq_value(av, s, lo, hi, wild, vals), hi - lo + 1)
    return n


@njit
def sequence_additions(av, must, melds, nm, wild, vals, cand, n, single):
    """Additions at either end, one position outward per card (R5K-SEQ-2/4)."""
    nw = wild_count(av, wild)
    for m in range(nm):
        if melds[m, M_ALIVE] == 0 or melds[m, M_KIND] != K_SEQ:
            continue
        s = melds[m, M_KEY]
        lo = melds[m, M_LO]
        hi = meld_hi(melds, m)
        room = MAX_SEQ - melds[m, M_LEN]
        limit = 1 if single else room
        for j in range(1, limit + 1):  # high end
            if hi + j > 14 or (lo == 1 and hi + j == 14):
                break
            need = seq_cost(av, s, hi + 1, hi + j, wild)
            if need > nw:
                break
            if seq_uses(av, s, hi + 1, hi + j, wild, must):
                n = push(cand, n, P_ADD_SEQ, m, -1, s, hi + 1, hi + j, 0, need, -1, 0,
                         seq_value(av, s, hi + 1, hi + j, wild, vals), j)
        for j in range(1, limit + 1):  # low end
            if lo - j < 1 or (hi == 14 and lo - j == 1):
                break
            need = seq_cost(av, s, lo - j, lo - 1, wild)
            if need > nw:
                break
            if seq_uses(av, s, lo - j, lo - 1, wild, must):
                n = push(cand, n, P_ADD_SEQ, m, -1, s, lo - j, lo - 1, 0, need, -1, 0,
                         seq_value(av, s, lo - j, lo - 1, wild, vals), j)
    return n


@njit
def join_plays(av, must, melds, nm, seat, wild, vals, ends, cand, n, single):
    """Joining two same-suit sequences (R5K-SEQ-5 with gap cards, R5K-SEQ-6 when adjacent)."""
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
                own = owns_sequence(melds, a, seat) and owns_sequence(melds, b, seat)
                traded = (ends[a] & HIGH_END) != 0 or (ends[b] & LOW_END) != 0
                if own or traded:
                    n = push(cand, n, P_JOIN, a, b, s, 0, -1, 0, 0, -1, 0, 0, 0)
                continue
            if single and gap != 1:
                continue
            need = seq_cost(av, s, ahi + 1, blo - 1, wild)
            if need <= nw and seq_uses(av, s, ahi + 1, blo - 1, wild, must):
                n = push(cand, n, P_JOIN, a, b, s, ahi + 1, blo - 1, 0, need, -1, 0,
                         seq_value(av, s, ahi + 1, blo - 1, wild, vals), gap)
    return n


@njit
def trade_plays(av, must, melds, nm, grp_seat, wild, vals, cand, n):
    """Natural-for-wild trades (R5K-TRADE-1/2; R5K-WILD-3: never from a wild-card group)."""
    for m in range(nm):
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
                    n = push(cand, n, P_TRADE, m, -1, r, 0, 0, 1, 0, c, i, vals[c], 1)
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
                    n = push(cand, n, P_TRADE, m, -1, s, lo + i, lo + i, 1, 0, c, i, vals[c], 1)
    return n


@njit
def enumerate_plays5(av, must, melds, nm, grp_seat, seat, wild, vals, ends, scope, cand, stop_ok):
    """Every canonical legal play for cards ``av`` (row 0 is STOP when ``stop_ok``)."""
    n = 0
    if stop_ok:
        n = push(cand, n, P_STOP, -1, -1, 0, 0, 0, 0, 0, -1, 0, 0, 0)
    single = scope == SC_CALL_TOP
    n = group_plays(av, must, melds, nm, grp_seat, wild, vals, cand, n, scope)
    n = wild_group_plays(av, must, melds, nm, wild, vals, cand, n, scope)
    if not single:
        n = new_sequence_plays(av, must, wild, vals, cand, n)
    n = sequence_additions(av, must, melds, nm, wild, vals, cand, n, single)
    n = join_plays(av, must, melds, nm, seat, wild, vals, ends, cand, n, single)
    if scope != SC_DUTY:
        n = trade_plays(av, must, melds, nm, grp_seat, wild, vals, cand, n)
    return n


@njit
def card_placeable(card, melds, nm, grp_seat, seat, wild, vals, ends, cand):
    """Can this one card go onto the table by itself (an addition, a trade or a one-card join)?

    Used for V5K-3 rummy calls and V5K-5's meldable last card; hand cards play no part.
    """
    av = np.zeros(CARD_IDS, dtype=np.int64)
    av[card] = 1
    return enumerate_plays5(av, card, melds, nm, grp_seat, seat, wild, vals, ends, SC_CALL_TOP, cand, False) > 0


# ----------------------------------------------------------------------------- applying plays


@njit
def put_slot(melds, m, i, card, seat, hand, trace, st, pos):
    melds[m, M_CARD + i] = card
    melds[m, M_CRED + i] = seat
    hand[card] -= 1
    record(trace, st, T_CARD, seat, m, card, pos, 0, 0, 0)


@njit
def take_card(hand, wild, must, rank_or_minus):
    """The card a play puts down: a natural of the given card id, or (-1) a wild card."""
    if rank_or_minus >= 0:
        return rank_or_minus
    return pick_wild(hand, wild, must)


@njit
def fill_group(melds, m, hand, rank, nnat, nwild, wild, must, seat, trace, st):
    i = melds[m, M_LEN]
    left = nnat
    for s in range(4):
        c = 16 * s + rank
        while left > 0 and hand[c] > 0:
            put_slot(melds, m, i, c, seat, hand, trace, st, 0)
            i += 1
            left -= 1
    for _ in range(nwild):
        put_slot(melds, m, i, pick_wild(hand, wild, must), seat, hand, trace, st, 0)
        i += 1
    melds[m, M_LEN] = i


@njit
def seq_card(hand, suit, pos, wild, must):
    r = rank_at(pos)
    c = 16 * suit + r
    if r != wild and hand[c] > 0:
        return c
    return pick_wild(hand, wild, must)


@njit
def fill_positions(melds, m, first_slot, suit, lo, hi, hand, wild, must, seat, trace, st):
    """Put cards for positions lo..hi into slots first_slot.. (decided before any card moves)."""
    cards = np.empty(hi - lo + 1, dtype=np.int64)
    plan = hand.copy()
    for p in range(lo, hi + 1):
        c = seq_card(plan, suit, p, wild, must)
        cards[p - lo] = c
        plan[c] -= 1
    for p in range(lo, hi + 1):
        put_slot(melds, m, first_slot + p - lo, cards[p - lo], seat, hand, trace, st, p)


@njit
def new_meld(melds, nm, kind, key, lo, seat):
    melds[nm, M_KIND] = kind
    melds[nm, M_KEY] = key
    melds[nm, M_LO] = lo
    melds[nm, M_LEN] = 0
    melds[nm, M_CREATOR] = seat
    melds[nm, M_ALIVE] = 1


@njit
def shift_up(melds, m, k):
    """Make room for k cards below a sequence's first position."""
    for i in range(melds[m, M_LEN] - 1, -1, -1):
        melds[m, M_CARD + i + k] = melds[m, M_CARD + i]
        melds[m, M_CRED + i + k] = melds[m, M_CRED + i]


@njit
def apply_play5(act, hand, melds, nm_box, grp_seat, seat, wild, must, ends, trace, st):
    """Carry out candidate row ``act`` for ``seat``; returns the number of cards put down.

    ``nm_box`` is int64[1] holding the number of meld ids used; ``ends`` flags, per meld, the
    sequence ends at which the seat traded this turn (R5K-SEQ-6).
    """
    typ = act[C_TYPE]
    m = act[C_MELD]
    if typ == P_NEW_GROUP or typ == P_NEW_SEQ or typ == P_NEW_WILD:
        m = nm_box[0]
        if m >= MAX_MELDS5:
            return 0
        nm_box[0] = m + 1
        if typ == P_NEW_GROUP:
            new_meld(melds, m, K_GROUP, act[C_KEY], 0, seat)
            record(trace, st, T_MELD, seat, m, K_GROUP, act[C_KEY], 0, act[C_NCARDS], 0)
            fill_group(melds, m, hand, act[C_KEY], act[C_NNAT], act[C_NWILD], wild, must, seat, trace, st)
            grp_seat[act[C_KEY]] = m
        elif typ == P_NEW_WILD:
            new_meld(melds, m, K_WILD, 0, 0, seat)
            record(trace, st, T_MELD, seat, m, K_WILD, 0, 0, act[C_NCARDS], 0)
            fill_group(melds, m, hand, 0, 0, act[C_NWILD], wild, must, seat, trace, st)
        else:
            new_meld(melds, m, K_SEQ, act[C_KEY], act[C_LO], seat)
            record(trace, st, T_MELD, seat, m, K_SEQ, act[C_KEY], act[C_LO], act[C_NCARDS], 0)
            fill_positions(melds, m, 0, act[C_KEY], act[C_LO], act[C_HI], hand, wild, must, seat, trace, st)
            melds[m, M_LEN] = act[C_NCARDS]
        return act[C_NCARDS]
    if typ == P_ADD_GROUP or typ == P_ADD_WILD:
        record(trace, st, T_LAYOFF, seat, m, act[C_NCARDS], 0, 0, 0, 0)
        fill_group(melds, m, hand, melds[m, M_KEY], act[C_NNAT], act[C_NWILD], wild, must, seat, trace, st)
        if typ == P_ADD_GROUP:
            grp_seat[melds[m, M_KEY]] = m
        return act[C_NCARDS]
    if typ == P_ADD_SEQ:
        k = act[C_NCARDS]
        lo = melds[m, M_LO]
        if act[C_LO] < lo:
            record(trace, st, T_LAYOFF, seat, m, k, act[C_LO], 0, 0, 0)
            shift_up(melds, m, k)
            melds[m, M_LO] = act[C_LO]
            fill_positions(melds, m, 0, melds[m, M_KEY], act[C_LO], act[C_HI], hand, wild, must, seat, trace, st)
            ends[m] &= ~LOW_END
        else:
            record(trace, st, T_LAYOFF, seat, m, k, lo, 0, 0, 0)
            fill_positions(melds, m, melds[m, M_LEN], melds[m, M_KEY], act[C_LO], act[C_HI], hand, wild, must, seat, trace, st)
            ends[m] &= ~HIGH_END
        melds[m, M_LEN] += k
        return k
    if typ == P_JOIN:
        b = act[C_MELD2]
        k = act[C_NCARDS]
        record(trace, st, T_JOIN, seat, m, b, k, 0, 0, 0)
        start = melds[m, M_LEN]
        if k > 0:
            fill_positions(melds, m, start, melds[m, M_KEY], act[C_LO], act[C_HI], hand, wild, must, seat, trace, st)
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
            grp_seat[melds[m, M_KEY]] = m  # AMB-31: a trade counts as adding to that group
        else:
            if i == 0:
                ends[m] |= LOW_END
            if i == melds[m, M_LEN] - 1:
                ends[m] |= HIGH_END
        return 1
    return 0


@njit
def mark_positions(cov, av, suit, lo, hi, wild):
    for p in range(lo, hi + 1):
        c = 16 * suit + rank_at(p)
        if rank_at(p) != wild and av[c] > 0:
            cov[c] = 1


@njit
def all_cards_covered(av, cand, n, wild):
    """A quick necessary test for melding out: every held card is in some play offered now."""
    cov = np.zeros(CARD_IDS, dtype=np.int64)
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


@njit
def order_by_cards(cand, n, order):
    """Indexes of the plays that put cards down, most cards first (stable); returns their count."""
    k = 0
    for want in range(MAX_SEQ + SLOTS, 0, -1):
        for i in range(n):
            if cand[i, C_NCARDS] == want:
                order[k] = i
                k += 1
    return k


@njit
def meld_out_path(hand, melds, nm, grp_seat, seat, wild, vals, budget, path):
    """R5K-OUT-3: plays that put every card down this turn, found by depth-first search.

    Iterative (kernels never recurse), most cards first, at most ``budget`` plays tried, and a
    branch is dropped when some held card fits no offered play. Returns the number of plays
    written to ``path`` or -1. Nothing passed in is changed.
    """
    depth_max = min(count_cards(hand) + 4, 16)
    hs = np.empty((depth_max + 1, CARD_IDS), dtype=np.int64)
    ms = np.empty((depth_max + 1, melds.shape[0], melds.shape[1]), dtype=np.int64)
    gs = np.empty((depth_max + 1, 14), dtype=np.int64)
    nms = np.empty((depth_max + 1, 1), dtype=np.int64)
    es = np.zeros((depth_max + 1, MAX_MELDS5), dtype=np.int64)
    cands = np.empty((depth_max, MAX_CAND5, C_SIZE), dtype=np.int64)
    order = np.empty((depth_max, MAX_CAND5), dtype=np.int64)
    count = np.zeros(depth_max, dtype=np.int64)
    nxt = np.zeros(depth_max, dtype=np.int64)
    hs[0] = hand
    ms[0] = melds
    gs[0] = grp_seat
    nms[0, 0] = nm
    depth = 0
    expand = True
    while depth >= 0:
        if expand:
            n = enumerate_plays5(hs[depth], -1, ms[depth], nms[depth, 0], gs[depth], seat, wild, vals, es[depth],
                                 SC_FULL, cands[depth], False)
            count[depth] = order_by_cards(cands[depth], n, order[depth]) if all_cards_covered(hs[depth], cands[depth], n, wild) else 0
            nxt[depth] = 0
            expand = False
        if nxt[depth] >= count[depth] or budget <= 0:
            depth -= 1
            continue
        act = cands[depth, order[depth, nxt[depth]]]
        nxt[depth] += 1
        budget -= 1
        hs[depth + 1] = hs[depth]
        ms[depth + 1] = ms[depth]
        gs[depth + 1] = gs[depth]
        nms[depth + 1] = nms[depth]
        es[depth + 1] = es[depth]
        apply_play5(act, hs[depth + 1], ms[depth + 1], nms[depth + 1], gs[depth + 1], seat, wild, -1, es[depth + 1], None, None)
        path[depth] = act
        if count_cards(hs[depth + 1]) == 0:
            return depth + 1
        if depth + 1 < depth_max:
            depth += 1
            expand = True
    return -1

