"""One turn of a seat: the draw, the play phase and the discard (C-TURN-2), and rummy-call turns.

The legal draws (R500-DRAW-1..6, R500-STOCK-1), stock draws and pile takes with the duties
they set, the candidate plays (STOP, melds, lay-offs), the legal discards, going out or floating,
V500-UPCHOICE's start of the pile, and Dealer's gambit's split takes and blocks
(``kernels.rum500.gambit``). Every decision goes to ``strategies.dispatch`` with the
seat's observation. The flow functions take the game context ``g`` and ``stack`` (see
``kernels.rum500.engine``).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.planes import add_card, bit, lowest_bit_index, remove_mask
from rummysim.kernels.common.trace import record
from rummysim.kernels.rum500.deal import reshuffle
from rummysim.kernels.rum500.gambit import add_block, apply_block, apply_split, block_allowed, split_point
from rummysim.kernels.rum500.duties import (
    TurnEnd, finish_ok, forbidden_discards, mark_opened, opening_need, reset_turn, take_end, take_forbidden, turn_end,
)
from rummysim.kernels.rum500.layout import (
    ACT_BLOCK, ACT_STOP, A_NCARDS, A_TYPE, R_GAMBIT, CALL_LAYOFF, DISC_TOP_SINGLE, DRAW_NONE, DRAW_STOCK, END_IDLE,
    END_OUT, END_STOCK, END_STOCK_END, EOS_DISCARD_UNTIL_OUT, EOS_END_IMMEDIATELY, EOS_RESHUFFLE,
    JOKER, MAX_CAND, OUT_FLOATING, PLAY_ALL, PLAY_LAYOFF_ONLY, PLAY_NEW_ONLY, R_CALL, R_DEEP_TAKES,
    R_DISC_RESTRICT, R_END_OF_STOCK, R_GOING_OUT, R_IDLE_TURNS, R_NEW_MELD_ONLY, R_SEVEN_BONUS,
    R_STOCK_DRAW, R_TOPMUST, R_UNPLAYABLE, ST_BONUS, ST_CALLS, ST_DEEP_TAKES, ST_DISCARDED, ST_FLOATS, ST_IDLE,
    ST_JOKERS, ST_LONG_RUN, ST_MUST_CARD, ST_NEW_ONLY, ST_NO_DISCARD, ST_PILE_LEN,
    ST_PLACED, ST_PLACED_VALUE, ST_SEAT, ST_STOCK_DRAWN, ST_STOCK_POS, ST_TAKEN_JOKER,
    ST_TAKEN_MASK, ST_TURN, T_DISCARD, T_DRAW_STOCK, T_FLOAT, T_LAYOFF, T_NO_DRAW, T_OUT_OF_TURN,
    T_START_PILE, T_TAKE_PILE, T_TURN_START,
)
from rummysim.kernels.rum500.melds import best_play, enumerate_plays, has_any_play
from rummysim.kernels.rum500.opening import action_allowed, must_play_possible
from rummysim.kernels.rum500.table import apply_play, layoff_target_exists
from rummysim.kernels.rum500.view import hand_size, seat_view, stock_size, table_of
from rummysim.strategies.rum500.dispatch import (
    choose_discard, choose_draw, choose_hold, choose_play, may_hold, plays_highest,
)

TURN_NORMAL = 0
TURN_CALL = 1  # a rummy-call turn (V500-RUMMY-3)


@njit_inline
def draw_options(st, hands, pile, table, seat, opts, scratch, stack, budget):
    """Legal draws (R500-DRAW-1..6, R500-STOCK-1, RSTD-DRAW-1) into ``opts``: stock or decline,
    then the pile indexes that may be taken."""
    rules = table.rules
    n = 0
    opts[n] = DRAW_STOCK if stock_size(st) > 0 else DRAW_NONE
    n += 1
    top = st[ST_PILE_LEN] - 1
    if top < 0:
        return n
    need = opening_need(st, rules, seat)
    scope = PLAY_NEW_ONLY if rules[R_NEW_MELD_ONLY] != 0 else PLAY_ALL
    a1 = hands[seat, 0]  # the holding after taking pile[k..top]
    a2 = hands[seat, 1]
    ajok = st[ST_JOKERS + seat]
    taken = np.uint64(0)
    taken_jok = 0
    lowest = 0 if rules[R_DEEP_TAKES] != 0 else top
    for k in range(top, lowest - 1, -1):
        c = np.int64(pile[k])
        if c == JOKER:
            ajok += 1
            taken_jok += 1
        else:
            b = bit(c)
            a2 |= a1 & b
            a1 |= b
            taken |= b
        end = take_end(rules, k == top, taken, taken_jok)
        # R500-DRAW-2: the top card carries no duty, but C-LEGAL-1 needs a card left to discard
        # (or to lay down); every other take must play its card
        free_top = k == top and rules[R_TOPMUST] == 0
        keeps_a_card = TurnEnd(end.forb, end.forb_joker, False)
        ok = (free_top and finish_ok(a1, ajok, keeps_a_card)) or must_play_possible(
            c, a1, a2, ajok, end, need, table, PLAY_ALL if free_top else scope, scratch, stack, budget)
        if ok:
            opts[n] = k
            n += 1
    return n


@njit_inline
def draw_from_stock(st, hands, pack, rules, seat, trace):
    """A stock draw: one card, or two under V500-BOATHOUSE (fewer if the stock runs short)."""
    for _ in range(rules[R_STOCK_DRAW]):
        if stock_size(st) == 0:
            break
        c = np.int64(pack[st[ST_STOCK_POS]])
        st[ST_STOCK_POS] += 1
        st[ST_STOCK_DRAWN] += 1
        if c == JOKER:
            st[ST_JOKERS + seat] += 1
        else:
            add_card(hands[seat], c)
        record(trace, st, T_DRAW_STOCK, seat, c, 0, 0, 0, 0, 0)


@njit_inline
def take_from_pile(st, hands, pile, rules, seat, k, is_call, split, trace):
    """Take pile[k..top] (C-PILE-4) and set the duties that come with it.

    A rummy call must always play card k (V500-RUMMY-3); V500-NEWMELD narrows draws only. After a
    split (``split``: ``gambit.apply_split`` closed the pile up) the take was from below the top,
    so card k must be played even when it is now the top card (V500-GAMBIT-6).
    """
    top = st[ST_PILE_LEN] - 1
    taken = np.uint64(0)
    taken_jok = 0
    for i in range(k, top + 1):
        c = np.int64(pile[i])
        if c == JOKER:
            st[ST_JOKERS + seat] += 1
            taken_jok += 1
        else:
            add_card(hands[seat], c)
            taken |= bit(c)
    sel = np.int64(pile[k])
    record(trace, st, T_TAKE_PILE, seat, k, top + 1 - k, sel, 0, 0, 0)
    st[ST_PILE_LEN] = k
    top_single = k == top and not split
    forb, forb_joker = take_forbidden(rules, top_single, taken, taken_jok)
    st[ST_TAKEN_MASK] = np.int64(forb)
    st[ST_TAKEN_JOKER] = 1 if forb_joker else 0
    if top_single and rules[R_DISC_RESTRICT] == DISC_TOP_SINGLE:
        st[ST_NO_DISCARD] = sel  # R500-DISC-2
    if not top_single:
        st[ST_DEEP_TAKES] += 1
    if is_call:
        st[ST_MUST_CARD] = sel
    elif not top_single or rules[R_TOPMUST] != 0:
        st[ST_MUST_CARD] = sel  # R500-DRAW-3, C-TURN-4, V500-TOPMUST
        st[ST_NEW_ONLY] = rules[R_NEW_MELD_ONLY]  # V500-NEWMELD


@njit_inline
def copy_row(cand, dst, src):
    """cand[dst] = cand[src], element by element (a slice copy would allocate a temporary)."""
    for j in range(cand.shape[1]):
        cand[dst, j] = cand[src, j]


@njit_inline
def play_scope(st, scope):
    """The scope of the plays offered: a must-card taken under V500-NEWMELD goes into a new meld."""
    if st[ST_MUST_CARD] >= 0 and st[ST_NEW_ONLY] != 0:
        return PLAY_NEW_ONLY
    return scope


@njit_inline
def stop_candidate(st, hands, table, seat, scope, cand):
    """STOP into row 0 when the seat may stop now; returns the rows written (0 or 1)."""
    rules = table.rules
    need = opening_need(st, rules, seat)
    placed = st[ST_PLACED_VALUE]
    jok = st[ST_JOKERS + seat]
    end = turn_end(st, rules)
    # nothing down yet (by cards: under Dealer's gambit a joker meld may be worth 0), or the opening met
    opening_done = need <= 0 or st[ST_PLACED] == 0 or placed >= need
    # C-LEGAL-1: stopping needs a card that may be discarded (out-of-turn windows discard nothing)
    can_end = finish_ok(hands[seat, 0], jok, end) or play_scope(st, scope) == PLAY_NEW_ONLY
    if st[ST_MUST_CARD] < 0 and opening_done and can_end:
        cand[0, :] = 0
        cand[0, A_TYPE] = ACT_STOP
        return 1
    return 0


@njit_inline
def plays_to_list(st, hands, table, seat, scope, cand):
    """Some play may be offered: always with a must-card or a narrowed scope, else when the
    holding has any play at all (the common turn has none, and needs no enumeration)."""
    if st[ST_MUST_CARD] >= 0 or scope != PLAY_ALL:
        return True
    return has_any_play(hands[seat, 0], st[ST_JOKERS + seat], table, cand[1:])


@njit_inline
def play_candidates(st, hands, table, seat, scope, cand, stack, budget):
    """Candidate plays into ``cand``: STOP (when allowed), then canonical melds and lay-offs that
    keep the turn finishable (C-LEGAL-1), contain a pending must-card (C-TURN-4) and can still
    meet a pending opening (V500-OPEN30). This is the list a seat is offered; ``pick_play`` builds
    it from the same parts, or finds the seat's pick without it."""
    n = stop_candidate(st, hands, table, seat, scope, cand)
    if not plays_to_list(st, hands, table, seat, scope, cand):
        return n
    return listed_plays(st, hands, table, seat, scope, cand, n, stack, budget)


