"""The state of the Rummikub solver's dynamic program (``kernels.rummikub.solver``): its sizes, the
layout of a state's 64-bit key, the slot actions, the workspace, and the small helpers on keys.

A state's key packs, for each colour, three run slots (a code of length 0..3, "3" meaning 3 or more,
plus 4 when the run holds a joker and ``max_jokers`` is 1), the locked items' fields, the jokers
placed and freed, the group accumulators of the number being processed and, for an initial meld,
the value laid so far (capped at the minimum).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.rummikub.layout import (
    CB_SIZE, KIND_RUN, LK_KEY, LK_KIND, LK_SIZE, MAX_COMBOS, MAX_LOCKED, N_COLOURS, TOP,
)

ARENA = 1 << 19  # states over all steps of one solve
BEAM = 6144  # most states a step keeps in games: past it only the best this many go on, and the
# answer is no longer proven best (M_OVERFLOW); the tests and benchmarks check that their positions
# stay below. best_play widens it to WIDEST_BEAM (M_BEAM), where only the hash table's size limits it.
HASH_BITS = 17
HASH_SIZE = 1 << HASH_BITS
MIN_HASH_BITS = 9  # a step's hash table starts this small (a few KB, in the first-level cache) and
# doubles while it fills past half: most steps hold a few states, and a table of HASH_SIZE entries
# spread over 1.5 MB would cost a cache miss per state
WIDEST_BEAM = HASH_SIZE // 2  # a step never holds more live states (the hash table's limit)
STEPS = 5 * TOP  # four colour steps and a closing step per number
MAX_RUNS = 3 * N_COLOURS * TOP
NO_SOLUTION = -(1 << 60)
DEAD_BIT = 1 << 30  # in a state's decision (``dec``): another state of its step dominates it. A mark
# beside the value, not in it, so that a dominated state still dominates others: which states a
# sweep drops then does not depend on the order it visits them in

# ---- state key bits
SLOT_BITS = 3  # a slot's code: length 0..3 ("3" = 3 or more), + 4 if it holds a joker (max_jokers 1)
COLOUR_BITS = 9
LOCK_RUN_BIT = 36  # + 3 * item: extending (1 bit), jokers it holds (2 bits)
LOCK_GROUP_BIT = 42  # + 3 * item: tiles added this number (3 bits)
USED_BIT = 48  # jokers placed (free combinations and additions)
FREED_BIT = 50  # jokers freed from locked combinations
N1_BIT = 52  # colours with one tile left for groups at this number
N2_BIT = 55  # colours with two
VALUE_BIT = 58  # initial-meld value so far, capped at the minimum
VALUE_WIDTH = 6  # bits 58-63: a minimum of at most MAX_THRESHOLD; 5 bits held 31 and no minimum above it was reachable
MAX_THRESHOLD = (1 << VALUE_WIDTH) - 1

# ---- slot actions
A_EMPTY = 0  # an empty slot stays empty
A_NAT = 1  # continue (or start) the run with the natural tile
A_JOK = 2  # continue (or start) it with a joker
A_END = 3  # a run of 3 or more ends before this number
A_END_NAT = 4  # ends, and a new run starts here with the natural tile (max_jokers 1 only)
A_END_JOK = 5  # ends, and a new run starts here with a joker (max_jokers 1 only)
N_ACTIONS = 6
# The actions open to a slot by its code (-1 ends a list): a length-0 slot may stay empty or start a
# run, a run of 1 or 2 must go on, a run of 3 or more may also end; with a joker in it (bit 4,
# max_jokers 1 only) it may not take another, but may end and start again.
SLOT_ACTIONS = np.array([
    [A_EMPTY, A_NAT, A_JOK, -1],
    [A_NAT, A_JOK, -1, -1],
    [A_NAT, A_JOK, -1, -1],
    [A_NAT, A_JOK, A_END, -1],
    [-1, -1, -1, -1],
    [A_NAT, -1, -1, -1],
    [A_NAT, -1, -1, -1],
    [A_NAT, A_END, A_END_NAT, A_END_JOK],
], dtype=np.int64)

# ---- locked-item options
L_NONE = 0  # keep, stay, end, or add nothing
L_NAT = 1  # a rack tile of this colour and number (extension, forced place, group addition)
L_JOK = 2  # a joker
L_FREE = 3  # the joker here is swapped for the rack tile: freed (RKUB-JOKER-3)

# ---- meta slots
M_STAMP = 0
M_TOP = 1
M_OVERFLOW = 2
M_BEST = 3
M_STEP_START = 4
M_FREED = 5  # jokers the best arrangement frees
M_JOKER_WEIGHT = 6
M_LOWER = 7  # a value the best arrangement reaches for sure (states that cannot are dropped)
M_BEAM = 8  # most live states a step keeps (BEAM in games)
M_HASH_BITS = 9  # the current step's hash table has 2 ** this many entries
M_SIZE = 10

Solver = namedtuple(
    "Solver",
    "keys vals par dec start hstamp hidx meta free rack wts rest lk path slot_code slot_run run_col run_lo "
    "run_len run_tiles lk_tiles lk_lo lk_hi lk_group gsel out sel aside quiet order left hkey",
)
"""The solver's workspace, made once by ``new_solver`` and reused for every solve.

