"""rummysim: a Monte Carlo simulator for the rummy family (the package root, ``sim/`` in the repository).

The subpackages are ``rummysim.kernels`` (numba kernels, one package per game over a common
layer), ``rummysim.strategies``, ``rummysim.analysis`` and, here, the orchestration: rules
(``rules``), the game registry (``games``), runs (``simulation``, ``comparison``, ``sweeps``),
the validator (``validate``), replay and the CLI (``cli``). docs/architecture.md maps the house.

The public Python API::

    from rummysim import Rules, simulate, compare, tournament, sweep, validate_run, replay_game
    res = simulate("500-rum", players=4, lineup="greedy,greedy,random,random", games=10_000, seed=7)
    res.games        # polars.DataFrame, one row per game
    res.summary      # dict with per-seat win rates and 95% intervals

Every CLI command is one of these functions with the same arguments (``rummysim validate`` is
``validate_run`` and ``rummysim replay`` is ``replay_game``, since ``rummysim.validate`` is the
validator package); the analysis functions (``summarize``, ``balance``, ...) are here too. See
docs/api.md.

Names are imported lazily so that ``import rummysim.errors`` (used by every layer) stays light
and free of import cycles.
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
    "env": "rummysim.stepenv",
    "Strategy": "rummysim.stepenv.python_players",
    "GameInfo": "rummysim.stepenv.python_players",
    "ComparisonResult": "rummysim.comparison",
    "TournamentResult": "rummysim.comparison",
    "RummysimError": "rummysim.errors",
    "RulesError": "rummysim.errors",
    "UnsupportedRuleError": "rummysim.errors",
    "InputError": "rummysim.errors",
    # the analysis functions (``strategies`` is ``rummysim.analysis.strategies``: the name
    # ``rummysim.strategies`` is the strategies package)
    **{name: "rummysim.analysis" for name in (
        "summarize", "seat_table", "balance", "payoffs", "strategy_matrix", "distribution",
        "build_report", "write_report",
    )},
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
