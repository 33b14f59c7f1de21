"""The Rummikub table between turns and the solver: its inputs, the cheap pre-test, and the result.

``load_table`` turns the table rows (``CB_*``) into the solver's inputs: the tile counts of the
combinations without a joker, which may be rearranged freely (RKUB-MANIP-1), and one locked item
per combination with a joker (RKUB-JOKER-2). ``load_rack`` and ``set_weights`` add the rack and
the objective. ``can_place`` is the pre-test that skips a solve when no rack tile can possibly
be placed. ``best_arrangement`` runs the whole thing for a rack on a table (or, for an initial
meld, on an empty table with the minimum of RKUB-INIT-30) and ``mark_rack`` records which tiles
of a new table came from the rack. A later turn goes through ``later_play``: the rack tiles no table
can hold off the solver's rack (``drop_unplaceable``), the rows no rack tile can reach left as they
are (``set_aside``, ``put_back``), and a greedy arrangement's value as the solver's bound
(``floor_value``).
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.rummikub.layout import (
    CB_DESIG, CB_FROM, CB_KEY, CB_KIND, CB_LEN, CB_LO, CB_RACK, CB_TILE, INIT_SINGLE_COMBO, JOKER, KIND_GROUP,
    KIND_RUN, LK_HI, LK_JOKERS, LK_KEY, LK_KIND, LK_LO, LK_MASK, LK_MIN, LK_SIZE, LK_SOURCE, LK_TILE,
    MAX_LOCKED, N_COLOURS, OBJ_VALUE, REQUIRED, TILE_IDS, TOP,
)
from rummysim.kernels.rummikub.solver import freeable_jokers, solve, solve_play
from rummysim.kernels.rummikub.state import M_OVERFLOW, NO_SOLUTION

NOTHING = 0  # objective of placing nothing


@njit_noalloc
def combo_jokers(table, r):
    k = 0
    for i in range(table[r, CB_LEN]):
        if table[r, CB_TILE + i] == JOKER:
            k += 1
    return k


@njit_noalloc
def lock_row(ws, i, table, r):
    """Locked item ``i`` = table row ``r``, a combination holding a joker."""
    lk = ws.lk
    for j in range(LK_SIZE):
        lk[i, j] = 0
    lk[i, LK_KIND] = table[r, CB_KIND]
    lk[i, LK_KEY] = table[r, CB_KEY]
    lk[i, LK_JOKERS] = combo_jokers(table, r)
    lk[i, LK_SOURCE] = r
    lk[i, LK_MIN] = 3
    if table[r, CB_KIND] == KIND_RUN:
        lk[i, LK_LO] = table[r, CB_LO]
        lk[i, LK_HI] = table[r, CB_LO] + table[r, CB_LEN] - 1
        for k in range(table[r, CB_LEN]):
            lk[i, LK_TILE + k] = table[r, CB_TILE + k]
    else:
        mask = 0
        for k in range(table[r, CB_LEN]):
            t = table[r, CB_TILE + k]
            if t != JOKER:
                mask |= 1 << (t >> 4)
        lk[i, LK_MASK] = mask


@njit_noalloc
def load_table(ws, table, n_combos):
    """Free tile counts and locked items of the table; returns the number of locked items."""
    n_locked = 0
    for r in range(n_combos):
        if combo_jokers(table, r) > 0 and n_locked < MAX_LOCKED:
            lock_row(ws, n_locked, table, r)
            n_locked += 1
            continue
        for k in range(table[r, CB_LEN]):
            t = table[r, CB_TILE + k]
            ws.free[t >> 4, t & 15] += 1
    return n_locked


@njit_noalloc
def load_rack(ws, rack):
    """Rack counts into the solver's planes; returns the rack's jokers."""
    for t in range(1, JOKER):
        if rack[t] > 0:
            ws.rack[t >> 4, t & 15] = rack[t]
    return rack[JOKER]


@njit_noalloc
def set_weights(ws, objective):
    """Each rack tile's weight: 1 (OBJ_COUNT) or its number (OBJ_VALUE)."""
    for c in range(N_COLOURS):
        for n in range(1, TOP + 1):
            ws.wts[c, n] = n if objective == OBJ_VALUE else 1


