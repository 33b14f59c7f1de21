"""``search``: the heuristic as a base policy, overruled only where play-outs show it is wrong.

Every decision starts from the heuristic's own pick (strategies/rum500/heuristic.py) with the
seat's parameter row, whose first columns are the heuristic's (``search``'s defaults are the tuned
``heuristic@500-rum-2p`` point). Every draw between the stock (or declining) and the top discard
is searched when the top card connects with the hand (``search_draws``); a discard only late in
the hand (the stock holds at most ``late_stock`` cards, by default half the budget, or some seat
at most ``late_cards``), where a wrong card costs the most and the play-outs are short. Deep takes, melds, lay-offs, stopping
and rummy calls are the base's, and at ``budget`` 0 the seat plays its base exactly.

A searched decision keeps the base's pick and the others the heuristic ranks next (a draw: the
stock and the top discard; a discard: the cards of lowest keep score, at most ``max_candidates``).
It deals ``budget`` (K) determinizations of the cards it has not seen (strategies/rum500/knowledge.py,
from its own decision stream); its own discards that another seat took and still holds (not on
the pile, not on the table) go to the other hands in every deal, never to the stock
(``known_takes``). Every candidate is applied to each deal (common random numbers) and the hand
played out with ``model``: 0 the fast greedy model of strategies/rum500/playout.py, 1 the heuristic
model of strategies/rum500/hplayout.py. The base's pick is overruled only by the candidate with the
best mean, and only when its paired difference to the base over the K deals is more than
``confidence`` standard errors above 0: a small budget, whose means are noisy, then leaves the
base's choice alone instead of following the noise (a flat search over the same play-outs lost to
its base, docs/experiments/README.md), and more budget overrules more often and more surely.

It never reads hidden cards (C-INFO-1): the samples come from the cards it has not seen, dealt by
the observed hand sizes.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.planes import U0, bit, has_card
from rummysim.kernels.rum500.layout import (
    DRAW_NONE, END_OUT, END_STOCK, JOKER, MAX_PACK, OB_EFFECT, OB_HAND_SIZE, OB_MY_DISCARDS, OB_MY_JOKERS, OB_N,
    OB_PILE_LEN, OB_SEAT, OB_STOCK, OB_TEAMS, PLAY_ALL,
)
from rummysim.kernels.rum500.melds import card_playable
from rummysim.strategies.ids import (
    S_BUDGET, S_CONFIDENCE, S_KNOWN_TAKES, S_MAX_CANDIDATES, S_MODEL, S_SEARCH_DRAWS,
)
from rummysim.strategies.rum500.greedy import card_usefulness
from rummysim.strategies.rum500.heuristic import discard_score, feed_targets, heuristic_discard, heuristic_draw
from rummysim.strategies.rum500.hplayout import model_finish, model_rest, new_seat_buffers
from rummysim.strategies.rum500.knowledge import sample_unseen
from rummysim.strategies.rum500.playout import (
    apply_draw, deal_world, discard_card, finish_turn, hand_result, new_world, play_rest,
)
from rummysim.strategies.search_scope import late_in_hand


@njit
def worth_searching(params, view, nopt):
    """A decision is searched with a budget, more than one option, and in the plain game the
    play-out models know (no Dealer's gambit effects, no partnerships)."""
    obs = view.obs
    if params[S_BUDGET] < 1 or nopt < 2:
        return False
    return obs[OB_EFFECT] == 0 and obs[OB_TEAMS] == 0


@njit
def turn_rest(params, w, view, me, forbidden, must, scratch, bufs):
    """The rest of the seat's turn after its draw (melds, discard), then the hand played out; the
    seat's score difference."""
    obs = view.obs
    rules, vals, ace_low = view.table.rules, view.table.vals, view.table.ace_low
    n = obs[OB_N]
    if params[S_MODEL] > 0:
        out = model_finish(params, w, me, n, forbidden, must, rules, vals, ace_low, scratch, bufs)
    else:
        out = finish_turn(w, me, forbidden, must, rules, vals, ace_low, scratch)
    if out:
        return hand_result(w, me, n, END_OUT, me, rules, vals)
    return after_turn(params, w, view, me, scratch, bufs)


@njit
def after_turn(params, w, view, me, scratch, bufs):
    """The hand played out from the next seat on; the seat's score difference."""
    rules, vals, ace_low = view.table.rules, view.table.vals, view.table.ace_low
    n = view.obs[OB_N]
    if params[S_MODEL] > 0:
        reason, out_seat = model_rest(params, w, (me + 1) % n, n, rules, vals, ace_low, scratch, bufs)
    else:
        reason, out_seat = play_rest(w, (me + 1) % n, n, rules, vals, ace_low, scratch)
    return hand_result(w, me, n, reason, out_seat, rules, vals)


@njit
def draw_outcome(params, w, view, opt, scratch, bufs):
    """Draw option ``opt`` applied on a dealt world, then the turn and the hand played out."""
    obs = view.obs
    rules = view.table.rules
    me = obs[OB_SEAT]
    if opt == DRAW_NONE:
        return hand_result(w, me, obs[OB_N], END_STOCK, -1, rules, view.table.vals)  # R500-STOCK-1
    must, forbidden = apply_draw(w, me, opt, obs[OB_PILE_LEN], rules)
    return turn_rest(params, w, view, me, forbidden, must, scratch, bufs)


@njit
def discard_outcome(params, w, view, card, scratch, bufs):
    """Card ``card`` discarded on a dealt world, then the hand played out."""
    me = view.obs[OB_SEAT]
    if discard_card(w, me, card):
        return hand_result(w, me, view.obs[OB_N], END_OUT, me, view.table.rules, view.table.vals)
    return after_turn(params, w, view, me, scratch, bufs)


@njit
def taken_discards_first(obs, sample, n_sample):
    """Move the seat's own discards of this hand that it has not seen since (not on the pile, not
    on the table: another seat took them and still holds them) to the front of the sample, which
    ``deal_world`` deals to the other hands first (the next seat first, the one that took the top
    discard), so no determinization buries them in the stock. One copy of each; the rest keeps
    its random order."""
    taken = np.uint64(obs[OB_MY_DISCARDS])
    moved = U0
    front = 0
    for i in range(n_sample):
        c = np.int64(sample[i])
        if c != JOKER and has_card(taken, c) and not has_card(moved, c):
            moved |= bit(c)
            sample[front + 1 : i + 1] = sample[front:i].copy()
            sample[front] = c
            front += 1


@njit
def playout_results(params, view, opts, cands, is_draw, rng, scratch):
    """results[j, k]: the seat's score difference after candidate j (an index into opts) on
    determinization k; every candidate sees the same K deals."""
    k_samples = int(params[S_BUDGET])
    results = np.zeros((cands.shape[0], k_samples), dtype=np.float64)
    sample = np.empty(MAX_PACK, dtype=np.int16)
    w = new_world()
    bufs = new_seat_buffers()
    obs, mine, pile, table = view
    for k in range(k_samples):
        n_sample = sample_unseen(view, rng, sample)
        if params[S_KNOWN_TAKES] > 0:
            taken_discards_first(obs, sample, n_sample)
        for j in range(cands.shape[0]):
            deal_world(w, obs, mine, pile, table.melds, sample, n_sample)
            opt = opts[cands[j]]
            if is_draw:
                results[j, k] = draw_outcome(params, w, view, opt, scratch, bufs)
            else:
                results[j, k] = discard_outcome(params, w, view, opt, scratch, bufs)
    return results


@njit
def student_threshold(z, dof):
    """The Student t quantile with ``dof`` degrees of freedom at the normal quantile z (the
    Cornish-Fisher expansion's first terms; within 5% from 3 degrees of freedom on): the standard
    error of K play-outs is itself estimated from them, and with a handful of them a normal
    threshold overruled the base far too often (budget 4 at z = 2: -1.67 points a hand)."""
    return z + (z ** 3 + z) / (4 * dof) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * dof ** 2)


