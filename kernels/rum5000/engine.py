"""The 5000 Rummy engine (RULES.md §4 and the play/scoring variations of §5).

Deal with a wild rank and face-up cards, the three draws (and Polish's fourth), plays through
``kernels.rum5000.melds``, discards, rummy calls, floating, the stall and end-of-stock endings,
scoring with bonuses, and the game to its target. Decisions go to ``strategies.rum5000.dispatch``
with the seat's own cards and public information only (C-INFO-1).

The flow functions take the game context ``g``, a ``Game5`` of the state arrays, the rules and the
work buffers built by ``new_context5``. Only the context's makers allocate, so everything else is
compiled without reference counting (``kernels.common._jit``). The pieces of a turn with a single
call site are ``njit_inline``: they end up in ``normal_turn``, which saves a call with the whole
context exploded into its fields. The three pieces of a hand (``start_hand5``, ``normal_turn``,
``score_hand5``) are calls: inlined into ``play_hand5`` they made one function whose numba
frontend alone took 7-10 s of a cold compile; as calls, 3-5 s less of it, at the same speed
(issue 19 point 4). ``g.trace`` is None outside trace mode,
which compiles every record away; in trace mode every action is recorded as in
``docs/trace-format.md`` ("5000 Rummy"), which ``sim/validate/rum5000.py`` checks independently.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.rng import STREAM_DEAL, STREAM_GAME, STREAM_SEAT, below, seed_stream, shuffle_int16
from rummysim.kernels.common.trace import record, record_cards
from rummysim.kernels.rum5000.layout import (
    ASK_CALL, ASK_CANNOT, ASK_PASS, CARD_IDS, C_SIZE, C_TYPE, DECK5, D_ALL, D_DECLINE, D_SKIP, D_STOCK, END_IDLE, END_OUT, END_STALL,
    END_STOCK, END_TURN_CAP, FT_EXCHANGE, FT_EXTRA_CARD, GO_MELD_ALL, GO_UNMELDABLE, G_CAPPED, G_CAPPED_HANDS,
    G_FIRST_DEALER, G_HANDS, G_TIED, G_TOTAL, G_TURNS, G_WINNER, H_CALLS, H_DEALER, H_DEEP_TAKES, H_FLOATS,
    H_OUT_SEAT, H_REASON, H_SCORE, H_TURNS, MAX_CAND5, MAX_MELDS5, MAX_SEATS, M_ALIVE, M_CARD, M_CRED, M_LEN,
    M_SIZE, O_FACE_UP, O_FIRST_TURN, O_HAND_SIZE, O_MUST, O_N, O_N_MELDS, O_PILE_LEN, O_SEAT, O_SIZE, O_STOCK,
    O_TOTAL, O_TURN, O_WILD, P_STOP, R5_FIRST_TURN, R5_GOING_OUT, R5_MICHIGAN, R5_MONEY, R5_MUST_GO_OUT,
    R5_PERSIAN, R5_POLISH, R5_RUMMY, R5_TARGET, T_TEAM_SCORE, UNKNOWN, PARTNER_CODE_5000, RUMMY_OFF, RUMMY_TOP, R_HAND_CAP, R_N_PLAYERS, R_TURN_CAP, SC_CALL_TOP,
    SC_DUTY, SC_FULL, S_BONUS, S_CALLS, S_DEALER, S_DISCARDED, S_DEEP, S_FIRST, S_FLOATS, S_HAND_INDEX, S_HAND_SCORE,
    S_IDLE, S_N, S_OUT, S_PILE_LEN, S_PLACED, S_PLAYED, S_SIZE, S_STALL, S_STOCK_OUT, S_STOCK_POS, S_TOTAL,
    S_TOVER, S_TPOS, S_TURN, S_WILD, T_DECK, T_DISCARD, T_DRAW_STOCK, T_EXCHANGE, T_FACE_UP, T_FLOAT,
    T_GAME_END, T_GAME_START, T_HAND_END, T_HAND_START, T_NO_DRAW, T_SCORE, T_TAKE_ALL, T_TAKE_PILE,
    T_TURN_START, END_CONCEDE, END_FOLD, G_STAKE, H_PAYOUT, H_STAKE, R5_STAKES, SESSION_HANDS, S_PAYOUT,
    S_SESSION, S_STAKE, S_CONTRIB, STAKES_DOUBLING,
    TRACE_FEATURES, T_CALL_ASK, T_EXCHANGE_ASK,
)
from rummysim.kernels.rum5000.melds import (
    Table5, apply_play5, card_placeable, copy_vector, count_cards, enumerate_plays5, fill_values, holds_none,
    is_wild, meld_out_path, natural_may_go_down, new_search5, wild_count,
)
from rummysim.kernels.rum5000.stakes import (
    staked_before_turn, staked_hand_start, staked_session_result, staked_session_start, staked_settle, stakes_played,
)
from rummysim.strategies.rum5000.betting import SV_SIZE
from rummysim.strategies.rum5000.dispatch import (
    choose5_call, choose5_discard, choose5_draw, choose5_exchange, choose5_play, new_ahead5,
)
from rummysim.strategies.rum5000.external import K_CALL, K_DISCARD, K_DRAW, K_EXCHANGE, K_PLAY, ask5

NO_DRAW_DECLINE = 0
NO_DRAW_SKIP = 2
NO_DRAW_EXTRA = 3
TURN_NORMAL = 0
TURN_CALL = 1
MAX_PLAYS = 200  # per turn; every play but a join puts a hand card down, so this is never reached
MELD_OUT_BUDGET = 400  # plays tried by the R5K-OUT-3 search before it gives up
MAX_CALLS = 64  # per discard chain (V5K-3d, V5K-4d); each call puts pile cards on the table
QH = 44
SEVEN_H = 39
TALLY_ROWS = 5  # score_hand5's per-seat rows: table, queens, sevens, held, bonus


# ----------------------------------------------------------------------------- context


Game5 = namedtuple(
    "Game5",
    "st hands pack pile melds rules grp lineup params rngs rng_deal trace obs opts cand ends face vals n_melds "
    "avail before single tally search work sv ext searching full",
)
"""The state and work arrays of one game, as the flow functions take them (``g``).

