"""``greedy``: melds and lays off all it can, takes discards when that gains points, and throws
the least useful card of highest value.

In partnership play (V500-PARTNER) it lays off on its partner's melds like on its own (the cards
count for the team) and, with ``team_feed`` > 0, avoids discards that the opponents could lay off
(see :func:`greedy_team_discard`).

Its pile-take test plays the hand out greedily before and after the take: the gain is the extra
points it could put down now, minus ``deadwood_weight`` times the value of taken cards it could
not use (they would sit in hand and count against it). It takes the best option whose gain
exceeds ``min_gain``, else draws from the stock (or, on an empty stock, declines: R500-STOCK-1).
The play-outs are made only for options that may gain (see :func:`cannot_gain`).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.planes import RANK_IN_EACH_SUIT, U1, bit, has_card, popcount, rank_of, suit_of
from rummysim.kernels.rum500.cards import mask_value
from rummysim.kernels.rum500.layout import (
    AG_DEALER_WILD,
    AG_DOUBLE_DEALER,
    A_GAMBIT,
    A_MASK,
    A_NJOK,
    A_TYPE,
    A_VALUE,
    ACT_STOP,
    GB_EFFECT,
    JOKER,
    OB_MY_JOKERS,
    OB_PILE_LEN,
    OB_SEAT,
    PLAY_ALL,
    PLAY_LAYOFF_ONLY,
    R_MAX_POS,
    R_MIN_RUN,
    R_PARTNERSHIP,
)
from rummysim.kernels.rum500.melds import (
    Table,
    best_play, bit_tests_exact, card_playable, has_any_play, layoff_targets, play_exists_on, run_lane,
    without_dealers_joker,
)
from rummysim.strategies.ids import GREEDY_DEADWOOD_WEIGHT, GREEDY_MIN_GAIN, GREEDY_TEAM_FEED


@njit_inline
def best_by_value(cand, n):
    """Row of the highest-valued non-STOP action, or -1."""
    best = -1
    best_val = -(1 << 62)
    for i in range(n):
        if cand[i, A_TYPE] != ACT_STOP and cand[i, A_VALUE] > best_val:
            best = i
            best_val = cand[i, A_VALUE]
    return best


@njit_inline
def _any_play(p1, jok, table, scratch, targets, joker_ok):
    """``has_any_play`` against a fixed table whose ``layoff_targets`` are known."""
    rules = table.rules
    if not bit_tests_exact(rules[R_MAX_POS], table.team, rules[R_PARTNERSHIP], table.gambit):
        return has_any_play(p1, jok, table, scratch)
    return play_exists_on(p1, jok, targets, joker_ok, rules[R_MAX_POS], rules[R_MIN_RUN])


@njit_noalloc
def playout_on(p1, jok, must, table, scratch, targets, joker_ok):
    """``playout`` with the table's ``layoff_targets`` computed by the caller."""
    points = 0
    used = np.uint64(0)
    used_jok = 0
    while True:
        if must < 0 and not _any_play(p1, jok, table, scratch, targets, joker_ok):
            break
        if best_play(p1, jok, must, table, scratch, targets, joker_ok) == 0:
            break
        m = np.uint64(scratch[0, A_MASK])
        points += scratch[0, A_VALUE]
        p1 &= ~m
        used |= m
        jok -= scratch[0, A_NJOK]
        used_jok += scratch[0, A_NJOK]
        must = -1
        if scratch[0, A_GAMBIT] == AG_DEALER_WILD or scratch[0, A_GAMBIT] == AG_DOUBLE_DEALER:
            table = without_dealers_joker(table)  # V500-GAMBIT-7: the dealer's joker goes down once
    return points, used, used_jok


@njit_noalloc
def playout(p1, jok, must, table, scratch):
    """Points greedily put down from (p1, jok) against a fixed table: (points, used mask, jokers)."""
    targets, joker_ok = layoff_targets(table.melds, table.n_melds, table.rules[R_MAX_POS])
    return playout_on(p1, jok, must, table, scratch, targets, joker_ok)


@njit_noalloc
def take_gain_on(params, view, k, must_play, scratch, targets, joker_ok):
    """``take_gain`` with the table's ``layoff_targets`` computed by the caller."""
    obs = view.obs
    mine = view.mine
    pile = view.pile
    vals = view.table.vals
    jok = obs[OB_MY_JOKERS]
    taken = np.uint64(0)
    taken_jok = 0
    for j in range(k, obs[OB_PILE_LEN]):
        c = np.int64(pile[j])
        if c == JOKER:
            taken_jok += 1
        else:
            taken |= bit(c)
    must = np.int64(pile[k]) if must_play else -1
    pts, used, used_jok = playout_on(mine[0] | taken, jok + taken_jok, must, view.table, scratch, targets, joker_ok)
    dead = mask_value(vals, taken & ~used & ~mine[0]) + max(0, taken_jok - used_jok) * vals[JOKER]
    return pts - params[GREEDY_DEADWOOD_WEIGHT] * dead


@njit_noalloc
def take_gain(params, view, k, must_play, scratch):
    """Points a take of the pile from k to the top lets the seat put down now, less the weighted
    value of taken cards it could not use."""
    table = view.table
    targets, joker_ok = layoff_targets(table.melds, table.n_melds, table.rules[R_MAX_POS])
    return take_gain_on(params, view, k, must_play, scratch, targets, joker_ok)


