"""Slow, obviously correct reference definitions of melds and lay-offs (the stumpy pattern).

Written straight from RULES.md R500-MELD-1..8 over Python sets of card ids, with no bit tricks,
to test the kernels' meld enumeration on random holdings.
"""

from __future__ import annotations

from itertools import combinations

JOKER = 64


def suit(c: int) -> int:
    return c >> 4


def rank(c: int) -> int:
    return c & 15


def position_card(s: int, pos: int) -> int:
    return 16 * s + (1 if pos == 14 else pos)


def valid_run_window(lo: int, hi: int) -> bool:
    """R500-MELD-3/4: 3..13 consecutive positions in 1..14, never holding both ace ends."""
    return 1 <= lo and hi <= 14 and 3 <= hi - lo + 1 <= 13 and not (lo == 1 and hi == 14)


def can_meld_new(card: int, naturals: set[int], jokers: int) -> bool:
    """Is there a new valid set or run containing ``card``, from ``naturals`` (holding it) and jokers?"""
    if card == JOKER:
        # a joker joins any new meld that has at least one joker slot
        for r in range(1, 14):
            suits = {suit(c) for c in naturals if rank(c) == r}
            if min(len(suits), 3) + jokers >= 3:  # k naturals + j >= 1 jokers, 3 <= k + j <= 4
                return True
        for s in range(4):
            for lo in range(1, 13):
                for hi in range(lo + 2, 15):
                    if not valid_run_window(lo, hi):
                        continue
                    held = sum(position_card(s, p) in naturals for p in range(lo, hi + 1))
                    missing = hi - lo + 1 - held
                    if held >= 1 and 1 <= missing <= jokers:
                        return True
        return False
    r, s = rank(card), suit(card)
    same_rank_suits = {suit(c) for c in naturals if rank(c) == r}
    for k in range(0, 4):  # other natural suits used in a set with the card
        for j in range(0, jokers + 1):
            if 3 <= 1 + k + j <= 4 and k <= len(same_rank_suits) - 1:
                return True
    positions = [r] if r != 1 else [1, 14]
    for pos in positions:
        for lo in range(1, 15):
            for hi in range(lo, 15):
                if lo <= pos <= hi and valid_run_window(lo, hi):
                    missing = sum(position_card(s, p) not in naturals for p in range(lo, hi + 1))
                    if missing <= jokers:
                        return True
    return False


def can_lay_off(card: int, naturals: set[int], jokers: int, table: list[dict]) -> bool:
    """Can ``card`` be added to some table meld (with a block of other cards/jokers for runs)?"""
    for meld in table:
        if meld["kind"] == "set":
            if len(meld["cards"]) >= 4:
                continue
            present = {suit(c) for c in meld["cards"] if c != JOKER}
            if card == JOKER or (rank(card) == meld["rank"] and suit(card) not in present):
                return True
        else:
            s, lo, hi = meld["suit"], meld["lo"], meld["hi"]
            targets = range(hi + 1, 15), range(lo - 1, 0, -1)
            for direction in targets:
                used = 0
                for p in direction:
                    new_lo, new_hi = min(lo, p), max(hi, p)
                    if not valid_run_window(new_lo, new_hi):
                        break
                    c = position_card(s, p)
                    if card != JOKER and c == card:
                        if used <= jokers:
                            return True
                        break
                    if c in naturals:
                        continue
                    used += 1
                    if card == JOKER and used <= jokers:
                        return True
                    if used > jokers:
                        break
    return False


def playable(card: int, naturals: set[int], jokers: int, table: list[dict]) -> bool:
    """R500-DRAW-5: the card can be put on the table this turn from the given holding."""
    return can_meld_new(card, naturals, jokers) or can_lay_off(card, naturals, jokers, table)


def is_valid_new_set(cards: list[int]) -> bool:
    naturals = [c for c in cards if c != JOKER]
    if not 3 <= len(cards) <= 4:
        return False
    if len({rank(c) for c in naturals}) > 1:
        return False
    return len({suit(c) for c in naturals}) == len(naturals)


def subsets(items: list[int], k: int):
    return combinations(items, k)
