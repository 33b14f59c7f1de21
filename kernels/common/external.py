"""The step API's bridge out of numba: a decision asked of a Python handler through ``objmode``.

Every game's engine asks its external seats (strategy id ``EXTERNAL + h``, ``rummysim.stepenv``,
docs/env.md) through ``ask``: the handler receives the decision kind, the seat's observation
vector, its own cards, the pile, the table rows, the legal options and ``hint``, the pick of
built-in strategy ``h``, and returns an index into the options. The games' ``external`` modules
(``strategies/<game>/external.py``) overload their ask functions on the type of the run's switch
value: only ``ENV_FAMILY`` (an int32 array) compiles the object-mode call; every other value
compiles them to ``return hint``, so the simulate kernels hold no object-mode code at all.

The handler is looked up per thread (``set_handler``), so a game thread asks the handler its own
environment installed.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable

import numpy as np
from numba import objmode, types
from numba.core.errors import NumbaWarning

from rummysim.kernels.common._jit import njit

ENV_FAMILY = np.zeros(0, dtype=np.int32)  # the switch value of the step API: every strategy plus objmode

# The game thread holds the GIL only while a decision is asked: the warning about objmode and nogil
# says nothing the step API does not intend.
warnings.filterwarnings("ignore", message=".*Code running in object mode won't allow parallel execution",
                        category=NumbaWarning)

Handler = Callable[..., int]
_local = threading.local()


def set_handler(handler: Handler | None) -> None:
    """Install (or remove) the handler this thread's external decisions are asked of."""
    _local.handler = handler


def _deliver(kind, obs, mine, pile, melds, options, n, hint, extra) -> int:
    handler = getattr(_local, "handler", None)
    if handler is None:
        raise RuntimeError("rummysim: an external seat decided with no step-API handler installed")
    pick = int(handler(int(kind), obs, mine, pile, melds, options, int(n), int(hint), int(extra)))
    if not 0 <= pick < n:  # the kernels index the options without a bounds check
        raise ValueError(f"rummysim: an external decision of kind {int(kind)} picked {pick}, not an index below {n}")
    return pick


@njit
def ask(kind, obs, mine, pile, melds, options, n, hint, extra):
    """The handler's pick (see the module docstring); compiled only into the step API's engines."""
    with objmode(pick="int64"):
        pick = _deliver(kind, obs, mine, pile, melds, options, n, hint, extra)
    return pick


def is_env(family) -> bool:
    """True for the numba type of ``ENV_FAMILY``: the overloads' test of the switch value."""
    return isinstance(family, types.Array) and family.dtype == types.int32
