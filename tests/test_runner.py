"""The thread runner (kernels/common/runner.py): every game once, errors raised, and a stop seen
within a fraction of a second however long the range (issue 21, point 10)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from rummysim.kernels.common import runner


@pytest.fixture
def two_threads(monkeypatch):
    monkeypatch.setattr(runner.numba, "get_num_threads", lambda: 2)


class Games:
    """A stand-in for a kernel: each game takes ``seconds`` and is recorded."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.pieces: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def __call__(self, a: int, b: int) -> None:
        if self.seconds:
            time.sleep(self.seconds * (b - a))
        with self.lock:
            self.pieces.append((a, b))

    @property
    def played(self) -> int:
        with self.lock:
            return sum(b - a for a, b in self.pieces)


@pytest.mark.parametrize("count", [1, 2, 3, 17, 1000, 100_000])
def test_every_game_is_played_once(two_threads, count):
    games = Games()
    runner.run_in_threads(count, games)
    covered = sorted(i for a, b in games.pieces for i in range(a, b))
    assert covered == list(range(count))


def test_nothing_to_play_calls_nothing(two_threads):
    games = Games()
    runner.run_in_threads(0, games)
    assert games.pieces == []


def test_an_error_in_a_worker_is_raised_and_stops_the_others(two_threads):
    calls = []

    def work(a: int, b: int) -> None:
        calls.append(a)
        if a >= 50:
            raise ValueError("boom")
        time.sleep(0.001 * (b - a))

    with pytest.raises(ValueError, match="boom"):
        runner.run_in_threads(10_000, work)
    assert max(calls) < 10_000 - 100


@pytest.fixture
def default_ctrl_c():
    """Python's own SIGINT handler for the test, whatever an earlier test of the worker process
    left installed (the test is about the runner, not about the process's handlers)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_long_range_at_once(two_threads, default_ctrl_c):
    """10,000 games of 20 ms on 2 threads (100 s): SIGINT after 0.5 s is raised within 0.5 s, and
    the workers stop within a piece (the old runner finished its pieces first: about 100 s)."""
    games = Games(0.02)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        runner.run_in_threads(10_000, games)
    latency = time.monotonic() - t0 - 0.5
    timer.join()
    assert latency < 0.5, f"the stop took {latency:.2f} s"
    time.sleep(runner.PIECE_SECONDS * 3 + 0.1)
    settled = games.played
    time.sleep(0.3)
    assert games.played == settled < 10_000, "workers kept playing after the stop"
