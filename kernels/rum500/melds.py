"""Meld geometry and the enumeration of melds and lay-offs a holding can make (R500-MELD-*).

Sets (R500-MELD-1/2/6, RSTD-MELD-1) are 3-4 cards of one rank with distinct natural suits;
jokers stand for the rank only. Runs (R500-MELD-3/4/5, RSTD-MELD-2) are 3-13 consecutive
*positions* of one suit: position ``p`` is rank ``((p-1) mod 13) + 1``, so 1..13 are A..K, 14 is
the ace played high and, with round-the-corner runs (V500-CORNER), 15..26 continue 2..K.
``R_MAX_POS`` is 13 where aces are low only, 14 for ace low or high (never both), 26 with
V500-CORNER; a run's first position is always in 1..13. All tests work on the first count plane
``p1``: a meld never holds two copies of one card.

``enumerate_plays`` lists candidate play actions into an int64 table (columns ``A_*``, one
``Action`` a row) for a holding and a ``Table``: the melds on the table with the card values and
rules that decide what fits and what it scores. For each
rank, suit window or meld end it emits the *canonical* action: every needed position is filled
with a held natural card when there is one, otherwise with a joker. Every legal meld or lay-off
is therefore reachable up to the choice of which copy or joker fills a slot. The same function,
restricted to actions containing one card, decides whether a discard-pile take or a rummy call is
legal (R500-DRAW-5, V500-RUMMY-2, C-LEGAL-1), so legality and the actions offered afterwards
always agree. Under Dealer's gambit (``Table.gambit``) the enumeration follows the hand's joker
effect: wild jokers (and the dealer's joker for the dealer), or non-wild jokers with doubled
variants of new melds; doubled melds are sealed (V500-GAMBIT-4/5/7).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba.extending import overload

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.planes import (
    ACES_LOW, ALL_NATURALS, LANE_RANKS, RANK_IN_EACH_SUIT, U1, U16, U32, U48, bit, card_id, has_card, lowest_bit_index, popcount,
    rank_of, suit_of,
)
from rummysim.kernels.rum500.layout import (
    A_KEY,
    A_LEN,
    A_LO,
    A_MASK,
    A_MELD,
    A_NCARDS,
    A_NJOK,
    A_SIDE,
    A_TYPE,
    A_VALUE,
    A_GAMBIT,
    ACT_LAYOFF,
    ACT_MELD_RUN,
    ACT_MELD_SET,
    AG_DEALER_WILD,
    AG_DOUBLE_DEALER,
    AG_DOUBLE_HAND,
    AG_NONE,
    EFFECT_DOUBLE,
    EFFECT_WILD,
    GB_DEALERS_JOKER,
    GB_EFFECT,
    JOKER,
    KIND_SET,
    MAX_CAND,
    MK_KEY,
    MK_KIND,
    MK_LEN,
    MK_CREATOR,
    MK_DOUBLE,
    MK_LO,
    MK_SUITS,
    PARTNER_PERSIAN,
    PLAY_ALL,
    PLAY_LAYOFF_ONLY,
    PLAY_NEW_ONLY,
    R_MAX_POS,
    R_MIN_RUN,
    R_PARTNERSHIP,
    R_TEAM_ONLY,
    SIDE_HIGH,
    SIDE_LOW,
)

Table = namedtuple("Table", "melds n_melds vals ace_low rules team gambit", defaults=(0,))
"""The table as the meld search reads it: ``melds[:n_melds]`` (int16, columns ``MK_*``), the value
of each card id (``cards.natural_value_table``), an ace's value when a run starts with it, the
rules vector, ``team``: -1 when lay-offs may go on any meld, else the team (0 or 1) whose
melds alone may take them (V500-PARTNER-1 ``team_only``; see :func:`layoff_team`), and
``gambit``: 0 without Dealer's gambit, else the hand's effect (``GB_EFFECT`` bits, ``EFFECT_*``)
plus ``GB_DEALERS_JOKER`` when the holding searched may also use the dealer's joker
(V500-GAMBIT-7; see :func:`_enumerate_gambit`)."""

Action = namedtuple("Action", "typ meld key lo length mask njok value ncards side")
"""One candidate action, the ``A_*`` columns of its row (see ``kernels.rum500.layout``)."""


@njit_noalloc
def layoff_team(rules, seat):
    """The team whose melds ``seat`` may lay off on, or -1 for any meld (V500-PARTNER-1)."""
    return seat % 2 if rules[R_TEAM_ONLY] != 0 else -1


@njit_noalloc
def may_lay_off_on(melds, m, team):
    """Lay-offs on meld m are open to the team (-1: to everyone): V500-PARTNER-1 ``team_only``
    allows only the melds created by the seat or its partner."""
    return team < 0 or melds[m, MK_CREATOR] % 2 == team


@njit_noalloc
def bit_tests_exact(max_pos, team, partnership, gambit):
    """The bit-test shortcuts of the play-existence tests hold: no round-the-corner runs, no
    lay-off restriction, wild jokers from the hand only (not Persian rummy's joker sets, nor
    Dealer's gambit, whose jokers may be non-wild, the dealer's joker extra, melds sealed)."""
    return max_pos <= 14 and team < 0 and partnership != PARTNER_PERSIAN and gambit == 0


@njit_inline
def without_dealers_joker(table):
    """The same table for a holding that may not use the dealer's joker (V500-GAMBIT-7)."""
    return Table(table.melds, table.n_melds, table.vals, table.ace_low, table.rules, table.team,
                 table.gambit & GB_EFFECT)


