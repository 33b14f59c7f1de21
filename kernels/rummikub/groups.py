"""Which tiles of one number can form groups (RKUB-COMB-1, RKUB-JOKER-1), as lookup tables.

A number's tiles that do not go into runs must all form groups: 3 or 4 tiles, natural tiles of
different colours, jokers standing for the missing colours, at most ``max_jokers`` jokers in a
group (VKUB-TWOJOKERS). With at most two copies of a tile and two jokers, at most three groups are
possible. The tables are built once, in Python, by trying every assignment of copies to groups:

* ``GROUP_OK[n1, n2, jokers, max_jokers - 1]``: can tiles of ``n1`` colours held once and ``n2``
  colours held twice, with ``jokers`` jokers, be split into valid groups? (Only the counts matter.)
* ``GROUP_PLAN[g0, g1, g2, g3, jokers, max_jokers - 1]``: one such split for the copies ``g_c`` of
  each colour: the number of groups, then per group the bitmask of its colours and its jokers.
* ``GROUP_HOPE[n1, n2, m1, m2, jokers, max_jokers - 1]``: can tiles of ``n1`` colours held once and
  ``n2`` held twice still end in valid groups when ``m1`` colours to come have a tile of this number
  to add (``m2`` of them two), with at most ``jokers`` jokers? The solver drops a state at once when
  not, instead of carrying it to the number's end.
"""

from __future__ import annotations

from itertools import combinations, product

import numpy as np

MAX_GROUPS = 3
PLAN_M = 0
PLAN_MASK = 1  # + 2 * group
PLAN_JOKERS = 2  # + 2 * group
PLAN_SIZE = 1 + 2 * MAX_GROUPS


def _joker_splits(jokers: int, groups: int, max_jokers: int):
    for split in product(range(max_jokers + 1), repeat=groups):
        if sum(split) == jokers:
            yield split


def _plan(copies: tuple[int, ...], jokers: int, max_jokers: int) -> list[int] | None:
    """A split of the copies into groups of 3-4 with distinct colours, or None."""
    if sum(copies) == 0:
        return [0] + [0] * (2 * MAX_GROUPS) if jokers == 0 else None
    for m in range(1, MAX_GROUPS + 1):
        choices = [list(combinations(range(m), g)) for g in copies]
        for pick in product(*choices):
            masks = [0] * m
            for colour, groups in enumerate(pick):
                for i in groups:
                    masks[i] |= 1 << colour
            naturals = [bin(x).count("1") for x in masks]
            for split in _joker_splits(jokers, m, max_jokers):
                if all(3 <= naturals[i] + split[i] <= 4 and naturals[i] > 0 for i in range(m)):
                    plan = [m]
                    for i in range(MAX_GROUPS):
                        plan += [masks[i], split[i]] if i < m else [0, 0]
                    return plan
    return None


def _tables() -> tuple[np.ndarray, np.ndarray]:
    ok = np.zeros((5, 5, 3, 2), dtype=np.uint8)  # bytes: the program reads them per state
    plan = np.full((3, 3, 3, 3, 3, 2, PLAN_SIZE), -1, dtype=np.int64)
    for copies in product(range(3), repeat=4):
        n1, n2 = copies.count(1), copies.count(2)
        for jokers in range(3):
            for mj in (1, 2):
                found = _plan(copies, jokers, mj)
                if found is not None:
                    plan[copies + (jokers, mj - 1)] = found
                    ok[n1, n2, jokers, mj - 1] = 1
    return ok, plan


GROUP_OK, GROUP_PLAN = _tables()


def _hope() -> np.ndarray:
    hope = np.zeros((5, 5, 4, 4, 3, 2), dtype=np.uint8)
    for n1, n2, m1, m2, jokers, mj in product(range(5), range(5), range(4), range(4), range(3), range(2)):
        if n1 + n2 > 4:
            continue
        for a, b, j in product(range(m1 + 1), range(min(m2, m1) + 1), range(jokers + 1)):
            if a + b <= m1 and n1 + a + n2 + b <= 4 and GROUP_OK[n1 + a, n2 + b, j, mj]:
                hope[n1, n2, m1, m2, jokers, mj] = 1
                break
    return hope


GROUP_HOPE = _hope()
