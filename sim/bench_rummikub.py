"""``rummysim bench``'s Rummikub solver section: the exact solver against the integer program.

The positions are real ones: every turn of a seat that has made its initial meld in 4-player
greedy games (the table before the turn and the seat's rack), read from the games' traces. They
are split into positions without any joker and positions with one (on the rack or the table). The
numba solver (``kernels.rummikub.table.solve_positions``, one thread) solves them all, for the
solves/s figures; the ratios come from the first positions of each kind only, which the solver and
the integer program (``rummysim.rummikub_reference``) both solve, the integer program in the form
the tests use (runs of 3-5 tiles, which is enough) and in the plain form listing every run of 3-13
tiles. The timed runs of both sides alternate in one process, so that other work on the machine
weighs on both alike, and each rate is a median of runs; the three answers are compared on the
positions all solved. Without scipy the section says so instead of giving figures.

When the public ``rummikub-solver`` package is installed (``pip install "rummikub-solver[highs]"``,
the integer program issue 17 measured at 13 solves/s without jokers and 4-5 with), it solves the
same first positions too, in its tile-count mode, for a third rate and ratio. It treats the table
as a multiset of tiles (no locked joker combinations), so its answers are timed, not compared.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from rummysim.checks import traced_game
from rummysim.kernels.rummikub import layout as L
from rummysim.rummikub import JOKER_ID, Combo, _table_array, _workspace
from rummysim.rules import Rules
from rummysim.simulation import prepare

Log = Callable[[str], None]
Position = tuple[list[Combo], list[int]]
MIN_RUN_S = 0.05  # least length of one timed run of the solver
MILP_REPETITIONS = 3  # most timed runs of each integer program (a run of 150 positions lasts seconds)


def _block(rows: list[list[int]], i: int) -> tuple[list[Combo], list[int], int]:
    """The combinations of the INITIAL/TABLE block at ``rows[i]``, the rack tiles it places, and the
    index after it."""
    combos: list[list] = []
    placed: list[int] = []
    j = i + 1
    while j < len(rows) and rows[j][0] in (L.T_COMBO, L.T_TILE):
        r = rows[j]
        if r[0] == L.T_COMBO:
            combos.append([r[2], r[3], r[4], [], []])
        else:
            combos[-1][3].append(r[2])
            combos[-1][4].append(r[3])
            if r[4] == 1:
                placed.append(r[2])
        j += 1
    table = [Combo("run" if c[0] == L.KIND_RUN else "group", c[1], c[2], tuple(c[3]), tuple(c[4])) for c in combos]
    return table, placed, j


def positions_of(trace: np.ndarray) -> list[Position]:
    """(table, rack) at the start of every turn of a seat that has made its initial meld."""
    rows = [list(map(int, r)) for r in trace]
    n = rows[0][1]
    found: list[Position] = []
    pool: list[int] = []
    table: list[Combo] = []
    racks: list[Counter] = []
    melded: list[bool] = []
    i = 0
    while i < len(rows):
        r = rows[i]
        if r[0] == L.T_HAND_START:
            pool, table, racks, melded = [], [], [Counter() for _ in range(n)], [False] * n
        elif r[0] == L.T_DECK:
            pool += [t for t in r[2:8] if t >= 0]
            if len(pool) == L.POOL:
                for s in range(n):
                    racks[s].update([pool[s]] + pool[n + 13 * s: n + 13 * s + 13])
        elif r[0] == L.T_TURN_START and melded[r[1]]:
            found.append((list(table), list(racks[r[1]].elements())))
        elif r[0] == L.T_DRAW_STOCK:
            racks[r[1]][r[2]] += 1
        elif r[0] in (L.T_INITIAL, L.T_TABLE):
            new, placed, i = _block(rows, i)
            racks[r[1]].subtract(placed)
            table = table + new if r[0] == L.T_INITIAL else new
            melded[r[1]] = True
            continue
        i += 1
    return found


def game_positions(games: int) -> list[Position]:
    cfg = prepare("rummikub", 4, "greedy")
    return [p for g in range(games) for p in positions_of(traced_game(cfg, 17, g)[0])]


def _arrays(positions: list[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tables = np.stack([_table_array(t) for t, _ in positions])
    sizes = np.array([len(t) for t, _ in positions], dtype=np.int64)
    racks = np.zeros((len(positions), L.TILE_IDS), dtype=np.int64)
    for i, (_, rack) in enumerate(positions):
        for t in rack:
            racks[i, t] += 1
    return tables, sizes, racks


class _SolverTimer:
    """The numba solver (``solve_positions``, one thread: the solver is serial) on a list of positions,
    timed over enough passes that a run lasts ``MIN_RUN_S`` (a few small positions take microseconds)."""

    def __init__(self, positions: list[Position]) -> None:
        from rummysim.kernels.rummikub.table import solve_positions

        self._solve = solve_positions
        self.count = len(positions)
        self.tables, self.sizes, self.racks = _arrays(positions)
        self.answers = np.zeros(len(positions), dtype=np.int64)
        self.cut = 0
        self._ws = _workspace()
        self._passes = 1
        self.seconds()  # warm-up: compiles or loads the solver
        one = max(self.seconds(), 1e-6)
        self._passes = max(1, int(MIN_RUN_S / one) + 1)

    def seconds(self) -> float:
        """Wall seconds of one solve of every position (the mean over the run's passes)."""
        t0 = time.perf_counter()
        for _ in range(self._passes):
            self.cut = int(self._solve(self._ws, self.tables, self.sizes, self.racks, L.OBJ_COUNT, 30, 2, False,
                                       self.answers))
        return (time.perf_counter() - t0) / self._passes


def _milp_seconds(positions: list[Position], longest_run: int) -> tuple[float, list[int]]:
    from rummysim.rummikub_reference import reference_best

    weights = {16 * c + n: 1 for c in range(4) for n in range(1, 14)}
    t0 = time.perf_counter()
    answers = [reference_best(table, rack, weights, 1, longest_run=longest_run) for table, rack in positions]
    return time.perf_counter() - t0, answers


def _tile_of(ruleset) -> Callable[[int], object]:
    """Our tile id (16 * colour + number, the joker 64) as the package's tile (colour-major, 1..53)."""
    def tile(t: int) -> object:
        return ruleset.tiles[-1] if t == JOKER_ID else ruleset.tiles[(t >> 4) * 13 + (t & 15) - 1]
    return tile


def _package_rate(positions: list[Position]) -> float | None:
    """Solves/s of the public ``rummikub-solver`` package (HiGHS) on ``positions``, or None if it is
    not installed."""
    if importlib.util.find_spec("rummikub_solver") is None:
        return None
    import logging
    from rummikub_solver import MILPSolver, RuleSet, SolverMode

    logging.getLogger("rummikub_solver").setLevel(logging.ERROR)
    from rummysim.rummikub_reference import quiet_stdout

    with quiet_stdout():  # HiGHS prints a banner from C++, which would break ``bench --json``
        ruleset = RuleSet(solver_backend=MILPSolver.HIGHS)
        tile = _tile_of(ruleset)
        t0 = time.perf_counter()
        for table, rack in positions:
            state = ruleset.new_game()
            state.initial = False
            state.add_table(*[tile(t) for combo in table for t in combo.tiles])
            state.add_rack(*[tile(t) for t in rack])
            ruleset.solve(state, SolverMode.TILE_COUNT)
        return len(positions) / (time.perf_counter() - t0)


def _group(name: str, positions: list[Position], milp_positions: int, repetitions: int) -> dict:
    """One kind of positions: the solver's rate on all of them, and on the first ``milp_positions``
    beside the integer program in its two forms (runs of 3-5, the test reference; every run length
    3-13, the plain listing) and the package. The runs interleave (solver, integer programs, solver,
    ...) so that other work on the machine weighs on both sides of a ratio alike; each rate is a
    median over ``repetitions`` runs (the integer programs' over at most ``MILP_REPETITIONS``)."""
    subset = positions[:milp_positions]
    every, first = _SolverTimer(positions), _SolverTimer(subset)
    times: dict[str, list[float]] = {"every": [], "first": [], "milp": [], "plain": []}
    milp_answers: list[int] = []
    plain_answers: list[int] = []
    for rep in range(repetitions):
        times["every"].append(every.seconds())
        times["first"].append(first.seconds())
        if rep < MILP_REPETITIONS:
            seconds, milp_answers = _milp_seconds(subset, 5)
            times["milp"].append(seconds)
            seconds, plain_answers = _milp_seconds(subset, 13)
            times["plain"].append(seconds)
    rate = {k: len(subset if k != "every" else positions) / statistics.median(v) for k, v in times.items()}
    package_rate = _package_rate(subset)
    agree = sum(int(a) == b == c for a, b, c in zip(first.answers, milp_answers, plain_answers))
    return {"positions": name, "count": len(positions), "solver_solves_per_s": rate["every"],
            "solver_beam_cuts": every.cut, "milp_positions": len(subset),
            "solver_solves_per_s_on_milp_positions": rate["first"], "milp_solves_per_s": rate["milp"],
            "ratio": rate["first"] / rate["milp"], "plain_milp_solves_per_s": rate["plain"],
            "plain_ratio": rate["first"] / rate["plain"], "same_answers": agree,
            "package_solves_per_s": package_rate, "package_ratio": package_rate and rate["first"] / package_rate,
            "mean_table_tiles": float(np.mean([sum(len(c.tiles) for c in t) for t, _ in positions])),
            "mean_rack_tiles": float(np.mean([len(r) for _, r in positions]))}


def solver_reference(games: int, milp_positions: int, repetitions: int, log: Log) -> dict:
    """The Rummikub solver section of the suite (see the module docstring)."""
    if importlib.util.find_spec("scipy") is None:
        return {"available": False, "reason": "scipy is not installed (pip install scipy) for the integer program"}
    Rules(game="rummikub").check(4)
    log(f"Rummikub solver: positions of {games} greedy games, the integer program on up to {milp_positions} of each kind")
    positions = game_positions(games)
    with_jokers = [p for p in positions if JOKER_ID in p[1] or any(JOKER_ID in c.tiles for c in p[0])]
    without = [p for p in positions if not (JOKER_ID in p[1] or any(JOKER_ID in c.tiles for c in p[0]))]
    groups = [_group(name, ps, milp_positions, repetitions) for name, ps in (("no jokers", without),
                                                                              ("jokers", with_jokers)) if ps]
    return {"available": True, "games": games, "groups": groups}
