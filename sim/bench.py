"""The benchmark suite behind ``rummysim bench`` (and ``benchmarks/engine.py``): speed is measured here, never asserted.

One run measures, in this order:

- **throughput**: games/s and hands/s of the batch kernel on one thread (per core) and on every
  thread, with the thread scaling, for each case of :data:`THROUGHPUT_CASES`;
- **strategies**: the same for 4-player 500 Rum with each registered strategy in every seat;
- **the heuristic at greedy's point**: its cost per hand over greedy's, from runs of the two
  alternated in this process (``paired_cost``), not from their rows measured minutes apart;
- **validator reference**: the plain-Python validator replaying the same games, so that the speed
  claim is a ratio measured on the same machine in the same minute;
- **Rummikub solver**: the exact move solver against the integer program on the same positions of
  real games, without and with jokers (``bench_rummikub``);
- **start-up**: ``rummysim --help`` and a 1-game ``simulate`` in fresh processes, cold (empty
  temporary ``NUMBA_CACHE_DIR``) and warm (the normal cache);
- **end to end**: ``rummysim simulate`` writing Parquet at two sizes in fresh processes: wall time,
  peak RSS, and 10^6 games (measured with ``full`` sizes, otherwise extrapolated and labelled so);
- **targets** of issues 8, 17 and 19, each with its measured value and met/missed (issue 19's cold
  compiles of a heuristic lineup and of 5000 Rummy are measured beside 500 Rum greedy's).

Every in-process figure is the median of several timed runs after a warm-up; the games per run are
calibrated so that each run lasts about ``Sizes.seconds_per_run``. The result is a JSON-ready dict
that ``sim.cli_bench`` prints. A case whose game or strategy this build cannot play is reported
with the reason instead of a figure, so cases light up by themselves once the code supports them.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, astuple, dataclass
from datetime import datetime
from pathlib import Path

import numba
import numpy as np

import rummysim
from rummysim.bench_rummikub import solver_reference
from rummysim.kernels.common import results as R
from rummysim.kernels.common.layout import TRACE_COLS
from rummysim.checks import TRACE_ROWS, traced_game
from rummysim.errors import RummysimError
from rummysim.rules import Rules
from rummysim.simulation import RunConfig, prepare
from rummysim.strategies.registry import GREEDY_POINT, STRATEGIES

MILLION = 1_000_000
MAX_GAMES_PER_RUN = 200_000  # bounds the row buffer (16 int64 a game) of a calibrated run
NO_HANDS = np.zeros((0, 0, R.H_SIZE), dtype=np.int32)
Log = Callable[[str], None]


@dataclass(frozen=True)
class Sizes:
    """How much work each section does (``quick`` only checks that the suite runs)."""

    mode: str
    seconds_per_run: float  # target length of one timed in-process run (a parallel call costs ~25 ms here)
    repetitions: int  # timed runs per throughput figure (the median is reported)
    validator_games: int
    rummikub_games: int  # greedy 4-player games whose positions the Rummikub solver section uses
    milp_positions: int  # of each kind, solved by the integer program too
    start_runs: int  # fresh processes per warm start-up figure (and per cold `--help`)
    cold_simulate_runs: int  # fresh processes with an empty cache; 0 = not measured (~30 s each)
    e2e_games: tuple[int, int]  # the two sizes of the end-to-end simulate
    e2e_runs: int


SIZES = {
    "quick": Sizes("quick", 0.1, 2, 5, 3, 10, 2, 0, (200, 800), 1),
    "default": Sizes("default", 1.5, 5, 500, 40, 150, 5, 3, (10_000, 100_000), 3),
    "full": Sizes("full", 1.5, 5, 500, 80, 400, 5, 3, (100_000, MILLION), 3),
}


@dataclass(frozen=True)
class Case:
    """One throughput case: ``game`` (a preset name, ``rummysim rules list``) with its rules,
    ``players`` seats, strategy ``lineup`` in every seat."""

    game: str
    players: int
    lineup: str


LINEUPS = ("greedy", "random")
GAME_PLAYERS = (("500-rum", (2, 4, 8)), ("5000-rummy", (2, 4)), ("partnership-500", (4,)), ("persian-rummy", (4,)),
                ("rummikub", (2, 4)), ("dealers-gambit", (3,)))
THROUGHPUT_CASES = tuple(Case(g, n, lineup) for g, counts in GAME_PLAYERS for n in counts for lineup in LINEUPS)
STRATEGY_GAME, STRATEGY_PLAYERS = "500-rum", 4
REFERENCE = Case("500-rum", 4, "greedy")  # the validator reference and the per-core and scaling targets
# The heuristic at the point of its parameters that plays exactly as greedy: its cost over greedy's is
# the family's own overhead (issue 19 point 3: within 1.2x)
GREEDY_POINT_LINEUP = "heuristic:" + ":".join(f"{k}={v:g}" for k, v in GREEDY_POINT.items())
GREEDY_POINT_NOTE = "median of alternated runs in one process, CPU time per hand"
E2E_ARGS = ("--game", "500-rum", "--players", "4", "--lineup", "greedy", "--seed", "0", "--no-progress")
# The other first compiles issue 19 point 4 names (a heuristic-family lineup, 5000 Rummy), measured cold only
COLD_EXTRA = {
    "heuristic": ("--game", "500-rum", "--players", "4", "--lineup", "heuristic", "--seed", "0", "--no-progress"),
    "5000-rummy": ("--game", "5000-rummy", "--players", "3", "--lineup", "greedy", "--seed", "0", "--no-progress"),
}


@dataclass(frozen=True)
class Target:
    issue: int
    key: str
    what: str
    goal: float
    unit: str
    higher_is_better: bool


TARGETS = (
    Target(8, "hands_per_s_per_core", "hands/s per core, 500 Rum 4 players greedy", 100_000, "hands/s", True),
    Target(8, "million_games_s", "10^6 games 4 players greedy via simulate incl. Parquet, 2 cores", 60, "s", False),
    Target(8, "thread_scaling", "thread scaling 1 -> all threads, 500 Rum 4 players greedy", 1.8, "x", True),
    Target(8, "cold_simulate_s", "cold start of a 1-game simulate (empty numba cache)", 30, "s", False),
    Target(8, "warm_simulate_s", "cached start of a 1-game simulate", 2, "s", False),
    Target(17, "rkub_games_per_s_per_core", "Rummikub 4-player greedy games/s per core", 100, "games/s", True),
    Target(17, "rkub_solves_no_jokers", "Rummikub solves/s per core, positions without jokers", 10_000, "solves/s", True),
    Target(17, "rkub_solves_jokers", "Rummikub solves/s per core, positions with jokers", 2_000, "solves/s", True),
    Target(17, "rkub_ratio_no_jokers", "Rummikub solver / integer program, no jokers", 1000, "x", True),
    Target(17, "rkub_ratio_jokers", "Rummikub solver / integer program, with jokers", 100, "x", True),
    Target(17, "rkub_package_ratio_no_jokers", "Rummikub solver / the rummikub-solver package, no jokers", 1000, "x", True),
    Target(17, "rkub_package_ratio_jokers", "Rummikub solver / the rummikub-solver package, with jokers", 100, "x", True),
    Target(19, "hands_per_s_per_core_19", "hands/s per core, 500 Rum 4 players greedy", 150_000, "hands/s", True),
    Target(19, "million_games_s_19", "10^6 games 4 players greedy via simulate incl. Parquet, 2 cores", 35, "s", False),
    Target(19, "rum5000_2p_hands_per_s", "hands/s per core, 5000 Rummy 2 players greedy", 15_000, "hands/s", True),
    Target(19, "rum5000_4p_hands_per_s", "hands/s per core, 5000 Rummy 4 players greedy", 10_000, "hands/s", True),
    Target(19, "heuristic_hands_per_s", "hands/s per core, 500 Rum 4 players heuristic", 30_000, "hands/s", True),
    Target(19, "digger_hands_per_s", "hands/s per core, 500 Rum 4 players digger", 30_000, "hands/s", True),
    Target(19, "cautious_hands_per_s", "hands/s per core, 500 Rum 4 players cautious", 60_000, "hands/s", True),
    Target(19, "rollout_hands_per_s", "hands/s per core, 500 Rum 4 players rollout", 300, "hands/s", True),
    Target(19, "heuristic_greedy_point_cost", "heuristic at greedy's point: cost per hand over greedy's, 500 Rum 4 players",
           1.2, "x", False),
    Target(19, "cold_simulate_s_19", "cold start of a 1-game simulate, 500 Rum greedy", 20, "s", False),
    Target(19, "cold_heuristic_s", "cold start of a 1-game simulate, 500 Rum heuristic lineup", 35, "s", False),
    Target(19, "cold_5000_s", "cold start of a 1-game simulate, 5000 Rummy 3 players greedy", 35, "s", False),
)
RUMMIKUB_REFERENCE = Case("rummikub", 4, "greedy")  # the games target


# --- throughput (in process) ------------------------------------------------------------------


def configure(case: Case) -> RunConfig | str:
    """The run config of ``case``, or the reason this build cannot play it."""
    try:
        return prepare(case.game, case.players, case.lineup, rules=Rules.preset(case.game))
    except RummysimError as exc:
        return str(exc)


def _timed_run(cfg: RunConfig, seed: int, out: np.ndarray) -> float:
    return _cpu_and_wall_run(cfg, seed, out)[1]


def _cpu_and_wall_run(cfg: RunConfig, seed: int, out: np.ndarray) -> tuple[float, float]:
    """(process CPU seconds, wall seconds) of one batch of ``out.shape[0]`` games."""
    c0, t0 = time.process_time(), time.perf_counter()
    cfg.spec.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, out.shape[0], out, NO_HANDS)
    return time.process_time() - c0, time.perf_counter() - t0


def _games_per_run(cfg: RunConfig, seconds: float) -> int:
    """Games for a run of about ``seconds``: a 1-game warm-up (which compiles or loads the kernels),
    then 1, 2, 4, ... games until a run lasts a tenth of ``seconds``."""
    _timed_run(cfg, 1, np.zeros((1, R.G_SIZE), dtype=np.int64))
    games = 1
    while True:
        dt = _timed_run(cfg, 1, np.zeros((games, R.G_SIZE), dtype=np.int64))
        if dt >= seconds / 10 or games >= MAX_GAMES_PER_RUN:
            return int(min(MAX_GAMES_PER_RUN, max(1, round(games * seconds / max(dt, 1e-9)))))
        games *= 2


def measure_rate(cfg: RunConfig, threads: int, sizes: Sizes) -> dict:
    """Median games/s and hands/s (wall clock) of ``sizes.repetitions`` runs on ``threads`` numba
    threads, and hands per CPU-second: less sensitive to other work on the machine (on several
    threads it also counts the workers' spin-waiting)."""
    numba.set_num_threads(threads)
    try:
        games = _games_per_run(cfg, sizes.seconds_per_run)
        out = np.zeros((games, R.G_SIZE), dtype=np.int64)
        rates = []
        for rep in range(sizes.repetitions):
            cpu, wall = _cpu_and_wall_run(cfg, 1000 + rep, out)
            hands = int(out[:, R.G_HANDS].sum())
            rates.append((games / wall, hands / wall, hands / max(cpu, 1e-9)))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    games_s, hands_s, hands_cpu_s = (statistics.median(r[i] for r in rates) for i in range(3))
    return {"games_per_s": games_s, "hands_per_s": hands_s, "hands_per_cpu_s": hands_cpu_s,
            "games_per_run": games, "runs": sizes.repetitions}


class Rates:
    """Throughput rows, measured once per case (the strategy section reuses the matching cases)."""

    def __init__(self, sizes: Sizes, log: Log) -> None:
        self.sizes, self.log, self.rows = sizes, log, {}

    def row(self, case: Case) -> dict:
        if case not in self.rows:
            self.rows[case] = self._measure(case)
        return self.rows[case]

    def _measure(self, case: Case) -> dict:
        row: dict = asdict(case)
        cfg = configure(case)
        if isinstance(cfg, str):
            self.log(f"{case.game} {case.players} players {case.lineup}: not available ({cfg})")
            return {**row, "available": False, "reason": cfg}
        every = numba.config.NUMBA_NUM_THREADS
        self.log(f"{case.game} {case.players} players {case.lineup}: 1 and {every} threads")
        one = measure_rate(cfg, 1, self.sizes)
        many = measure_rate(cfg, every, self.sizes)
        return {**row, "available": True, "one_thread": one, "all_threads": many, "threads": every,
                "scaling": many["games_per_s"] / one["games_per_s"]}


def validator_reference(case: Case, games: int, repetitions: int) -> dict:
    """Kernel games/s (1 thread, no trace) over the validator's games/s replaying the same games."""
    cfg = configure(case)
    if isinstance(cfg, str):
        raise RummysimError(f"the validator reference case cannot be played: {cfg}")
    numba.set_num_threads(1)
    try:
        seed = 77
        buffer = np.zeros((TRACE_ROWS, TRACE_COLS), dtype=np.int32)
        traces = [traced_game(cfg, seed, g, buffer)[0] for g in range(games)]
        flags = cfg.rules.as_dict()
        validate_trace = cfg.spec.validator()
        t0 = time.perf_counter()
        results = [validate_trace(t, flags) for t in traces]
        validator_s = time.perf_counter() - t0
        out = np.zeros((games, R.G_SIZE), dtype=np.int64)
        _timed_run(cfg, seed, out)  # warm-up
        kernel_s = statistics.median(_timed_run(cfg, seed, out) for _ in range(repetitions))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return {
        **asdict(case),
        "games": games,
        "violations": sum(len(r.violations) for r in results),
        "validator_games_per_s": games / validator_s,
        "validator_actions_per_s": sum(r.actions_checked for r in results) / validator_s,
        "kernel_games_per_s": games / kernel_s,
        "kernel_over_validator": validator_s / kernel_s,
    }


# --- fresh processes ---------------------------------------------------------------------------


@dataclass
class ProcessRun:
    wall_s: float
    cpu_s: float | None  # user + system time of the process: what it cost, whatever else ran
    peak_rss_mib: float | None
    stdout: str


def _child_env(cache_dir: str | None) -> dict[str, str]:
    """The environment of a measured process (the installed rummysim, as this one), with the
    normal numba cache or (``cache_dir``) an empty one."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    return env


def run_cli(args: Sequence[str], workdir: Path, cache_dir: str | None = None) -> ProcessRun:
    """Run ``rummysim ARGS`` (as ``python -m rummysim``) in a fresh process: wall time, peak RSS."""
    cmd = [sys.executable, "-m", "rummysim", *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=workdir, env=_child_env(cache_dir))
        cpu = peak = None
        if hasattr(os, "wait4"):  # the child's own resource usage (Linux, macOS)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
            peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes / KiB
        else:
            proc.wait()
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        raise RummysimError(f"benchmark step `rummysim {' '.join(args)}` exited {proc.returncode}: {last}")
    return ProcessRun(wall, cpu, peak, stdout)


def _cold(args: Sequence[str], workdir: Path, runs: int) -> list[ProcessRun]:
    result = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="rummysim-cold-cache-") as cache:
            result.append(run_cli(args, workdir, cache))
    return result


def _warm(args: Sequence[str], workdir: Path, runs: int) -> list[ProcessRun]:
    run_cli(args, workdir)  # warm-up: fills the normal cache if needed
    return [run_cli(args, workdir) for _ in range(runs)]


def _median_wall(runs: list[ProcessRun]) -> float | None:
    return statistics.median(r.wall_s for r in runs) if runs else None


def _median_cpu(runs: list[ProcessRun]) -> float | None:
    cpu = [r.cpu_s for r in runs if r.cpu_s is not None]
    return statistics.median(cpu) if cpu else None


def _start_row(cold: list[ProcessRun], warm: list[ProcessRun]) -> dict:
    return {"cold_s": _median_wall(cold), "cold_cpu_s": _median_cpu(cold), "cold_runs": len(cold),
            "warm_s": _median_wall(warm), "warm_cpu_s": _median_cpu(warm), "warm_runs": len(warm)}


def startup(sizes: Sizes, workdir: Path, log: Log) -> dict:
    """Cold and warm wall times of ``rummysim --help`` and of a 1-game simulate writing Parquet."""
    one_game = ("simulate", "--games", "1", *E2E_ARGS, "--out", str(workdir / "one.parquet"))
    log("start-up: --help, cold and warm")
    help_cold, help_warm = _cold(["--help"], workdir, sizes.start_runs), _warm(["--help"], workdir, sizes.start_runs)
    log(f"start-up: 1-game simulate, cold ({sizes.cold_simulate_runs} runs of a full compile) and warm")
    sim_cold, sim_warm = _cold(one_game, workdir, sizes.cold_simulate_runs), _warm(one_game, workdir, sizes.start_runs)
    one = _start_row(sim_cold, sim_warm)
    return {
        "help": _start_row(help_cold, help_warm),
        "simulate_1_game": {
            **one, "compile_s": None if one["cold_s"] is None else one["cold_s"] - one["warm_s"],
            "note": _cold_note(sizes, sim_cold),
        },
        "cold_other": {name: _cold_only(sizes, workdir, args, log) for name, args in COLD_EXTRA.items()},
    }


def _cold_note(sizes: Sizes, cold: list[ProcessRun]) -> str:
    if not cold:
        return f"cold compile not measured in {sizes.mode} mode (it takes about half a minute)"
    return "1 run" if len(cold) == 1 else f"median of {len(cold)} runs"


def _cold_only(sizes: Sizes, workdir: Path, args: tuple[str, ...], log: Log) -> dict:
    """A cold 1-game simulate of another engine (issue 19 point 4): wall and CPU, median of the runs."""
    if sizes.cold_simulate_runs:
        log(f"start-up: 1-game simulate {' '.join(args[:6])}, cold ({sizes.cold_simulate_runs} runs)")
    one_game = ("simulate", "--games", "1", *args, "--out", str(workdir / "one-other.parquet"))
    cold = _cold(one_game, workdir, sizes.cold_simulate_runs)
    return {**_start_row(cold, []), "args": " ".join(args), "note": _cold_note(sizes, cold)}


# --- end to end ----------------------------------------------------------------------------------


def _measured_at_million(rows: list[dict], key: str) -> float | None:
    return next((row[key] for row in rows if row["games"] == MILLION), None)


def _two_points(rows: list[dict], key: str) -> tuple[tuple[int, float], tuple[int, float], str]:
    (x0, y0), (x1, y1) = ((row["games"], row[key]) for row in rows)
    return (x0, y0), (x1, y1), f"{x0:,} and {x1:,} games"


def million_games_seconds(rows: list[dict]) -> tuple[float, str]:
    """Wall time of 10^6 games and how it was obtained: measured, or on the line through the two
    sizes (start-up included), or, when noise gives no positive slope, scaled from the larger run."""
    measured = _measured_at_million(rows, "wall_s")
    if measured is not None:
        return measured, "measured"
    (x0, y0), (x1, y1), sizes = _two_points(rows, "wall_s")
    slope = (y1 - y0) / (x1 - x0)
    if slope > 0:
        return y1 + slope * (MILLION - x1), f"extrapolated linearly from {sizes}; --full measures it"
    return y1 / x1 * MILLION, f"scaled from {x1:,} games (no positive slope between {sizes}); --full measures it"


def million_games_rss(rows: list[dict]) -> tuple[float | None, float | None, str]:
    """(peak RSS at 10^6 games, its growth per 10^6 games, how): measured at 10^6 or extrapolated on
    the line through the two sizes; a growth of zero or less is reported as a plateau."""
    if any(row["peak_rss_mib"] is None for row in rows):
        return None, None, "not measured on this platform"
    (x0, y0), (x1, y1), sizes = _two_points(rows, "peak_rss_mib")
    growth = (y1 - y0) / (x1 - x0) * MILLION
    measured = _measured_at_million(rows, "peak_rss_mib")
    if measured is not None:
        return measured, growth, "measured"
    if growth <= 0:
        return y1, growth, f"no growth between {sizes}: the plateau"
    return y1 + growth * (MILLION - x1) / MILLION, growth, f"extrapolated linearly from {sizes}; --full measures it"


def end_to_end(sizes: Sizes, workdir: Path, log: Log) -> dict:
    """``rummysim simulate --out PARQUET`` at two sizes (warm cache): wall time and peak RSS."""
    rows = []
    for games in sizes.e2e_games:
        log(f"end to end: simulate {games:,} games, {sizes.e2e_runs} runs")
        args = ("simulate", "--games", str(games), *E2E_ARGS, "--json", "--out", str(workdir / "e2e.parquet"))
        runs = [run_cli(args, workdir) for _ in range(sizes.e2e_runs)]
        summaries = [json.loads(r.stdout) for r in runs]
        peaks = [r.peak_rss_mib for r in runs if r.peak_rss_mib is not None]
        rows.append({
            "games": games, "runs": len(runs), "threads": summaries[0]["threads"],
            "wall_s": _median_wall(runs), "cpu_s": _median_cpu(runs), "games_per_s": games / _median_wall(runs),
            "play_games_per_s": statistics.median(s["games_per_s"] for s in summaries),
            "peak_rss_mib": statistics.median(peaks) if peaks else None,
        })
    seconds, how = million_games_seconds(rows)
    rss, growth, rss_how = million_games_rss(rows)
    return {
        "sizes": rows,
        "million_games_s": seconds, "million_games_how": how,
        "peak_rss_mib_at_million": rss, "peak_rss_how": rss_how,
        "rss_growth_mib_per_million_games": growth,
    }


# --- targets, machine, the whole suite ---------------------------------------------------------


def _target_values(result: dict) -> dict[str, tuple[float | None, str | None]]:
    ref = next((r for r in result["throughput"] if r["available"] and
                (r["game"], r["players"], r["lineup"]) == (REFERENCE.game, REFERENCE.players, REFERENCE.lineup)), None)
    threads = result["machine"]["numba_threads"]
    on = None if threads == 2 else f"measured on {threads} threads, not 2"
    sim1 = result["startup"]["simulate_1_game"]
    e2e = result["end_to_end"]
    how = e2e["million_games_how"] if on is None else f"{e2e['million_games_how']}; {on}"
    rk = next((r for r in result["throughput"] if r["available"] and
               (r["game"], r["players"], r["lineup"]) == astuple(RUMMIKUB_REFERENCE)), None)
    groups = {g["positions"]: g for g in result["rummikub_solver"].get("groups", [])}
    no_j, with_j = groups.get("no jokers"), groups.get("jokers")
    cold_other = result["startup"]["cold_other"]
    per_core = _one_thread_hands(result)
    return {
        "hands_per_s_per_core_19": (ref and ref["one_thread"]["hands_per_s"], None),
        "million_games_s_19": (e2e["million_games_s"], how),
        "rum5000_2p_hands_per_s": (per_core.get(("5000-rummy", 2, "greedy")), None),
        "rum5000_4p_hands_per_s": (per_core.get(("5000-rummy", 4, "greedy")), None),
        "heuristic_hands_per_s": (per_core.get((STRATEGY_GAME, STRATEGY_PLAYERS, "heuristic")), None),
        "digger_hands_per_s": (per_core.get((STRATEGY_GAME, STRATEGY_PLAYERS, "digger")), None),
        "cautious_hands_per_s": (per_core.get((STRATEGY_GAME, STRATEGY_PLAYERS, "cautious")), None),
        "rollout_hands_per_s": (per_core.get((STRATEGY_GAME, STRATEGY_PLAYERS, "rollout")), None),
        "cold_simulate_s_19": (sim1["cold_s"], sim1["note"]),
        "cold_heuristic_s": (cold_other["heuristic"]["cold_s"], cold_other["heuristic"]["note"]),
        "cold_5000_s": (cold_other["5000-rummy"]["cold_s"], cold_other["5000-rummy"]["note"]),
        "heuristic_greedy_point_cost": (result["greedy_point"]["cost"], GREEDY_POINT_NOTE),
        "rkub_games_per_s_per_core": (rk and rk["one_thread"]["games_per_s"], None),
        "rkub_solves_no_jokers": (no_j and no_j["solver_solves_per_s"], None),
        "rkub_solves_jokers": (with_j and with_j["solver_solves_per_s"], None),
        "rkub_ratio_no_jokers": (no_j and no_j["ratio"], None),
        "rkub_ratio_jokers": (with_j and with_j["ratio"], None),
        "rkub_package_ratio_no_jokers": (no_j and no_j["package_ratio"], None),
        "rkub_package_ratio_jokers": (with_j and with_j["package_ratio"], None),
        "hands_per_s_per_core": (ref and ref["one_thread"]["hands_per_s"], None),
        "million_games_s": (e2e["million_games_s"], how),
        "thread_scaling": (ref and ref["scaling"], on),
        "cold_simulate_s": (sim1["cold_s"], sim1["note"]),
        "warm_simulate_s": (sim1["warm_s"], None),
    }


def _one_thread_hands(result: dict) -> dict[tuple[str, int, str], float]:
    """Hands/s on one thread of every measured row, by (game, players, lineup)."""
    rows = [*result["throughput"], *result["strategies"]]
    return {(r["game"], r["players"], r["lineup"]): r["one_thread"]["hands_per_s"] for r in rows if r["available"]}


def paired_cost(base: Case, other: Case, sizes: Sizes) -> dict:
    """CPU cost per hand of ``other`` over ``base`` on one thread, their runs alternated in this
    process so that both see the same machine: the median of ``sizes.repetitions`` pairs' ratios.
    Rows measured minutes apart said 1.31x where the interleaved runs said 1.03x (session 20)."""
    cfgs = [configure(base), configure(other)]
    unavailable = [cfg for cfg in cfgs if isinstance(cfg, str)]
    if unavailable:
        return {"cost": None, "reason": unavailable[0]}
    numba.set_num_threads(1)
    try:
        games = _games_per_run(cfgs[0], sizes.seconds_per_run)
        _timed_run(cfgs[1], 1, np.zeros((1, R.G_SIZE), dtype=np.int64))  # compile or load before timing
        ratios = []
        for rep in range(sizes.repetitions):
            per_hand = []
            for cfg in cfgs:
                out = np.zeros((games, R.G_SIZE), dtype=np.int64)
                cpu, _ = _cpu_and_wall_run(cfg, 1000 + rep, out)
                per_hand.append(cpu / max(int(out[:, R.G_HANDS].sum()), 1))
            ratios.append(per_hand[1] / max(per_hand[0], 1e-12))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return {"cost": statistics.median(ratios), "pairs": ratios, "games_per_run": games,
            "base": base.lineup, "other": other.lineup}


def evaluate_targets(values: dict[str, tuple[float | None, str | None]]) -> list[dict]:
    """Each target of :data:`TARGETS` with its measured value, met (True/False) or None if not measured."""
    rows = []
    for t in TARGETS:
        value, note = values[t.key]
        met = None if value is None else (value >= t.goal if t.higher_is_better else value <= t.goal)
        rows.append({**asdict(t), "value": value, "met": met, "note": note})
    return rows


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _load() -> list[float] | None:
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None


def machine_info(load_at_start: list[float] | None) -> dict:
    """Where the figures come from; the load averages show whether other work shared the cores."""
    return {
        "cpu": _cpu_name(), "cores": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": numba.threading_layer(), "numba": numba.__version__, "numpy": np.__version__,
        "python": platform.python_version(), "platform": platform.platform(),
        "load_average_at_start": load_at_start, "load_average_at_end": _load(),
    }


def strategies_of(game: str) -> list[str]:
    """The strategies that play ``game`` (Rummikub's own are not 500 Rum's), in registry order."""
    return [name for name, info in STRATEGIES.items() if not info.games or game in info.games]


def run_suite(sizes: Sizes, log: Log | None = None, cases: Sequence[Case] = THROUGHPUT_CASES) -> dict:
    """Run every section at ``sizes`` and return the results (see the module docstring)."""
    log = log or (lambda message: None)
    started, load_at_start = datetime.now().astimezone(), _load()
    rates = Rates(sizes, log)
    throughput = [rates.row(c) for c in cases]
    strategies = [rates.row(Case(STRATEGY_GAME, STRATEGY_PLAYERS, name)) for name in strategies_of(STRATEGY_GAME)]
    strategies.append({**rates.row(Case(STRATEGY_GAME, STRATEGY_PLAYERS, GREEDY_POINT_LINEUP)),
                       "label": "heuristic at greedy's point"})
    log("heuristic at greedy's point against greedy, runs alternated")
    greedy_point = paired_cost(Case(STRATEGY_GAME, STRATEGY_PLAYERS, "greedy"),
                               Case(STRATEGY_GAME, STRATEGY_PLAYERS, GREEDY_POINT_LINEUP), sizes)
    log(f"validator reference: {sizes.validator_games} games")
    reference = validator_reference(REFERENCE, sizes.validator_games, sizes.repetitions)
    rummikub = solver_reference(sizes.rummikub_games, sizes.milp_positions, sizes.repetitions, log)
    with tempfile.TemporaryDirectory(prefix="rummysim-bench-") as tmp:
        workdir = Path(tmp)
        starts = startup(sizes, workdir, log)
        e2e = end_to_end(sizes, workdir, log)
    result = {
        "suite": {"mode": sizes.mode, "started": started.isoformat(timespec="seconds"),
                  "seconds": (datetime.now().astimezone() - started).total_seconds(), "sizes": asdict(sizes)},
        "machine": machine_info(load_at_start),
        "throughput": throughput, "strategies": strategies, "greedy_point": greedy_point,
        "validator_reference": reference,
        "rummikub_solver": rummikub, "startup": starts, "end_to_end": e2e,
    }
    result["targets"] = evaluate_targets(_target_values(result))
    return result


def write_json(result: dict, path: Path) -> None:
    """Write ``result`` to ``path`` atomically (temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    os.replace(tmp, path)
