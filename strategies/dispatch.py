"""Integer-id dispatch from the engine's decision points to the strategies.

The engine calls these four functions with an observation that holds only what the seat may
know (C-INFO-1); no strategy receives other hands or the stock order. Dispatch by ``if`` over
small functions keeps everything cacheable (jitted functions passed as arguments would recompile
in every process). ``heuristic``, ``cautious`` and ``digger`` share one implementation and differ
only in their parameter rows.
"""

from __future__ import annotations

from kernels._jit import njit_noalloc
from strategies.greedy import greedy_call, greedy_discard, greedy_draw, greedy_play
from strategies.heuristic import heuristic_call, heuristic_discard, heuristic_draw, heuristic_play
from strategies.ids import CAUTIOUS, DIGGER, GREEDY, HEURISTIC, ROLLOUT
from strategies.random_play import random_choice
from strategies.rollout import rollout_call, rollout_discard, rollout_draw


@njit_noalloc
def is_heuristic(sid):
    return sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER


@njit_noalloc
def choose_draw(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    if sid == GREEDY:
        return greedy_draw(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    if is_heuristic(sid):
        return heuristic_draw(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    if sid == ROLLOUT:
        return rollout_draw(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_play(sid, params, obs, mine, pile, melds, rules, vals, ace_low, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    if sid == GREEDY or sid == ROLLOUT:
        return greedy_play(cand, ncand)
    if is_heuristic(sid):
        return heuristic_play(params, obs, mine, melds, rules, vals, ace_low, cand, ncand, scratch)
    return random_choice(rng, ncand)


@njit_noalloc
def choose_discard(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""
    if sid == GREEDY:
        return greedy_discard(obs, mine, vals, opts, nopt)
    if is_heuristic(sid):
        return heuristic_discard(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    if sid == ROLLOUT:
        return rollout_discard(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def choose_call(sid, params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid == GREEDY:
        return greedy_call(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    if is_heuristic(sid):
        return heuristic_call(params, obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    if sid == ROLLOUT:
        return rollout_call(obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, scratch)
    return random_choice(rng, nopt)
