"""The rummy engine: deal, turns, melds, lay-offs, discards, calls, hand end, scoring, game end.

500 Rum (RULES.md §2) with its variations (§3) and Standard Rummy (§7), as pure functions over the
state arrays described in ``kernels.layout``; the rules arrive as an int64 vector (``R_*``). Each
decision is delegated to ``strategies.dispatch`` with an observation that holds only what the
seat may know (C-INFO-1): its own hand, the table, the pile, hand sizes, the stock size and the
scores.

The flow functions take the game context ``g``, a ``Game`` tuple of the state arrays, the rules
and the work buffers (see ``new_context``), and ``stack``: None in the lean engine, whose
``stack is not None`` branches (calls, out-of-turn windows, V500-ADDOPP-2 lay-offs, V500-UPCHOICE,
the V500-OPEN30 search, reshuffles) are pruned at compile time (see ``variation_stack``); the
context's ``family`` does the same for the strategies other than greedy and random
(``strategies.dispatch``). In trace mode (a trace buffer with rows) every action is
recorded as documented in ``docs/trace-format.md``; ``sim/validate.py`` replays those traces
independently.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from rummysim.kernels.common._jit import njit, njit_inline, njit_noalloc
from rummysim.kernels.common.trace import record, record_cards
from rummysim.kernels.common.planes import add_card, bit, card_id, has_card, lowest_bit_index, n_cards, remove_mask
from rummysim.kernels.rum500.cards import holding_value
from rummysim.kernels.rum500.layout import (
    A_KEY, A_LEN, A_LO, A_MASK, A_MELD, A_NCARDS, A_NJOK, A_SIDE, A_SIZE, A_TYPE, A_VALUE,
    ACT_LAYOFF, ACT_MELD_SET, ACT_STOP,
    CALL_LAYOFF, CALL_OFF, CALL_PILE,
    DEALER_WINNER, DISC_ANY_TAKEN, DISC_TOP_SINGLE, DRAW_NONE, DRAW_STOCK,
    END_IDLE, END_OUT, END_STOCK, END_STOCK_END, END_TURN_CAP,
    EOS_DISCARD_UNTIL_OUT, EOS_END_IMMEDIATELY, EOS_RESHUFFLE,
    G_CAPPED, G_CAPPED_HANDS, G_FIRST_DEALER, G_HANDS, G_TOTAL, G_TURNS, G_WINNER,
    GAME_STANDARD,
    H_CALLS, H_DEALER, H_DEEP_TAKES, H_FLOATS, H_OUT_SEAT, H_REASON, H_SCORE, H_TURNS,
    JOKER, KIND_RUN, KIND_SET, MAX_CAND, MAX_MELDS, MAX_PACK, MAX_SEATS,
    MK_CARD, MK_CREATOR, MK_KEY, MK_KIND, MK_LEN, MK_LO, MK_NJOK, MK_OWNER, MK_SIZE, MK_SUITS, NOBODY,
    OB_HAND_SIZE, OB_MUST_CARD, OB_MY_JOKERS, OB_N, OB_N_MELDS, OB_NO_DISCARD, OB_PILE_LEN, OB_SEAT,
    OB_SIZE, OB_STOCK, OB_TOTAL, OB_TURN,
    OUT_DISCARD_REQUIRED, OUT_FLOATING,
    PLAY_ALL, PLAY_LAYOFF_ONLY, PLAY_NEW_ONLY,
    R_ADDOPP, R_CALL, R_DEAL_SIZE, R_DECKS, R_DEEP_TAKES, R_DISC_RESTRICT, R_END_OF_STOCK,
    R_FIRST_MELD_MIN, R_FOUR_ACES, R_GAME, R_GAME_HANDS, R_GOING_OUT, R_HAND_CAP, R_IDLE_TURNS,
    R_JOKERS, R_MUST_GO_OUT, R_N_PLAYERS, R_NEW_MELD_ONLY, R_NEXT_DEALER, R_OUT_OF_TURN,
    R_SEVEN_BONUS, R_STOCK_DRAW, R_STOCK_PENALTY, R_TARGET, R_TIE_RULE, R_TOPMUST, R_TURN_CAP,
    R_UNPLAYABLE, R_UPCHOICE,
    SIDE_LOW,
    ST_BONUS, ST_CALLS, ST_DEALER, ST_DEEP_TAKES, ST_FLOATS, ST_GAME_INDEX, ST_HAND_INDEX,
    ST_HAND_SCORE, ST_IDLE, ST_JOKERS, ST_LONG_RUN, ST_MUST_CARD, ST_N, ST_N_MELDS, ST_NEW_ONLY,
    ST_NO_DISCARD, ST_OPENED, ST_PACK_SIZE, ST_PILE_LEN, ST_PLACED, ST_PLACED_VALUE, ST_SEAT,
    ST_SIZE, ST_STOCK_DRAWN, ST_STOCK_POS, ST_TAKEN_JOKER, ST_TAKEN_MASK, ST_TOTAL, ST_TOVER,
    ST_TPOS, ST_TURN,
    T_ADDOPP_LAYOFF, T_CARD, T_DECK, T_DISCARD, T_DRAW_STOCK, T_FLOAT, T_GAME_END, T_GAME_START,
    T_HAND_END, T_HAND_START, T_LAYOFF, T_MELD, T_NO_DRAW, T_OUT_OF_TURN, T_RESHUFFLE, T_RESTOCK,
    T_SCORE, T_START_PILE, T_TAKE_PILE, T_TURN_START,
    TIE_GOER_WINS,
)
from rummysim.kernels.rum500.melds import card_playable, enumerate_plays, has_any_play, pos_card, slot_value
from rummysim.kernels.common.rng import STREAM_DEAL, STREAM_GAME, STREAM_SEAT, below, seed_stream, shuffle_int16
from rummysim.strategies.rum500.dispatch import choose_call, choose_discard, choose_draw, choose_play

DFS_DEPTH = 6  # V500-OPEN30 search: melds deep (a hand of 14 holds at most 4 melds)
DFS_CAND = 256
DFS_BUDGET = 4000  # nodes per search; past it an opening is treated as unreachable (refused)
TURN_NORMAL = 0
TURN_CALL = 1

# ----------------------------------------------------------------------------- state views


@njit_inline
def stock_size(st):
    return st[ST_PACK_SIZE] - st[ST_STOCK_POS]


@njit_inline
def hand_size(st, hands, seat):
    return n_cards(hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_inline
def observe(st, hands, seat, obs, mine):
    """Fill the seat's observation: public information plus its own hand (C-INFO-1)."""
    n = st[ST_N]
    obs[:] = 0
    obs[OB_SEAT] = seat
    obs[OB_N] = n
    obs[OB_STOCK] = stock_size(st)
    obs[OB_PILE_LEN] = st[ST_PILE_LEN]
    obs[OB_N_MELDS] = st[ST_N_MELDS]
    obs[OB_MY_JOKERS] = st[ST_JOKERS + seat]
    obs[OB_MUST_CARD] = st[ST_MUST_CARD]
    obs[OB_NO_DISCARD] = st[ST_NO_DISCARD]
    obs[OB_TURN] = st[ST_TURN]
    for s in range(n):
        obs[OB_HAND_SIZE + s] = hand_size(st, hands, s)
        obs[OB_TOTAL + s] = st[ST_TOTAL + s]
    mine[0] = hands[seat, 0]
    mine[1] = hands[seat, 1]


