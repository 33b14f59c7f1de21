"""The Rummikub engine (RULES.md §6): deal, turns, round end and scoring, the game over its rounds.

A round: the pool is shuffled, each seat takes a public first tile (the highest number plays first,
a joker above 13, ties at random: AMB-41) and 13 more (RKUB-SETUP-1/2); then each turn the seat
either plays (the initial meld first, RKUB-INIT-30/2, then any rearrangement, RKUB-MANIP-1) or
draws, and passes once the pool is empty; the round ends when a rack empties (RKUB-END-1) or after
``n`` passes in a row (RKUB-END-2, AMB-42). Decisions come from ``strategies.rummikub.dispatch``
with the seat's own rack and public information only (C-INFO-1); every table they return comes
from the exact solver, so it is valid by construction (``rkub_invalid_turn = reject``).

The flow functions take the game context ``g``, an ``RkGame`` made by ``new_context``. ``g.trace``
is None outside trace mode, which compiles every record away; in trace mode every action is
recorded as docs/trace-format.md ("Rummikub") says.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.rng import STREAM_DEAL, STREAM_SEAT, below, seed_stream, shuffle_int16
from rummysim.kernels.common.trace import record, record_cards
from rummysim.kernels.rummikub.layout import (
    CB_DESIG, CB_FROM, CB_KEY, CB_KIND, CB_LEN, CB_LO, CB_RACK, CB_SIZE, CB_TILE, END_OUT, END_STOCK,
    END_TURN_CAP, G_CAPPED, G_CAPPED_HANDS, G_FIRST_DEALER, G_HANDS, G_TIED, G_TOTAL, G_TURNS, G_WINNER,
    H_DEALER, H_DRAWS, H_OUT_SEAT, H_PENALTIES, H_UNPROVEN, H_REASON, H_RETRIEVED, H_SCORE, H_TURNS, INITIAL_MIN,
    INVALID_PENALTY_DRAW3,
    JOKER, KIND_GROUP, KIND_RUN, MAX_COMBOS, MAX_SEATS, O_FIRST_TILE, O_MELDED, O_N, O_N_COMBOS, O_POOL,
    O_RACK_SIZE, O_SEAT, O_SIZE, O_TOTAL, O_TURN, PENALTY_DRAW, POOL, R_HAND_CAP, R_N_PLAYERS, R_TURN_CAP,
    RACK_START, RK_DIRECTION, RK_INVALID_TURN, RK_JOKER_PENALTY, RK_MANIPULATE_INITIAL, RK_ROUNDS, S_DIR,
    S_DRAWS, S_FIRST, S_FIRST_TILE, S_MELDED, S_N, S_N_COMBOS, S_PASSES, S_PENALTIES, S_POOL_POS, S_RETRIEVED, S_UNPROVEN,
    S_ROUND, S_ROUND_SCORE, S_SIZE, S_TOTAL, S_TOVER, S_TPOS, S_TURN, T_ATTEMPT, T_COMBO, T_DECK, T_DRAW_STOCK,
    T_FIRST_TILE, T_GAME_END, T_GAME_START, T_HAND_END, T_HAND_START, T_INITIAL, T_PASS, T_PENALTY, T_SCORE,
    T_TABLE, T_TILE, T_TURN_START, TILE_IDS,
)
from rummysim.kernels.rummikub.state import M_OVERFLOW, new_solver
from rummysim.kernels.rummikub.table import combo_jokers, combo_value, copy_table, mark_rack, rack_value
from rummysim.strategies.rummikub.dispatch import RkView, choose_blunder, choose_initial, choose_play
from rummysim.strategies.rummikub.external import ask_play

GAME_CODE = 3
JOKER_RANK = 14  # AMB-41: a first-tile joker ranks above 13


RkGame = namedtuple(
    "RkGame",
    "st racks pool table new rules lineup params rngs rng_deal trace obs ws counts ext",
)
"""The state and work arrays of one game (``g``): the state scalars (``S_*``), the racks (counts
by tile id), the shuffled pool, the table rows (``CB_*``), ``new`` (the table a play leaves, before
it replaces the table), the rules vector, lineup and parameters, the per-seat decision streams and
the deal stream, the trace (None outside trace mode), the observation vector, the solver's
workspace (the strategies' only scratch), a tile-count scratch vector and the step API's switch
``ext`` (None, or one int32 flag per seat asked outside numba: ``strategies.rummikub.external``)."""


@njit
def new_context(rules, lineup, params, trace, ws, ext):
    return RkGame(
        np.zeros(S_SIZE, dtype=np.int64),
        np.zeros((MAX_SEATS, TILE_IDS), dtype=np.int64),
        np.zeros(POOL, dtype=np.int16),
        np.zeros((MAX_COMBOS, CB_SIZE), dtype=np.int64),
        np.zeros((MAX_COMBOS, CB_SIZE), dtype=np.int64),
        rules,
        lineup,
        params,
        np.zeros((MAX_SEATS, 4), dtype=np.uint64),
        np.zeros(4, dtype=np.uint64),
        trace,
        np.zeros(O_SIZE, dtype=np.int64),
        ws,
        np.zeros(TILE_IDS, dtype=np.int64),
        ext,
    )


@njit
def new_workspace():
    """The solver workspace a thread reuses for all its games (``batch``)."""
    return new_solver()


@njit_noalloc
def pool_left(st):
    return POOL - st[S_POOL_POS]


@njit_noalloc
def rack_count(rack):
    k = 0
    for t in range(TILE_IDS):
        k += rack[t]
    return k


@njit_noalloc
def observe(g, seat):
    """Fill ``g.obs``: public information and the seat's own situation (C-INFO-1)."""
    st, obs = g.st, g.obs
    n = st[S_N]
    obs[:] = 0
    obs[O_SEAT] = seat
    obs[O_N] = n
    obs[O_POOL] = pool_left(st)
    obs[O_N_COMBOS] = st[S_N_COMBOS]
    obs[O_TURN] = st[S_TURN]
    for s in range(n):
        obs[O_MELDED + s] = st[S_MELDED + s]
        obs[O_RACK_SIZE + s] = rack_count(g.racks[s])
        obs[O_TOTAL + s] = st[S_TOTAL + s]
        obs[O_FIRST_TILE + s] = st[S_FIRST_TILE + s]


@njit_inline
def view_of(g, seat):
    return RkView(g.obs, g.racks[seat], g.table, g.st[S_N_COMBOS], g.rules)


# ----------------------------------------------------------------------------- deal


@njit_noalloc
def first_rank(tile):
    return JOKER_RANK if tile == JOKER else tile & 15


@njit_noalloc
def fill_pool(pool):
    i = 0
    for _ in range(2):
        for c in range(4):
            for n in range(1, 14):
                pool[i] = 16 * c + n
                i += 1
    pool[i] = JOKER
    pool[i + 1] = JOKER


@njit_noalloc
def pick_first(g):
    """RKUB-SETUP-1, AMB-41: a seat whose first tile ranks highest, ties at random."""
    st = g.st
    n = st[S_N]
    best = 0
    tied = 0
    for s in range(n):
        r = first_rank(st[S_FIRST_TILE + s])
        if r > best:
            best = r
            tied = 1
        elif r == best:
            tied += 1
    k = below(g.rng_deal, tied) if tied > 1 else 0
    for s in range(n):
        if first_rank(st[S_FIRST_TILE + s]) == best:
            if k == 0:
                return s
            k -= 1
    return 0


@njit_noalloc
def start_round(g):
    """Shuffle, first tiles, 14-tile racks (docs/trace-format.md "Dealing"); returns the first player."""
    st, racks, pool = g.st, g.racks, g.pool
    n = st[S_N]
    fill_pool(pool)
    shuffle_int16(g.rng_deal, pool, POOL)
    racks[:, :] = 0
    for s in range(n):
        t = np.int64(pool[s])
        st[S_FIRST_TILE + s] = t
        racks[s, t] += 1
        for j in range(RACK_START - 1):
            racks[s, pool[n + (RACK_START - 1) * s + j]] += 1
    first = pick_first(g)
    st[S_FIRST] = first
    st[S_POOL_POS] = RACK_START * n
    st[S_N_COMBOS] = 0
    st[S_TURN] = 0
    st[S_PASSES] = 0
    st[S_DRAWS] = 0
    st[S_RETRIEVED] = 0
    st[S_PENALTIES] = 0
    st[S_UNPROVEN] = 0
    for s in range(MAX_SEATS):
        st[S_MELDED + s] = 0
        st[S_ROUND_SCORE + s] = 0
    record(g.trace, st, T_HAND_START, st[S_ROUND], -1, POOL, RACK_START, first, 0, 0)
    record_cards(g.trace, st, T_DECK, 0, pool, POOL)
    for s in range(n):
        record(g.trace, st, T_FIRST_TILE, s, st[S_FIRST_TILE + s], 0, 0, 0, 0, 0)
    return first


# ----------------------------------------------------------------------------- the table


@njit_noalloc
def record_combos(g, rows, table):
    """The COMBO and TILE records of ``rows`` combinations of ``table``."""
    for r in range(rows):
        record(g.trace, g.st, T_COMBO, r, table[r, CB_KIND], table[r, CB_KEY], table[r, CB_LO], table[r, CB_LEN],
               table[r, CB_FROM], 0)
        for i in range(table[r, CB_LEN]):
            record(g.trace, g.st, T_TILE, r, table[r, CB_TILE + i], table[r, CB_DESIG + i], table[r, CB_RACK + i], 0,
                   0, 0)


@njit_noalloc
def freed_jokers(new, rows, old):
    """Jokers the locked combinations of ``old`` gave up in ``new`` (RKUB-JOKER-3)."""
    freed = 0
    for r in range(rows):
        src = new[r, CB_FROM]
        if src < 0:
            continue
        if new[r, CB_KIND] == KIND_RUN:
            for i in range(new[r, CB_LEN]):
                k = new[r, CB_LO] + i - old[src, CB_LO]
                if 0 <= k < old[src, CB_LEN] and old[src, CB_TILE + k] == JOKER and new[r, CB_TILE + i] != JOKER:
                    freed += 1
        else:
            had = 0
            for i in range(old[src, CB_LEN]):
                had += old[src, CB_TILE + i] == JOKER
            held = 0
            for i in range(new[r, CB_LEN]):
                held += new[r, CB_TILE + i] == JOKER
            freed += max(had - held, 0)
    return freed


@njit_noalloc
def take_from_rack(rack, table, rows):
    for r in range(rows):
        for i in range(table[r, CB_LEN]):
            if table[r, CB_RACK + i] == 1:
                rack[table[r, CB_TILE + i]] -= 1


@njit_noalloc
def lay_table(g, seat, rows):
    """The seat's play: ``g.new[:rows]`` becomes the table (a TABLE block); returns the rack tiles."""
    st = g.st
    n_old = st[S_N_COMBOS]
    placed = mark_rack(g.new, rows, g.table, n_old, g.counts)
    st[S_RETRIEVED] += freed_jokers(g.new, rows, g.table)
    record(g.trace, st, T_TABLE, seat, rows, placed, 0, 0, 0, 0)
    record_combos(g, rows, g.new)
    take_from_rack(g.racks[seat], g.new, rows)
    copy_table(g.table, g.new, rows)
    for r in range(rows):
        g.table[r, CB_FROM] = -1
    st[S_N_COMBOS] = rows
    return placed


@njit_noalloc
def keep_table(g, seat):
    """A TABLE block that repeats the table unchanged (the initial-meld turn that stops there); each
    joker combination continues itself."""
    st = g.st
    rows = st[S_N_COMBOS]
    for r in range(rows):
        g.table[r, CB_FROM] = r if combo_jokers(g.table, r) > 0 else -1
        for i in range(g.table[r, CB_LEN]):
            g.table[r, CB_RACK + i] = 0
    record(g.trace, st, T_TABLE, seat, rows, 0, 0, 0, 0, 0)
    record_combos(g, rows, g.table)
    for r in range(rows):
        g.table[r, CB_FROM] = -1


@njit_noalloc
def lay_initial(g, seat, rows):
    """The initial meld ``g.ws.out[:rows]``: an INITIAL block, its combinations added to the table."""
    st = g.st
    out = g.ws.out
    base = st[S_N_COMBOS]
    value = 0
    tiles = 0
    for r in range(rows):
        out[r, CB_FROM] = -1
        value += combo_value(out, r)
        for i in range(out[r, CB_LEN]):
            out[r, CB_RACK + i] = 1
            tiles += 1
    record(g.trace, st, T_INITIAL, seat, rows, value, tiles, 0, 0, 0)
    record_combos(g, rows, out)
    take_from_rack(g.racks[seat], out, rows)
    copy_table(g.table[base:], out, rows)
    st[S_N_COMBOS] = base + rows
    st[S_MELDED + seat] = 1


# ----------------------------------------------------------------------------- turns


@njit_noalloc
def draw_tile(g, seat):
    st = g.st
    t = np.int64(g.pool[st[S_POOL_POS]])
    st[S_POOL_POS] += 1
    g.racks[seat, t] += 1
    st[S_DRAWS] += 1
    record(g.trace, st, T_DRAW_STOCK, seat, t, 0, 0, 0, 0, 0)


@njit_noalloc
def draw_or_pass(g, seat):
    """RKUB-TURN-1 (b), RKUB-END-2: draw one tile, or pass once the pool is empty."""
    st = g.st
    if pool_left(st) > 0:
        draw_tile(g, seat)
        return
    st[S_PASSES] += 1
    record(g.trace, st, T_PASS, seat, 0, 0, 0, 0, 0, 0)


@njit_noalloc
def penalty_turn(g, seat):
    """RKUB-TIME-1 ``penalty_draw3``: the table the seat tried (the old table and one rack tile on its
    own, which is no combination) is undone, and it draws 3 tiles (or what is left). Only while the
    pool has tiles (R-rk9)."""
    st = g.st
    rack = g.racks[seat]
    tile = 0
    for t in range(TILE_IDS):
        if rack[t] > 0:
            tile = t
            break
    rows = st[S_N_COMBOS]
    copy_table(g.new, g.table, rows)
    for r in range(rows):
        g.new[r, CB_FROM] = -1
        for i in range(g.new[r, CB_LEN]):
            g.new[r, CB_RACK + i] = 0
    loose = g.new[rows]
    loose[:] = 0
    loose[CB_KIND] = KIND_GROUP
    loose[CB_KEY] = tile & 15 if tile != JOKER else 1
    loose[CB_LEN] = 1
    loose[CB_FROM] = -1
    loose[CB_TILE] = tile
    loose[CB_DESIG] = tile if tile != JOKER else 16 + loose[CB_KEY]
    loose[CB_RACK] = 1
    record(g.trace, st, T_ATTEMPT, seat, rows + 1, 1, 0, 0, 0, 0)
    record_combos(g, rows + 1, g.new)
    k = min(PENALTY_DRAW, pool_left(st))
    record(g.trace, st, T_PENALTY, seat, k, 0, 0, 0, 0, 0)
    for _ in range(k):
        draw_tile(g, seat)
    st[S_PENALTIES] += 1


@njit_inline
def initial_turn(g, seat):
    """The seat's turns until its initial meld: the meld and, if the rules allow (AMB-39), a
    continuation on the whole table; else a draw. Returns True if it played."""
    st = g.st
    sid = g.lineup[seat]
    observe(g, seat)
    g.ws.meta[M_OVERFLOW] = 0  # a decision may not solve at all (pre-test, a random draw)
    rows = choose_initial(sid, g.params[seat], view_of(g, seat), g.ws, g.rngs[seat])
    st[S_UNPROVEN] += g.ws.meta[M_OVERFLOW]
    rows = ask_play(g.ext, seat, view_of(g, seat), g.ws, True, INITIAL_MIN, rows)
    if rows == 0:
        return False
    lay_initial(g, seat, rows)
    if g.rules[RK_MANIPULATE_INITIAL] != 0 and rack_count(g.racks[seat]) > 0:
        observe(g, seat)
        g.ws.meta[M_OVERFLOW] = 0
        more = choose_play(sid, g.params[seat], view_of(g, seat), g.ws, g.rngs[seat])
        st[S_UNPROVEN] += g.ws.meta[M_OVERFLOW]
        more = ask_play(g.ext, seat, view_of(g, seat), g.ws, False, 0, more)
        if more > 0:
            copy_table(g.new, g.ws.out, more)
            lay_table(g, seat, more)
            return True
    keep_table(g, seat)
    return True


@njit_inline
def later_turn(g, seat):
    """A turn after the initial meld: a play of the whole table, or none. Returns True if it played."""
    observe(g, seat)
    g.ws.meta[M_OVERFLOW] = 0
    rows = choose_play(g.lineup[seat], g.params[seat], view_of(g, seat), g.ws, g.rngs[seat])
    g.st[S_UNPROVEN] += g.ws.meta[M_OVERFLOW]
    rows = ask_play(g.ext, seat, view_of(g, seat), g.ws, False, 0, rows)
    if rows == 0:
        return False
    copy_table(g.new, g.ws.out, rows)
    lay_table(g, seat, rows)
    return True


@njit_inline
def play_turn(g, seat):
    """One turn (docs/trace-format.md "Turns"); returns END_OUT if the seat emptied its rack, else 0."""
    st = g.st
    record(g.trace, st, T_TURN_START, seat, st[S_TURN], pool_left(st), 0, 0, 0, 0)
    st[S_TURN] += 1
    if (g.rules[RK_INVALID_TURN] == INVALID_PENALTY_DRAW3 and pool_left(st) > 0
            and choose_blunder(g.lineup[seat], g.params[seat], g.rngs[seat])):
        penalty_turn(g, seat)
        return 0
    if st[S_MELDED + seat] == 0:
        played = initial_turn(g, seat)
    else:
        played = later_turn(g, seat)
    if not played:
        draw_or_pass(g, seat)
        return 0
    st[S_PASSES] = 0
    if rack_count(g.racks[seat]) == 0:
        return END_OUT
    return 0


# ----------------------------------------------------------------------------- round end and scoring


@njit_noalloc
def score_round(g, reason, out_seat):
    """RKUB-SCORE-1 (someone out) or RKUB-END-2 with AMB-42 (the lowest rack wins, ties share)."""
    st = g.st
    n = st[S_N]
    penalty = g.rules[RK_JOKER_PENALTY]
    scores = g.counts  # scratch: the rack values, then nothing else this round
    for s in range(n):
        scores[s] = rack_value(g.racks[s], penalty)
    record(g.trace, st, T_HAND_END, reason, out_seat, st[S_TURN], 0, 0, 0, 0)
    if reason == END_OUT:
        total = 0
        for s in range(n):
            if s != out_seat:
                st[S_ROUND_SCORE + s] = -scores[s]
                total += scores[s]
        st[S_ROUND_SCORE + out_seat] = total
    else:
        low = scores[0]
        for s in range(1, n):
            low = min(low, scores[s])
        diff = 0
        winners = 0
        for s in range(n):
            if scores[s] > low:
                st[S_ROUND_SCORE + s] = low - scores[s]
                diff += scores[s] - low
            else:
                winners += 1
        extra = diff % winners
        for s in range(n):
            if scores[s] == low:
                st[S_ROUND_SCORE + s] = diff // winners + (1 if extra > 0 else 0)
                extra -= 1
    for s in range(n):
        st[S_TOTAL + s] += st[S_ROUND_SCORE + s]
        record(g.trace, st, T_SCORE, s, st[S_ROUND_SCORE + s], st[S_TOTAL + s], 0, scores[s], 0, 0)


@njit_noalloc
def play_round(g):
    """One round from the deal to scoring; returns (reason, out_seat, turns)."""
    st, rules = g.st, g.rules
    n = st[S_N]
    seat = start_round(g)
    reason = 0
    out_seat = -1
    while True:
        if st[S_TURN] >= rules[R_TURN_CAP]:
            reason = END_TURN_CAP
            break
        if play_turn(g, seat) == END_OUT:
            reason = END_OUT
            out_seat = seat
            break
        if st[S_PASSES] >= n:
            reason = END_STOCK
            break
        seat = (seat + st[S_DIR] + n) % n
    score_round(g, reason, out_seat)
    return reason, out_seat, st[S_TURN]


# ----------------------------------------------------------------------------- game


@njit
def seed_game(g, seed, game):
    """Per-seat decision streams from (seed, game); the rounds' deals come from (seed, game, round)."""
    n = g.rules[R_N_PLAYERS]
    for s in range(n):
        seed_stream(g.rngs[s], seed, game, STREAM_SEAT, s)
    g.st[S_N] = n
    g.st[S_DIR] = g.rules[RK_DIRECTION]


@njit_noalloc
def dealer_before(st, first):
    """The seat a 'dealer' column names: the one before the first player in clockwise order, so
    that readers that start play left of the dealer find the first player (analysis)."""
    n = st[S_N]
    return (first - 1 + n) % n


@njit_noalloc
def store_round_row(row, st, n, reason, out_seat, turns):
    row[H_DEALER] = dealer_before(st, st[S_FIRST])
    row[H_REASON] = reason
    row[H_OUT_SEAT] = out_seat
    row[H_TURNS] = turns
    row[H_DRAWS] = st[S_DRAWS]
    row[H_RETRIEVED] = st[S_RETRIEVED]
    row[H_PENALTIES] = st[S_PENALTIES]
    row[H_UNPROVEN] = st[S_UNPROVEN]
    for s in range(n):
        row[H_SCORE + s] = st[S_ROUND_SCORE + s]


@njit_noalloc
def game_result(st, n):
    """RKUB-GAME-1: (winner or -1, tie mask) on the totals."""
    best = st[S_TOTAL]
    for s in range(1, n):
        best = max(best, st[S_TOTAL + s])
    mask = 0
    count = 0
    winner = -1
    for s in range(n):
        if st[S_TOTAL + s] == best:
            mask |= 1 << s
            count += 1
            winner = s
    if count > 1:
        return -1, mask
    return winner, 0


@njit
def play_game(rules, lineup, params, seed, game, out_game, out_hands, trace, ws, ext):
    """Play one game of Rummikub (``rkub_rounds`` rounds); fills out_game and out_hands.

    Returns (trace rows used, overflowed); ``trace`` is None outside trace mode. ``ws`` is the
    solver workspace, reused across the games of a thread; ``ext`` None outside the step API.
    """
    g = new_context(rules, lineup, params, trace, ws, ext)
    st = g.st
    n = rules[R_N_PLAYERS]
    seed_game(g, seed, game)
    out_game[:] = 0
    rounds = min(rules[RK_ROUNDS], rules[R_HAND_CAP])
    record(trace, st, T_GAME_START, n, -1, game & 0x7FFFFFFF, rules[RK_ROUNDS], GAME_CODE,
           0 if rules[RK_DIRECTION] == 1 else 1, 0)
    turns = 0
    capped_hands = 0
    for h in range(rounds):
        st[S_ROUND] = h
        seed_stream(g.rng_deal, seed, game, STREAM_DEAL, h)
        reason, out_seat, round_turns = play_round(g)
        if h == 0:
            out_game[G_FIRST_DEALER] = dealer_before(st, st[S_FIRST])
        turns += round_turns
        if reason == END_TURN_CAP:
            capped_hands += 1
        if out_hands.shape[0] > 0:
            store_round_row(out_hands[h], st, n, reason, out_seat, round_turns)
    capped = 1 if rules[RK_ROUNDS] > rules[R_HAND_CAP] else 0
    winner, tied = (-1, 0) if capped else game_result(st, n)
    record(trace, st, T_GAME_END, winner, rounds, capped, tied, 0, 0, 0)
    out_game[G_WINNER] = winner
    out_game[G_TIED] = tied
    out_game[G_HANDS] = rounds
    out_game[G_TURNS] = turns
    out_game[G_CAPPED] = capped
    out_game[G_CAPPED_HANDS] = capped_hands
    for s in range(n):
        out_game[G_TOTAL + s] = st[S_TOTAL + s]
    return st[S_TPOS], st[S_TOVER]


@njit
def play_single_round(rules, lineup, params, seed, index, out_hand, ws):
    """``--unit hands``: one independent round from zero totals."""
    g = new_context(rules, lineup, params, None, ws, None)
    seed_game(g, seed, index)
    seed_stream(g.rng_deal, seed, index, STREAM_DEAL, 0)
    reason, out_seat, turns = play_round(g)
    store_round_row(out_hand, g.st, rules[R_N_PLAYERS], reason, out_seat, turns)

