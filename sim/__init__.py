"""rummysim orchestration: rules configuration, simulation runs, validation and the CLI.

The public Python API::

    from rummysim import Rules, simulate, compare, tournament, sweep, validate_run, replay_game
    res = simulate("500-rum", players=4, lineup="greedy,greedy,random,random", games=10_000, seed=7)
    res.games        # polars.DataFrame, one row per game
    res.summary      # dict with per-seat win rates and 95% intervals

Every CLI command is one of these functions with the same arguments (``rummysim validate`` is
``validate_run`` and ``rummysim replay`` is ``replay_game``, since ``sim.validate`` is the
validator module). See docs/api.md.

Names are imported lazily so that ``import sim.errors`` (used by every layer) stays light and
free of import cycles.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Rules": "rummysim.rules",
    "simulate": "rummysim.simulation",
    "SimulationResult": "rummysim.simulation",
    "validate_run": "rummysim.checks",
    "replay_game": "rummysim.checks",
    "compare": "rummysim.comparison",
    "tournament": "rummysim.comparison",
    "sweep": "rummysim.sweeps",
    "ComparisonResult": "rummysim.comparison",
    "TournamentResult": "rummysim.comparison",
    "RummysimError": "rummysim.errors",
    "RulesError": "rummysim.errors",
    "UnsupportedRuleError": "rummysim.errors",
    "InputError": "rummysim.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
