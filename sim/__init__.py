"""rummysim orchestration: rules configuration, simulation runs, validation and the CLI.

The public Python API::

    from sim import Rules, simulate
    res = simulate("500-rum", players=4, lineup="greedy,greedy,random,random", games=10_000, seed=7)
    res.games        # polars.DataFrame, one row per game
    res.summary      # dict with per-seat win rates and 95% intervals
"""

from sim.errors import InputError, RulesError, RummysimError, UnsupportedRuleError
from sim.rules import Rules
from sim.simulate import SimulationResult, simulate

__all__ = ["Rules", "simulate", "SimulationResult", "RummysimError", "RulesError", "UnsupportedRuleError", "InputError"]