@njit
def significant_best(results, confidence):
    """Row of ``results`` to play: the best mean when its paired difference to row 0 (the base's
    pick) is more than ``confidence`` standard errors above 0 (as a normal quantile, turned into
    Student's for the K deals), else 0."""
    n_cand, k = results.shape
    best = 0
    for j in range(1, n_cand):
        if results[j].sum() > results[best].sum():
            best = j
    if best == 0 or k < 2:
        return 0
    diff = results[best] - results[0]
    mean = diff.mean()
    spread = np.sqrt(((diff - mean) ** 2).sum() / (k - 1) / k)
    return best if mean > student_threshold(confidence, k - 1) * spread else 0


@njit
def overrule(params, view, opts, cands, is_draw, rng, scratch):
    """The option (index into opts) the search plays among ``cands`` (the base's pick first)."""
    results = playout_results(params, view, opts, cands, is_draw, rng, scratch)
    return cands[significant_best(results, params[S_CONFIDENCE])]


@njit
def top_option(obs, opts, nopt):
    """Index of the top-discard take among the draw options, or -1."""
    for i in range(1, nopt):
        if opts[i] == obs[OB_PILE_LEN] - 1:
            return i
    return -1


@njit
def top_card_connects(view, scratch):
    """The top discard is a joker, fits a play with the hand now, or has a partner in hand (its
    rank, or its suit within two ranks). A take of any other card only adds a dead card: the
    search would keep the stock, so it is not asked (at the default budget 590 hands per CPU-second
    instead of 505)."""
    obs, mine, pile, table = view
    c = np.int64(pile[obs[OB_PILE_LEN] - 1])
    if c == JOKER or card_usefulness(mine[0], c) > 0:
        return True
    return card_playable(c, mine[0] | bit(c), obs[OB_MY_JOKERS], table, PLAY_ALL, scratch)


