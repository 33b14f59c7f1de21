"""A sweep's plan: the time estimate (issue 21, point 9) and huge plans (point 4)."""

from __future__ import annotations

import time

from rummysim.sweeps import sweep

ESTIMATED = {"run": {"seed": 2, "games_per_cell": 6000, "chunk_size": 1000},
             "grid": {"players": [2, 4], "lineup": ["greedy", "random"]}}


def test_the_estimate_is_timed_after_the_compile_and_corrected_as_chunks_finish(tmp_path):
    """The first kernel call compiles or loads the kernels (0.4 s from the cache, a minute cold):
    timing it made the estimate 40-150 times too long. Within a factor 3 of the real time here,
    and the time left after each chunk within a factor 2 (or half a second) of what it took."""
    plans, reports = [], []

    def on_plan(plan) -> None:
        plans.append((plan, plan.est_seconds, time.perf_counter()))

    def progress(done: int, total: int) -> None:
        reports.append((done, plans[0][0].est_seconds, time.perf_counter()))

    sweep(ESTIMATED, tmp_path / "est", on_plan=on_plan, progress=progress)
    end = time.perf_counter()
    _, first, started = plans[0]
    took = end - started
    assert 1 / 3 < first / took < 3, f"estimate {first:.2f} s, took {took:.2f} s"
    after_chunks = reports[1:]
    assert len(after_chunks) == 24 and after_chunks[-1][1] == 0
    for done, left, at in after_chunks[len(after_chunks) // 2:]:
        really = end - at
        assert abs(left - really) <= max(0.5, really), f"after {done} games: {left:.2f} s left, really {really:.2f} s"
