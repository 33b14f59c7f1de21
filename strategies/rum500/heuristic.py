"""``heuristic``: one parametric strategy whose weights cover how deep to take from the pile, when
to hold melds and how to rank discards; ``cautious`` and ``digger`` are points in its space.

Decisions, in terms of the engine's four decision points:

* **Draw / rummy call.** With ``future = 0`` a pile take (or claim) is valued as greedy does: a
  greedy play-out before and after it, the points it lets the seat put down now minus
  ``deadwood_weight`` times the value of the taken cards it cannot use. With ``future = 1`` every
  option is valued by its net expected points after this turn's melds and discard: the points put
  down now, plus the *worth* of every card left in hand, ``later_weight * p * v - deadwood_weight
  * (1 - p) * v`` (v its value, p its chance to meld later), less the least worthy card it may
  discard. p is the chance of drawing at least one of the card's *outs* (unseen cards that would
  complete a set with a held pair, a run with a held neighbour, or a table run two positions away;
  an unseen joker for any of these) in the draws it has left: its share of the stock, at most
  ``horizon`` draws per card of the opponent closest to going out. The stock draw is valued the
  same way, averaged over the unseen cards it may bring. A take is made if it beats the stock draw
  (decline, or pass for a call) by more than ``min_gain`` and brings at most ``max_take`` cards
  (0 = any depth).
* **Play.** The highest-valued meld or lay-off, as greedy, unless ``hold_melds`` is set: then
  the seat stops (keeps its melds in hand, C-MELD-6) while stopping is allowed, until it can go out
  this turn (a greedy play-out leaves at most one card), the stock holds at most ``risk_stock``
  cards or an opponent holds at most ``risk_opp_cards`` cards.
* **Discard.** The card with the lowest ``useful_weight * partners - value_weight * value +
  feed_weight * feeds`` (partners: held cards of its rank or within two ranks in its suit; feeds:
  1 if the card could be laid off on a table meld (in partnership play with ``team_play``, on a
  meld the opponents may lay off on: V500-PARTNER-1), or, with V500-RUMMY ``pile``, would give the
  others a rummy claim they do not have now; this matters when melds are held back, since a
  seat that lays off everything it can has no such card left). Jokers are kept.

With the greedy point (deadwood 1, min_gain 0, max_take 0, future 0, hold 0, feed 0, useful 100,
value 1) every decision is greedy's (tested: identical games).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.planes import (
    ACES_LOW,
    ALL_NATURALS,
    LANE_RANKS,
    RANK_IN_EACH_SUIT,
    U0,
    U1,
    bit,
    has_card,
    lowest_bit_index,
    n_cards,
    popcount,
    rank_of,
    suit_of,
)
from rummysim.kernels.rum500.cards import holding_value
from rummysim.kernels.rum500.layout import (
    A_TYPE,
    ACT_STOP,
    CALL_PILE,
    DISC_ANY_TAKEN,
    DISC_TOP_SINGLE,
    JOKER,
    KIND_RUN,
    KIND_SET,
    MK_KEY,
    MK_KIND,
    MK_LEN,
    MK_LO,
    MK_SUITS,
    OB_EFFECT,
    OB_HAND_SIZE,
    OB_MY_DISCARDS,
    OB_MY_JOKERS,
    OB_N,
    OB_N_MELDS,
    OB_PILE_LEN,
    OB_SEAT,
    OB_STOCK,
    OB_TEAMS,
    PLAY_ALL,
    PLAY_LAYOFF_ONLY,
    R_CALL,
    R_DISC_RESTRICT,
    R_MAX_POS,
    R_MIN_RUN,
    R_PARTNERSHIP,
)
from rummysim.kernels.rum500.melds import (
    bit_tests_exact, card_playable, layoff_targets, natural_playable, play_exists_on, pos_card, rank_lanes,
    run_lane, set_ranks,
)
from rummysim.strategies.rum500.gambit import gambit_best
from rummysim.strategies.rum500.greedy import (
    best_by_value, card_usefulness, greedy_call, greedy_draw, opponents_table, playout, playout_on, take_gain,
)
from rummysim.strategies.ids import (
    H_BLOCK,
    H_DEADWOOD_WEIGHT,
    H_DOUBLE_MIN,
    H_FEED_WEIGHT,
    H_FUTURE,
    H_HOLD_MELDS,
    H_HORIZON,
    H_LATER_WEIGHT,
    H_MAX_TAKE,
    H_MIN_GAIN,
    H_RISK_OPP_CARDS,
    H_RISK_STOCK,
    H_TEAM_PLAY,
    H_USEFUL_WEIGHT,
    H_VALUE_WEIGHT,
)
from rummysim.strategies.rum500.knowledge import unseen_count, unseen_planes

Outlook = namedtuple("Outlook", "unseen0 unseen1 jokers count draws run_ends chances")
"""What the seat may still draw (future = 1): the natural cards it has not seen (count planes 0
and 1), the unseen jokers, how many unseen cards in all, the draws it has left (``draws_left``),
and two things worked out once per decision for the card worths that use them (issue 19): the
``run_ends`` of the table and the ``chances`` of 1..N_CHANCES outs (``chance_table``). Scalars
only: every function here is compiled without reference counting (``njit_noalloc``), which
allocates nothing (issue 19: the counts were 26-61% of the heuristic's time)."""

N_CHANCES = 8  # outs counts whose chance the Outlook holds: more are rare

# ----------------------------------------------------------------------------- chances to meld later


@njit_noalloc
def run_ends(melds, n_melds):
    """Cards at run position hi + 2 or lo - 2 of a table run of their suit (lo..hi): a superset of
    the cards whose outs ``card_outs`` finds on the table, so that it reads the melds only for them."""
    ends = U0
    for m in range(n_melds):
        if melds[m, MK_KIND] != KIND_RUN:
            continue
        suit = np.int64(melds[m, MK_KEY])
        lo = np.int64(melds[m, MK_LO])
        hi = lo + melds[m, MK_LEN] - 1
        if hi + 2 <= 14:
            ends |= bit(pos_card(suit, hi + 2))
        if 1 <= lo - 2 <= 14:
            ends |= bit(pos_card(suit, lo - 2))
    return ends


@njit_noalloc
def near_outs(lane, p):
    """(Run positions that would join position p to a held card one or two positions away, as
    bits shifted up by 2 so that positions -1 and 0 stay bits; whether there is such a card):
    ``card_outs``'s run neighbours, with ``lane`` the held positions 1..max_pos."""
    up = U1 << np.uint64(p)
    near = U0
    if lane & (up << U1):  # held p+1: p-1 or p+2 completes it
        near |= (up << U1) | (up << np.uint64(4))
    if lane & (up >> U1):  # held p-1: p-2 or p+1
        near |= up | (up << np.uint64(3))
    if lane & (up << np.uint64(2)):  # held p+2: p+1
        near |= up << np.uint64(3)
    if lane & (up >> np.uint64(2)):  # held p-2: p-1
        near |= up << U1
    return near, near != U0


@njit_noalloc
def lane_cards(positions, suit, max_pos):
    """The cards of a suit at the run positions 1..max_pos set in ``positions`` (bit p: position
    p); positions 14..26 are ranks A..K again."""
    pos = positions & ((U1 << np.uint64(max_pos + 1)) - U1)
    ranks = (pos & LANE_RANKS) | ((pos >> np.uint64(13)) & LANE_RANKS)
    return ranks << np.uint64(16 * suit)


@njit_noalloc
def card_outs(c, hand, melds, n_melds, rules, ends):
    """(natural outs mask, has structure) for a natural card c that cannot meld now with ``hand``.

    Outs are the cards that would let c meld after one more draw: the missing suits of its rank
    when the hand holds another card of that rank; the run neighbours that would join c to a held
    card one or two positions away; the card between c and a table run ending two positions away.
    ``has structure`` tells whether a joker would also do. ``ends`` is the table's ``run_ends``.
    The run outs are gathered as positions and turned into cards once (issue 19 point 3).
    """
    suit = suit_of(c)
    rank = rank_of(c)
    max_pos = rules[R_MAX_POS]
    outs = U0
    structure = False
    others = (RANK_IN_EACH_SUIT << np.uint64(rank)) & ~bit(c)  # its rank in the other suits
    if np.uint64(hand) & others:
        outs |= others & ~np.uint64(hand)
        structure = True
    lane = run_lane(hand, suit) & ((U1 << np.uint64(max_pos + 1)) - U1)  # held positions 1..max_pos
    high_ace = rank == 1 and max_pos >= 14
    near = U0
    for p in (rank, 14):
        if p == 14 and not high_ace:
            break
        near_p, held_near = near_outs(lane, p)
        near |= near_p
        structure = structure or held_near
        for m in range(n_melds if has_card(ends, c) else 0):
            if melds[m, MK_KIND] != KIND_RUN or melds[m, MK_KEY] != suit:
                continue
            lo = melds[m, MK_LO]
            hi = lo + melds[m, MK_LEN] - 1
            if hi == p - 2:
                near |= U1 << np.uint64(p + 1)  # position p-1
            elif lo == p + 2:
                near |= U1 << np.uint64(p + 3)  # position p+1
    outs |= lane_cards(near >> np.uint64(2), suit, max_pos)
    return outs & ~bit(c), structure


@njit_noalloc
def linked_cards(hand, max_pos, ends):
    """The natural cards that may have outs beside ``hand`` (whether held or not), a superset of
    those whose ``card_outs`` is not (nothing, no structure): a card of their rank held in another
    suit, a card held one or two run positions away, or a table run end (``ends``). The others
    are most cards, and their chance to meld later is 0 without a look (issue 19 point 3)."""
    a, b, c, d = rank_lanes(hand)
    ranks_held = (a | b | c | d) * RANK_IN_EACH_SUIT  # spread over the four suit lanes
    ranks_twice = ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) * RANK_IN_EACH_SUIT
    linked = (ranks_held & ~np.uint64(hand)) | (ranks_twice & np.uint64(hand)) | ends
    valid = (U1 << np.uint64(max_pos + 1)) - U1
    for suit in range(4):
        lane = run_lane(hand, suit) & valid
        near = (lane << U1) | (lane >> U1) | (lane << np.uint64(2)) | (lane >> np.uint64(2))
        linked |= lane_cards(near, suit, max_pos)
    return linked


