"""Trace mode, shared by every game: the record writer and the common record kinds.

A trace is an int32[rows, TRACE_COLS] buffer of records (kind, then seven values), the contract
between the kernels and the independent validator (docs/trace-format.md); the kinds and the
cursor slots are constants of ``kernels.common.layout``. Every game's scalar state vector ``st``
begins with the trace cursor: ``st[TRACE_POS]`` is the next free row and ``st[TRACE_OVERFLOW]``
becomes 1 when the buffer is full.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.layout import TRACE_OVERFLOW, TRACE_POS

@njit_noalloc
def record(trace, st, kind, a, b, c, d, e, f, g):
    """Append one trace row; a full buffer sets ``st[TRACE_OVERFLOW]`` instead of writing past the end.

    ``trace`` is None outside trace mode. Numba prunes an ``is None`` test only on an argument, so
    this is a function rather than inlined: its None specialization is empty and an untraced
    engine neither compiles nor runs any of its call sites' bodies.
    """
    if trace is None:
        return
    i = st[TRACE_POS]
    if i >= trace.shape[0]:
        st[TRACE_OVERFLOW] = 1
        return
    trace[i, 0] = kind
    trace[i, 1] = a
    trace[i, 2] = b
    trace[i, 3] = c
    trace[i, 4] = d
    trace[i, 5] = e
    trace[i, 6] = f
    trace[i, 7] = g
    st[TRACE_POS] = i + 1


@njit
def record_cards(trace, st, kind, offset, cards, n):
    """Cards ``cards[offset:offset+n]`` in rows of six (a deck, a restocked pile), unused slots -1."""
    if trace is None:
        return
    for off in range(0, n, 6):
        row = np.full(6, -1, dtype=np.int64)
        for j in range(6):
            if off + j < n:
                row[j] = cards[offset + off + j]
        record(trace, st, kind, off, row[0], row[1], row[2], row[3], row[4], row[5])
