"""The rollout's fast model of the rest of a hand, played on one determinized deal.

``rollout`` (strategies/rum500/rollout.py) plays the hand out many times from a decision point.
It cannot call the engine (the engine imports the strategies), so this module plays a simplified
hand with the engine's meld primitives (kernels/rum500/melds.py) and card bitsets
(kernels/common/planes.py). What it simplifies:

* every seat follows one fast policy: take the top discard when it can be put down at once with
  the hand (a joker always), otherwise draw from the stock (``R_STOCK_DRAW`` cards); then meld
  and lay off greedily, highest value first, while anything fits; then discard greedy's card
  (fewest partners, highest value), not the card just taken from the top when another is left;
* no deep takes, rummy calls, out-of-turn melds, floating, opening minimum (V500-OPEN30) or
  new-meld duty; V500-DISCREQ is kept (no play empties the hand, going out is by discard);
* the hand ends when a seat empties its hand or a turn starts on an empty stock (the end-of-stock
  variations all end here), or after ``MAX_TURNS`` turns;
* scoring follows the game's model for the points made from the decision point on (the table
  before it is the same for every candidate): 500 Rum table points minus hand cards (hand cards
  count at a stock-out only with the stock-out penalty; with V500-ADDOPP they go to the player
  who went out instead), Standard Rummy deadwood to the player who went out (RSTD-SCORE-1).
  Bonuses (7-card straight, four aces) are left out.

A *world* is the tuple of arrays returned by ``new_world``; ``W_*`` index its scalar row. It is
allocated once per search; everything that plays on it is compiled without reference counting
(``njit_noalloc``): with it, every call passing the world's seven arrays updated seven counts
twice (issue 19).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit, njit_noalloc
from rummysim.kernels.common.planes import U0, U1, add_card, bit, card_id, has_card, lowest_bit_index, n_cards, remove_card, remove_mask
from rummysim.kernels.rum500.cards import holding_value
from rummysim.kernels.rum500.layout import (
    A_KEY,
    A_LEN,
    A_LO,
    A_MASK,
    A_MELD,
    A_NCARDS,
    A_NJOK,
    A_TYPE,
    A_VALUE,
    ACT_LAYOFF,
    ACT_MELD_SET,
    ACT_STOP,
    DISC_TOP_SINGLE,
    DRAW_STOCK,
    END_OUT,
    END_STOCK,
    END_TURN_CAP,
    GAME_STANDARD,
    JOKER,
    KIND_RUN,
    KIND_SET,
    MAX_CAND,
    MAX_MELDS,
    MAX_PACK,
    MAX_SEATS,
    MK_KEY,
    MK_KIND,
    MK_LEN,
    MK_LO,
    MK_NJOK,
    MK_SIZE,
    MK_SUITS,
    OB_HAND_SIZE,
    OB_MY_JOKERS,
    OB_N,
    OB_N_MELDS,
    OB_PILE_LEN,
    OB_SEAT,
    OB_STOCK,
    OUT_DISCARD_REQUIRED,
    PLAY_ALL,
    R_ADDOPP,
    R_DISC_RESTRICT,
    R_GAME,
    R_GOING_OUT,
    R_STOCK_DRAW,
    R_STOCK_PENALTY,
    R_TOPMUST,
)
from rummysim.kernels.rum500.melds import Table, card_playable, enumerate_plays, has_any_play, layoff_team
from rummysim.strategies.rum500.greedy import card_usefulness

MAX_TURNS = 400
W_STOCK_POS = 0
W_STOCK_LEN = 1
W_PILE_LEN = 2
W_N_MELDS = 3
W_SIZE = 4
NO_STOCK = -2  # draw result: the turn starts on an empty stock
FROM_STOCK = -1  # draw result: drawn from the stock


@njit
def new_world():
    """(hands, jokers, points, stock, pile, melds, scalars) for one play-out."""
    return (np.zeros((MAX_SEATS, 2), dtype=np.uint64), np.zeros(MAX_SEATS, dtype=np.int64),
            np.zeros(MAX_SEATS, dtype=np.int64), np.zeros(MAX_PACK, dtype=np.int16),
            np.zeros(MAX_PACK, dtype=np.int16), np.zeros((MAX_MELDS, MK_SIZE), dtype=np.int16),
            np.zeros(W_SIZE, dtype=np.int64))


@njit_noalloc
def deal_world(w, obs, mine, pile, melds, sample, n_sample):
    """Set the world to the observed position with the hidden cards taken from ``sample`` (a
    shuffled list of the unseen cards): each other seat gets its observed hand size in order, the
    rest is the stock, top first."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    me = obs[OB_SEAT]
    n = obs[OB_N]
    hands[:, :] = 0
    jok[:] = 0
    pts[:] = 0
    hands[me, 0] = mine[0]
    hands[me, 1] = mine[1]
    jok[me] = obs[OB_MY_JOKERS]
    pos = 0
    for i in range(1, n):
        s = (me + i) % n
        for _ in range(obs[OB_HAND_SIZE + s]):
            if pos >= n_sample:
                break
            take_card(hands, jok, s, np.int64(sample[pos]))
            pos += 1
    n_stock = min(n_sample - pos, obs[OB_STOCK])  # equal in a real game
    for i in range(n_stock):
        stock[i] = sample[pos + i]
    ints[W_STOCK_POS] = 0
    ints[W_STOCK_LEN] = n_stock
    pile_len = obs[OB_PILE_LEN]
    for i in range(pile_len):
        wpile[i] = pile[i]
    ints[W_PILE_LEN] = pile_len
    n_melds = obs[OB_N_MELDS]
    for m in range(n_melds):
        for j in range(MK_SIZE):
            wmelds[m, j] = melds[m, j]
    ints[W_N_MELDS] = n_melds