@njit_inline
def listed_plays(st, hands, table, seat, scope, cand, first, stack, budget):
    """``play_candidates`` after its STOP row: the plays allowed, into ``cand`` from row ``first``."""
    rules = table.rules
    must = st[ST_MUST_CARD]
    scope = play_scope(st, scope)
    need = opening_need(st, rules, seat)
    placed = st[ST_PLACED_VALUE]
    p1 = hands[seat, 0]
    p2 = hands[seat, 1]
    jok = st[ST_JOKERS + seat]
    end = turn_end(st, rules)
    n = enumerate_plays(p1, jok, must, table, scope, cand, first, MAX_CAND)
    keep = first
    for i in range(first, n):
        if action_allowed(p1, p2, jok, cand[i], end, need, placed, table, scope, stack, budget):
            if keep != i:
                copy_row(cand, keep, i)
            keep += 1
    return keep


@njit_inline
def discard_options(st, hands, rules, seat, opts):
    """Cards the seat may discard (R500-DISC-1/2, V500-DISCSAME); one entry per distinct card."""
    forb, forb_joker = forbidden_discards(st, rules)
    n = 0
    x = hands[seat, 0] & ~forb
    while x:
        opts[n] = lowest_bit_index(x)
        n += 1
        x &= x - np.uint64(1)
    if st[ST_JOKERS + seat] > 0 and not forb_joker:
        opts[n] = JOKER
        n += 1
    return n


