"""The ranges of the numbers a run accepts (seeds, game indexes, counts) and the size limits of
runs and sweep plans (each set by an environment variable), checked before any work.

The kernels take seeds and game indexes as int64: a larger value either overflows or makes numba
compile a second, uint64 specialization of every kernel (a minute of silence), so both are refused
outside 0 .. 2^63 - 1 with one line naming the range.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from rummysim.errors import InputError

INT64_MAX = 2**63 - 1
# simulate keeps every game row in memory (about 60 bytes a game, more with hand rows): past this
# a run is refused up front rather than failing for memory hours later; sweeps stream to disk.
MAX_SIMULATE_GAMES = 10**9
MAX_GAMES_ENV = "RUMMYSIM_MAX_GAMES"
# A sweep's plan (issue 21, point 4). Cells are held in memory (about 3 KB each with their rules)
# and listed in _run.json; a chunk is one file (two with hand rows); games are time: 10^10 games
# of 4-player 500 Rum are about a week on this 2-core machine. Each can be raised for a cluster.
MAX_SWEEP_CELLS = 100_000
MAX_SWEEP_CHUNKS = 1_000_000
MAX_SWEEP_GAMES = 10**10
MAX_CELLS_ENV = "RUMMYSIM_MAX_CELLS"
MAX_CHUNKS_ENV = "RUMMYSIM_MAX_CHUNKS"
MAX_SWEEP_GAMES_ENV = "RUMMYSIM_MAX_SWEEP_GAMES"


@dataclass(frozen=True)
class Limit:
    """A limit in force and the environment variable that sets it (named in refusals)."""

    value: int
    env: str


def _limit(env: str, default: int) -> Limit:
    text = os.environ.get(env, "").strip().replace("_", "")
    if not text:
        return Limit(default, env)
    if not text.isdigit() or int(text) < 1:
        raise InputError(f"{env} must be a positive whole number, got {os.environ[env]!r}")
    return Limit(int(text), env)


def max_simulate_games() -> int:
    """The largest ``simulate --games``: ``MAX_SIMULATE_GAMES`` unless ``RUMMYSIM_MAX_GAMES`` says."""
    return _limit(MAX_GAMES_ENV, MAX_SIMULATE_GAMES).value


def max_sweep_cells() -> Limit:
    """The most cells a sweep may have: ``MAX_SWEEP_CELLS`` unless ``RUMMYSIM_MAX_CELLS`` says."""
    return _limit(MAX_CELLS_ENV, MAX_SWEEP_CELLS)


def max_sweep_chunks() -> Limit:
    """The most chunks (files) a sweep may have: ``MAX_SWEEP_CHUNKS`` unless ``RUMMYSIM_MAX_CHUNKS`` says."""
    return _limit(MAX_CHUNKS_ENV, MAX_SWEEP_CHUNKS)


def max_sweep_games() -> Limit:
    """The most games a sweep may have: ``MAX_SWEEP_GAMES`` unless ``RUMMYSIM_MAX_SWEEP_GAMES`` says."""
    return _limit(MAX_SWEEP_GAMES_ENV, MAX_SWEEP_GAMES)


def check_games(games: int, option: str = "--games") -> int:
    """A ``simulate`` game count: 1 .. ``max_simulate_games()``, with the limit's name in the error."""
    limit = max_simulate_games()
    if isinstance(games, int) and not isinstance(games, bool) and games > limit:
        raise InputError(f"{option} {games:,} is more than {limit:,} games, which simulate holds in memory: "
                         f"use rummysim sweep (it writes as it plays) or raise {MAX_GAMES_ENV}")
    return check_range(games, option, 1)


def check_seed(seed: int, option: str = "--seed") -> int:
    """``seed`` if it is a whole number in 0 .. 2^63 - 1, else an ``InputError`` naming the range."""
    return check_range(seed, option, 0, INT64_MAX)


def check_game_index(index: int, option: str = "--game-index") -> int:
    return check_range(index, option, 0, INT64_MAX)


def check_range(value: int, option: str, low: int, high: int = INT64_MAX) -> int:
    """``value`` if ``low <= value <= high``, else an ``InputError``: "OPTION must be between ..."."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        upper = "2^63 - 1" if high == INT64_MAX else f"{high:,}"
        raise InputError(f"{option} must be a whole number between {low:,} and {upper}, got {value!r}")
    return value