@njit_noalloc
def draw_chance(count, n_unseen, draws):
    """Chance that one of ``count`` outs among ``n_unseen`` cards comes in ``draws`` draws."""
    miss = 1.0 - min(1.0, count / n_unseen)
    return 1.0 - miss ** draws


@njit_noalloc
def chance_table(n_unseen, draws):
    """``draw_chance`` of 1..N_CHANCES outs, worked out once per decision: the power was a tenth
    of the heuristic's time when every card worth computed its own."""
    if n_unseen <= 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    return (draw_chance(1, n_unseen, draws), draw_chance(2, n_unseen, draws), draw_chance(3, n_unseen, draws),
            draw_chance(4, n_unseen, draws), draw_chance(5, n_unseen, draws), draw_chance(6, n_unseen, draws),
            draw_chance(7, n_unseen, draws), draw_chance(8, n_unseen, draws))


@njit_noalloc
def later_chance(c, hand, melds, n_melds, rules, outlook):
    """Chance that leftover card c melds later: at least one of its outs among ``draws`` cards
    drawn from the unseen ones."""
    n_unseen = outlook.count
    draws = outlook.draws
    if n_unseen <= 0 or draws <= 0.0:
        return 0.0
    if c == JOKER:
        return 1.0 if hand != U0 else 0.0  # a joker joins any pair or neighbours the hand will hold
    outs, structure = card_outs(c, hand, melds, n_melds, rules, outlook.run_ends)
    count = popcount(outs & outlook.unseen0) + popcount(outs & outlook.unseen1)
    if structure:
        count += outlook.jokers
    if count <= 0:
        return 0.0
    if count <= N_CHANCES:
        return outlook.chances[count - 1]
    return draw_chance(count, n_unseen, draws)


