"""Python threads over a serial nogil kernel: how every game's batch runner plays an index range.

Threads instead of a ``prange`` loop because the parallel lowering alone added about 14 s to every
cold compile (issue 8). Each game draws its randomness from counter-based streams keyed by its
index and writes only its own rows, so any split of the range gives the same results.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba

PIECES_PER_THREAD = 8  # small pieces balance the threads when games differ in length


def run_in_threads(count: int, work: Callable[[int, int], None]) -> None:
    """Call ``work(a, b)`` on pieces [a, b) covering range(count), on ``numba.get_num_threads()`` threads."""
    threads = numba.get_num_threads()
    size = max(1, -(-count // (threads * PIECES_PER_THREAD)))
    pieces = [(a, min(a + size, count)) for a in range(0, count, size)]
    if threads == 1 or len(pieces) <= 1:
        for a, b in pieces:
            work(a, b)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for future in [pool.submit(work, a, b) for a, b in pieces]:
            future.result()
