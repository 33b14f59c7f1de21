"""CLI command ``warmup``: compile every engine variant once, so that no later command waits.

Parsing and printing only: ``rummysim.warmup`` plans and compiles. ``warmup_command`` is a plain
function tests may call directly.
"""

from __future__ import annotations

import json
import time

from typing import Annotated, Optional

import typer

from rummysim.cli.console import out_console
from rummysim.cli.options import GamesOpt, JsonOpt, ProgressOpt
from rummysim.cli.progress import progress_bar, show_progress


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def warmup_command(
    game: GamesOpt = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="Worker processes compiling in parallel (default: the core count).")] = None,
    progress: ProgressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Compile every engine variant (strategy families, rule paths, games and hands) into the cache, in parallel."""
    from rummysim.warmup import warmup

    t0 = time.perf_counter()
    with progress_bar("compiling", show_progress(progress), unit=" variants", note=lambda name="": f" {name}",
                      eta=False) as update:
        report = warmup(game or (), jobs, update)
    elapsed = time.perf_counter() - t0
    if as_json:
        out_console.print_json(json.dumps({
            "compiled": [{"variant": v.name, "seconds": seconds} for v, seconds in report.compiled],
            "cached": [v.name for v in report.cached], "seconds": elapsed}))
        return
    if not report.compiled:
        out_console.print(f"all {report.variants} engine variants are compiled already ({elapsed:.1f} s)")
        return
    for variant, seconds in report.compiled:
        out_console.print(f"compiled {variant.name} ({_minutes(seconds)} in its worker)")
    cached = f"; {len(report.cached)} were compiled already" if report.cached else ""
    out_console.print(f"compiled {len(report.compiled)} engine variants in {_minutes(elapsed)}{cached}")


def register(app: typer.Typer) -> None:
    app.command("warmup")(warmup_command)
