"""Which discards ``search`` looks at, in every game it plays: shared by the 500 Rum and 5000 Rummy
searches (strategies/rum500/search.py, strategies/rum5000/search.py), so ``late_stock`` and
``late_cards`` mean the same in both."""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.strategies.ids import S_BUDGET, S_LATE_CARDS, S_LATE_STOCK


@njit_noalloc
def late_stock_limit(params):
    """The stock size from which discards are searched: ``late_stock``, or when it is negative
    (500 Rum's default) half the budget, 8 at the default 16. With more budget the search then also
    checks earlier discards: at a fixed 8 its gain over its base stopped growing past 16 play-outs
    (docs/strategies.md, Strength against budget)."""
    late = params[S_LATE_STOCK]
    if late < 0:
        return params[S_BUDGET] / 2
    return late


@njit_noalloc
def late_in_hand(params, obs, stock_at, n_at, sizes_at):
    """The stock is short or some seat (this one too) is close to going out: the decisions whose
    play-outs are short and whose mistakes cost the most. ``stock_at``, ``n_at`` and ``sizes_at``
    are where the game's observation holds the stock size, the seat count and the hand sizes."""
    if obs[stock_at] <= late_stock_limit(params):
        return True
    for s in range(obs[n_at]):
        if obs[sizes_at + s] <= params[S_LATE_CARDS]:
            return True
    return False
