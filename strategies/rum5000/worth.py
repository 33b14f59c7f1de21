"""What a card left in hand is worth in 5000 Rummy: the heuristic family's valuation of takes,
rummy calls and upcard exchanges (RULES.md R5K-VAL-1/2, R5K-SCORE-1, R5K-OUT-1).

A card still in hand when the hand ends scores its value against the seat, and in 5000 Rummy that
value is large and uneven: an ace 200, a wild card 100, 200 or 400, other cards 5 or 10. Hands are
short (about three turns a seat, since the first player out ends the hand at once), so a card
left in hand after this turn's plays is more often caught than melded. Its *worth* is

    later_weight * p * v  -  deadwood_weight * (1 - p) * v

with v its value (``Table5.vals``, 5000's values for this hand's wild rank) and p its chance to be
melded before the hand ends: the chance of drawing at least one of its *outs* in the draws the
seat has left. Outs are the unseen cards that would make a meld with the card and what the seat
holds besides it: another card of its rank, a same-suit card one or two positions away (an ace
below the 2 or above the king), or a wild card (R5K-WILD-2). Unseen means not in the seat's hand,
on the table or in the discard pile (2 copies of each card in the pack). The draws left are the
seat's share of the stock, at most ``horizon`` draws per card held by the opponent closest to going
out (R5K-INFO-1; hand sizes unknown in Persian 5000 raise no alarm, V5K-9).

Every card held also costs time: the seat sheds at most one card a turn by discarding, so a hand
of k cards after this turn's plays needs k - 1 more turns to go out, and each of them risks the
hand ending first (about one turn in ``draws``), catching the hand's whole value and losing the
going-out bonus (R5K-OUT-2). ``tempo`` weighs that: ``tempo * (k - 1) * (value + 200) / draws``.

A hand's *cost* is the negated sum of its cards' worth plus its time cost; the take, call and
exchange tests compare the cost of what a greedy play-out leaves in hand with and without the
option (``dispatch.net_gain``), and the stock draw is the mean of that over the unseen cards.
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.rum5000.layout import M_ALIVE, M_CARD, M_LEN, O_HAND_SIZE, O_N, O_SEAT, O_STOCK, UNKNOWN
from rummysim.kernels.rum5000.melds import natural_count, rank_at, wild_count

COPIES = 2  # two 52-card decks (R5K-SETUP-2)
OUT_BONUS = 200  # R5K-OUT-2: going out after the first turn
NO_HORIZON = 1e9  # draws left when nothing bounds them


@njit_noalloc
def count_unseen(unseen, hand, tab, pile, pile_len):
    """unseen[c]: copies of card c not in ``hand``, on the table or in the pile; returns the total."""
    unseen[:] = 0
    for s in range(4):
        for r in range(1, 14):
            unseen[16 * s + r] = COPIES - hand[16 * s + r]
    for i in range(pile_len):
        unseen[pile[i]] -= 1
    melds = tab.melds
    for m in range(tab.n_melds[0]):
        if melds[m, M_ALIVE] == 0:
            continue  # a sequence joined into another: its cards are counted there
        for i in range(melds[m, M_LEN]):
            unseen[melds[m, M_CARD + i]] -= 1
    total = 0
    for c in range(unseen.shape[0]):
        if unseen[c] < 0:
            unseen[c] = 0
        total += unseen[c]
    return total


@njit_noalloc
def draws_left(obs, horizon):
    """Draws the seat expects before the hand ends: its share of the stock, at most ``horizon``
    per card of the opponent closest to going out."""
    n = obs[O_N]
    draws = NO_HORIZON if obs[O_STOCK] == UNKNOWN else obs[O_STOCK] / n
    for s in range(n):
        size = obs[O_HAND_SIZE + s]
        if s != obs[O_SEAT] and size != UNKNOWN:
            draws = min(draws, horizon * size)
    return max(draws, 0.0)


@njit_noalloc
def unseen_natural(unseen, suit, pos, wild):
    """Unseen naturals at sequence position ``pos`` (1..14) of ``suit``; 0 off the suit's ends."""
    if pos < 1 or pos > 14:
        return 0
    r = rank_at(pos)
    return 0 if r == wild else unseen[16 * suit + r]


@njit_noalloc
def unseen_rank(unseen, r):
    return unseen[r] + unseen[16 + r] + unseen[32 + r] + unseen[48 + r]


