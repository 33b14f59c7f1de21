"""Counter-based random numbers for reproducible parallel games.

Every random stream is keyed by integers (run seed, game index, purpose, sub-index), hashed with
SplitMix64 into the state of a xoshiro256** generator. A game therefore draws the same numbers
whatever thread runs it and however the games are chunked (numba's own ``np.random`` keeps one
state per thread and is not reproducible across thread counts).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U17 = np.uint64(17)
U45 = np.uint64(45)
U7 = np.uint64(7)
U9 = np.uint64(9)
U5 = np.uint64(5)
U32 = np.uint64(32)
U64_1 = np.uint64(1)

# Stream purposes: the deal of hand h must not depend on how earlier decisions went, so that
# duplicate deals give both sides of a comparison the same cards.
STREAM_GAME = 0
STREAM_DEAL = 1
STREAM_SEAT = 2


@njit_noalloc
def splitmix64(x):
    z = x + GOLDEN
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit_noalloc
def seed_stream(state, seed, game, purpose, sub):
    """Fill ``state`` (uint64[4]) from the key (seed, game, purpose, sub)."""
    h = splitmix64(np.uint64(seed))
    h = splitmix64(h ^ np.uint64(game))
    h = splitmix64(h ^ np.uint64(purpose))
    h = splitmix64(h ^ np.uint64(sub))
    for i in range(4):
        h = splitmix64(h)
        state[i] = h
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = GOLDEN  # xoshiro must never be all-zero


@njit_noalloc
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit_inline
def next_u64(state):
    """xoshiro256** step."""
    result = _rotl(state[1] * U5, 7) * U9
    t = state[1] << U17
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit_inline
def below(state, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift; bias < 2**-32)."""
    x = next_u64(state) >> U32
    return np.int64((x * np.uint64(n)) >> U32)


@njit_noalloc
def shuffle_int16(state, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
