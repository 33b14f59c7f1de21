"""The moments between turns when other seats may act: rummy calls, out-of-turn melds, lay-offs.

V500-RUMMY (a discard opens a call window, clockwise from the discarder's left), V500-OUTOFTURN
(new melds out of turn) and V500-ADDOPP-2 (lay-offs on the melds of the player who went out).
They run only in the full engine (``stack`` is not None). In trace mode the call and out-of-turn
windows record every seat they reach, in order, with its answer (RUMMY_ASK, OOT_ASK).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.planes import bit
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.duties import mark_opened, opening_need, reset_turn, take_end
from rummysim.kernels.rum500.layout import (
    ACT_STOP, ASK_CALL, ASK_CANNOT, ASK_PASS, A_MELD, A_TYPE, CALL_LAYOFF, CALL_PILE, JOKER, MAX_CAND, MAX_PACK, MK_CREATOR, NOBODY,
    PARTNER_NONE, PLAY_ALL, PLAY_LAYOFF_ONLY, PLAY_NEW_ONLY, R_CALL, R_PARTNERSHIP, R_TEAM_ONLY, ST_IDLE, ST_JOKERS, ST_N,
    ST_PILE_LEN, ST_PLACED, T_ADDOPP_LAYOFF, T_OOT_ASK, T_RUMMY_ASK,
)
from rummysim.kernels.rum500.melds import card_playable, enumerate_plays
from rummysim.kernels.rum500.opening import must_play_possible
from rummysim.kernels.rum500.table import apply_play, layoff_target_exists
from rummysim.kernels.rum500.turn import copy_row, end_of_play, play_phase
from rummysim.kernels.rum500.view import hand_size, seat_view, table_of
from rummysim.strategies.rum500.dispatch import choose_call, choose_play


@njit_noalloc
def public_claims(g, public, seat):
    """Pile cards ``seat`` may claim after a discard, judged without hand cards (V500-RUMMY-2/5/6)
    on the melds it may lay off on (seat -1: any meld, the claims of every seat together)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    top = st[ST_PILE_LEN] - 1
    table = table_of(g, seat)
    n = 0
    if rules[R_CALL] != CALL_PILE:
        if layoff_target_exists(np.int64(pile[top]), table, scratch):
            public[0] = top
            n = 1
        return n
    cards = np.uint64(0)
    jok = 0
    for k in range(top, -1, -1):
        c = np.int64(pile[k])
        if c == JOKER:
            jok += 1
        else:
            cards |= bit(c)
        if card_playable(c, cards, jok, table, PLAY_ALL, scratch):
            public[n] = k
            n += 1
    return n