@njit_noalloc
def pos_rank(pos):
    return (pos - 1) % 13 + 1


@njit_noalloc
def pos_card(suit, pos):
    """Natural card id that occupies run position pos (1..26) of a suit."""
    return card_id(suit, pos_rank(pos))


@njit_noalloc
def run_lane(p1, suit):
    """Held positions of a suit as bits 1..26 (bits 14..26 repeat ranks A..K one lap higher)."""
    lane = (np.uint64(p1) >> np.uint64(16 * suit)) & np.uint64(0x3FFE)
    return lane | (lane << np.uint64(13))


@njit_noalloc
def lane_has(lane, pos):
    return (lane >> np.uint64(pos)) & U1 == U1


@njit_inline
def slot_value(vals, ace_low, card, kind, first):
    """Points a card scores on the table (R500-SCORE-2): an ace that starts a run is used low."""
    if card == JOKER:
        return vals[JOKER]
    if kind != KIND_SET and first and rank_of(card) == 1:
        return ace_low
    return vals[card]


@njit_noalloc
def must_matches(must, mask, njok):
    """True if an action putting down (mask, njok) contains the card ``must`` (C-TURN-4)."""
    if must < 0:
        return True
    if must == JOKER:
        return njok > 0
    return (mask >> np.uint64(must)) & U1 == U1


@njit_inline
def _emit(cand, n, limit, act, best_only):
    """Write ``act`` into row n unless the table is full; returns the new row count. With
    ``best_only`` (``best_play``) row 0 keeps the first action of the highest value instead, and
    the count is the rows the listing would have."""
    if n >= limit:
        return n
    row = n
    if best_only:
        if n > 0 and act.value <= cand[0, A_VALUE]:
            return n + 1
        row = 0
    cand[row, A_TYPE] = act.typ
    cand[row, A_MELD] = act.meld
    cand[row, A_KEY] = act.key
    cand[row, A_LO] = act.lo
    cand[row, A_LEN] = act.length
    cand[row, A_MASK] = np.int64(act.mask)
    cand[row, A_NJOK] = act.njok
    cand[row, A_VALUE] = act.value
    cand[row, A_NCARDS] = act.ncards
    cand[row, A_SIDE] = act.side
    cand[row, A_GAMBIT] = AG_NONE
    return n + 1


@njit_noalloc
def rank_lanes(p1):
    """The four suit lanes of a holding (bits 1..13 = ranks A..K)."""
    x = np.uint64(p1)
    return x & LANE_RANKS, (x >> U16) & LANE_RANKS, (x >> U32) & LANE_RANKS, (x >> U48) & LANE_RANKS


@njit_noalloc
def set_ranks(p1, jok):
    """Ranks (as bits 1..13) held in at least ``3 - jok`` suits: the ranks a new set can use."""
    if jok >= 3:
        return LANE_RANKS
    a, b, c, d = rank_lanes(p1)
    if jok == 2:
        return a | b | c | d
    if jok == 1:
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)


