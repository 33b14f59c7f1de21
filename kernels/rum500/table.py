"""Putting cards on the table: new melds and lay-offs (R500-MELD-7/8), with their trace records.

Also the table-side tests and copies that the legality checks need: whether one card could be
laid off now, and a copy of the table with one more play on it for look-ahead searches.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.planes import bit, card_id, has_card, remove_mask
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.layout import (
    ACT_LAYOFF, ACT_MELD_SET, AG_DEALER_WILD, AG_DOUBLE_DEALER, AG_DOUBLE_HAND, A_GAMBIT, DJ_USED,
    SOURCE_DEALER, SOURCE_HAND, GB_EFFECT, ST_DJ, ST_GONE_JOKERS, T_DOUBLE, A_KEY, A_LEN, A_LO, A_MASK, A_MELD, A_NCARDS, A_NJOK, A_SIDE, A_TYPE,
    A_VALUE, JOKER, KIND_RUN, KIND_SET, MAX_MELDS, MAX_SEATS, MK_CARD, MK_CREATOR, MK_KEY, MK_KIND,
    MK_DOUBLE, MK_LEN, MK_LO, MK_NJOK, MK_OWNER, MK_SIZE, MK_SUITS, PARTNER_PERSIAN, PLAY_LAYOFF_ONLY, R_PARTNERSHIP, SIDE_LOW, ST_JOKERS,
    ST_LONG_RUN, ST_MUST_CARD, ST_NEW_ONLY, ST_N_MELDS, ST_PLACED, ST_PLACED_VALUE, ST_SIZE, T_CARD,
    T_LAYOFF, T_MELD,
)
from rummysim.kernels.rum500.melds import Table, card_playable, pos_card, without_dealers_joker


@njit_inline
def _put_card(melds, m, i, card, owner):
    melds[m, MK_CARD + i] = card
    melds[m, MK_OWNER + i] = owner


@njit_inline
def _gambit_effects(st, act):
    """Jokers the action puts into the meld, and the one of them that is the dealer's joker
    (1, else 0), after updating the gambit state (V500-GAMBIT-4/5/7): a wild dealer's joker joins
    the jokers from hand; a doubling joker goes on the meld but is none of its cards."""
    gamb = act[A_GAMBIT]
    in_meld = act[A_NJOK]
    dealers = 0
    if gamb == AG_DEALER_WILD:
        in_meld += 1
        dealers = 1
        st[ST_DJ] = DJ_USED
        st[ST_GONE_JOKERS] -= 1  # the dealer's joker now lies among the table's cards
    elif gamb == AG_DOUBLE_HAND:
        in_meld -= 1
        st[ST_GONE_JOKERS] += 1
    elif gamb == AG_DOUBLE_DEALER:
        st[ST_DJ] = DJ_USED
    return in_meld, dealers


@njit_noalloc
def apply_play(st, hands, melds, rules, seat, act, owner, trace, layoff_kind):
    """Lay down a new meld or lay off on a table meld (R500-MELD-7/8); cards are credited to
    ``owner`` (C-MELD-5; NOBODY for V500-ADDOPP-2). ``layoff_kind`` is the trace record kind.
    Under Dealer's gambit the action may also use the dealer's joker or double the new meld
    (``A_GAMBIT``); a joker's CARD record then says where it came from (column 5)."""
    typ = act[A_TYPE]
    mask = np.uint64(act[A_MASK])
    njok = act[A_NJOK]
    remove_mask(hands[seat], mask)
    st[ST_JOKERS + seat] -= njok
    st[ST_PLACED] += act[A_NCARDS]
    st[ST_PLACED_VALUE] += act[A_VALUE]
    in_meld, dealers = _gambit_effects(st, act)
    must = st[ST_MUST_CARD]
    if must >= 0:
        if (must == JOKER and in_meld - dealers > 0) or (must != JOKER and has_card(mask, must)):
            st[ST_MUST_CARD] = -1
            st[ST_NEW_ONLY] = 0
    if typ == ACT_LAYOFF:
        m = act[A_MELD]
        run_lo = act[A_LO] if melds[m, MK_KIND] == KIND_RUN else 0
        record(trace, st, layoff_kind, seat, m, act[A_NCARDS], run_lo, 0, 0, 0)
        if melds[m, MK_KIND] == KIND_SET:
            i = melds[m, MK_LEN]
            r = np.int64(melds[m, MK_KEY])  # int64: the card-id helpers compile once
            if in_meld > 0:
                _put_card(melds, m, i, JOKER, owner)
                melds[m, MK_NJOK] += 1
                record(trace, st, T_CARD, seat, m, JOKER, 0, dealers, 0, 0)
            else:
                for s in range(4):
                    c = card_id(s, r)
                    if has_card(mask, c):
                        _put_card(melds, m, i, c, owner)
                        melds[m, MK_SUITS] |= 1 << s
                        record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
            melds[m, MK_LEN] = i + 1
            return
        s = np.int64(melds[m, MK_KEY])
        old_len = melds[m, MK_LEN]
        new_lo = act[A_LO]
        new_len = act[A_LEN]
        added = new_len - old_len
        if act[A_SIDE] == SIDE_LOW:
            for i in range(old_len - 1, -1, -1):
                melds[m, MK_CARD + i + added] = melds[m, MK_CARD + i]
                melds[m, MK_OWNER + i + added] = melds[m, MK_OWNER + i]
            first_new = 0
        else:
            first_new = old_len
        for i in range(first_new, first_new + added):
            pos = new_lo + i
            c = pos_card(s, pos)
            card = c if has_card(mask, c) else JOKER
            source = 0
            if card == JOKER:
                melds[m, MK_NJOK] += 1
                source = dealers
                dealers = 0
            _put_card(melds, m, i, card, owner)
            record(trace, st, T_CARD, seat, m, card, pos, source, 0, 0)
        melds[m, MK_LO] = new_lo
        melds[m, MK_LEN] = new_len
        return
    m = st[ST_N_MELDS]
    st[ST_N_MELDS] = m + 1
    melds[m, :] = 0
    melds[m, MK_KEY] = act[A_KEY]
    melds[m, MK_LEN] = act[A_LEN]
    melds[m, MK_NJOK] = in_meld
    melds[m, MK_CREATOR] = seat
    if typ == ACT_MELD_SET:
        r = act[A_KEY]
        melds[m, MK_KIND] = KIND_SET
        if act[A_LEN] == 4 and rules[R_PARTNERSHIP] == PARTNER_PERSIAN:
            melds[m, MK_DOUBLE] = 1  # V500-PERSIAN-3: four laid down at once score double
        record(trace, st, T_MELD, seat, m, KIND_SET, r, 0, act[A_LEN], 0)
        i = 0
        for s in range(4):
            c = card_id(s, r)
            if has_card(mask, c):
                _put_card(melds, m, i, c, owner)
                melds[m, MK_SUITS] |= 1 << s
                record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
                i += 1
        for j in range(in_meld):
            _put_card(melds, m, i, JOKER, owner)
            record(trace, st, T_CARD, seat, m, JOKER, 0, dealers if j == 0 else 0, 0, 0)
            i += 1
    else:
        s = act[A_KEY]
        lo = act[A_LO]
        melds[m, MK_KIND] = KIND_RUN
        melds[m, MK_LO] = lo
        if act[A_LEN] >= 7:
            st[ST_LONG_RUN] = 1  # V500-7STRAIGHT
        record(trace, st, T_MELD, seat, m, KIND_RUN, s, lo, act[A_LEN], 0)
        for i in range(act[A_LEN]):
            c = pos_card(s, lo + i)
            card = c if has_card(mask, c) else JOKER
            source = 0
            if card == JOKER:
                source = dealers
                dealers = 0
            _put_card(melds, m, i, card, owner)
            record(trace, st, T_CARD, seat, m, card, lo + i, source, 0, 0)
    gamb = act[A_GAMBIT]
    if gamb == AG_DOUBLE_HAND or gamb == AG_DOUBLE_DEALER:
        melds[m, MK_DOUBLE] = 1  # V500-GAMBIT-5: double, and sealed
        record(trace, st, T_DOUBLE, seat, m, SOURCE_DEALER if gamb == AG_DOUBLE_DEALER else SOURCE_HAND, 0, 0, 0, 0)


