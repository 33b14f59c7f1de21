"""Decisions made outside numba: 5000 Rummy's asks of the step API's seats (``rummysim.stepenv``).

The 5000 engine (``kernels.rum5000.engine``) lets the seat's built-in strategy choose, then hands
the decision to ``ask5``. Outside the step API the engine's switch ``ext`` is None and ``ask5``
compiles to ``return hint``. In the step API ``ext`` is an int32 array, one flag per seat (the
type of ``ENV_FAMILY``): a flagged seat's decision is asked of the Python handler through the
common bridge (``kernels.common.external``), given the seat's
observation (``O_*``), its own cards (counts by card id), the pile, the table's meld rows (all
public: C-INFO-1) and the legal options exactly as the engine listed them, with the built-in pick
as ``hint``; the other seats keep their built-in pick. Kinds share the 500 engine's numbers
where they mean the same decision.
"""

from __future__ import annotations

from numba.extending import overload

from rummysim.kernels.common.external import ENV_FAMILY, ask, is_env, set_handler

__all__ = ["ENV_FAMILY", "set_handler", "ask5"]

K_DRAW = 0  # options: D_STOCK, D_DECLINE, D_SKIP, D_ALL, then pile indexes
K_PLAY = 1  # options: candidate rows (C_*); row 0 is STOP when stopping is allowed
K_DISCARD = 2  # options: card ids
K_CALL = 3  # options: index 0 passes, then the pile indexes a rummy call may take from
K_EXCHANGE = 6  # options: index 0 keeps the hand, then card ids to swap for the upcard (V5K-11)
KIND_NAMES = {K_DRAW: "draw", K_PLAY: "play", K_DISCARD: "discard", K_CALL: "call", K_EXCHANGE: "exchange"}


def ask5(ext, seat, kind, obs, hand, pile, melds, options, n, hint):
    """Seat ``seat``'s external pick among ``options[:n]`` (a 1-D list or candidate rows), or
    ``hint`` for a seat that is not external and outside the step API."""


@overload(ask5)
def _ask5(ext, seat, kind, obs, hand, pile, melds, options, n, hint):
    if is_env(ext):
        def impl(ext, seat, kind, obs, hand, pile, melds, options, n, hint):
            if ext[seat] == 0:
                return hint
            return ask(kind, obs, hand, pile, melds, options, n, hint, 0)
        return impl
    return lambda ext, seat, kind, obs, hand, pile, melds, options, n, hint: hint