Work buffers beside the state: ``avail`` the cards a play may use, ``before`` a copy of them while
it is applied, ``single`` the one card ``card_placeable`` tests, ``tally`` the per-seat rows of
scoring, ``search`` the R5K-OUT-3 search's arrays (``melds.Search5``) and ``work`` the strategies'
play-ahead workspace (``dispatch.Ahead5``); ``sv`` the stakes view a betting policy decides from
(``stakes.stake_view``); ``ext`` the step API's switch (``ENV_FAMILY``, or None: no seat is asked
outside numba, ``strategies.rum5000.external``); ``searching`` the switch compiling ``search``
in (``dispatch.SEARCH_COMPILED``, or None when no seat plays it); ``full`` the one compiling
the rare rule paths in (``FULL_COMPILED``, or None when the rules use none)."""


FULL_COMPILED = np.zeros(0, dtype=np.int8)
"""The engine's ``full`` switch when the rules use a rare path (``batch.needs_full_engine5``: a
stakes layer, rummy calls, the upcard exchange) and in the step API's engine, else None. The
engine reaches those paths only through functions that test the switch as an argument
(``full_rummy_windows``, ``full_exchange_offers``, the ``staked_*`` of ``stakes``): numba prunes
that test by the argument's type before typing, so an engine for the other rules never compiles
them (issue 19 point 4: about a fifth of a cold compile)."""


@njit
def new_context5(rules, lineup, params, trace, ext, searching, full):
    """All state and work arrays of one game (a ``Game5``); ``trace`` is None outside trace mode,
    ``ext`` None outside the step API, ``searching`` None unless a seat plays ``search``,
    ``full`` None unless the rules use a rare path (``batch.switches5``)."""
    return Game5(
        np.zeros(S_SIZE, dtype=np.int64),  # st
        np.zeros((MAX_SEATS, CARD_IDS), dtype=np.int64),  # hands
        np.zeros(DECK5, dtype=np.int16),  # pack
        np.zeros(DECK5, dtype=np.int64),  # pile
        np.zeros((MAX_MELDS5, M_SIZE), dtype=np.int64),  # melds
        rules,
        np.full((MAX_SEATS, 14), -1, dtype=np.int64),  # grp
        lineup,
        params,
        np.zeros((MAX_SEATS, 4), dtype=np.uint64),  # rngs
        np.zeros(4, dtype=np.uint64),  # rng_deal
        trace,
        np.zeros(O_SIZE, dtype=np.int64),  # obs
        np.zeros(DECK5 + 4, dtype=np.int64),  # opts
        np.empty((MAX_CAND5, C_SIZE), dtype=np.int64),  # cand
        np.zeros(MAX_MELDS5, dtype=np.int64),  # ends
        np.zeros(MAX_SEATS, dtype=np.int64),  # face
        np.zeros(CARD_IDS, dtype=np.int64),  # vals
        np.zeros(1, dtype=np.int64),  # n_melds
        np.zeros(CARD_IDS, dtype=np.int64),  # avail
        np.zeros(CARD_IDS, dtype=np.int64),  # before
        np.zeros(CARD_IDS, dtype=np.int64),  # single
        np.zeros((TALLY_ROWS, MAX_SEATS), dtype=np.int64),  # tally
        new_search5(),
        new_ahead5(),
        np.zeros(SV_SIZE, dtype=np.int64),  # sv
        ext,
        searching,
        full,
    )


@njit_inline
def seat_table(g, seat):
    """The live table as ``seat`` plays on it (a ``melds.Table5`` of views into the context); in
    Persian 5000 its partnership's group row and meld area (V5K-9)."""
    if g.rules[R5_PERSIAN] != 0:
        return Table5(g.melds, g.n_melds, g.grp[seat % 2], g.ends, g.st[S_WILD], g.vals, seat % 2)
    return Table5(g.melds, g.n_melds, g.grp[seat], g.ends, g.st[S_WILD], g.vals, -1)


@njit_noalloc
def stock_left(st):
    return DECK5 - st[S_STOCK_POS]


@njit_noalloc
def observe5(g, seat, must):
    """Fill ``g.obs``: public information plus the seat's own situation (C-INFO-1, R5K-INFO-1)."""
    st = g.st
    obs = g.obs
    n = st[S_N]
    obs[:] = 0
    obs[O_SEAT] = seat
    obs[O_N] = n
    obs[O_STOCK] = stock_left(st)
    obs[O_PILE_LEN] = st[S_PILE_LEN]
    obs[O_N_MELDS] = g.n_melds[0]
    obs[O_WILD] = st[S_WILD]
    obs[O_MUST] = must
    obs[O_TURN] = st[S_TURN]
    obs[O_FIRST_TURN] = 1 if st[S_PLAYED + seat] == 0 else 0
    for s in range(n):
        obs[O_HAND_SIZE + s] = count_cards(g.hands[s])
        obs[O_TOTAL + s] = st[S_TOTAL + s]
        obs[O_FACE_UP + s] = g.face[s]
    if g.rules[R5_PERSIAN] != 0:  # V5K-9 [INFO]: no one is told hand sizes or the stock size
        obs[O_STOCK] = UNKNOWN
        for s in range(n):
            if s != seat:
                obs[O_HAND_SIZE + s] = UNKNOWN


