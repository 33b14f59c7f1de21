"""CLI command for sweeps: ``sweep``.

Parsing and printing only: ``rummysim.sweeps`` validates, plans and runs. User errors are the
typed errors of ``rummysim.errors``, turned into ``error: ...`` and exit code 2 by
``rummysim.cli.main``. The plan goes to stderr, the result line to stdout (with ``--json``, the
result as JSON). ``sweep_command`` is a plain function tests may call directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from rummysim.cli.console import err_console, out_console, print_note
from rummysim.cli.options import JsonOpt, ProgressOpt, out_option
from rummysim.cli.progress import progress_bar, show_progress
from rummysim.errors import InputError


def sweep_command(
    toml: Annotated[Path, typer.Argument(metavar="SWEEP.toml", help="Sweep file (TOML: [run] and [grid]; see examples/).",
                                          show_default=False)],
    out: Annotated[Optional[Path], out_option("Dataset folder (default runs/<file name>).")] = None,
    scheduler: Annotated[Optional[str], typer.Option(
        "--scheduler", help="Run the chunks on this Dask scheduler, e.g. tcp://HOST:8786 (pip install '.[distributed]').")] = None,
    cluster: Annotated[Optional[str], typer.Option(
        "--cluster", help="Start a Dask LocalCluster: local:N for N worker processes.")] = None,
    threads: Annotated[Optional[int], typer.Option(
        "--threads", help="Numba threads (local: default all cores; Dask: per task, default cores / tasks per host).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Check the file and list the cells; play nothing.")] = False,
    progress: ProgressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play every cell of a TOML grid into a partitioned Parquet dataset (resumes if rerun)."""
    from rummysim.sweeps.config import load_sweep

    config = load_sweep(toml, expand=not dry_run)
    target = out if out is not None else Path("runs") / toml.stem
    if dry_run:
        if as_json:
            out_console.print_json(json.dumps(_cells_json(config, target)))
        else:
            _dry_run(config, target)
        return

    from rummysim.sweeps import SweepPlan, sweep

    shown: list[SweepPlan] = []

    def show(plan: SweepPlan) -> None:
        _print_plan(plan, target, err_console)
        shown.append(plan)

    try:
        with progress_bar("sweep", show_progress(progress), unit="games", resumable=True, note=_time_left,
                          eta=False) as update:
            report = None if update is None else lambda done, total: update(done, total, shown[0].est_seconds)
            path = sweep(config, target, scheduler=scheduler, cluster=cluster, threads=threads, progress=report,
                         on_plan=show)
    except KeyboardInterrupt:
        print_note("interrupted: the finished files are kept; rerun the same command to resume")
        raise typer.Abort() from None
    if as_json:
        out_console.print_json(json.dumps(done_summary(path)))
    else:
        _print_done(path, out_console)


def register(app: typer.Typer) -> None:
    """Attach ``sweep`` to the app."""
    app.command("sweep")(sweep_command)


def _time_left(seconds: float | None = None) -> str:
    """The progress bar's note: the sweep's own estimate, corrected as chunks finish."""
    from rummysim.sweeps.plan import duration

    return "" if seconds is None else f", about {duration(seconds)} left"


def _print_plan(plan, target: Path, console: Console) -> None:
    console.print(f"sweep {plan.config.source} -> {target}", markup=False, soft_wrap=True)
    for line in plan.describe():
        console.print("  " + line, markup=False, soft_wrap=True)


def _dry_run(config, target: Path) -> None:
    """The plan's sizes at once (from the grid alone), then every cell as it is built and checked,
    then what the folder already holds: output starts within a second for any size (issue 21)."""
    from rummysim.output import check_output_folder
    from rummysim.sweeps.config import size_line

    check_output_folder(target, create=False)
    print_note(f"sweep {config.source} -> {target}")
    print_note("  " + size_line(config))
    _print_cells(config)
    _print_status(config, target)


def _print_status(config, target: Path) -> None:
    """What the folder already holds (its files verified) and the backend."""
    from rummysim.sweeps import plan_sweep  # polars: loaded once the first lines are out

    for line in plan_sweep(config, target).status_lines():
        print_note("  " + line)


def _print_cells(config) -> None:
    """The dry run's table, one line per cell as it is built: cell, seed, game, players, lineup,
    overrides (the widths come from the grid, so no cell waits for the others)."""
    games = max([len("game"), *(len(str(g)) for g in config.grid["game"])])
    lineup = max([len("lineup"), *(len(",".join(spec.resolve(p))) for spec in config.grid["lineup"]
                                   for p in config.grid["players"] if _resolves(spec, p))])
    stream = out_console.file

    def write(line: str) -> None:
        stream.write(line)
        stream.flush()  # line by line, also into a pipe: each cell shows as soon as it is checked

    write(f"{'cell':<11}  {'seed':<19}  {'game':<{games}}  players  {'lineup':<{lineup}}  overrides\n")
    for cell in config.iter_cells():
        overrides = ", ".join(f"{k}={v}" for k, v in cell.overrides.items()) or "-"
        write(f"{cell.id:<11}  {cell.seed:<19}  {cell.preset:<{games}}  {cell.players:<7}  "
              f"{','.join(cell.lineup):<{lineup}}  {overrides}\n")
    write(f"{config.n_cells:,} cells\n")


def _cells_json(config, target: Path) -> dict[str, object]:
    """``--dry-run --json``: the cells the sweep would play, as the dry run's table lists them."""
    from rummysim.output import check_output_folder

    check_output_folder(target, create=False)
    cells = [{"cell": cell.id, "seed": cell.seed, "game": cell.preset, "players": cell.players,
              "lineup": ",".join(cell.lineup), "overrides": dict(cell.overrides)}
             for cell in config.iter_cells()]
    return {"sweep": str(config.source), "out": str(target), "cells": cells}


def _resolves(spec, players: int) -> bool:
    try:
        spec.resolve(players)
    except InputError:  # a lineup that does not fit: its cell's error comes in its turn
        return False
    return True


def done_summary(path: Path) -> dict[str, object]:
    """What ``--json`` prints after a sweep: the folder, the dataset's totals (cells, games,
    files) and this session's games played, seconds and rate, from its ``_run.json``."""
    manifest = json.loads((path / "_run.json").read_text())
    session = manifest["sessions"][-1]
    return {"path": str(path), "totals": manifest["totals"],
            "session": {key: session.get(key) for key in ("games_written", "elapsed_s", "games_per_s")}}


def _print_done(path: Path, console: Console) -> None:
    manifest = json.loads((path / "_run.json").read_text())
    session = manifest["sessions"][-1]
    totals = manifest["totals"]
    rate = f", {session['games_per_s']:,.0f} games/s" if session.get("games_per_s") else ""
    if not session["games_written"]:
        console.print(f"nothing to do: {path} is complete ({_n(totals['cells'], 'cell')}, {totals['games']:,} games)",
                      markup=False, soft_wrap=True)
        console.print(f"next: rummysim analyze {path} --balance", markup=False, soft_wrap=True)
        return
    console.print(
        f"wrote {path}: {_n(totals['cells'], 'cell')}, {totals['games']:,} games in {_n(totals['files'], 'file')} "
        f"({session['games_written']:,} games played now in {session['elapsed_s']:.1f} s{rate})",
        markup=False, soft_wrap=True,
    )
    console.print(f"next: rummysim analyze {path} --balance", markup=False, soft_wrap=True)


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' * (count != 1)}"
