"""Hand scores and the end of a game.

R500-SCORE-1/2/3 with V500-ADDOPP, V500-ACE and the bonuses; RSTD-SCORE-1 deadwood for Standard
Rummy; R500-END-1/2, V500-TIE and V500-MUSTOUT for who wins. With teams (V500-PARTNER-2/3,
V500-PERSIAN-3..5) seat s plays for team s % 2: the partners' hand scores are added into one team
total, kept in both partners' ``ST_TOTAL`` slots, so team k's total is also seat k's.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.cards import holding_value
from rummysim.kernels.rum500.layout import (
    END_OUT, GAME_STANDARD, KIND_SET, MK_CARD, MK_KEY, MK_KIND, MK_LEN, MK_NJOK, MK_OWNER, NOBODY,
    MK_DOUBLE, PARTNER_NONE, PARTNER_PERSIAN, PERSIAN_GAME_BONUS, PERSIAN_OUT_BONUS, R_ADDOPP,
    R_FOUR_ACES, R_GAME, R_MUST_GO_OUT, R_PARTNERSHIP, R_STOCK_PENALTY, R_TARGET, R_TIE_RULE, ST_BONUS,
    ST_HAND_SCORE, ST_JOKERS, ST_N, ST_N_MELDS, ST_SCORED_HELD, ST_SCORED_TABLE, ST_TOTAL, TIE_GOER_WINS,
    T_GAME_BONUS, T_SCORE, T_TEAM_SCORE,
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
        factor = 2 if melds[m, MK_DOUBLE] != 0 else 1  # V500-PERSIAN-3, V500-GAMBIT-5
        for i in range(melds[m, MK_LEN]):
            owner = melds[m, MK_OWNER + i]
            if owner == NOBODY:
                continue
            if aces_owner >= 0:
                st[ST_HAND_SCORE + owner] += factor * rules[R_FOUR_ACES]
            else:
                st[ST_HAND_SCORE + owner] += factor * slot_value(vals, ace_low, np.int64(melds[m, MK_CARD + i]), kind, i == 0)


@njit_inline
def held_value(st, hands, vals, seat):
    return holding_value(vals, hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_noalloc
def score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace):
    """Hand scores added to the running totals: R500-SCORE-1/2/3 with V500-ADDOPP and the bonuses;
    RSTD-SCORE-1 deadwood for Standard Rummy. ST_HAND_SCORE first collects the table values."""
    n = st[ST_N]
    teams = rules[R_PARTNERSHIP] != PARTNER_NONE
    others = 0
    for s in range(n):
        st[ST_HAND_SCORE + s] = 0
        if s != out_seat and not (teams and s % 2 == out_seat % 2):
            others += held_value(st, hands, vals, s)  # with teams, the opponents' hands only
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
                elif out_seat < 0 and teams:
                    bonus += held_value(st, hands, vals, (s + 1) % n)  # ADDOPP-3, two partnerships
            elif reason == END_OUT or rules[R_STOCK_PENALTY] != 0:
                hand_value = held
            else:
                hand_value = 0
            if s == out_seat and rules[R_PARTNERSHIP] == PARTNER_PERSIAN:
                bonus += PERSIAN_OUT_BONUS  # V500-PERSIAN-4
            score = table - hand_value + bonus
        st[ST_HAND_SCORE + s] = score
        if teams:  # kept for the SCORE records, written once the team totals are known
            st[ST_SCORED_TABLE + s] = table
            st[ST_SCORED_HELD + s] = hand_value
            st[ST_BONUS + s] = bonus
        else:
            st[ST_TOTAL + s] += score
            record(trace, st, T_SCORE, s, score, st[ST_TOTAL + s], table, hand_value, bonus, 0)
    if teams:
        add_team_scores(st, trace)


@njit_noalloc
def add_team_scores(st, trace):
    """V500-PARTNER-2: the partners' hand scores added into the team total, which both partners'
    ``ST_TOTAL`` slots hold; then the SCORE records (the team total as total_after) and one
    TEAM_SCORE record per team."""
    for t in range(2):
        st[ST_TOTAL + t] += st[ST_HAND_SCORE + t] + st[ST_HAND_SCORE + t + 2]
        st[ST_TOTAL + t + 2] = st[ST_TOTAL + t]
    for s in range(4):
        record(trace, st, T_SCORE, s, st[ST_HAND_SCORE + s], st[ST_TOTAL + s], st[ST_SCORED_TABLE + s],
               st[ST_SCORED_HELD + s], st[ST_BONUS + s], 0)
    for t in range(2):
        record(trace, st, T_TEAM_SCORE, t, st[ST_HAND_SCORE + t] + st[ST_HAND_SCORE + t + 2], st[ST_TOTAL + t],
               0, 0, 0, 0)


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
def tie_mask(st, n, best):
    """Bit mask of the seats whose total is ``best`` when two or more share it, else 0 (the
    ``tied_seats`` result column, as 5000 Rummy and Rummikub fill it)."""
    mask = 0
    count = 0
    for s in range(n):
        if st[ST_TOTAL + s] == best:
            mask |= 1 << s
            count += 1
    return mask if count > 1 else 0


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


@njit_inline
def team_game_winner(st, rules, out_seat):
    """V500-PARTNER-3: ``game_winner`` over the two team totals (team k's total is seat k's), with
    V500-TIE and V500-MUSTOUT applied to the team of the player who went out."""
    return game_winner(st, rules, 2, out_seat % 2 if out_seat >= 0 else -1)


@njit_noalloc
def persian_game_end(st, trace):
    """V500-PERSIAN-5 after the second deal: the higher team gets the 50 bonus and wins; equal
    totals are a draw. Returns (winning team or -1, bitmask of the seats sharing a draw)."""
    if st[ST_TOTAL] == st[ST_TOTAL + 1]:
        return -1, 0b1111
    team = 0 if st[ST_TOTAL] > st[ST_TOTAL + 1] else 1
    st[ST_TOTAL + team] += PERSIAN_GAME_BONUS
    st[ST_TOTAL + team + 2] = st[ST_TOTAL + team]
    record(trace, st, T_GAME_BONUS, team, PERSIAN_GAME_BONUS, st[ST_TOTAL + team], 0, 0, 0, 0)
    return team, 0