@njit_noalloc
def joker_weight_of(objective, joker_penalty):
    return joker_penalty if objective == OBJ_VALUE else 1


@njit_noalloc
def can_place(ws, n_locked, rack_jokers):
    """Pre-test: could any rack tile be part of a valid final table? False means certainly not.

    A natural rack tile needs a window of three numbers of its colour around it whose missing
    tiles the jokers in play could fill, a group of three with tiles of other colours (or jokers),
    or a locked combination it could extend; a rack joker needs two other tiles anywhere."""
    jokers = rack_jokers
    for i in range(n_locked):
        jokers += ws.lk[i, LK_JOKERS]
    total = 0
    for c in range(N_COLOURS):
        for n in range(1, TOP + 1):
            total += ws.free[c, n] + ws.rack[c, n]
    if rack_jokers > 0 and total + n_locked * 3 >= 2:
        return True
    for c in range(N_COLOURS):
        for n in range(1, TOP + 1):
            if ws.rack[c, n] > 0 and tile_may_fit(ws.free, ws.rack, ws.lk, c, n, jokers, n_locked):
                return True
    return False


@njit_noalloc
def drop_unplaceable(ws, n_locked, rack_jokers):
    """Take off the solver's rack every tile that ``tile_may_fit`` says no final table can hold, until
    none is left to take (a tile taken off may leave another one without the window or group it
    needed). They stay on the seat's rack; the program no longer tries them. Returns the natural
    rack tiles left."""
    jokers = rack_jokers
    for i in range(n_locked):
        jokers += ws.lk[i, LK_JOKERS]
    changed = True
    left = 0
    while changed:
        changed = False
        left = 0
        for c in range(N_COLOURS):
            for n in range(1, TOP + 1):
                if ws.rack[c, n] > 0:
                    if tile_may_fit(ws.free, ws.rack, ws.lk, c, n, jokers, n_locked):
                        left += ws.rack[c, n]
                    else:
                        ws.rack[c, n] = 0
                        changed = True
    return left


@njit_noalloc
def reach_masks(free, rack):
    """Per colour, the bitmask of the numbers (bit ``n``) whose tiles a rack tile can reach: from the
    rack tiles, through neighbours of a colour and tiles of a number, over the tiles there are
    (table and rack). Returns the four masks."""
    p0 = p1 = p2 = p3 = 0
    a0 = a1 = a2 = a3 = 0
    for n in range(1, TOP + 1):
        bit = 1 << n
        p0 |= bit if free[0, n] + rack[0, n] > 0 else 0
        p1 |= bit if free[1, n] + rack[1, n] > 0 else 0
        p2 |= bit if free[2, n] + rack[2, n] > 0 else 0
        p3 |= bit if free[3, n] + rack[3, n] > 0 else 0
        a0 |= bit if rack[0, n] > 0 else 0
        a1 |= bit if rack[1, n] > 0 else 0
        a2 |= bit if rack[2, n] > 0 else 0
        a3 |= bit if rack[3, n] > 0 else 0
    while True:
        b0 = spread(a0, p0)
        b1 = spread(a1, p1)
        b2 = spread(a2, p2)
        b3 = spread(a3, p3)
        col = b0 | b1 | b2 | b3
        b0 |= col & p0
        b1 |= col & p1
        b2 |= col & p2
        b3 |= col & p3
        if b0 == a0 and b1 == a1 and b2 == a2 and b3 == a3:
            return a0, a1, a2, a3
        a0, a1, a2, a3 = b0, b1, b2, b3


@njit_noalloc
def spread(mask, present_mask):
    """``mask`` grown along consecutive numbers of ``present_mask`` (a colour's runs of tiles)."""
    while True:
        grown = mask | (((mask << 1) | (mask >> 1)) & present_mask)
        if grown == mask:
            return mask
        mask = grown


@njit_noalloc
def lock_reachable(lk, rack, i):
    """Can a rack tile join locked item ``i`` when no joker can move (none on the rack, none freeable)?
    Then a run gains tiles only at its ends, a group only a colour it lacks."""
    c = lk[i, LK_KEY]
    if lk[i, LK_KIND] == KIND_RUN:
        return rack[c, lk[i, LK_LO] - 1] > 0 or rack[c, lk[i, LK_HI] + 1] > 0
    for d in range(N_COLOURS):
        if not (lk[i, LK_MASK] >> d) & 1 and rack[d, c] > 0:
            return True
    return False


