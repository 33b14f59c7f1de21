"""The strategies' Dealer's gambit decisions (V500-GAMBIT): the dealer's nomination, the split
point of a take, and the joker plays of greedy and the heuristic family.

* **Nomination** (V500-GAMBIT-3): made from public information only; the engine passes no hand.
  ``random`` names an effect at random; greedy, the heuristic family and rollout name the effect
  of their ``nominate`` parameter (0 wild, 1 double, 2 split; rollout: the default).
* **Doubling** (V500-GAMBIT-5): a new meld is doubled when its own value is at least
  ``double_min``: a joker doubles one meld only and seals it, so it is kept for a meld worth
  doubling, but a joker left unused scores nothing.
* **Blocking** (V500-GAMBIT-8): with ``block`` = 1 the seat blocks the dealer's joker as soon as
  it may when the dealer is an opponent whose total is not below its own. The dealer's joker is
  an extra joker that never counts against the dealer; the price is one of the seat's jokers,
  worth 0 in hand but a wild card, a doubler or a split. The default is 0 (never): blocking so
  cost a greedy seat points in 3-player games, where the third player gains as much from it.
* **The dealer's joker** (V500-GAMBIT-7) is played like any joker: a play that puts a joker down
  uses it first (the engine's canonical choice), and greedy ranks plays by value as always.
* **Splitting** (V500-GAMBIT-6): greedy's take test for the whole take and for each split point;
  the split whose test gains most, if it gains more than the whole take, else no split (the
  joker is kept).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.common.planes import bit
from rummysim.kernels.rum500.cards import mask_value
from rummysim.kernels.rum500.layout import (
    ACT_BLOCK, ACT_STOP, AG_DOUBLE_DEALER, AG_DOUBLE_HAND, A_GAMBIT, A_TYPE, A_VALUE, EFFECT_SPLIT,
    EFFECT_WILD, JOKER, OB_DEALER, OB_MY_JOKERS, OB_PILE_LEN, OB_SEAT, OB_TEAMS, OB_TOTAL,
)
from rummysim.strategies.rum500.greedy import playout

DEFAULT_NOMINATE = 1.0  # double: see docs/rules-decisions.md (the nomination experiment)
DEFAULT_DOUBLE_MIN = 15.0
DEFAULT_BLOCK = 0.0  # blocking cost greedy points in 3-player games (docs/rules-decisions.md E63)
DEFAULT_DEADWOOD_WEIGHT = 1.0


@njit_noalloc
def nominate_by_param(value):
    """The effect (EFFECT_*) a ``nominate`` parameter names: 0 wild, 1 double, 2 split."""
    return EFFECT_WILD + min(max(np.int64(value), 0), EFFECT_SPLIT - EFFECT_WILD)


@njit_noalloc
def may_block(obs, block):
    """Block the dealer's joker: ``block`` on, the dealer an opponent (not the seat, not its
    partner) whose (team) total is not below the seat's."""
    if block <= 0:
        return False
    me = obs[OB_SEAT]
    dealer = obs[OB_DEALER]
    if dealer == me or (obs[OB_TEAMS] != 0 and dealer % 2 == me % 2):
        return False
    return obs[OB_TOTAL + dealer] >= obs[OB_TOTAL + me]


@njit_noalloc
def is_doubled(cand, i):
    g = cand[i, A_GAMBIT]
    return g == AG_DOUBLE_HAND or g == AG_DOUBLE_DEALER


@njit_noalloc
def gambit_best(cand, n, obs, double_min, block):
    """Row of the highest-valued play, with the gambit's rules above (a block first, when due;
    a doubled meld only if its own value reaches ``double_min``), or -1."""
    best = -1
    best_val = -(1 << 62)
    for i in range(n):
        t = cand[i, A_TYPE]
        if t == ACT_STOP:
            continue
        if t == ACT_BLOCK:
            if may_block(obs, block):
                return i
            continue
        v = cand[i, A_VALUE]
        if is_doubled(cand, i) and v // 2 < double_min:
            continue
        if v > best_val:
            best = i
            best_val = v
    return best


@njit_noalloc
def gambit_play(cand, n, obs, double_min, block):
    """``greedy_play`` under Dealer's gambit: the best row of :func:`gambit_best`, else row 0."""
    i = gambit_best(cand, n, obs, double_min, block)
    return 0 if i < 0 else i


@njit_noalloc
def split_take_gain(deadwood_weight, view, k, s, scratch):
    """Greedy's take test when card k and the cards s..top are taken (s = k + 1: the whole take):
    the points it can then put down, card k first, less the weighted value of taken cards it
    could not use."""
    obs = view.obs
    mine = view.mine
    pile = view.pile
    vals = view.table.vals
    c = np.int64(pile[k])
    taken = bit(c) if c != JOKER else np.uint64(0)
    taken_jok = 1 if c == JOKER else 0
    for j in range(s, obs[OB_PILE_LEN]):
        d = np.int64(pile[j])
        if d == JOKER:
            taken_jok += 1
        else:
            taken |= bit(d)
    pts, used, used_jok = playout(mine[0] | taken, obs[OB_MY_JOKERS] + taken_jok, c, view.table, scratch)
    dead = mask_value(vals, taken & ~used & ~mine[0]) + max(0, taken_jok - used_jok) * vals[JOKER]
    return pts - deadwood_weight * dead


@njit_noalloc
def best_split(deadwood_weight, view, k, opts, nopt, scratch):
    """Index into opts[:nopt] (0: no split, then split points s): the split whose take test gains
    most, if it beats the whole take; else 0."""
    best = 0
    best_gain = split_take_gain(deadwood_weight, view, k, k + 1, scratch)
    for i in range(1, nopt):
        gain = split_take_gain(deadwood_weight, view, k, opts[i], scratch)
        if gain > best_gain:
            best = i
            best_gain = gain
    return best