# ----------------------------------------------------------------------------- draws and calls


@njit_noalloc
def add_mask(p1, p2, m):
    """Count planes (p1, p2) with one more copy of every card in mask m (``add_card`` on scalars)."""
    return p1 | m, p2 | (p1 & m)


@njit_noalloc
def drop_mask(p1, p2, m):
    """Count planes (p1, p2) less one copy of every card in mask m, each held (``remove_mask``)."""
    return p1 & ~(m & ~p2), p2 & ~m


@njit_noalloc
def taken_cards(pile, k, top):
    """(natural mask, jokers) of pile[k..top]."""
    taken = U0
    jokers = 0
    for j in range(k, top + 1):
        c = np.int64(pile[j])
        if c == JOKER:
            jokers += 1
        else:
            taken |= bit(c)
    return taken, jokers


@njit_noalloc
def card_worth(params, c, hand, table, outlook, linked):
    """Expected points of holding card c: with the chance p that it melds later it scores
    (later_weight), otherwise it is deadwood when the hand ends (deadwood_weight). A natural card
    outside ``linked`` (``linked_cards``) has no outs: its chance is 0 without asking."""
    p = 0.0
    if c == JOKER or has_card(linked, c):
        p = later_chance(c, hand, table.melds, table.n_melds, table.rules, outlook)
    return (params[H_LATER_WEIGHT] * p - params[H_DEADWOOD_WEIGHT] * (1.0 - p)) * table.vals[c]


@njit_noalloc
def hand_worth(params, p1, p2, jok, forbid, forbid_joker, table, outlook):
    """(Summed card worths of a hand after discarding its least worthy card it may discard, that
    least worth) -- the least worth is 0 when nothing may be discarded."""
    linked = linked_cards(p1, table.rules[R_MAX_POS], outlook.run_ends)
    total = 0.0
    worst = 1e300
    x = p1
    while x:
        c = lowest_bit_index(x)
        x &= x - U1
        w = card_worth(params, c, p1, table, outlook, linked)
        total += 2 * w if has_card(p2, c) else w
        if w < worst and not has_card(forbid, c):
            worst = w
    if jok > 0:
        w = card_worth(params, JOKER, p1, table, outlook, linked)
        total += jok * w
        if w < worst and not forbid_joker:
            worst = w
    if worst > 1e299:
        return total, 0.0
    return total - worst, worst


@njit_noalloc
def future_take_value(params, obs, mine, pile, table, k, must_play, scratch, outlook, targets, joker_ok):
    """Expected points after taking the pile from k to the top (future = 1): what the seat puts
    down at once plus the worth of the hand left after this turn's discard. ``targets`` and
    ``joker_ok`` are the table's ``layoff_targets``."""
    top = obs[OB_PILE_LEN] - 1
    taken, taken_jok = taken_cards(pile, k, top)
    p1, p2 = add_mask(mine[0], mine[1], taken)
    jok = obs[OB_MY_JOKERS] + taken_jok
    must = np.int64(pile[k]) if must_play else -1
    pts, used, used_jok = playout_on(p1, jok, must, table, scratch, targets, joker_ok)
    p1, p2 = drop_mask(p1, p2, used)
    forbid = U0
    forbid_joker = False
    restriction = table.rules[R_DISC_RESTRICT]
    if restriction == DISC_ANY_TAKEN or (restriction == DISC_TOP_SINGLE and k == top):
        forbid = taken
        forbid_joker = taken_jok > 0
    jok -= used_jok
    # The hand is valued after the discard this seat will really make (heuristic_discard's
    # choice), not after its least worthy card: valuing a take by a card it then throws away let
    # two seats swap aces through the top discard until the turn cap (issue 18 point 5).
    discard = planned_discard(params, obs, p1, jok, forbid, forbid_joker, pile, k, table, scratch, targets)
    return pts + worth_after_discard(params, p1, p2, jok, discard, table, outlook)


