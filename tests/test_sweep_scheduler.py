"""A Dask scheduler that dies under a sweep ends it with one line within a bounded time, and a
local rerun finishes the dataset with the rows of an uninterrupted run (issue 21, point 3: the
client used to wait forever after "Failed to reconnect ... closing client")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from rummysim.sweeps import sweep

SWEEP = """
[run]
seed = 11
games_per_cell = 4000
chunk_size = 40

[grid]
players = [2, 3]
lineup = "random"
"""
LOST_WITHIN = 40  # seconds: the client's 10 s of reconnecting, then the sweep's own check


def games(out: Path) -> pl.DataFrame:
    lf = pl.scan_parquet(str(out / "**/*.parquet"), hive_partitioning=True)
    return lf.collect().sort("cell", "game_index")


def dask(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, **(env or {})})


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.05)


def test_a_dead_scheduler_ends_the_sweep_and_a_local_rerun_finishes_it(tmp_path):
    pytest.importorskip("distributed")
    toml = tmp_path / "s.toml"
    toml.write_text(SWEEP)
    reference = sweep(toml, tmp_path / "local")
    info = tmp_path / "scheduler.json"
    scheduler = dask("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info))
    worker = run = None
    try:
        wait_for(info.exists, 60, "the scheduler")
        time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        worker = dask("distributed.cli.dask_worker", "--scheduler-file", str(info), "--nthreads", "1",
                      "--no-dashboard", env={"NUMBA_NUM_THREADS": "1"})
        out = tmp_path / "dask"
        run = subprocess.Popen([sys.executable, "-m", "rummysim", "sweep", str(toml), "--out", str(out),
                                "--scheduler", address, "--no-progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(lambda: len(list(out.rglob("*.parquet"))) >= 3 or run.poll() is not None, 180, "the first chunks")
        scheduler.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        _, err = run.communicate(timeout=LOST_WITHIN + 30)
        took = time.monotonic() - killed
    finally:
        for proc in (run, worker, scheduler):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    assert run.returncode == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: lost the Dask scheduler {address} (") and "rerun the same command" in last
    assert "Traceback" not in err and err.count("error:") == 1 and "Failed to reconnect" not in err
    assert took < LOST_WITHIN, f"the sweep ended {took:.1f} s after the scheduler died"
    assert 0 < len(list(out.rglob("*.parquet"))) < 200

    r = subprocess.run([sys.executable, "-m", "rummysim", "sweep", str(toml), "--out", str(out), "--no-progress"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "resuming:" in r.stderr, r.stderr
    assert_frame_equal(games(out), games(reference))
