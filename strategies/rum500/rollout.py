"""``rollout``: a search strategy with determinization and play-outs.

At its draws and (with ``search_discards``) its discards it keeps at most ``max_candidates``
options, ranked by greedy (the stock draw is always kept; pile takes by greedy's take gain;
discards by greedy's discard score). It then draws ``samples`` (K) determinizations: the cards it
has not seen (strategies/knowledge.py: the pack minus its hand, the table and the pile) in a
random order from its own decision stream, dealt to the other seats by their observed hand sizes,
the rest forming the stock. On each determinization every kept option is applied and the hand
is played out with the fast model of strategies/playout.py; the option with the best mean score
difference (its own hand score minus the mean of the others', from the decision point on) is
chosen; ties go to the first kept option (the stock draw; greedy's discard). Every option sees the same K deals (common random numbers).

It never reads hidden cards: the samples come only from cards it has not seen (C-INFO-1). Plays
(melds, lay-offs, stopping) and rummy calls are greedy's.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.rum500.layout import (
    DRAW_NONE,
    END_OUT,
    END_STOCK,
    JOKER,
    MAX_PACK,
    N_PARAMS,
    OB_MY_JOKERS,
    OB_N,
    OB_PILE_LEN,
    OB_SEAT,
)
from rummysim.strategies.rum500.greedy import card_usefulness, greedy_call, playout, take_gain
from rummysim.strategies.ids import GREEDY_DEADWOOD_WEIGHT, RO_MAX_CANDIDATES, RO_SAMPLES, RO_SEARCH_DISCARDS
from rummysim.strategies.rum500.knowledge import sample_unseen
from rummysim.strategies.rum500.playout import (
    apply_draw,
    deal_world,
    discard_card,
    finish_turn,
    hand_result,
    new_world,
    play_rest,
)


@njit
def greedy_row():
    """Greedy's default parameters, for the rankings and calls rollout borrows from greedy."""
    row = np.zeros(N_PARAMS, dtype=np.float64)
    row[GREEDY_DEADWOOD_WEIGHT] = 1.0
    return row


@njit
def keep_best(scores, n, limit, always_first):
    """Indexes of the ``limit`` highest scores (stable: ties keep their order); option 0 first when
    ``always_first``."""
    order = np.argsort(-scores[:n], kind="mergesort")
    keep = np.empty(min(n, max(1, limit)), dtype=np.int64)
    m = 0
    if always_first:
        keep[0] = 0
        m = 1
    for j in range(n):
        if m >= keep.shape[0]:
            break
        i = order[j]
        if always_first and i == 0:
            continue
        keep[m] = i
        m += 1
    return keep[:m]


@njit_noalloc
def draw_outcome(w, view, opt, scratch):
    """Apply draw option ``opt`` for the seat on a dealt world and play the hand out; returns the
    seat's score difference."""
    obs = view.obs
    rules = view.table.rules
    vals = view.table.vals
    ace_low = view.table.ace_low
    me = obs[OB_SEAT]
    n = obs[OB_N]
    if opt == DRAW_NONE:
        return hand_result(w, me, n, END_STOCK, -1, rules, vals)  # R500-STOCK-1: the hand ends
    must, forbidden = apply_draw(w, me, opt, obs[OB_PILE_LEN], rules)
    if finish_turn(w, me, forbidden, must, rules, vals, ace_low, scratch):
        return hand_result(w, me, n, END_OUT, me, rules, vals)
    reason, out_seat = play_rest(w, (me + 1) % n, n, rules, vals, ace_low, scratch)
    return hand_result(w, me, n, reason, out_seat, rules, vals)


@njit_noalloc
def discard_outcome(w, view, card, scratch):
    """Discard ``card`` on a dealt world and play the hand out; returns the seat's score difference."""
    rules = view.table.rules
    vals = view.table.vals
    me = view.obs[OB_SEAT]
    n = view.obs[OB_N]
    if discard_card(w, me, card):
        return hand_result(w, me, n, END_OUT, me, rules, vals)
    reason, out_seat = play_rest(w, (me + 1) % n, n, rules, vals, view.table.ace_low, scratch)
    return hand_result(w, me, n, reason, out_seat, rules, vals)


@njit
def search(params, view, opts, keep, is_draw, rng, scratch):
    """Mean score difference of every kept option over ``samples`` determinizations; returns the
    position in ``keep`` of the best."""
    k_samples = max(1, int(params[RO_SAMPLES]))
    totals = np.zeros(keep.shape[0], dtype=np.float64)
    sample = np.empty(MAX_PACK, dtype=np.int16)
    w = new_world()
    obs, mine, pile, table = view  # once: deal_world runs for every sample and option
    for _ in range(k_samples):
        n_sample = sample_unseen(view, rng, sample)
        for j in range(keep.shape[0]):
            deal_world(w, obs, mine, pile, table.melds, sample, n_sample)
            opt = opts[keep[j]]
            if is_draw:
                totals[j] += draw_outcome(w, view, opt, scratch)
            else:
                totals[j] += discard_outcome(w, view, opt, scratch)
    best = 0
    for j in range(1, keep.shape[0]):
        if totals[j] > totals[best]:
            best = j
    return best


@njit
def rollout_draw(params, view, opts, nopt, rng, scratch):
    if nopt <= 1:
        return 0
    row = greedy_row()
    obs = view.obs
    top = obs[OB_PILE_LEN] - 1
    base, _, _ = playout(view.mine[0], obs[OB_MY_JOKERS], -1, view.table, scratch)
    scores = np.zeros(nopt, dtype=np.float64)
    for i in range(1, nopt):
        k = opts[i]
        scores[i] = take_gain(row, view, k, k < top, scratch) - base
    keep = keep_best(scores, nopt, int(params[RO_MAX_CANDIDATES]), True)
    if keep.shape[0] == 1:
        return 0
    return keep[search(params, view, opts, keep, True, rng, scratch)]


@njit
def rollout_discard(params, view, opts, nopt, rng, scratch):
    mine = view.mine
    vals = view.table.vals
    scores = np.zeros(nopt, dtype=np.float64)
    for i in range(nopt):
        c = opts[i]
        # greedy's discard score, negated so that the best discard ranks first
        scores[i] = -1e12 if c == JOKER else -float(card_usefulness(mine[0], c) * 100 - vals[c])
    limit = int(params[RO_MAX_CANDIDATES]) if params[RO_SEARCH_DISCARDS] > 0 else 1
    keep = keep_best(scores, nopt, limit, False)
    if keep.shape[0] == 1:
        return keep[0]
    return keep[search(params, view, opts, keep, False, rng, scratch)]


@njit
def rollout_call(view, opts, nopt, scratch):
    return greedy_call(greedy_row(), view, opts, nopt, scratch)