@njit
def table_after(table, act):
    """A copy of the ``Table`` with one more play on it (for look-ahead searches)."""
    n_melds = table.n_melds
    after = np.empty((MAX_MELDS, MK_SIZE), dtype=np.int16)
    after[:n_melds] = table.melds[:n_melds]
    shadow_st = np.zeros(ST_SIZE, dtype=np.int64)
    shadow_hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    shadow_hands[0, 0] = np.uint64(act[A_MASK])
    shadow_st[ST_JOKERS] = act[A_NJOK]
    shadow_st[ST_N_MELDS] = n_melds
    shadow_st[ST_MUST_CARD] = -1
    apply_play(shadow_st, shadow_hands, after, table.rules, 0, act, 0, None, T_LAYOFF)
    gambit = table.gambit
    if act[A_GAMBIT] == AG_DEALER_WILD or act[A_GAMBIT] == AG_DOUBLE_DEALER:
        gambit &= GB_EFFECT  # V500-GAMBIT-7: the dealer's joker goes down once
    return Table(after, shadow_st[ST_N_MELDS], table.vals, table.ace_low, table.rules, table.team, gambit)


@njit_noalloc
def layoff_target_exists(card, table, scratch):
    """Could this one card be laid off on a table meld right now (V500-UNPLAYABLE, V500-RUMMY-5/6)?
    The card alone: never with the dealer's joker (V500-GAMBIT-7)."""
    table = without_dealers_joker(table)
    if card == JOKER:
        return card_playable(card, np.uint64(0), 1, table, PLAY_LAYOFF_ONLY, scratch)
    return card_playable(card, bit(card), 0, table, PLAY_LAYOFF_ONLY, scratch)
