"""The stakes layers of 5000 Rummy: Doubling (V5K-13) and Limit-Poker 5000 (V5K-14).

Both are 2-player sessions of two hands (docs/rules-decisions.md E65-E73). The engine calls in at
four points: the session start (``session_start``: the modelled first-dealer tie), each hand's
start after the deal (``hand_stakes_start``: the stake, or the antes and the betting round),
before each normal turn (``before_turn``: a double and its answer, or a concession) and after the
hand's scoring (``settle_hand``). A fold or a concession ends the hand: those functions return the
hand-end reason (END_FOLD, END_CONCEDE), else 0. Decisions are the seats' betting policies
(``strategies.rum5000.betting``), given the seat's stakes view only (``stake_view``). Every action
is recorded as in docs/trace-format.md ("Stakes").
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.rng import STREAM_GAME, below, seed_stream
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum5000.layout import (
    CARD_IDS, END_CONCEDE, END_FOLD, MAX_STAKE, M_ALIVE, M_CARD, M_CRED, M_LEN, R5_STAKES, SESSION_HANDS,
    STAKES_DOUBLING, STAKES_POKER, S_AUTO_DOUBLE, S_CONTRIB, S_DEALER, S_FIRST, S_HAND_INDEX, S_HAND_SCORE,
    S_LAST_DOUBLER, S_LOSER, S_PAYOUT, S_RAISES, S_SESSION, S_STAKE, S_WILD, T_ANTE, T_BEAVER, T_BET, T_CALL,
    T_CHECK, T_CONCEDE, T_DOUBLE, T_DOUBLE_FOLD, T_DOUBLE_TAKE, T_HAND_STAKE, T_PAYOUT, T_RAISE, T_STAKES_START,
)
from rummysim.strategies.rum5000.betting import (
    ACT_BET, ACT_CALL, ACT_CHECK, ACT_CONCEDE, ACT_RAISE, ANSWER_BEAVER, ANSWER_FOLD, MAX_CHIPS, SV_BET_MADE,
    SV_CAN_RAISE, SV_MY_CARDS, SV_MY_TABLE, SV_MY_WILDS, SV_OPP_CARDS, SV_OPP_TABLE, SV_TO_CALL, answer_double,
    round_action, wants_concede, wants_double,
)

TIE_SUBSTREAM = 1  # STREAM_GAME sub-stream of the first-dealer tie; sub-stream 0 draws the dealer
SAME_RANK_OUTS = 7  # of the 103 cards left after one is drawn, 7 share its rank (two decks)
MAX_ROUND_ACTIONS = 16  # a round is at most 1 bet, 4 raises and a call, with two checks before
CONCEDE_IN_ROUND = 0
CONCEDE_IN_PLAY = 1
RAISES_PER_HAND = 2


@njit
def first_dealer_tie(seed, game):
    """V5K-13: the two first-dealer draws tie (same rank) with chance 7/103 (E73); 0 or 1."""
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream(rng, seed, game, STREAM_GAME, TIE_SUBSTREAM)
    return 1 if below(rng, 103) < SAME_RANK_OUTS else 0


@njit_noalloc
def session_start(g, auto_double):
    """STAKES_START; the session totals start at 0."""
    st = g.st
    mode = g.rules[R5_STAKES]
    st[S_AUTO_DOUBLE] = auto_double if mode == STAKES_DOUBLING else 0
    st[S_SESSION] = 0
    st[S_SESSION + 1] = 0
    record(g.trace, st, T_STAKES_START, mode, st[S_AUTO_DOUBLE], SESSION_HANDS, 1, 0, 0, 0)


@njit_noalloc
def stake_view(g, seat, sv):
    """The seat's stakes view (strategies.rum5000.betting SV_*): its own hand, the public table
    and hand sizes, and the betting round's state; nothing of the opponent's hidden cards."""
    st, melds, hands = g.st, g.melds, g.hands
    opp = 1 - seat
    sv[:] = 0
    for m in range(g.n_melds[0]):
        if melds[m, M_ALIVE] == 0:
            continue
        for i in range(melds[m, M_LEN]):
            s = melds[m, M_CRED + i]
            v = g.vals[melds[m, M_CARD + i]]
            if s == seat:
                sv[SV_MY_TABLE] += v
            elif s == opp:
                sv[SV_OPP_TABLE] += v
    wild = st[S_WILD]
    for c in range(CARD_IDS):
        sv[SV_MY_CARDS] += hands[seat, c]
        sv[SV_OPP_CARDS] += hands[opp, c]
        if c % 16 == wild:
            sv[SV_MY_WILDS] += hands[seat, c]
    sv[SV_TO_CALL] = st[S_CONTRIB + opp] - st[S_CONTRIB + seat]
    sv[SV_CAN_RAISE] = 1 if st[S_RAISES + seat] < RAISES_PER_HAND else 0


# ----------------------------------------------------------------------------- hand start


@njit_noalloc
def hand_stakes_start(g):
    """After the deal and the upcard: the stake (Doubling) or the antes and the betting round."""
    st = g.st
    st[S_LOSER] = -1
    st[S_PAYOUT] = 0
    st[S_PAYOUT + 1] = 0
    if g.rules[R5_STAKES] == STAKES_DOUBLING:
        st[S_STAKE] = 2 if st[S_HAND_INDEX] == 0 and st[S_AUTO_DOUBLE] == 1 else 1  # E66
        st[S_LAST_DOUBLER] = -1
        record(g.trace, st, T_HAND_STAKE, st[S_STAKE], 0, 0, 0, 0, 0, 0)
        return 0
    first = st[S_FIRST]
    for s in range(2):
        st[S_CONTRIB + s] = 0
        st[S_RAISES + s] = 0
    for s in (first, st[S_DEALER]):
        st[S_CONTRIB + s] = 1
        record(g.trace, st, T_ANTE, s, 1, pot(st), 0, 0, 0, 0)
    return betting_round(g, first)


@njit_noalloc
def pot(st):
    return st[S_CONTRIB] + st[S_CONTRIB + 1]


@njit_noalloc
def betting_round(g, first):
    """V5K-14's one betting round, opened by the non-dealer; returns END_CONCEDE or 0."""
    st, sv = g.st, g.sv
    seat = first
    checks = 0
    bet_made = 0
    for _ in range(MAX_ROUND_ACTIONS):
        stake_view(g, seat, sv)
        sv[SV_BET_MADE] = bet_made
        act, amount = round_action(g.params[seat], sv)
        amount = min(MAX_CHIPS, max(1, amount))
        to_call = sv[SV_TO_CALL]
        if act == ACT_CONCEDE:
            return concede(g, seat, CONCEDE_IN_ROUND)
        if to_call == 0:
            if act == ACT_BET and bet_made == 0:
                st[S_CONTRIB + seat] += amount
                bet_made = 1
                record(g.trace, st, T_BET, seat, amount, pot(st), 0, 0, 0, 0)
            else:
                record(g.trace, st, T_CHECK, seat, 0, 0, 0, 0, 0, 0)
                checks += 1
                if checks == 2:
                    return 0  # neither bet in the first two actions
        elif act == ACT_RAISE and st[S_RAISES + seat] < RAISES_PER_HAND:
            st[S_CONTRIB + seat] += to_call + amount
            st[S_RAISES + seat] += 1
            record(g.trace, st, T_RAISE, seat, to_call, amount, pot(st), 0, 0, 0)
        else:
            st[S_CONTRIB + seat] += to_call
            record(g.trace, st, T_CALL, seat, to_call, pot(st), 0, 0, 0, 0)
            return 0
        seat = 1 - seat
    return 0