@njit_noalloc
def worth_after_discard(params, p1, p2, jok, discard, table, outlook):
    """Summed card worths of the hand (p1, p2, jok) less one copy of ``discard`` (-1: none)."""
    total, _ = hand_worth(params, p1, p2, jok, ~U0, True, table, outlook)
    if discard < 0:
        return total
    return total - card_worth(params, discard, p1, table, outlook, ~U0)


StockDraw = namedtuple("StockDraw", "known p1 jok worst pending")
"""A stock draw's value in two parts (future = 1): ``known``, the points of the play-out and the
worth of the hand before its discard, and the draw to come (``pending``), whose ``draw_gain``
over the unseen cards, with the hand (p1, jok) after the play-out and its least ``worst``
worth, ``stock_value`` adds. With ``worst <= 0`` that gain is a sum of terms >= 0 (card
values are not negative), so ``known`` bounds the value from below."""


@njit_noalloc
def stock_draw(params, obs, mine, table, scratch, outlook, targets, joker_ok):
    """The ``StockDraw`` of this seat. An empty stock (declining ends the hand, R500-STOCK-1)
    leaves every held card as deadwood. ``targets`` and ``joker_ok`` are the table's
    ``layoff_targets``."""
    jok = obs[OB_MY_JOKERS]
    if obs[OB_STOCK] == 0:
        return StockDraw(-params[H_DEADWOOD_WEIGHT] * holding_value(table.vals, mine[0], mine[1], jok), U0, 0, 0.0, False)
    pts, used, used_jok = playout_on(mine[0], jok, -1, table, scratch, targets, joker_ok)
    p1, p2 = drop_mask(mine[0], mine[1], used)
    jok -= used_jok
    worth, worst = hand_worth(params, p1, p2, jok, U0, False, table, outlook)
    kept = worth + worst  # the hand before its discard
    return StockDraw(pts + kept, p1, jok, worst, outlook.count > 0)


@njit_noalloc
def stock_value(params, table, scratch, outlook, draw):
    """Expected points after a stock draw and this turn's discard (future = 1): the ``StockDraw``
    with its draw's gain averaged over the unseen cards it may bring (``draw_gain``)."""
    if not draw.pending:
        return draw.known
    return draw.known + draw_gain(params, draw.p1, draw.jok, draw.worst, table, scratch, outlook) / outlook.count


@njit_noalloc
def draw_gain(params, p1, jok, worst, table, scratch, outlook):
    """What drawing each unseen card would add to the holding (p1, jok), summed: one that melds
    at once scores its value, another replaces the least worthy card (worth ``worst``) when it is
    worth more."""
    vals = table.vals
    rules = table.rules
    max_pos = rules[R_MAX_POS]
    exact = bit_tests_exact(max_pos, table.team, rules[R_PARTNERSHIP], table.gambit)
    playable = playable_cards(p1, jok, table.melds, table.n_melds, max_pos, rules[R_MIN_RUN]) if exact else U0
    linked = linked_cards(p1, max_pos, outlook.run_ends)  # a card drawn has the outs it has beside p1
    gain = 0.0
    for plane in range(2):
        x = outlook.unseen0 if plane == 0 else outlook.unseen1
        while x:
            u = lowest_bit_index(x)
            x &= x - U1
            if has_card(playable, u) if exact else card_playable(u, p1 | bit(u), jok, table, PLAY_ALL, scratch):
                gain += vals[u] - worst
            else:
                w = card_worth(params, u, p1 | bit(u), table, outlook, linked)
                gain += max(0.0, w - worst)
    w = card_worth(params, JOKER, p1, table, outlook, linked)
    return gain + outlook.jokers * max(0.0, w - worst)


@njit_noalloc
def playable_cards(p1, jok, melds, n_melds, max_pos, min_run):
    """The natural cards c for which ``card_playable(c, p1 | bit(c), jok, ...)`` holds, all at once
    (no round-the-corner runs, as ``natural_playable``; ``bit_tests_exact``): a new set of the
    card's rank, a new run through it, a lay-off on the table. The stock draw asks it of every
    unseen card, ``can_go_out`` of every held one (issue 19 point 3)."""
    return (new_set_cards(p1, jok) | new_run_cards(p1, jok, max_pos, min_run)
            | table_fits(p1, jok, melds, n_melds, max_pos))


@njit_noalloc
def new_set_cards(p1, jok):
    """Cards that make a new set with the holding (p1, jok) and themselves: their rank held in
    ``3 - jok`` suits counting the card, which adds a suit unless it is held already."""
    added = set_ranks(p1, jok + 1) * RANK_IN_EACH_SUIT  # ranks spread over the four suit lanes
    held = set_ranks(p1, jok) * RANK_IN_EACH_SUIT
    return (added & ~np.uint64(p1)) | (held & np.uint64(p1))