@njit_noalloc
def set_aside(ws, table, n_combos, n_locked):
    """With no joker that can move, leave out of the program the table rows that no rack tile can
    reach (``reach_masks``, ``lock_reachable``): their tiles come off ``free``, locked items are
    dropped from ``lk``, and ``aside[r]`` marks them, to be copied unchanged into the final table
    (``put_back``). Every combination's tiles are connected, so a row is reached whole or not at
    all. A position then costs what its reachable part costs: most early-game rack tiles touch one
    or two combinations of a table of twenty tiles. Returns the locked items left."""
    a0, a1, a2, a3 = reach_masks(ws.free, ws.rack)
    for r in range(n_combos):
        ws.aside[r] = 0
        if combo_jokers(table, r) > 0:
            continue
        t = table[r, CB_TILE]
        colour = t >> 4
        mask = a0 if colour == 0 else a1 if colour == 1 else a2 if colour == 2 else a3
        if not (mask >> (t & 15)) & 1:
            ws.aside[r] = 1
            for k in range(table[r, CB_LEN]):
                u = table[r, CB_TILE + k]
                ws.free[u >> 4, u & 15] -= 1
    kept = 0
    for i in range(n_locked):
        if not lock_reachable(ws.lk, ws.rack, i):
            ws.aside[ws.lk[i, LK_SOURCE]] = 1
            continue
        if kept != i:
            for j in range(LK_SIZE):
                ws.lk[kept, j] = ws.lk[i, j]
        kept += 1
    return kept


@njit_noalloc
def floor_value(ws, table, n_combos):
    """A value that some arrangement without jokers surely reaches, found greedily: rack tiles of
    positive weight added to the ends of the table's runs and to its groups of three, then new runs
    and groups from the rack tiles left. Every such table is valid, so the solver's exact pass may
    drop the states that cannot reach it (``solver.solve_play``)."""
    left = ws.left
    for c in range(N_COLOURS):
        for n in range(TOP + 3):
            left[c, n] = ws.rack[c, n] if 1 <= n <= TOP and ws.wts[c, n] > 0 else 0
    value = 0
    for r in range(n_combos):
        if ws.aside[r] == 1 or combo_jokers(table, r) > 0:
            continue
        if table[r, CB_KIND] == KIND_RUN:
            value += extend_run(left, ws.wts, table[r, CB_KEY], table[r, CB_LO],
                                table[r, CB_LO] + table[r, CB_LEN] - 1)
        elif table[r, CB_LEN] == 3:
            value += fill_group(left, ws.wts, table, r)
    for _ in range(2):  # two copies of a tile make at most two new combinations of it
        for c in range(N_COLOURS):
            value += rack_runs(left, ws.wts, c)
        for n in range(1, TOP + 1):
            value += rack_group(left, ws.wts, n)
    return value


@njit_noalloc
def extend_run(left, wts, c, lo, hi):
    """Rack tiles of ``left`` added to both ends of a run of colour ``c`` over ``lo..hi``; returns
    their weight."""
    value = 0
    while lo > 1 and left[c, lo - 1] > 0:
        lo -= 1
        left[c, lo] -= 1
        value += wts[c, lo]
    while hi < TOP and left[c, hi + 1] > 0:
        hi += 1
        left[c, hi] -= 1
        value += wts[c, hi]
    return value


@njit_noalloc
def fill_group(left, wts, table, r):
    """A rack tile of a missing colour added to the group of three in row ``r``; returns its weight."""
    n = table[r, CB_KEY]
    mask = 0
    for k in range(3):
        mask |= 1 << (table[r, CB_TILE + k] >> 4)
    for c in range(N_COLOURS):
        if not (mask >> c) & 1 and left[c, n] > 0:
            left[c, n] -= 1
            return wts[c, n]
    return 0


