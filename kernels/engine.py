"""The 500 Rum engine: deal, turns, melds, lay-offs, discards, hand end, scoring and game end.

Pure functions over the state arrays described in ``kernels.layout``; the rules arrive as an
int64 vector. Each decision is delegated to ``strategies.dispatch`` with an observation that holds
only what the seat may know (C-INFO-1): its own hand, the table, the pile, hand sizes, the stock
size and the scores. Rule IDs refer to ``../shared/RULES.md``.

In trace mode (a trace buffer with rows) every action is recorded as documented in
``docs/trace-format.md``; ``sim/validate.py`` replays those traces independently.
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.cards import add_card, ace_low_value, bit, holding_value, n_cards, popcount, remove_mask
from kernels.layout import (
    A_KEY,
    A_LEN,
    A_LO,
    A_MASK,
    A_MELD,
    A_NCARDS,
    A_NJOK,
    A_SIZE,
    A_TYPE,
    ACT_LAYOFF,
    ACT_MELD_SET,
    ACT_STOP,
    DISC_ANY_TAKEN,
    DISC_NONE,
    DISC_TOP_SINGLE,
    DRAW_NONE,
    DRAW_STOCK,
    END_IDLE,
    END_OUT,
    END_STOCK,
    END_TURN_CAP,
    G_CAPPED,
    G_CAPPED_HANDS,
    G_FIRST_DEALER,
    G_HANDS,
    G_SIZE,
    G_TOTAL,
    G_TURNS,
    G_WINNER,
    H_DEALER,
    H_OUT_SEAT,
    H_REASON,
    H_SCORE,
    H_TURNS,
    JOKER,
    KIND_RUN,
    KIND_SET,
    MAX_CAND,
    MAX_MELDS,
    MAX_PACK,
    MAX_SEATS,
    MK_CARD,
    MK_KEY,
    MK_KIND,
    MK_LEN,
    MK_LO,
    MK_NJOK,
    MK_OWNER,
    MK_SIZE,
    MK_SUITS,
    OB_HAND_SIZE,
    OB_MUST_CARD,
    OB_MY_JOKERS,
    OB_N,
    OB_N_MELDS,
    OB_NO_DISCARD,
    OB_PILE_LEN,
    OB_SEAT,
    OB_SIZE,
    OB_STOCK,
    OB_TOTAL,
    OB_TURN,
    R_DEAL_SIZE,
    R_DECKS,
    R_DISC_RESTRICT,
    R_HAND_CAP,
    R_IDLE_TURNS,
    R_JOKERS,
    R_N_PLAYERS,
    R_STOCK_PENALTY,
    R_TARGET,
    R_TURN_CAP,
    ST_DEALER,
    ST_GAME_INDEX,
    ST_HAND_INDEX,
    ST_HAND_SCORE,
    ST_IDLE,
    ST_JOKERS,
    ST_MUST_CARD,
    ST_N,
    ST_N_MELDS,
    ST_NO_DISCARD,
    ST_PACK_SIZE,
    ST_PILE_LEN,
    ST_PLACED,
    ST_SEAT,
    ST_SIZE,
    ST_STOCK_POS,
    ST_TAKEN_JOKER,
    ST_TAKEN_MASK,
    ST_TOTAL,
    ST_TOVER,
    ST_TPOS,
    ST_TURN,
    T_CARD,
    T_DECK,
    T_DISCARD,
    T_DRAW_STOCK,
    T_GAME_END,
    T_GAME_START,
    T_HAND_END,
    T_HAND_START,
    T_LAYOFF,
    T_MELD,
    T_NO_DRAW,
    T_SCORE,
    T_TAKE_PILE,
    T_TURN_START,
)
from kernels.melds import card_playable, enumerate_plays, pos_card, slot_value
from kernels.rng import STREAM_DEAL, STREAM_GAME, STREAM_SEAT, below, seed_stream, shuffle_int16
from strategies.dispatch import choose_discard, choose_draw, choose_play

# ----------------------------------------------------------------------------- trace


@njit
def record(trace, st, kind, a, b, c, d, e, f, g):
    """Append one trace row; a full buffer sets ST_TOVER instead of writing past the end."""
    if trace.shape[0] == 0:
        return
    i = st[ST_TPOS]
    if i >= trace.shape[0]:
        st[ST_TOVER] = 1
        return
    trace[i, 0] = kind
    trace[i, 1] = a
    trace[i, 2] = b
    trace[i, 3] = c
    trace[i, 4] = d
    trace[i, 5] = e
    trace[i, 6] = f
    trace[i, 7] = g
    st[ST_TPOS] = i + 1


# ----------------------------------------------------------------------------- state views


@njit
def stock_size(st):
    return st[ST_PACK_SIZE] - st[ST_STOCK_POS]


@njit
def hand_size(st, hands, seat):
    return n_cards(hands[seat, 0], hands[seat, 1], st[ST_JOKERS + seat])


@njit
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


# ----------------------------------------------------------------------------- deal


@njit
def fill_pack(rules, pack):
    """Pack for R500-SETUP-2/3: decks x 52 naturals plus the jokers; returns its size."""
    n = 0
    for _ in range(rules[R_DECKS]):
        for s in range(4):
            for r in range(1, 14):
                pack[n] = 16 * s + r
                n += 1
    for _ in range(rules[R_JOKERS]):
        pack[n] = JOKER
        n += 1
    return n


@njit
def start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace):
    """Shuffle and deal (R500-DEAL-1/2, C-CARD-4); the player left of the dealer starts (R500-TURN-1)."""
    n = st[ST_N]
    size = fill_pack(rules, pack)
    shuffle_int16(rng_deal, pack, size)
    st[ST_PACK_SIZE] = size
    hands[:, :] = 0
    for s in range(MAX_SEATS):
        st[ST_JOKERS + s] = 0
    deal = rules[R_DEAL_SIZE]
    dealer = st[ST_DEALER]
    for i in range(n):
        seat = (dealer + 1 + i) % n
        for j in range(deal):
            c = np.int64(pack[i * deal + j])
            if c == JOKER:
                st[ST_JOKERS + seat] += 1
            else:
                add_card(hands[seat], c)
    pile[0] = pack[n * deal]
    st[ST_PILE_LEN] = 1
    st[ST_STOCK_POS] = n * deal + 1
    st[ST_N_MELDS] = 0
    st[ST_TURN] = 0
    st[ST_IDLE] = 0
    st[ST_SEAT] = (dealer + 1) % n
    record(trace, st, T_HAND_START, st[ST_HAND_INDEX], dealer, size, deal, (dealer + 1) % n, 0, 0)
    if trace.shape[0] > 0:
        for off in range(0, size, 6):
            row = np.full(6, -1, dtype=np.int64)
            for j in range(6):
                if off + j < size:
                    row[j] = pack[off + j]
            record(trace, st, T_DECK, off, row[0], row[1], row[2], row[3], row[4], row[5])


# ----------------------------------------------------------------------------- draw


@njit
def _deep_take_playable(c, avail, ajok, taken, taken_jok, rules, melds, n_melds, vals, ace_low, scratch):
    """R500-DRAW-5 with C-LEGAL-1: the selected card can be melded and the turn can still end.

    ``avail`` holds the count planes of the hand plus the taken cards. Only the ``any_taken``
    discard restriction can forbid every card left after the meld, so only then are the meld
    actions checked one by one.
    """
    if rules[R_DISC_RESTRICT] != DISC_ANY_TAKEN:
        return card_playable(c, avail[0], ajok, melds, n_melds, vals, ace_low, scratch)
    n = enumerate_plays(avail[0], ajok, c, melds, n_melds, vals, ace_low, scratch, 0, MAX_CAND)
    for i in range(n):
        m = np.uint64(scratch[i, A_MASK])
        left = avail[0] & ~(m & ~avail[1])
        if _leaves_finish(left, ajok - scratch[i, A_NJOK], taken, taken_jok > 0):
            return True
    return False


@njit
def draw_options(st, hands, pile, melds, rules, vals, ace_low, seat, opts, scratch):
    """Legal draws (R500-DRAW-1..6, R500-STOCK-1): stock or decline, the top card, deep takes."""
    n = 0
    opts[n] = DRAW_STOCK if stock_size(st) > 0 else DRAW_NONE
    n += 1
    top = st[ST_PILE_LEN] - 1
    if top < 0:
        return n
    p1 = hands[seat, 0]
    jok = st[ST_JOKERS + seat]
    c = np.int64(pile[top])
    # R500-DRAW-2: the top card alone carries no duty, but C-LEGAL-1 needs a card left to discard
    if c == JOKER:
        top_ok = _leaves_finish(p1, jok + 1, np.uint64(0), True)
    else:
        top_ok = _leaves_finish(p1 | bit(c), jok, bit(c), False)
    if top_ok or rules[R_DISC_RESTRICT] == DISC_NONE:
        opts[n] = top
        n += 1
    avail = hands[seat].copy()
    ajok = jok
    taken = np.uint64(0)
    taken_jok = 0
    n_melds = st[ST_N_MELDS]
    for k in range(top, -1, -1):
        c = np.int64(pile[k])
        if c == JOKER:
            ajok += 1
            taken_jok += 1
        else:
            add_card(avail, c)
            taken |= bit(c)
        # R500-DRAW-3/5: a deeper card must be playable with the hand and the taken cards
        if k < top and _deep_take_playable(c, avail, ajok, taken, taken_jok, rules, melds, n_melds, vals, ace_low, scratch):
            opts[n] = k
            n += 1
    return n


@njit
def apply_draw(st, hands, pack, pile, rules, seat, opt, trace):
    """Carry out a draw; returns False if the player declined on an empty stock (hand ends)."""
    st[ST_MUST_CARD] = -1
    st[ST_NO_DISCARD] = -1
    st[ST_TAKEN_MASK] = 0
    st[ST_TAKEN_JOKER] = 0
    if opt == DRAW_NONE:
        record(trace, st, T_NO_DRAW, seat, 0, 0, 0, 0, 0, 0)
        return False
    if opt == DRAW_STOCK:
        c = np.int64(pack[st[ST_STOCK_POS]])
        st[ST_STOCK_POS] += 1
        if c == JOKER:
            st[ST_JOKERS + seat] += 1
        else:
            add_card(hands[seat], c)
        record(trace, st, T_DRAW_STOCK, seat, c, 0, 0, 0, 0, 0)
        return True
    top = st[ST_PILE_LEN] - 1
    taken = np.uint64(0)
    for i in range(opt, top + 1):
        c = np.int64(pile[i])
        if c == JOKER:
            st[ST_JOKERS + seat] += 1
            st[ST_TAKEN_JOKER] += 1
        else:
            add_card(hands[seat], c)
            taken |= bit(c)
    st[ST_TAKEN_MASK] = np.int64(taken)
    sel = np.int64(pile[opt])
    record(trace, st, T_TAKE_PILE, seat, opt, top + 1 - opt, sel, 0, 0, 0)
    st[ST_PILE_LEN] = opt
    if opt < top:
        st[ST_MUST_CARD] = sel  # R500-DRAW-3, C-TURN-4
    elif rules[R_DISC_RESTRICT] == DISC_TOP_SINGLE:
        st[ST_NO_DISCARD] = sel  # R500-DISC-2
    return True


# ----------------------------------------------------------------------------- play phase


@njit
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


@njit
def _leaves_finish(p1, jok, forb, forb_joker):
    """C-LEGAL-1: after a play, the hand is empty (out) or still holds a card that may be discarded.

    A hand left holding only forbidden cards could sometimes still go out by laying them off; such
    plays are refused anyway, since playing in another order reaches the same end.
    """
    if p1 == 0 and jok == 0:
        return True
    if (p1 & ~forb) != 0:
        return True
    return jok > 0 and not forb_joker


@njit
def play_candidates(st, hands, melds, rules, vals, ace_low, seat, cand):
    """Candidate play actions: STOP (unless a deep take is still unmelded), melds and lay-offs."""
    n = 0
    must = st[ST_MUST_CARD]
    if must < 0:
        cand[0, :] = 0
        cand[0, A_TYPE] = ACT_STOP
        n = 1
    p1 = hands[seat, 0]
    p2 = hands[seat, 1]
    jok = st[ST_JOKERS + seat]
    n = enumerate_plays(p1, jok, must, melds, st[ST_N_MELDS], vals, ace_low, cand, n, MAX_CAND)
    forb, forb_joker = forbidden_discards(st, rules)
    keep = 0
    for i in range(n):
        ok = True
        if cand[i, A_TYPE] != ACT_STOP:
            m = np.uint64(cand[i, A_MASK])
            q1 = p1 & ~(m & ~p2)  # plane 0 after removing one copy of each card put down
            ok = _leaves_finish(q1, jok - cand[i, A_NJOK], forb, forb_joker)
        if ok:
            if keep != i:
                cand[keep, :] = cand[i, :]
            keep += 1
    return keep


@njit
def apply_play(st, hands, melds, seat, act, trace):
    """Lay down a new meld or lay off on a table meld (R500-MELD-7/8, C-MELD-5 credit to seat)."""
    typ = act[A_TYPE]
    mask = np.uint64(act[A_MASK])
    njok = act[A_NJOK]
    remove_mask(hands[seat], mask)
    st[ST_JOKERS + seat] -= njok
    st[ST_PLACED] += act[A_NCARDS]
    must = st[ST_MUST_CARD]
    if must >= 0:
        if (must == JOKER and njok > 0) or (must != JOKER and (mask >> np.uint64(must)) & np.uint64(1)):
            st[ST_MUST_CARD] = -1
    if typ == ACT_LAYOFF:
        m = act[A_MELD]
        record(trace, st, T_LAYOFF, seat, m, act[A_NCARDS], 0, 0, 0, 0)
        if melds[m, MK_KIND] == KIND_SET:
            i = melds[m, MK_LEN]
            r = melds[m, MK_KEY]
            if njok > 0:
                melds[m, MK_CARD + i] = JOKER
                melds[m, MK_NJOK] += 1
                record(trace, st, T_CARD, seat, m, JOKER, 0, 0, 0, 0)
            else:
                for s in range(4):
                    c = 16 * s + r
                    if (mask >> np.uint64(c)) & np.uint64(1):
                        melds[m, MK_CARD + i] = c
                        melds[m, MK_SUITS] |= 1 << s
                        record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
            melds[m, MK_OWNER + i] = seat
            melds[m, MK_LEN] = i + 1
            return
        s = melds[m, MK_KEY]
        old_lo = melds[m, MK_LO]
        old_len = melds[m, MK_LEN]
        new_lo = act[A_LO]
        new_len = act[A_LEN]
        shift = old_lo - new_lo
        if shift > 0:
            for i in range(old_len - 1, -1, -1):
                melds[m, MK_CARD + i + shift] = melds[m, MK_CARD + i]
                melds[m, MK_OWNER + i + shift] = melds[m, MK_OWNER + i]
        for i in range(new_len):
            pos = new_lo + i
            if shift <= i < shift + old_len:
                continue
            c = pos_card(s, pos)
            card = c if (mask >> np.uint64(c)) & np.uint64(1) else JOKER
            if card == JOKER:
                melds[m, MK_NJOK] += 1
            melds[m, MK_CARD + i] = card
            melds[m, MK_OWNER + i] = seat
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
    if typ == ACT_MELD_SET:
        r = act[A_KEY]
        melds[m, MK_KIND] = KIND_SET
        record(trace, st, T_MELD, seat, m, KIND_SET, r, 0, act[A_LEN], 0)
        i = 0
        for s in range(4):
            c = 16 * s + r
            if (mask >> np.uint64(c)) & np.uint64(1):
                melds[m, MK_CARD + i] = c
                melds[m, MK_OWNER + i] = seat
                melds[m, MK_SUITS] |= 1 << s
                record(trace, st, T_CARD, seat, m, c, 0, 0, 0, 0)
                i += 1
        for _ in range(njok):
            melds[m, MK_CARD + i] = JOKER
            melds[m, MK_OWNER + i] = seat
            record(trace, st, T_CARD, seat, m, JOKER, 0, 0, 0, 0)
            i += 1
        return
    s = act[A_KEY]
    lo = act[A_LO]
    melds[m, MK_KIND] = KIND_RUN
    melds[m, MK_LO] = lo
    record(trace, st, T_MELD, seat, m, KIND_RUN, s, lo, act[A_LEN], 0)
    for i in range(act[A_LEN]):
        c = pos_card(s, lo + i)
        card = c if (mask >> np.uint64(c)) & np.uint64(1) else JOKER
        melds[m, MK_CARD + i] = card
        melds[m, MK_OWNER + i] = seat
        record(trace, st, T_CARD, seat, m, card, lo + i, 0, 0, 0)


# ----------------------------------------------------------------------------- discard


@njit
def discard_options(st, hands, rules, seat, opts):
    """Cards the seat may discard (R500-DISC-1/2, V500-DISCSAME); one entry per distinct card."""
    forb, forb_joker = forbidden_discards(st, rules)
    n = 0
    x = hands[seat, 0] & ~forb
    while x:
        low = x & (~x + np.uint64(1))
        opts[n] = popcount(low - np.uint64(1))
        n += 1
        x &= x - np.uint64(1)
    if st[ST_JOKERS + seat] > 0 and not forb_joker:
        opts[n] = JOKER
        n += 1
    return n


@njit
def apply_discard(st, hands, pile, seat, card, trace):
    if card == JOKER:
        st[ST_JOKERS + seat] -= 1
    else:
        remove_mask(hands[seat], bit(card))
    pile[st[ST_PILE_LEN]] = card
    st[ST_PILE_LEN] += 1
    record(trace, st, T_DISCARD, seat, card, 0, 0, 0, 0, 0)


# ----------------------------------------------------------------------------- hand end


@njit
def score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace):
    """R500-SCORE-1/2/3: credited table cards minus hand cards, added to the running totals."""
    n = st[ST_N]
    table = np.zeros(MAX_SEATS, dtype=np.int64)
    for m in range(st[ST_N_MELDS]):
        kind = melds[m, MK_KIND]
        lo = melds[m, MK_LO]
        for i in range(melds[m, MK_LEN]):
            card = np.int64(melds[m, MK_CARD + i])
            table[melds[m, MK_OWNER + i]] += slot_value(vals, ace_low, card, kind, lo + i)
    penalty = reason == END_OUT or rules[R_STOCK_PENALTY] != 0
    for s in range(n):
        in_hand = holding_value(vals, hands[s, 0], hands[s, 1], st[ST_JOKERS + s]) if penalty else 0
        score = table[s] - in_hand
        st[ST_HAND_SCORE + s] = score
        st[ST_TOTAL + s] += score
        record(trace, st, T_SCORE, s, score, st[ST_TOTAL + s], table[s], in_hand, 0, 0)


# ----------------------------------------------------------------------------- turns and hands


@njit
def play_turn(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, obs, mine, opts, cand, scratch, trace):
    """One turn (C-TURN-2). Returns the hand-end reason, or 0 if the hand goes on."""
    seat = st[ST_SEAT]
    sid = lineup[seat]
    rng = rngs[seat]
    empty_at_start = stock_size(st) == 0
    st[ST_PLACED] = 0
    record(trace, st, T_TURN_START, seat, st[ST_TURN], stock_size(st), st[ST_PILE_LEN], 0, 0, 0)

    nopt = draw_options(st, hands, pile, melds, rules, vals, ace_low, seat, opts, scratch)
    observe(st, hands, seat, obs, mine)
    pick = choose_draw(sid, params[seat], obs, mine, pile, melds, vals, ace_low, opts, nopt, rng, scratch)
    if not apply_draw(st, hands, pack, pile, rules, seat, opts[pick], trace):
        return END_STOCK  # R500-STOCK-1

    while True:
        ncand = play_candidates(st, hands, melds, rules, vals, ace_low, seat, cand)
        if ncand == 0:
            break
        observe(st, hands, seat, obs, mine)
        pick = choose_play(sid, params[seat], obs, mine, pile, melds, vals, ace_low, cand, ncand, rng, scratch)
        if cand[pick, A_TYPE] == ACT_STOP:
            break
        apply_play(st, hands, melds, seat, cand[pick], trace)
        if hand_size(st, hands, seat) == 0:
            return END_OUT  # R500-OUT-1: laid down every card

    nopt = discard_options(st, hands, rules, seat, opts)
    observe(st, hands, seat, obs, mine)
    pick = choose_discard(sid, params[seat], obs, mine, pile, melds, vals, ace_low, opts, nopt, rng, scratch)
    apply_discard(st, hands, pile, seat, opts[pick], trace)
    if hand_size(st, hands, seat) == 0:
        return END_OUT  # R500-OUT-1: discarded the last card

    if empty_at_start:  # R500-STOCK-2 loop guard
        st[ST_IDLE] = st[ST_IDLE] + 1 if st[ST_PLACED] == 0 else 0
        if st[ST_IDLE] >= rules[R_IDLE_TURNS]:
            return END_IDLE
    return 0


@njit
def play_hand(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, work):
    """Deal and play one hand to its end; returns (reason, seat that went out or -1, turns)."""
    obs, mine, opts, cand, scratch = work
    start_hand(st, hands, pack, pile, melds, rules, rng_deal, trace)
    n = st[ST_N]
    cap = rules[R_TURN_CAP]
    reason = 0
    out_seat = -1
    while reason == 0:
        reason = play_turn(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, obs, mine, opts, cand, scratch, trace)
        st[ST_TURN] += 1
        if reason == END_OUT:
            out_seat = st[ST_SEAT]
        elif reason == 0:
            if st[ST_TURN] >= cap:
                reason = END_TURN_CAP
            else:
                st[ST_SEAT] = (st[ST_SEAT] + 1) % n
    record(trace, st, T_HAND_END, reason, out_seat, st[ST_TURN], 0, 0, 0, 0)
    score_hand(st, hands, melds, rules, vals, ace_low, reason, out_seat, trace)
    return reason, out_seat, st[ST_TURN]


@njit
def new_work():
    obs = np.zeros(OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    opts = np.zeros(MAX_PACK + 2, dtype=np.int64)
    cand = np.zeros((MAX_CAND, A_SIZE), dtype=np.int64)
    scratch = np.zeros((MAX_CAND, A_SIZE), dtype=np.int64)
    return obs, mine, opts, cand, scratch


@njit
def game_winner(st, n, target):
    """R500-END-1/2: the unique highest total at or over the target, else -1 (another hand)."""
    best = st[ST_TOTAL]
    for s in range(1, n):
        best = max(best, st[ST_TOTAL + s])
    if best < target:
        return -1
    winner = -1
    for s in range(n):
        if st[ST_TOTAL + s] == best:
            if winner >= 0:
                return -1
            winner = s
    return winner


@njit
def play_game(rules, vals, lineup, params, seed, game, out_game, out_hands, trace):
    """Play one game to the target (or the hand cap). Fills out_game (G_*) and out_hands rows."""
    ace_low = ace_low_value(rules)
    n = rules[R_N_PLAYERS]
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    pack = np.zeros(MAX_PACK, dtype=np.int16)
    pile = np.zeros(MAX_PACK, dtype=np.int16)
    melds = np.zeros((MAX_MELDS, MK_SIZE), dtype=np.int16)
    work = new_work()
    rngs = np.zeros((MAX_SEATS, 4), dtype=np.uint64)
    for s in range(n):
        seed_stream(rngs[s], seed, game, STREAM_SEAT, s)
    rng_game = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_game, seed, game, STREAM_GAME, 0)
    rng_deal = np.zeros(4, dtype=np.uint64)

    st[ST_N] = n
    st[ST_GAME_INDEX] = game
    st[ST_DEALER] = below(rng_game, n)  # R500-SETUP-4: random first dealer
    out_game[:] = 0
    out_game[G_FIRST_DEALER] = st[ST_DEALER]
    record(trace, st, T_GAME_START, n, st[ST_DEALER], game & 0x7FFFFFFF, rules[R_TARGET], 0, 0, 0)
    winner = -1
    turns = 0
    capped_hands = 0
    h = 0
    while h < rules[R_HAND_CAP]:
        st[ST_HAND_INDEX] = h
        seed_stream(rng_deal, seed, game, STREAM_DEAL, h)  # the deal of hand h never depends on play
        dealer = st[ST_DEALER]
        reason, out_seat, hand_turns = play_hand(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, trace, work)
        turns += hand_turns
        if reason == END_TURN_CAP:
            capped_hands += 1
        if out_hands.shape[0] > 0:
            row = out_hands[h]
            row[H_DEALER] = dealer
            row[H_REASON] = reason
            row[H_OUT_SEAT] = out_seat
            row[H_TURNS] = hand_turns
            for s in range(n):
                row[H_SCORE + s] = st[ST_HAND_SCORE + s]
        h += 1
        st[ST_DEALER] = (dealer + 1) % n  # R500-DEAL-3
        winner = game_winner(st, n, rules[R_TARGET])
        if winner >= 0:
            break
    capped = 1 if winner < 0 else 0
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
def play_single_hand(rules, vals, lineup, params, seed, index, out_hand):
    """``--unit hands``: one independent hand from zero totals with a random dealer."""
    ace_low = ace_low_value(rules)
    n = rules[R_N_PLAYERS]
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    pack = np.zeros(MAX_PACK, dtype=np.int16)
    pile = np.zeros(MAX_PACK, dtype=np.int16)
    melds = np.zeros((MAX_MELDS, MK_SIZE), dtype=np.int16)
    rngs = np.zeros((MAX_SEATS, 4), dtype=np.uint64)
    for s in range(n):
        seed_stream(rngs[s], seed, index, STREAM_SEAT, s)
    rng_game = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_game, seed, index, STREAM_GAME, 0)
    rng_deal = np.zeros(4, dtype=np.uint64)
    seed_stream(rng_deal, seed, index, STREAM_DEAL, 0)
    st[ST_N] = n
    st[ST_GAME_INDEX] = index
    st[ST_DEALER] = below(rng_game, n)
    dealer = st[ST_DEALER]
    no_trace = np.zeros((0, 8), dtype=np.int32)
    reason, out_seat, turns = play_hand(st, hands, pack, pile, melds, rules, vals, ace_low, lineup, params, rngs, rng_deal, no_trace, new_work())
    out_hand[H_DEALER] = dealer
    out_hand[H_REASON] = reason
    out_hand[H_OUT_SEAT] = out_seat
    out_hand[H_TURNS] = turns
    for s in range(n):
        out_hand[H_SCORE + s] = st[ST_HAND_SCORE + s]
