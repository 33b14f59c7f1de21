"""The 500 Rum engine: one game or one hand from the deal to the score, over a game context.

500 Rum (RULES.md §2) with its variations (§3) and Standard Rummy (§7), as pure functions over the
state arrays described in ``kernels.rum500.layout``; the rules arrive as an int64 vector (``R_*``).
The game is split by concern: ``deal`` (streams, pack, deal), ``turn`` (draw, plays, discard),
``windows`` (rummy calls and out-of-turn windows), ``opening`` (legality and the V500-OPEN30
search), ``table`` (melds and lay-offs), ``duties`` and ``view`` (what the seat owes and sees),
``gambit`` (Dealer's gambit: the dealer's joker, the nomination, splits, blocks), ``scoring``; this module holds the game context and plays hands and games. Each decision is
delegated to ``strategies.dispatch`` with an observation that holds only what the seat may know
(C-INFO-1): its own hand, the table, the pile, hand sizes, the stock size and the scores.

The flow functions take the game context ``g``, a ``Game`` tuple of the state arrays, the rules
and the work buffers (see ``new_context``), and ``stack``: None in the lean engine, whose
``stack is not None`` branches (calls, out-of-turn windows, V500-ADDOPP-2 lay-offs, V500-UPCHOICE,
the V500-OPEN30 search, reshuffles) are pruned at compile time (see ``variation_stack``); the
context's ``family`` does the same for the strategies other than greedy and random
(``strategies.dispatch``). In trace mode (a trace buffer with rows) every action is
recorded as documented in ``docs/trace-format.md``; ``rummysim.validate`` replays those traces
independently.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.rng import STREAM_DEAL, seed_stream
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.cards import natural_value_table
from rummysim.kernels.rum500.deal import seed_game, start_hand
from rummysim.kernels.rum500.gambit import start_gambit
from rummysim.kernels.rum500.layout import (
    A_SIZE, CALL_LAYOFF, CALL_OFF, DEALER_WINNER, END_OUT, END_TURN_CAP, EOS_RESHUFFLE, GAME_STANDARD, G_CAPPED,
    G_CAPPED_HANDS, G_FIRST_DEALER, G_HANDS, G_TOTAL, G_TURNS, G_WINNER, H_CALLS, H_DEALER,
    H_DEEP_TAKES, H_FLOATS, H_OUT_SEAT, H_REASON, H_SCORE, H_TURNS, MAX_CAND, MAX_MELDS, MAX_PACK,
    MAX_SEATS, MK_SIZE, OB_SIZE, PARTNER_NONE, PARTNER_PERSIAN, PERSIAN_DEALS, R_PARTNERSHIP, G_TIED, R_ACE_LOW_VALUE, R_ADDOPP, R_CALL, R_FIRST_MELD_MIN, R_GAME, R_GAME_HANDS,
    R_END_OF_STOCK, R_GAMBIT, R_HAND_CAP, R_NEXT_DEALER, R_N_PLAYERS, R_OUT_OF_TURN, R_TARGET, R_TURN_CAP, R_UPCHOICE,
    ST_CALLS, ST_DEALER, ST_DEEP_TAKES, ST_FLOATS, ST_HAND_INDEX, ST_HAND_SCORE, ST_N, ST_SEAT,
    ST_SIZE, ST_TOTAL, ST_TOVER, ST_TPOS, ST_TURN, TRACE_FEATURES, T_GAME_END, T_GAME_START, T_HAND_END,
)
from rummysim.kernels.rum500.opening import DFS_CAND, DFS_DEPTH
from rummysim.kernels.rum500.scoring import game_winner, persian_game_end, score_hand, team_game_winner, tie_mask, unique_best
from rummysim.kernels.rum500.turn import TURN_CALL, TURN_NORMAL, play_turn, start_pile_by_choice
from rummysim.kernels.rum500.windows import addopp_window, out_of_turn_window, rummy_window


Game = namedtuple(
    "Game",
    "st hands pack pile melds rules vals ace_low lineup params rngs rng_deal trace obs mine opts cand scratch budget family",
)
"""The state and work arrays of one game, as the flow functions take them (``g``)."""

Setup = namedtuple("Setup", "rules vals ace_low lineup params full family")
"""What every game of a batch shares: the rules vector, its card values and ace-low value, each
seat's strategy id and parameter row, and the two compile-time switches (``full``: see
``variation_stack``; ``family``: ``strategies.dispatch.family_switch``)."""


@njit
def new_setup(rules, lineup, params, full, family):
    """The ``Setup`` of a batch, with the card values of its rules."""
    return Setup(rules, natural_value_table(rules), rules[R_ACE_LOW_VALUE], lineup, params, full, family)


@njit
def new_context(setup, trace):
    """All state and work arrays of one game (a ``Game``)."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    pack = np.zeros(MAX_PACK, dtype=np.int16)
    pile = np.zeros(MAX_PACK, dtype=np.int16)
    melds = np.zeros((MAX_MELDS, MK_SIZE), dtype=np.int16)
    rngs = np.zeros((MAX_SEATS, 4), dtype=np.uint64)
    rng_deal = np.zeros(4, dtype=np.uint64)
    obs = np.zeros(OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    opts = np.zeros(MAX_PACK + 2, dtype=np.int64)
    cand = np.empty((MAX_CAND, A_SIZE), dtype=np.int64)
    scratch = np.empty((MAX_CAND, A_SIZE), dtype=np.int64)
    budget = np.zeros(1, dtype=np.int64)
    return Game(st, hands, pack, pile, melds, setup.rules, setup.vals, setup.ace_low, setup.lineup, setup.params, rngs,
                rng_deal, trace, obs, mine, opts, cand, scratch, budget, setup.family)


@njit_noalloc
def uses_rare_paths(rules):
    """Do the rules use a path only the full engine compiles: calls, out-of-turn melding,
    V500-ADDOPP-2 lay-offs, V500-UPCHOICE, V500-OPEN30, V500-STOCKEND reshuffles, Dealer's gambit,
    Persian rummy (``kernels.rum500.batch.needs_full_engine``)?"""
    return (rules[R_PARTNERSHIP] == PARTNER_PERSIAN or rules[R_CALL] != CALL_OFF or rules[R_OUT_OF_TURN] != 0
            or rules[R_ADDOPP] != 0 or rules[R_UPCHOICE] != 0 or rules[R_FIRST_MELD_MIN] > 0
            or rules[R_END_OF_STOCK] == EOS_RESHUFFLE or rules[R_GAMBIT] != 0)


@njit
def variation_stack(rules, full):
    """Work rows of the rare variation paths (the V500-OPEN30 search uses them), or None.

    ``full`` is None when the rules use none of those paths (``uses_rare_paths``): the stack is
    then None too, and every ``stack is not None`` branch of the engine is pruned at compile time,
    so the lean engine never compiles calls, windows or the opening search. Rules that need them
    are refused there rather than played without them.
    """
    if full is None:
        if uses_rare_paths(rules):
            raise ValueError("these rules need the full engine (kernels.rum500.batch.engine_rules)")
        return None
    depth = DFS_DEPTH if rules[R_FIRST_MELD_MIN] > 0 else 0
    return np.empty((depth, DFS_CAND, A_SIZE), dtype=np.int64)


@njit_noalloc
def play_hand(g, stack):
    """Deal and play one hand to its end; returns (reason, seat that went out or -1, turns)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace)
    if stack is not None and rules[R_GAMBIT] != 0:
        start_gambit(g)  # V500-GAMBIT-1/3: before anyone looks at a hand
    if stack is not None and rules[R_UPCHOICE] != 0:
        start_pile_by_choice(g)
    n = st[ST_N]
    cap = rules[R_TURN_CAP]
    calls = rules[R_CALL] != CALL_OFF
    seat = st[ST_SEAT]
    reason = 0
    out_seat = -1
    while True:
        st[ST_SEAT] = seat
        reason, discarded = play_turn(g, stack, seat, TURN_NORMAL, -1)
        st[ST_TURN] += 1
        if reason != 0:
            if reason == END_OUT:
                out_seat = seat
            break
        nxt = (seat + 1) % n
        discarder = seat
        while stack is not None and discarded:
            discarded = False
            if calls:
                caller, k = rummy_window(g, stack, discarder)
                if caller >= 0:
                    st[ST_SEAT] = caller
                    reason, discarded = play_turn(g, stack, caller, TURN_CALL, k)
                    st[ST_TURN] += 1
                    if reason != 0:
                        if reason == END_OUT:
                            out_seat = caller
                        break
                    # V500-RUMMY-3: the caller's left plays next; RUMMY-6: the discarder's left
                    nxt = (discarder + 1) % n if rules[R_CALL] == CALL_LAYOFF else (caller + 1) % n
                    discarder = caller
                    continue
            if rules[R_OUT_OF_TURN] != 0:
                reason, out_seat = out_of_turn_window(g, stack, discarder)
                if reason != 0:
                    break
        if reason != 0:
            break
        if st[ST_TURN] >= cap:
            reason = END_TURN_CAP
            break
        seat = nxt
    if stack is not None and reason == END_OUT and rules[R_ADDOPP] != 0:
        addopp_window(g, out_seat)
    record(trace, st, T_HAND_END, reason, out_seat, st[ST_TURN], 0, 0, 0, 0)
    score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace)
    return reason, out_seat, st[ST_TURN]


@njit_inline
def store_hand_row(row, st, rules, dealer, reason, out_seat, turns):
    row[H_DEALER] = dealer
    row[H_REASON] = reason
    row[H_OUT_SEAT] = out_seat
    row[H_TURNS] = turns
    row[H_CALLS] = st[ST_CALLS]
    row[H_FLOATS] = st[ST_FLOATS]
    row[H_DEEP_TAKES] = st[ST_DEEP_TAKES]
    n = rules[R_N_PLAYERS]
    for s in range(n):
        row[H_SCORE + s] = st[ST_HAND_SCORE + s]
    if rules[R_PARTNERSHIP] != PARTNER_NONE:  # both partners' columns hold the team's hand score
        for s in range(n):
            row[H_SCORE + s] = st[ST_HAND_SCORE + s % 2] + st[ST_HAND_SCORE + s % 2 + 2]


@njit
def play_game(setup, seed, game, out_game, out_hands, trace):
    """Play one game to its end (or the hand cap). Fills out_game (G_*) and out_hands rows.

    The setup's ``full`` selects the engine: None for the lean one (see ``variation_stack``), an
    array for all variation paths; its ``family`` likewise the strategies.
    """
    rules = setup.rules
    g = new_context(setup, trace)
    stack = variation_stack(rules, setup.full)
    st = g.st
    rng_deal = g.rng_deal
    n = rules[R_N_PLAYERS]
    seed_game(g, seed, game)
    standard = rules[R_GAME] == GAME_STANDARD
    partnership = rules[R_PARTNERSHIP]
    tied = 0
    out_game[:] = 0
    out_game[G_FIRST_DEALER] = st[ST_DEALER]
    record(trace, st, T_GAME_START, n, st[ST_DEALER], game & 0x7FFFFFFF, rules[R_TARGET], rules[R_GAME], partnership,
           rules[R_GAMBIT] | TRACE_FEATURES)
    winner = -1
    turns = 0
    capped_hands = 0
    finished = False
    h = 0
    while h < rules[R_HAND_CAP]:
        st[ST_HAND_INDEX] = h
        seed_stream(rng_deal, seed, game, STREAM_DEAL, h)  # the deal of hand h never depends on play
        dealer = st[ST_DEALER]
        reason, out_seat, hand_turns = play_hand(g, stack)
        turns += hand_turns
        if reason == END_TURN_CAP:
            capped_hands += 1
        if out_hands.shape[0] > 0:
            store_hand_row(out_hands[h], st, rules, dealer, reason, out_seat, hand_turns)
        h += 1
        if rules[R_NEXT_DEALER] == DEALER_WINNER and out_seat >= 0:
            st[ST_DEALER] = out_seat  # V500-WINNERDEALS
        elif rules[R_GAMBIT] != 0:
            st[ST_DEALER] = (dealer + n - 1) % n  # V500-GAMBIT-2: the deal passes to the right
        else:
            st[ST_DEALER] = (dealer + 1) % n  # R500-DEAL-3
        if standard:
            if h >= rules[R_GAME_HANDS]:  # RSTD-GAME-1
                best = st[ST_TOTAL]
                for s in range(1, n):
                    best = max(best, st[ST_TOTAL + s])
                winner = unique_best(st, n, best)
                tied = tie_mask(st, n, best)  # RSTD-GAME-1: a shared highest total is a draw
                finished = True
                break
        elif partnership == PARTNER_PERSIAN:
            if h >= PERSIAN_DEALS:  # V500-PERSIAN-5: exactly two deals
                winner, tied = persian_game_end(st, trace)
                finished = True
                break
        elif partnership != PARTNER_NONE:
            winner = team_game_winner(st, rules, out_seat)
            if winner >= 0:
                finished = True
                break
        else:
            winner = game_winner(st, rules, n, out_seat)
            if winner >= 0:
                finished = True
                break
    capped = 0 if finished else 1
    record(trace, st, T_GAME_END, winner, h, capped, tied, 0, 0, 0)
    out_game[G_WINNER] = winner
    out_game[G_HANDS] = h
    out_game[G_TURNS] = turns
    out_game[G_CAPPED] = capped
    out_game[G_CAPPED_HANDS] = capped_hands
    out_game[G_TIED] = tied
    for s in range(n):
        out_game[G_TOTAL + s] = st[ST_TOTAL + s]
    return st[ST_TPOS], st[ST_TOVER]


@njit
def play_single_hand(setup, seed, index, out_hand):
    """``--unit hands``: one independent hand from zero totals with a random dealer."""
    g = new_context(setup, None)
    stack = variation_stack(setup.rules, setup.full)
    st = g.st
    seed_game(g, seed, index)
    seed_stream(g.rng_deal, seed, index, STREAM_DEAL, 0)
    dealer = st[ST_DEALER]
    reason, out_seat, turns = play_hand(g, stack)
    store_hand_row(out_hand, st, setup.rules, dealer, reason, out_seat, turns)