@njit_inline
def _enumerate_sets(p1, jok, must, vals, cand, n, limit, best_only):
    ranks = set_ranks(p1, jok)  # skip the ranks that cannot make a set (same rows, in rank order)
    if must >= 0 and must != JOKER:
        ranks &= U1 << np.uint64(rank_of(must))
    while ranks:
        r = lowest_bit_index(ranks)
        ranks &= ranks - U1
        smask = 0
        for s in range(4):
            if has_card(p1, card_id(s, r)):
                smask |= 1 << s
        for sub in range(16):
            if sub & ~smask:
                continue
            k = popcount(np.uint64(sub))
            mask = np.uint64(0)
            value = 0
            for s in range(4):
                if sub & (1 << s):
                    mask |= bit(card_id(s, r))
                    value += vals[card_id(s, r)]
            for j in range(0, min(jok, 4 - k) + 1):
                size = k + j
                if size < 3:
                    continue
                if not must_matches(must, mask, j):
                    continue
                n = _emit(cand, n, limit, Action(typ=ACT_MELD_SET, meld=-1, key=r, lo=0, length=size,
                    mask=mask, njok=j, value=value + j * vals[JOKER], ncards=size, side=0), best_only)
                if n >= limit:
                    return n
    return n


@njit_inline
def run_starts(lane, jok, min_run, max_pos):
    """First positions (bits 1..13) whose window of ``min_run`` positions fits below ``max_pos`` with
    at most ``jok`` gaps: the only places where a new run of ``lane``'s suit can begin."""
    last = min(13, max_pos - min_run + 1)
    if last < 1:
        return np.uint64(0)
    fits = (U1 << np.uint64(last + 1)) - np.uint64(2)
    if jok >= min_run:
        return fits
    if min_run == 3:
        l1 = lane >> U1
        l2 = lane >> np.uint64(2)
        if jok == 0:
            return fits & lane & l1 & l2
        if jok == 1:
            return fits & ((lane & l1) | (lane & l2) | (l1 & l2))
        return fits & (lane | l1 | l2)
    window = np.uint64((1 << min_run) - 1)
    starts = np.uint64(0)
    for lo in range(1, last + 1):
        if min_run - popcount((lane >> np.uint64(lo)) & window) <= jok:
            starts |= U1 << np.uint64(lo)
    return starts


@njit_inline
def _enumerate_runs(p1, jok, must, table, cand, n, limit, best_only):
    vals = table.vals
    ace_low = table.ace_low
    max_pos = table.rules[R_MAX_POS]
    min_run = table.rules[R_MIN_RUN]
    if max_pos <= 14 and not _runs_possible(p1, jok, max_pos, min_run):
        return n  # every run row holds a window of min_run with a natural card and few gaps
    for s in range(4):
        if must >= 0 and must != JOKER and suit_of(must) != s:
            continue
        lane = run_lane(p1, s)
        if lane == 0:
            continue
        starts = run_starts(lane, jok, min_run, max_pos)  # the same rows, without the empty windows
        while starts:
            lo = lowest_bit_index(starts)
            starts &= starts - U1
            gaps = 0
            naturals = 0
            mask = np.uint64(0)
            value = 0
            for hi in range(lo, min(max_pos, lo + 12) + 1):
                if lane_has(lane, hi):
                    naturals += 1
                    mask |= bit(pos_card(s, hi))
                    value += ace_low if (hi == lo and pos_rank(hi) == 1) else vals[pos_card(s, hi)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                length = hi - lo + 1
                if length >= min_run and naturals >= 1 and must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, Action(typ=ACT_MELD_RUN, meld=-1, key=s, lo=lo, length=length,
                        mask=mask, njok=gaps, value=value, ncards=length, side=0), best_only)
                    if n >= limit:
                        return n
    return n