@njit_noalloc
def new_run_cards(p1, jok, max_pos, min_run):
    """Cards that make a new run with the holding (p1, jok) and themselves: a window of
    ``min_run`` positions (``run_starts``) through the card whose other positions the held cards
    and jokers fill (the card's own position is filled whether it was held or not)."""
    last = min(13, max_pos - min_run + 1)
    if min_run == 3 and last >= 1:
        return new_runs_of_three(p1, jok, last)
    window = np.uint64((1 << min_run) - 1)
    cards = U0
    for suit in range(4):
        lane = run_lane(p1, suit)
        positions = U0
        for lo in range(1, last + 1):
            w = window << np.uint64(lo)
            gaps = min_run - popcount(lane & w)
            if gaps <= jok:
                positions |= w
            elif gaps - 1 <= jok:
                positions |= w & ~lane  # only a card not held fills one more gap
        cards |= lane_cards(positions, suit, max_pos)
    return cards


@njit_noalloc
def new_runs_of_three(p1, jok, last):
    """``new_run_cards`` for runs of three, every suit at once as ``_runs_possible`` does: the
    windows start at positions 1..last of each suit lane, position 14 is the ace played high, and
    a card at a window's first, middle or last position needs the other two held, less the
    jokers."""
    held = (np.uint64(p1) & ALL_NATURALS) | ((np.uint64(p1) & ACES_LOW) << np.uint64(13))
    starts = ((U1 << np.uint64(last + 1)) - np.uint64(2)) * RANK_IN_EACH_SUIT  # bits 1..last of each lane
    next1 = held >> U1
    next2 = held >> np.uint64(2)
    if jok == 0:
        first, middle, third = starts & next1 & next2, starts & held & next2, starts & held & next1
    elif jok == 1:
        first, middle, third = starts & (next1 | next2), starts & (held | next2), starts & (held | next1)
    else:
        first, middle, third = starts, starts, starts
    positions = first | (middle << U1) | (third << np.uint64(2))
    return (positions & ALL_NATURALS) | ((positions >> np.uint64(13)) & ACES_LOW)


@njit_noalloc
def table_fits(p1, jok, melds, n_melds, max_pos):
    """The natural cards that the holding (p1, jok) with the card itself may put on a table meld,
    as ``natural_playable`` finds them meld by meld (no round-the-corner runs): a missing suit of
    a set of three, and the positions beyond a run's ends whose gap the held cards and jokers
    fill, the run staying 13 long at most. A card's own positions never lie in such a gap, so the
    same mask serves every card drawn."""
    fits = U0
    for m in range(n_melds):
        if melds[m, MK_KIND] == KIND_SET:
            if melds[m, MK_LEN] < 4:
                rank = np.int64(melds[m, MK_KEY])
                missing = ~np.int64(melds[m, MK_SUITS]) & 15
                for s in range(4):
                    if (missing >> s) & 1:
                        fits |= bit(16 * s + rank)
            continue
        suit = np.int64(melds[m, MK_KEY])
        lane = run_lane(p1, suit)
        lo = np.int64(melds[m, MK_LO])
        hi = lo + melds[m, MK_LEN] - 1
        gaps = 0  # positions between the run and p that no held card fills
        for p in range(hi + 1, min(max_pos, lo + 12) + 1):
            if gaps > jok:
                break
            fits |= bit(pos_card(suit, p))
            gaps += 1 - np.int64((lane >> np.uint64(p)) & U1)
        gaps = 0
        for p in range(lo - 1, max(1, hi - 12) - 1, -1):
            if gaps > jok:
                break
            fits |= bit(pos_card(suit, p))
            gaps += 1 - np.int64((lane >> np.uint64(p)) & U1)
    return fits


@njit_noalloc
def draws_left(params, obs):
    """Cards the seat may still draw this hand: its share of the stock, and no more than
    ``horizon`` turns per card of the opponent closest to going out."""
    share = obs[OB_STOCK] / obs[OB_N]
    me = obs[OB_SEAT]
    closest = 1 << 30
    for s in range(obs[OB_N]):  # a partner going out ends the hand too (V500-PARTNER-2)
        if s != me:
            closest = min(closest, obs[OB_HAND_SIZE + s])
    return min(share, params[H_HORIZON] * closest)


@njit_noalloc
def outlook_of(unseen0, unseen1, jokers, draws, melds, n_melds):
    """The ``Outlook`` of these unseen cards, draws left and table."""
    n_unseen = unseen_count(unseen0, unseen1, jokers)
    return Outlook(unseen0, unseen1, jokers, n_unseen, draws, run_ends(melds, n_melds), chance_table(n_unseen, draws))


@njit_noalloc
def seat_outlook(params, view, future):
    """The seat's ``Outlook``; without ``future`` only its draws left are counted (nothing unseen)."""
    draws = draws_left(params, view.obs)
    if not future:
        return Outlook(U0, U0, 0, 0, draws, U0, chance_table(0, draws))
    unseen0, unseen1, jokers = unseen_planes(view)
    return outlook_of(unseen0, unseen1, jokers, draws, view.table.melds, view.obs[OB_N_MELDS])


TakeScan = namedtuple("TakeScan", "future must_play_all outlook targets joker_ok")
"""What ``scan_takes`` needs beside the View, fixed for one draw decision."""

ALL_OPTIONS = ~U0  # a mask of options: bit i for opts[i], bit 63 for opts[63:] together