@njit_inline
def empty_hand_allowed(rules):
    """May a play empty the hand? Not with V500-DISCREQ / RSTD-OUT-1's discard_required."""
    return rules[R_GOING_OUT] != OUT_DISCARD_REQUIRED


@njit_inline
def opening_need(st, rules, seat):
    """V500-OPEN30: points still owed by a seat that has not opened this hand (0 if none)."""
    if rules[R_FIRST_MELD_MIN] <= 0 or st[ST_OPENED + seat] != 0:
        return 0
    return rules[R_FIRST_MELD_MIN]


# ----------------------------------------------------------------------------- deal


@njit_inline
def fill_pack(rules, pack):
    """Pack for R500-SETUP-2/3 (RSTD-SETUP-1): decks x 52 naturals plus the jokers; returns its size."""
    n = 0
    for _ in range(rules[R_DECKS]):
        for s in range(4):
            for r in range(1, 14):
                pack[n] = card_id(s, r)
                n += 1
    for _ in range(rules[R_JOKERS]):
        pack[n] = JOKER
        n += 1
    return n


@njit_noalloc
def start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace):
    """Shuffle and deal (R500-DEAL-1/2, C-CARD-4, V500-UPCHOICE's extra card for the first player)."""
    n = st[ST_N]
    size = fill_pack(rules, pack)
    shuffle_int16(rng_deal, pack, size)
    st[ST_PACK_SIZE] = size
    hands[:, :] = 0
    for s in range(MAX_SEATS):
        st[ST_JOKERS + s] = 0
        st[ST_OPENED + s] = 0
        st[ST_BONUS + s] = 0
    deal = rules[R_DEAL_SIZE]
    dealer = st[ST_DEALER]
    first = (dealer + 1) % n
    pos = 0
    for i in range(n):
        seat = (dealer + 1 + i) % n
        count = deal + 1 if (i == 0 and rules[R_UPCHOICE] != 0) else deal
        for _ in range(count):
            c = np.int64(pack[pos])
            pos += 1
            if c == JOKER:
                st[ST_JOKERS + seat] += 1
            else:
                add_card(hands[seat], c)
    st[ST_PILE_LEN] = 0
    if rules[R_UPCHOICE] == 0:
        pile[0] = pack[pos]  # R500-DEAL-2: the upcard
        st[ST_PILE_LEN] = 1
        pos += 1
    st[ST_STOCK_POS] = pos
    st[ST_N_MELDS] = 0
    st[ST_TURN] = 0
    st[ST_IDLE] = 0
    st[ST_CALLS] = 0
    st[ST_FLOATS] = 0
    st[ST_DEEP_TAKES] = 0
    st[ST_SEAT] = first
    record(trace, st, T_HAND_START, st[ST_HAND_INDEX], dealer, size, deal, first, 0, 0)
    record_cards(trace, st, T_DECK, 0, pack, size)


# ----------------------------------------------------------------------------- legality helpers


@njit_inline
def forbidden_discards(st, rules):
    """(natural mask, joker forbidden) this turn under V500-DISCSAME / R500-DISC-2."""
    if rules[R_DISC_RESTRICT] == DISC_ANY_TAKEN:
        return np.uint64(st[ST_TAKEN_MASK]), st[ST_TAKEN_JOKER] > 0
    nd = st[ST_NO_DISCARD]
    if nd < 0:
        return np.uint64(0), False
    if nd == JOKER:
        return np.uint64(0), True
    return bit(nd), False


@njit_inline
def finish_ok(p1, jok, forb, forb_joker, empty_ok):
    """C-LEGAL-1: the hand is empty and may be (out or floating), or holds a card it may discard.

    A hand left holding only forbidden cards could sometimes still be emptied by laying them off;
    such plays are refused anyway, since playing in another order reaches the same end.
    """
    if p1 == 0 and jok == 0:
        return empty_ok
    if (p1 & ~forb) != 0:
        return True
    return jok > 0 and not forb_joker


