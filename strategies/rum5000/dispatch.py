"""Decisions for 5000 Rummy (RULES.md §4-5): draw, play, discard, rummy call and upcard exchange.

The 5000 engine (``kernels.rum5000.engine``) calls these five functions with the seat's own cards,
the public table as the seat plays on it (a ``Table5``) and the pile, an observation vector
(``O_*``) and a play-ahead workspace (``Ahead5``, made once per game by ``new_ahead5``); nothing
hidden reaches them (C-INFO-1). ``random`` picks uniformly among the legal options. ``greedy``
plays ahead with its own cards only: it values a draw by how many points it could put on the
table this turn with the cards it would hold (plays chosen by highest value, on copies of the
table) against 60% of the value those cards would leave in hand, counts the stock draw as 0, and
it discards the card that helps least.

The heuristic family (``heuristic``, ``cautious``, ``digger``) plays greedy's moves with its own
parameters where they carry over (``min_gain``, ``max_take``, ``feed_weight``; ``hold_melds`` with
its risk thresholds only under ``hold_5000``, since a held meld is caught at 5000's values), and
with ``worth_5000`` it prices by 5000's own scoring (``strategies.rum5000.worth``): every card a
play-out leaves in hand costs its 5000 value by its chance to meld in the draws left, plus the
time it takes to shed (``tempo_5000``); the stock draw is worth the mean of drawing each unseen
card; rummy calls and upcard exchanges (trades and joins are among the play-out's plays) are
priced the same way. ``rollout`` plays by greedy's rules here (it has no 5000 play-out model).
``search`` plays the heuristic as its base and searches its draws and late discards with
play-outs (strategies/rum5000/search.py, strategies/rum5000/playout.py); the engine compiles it
in only for a lineup that plays it (``SEARCH_COMPILED``, ``searched_draw5``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.rum5000.layout import (
    C_NCARDS, C_SIZE, C_TYPE, C_VALUE, CARD_IDS, D_ALL, DECK5, D_DECLINE, D_SKIP, D_STOCK, M_SIZE, MAX_CAND5,
    MAX_MELDS5, O_HAND_SIZE, O_N, O_PILE_LEN, O_SEAT, O_STOCK, P_STOP, SC_FULL, UNKNOWN,
)
from rummysim.kernels.rum5000.melds import (
    NO_TRACE_CURSOR, Table5, apply_play5, card_placeable, clear_head, copy_rows, copy_vector,
    enumerate_plays5, holds_none, is_wild,
)
from rummysim.strategies.ids import (
    CAUTIOUS, DIGGER, GREEDY, H_DEADWOOD_WEIGHT, H_DISCARD_5000, H_FEED_WEIGHT, H_HOLD_5000, H_HOLD_MELDS, H_HORIZON,
    H_LATER_WEIGHT, H_TEMPO_5000, H_WORTH_5000,
    HEURISTIC, RANDOM, SEARCH,
)
from rummysim.strategies.random_play import random_choice
from rummysim.strategies.rum5000.playout import best_play, new_world5, usefulness
from rummysim.strategies.rum5000.search import MAX_SEARCHED, search_discard5, search_draw5
from rummysim.strategies.rum5000.worth import count_unseen, draws_left, hand_cost

SKIP_GAIN = 1e9  # going out without drawing scores the 500 bonus: always worth it
TAKE_WEIGHT = 0.6  # share of an unmelded taken card's value counted against a take
MIN_GAIN = 0.0

Ahead5 = namedtuple("Ahead5", "hand take trial melds grp ends n_melds cand single cursor unseen world sample stats cands")
"""The play-ahead workspace: the cards a play-out holds (``hand``), the holding after a take
(``take``) and a trial holding (``trial``), the copy of the table it plays on (``melds``, ``grp``,
``ends``, ``n_melds``), its play candidates, the one card ``card_placeable`` tests, the stand-in
for the state vector beside a None trace (``melds.NO_TRACE_CURSOR``), the unseen card counts of
the heuristic's valuation (``worth.count_unseen``), and ``search``'s: the world its play-outs
deal (``playout.World5``), the unseen cards in dealing order, the per-candidate sums and the
candidates (strategies/rum5000/search.py)."""

Look5 = namedtuple("Look5", "on weight unseen n_unseen draws later_weight deadwood_weight tempo")
"""How a decision prices the cards a play-out leaves in hand: with ``on`` False as greedy does,
``weight`` times their value; with ``on`` True by their 5000 worth and time cost
(``worth.hand_cost``) from the unseen cards, the draws left and the three weights."""


@njit
def new_ahead5():
    return Ahead5(
        np.empty(CARD_IDS, dtype=np.int64),
        np.empty(CARD_IDS, dtype=np.int64),
        np.empty(CARD_IDS, dtype=np.int64),
        np.empty((MAX_MELDS5, M_SIZE), dtype=np.int64),
        np.empty(14, dtype=np.int64),
        np.empty(MAX_MELDS5, dtype=np.int64),
        np.empty(1, dtype=np.int64),
        np.empty((MAX_CAND5, C_SIZE), dtype=np.int64),
        np.empty(CARD_IDS, dtype=np.int64),
        np.zeros(NO_TRACE_CURSOR, dtype=np.int64),
        np.zeros(CARD_IDS, dtype=np.int64),
        new_world5(),
        np.zeros(DECK5, dtype=np.int64),
        np.zeros((3, MAX_SEARCHED), dtype=np.float64),
        np.zeros(MAX_SEARCHED, dtype=np.int64),
    )


@njit_noalloc
def hand_value(av, vals):
    v = 0
    for c in range(CARD_IDS):
        v += av[c] * vals[c]
    return v


@njit_noalloc
def playout_points(av, must, tab, seat, work):
    """(points greedy could put on the table this turn holding ``av``, value left in hand), played
    on a copy of the table in ``work``."""
    hand = work.hand
    copy_vector(hand, av)
    copy_rows(work.melds, tab.melds, tab.n_melds[0])
    copy_vector(work.grp, tab.grp)
    clear_head(work.ends, tab.n_melds[0])  # the melds laid in the play-out clear their own (apply_play5)
    work.n_melds[0] = tab.n_melds[0]
    table = Table5(work.melds, work.n_melds, work.grp, work.ends, tab.wild, tab.vals, tab.team)
    cand = work.cand
    placed = 0
    for _ in range(40):
        n = enumerate_plays5(hand, must, table, seat, SC_FULL, cand, True)
        i = best_play(cand, n)
        if cand[i, C_TYPE] == P_STOP:
            break
        placed += cand[i, C_VALUE]
        apply_play5(cand[i], hand, table, seat, must, None, work.cursor)
        must = -1
        if holds_none(hand):
            break
    return placed, hand_value(hand, tab.vals)


@njit_noalloc
def playout_score(av, must, tab, seat, work, look):
    """(points put on the table this turn holding ``av``, the price of what is left in hand)."""
    placed, left = playout_points(av, must, tab, seat, work)
    if look.on:
        return placed, hand_cost(work.hand, look, tab.vals, tab.wild)
    return placed, float(left)


@njit_noalloc
def net_gain(placed, left, base_placed, base_left, look):
    """More on the table, less left in hand: greedy weighs the value left, the heuristic its cost."""
    if look.on:
        return (placed - base_placed) - (left - base_left)
    return (placed - base_placed) - look.weight * (left - base_left)


@njit_noalloc
def take_gain(av, pile, k, must, tab, obs, base_placed, base_left, look, work):
    """Net points of taking pile[k:] into ``av``."""
    with_take = work.take
    copy_vector(with_take, av)
    for i in range(k, obs[O_PILE_LEN]):
        with_take[pile[i]] += 1
    placed, left = playout_score(with_take, must, tab, obs[O_SEAT], work, look)
    return net_gain(placed, left, base_placed, base_left, look)


@njit_noalloc
def stock_draw_gain(hand, tab, obs, base_placed, base_left, look, work):
    """The heuristic's value of the stock draw: the net points of drawing each unseen card, by the
    chance of drawing it (greedy counts the stock as 0)."""
    if look.n_unseen == 0:
        return 0.0
    drawn = work.take
    total = 0.0
    for c in range(CARD_IDS):
        k = look.unseen[c]
        if k == 0:
            continue
        copy_vector(drawn, hand)
        drawn[c] += 1
        placed, left = playout_score(drawn, -1, tab, obs[O_SEAT], work, look)
        total += k * net_gain(placed, left, base_placed, base_left, look)
    return total / look.n_unseen


@njit_inline
def greedy_draw5(look, min_gain, max_take, obs, hand, pile, tab, opts, nopt, work):
    pile_len = obs[O_PILE_LEN]
    base_placed, base_left = playout_score(hand, -1, tab, obs[O_SEAT], work, look)
    best = 0
    best_gain = -1e18
    for i in range(nopt):
        o = opts[i]
        taken = pile_len if o == D_ALL else pile_len - o
        if max_take > 0 and o != D_STOCK and o != D_DECLINE and o != D_SKIP and taken > max_take:
            continue  # the heuristic's max_take: never take deeper than this
        if o == D_SKIP:
            gain = SKIP_GAIN
        elif o == D_STOCK and look.on:
            gain = min_gain + stock_draw_gain(hand, tab, obs, base_placed, base_left, look, work)
        elif o == D_STOCK or o == D_DECLINE:
            gain = min_gain  # a take must beat this to be preferred (declining draws nothing)
        elif o == D_ALL:
            gain = take_gain(hand, pile, 0, -1, tab, obs, base_placed, base_left, look, work)
        else:
            must = pile[o] if o < pile_len - 1 else -1
            gain = take_gain(hand, pile, o, must, tab, obs, base_placed, base_left, look, work)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


@njit_noalloc
def untraded_table(tab, work):
    """The table with no sequence end traded (``work.ends`` zeroed): where a discard is judged for
    what it could feed."""
    work.ends[:] = 0
    return Table5(tab.melds, tab.n_melds, tab.grp, work.ends, tab.wild, tab.vals, tab.team)


@njit_inline
def greedy_discard5(feed_weight, obs, hand, tab, opts, nopt, work):
    """Least useful natural card, the most valuable among equals; wild cards last.

    ``feed_weight`` > 0 also counts against a card that could go onto the table by itself (a
    rummy call or an easy addition for the next player), judged with no sequence end traded.
    """
    wild = tab.wild
    seat = obs[O_SEAT]
    untraded = untraded_table(tab, work)
    best = 0
    best_key = 1e18
    for i in range(nopt):
        c = opts[i]
        key = usefulness(hand, c, wild) * 1000.0 - tab.vals[c]
        if feed_weight > 0 and card_placeable(c, untraded, seat, work.single, work.cand):
            key += feed_weight * 100.0
        if is_wild(c, wild):
            key += 1e9
        if key < best_key:
            best_key = key
            best = i
    return best


@njit_noalloc
def feeds(c, untraded, seat, work):
    """Would the discard c feed the next player: a wild card always, a natural card when it goes onto
    the table by itself (a rummy call or an easy addition), judged with no sequence end traded."""
    return is_wild(c, untraded.wild) or card_placeable(c, untraded, seat, work.single, work.cand)


@njit_inline
def worth_discard5(look, feed_weight, obs, hand, tab, opts, nopt, work):
    """The heuristic's discard_5000: the card whose loss leaves the cheapest hand by 5000 worth
    (``worth.hand_cost``), a feeding card costing ``feed_weight`` percent of its value more (the
    next player may meld it)."""
    seat = obs[O_SEAT]
    untraded = untraded_table(tab, work)
    best = 0
    best_key = 1e18
    for i in range(nopt):
        c = opts[i]
        hand[c] -= 1
        key = hand_cost(hand, look, tab.vals, tab.wild)
        hand[c] += 1
        if feed_weight > 0 and feeds(c, untraded, seat, work):
            key += feed_weight * 0.01 * tab.vals[c]
        if key < best_key:
            best_key = key
            best = i
    return best


@njit_inline
def greedy_call5(look, obs, hand, pile, tab, opts, nopt, work):
    """Rummy calls: take the most valuable claim (option 0 is pass, then pile indexes).

    The claimed cards are played alone (V5K-3c, V5K-4c); greedy counts the ones left against the
    call by their value, the heuristic by what they cost beside the hand it holds.
    """
    if nopt <= 1:
        return 0
    empty = work.trial
    empty[:] = 0
    base_left = hand_cost(hand, look, tab.vals, tab.wild) if look.on else 0.0
    best = 0
    best_gain = 0.0
    for i in range(1, nopt):
        k = opts[i]
        if look.on:
            gain = call_gain(hand, pile, k, tab, obs, base_left, look, work)
        else:
            gain = take_gain(empty, pile, k, pile[k], tab, obs, 0, 0.0, look, work)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


@njit_noalloc
def call_gain(hand, pile, k, tab, obs, base_left, look, work):
    """A claim of pile[k:] priced by the heuristic: points the claimed cards put down, less the
    cost of the hand with the claimed cards left over."""
    empty = work.trial
    empty[:] = 0
    for i in range(k, obs[O_PILE_LEN]):
        empty[pile[i]] += 1
    placed, _ = playout_points(empty, pile[k], tab, obs[O_SEAT], work)
    kept = work.take
    copy_vector(kept, hand)
    for c in range(CARD_IDS):
        kept[c] += work.hand[c]
    return placed - (hand_cost(kept, look, tab.vals, tab.wild) - base_left)


@njit_inline
def greedy_exchange5(look, min_gain, obs, hand, pile, tab, opts, nopt, work):
    """V5K-11: swap a hand card for the upcard when that raises this turn's table points."""
    seat = obs[O_SEAT]
    base_placed, base_left = playout_score(hand, -1, tab, seat, work, look)
    best = 0
    best_gain = min_gain
    up = pile[0]
    trial = work.trial
    for i in range(1, nopt):
        copy_vector(trial, hand)
        trial[opts[i]] -= 1
        trial[up] += 1
        placed, left = playout_score(trial, -1, tab, seat, work, look)
        gain = net_gain(placed, left, base_placed, base_left, look)
        if gain > best_gain:
            best_gain = gain
            best = i
    return best


