"""Batch runner: many games on a pool of threads, each seeded from (run seed, game index).

``run_games`` and ``run_hands`` split the index range into pieces that Python threads hand to a
serial kernel (``kernels.common.runner``); ``numba.set_num_threads`` sets how many threads run.
Every game allocates its own state, draws its randomness from counter-based streams keyed by its
index, and writes only its own output rows, so results are bit-identical for any thread count and
any chunking of the index range.

Rules that use none of the rare variation paths (``needs_full_engine``) run a specialization of
the engine compiled without them, which compiles in a fraction of the time; likewise lineups of
``greedy`` and ``random`` only run one compiled without the other strategies, and the heuristic
family and ``rollout`` are compiled only for lineups that play them
(``strategies.rum500.dispatch.family_switch``). ``engine_variant`` names the specialization a run
uses (``rummysim warmup``).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.runner import run_in_threads
from rummysim.kernels.rum500.engine import new_setup, play_game, play_single_hand, uses_rare_paths
from rummysim.kernels.rum500.layout import G_SIZE, H_SIZE, R_HAND_CAP
from rummysim.strategies.ids import EXTERNAL
from rummysim.strategies.rum500.dispatch import family_name, family_switch


def needs_full_engine(rules: np.ndarray) -> bool:
    """Do the rules use a rare variation path (``engine.uses_rare_paths``)? Those are compiled
    only when used."""
    return bool(uses_rare_paths(rules))


FULL_ENGINE = np.zeros(0, dtype=np.int64)  # the ``full`` switch's value for the full engine


def read_only(rules: np.ndarray) -> np.ndarray:
    """A read-only copy of the rules vector: the full engine's, whose type compiles the meld
    search's rare enumerations in (``kernels.rum500.melds.rare_enumeration``)."""
    frozen = np.array(rules, dtype=np.int64)
    frozen.setflags(write=False)
    return frozen


def engine_rules(rules: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The rules vector as the engine takes it and the engine's compile-time switch ``full``: an
    array selects the full engine (with the rules read-only), None the lean one."""
    if needs_full_engine(rules):
        return read_only(rules), FULL_ENGINE
    return rules, None


def engine_variant(rules: np.ndarray, lineup: np.ndarray) -> str:
    """The compiled specialization a run plays: its strategy family and its engine path,
    ``heuristic-lean``, ``basic-full``, ...; ``step-api`` when a seat is external (a Python
    strategy: ``play_game_into`` on the step API's one specialization)."""
    if (lineup >= EXTERNAL).any():
        return "step-api"
    return f"{family_name(family_switch(lineup))}-{'full' if needs_full_engine(rules) else 'lean'}"


def run_games(rules, lineup, params, seed, start, count, out_games, out_hands):
    """Play games start..start+count-1 into out_games[count, G_SIZE] (and out_hands if it has rows).

    ``out_hands`` is int32[count, hand_cap, H_SIZE] when hand rows are wanted, else shape
    (0, 0, H_SIZE).
    """
    rules, full = engine_rules(rules)
    family = family_switch(lineup)
    want_hands = out_hands.shape[0] > 0

    def work(a: int, b: int) -> None:
        hands = out_hands[a:b] if want_hands else out_hands
        play_games(rules, lineup, params, seed, start + a, out_games[a:b], hands, full, family)

    run_in_threads(count, work)


def run_hands(rules, lineup, params, seed, start, count, out_hands):
    """``--unit hands``: independent hands start..start+count-1 into out_hands[count, H_SIZE]."""
    rules, full = engine_rules(rules)
    family = family_switch(lineup)

    def work(a: int, b: int) -> None:
        play_hands(rules, lineup, params, seed, start + a, out_hands[a:b], full, family)

    run_in_threads(count, work)


def run_game_traced(rules, lineup, params, seed, game, trace):
    """Play one game recording every action into trace; returns (game row, rows used, overflowed)."""
    rules, full = engine_rules(rules)
    return play_game_traced(rules, lineup, params, seed, game, trace, full, family_switch(lineup))


@njit
def play_games(rules, lineup, params, seed, start, out_games, out_hands, full, family):
    """Games start.. into every row of out_games (and of out_hands if it has rows), one thread."""
    setup = new_setup(rules, lineup, params, full, family)
    empty_hands = np.zeros((0, H_SIZE), dtype=np.int32)
    want_hands = out_hands.shape[0] > 0
    for i in range(out_games.shape[0]):
        hands_rows = out_hands[i] if want_hands else empty_hands
        play_game(setup, seed, start + i, out_games[i], hands_rows, None)


@njit
def play_hands(rules, lineup, params, seed, start, out_hands, full, family):
    setup = new_setup(rules, lineup, params, full, family)
    for i in range(out_hands.shape[0]):
        play_single_hand(setup, seed, start + i, out_hands[i])


@njit
def play_game_into(rules, lineup, params, seed, game, out_game, out_hands, trace, full, family):
    """One game into the caller's rows (G_SIZE and [hand_cap, H_SIZE]) with its trace; returns
    (rows used, overflowed). The step API and Python strategies play every game through this one
    specialization (``strategies.rum500.external.ENV_FAMILY``, the full engine)."""
    setup = new_setup(rules, lineup, params, full, family)
    return play_game(setup, seed, game, out_game, out_hands, trace)


@njit
def play_game_traced(rules, lineup, params, seed, game, trace, full, family):
    setup = new_setup(rules, lineup, params, full, family)
    out_game = np.zeros(G_SIZE, dtype=np.int64)
    out_hands = np.zeros((rules[R_HAND_CAP], H_SIZE), dtype=np.int32)
    used, over = play_game(setup, seed, game, out_game, out_hands, trace)
    return out_game, used, over