@njit
def opening_reachable(p1, p2, jok, need, forb, forb_joker, empty_ok, melds, n_melds, vals, ace_low, rules, scope, stack, budget):
    """V500-OPEN30: can further plays this turn put at least ``need`` more points down?

    Depth-first over canonical actions, each applied to its own copy of the table (a set takes
    one lay-off, a run end moves), within a node budget: past it the opening counts as
    unreachable, so the engine refuses rather than risk a stuck turn. Iterative, because numba's
    on-disk cache does not reload recursive functions safely.
    """
    depth = stack.shape[0]
    if depth == 0:
        return False
    tables = np.empty((depth, MAX_MELDS, MK_SIZE), dtype=np.int16)
    sizes = np.empty(depth, dtype=np.int64)
    h1 = np.empty(depth, dtype=np.uint64)
    h2 = np.empty(depth, dtype=np.uint64)
    hj = np.empty(depth, dtype=np.int64)
    owed = np.empty(depth, dtype=np.int64)
    count = np.empty(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    tables[0, :n_melds] = melds[:n_melds]
    sizes[0] = n_melds
    h1[0], h2[0], hj[0], owed[0] = p1, p2, jok, need
    count[0] = enumerate_plays(p1, jok, -1, tables[0], n_melds, vals, ace_low, rules, scope, stack[0], 0, stack.shape[1])
    d = 0
    while d >= 0:
        if idx[d] >= count[d]:
            d -= 1
            continue
        row = stack[d, idx[d]]
        idx[d] += 1
        m = np.uint64(row[A_MASK])
        q1 = h1[d] & ~(m & ~h2[d])
        q2 = h2[d] & ~m
        qj = hj[d] - row[A_NJOK]
        if not finish_ok(q1, qj, forb, forb_joker, empty_ok):
            continue
        if row[A_VALUE] >= owed[d]:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if d + 1 >= depth:
            continue
        after, n_after = table_after(tables[d], sizes[d], rules, row)
        d += 1
        tables[d, :n_after] = after[:n_after]
        sizes[d] = n_after
        h1[d], h2[d], hj[d], owed[d] = q1, q2, qj, owed[d - 1] - row[A_VALUE]
        idx[d] = 0
        count[d] = enumerate_plays(q1, qj, -1, tables[d], sizes[d], vals, ace_low, rules, scope, stack[d], 0, stack.shape[1])
    return False


@njit_noalloc
def action_allowed(p1, p2, jok, act, forb, forb_joker, empty_ok, need, placed, melds, n_melds, vals, ace_low, rules, scope, stack, budget):
    """C-LEGAL-1 for one play: the turn can still end, and a pending opening can still be met."""
    m = np.uint64(act[A_MASK])
    q1 = p1 & ~(m & ~p2)
    q2 = p2 & ~m
    qj = jok - act[A_NJOK]
    if not finish_ok(q1, qj, forb, forb_joker, empty_ok):
        return False
    if need <= 0 or placed + act[A_VALUE] >= need:
        return True
    if stack is None:
        return False  # not reached: the lean engine serves only rules without V500-OPEN30
    return opening_after(q1, q2, qj, act, need - placed - act[A_VALUE], forb, forb_joker, empty_ok, melds, n_melds, vals, ace_low, rules, scope, stack, budget)


@njit
def opening_after(q1, q2, qj, act, need, forb, forb_joker, empty_ok, melds, n_melds, vals, ace_low, rules, scope, stack, budget):
    """V500-OPEN30 after the play ``act`` left the holding (q1, q2, qj): can ``need`` more points
    still go down? (Allocates the table copies, so apart from the reference-count-free callers.)"""
    after, n_after = table_after(melds, n_melds, rules, act)
    budget[0] = DFS_BUDGET
    return opening_reachable(q1, q2, qj, need, forb, forb_joker, empty_ok, after, n_after, vals, ace_low, rules, scope, stack, budget)


@njit
def table_after(melds, n_melds, rules, act):
    """A copy of the table with one more play on it (for look-ahead searches)."""
    after = np.empty((MAX_MELDS, MK_SIZE), dtype=np.int16)
    after[:n_melds] = melds[:n_melds]
    shadow_st = np.zeros(ST_SIZE, dtype=np.int64)
    shadow_hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    shadow_hands[0, 0] = np.uint64(act[A_MASK])
    shadow_st[ST_JOKERS] = act[A_NJOK]
    shadow_st[ST_N_MELDS] = n_melds
    shadow_st[ST_MUST_CARD] = -1
    apply_play(shadow_st, shadow_hands, after, rules, 0, act, 0, None, T_LAYOFF)
    return after, shadow_st[ST_N_MELDS]


@njit_inline
def must_play_possible(c, a1, a2, ajok, forb, forb_joker, need, melds, n_melds, vals, ace_low, rules, scope, scratch, stack, budget):
    """A take (or call) whose card c must be played this turn is legal: some play containing c
    keeps the turn finishable (R500-DRAW-3/5, V500-TOPMUST, V500-RUMMY-3, C-LEGAL-1). The
    holding after the take is (a1, a2, ajok)."""
    empty_ok = empty_hand_allowed(rules)
    simple = need <= 0 and forb == 0 and not forb_joker and empty_ok
    if simple:
        return card_playable(c, a1, ajok, melds, n_melds, vals, ace_low, rules, scope, scratch)
    n = enumerate_plays(a1, ajok, c, melds, n_melds, vals, ace_low, rules, scope, scratch, 0, MAX_CAND)
    for i in range(n):
        if action_allowed(a1, a2, ajok, scratch[i], forb, forb_joker, empty_ok, need, 0, melds, n_melds, vals, ace_low, rules, scope, stack, budget):
            return True
    return False


@njit_inline
def take_forbidden(rules, top_single, taken, taken_jok):
    """Cards a take makes undiscardable this turn (R500-DISC-2, V500-DISCSAME)."""
    restriction = rules[R_DISC_RESTRICT]
    if restriction == DISC_ANY_TAKEN or (restriction == DISC_TOP_SINGLE and top_single):
        return taken, taken_jok > 0
    return np.uint64(0), False


# ----------------------------------------------------------------------------- draw


@njit_inline
def draw_options(st, hands, pile, melds, rules, vals, ace_low, seat, opts, scratch, stack, budget):
    """Legal draws (R500-DRAW-1..6, R500-STOCK-1, RSTD-DRAW-1): stock or decline, pile takes."""
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
    n_melds = st[ST_N_MELDS]
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
        forb, forb_joker = take_forbidden(rules, k == top, taken, taken_jok)
        # R500-DRAW-2: the top card carries no duty, but C-LEGAL-1 needs a card left to discard
        # (or to lay down); every other take must play its card
        free_top = k == top and rules[R_TOPMUST] == 0
        ok = (free_top and finish_ok(a1, ajok, forb, forb_joker, False)) or must_play_possible(
            c, a1, a2, ajok, forb, forb_joker, need, melds, n_melds, vals, ace_low, rules,
            PLAY_ALL if free_top else scope, scratch, stack, budget)
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
def take_from_pile(st, hands, pile, rules, seat, k, is_call, trace):
    """Take pile[k..top] (C-PILE-4) and set the duties that come with it.

    A rummy call must always play card k (V500-RUMMY-3); V500-NEWMELD narrows draws only.
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
    forb, forb_joker = take_forbidden(rules, k == top, taken, taken_jok)
    st[ST_TAKEN_MASK] = np.int64(forb)
    st[ST_TAKEN_JOKER] = 1 if forb_joker else 0
    if k == top and rules[R_DISC_RESTRICT] == DISC_TOP_SINGLE:
        st[ST_NO_DISCARD] = sel  # R500-DISC-2
    if k < top:
        st[ST_DEEP_TAKES] += 1
    if is_call:
        st[ST_MUST_CARD] = sel
    elif k < top or rules[R_TOPMUST] != 0:
        st[ST_MUST_CARD] = sel  # R500-DRAW-3, C-TURN-4, V500-TOPMUST
        st[ST_NEW_ONLY] = rules[R_NEW_MELD_ONLY]  # V500-NEWMELD


@njit_inline
def reset_turn(st):
    st[ST_MUST_CARD] = -1
    st[ST_NEW_ONLY] = 0
    st[ST_NO_DISCARD] = -1
    st[ST_TAKEN_MASK] = 0
    st[ST_TAKEN_JOKER] = 0
    st[ST_PLACED] = 0
    st[ST_PLACED_VALUE] = 0
    st[ST_LONG_RUN] = 0
    st[ST_STOCK_DRAWN] = 0


# ----------------------------------------------------------------------------- play phase


@njit_inline
def copy_row(cand, dst, src):
    """cand[dst] = cand[src], element by element (a slice copy would allocate a temporary)."""
    for j in range(cand.shape[1]):
        cand[dst, j] = cand[src, j]


@njit_inline
def play_candidates(st, hands, melds, rules, vals, ace_low, seat, scope, cand, stack, budget):
    """Candidate plays: STOP (when allowed), then canonical melds and lay-offs that keep the turn
    finishable (C-LEGAL-1), contain a pending must-card (C-TURN-4) and can still meet a pending
    opening (V500-OPEN30)."""
    must = st[ST_MUST_CARD]
    if must >= 0 and st[ST_NEW_ONLY] != 0:
        scope = PLAY_NEW_ONLY
    need = opening_need(st, rules, seat)
    placed = st[ST_PLACED_VALUE]
    p1 = hands[seat, 0]
    p2 = hands[seat, 1]
    jok = st[ST_JOKERS + seat]
    forb, forb_joker = forbidden_discards(st, rules)
    empty_ok = empty_hand_allowed(rules)
    n = 0
    opening_done = need <= 0 or placed == 0 or placed >= need
    # C-LEGAL-1: stopping needs a card that may be discarded (out-of-turn windows discard nothing)
    can_end = finish_ok(p1, jok, forb, forb_joker, empty_ok) or scope == PLAY_NEW_ONLY
    if must < 0 and opening_done and can_end:
        cand[0, :] = 0
        cand[0, A_TYPE] = ACT_STOP
        n = 1
    first = n
    if must < 0 and scope == PLAY_ALL and not has_any_play(p1, jok, melds, st[ST_N_MELDS], vals, ace_low, rules, cand[1:]):
        return n  # the common turn with nothing to put down: no enumeration needed
    n = enumerate_plays(p1, jok, must, melds, st[ST_N_MELDS], vals, ace_low, rules, scope, cand, n, MAX_CAND)
    keep = first
    for i in range(first, n):
        if action_allowed(p1, p2, jok, cand[i], forb, forb_joker, empty_ok, need, placed, melds, st[ST_N_MELDS], vals, ace_low, rules, scope, stack, budget):
            if keep != i:
                copy_row(cand, keep, i)
            keep += 1
    return keep


@njit_inline
def _put_card(melds, m, i, card, owner):
    melds[m, MK_CARD + i] = card
    melds[m, MK_OWNER + i] = owner


@njit_noalloc
def apply_play(st, hands, melds, rules, seat, act, owner, trace, layoff_kind):
    """Lay down a new meld or lay off on a table meld (R500-MELD-7/8); cards are credited to
    ``owner`` (C-MELD-5; NOBODY for V500-ADDOPP-2). ``layoff_kind`` is the trace record kind."""
    typ = act[A_TYPE]
    mask = np.uint64(act[A_MASK])
    njok = act[A_NJOK]
    remove_mask(hands[seat], mask)
    st[ST_JOKERS + seat] -= njok
    st[ST_PLACED] += act[A_NCARDS]
    st[ST_PLACED_VALUE] += act[A_VALUE]
    must = st[ST_MUST_CARD]
    if must >= 0:
        if (must == JOKER and njok > 0) or (must != JOKER and has_card(mask, must)):
            st[ST_MUST_CARD] = -1
            st[ST_NEW_ONLY] = 0
    if typ == ACT_LAYOFF:
        m = act[A_MELD]
        run_lo = act[A_LO] if melds[m, MK_KIND] == KIND_RUN else 0
        record(trace, st, layoff_kind, seat, m, act[A_NCARDS], run_lo, 0, 0, 0)
        if melds[m, MK_KIND] == KIND_SET:
            i = melds[m, MK_LEN]
            r = melds[m, MK_KEY]
            if njok > 0:
                _put_card(melds, m, i, JOKER, owner)
                melds[m, MK_NJOK] += 1
                record(trace, st, T_CARD, seat, m, JOKER, 0, 0, 0, 0)
            else:
                for s in range(4):
                    c = card_id(s, r)
                    if has_card(mask, c):
                        _put_card(melds, m, i, c, owner)
                        melds[m, MK_SUITS] |= 1 << s
                        record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
            melds[m, MK_LEN] = i + 1
            return
        s = melds[m, MK_KEY]
        old_len = melds[m, MK_LEN]
        new_lo = act[A_LO]
        new_len = act[A_LEN]
        added = new_len - old_len
        if act[A_SIDE] == SIDE_LOW:
            for i in range(old_len - 1, -1, -1):
                melds[m, MK_CARD + i + added] = melds[m, MK_CARD + i]
                melds[m, MK_OWNER + i + added] = melds[m, MK_OWNER + i]
            first_new = 0
        else:
            first_new = old_len
        for i in range(first_new, first_new + added):
            pos = new_lo + i
            c = pos_card(s, pos)
            card = c if has_card(mask, c) else JOKER
            if card == JOKER:
                melds[m, MK_NJOK] += 1
            _put_card(melds, m, i, card, owner)
            record(trace, st, T_CARD, seat, m, card, pos, 0, 0, 0)
        melds[m, MK_LO] = new_lo
        melds[m, MK_LEN] = new_len
        return
    m = st[ST_N_MELDS]
    st[ST_N_MELDS] = m + 1
    melds[m, :] = 0
    melds[m, MK_KEY] = act[A_KEY]
    melds[m, MK_LEN] = act[A_LEN]
    melds[m, MK_NJOK] = njok
    melds[m, MK_CREATOR] = seat
    if typ == ACT_MELD_SET:
        r = act[A_KEY]
        melds[m, MK_KIND] = KIND_SET
        record(trace, st, T_MELD, seat, m, KIND_SET, r, 0, act[A_LEN], 0)
        i = 0
        for s in range(4):
            c = card_id(s, r)
            if has_card(mask, c):
                _put_card(melds, m, i, c, owner)
                melds[m, MK_SUITS] |= 1 << s
                record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
                i += 1
        for _ in range(njok):
            _put_card(melds, m, i, JOKER, owner)
            record(trace, st, T_CARD, seat, m, JOKER, 0, 0, 0, 0)
            i += 1
        return
    s = act[A_KEY]
    lo = act[A_LO]
    melds[m, MK_KIND] = KIND_RUN
    melds[m, MK_LO] = lo
    if act[A_LEN] >= 7:
        st[ST_LONG_RUN] = 1  # V500-7STRAIGHT
    record(trace, st, T_MELD, seat, m, KIND_RUN, s, lo, act[A_LEN], 0)
    for i in range(act[A_LEN]):
        c = pos_card(s, lo + i)
        card = c if has_card(mask, c) else JOKER
        _put_card(melds, m, i, card, owner)
        record(trace, st, T_CARD, seat, m, card, lo + i, 0, 0, 0)


# ----------------------------------------------------------------------------- discard


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
    pile[st[ST_PILE_LEN]] = card
    st[ST_PILE_LEN] += 1
    record(trace, st, T_DISCARD, seat, card, 0, 0, 0, 0, 0)


@njit_noalloc
def layoff_target_exists(card, melds, n_melds, vals, ace_low, rules, scratch):
    """Could this one card be laid off on a table meld right now (V500-UNPLAYABLE, V500-RUMMY-5/6)?"""
    if card == JOKER:
        return card_playable(card, np.uint64(0), 1, melds, n_melds, vals, ace_low, rules, PLAY_LAYOFF_ONLY, scratch)
    return card_playable(card, bit(card), 0, melds, n_melds, vals, ace_low, rules, PLAY_LAYOFF_ONLY, scratch)


# ----------------------------------------------------------------------------- hand end


@njit_inline
def four_aces_owner(melds, m):
    """Seat credited with all four aces of a natural four-ace set, else -1 (V500-ACE)."""
    if melds[m, MK_KIND] != KIND_SET or melds[m, MK_KEY] != 1 or melds[m, MK_LEN] != 4 or melds[m, MK_NJOK] != 0:
        return -1
    owner = melds[m, MK_OWNER]
    for i in range(1, 4):
        if melds[m, MK_OWNER + i] != owner:
            return -1
    return owner


@njit_inline
def table_values(st, melds, rules, vals, ace_low):
    """Values of the table cards credited to each seat, added to ST_HAND_SCORE + seat
    (R500-SCORE-1/2, V500-ACE four aces)."""
    for m in range(st[ST_N_MELDS]):
        kind = melds[m, MK_KIND]
        aces_owner = four_aces_owner(melds, m) if rules[R_FOUR_ACES] > 0 else -1
        for i in range(melds[m, MK_LEN]):
            owner = melds[m, MK_OWNER + i]
            if owner == NOBODY:
                continue
            if aces_owner >= 0:
                st[ST_HAND_SCORE + owner] += rules[R_FOUR_ACES]
            else:
                st[ST_HAND_SCORE + owner] += slot_value(vals, ace_low, np.int64(melds[m, MK_CARD + i]), kind, i == 0)


@njit_inline
def held_value(st, hands, vals, seat):
    return holding_value(vals, hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit_noalloc
def score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace):
    """Hand scores added to the running totals: R500-SCORE-1/2/3 with V500-ADDOPP and the bonuses;
    RSTD-SCORE-1 deadwood for Standard Rummy. ST_HAND_SCORE first collects the table values."""
    n = st[ST_N]
    others = 0
    for s in range(n):
        st[ST_HAND_SCORE + s] = 0
        if s != out_seat:
            others += held_value(st, hands, vals, s)
    standard = rules[R_GAME] == GAME_STANDARD
    if not standard:
        table_values(st, melds, rules, vals, ace_low)
    for s in range(n):
        table = st[ST_HAND_SCORE + s]
        held = held_value(st, hands, vals, s)
        bonus = st[ST_BONUS + s]
        if standard:
            hand_value = held
            if s == out_seat:
                bonus += others
            score = bonus
        else:
            if rules[R_ADDOPP] != 0:
                hand_value = 0
                if s == out_seat:
                    bonus += others  # V500-ADDOPP-1
                elif out_seat < 0 and n == 2:
                    bonus += held_value(st, hands, vals, 1 - s)  # V500-ADDOPP-3
            elif reason == END_OUT or rules[R_STOCK_PENALTY] != 0:
                hand_value = held
            else:
                hand_value = 0
            score = table - hand_value + bonus
        st[ST_HAND_SCORE + s] = score
        st[ST_TOTAL + s] += score
        record(trace, st, T_SCORE, s, score, st[ST_TOTAL + s], table, hand_value, bonus, 0)


# ----------------------------------------------------------------------------- game context


Game = namedtuple(
    "Game",
    "st hands pack pile melds rules vals ace_low lineup params rngs rng_deal trace obs mine opts cand scratch budget family",
)
"""The state and work arrays of one game, as the flow functions take them (``g``)."""


@njit
def new_context(rules, vals, ace_low, lineup, params, trace, family):
    """All state and work arrays of one game (a ``Game``)."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    pack = np.zeros(MAX_PACK, dtype=np.int16)
    pile = np.zeros(MAX_PACK, dtype=np.int16)
    melds = np.zeros((MAX_MELDS, MK_SIZE), dtype=np.int16)
    rngs = np.zeros((MAX_SEATS, 4), dtype=np.uint64)
    rng_deal = np.zeros(4, dtype=np.uint64)
    obs = np.zeros(OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    opts = np.zeros(MAX_PACK + 2, dtype=np.int64)
    cand = np.empty((MAX_CAND, A_SIZE), dtype=np.int64)
    scratch = np.empty((MAX_CAND, A_SIZE), dtype=np.int64)
    budget = np.zeros(1, dtype=np.int64)
    return Game(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace,
                obs, mine, opts, cand, scratch, budget, family)


@njit
def variation_stack(rules, full):
    """Work rows of the rare variation paths (the V500-OPEN30 search uses them), or None.

    ``full`` is None when the rules use none of those paths (``kernels.batch.needs_full_engine``):
    the stack is then None too, and every ``stack is not None`` branch of the engine is pruned at
    compile time, so the lean engine never compiles calls, windows or the opening search.
    """
    if full is None:
        return None
    depth = DFS_DEPTH if rules[R_FIRST_MELD_MIN] > 0 else 0
    return np.empty((depth, DFS_CAND, A_SIZE), dtype=np.int64)


# ----------------------------------------------------------------------------- turns


@njit_inline
def single_card_plays(cand, n):
    keep = 0
    for i in range(n):
        if cand[i, A_TYPE] != ACT_STOP and cand[i, A_NCARDS] == 1:
            copy_row(cand, keep, i)
            keep += 1
    return keep


@njit_inline
def play_phase(g, stack, seat, scope, single):
    """Plays until the strategy stops (R500-MELD-7). Returns True if the hand emptied.

    ``single``: exactly one play (a ``layoff_only`` rummy call). Out-of-turn windows record
    OUT_OF_TURN before their first meld.
    """
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    sid = lineup[seat]
    announced = False
    while True:
        ncand = play_candidates(st, hands, melds, rules, vals, ace_low, seat, scope, cand, stack, budget)
        if single != 0:
            ncand = single_card_plays(cand, ncand)  # V500-RUMMY-6: that one card, nothing else
        if ncand == 0:
            return False
        observe(st, hands, seat, obs, mine)
        pick = choose_play(family, sid, params[seat], obs, mine, pile, melds, rules, vals, ace_low, cand, ncand, rngs[seat], scratch)
        if cand[pick, A_TYPE] == ACT_STOP:
            return False
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


@njit_inline
def mark_opened(st, rules, seat):
    if opening_need(st, rules, seat) > 0 and st[ST_PLACED_VALUE] >= rules[R_FIRST_MELD_MIN]:
        st[ST_OPENED + seat] = 1


@njit_noalloc
def reshuffle(g, seat):
    """V500-STOCKEND reshuffle: every pile card but the top becomes a new, shuffled stock."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    top = st[ST_PILE_LEN] - 1
    for i in range(top):
        pack[i] = pile[i]
    shuffle_int16(rng_deal, pack, top)
    pile[0] = pile[top]
    st[ST_PILE_LEN] = 1
    st[ST_PACK_SIZE] = top
    st[ST_STOCK_POS] = 0
    record(trace, st, T_RESHUFFLE, seat, top, 0, 0, 0, 0, 0)
    record_cards(trace, st, T_RESTOCK, 0, pack, top)


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
        take_from_pile(st, hands, pile, rules, seat, call_k, True, trace)
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
            nopt = draw_options(st, hands, pile, melds, rules, vals, ace_low, seat, opts, scratch, stack, budget)
            observe(st, hands, seat, obs, mine)
            pick = choose_draw(family, sid, params[seat], obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rngs[seat], scratch)
            opt = opts[pick]
            if opt == DRAW_NONE:
                record(trace, st, T_NO_DRAW, seat, 0, 0, 0, 0, 0, 0)
                return END_STOCK, False  # R500-STOCK-1
            if opt == DRAW_STOCK:
                draw_from_stock(st, hands, pack, rules, seat, trace)
            else:
                take_from_pile(st, hands, pile, rules, seat, opt, False, trace)

    emptied = play_phase(g, stack, seat, scope, single)
    mark_opened(st, rules, seat)
    reason, floated = end_of_play(g, seat, emptied)
    if reason != 0:
        return reason, False
    discarded = False
    if not floated and single == 0:
        nopt = discard_options(st, hands, rules, seat, opts)
        observe(st, hands, seat, obs, mine)
        pick = choose_discard(family, sid, params[seat], obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rngs[seat], scratch)
        card = opts[pick]
        apply_discard(st, hands, pile, seat, card, trace)
        discarded = True
        if hand_size(st, hands, seat) == 0:
            # V500-UNPLAYABLE-1: a last card that could be laid off leaves the player floating
            if rules[R_UNPLAYABLE] != 0 and layoff_target_exists(card, melds, st[ST_N_MELDS], vals, ace_low, rules, scratch):
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


# ----------------------------------------------------------------------------- windows


@njit_noalloc
def call_options(g, stack, discarder, caller, public, npublic, opts):
    """Claims ``caller`` may make in the rummy window (V500-RUMMY-1..6): option 0 is passing."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts_, cand, scratch, budget, family = g
    n = 0
    opts[n] = -1
    n += 1
    top = st[ST_PILE_LEN] - 1
    need = opening_need(st, rules, caller)
    scope = PLAY_LAYOFF_ONLY if rules[R_CALL] == CALL_LAYOFF else PLAY_ALL
    for j in range(npublic):
        k = public[j]
        a1 = hands[caller, 0]  # the caller's holding after the take
        a2 = hands[caller, 1]
        ajok = st[ST_JOKERS + caller]
        taken = np.uint64(0)
        taken_jok = 0
        for i in range(k, top + 1):
            c = np.int64(pile[i])
            if c == JOKER:
                ajok += 1
                taken_jok += 1
            else:
                b = bit(c)
                a2 |= a1 & b
                a1 |= b
                taken |= b
        forb, forb_joker = take_forbidden(rules, k == top, taken, taken_jok)
        c = np.int64(pile[k])
        if must_play_possible(c, a1, a2, ajok, forb, forb_joker, need, melds, st[ST_N_MELDS], vals, ace_low, rules, scope, scratch, stack, budget):
            opts[n] = k
            n += 1
    return n


@njit_noalloc
def public_claims(g, public):
    """Pile cards any player may claim after a discard, judged without hand cards (V500-RUMMY-2/5/6)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    top = st[ST_PILE_LEN] - 1
    n_melds = st[ST_N_MELDS]
    n = 0
    if rules[R_CALL] != CALL_PILE:
        if layoff_target_exists(np.int64(pile[top]), melds, n_melds, vals, ace_low, rules, scratch):
            public[0] = top
            n = 1
        return n
    cards = np.uint64(0)
    jok = 0
    for k in range(top, -1, -1):
        c = np.int64(pile[k])
        if c == JOKER:
            jok += 1
        else:
            cards |= bit(c)
        if card_playable(c, cards, jok, melds, n_melds, vals, ace_low, rules, PLAY_ALL, scratch):
            public[n] = k
            n += 1
    return n


@njit
def rummy_window(g, stack, discarder):
    """V500-RUMMY-1: after a discard, seats from the discarder's left are asked in turn; the first
    to call wins. Returns (caller, k) or (-1, -1)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    public = np.empty(MAX_PACK, dtype=np.int64)
    npublic = public_claims(g, public)
    if npublic == 0:
        return -1, -1
    n = st[ST_N]
    for i in range(1, n):
        caller = (discarder + i) % n
        nopt = call_options(g, stack, discarder, caller, public, npublic, opts)
        if nopt <= 1:
            continue
        observe(st, hands, caller, obs, mine)
        pick = choose_call(family, lineup[caller], params[caller], obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rngs[caller], scratch)
        if pick > 0:
            return caller, opts[pick]
    return -1, -1


@njit_noalloc
def out_of_turn_window(g, stack, discarder):
    """V500-OUTOFTURN: seats other than the discarder may lay down new melds, clockwise from the
    discarder's left. Returns (reason, seat that went out)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    n = st[ST_N]
    for i in range(1, n):
        seat = (discarder + i) % n
        if hand_size(st, hands, seat) == 0:
            continue
        reset_turn(st)
        emptied = play_phase(g, stack, seat, PLAY_NEW_ONLY, 0)
        mark_opened(st, rules, seat)
        if st[ST_PLACED] > 0:
            st[ST_IDLE] = 0
        reason, _ = end_of_play(g, seat, emptied)
        if reason != 0:
            return reason, seat
    return 0, -1


@njit_noalloc
def addopp_window(g, out_seat):
    """V500-ADDOPP-2: the others, clockwise from the left of the player who went out, may lay off
    on that player's melds; those cards score for no one."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    n = st[ST_N]
    for i in range(1, n):
        seat = (out_seat + i) % n
        sid = lineup[seat]
        reset_turn(st)
        while hand_size(st, hands, seat) > 0:
            cand[0, :] = 0
            cand[0, A_TYPE] = ACT_STOP
            found = enumerate_plays(hands[seat, 0], st[ST_JOKERS + seat], -1, melds, st[ST_N_MELDS], vals, ace_low, rules, PLAY_LAYOFF_ONLY, cand, 1, MAX_CAND)
            ncand = 1
            for j in range(1, found):
                if melds[cand[j, A_MELD], MK_CREATOR] == out_seat:
                    copy_row(cand, ncand, j)
                    ncand += 1
            if ncand == 1:
                break
            observe(st, hands, seat, obs, mine)
            pick = choose_play(family, sid, params[seat], obs, mine, pile, melds, rules, vals, ace_low, cand, ncand, rngs[seat], scratch)
            if pick == 0:
                break
            apply_play(st, hands, melds, rules, seat, cand[pick], NOBODY, trace, T_ADDOPP_LAYOFF)


# ----------------------------------------------------------------------------- hands and games


@njit_noalloc
def start_pile_by_choice(g):
    """V500-UPCHOICE: the first player puts any card face up to start the pile."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    seat = st[ST_SEAT]
    reset_turn(st)
    nopt = discard_options(st, hands, rules, seat, opts)
    observe(st, hands, seat, obs, mine)
    pick = choose_discard(family, lineup[seat], params[seat], obs, mine, pile, melds, rules, vals, ace_low, opts, nopt, rngs[seat], scratch)
    card = opts[pick]
    if card == JOKER:
        st[ST_JOKERS + seat] -= 1
    else:
        remove_mask(hands[seat], bit(card))
    pile[0] = card
    st[ST_PILE_LEN] = 1
    record(trace, st, T_START_PILE, seat, card, 0, 0, 0, 0, 0)


@njit_noalloc
def play_hand(g, stack):
    """Deal and play one hand to its end; returns (reason, seat that went out or -1, turns)."""
    st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, obs, mine, opts, cand, scratch, budget, family = g
    start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace)
    if stack is not None and rules[R_UPCHOICE] != 0:
        start_pile_by_choice(g)
    n = st[ST_N]
    cap = rules[R_TURN_CAP]
    calls = rules[R_CALL] != CALL_OFF
    seat = st[ST_SEAT]
    reason = 0
    out_seat = -1
    while True:
        st[ST_SEAT] = seat
        reason, discarded = play_turn(g, stack, seat, TURN_NORMAL, -1)
        st[ST_TURN] += 1
        if reason != 0:
            if reason == END_OUT:
                out_seat = seat
            break
        nxt = (seat + 1) % n
        discarder = seat
        while stack is not None and discarded:
            discarded = False
            if calls:
                caller, k = rummy_window(g, stack, discarder)
                if caller >= 0:
                    st[ST_SEAT] = caller
                    reason, discarded = play_turn(g, stack, caller, TURN_CALL, k)
                    st[ST_TURN] += 1
                    if reason != 0:
                        if reason == END_OUT:
                            out_seat = caller
                        break
                    # V500-RUMMY-3: the caller's left plays next; RUMMY-6: the discarder's left
                    nxt = (discarder + 1) % n if rules[R_CALL] == CALL_LAYOFF else (caller + 1) % n
                    discarder = caller
                    continue
            if rules[R_OUT_OF_TURN] != 0:
                reason, out_seat = out_of_turn_window(g, stack, discarder)
                if reason != 0:
                    break
        if reason != 0:
            break
        if st[ST_TURN] >= cap:
            reason = END_TURN_CAP
            break
        seat = nxt
    if stack is not None and reason == END_OUT and rules[R_ADDOPP] != 0:
        addopp_window(g, out_seat)
    record(trace, st, T_HAND_END, reason, out_seat, st[ST_TURN], 0, 0, 0, 0)
    score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace)
    return reason, out_seat, st[ST_TURN]


@njit_inline
def game_winner(st, rules, n, out_seat):
    """Game end after a hand: -1 means another hand is dealt.

    R500-END-1/2 (highest total at or over the target; a shared highest replays), V500-TIE
    goer_wins, V500-MUSTOUT (only the player who went out, at or over the target, can win).
    """
    target = rules[R_TARGET]
    if rules[R_MUST_GO_OUT] != 0:
        if out_seat >= 0 and st[ST_TOTAL + out_seat] >= target:
            return out_seat
        return -1
    best = st[ST_TOTAL]
    reached = 0
    for s in range(n):
        best = max(best, st[ST_TOTAL + s])
        if st[ST_TOTAL + s] >= target:
            reached += 1
    if best < target:
        return -1
    if rules[R_TIE_RULE] == TIE_GOER_WINS and reached >= 2 and out_seat >= 0 and st[ST_TOTAL + out_seat] >= target:
        return out_seat
    return unique_best(st, n, best)


@njit_inline
def unique_best(st, n, best):
    winner = -1
    for s in range(n):
        if st[ST_TOTAL + s] == best:
            if winner >= 0:
                return -1
            winner = s
    return winner


@njit
def seed_game(g, seed, game):
    """Per-seat decision streams and the first dealer (R500-SETUP-4) from (seed, game)."""
    st = g.st
    rules = g.rules
    rngs = g.rngs
    n = rules[R_N_PLAYERS]
    for s in range(n):
        seed_stream(rngs[s], seed, game, STREAM_SEAT, s)
    rng_game = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_game, seed, game, STREAM_GAME, 0)
    st[ST_N] = n
    st[ST_GAME_INDEX] = game
    st[ST_DEALER] = below(rng_game, n)


@njit_inline
def store_hand_row(row, st, n, dealer, reason, out_seat, turns):
    row[H_DEALER] = dealer
    row[H_REASON] = reason
    row[H_OUT_SEAT] = out_seat
    row[H_TURNS] = turns
    row[H_CALLS] = st[ST_CALLS]
    row[H_FLOATS] = st[ST_FLOATS]
    row[H_DEEP_TAKES] = st[ST_DEEP_TAKES]
    for s in range(n):
        row[H_SCORE + s] = st[ST_HAND_SCORE + s]


@njit
def play_game(rules, vals, ace_low, lineup, params, seed, game, out_game, out_hands, trace, full, family):
    """Play one game to its end (or the hand cap). Fills out_game (G_*) and out_hands rows.

    ``full`` selects the engine: None for the lean one (see ``variation_stack``), an array for all
    variation paths; ``family`` likewise the strategies (``strategies.dispatch.family_switch``).
    """
    g = new_context(rules, vals, ace_low, lineup, params, trace, family)
    stack = variation_stack(rules, full)
    st = g.st
    rng_deal = g.rng_deal
    n = rules[R_N_PLAYERS]
    seed_game(g, seed, game)
    standard = rules[R_GAME] == GAME_STANDARD
    out_game[:] = 0
    out_game[G_FIRST_DEALER] = st[ST_DEALER]
    record(trace, st, T_GAME_START, n, st[ST_DEALER], game & 0x7FFFFFFF, rules[R_TARGET], rules[R_GAME], 0, 0)
    winner = -1
    turns = 0
    capped_hands = 0
    finished = False
    h = 0
    while h < rules[R_HAND_CAP]:
        st[ST_HAND_INDEX] = h
        seed_stream(rng_deal, seed, game, STREAM_DEAL, h)  # the deal of hand h never depends on play
        dealer = st[ST_DEALER]
        reason, out_seat, hand_turns = play_hand(g, stack)
        turns += hand_turns
        if reason == END_TURN_CAP:
            capped_hands += 1
        if out_hands.shape[0] > 0:
            store_hand_row(out_hands[h], st, n, dealer, reason, out_seat, hand_turns)
        h += 1
        if rules[R_NEXT_DEALER] == DEALER_WINNER and out_seat >= 0:
            st[ST_DEALER] = out_seat  # V500-WINNERDEALS
        else:
            st[ST_DEALER] = (dealer + 1) % n  # R500-DEAL-3
        if standard:
            if h >= rules[R_GAME_HANDS]:  # RSTD-GAME-1
                best = st[ST_TOTAL]
                for s in range(1, n):
                    best = max(best, st[ST_TOTAL + s])
                winner = unique_best(st, n, best)
                finished = True
                break
        else:
            winner = game_winner(st, rules, n, out_seat)
            if winner >= 0:
                finished = True
                break
    capped = 0 if finished else 1
    record(trace, st, T_GAME_END, winner, h, capped, 0, 0, 0, 0)
    out_game[G_WINNER] = winner
    out_game[G_HANDS] = h
    out_game[G_TURNS] = turns
    out_game[G_CAPPED] = capped
    out_game[G_CAPPED_HANDS] = capped_hands
    for s in range(n):
        out_game[G_TOTAL + s] = st[ST_TOTAL + s]
    return st[ST_TPOS], st[ST_TOVER]


@njit
def play_single_hand(rules, vals, ace_low, lineup, params, seed, index, out_hand, full, family):
    """``--unit hands``: one independent hand from zero totals with a random dealer."""
    g = new_context(rules, vals, ace_low, lineup, params, None, family)
    stack = variation_stack(rules, full)
    st = g.st
    seed_game(g, seed, index)
    seed_stream(g.rng_deal, seed, index, STREAM_DEAL, 0)
    dealer = st[ST_DEALER]
    reason, out_seat, turns = play_hand(g, stack)
    store_hand_row(out_hand, st, rules[R_N_PLAYERS], dealer, reason, out_seat, turns)