@njit_inline
def _enumerate_layoffs(p1, jok, must, table, cand, n, limit, best_only):
    melds = table.melds
    vals = table.vals
    ace_low = table.ace_low
    max_pos = table.rules[R_MAX_POS]
    corner = max_pos > 14
    # a natural must-card only fits melds of its rank (sets) or suit (runs)
    must_rank = rank_of(must) if (must >= 0 and must != JOKER) else -1
    must_suit = suit_of(must) if must_rank >= 0 else -1
    team = table.team
    sealable = table.gambit != 0
    for m in range(table.n_melds):
        if not may_lay_off_on(melds, m, team):
            continue
        if sealable and melds[m, MK_DOUBLE] != 0:
            continue  # V500-GAMBIT-5: a doubled meld is sealed
        if melds[m, MK_KIND] == KIND_SET:
            r = np.int64(melds[m, MK_KEY])  # int64: the card-id helpers compile once
            if melds[m, MK_LEN] >= 4 or (must_rank >= 0 and r != must_rank):
                continue  # R500-MELD-1: a set never exceeds 4 cards
            present = melds[m, MK_SUITS]
            for s in range(4):
                c = card_id(s, r)
                if (present >> s) & 1 == 0 and has_card(p1, c):  # R500-MELD-2
                    b = bit(c)
                    if must_matches(must, b, 0):
                        n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=r, lo=0,
                            length=melds[m, MK_LEN] + 1, mask=b, njok=0, value=vals[c], ncards=1, side=0), best_only)
            if jok > 0 and must_matches(must, np.uint64(0), 1):
                n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=r, lo=0,
                    length=melds[m, MK_LEN] + 1, mask=np.uint64(0), njok=1, value=vals[JOKER], ncards=1,
                    side=0), best_only)
        else:
            s = np.int64(melds[m, MK_KEY])
            if must_suit >= 0 and s != must_suit:
                continue
            lo = melds[m, MK_LO]
            length = melds[m, MK_LEN]
            hi = lo + length - 1
            lane = run_lane(p1, s)
            # a joker standing for the next card at either end, even one its owner holds: the
            # canonical blocks below would use the held card there
            if jok > 0 and must_matches(must, np.uint64(0), 1) and length < 13:
                if hi + 1 <= max_pos and lane_has(lane, hi + 1):
                    n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=s, lo=lo, length=length + 1,
                        mask=np.uint64(0), njok=1, value=vals[JOKER], ncards=1, side=SIDE_HIGH), best_only)
                low = lo - 1 if lo > 1 else (13 if corner else 0)
                if low >= 1 and lane_has(lane, low):
                    n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=s, lo=low, length=length + 1,
                        mask=np.uint64(0), njok=1, value=vals[JOKER], ncards=1, side=SIDE_LOW), best_only)
            # extend the high end by d cards (R500-MELD-8: one card or a block of them)
            gaps = 0
            mask = np.uint64(0)
            value = 0
            for d in range(1, 14 - length):
                p = hi + d
                if p > max_pos:
                    break
                if lane_has(lane, p):
                    mask |= bit(pos_card(s, p))
                    value += vals[pos_card(s, p)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                if must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=s, lo=lo, length=length + d,
                        mask=mask, njok=gaps, value=value, ncards=d, side=SIDE_HIGH), best_only)
            # extend the low end (below position 1 only round the corner, one lap up)
            gaps = 0
            mask = np.uint64(0)
            value = 0
            for d in range(1, 14 - length):
                p = lo - d
                if p < 1:
                    if not corner:
                        break
                    p += 13
                if lane_has(lane, p):
                    mask |= bit(pos_card(s, p))
                    value += ace_low if pos_rank(p) == 1 else vals[pos_card(s, p)]
                else:
                    gaps += 1
                    value += vals[JOKER]
                    if gaps > jok:
                        break
                if must_matches(must, mask, gaps):
                    n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=s, lo=p, length=length + d,
                        mask=mask, njok=gaps, value=value, ncards=d, side=SIDE_LOW), best_only)
        if n >= limit:
            return n
    return n


@njit_noalloc
def enumerate_plays(p1, jok, must, table, scope, cand, n, limit):
    """Append the canonical melds and lay-offs of holding (p1, jok) on ``table`` to ``cand`` from row n.

    With ``must`` >= 0 only actions containing that card (a natural id or JOKER) are listed;
    ``scope`` (PLAY_*) limits them to new melds or to lay-offs. Returns the new row count, at most
    ``limit``.
    """
    if table.rules[R_PARTNERSHIP] == PARTNER_PERSIAN or table.gambit != 0:
        return rare_enumeration(table.rules, p1, jok, must, table, scope, cand, n, limit)
    if scope != PLAY_LAYOFF_ONLY:
        n = _sets_called(p1, jok, must, table.vals, cand, n, limit)
        n = _runs_called(p1, jok, must, table, cand, n, limit)
    if scope != PLAY_NEW_ONLY:
        n = _layoffs_called(p1, jok, must, table, cand, n, limit)
    return n