@njit_noalloc
def best_take(params, view, opts, nopt, scratch, must_play_all):
    """Index of the best option in opts[1:nopt] (pile indexes) if it gains more than min_gain
    over option 0 (stock, decline or pass), else 0."""
    future = params[H_FUTURE] > 0
    # the View's arrays are taken out once: each array read out of a record in an njit function
    # may cost a reference-count update, so the helpers called per option get them one by one
    obs, mine, pile, table = view
    outlook = seat_outlook(params, view, future)
    # the table is fixed for the decision: its lay-off targets serve every play-out (issue 19)
    targets, joker_ok = layoff_targets(table.melds, table.n_melds, table.rules[R_MAX_POS])
    scan = TakeScan(future, must_play_all, outlook, targets, joker_ok)
    if not future:
        base, _, _ = playout_on(mine[0], obs[OB_MY_JOKERS], -1, table, scratch, targets, joker_ok)
        return scan_takes(params, view, opts, nopt, scratch, scan, np.float64(base), ALL_OPTIONS, NO_VALUES)[0]  # one compile
    draw = stock_draw(params, obs, mine, table, scratch, outlook, targets, joker_ok)
    hopeful = ALL_OPTIONS
    values = NO_VALUES
    if draw.pending and draw.worst <= 0.0:
        # The draw's gain is then >= 0, so an option that does not beat ``known`` by more than
        # min_gain cannot beat the stock either (IEEE subtraction is monotone): the gain over the
        # unseen cards, a sixth of a decision's time, is worked out only when some option does,
        # and only those options are scanned again, with the values this scan found for them
        # (issue 19 point 3).
        _, hopeful, values = scan_takes(params, view, opts, nopt, scratch, scan, draw.known, ALL_OPTIONS, NO_VALUES)
        if hopeful == U0:
            return 0
    base = stock_value(params, table, scratch, outlook, draw)
    return scan_takes(params, view, opts, nopt, scratch, scan, base, hopeful, values)[0]


TakeValues = namedtuple("TakeValues", "first first_value second second_value")
"""The values of the first two options (indexes into opts, -1: none) a scan found gaining: a second
scan of the same decision reads them instead of playing those takes out again. One draw decision in
three scans twice, mostly for one option (issue 19 point 3)."""

NO_VALUES = TakeValues(-1, 0.0, -1, 0.0)


@njit_noalloc
def scan_takes(params, view, opts, nopt, scratch, scan, base, options, known):
    """(Index of the best option among opts[1:nopt] in the mask ``options`` that gains more than
    min_gain over ``base``, else 0; the mask of every option scanned that does; the ``TakeValues``
    of the first two of those). The values of the options in ``known`` are not worked out again."""
    obs, mine, pile, table = view
    top = obs[OB_PILE_LEN] - 1
    max_take = params[H_MAX_TAKE]
    best = 0
    best_gain = params[H_MIN_GAIN]
    gaining = U0
    found = NO_VALUES
    for i in range(1, nopt):
        flag = U1 << np.uint64(min(i, 63))
        if not options & flag:
            continue
        k = opts[i]
        if max_take > 0 and top + 1 - k > max_take:
            continue
        if scan.future and k == top and takes_back_own_discard(obs, mine, pile[top], table, scratch):
            continue
        must_play = scan.must_play_all or k < top
        if i == known.first:
            value = known.first_value
        elif i == known.second:
            value = known.second_value
        elif scan.future:
            value = future_take_value(params, obs, mine, pile, table, k, must_play, scratch, scan.outlook,
                                      scan.targets, scan.joker_ok)
        else:  # greedy's take test (H_DEADWOOD_WEIGHT is greedy's deadwood_weight index)
            value = greedy_take_value(params, obs, mine, pile, view, k, must_play, base, scratch)
        gain = value - base
        if gain > params[H_MIN_GAIN]:
            gaining |= flag
            if found.first < 0:
                found = TakeValues(i, value, -1, 0.0)
            elif found.second < 0:
                found = TakeValues(found.first, found.first_value, i, value)
        if gain > best_gain:
            best = i
            best_gain = gain
    return best, gaining, found


@njit_noalloc
def greedy_take_value(params, obs, mine, pile, view, k, must_play, base, scratch):
    """``take_gain`` of the take from k: a top card that fits no meld leaves the play-out as it
    was (``base``), so only its value counts, as in ``greedy_draw``; other takes are played out."""
    c = np.int64(pile[k])
    top = obs[OB_PILE_LEN] - 1
    if k == top and not must_play and c != JOKER and not card_playable(
            c, mine[0] | bit(c), obs[OB_MY_JOKERS], view.table, PLAY_ALL, scratch):
        dead = 0 if has_card(mine[0], c) else view.table.vals[c]
        return base - params[H_DEADWOOD_WEIGHT] * dead
    return take_gain(params, view, k, must_play, scratch)


@njit_noalloc
def takes_back_own_discard(obs, mine, c, table, scratch):
    """The top card is one this seat discarded earlier this hand and it cannot play it now. Taking
    it back for its worth later is refused: the worth of a card shifts with what is seen, so two
    seats valuing cards that way could otherwise trade the same cards through the top discard
    until the turn cap (issue 18 point 5)."""
    c = np.int64(c)
    if c == JOKER or not has_card(np.uint64(obs[OB_MY_DISCARDS]), c):
        return False
    return not card_playable(c, mine[0] | bit(c), obs[OB_MY_JOKERS], table, PLAY_ALL, scratch)


