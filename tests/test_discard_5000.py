"""The heuristic's ``discard_5000`` (5000 Rummy): the discard that leaves the cheapest hand by 5000 worth.

With ``discard_5000=1`` the seat throws the card whose loss leaves the hand with the lowest
``worth.hand_cost`` (RULES.md R5K-VAL-1/2, R5K-SCORE-1: what is left is caught at 5000's values),
a card that would feed the next player (a wild card, or one the table takes by itself) costing
``feed_weight`` percent of its value more; with ``discard_5000=0`` it keeps greedy's discard.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.rum5000 import engine as E
from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.rum5000.melds import Table5, card_placeable
from rummysim.strategies import ids
from rummysim.strategies.rum5000 import dispatch as S
from rummysim.strategies.rum5000.worth import count_unseen, draws_left, hand_cost
from tests.cardtext import name as cardtext
from tests.kstate5k import make5, table_for
from tests.test_information_5k import dealt_context

WORTH = "heuristic:discard_5000=1"


def discard_of(g, seat: int) -> int:
    """The seat's discard (a card id) from its dealt hand, by its own lineup's strategy."""
    E.observe5(g, seat, -1)
    cards = np.array([c for c in range(L5.CARD_IDS) if g.hands[seat, c] > 0], dtype=np.int64)
    i = S.choose5_discard(g.lineup[seat], g.searching, g.params[seat], g.obs, g.hands[seat], g.pile, table_for(g, seat), cards,
                          len(cards), g.rngs[seat].copy(), g.work)
    return int(cards[i])


def cost_after(g, seat: int, card: int) -> float:
    """The hand's cost once ``card`` is gone, plus its feed charge: what discard_5000 minimises."""
    params, tab, hand = g.params[seat], table_for(g, seat), g.hands[seat].copy()
    unseen = np.zeros(L5.CARD_IDS, dtype=np.int64)
    n_unseen = count_unseen(unseen, hand, tab, g.pile, int(g.st[L5.S_PILE_LEN]))
    look = S.Look5(True, 0.0, unseen, n_unseen, draws_left(g.obs, params[ids.H_HORIZON]),
                   params[ids.H_LATER_WEIGHT], params[ids.H_DEADWOOD_WEIGHT], params[ids.H_TEMPO_5000])
    hand[card] -= 1
    cost = hand_cost(hand, look, tab.vals, tab.wild)
    untraded = Table5(tab.melds, tab.n_melds, tab.grp, np.zeros_like(tab.ends), tab.wild, tab.vals, tab.team)
    single, cand = np.zeros(L5.CARD_IDS, dtype=np.int64), g.cand
    if card % 16 == tab.wild or card_placeable(card, untraded, seat, single, cand):
        cost += params[ids.H_FEED_WEIGHT] * 0.01 * tab.vals[card]
    return cost


def played_context(name: str, seed: int, turns: int):
    """A dealt 5000 Rummy hand (3 players) after ``turns`` turns, so that melds lie on the table and
    cards in the pile; None if the hand ended."""
    g, seat = dealt_context(name, seed)
    for _ in range(turns):
        if E.normal_turn(g, seat) != 0:
            return None, seat
        seat = (seat + 1) % 3
    return g, seat


def test_discard_5000_throws_the_card_whose_loss_leaves_the_cheapest_hand():
    differ = 0
    for seed in range(40):
        g, seat = played_context(WORTH, seed, seed % 7)
        if g is None:
            continue
        chosen = discard_of(g, seat)
        held = [c for c in range(L5.CARD_IDS) if g.hands[seat, c] > 0]
        costs = {c: cost_after(g, seat, c) for c in held}
        assert costs[chosen] == min(costs.values()), f"seed {seed}: {chosen} is not the cheapest discard"
        greedy_g, greedy_seat = played_context("heuristic", seed, seed % 7)
        if greedy_g is None:
            continue
        differ += discard_of(greedy_g, greedy_seat) != chosen
    assert differ > 0, "discard_5000 never chose otherwise than greedy's discard"


def test_discard_5000_off_keeps_greedys_discard():
    for seed in range(10):
        g, seat = dealt_context("heuristic:discard_5000=0:feed_weight=0", seed)
        h, h_seat = dealt_context("greedy", seed)
        assert discard_of(g, seat) == discard_of(h, h_seat)


def feed_scenario(feed_weight: float):
    """Wild rank K; seat 0 holds two lone cards, 9H (10 points) and 4C (5); seat 1's 6H 7H 8H lies on
    the table, so a discarded 9H feeds the next player. Kept, 9H costs 0.75 x 10 = 7.5 (no outs)
    and 4C 0.75 x 5 = 3.75: the 9H goes unless feeding costs more than the 3.75 between them."""
    k = make5(3, "K", {0: "9H 4C", 1: "2S 3S 4S 5S 6S", 2: "2D 3D 5D 6D JD"}, pile="QS", stock="7C 8C 9C TC JC QC",
              lineup=f"{WORTH}:feed_weight={feed_weight:g}")
    k.add_meld(1, "seq", "6H 7H 8H")
    return k


def test_discard_5000_charges_a_feeding_card_feed_weight_percent_of_its_value():
    assert cardtext(discard_of(feed_scenario(30).g, 0)) == "9H"  # 3.75 + 3.0 < 7.5
    assert cardtext(discard_of(feed_scenario(40).g, 0)) == "4C"  # 3.75 + 4.0 > 7.5
