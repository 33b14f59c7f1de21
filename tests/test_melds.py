"""Meld enumeration against the naive reference (tests/naive.py) on random holdings and tables."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.cards import natural_value_table
from rummysim.kernels.rum500.melds import Table, card_playable, enumerate_plays
from tests import naive
from tests.cardtext import JOKER

RULES = np.zeros(L.R_SIZE, dtype=np.int64)
RULES[L.R_ACE_VALUE] = 15
RULES[L.R_JOKER_VALUE] = 15
RULES[L.R_DIVISOR] = 1
RULES[L.R_MIN_RUN] = 3
RULES[L.R_MAX_POS] = 14
VALS = natural_value_table(RULES)
ALL = [16 * s + r for s in range(4) for r in range(1, 14)]


def random_table(rng: random.Random, free: set[int]):
    """Random valid table melds drawn from ``free`` cards (one deck), as kernel rows and dicts."""
    melds = np.zeros((L.MAX_MELDS, L.MK_SIZE), dtype=np.int16)
    table = []
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.5:
            r = rng.randint(1, 13)
            cards = [16 * s + r for s in range(4) if 16 * s + r in free]
            if len(cards) < 3:
                continue
            cards = rng.sample(cards, rng.choice([3, min(4, len(cards))]))
            m = len(table)
            melds[m, L.MK_KIND] = L.KIND_SET
            melds[m, L.MK_KEY] = r
            melds[m, L.MK_LEN] = len(cards)
            for i, c in enumerate(cards):
                melds[m, L.MK_CARD + i] = c
                melds[m, L.MK_SUITS] |= 1 << (c >> 4)
            table.append({"kind": "set", "rank": r, "cards": cards})
        else:
            s = rng.randint(0, 3)
            lo = rng.randint(1, 12)
            hi = min(14, lo + rng.randint(2, 5))
            if not naive.valid_run_window(lo, hi):
                continue
            cards = [naive.position_card(s, p) for p in range(lo, hi + 1)]
            if not all(c in free for c in cards):
                continue
            m = len(table)
            melds[m, L.MK_KIND] = L.KIND_RUN
            melds[m, L.MK_KEY] = s
            melds[m, L.MK_LO] = lo
            melds[m, L.MK_LEN] = hi - lo + 1
            for i, c in enumerate(cards):
                melds[m, L.MK_CARD + i] = c
            table.append({"kind": "run", "suit": s, "lo": lo, "hi": hi})
        free -= set(cards)
    return melds, table


def random_holding(seed: int):
    rng = random.Random(seed)
    free = set(ALL)
    melds, table = random_table(rng, free)
    hand = set(rng.sample(sorted(free), rng.randint(1, 13)))
    jokers = rng.choice([0, 0, 1, 2, 3])
    return rng, hand, jokers, melds, table


def mask_of(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


@pytest.mark.parametrize("seed", range(400))
def test_R500_DRAW_5_card_playable_matches_naive(seed):
    _, hand, jokers, melds, table = random_holding(seed)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    for card in sorted(hand) + ([JOKER] if jokers else []):
        expected = naive.playable(card, hand, jokers, table)
        got = card_playable(card, mask_of(hand), jokers, Table(melds, len(table), VALS, 1, RULES, -1), L.PLAY_ALL, scratch)
        assert got == expected, (card, sorted(hand), jokers, table)


@pytest.mark.parametrize("seed", range(200))
def test_R500_MELD_every_enumerated_action_is_valid(seed):
    _, hand, jokers, melds, table = random_holding(seed)
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = enumerate_plays(mask_of(hand), jokers, -1, Table(melds, len(table), VALS, 1, RULES, -1), L.PLAY_ALL, cand, 0, L.MAX_CAND)
    for row in cand[:n]:
        m = int(np.uint64(row[L.A_MASK]))
        naturals = [c for c in ALL if m >> c & 1]
        assert set(naturals) <= hand  # R500-MELD-7: only cards from hand
        assert row[L.A_NJOK] <= jokers
        if row[L.A_TYPE] == L.ACT_MELD_SET:
            assert naive.is_valid_new_set(naturals + [JOKER] * int(row[L.A_NJOK]))  # R500-MELD-1/2/6
        elif row[L.A_TYPE] == L.ACT_MELD_RUN:
            s, lo, length = int(row[L.A_KEY]), int(row[L.A_LO]), int(row[L.A_LEN])
            assert naive.valid_run_window(lo, lo + length - 1)  # R500-MELD-3/4
            want = {naive.position_card(s, p) for p in range(lo, lo + length)}
            assert set(naturals) <= want
            assert len(naturals) + row[L.A_NJOK] == length
        else:
            meld = table[int(row[L.A_MELD])]
            if meld["kind"] == "set":  # R500-MELD-8: a set reaches at most 4 cards
                assert len(meld["cards"]) + len(naturals) + row[L.A_NJOK] <= 4
                assert all(naive.rank(c) == meld["rank"] for c in naturals)
            else:
                lo, length = int(row[L.A_LO]), int(row[L.A_LEN])
                hi = lo + length - 1
                assert naive.valid_run_window(lo, hi)
                assert lo <= meld["lo"] and hi >= meld["hi"] and (lo == meld["lo"] or hi == meld["hi"])
                added = set(range(lo, hi + 1)) - set(range(meld["lo"], meld["hi"] + 1))
                assert len(added) == len(naturals) + row[L.A_NJOK]
                assert set(naturals) <= {naive.position_card(meld["suit"], p) for p in added}


@pytest.mark.parametrize("geometry", ["500", "run4", "standard", "corner"])
@pytest.mark.parametrize("seed", range(150))
def test_has_any_play_agrees_with_the_enumeration(geometry, seed):
    """The bitwise shortcut answers exactly what the enumeration would."""
    from rummysim.kernels.rum500.melds import has_any_play

    rules = RULES.copy()
    rules[L.R_MIN_RUN] = 4 if geometry == "run4" else 3
    rules[L.R_MAX_POS] = {"standard": 13, "corner": 26}.get(geometry, 14)
    _, hand, jokers, melds, table = random_holding(seed)
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    on_table = Table(melds, len(table), VALS, 1, rules, -1)
    n = enumerate_plays(mask_of(hand), jokers, -1, on_table, L.PLAY_ALL, cand, 0, L.MAX_CAND)
    assert has_any_play(mask_of(hand), jokers, on_table, cand) == (n > 0)