def rare_enumeration(rules, p1, jok, must, table, scope, cand, n, limit):
    """``enumerate_plays`` under Persian rummy (V500-PERSIAN) or Dealer's gambit (V500-GAMBIT):
    compiled only into the full engine, which passes ``rules`` read-only (see the overload)."""
    raise NotImplementedError("numba only: built by rare_enumeration_for")


@overload(rare_enumeration, inline="always")
def rare_enumeration_for(rules, p1, jok, must, table, scope, cand, n, limit):
    """Built for the rules vector's type: the full engine passes it read-only
    (``kernels.rum500.batch.engine_rules``), and only then is the rare enumeration typed, so the
    lean engine never compiles it (about 2-5 s of every cold compile, issue 19 point 4). The lean
    engine's body refuses those rules at run time instead of playing them wrong; the batch
    runners never send them there (``needs_full_engine``)."""
    if not rules.mutable:
        def full_engine(rules, p1, jok, must, table, scope, cand, n, limit):
            if rules[R_PARTNERSHIP] == PARTNER_PERSIAN:
                return _enumerate_persian(p1, jok, must, table, scope, cand, n, limit)
            return _enumerate_gambit(p1, jok, must, table, scope, cand, n, limit)
        return full_engine

    def lean_engine(rules, p1, jok, must, table, scope, cand, n, limit):
        if n >= 0:  # always: a body that only raises would type as returning None
            raise ValueError("Persian rummy and Dealer's gambit need the full engine (a read-only rules vector)")
        return n
    return lean_engine


@njit_noalloc
def best_play(p1, jok, must, table, cand, targets, joker_ok):
    """Row 0 of ``cand``: the first action of the highest value that ``enumerate_plays`` (every
    scope, up to ``MAX_CAND`` rows) would list, which is a greedy play-out's next play. Returns how
    many actions it would list (0: none, and row 0 is left as it was). Not writing the other rows,
    nor reading them back, is what a play-out saves (issue 19 point 3). ``targets`` and
    ``joker_ok`` are the table's ``layoff_targets``: without a card among the targets, nor a joker
    and a meld that takes one, no lay-off starts, and the table's melds are not read."""
    if table.rules[R_PARTNERSHIP] == PARTNER_PERSIAN or table.gambit != 0:
        # cand may be a view from a later row of the engine's table: never list past its end
        n = enumerate_plays(p1, jok, must, table, PLAY_ALL, cand, 0, min(MAX_CAND, cand.shape[0]))
        best = 0
        for i in range(1, n):
            if cand[i, A_VALUE] > cand[best, A_VALUE]:
                best = i
        if best > 0:
            _copy_action(cand, 0, best)
        return n
    n = _enumerate_sets(p1, jok, must, table.vals, cand, 0, MAX_CAND, True)
    n = _enumerate_runs(p1, jok, must, table, cand, n, MAX_CAND, True)
    if table.rules[R_MAX_POS] <= 14 and np.uint64(p1) & targets == 0 and not (jok > 0 and joker_ok):
        return n  # layoff_targets holds without round-the-corner runs
    return _enumerate_layoffs(p1, jok, must, table, cand, n, MAX_CAND, True)


@njit_noalloc
def _sets_called(p1, jok, must, vals, cand, n, limit):
    """``_enumerate_sets`` as a call, for ``enumerate_plays`` and the rare paths (Dealer's gambit,
    Persian rummy). Inlined at the rare paths' nine call sites it cost about a fifth of every cold
    compile, lean engine included; ``enumerate_plays`` inlined it too until session 22, and calling
    it instead compiles each enumerator once less (a few seconds of every cold compile) with greedy
    as fast (74-76k hands/s both ways, alternating runs). ``best_play``, the play-outs' search,
    keeps its own inlined copies (``best_only``)."""
    return _enumerate_sets(p1, jok, must, vals, cand, n, limit, False)