# ----------------------------------------------------------------------------- deal


@njit_noalloc
def hand_size_for(card):
    """R5K-DEAL-1: 12 cards for an ace, 11 for K/Q/J/10, rank + 1 for 2..9."""
    r = card % 16
    if r == 1:
        return 12
    if r >= 10:
        return 11
    return r + 1


@njit_noalloc
def start_hand5(g):
    """R5K-WILD-1 wild rank, shuffle, R5K-DEAL-1/2 (and V5K-10's extra card)."""
    st, hands, pack, pile, rules = g.st, g.hands, g.pack, g.pile, g.rules
    rng_deal = g.rng_deal
    n = st[S_N]
    wild = below(rng_deal, 13) + 1  # AMB-37: a uniform card of 104 has a uniform rank
    st[S_WILD] = wild
    fill_values(g.vals, wild)
    i = 0
    for _ in range(2):
        for s in range(4):
            for r in range(1, 14):
                pack[i] = 16 * s + r
                i += 1
    shuffle_int16(rng_deal, pack, DECK5)
    hands[:, :] = 0
    g.grp[:, :] = -1
    g.melds[:, :] = 0
    g.ends[:] = 0
    g.n_melds[0] = 0
    dealer = st[S_DEALER]
    first = (dealer + 1) % n
    st[S_FIRST] = first
    record(g.trace, st, T_HAND_START, st[S_HAND_INDEX], dealer, DECK5, 0, first, wild, 0)
    record_cards(g.trace, st, T_DECK, 0, pack, DECK5)
    pos = 0
    for k in range(n):
        seat = (dealer + 1 + k) % n
        up = np.int64(pack[pos])
        size = hand_size_for(up)
        if k == 0 and rules[R5_FIRST_TURN] == FT_EXTRA_CARD:
            size += 1
        g.face[seat] = up
        for j in range(size):
            hands[seat, pack[pos + j]] += 1
        pos += size
        record(g.trace, st, T_FACE_UP, seat, up, size, 0, 0, 0, 0)
    st[S_PILE_LEN] = 0
    if rules[R5_FIRST_TURN] != FT_EXTRA_CARD:
        pile[0] = pack[pos]  # R5K-DEAL-2: the upcard
        st[S_PILE_LEN] = 1
        pos += 1
    st[S_STOCK_POS] = pos
    st[S_TURN] = 0
    st[S_STALL] = 0
    st[S_STOCK_OUT] = 0
    st[S_IDLE] = 0
    st[S_CALLS] = 0
    st[S_FLOATS] = 0
    st[S_DEEP] = 0
    for s in range(MAX_SEATS):
        st[S_PLAYED + s] = 0
        st[S_BONUS + s] = 0
    return first


# ----------------------------------------------------------------------------- draws


@njit_noalloc
def add_pile_cards(av, pile, k, upto):
    """Count pile[k:upto] into ``av``."""
    for i in range(k, upto):
        av[pile[i]] += 1


@njit_inline
def deep_take_legal(g, seat, k):
    """C-LEGAL-1 for R5K-DRAW-1 (c): after the take, some play puts the selected card down."""
    av = g.avail
    copy_vector(av, g.hands[seat])
    add_pile_cards(av, g.pile, k, g.st[S_PILE_LEN])
    card = g.pile[k]
    tab = seat_table(g, seat)
    if not is_wild(card, tab.wild) and not natural_may_go_down(av, tab, card, wild_count(av, tab.wild)):
        return False  # no play of the full scope could hold the card, so no duty play does (issue 19)
    return enumerate_plays5(av, card, tab, seat, SC_DUTY, g.cand, False) > 0


@njit_inline
def meld_out_plays(g, seat):
    """R5K-OUT-3: plays that put every card down this turn without drawing, into
    ``g.search.path``; returns their number, or -1 if the search finds none."""
    return meld_out_path(g.hands[seat], seat_table(g, seat), seat, MELD_OUT_BUDGET, g.search)


@njit_inline
def can_meld_out(g, seat):
    """R5K-OUT-3: can the seat put every card down this turn without drawing?"""
    if g.rules[R5_GOING_OUT] == GO_UNMELDABLE:
        return False  # V5K-5b: melding the last card floats, so it is never going out
    return meld_out_plays(g, seat) > 0


@njit_inline
def draw_options5(g, seat, first_turn):
    """The draws open to the seat (R5K-DRAW-1, V5K-5c, V5K-8, R5K-OUT-3, R5K-STOCK-1 b)."""
    st, hands, pile, rules, opts = g.st, g.hands, g.pile, g.rules, g.opts
    n = 0
    if stock_left(st) > 0:
        opts[n] = D_STOCK
    else:
        opts[n] = D_DECLINE
    n += 1
    top = st[S_PILE_LEN] - 1
    if top >= 0:
        floating = count_cards(hands[seat]) == 0
        if not floating or card_placeable(pile[top], seat_table(g, seat), seat, g.single, g.cand):
            opts[n] = top
            n += 1
        for k in range(top):
            if deep_take_legal(g, seat, k):
                opts[n] = k
                n += 1
        if rules[R5_POLISH] != 0 and top >= 1:
            opts[n] = D_ALL
            n += 1
    if first_turn and can_meld_out(g, seat):
        opts[n] = D_SKIP
        n += 1
    return n


