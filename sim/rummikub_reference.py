"""A slow, independent reference for Rummikub's move solver: an integer program (scipy's HiGHS).

It lists every loose combination a final table needs, each run of 3..5 tiles (longer runs are two
of those side by side) and each group of 3-4, with jokers in every place they could stand
(VKUB-TWOJOKERS), and every way each locked joker
combination could continue (RKUB-JOKER-2/3, VKUB-JOKERBOTH: grown at its ends or filled up, jokers
freed by the tile they stand for), then maximises the weight of the rack tiles placed while every
loose table tile stays on the table (RKUB-MANIP-1). The tests compare it with the numba dynamic
program (``kernels.rummikub.solver``) and ``rummysim bench`` times both on the same positions.
scipy is needed only here and is imported on first use.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from rummysim.rummikub import JOKER_ID, Combo

NATURALS = [16 * c + n for c in range(4) for n in range(1, 14)]
_INDEX = {t: i for i, t in enumerate(NATURALS)}


@dataclass(frozen=True)
class Option:
    """A way locked combination ``locked`` may continue: the rack tiles it takes (``rack``), the
    jokers it gains and the jokers it frees."""

    rack: tuple[int, ...]
    jokers: int
    freed: int
    locked: int


@lru_cache(maxsize=2)
def _loose_templates(longest_run: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every loose combination a final table needs, once: runs of 3 to ``longest_run`` tiles (5 is
    enough: a longer run is two of them side by side, each still valid) and groups of 3-4, with up
    to two jokers in any places. Returns the natural tiles each takes (rows over ``NATURALS``), its
    jokers and its value (the numbers its tiles stand for)."""
    rows, jokers, values = [], [], []
    for c in range(4):
        for length in range(3, longest_run + 1):
            for lo in range(1, 15 - length):
                numbers = range(lo, lo + length)
                for k in (0, 1, 2):
                    for holes in combinations(numbers, k):
                        row = np.zeros(len(NATURALS))
                        for n in numbers:
                            if n not in holes:
                                row[_INDEX[16 * c + n]] = 1
                        rows.append(row)
                        jokers.append(k)
                        values.append(sum(numbers))
    for n in range(1, 14):
        for size in (1, 2, 3, 4):
            for colours in combinations(range(4), size):
                for k in (0, 1, 2):
                    if 3 <= size + k <= 4:
                        row = np.zeros(len(NATURALS))
                        for c in colours:
                            row[_INDEX[16 * c + n]] = 1
                        rows.append(row)
                        jokers.append(k)
                        values.append(n * (size + k))
    return np.array(rows), np.array(jokers), np.array(values)


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence standard output at the file-descriptor level: some HiGHS builds print debugging lines
    from C++ while solving, which would break ``rummysim bench --json``."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


MILP_OPTIMAL, MILP_INFEASIBLE, MILP_ERROR = 0, 2, 4  # scipy.optimize.milp's status codes