@njit_noalloc
def cannot_gain(weight, best_gain):
    """A take that adds only cards fitting no meld cannot beat ``best_gain``: its gain
    ``(base - weight * dead) - base`` is at most 0 in floating point for any base when the weight
    is not negative (or NaN: no gain at all), so with ``best_gain`` >= 0 it needs no play-out."""
    return not weight < 0 and best_gain >= 0


@njit_noalloc
def greedy_draw(params, view, opts, nopt, scratch):
    obs = view.obs
    mine = view.mine
    table = view.table
    vals = table.vals
    jok = obs[OB_MY_JOKERS]
    top = obs[OB_PILE_LEN] - 1
    weight = params[GREEDY_DEADWOOD_WEIGHT]
    # the table's lay-off targets and the play-out before any take, computed on first use: most
    # draws offer only the stock and a top card that fits nothing, which need neither
    played_out = False
    targets = np.uint64(0)
    joker_ok = False
    base = 0
    best = 0  # opts[0]: the stock, or declining on an empty stock
    best_gain = params[GREEDY_MIN_GAIN]
    for i in range(1, nopt):
        k = opts[i]
        c = np.int64(view.pile[k])
        top_fits_nothing = k == top and c != JOKER and not card_playable(c, mine[0] | bit(c), jok, table, PLAY_ALL, scratch)
        if top_fits_nothing and cannot_gain(weight, best_gain):
            continue
        if not played_out:
            targets, joker_ok = layoff_targets(table.melds, table.n_melds, table.rules[R_MAX_POS])  # the table is fixed here
            base, _, _ = playout_on(mine[0], jok, -1, table, scratch, targets, joker_ok)
            played_out = True
        if top_fits_nothing:
            # a card that fits no meld leaves the play-out as it was: take_gain without replaying it
            dead = 0 if has_card(mine[0], c) else vals[c]
            gain = (base - weight * dead) - base
        else:
            gain = take_gain_on(params, view, k, k < top, scratch, targets, joker_ok) - base
        if gain > best_gain:
            best = i
            best_gain = gain
    return best


@njit_noalloc
def greedy_call(params, view, opts, nopt, scratch):
    """Calls rummy on the claim that gains most, if it gains more than ``min_gain``."""
    base, _, _ = playout(view.mine[0], view.obs[OB_MY_JOKERS], -1, view.table, scratch)
    best = 0
    best_gain = params[GREEDY_MIN_GAIN]
    for i in range(1, nopt):
        gain = take_gain(params, view, opts[i], True, scratch) - base
        if gain > best_gain:
            best = i
            best_gain = gain
    return best


@njit_inline
def card_usefulness(p1, card):
    """Partners of a card in hand: other suits of its rank, and same-suit cards within 2 ranks
    (counted once per position the card can take; twice for a non-ace)."""
    suit = suit_of(card)
    rank = rank_of(card)
    held = np.uint64(p1)
    same_rank = popcount((held >> np.uint64(rank)) & RANK_IN_EACH_SUIT) - np.int64((held >> np.uint64(card)) & U1)
    lane = run_lane(held, suit) & np.uint64(0x7FFE)  # positions 1..14
    near = popcount(lane & _near_positions(rank))
    near += popcount(lane & _near_positions(14)) if rank == 1 else near
    return same_rank + near


@njit_noalloc
def _near_positions(pos):
    """Positions pos-2, pos-1, pos+1 and pos+2 as bits (those below 0 drop off)."""
    return (np.uint64(0x1B) << np.uint64(pos)) >> np.uint64(2)


@njit_noalloc
def discard_cost(mine, vals, c):
    """What throwing card c costs greedy: 100 per partner card in hand, less its value; a joker is
    always kept."""
    if c == JOKER:
        return 1 << 40
    return card_usefulness(mine[0], c) * 100 - vals[c]


@njit_noalloc
def greedy_discard(mine, vals, opts, nopt):
    best = 0
    best_score = 1 << 62
    for i in range(nopt):
        score = discard_cost(mine, vals, opts[i])
        if score < best_score:
            best = i
            best_score = score
    return best


@njit_inline
def greedy_play(cand, n):
    i = best_by_value(cand, n)
    return 0 if i < 0 else i


@njit_inline
def opponents_table(table, seat):
    """The table as the seat's opponents may lay off on it: under V500-PARTNER-1 ``team_only``
    only their own team's melds, else every meld."""
    team = 1 - seat % 2 if table.team >= 0 else -1
    return Table(table.melds, table.n_melds, table.vals, table.ace_low, table.rules, team, table.gambit & GB_EFFECT)


@njit_noalloc
def greedy_team_discard(params, view, opts, nopt, scratch):
    """Greedy's discard in partnership play: the card on the discard pile goes first to the next
    seat, always an opponent, so a card that fits a meld the opponents may lay off on costs
    ``team_feed`` more (a card only the team's own melds take does not)."""
    mine = view.mine
    vals = view.table.vals
    opp = opponents_table(view.table, view.obs[OB_SEAT])
    feed = params[GREEDY_TEAM_FEED]
    best = 0
    best_score = 1 << 62
    for i in range(nopt):
        c = opts[i]
        score = discard_cost(mine, vals, c)
        if c != JOKER and card_playable(c, bit(c), 0, opp, PLAY_LAYOFF_ONLY, scratch):
            score += feed
        if score < best_score:
            best = i
            best_score = score
    return best