@njit_noalloc
def take_pile5(g, seat, k):
    st, hands, pile = g.st, g.hands, g.pile
    top = st[S_PILE_LEN]
    record(g.trace, st, T_TAKE_PILE, seat, k, top - k, pile[k], 0, 0, 0)
    for i in range(k, top):
        hands[seat, pile[i]] += 1
    st[S_PILE_LEN] = k


@njit_inline
def draw_stock5(g, seat):
    st = g.st
    c = np.int64(g.pack[st[S_STOCK_POS]])
    st[S_STOCK_POS] += 1
    g.hands[seat, c] += 1
    record(g.trace, st, T_DRAW_STOCK, seat, c, 0, 0, 0, 0, 0)


@njit_inline
def take_whole_pile(g, seat):
    """V5K-8: the whole pile into the hand."""
    st = g.st
    record(g.trace, st, T_TAKE_ALL, seat, st[S_PILE_LEN], 0, 0, 0, 0, 0)
    for i in range(st[S_PILE_LEN]):
        g.hands[seat, g.pile[i]] += 1
    st[S_PILE_LEN] = 0


# ----------------------------------------------------------------------------- plays


@njit_inline
def apply_from(g, seat, act, av, must):
    """Apply a play using only the cards in ``av`` (a subset of the hand) and debit the hand."""
    before = g.before
    copy_vector(before, av)
    placed = apply_play5(act, av, seat_table(g, seat), seat, must, g.trace, g.st)
    hand = g.hands[seat]
    for c in range(CARD_IDS):
        hand[c] += av[c] - before[c]
    return placed


@njit_noalloc
def one_play(g, seat, av, must, scope, stop_ok):
    """Offer the canonical plays for ``av`` and carry out the chosen one; -1 means STOP."""
    cand = g.cand
    n = enumerate_plays5(av, must, seat_table(g, seat), seat, scope, cand, stop_ok)
    if n == 0:
        return -1
    observe5(g, seat, must)
    i = choose5_play(g.lineup[seat], g.params[seat], g.obs, cand, n, g.rngs[seat])
    i = ask5(g.ext, seat, K_PLAY, g.obs, av, g.pile, g.melds, cand, n, i)
    if cand[i, C_TYPE] == P_STOP:
        return -1
    placed = apply_from(g, seat, cand[i], av, must)
    g.st[S_PLACED] += placed
    return placed


@njit_inline
def play_from_hand(g, seat, must, scope, stop_ok):
    """``one_play`` with every card of the seat's hand."""
    copy_vector(g.avail, g.hands[seat])
    return one_play(g, seat, g.avail, must, scope, stop_ok)


@njit_noalloc
def play_phase5(g, seat):
    """R5K-PLAY-1: any number of plays in any order; True if the hand is then empty."""
    for _ in range(MAX_PLAYS):
        if holds_none(g.hands[seat]):
            return True
        if play_from_hand(g, seat, -1, SC_FULL, True) < 0:
            break
    return holds_none(g.hands[seat])


@njit_inline
def meld_out_without_drawing(g, seat):
    """R5K-OUT-3: carry out the plays the search found (it is deterministic, so it finds them again)."""
    st = g.st
    k = meld_out_plays(g, seat)
    for i in range(k):
        st[S_PLACED] += apply_play5(g.search.path[i], g.hands[seat], seat_table(g, seat), seat, -1, g.trace, st)


# ----------------------------------------------------------------------------- discards and going out


@njit_noalloc
def discard5(g, seat):
    """Choose and discard a card; returns its id."""
    st, hands, pile, opts = g.st, g.hands, g.pile, g.opts
    n = 0
    for c in range(CARD_IDS):
        if hands[seat, c] > 0:
            opts[n] = c
            n += 1
    observe5(g, seat, -1)
    i = choose5_discard(g.lineup[seat], g.searching, g.params[seat], g.obs, hands[seat], pile, seat_table(g, seat),
                        opts, n, g.rngs[seat], g.work)
    i = ask5(g.ext, seat, K_DISCARD, g.obs, hands[seat], pile, g.melds, opts, n, i)
    c = opts[i]
    hands[seat, c] -= 1
    pile[st[S_PILE_LEN]] = c
    st[S_PILE_LEN] += 1
    st[S_DISCARDED] = 1
    record(g.trace, st, T_DISCARD, seat, c, 0, 0, 0, 0, 0)
    return c


@njit_inline
def goes_out_by_discard(g, seat, card):
    """R5K-OUT-1 with V5K-5 (only an unplaceable last card) and V5K-6 (never)."""
    mode = g.rules[R5_GOING_OUT]
    if mode == GO_MELD_ALL:
        return False
    if mode == GO_UNMELDABLE:
        return not card_placeable(card, seat_table(g, seat), seat, g.single, g.cand)
    return True


@njit_noalloc
def float5(g, seat):
    g.st[S_FLOATS] += 1
    record(g.trace, g.st, T_FLOAT, seat, 0, 0, 0, 0, 0, 0)