@njit_inline
def apply_discard(st, hands, pile, seat, card, trace):
    if card == JOKER:
        st[ST_JOKERS + seat] -= 1
    else:
        remove_mask(hands[seat], bit(card))
        st[ST_DISCARDED + seat] = np.int64(np.uint64(st[ST_DISCARDED + seat]) | bit(card))
    pile[st[ST_PILE_LEN]] = card
    st[ST_PILE_LEN] += 1
    record(trace, st, T_DISCARD, seat, card, 0, 0, 0, 0, 0)


@njit_inline
def single_card_plays(cand, n):
    keep = 0
    for i in range(n):
        if cand[i, A_TYPE] != ACT_STOP and cand[i, A_NCARDS] == 1:
            copy_row(cand, keep, i)
            keep += 1
    return keep


@njit_inline
def highest_allowed(st, hands, table, seat, scope, cand, first, stack, budget):
    """Row ``first`` of ``cand`` := the first play of the highest value the seat may make, found
    without listing: the enumeration's first play of the highest value (``best_play``), when it is
    allowed, is the first of the highest among the allowed plays too. Returns False when there is
    no play, or that one is not allowed (then the plays must be listed)."""
    if play_scope(st, scope) != PLAY_ALL:
        return False
    p1 = hands[seat, 0]
    jok = st[ST_JOKERS + seat]
    # no lay-off targets are known here: every lay-off is looked for
    if best_play(p1, jok, st[ST_MUST_CARD], table, cand[first:], ~np.uint64(0), True) == 0:
        return False
    rules = table.rules
    return action_allowed(p1, hands[seat, 1], jok, cand[first], turn_end(st, rules), opening_need(st, rules, seat),
                          st[ST_PLACED_VALUE], table, PLAY_ALL, stack, budget)


