"""Integer-id dispatch from the engine's decision points to the strategies.

The engine calls these four functions with the seat's ``View`` (``kernels.rum500.view``): its
observation, its own cards, the pile and the table, all it may know (C-INFO-1); no strategy
receives other hands or the stock order. Dispatch by ``if`` over small functions keeps everything
cacheable (jitted functions passed as arguments would recompile in every process). ``heuristic``,
``cautious`` and ``digger`` share one implementation and differ only in their parameter rows.

``family`` is a compile-time switch, like the engine's ``stack``: None when every seat plays
``greedy`` or ``random`` (``basic_lineup``), which prunes the other strategies' branches before
typing, so such a run never compiles them (issue 8: they were about half of a cold compile); an
array (``ALL_STRATEGIES``) compiles them all.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.rum500.layout import OB_TEAMS
from rummysim.strategies.ids import GREEDY_TEAM_FEED
from rummysim.strategies.rum500.greedy import greedy_call, greedy_discard, greedy_draw, greedy_play, greedy_team_discard
from rummysim.strategies.rum500.heuristic import heuristic_call, heuristic_discard, heuristic_draw, heuristic_play
from rummysim.strategies.ids import CAUTIOUS, DIGGER, GREEDY, HEURISTIC, RANDOM, ROLLOUT
from rummysim.strategies.random_play import random_choice
from rummysim.strategies.rum500.rollout import rollout_call, rollout_discard, rollout_draw

BASIC = (RANDOM, GREEDY)  # the strategies every engine specialization compiles
ALL_STRATEGIES = np.zeros(0, dtype=np.int64)  # the ``family`` value that compiles every strategy


def basic_lineup(lineup: np.ndarray) -> bool:
    """Does every seat play a strategy of ``BASIC``?"""
    return bool(np.isin(lineup, BASIC).all())


def family_switch(lineup: np.ndarray) -> np.ndarray | None:
    """The ``family`` argument for a lineup: None (basic strategies only) or ``ALL_STRATEGIES``."""
    return None if basic_lineup(lineup) else ALL_STRATEGIES


@njit_noalloc
def is_heuristic(sid):
    return sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER


@njit_noalloc
def choose_draw(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    if sid == GREEDY:
        return greedy_draw(params, view, opts, nopt, scratch)
    if family is not None and is_heuristic(sid):
        return heuristic_draw(params, view, opts, nopt, scratch)
    if family is not None and sid == ROLLOUT:
        return rollout_draw(params, view, opts, nopt, rng, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_play(family, sid, params, view, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    if sid == GREEDY or (family is not None and sid == ROLLOUT):
        return greedy_play(cand, ncand)
    if family is not None and is_heuristic(sid):
        return heuristic_play(params, view, cand, ncand, scratch)
    return random_choice(rng, ncand)


@njit_noalloc
def choose_discard(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""
    if sid == GREEDY:
        if view.obs[OB_TEAMS] != 0 and params[GREEDY_TEAM_FEED] > 0:
            return greedy_team_discard(params, view, opts, nopt, scratch)
        return greedy_discard(view.mine, view.table.vals, opts, nopt)
    if family is not None and is_heuristic(sid):
        return heuristic_discard(params, view, opts, nopt, scratch)
    if family is not None and sid == ROLLOUT:
        return rollout_discard(params, view, opts, nopt, rng, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_call(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid == GREEDY:
        return greedy_call(params, view, opts, nopt, scratch)
    if family is not None and is_heuristic(sid):
        return heuristic_call(params, view, opts, nopt, scratch)
    if family is not None and sid == ROLLOUT:
        return rollout_call(view, opts, nopt, scratch)
    return random_choice(rng, nopt)
