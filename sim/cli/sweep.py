"""CLI commands for sweeps (``sweep``); attached by ``sim.cli``.

Parsing and printing only: ``sim.sweeps`` validates, plans and runs. User errors are the typed
errors of ``sim.errors``, turned into ``error: ...`` and exit code 2 by ``sim.cli.main``.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

err_console = Console(stderr=True, highlight=False)


@contextmanager
def _progress(enabled: bool) -> Iterator:
    """A games bar with ETA on stderr; resumed games count as done without skewing the rate."""
    if not enabled:
        yield None
        return
    columns = (TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("games"), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("sweep", total=None)
        started = [False]

        def update(done: int, total: int) -> None:
            if not started[0]:
                bar.reset(task, total=total, completed=done)
                started[0] = True
            else:
                bar.update(task, completed=done, total=total)

        yield update


def register(app: typer.Typer, console: Console) -> None:
    """Attach the commands to the main app."""

    @app.command()
    def sweep(
        toml: Annotated[Path, typer.Argument(metavar="SWEEP.toml", help="Sweep file (TOML: [run] and [grid]; see examples/).",
                                              show_default=False)],
        out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Dataset folder (default runs/<file name>).")] = None,
        scheduler: Annotated[Optional[str], typer.Option(
            "--scheduler", help="Run the chunks on this Dask scheduler, e.g. tcp://HOST:8786 (pip install '.[distributed]').")] = None,
        cluster: Annotated[Optional[str], typer.Option(
            "--cluster", help="Start a Dask LocalCluster: local:N for N worker processes.")] = None,
        threads: Annotated[Optional[int], typer.Option(
            "--threads", help="Numba threads (local: default all cores; Dask: per task, default cores / tasks per host).")] = None,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Check the file and list the cells; play nothing.")] = False,
        progress: Annotated[Optional[bool], typer.Option(
            "--progress/--no-progress", help="Progress bar with ETA (default: when stderr is a terminal).")] = None,
    ) -> None:
        """Play every cell of a TOML grid into a partitioned Parquet dataset (resumes if rerun)."""
        from rummysim.sweeps import SweepPlan, load_sweep, plan_sweep
        from rummysim.sweeps import sweep as run

        config = load_sweep(toml)
        target = out if out is not None else Path("runs") / toml.stem
        if dry_run:
            plan = plan_sweep(config, target)
            _print_plan(plan, target, err_console)
            table = Table(title=f"{plan.cells} cells")
            for col in ("cell", "game", "players", "lineup", "overrides", "seed"):
                table.add_column(col)
            for cell in config.cells:
                overrides = ", ".join(f"{k}={v}" for k, v in cell.overrides.items()) or "-"
                table.add_row(cell.id, cell.preset, str(cell.players), ",".join(cell.lineup), overrides, str(cell.seed))
            console.print(table)
            return

        def show(plan: SweepPlan) -> None:
            _print_plan(plan, target, err_console)

        show_bar = sys.stderr.isatty() if progress is None else progress
        try:
            with _progress(show_bar) as update:
                path = run(config, target, scheduler=scheduler, cluster=cluster, threads=threads, progress=update,
                           on_plan=show)
        except KeyboardInterrupt:
            err_console.print("interrupted: the finished files are kept; rerun the same command to resume", markup=False)
            raise typer.Abort() from None
        _print_done(path, console)


def _print_plan(plan, target: Path, console: Console) -> None:
    console.print(f"sweep {plan.config.source} -> {target}", markup=False, soft_wrap=True)
    for line in plan.describe():
        console.print("  " + line, markup=False, soft_wrap=True)


def _print_done(path: Path, console: Console) -> None:
    import json

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
