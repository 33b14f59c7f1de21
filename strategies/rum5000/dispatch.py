"""Decisions for 5000 Rummy (RULES.md §4-5): draw, play, discard, rummy call and upcard exchange.

The 5000 engine (``kernels.engine5k``) calls these five functions with the seat's own cards, the
public table and pile, and an observation vector (``O_*``); nothing hidden reaches them
(C-INFO-1). ``random`` picks uniformly among the legal options. ``greedy`` plays ahead with its own
cards only: it values a draw by how many points it could put on the table this turn with the
cards it would hold (plays chosen by highest value, on copies of the table) against what those
cards would leave in hand, and it discards the card that helps least.
The heuristic family (``heuristic``, ``cautious``, ``digger``) plays the same way with its own
parameters where they carry over: ``deadwood_weight`` and ``min_gain`` in the take test,
``max_take`` as the deepest take, ``hold_melds`` with ``risk_stock`` and ``risk_opp_cards`` to keep
melds in hand until it can go out or the risk grows, and ``feed_weight`` against discards that
could go onto the table. ``rollout`` plays by greedy's rules here (it has no 5000 play-out model).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.rum5000.layout import (
    C_NCARDS, C_TYPE, C_VALUE, CARD_IDS, D_ALL, D_DECLINE, D_SKIP, D_STOCK, MAX_CAND5, MAX_MELDS5,
    O_HAND_SIZE, O_N, O_N_MELDS, O_SEAT, O_STOCK, O_WILD, P_STOP, SC_FULL,
)
from rummysim.kernels.rum5000.melds import apply_play5, card_placeable, count_cards, enumerate_plays5, is_wild
from rummysim.strategies.ids import CAUTIOUS, DIGGER, GREEDY, HEURISTIC, RANDOM
from rummysim.strategies.random_play import random_choice

SKIP_GAIN = 1e9  # going out without drawing scores the 500 bonus: always worth it
TAKE_WEIGHT = 0.6  # share of an unmelded taken card's value counted against a take
MIN_GAIN = 0.0


@njit
def hand_value(av, vals):
    v = 0
    for c in range(CARD_IDS):
        v += av[c] * vals[c]
    return v


@njit
def best_play(cand, n):
    """Index of the highest-valued play; STOP (row 0) when nothing puts points down."""
    best = 0
    best_v = 0
    for i in range(n):
        if cand[i, C_TYPE] != P_STOP and cand[i, C_VALUE] > best_v:
            best = i
            best_v = cand[i, C_VALUE]
    return best


@njit
def playout_points(av, must, melds, nm, grp_seat, seat, wild, vals):
    """Points greedy could put on the table this turn holding ``av`` (copies only)."""
    hand = av.copy()
    table = melds.copy()
    grp = grp_seat.copy()
    ends = np.zeros(MAX_MELDS5, dtype=np.int64)
    nm_box = np.array([nm], dtype=np.int64)
    cand = np.empty((MAX_CAND5, 12), dtype=np.int64)
    placed = 0
    for _ in range(40):
        n = enumerate_plays5(hand, must, table, nm_box[0], grp, seat, wild, vals, ends, SC_FULL, cand, True)
        i = best_play(cand, n)
        if cand[i, C_TYPE] == P_STOP:
            break
        placed += cand[i, C_VALUE]
        apply_play5(cand[i], hand, table, nm_box, grp, seat, wild, must, ends, None, None)
        must = -1
        if count_cards(hand) == 0:
            break
    return placed, hand_value(hand, vals)


@njit
def take_gain(av, pile, k, upto, must, melds, nm, grp_seat, seat, wild, vals, base_placed, base_left, weight):
    """Net points of taking pile[k:upto] into ``av``: more on the table, less left in hand."""
    with_take = av.copy()
    for i in range(k, upto):
        with_take[pile[i]] += 1
    placed, left = playout_points(with_take, must, melds, nm, grp_seat, seat, wild, vals)
    return (placed - base_placed) - weight * (left - base_left)


@njit
def greedy_draw5(weight, min_gain, max_take, obs, hand, pile, melds, grp_seat, vals, opts, nopt):
    seat = obs[0]
    wild = obs[O_WILD]
    nm = obs[O_N_MELDS]
    pile_len = obs[3]
    base_placed, base_left = playout_points(hand, -1, melds, nm, grp_seat, seat, wild, vals)
    best = 0
    best_gain = -1e18
    for i in range(nopt):
        o = opts[i]
        taken = pile_len if o == D_ALL else pile_len - o
        if max_take > 0 and o != D_STOCK and o != D_DECLINE and o != D_SKIP and taken > max_take:
            continue  # the heuristic's max_take: never take deeper than this
        if o == D_SKIP:
            gain = SKIP_GAIN
        elif o == D_STOCK or o == D_DECLINE:
            gain = min_gain  # a take must beat this to be preferred
        elif o == D_ALL:
            gain = take_gain(hand, pile, 0, pile_len, -1, melds, nm, grp_seat, seat, wild, vals, base_placed, base_left, weight)
        else:
            must = pile[o] if o < pile_len - 1 else -1
            gain = take_gain(hand, pile, o, pile_len, must, melds, nm, grp_seat, seat, wild, vals, base_placed, base_left, weight)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


@njit
def usefulness(hand, c, wild):
    """How much card c helps the rest of the hand: same-rank partners and near same-suit cards."""
    r = c % 16
    s = c // 16
    score = 0
    for t in range(4):
        score += 2 * hand[16 * t + r]
    score -= 2  # the card itself
    for d in (-2, -1, 1, 2):
        rr = r + d
        if 1 <= rr <= 13:
            score += hand[16 * s + rr]
    return score


@njit
def greedy_discard5(feed_weight, obs, hand, melds, grp_seat, vals, opts, nopt):
    """Least useful natural card, the most valuable among equals; wild cards last.

    ``feed_weight`` > 0 also counts against a card that could go onto the table by itself (a
    rummy call or an easy addition for the next player).
    """
    wild = obs[O_WILD]
    seat = obs[O_SEAT]
    nm = obs[O_N_MELDS]
    ends = np.zeros(MAX_MELDS5, dtype=np.int64)
    cand = np.empty((MAX_CAND5, 12), dtype=np.int64) if feed_weight > 0 else np.empty((0, 12), dtype=np.int64)
    best = 0
    best_key = 1e18
    for i in range(nopt):
        c = opts[i]
        key = usefulness(hand, c, wild) * 1000.0 - vals[c]
        if feed_weight > 0 and card_placeable(c, melds, nm, grp_seat, seat, wild, vals, ends, cand):
            key += feed_weight * 100.0
        if is_wild(c, wild):
            key += 1e9
        if key < best_key:
            best_key = key
            best = i
    return best


@njit
def greedy_call5(weight, obs, hand, pile, melds, grp_seat, vals, opts, nopt):
    """Rummy calls: take the most valuable claim (option 0 is pass, then pile indexes)."""
    if nopt <= 1:
        return 0
    seat = obs[0]
    wild = obs[O_WILD]
    nm = obs[O_N_MELDS]
    pile_len = obs[3]
    empty = np.zeros(CARD_IDS, dtype=np.int64)
    best = 0
    best_gain = 0.0
    for i in range(1, nopt):
        k = opts[i]
        gain = take_gain(empty, pile, k, pile_len, pile[k], melds, nm, grp_seat, seat, wild, vals, 0, 0, weight)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


@njit
def greedy_exchange5(weight, min_gain, obs, hand, pile, melds, grp_seat, vals, opts, nopt):
    """V5K-11: swap a hand card for the upcard when that raises this turn's table points."""
    seat = obs[0]
    wild = obs[O_WILD]
    nm = obs[O_N_MELDS]
    base_placed, base_left = playout_points(hand, -1, melds, nm, grp_seat, seat, wild, vals)
    best = 0
    best_gain = min_gain
    up = pile[0]
    for i in range(1, nopt):
        trial = hand.copy()
        trial[opts[i]] -= 1
        trial[up] += 1
        placed, left = playout_points(trial, -1, melds, nm, grp_seat, seat, wild, vals)
        gain = (placed - base_placed) - (left - base_left) * weight
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


