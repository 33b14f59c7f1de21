"""Analysis of result files with Polars: per-group statistics, balance, payoffs, reports.

    from rummysim.analysis import summarize, balance, payoffs, strategies, strategy_matrix, write_report
    summarize("runs/first.parquet")          # polars.DataFrame, one row per group
    balance("runs/sweep", by="cell")         # variations ranked by fairness

Each function is what ``rummysim analyze`` / ``rummysim report`` call; they accept a file, a
folder, a glob, or a Polars frame. Names are imported lazily so that the CLI starts fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "summarize": "rummysim.analysis.tables",
    "seat_table": "rummysim.analysis.tables",
    "balance": "rummysim.analysis.tables",
    "payoffs": "rummysim.analysis.tables",
    "strategies": "rummysim.analysis.tables",
    "strategy_matrix": "rummysim.analysis.tables",
    "distribution": "rummysim.analysis.tables",
    "positions": "rummysim.analysis.tables",
    "read_duels": "rummysim.analysis.duels",
    "stakes": "rummysim.analysis.sessions",
    "build_report": "rummysim.analysis.report",
    "write_report": "rummysim.analysis.report",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'analysis' has no attribute {name!r}")
