"""Engine benchmark: games/s and hands/s at 1 thread and all threads, and the kernel/validator ratio.

Run from the project root:

    python benchmarks/engine.py            # full sizes (a few minutes on 2 cores)
    python benchmarks/engine.py --quick    # tiny sizes, to check the script runs
    python benchmarks/engine.py --json     # results as JSON on stdout

Every figure is the median of several timed repetitions after a warm-up (which also compiles or
loads the kernels). The reference point, measured in the same run, is the plain-Python validator
replaying the same games: the kernel/validator ratio does not depend on the machine's mood.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import numba
import numpy as np

from kernels import layout as L
from kernels.batch import run_games
from sim.checks import traced_game
from sim.simulation import prepare
from sim.validate import validate_trace

CASES = [(2, "greedy"), (2, "random"), (4, "greedy"), (4, "random")]


def time_games(cfg, games: int, threads: int, reps: int) -> tuple[float, float]:
    """Median (games/s, hands/s) over ``reps`` runs of ``games`` games."""
    numba.set_num_threads(threads)
    out = np.zeros((games, L.G_SIZE), dtype=np.int64)
    no_hands = np.zeros((0, 0, L.H_SIZE), dtype=np.int32)
    run_games(cfg.vector, cfg.lineup, cfg.params, 1, 0, min(games, 64), out[:64], no_hands)  # warm-up
    rates = []
    for rep in range(reps):
        t0 = time.perf_counter()
        run_games(cfg.vector, cfg.lineup, cfg.params, 1000 + rep, 0, games, out, no_hands)
        dt = time.perf_counter() - t0
        rates.append((games / dt, out[:, L.G_HANDS].sum() / dt))
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def validator_ratio(cfg, games: int) -> dict:
    """Kernel games/s (1 thread, no trace) over validator games/s replaying the same games."""
    numba.set_num_threads(1)
    traces = [traced_game(cfg, 77, g)[0] for g in range(games)]
    flags = cfg.rules.as_dict()
    t0 = time.perf_counter()
    actions = sum(validate_trace(t, flags).actions_checked for t in traces)
    validator_s = time.perf_counter() - t0
    out = np.zeros((games, L.G_SIZE), dtype=np.int64)
    no_hands = np.zeros((0, 0, L.H_SIZE), dtype=np.int32)
    kernel_times = []
    for _ in range(5):
        t0 = time.perf_counter()
        run_games(cfg.vector, cfg.lineup, cfg.params, 77, 0, games, out, no_hands)
        kernel_times.append(time.perf_counter() - t0)
    kernel_s = statistics.median(kernel_times)
    return {
        "games": games,
        "validator_games_per_s": games / validator_s,
        "validator_actions_per_s": actions / validator_s,
        "kernel_games_per_s": games / kernel_s,
        "kernel_over_validator": validator_s / kernel_s,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes")
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    games, reps, vgames = (200, 3, 10) if args.quick else (20_000, 5, 200)
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for players, strategy in CASES:
        cfg = prepare("500-rum", players, strategy)
        one = time_games(cfg, games, 1, reps)
        every = time_games(cfg, games, all_threads, reps)
        rows.append({
            "players": players, "lineup": strategy,
            "games_per_s_1_thread": one[0], "hands_per_s_1_thread": one[1],
            f"games_per_s_{all_threads}_threads": every[0], f"hands_per_s_{all_threads}_threads": every[1],
            "thread_scaling": every[0] / one[0],
        })
    ratio = validator_ratio(prepare("500-rum", 4, "greedy"), vgames)
    result = {
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                    "cores": all_threads, "numba": numba.__version__, "threading_layer": numba.threading_layer()},
        "games_per_case": games, "repetitions": reps, "cases": rows, "validator_reference": ratio,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"numba {numba.__version__}, threading layer {numba.threading_layer()}, {all_threads} threads")
    print(f"{'players':>7} {'lineup':>7} {'games/s 1t':>11} {'hands/s 1t':>11} {'games/s all':>12} {'hands/s all':>12} {'scaling':>8}")
    for r in rows:
        print(f"{r['players']:>7} {r['lineup']:>7} {r['games_per_s_1_thread']:>11,.0f} {r['hands_per_s_1_thread']:>11,.0f} "
              f"{r[f'games_per_s_{all_threads}_threads']:>12,.0f} {r[f'hands_per_s_{all_threads}_threads']:>12,.0f} {r['thread_scaling']:>8.2f}")
    print(f"validator reference (4 players, greedy, {ratio['games']} games): kernel {ratio['kernel_games_per_s']:,.0f} games/s on 1 thread, "
          f"validator {ratio['validator_games_per_s']:,.1f} games/s ({ratio['validator_actions_per_s']:,.0f} actions/s): "
          f"kernel/validator = {ratio['kernel_over_validator']:,.0f}x")


if __name__ == "__main__":
    main()
