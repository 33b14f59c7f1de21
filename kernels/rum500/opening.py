"""Legality of plays and takes when cards must follow (C-LEGAL-1), with the V500-OPEN30 search.

A play is allowed when the turn can still end (a card left to discard, or an empty hand where
that is allowed: the ``TurnEnd`` of ``kernels.rum500.duties``) and, for a seat that has not opened, when the points it still owes can still go
down this turn. A take whose card must be played is legal when some such play contains the card.
The opening search is depth-first over canonical actions within a node budget; it runs only in
the full engine (``stack`` is not None).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.rum500.duties import finish_ok
from rummysim.kernels.rum500.layout import (
    A_MASK, A_NJOK, A_VALUE, MAX_CAND, MAX_MELDS, MK_SIZE,
)
from rummysim.kernels.rum500.melds import Table, card_playable, enumerate_plays
from rummysim.kernels.rum500.table import table_after

DFS_DEPTH = 6  # V500-OPEN30 search: melds deep (a hand of 14 holds at most 4 melds)
DFS_CAND = 256
DFS_BUDGET = 4000  # nodes per search; past it an opening is treated as unreachable (refused)


@njit
def opening_reachable(p1, p2, jok, need, end, table, scope, stack, budget):
    """V500-OPEN30: can further plays this turn put at least ``need`` more points down?

    Depth-first over canonical actions, each applied to its own copy of the table (a set takes
    one lay-off, a run end moves), within a node budget: past it the opening counts as
    unreachable, so the engine refuses rather than risk a stuck turn. Iterative, because numba's
    on-disk cache does not reload recursive functions safely.
    """
    depth = stack.shape[0]
    if depth == 0:
        return False
    tables = np.empty((depth, MAX_MELDS, MK_SIZE), dtype=np.int16)
    sizes = np.empty(depth, dtype=np.int64)
    h1 = np.empty(depth, dtype=np.uint64)
    h2 = np.empty(depth, dtype=np.uint64)
    hj = np.empty(depth, dtype=np.int64)
    owed = np.empty(depth, dtype=np.int64)
    count = np.empty(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    gambits = np.empty(depth, dtype=np.int64)  # Table.gambit per depth: the dealer's joker goes down once
    n_melds = table.n_melds
    tables[0, :n_melds] = table.melds[:n_melds]
    sizes[0] = n_melds
    gambits[0] = table.gambit
    h1[0], h2[0], hj[0], owed[0] = p1, p2, jok, need
    count[0] = enumerate_plays(p1, jok, -1, _level(tables, sizes, gambits, 0, table), scope, stack[0], 0, stack.shape[1])
    d = 0
    while d >= 0:
        if idx[d] >= count[d]:
            d -= 1
            continue
        row = stack[d, idx[d]]
        idx[d] += 1
        m = np.uint64(row[A_MASK])
        q1 = h1[d] & ~(m & ~h2[d])
        q2 = h2[d] & ~m
        qj = hj[d] - row[A_NJOK]
        if not finish_ok(q1, qj, end):
            continue
        if row[A_VALUE] >= owed[d]:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if d + 1 >= depth:
            continue
        after = table_after(_level(tables, sizes, gambits, d, table), row)
        d += 1
        tables[d, :after.n_melds] = after.melds[:after.n_melds]
        sizes[d] = after.n_melds
        gambits[d] = after.gambit
        h1[d], h2[d], hj[d], owed[d] = q1, q2, qj, owed[d - 1] - row[A_VALUE]
        idx[d] = 0
        count[d] = enumerate_plays(q1, qj, -1, _level(tables, sizes, gambits, d, table), scope, stack[d], 0, stack.shape[1])
    return False


@njit_inline
def _level(tables, sizes, gambits, d, table):
    """The table copy of search depth d, with ``table``'s values and rules."""
    return Table(tables[d], sizes[d], table.vals, table.ace_low, table.rules, table.team, gambits[d])


@njit
def opening_after(q1, q2, qj, act, need, end, table, scope, stack, budget):
    """V500-OPEN30 after the play ``act`` left the holding (q1, q2, qj): can ``need`` more points
    still go down? (Allocates the table copies, so apart from the reference-count-free callers.)"""
    after = table_after(table, act)
    budget[0] = DFS_BUDGET
    return opening_reachable(q1, q2, qj, need, end, after, scope, stack, budget)


@njit_noalloc
def action_allowed(p1, p2, jok, act, end, need, placed, table, scope, stack, budget):
    """C-LEGAL-1 for one play: the turn can still end (``end``, a ``TurnEnd``), and a pending
    opening can still be met (``need`` points, ``placed`` of them already down this turn)."""
    m = np.uint64(act[A_MASK])
    q1 = p1 & ~(m & ~p2)
    q2 = p2 & ~m
    qj = jok - act[A_NJOK]
    if not finish_ok(q1, qj, end):
        return False
    if need <= 0 or placed + act[A_VALUE] >= need:
        return True
    if stack is None:
        return False  # not reached: the lean engine serves only rules without V500-OPEN30
    return opening_after(q1, q2, qj, act, need - placed - act[A_VALUE], end, table, scope, stack, budget)


@njit_inline
def must_play_possible(c, a1, a2, ajok, end, need, table, scope, scratch, stack, budget):
    """A take (or call) whose card c must be played this turn is legal: some play containing c
    keeps the turn finishable (R500-DRAW-3/5, V500-TOPMUST, V500-RUMMY-3, C-LEGAL-1). The
    holding after the take is (a1, a2, ajok), ``end`` its ``TurnEnd``."""
    simple = need <= 0 and end.forb == 0 and not end.forb_joker and end.empty_ok
    if simple:
        return card_playable(c, a1, ajok, table, scope, scratch)
    n = enumerate_plays(a1, ajok, c, table, scope, scratch, 0, MAX_CAND)
    for i in range(n):
        if action_allowed(a1, a2, ajok, scratch[i], end, need, 0, table, scope, stack, budget):
            return True
    return False