@njit_noalloc
def take_card(hands, jok, seat, c):
    if c == JOKER:
        jok[seat] += 1
    else:
        add_card(hands[seat], c)


@njit_noalloc
def drop_card(hands, jok, seat, c):
    if c == JOKER:
        jok[seat] -= 1
    else:
        remove_card(hands[seat], c)


@njit_noalloc
def suit_bits(mask, rank):
    bits = 0
    for s in range(4):
        if has_card(mask, card_id(s, rank)):
            bits |= 1 << s
    return bits


@njit_noalloc
def put_on_table(wmelds, ints, act):
    """Update the table copy with a meld or lay-off (only the columns the enumeration reads)."""
    mask = np.uint64(act[A_MASK])
    if act[A_TYPE] == ACT_LAYOFF:
        m = act[A_MELD]
        if wmelds[m, MK_KIND] == KIND_SET:
            wmelds[m, MK_SUITS] |= suit_bits(mask, np.int64(wmelds[m, MK_KEY]))
        else:
            wmelds[m, MK_LO] = act[A_LO]
        wmelds[m, MK_LEN] = act[A_LEN]
        wmelds[m, MK_NJOK] += act[A_NJOK]
        return
    m = ints[W_N_MELDS]
    ints[W_N_MELDS] = m + 1
    wmelds[m, :] = 0
    wmelds[m, MK_KEY] = act[A_KEY]
    wmelds[m, MK_LO] = act[A_LO]
    wmelds[m, MK_LEN] = act[A_LEN]
    wmelds[m, MK_NJOK] = act[A_NJOK]
    if act[A_TYPE] == ACT_MELD_SET:
        wmelds[m, MK_KIND] = KIND_SET
        wmelds[m, MK_SUITS] = suit_bits(mask, act[A_KEY])
    else:
        wmelds[m, MK_KIND] = KIND_RUN


@njit_noalloc
def best_fitting_play(cand, n, table_full, hand_count, keep_one):
    """Highest-valued action that fits the table buffer and, with ``keep_one``, leaves a card."""
    best = -1
    best_val = -(1 << 62)
    for i in range(n):
        typ = cand[i, A_TYPE]
        if typ == ACT_STOP or (table_full and typ != ACT_LAYOFF):
            continue
        if keep_one and cand[i, A_NCARDS] >= hand_count:
            continue
        if cand[i, A_VALUE] > best_val:
            best = i
            best_val = cand[i, A_VALUE]
    return best


@njit_noalloc
def next_play(p1, p2, jok, must, table, keep_one, scratch):
    """Row of ``scratch`` with the model's next play from holding (p1, p2, jok) on ``table``, or -1.

    Apart from ``meld_greedily`` because it runs for every play of every play-out: without
    reference counts, the ``Table`` built for each call costs nothing."""
    if must < 0 and not has_any_play(p1, jok, table, scratch):
        return -1
    n = enumerate_plays(p1, jok, must, table, PLAY_ALL, scratch, 0, MAX_CAND)
    return best_fitting_play(scratch, n, table.n_melds >= MAX_MELDS, n_cards(p1, p2, jok), keep_one)


@njit_noalloc
def meld_greedily(w, seat, must, rules, vals, ace_low, scratch):
    """Put down all the seat can, highest value first (the first play contains ``must`` when it is
    a card). Returns True if the hand emptied."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    keep_one = rules[R_GOING_OUT] == OUT_DISCARD_REQUIRED
    while True:
        # the play-out model knows none of Dealer's gambit's joker effects (gambit 0)
        table = Table(wmelds, ints[W_N_MELDS], vals, ace_low, rules, layoff_team(rules, seat), 0)
        i = next_play(hands[seat, 0], hands[seat, 1], jok[seat], must, table, keep_one, scratch)
        if i < 0:
            return False
        remove_mask(hands[seat], np.uint64(scratch[i, A_MASK]))
        jok[seat] -= scratch[i, A_NJOK]
        pts[seat] += scratch[i, A_VALUE]
        put_on_table(wmelds, ints, scratch[i])
        must = -1
        if hands[seat, 0] == U0 and jok[seat] == 0:
            return True


@njit_noalloc
def draw_stock(w, seat, rules):
    """Stock draw (``R_STOCK_DRAW`` cards, fewer if it runs short); NO_STOCK if it is empty."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    if ints[W_STOCK_POS] >= ints[W_STOCK_LEN]:
        return NO_STOCK
    for _ in range(rules[R_STOCK_DRAW]):
        if ints[W_STOCK_POS] >= ints[W_STOCK_LEN]:
            break
        take_card(hands, jok, seat, np.int64(stock[ints[W_STOCK_POS]]))
        ints[W_STOCK_POS] += 1
    return FROM_STOCK


