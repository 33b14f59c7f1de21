"""Ctrl-C, SIGTERM and SIGHUP stop a command at once: one line, exit 130 or 128 + signal, no
partial file (issue 21, point 10)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

STOP_SECONDS = 2.0  # the promise: a long run stops within a second or two


@pytest.fixture(scope="module")
def compiled() -> None:
    """The run's kernels compiled beforehand: the signal must reach a run that plays. A stop during
    numba's first compile works too (1.4 s, `python benchmarks/interrupt.py --during-compile`),
    but a cold compile here would cost CI a minute."""
    subprocess.run([sys.executable, "-m", "rummysim", "simulate", "--players", "2", "--lineup", "greedy",
                    "--games", "1", "--seed", "1", "--no-progress"], capture_output=True, check=True)


@pytest.mark.parametrize("signum, code, last", [
    (signal.SIGINT, 130, "error: interrupted"),
    (signal.SIGTERM, 128 + signal.SIGTERM, "error: stopped by SIGTERM"),
    (signal.SIGHUP, 128 + signal.SIGHUP, "error: stopped by SIGHUP"),
])
def test_a_stop_signal_ends_a_run_cleanly_and_at_once(compiled, tmp_path, signum, code, last):
    out = tmp_path / "r.parquet"
    cmd = [sys.executable, "-m", "rummysim", "simulate", "--players", "2", "--lineup", "greedy",
           "--games", "100000000", "--seed", "1", "--no-progress", "--out", str(out)]
    # SIG_DFL in the child: a shell's background job inherits SIGINT ignored, and Python then
    # installs no KeyboardInterrupt handler, as for any program started that way
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)
        sent = time.monotonic()
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        proc.kill()  # a run that ignored the signal must not play on after the test
        proc.wait()
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == last
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []
    assert took < STOP_SECONDS, f"{signal.Signals(signum).name} took {took:.1f} s to stop the run"