@njit
def search_draw(params, view, opts, nopt, rng, scratch):
    """The heuristic's draw, searched between the stock (or declining) and the top discard when it
    is one of them and the top card connects with the hand."""
    base = heuristic_draw(params, view, opts, nopt, scratch)
    if params[S_SEARCH_DRAWS] <= 0 or not worth_searching(params, view, nopt):
        return base
    top = top_option(view.obs, opts, nopt)
    if top < 0 or (base != 0 and base != top):
        return base  # a deep take is the heuristic's own: the play-out models take only the top
    if base == 0 and not top_card_connects(view, scratch):
        return base
    cands = np.empty(2, dtype=np.int64)
    cands[0] = base
    cands[1] = top if base == 0 else 0
    return overrule(params, view, opts, cands, True, rng, scratch)


@njit
def discard_candidates(params, view, opts, nopt, base, scratch):
    """The base's discard, then the options of lowest keep score, at most ``max_candidates``."""
    obs, mine, pile, table = view
    targets = feed_targets(params, table)
    scores = np.empty(nopt, dtype=np.float64)
    for i in range(nopt):
        scores[i] = discard_score(params, obs, mine[0], np.int64(opts[i]), pile, obs[OB_PILE_LEN], table, scratch,
                                  targets)
    scores[base] = -np.inf  # first, whatever the score (a held meld's cards rank last in the base)
    order = np.argsort(scores, kind="mergesort")
    return order[:min(nopt, max(1, int(params[S_MAX_CANDIDATES])))]


@njit
def search_discard(params, view, opts, nopt, rng, scratch):
    """The heuristic's discard; late in the hand, searched among the next best ranked."""
    base = heuristic_discard(params, view, opts, nopt, scratch)
    if not worth_searching(params, view, nopt) or not late_in_hand(params, view.obs, OB_STOCK, OB_N, OB_HAND_SIZE):
        return base
    cands = discard_candidates(params, view, opts, nopt, base, scratch)
    if cands.shape[0] < 2:
        return base
    return overrule(params, view, opts, cands, False, rng, scratch)