@njit_noalloc
def concede(g, seat, phase):
    st = g.st
    st[S_LOSER] = seat
    record(g.trace, st, T_CONCEDE, seat, pot(st), phase, 0, 0, 0, 0)
    return END_CONCEDE


# ----------------------------------------------------------------------------- during play


@njit_noalloc
def before_turn(g, seat):
    """Before ``seat``'s normal turn: the other seat may double (and ``seat`` answers), or, in
    Limit-Poker, ``seat`` may concede. Returns END_FOLD, END_CONCEDE or 0."""
    if g.rules[R5_STAKES] == STAKES_POKER:
        stake_view(g, seat, g.sv)
        if wants_concede(g.params[seat], g.sv):
            return concede(g, seat, CONCEDE_IN_PLAY)
        return 0
    return double_window(g, 1 - seat, seat)


@njit_noalloc
def double_window(g, doubler, doubled):
    """V5K-13: ``doubler`` may double just before ``doubled`` draws, not twice in a row."""
    st, sv = g.st, g.sv
    stake = st[S_STAKE]
    if st[S_LAST_DOUBLER] == doubler or 2 * stake > MAX_STAKE:
        return 0
    stake_view(g, doubler, sv)
    if not wants_double(g.params[doubler], sv):
        return 0
    offered = 2 * stake
    record(g.trace, st, T_DOUBLE, doubler, offered, 0, 0, 0, 0, 0)
    stake_view(g, doubled, sv)
    answer = answer_double(g.params[doubled], sv)
    if answer == ANSWER_FOLD:
        st[S_LOSER] = doubled
        record(g.trace, st, T_DOUBLE_FOLD, doubled, stake, 0, 0, 0, 0, 0)
        return END_FOLD
    st[S_LAST_DOUBLER] = doubler  # a beaver keeps the doubled seat's right to double next (E68)
    if answer == ANSWER_BEAVER and 2 * offered <= MAX_STAKE:
        st[S_STAKE] = 2 * offered
        record(g.trace, st, T_BEAVER, doubled, st[S_STAKE], 0, 0, 0, 0, 0)
    else:
        st[S_STAKE] = offered
        record(g.trace, st, T_DOUBLE_TAKE, doubled, offered, 0, 0, 0, 0, 0)
    return 0