@njit_noalloc
def _runs_called(p1, jok, must, table, cand, n, limit):
    """``_enumerate_runs`` as a call, for the rare paths (see ``_sets_called``)."""
    return _enumerate_runs(p1, jok, must, table, cand, n, limit, False)


@njit_noalloc
def _layoffs_called(p1, jok, must, table, cand, n, limit):
    """``_enumerate_layoffs`` as a call, for the rare paths (see ``_sets_called``)."""
    return _enumerate_layoffs(p1, jok, must, table, cand, n, limit, False)


@njit_inline
def _copy_action(cand, dst, src):
    for j in range(cand.shape[1]):
        cand[dst, j] = cand[src, j]


@njit_noalloc
def _enumerate_gambit(p1, jok, must, table, scope, cand, n, limit):
    """``enumerate_plays`` under Dealer's gambit (V500-GAMBIT-4/5/7).

    ``wild``: jokers are wild (worth 0, by the rules vector), and a holding that may use the
    dealer's joker has one joker more; a play that puts down a joker then uses the dealer's joker
    first (``AG_DEALER_WILD``, A_NJOK counting only the hand's jokers: docs/rules-decisions.md).
    ``double`` and ``split``: jokers are not wild, so only natural melds and lay-offs; under
    ``double`` each new meld is listed a second time doubled by a joker (the dealer's joker
    first, else one from hand), at twice its value. Sealed melds take no lay-offs.
    """
    effect = table.gambit & GB_EFFECT
    dealers = table.gambit & GB_DEALERS_JOKER != 0
    if effect == EFFECT_WILD:
        first = n
        extra = 1 if dealers and must != JOKER else 0  # a taken joker's duty is met by that joker
        if scope != PLAY_LAYOFF_ONLY:
            n = _sets_called(p1, jok + extra, must, table.vals, cand, n, limit)
            n = _runs_called(p1, jok + extra, must, table, cand, n, limit)
        if scope != PLAY_NEW_ONLY:
            n = _layoffs_called(p1, jok + extra, must, table, cand, n, limit)
        if dealers:
            for i in range(first, n):
                if cand[i, A_NJOK] > 0:
                    cand[i, A_NJOK] -= 1
                    cand[i, A_GAMBIT] = AG_DEALER_WILD
        return n
    if must == JOKER:
        return n  # a non-wild joker goes into no meld
    if scope != PLAY_LAYOFF_ONLY:
        first = n
        n = _sets_called(p1, 0, must, table.vals, cand, n, limit)
        n = _runs_called(p1, 0, must, table, cand, n, limit)
        if effect == EFFECT_DOUBLE and (dealers or jok > 0):
            last = n
            for i in range(first, last):
                if n >= limit:
                    return n
                _copy_action(cand, n, i)
                cand[n, A_VALUE] *= 2
                cand[n, A_NJOK] = 0 if dealers else 1
                cand[n, A_GAMBIT] = AG_DOUBLE_DEALER if dealers else AG_DOUBLE_HAND
                n += 1
    if scope != PLAY_NEW_ONLY:
        n = _layoffs_called(p1, 0, must, table, cand, n, limit)
    return n


@njit_inline
def _enumerate_joker_sets(jok, must, table, scope, cand, n, limit):
    """Persian rummy's joker plays (V500-PERSIAN-2/3): a set of 3 or 4 jokers (four laid at once
    score double), or a 4th joker laid off on a 3-joker set."""
    vj = table.vals[JOKER]
    if must >= 0 and must != JOKER:
        return n
    if scope != PLAY_LAYOFF_ONLY:
        for size in range(3, min(jok, 4) + 1):
            value = size * vj * (2 if size == 4 else 1)
            n = _emit(cand, n, limit, Action(typ=ACT_MELD_SET, meld=-1, key=0, lo=0, length=size,
                mask=np.uint64(0), njok=size, value=value, ncards=size, side=0), False)
    if scope != PLAY_NEW_ONLY and jok >= 1:
        melds = table.melds
        for m in range(table.n_melds):
            if melds[m, MK_KIND] == KIND_SET and melds[m, MK_KEY] == 0 and melds[m, MK_LEN] == 3 \
                    and may_lay_off_on(melds, m, table.team):
                n = _emit(cand, n, limit, Action(typ=ACT_LAYOFF, meld=m, key=0, lo=0, length=4,
                    mask=np.uint64(0), njok=1, value=vj, ncards=1, side=0), False)
    return n