@njit_noalloc
def holds_natural(hand, suit, pos, wild):
    if pos < 1 or pos > 14:
        return False
    r = rank_at(pos)
    return r != wild and hand[16 * suit + r] > 0


@njit_noalloc
def sequence_outs(hand, unseen, suit, pos, wild, wild_outs, wilds_held):
    """Outs that make a sequence with the natural card at ``pos``: a held neighbour and the card or
    wild card that completes three, or with a held wild card any neighbour."""
    outs = 0
    for d in (-2, -1, 1, 2):
        q = pos + d
        if q < 1 or q > 14:
            continue
        if holds_natural(hand, suit, q, wild):
            if d == 1 or d == -1:
                lo = min(pos, q)
                outs += unseen_natural(unseen, suit, lo - 1, wild) + unseen_natural(unseen, suit, lo + 2, wild)
            else:
                outs += unseen_natural(unseen, suit, (pos + q) // 2, wild)
            outs += wild_outs
        elif wilds_held > 0:
            outs += unseen_natural(unseen, suit, q, wild)
    return outs


@njit_noalloc
def natural_outs(c, hand, unseen, wild, wild_outs):
    """Outs of the natural card c left in ``hand`` (c counted in it)."""
    r = c % 16
    s = c // 16
    partners = natural_count(hand, r, wild) - 1
    wilds_held = wild_count(hand, wild)
    outs = 0
    if partners + wilds_held > 0:
        outs += unseen_rank(unseen, r)  # a group of three
    if partners > 0:
        outs += wild_outs
    outs += sequence_outs(hand, unseen, s, r, wild, wild_outs, wilds_held)
    if r == 1:
        outs += sequence_outs(hand, unseen, s, 14, wild, wild_outs, wilds_held)  # the ace above the king
    return outs


@njit_noalloc
def wild_outs_of(hand, unseen, wild, n_unseen):
    """Outs of a wild card left in ``hand``: with a second wild card any natural makes a group; else
    a card that makes three with it and one held natural card."""
    if wild_count(hand, wild) >= 2:
        return n_unseen
    outs = 0
    for c in range(hand.shape[0]):
        r = c % 16
        if hand[c] == 0 or r == wild or r == 0 or r > 13:
            continue
        outs += hand[c] * unseen_rank(unseen, r)
        for d in (-2, -1, 1, 2):
            outs += hand[c] * unseen_natural(unseen, c // 16, r + d, wild)
            if r == 1:
                outs += hand[c] * unseen_natural(unseen, c // 16, 14 + d, wild)
    return outs


@njit_noalloc
def meld_chance(outs, n_unseen, draws):
    """Chance of drawing at least one of ``outs`` unseen cards in ``draws`` draws."""
    if outs <= 0 or n_unseen <= 0 or draws <= 0:
        return 0.0
    miss = 1.0 - min(outs, n_unseen) / n_unseen
    return 1.0 - miss ** draws


@njit_noalloc
def card_worth(c, hand, unseen, n_unseen, wild, vals, draws, later_weight, deadwood_weight):
    """The worth of one copy of card c left in ``hand``: points it may meld later against the
    points it scores against the seat if the hand ends first."""
    if c % 16 == wild:
        outs = wild_outs_of(hand, unseen, wild, n_unseen)
    else:
        outs = natural_outs(c, hand, unseen, wild, unseen_rank(unseen, wild))
    p = meld_chance(outs, n_unseen, draws)
    v = vals[c]
    return later_weight * p * v - deadwood_weight * (1.0 - p) * v


@njit_noalloc
def turn_risk(value, look):
    """The time cost of one more turn before going out: the chance the hand ends in it, times the
    hand's value and the going-out bonus at stake."""
    return look.tempo * (value + OUT_BONUS) / max(look.draws, 1.0)


@njit_noalloc
def hand_cost(hand, look, vals, wild):
    """The cost of holding ``hand`` (points), by ``look``: a ``dispatch.Look5`` of the unseen cards,
    the draws left and the weights."""
    cost = 0.0
    cards = 0
    value = 0
    for c in range(hand.shape[0]):
        if hand[c] > 0:
            cost -= hand[c] * card_worth(c, hand, look.unseen, look.n_unseen, wild, vals, look.draws,
                                         look.later_weight, look.deadwood_weight)
            cards += hand[c]
            value += hand[c] * vals[c]
    if cards > 1:
        cost += (cards - 1) * turn_risk(value, look)
    return cost