@njit_noalloc
def takes_as_greedy(params):
    """Without ``future`` nor a take limit the take test is greedy's own (H_DEADWOOD_WEIGHT and
    H_MIN_GAIN are greedy's indexes), and greedy's functions decide, with greedy's shortcuts: its
    draw plays the hand out only when some option can gain (issue 19 point 3)."""
    return params[H_FUTURE] <= 0 and params[H_MAX_TAKE] <= 0


@njit_noalloc
def discards_as_greedy(params):
    """With greedy's discard weights (100 a partner card, 1 a point of value), no feed penalty and
    no melds held, ``heuristic_discard`` scores every card as greedy's integer ``discard_cost``
    does (the products are exact in floating point) and keeps the first of equals as it does, so
    greedy's function decides (issue 19 point 3: the dispatch cost a call with the whole View)."""
    return (params[H_USEFUL_WEIGHT] == 100.0 and params[H_VALUE_WEIGHT] == 1.0 and params[H_FEED_WEIGHT] == 0.0
            and params[H_HOLD_MELDS] <= 0)


@njit_noalloc
def heuristic_draw(params, view, opts, nopt, scratch):
    if takes_as_greedy(params):
        return greedy_draw(params, view, opts, nopt, scratch)
    return best_take(params, view, opts, nopt, scratch, False)


@njit_noalloc
def heuristic_call(params, view, opts, nopt, scratch):
    if takes_as_greedy(params):
        return greedy_call(params, view, opts, nopt, scratch)
    return best_take(params, view, opts, nopt, scratch, True)


# ----------------------------------------------------------------------------- plays


@njit_noalloc
def opponent_close(obs, limit):
    """Some other seat holds at most ``limit`` cards (0 when it has gone out or floats); a partner
    counts too, since any player going out ends the hand (V500-PARTNER-2)."""
    me = obs[OB_SEAT]
    for s in range(obs[OB_N]):
        if s != me and obs[OB_HAND_SIZE + s] <= limit:
            return True
    return False


@njit_noalloc
def can_go_out(obs, mine, table, scratch):
    """A greedy play-out of the hand leaves at most one card (to discard). Where the bit tests
    hold, a hand with some play but two cards that fit none is refused without the play-out,
    which puts down only cards that fit a play of the whole hand (issue 19 point 3: a seat
    holding its melds asks this every turn)."""
    p1 = mine[0]
    jok = obs[OB_MY_JOKERS]
    held = n_cards(p1, mine[1], jok)
    rules = table.rules
    max_pos = rules[R_MAX_POS]
    if not bit_tests_exact(max_pos, table.team, rules[R_PARTNERSHIP], table.gambit):
        _, used, used_jok = playout(p1, jok, -1, table, scratch)
        return held - popcount(used) - used_jok <= 1
    targets, joker_ok = layoff_targets(table.melds, table.n_melds, max_pos)
    if not play_exists_on(p1, jok, targets, joker_ok, max_pos, rules[R_MIN_RUN]):
        return held <= 1  # the play-out would put nothing down
    if held - popcount(p1 & playable_cards(p1, jok, table.melds, table.n_melds, max_pos, rules[R_MIN_RUN])) - jok > 1:
        return False
    _, used, used_jok = playout_on(p1, jok, -1, table, scratch, targets, joker_ok)
    return held - popcount(used) - used_jok <= 1


@njit_noalloc
def time_to_lay(params, obs, mine, table, scratch):
    """Held melds go down once the risk of being caught with them grows, or to go out."""
    if obs[OB_STOCK] <= params[H_RISK_STOCK]:
        return True
    if opponent_close(obs, params[H_RISK_OPP_CARDS]):
        return True
    return can_go_out(obs, mine, table, scratch)


@njit_noalloc
def heuristic_play(params, view, cand, ncand, scratch):
    if view.obs[OB_EFFECT] != 0:  # Dealer's gambit: doubling and blocking (strategies.rum500.gambit)
        i = gambit_best(cand, ncand, view.obs, params[H_DOUBLE_MIN], params[H_BLOCK])
    else:
        i = best_by_value(cand, ncand)
    if i < 0:
        return 0
    stop_allowed = cand[0, A_TYPE] == ACT_STOP
    if stop_allowed and heuristic_holds(params, view, scratch):
        return 0
    return i


@njit_noalloc
def heuristic_holds(params, view, scratch):
    """The seat keeps its melds in hand this turn: offered STOP, ``heuristic_play`` picks it
    whatever else is offered, so the engine asks this before it lists the plays (issue 19 point 3:
    listing them was most of a holding seat's time)."""
    return params[H_HOLD_MELDS] > 0 and not time_to_lay(params, view.obs, view.mine, view.table, scratch)


# ----------------------------------------------------------------------------- discards


@njit_noalloc
def layoff_fits(c, table, scratch, targets):
    """The card could be laid off on a table meld (what a lay-off or a top-card call needs).

    Where the play-existence bit tests hold (``bit_tests_exact``) a single card fits exactly the
    table's ``targets`` (``feed_targets``: a set of three missing its suit, the position next to a
    run's end); else the enumeration is asked (tested against it on random tables)."""
    rules = table.rules
    if bit_tests_exact(rules[R_MAX_POS], table.team, rules[R_PARTNERSHIP], table.gambit):
        return has_card(targets, c)
    return card_playable(c, bit(c), 0, table, PLAY_LAYOFF_ONLY, scratch)


