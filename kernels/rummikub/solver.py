"""The exact Rummikub move solver: the best placement of rack tiles on a table, jokers included.

Given the tiles of the table's unlocked combinations (which must all stay on the table, in any
arrangement: RKUB-MANIP-1), the table's joker combinations (locked: they may only gain rack tiles
and jokers, and a joker may be swapped for its tile from the rack, RKUB-JOKER-2/3), and a rack,
``solve`` finds a final table that maximises the summed weight of the rack tiles it places, and
writes that table out.

Method: a dynamic program over the numbers 1..13 after van Rijn, Takes & Vis (arXiv 1604.07553).
Before number ``n`` the state holds, for each colour, the runs in progress as up to three slots
of length 1, 2 or "3 or more" (three, not two: with a joker a colour can have three runs at one
number, e.g. ``r1 r2 r3 J*(r4)`` beside two other runs through ``r4``); for each locked item,
whether it is being extended and how many jokers it holds; the jokers placed and freed so far; and
with an initial-meld minimum the value laid so far (capped at the minimum). Each number is
processed colour by colour (how many of its tiles extend, start or end runs, how many are left
for groups, what the locked items take), then a closing step checks that the tiles left for groups
form valid groups with the jokers given to them (``groups.GROUP_OK``). States are deduplicated
per step in a hash table; each keeps its best value, its parent and its decision, so the winning
path is replayed to build the arrangement. Everything is iterative, over preallocated arrays.

Jokers: a rack joker placed scores ``joker_weight``; a freed joker is a table tile and must be
placed, so the final check is ``freed <= placed <= freed + rack jokers``. Values count every joker
placed as it is placed, and the freed ones are taken off at the end. Three dominance rules keep
the state count down (each drops a state when another state of the same step, the same in every
other field, has at least its value): a run of 3 or more over an empty slot or a shorter run, a
run of 2 over a run of 1, a run without a joker over the same run with one; and, when no table
joker can be freed, fewer jokers placed over more.

Per state, two tables built at import stand for branchy loops that cost more than the rest of a
state's work: the run moves open to a colour's slots when no joker can be placed
(``state.NATURAL_MOVES``), and the slot fields a colour's slots dominate (``DOMINATED``).

Ties: of two ways of equal value into a state, the one from the parent with the smaller key wins,
then the smaller decision; of final states of equal value, the smaller key (``preferred``). Keys
and decisions do not depend on the order states are made in, and every state on a best path
survives the bound, the pre-tests and the dominance sweeps (a dominated state's dominator is on a
best path too, and sweeps mark without comparing marked values), so the arrangement returned does
not depend on which other states those prunings drop (issue 17 point 5).

Fewer steps and states for a later turn (``solve_play``, from ``table.later_play``): rack tiles no
table can hold are taken off, rows no rack tile can reach are left out, steps with nothing to do
are skipped (``quiet_step``), a state whose tiles left for groups can no longer form groups is
dropped at once (``GROUP_HOPE``), and bounded passes (``reachable``) aim first at every rack tile
placed, then at a value a greedy arrangement reaches.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.rummikub.arrange import replay
from rummysim.kernels.rummikub.groups import GROUP_HOPE, GROUP_OK
from rummysim.kernels.rummikub.layout import (
    JOKER, KIND_GROUP, KIND_RUN, LK_HI, LK_JOKERS, LK_KEY, LK_KIND, LK_LO, LK_MASK, LK_MIN, LK_TILE, N_COLOURS,
    REQUIRED, TOP,
)
from rummysim.kernels.rummikub.state import (
    A_END, ARENA, COLOUR_BITS, DEAD_BIT, FREED_BIT, HASH_BITS, HASH_SIZE, L_FREE, L_JOK, L_NAT, L_NONE, LOCK_GROUP_BIT,
    LOCK_RUN_BIT, M_BEAM, M_BEST, M_FREED, M_HASH_BITS, M_JOKER_WEIGHT, M_LOWER, M_OVERFLOW, M_STAMP, M_STEP_START,
    M_TOP, MIN_HASH_BITS, MOVE_DECISION, MOVE_JOK, MOVE_NAT, MOVE_SHORT, MOVE_SINGLE, N1_BIT, N2_BIT, NATURAL_MOVES,
    NO_SOLUTION, SHORT_RUNS, SLOT_ACTIONS, STEPS, USED_BIT, VALUE_BIT, VALUE_WIDTH,
    action_tiles, field, item_at, natural_row, slot_after, sort3, with_field,
)

# ----------------------------------------------------------------------------- the arena


@njit_noalloc
def hash_slot(key, bits):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(64 - bits))


@njit_noalloc
def place(ws, key, i, stamp, bits):
    """Hash entry for arena entry ``i``, whose key the table does not hold yet."""
    h = hash_slot(key, bits)
    while ws.hstamp[h] == stamp:
        h = (h + 1) & ((1 << bits) - 1)
    ws.hstamp[h] = stamp
    ws.hidx[h] = i
    ws.hkey[h] = key


@njit_noalloc
def grow(ws):
    """Double the current step's hash table: a fresh stamp, and every state of the step placed again
    (the arena, and so the states' order, stays as it is)."""
    meta = ws.meta
    meta[M_STAMP] += 1
    meta[M_HASH_BITS] += 1
    for i in range(meta[M_STEP_START], meta[M_TOP]):
        place(ws, ws.keys[i], i, meta[M_STAMP], meta[M_HASH_BITS])


@njit_inline
def insert(ws, key, value, parent, decision):
    """Keep ``key`` in the current step with the best value seen (and that value's path). Inlined,
    as every helper of the program that is called per state takes the arrays it needs rather than
    the workspace: a call that LLVM does not inline passes the whole 29-array workspace, some 200
    machine words, which cost more than the helper's work."""
    meta = ws.meta
    if meta[M_TOP] - meta[M_STEP_START] >= (1 << meta[M_HASH_BITS]) // 2 and meta[M_HASH_BITS] < HASH_BITS:
        grow(ws)
    stamp = meta[M_STAMP]
    bits = meta[M_HASH_BITS]
    h = hash_slot(key, bits)
    while True:
        if ws.hstamp[h] != stamp:
            i = meta[M_TOP]
            if i >= ARENA or i - meta[M_STEP_START] >= HASH_SIZE // 2:
                meta[M_OVERFLOW] = 1
                return
            meta[M_TOP] = i + 1
            ws.hstamp[h] = stamp
            ws.hidx[h] = i
            ws.hkey[h] = key
            ws.keys[i] = key
            ws.vals[i] = value
            ws.par[i] = parent
            ws.dec[i] = decision
            return
        if ws.hkey[h] == key:  # the key beside its slot: no arena read to tell a collision
            i = ws.hidx[h]
            if value > ws.vals[i] or (value == ws.vals[i] and preferred(ws.keys, ws.par, ws.dec, parent, decision, i)):
                ws.vals[i] = value
                ws.par[i] = parent
                ws.dec[i] = decision
            return
        h = (h + 1) & ((1 << bits) - 1)


@njit_noalloc
def preferred(keys, par, dec, parent, decision, i):
    """The tie rule between two ways of equal value into arena entry ``i``: the one from the parent
    with the smaller key, then the smaller decision. Keys and decisions, unlike arena places, do
    not depend on the order in which states were made, so neither does the arrangement returned
    (whatever the pre-tests, the bound and the dominance sweeps drop on the way)."""
    key = keys[parent]
    old = keys[par[i]]
    return key < old or (key == old and decision < dec[i])


@njit_noalloc
def lookup(hkey, hstamp, hidx, meta, key):
    """The arena entry of ``key`` in the current step, or -1."""
    stamp = meta[M_STAMP]
    bits = meta[M_HASH_BITS]
    h = hash_slot(key, bits)
    while hstamp[h] == stamp:
        if hkey[h] == key:
            return hidx[h]
        h = (h + 1) & ((1 << bits) - 1)
    return -1


def lowered(code, k, track):
    """The ``k``-th slot code that ``code`` dominates (-1 when there is no more).

    A run of 3 or more can end or go on, so it does at least as well as an empty slot or a shorter
    run; a run of 2 as well as a run of 1 (each still needs the same tiles); and, with ``track``
    (max_jokers 1: bit 4 marks a run's joker), a run without a joker as well as the same run with one."""
    length = code & 3
    if code < 4:
        if length == 3:
            if not track:
                return 2 - k if k < 3 else -1
            return (2, 1, 0, 7, 6, 5)[k] if k < 6 else -1
        if length == 2:
            if not track:
                return 1 if k == 0 else -1
            return (1, 6, 5)[k] if k < 3 else -1
        if length == 1 and track:
            return 5 if k == 0 else -1
        return -1
    if length == 3:
        return (6, 5, 0)[k] if k < 3 else -1
    if length == 2:
        return 5 if k == 0 else -1
    return -1


def _dominated() -> np.ndarray:
    """``DOMINATED[track, slots]``: the slot fields (9 bits, sorted codes) that a colour's slots
    ``slots`` dominate, one slot lowered (``lowered``), each once; entry 0 is their number. Equal
    slots lower to the same field, so the sweep looks each up once. 16 bits an entry, so that the
    rows the sweep reads stay in few cache lines."""
    table = np.zeros((2, 1 << COLOUR_BITS, 19), dtype=np.int16)
    for track in range(2):
        for slots in range(1 << COLOUR_BITS):
            x = [(slots >> (3 * s)) & 7 for s in range(3)]
            found: list[int] = []
            for s in range(3):
                k = 0
                while lowered(x[s], k, track) >= 0:
                    y0, y1, y2 = sorted(x[:s] + [lowered(x[s], k, track)] + x[s + 1:], reverse=True)
                    if y0 | (y1 << 3) | (y2 << 6) not in found:
                        found.append(y0 | (y1 << 3) | (y2 << 6))
                    k += 1
            table[track, slots, 0] = len(found)
            table[track, slots, 1:len(found) + 1] = found
    return table


DOMINATED = _dominated()


@njit_inline
def sweep_colour(ws, step, c, track):
    """Mark (``DEAD_BIT``) the states of this step that another state of it dominates through colour
    ``c``'s slots: the same key but for one slot lowered (``DOMINATED``), and no better value. Every
    step is swept, however few its states: which states survive then depends on the position
    alone, not on how many others the bound let through."""
    shift = COLOUR_BITS * c
    tracked = 1 if track else 0
    marked = 0
    for i in range(ws.start[step], ws.meta[M_TOP]):
        key = ws.keys[i]
        slots = field(key, shift, COLOUR_BITS)
        for m in range(1, DOMINATED[tracked, slots, 0] + 1):
            lower = with_field(key, shift, COLOUR_BITS, DOMINATED[tracked, slots, m])
            j = lookup(ws.hkey, ws.hstamp, ws.hidx, ws.meta, lower)
            if j >= 0 and ws.vals[j] <= ws.vals[i]:
                ws.dec[j] |= DEAD_BIT
                marked += 1
    return marked


@njit_inline
def sweep_jokers(ws, step):
    """Mark the states that another state of this step with fewer jokers placed dominates
    (only sound when no table joker can be freed: then every state's jokers come from the rack)."""
    marked = 0
    for i in range(ws.start[step], ws.meta[M_TOP]):
        key = ws.keys[i]
        used = field(key, USED_BIT, 2)
        for more in range(used + 1, 3):
            j = lookup(ws.hkey, ws.hstamp, ws.hidx, ws.meta, with_field(key, USED_BIT, 2, more))
            if j >= 0 and ws.vals[j] <= ws.vals[i]:
                ws.dec[j] |= DEAD_BIT
                marked += 1
    return marked


@njit_noalloc
def freeable_jokers(ws, n_locked):
    """Table jokers some rack tile could free (RKUB-JOKER-3): a run's joker whose tile is on the
    rack, a group's jokers if the rack holds a tile of a colour the group lacks."""
    k = 0
    for i in range(n_locked):
        lk = ws.lk
        if lk[i, LK_KIND] == KIND_RUN:
            for n in range(lk[i, LK_LO], lk[i, LK_HI] + 1):
                if lk[i, LK_TILE + n - lk[i, LK_LO]] == JOKER and ws.rack[lk[i, LK_KEY], n] > 0:
                    k += 1
        else:
            for c in range(N_COLOURS):
                if not (lk[i, LK_MASK] >> c) & 1 and ws.rack[c, lk[i, LK_KEY]] > 0:
                    k += lk[i, LK_JOKERS]
                    break
    return k


@njit_noalloc
def short_runs(x0, x1, x2):
    """(runs of 1 or 2 tiles, runs of 1 tile) among a colour's slot codes."""
    short = 0
    single = 0
    for code in (x0, x1, x2):
        length = code & 3
        if length == 1 or length == 2:
            short += 1
        if length == 1:
            single += 1
    return short, single


@njit_noalloc
def runs_can_go_on(move, next1, next2, jokers_left):
    """Can a move's short runs (1 or 2 tiles, ``MOVE_SHORT``; 1 tile, ``MOVE_SINGLE``) all get their
    next tiles, with ``next1`` and ``next2`` tiles of the colour at the next two numbers?"""
    return ((move >> MOVE_SHORT) & 3) <= next1 + jokers_left and ((move >> MOVE_SINGLE) & 3) <= next2 + jokers_left


@njit_noalloc
def kth_largest(a, n, k):
    """The ``k``-th largest (1-based) of ``a[:n]``, which it reorders (iterative quickselect)."""
    lo = 0
    hi = n - 1
    target = k - 1
    while lo < hi:
        pivot = a[(lo + hi) // 2]
        i = lo
        j = hi
        while i <= j:
            while a[i] > pivot:
                i += 1
            while a[j] < pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if target <= j:
            hi = j
        elif target >= i:
            lo = i
        else:
            break
    return a[target]


@njit_inline
def settle_step(ws, step):
    """Compact this step's live states to the front of its arena range, dropping the marked ones and,
    past ``meta[M_BEAM]`` live states, all but that many best (the answer is then not proven best:
    ``M_OVERFLOW``)."""
    meta = ws.meta
    a = ws.start[step]
    b = meta[M_TOP]
    beam = meta[M_BEAM]
    alive = 0
    for i in range(a, b):
        if not ws.dec[i] & DEAD_BIT:
            ws.sel[alive] = ws.vals[i]
            alive += 1
    cut = NO_SOLUTION
    ties = 0
    if alive > beam:
        cut = kth_largest(ws.sel, alive, beam)
        above = 0
        for i in range(a, b):
            if not ws.dec[i] & DEAD_BIT and ws.vals[i] > cut:
                above += 1
        ties = beam - above
        meta[M_OVERFLOW] = 1
    j = a
    for i in range(a, b):
        v = ws.vals[i]
        if ws.dec[i] & DEAD_BIT or v < cut:
            continue
        if alive > beam and v == cut:
            if ties == 0:
                continue
            ties -= 1
        ws.keys[j] = ws.keys[i]
        ws.vals[j] = v
        ws.par[j] = ws.par[i]
        ws.dec[j] = ws.dec[i]
        j += 1
    meta[M_TOP] = j


@njit_inline
def quiet_step(ws, n, c, n_locked, joker_cap):
    """Is step (number ``n``, colour ``c``; ``c`` = N_COLOURS for the closing step) a copy of the one
    before? Without jokers, a colour with no tile at ``n`` nor at ``n - 1`` and no locked item at
    ``n`` has no run to go on, start or end; a number with no tile and no locked group has no group
    to form. Its one way on keeps every state as it is, with decision 0: the program skips it
    (``ws.quiet``), and the states of the step before stand for it."""
    if joker_cap > 0:
        return False
    if c < N_COLOURS:
        if ws.free[c, n] + ws.rack[c, n] + ws.free[c, n - 1] + ws.rack[c, n - 1] > 0:
            return False
        for i in range(n_locked):
            if item_at(ws.lk, i, n, c):
                return False
        return True
    for d in range(N_COLOURS):
        if ws.free[d, n] + ws.rack[d, n] > 0:
            return False
    for i in range(n_locked):
        if ws.lk[i, LK_KIND] == KIND_GROUP and ws.lk[i, LK_KEY] == n:
            return False
    return True


@njit_noalloc
def mark_quiet(ws, n_locked, joker_cap):
    """``ws.quiet`` for every step, and the steps that are not quiet, in order, in ``ws.order``;
    returns their number. The same for every pass with the same ``joker_cap``."""
    k = 0
    for step in range(1, STEPS + 1):
        n = (step - 1) // (N_COLOURS + 1) + 1
        c = (step - 1) % (N_COLOURS + 1)
        if quiet_step(ws, n, c, n_locked, joker_cap):
            ws.quiet[step] = 1
        else:
            ws.quiet[step] = 0
            ws.order[k] = step
            k += 1
    return k


@njit_noalloc
def open_step(meta, start, step):
    meta[M_STAMP] += 1
    meta[M_HASH_BITS] = MIN_HASH_BITS
    start[step] = meta[M_TOP]
    meta[M_STEP_START] = meta[M_TOP]


# ----------------------------------------------------------------------------- locked items


@njit_noalloc
def run_option(lk, i, key, n, option):
    """Locked run ``i`` at number ``n`` (its colour's step) under ``option``: returns
    (new key, rack tiles, jokers placed, jokers freed) or a negative rack count if not open."""
    lo = lk[i, LK_LO]
    hi = lk[i, LK_HI]
    bit = LOCK_RUN_BIT + 3 * i
    active = field(key, bit, 1)
    held = field(key, bit + 1, 2)
    if n < lo or n > hi:
        if n > hi and active == 0:
            return key, (0 if option == L_NONE else -1), 0, 0
        if option == L_NONE:
            if n < lo and active == 1:
                return key, -1, 0, 0  # an extension below the run reaches it
            return with_field(key, bit, 1, 0), 0, 0, 0
        if option == L_NAT:
            return with_field(key, bit, 1, 1), 1, 0, 0
        if option == L_JOK:
            return with_field(with_field(key, bit, 1, 1), bit + 1, 2, held + 1), 0, 1, 0
        return key, -1, 0, 0
    key = with_field(key, bit, 1, 1)
    tile = lk[i, LK_TILE + n - lo]
    if tile == JOKER:
        if option == L_NONE:
            return key, 0, 0, 0
        if option == L_FREE:
            return with_field(key, bit + 1, 2, held - 1), 1, 0, 1
        return key, -1, 0, 0
    if tile == REQUIRED:
        if option == L_NAT:
            return key, 1, 0, 0
        if option == L_JOK:
            return with_field(key, bit + 1, 2, held + 1), 0, 1, 0
        return key, -1, 0, 0
    return key, (0 if option == L_NONE else -1), 0, 0


@njit_noalloc
def group_option(lk, i, key, c, option):
    """Locked (or forced) group ``i`` at its number, colour ``c``'s step: add that colour's tile?"""
    if option == L_NONE:
        return key, 0
    if option != L_NAT or (lk[i, LK_MASK] >> c) & 1:
        return key, -1
    bit = LOCK_GROUP_BIT + 3 * i
    return with_field(key, bit, 3, field(key, bit, 3) + 1), 1


@njit_noalloc
def item_option(lk, i, key, n, c, option):
    """(new key, rack tiles, jokers placed, jokers freed) of item ``i``; rack < 0 if not open."""
    if lk[i, LK_KIND] == KIND_RUN:
        return run_option(lk, i, key, n, option)
    key2, rack = group_option(lk, i, key, c, option)
    return key2, rack, 0, 0


@njit_noalloc
def group_close(lk, i, key, joker_keep, joker_add, max_jokers, both_colours):
    """Locked group ``i`` at the end of its number: is it valid with ``joker_keep`` of its jokers and
    ``joker_add`` more? Returns the jokers it frees, or -1."""
    added = field(key, LOCK_GROUP_BIT + 3 * i, 3)
    naturals = added
    for c in range(N_COLOURS):
        naturals += (lk[i, LK_MASK] >> c) & 1
    had = lk[i, LK_JOKERS]
    jokers = joker_keep + joker_add
    size = naturals + jokers
    if size < 3 or size > 4 or size < lk[i, LK_MIN] or jokers > max_jokers:
        return -1
    freed = had - joker_keep
    if freed > added:
        return -1  # a joker leaves only when a tile takes its place (RKUB-JOKER-3)
    if freed > 0 and both_colours and (naturals != 4 or jokers != 0):
        return -1  # VKUB-JOKERBOTH
    return freed


# ----------------------------------------------------------------------------- the steps


@njit_inline
def closed_colour(ws, p, key, value, shift, s0, s1, s2):
    """The one way on for a state when colour ``c`` has no tile and no joker at this number and no
    locked item needs it: runs of 3 or more end, shorter ones die, empty slots stay empty."""
    decision = 0
    for s, code in enumerate((s0, s1, s2)):
        length = code & 3
        if length == 1 or length == 2:
            return
        if length == 3:
            decision |= A_END << (3 * s)
    insert(ws, with_field(key, shift, COLOUR_BITS, 0), value, p, decision)


@njit_inline
def colour_step(ws, step, n, c, n_locked, joker_cap, max_jokers, threshold):
    """Colour ``c`` at number ``n``: extend, start and end its runs, leave tiles for groups, feed
    the locked items; every state of the previous step to the states of this one."""
    track = max_jokers == 1
    t = ws.free[c, n]
    avail = t + ws.rack[c, n]
    weight = ws.wts[c, n]
    shift = COLOUR_BITS * c
    n_items = 0
    item0 = -1
    item1 = -1
    for i in range(n_locked):
        if item_at(ws.lk, i, n, c):
            if n_items == 0:
                item0 = i
            else:
                item1 = i
            n_items += 1
    next1 = ws.free[c, n + 1] + ws.rack[c, n + 1]
    next2 = ws.free[c, n + 2] + ws.rack[c, n + 2]
    joker_weight = ws.meta[M_JOKER_WEIGHT]
    need = step_need(ws, n, c)
    tiles = tiles_at(ws.free, ws.rack, n)
    open_step(ws.meta, ws.start, step)
    for p in range(ws.start[step - 1], ws.start[step]):
        key = ws.keys[p]
        value = ws.vals[p]
        s0 = field(key, shift, 3)
        s1 = field(key, shift + 3, 3)
        s2 = field(key, shift + 6, 3)
        used = field(key, USED_BIT, 2)
        room = joker_cap - used
        if avail == 0 and room == 0 and n_items == 0:
            closed_colour(ws, p, key, value, shift, s0, s1, s2)
            continue
        later1, later2 = later_for_groups(key, tiles, c, joker_cap)
        end = max(0, n - TOP + 2)
        row = natural_row(field(key, shift, COLOUR_BITS))
        count = NATURAL_MOVES[end, row, 0] if joker_cap == 0 else joker_moves(ws.sel, s0, s1, s2, n, room, track)
        for m in range(count):
            move = NATURAL_MOVES[end, row, 1 + m] if joker_cap == 0 else ws.sel[m]
            nat = (move >> MOVE_NAT) & 3
            jok = (move >> MOVE_JOK) & 3
            if nat > avail or used + jok > joker_cap:
                continue
            x = move & ((1 << COLOUR_BITS) - 1)
            if not runs_can_go_on(move, next1, next2, joker_cap - used - jok):
                continue
            slots_key = with_field(with_field(key, shift, COLOUR_BITS, x), USED_BIT, 2, used + jok)
            colour_choices(ws, p, value, slots_key, move >> MOVE_DECISION, n, c, t, avail, nat, jok, weight,
                           item0, item1, joker_cap, threshold, later1, later2, max_jokers, joker_weight, need)


@njit_noalloc
def tiles_at(free, rack, n):
    """The tiles (table and rack) of number ``n`` of each colour, 4 bits a colour: read once per step
    rather than per state (the arrays may alias the arena's, so the compiler reloads them)."""
    tiles = 0
    for d in range(N_COLOURS):
        tiles |= (free[d, n] + rack[d, n]) << (4 * d)
    return tiles


@njit_noalloc
def later_for_groups(key, tiles, c, joker_cap):
    """(colours after ``c`` with at least one, with at least two tiles of this number that a state
    ``key`` could still leave for groups: ``GROUP_HOPE``'s ``m1`` and ``m2``). Without jokers each of
    a colour's runs of 1 or 2 tiles must take one of those tiles (a run cannot end short), so only
    the others count: a state whose groups need them is dropped here, not numbers later. Only states
    that cannot be completed are dropped, and those are on no path to a final state. ``tiles``: the
    number's tiles per colour (``tiles_at``)."""
    later1 = 0
    later2 = 0
    for d in range(c + 1, N_COLOURS):
        left = (tiles >> (4 * d)) & 15
        if joker_cap == 0:
            left -= SHORT_RUNS[natural_row(field(key, COLOUR_BITS * d, COLOUR_BITS))]
        later1 += 1 if left > 0 else 0
        later2 += 1 if left > 1 else 0
    return later1, later2


@njit_noalloc
def joker_moves(moves, s0, s1, s2, n, room, track):
    """The run actions open to a colour's slots ``s0 s1 s2`` at number ``n`` with ``room`` jokers
    left to place, packed as ``NATURAL_MOVES``' moves into ``moves``; returns their number. Without
    jokers the program reads the table instead (most of these actions are then closed)."""
    k = 0
    for k0 in range(4):
        a0 = SLOT_ACTIONS[s0, k0]
        if a0 < 0:
            break
        c0 = slot_after(s0, a0, n, track)
        if c0 < 0 or (room == 0 and action_tiles(a0)[1] > 0):
            continue
        for k1 in range(4):
            a1 = SLOT_ACTIONS[s1, k1]
            if a1 < 0 or (s1 == s0 and a1 > a0):
                break  # equal slots: one order of their actions is enough (the lists are sorted)
            c1 = slot_after(s1, a1, n, track)
            if c1 < 0 or (room == 0 and action_tiles(a1)[1] > 0):
                continue
            for k2 in range(4):
                a2 = SLOT_ACTIONS[s2, k2]
                if a2 < 0 or (s2 == s1 and a2 > a1):
                    break
                c2 = slot_after(s2, a2, n, track)
                if c2 < 0:
                    continue
                nat0, jok0 = action_tiles(a0)
                nat1, jok1 = action_tiles(a1)
                nat2, jok2 = action_tiles(a2)
                x0, x1, x2 = sort3(c0, c1, c2)
                short, single = short_runs(x0, x1, x2)
                moves[k] = (x0 | (x1 << 3) | (x2 << 6) | ((nat0 + nat1 + nat2) << MOVE_NAT)
                            | ((jok0 + jok1 + jok2) << MOVE_JOK) | (short << MOVE_SHORT) | (single << MOVE_SINGLE)
                            | ((a0 | (a1 << 3) | (a2 << 6)) << MOVE_DECISION))
                k += 1
    return k


@njit_inline
def colour_choices(ws, p, value, key, decision, n, c, t, avail, nat, jok, weight, item0, item1, joker_cap,
                   threshold, later1, later2, max_jokers, joker_weight, need):
    """The tiles left for groups and the locked items' options, for one choice of run actions.
    ``later1`` and ``later2``: the colours after ``c`` with at least one and two tiles of ``n``
    (``GROUP_HOPE``)."""
    for g in range(max(0, t - nat), avail - nat + 1):
        if g > 2:
            break
        surplus = avail - nat - g  # rack tiles of this kind not yet placed
        gkey = key
        if g == 1:
            gkey = with_field(gkey, N1_BIT, 3, field(gkey, N1_BIT, 3) + 1)
        elif g == 2:
            gkey = with_field(gkey, N2_BIT, 3, field(gkey, N2_BIT, 3) + 1)
        n1 = field(gkey, N1_BIT, 3)
        n2 = field(gkey, N2_BIT, 3)
        if n1 + n2 > 0 and GROUP_HOPE[n1, n2, later1, later2, joker_cap - field(gkey, USED_BIT, 2),
                                      max_jokers - 1] == 0:
            continue  # the tiles left for groups can no longer all form groups
        placed = nat + g - t
        if threshold > 0:
            laid = field(gkey, VALUE_BIT, VALUE_WIDTH) + n * (nat + g + jok)
            gkey = with_field(gkey, VALUE_BIT, VALUE_WIDTH, min(laid, threshold))
        gdec = decision | (g << 9)
        for o0 in range(4 if item0 >= 0 else 1):
            k0 = gkey
            r0 = 0
            j0 = 0
            f0 = 0
            if item0 >= 0:
                k0, r0, j0, f0 = item_option(ws.lk, item0, gkey, n, c, o0)
                if r0 < 0 or r0 > surplus:
                    continue
            for o1 in range(4 if item1 >= 0 else 1):
                k1 = k0
                r1 = 0
                j1 = 0
                f1 = 0
                if item1 >= 0:
                    k1, r1, j1, f1 = item_option(ws.lk, item1, k0, n, c, o1)
                    if r1 < 0 or r0 + r1 > surplus:
                        continue
                used = field(k1, USED_BIT, 2) + j0 + j1
                if used > joker_cap:
                    continue
                k1 = with_field(k1, USED_BIT, 2, used)
                k1 = with_field(k1, FREED_BIT, 2, field(k1, FREED_BIT, 2) + f0 + f1)
                opts = 0
                if item0 >= 0:
                    opts |= o0 << (11 + 2 * item0)
                if item1 >= 0:
                    opts |= o1 << (11 + 2 * item1)
                gain = weight * (placed + r0 + r1) + joker_weight * (jok + j0 + j1)
                if reachable(value + gain, k1, joker_cap, joker_weight, need):
                    insert(ws, k1, value + gain, p, gdec | opts)


@njit_inline
def close_step(ws, step, n, n_locked, joker_cap, max_jokers, both_colours, threshold):
    """End of number ``n``: the tiles left for groups form groups with the jokers given them, and
    the locked groups of this number are checked."""
    g0 = -1
    g1 = -1
    for i in range(n_locked):
        if ws.lk[i, LK_KIND] == KIND_GROUP and ws.lk[i, LK_KEY] == n:
            if g0 < 0:
                g0 = i
            else:
                g1 = i
    joker_weight = ws.meta[M_JOKER_WEIGHT]
    need = step_need(ws, n, N_COLOURS - 1)
    open_step(ws.meta, ws.start, step)
    for p in range(ws.start[step - 1], ws.start[step]):
        key = ws.keys[p]
        value = ws.vals[p]
        used = field(key, USED_BIT, 2)
        n1 = field(key, N1_BIT, 3)
        n2 = field(key, N2_BIT, 3)
        base = with_field(with_field(key, N1_BIT, 3, 0), N2_BIT, 3, 0)
        for jg in range(joker_cap - used + 1):
            if GROUP_OK[n1, n2, jg, max_jokers - 1] == 0:
                continue
            vkey = base
            if threshold > 0:
                laid = field(base, VALUE_BIT, VALUE_WIDTH) + n * jg
                vkey = with_field(base, VALUE_BIT, VALUE_WIDTH, min(laid, threshold))
            room = joker_cap - used - jg
            for code0 in range(16 if g0 >= 0 else 1):
                keep0 = code0 & 3
                add0 = code0 >> 2
                freed0 = 0
                if g0 >= 0:
                    if keep0 > ws.lk[g0, LK_JOKERS] or add0 > room:
                        continue
                    freed0 = group_close(ws.lk, g0, key, keep0, add0, max_jokers, both_colours)
                    if freed0 < 0:
                        continue
                for code1 in range(16 if g1 >= 0 else 1):
                    keep1 = code1 & 3
                    add1 = code1 >> 2
                    freed1 = 0
                    if g1 >= 0:
                        if keep1 > ws.lk[g1, LK_JOKERS] or add0 + add1 > room:
                            continue
                        freed1 = group_close(ws.lk, g1, key, keep1, add1, max_jokers, both_colours)
                        if freed1 < 0:
                            continue
                    k = vkey
                    if g0 >= 0:
                        k = with_field(k, LOCK_GROUP_BIT + 3 * g0, 3, 0)
                    if g1 >= 0:
                        k = with_field(k, LOCK_GROUP_BIT + 3 * g1, 3, 0)
                    k = with_field(k, USED_BIT, 2, used + jg + add0 + add1)
                    k = with_field(k, FREED_BIT, 2, field(k, FREED_BIT, 2) + freed0 + freed1)
                    decision = jg
                    if g0 >= 0:
                        decision |= code0 << (2 + 4 * g0)
                    if g1 >= 0:
                        decision |= code1 << (2 + 4 * g1)
                    v = value + joker_weight * (jg + add0 + add1)
                    if reachable(v, k, joker_cap, joker_weight, need):
                        insert(ws, k, v, p, decision)


@njit_noalloc
def initial_key(ws, n_locked):
    key = 0
    for i in range(n_locked):
        if ws.lk[i, LK_KIND] == KIND_RUN:
            key = with_field(key, LOCK_RUN_BIT + 3 * i + 1, 2, ws.lk[i, LK_JOKERS])
    return key


@njit_noalloc
def final_value(lk, key, value, n_locked, rack_jokers, joker_weight, max_jokers, threshold):
    """The objective of a complete arrangement, or NO_SOLUTION if its jokers or minimum fail."""
    used = field(key, USED_BIT, 2)
    freed = field(key, FREED_BIT, 2)
    if used < freed or used - freed > rack_jokers:
        return NO_SOLUTION
    if threshold > 0 and field(key, VALUE_BIT, VALUE_WIDTH) < threshold:
        return NO_SOLUTION
    for i in range(n_locked):
        if lk[i, LK_KIND] == KIND_RUN and field(key, LOCK_RUN_BIT + 3 * i + 1, 2) > max_jokers:
            return NO_SOLUTION
    return value - freed * joker_weight


@njit_noalloc
def fill_rest(ws, joker_weight):
    """``ws.rest[4 * (n - 1) + c]``: the weight of the rack tiles from colour ``c`` at number ``n`` on,
    in the program's order (the bound of ``step_need`` and ``reachable``)."""
    total = 0
    for idx in range(4 * TOP - 1, -1, -1):
        n = idx // 4 + 1
        c = idx % 4
        total += ws.rack[c, n] * max(ws.wts[c, n], 0)
        ws.rest[idx] = total
    ws.rest[4 * TOP] = 0
    ws.meta[M_JOKER_WEIGHT] = joker_weight


@njit_noalloc
def step_need(ws, n, c):
    """The value a state made by step (``n``, ``c``) needs, with the jokers it can still place, to
    reach the known lower bound: the bound less every rack tile still ahead of it (after colour ``c``
    at number ``n``). Read once per step, so that the per-state test (``reachable``) reads no array."""
    return ws.meta[M_LOWER] - ws.rest[4 * (n - 1) + c + 1]


@njit_noalloc
def reachable(value, key, joker_cap, joker_weight, need):
    """Could a state reach the known lower bound? Its value and every joker it could still place,
    against its step's ``need``."""
    return value + (joker_cap - field(key, USED_BIT, 2)) * max(joker_weight, 0) >= need


@njit_inline
def run_program(ws, n_locked, rack_jokers, joker_cap, max_jokers, both_colours, threshold, joker_sweep, n_real):
    """One pass of the program over the 13 numbers; returns (best objective, its arena entry). It goes
    through the ``n_real`` steps of ``ws.order`` only (``mark_quiet``).

    Each number is five steps (its four colours, then its groups); every step is handled at one
    call site, so that the steps inline into one function (a call would copy the whole workspace)."""
    meta = ws.meta
    meta[M_TOP] = 1
    meta[M_OVERFLOW] = 0
    meta[M_STAMP] += 1
    ws.start[0] = 0
    ws.keys[0] = initial_key(ws, n_locked)
    ws.vals[0] = 0
    ws.par[0] = -1
    ws.dec[0] = 0
    track = max_jokers == 1
    last = 0  # where the states of the last step the pass went through begin
    for r in range(n_real):
        step = ws.order[r]
        n = (step - 1) // (N_COLOURS + 1) + 1
        c = (step - 1) % (N_COLOURS + 1)
        ws.start[step - 1] = last  # the parents: the last step's states, whatever was skipped
        if c < N_COLOURS:
            colour_step(ws, step, n, c, n_locked, joker_cap, max_jokers, threshold)
            swept = (c, c + 1)
        else:
            close_step(ws, step, n, n_locked, joker_cap, max_jokers, both_colours, threshold)
            swept = (0, N_COLOURS)
        states = meta[M_TOP] - ws.start[step]
        if states == 0:
            return NO_SOLUTION, -1  # no state reaches the bound (or the minimum): nothing to finish
        marked = 0
        if states > 1:  # one state dominates none
            for d in range(swept[0], swept[1]):
                marked += sweep_colour(ws, step, d, track)
            if joker_sweep:
                marked += sweep_jokers(ws, step)
        if marked > 0 or states > meta[M_BEAM]:
            settle_step(ws, step)
        last = ws.start[step]
    ws.start[STEPS] = last
    ws.start[STEPS + 1] = meta[M_TOP]
    best = NO_SOLUTION
    best_i = -1
    joker_weight = meta[M_JOKER_WEIGHT]
    for i in range(ws.start[STEPS], ws.start[STEPS + 1]):
        v = final_value(ws.lk, ws.keys[i], ws.vals[i], n_locked, rack_jokers, joker_weight, max_jokers, threshold)
        if v > best or (v == best and best_i >= 0 and ws.keys[i] < ws.keys[best_i]):  # ties: the smaller key
            best = v
            best_i = i
    return best, best_i


@njit_noalloc
def solve(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, threshold):
    """The best arrangement for the inputs in ``ws`` (``free``, ``rack``, ``wts``, ``lk[:n_locked]``).

    Returns (objective, combinations written to ``ws.out``); objective ``NO_SOLUTION`` when no
    arrangement exists (only possible with a ``threshold``, the initial-meld minimum, or forced
    items). With ``threshold`` > 0 the placed tiles' values (jokers at the number they stand for)
    must total at least ``threshold``; the caller then gives no free tiles and no table items.
    ``ws.meta[M_OVERFLOW]`` is 1 if the arena overflowed (the answer is then valid but maybe not
    the best; the tests and benchmarks check that it stays 0).

    With jokers in play a first pass without them gives a lower bound, and the second pass drops
    every state that cannot reach it (``reachable``): jokers multiply the states, and most of those
    cannot beat the best play without them.
    """
    return program_passes(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, threshold, False, 0)


@njit_noalloc
def solve_play(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, floor):
    """``solve`` for a later turn's play (no minimum, no forced item), where only a positive
    objective is a play: returns (objective, combinations in ``ws.out``), or (0, 0) when no
    arrangement is worth more than 0. ``floor`` is a value some arrangement without jokers is known
    to reach (``table.floor_value``; 0 if none is known).

    Bound first: a pass keeps only the states that can still reach a target (``reachable``). The
    first pass's target is the most the rack could give (every rack tile placed): it holds few states, and
    if it finds an arrangement, that arrangement is the best. Otherwise a second pass aims at
    ``floor`` (at least 1) and finds the best, which is exact whatever the target below it: the
    bound only drops states that cannot reach the target. With jokers, those passes go without
    them, and then one pass with them keeps the states that can reach that answer (or 1), as in
    ``solve``.
    """
    return program_passes(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, 0, True, floor)


@njit_noalloc
def program_passes(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, threshold, later, floor):
    """The passes of ``solve`` (``later`` False: one unbounded pass without jokers, then one with
    them bounded by its answer) or of ``solve_play`` (``later``), over one copy of the program."""
    freeable = freeable_jokers(ws, n_locked)
    joker_cap = min(2, rack_jokers + freeable)
    fill_rest(ws, joker_weight)
    top = ws.rest[0]
    meta = ws.meta
    overflow = 0
    best = NO_SOLUTION
    best_i = -1
    target = top if later else NO_SOLUTION
    with_jokers = False
    quiet_cap = -1
    n_real = 0
    while True:
        if later and not with_jokers and target < 1:
            if joker_cap == 0:
                break
            with_jokers = True  # no play without jokers: the joker pass only needs to reach 1
            target = 1
        cap = joker_cap if with_jokers else 0
        if cap != quiet_cap:
            n_real = mark_quiet(ws, n_locked, cap)
            quiet_cap = cap
        meta[M_LOWER] = target
        best, best_i = run_program(ws, n_locked, rack_jokers, cap, max_jokers, both_colours, threshold,
                                   freeable == 0 and cap > 0, n_real)
        overflow |= meta[M_OVERFLOW]
        if with_jokers:
            break
        if best >= target:
            if joker_cap == 0:
                break
            with_jokers = True
            target = best  # the first pass's answer bounds the joker pass
            continue
        target = max(floor, 1) if target > max(floor, 1) else 0
    meta[M_OVERFLOW] = overflow
    meta[M_BEST] = best
    meta[M_FREED] = 0
    if best_i < 0:
        return (0 if later else NO_SOLUTION), 0
    if later and best < 1:
        return 0, 0
    meta[M_FREED] = field(ws.keys[best_i], FREED_BIT, 2)
    return best, replay(ws, best_i, n_locked, max_jokers)