@njit_noalloc
def rack_runs(left, wts, c):
    """New runs of colour ``c`` from ``left``'s tiles, one copy each: every stretch of three or more
    consecutive numbers. Takes them off ``left``; returns their weight."""
    value = 0
    n = 1
    while n <= TOP:
        m = n
        while m <= TOP and left[c, m] > 0:
            m += 1
        if m - n >= 3:
            for k in range(n, m):
                left[c, k] -= 1
                value += wts[c, k]
        n = m + 1
    return value


@njit_noalloc
def rack_group(left, wts, n):
    """A new group of number ``n`` from ``left``'s tiles if three or four colours have one; returns
    its weight."""
    colours = 0
    for c in range(N_COLOURS):
        colours += 1 if left[c, n] > 0 else 0
    if colours < 3:
        return 0
    value = 0
    for c in range(N_COLOURS):
        if left[c, n] > 0:
            left[c, n] -= 1
            value += wts[c, n]
    return value


@njit_noalloc
def put_back(ws, table, n_combos, rows):
    """The rows ``set_aside`` left out, after the program's ``rows`` in ``ws.out``; returns the rows."""
    for r in range(n_combos):
        if ws.aside[r] == 1:
            for j in range(table.shape[1]):
                ws.out[rows, j] = table[r, j]
            ws.out[rows, CB_FROM] = r if combo_jokers(table, r) > 0 else -1
            rows += 1
    return rows


@njit_noalloc
def present(free, rack, c, n):
    return 1 <= n <= TOP and free[c, n] + rack[c, n] > 0


@njit_noalloc
def tile_may_fit(free, rack, lk, c, n, jokers, n_locked):
    """Could rack tile (``c``, ``n``) be in a valid final table (see ``can_place``)? Takes the arrays
    it needs, not the workspace: called per rack tile, and with the workspace each call would pass
    its 29 arrays."""
    for lo in range(n - 2, n + 1):
        if lo < 1 or lo + 2 > TOP:
            continue
        missing = 0
        for m in range(lo, lo + 3):
            if m != n and not present(free, rack, c, m):
                missing += 1
        if missing <= jokers:
            return True
    others = 0
    for d in range(N_COLOURS):
        if d != c and present(free, rack, d, n):
            others += 1
    if others + jokers >= 2:
        return True
    for i in range(n_locked):
        if lk[i, LK_KIND] == KIND_RUN and lk[i, LK_KEY] == c:
            gap = max(lk[i, LK_LO] - n, n - lk[i, LK_HI])
            if 0 <= gap - 1 <= jokers or (lk[i, LK_LO] <= n <= lk[i, LK_HI]):
                return True
        if lk[i, LK_KIND] == KIND_GROUP and lk[i, LK_KEY] == n and not (lk[i, LK_MASK] >> c) & 1:
            return True
    return False


@njit_noalloc
def rack_value(rack, joker_penalty):
    v = rack[JOKER] * joker_penalty
    for t in range(1, JOKER):
        v += rack[t] * (t & 15)
    return v


@njit_noalloc
def initial_possible(rack, threshold):
    """Pre-test for an initial meld: the rack's tiles (a joker at most 13) reach the minimum."""
    return rack_value(rack, 13) >= threshold


@njit_noalloc
def force_run(ws, c, lo, hi):
    """Locked item 0 = a run of colour ``c`` over ``lo..hi`` the solver must build from the rack."""
    lk = ws.lk
    for j in range(LK_SIZE):
        lk[0, j] = 0
    lk[0, LK_KIND] = KIND_RUN
    lk[0, LK_KEY] = c
    lk[0, LK_LO] = lo
    lk[0, LK_HI] = hi
    lk[0, LK_SOURCE] = -1
    for k in range(hi - lo + 1):
        lk[0, LK_TILE + k] = REQUIRED


@njit_noalloc
def force_group(ws, n, size):
    lk = ws.lk
    for j in range(LK_SIZE):
        lk[0, j] = 0
    lk[0, LK_KIND] = KIND_GROUP
    lk[0, LK_KEY] = n
    lk[0, LK_MIN] = size
    lk[0, LK_SOURCE] = -1


@njit_noalloc
def run_value(lo, hi):
    return (lo + hi) * (hi - lo + 1) // 2


@njit_noalloc
def window_fillable(ws, c, lo, hi, jokers, max_jokers):
    missing = 0
    for m in range(lo, hi + 1):
        if ws.rack[c, m] == 0:
            missing += 1
    return missing <= min(jokers, max_jokers)


