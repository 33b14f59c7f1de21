"""``random``: a uniformly random legal choice at every decision point.

The engine offers every draw (stock, top card, each legal deep take), every canonical meld and
lay-off (with every joker designation it enumerates), stopping, and every legal discard; this
strategy picks one of them uniformly, so it reaches every kind of action the rules allow.
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_inline
from rummysim.kernels.common.rng import below


@njit_inline
def random_choice(rng, n):
    return below(rng, n)