@njit_noalloc
def finish_turn(g, seat, emptied):
    """Discard (unless the hand is empty) and apply the going-out rules; True if the seat is out."""
    if emptied:
        if g.rules[R5_GOING_OUT] == GO_UNMELDABLE:  # V5K-5b: melding the last card floats
            float5(g, seat)
            return False
        return True
    c = discard5(g, seat)
    if count_cards(g.hands[seat]) == 0:
        if goes_out_by_discard(g, seat, c):
            return True
        float5(g, seat)
    return False


@njit_noalloc
def out_bonus(st, seat, skipped):
    """R5K-OUT-2: 500 without drawing on the first turn, 300 on the first turn, else 200."""
    if st[S_PLAYED + seat] == 0:
        return 500 if skipped else 300
    return 200


# ----------------------------------------------------------------------------- turns


@njit_noalloc
def begin_turn(g, seat, kind):
    st = g.st
    record(g.trace, st, T_TURN_START, seat, st[S_TURN], stock_left(st), st[S_PILE_LEN], kind, 0, 0)
    st[S_TURN] += 1
    st[S_PLACED] = 0
    st[S_DISCARDED] = 0
    g.ends[:] = 0


@njit_noalloc
def full_exchange_offers(full, g, first):
    """``exchange_offers`` in the engine with the rare paths (``FULL_COMPILED``)."""
    if full is not None:
        exchange_offers(g, first)


@njit_inline
def exchange_offers(g, first):
    """V5K-11: clockwise from the first player's left up to the dealer, the first swap ends it (in
    trace mode each seat offered is recorded, EXCHANGE_ASK)."""
    st, hands, pile, opts = g.st, g.hands, g.pile, g.opts
    n = st[S_N]
    for j in range(1, n):
        s = (first + j) % n
        k = 1
        opts[0] = -1
        for c in range(CARD_IDS):
            if hands[s, c] > 0:
                opts[k] = c
                k += 1
        observe5(g, s, -1)
        i = choose5_exchange(g.lineup[s], g.params[s], g.obs, hands[s], pile, seat_table(g, s), opts, k, g.rngs[s],
                             g.work)
        i = ask5(g.ext, s, K_EXCHANGE, g.obs, hands[s], pile, g.melds, opts, k, i)
        record(g.trace, st, T_EXCHANGE_ASK, s, ASK_CALL if i > 0 else ASK_PASS, 0, 0, 0, 0, 0)
        if i > 0:
            given = opts[i]
            taken = pile[0]
            hands[s, given] -= 1
            hands[s, taken] += 1
            pile[0] = given
            record(g.trace, st, T_EXCHANGE, s, given, taken, 0, 0, 0, 0)
            return


@njit_inline
def end_of_turn_checks(st, stall_card, stall_count_before, stock_out_at_start):
    """R5K-DRAW-5 stall and R5K-STOCK-1 (c) idle turns; returns a hand-end reason or 0."""
    n = st[S_N]
    if stall_card >= 0:
        st[S_STALL] = stall_count_before + 1
    else:
        st[S_STALL] = 0
    if stock_out_at_start:
        st[S_IDLE] = 0 if st[S_PLACED] > 0 else st[S_IDLE] + 1
        if st[S_IDLE] >= n:
            return END_IDLE
    if stock_left(st) == 0:
        st[S_STOCK_OUT] = 1
    if st[S_STALL] >= 3 * n and stock_left(st) > 0:
        return END_STALL
    return 0


@njit_noalloc
def normal_turn(g, seat):
    """One turn of R5K-TURN-1; returns 0 to go on or a hand-end reason (END_OUT sets the bonus)."""
    st, hands, rules = g.st, g.hands, g.rules
    first_turn = st[S_PLAYED + seat] == 0
    stock_out_at_start = st[S_STOCK_OUT] == 1
    begin_turn(g, seat, TURN_NORMAL)
    if first_turn and seat == st[S_FIRST] and rules[R5_FIRST_TURN] == FT_EXTRA_CARD:
        record(g.trace, st, T_NO_DRAW, seat, NO_DRAW_EXTRA, 0, 0, 0, 0, 0)  # V5K-10: just discards
        discard5(g, seat)
        st[S_PLAYED + seat] += 1
        return 0
    opts = g.opts
    nopt = draw_options5(g, seat, first_turn)
    exchange = first_turn and seat == st[S_FIRST] and rules[R5_FIRST_TURN] == FT_EXCHANGE and st[S_TURN] == 1
    observe5(g, seat, -1)
    pick = choose5_draw(g.lineup[seat], g.searching, g.params[seat], g.obs, hands[seat], g.pile, seat_table(g, seat),
                        opts, nopt, g.rngs[seat], g.work)
    choice = opts[ask5(g.ext, seat, K_DRAW, g.obs, hands[seat], g.pile, g.melds, opts, nopt, pick)]
    stall_card = -1
    stall_before = st[S_STALL]
    skipped = False
    if choice == D_DECLINE:
        record(g.trace, st, T_NO_DRAW, seat, NO_DRAW_DECLINE, 0, 0, 0, 0, 0)
        st[S_PLAYED + seat] += 1
        return END_STOCK
    if choice == D_SKIP:
        record(g.trace, st, T_NO_DRAW, seat, NO_DRAW_SKIP, 0, 0, 0, 0, 0)
        meld_out_without_drawing(g, seat)
        skipped = True
        emptied = True
    else:
        if choice == D_STOCK:
            if exchange:
                full_exchange_offers(g.full, g, seat)
            draw_stock5(g, seat)
        elif choice == D_ALL:
            take_whole_pile(g, seat)
        else:
            top = st[S_PILE_LEN] - 1
            card = g.pile[choice]
            take_pile5(g, seat, choice)
            if choice < top:
                st[S_DEEP] += 1
                play_from_hand(g, seat, card, SC_DUTY, False)  # R5K-DRAW-2, C-TURN-4
            elif stock_left(st) > 0:
                stall_card = card
        held = hands[seat, stall_card] if stall_card >= 0 else 0
        emptied = play_phase5(g, seat)
        if stall_card >= 0 and hands[seat, stall_card] < held:
            stall_card = -1  # the drawn card was melded (R5K-DRAW-5)
    out = finish_turn(g, seat, emptied)
    if out:
        st[S_BONUS + seat] = out_bonus(st, seat, skipped)
        st[S_OUT] = seat
        st[S_PLAYED + seat] += 1
        return END_OUT
    st[S_PLAYED + seat] += 1
    return end_of_turn_checks(st, stall_card, stall_before, stock_out_at_start)