@njit_noalloc
def best_single_combo(ws, rack_jokers, joker_weight, max_jokers, threshold):
    """``rkub_initial_rule = single_combo``: the best initial meld with one combination worth at
    least ``threshold`` by itself. Every such meld holds a run or group the solver can be made to
    build: a run window worth the minimum that no shorter window inside it reaches (the forced run
    may grow), or a group of a number whose 3 (or 4) tiles reach it. Each is solved in turn and the
    best is kept; the winner is solved again so that ``ws.out`` holds it."""
    best = NO_SOLUTION
    best_kind = -1
    best_a = 0
    best_b = 0
    for kind in range(2):
        for c in range(N_COLOURS if kind == KIND_RUN else 1):
            for a in range(1, TOP + 1):
                b = a
                if kind == KIND_RUN:
                    b = a + 2
                    while b <= TOP and run_value(a, b) < threshold:
                        b += 1
                    if b > TOP or (b > a + 2 and run_value(a + 1, b) >= threshold):
                        continue
                    if not window_fillable(ws, c, a, b, rack_jokers, max_jokers):
                        continue
                    force_run(ws, c, a, b)
                else:
                    size = 3 if 3 * a >= threshold else 4
                    if size * a < threshold:
                        continue
                    force_group(ws, a, size)
                v, rows = solve(ws, 1, rack_jokers, joker_weight, max_jokers, 0, 0)
                if v > best:
                    best = v
                    best_kind = kind
                    best_a = a if kind == KIND_GROUP else c
                    best_b = b if kind == KIND_GROUP else a
    if best_kind < 0:
        return NO_SOLUTION, 0
    if best_kind == KIND_RUN:
        lo = best_b
        hi = lo + 2
        while run_value(lo, hi) < threshold:
            hi += 1
        force_run(ws, best_a, lo, hi)
    else:
        force_group(ws, best_a, 3 if 3 * best_a >= threshold else 4)
    return solve(ws, 1, rack_jokers, joker_weight, max_jokers, 0, 0)


@njit_inline
def best_arrangement(ws, table, n_combos, rack, objective, joker_penalty, max_jokers, both_colours, initial,
                     initial_rule, threshold):
    """The best play of ``rack`` (counts by id) on ``table`` into ``ws.out``.

    Returns (objective, rows of ``ws.out``); objective ``NOTHING`` (0) or less when no rack tile
    can be placed (with ``initial``: when no initial meld reaches ``threshold``). With ``initial``
    the table is not touched and the play is new combinations from the rack alone (RKUB-INIT-30).
    """
    set_weights(ws, objective)
    return arrangement(ws, table, n_combos, rack, joker_weight_of(objective, joker_penalty), max_jokers,
                       both_colours, initial, initial_rule, threshold)


@njit_noalloc
def arrangement(ws, table, n_combos, rack, joker_weight, max_jokers, both_colours, initial, initial_rule,
                threshold):
    """``best_arrangement`` with the weights already in ``ws.wts`` (its other inputs are cleared)."""
    for c in range(N_COLOURS):
        for n in range(TOP + 3):
            ws.free[c, n] = 0
            ws.rack[c, n] = 0
    rack_jokers = load_rack(ws, rack)
    if initial:
        if not initial_possible(rack, threshold):
            return NO_SOLUTION, 0
        if initial_rule == INIT_SINGLE_COMBO:
            return best_single_combo(ws, rack_jokers, joker_weight, max_jokers, threshold)
        return solve(ws, 0, rack_jokers, joker_weight, max_jokers, both_colours, threshold)
    n_locked = load_table(ws, table, n_combos)
    if not can_place(ws, n_locked, rack_jokers):
        return NOTHING, 0
    return later_play(ws, table, n_combos, n_locked, rack_jokers, joker_weight, max_jokers, both_colours)


