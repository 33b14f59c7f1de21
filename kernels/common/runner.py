"""Python threads over a serial nogil kernel: how every game's batch runner plays an index range.

Threads instead of a ``prange`` loop because the parallel lowering alone added about 14 s to every
cold compile (issue 8). Each game draws its randomness from counter-based streams keyed by its
index and writes only its own rows, so any split of the range gives the same results. The range
is handed out in pieces sized to take about ``PIECE_SECONDS`` each (from the rate of the piece
before), so a stop is seen within a fraction of a second whatever a game costs: on Ctrl-C or
SIGTERM the caller's thread leaves at once and the workers take no further piece (issue 21). They
are daemon threads, so a process that exits does not wait for the piece they are playing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numba

PIECE_SECONDS = 0.1  # the time a piece aims at: how long a stop may wait for the workers
PIECES_PER_THREAD = 8  # a piece is at most count / (threads * 8) games, so the threads end together
WAIT_SECONDS = 0.1  # the caller waits in slices this long, handling signals between them


class _Pieces:
    """The index range range(count), handed out piece by piece to the worker threads."""

    def __init__(self, count: int, threads: int) -> None:
        self.count = count
        self.next = 0
        self.largest = max(1, -(-count // (threads * PIECES_PER_THREAD)))
        self.size = 1  # the first piece times the games (and compiles the kernel on a first call)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def take(self) -> tuple[int, int] | None:
        """The next piece [a, b), or None once the range is done or a stop was asked for."""
        with self.lock:
            if self.stop.is_set() or self.next >= self.count:
                return None
            a = self.next
            self.next = min(a + self.size, self.count)
            return a, self.next

    def played(self, games: int, seconds: float) -> None:
        """Size the next pieces from the rate of the one just played."""
        rate = games / max(seconds, 1e-6)
        with self.lock:
            self.size = int(min(self.largest, max(1.0, rate * PIECE_SECONDS)))

    def fail(self, error: BaseException) -> None:
        with self.lock:
            if self.error is None:
                self.error = error
        self.stop.set()


def _play_pieces(pieces: _Pieces, work: Callable[[int, int], None]) -> None:
    try:
        while (piece := pieces.take()) is not None:
            t0 = time.perf_counter()
            work(*piece)
            pieces.played(piece[1] - piece[0], time.perf_counter() - t0)
    except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
        pieces.fail(exc)


def run_in_threads(count: int, work: Callable[[int, int], None]) -> None:
    """Call ``work(a, b)`` on pieces [a, b) covering range(count), on ``numba.get_num_threads()`` threads.

    An exception in the caller's thread while it waits (KeyboardInterrupt, the CLI's SIGTERM stop)
    stops the workers after their current piece and propagates at once; an exception in a worker
    stops the others and is raised here.
    """
    if count <= 0:
        return
    threads = max(1, min(numba.get_num_threads(), count))
    pieces = _Pieces(count, threads)
    workers = [threading.Thread(target=_play_pieces, args=(pieces, work), name=f"rummysim-games-{i}", daemon=True)
               for i in range(threads)]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            while worker.is_alive():
                worker.join(WAIT_SECONDS)
    except BaseException:
        pieces.stop.set()
        raise
    if pieces.error is not None:
        raise pieces.error
