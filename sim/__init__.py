"""rummysim orchestration: rules configuration, simulation runs, validation and the CLI.

The public Python API::

    from sim import Rules, simulate
    res = simulate("500-rum", players=4, lineup="greedy,greedy,random,random", games=10_000, seed=7)
    res.games        # polars.DataFrame, one row per game
    res.summary      # dict with per-seat win rates and 95% intervals

Names are imported lazily so that ``import sim.errors`` (used by every layer) stays light and
free of import cycles.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Rules": "sim.rules",
    "simulate": "sim.simulate",
    "SimulationResult": "sim.simulate",
    "validate_run": "sim.checks",
    "replay_game": "sim.checks",
    "RummysimError": "sim.errors",
    "RulesError": "sim.errors",
    "UnsupportedRuleError": "sim.errors",
    "InputError": "sim.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
