"""CLI command for sweeps: ``sweep``.

Parsing and printing only: ``rummysim.sweeps`` validates, plans and runs. User errors are the
typed errors of ``rummysim.errors``, turned into ``error: ...`` and exit code 2 by
``rummysim.cli.main``. The plan goes to stderr, the result line to stdout. ``sweep_command`` is a
plain function tests may call directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from rummysim.cli.console import err_console, out_console, print_note
from rummysim.cli.options import ProgressOpt, out_option
from rummysim.cli.progress import progress_bar, show_progress


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
) -> None:
    """Play every cell of a TOML grid into a partitioned Parquet dataset (resumes if rerun)."""
    from rummysim.sweeps import SweepPlan, load_sweep, plan_sweep, sweep

    config = load_sweep(toml)
    target = out if out is not None else Path("runs") / toml.stem
    if dry_run:
        plan = plan_sweep(config, target)
        _print_plan(plan, target, err_console)
        _print_cells(config, plan.cells, out_console)
        return

    def show(plan: SweepPlan) -> None:
        _print_plan(plan, target, err_console)

    try:
        with progress_bar("sweep", show_progress(progress), unit="games", resumable=True) as update:
            path = sweep(config, target, scheduler=scheduler, cluster=cluster, threads=threads, progress=update,
                         on_plan=show)
    except KeyboardInterrupt:
        print_note("interrupted: the finished files are kept; rerun the same command to resume")
        raise typer.Abort() from None
    _print_done(path, out_console)


def register(app: typer.Typer) -> None:
    """Attach ``sweep`` to the app."""
    app.command("sweep")(sweep_command)


def _print_plan(plan, target: Path, console: Console) -> None:
    console.print(f"sweep {plan.config.source} -> {target}", markup=False, soft_wrap=True)
    for line in plan.describe():
        console.print("  " + line, markup=False, soft_wrap=True)


def _print_cells(config, cells: int, console: Console) -> None:
    """The dry run's table: every cell with its game, players, lineup, overrides and seed."""
    table = Table(title=f"{cells} cells")
    for col in ("cell", "game", "players", "lineup", "overrides", "seed"):
        table.add_column(col)
    for cell in config.cells:
        overrides = ", ".join(f"{k}={v}" for k, v in cell.overrides.items()) or "-"
        table.add_row(cell.id, cell.preset, str(cell.players), ",".join(cell.lineup), overrides, str(cell.seed))
    console.print(table)


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