@njit_noalloc
def _enumerate_persian(p1, jok, must, table, scope, cand, n, limit):
    """``enumerate_plays`` under V500-PERSIAN: the natural melds and lay-offs with no wild jokers
    (a set of four natural cards laid at once credited double, V500-PERSIAN-3), then the joker
    sets."""
    if must != JOKER:
        if scope != PLAY_LAYOFF_ONLY:
            first = n
            n = _sets_called(p1, 0, must, table.vals, cand, n, limit)
            for i in range(first, n):
                if cand[i, A_LEN] == 4:
                    cand[i, A_VALUE] *= 2
            n = _runs_called(p1, 0, must, table, cand, n, limit)
        if scope != PLAY_NEW_ONLY:
            n = _layoffs_called(p1, 0, must, table, cand, n, limit)
    return _enumerate_joker_sets(jok, must, table, scope, cand, n, limit)


@njit_noalloc
def _starts_through(p, min_run):
    """Run start positions whose window of ``min_run`` positions contains position p, as bits."""
    return ((U1 << np.uint64(p + 1)) - U1) & ~((U1 << np.uint64(max(0, p - min_run + 1))) - U1)


@njit_noalloc
def _block_reaches(lane, frm, to, jok):
    """Positions strictly between frm and to (either order) can be filled with held cards and jokers."""
    lo = min(frm, to) + 1
    hi = max(frm, to) - 1
    if hi < lo:
        return True
    width = hi - lo + 1
    held = popcount((lane >> np.uint64(lo)) & np.uint64((1 << width) - 1))
    return width - held <= jok


@njit_noalloc
def natural_playable(card, p1, jok, melds, n_melds, max_pos, min_run):
    """Exact bitwise test of ``card_playable`` for a natural card without round-the-corner runs."""
    r = rank_of(card)
    s = suit_of(card)
    if popcount((np.uint64(p1) >> np.uint64(r)) & RANK_IN_EACH_SUIT) + jok >= 3:
        return True  # a new set (R500-MELD-1/6)
    lane = run_lane(p1, s)
    starts = run_starts(lane, jok, min_run, max_pos)  # a new run through the card (R500-MELD-3)
    if starts & _starts_through(r, min_run):
        return True
    if r == 1 and max_pos >= 14 and starts & _starts_through(14, min_run):
        return True
    for m in range(n_melds):
        if melds[m, MK_KIND] == KIND_SET:
            if melds[m, MK_KEY] == r and melds[m, MK_LEN] < 4 and (melds[m, MK_SUITS] >> s) & 1 == 0:
                return True
            continue
        if melds[m, MK_KEY] != s:
            continue
        lo = melds[m, MK_LO]
        length = melds[m, MK_LEN]
        hi = lo + length - 1
        for p in (r, 14 if r == 1 else r):
            if p > max_pos:
                continue
            if p > hi and p - lo + 1 <= 13 and _block_reaches(lane, hi, p, jok):
                return True
            if p < lo and hi - p + 1 <= 13 and _block_reaches(lane, p, lo, jok):
                return True
    return False


@njit_inline
def _runs_possible(p1, jok, max_pos, min_run):
    """A new run exists (R500-MELD-3): a window of the minimum length with a natural card and at
    most ``jok`` gaps. Minimum length 3 is tested on all suits at once (bits 0 and 15 of every
    lane are empty, so no window crosses into the next suit)."""
    if min_run == 3:
        w = np.uint64(p1) & ALL_NATURALS
        if max_pos >= 14:
            w |= (np.uint64(p1) & ACES_LOW) << np.uint64(13)  # the ace played high, position 14
        if jok == 0:
            return w & (w >> U1) & (w >> np.uint64(2)) != 0
        if jok == 1:
            return (w & (w >> U1)) | (w & (w >> np.uint64(2))) != 0
        return w != 0
    for s in range(4):
        lane = run_lane(p1, s) & np.uint64(0x3FFE if max_pos < 14 else 0x7FFE)
        if lane == 0:
            continue
        for lo in range(1, 14):
            hi = lo + min_run - 1
            if hi > max_pos:
                break
            held = popcount((lane >> np.uint64(lo)) & np.uint64((1 << min_run) - 1))
            if held >= 1 and min_run - held <= jok:
                return True
    return False