@njit_inline
def call_turn(g, seat, k):
    """A rummy call (V5K-3 top card, V5K-4 any cards): take, meld the claimed card, discard."""
    st, hands, pile, rules = g.st, g.hands, g.pile, g.rules
    stock_out_at_start = st[S_STOCK_OUT] == 1
    begin_turn(g, seat, TURN_CALL)
    st[S_CALLS] += 1
    card = pile[k]
    taken = g.avail
    taken[:] = 0
    add_pile_cards(taken, pile, k, st[S_PILE_LEN])
    take_pile5(g, seat, k)
    if rules[R5_RUMMY] == RUMMY_TOP:
        one_play(g, seat, taken, card, SC_CALL_TOP, False)  # V5K-3c: that card alone, nothing else
        emptied = count_cards(hands[seat]) == 0
    else:
        one_play(g, seat, taken, card, SC_FULL, False)  # V5K-4c: the rummy cards, no hand cards
        emptied = play_phase5(g, seat)
    out = finish_turn(g, seat, emptied)
    if out:
        st[S_BONUS + seat] = 200  # a call turn is never the seat's first turn (R5K-OUT-3)
        st[S_OUT] = seat
        return END_OUT
    if stock_out_at_start:
        st[S_IDLE] = 0 if st[S_PLACED] > 0 else st[S_IDLE] + 1
        if st[S_IDLE] >= st[S_N]:
            return END_IDLE
    return 0


@njit_inline
def call_claims(g, seat):
    """Pile indexes ``seat`` could claim now (into opts[1:], opts[0] = pass); returns the count."""
    st, pile, rules, opts = g.st, g.pile, g.rules, g.opts
    top = st[S_PILE_LEN] - 1
    n = 1
    opts[0] = -1
    if top < 0:
        return n
    tab = seat_table(g, seat)
    if rules[R5_RUMMY] == RUMMY_TOP:
        if card_placeable(pile[top], tab, seat, g.single, g.cand):
            opts[n] = top
            n += 1
        return n
    av = g.avail
    for k in range(top + 1):
        av[:] = 0
        add_pile_cards(av, pile, k, top + 1)
        if enumerate_plays5(av, pile[k], tab, seat, SC_FULL, g.cand, False) > 0:
            opts[n] = k
            n += 1
    return n


@njit_inline
def window_opens(g):
    """Whether calls may follow the turn just ended: V5K-3a only once a discard lands (a turn that
    floats after melding its last card, V5K-5b, discards nothing); V5K-4a between any turns."""
    return g.rules[R5_RUMMY] != RUMMY_TOP or g.st[S_DISCARDED] == 1


@njit_noalloc
def full_rummy_windows(full, g, discarder, in_turn):
    """``rummy_windows`` in the engine with the rare paths (``FULL_COMPILED``), else 0."""
    if full is None:
        return 0
    return rummy_windows(g, discarder, in_turn)


@njit_inline
def rummy_windows(g, discarder, in_turn):
    """V5K-3/4: calls on a discard, clockwise from the in-turn seat; returns a hand-end reason. In
    trace mode every seat reached is recorded (CALL_ASK) with its answer, in the order asked."""
    n = g.st[S_N]
    teams = g.rules[R5_PERSIAN] != 0
    last = discarder
    for _ in range(MAX_CALLS):
        caller = -1
        k = -1
        for j in range(n):
            s = (in_turn + j) % n
            if s == last:
                continue  # the discarder (V5K-3a) and the V5K-4a embargo
            if teams and s % 2 == last % 2:
                continue  # no call on a partner's discard (docs/rules-decisions.md)
            nopt = call_claims(g, s)
            if nopt <= 1:
                record(g.trace, g.st, T_CALL_ASK, s, ASK_CANNOT, -1, 0, 0, 0, 0)
                continue
            observe5(g, s, -1)
            i = choose5_call(g.lineup[s], g.params[s], g.obs, g.hands[s], g.pile, seat_table(g, s), g.opts, nopt,
                             g.rngs[s], g.work)
            i = ask5(g.ext, s, K_CALL, g.obs, g.hands[s], g.pile, g.melds, g.opts, nopt, i)
            if i > 0:
                caller = s
                k = g.opts[i]
                record(g.trace, g.st, T_CALL_ASK, s, ASK_CALL, k, nopt - 1, 0, 0, 0)
                break
            record(g.trace, g.st, T_CALL_ASK, s, ASK_PASS, -1, nopt - 1, 0, 0, 0)
        if caller < 0:
            return 0
        reason = call_turn(g, caller, k)
        if reason != 0 or not window_opens(g):
            return reason
        last = caller
    return 0