# ----------------------------------------------------------------------------- dispatch


@njit_noalloc
def parametric(sid):
    """Strategies whose parameter row starts with greedy's (deadwood_weight, min_gain)."""
    return sid == GREEDY or heuristic_family(sid)


@njit_noalloc
def heuristic_family(sid):
    """The heuristic's parameter rows; ``search``'s base is the heuristic, its draws and late
    discards searched (strategies/rum5000/search.py)."""
    return sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER or sid == SEARCH


@njit_noalloc
def take_weight(sid, params):
    """``deadwood_weight`` scales the share of unusable taken cards counted against a take."""
    if parametric(sid):
        return TAKE_WEIGHT * params[0]
    return TAKE_WEIGHT


@njit_noalloc
def min_gain(sid, params):
    return params[1] if parametric(sid) else MIN_GAIN


@njit_noalloc
def heuristic_param(sid, params, i):
    """Parameter i of the heuristic family (0 = off for every other strategy)."""
    return params[i] if heuristic_family(sid) else 0.0


@njit_noalloc
def prices_by_worth(sid, params):
    """The heuristic's worth_5000: price the cards left in hand by their 5000 worth (``worth``)."""
    return heuristic_param(sid, params, H_WORTH_5000) > 0


@njit_inline
def seat_look(sid, params, obs, hand, pile, tab, work):
    """The ``Look5`` a decision prices leftover cards by: greedy's share, or the heuristic's worth
    from the cards the seat has not seen (its hand, the table and the pile are seen)."""
    if prices_by_worth(sid, params):
        n_unseen = count_unseen(work.unseen, hand, tab, pile, obs[O_PILE_LEN])
        return Look5(True, 0.0, work.unseen, n_unseen, draws_left(obs, params[H_HORIZON]),
                     params[H_LATER_WEIGHT], params[H_DEADWOOD_WEIGHT], params[H_TEMPO_5000])
    return Look5(False, take_weight(sid, params), work.unseen, 0, 0.0, 0.0, 0.0, 0.0)


