"""Table melds of a 500 Rum / Standard Rummy replay and the "could this card be played?" tests
(V500-RUMMY-2/5/6 call eligibility, V500-UNPLAYABLE-1), with the partnership lay-off rights
(V500-PARTNER-1), Persian rummy's joker sets (V500-PERSIAN-2) and Dealer's gambit's sealed melds
and jokers that are not wild (V500-GAMBIT-3/5)."""

from __future__ import annotations

from typing import Mapping

from rummysim.validate.cards import JOKER, run_rank


class Meld:
    """A meld on the table.  Runs: positions lo..hi, all occupied (R500-MELD-3)."""

    __slots__ = ("kind", "key", "lo", "hi", "count", "suits", "owner", "laid", "placed", "sealed")

    def __init__(self, kind: int, key: int, lo: int, hi: int, count: int, suits: int,
                 owner: int) -> None:
        self.kind = kind  # 0 set, 1 run
        self.key = key  # set: rank; run: suit
        self.lo = lo
        self.hi = hi
        self.count = count
        self.suits = suits  # set: bit mask of the natural suits present (R500-MELD-2)
        self.owner = owner  # seat of the MELD record (V500-ADDOPP-2, V500-PARTNER-1)
        self.laid = count  # cards of the MELD record (V500-PERSIAN-3: a set of four laid at once)
        self.placed: list[list[int]] = []  # [credited seat (-1: nobody), card, pos]
        self.sealed = False  # V500-GAMBIT-5: a joker doubles it; no lay-off may name it


JOKER_SET_KEY = 0  # V500-PERSIAN-2: a set MELD with key 0 is a joker set (trace spec)


def fits_set(m: Meld, c: int, persian: bool = False) -> bool:
    """Can card ``c`` alone be laid off on set ``m`` (R500-MELD-1/2/8; Persian rummy: a joker
    only on a joker set, V500-PERSIAN-2)?"""
    if m.count >= 4:
        return False
    if c == JOKER:
        return not persian or m.key == JOKER_SET_KEY
    return (c & 15) == m.key and not (m.suits >> (c >> 4)) & 1


def fits_run(m: Meld, c: int, nat: Mapping[int, int], jokers: int, corner: bool,
              max_pos: int) -> bool:
    """Can ``c`` be laid off on run ``m``, the gap between it and the run (if any) being filled by
    helper naturals ``nat`` (card -> count) and ``jokers`` helper jokers, laid off with it?"""
    suit = m.key
    span = m.hi - m.lo + 1
    for step in (-1, 1):
        p = m.lo - 1 if step < 0 else m.hi + 1
        length = span
        j = jokers
        used: dict[int, int] = {}
        while True:
            length += 1
            if length > 13:
                break
            if not corner and (p < 1 or p > max_pos):
                break
            r = run_rank(p)
            if c == JOKER or (c >> 4 == suit and c & 15 == r):
                return True
            need = 16 * suit + r
            u = used.get(need, 0)
            if nat.get(need, 0) > u:
                used[need] = u + 1
            elif j > 0:
                j -= 1
            else:
                break
            p += step
    return False


def fits_table(melds: list[Meld], c: int, corner: bool, max_pos: int,
                nat: Mapping[int, int] | None = None, jokers: int = 0, persian: bool = False,
                owners: frozenset[int] | None = None, wild: bool = True) -> bool:
    """Can ``c`` be laid off on a table meld (helped by ``nat`` / ``jokers`` as in
    :func:`fits_run`)?  ``owners``: only melds created by these seats (V500-PARTNER-1
    ``team_only``); ``persian``: jokers are not wild (V500-PERSIAN-2); ``wild`` false: jokers go
    on no meld at all (Dealer's gambit ``double`` / ``split``, V500-GAMBIT-3).  A sealed meld
    takes no lay-off (V500-GAMBIT-5)."""
    nat = nat or {}
    if not wild:
        if c == JOKER:
            return False
        jokers = 0
    if persian:
        if c == JOKER:
            return any(m.kind == 0 and fits_set(m, c, True)
                       and (owners is None or m.owner in owners) for m in melds)
        jokers = 0
    for m in melds:
        if m.sealed or (owners is not None and m.owner not in owners):
            continue
        if m.kind == 0:
            if fits_set(m, c, persian):
                return True
        elif fits_run(m, c, nat, jokers, corner, max_pos):
            return True
    return False


def new_meld_with(c: int, nat: Mapping[int, int], jokers: int, corner: bool, max_pos: int,
                   min_run: int, persian: bool = False, wild: bool = True) -> bool:
    """Is there a new set or run holding ``c`` and otherwise only helper cards (``nat`` naturals,
    ``jokers`` jokers)?  Runs need ``min_run`` cards (V500-RUN4).  ``persian``: a joker only in a
    joker set, naturals without jokers (V500-PERSIAN-2); ``wild`` false: no jokers at all
    (V500-GAMBIT-3)."""
    if not wild:
        if c == JOKER:
            return False
        jokers = 0
    if persian:
        if c == JOKER:
            return jokers >= 2
        jokers = 0
    # sets (R500-MELD-1/2): distinct natural suits, jokers for the rank
    if c == JOKER:
        if jokers >= 2:
            return True
        for r in range(1, 14):
            d = sum(1 for s in range(4) if nat.get(16 * s + r, 0) > 0)
            if d + jokers >= 2:
                return True
    else:
        r, cs = c & 15, c >> 4
        d = sum(1 for s in range(4) if s != cs and nat.get(16 * s + r, 0) > 0)
        if d + jokers >= 2:
            return True
    # runs (R500-MELD-3/4, V500-CORNER): a window of min_run positions holding c
    L = min_run
    suits = range(4) if c == JOKER else (c >> 4,)
    starts = range(1, 14) if corner else range(1, max_pos - L + 2)
    for s in suits:
        for a in starts:
            missing = 0
            has_c = c == JOKER
            for p in range(a, a + L):
                r = run_rank(p)
                if not has_c and c & 15 == r:
                    has_c = True
                    continue
                if nat.get(16 * s + r, 0) <= 0:
                    missing += 1
            if has_c and missing <= jokers + (1 if c == JOKER else 0):
                return True
    return False

