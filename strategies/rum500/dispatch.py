"""Integer-id dispatch from the engine's decision points to the strategies.

The engine calls these functions with the seat's ``View`` (``kernels.rum500.view``): its
observation, its own cards, the pile and the table, all it may know (C-INFO-1); no strategy
receives other hands or the stock order. The Dealer's gambit nomination gets the dealer's public
observation alone, with no hand at all (V500-GAMBIT-3). Dispatch by ``if`` over small functions keeps everything
cacheable (jitted functions passed as arguments would recompile in every process). ``heuristic``,
``cautious`` and ``digger`` share one implementation and differ only in their parameter rows.

``family`` is a compile-time switch, like the engine's ``stack``: None when every seat plays
``greedy`` or ``random`` (``basic_lineup``), which prunes the other strategies' branches before
typing, so such a run never compiles them (issue 8: they were about half of a cold compile); an
array (``ALL_STRATEGIES``) compiles them all.

The engine calls ``choose_*``; a seat playing ``EXTERNAL + h`` is asked outside numba
(``strategies.rum500.external``, the step API) with built-in strategy h's pick as its hint, every
other seat gets the ``builtin_*`` pick directly.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.rum500.layout import EFFECT_WILD, N_EFFECTS, OB_EFFECT, OB_TEAMS
from rummysim.strategies.ids import (
    GREEDY_BLOCK, GREEDY_DEADWOOD_WEIGHT, GREEDY_DOUBLE_MIN, GREEDY_NOMINATE, GREEDY_TEAM_FEED, H_NOMINATE,
)
from rummysim.strategies.rum500.gambit import (
    DEFAULT_BLOCK, DEFAULT_DEADWOOD_WEIGHT, DEFAULT_DOUBLE_MIN, DEFAULT_NOMINATE, best_split, gambit_play,
    nominate_by_param,
)
from rummysim.strategies.rum500.external import (
    K_CALL, K_DISCARD, K_DRAW, K_SPLIT, ask_nomination, ask_options, ask_plays,
)
from rummysim.strategies.rum500.greedy import greedy_call, greedy_discard, greedy_draw, greedy_play, greedy_team_discard
from rummysim.strategies.rum500.heuristic import heuristic_call, heuristic_discard, heuristic_draw, heuristic_play
from rummysim.strategies.ids import CAUTIOUS, DIGGER, EXTERNAL, GREEDY, HEURISTIC, RANDOM, ROLLOUT
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
def builtin_draw(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    if sid == GREEDY:
        return greedy_draw(params, view, opts, nopt, scratch)
    if family is not None and is_heuristic(sid):
        return heuristic_draw(params, view, opts, nopt, scratch)
    if family is not None and sid == ROLLOUT:
        return rollout_draw(params, view, opts, nopt, rng, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def builtin_play(family, sid, params, view, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    if sid == GREEDY:
        if view.obs[OB_EFFECT] != 0:
            return gambit_play(cand, ncand, view.obs, params[GREEDY_DOUBLE_MIN], params[GREEDY_BLOCK])
        return greedy_play(cand, ncand)
    if family is not None and sid == ROLLOUT:
        if view.obs[OB_EFFECT] != 0:
            return gambit_play(cand, ncand, view.obs, DEFAULT_DOUBLE_MIN, DEFAULT_BLOCK)
        return greedy_play(cand, ncand)
    if family is not None and is_heuristic(sid):
        return heuristic_play(params, view, cand, ncand, scratch)
    return random_choice(rng, ncand)


@njit_noalloc
def builtin_discard(family, sid, params, view, opts, nopt, rng, scratch):
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
def builtin_call(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid == GREEDY:
        return greedy_call(params, view, opts, nopt, scratch)
    if family is not None and is_heuristic(sid):
        return heuristic_call(params, view, opts, nopt, scratch)
    if family is not None and sid == ROLLOUT:
        return rollout_call(view, opts, nopt, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def builtin_nomination(family, sid, params, obs, rng):
    """The effect (EFFECT_*) the dealer names (V500-GAMBIT-3), before anyone looks at a hand:
    ``obs`` is the dealer's public observation (``kernels.rum500.view.observe_public``)."""
    if sid == GREEDY:
        return nominate_by_param(params[GREEDY_NOMINATE])
    if family is not None and is_heuristic(sid):
        return nominate_by_param(params[H_NOMINATE])
    if family is not None and sid == ROLLOUT:
        return nominate_by_param(DEFAULT_NOMINATE)
    return EFFECT_WILD + random_choice(rng, N_EFFECTS)


@njit_noalloc
def builtin_split(family, sid, params, view, k, opts, nopt, rng, scratch):
    """Index into opts[:nopt] for a take from pile index k under ``split`` (V500-GAMBIT-6):
    0 = no split, then the split points s the seat may choose."""
    if sid == GREEDY or (family is not None and is_heuristic(sid)):
        return best_split(params[GREEDY_DEADWOOD_WEIGHT], view, k, opts, nopt, scratch)  # H_ index 0 too
    if family is not None and sid == ROLLOUT:
        return best_split(DEFAULT_DEADWOOD_WEIGHT, view, k, opts, nopt, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_draw(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    if sid >= EXTERNAL:
        hint = builtin_draw(family, sid - EXTERNAL, params, view, opts, nopt, rng, scratch)
        return ask_options(family, K_DRAW, view, opts, nopt, hint, 0)
    return builtin_draw(family, sid, params, view, opts, nopt, rng, scratch)


@njit_noalloc
def choose_play(family, sid, params, view, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    if sid >= EXTERNAL:
        hint = builtin_play(family, sid - EXTERNAL, params, view, cand, ncand, rng, scratch)
        return ask_plays(family, view, cand, ncand, hint)
    return builtin_play(family, sid, params, view, cand, ncand, rng, scratch)


@njit_noalloc
def choose_discard(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""
    if sid >= EXTERNAL:
        hint = builtin_discard(family, sid - EXTERNAL, params, view, opts, nopt, rng, scratch)
        return ask_options(family, K_DISCARD, view, opts, nopt, hint, 0)
    return builtin_discard(family, sid, params, view, opts, nopt, rng, scratch)


@njit_noalloc
def choose_call(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid >= EXTERNAL:
        hint = builtin_call(family, sid - EXTERNAL, params, view, opts, nopt, rng, scratch)
        return ask_options(family, K_CALL, view, opts, nopt, hint, 0)
    return builtin_call(family, sid, params, view, opts, nopt, rng, scratch)


@njit_noalloc
def choose_nomination(family, sid, params, obs, rng):
    """The effect (EFFECT_*) the dealer names (V500-GAMBIT-3) from its public observation alone."""
    if sid >= EXTERNAL:
        hint = builtin_nomination(family, sid - EXTERNAL, params, obs, rng)
        return EFFECT_WILD + ask_nomination(family, obs, hint - EFFECT_WILD)
    return builtin_nomination(family, sid, params, obs, rng)


@njit_noalloc
def choose_split(family, sid, params, view, k, opts, nopt, rng, scratch):
    """Index into opts[:nopt] for a take from pile index k under ``split`` (V500-GAMBIT-6)."""
    if sid >= EXTERNAL:
        hint = builtin_split(family, sid - EXTERNAL, params, view, k, opts, nopt, rng, scratch)
        return ask_options(family, K_SPLIT, view, opts, nopt, hint, k)
    return builtin_split(family, sid, params, view, k, opts, nopt, rng, scratch)