@njit_inline
def holds_melds(sid, params, obs, cand, ncand):
    """The heuristic's hold_melds (with hold_5000): keep melds in hand unless going out or the risk
    has grown."""
    if heuristic_param(sid, params, H_HOLD_MELDS) <= 0 or heuristic_param(sid, params, H_HOLD_5000) <= 0:
        return False
    if ncand == 0 or cand[0, C_TYPE] != P_STOP:
        return False
    if obs[O_STOCK] != UNKNOWN and obs[O_STOCK] <= params[6]:
        return False
    seat = obs[O_SEAT]
    for s in range(obs[O_N]):  # V5K-9 hides the hand sizes: an unknown size raises no alarm
        if s != seat and obs[O_HAND_SIZE + s] != UNKNOWN and obs[O_HAND_SIZE + s] <= params[7]:
            return False
    best = best_play(cand, ncand)
    return cand[best, C_NCARDS] < obs[O_HAND_SIZE + seat]  # a play that empties the hand goes out


SEARCH_COMPILED = np.zeros(0, dtype=np.int8)
"""The engine's ``search`` switch when a seat plays ``search`` (or through the step API), else
None: ``searched_draw5`` and ``searched_discard5`` test it as an argument, which numba prunes by
its type before typing, so the other lineups never compile ``search`` and its play-outs (issue
19 point 4)."""


