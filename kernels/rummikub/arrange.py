"""Rebuilding the Rummikub solver's winning arrangement: the path of decisions from the program's
arena (``kernels.rummikub.solver``) replayed number by number into runs and groups, written as table
rows (``CB_*``) into the workspace's ``out``.
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.rummikub.groups import GROUP_PLAN, PLAN_JOKERS, PLAN_M, PLAN_MASK
from rummysim.kernels.rummikub.layout import (
    CB_DESIG, CB_FROM, CB_KEY, CB_KIND, CB_LEN, CB_LO, CB_SIZE, CB_TILE, JOKER, KIND_GROUP, KIND_RUN, LK_HI,
    LK_KEY, LK_KIND, LK_LO, LK_MASK, LK_SOURCE, LK_TILE, N_COLOURS, REQUIRED, TOP,
)
from rummysim.kernels.rummikub.state import (
    A_EMPTY, A_END, A_END_JOK, A_END_NAT, A_JOK, L_FREE, L_JOK, L_NAT, STEPS, item_at, slot_after,
)

@njit_noalloc
def trace_back(ws, last):
    """ws.path[step] = the decision taken at each step on the way to arena entry ``last``."""
    i = last
    for step in range(STEPS, 0, -1):
        if ws.quiet[step]:
            ws.path[step] = 0  # a step the program skipped: nothing moves there
            continue
        ws.path[step] = ws.dec[i]
        i = ws.par[i]


@njit_noalloc
def new_run(run_col, run_lo, run_len, n_runs, c, n):
    run_col[n_runs] = c
    run_lo[n_runs] = n
    run_len[n_runs] = 0
    return n_runs + 1


@njit_noalloc
def sort_slots(slot_code, slot_run, c):
    """Order colour ``c``'s slots by decreasing code, as the program's keys do (ties stay put)."""
    for a in range(1, 3):
        j = a
        while j > 0 and slot_code[c, j] > slot_code[c, j - 1]:
            code = slot_code[c, j]
            run = slot_run[c, j]
            slot_code[c, j] = slot_code[c, j - 1]
            slot_run[c, j] = slot_run[c, j - 1]
            slot_code[c, j - 1] = code
            slot_run[c, j - 1] = run
            j -= 1


@njit_inline
def replay_colour(ws, decision, n, c, n_runs, n_locked, track):
    """Carry out one colour step of the winning path on the runs being built; returns the run count."""
    for s in range(3):
        action = (decision >> (3 * s)) & 7
        code = ws.slot_code[c, s]
        run = ws.slot_run[c, s]
        if action == A_END or action == A_END_NAT or action == A_END_JOK:
            run = -1
        if action != A_EMPTY and action != A_END:
            if run < 0:
                run = n_runs
                n_runs = new_run(ws.run_col, ws.run_lo, ws.run_len, n_runs, c, n)
            ws.run_tiles[run, ws.run_len[run]] = JOKER if action == A_JOK or action == A_END_JOK else 16 * c + n
            ws.run_len[run] += 1
        ws.slot_code[c, s] = slot_after(code, action, n, track)
        ws.slot_run[c, s] = run
    sort_slots(ws.slot_code, ws.slot_run, c)
    ws.gsel[c] = (decision >> 9) & 3
    for i in range(n_locked):
        if not item_at(ws.lk, i, n, c):
            continue
        option = (decision >> (11 + 2 * i)) & 3
        if ws.lk[i, LK_KIND] == KIND_GROUP:
            if option == L_NAT:
                ws.lk_group[i, 0] |= 1 << c
            continue
        replay_locked_run(ws, i, n, c, option)
    return n_runs


@njit_noalloc
def replay_locked_run(ws, i, n, c, option):
    lo = ws.lk[i, LK_LO]
    hi = ws.lk[i, LK_HI]
    tile = 0
    if lo <= n <= hi:
        tile = ws.lk[i, LK_TILE + n - lo]
        if option == L_FREE or (tile == REQUIRED and option == L_NAT):
            tile = 16 * c + n
        elif tile == REQUIRED:
            tile = JOKER
    elif option == L_NAT:
        tile = 16 * c + n
    elif option == L_JOK:
        tile = JOKER
    if tile != 0:
        ws.lk_tiles[i, n] = tile
        ws.lk_lo[i] = min(ws.lk_lo[i], n)
        ws.lk_hi[i] = max(ws.lk_hi[i], n)


@njit_noalloc
def clear_row(out, row):
    """Every slot of an output row to 0, so that no earlier solve shows through its unused slots."""
    for j in range(CB_SIZE):
        out[row, j] = 0


@njit_noalloc
def write_group(out, row, n, mask, jokers, source):
    """A group of number ``n``: the colours of ``mask``, then ``jokers`` jokers designated with the
    missing colours in increasing order."""
    clear_row(out, row)
    out[row, CB_KIND] = KIND_GROUP
    out[row, CB_KEY] = n
    out[row, CB_LO] = 0
    out[row, CB_FROM] = source
    k = 0
    for c in range(N_COLOURS):
        if (mask >> c) & 1:
            out[row, CB_TILE + k] = 16 * c + n
            out[row, CB_DESIG + k] = 16 * c + n
            k += 1
    for c in range(N_COLOURS):
        if jokers > 0 and not (mask >> c) & 1:
            out[row, CB_TILE + k] = JOKER
            out[row, CB_DESIG + k] = 16 * c + n
            k += 1
            jokers -= 1
    out[row, CB_LEN] = k


@njit_noalloc
def write_run(out, row, c, lo, tiles, offset, length, source):
    """A run of colour ``c`` from ``lo``: ``tiles[offset + i]`` for its numbers ``lo + i``."""
    clear_row(out, row)
    out[row, CB_KIND] = KIND_RUN
    out[row, CB_KEY] = c
    out[row, CB_LO] = lo
    out[row, CB_LEN] = length
    out[row, CB_FROM] = source
    for k in range(length):
        out[row, CB_TILE + k] = tiles[offset + k]
        out[row, CB_DESIG + k] = 16 * c + lo + k


@njit_inline
def replay_close(ws, decision, n, n_locked, max_jokers, rows):
    """The groups of number ``n`` on the winning path, and its locked groups; returns the rows written."""
    jg = decision & 3
    g = ws.gsel
    plan = GROUP_PLAN[g[0], g[1], g[2], g[3], jg, max_jokers - 1]
    for c in range(N_COLOURS):
        g[c] = 0  # used: the next number's quiet colour steps leave nothing for its groups
    for k in range(plan[PLAN_M]):
        write_group(ws.out, rows, n, plan[PLAN_MASK + 2 * k], plan[PLAN_JOKERS + 2 * k], -1)
        rows += 1
    for i in range(n_locked):
        if ws.lk[i, LK_KIND] == KIND_GROUP and ws.lk[i, LK_KEY] == n:
            code = (decision >> (2 + 4 * i)) & 15
            jokers = (code & 3) + (code >> 2)
            write_group(ws.out, rows, n, ws.lk[i, LK_MASK] | ws.lk_group[i, 0], jokers, ws.lk[i, LK_SOURCE])
            rows += 1
    return rows


@njit_noalloc
def replay(ws, last, n_locked, max_jokers):
    """Rebuild the arrangement of arena entry ``last`` into ``ws.out``; returns its combinations."""
    trace_back(ws, last)
    track = max_jokers == 1
    for c in range(N_COLOURS):
        for s in range(3):
            ws.slot_code[c, s] = 0
            ws.slot_run[c, s] = -1
    for i in range(n_locked):
        ws.lk_lo[i] = TOP + 1
        ws.lk_hi[i] = 0
        ws.lk_group[i, 0] = 0
        for n in range(TOP + 2):
            ws.lk_tiles[i, n] = 0
    n_runs = 0
    rows = 0
    for c in range(N_COLOURS):
        ws.gsel[c] = 0  # a quiet step leaves nothing for groups
    for step in range(1, STEPS + 1):
        if ws.quiet[step]:
            continue  # changes nothing
        n = (step - 1) // (N_COLOURS + 1) + 1
        c = (step - 1) % (N_COLOURS + 1)
        if c < N_COLOURS:
            n_runs = replay_colour(ws, ws.path[step], n, c, n_runs, n_locked, track)
        else:
            rows = replay_close(ws, ws.path[step], n, n_locked, max_jokers, rows)
    for r in range(n_runs):
        write_run(ws.out, rows, ws.run_col[r], ws.run_lo[r], ws.run_tiles[r], 0, ws.run_len[r], -1)
        rows += 1
    for i in range(n_locked):
        if ws.lk[i, LK_KIND] == KIND_RUN:
            lo = ws.lk_lo[i]
            write_run(ws.out, rows, ws.lk[i, LK_KEY], lo, ws.lk_tiles[i], lo, ws.lk_hi[i] - lo + 1,
                      ws.lk[i, LK_SOURCE])
            rows += 1
    return rows
