"""CLI commands for strategy comparisons (``compare``, ``tournament``); attached by ``sim.cli``."""

from __future__ import annotations

import typer
from rich.console import Console


def register(app: typer.Typer, console: Console) -> None:
    """Attach the commands to the main app."""