@njit_noalloc
def take_pile(w, seat, k):
    """Take pile[k..top] into the hand; returns the selected card."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    for i in range(k, ints[W_PILE_LEN]):
        take_card(hands, jok, seat, np.int64(wpile[i]))
    ints[W_PILE_LEN] = k
    return np.int64(wpile[k])


@njit_noalloc
def apply_draw(w, seat, opt, pile_len, rules):
    """The seat's draw option ``opt`` (DRAW_STOCK or a pile index) on a dealt world whose pile held
    ``pile_len`` cards; returns (must, forbidden): the card it must put down this turn and the one
    it may not discard (-1 for none)."""
    must = -1
    forbidden = -1
    if opt == DRAW_STOCK:
        draw_stock(w, seat, rules)
    else:
        top = pile_len - 1
        card = take_pile(w, seat, opt)
        if opt < top or rules[R_TOPMUST] != 0:
            must = card  # R500-DRAW-3, V500-TOPMUST
        if opt == top and rules[R_DISC_RESTRICT] == DISC_TOP_SINGLE:
            forbidden = card  # R500-DISC-2
    return must, forbidden


@njit_noalloc
def policy_draw(w, seat, rules, vals, ace_low, scratch):
    """The model's draw: the top discard if it can be put down at once, else the stock. Returns
    the card taken from the pile, FROM_STOCK or NO_STOCK."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    top = ints[W_PILE_LEN] - 1
    if top >= 0:
        c = np.int64(wpile[top])
        if c == JOKER:
            return take_pile(w, seat, top)
        table = Table(wmelds, ints[W_N_MELDS], vals, ace_low, rules, layoff_team(rules, seat), 0)
        if card_playable(c, hands[seat, 0] | bit(c), jok[seat], table, PLAY_ALL, scratch):
            return take_pile(w, seat, top)
    return draw_stock(w, seat, rules)


@njit_noalloc
def policy_discard(w, seat, vals, forbidden):
    """Greedy's discard: fewest partners, then highest value; jokers last; the card just taken
    from the top only if nothing else is left. Returns True if the hand emptied (went out)."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    p1 = hands[seat, 0]
    best = -1
    best_score = 1 << 62
    x = p1
    while x:
        c = lowest_bit_index(x)
        x &= x - U1
        if c == forbidden:
            continue
        score = card_usefulness(p1, c) * 100 - vals[c]
        if score < best_score:
            best = c
            best_score = score
    if best < 0:
        best = JOKER if jok[seat] > 0 else forbidden
    return discard_card(w, seat, best)


@njit_noalloc
def discard_card(w, seat, c):
    """Move card c from the seat's hand to the pile; returns True if the hand emptied (out)."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    drop_card(hands, jok, seat, c)
    wpile[ints[W_PILE_LEN]] = c
    ints[W_PILE_LEN] += 1
    return hands[seat, 0] == U0 and jok[seat] == 0


@njit_noalloc
def finish_turn(w, seat, taken, must, rules, vals, ace_low, scratch):
    """The rest of a turn after its draw: melds, then the discard. Returns True if the seat went out."""
    if meld_greedily(w, seat, must, rules, vals, ace_low, scratch):
        return True
    return policy_discard(w, seat, vals, taken)


@njit_noalloc
def play_rest(w, seat, n, rules, vals, ace_low, scratch):
    """Whole turns from ``seat`` on until the hand ends; returns (end reason, seat out or -1)."""
    for _ in range(MAX_TURNS):
        taken = policy_draw(w, seat, rules, vals, ace_low, scratch)
        if taken == NO_STOCK:
            return END_STOCK, -1
        if finish_turn(w, seat, taken, -1, rules, vals, ace_low, scratch):
            return END_OUT, seat
        seat = (seat + 1) % n
    return END_TURN_CAP, -1


@njit_noalloc
def hand_result(w, me, n, reason, out_seat, rules, vals):
    """Seat ``me``'s score for the rest of the hand minus the mean of the others' (module docstring)."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    others_held = 0
    for s in range(n):
        if s != out_seat:
            others_held += holding_value(vals, hands[s, 0], hands[s, 1], jok[s])
    standard = rules[R_GAME] == GAME_STANDARD
    addopp = rules[R_ADDOPP] != 0
    count_held = reason == END_OUT or rules[R_STOCK_PENALTY] != 0
    mine = 0.0
    others = 0.0
    for s in range(n):
        if standard:
            score = others_held if s == out_seat else 0
        elif addopp:
            score = pts[s] + (others_held if s == out_seat else 0)
        else:
            score = pts[s] - (holding_value(vals, hands[s, 0], hands[s, 1], jok[s]) if count_held else 0)
        if s == me:
            mine = float(score)
        else:
            others += score
    return mine - others / (n - 1)