@njit_noalloc
def searched_draw5(search, params, obs, hand, pile, tab, opts, nopt, pick, rng, work):
    """``search``'s draw over its base ``pick`` where the engine compiles it in, else the pick."""
    if search is not None:
        return search_draw5(params, obs, hand, pile, tab, opts, nopt, pick, rng, work)
    return pick


@njit_noalloc
def searched_discard5(search, params, obs, hand, pile, tab, opts, nopt, pick, rng, work):
    """``search``'s discard over its base ``pick`` where the engine compiles it in, else the pick."""
    if search is not None:
        return search_discard5(params, obs, hand, pile, tab, opts, nopt, pick, rng, work)
    return pick


@njit_inline
def choose5_draw(sid, search, params, obs, hand, pile, tab, opts, nopt, rng, work):
    """Index into opts[:nopt]: D_STOCK, D_DECLINE, D_SKIP, D_ALL or a pile index to take from.
    ``search`` is the engine's switch (``SEARCH_COMPILED`` or None)."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    look = seat_look(sid, params, obs, hand, pile, tab, work)
    pick = greedy_draw5(look, min_gain(sid, params), heuristic_param(sid, params, 2), obs, hand, pile, tab, opts,
                        nopt, work)
    if sid == SEARCH:
        return searched_draw5(search, params, obs, hand, pile, tab, opts, nopt, pick, rng, work)
    return pick


@njit_inline
def choose5_play(sid, params, obs, cand, ncand, rng):
    """Index into cand[:ncand] (row 0 is STOP when stopping is allowed)."""
    if sid == RANDOM:
        return random_choice(rng, ncand)
    if holds_melds(sid, params, obs, cand, ncand):
        return 0
    return best_play(cand, ncand)


@njit_inline
def choose5_discard(sid, search, params, obs, hand, pile, tab, opts, nopt, rng, work):
    """Index into opts[:nopt] (card ids); ``search`` as in ``choose5_draw``."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    feed_weight = heuristic_param(sid, params, H_FEED_WEIGHT)
    if prices_by_worth(sid, params) and heuristic_param(sid, params, H_DISCARD_5000) > 0:
        look = seat_look(sid, params, obs, hand, pile, tab, work)
        pick = worth_discard5(look, feed_weight, obs, hand, tab, opts, nopt, work)
    else:
        pick = greedy_discard5(feed_weight, obs, hand, tab, opts, nopt, work)
    if sid == SEARCH:
        return searched_discard5(search, params, obs, hand, pile, tab, opts, nopt, pick, rng, work)
    return pick


@njit_inline
def choose5_call(sid, params, obs, hand, pile, tab, opts, nopt, rng, work):
    """Index into opts[:nopt]: 0 = pass, then the pile index a rummy call would take from."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    look = seat_look(sid, params, obs, hand, pile, tab, work)
    return greedy_call5(look, obs, hand, pile, tab, opts, nopt, work)


@njit_inline
def choose5_exchange(sid, params, obs, hand, pile, tab, opts, nopt, rng, work):
    """Index into opts[:nopt]: 0 = keep the hand, then card ids to swap for the upcard (V5K-11)."""
    if sid == RANDOM:
        return random_choice(rng, nopt)
    look = seat_look(sid, params, obs, hand, pile, tab, work)
    return greedy_exchange5(look, min_gain(sid, params), obs, hand, pile, tab, opts, nopt, work)
