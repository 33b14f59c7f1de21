"""The cheap coverage tests of the 5000 Rummy engine (issue 19) against the enumeration they spare.

``melds.could_cover_all`` runs before the going-out search (R5K-OUT-3) enumerates a node's plays,
and ``melds.natural_may_go_down`` before a deep take's duty enumeration (R5K-DRAW-1 c). Results
stay identical only if each is implied by what it stands in for: whenever the enumeration's
``all_cards_covered`` passes, ``could_cover_all`` must pass; whenever a duty play holds the card,
``natural_may_go_down`` must say it might. Checked on positions reached by random plays, with the
False answers counted so that the check is not vacuous.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.rum5000.melds import (
    all_cards_covered, could_cover_all, enumerate_plays5, natural_may_go_down, wild_count,
)
from tests.cardtext import RANKS, SUITS, cid
from tests.kstate5k import K5, make5

POSITIONS = 300


def random_position(rng: np.random.Generator) -> K5:
    """Two seats, a random wild rank and hands from the double deck (seat 0's short, as late in a
    search, with up to 3 wild cards more); both seats lay some random plays, so that seat 0 faces groups and sequences with wild
    cards, its own and the other's."""
    pack = [f"{r}{s}" for r in RANKS for s in SUITS] * 2
    order = rng.permutation(len(pack))
    wild = RANKS[rng.integers(13)]
    wilds = [f"{wild}{s}" for s in SUITS][: rng.integers(0, 4)]  # 0-3 wild cards more for seat 0
    hand0 = " ".join([pack[i] for i in order[: rng.integers(2, 10)]] + wilds)
    hand1 = " ".join(pack[i] for i in order[20 : 20 + rng.integers(6, 15)])
    k = make5(2, wild, {0: hand0, 1: hand1})
    for _ in range(int(rng.integers(0, 6))):
        seat = int(rng.integers(2))
        rows = k.plays(seat)
        if len(rows) == 0 or k.hand_ids(seat) == []:
            continue
        k.apply(seat, rows[rng.integers(len(rows))])
    return k


def full_coverage(k: K5, av: np.ndarray) -> bool:
    cand = np.zeros((L5.MAX_CAND5, L5.C_SIZE), dtype=np.int64)
    tab = k.table(0)
    n = enumerate_plays5(av, -1, tab, 0, L5.SC_FULL, cand, False)
    return bool(all_cards_covered(av, cand, n, tab.wild, np.zeros(L5.CARD_IDS, dtype=np.int64)))


def test_R5K_OUT_3_cheap_test_never_refuses_a_node_the_enumeration_covers():
    rng = np.random.default_rng(19)
    answers = {True: 0, False: 0}
    for _ in range(POSITIONS):
        k = random_position(rng)
        av = k.hands[0].copy()
        quick = bool(could_cover_all(av, k.table(0)))
        answers[quick] += 1
        if not quick:
            assert not full_coverage(k, av), k.hand_ids(0)
    assert answers[False] > POSITIONS // 10 and answers[True] > POSITIONS // 10  # both answers tested


def test_R5K_DRAW_1_cheap_test_never_refuses_a_card_a_duty_play_holds():
    rng = np.random.default_rng(20)
    refused = 0
    for _ in range(POSITIONS):
        k = random_position(rng)
        tab = k.table(0)
        card = int(rng.integers(4)) * 16 + int(rng.integers(1, 14))
        if card % 16 == tab.wild:
            continue  # a wild card skips the cheap test
        av = k.hands[0].copy()
        av[card] += 1  # the selected card comes into the hand with the take
        if natural_may_go_down(av, tab, card, wild_count(av, tab.wild)):
            continue
        refused += 1
        cand = np.zeros((L5.MAX_CAND5, L5.C_SIZE), dtype=np.int64)
        assert enumerate_plays5(av, card, tab, 0, L5.SC_DUTY, cand, False) == 0, (k.hand_ids(0), card)
    assert refused > POSITIONS // 10


def test_R5K_OUT_3_a_card_that_fits_nothing_fails_the_cheap_test():
    k = make5(2, "5", {0: "2C 3C 4C 9D"})  # 9D: no group, no sequence, no wild card to help
    assert not could_cover_all(k.hands[0].copy(), k.table(0))
    k = make5(2, "5", {0: "2C 3C 4C 9D 5H"})  # one wild card: 9D still fits no group or window
    assert not could_cover_all(k.hands[0].copy(), k.table(0))
    k = make5(2, "5", {0: "2C 3C 4C 9D 5H 5S"})  # two: a group of nines or a window with 9D
    assert could_cover_all(k.hands[0].copy(), k.table(0))
    k = make5(2, "5", {0: "9D"})
    k.add_meld(1, "seq", "6D 7D 8D")  # 9D extends the other seat's sequence
    assert could_cover_all(k.hands[0].copy(), k.table(0))
    assert cid("9D") in k.hand_ids(0)