# ----------------------------------------------------------------------------- hand end and scoring


@njit_noalloc
def is_natural(card, wild):
    return card % 16 != wild


@njit_noalloc
def score_hand5(g, reason, out_seat):
    """R5K-SCORE-1 with R5K-OUT-2 bonuses, V5K-7 Michigan and V5K-12 money cards."""
    st, hands, melds, rules = g.st, g.hands, g.melds, g.rules
    n = st[S_N]
    vals = g.vals
    wild = st[S_WILD]
    money = rules[R5_MONEY] != 0
    teams = rules[R5_PERSIAN] != 0
    g.tally[:, :] = 0
    table, queens, sevens, held, bonus = g.tally[0], g.tally[1], g.tally[2], g.tally[3], g.tally[4]
    reckoned = reason != END_FOLD and reason != END_CONCEDE  # E67: a fold or concession scores nothing
    for m in range(g.n_melds[0] if reckoned else 0):
        if melds[m, M_ALIVE] == 0:
            continue
        for i in range(melds[m, M_LEN]):
            c = melds[m, M_CARD + i]
            s = melds[m, M_CRED + i]
            table[s] += vals[c]
            if c == QH and is_natural(c, wild):
                queens[s] += 1
            if c == SEVEN_H and is_natural(c, wild):
                sevens[s] += 1
    for s in range(n if reckoned else 0):
        for c in range(CARD_IDS):
            if hands[s, c] > 0:
                v = vals[c]
                if money and c == QH and reason == END_OUT and is_natural(c, wild):
                    v = 50  # V5K-12: a natural QH caught in hand when someone went out
                held[s] += hands[s, c] * v
    if reason == END_OUT:
        bonus[out_seat] = st[S_BONUS + out_seat]
        if rules[R5_MICHIGAN] != 0:  # V5K-7: the others' hand values go to the player who went out
            for s in range(n):
                if s != out_seat and not (teams and s % 2 == out_seat % 2):  # per team: the opponents'
                    bonus[out_seat] += held[s]
                    held[s] = 0
    if money:
        for s in range(n):
            bonus[s] += 100 * min(queens[s], sevens[s], 2)
    record(g.trace, st, T_HAND_END, reason, out_seat, st[S_TURN], 0, 0, 0, 0)
    for s in range(n):
        st[S_HAND_SCORE + s] = bonus[s] + table[s] - held[s]
        if not teams:
            st[S_TOTAL + s] += st[S_HAND_SCORE + s]
    if teams:  # V5K-9: partnership scores, one total in both partners' slots
        for t in range(2):
            st[S_TOTAL + t] += st[S_HAND_SCORE + t] + st[S_HAND_SCORE + t + 2]
            st[S_TOTAL + t + 2] = st[S_TOTAL + t]
    for s in range(n):
        record(g.trace, st, T_SCORE, s, st[S_HAND_SCORE + s], st[S_TOTAL + s], table[s], held[s], bonus[s], 0)
    if teams:
        for t in range(2):
            record(g.trace, st, T_TEAM_SCORE, t, st[S_HAND_SCORE + t] + st[S_HAND_SCORE + t + 2], st[S_TOTAL + t],
                   0, 0, 0, 0)


@njit_noalloc
def play_hand5(g):
    """One hand from the deal to scoring; returns (reason, out_seat, turns)."""
    st, rules = g.st, g.rules
    n = st[S_N]
    seat = start_hand5(g)
    stakes = stakes_played(g.full, rules)
    reason = staked_hand_start(g.full, g) if stakes else 0
    out_seat = -1
    while reason == 0:
        if st[S_TURN] >= rules[R_TURN_CAP]:
            reason = END_TURN_CAP
            break
        if stakes:
            reason = staked_before_turn(g.full, g, seat)
            if reason != 0:
                break
        reason = normal_turn(g, seat)
        if reason == END_OUT:
            out_seat = seat
        if reason != 0:
            break
        nxt = (seat + 1) % n
        if rules[R5_RUMMY] != RUMMY_OFF and window_opens(g):
            reason = full_rummy_windows(g.full, g, seat, nxt)
            if reason != 0:
                if reason == END_OUT:
                    out_seat = st[S_OUT]
                break
        seat = nxt
    score_hand5(g, reason, out_seat)
    if stakes:
        staked_settle(g.full, g, reason)
    return reason, out_seat, st[S_TURN]


# ----------------------------------------------------------------------------- game


@njit_noalloc
def game_result(st, n, target, must_go_out, out_seat):
    """R5K-GAME-1/2 and V5K-2: (winner or -1, tie mask, finished)."""
    if must_go_out:
        if out_seat >= 0 and st[S_TOTAL + out_seat] >= target:
            return out_seat, 0, True
        return -1, 0, False
    best = st[S_TOTAL]
    for s in range(1, n):
        best = max(best, st[S_TOTAL + s])
    if best < target:
        return -1, 0, False
    mask = 0
    count = 0
    winner = -1
    for s in range(n):
        if st[S_TOTAL + s] == best:
            mask |= 1 << s
            count += 1
            winner = s
    if count > 1:
        return -1, mask, True
    return winner, 0, True


