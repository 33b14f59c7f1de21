"""SIGTERM and SIGHUP stop a command like Ctrl-C: one line, exit 128 + signal, no partial file
(issue 21, point 10)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_ends_a_run_cleanly(tmp_path, signum):
    out = tmp_path / "r.parquet"
    cmd = [sys.executable, "-m", "rummysim", "simulate", "--players", "2", "--lineup", "greedy",
           "--games", "100000000", "--seed", "1", "--no-progress", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, err
    assert err.strip().splitlines()[-1] == f"error: stopped by {signal.Signals(signum).name}"
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []
