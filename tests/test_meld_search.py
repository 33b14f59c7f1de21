"""The pruned meld search lists exactly the rows of the plain canonical enumeration, in order.

``reference_plays`` walks every rank, subset, run window and table meld the way the first
kernel did (RULES.md R500-MELD-1..8, V500-RUN4, V500-CORNER); the kernel skips what cannot give a
row (issue 8). The bitwise play-existence tests are checked against the enumeration as well.
"""

from __future__ import annotations


import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.cards import natural_value_table
from rummysim.kernels.rum500.melds import Table, enumerate_plays, has_any_play, layoff_targets, play_exists_on
from tests.cardtext import JOKER
from tests.test_melds import RULES, random_holding

GEOMETRIES = {"500": (3, 14), "run4": (4, 14), "standard": (3, 13), "corner": (3, 26)}


def geometry_rules(name: str) -> np.ndarray:
    rules = RULES.copy()
    rules[L.R_MIN_RUN], rules[L.R_MAX_POS] = GEOMETRIES[name]
    return rules


def pos_card(s: int, pos: int) -> int:
    return 16 * s + (pos - 1) % 13 + 1


def must_fits(must: int, mask: int, njok: int) -> bool:
    if must < 0:
        return True
    return njok > 0 if must == JOKER else bool(mask >> must & 1)


def reference_plays(hand: set[int], jok: int, must: int, melds: np.ndarray, n_melds: int, vals, rules, scope: int):
    """Rows (A_TYPE .. A_SIDE) of the canonical enumeration, without any pruning."""
    rows = []
    held = lambda c: c in hand  # noqa: E731
    max_pos, min_run = int(rules[L.R_MAX_POS]), int(rules[L.R_MIN_RUN])
    if scope != L.PLAY_LAYOFF_ONLY:
        for r in range(1, 14):
            if must >= 0 and must != JOKER and r != must & 15:
                continue
            smask = sum(1 << s for s in range(4) if held(16 * s + r))
            if bin(smask).count("1") + jok < 3:
                continue
            for sub in range(16):
                if sub & ~smask:
                    continue
                k = bin(sub).count("1")
                mask = sum(1 << (16 * s + r) for s in range(4) if sub >> s & 1)
                value = sum(int(vals[16 * s + r]) for s in range(4) if sub >> s & 1)
                for j in range(min(jok, 4 - k) + 1):
                    if k + j >= 3 and must_fits(must, mask, j):
                        rows.append((L.ACT_MELD_SET, -1, r, 0, k + j, mask, j, value + j * int(vals[JOKER]), k + j, 0))
        for s in range(4):
            if must >= 0 and must != JOKER and must >> 4 != s:
                continue
            for lo in range(1, 14):
                gaps = naturals = mask = value = 0
                for hi in range(lo, min(max_pos, lo + 12) + 1):
                    c = pos_card(s, hi)
                    if held(c):
                        naturals += 1
                        mask |= 1 << c
                        value += 1 if (hi == lo and c & 15 == 1) else int(vals[c])  # ace_low = 1
                    else:
                        gaps += 1
                        value += int(vals[JOKER])
                        if gaps > jok:
                            break
                    length = hi - lo + 1
                    if length >= min_run and naturals >= 1 and must_fits(must, mask, gaps):
                        rows.append((L.ACT_MELD_RUN, -1, s, lo, length, mask, gaps, value, length, 0))
    if scope != L.PLAY_NEW_ONLY:
        for m in range(n_melds):
            kind, key, lo, length = (int(melds[m, f]) for f in (L.MK_KIND, L.MK_KEY, L.MK_LO, L.MK_LEN))
            if kind == L.KIND_SET:
                if length >= 4:
                    continue
                for s in range(4):
                    c = 16 * s + key
                    if not int(melds[m, L.MK_SUITS]) >> s & 1 and held(c) and must_fits(must, 1 << c, 0):
                        rows.append((L.ACT_LAYOFF, m, key, 0, length + 1, 1 << c, 0, int(vals[c]), 1, 0))
                if jok > 0 and must_fits(must, 0, 1):
                    rows.append((L.ACT_LAYOFF, m, key, 0, length + 1, 0, 1, int(vals[JOKER]), 1, 0))
                continue
            hi = lo + length - 1
            if jok > 0 and must_fits(must, 0, 1) and length < 13:
                if hi + 1 <= max_pos and held(pos_card(key, hi + 1)):
                    rows.append((L.ACT_LAYOFF, m, key, lo, length + 1, 0, 1, int(vals[JOKER]), 1, L.SIDE_HIGH))
                low = lo - 1 if lo > 1 else (13 if max_pos > 14 else 0)
                if low >= 1 and held(pos_card(key, low)):
                    rows.append((L.ACT_LAYOFF, m, key, low, length + 1, 0, 1, int(vals[JOKER]), 1, L.SIDE_LOW))
            for side in (L.SIDE_HIGH, L.SIDE_LOW):
                gaps = mask = value = 0
                for d in range(1, 14 - length):
                    p = hi + d if side == L.SIDE_HIGH else lo - d
                    if side == L.SIDE_HIGH and p > max_pos:
                        break
                    if p < 1:
                        if max_pos <= 14:
                            break
                        p += 13
                    c = pos_card(key, p)
                    if held(c):
                        mask |= 1 << c
                        value += 1 if (side == L.SIDE_LOW and c & 15 == 1) else int(vals[c])
                    else:
                        gaps += 1
                        value += int(vals[JOKER])
                        if gaps > jok:
                            break
                    if must_fits(must, mask, gaps):
                        new_lo = lo if side == L.SIDE_HIGH else p
                        rows.append((L.ACT_LAYOFF, m, key, new_lo, length + d, mask, gaps, value, d, side))
    return rows


