"""How long a long run takes to stop after Ctrl-C (issue 21, point 10).

Starts ``rummysim simulate`` (and ``rummysim sweep``) with a lineup in a child process, waits
until it is playing (a first short run has filled the numba cache), sends SIGINT and times the
exit. Prints one line per run; ``--json`` prints the figures as JSON. With ``--during-compile``
each lineup's ``simulate`` gets an empty numba cache of its own instead, so the SIGINT arrives
while numba compiles the kernels for the first time.

    python benchmarks/interrupt.py                     # greedy, heuristic and rollout, 4 players
    python benchmarks/interrupt.py --lineups greedy --wait 3
    python benchmarks/interrupt.py --lineups greedy --during-compile --wait 30
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SWEEP = """
[run]
games_per_cell = 1000000000
chunk_size = 16384

[grid]
players = 4
lineup = "{lineup}"
"""


def rummysim(*args: str) -> list[str]:
    return [sys.executable, "-m", "rummysim", *args]


def stop_latency(cmd: list[str], wait: float, env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """Seconds from SIGINT to exit, the exit code and the last stderr line."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a child of a shell job may inherit an ignored SIGINT
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(wait)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate()
    lines = err.strip().splitlines()
    return time.monotonic() - sent, proc.returncode, lines[-1] if lines else ""


Run = tuple[list[str], dict[str, str] | None]  # the command and its environment (None: ours)


def compiling_runs(lineup: str, tmp: str) -> dict[str, Run]:
    """A ``simulate`` with an empty numba cache of its own: the SIGINT comes during the compile."""
    env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(dir=tmp)}
    return {"simulate (compiling)": (rummysim("simulate", "--players", "4", "--lineup", lineup, "--games", "100",
                                              "--no-progress"), env)}


def playing_runs(lineup: str, tmp: str) -> dict[str, Run]:
    """A long ``simulate`` and a long ``sweep``, with the kernels compiled first: the SIGINT comes
    during play."""
    subprocess.run(rummysim("simulate", "--players", "4", "--lineup", lineup, "--games", "2", "--no-progress"),
                   check=True, capture_output=True)  # compile or load the kernels first
    toml = Path(tmp) / f"{lineup}.toml"
    toml.write_text(SWEEP.format(lineup=lineup))
    return {
        "simulate": (rummysim("simulate", "--players", "4", "--lineup", lineup, "--games", "100000000",
                              "--no-progress"), None),
        "sweep": (rummysim("sweep", str(toml), "--out", str(Path(tmp) / lineup), "--no-progress"), None),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineups", default="greedy,heuristic,rollout")
    parser.add_argument("--wait", type=float, default=5.0, help="seconds of play before the SIGINT")
    parser.add_argument("--during-compile", action="store_true",
                        help="send the SIGINT while numba compiles (an empty cache per run; simulate only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs_for = compiling_runs if args.during_compile else playing_runs
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for lineup in args.lineups.split(","):
            for command, (cmd, env) in runs_for(lineup, tmp).items():
                seconds, code, last = stop_latency(cmd, args.wait, env)
                rows.append({"command": command, "lineup": lineup, "stop_s": round(seconds, 2), "exit": code,
                             "last_line": last})
                if not args.json:
                    print(f"{command:20s} {lineup:10s} stopped {seconds:6.2f} s after SIGINT, exit {code}: {last}")
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
