"""``search`` in 5000 Rummy: the 5000-tuned heuristic as a base, overruled only where play-outs show it is wrong.

The base is the heuristic with the seat's parameter row (by default in 5000 Rummy the point of
``heuristic@5000-rummy-3p``, strategies/registry.py). Two decisions are searched, as in the 500
search (strategies/rum500/search.py): every draw between the stock and the top discard
(``search_draws``), and the discard late in the hand (the stock holds at most ``late_stock``
cards or some seat at most ``late_cards``), among the base's card and the next ones greedy's
discard order ranks (``max_candidates`` in all). Deep and whole-pile takes, going out without
drawing, plays, rummy calls and upcard exchanges are the base's, and at ``budget`` 0 the seat
plays its base exactly.

A searched decision deals ``budget`` (K) determinizations of the cards it has not seen (not in
its hand, on the table or in the pile), shuffled with its own decision stream and dealt by the
observed hand sizes, the rest to the stock; applies every candidate to each deal (common random
numbers) and plays the hand out with the model of strategies/rum5000/playout.py (every seat a
fast greedy policy). The base's pick is overruled only by the candidate with the best mean, and
only when its paired difference to the base over the K deals is more than ``confidence``
standard errors above 0 (as a normal quantile, turned into Student's for K deals): a small budget
leaves the base alone, more budget overrules more often and more surely. ``model`` and
``known_takes`` are the 500 search's only. Persian 5000 (partnerships, hidden sizes) is not
searched.

It never reads hidden cards (C-INFO-1): the deals come from the cards it has not seen.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.common.rng import shuffle_int16
from rummysim.kernels.rum5000.layout import (
    CARD_IDS, D_STOCK, O_HAND_SIZE, O_N, O_PILE_LEN, O_SEAT, O_STOCK, UNKNOWN,
)
from rummysim.strategies.ids import (
    S_BUDGET, S_CONFIDENCE, S_MAX_CANDIDATES, S_SEARCH_DRAWS,
)
from rummysim.strategies.rum5000.playout import (
    W_OUT, W_PILE_LEN, W_STOCK_LEN, W_STOCK_POS, deal_world, discard_card, discard_key, finish_turn, hand_result,
    play_rest,
)
from rummysim.strategies.rum5000.worth import count_unseen

MAX_SEARCHED = 16  # candidates of one searched decision at most (the workspace's rows)
from rummysim.strategies.search_scope import late_in_hand


@njit_noalloc
def student_threshold(z, dof):
    """The Student t quantile with ``dof`` degrees of freedom at the normal quantile z (the
    Cornish-Fisher expansion's first terms, as the 500 search): with few play-outs their
    standard error is itself noisy, and a normal threshold would overrule too often."""
    return z + (z ** 3 + z) / (4 * dof) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * dof ** 2)


@njit_noalloc
def searchable(params, obs, tab, nopt):
    """A budget, more than one option, and the plain table the model knows (not Persian 5000,
    whose sizes are hidden and whose melds are shared)."""
    return params[S_BUDGET] >= 1 and nopt >= 2 and tab.team < 0 and obs[O_STOCK] != UNKNOWN


@njit_noalloc
def sample_unseen5(work, hand, tab, pile, obs, rng):
    """The unseen cards, one entry a copy, in ``work.sample`` in a random order; returns how many."""
    unseen = work.unseen
    count_unseen(unseen, hand, tab, pile, obs[O_PILE_LEN])
    k = 0
    for c in range(CARD_IDS):
        for _ in range(unseen[c]):
            work.sample[k] = c
            k += 1
    shuffle_int16(rng, work.sample, k)
    return k


@njit_noalloc
def draw_outcome(w, opt, me, n, wild, vals):
    """Draw option ``opt`` (the stock or the top discard) on a dealt world, then the hand played out."""
    st = w.st
    if opt == D_STOCK:
        if st[W_STOCK_POS] >= st[W_STOCK_LEN]:
            return hand_result(w, me, n, vals)
        w.hands[me, w.stock[st[W_STOCK_POS]]] += 1
        st[W_STOCK_POS] += 1
    else:
        st[W_PILE_LEN] -= 1
        w.hands[me, w.pile[st[W_PILE_LEN]]] += 1
    if not finish_turn(w, me, wild, vals):
        play_rest(w, (me + 1) % n, n, wild, vals)
    return hand_result(w, me, n, vals)


@njit_noalloc
def discard_outcome(w, card, me, n, wild, vals):
    """Card ``card`` discarded on a dealt world, then the hand played out."""
    if discard_card(w, me, card):
        w.st[W_OUT] = me
    else:
        play_rest(w, (me + 1) % n, n, wild, vals)
    return hand_result(w, me, n, vals)


@njit_noalloc
def overrule(params, obs, hand, pile, tab, opts, n_cand, is_draw, rng, work):
    """The option (index into opts) the search plays among ``work.cands[:n_cand]`` (the base's
    pick first): every candidate on the same K deals, the best mean only if its paired gain over
    the base is significant."""
    cands, stats, w = work.cands, work.stats, work.world
    for j in range(n_cand):
        stats[0, j] = 0.0  # sum of results
        stats[1, j] = 0.0  # sum of paired differences to the base
        stats[2, j] = 0.0  # sum of their squares
    k_samples = int(params[S_BUDGET])
    me, n, pile_len = obs[O_SEAT], obs[O_N], obs[O_PILE_LEN]
    for _ in range(k_samples):
        n_sample = sample_unseen5(work, hand, tab, pile, obs, rng)
        base = 0.0
        for j in range(n_cand):
            deal_world(w, tab, hand, pile, pile_len, me, n, obs, work.sample, n_sample, obs[O_STOCK])
            opt = opts[cands[j]]
            if is_draw:
                r = draw_outcome(w, opt, me, n, tab.wild, tab.vals)
            else:
                r = discard_outcome(w, opt, me, n, tab.wild, tab.vals)
            if j == 0:
                base = r
            stats[0, j] += r
            stats[1, j] += r - base
            stats[2, j] += (r - base) ** 2
    best = 0
    for j in range(1, n_cand):
        if stats[0, j] > stats[0, best]:
            best = j
    if best == 0 or k_samples < 2:
        return cands[0]
    mean = stats[1, best] / k_samples
    var = max(stats[2, best] - k_samples * mean * mean, 0.0) / (k_samples - 1)
    spread = np.sqrt(var / k_samples)
    if mean > student_threshold(params[S_CONFIDENCE], k_samples - 1) * spread:
        return cands[best]
    return cands[0]


@njit_noalloc
def search_draw5(params, obs, hand, pile, tab, opts, nopt, base, rng, work):
    """The base's draw (index ``base``), searched between the stock and the top discard when it
    is one of them."""
    if params[S_SEARCH_DRAWS] <= 0 or not searchable(params, obs, tab, nopt) or opts[0] != D_STOCK:
        return base
    top = -1
    for i in range(1, nopt):
        if opts[i] == obs[O_PILE_LEN] - 1:
            top = i
    if top < 0 or (base != 0 and base != top):
        return base  # a deep take or going out without drawing is the base's own
    work.cands[0] = base
    work.cands[1] = top if base == 0 else 0
    return overrule(params, obs, hand, pile, tab, opts, 2, True, rng, work)


@njit_noalloc
def discard_candidates(params, hand, tab, opts, nopt, base, work):
    """The base's discard first, then the options greedy's discard order ranks lowest, at most
    ``max_candidates`` in all (one card id once)."""
    cands = work.cands
    cands[0] = base
    n_cand = 1
    limit = min(nopt, MAX_SEARCHED, max(1, int(params[S_MAX_CANDIDATES])))
    while n_cand < limit:
        pick = -1
        pick_key = 1e18
        for i in range(nopt):
            chosen = False
            for j in range(n_cand):
                if opts[cands[j]] == opts[i]:
                    chosen = True
            if chosen:
                continue
            key = discard_key(hand, opts[i], tab.wild, tab.vals)
            if key < pick_key:
                pick_key = key
                pick = i
        if pick < 0:
            break
        cands[n_cand] = pick
        n_cand += 1
    return n_cand


@njit_noalloc
def search_discard5(params, obs, hand, pile, tab, opts, nopt, base, rng, work):
    """The base's discard (index ``base``); late in the hand, searched among the next ranked."""
    if not searchable(params, obs, tab, nopt) or not late_in_hand(params, obs, O_STOCK, O_N, O_HAND_SIZE):
        return base
    n_cand = discard_candidates(params, hand, tab, opts, nopt, base, work)
    if n_cand < 2:
        return base
    return overrule(params, obs, hand, pile, tab, opts, n_cand, False, rng, work)