@njit_inline
def pick_play(g, stack, seat, scope, single):
    """Row of ``cand`` the seat plays next (STOP included), or -1 when there is nothing to pick.

    Two decisions need no list of plays (issue 19 point 3): a seat that keeps its melds in hand
    (``choose_hold``) picks STOP whatever it is offered, and a seat that picks the first play of
    the highest value (``plays_highest``) picks the one ``highest_allowed`` finds.
    """
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    sid = lineup[seat]
    table = table_of(g, seat)
    ncand = stop_candidate(st, hands, table, seat, scope, cand)
    if plays_to_list(st, hands, table, seat, scope, cand):
        if ncand == 1 and single == 0 and may_hold(family, sid, params[seat]) and choose_hold(
                family, sid, params[seat], seat_view(g, seat), scratch):
            return 0
        if single == 0 and rules[R_GAMBIT] == 0 and plays_highest(family, sid) and highest_allowed(
                st, hands, table, seat, scope, cand, ncand, stack, budget):
            return ncand
        ncand = listed_plays(st, hands, table, seat, scope, cand, ncand, stack, budget)
    if single != 0:
        ncand = single_card_plays(cand, ncand)  # V500-RUMMY-6: that one card, nothing else
    elif stack is not None and block_allowed(st, hands, rules, seat):
        ncand = add_block(cand, ncand)  # V500-GAMBIT-8
    if ncand == 0:
        return -1
    return choose_play(family, sid, params[seat], seat_view(g, seat), cand, ncand, rngs[seat], scratch)


@njit_inline
def play_phase(g, stack, seat, scope, single):
    """Plays until the strategy stops (R500-MELD-7). Returns True if the hand emptied.

    ``single``: exactly one play (a ``layoff_only`` rummy call). Out-of-turn windows record
    OUT_OF_TURN before their first meld.
    """
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    announced = False
    while True:
        pick = pick_play(g, stack, seat, scope, single)
        if pick < 0 or cand[pick, A_TYPE] == ACT_STOP:
            return False
        if stack is not None and cand[pick, A_TYPE] == ACT_BLOCK:
            apply_block(st, seat, trace)
            continue
        if scope == PLAY_NEW_ONLY and not announced and st[ST_MUST_CARD] < 0 and single == 0:
            record(trace, st, T_OUT_OF_TURN, seat, 0, 0, 0, 0, 0, 0)
            announced = True
        apply_play(st, hands, melds, rules, seat, cand[pick], seat, trace, T_LAYOFF)
        if hand_size(st, hands, seat) == 0:
            return True
        if single != 0:
            return False


@njit_inline
def end_of_play(g, seat, emptied):
    """After the plays: going out by laying down (R500-OUT-1) or floating (V500-FLOAT-1)."""
    st = g.st
    rules = g.rules
    trace = g.trace
    if not emptied:
        return 0, False
    if rules[R_GOING_OUT] == OUT_FLOATING:
        record(trace, st, T_FLOAT, seat, 0, 0, 0, 0, 0, 0)
        st[ST_FLOATS] += 1
        return 0, True
    return END_OUT, True


