"""Integer-id dispatch from the engine's decision points to the strategies.

The engine calls these three functions with an observation that holds only what the seat may
know (C-INFO-1); no strategy receives other hands or the stock order. Dispatch by ``if`` over
small functions keeps everything cacheable (jitted functions passed as arguments would recompile
in every process).
"""

from __future__ import annotations

from kernels._jit import njit_noalloc
from strategies.greedy import greedy_call, greedy_discard, greedy_draw, greedy_play
from strategies.ids import GREEDY
from strategies.random_play import random_choice


@njit_noalloc
def choose_draw(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    if sid == GREEDY:
        return greedy_draw(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_play(sid, params, obs, mine, pile, melds, rules, vals, ace_low, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    if sid == GREEDY:
        return greedy_play(cand, ncand)
    return random_choice(rng, ncand)


@njit_noalloc
def choose_discard(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""
    if sid == GREEDY:
        return greedy_discard(obs, mine, vals, opts, nopt)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_call(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid == GREEDY:
        return greedy_call(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    return random_choice(rng, nopt)
