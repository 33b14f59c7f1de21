"""The ranges of the numbers a run accepts (seeds, game indexes, counts), checked before any work.

The kernels take seeds and game indexes as int64: a larger value either overflows or makes numba
compile a second, uint64 specialization of every kernel (a minute of silence), so both are refused
outside 0 .. 2^63 - 1 with one line naming the range.
"""

from __future__ import annotations

from rummysim.errors import InputError

INT64_MAX = 2**63 - 1


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