# ----------------------------------------------------------------------------- settlement


@njit_noalloc
def gammon_multiplier(d):
    """V5K-13: x1, x2 when losing by 250-495, x3 by 500 or more (the hand's difference: E65)."""
    if d >= 500:
        return 3
    if d >= 250:
        return 2
    return 1


@njit_noalloc
def settle_hand(g, reason):
    """This hand's amounts per seat into S_PAYOUT and the session totals, then the PAYOUT records."""
    st = g.st
    loser = st[S_LOSER]
    mult = 0
    if g.rules[R5_STAKES] == STAKES_DOUBLING:
        hand_stake = st[S_STAKE]
        amount = 0
        if reason == END_FOLD:
            amount = st[S_STAKE]
        else:
            d = st[S_HAND_SCORE] - st[S_HAND_SCORE + 1]
            if d != 0:
                loser = 1 if d > 0 else 0
                mult = gammon_multiplier(abs(d))
                amount = st[S_STAKE] * mult
    else:
        hand_stake = pot(st)
        if reason != END_CONCEDE:
            d = st[S_HAND_SCORE] - st[S_HAND_SCORE + 1]
            loser = -1 if d == 0 else (1 if d > 0 else 0)
        amount = st[S_CONTRIB + loser] if loser >= 0 else 0
    for s in range(2):
        if loser < 0:
            st[S_PAYOUT + s] = 0
        else:
            st[S_PAYOUT + s] = -amount if s == loser else amount
        st[S_SESSION + s] += st[S_PAYOUT + s]
    for s in range(2):
        record(g.trace, st, T_PAYOUT, s, st[S_PAYOUT + s], st[S_SESSION + s], mult, hand_stake, 0, 0)


@njit_noalloc
def session_result(st):
    """(winner or -1, tie mask): the seat ahead in stake after the session (E71)."""
    a, b = st[S_SESSION], st[S_SESSION + 1]
    if a == b:
        return -1, 3
    return (0 if a > b else 1), 0


# ----------------------------------------------------------------------------- the engine's switch

# The engine reaches this module only through the functions below, which test the engine's ``full``
# switch (``engine.FULL_COMPILED`` when the rules use a rare path, a stakes layer among them, else
# None) as an argument: numba prunes that test by the argument's type before typing, so an engine
# for rules without stakes never compiles the stakes layers and the betting policies (issue 19
# point 4).


@njit_noalloc
def stakes_played(full, rules):
    """The rules play a stakes layer (V5K-13/14), in an engine compiled with the rare paths."""
    if full is None:
        return False
    return rules[R5_STAKES] != 0


@njit
def staked_session_start(full, g, seed, game):
    """``session_start`` with the modelled first-dealer tie, in the engine with the rare paths."""
    if full is not None:
        session_start(g, first_dealer_tie(seed, game))


@njit_noalloc
def staked_hand_start(full, g):
    """``hand_stakes_start`` in the engine with the rare paths, else 0."""
    if full is None:
        return 0
    return hand_stakes_start(g)


@njit_noalloc
def staked_before_turn(full, g, seat):
    """``before_turn`` in the engine with the rare paths, else 0."""
    if full is None:
        return 0
    return before_turn(g, seat)


@njit_noalloc
def staked_settle(full, g, reason):
    """``settle_hand`` in the engine with the rare paths."""
    if full is not None:
        settle_hand(g, reason)


@njit_noalloc
def staked_session_result(full, st):
    """``session_result`` in the engine with the rare paths, else (-1, 0)."""
    if full is None:
        return -1, 0
    return session_result(st)