@njit_noalloc
def layoff_targets(melds, n_melds, max_pos):
    """One pass over the table for the play-existence test: the natural cards that extend a meld
    on their own (a missing suit of a set of three, the positions just outside a run), and whether
    some meld still takes a joker. Round-the-corner runs are not covered (their lay-offs wrap)."""
    cards = np.uint64(0)
    joker_ok = False
    for m in range(n_melds):
        if melds[m, MK_KIND] == KIND_SET:
            if melds[m, MK_LEN] >= 4:
                continue
            joker_ok = True
            r = np.int64(melds[m, MK_KEY])
            for s in range(4):
                if (melds[m, MK_SUITS] >> s) & 1 == 0:
                    cards |= bit(card_id(s, r))
        else:
            if melds[m, MK_LEN] >= 13:
                continue
            s = np.int64(melds[m, MK_KEY])
            lo = melds[m, MK_LO]
            hi = lo + melds[m, MK_LEN] - 1
            if hi + 1 <= max_pos:
                cards |= bit(pos_card(s, hi + 1))
                joker_ok = True
            if lo - 1 >= 1:
                cards |= bit(pos_card(s, lo - 1))
                joker_ok = True
    return cards, joker_ok


@njit_inline
def hand_play_exists(p1, jok, max_pos, min_run):
    """A new set or run can be made from the holding alone (no round-the-corner runs)."""
    if jok >= 3:
        return True  # an all-joker set
    a, b, c, d = rank_lanes(p1)
    if jok == 2 and (a | b | c | d):
        return True  # any card and two jokers make a set
    if jok == 1 and ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)):
        return True
    if (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d):
        return True
    return _runs_possible(p1, jok, max_pos, min_run)


@njit_inline
def play_exists_on(p1, jok, targets, joker_ok, max_pos, min_run):
    """``has_any_play`` without round-the-corner runs, given the table's ``layoff_targets``."""
    if hand_play_exists(p1, jok, max_pos, min_run):
        return True
    return np.uint64(p1) & targets != 0 or (jok > 0 and joker_ok)


@njit_noalloc
def play_exists(p1, jok, melds, n_melds, max_pos, min_run):
    """``has_any_play`` without round-the-corner runs: bit tests and one pass over the table."""
    if hand_play_exists(p1, jok, max_pos, min_run):
        return True
    targets, joker_ok = layoff_targets(melds, n_melds, max_pos)
    return np.uint64(p1) & targets != 0 or (jok > 0 and joker_ok)


@njit_inline
def has_any_play(p1, jok, table, scratch):
    """Would ``enumerate_plays`` (all scopes, no must-card) list any action? Bit tests for the
    common geometry; round-the-corner runs ask the enumeration itself."""
    max_pos = table.rules[R_MAX_POS]  # scalars out of the record: see card_playable
    if not bit_tests_exact(max_pos, table.team, table.rules[R_PARTNERSHIP], table.gambit):
        return enumerate_plays(p1, jok, -1, table, PLAY_ALL, scratch, 0, 1) > 0
    return play_exists(p1, jok, table.melds, table.n_melds, max_pos, table.rules[R_MIN_RUN])


@njit_inline
def card_playable(card, p1, jok, table, scope, scratch):
    """True if ``card`` can be put on the table from holding (p1, jok) and the table (R500-DRAW-5).

    The common case (a natural card, any scope, no round-the-corner runs) is a handful of bit
    tests; the rest asks the enumeration for one action containing the card.
    """
    # only scalars are kept from the record: inlined into a function that counts references, an
    # array bound to a variable would cost an update of its count at every call
    max_pos = table.rules[R_MAX_POS]
    if scope == PLAY_ALL and card != JOKER and bit_tests_exact(max_pos, table.team, table.rules[R_PARTNERSHIP], table.gambit):
        return natural_playable(card, p1, jok, table.melds, table.n_melds, max_pos, table.rules[R_MIN_RUN])
    return enumerate_plays(p1, jok, card, table, scope, scratch, 0, 1) > 0