def kernel_rows(cand: np.ndarray, n: int):
    assert not cand[:n, L.A_GAMBIT].any()  # no Dealer's gambit here: the reference has no such column
    return [tuple(int(x) for x in row[:L.A_GAMBIT]) for row in cand[:n]]


@pytest.mark.parametrize("geometry", list(GEOMETRIES))
@pytest.mark.parametrize("seed", range(120))
def test_enumeration_lists_the_canonical_rows_in_order(geometry, seed):
    rules = geometry_rules(geometry)
    vals = natural_value_table(rules)
    rng, hand, jokers, melds, table = random_holding(seed)
    p1 = np.uint64(sum(1 << c for c in hand))
    musts = [-1, JOKER] + rng.sample(sorted(hand), min(2, len(hand)))
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    for scope in (L.PLAY_ALL, L.PLAY_NEW_ONLY, L.PLAY_LAYOFF_ONLY):
        for must in musts:
            n = enumerate_plays(p1, jokers, must, Table(melds, len(table), vals, 1, rules, -1), scope, cand, 0, L.MAX_CAND)
            want = reference_plays(hand, jokers, must, melds, len(table), vals, rules, scope)
            assert kernel_rows(cand, n) == want, (geometry, scope, must)


@pytest.mark.parametrize("geometry", ["500", "run4", "standard"])
@pytest.mark.parametrize("seed", range(150))
def test_play_exists_from_layoff_targets_agrees_with_has_any_play(geometry, seed):
    rules = geometry_rules(geometry)
    _, hand, jokers, melds, table = random_holding(seed)
    p1 = np.uint64(sum(1 << c for c in hand))
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    targets, joker_ok = layoff_targets(melds, len(table), rules[L.R_MAX_POS])
    for jok in range(4):
        expected = has_any_play(p1, jok, Table(melds, len(table), natural_value_table(rules), 1, rules, -1), scratch)
        assert play_exists_on(p1, jok, targets, joker_ok, rules[L.R_MAX_POS], rules[L.R_MIN_RUN]) == expected
