"""Decisions made outside numba: 500 Rum's asks of the step API's seats (``rummysim.stepenv``).

A seat whose strategy id is ``EXTERNAL + h`` has each decision asked of a Python handler through
the common bridge (``kernels.common.external``): the handler receives the decision kind (``K_*``),
the seat's ``View`` arrays (C-INFO-1: its observation, own cards, the pile and the table melds),
the legal options exactly as the engine listed them, and ``hint``, the pick of built-in strategy
``h``; it returns an index into the options. The game itself is played by the same kernels as
``simulate``. The asks compile to ``return hint`` for every switch value but ``ENV_FAMILY``.
"""

from __future__ import annotations

from numba.extending import overload

from rummysim.kernels.common.external import ENV_FAMILY, ask, is_env, set_handler
from rummysim.kernels.rum500.layout import N_EFFECTS

__all__ = ["ENV_FAMILY", "set_handler", "ask_options", "ask_plays", "ask_nomination"]

K_DRAW = 0  # options: DRAW_STOCK / DRAW_NONE, then pile indexes
K_PLAY = 1  # options: candidate rows (A_*); row 0 is STOP when stopping is allowed
K_DISCARD = 2  # options: card ids
K_CALL = 3  # options: 0 = pass, then claimable pile indexes
K_NOMINATE = 4  # options: the gambit effects EFFECT_WILD..; no hand is seen (V500-GAMBIT-3)
K_SPLIT = 5  # options: 0 = no split, then split points; ``extra`` is the pile index taken
KIND_NAMES = ("draw", "play", "discard", "call", "nominate", "split")


def ask_options(family, kind, view, opts, nopt, hint, extra):
    """The external pick among ``opts[:nopt]`` (a 1-D option list), or ``hint`` outside the step API."""


def ask_plays(family, view, cand, ncand, hint):
    """The external pick among the play candidates ``cand[:ncand]``, or ``hint`` outside the step API."""


def ask_nomination(family, obs, hint):
    """The external pick among the ``N_EFFECTS`` gambit effects (an index), from the dealer's public
    observation alone, or ``hint`` outside the step API."""


@overload(ask_options)
def _ask_options(family, kind, view, opts, nopt, hint, extra):
    if is_env(family):
        def impl(family, kind, view, opts, nopt, hint, extra):
            return ask(kind, view.obs, view.mine, view.pile, view.table.melds, opts, nopt, hint, extra)
        return impl
    return lambda family, kind, view, opts, nopt, hint, extra: hint


@overload(ask_plays)
def _ask_plays(family, view, cand, ncand, hint):
    if is_env(family):
        def impl(family, view, cand, ncand, hint):
            return ask(K_PLAY, view.obs, view.mine, view.pile, view.table.melds, cand, ncand, hint, 0)
        return impl
    return lambda family, view, cand, ncand, hint: hint


@overload(ask_nomination)
def _ask_nomination(family, obs, hint):
    if is_env(family):
        def impl(family, obs, hint):
            nothing = obs[:0]  # no hand, pile or table is shown with a nomination (V500-GAMBIT-3)
            return ask(K_NOMINATE, obs, nothing, nothing, nothing, nothing, N_EFFECTS, hint, 0)
        return impl
    return lambda family, obs, hint: hint
