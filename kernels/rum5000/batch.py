"""Batch runner for 5000 Rummy: the same contract as ``kernels.rum500.batch`` for the 5000 engine.

Kept apart from the 500 Rum runner so that neither game's kernels are compiled for the other. As
there, Python threads hand pieces of the index range to a serial nogil kernel
(``kernels.common.runner``), and every game is seeded from (run seed, game index), so results
are identical for any thread count and any chunking of the index range.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.runner import run_in_threads
from rummysim.kernels.rum5000.engine import FULL_COMPILED, play_game5, play_single_hand5
from rummysim.kernels.rum5000.layout import (
    FT_EXCHANGE, G_SIZE, H_SIZE, R5_FIRST_TURN, R5_RUMMY, R5_STAKES, R_HAND_CAP, RUMMY_OFF,
)
from rummysim.strategies.ids import EXTERNAL, SEARCH
from rummysim.strategies.rum5000.dispatch import SEARCH_COMPILED


def searching_switch(lineup: np.ndarray):
    """The engine's ``search`` switch for a lineup: ``SEARCH_COMPILED`` when a seat plays ``search``,
    else None, so that the other lineups do not compile it (issue 19 point 4)."""
    return SEARCH_COMPILED if bool((lineup % EXTERNAL == SEARCH).any()) else None


def needs_full_engine5(rules: np.ndarray) -> bool:
    """Do the rules use a rare path: a stakes layer (V5K-13/14), rummy calls (V5K-3/4) or the
    upcard exchange (V5K-11)? Those are compiled only when used."""
    return bool(rules[R5_STAKES] != 0 or rules[R5_RUMMY] != RUMMY_OFF or rules[R5_FIRST_TURN] == FT_EXCHANGE)


def full_switch5(rules: np.ndarray):
    """The engine's ``full`` switch for the rules: ``FULL_COMPILED`` when they use a rare path, else
    None, so that the other rules do not compile those paths (issue 19 point 4)."""
    return FULL_COMPILED if needs_full_engine5(rules) else None


def switches5(rules: np.ndarray, lineup: np.ndarray) -> tuple:
    """(searching, full): the engine's compile-time switches for a run."""
    return searching_switch(lineup), full_switch5(rules)


def run_games5(rules, lineup, params, seed, start, count, out_games, out_hands):
    """Play games start..start+count-1 into out_games[count, G_SIZE] (and out_hands if it has rows)."""
    want_hands = out_hands.shape[0] > 0
    searching, full = switches5(rules, lineup)

    def work(a: int, b: int) -> None:
        hands = out_hands[a:b] if want_hands else out_hands
        play_games5(rules, lineup, params, seed, start + a, out_games[a:b], hands, searching, full)

    run_in_threads(count, work)


def run_hands5(rules, lineup, params, seed, start, count, out_hands):
    """``--unit hands``: independent hands start..start+count-1 into out_hands[count, H_SIZE]."""
    searching, full = switches5(rules, lineup)

    def work(a: int, b: int) -> None:
        play_hands5(rules, lineup, params, seed, start + a, out_hands[a:b], searching, full)

    run_in_threads(count, work)


@njit
def play_games5(rules, lineup, params, seed, start, out_games, out_hands, searching, full):
    """Games start.. into every row of out_games (and of out_hands if it has rows), one thread."""
    want_hands = out_hands.shape[0] > 0
    empty_hands = np.zeros((0, H_SIZE), dtype=np.int32)
    for i in range(out_games.shape[0]):
        hands_rows = out_hands[i] if want_hands else empty_hands
        play_game5(rules, lineup, params, seed, start + i, out_games[i], hands_rows, None, None, searching, full)


@njit
def play_hands5(rules, lineup, params, seed, start, out_hands, searching, full):
    for i in range(out_hands.shape[0]):
        play_single_hand5(rules, lineup, params, seed, start + i, out_hands[i], searching, full)


def run_game_traced5(rules, lineup, params, seed, game, trace):
    """Play one game recording every action into trace; returns (game row, rows used, overflowed)."""
    return play_game_traced5(rules, lineup, params, seed, game, trace, *switches5(rules, lineup))


@njit
def play_game_traced5(rules, lineup, params, seed, game, trace, searching, full):
    out_game = np.zeros(G_SIZE, dtype=np.int64)
    out_hands = np.zeros((rules[R_HAND_CAP], H_SIZE), dtype=np.int32)
    used, over = play_game5(rules, lineup, params, seed, game, out_game, out_hands, trace, None, searching, full)
    return out_game, used, over


@njit
def play_game_into5(rules, lineup, params, seed, game, out_game, out_hands, trace, ext):
    """One game for the step API (``rummysim.stepenv``): ``ext`` (int32, one flag per seat) marks
    the seats whose decisions are asked outside numba (``strategies.rum5000.external``); its
    engine compiles every strategy, ``search`` included."""
    return play_game5(rules, lineup, params, seed, game, out_game, out_hands, trace, ext, SEARCH_COMPILED,
                      FULL_COMPILED)


def engine_variant5(rules: np.ndarray, lineup: np.ndarray) -> str:
    """The compiled specialization a run plays: ``step-api`` when a seat is external (a Python
    strategy plays through the step API's engine), else its switches that are on, ``search``
    (a seat plays ``search``) and ``full`` (the rules use a rare path): "", ``search``, ``full``
    or ``search-full``."""
    if (lineup >= EXTERNAL).any():
        return "step-api"
    searching, full = switches5(rules, lineup)
    return "-".join(name for name, switch in (("search", searching), ("full", full)) if switch is not None)
