"""The engines the step API drives: what it needs of each (``StepGame``), one record per engine.

``GameSpec.step_game_at`` names a game's record (500 Rum and Standard Rummy share the 500 engine's;
5000 Rummy and Rummikub have their own). A record says how to play one game with the external seats asked outside
numba (the same kernels and per-game seeding as ``simulate``), how to read a decision the engine
asks, and the sizes of the spaces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from rummysim.strategies.ids import EXTERNAL


@dataclass(frozen=True)
class StepGame:
    """What the step API needs of one engine."""

    name: str  # the environment's PettingZoo metadata name
    kind_names: Mapping[int, str]  # decision kind -> name
    max_actions: int  # the longest option list: the action space's size
    enc_size: int  # the observation encoding's length
    obs_total: int  # the observation slot of seat 0's running total (seat s at + s)
    #: (setup, game row, hand rows, trace) -> (trace rows used, overflowed), with the setup's
    #: external seats (lineup ids EXTERNAL + h) asked of this thread's handler
    play: Callable
    #: the handler's arguments -> the decision (``actions.Decision`` or ``rum5000.Decision5``)
    decision_of: Callable


def _play_500(setup, row, hands, trace):
    from rummysim.kernels.rum500.batch import FULL_ENGINE, play_game_into, read_only
    from rummysim.strategies.rum500.external import ENV_FAMILY

    # always the full engine (with its read-only rules): one specialization, not two
    return play_game_into(read_only(setup.rules), setup.lineup, setup.params, setup.seed, setup.game, row, hands,
                          trace, FULL_ENGINE, ENV_FAMILY)


def _play_5000(setup, row, hands, trace):
    from rummysim.kernels.rum5000.batch import play_game_into5

    external = (setup.lineup >= EXTERNAL).astype(np.int32)  # the seats asked (strategies.rum5000.external)
    return play_game_into5(setup.rules, setup.lineup % EXTERNAL, setup.params, setup.seed, setup.game, row, hands,
                           trace, external)


def _play_rummikub(setup, row, hands, trace):
    from rummysim.kernels.rummikub.batch import play_game_into_rk

    external = (setup.lineup >= EXTERNAL).astype(np.int32)  # the seats asked (strategies.rummikub.external)
    return play_game_into_rk(setup.rules, setup.lineup % EXTERNAL, setup.params, setup.seed, setup.game, row, hands,
                             trace, external)


def _rum500() -> StepGame:
    from rummysim.kernels.rum500.layout import OB_TOTAL
    from rummysim.stepenv.actions import MAX_ACTIONS, decision_of
    from rummysim.stepenv.observation import ENC_SIZE
    from rummysim.strategies.rum500.external import KIND_NAMES

    return StepGame("rummysim_500_rum_v0", dict(enumerate(KIND_NAMES)), MAX_ACTIONS, ENC_SIZE, OB_TOTAL, _play_500,
                    decision_of)


def _rum5000() -> StepGame:
    from rummysim.kernels.rum5000.layout import O_TOTAL
    from rummysim.stepenv.rum5000 import ENC_SIZE, MAX_ACTIONS, decision_of5
    from rummysim.strategies.rum5000.external import KIND_NAMES

    return StepGame("rummysim_5000_rummy_v0", KIND_NAMES, MAX_ACTIONS, ENC_SIZE, O_TOTAL, _play_5000, decision_of5)


def _rummikub() -> StepGame:
    from rummysim.kernels.rummikub.layout import O_TOTAL
    from rummysim.stepenv.rummikub import ENC_SIZE, MAX_ACTIONS, decision_of_rk
    from rummysim.strategies.rummikub.external import KIND_NAMES

    return StepGame("rummysim_rummikub_v0", KIND_NAMES, MAX_ACTIONS, ENC_SIZE, O_TOTAL, _play_rummikub, decision_of_rk)


RUM500 = _rum500()
RUM5000 = _rum5000()
RUMMIKUB = _rummikub()