@njit_noalloc
def feed_targets(params, table):
    """The table's ``layoff_targets`` for ``layoff_fits``, once per discard choice (0 without a
    feed penalty, which never asks)."""
    if params[H_FEED_WEIGHT] == 0:
        return U0
    targets, _ = layoff_targets(table.melds, table.n_melds, table.rules[R_MAX_POS])
    return targets


@njit_noalloc
def opens_pile_claim(c, pile, pile_len, table, scratch):
    """With c on top of the pile, some pile card becomes claimable (V500-RUMMY pile) that was not:
    it can be put down with the cards above it, c included."""
    with_c = bit(c)
    without = U0
    jok = 0
    for k in range(pile_len - 1, -1, -1):
        d = np.int64(pile[k])
        if d == JOKER:
            jok += 1
        else:
            with_c |= bit(d)
            without |= bit(d)
        if card_playable(d, with_c, jok, table, PLAY_ALL, scratch):
            if not card_playable(d, without, jok, table, PLAY_ALL, scratch):
                return True
    return False


@njit_noalloc
def feeds_opponents(params, obs, c, pile, pile_len, table, scratch, targets):
    """The card on the pile would help the next seat: it fits a meld that seat may lay off on
    (with ``team_play`` in partnership play, the opponents' lay-off rights, V500-PARTNER-1), or
    opens a rummy claim."""
    if obs[OB_TEAMS] != 0 and params[H_TEAM_PLAY] > 0:
        table = opponents_table(table, obs[OB_SEAT])
    if layoff_fits(c, table, scratch, targets):
        return True
    if table.rules[R_CALL] == CALL_PILE:
        return opens_pile_claim(c, pile, pile_len, table, scratch)
    return False


@njit_inline
def discard_score(params, obs, p1, c, pile, pile_len, table, scratch, targets):
    """How much the seat wants to keep card c of hand p1 (the lowest score is discarded): its
    partners in hand, less its value, plus the feed penalty; a joker is always kept."""
    if c == JOKER:
        return 1e200
    score = params[H_USEFUL_WEIGHT] * card_usefulness(p1, c) - params[H_VALUE_WEIGHT] * table.vals[c]
    if params[H_FEED_WEIGHT] != 0 and feeds_opponents(params, obs, c, pile, pile_len, table, scratch, targets):
        score += params[H_FEED_WEIGHT]
    return score


@njit_noalloc
def planned_discard(params, obs, p1, jok, forbid, forbid_joker, pile, pile_len, table, scratch, targets):
    """The card heuristic_discard would throw from hand (p1, jok) over pile[:pile_len], leaving
    out the forbidden ones; -1 when none may go. ``targets``: the table's ``layoff_targets``,
    which the feed test reads (``feed_targets``), worked out once per decision by the caller."""
    best = -1
    best_score = 1e300
    x = p1 & ~forbid
    while x:
        c = lowest_bit_index(x)
        x &= x - U1
        score = discard_score(params, obs, p1, c, pile, pile_len, table, scratch, targets)
        if score < best_score:
            best = c
            best_score = score
    if jok > 0 and not forbid_joker and 1e200 < best_score:
        best = JOKER
    return best


@njit_noalloc
def heuristic_discard(params, view, opts, nopt, scratch):
    obs, mine, pile, table = view
    targets = feed_targets(params, table)
    best = best_discard(params, obs, mine[0], opts, nopt, pile, table, scratch, targets, U0)
    if params[H_HOLD_MELDS] > 0:
        # A seat holding its melds back keeps them whole: the take test valued a pile card by the
        # meld it completes, and breaking that meld again let seats swap a card through the top
        # discard until the turn cap (issue 18 point 5). The play-out only holds cards that fit
        # some play, so a best card that fits none stays best without it (issue 19 point 3).
        if may_be_held(np.int64(opts[best]), mine[0], obs[OB_MY_JOKERS], table):
            _, held, _ = playout(mine[0], obs[OB_MY_JOKERS], -1, table, scratch)
            best = best_discard(params, obs, mine[0], opts, nopt, pile, table, scratch, targets, held)
    return best


@njit_noalloc
def may_be_held(c, p1, jok, table):
    """Card c may be among the cards a play-out of the holding (p1, jok) puts down: it is a natural
    card that fits some play of the whole holding (``natural_playable``; a play-out of fewer cards
    fits no more). Where the bit tests do not hold, any card may be."""
    rules = table.rules
    max_pos = rules[R_MAX_POS]
    if c == JOKER or not bit_tests_exact(max_pos, table.team, rules[R_PARTNERSHIP], table.gambit):
        return True
    return natural_playable(c, p1, jok, table.melds, table.n_melds, max_pos, rules[R_MIN_RUN])


@njit_noalloc
def best_discard(params, obs, p1, opts, nopt, pile, table, scratch, targets, held):
    """Index of the option with the lowest ``discard_score`` (the first of equals), the natural
    cards of ``held`` put after every other."""
    best = 0
    best_score = 1e300
    for i in range(nopt):
        c = np.int64(opts[i])
        score = discard_score(params, obs, p1, c, pile, obs[OB_PILE_LEN], table, scratch, targets)
        if c != JOKER and has_card(held, c):
            score += 1e100
        if score < best_score:
            best = i
            best_score = score
    return best