@njit_noalloc
def call_options(g, stack, caller, public, npublic, opts):
    """Claims ``caller`` may make in the rummy window (V500-RUMMY-1..6): option 0 is passing."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts_, cand, scratch, budget, family = g
    table = table_of(g, caller)
    n = 0
    opts[n] = -1
    n += 1
    top = st[ST_PILE_LEN] - 1
    need = opening_need(st, rules, caller)
    scope = PLAY_LAYOFF_ONLY if rules[R_CALL] == CALL_LAYOFF else PLAY_ALL
    for j in range(npublic):
        k = public[j]
        a1 = hands[caller, 0]  # the caller's holding after the take
        a2 = hands[caller, 1]
        ajok = st[ST_JOKERS + caller]
        taken = np.uint64(0)
        taken_jok = 0
        for i in range(k, top + 1):
            c = np.int64(pile[i])
            if c == JOKER:
                ajok += 1
                taken_jok += 1
            else:
                b = bit(c)
                a2 |= a1 & b
                a1 |= b
                taken |= b
        end = take_end(rules, k == top, taken, taken_jok)
        c = np.int64(pile[k])
        if must_play_possible(c, a1, a2, ajok, end, need, table, scope, scratch, stack, budget):
            opts[n] = k
            n += 1
    return n


@njit_noalloc
def record_unclaimable_window(trace, st, discarder, teams):
    """Trace mode: a rummy window in which no pile card can be claimed still lists its seats, each
    without a legal claim (a function of ``trace`` so the untraced engine compiles it empty)."""
    if trace is None:
        return
    n = st[ST_N]
    for i in range(1, n):
        seat = (discarder + i) % n
        if not (teams and seat % 2 == discarder % 2):
            record(trace, st, T_RUMMY_ASK, seat, ASK_CANNOT, -1, 0, 0, 0, 0)


@njit
def rummy_window(g, stack, discarder):
    """V500-RUMMY-1: after a discard, seats from the discarder's left are asked in turn; the first
    to call wins. Returns (caller, k) or (-1, -1)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    public = np.empty(MAX_PACK, dtype=np.int64)
    npublic = public_claims(g, public, -1)
    n = st[ST_N]
    teams = rules[R_PARTNERSHIP] != PARTNER_NONE
    if npublic == 0:
        record_unclaimable_window(trace, st, discarder, teams)
        return -1, -1
    for i in range(1, n):
        caller = (discarder + i) % n
        if teams and caller % 2 == discarder % 2:
            continue  # no call on a partner's discard (docs/rules-decisions.md)
        if rules[R_TEAM_ONLY] != 0:  # V500-PARTNER-1: the caller's own lay-off rights
            npublic = public_claims(g, public, caller)
        nopt = call_options(g, stack, caller, public, npublic, opts)
        if nopt <= 1:
            record(trace, st, T_RUMMY_ASK, caller, ASK_CANNOT, -1, 0, 0, 0, 0)
            continue
        pick = choose_call(family, lineup[caller], params[caller], seat_view(g, caller), opts, nopt, rngs[caller], scratch)
        if pick > 0:
            record(trace, st, T_RUMMY_ASK, caller, ASK_CALL, opts[pick], nopt - 1, 0, 0, 0)
            return caller, opts[pick]
        record(trace, st, T_RUMMY_ASK, caller, ASK_PASS, -1, nopt - 1, 0, 0, 0)
    return -1, -1


@njit_noalloc
def out_of_turn_window(g, stack, discarder):
    """V500-OUTOFTURN: seats other than the discarder may lay down new melds, clockwise from the
    discarder's left. Returns (reason, seat that went out)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    n = st[ST_N]
    for i in range(1, n):
        seat = (discarder + i) % n
        holds = hand_size(st, hands, seat) > 0
        record(trace, st, T_OOT_ASK, seat, 1 if holds else 0, 0, 0, 0, 0, 0)
        if not holds:
            continue
        reset_turn(st)
        emptied = play_phase(g, stack, seat, PLAY_NEW_ONLY, 0)
        mark_opened(st, rules, seat)
        if st[ST_PLACED] > 0:
            st[ST_IDLE] = 0
        reason, _ = end_of_play(g, seat, emptied)
        if reason != 0:
            return reason, seat
    return 0, -1


@njit_noalloc
def addopp_window(g, out_seat):
    """V500-ADDOPP-2: the others, clockwise from the left of the player who went out, may lay off
    on that player's melds; those cards score for no one."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    n = st[ST_N]
    teams = rules[R_PARTNERSHIP] != PARTNER_NONE
    for i in range(1, n):
        seat = (out_seat + i) % n
        if teams and seat % 2 == out_seat % 2:
            continue  # with teams only the opponents lay off (docs/rules-decisions.md)
        sid = lineup[seat]
        reset_turn(st)
        while hand_size(st, hands, seat) > 0:
            cand[0, :] = 0
            cand[0, A_TYPE] = ACT_STOP
            found = enumerate_plays(hands[seat, 0], st[ST_JOKERS + seat], -1, table_of(g, -1), PLAY_LAYOFF_ONLY, cand, 1, MAX_CAND)
            ncand = 1
            for j in range(1, found):
                if melds[cand[j, A_MELD], MK_CREATOR] == out_seat:
                    copy_row(cand, ncand, j)
                    ncand += 1
            if ncand == 1:
                break
            pick = choose_play(family, sid, params[seat], seat_view(g, seat), cand, ncand, rngs[seat], scratch)
            if pick == 0:
                break
            apply_play(st, hands, melds, rules, seat, cand[pick], NOBODY, trace, T_ADDOPP_LAYOFF)