# ----------------------------------------------------------------------------- dispatch


@njit
def parametric(sid):
    """Strategies whose parameter row starts with greedy's (deadwood_weight, min_gain)."""
    return sid == GREEDY or sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER


@njit
def heuristic_family(sid):
    return sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER


@njit
def take_weight(sid, params):
    """``deadwood_weight`` scales the share of unusable taken cards counted against a take."""
    if parametric(sid):
        return TAKE_WEIGHT * params[0]
    return TAKE_WEIGHT


@njit
def min_gain(sid, params):
    return params[1] if parametric(sid) else MIN_GAIN


@njit
def heuristic_param(sid, params, i):
    """Parameter i of the heuristic family (0 = off for every other strategy)."""
    return params[i] if heuristic_family(sid) else 0.0


@njit
def holds_melds(sid, params, obs, cand, ncand):
    """The heuristic's hold_melds: keep melds in hand unless going out or the risk has grown."""
    if heuristic_param(sid, params, 5) <= 0 or ncand == 0 or cand[0, C_TYPE] != P_STOP:
        return False
    if obs[O_STOCK] <= params[6]:
        return False
    seat = obs[O_SEAT]
    for s in range(obs[O_N]):
        if s != seat and obs[O_HAND_SIZE + s] <= params[7]:
            return False
    best = best_play(cand, ncand)
    return cand[best, C_NCARDS] < obs[O_HAND_SIZE + seat]  # a play that empties the hand goes out


@njit
def choose5_draw(sid, params, obs, hand, pile, melds, grp_seat, vals, opts, nopt, rng):
    """Index into opts[:nopt]: D_STOCK, D_DECLINE, D_SKIP, D_ALL or a pile index to take from."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    return greedy_draw5(take_weight(sid, params), min_gain(sid, params), heuristic_param(sid, params, 2), obs, hand,
                        pile, melds, grp_seat, vals, opts, nopt)


@njit
def choose5_play(sid, params, obs, cand, ncand, rng):
    """Index into cand[:ncand] (row 0 is STOP when stopping is allowed)."""
    if sid == RANDOM:
        return random_choice(rng, ncand)
    if holds_melds(sid, params, obs, cand, ncand):
        return 0
    return best_play(cand, ncand)


@njit
def choose5_discard(sid, params, obs, hand, melds, grp_seat, vals, opts, nopt, rng):
    """Index into opts[:nopt] (card ids)."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    return greedy_discard5(heuristic_param(sid, params, 8), obs, hand, melds, grp_seat, vals, opts, nopt)


@njit
def choose5_call(sid, params, obs, hand, pile, melds, grp_seat, vals, opts, nopt, rng):
    """Index into opts[:nopt]: 0 = pass, then the pile index a rummy call would take from."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    return greedy_call5(take_weight(sid, params), obs, hand, pile, melds, grp_seat, vals, opts, nopt)


@njit
def choose5_exchange(sid, params, obs, hand, pile, melds, grp_seat, vals, opts, nopt, rng):
    """Index into opts[:nopt]: 0 = keep the hand, then card ids to swap for the upcard (V5K-11)."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    return greedy_exchange5(take_weight(sid, params), min_gain(sid, params), obs, hand, pile, melds, grp_seat, vals, opts, nopt)
