"""Decisions made outside numba: the step API's seats (``rummysim.stepenv``, docs/env.md).

A seat whose strategy id is ``EXTERNAL + h`` has each decision asked of a Python handler through
``numba.objmode``: the handler receives the decision kind (``K_*``), the seat's ``View`` arrays
(C-INFO-1: its observation, own cards, the pile and the table melds), the legal options exactly
as the engine listed them, and ``hint``, the pick of built-in strategy ``h``; it returns an index
into the options. The game itself is played by the same kernels as ``simulate``.

The handler is looked up per thread (``set_handler``), so a game thread asks the handler its own
environment installed. The objmode calls are compiled only for the family value ``ENV_FAMILY``
(an int32 array, ``ask_options`` and friends are overloaded on its type); every other family
compiles them to ``return hint``, so the simulate kernels hold no object-mode code at all.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable

import numpy as np
from numba import objmode, types
from numba.core.errors import NumbaWarning
from numba.extending import overload

from rummysim.kernels.common._jit import njit
from rummysim.kernels.rum500.layout import N_EFFECTS

K_DRAW = 0  # options: DRAW_STOCK / DRAW_NONE, then pile indexes
K_PLAY = 1  # options: candidate rows (A_*); row 0 is STOP when stopping is allowed
K_DISCARD = 2  # options: card ids
K_CALL = 3  # options: 0 = pass, then claimable pile indexes
K_NOMINATE = 4  # options: the gambit effects EFFECT_WILD..; no hand is seen (V500-GAMBIT-3)
K_SPLIT = 5  # options: 0 = no split, then split points; ``extra`` is the pile index taken
KIND_NAMES = ("draw", "play", "discard", "call", "nominate", "split")

ENV_FAMILY = np.zeros(0, dtype=np.int32)  # the ``family`` value of the step API: every strategy plus objmode

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
        raise ValueError(f"rummysim: an external {KIND_NAMES[kind]} decision picked {pick}, not an index below {n}")
    return pick


@njit
def _ask(kind, obs, mine, pile, melds, options, n, hint, extra):
    with objmode(pick="int64"):
        pick = _deliver(kind, obs, mine, pile, melds, options, n, hint, extra)
    return pick


def _is_env(family) -> bool:
    return isinstance(family, types.Array) and family.dtype == types.int32


def ask_options(family, kind, view, opts, nopt, hint, extra):
    """The external pick among ``opts[:nopt]`` (a 1-D option list), or ``hint`` outside the step API."""


def ask_plays(family, view, cand, ncand, hint):
    """The external pick among the play candidates ``cand[:ncand]``, or ``hint`` outside the step API."""


def ask_nomination(family, obs, hint):
    """The external pick among the ``N_EFFECTS`` gambit effects (an index), from the dealer's public
    observation alone, or ``hint`` outside the step API."""


@overload(ask_options)
def _ask_options(family, kind, view, opts, nopt, hint, extra):
    if _is_env(family):
        def impl(family, kind, view, opts, nopt, hint, extra):
            return _ask(kind, view.obs, view.mine, view.pile, view.table.melds, opts, nopt, hint, extra)
        return impl
    return lambda family, kind, view, opts, nopt, hint, extra: hint


@overload(ask_plays)
def _ask_plays(family, view, cand, ncand, hint):
    if _is_env(family):
        def impl(family, view, cand, ncand, hint):
            return _ask(K_PLAY, view.obs, view.mine, view.pile, view.table.melds, cand, ncand, hint, 0)
        return impl
    return lambda family, view, cand, ncand, hint: hint


@overload(ask_nomination)
def _ask_nomination(family, obs, hint):
    if _is_env(family):
        def impl(family, obs, hint):
            nothing = obs[:0]  # no hand, pile or table is shown with a nomination (V500-GAMBIT-3)
            return _ask(K_NOMINATE, obs, nothing, nothing, nothing, nothing, N_EFFECTS, hint, 0)
        return impl
    return lambda family, obs, hint: hint
