"""Python-side registry of strategies: names, integer ids, parameters and documentation.

The numba side only sees the integer id and a float parameter row per seat; this module turns
user-facing names (``--lineup greedy,random``) into those arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.layout import N_PARAMS
from sim.errors import InputError
from strategies import ids


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    doc: str


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    id: int
    doc: str
    params: tuple[Param, ...] = ()

    def default_params(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            row[i] = p.default
        return row


STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo(
            "random",
            ids.RANDOM,
            "A uniformly random legal choice at every decision point (draws, melds, lay-offs, "
            "joker designations, stopping, discards).",
        ),
        StrategyInfo(
            "greedy",
            ids.GREEDY,
            "Melds and lays off all it can (highest value first); takes from the pile when its "
            "greedy play-out gains points; discards the least useful card of highest value.",
            (
                Param("deadwood_weight", 1.0, "weight of taken cards it cannot use, in the take test"),
                Param("min_gain", 0.0, "a pile take must gain more than this many points"),
            ),
        ),
    )
}


def strategy_info(name: str) -> StrategyInfo:
    """The registered strategy ``name``, or an InputError listing the known ones."""
    if name not in STRATEGIES:
        raise InputError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[name]


def parse_lineup(text: str, n_players: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Names per seat, int64 ids and float64 params for ``--lineup``.

    ``text`` is a comma-separated list with one strategy per seat, or a single name for every seat.
    """
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise InputError("--lineup is empty: give one strategy per seat, e.g. greedy,random")
    for name in names:
        strategy_info(name)
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise InputError(f"--lineup names {len(names)} strategies for {n_players} players")
    lineup = np.array([STRATEGIES[n].id for n in names], dtype=np.int64)
    params = np.stack([STRATEGIES[n].default_params() for n in names])
    return names, lineup, params