@njit_noalloc
def later_play(ws, table, n_combos, n_locked, rack_jokers, joker_weight, max_jokers, both_colours):
    """A later turn's best play on the loaded table: the rack tiles no table can hold taken off, the
    rows no rack tile can reach set aside (when no joker can move), the program on the rest
    (``solve_play``), the rows set aside put back."""
    if drop_unplaceable(ws, n_locked, rack_jokers) == 0 and rack_jokers == 0:
        return NOTHING, 0
    for r in range(n_combos):
        ws.aside[r] = 0
    if rack_jokers == 0 and freeable_jokers(ws, n_locked) == 0:
        n_locked = set_aside(ws, table, n_combos, n_locked)
    floor = floor_value(ws, table, n_combos)
    best, rows = solve_play(ws, n_locked, rack_jokers, joker_weight, max_jokers, both_colours, floor)
    if best <= 0:
        return NOTHING, 0
    return best, put_back(ws, table, n_combos, rows)


@njit_noalloc
def count_tile(table, rows, tile):
    k = 0
    for r in range(rows):
        for i in range(table[r, CB_LEN]):
            if table[r, CB_TILE + i] == tile:
                k += 1
    return k


@njit_noalloc
def mark_rack(new, rows, old, n_old, counts):
    """Fill ``new``'s ``CB_RACK`` flags against the table ``old`` it replaces: a locked combination's
    continuation keeps its old tiles (its additions are rack tiles, or jokers), and of every other
    tile id the first copies, as many as the old table still has loose, are table tiles.
    ``counts`` (int64[TILE_IDS]) is scratch. Returns the number of rack tiles."""
    for t in range(TILE_IDS):
        counts[t] = 0
    for r in range(n_old):
        for i in range(old[r, CB_LEN]):
            counts[old[r, CB_TILE + i]] += 1
    for r in range(rows):
        src = new[r, CB_FROM]
        for i in range(new[r, CB_LEN]):
            new[r, CB_RACK + i] = -1
        if src < 0:
            continue
        for i in range(new[r, CB_LEN]):
            tile = new[r, CB_TILE + i]
            if continues_tile(new, r, i, old, src, tile):
                new[r, CB_RACK + i] = 0
                counts[tile] -= 1
            elif tile != JOKER:
                new[r, CB_RACK + i] = 1
    placed = 0
    for r in range(rows):
        for i in range(new[r, CB_LEN]):
            if new[r, CB_RACK + i] < 0:
                tile = new[r, CB_TILE + i]
                if counts[tile] > 0:
                    counts[tile] -= 1
                    new[r, CB_RACK + i] = 0
                else:
                    new[r, CB_RACK + i] = 1
            placed += new[r, CB_RACK + i]
    return placed


@njit_noalloc
def continues_tile(new, r, i, old, src, tile):
    """Is tile ``i`` of new row ``r`` one of the old locked row ``src``'s own tiles, in place?"""
    if new[r, CB_KIND] == KIND_RUN:
        n = new[r, CB_LO] + i
        k = n - old[src, CB_LO]
        return 0 <= k < old[src, CB_LEN] and old[src, CB_TILE + k] == tile
    if tile == JOKER:
        return False  # a group's jokers are matched by count below
    for k in range(old[src, CB_LEN]):
        if old[src, CB_TILE + k] == tile:
            return True
    return False


@njit_noalloc
def copy_table(dst, src, rows):
    for r in range(rows):
        for j in range(src.shape[1]):
            dst[r, j] = src[r, j]


@njit_noalloc
def combo_value(table, r):
    """A combination's value: the numbers its tiles stand for (RKUB-JOKER-1)."""
    v = 0
    for i in range(table[r, CB_LEN]):
        v += table[r, CB_DESIG + i] & 15
    return v



@njit_noalloc
def solve_positions(ws, tables, sizes, racks, objective, joker_penalty, max_jokers, both_colours, results):
    """Solve every position ``i`` (``tables[i, :sizes[i]]`` and ``racks[i]``) after the initial
    meld, into ``results[i]`` (the objective; 0 or less: no play): ``rummysim bench``'s solver
    throughput. Returns the number of positions whose solve overflowed the arena."""
    overflows = 0
    for i in range(tables.shape[0]):
        best, _ = best_arrangement(ws, tables[i], sizes[i], racks[i], objective, joker_penalty, max_jokers,
                                   both_colours, False, 0, 0)
        results[i] = max(best, 0)
        overflows += ws.meta[M_OVERFLOW]
    return overflows