Inputs the caller fills: ``free`` and ``rack`` [colour, number] counts, ``wts`` [colour, number]
weights, ``lk`` the locked items (``LK_*`` rows). The arena (``keys vals par dec``, ``start`` per
step), the hash table (``hstamp hidx``, and ``hkey``: a slot's stamp, arena entry and key) and
``meta`` are the program's; ``path`` to ``gsel`` are the replay's; ``out`` receives the final table
(``CB_*`` rows); ``sel`` is the beam's scratch, and in a colour step with jokers one state's run
moves (``kernels.rummikub.solver.joker_moves``);
``aside[r]`` is 1 for a table row that no rack tile can reach, left out of the program and copied
as it is into the final table (``kernels.rummikub.table.set_aside``); ``quiet[step]`` is 1 for a step
the program skipped (``kernels.rummikub.solver.quiet_step``), ``order`` the steps it goes through;
``left`` [colour, number] is ``kernels.rummikub.table.floor_value``'s scratch."""


@njit
def new_solver(beam=BEAM):
    ws = Solver(
        np.zeros(ARENA, dtype=np.int64),
        np.zeros(ARENA, dtype=np.int64),
        np.zeros(ARENA, dtype=np.int32),
        np.zeros(ARENA, dtype=np.int32),
        np.zeros(STEPS + 2, dtype=np.int64),
        np.zeros(HASH_SIZE, dtype=np.int64),
        np.zeros(HASH_SIZE, dtype=np.int32),
        np.zeros(M_SIZE, dtype=np.int64),
        np.zeros((N_COLOURS, TOP + 3), dtype=np.int64),
        np.zeros((N_COLOURS, TOP + 3), dtype=np.int64),
        np.zeros((N_COLOURS, TOP + 3), dtype=np.int64),
        np.zeros(4 * TOP + 1, dtype=np.int64),
        np.zeros((MAX_LOCKED, LK_SIZE), dtype=np.int64),
        np.zeros(STEPS + 1, dtype=np.int64),
        np.zeros((N_COLOURS, 3), dtype=np.int64),
        np.zeros((N_COLOURS, 3), dtype=np.int64),
        np.zeros(MAX_RUNS, dtype=np.int64),
        np.zeros(MAX_RUNS, dtype=np.int64),
        np.zeros(MAX_RUNS, dtype=np.int64),
        np.zeros((MAX_RUNS, TOP), dtype=np.int64),
        np.zeros((MAX_LOCKED, TOP + 2), dtype=np.int64),
        np.zeros(MAX_LOCKED, dtype=np.int64),
        np.zeros(MAX_LOCKED, dtype=np.int64),
        np.zeros((MAX_LOCKED, 5), dtype=np.int64),
        np.zeros(N_COLOURS, dtype=np.int64),
        np.zeros((MAX_COMBOS, CB_SIZE), dtype=np.int64),
        np.zeros(WIDEST_BEAM, dtype=np.int64),
        np.zeros(MAX_COMBOS, dtype=np.int64),
        np.zeros(STEPS + 2, dtype=np.int64),
        np.zeros(STEPS + 2, dtype=np.int64),
        np.zeros((N_COLOURS, TOP + 3), dtype=np.int64),
        np.zeros(HASH_SIZE, dtype=np.int64),
    )
    ws.meta[M_BEAM] = min(beam, WIDEST_BEAM)
    return ws


# ----------------------------------------------------------------------------- key fields


@njit_noalloc
def field(key, bit, width):
    return (key >> bit) & ((1 << width) - 1)


@njit_noalloc
def with_field(key, bit, width, value):
    mask = ((1 << width) - 1) << bit
    return (key & ~mask) | (value << bit)


@njit_noalloc
def slot_after(code, action, n, track_jokers):
    """The slot's code after ``action`` at number ``n``, or -1 if the action is not open to it.

    A run shorter than 3 must still be able to reach 3 tiles by 13 (no wrap, RKUB-COMB-2)."""
    length = code & 3
    joker = code >> 2
    if action == A_EMPTY:
        return 0 if length == 0 else -1
    if action == A_NAT or action == A_JOK:
        if action == A_JOK and track_jokers and joker == 1 and length > 0:
            return -1  # a second joker in one run (VKUB-TWOJOKERS = 1)
        new_len = min(length + 1, 3)
        new_joker = joker if length > 0 else 0
        if action == A_JOK and track_jokers:
            new_joker = 1
    elif action == A_END:
        return 0 if length == 3 else -1
    else:
        if length != 3 or not track_jokers or joker == 0:
            return -1  # only to split a run that already holds its one joker
        new_len = 1
        new_joker = 1 if action == A_END_JOK else 0
    if new_len < 3 and n + 3 - new_len > TOP:
        return -1
    return new_len | (new_joker << 2)


@njit_noalloc
def action_tiles(action):
    """(natural tiles, jokers) an action puts at this number."""
    if action == A_NAT or action == A_END_NAT:
        return 1, 0
    if action == A_JOK or action == A_END_JOK:
        return 0, 1
    return 0, 0


@njit_noalloc
def sort3(a, b, c):
    """Three codes in decreasing order: the slots of a colour are unordered."""
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return a, b, c


@njit_noalloc
def item_at(lk, i, n, c):
    """Does locked item ``i`` take part in colour ``c``'s step at number ``n``?"""
    if lk[i, LK_KIND] == KIND_RUN:
        return lk[i, LK_KEY] == c
    return lk[i, LK_KEY] == n


MOVE_NAT = 9  # a move's fields: the new slots in bits 0-8, then its natural tiles,
MOVE_JOK = 11  # its jokers,
MOVE_SHORT = 13  # its runs of 1 or 2 tiles after it,
MOVE_SINGLE = 15  # those of 1 tile
MOVE_DECISION = 17  # and its decision


@njit_noalloc
def natural_row(slots):
    """``NATURAL_MOVES``' row of a slot field whose codes are 0..3 (no joker): its three 2-bit lengths
    side by side. 64 rows rather than the field's 512, so that the rows the program reads share a
    few cache lines."""
    return (slots & 3) | ((slots >> 1) & 12) | ((slots >> 2) & 48)


SHORT_RUNS = np.array([sum(1 for s in range(3) if (row >> (2 * s)) & 3 in (1, 2)) for row in range(64)],
                      dtype=np.uint8)
"""``SHORT_RUNS[natural_row(slots)]``: a colour's runs of 1 or 2 tiles (codes 0..3), which must go on."""


def _natural_moves() -> np.ndarray:
    """``NATURAL_MOVES[end, natural_row(slots)]``: the run actions open to a colour's three slots
    (``slots``, the key's 9-bit field) when no joker can be placed, in the order the program's loop over
    ``SLOT_ACTIONS`` tries them. ``end`` is 0 for numbers up to ``TOP - 2``, else ``n - TOP + 2``
    (``slot_after`` refuses runs that can no longer reach three tiles). Entry 0 is the number of
    moves; each move packs the new slots (9 bits), the natural tiles and jokers it takes (``MOVE_NAT``,
    ``MOVE_JOK``), its short runs (``MOVE_SHORT``, ``MOVE_SINGLE``: the tiles they need next) and the
    slot actions' decision (``MOVE_DECISION``). Without jokers a state holds codes
    0..3 only, so the program reads its moves here instead of trying every action of every slot and
    dropping most (``solver.joker_moves`` makes them with jokers)."""
    moves = np.zeros((3, 64, 7), dtype=np.int32)  # at most 6 moves, of 26 bits
    after = slot_after.py_func
    for end in range(3):
        n = TOP - 2 + end
        for s0 in range(4):
            for s1 in range(s0 + 1):
                for s2 in range(s1 + 1):
                    row = moves[end, natural_row.py_func(s0 | (s1 << 3) | (s2 << 6))]
                    for a0 in (a for a in SLOT_ACTIONS[s0] if a >= 0):
                        for a1 in (a for a in SLOT_ACTIONS[s1] if a >= 0 and not (s1 == s0 and a > a0)):
                            for a2 in (a for a in SLOT_ACTIONS[s2] if a >= 0 and not (s2 == s1 and a > a1)):
                                codes = [after(s, a, n, False) for s, a in ((s0, a0), (s1, a1), (s2, a2))]
                                if min(codes) < 0 or A_JOK in (a0, a1, a2):
                                    continue
                                x0, x1, x2 = sorted(codes, reverse=True)
                                nat = [a0, a1, a2].count(A_NAT)
                                decision = a0 | (a1 << 3) | (a2 << 6)
                                short = sum(1 for x in codes if x & 3 in (1, 2))
                                single = sum(1 for x in codes if x & 3 == 1)
                                row[0] += 1
                                row[row[0]] = (x0 | (x1 << 3) | (x2 << 6) | (nat << MOVE_NAT) | (short << MOVE_SHORT)
                                               | (single << MOVE_SINGLE) | (decision << MOVE_DECISION))
    return moves


NATURAL_MOVES = _natural_moves()
