"""Hand scores and the end of a game.

R500-SCORE-1/2/3 with V500-ADDOPP, V500-ACE and the bonuses; RSTD-SCORE-1 deadwood for Standard
Rummy; R500-END-1/2, V500-TIE and V500-MUSTOUT for who wins.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.cards import holding_value
from rummysim.kernels.rum500.layout import (
    END_OUT, GAME_STANDARD, KIND_SET, MK_CARD, MK_KEY, MK_KIND, MK_LEN, MK_NJOK, MK_OWNER, NOBODY,
    R_ADDOPP, R_FOUR_ACES, R_GAME, R_MUST_GO_OUT, R_STOCK_PENALTY, R_TARGET, R_TIE_RULE, ST_BONUS,
    ST_HAND_SCORE, ST_JOKERS, ST_N, ST_N_MELDS, ST_TOTAL, TIE_GOER_WINS, T_SCORE,
)
from rummysim.kernels.rum500.melds import slot_value


@njit_inline
def four_aces_owner(melds, m):
    """Seat credited with all four aces of a natural four-ace set, else -1 (V500-ACE)."""
    if melds[m, MK_KIND] != KIND_SET or melds[m, MK_KEY] != 1 or melds[m, MK_LEN] != 4 or melds[m, MK_NJOK] != 0:
        return -1
    owner = melds[m, MK_OWNER]
    for i in range(1, 4):
        if melds[m, MK_OWNER + i] != owner:
            return -1
    return owner


@njit_inline
def table_values(st, melds, rules, vals, ace_low):
    """Values of the table cards credited to each seat, added to ST_HAND_SCORE + seat
    (R500-SCORE-1/2, V500-ACE four aces)."""
    for m in range(st[ST_N_MELDS]):
        kind = melds[m, MK_KIND]
        aces_owner = four_aces_owner(melds, m) if rules[R_FOUR_ACES] > 0 else -1
        for i in range(melds[m, MK_LEN]):
            owner = melds[m, MK_OWNER + i]
            if owner == NOBODY:
                continue
            if aces_owner >= 0:
                st[ST_HAND_SCORE + owner] += rules[R_FOUR_ACES]
            else:
                st[ST_HAND_SCORE + owner] += slot_value(vals, ace_low, np.int64(melds[m, MK_CARD + i]), kind, i == 0)


@njit_inline
def held_value(st, hands, vals, seat):
    return holding_value(vals, hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_noalloc
def score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace):
    """Hand scores added to the running totals: R500-SCORE-1/2/3 with V500-ADDOPP and the bonuses;
    RSTD-SCORE-1 deadwood for Standard Rummy. ST_HAND_SCORE first collects the table values."""
    n = st[ST_N]
    others = 0
    for s in range(n):
        st[ST_HAND_SCORE + s] = 0
        if s != out_seat:
            others += held_value(st, hands, vals, s)
    standard = rules[R_GAME] == GAME_STANDARD
    if not standard:
        table_values(st, melds, rules, vals, ace_low)
    for s in range(n):
        table = st[ST_HAND_SCORE + s]
        held = held_value(st, hands, vals, s)
        bonus = st[ST_BONUS + s]
        if standard:
            hand_value = held
            if s == out_seat:
                bonus += others
            score = bonus
        else:
            if rules[R_ADDOPP] != 0:
                hand_value = 0
                if s == out_seat:
                    bonus += others  # V500-ADDOPP-1
                elif out_seat < 0 and n == 2:
                    bonus += held_value(st, hands, vals, 1 - s)  # V500-ADDOPP-3
            elif reason == END_OUT or rules[R_STOCK_PENALTY] != 0:
                hand_value = held
            else:
                hand_value = 0
            score = table - hand_value + bonus
        st[ST_HAND_SCORE + s] = score
        st[ST_TOTAL + s] += score
        record(trace, st, T_SCORE, s, score, st[ST_TOTAL + s], table, hand_value, bonus, 0)


@njit_inline
def unique_best(st, n, best):
    winner = -1
    for s in range(n):
        if st[ST_TOTAL + s] == best:
            if winner >= 0:
                return -1
            winner = s
    return winner


@njit_inline
def game_winner(st, rules, n, out_seat):
    """Game end after a hand: -1 means another hand is dealt.

    R500-END-1/2 (highest total at or over the target; a shared highest replays), V500-TIE
    goer_wins, V500-MUSTOUT (only the player who went out, at or over the target, can win).
    """
    target = rules[R_TARGET]
    if rules[R_MUST_GO_OUT] != 0:
        if out_seat >= 0 and st[ST_TOTAL + out_seat] >= target:
            return out_seat
        return -1
    best = st[ST_TOTAL]
    reached = 0
    for s in range(n):
        best = max(best, st[ST_TOTAL + s])
        if st[ST_TOTAL + s] >= target:
            reached += 1
    if best < target:
        return -1
    if rules[R_TIE_RULE] == TIE_GOER_WINS and reached >= 2 and out_seat >= 0 and st[ST_TOTAL + out_seat] >= target:
        return out_seat
    return unique_best(st, n, best)
