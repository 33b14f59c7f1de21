"""The heuristic family's 5000 Rummy valuation (strategies/rum5000/worth.py) on hand-built hands.

Cards are written as in tests/cardtext.py; a hand is counts per card id. The values are 5000's
(RULES.md R5K-VAL-1/2): an ace 200, a wild card 100 (200 for a wild Q or 10, 400 for a wild ace).
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.kernels.rum5000 import engine as E
from rummysim.kernels.rum5000 import layout as L5
from rummysim.strategies.rum5000 import dispatch as S
from rummysim.strategies.rum5000.worth import card_worth, count_unseen, draws_left, hand_cost
from tests.cardtext import cid
from tests.kstate5k import make5, rank_of, table_for, value_table


def hand_of(cards: str) -> np.ndarray:
    hand = np.zeros(L5.CARD_IDS, dtype=np.int64)
    for c in cards.split():
        hand[cid(c)] += 1
    return hand


def unseen_beside(hand: np.ndarray, wild: str) -> tuple[np.ndarray, int]:
    """The unseen counts with ``hand`` held and an empty table and pile."""
    k = make5(3, wild)
    unseen = np.zeros(L5.CARD_IDS, dtype=np.int64)
    total = count_unseen(unseen, hand, table_for(k.g, 0), k.g.pile, 0)
    return unseen, total


def worth(card: str, cards: str, wild: str, draws: float = 3.0, later: float = 1.0, deadwood: float = 1.0) -> float:
    hand = hand_of(cards)
    unseen, total = unseen_beside(hand, wild)
    return card_worth(cid(card), hand, unseen, total, rank_of(wild), value_table(rank_of(wild)), draws, later, deadwood)


def test_an_isolated_ace_costs_its_200():
    """No card melds with it, so it is caught at its full 5000 value (500 Rum's would be 15)."""
    assert worth("AH", "AH 5C", "7") == pytest.approx(-200.0)
    assert worth("5C", "AH 5C", "7") == pytest.approx(-5.0)


def test_a_pair_of_aces_may_meld_later():
    """Outs of AH beside AS: the 6 unseen aces and the 8 unseen wild cards, of 102 unseen cards."""
    p = 1.0 - (1.0 - 14 / 102) ** 3
    assert worth("AH", "AH AS", "7") == pytest.approx(p * 200 - (1 - p) * 200)


def test_wild_cards_are_worth_their_5000_value():
    """Two wild queens (200 each) meld with any natural card drawn: p = 1, worth +200 each."""
    assert worth("QH", "QH QS", "Q") == pytest.approx(200.0)
    assert worth("AD", "AD", "A") == pytest.approx(-400.0)  # a lone wild ace: 400 against the seat


def test_unseen_cards_leave_out_the_pile_and_the_table():
    k = make5(3, "7", pile="AS 5C")
    seq = k.add_meld(1, "seq", "4H 5H 6H")
    assert seq >= 0
    hand = hand_of("AH")
    unseen = np.zeros(L5.CARD_IDS, dtype=np.int64)
    total = count_unseen(unseen, hand, table_for(k.g, 0), k.g.pile, 2)
    assert total == 104 - 1 - 2 - 3
    assert unseen[cid("AS")] == 1 and unseen[cid("AH")] == 1 and unseen[cid("5H")] == 1


def test_a_hand_costs_the_time_to_shed_it():
    """Three unrelated cards (25 points): their value, plus two more turns to go out, each risking
    the 25 and the 200 bonus once in the 4 draws left."""
    hand = hand_of("5C 9D KS")
    unseen, total = unseen_beside(hand, "7")
    look = S.Look5(True, 0.0, unseen, total, 4.0, 0.0, 1.0, 1.0)
    assert hand_cost(hand, look, value_table(rank_of("7")), rank_of("7")) == pytest.approx(25 + 2 * 225 / 4)


def test_draws_left_stop_at_the_closest_opponent():
    obs = np.zeros(L5.O_SIZE, dtype=np.int64)
    obs[L5.O_N] = 3
    obs[L5.O_SEAT] = 0
    obs[L5.O_STOCK] = 30
    obs[L5.O_HAND_SIZE:L5.O_HAND_SIZE + 3] = [2, 8, 6]
    assert draws_left(obs, 0.5) == pytest.approx(3.0)  # 0.5 draws per card of the 6-card hand
    obs[L5.O_HAND_SIZE + 2] = L5.UNKNOWN
    assert draws_left(obs, 0.5) == pytest.approx(4.0)


def draw_choice(lineup: str, pile: str) -> int:
    """Seat 0's draw (a pile index, or D_STOCK) holding 9H TH 4D with 6s wild (100 each)."""
    k = make5(3, "6", hands={0: "9H TH 4D", 1: "2C 3C 4C 5S 7S 8D 8S 9C 9S TC",
                             2: "2D 3D 5D 7D 8C 3H 4H 5H 7H KH"},
              pile=pile, stock="JC JD JS KC QH 2H 3S 4S 5C QC " * 2, lineup=lineup)
    g = k.g
    nopt = E.draw_options5(g, 0, False)
    E.observe5(g, 0, -1)
    i = S.choose5_draw(g.lineup[0], g.searching, g.params[0], g.obs, g.hands[0], g.pile, table_for(g, 0), g.opts, nopt,
                       g.rngs[0].copy(), g.work)
    return int(g.opts[i])


def test_the_heuristic_leaves_a_deep_take_that_strands_an_ace():
    """Taking from the wild 6D puts 120 points down (9H TH 6D) and leaves the card above it in
    hand. Greedy counts 60% of a leftover ace's 200 and takes; the heuristic counts the ace's 200 at
    risk (nothing melds with it) and the stock draw's worth, and draws from the stock. With a 5 left
    over both take."""
    assert draw_choice("greedy,greedy,greedy", "6D AC") == 0
    assert draw_choice("heuristic,greedy,greedy", "6D AC") == L5.D_STOCK
    assert draw_choice("greedy,greedy,greedy", "6D 5C") == 0
    assert draw_choice("heuristic,greedy,greedy", "6D 5C") == 0