@njit_noalloc
def play_turn(g, stack, seat, kind, call_k):
    """One turn (C-TURN-2), or a rummy-call turn taking pile[call_k..] (V500-RUMMY-3).

    Returns (hand-end reason or 0, discarded): ``discarded`` tells whether the turn ended with a
    discard that opens the call and out-of-turn windows.
    """
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    sid = lineup[seat]
    reset_turn(st)
    record(trace, st, T_TURN_START, seat, st[ST_TURN], stock_size(st), st[ST_PILE_LEN], kind, 0, 0)
    scope = PLAY_ALL
    single = 0
    eos = rules[R_END_OF_STOCK]
    if stack is not None and kind == TURN_CALL:
        take_from_pile(st, hands, pile, rules, seat, call_k, True, False, trace)
        st[ST_CALLS] += 1
        if rules[R_CALL] == CALL_LAYOFF:
            scope = PLAY_LAYOFF_ONLY  # V500-RUMMY-6: lay the card off, nothing else
            single = 1
        empty_at_start = False
    else:
        if stack is not None and stock_size(st) == 0 and eos == EOS_RESHUFFLE and st[ST_PILE_LEN] >= 2:
            reshuffle(g, seat)
        empty_at_start = stock_size(st) == 0
        if empty_at_start and eos == EOS_DISCARD_UNTIL_OUT:
            record(trace, st, T_NO_DRAW, seat, 1, 0, 0, 0, 0, 0)  # AMB-16: draws are over
            if hand_size(st, hands, seat) == 0:
                record(trace, st, T_FLOAT, seat, 0, 0, 0, 0, 0, 0)
                return 0, False
        else:
            nopt = draw_options(st, hands, pile, table_of(g, seat), seat, opts, scratch, stack, budget)
            pick = choose_draw(family, sid, params[seat], seat_view(g, seat), opts, nopt, rngs[seat], scratch)
            opt = opts[pick]
            if opt == DRAW_NONE:
                record(trace, st, T_NO_DRAW, seat, 0, 0, 0, 0, 0, 0)
                return END_STOCK, False  # R500-STOCK-1
            if opt == DRAW_STOCK:
                draw_from_stock(st, hands, pack, rules, seat, trace)
            else:
                split = False
                if stack is not None and rules[R_GAMBIT] != 0:
                    split_s, source = split_point(g, stack, seat, opt)  # V500-GAMBIT-6
                    if split_s >= 0:
                        apply_split(st, pile, seat, opt, split_s, source, trace)
                        split = True
                take_from_pile(st, hands, pile, rules, seat, opt, False, split, trace)

    emptied = play_phase(g, stack, seat, scope, single)
    mark_opened(st, rules, seat)
    reason, floated = end_of_play(g, seat, emptied)
    if reason != 0:
        return reason, False
    discarded = False
    if not floated and single == 0:
        nopt = discard_options(st, hands, rules, seat, opts)
        pick = choose_discard(family, sid, params[seat], seat_view(g, seat), opts, nopt, rngs[seat], scratch)
        card = opts[pick]
        apply_discard(st, hands, pile, seat, card, trace)
        discarded = True
        if hand_size(st, hands, seat) == 0:
            # V500-UNPLAYABLE-1: a last card that could be laid off leaves the player floating
            if rules[R_UNPLAYABLE] != 0 and layoff_target_exists(card, table_of(g, seat), scratch):
                record(trace, st, T_FLOAT, seat, 0, 0, 0, 0, 0, 0)
                st[ST_FLOATS] += 1
            else:
                if st[ST_LONG_RUN] != 0:
                    st[ST_BONUS + seat] += rules[R_SEVEN_BONUS]  # V500-7STRAIGHT
                return END_OUT, True
    if stock_size(st) == 0 and st[ST_PLACED] > 0:
        st[ST_IDLE] = 0  # R500-STOCK-2: a card put on the table resets the loop guard
    elif empty_at_start and eos != EOS_DISCARD_UNTIL_OUT:
        st[ST_IDLE] += 1
        if st[ST_IDLE] >= rules[R_IDLE_TURNS]:
            return END_IDLE, False
    if eos == EOS_END_IMMEDIATELY and st[ST_STOCK_DRAWN] > 0 and stock_size(st) == 0:
        return END_STOCK_END, False
    return 0, discarded


@njit_noalloc
def start_pile_by_choice(g):
    """V500-UPCHOICE: the first player puts any card face up to start the pile."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    seat = st[ST_SEAT]
    reset_turn(st)
    nopt = discard_options(st, hands, rules, seat, opts)
    pick = choose_discard(family, lineup[seat], params[seat], seat_view(g, seat), opts, nopt, rngs[seat], scratch)
    card = opts[pick]
    if card == JOKER:
        st[ST_JOKERS + seat] -= 1
    else:
        remove_mask(hands[seat], bit(card))
    pile[0] = card
    st[ST_PILE_LEN] = 1
    record(trace, st, T_START_PILE, seat, card, 0, 0, 0, 0, 0)
