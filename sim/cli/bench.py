"""CLI command ``bench`` (the benchmark suite).

Parsing and printing only: ``rummysim.bench`` measures. The suite's results are printed as tables
(or as JSON with ``--json``) and always written to the ``--out`` JSON file; with ``--progress``
each step is announced on stderr. ``bench_command`` is a plain function tests may call directly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from rummysim.cli.console import out_console
from rummysim.cli.options import JsonOpt, ProgressOpt, out_option
from rummysim.cli.progress import progress_log, show_progress
from rummysim.errors import InputError


def _num(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _load(averages: list[float] | None) -> str:
    return "n/a" if averages is None else " ".join(f"{x:.2f}" for x in averages)


def _print_header(console: Console, r: dict) -> None:
    m, s = r["machine"], r["suite"]
    console.print(f"rummysim bench ({s['mode']} sizes), {s['started']}, {s['seconds']:.0f} s", markup=False)
    console.print(f"{m['cpu']}, {m['cores']} cores; numba {m['numba']} on {m['numba_threads']} threads, threading "
                  f"layer {m['threading_layer']}; Python {m['python']}; load average {_load(m['load_average_at_start'])} "
                  f"at start, {_load(m['load_average_at_end'])} at end", markup=False)


def _rate_table(console: Console, title: str, rows: list[dict], first: str) -> None:
    """Throughput rows; a case this build cannot play says so, with the reason below the table."""
    threads = next((row["threads"] for row in rows if row["available"]), "all")
    table = Table(title=title)
    for col in (*first.split(","), "games/s 1t", "hands/s 1t", "hands/CPU-s 1t", f"games/s {threads}t",
                f"hands/s {threads}t", "scaling"):
        table.add_column(col, justify="left" if col in ("game", "lineup", "strategy") else "right")
    reasons: dict[str, str] = {}
    for row in rows:
        lead = [row.get("label", row["lineup"])] if first == "strategy" else [row["game"], str(row["players"]), row["lineup"]]
        if not row["available"]:
            reasons.setdefault(row["reason"], " ".join(lead))
            table.add_row(*lead, "not available in this build", "", "", "", "", "")
            continue
        one, many = row["one_thread"], row["all_threads"]
        table.add_row(*lead, _num(one["games_per_s"]), _num(one["hands_per_s"]), _num(one["hands_per_cpu_s"]),
                      _num(many["games_per_s"]),
                      _num(many["hands_per_s"]), _num(row["scaling"], 2))
    console.print(table)
    for reason, first_case in reasons.items():
        console.print(f"  not available in this build ({first_case} and alike): {reason}", markup=False)


def _print_reference(console: Console, v: dict) -> None:
    console.print(
        f"validator reference ({v['game']}, {v['players']} players, {v['lineup']}, {v['games']} games, "
        f"{v['violations']} violations): kernel {_num(v['kernel_games_per_s'])} games/s on 1 thread, validator "
        f"{_num(v['validator_games_per_s'], 1)} games/s ({_num(v['validator_actions_per_s'])} actions/s): "
        f"kernel/validator = {v['kernel_over_validator']:,.1f}x", markup=False)


def _print_rummikub(console: Console, r: dict) -> None:
    if not r["available"]:
        console.print(f"Rummikub solver: not measured ({r['reason']})", markup=False)
        return
    table = Table(title=f"Rummikub solver on the positions of {r['games']} greedy 4-player games (1 thread)")
    for col in ("positions", "count", "table tiles", "rack tiles", "solver solves/s", "beam cuts", "on",
                "IP runs 3-5 /s", "ratio", "IP runs 3-13 /s", "ratio", "same answers", "package /s", "ratio"):
        table.add_column(col, justify="left" if col == "positions" else "right")
    for g in r["groups"]:
        table.add_row(g["positions"], str(g["count"]), _num(g["mean_table_tiles"], 1), _num(g["mean_rack_tiles"], 1),
                      _num(g["solver_solves_per_s"]), str(g["solver_beam_cuts"]), str(g["milp_positions"]),
                      _num(g["milp_solves_per_s"], 1), f"{g['ratio']:,.0f}x", _num(g["plain_milp_solves_per_s"], 1),
                      f"{g['plain_ratio']:,.0f}x", str(g["same_answers"]),
                      _num(g["package_solves_per_s"], 1), "-" if g["package_ratio"] is None else f"{g['package_ratio']:,.0f}x")
    console.print(table)
    if any(g["package_solves_per_s"] is None for g in r["groups"]):
        console.print('  package: the public rummikub-solver package is not installed '
                      '(pip install "rummikub-solver[highs]")', markup=False)


def _print_startup(console: Console, s: dict) -> None:
    table = Table(title="start-up in a fresh process (s)")
    for col in ("command", "cold: empty numba cache", "CPU", "runs", "warm: normal cache", "CPU", "runs"):
        table.add_column(col, justify="left" if col == "command" else "right")
    rows = [("rummysim --help", s["help"]), ("rummysim simulate, 1 game", s["simulate_1_game"]),
            *((f"rummysim simulate, 1 game, {name}", row) for name, row in s["cold_other"].items())]
    for name, row in rows:
        table.add_row(name, _num(row["cold_s"], 2), _num(row["cold_cpu_s"], 2), str(row["cold_runs"]),
                      _num(row["warm_s"], 2), _num(row["warm_cpu_s"], 2), str(row["warm_runs"]))
    console.print(table)
    if s["simulate_1_game"]["cold_s"] is None:
        console.print(f"  {s['simulate_1_game']['note']}", markup=False)


def _print_e2e(console: Console, e: dict) -> None:
    table = Table(title="end to end: rummysim simulate, 500 Rum 4 players greedy, writing Parquet")
    for col in ("games", "runs", "threads", "wall s", "CPU s", "games/s (wall)", "games/s (play)", "peak RSS MiB"):
        table.add_column(col, justify="right")
    for row in e["sizes"]:
        table.add_row(f"{row['games']:,}", str(row["runs"]), str(row["threads"]), _num(row["wall_s"], 2), _num(row["cpu_s"], 2),
                      _num(row["games_per_s"]), _num(row["play_games_per_s"]), _num(row["peak_rss_mib"]))
    console.print(table)
    console.print(f"  10^6 games: {_num(e['million_games_s'], 1)} s ({e['million_games_how']}); peak RSS "
                  f"{_num(e['peak_rss_mib_at_million'])} MiB ({e['peak_rss_how']}); RSS growth "
                  f"{_num(e['rss_growth_mib_per_million_games'], 1)} MiB per 10^6 games", markup=False)


def _print_targets(console: Console, targets: list[dict]) -> None:
    table = Table(title="targets of issues 8, 17 and 19")
    for col in ("issue", "target", "goal", "measured", "state", "note"):
        table.add_column(col, justify="right" if col in ("issue", "goal", "measured") else "left")
    for t in targets:
        digits = 0 if t["unit"] in ("hands/s", "games/s", "solves/s") else 2
        sign = ">=" if t["higher_is_better"] else "<="
        state = "not measured" if t["met"] is None else "met" if t["met"] else "MISSED"
        table.add_row(str(t["issue"]), t["what"], f"{sign} {t['goal']:,g} {t['unit']}", _num(t["value"], digits), state,
                      t["note"] or "")
    console.print(table)


def print_results(console: Console, r: dict) -> None:
    """Every section of the suite as tables."""
    _print_header(console, r)
    _rate_table(console, "throughput: games/s and hands/s on 1 thread (per core) and on all threads", r["throughput"],
                "game,players,lineup")
    _rate_table(console, "strategies: 500 Rum, 4 players, the strategy in every seat", r["strategies"], "strategy")
    _print_reference(console, r["validator_reference"])
    _print_rummikub(console, r["rummikub_solver"])
    _print_startup(console, r["startup"])
    _print_e2e(console, r["end_to_end"])
    _print_targets(console, r["targets"])


def bench_command(
    quick: Annotated[bool, typer.Option("--quick", help="Tiny sizes: checks that the suite runs (no cold compile).")] = False,
    full: Annotated[bool, typer.Option("--full", help="Also play 10^6 games end to end (instead of extrapolating) "
                                                      "and compile cold 3 times.")] = False,
    as_json: JsonOpt = False,
    out: Annotated[Path, out_option("JSON file for the results.")] = Path("bench.json"),
    progress: ProgressOpt = None,
) -> None:
    """Benchmark suite: games/s and hands/s per core and on all cores, strategies, validator reference,
    the Rummikub solver against an integer program, start-up (cold and warm), end to end with memory,
    and the speed targets met or missed."""
    from rummysim.bench import SIZES, run_suite, write_json

    if quick and full:
        raise InputError("--quick and --full exclude each other")
    result = run_suite(SIZES["quick" if quick else "full" if full else "default"], progress_log(show_progress(progress)))
    write_json(result, out)
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    print_results(out_console, result)
    out_console.print(f"wrote {out}", markup=False)


def register(app: typer.Typer) -> None:
    """Attach ``bench`` to the app."""
    app.command("bench")(bench_command)
