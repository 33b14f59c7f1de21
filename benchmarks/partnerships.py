"""Interleaved single-thread hands per CPU-second: 500 Rum 4 players against the partnership presets.

Issue 15 point 6 (Partnership 500 within 1.5x of 4-player 500 Rum). The cases alternate within
each repetition so that a shared machine's load falls on all of them alike. Run from the checkout:
``python benchmarks/partnerships.py``.
"""

from __future__ import annotations

import statistics
import time

import numba

from rummysim.rules import Rules
from rummysim.simulation import RunConfig, play_game_chunk, prepare

CASES = [(game, lineup) for lineup in ("greedy", "random")
         for game in ("500-rum", "partnership-500", "persian-rummy", "5000-rummy", "persian-5000")]
REPETITIONS = 5


def games_per_run(game: str) -> int:
    return 400 if "5000" in game else 3000


def hands_per_cpu_second(cfg: RunConfig, game: str, rep: int) -> float:
    n = games_per_run(game)
    t0 = time.process_time()
    rows, _ = play_game_chunk(cfg, 100 + rep, rep * n, n)
    return int(rows["hands"].sum()) / (time.process_time() - t0)


def main() -> None:
    numba.set_num_threads(1)
    cfgs = {case: prepare(case[0], 4, case[1], rules=Rules.preset(case[0])) for case in CASES}
    for cfg in cfgs.values():
        play_game_chunk(cfg, 1, 0, 20)  # compile first: the timed runs measure play only
    rates: dict[tuple[str, str], list[float]] = {case: [] for case in CASES}
    for rep in range(REPETITIONS):
        for case, cfg in cfgs.items():
            rates[case].append(hands_per_cpu_second(cfg, case[0], rep))
    for (game, lineup), runs in rates.items():
        print(f"{game:16s} {lineup:7s} hands/CPU-s median {statistics.median(runs):10,.0f}  "
              f"(runs {', '.join(f'{x:,.0f}' for x in runs)})")


if __name__ == "__main__":
    main()