@njit
def seed_game5(g, seed, game):
    """Per-seat decision streams and the first dealer (R5K-SETUP-3) from (seed, game)."""
    st, rules, rngs = g.st, g.rules, g.rngs
    n = rules[R_N_PLAYERS]
    for s in range(n):
        seed_stream(rngs[s], seed, game, STREAM_SEAT, s)
    rng_game = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_game, seed, game, STREAM_GAME, 0)
    st[S_N] = n
    st[S_DEALER] = below(rng_game, n)  # R5K-SETUP-3


@njit_noalloc
def store_hand_row5(row, st, rules, dealer, reason, out_seat, turns):
    row[H_DEALER] = dealer
    row[H_REASON] = reason
    row[H_OUT_SEAT] = out_seat
    row[H_TURNS] = turns
    row[H_CALLS] = st[S_CALLS]
    row[H_FLOATS] = st[S_FLOATS]
    row[H_DEEP_TAKES] = st[S_DEEP]
    n = rules[R_N_PLAYERS]
    for s in range(n):
        row[H_SCORE + s] = st[S_HAND_SCORE + s]
    if rules[R5_PERSIAN] != 0:  # both partners' columns hold the partnership's hand score
        for s in range(n):
            row[H_SCORE + s] = st[S_HAND_SCORE + s % 2] + st[S_HAND_SCORE + s % 2 + 2]
    if rules[R5_STAKES] != 0:
        row[H_STAKE] = st[S_STAKE] if rules[R5_STAKES] == STAKES_DOUBLING else st[S_CONTRIB] + st[S_CONTRIB + 1]
        for s in range(2):
            row[H_PAYOUT + s] = st[S_PAYOUT + s]


@njit
def play_game5(rules, lineup, params, seed, game, out_game, out_hands, trace, ext, searching, full):
    """Play one game of 5000 Rummy to its target (or the hand cap); fills out_game and out_hands.

    Returns (trace rows used, overflowed); ``trace`` is None outside trace mode, ``ext`` None
    outside the step API (``strategies.rum5000.external``), ``searching`` None unless a seat plays
    ``search`` (``dispatch.SEARCH_COMPILED``), ``full`` None unless the rules use a rare path
    (``FULL_COMPILED``).
    """
    g = new_context5(rules, lineup, params, trace, ext, searching, full)
    st = g.st
    n = rules[R_N_PLAYERS]
    seed_game5(g, seed, game)
    out_game[:] = 0
    out_game[G_FIRST_DEALER] = st[S_DEALER]
    stakes = stakes_played(full, rules)
    record(trace, st, T_GAME_START, n, st[S_DEALER], game & 0x7FFFFFFF, 0 if stakes else rules[R5_TARGET], 2,
           PARTNER_CODE_5000 if rules[R5_PERSIAN] != 0 else 0, rules[R5_STAKES] | TRACE_FEATURES)
    if stakes:
        staked_session_start(full, g, seed, game)
    winner = -1
    tied = 0
    turns = 0
    capped_hands = 0
    finished = False
    h = 0
    while h < rules[R_HAND_CAP]:
        st[S_HAND_INDEX] = h
        seed_stream(g.rng_deal, seed, game, STREAM_DEAL, h)
        dealer = st[S_DEALER]
        reason, out_seat, hand_turns = play_hand5(g)
        turns += hand_turns
        if reason == END_TURN_CAP:
            capped_hands += 1
        if out_hands.shape[0] > 0:
            store_hand_row5(out_hands[h], st, rules, dealer, reason, out_seat, hand_turns)
        h += 1
        st[S_DEALER] = (dealer + 1) % n  # R5K-DEAL-3
        if stakes:  # V5K-13/14: a session of two hands, won in stake (E71)
            winner, tied = staked_session_result(full, st)
            finished = h == SESSION_HANDS
        elif rules[R5_PERSIAN] != 0:  # V5K-9: the two team totals (team t's is seat t's)
            winner, tied, finished = game_result(st, 2, rules[R5_TARGET], rules[R5_MUST_GO_OUT] != 0,
                                                 out_seat % 2 if out_seat >= 0 else -1)
            tied = 0b1111 if tied != 0 else 0
        else:
            winner, tied, finished = game_result(st, n, rules[R5_TARGET], rules[R5_MUST_GO_OUT] != 0, out_seat)
        if finished:
            break
    capped = 0 if finished else 1
    record(trace, st, T_GAME_END, winner, h, capped, tied, 0, 0, 0)
    out_game[G_WINNER] = winner
    out_game[G_TIED] = tied
    out_game[G_HANDS] = h
    out_game[G_TURNS] = turns
    out_game[G_CAPPED] = capped
    out_game[G_CAPPED_HANDS] = capped_hands
    for s in range(n):
        out_game[G_TOTAL + s] = st[S_TOTAL + s]
    if stakes:
        for s in range(2):
            out_game[G_STAKE + s] = st[S_SESSION + s]
    return st[S_TPOS], st[S_TOVER]


@njit
def play_single_hand5(rules, lineup, params, seed, index, out_hand, searching, full):
    """``--unit hands``: one independent hand from zero totals with a random dealer."""
    g = new_context5(rules, lineup, params, None, None, searching, full)
    st = g.st
    seed_game5(g, seed, index)
    seed_stream(g.rng_deal, seed, index, STREAM_DEAL, 0)
    dealer = st[S_DEALER]
    reason, out_seat, turns = play_hand5(g)
    store_hand_row5(out_hand, st, rules, dealer, reason, out_seat, turns)