def _loose_options(available: np.ndarray, jokers: int, max_jokers: int,
                   longest_run: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The templates whose natural tiles are all available and whose jokers are allowed."""
    takes, holes, values = _loose_templates(longest_run)
    keep = (takes @ (1 - available) == 0) & (holes <= min(jokers, max_jokers))
    return takes[keep], holes[keep], values[keep]


def _locked_run(i: int, combo: Combo, rack: Counter, jokers: int, max_jokers: int) -> list[Option]:
    colour, lo = combo.key, combo.lo
    hi = lo + len(combo.tiles) - 1
    holes = [lo + j for j, t in enumerate(combo.tiles) if t == JOKER_ID]
    found = []
    for new_lo in range(1, lo + 1):
        for new_hi in range(hi, 14):
            outside = [n for n in range(new_lo, new_hi + 1) if n < lo or n > hi]
            for k in range(min(jokers, len(outside)) + 1):
                for joker_at in combinations(outside, k):
                    added = [16 * colour + n for n in outside if n not in joker_at]
                    for r in range(len(holes) + 1):
                        for swapped in combinations(holes, r):
                            taken = added + [16 * colour + n for n in swapped]
                            if any(rack[t] < v for t, v in Counter(taken).items()):
                                continue
                            if len(holes) - r + k > max_jokers:
                                continue
                            found.append(Option(tuple(taken), k, r, i))
    return found


def _locked_group(i: int, combo: Combo, rack: Counter, jokers: int, max_jokers: int,
                  both_colours: bool) -> list[Option]:
    n = combo.key
    had = combo.tiles.count(JOKER_ID)
    present = {t >> 4 for t in combo.tiles if t != JOKER_ID}
    missing = [c for c in range(4) if c not in present]
    found = []
    for size in range(len(missing) + 1):
        for colours in combinations(missing, size):
            added = tuple(16 * c + n for c in colours)
            if any(rack[t] < 1 for t in added):
                continue
            naturals = len(present) + size
            for keep in range(had + 1):
                for extra in range(jokers + 1):
                    held = keep + extra
                    freed = had - keep
                    if not 3 <= naturals + held <= 4 or held > max_jokers or freed > size:
                        continue
                    if freed and both_colours and (naturals != 4 or held):
                        continue
                    found.append(Option(added, extra, freed, i))
    return found


def reference_best(
    table: Sequence[Combo],
    rack: Sequence[int],
    weights: dict[int, int],
    joker_weight: int,
    max_jokers: int = 2,
    both_colours: bool = False,
    initial: bool = False,
    threshold: int = 30,
    single_combo: bool = False,
    longest_run: int = 5,
) -> int:
    """The best objective: the summed ``weights`` (a joker: ``joker_weight``) of the rack tiles
    (ids, 64 = joker) a valid final table takes; 0 if none (or, with ``initial``, if no initial
    meld reaches ``threshold``; the table is then ignored). ``longest_run`` 13 lists every run
    length, as the plain formulation would (same answers, more columns: ``rummysim bench``)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    rack_count = Counter(t for t in rack if t != JOKER_ID)
    rack_jokers = sum(1 for t in rack if t == JOKER_ID)
    loose_table = Counter() if initial else Counter(
        t for c in table if JOKER_ID not in c.tiles for t in c.tiles)
    locked = [] if initial else [c for c in table if JOKER_ID in c.tiles]
    table_jokers = sum(c.tiles.count(JOKER_ID) for c in locked)
    jokers = min(2, rack_jokers + table_jokers)
    available = np.array([1.0 if rack_count[t] + loose_table[t] > 0 else 0.0 for t in NATURALS])
    takes, holes, values = _loose_options(available, jokers, max_jokers, longest_run)
    options: list[Option] = []
    for i, combo in enumerate(locked):
        if combo.kind == "run":
            options += _locked_run(i, combo, rack_count, jokers, max_jokers)
        else:
            options += _locked_group(i, combo, rack_count, jokers, max_jokers, both_colours)
    m = len(takes)
    n = m + len(options) + 1  # loose combinations, locked continuations, then the rack jokers placed
    loose_use = np.zeros((len(NATURALS), n))
    rack_use = np.zeros((len(NATURALS), n))
    loose_use[:, :m] = takes.T
    joker_row = np.zeros(n)
    joker_row[:m] = holes
    value_row = np.zeros(n)
    value_row[:m] = values
    single_row = np.zeros(n)
    single_row[:m] = values >= threshold
    locked_rows = np.zeros((len(locked), n))
    for j, opt in enumerate(options, start=m):
        for t in opt.rack:
            rack_use[_INDEX[t], j] += 1
        joker_row[j] = opt.jokers - opt.freed
        locked_rows[opt.locked, j] = 1
    joker_row[-1] = -1
    t_vec = np.array([loose_table[t] for t in NATURALS], dtype=float)
    h_vec = np.array([rack_count[t] for t in NATURALS], dtype=float)
    rows = [
        LinearConstraint(loose_use, t_vec, np.inf),
        LinearConstraint(loose_use + rack_use, -np.inf, t_vec + h_vec),
        LinearConstraint(joker_row[None, :], 0, 0),
    ]
    if locked:
        rows.append(LinearConstraint(locked_rows, 1, 1))
    if initial:
        rows.append(LinearConstraint((single_row if single_combo else value_row)[None, :],
                                     1 if single_combo else threshold, np.inf))
    w = np.array([weights[t] for t in NATURALS], dtype=float)
    gain = w @ (loose_use + rack_use)
    gain[-1] = joker_weight
    upper = np.full(n, 2.0)
    upper[m:] = 1
    upper[-1] = rack_jokers
    problem = dict(constraints=rows, integrality=np.ones(n), bounds=Bounds(0, upper))
    with quiet_stdout():
        result = milp(-gain, **problem)
        if result.status == MILP_ERROR:
            # HiGHS's presolve fails on some tables (a 20-combination position of the bench: "Solve
            # error", read as "no play" before session 15 while the answer was 1); without it, it solves
            result = milp(-gain, **problem, options={"presolve": False})
    if result.status == MILP_INFEASIBLE:
        return 0  # only an initial meld below the minimum: the unchanged table is always a solution
    if result.status != MILP_OPTIMAL:
        raise RuntimeError(f"the reference integer program failed: {result.message}")
    return int(round(-result.fun - w @ t_vec))
