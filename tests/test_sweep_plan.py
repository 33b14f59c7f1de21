"""A sweep's plan: the time estimate (issue 21, point 9) and huge plans (point 4)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from rummysim.errors import InputError
from rummysim.sweeps import SweepConfigError, load_sweep, plan_sweep, sweep

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


# ---------------------------------------------------------------------------------------------
# huge plans (point 4): sizes known and limits checked before any cell or chunk is built

def cli(args: list[str], env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "huge.toml"
    path.write_text(text)
    return path


def test_a_trillion_games_are_refused_at_once_with_the_numbers(tmp_path):
    """10^12 games in chunks of 1: the dry run used to grow past 1.3 GB in 90 s without a word."""
    path = write(tmp_path, "[run]\ngames_per_cell = 1_000_000_000_000\nchunk_size = 1\n")
    r = cli(["sweep", str(path), "--dry-run"], timeout=30)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"error: {path}: [run] games_per_cell: 1 cell x 1,000,000,000,000 games = "
                               "1,000,000,000,000 games in 1,000,000,000,000 chunks of 1: more than the "
                               "10,000,000,000 games a sweep may have")
    assert "RUMMYSIM_MAX_SWEEP_GAMES=N" in r.stderr


def test_a_million_cells_are_refused_before_any_is_built(tmp_path):
    turns = ", ".join(str(n) for n in range(100, 1100))
    path = write(tmp_path, f"[run]\ngames_per_cell = 10\n[grid]\nmax_turns_per_hand = [{turns}]\n"
                           f"max_hands_per_game = [{turns}]\n")
    r = cli(["sweep", str(path), "--dry-run"], timeout=30)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "[grid]: 1,000,000 cells x 10 games = 10,000,000 games" in r.stderr
    assert "more than the 100,000 cells a sweep may have" in r.stderr and "RUMMYSIM_MAX_CELLS=N" in r.stderr


class _Enough(Exception):
    """Stops a dry run once the cells under test are printed."""


def test_a_large_dry_run_prints_its_sizes_first_and_each_cell_as_it_is_built(tmp_path, monkeypatch, capsys):
    """21,504 cells (it printed nothing for 12 minutes): the sizes come from the grid before any
    cell is built, and each cell is printed before the next one is built (issue 21)."""
    from rummysim.cli import sweep as sweep_cli
    from rummysim.sweeps import config as sweep_config

    turns = ", ".join(str(n) for n in range(500, 884))
    path = write(tmp_path, f"""[run]
games_per_cell = 1000
[grid]
game = ["500-rum", "boathouse"]
players = [2, 3, 4, 5, 6, 7, 8]
lineup = ["greedy", "random", "random at seat 1, greedy elsewhere", "random at seat 0, greedy elsewhere"]
max_turns_per_hand = [{turns}]
""")
    expand = sweep_config._expand
    printed_before: list = []  # what was printed before cell i was built

    def watched_expand(*args):
        for cell in expand(*args):
            printed_before.append(capsys.readouterr())
            if len(printed_before) == 3:
                raise _Enough
            yield cell

    monkeypatch.setattr(sweep_config, "_expand", watched_expand)
    with pytest.raises(_Enough):
        sweep_cli._dry_run(load_sweep(path, expand=False), tmp_path / "out")
    first, second, third = printed_before
    assert "21,504 cells (game 2 x players 7 x lineup 4 x max_turns_per_hand 384)" in first.err
    assert first.out.startswith("cell ") and len(first.out.splitlines()) == 1  # the table's header only
    for printed in (second, third):
        (line,) = printed.out.splitlines()
        assert line.startswith("c") and "500-rum" in line


def test_limits_follow_the_environment(monkeypatch):
    twelve = {"run": {"games_per_cell": 100, "chunk_size": 10},
              "grid": {"players": [2, 3, 4], "lineup": ["greedy", "random", "greedy at seat 0, random elsewhere",
                                                         "random at seat 0, greedy elsewhere"]}}
    monkeypatch.setenv("RUMMYSIM_MAX_CELLS", "5")
    with pytest.raises(SweepConfigError, match=r"\[grid\]: 12 cells x 100 games = 1,200 games in 120 chunks of 10: "
                                               r"more than the 5 cells a sweep may have"):
        load_sweep(twelve)
    monkeypatch.delenv("RUMMYSIM_MAX_CELLS")
    monkeypatch.setenv("RUMMYSIM_MAX_CHUNKS", "100")
    with pytest.raises(SweepConfigError, match=r"more than the 100 chunks a sweep may have; use a larger chunk_size"):
        load_sweep(twelve)
    monkeypatch.setenv("RUMMYSIM_MAX_CHUNKS", "120")
    assert load_sweep(twelve).total_chunks == 120
    monkeypatch.setenv("RUMMYSIM_MAX_SWEEP_GAMES", "lots")
    with pytest.raises(InputError, match="RUMMYSIM_MAX_SWEEP_GAMES must be a positive whole number, got 'lots'"):
        load_sweep(twelve)


def test_a_million_chunks_are_planned_without_building_them(tmp_path):
    """At the chunk limit: the plan holds the counts, and jobs are made as they are taken."""
    config = load_sweep({"run": {"games_per_cell": 1_000_000, "chunk_size": 1}})
    tracemalloc.start()
    plan = plan_sweep(config, tmp_path / "out")
    first = next(iter(plan.jobs))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert plan.chunks_total == len(plan.jobs) == 1_000_000 and plan.games_left == 1_000_000
    assert (first.index, first.start, first.count) == (0, 0, 1)
    assert peak < 20e6, f"{peak / 1e6:.1f} MB"  # a million chunk jobs built would hold far more
    assert not (tmp_path / "out").exists()
