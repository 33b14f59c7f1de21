"""Tests of the 500 Rum checker for the variations of RULES.md §3 on the end of the stock
(V500-STOCKEND), scoring (V500-ADDOPP, V500-7STRAIGHT, V500-VALUES, V500-ACE, V500-DIV5, the pack:
V500-JOKERS, V500-DECKS) and the game end (V500-TARGET, V500-TIE, V500-MUSTOUT, V500-WINNERDEALS)
and V500-UPCHOICE.  Traces as in ``tests/test_validate_variations.py``.
"""

from __future__ import annotations

import pytest

from tests.scenarios_variations import ADDOPP, F, delete, insert, run_out_stock, t16_game, t19_game
from tests.tracebuild import B, assert_ok, assert_rule, cid, cname, find, finish_capped, mutate

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# V500-STOCKEND
# ============================================================================================


def test_V500_STOCKEND_end_immediately():
    fl = {"r500_end_of_stock": "end_immediately"}
    b = run_out_stock(fl)
    b.end(5).game_end(-1, capped=1)
    assert_ok(b, F(**fl))
    # scored like reason 2: with the penalty off, hand values are 0
    b2 = run_out_stock({**fl, "r500_stock_out_hand_penalty": False})
    b2.end(5).game_end(-1, capped=1)
    assert all(r[5] == 0 for r in b2.scores)
    assert_ok(b2, F(**fl, r500_stock_out_hand_penalty=False))
    assert_rule(b2, "R500-STOCK-1", F(**fl))  # hand cards count against the players
    assert_rule(b, "V500-STOCKEND", F(**fl, r500_stock_out_hand_penalty=False))
    # the hand goes on by default (pile_or_end), and under end_immediately it may not
    assert_rule(b, "V500-STOCKEND", F())
    b3 = run_out_stock(fl)
    b3.nodraw().end(2).game_end(-1, capped=1)
    assert_rule(b3, "V500-STOCKEND", F(**fl))


def test_V500_STOCKEND_reshuffle():
    fl = {"r500_end_of_stock": "reshuffle"}
    b = run_out_stock(fl)
    pile = list(b.pile)
    s = b.next
    b.reshuffle()
    assert b.pile == pile[-1:] and len(b.stock) == len(pile) - 1
    b.draw(s, start=False).discard(s, b.last)
    b.draw_discard()
    b.end(4).game_end(-1, capped=1)
    f = F(b.turns, **fl)
    assert_ok(b, f)
    a = b.array()
    i = find(b.rows, 65)
    assert b.rows[i][2] == len(pile) - 1
    assert_rule(mutate(b, i, 2, 5), "TRACE-FORMAT", f)
    # the new stock must be the pile cards but the top one
    bad = a.copy()
    bad[i + 1, 2] = pile[-1]
    assert_rule(bad, "C-CARD-CONSERVATION", f)
    # without the reshuffle the empty stock cannot be drawn from, nor ended
    g = run_out_stock(fl)
    g.nodraw().end(2).game_end(-1, capped=1)
    assert_rule(g, "V500-STOCKEND", F(**fl))
    # RESHUFFLE in the default mode
    assert_rule(b, "V500-STOCKEND", F(b.turns))


def test_V500_STOCKEND_reshuffle_with_one_pile_card_is_pile_or_end():
    """seat 1 takes the whole pile (KD, the upcard, melded with KC KH) when one stock card is left and
    discards; seat 2 draws the last stock card and floats; seat 0 starts with an empty stock and a pile of
    one card: pile_or_end applies (NO_DRAW ends the hand)."""
    fl = {"r500_end_of_stock": "reshuffle", "r500_going_out": "floating"}
    b = B(3, dealer=2, flags=fl)
    b.deal({1: "KC KH", 2: "2S 3S 4S 5S 6S 7S 8S"}, upcard="KD", stock="_ " * 31 + "9S")
    while len(b.stock) > 1:
        b.draw_discard()
    assert b.next == 1
    b.take(1, 0).meld(1, "set", "KC KD KH").discard(1, b.hands[1][0])
    b.draw(2).meld(2, "run", "2S 3S 4S 5S 6S 7S 8S 9S").float_(2)
    assert len(b.pile) == 1 and not b.stock
    b.nodraw().end(2).game_end(-1, capped=1)
    assert_ok(b, F(**fl))
    # a RESHUFFLE of a one-card pile is wrong
    a = b.array()
    i = find(b.rows, 12)
    bad = insert(delete(a, i), i, [65, 0, 0, 0, 0, 0, 0, 0], [12, 0, 0, 0, 0, 0, 0, 0])
    assert_rule(bad, "V500-STOCKEND", F(**fl))


def test_V500_STOCKEND_discard_until_out():
    fl = {"r500_end_of_stock": "discard_until_out"}
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "2C 3C 4C 5C 6C 7C 8C"})
    while b.stock:
        b.draw_discard()
    # every turn: NO_DRAW (draws are over), then a discard
    while b.next != 0:
        s = b.next
        b.nodraw(over=True).discard(s, b.hands[s][0])
    assert len(b.hands[0]) == 7
    b.nodraw(over=True).meld(0, "run", "2C 3C 4C 5C 6C 7C").discard(0, "8C")
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, F(**fl))
    assert_rule(b, "V500-STOCKEND", F())  # NO_DRAW column 2 = 1 without discard_until_out
    # NO_DRAW that ends the hand, and a take from the pile, are not allowed
    g = B(3, dealer=2, flags=fl)
    g.deal()
    while g.stock:
        g.draw_discard()
    g.nodraw().end(2).game_end(-1, capped=1)
    assert_rule(g, "V500-STOCKEND", F(**fl))
    g = B(3, dealer=2, flags=fl)
    g.deal()
    while g.stock:
        g.draw_discard()
    s = g.next
    g.take().discard(s, g.hands[s][0]).end(4).game_end(-1, capped=1)
    assert_rule(g, "V500-STOCKEND", F(g.turns, **fl))
    # no idle guard under discard_until_out
    g = B(3, dealer=2, flags=fl)
    g.deal()
    while g.stock:
        g.draw_discard()
    for _ in range(3):
        s = g.next
        g.nodraw(over=True).discard(s, g.hands[s][0])
    g.end(3).game_end(-1, capped=1)
    assert_rule(g, "V500-STOCKEND", F(**fl))


def test_V500_FLOAT_discard_until_out_floating_seat_records_float():
    fl = {"r500_end_of_stock": "discard_until_out", "r500_going_out": "floating"}
    g = B(3, dealer=1, flags=fl)  # seat 2 first
    g.deal({0: "2C 3C 4C 5C 6C 7C 8C"}, stock="_ " * 31 + "9C")
    while len(g.stock) > 1:
        g.draw_discard()
    assert g.next == 0 and cname(g.stock[0]) == "9C"
    g.draw(0).meld(0, "run", "2C 3C 4C 5C 6C 7C 8C 9C").float_(0)  # seat 0 floats, stock empty
    for _ in range(2):  # seat 1, seat 2: draws are over, they discard
        s = g.next
        g.nodraw(over=True).discard(s, g.hands[s][0])
    g.nodraw(0, over=True).float_(0)  # seat 0 has 0 cards: FLOAT and pass
    s = g.next
    g.nodraw(over=True).discard(s, g.hands[s][0])
    g.end(4).game_end(-1, capped=1)
    f = F(g.turns, **fl)
    assert_ok(g, f)
    # the FLOAT without the NO_DRAW record is accepted too
    i = find(g.rows, 12, nth=2)
    assert g.rows[i][1] == 0
    assert_ok(delete(g.array(), i), f)
    # a discard by the floating seat is impossible (it holds no card)
    h = g.array()
    h[i + 1] = [30, 0, cid("9C"), 0, 0, 0, 0, 0]
    assert_rule(h, "V500-FLOAT-1", f)


# ============================================================================================
# V500-ADDOPP (T-19), V500-7STRAIGHT (T-16)
# ============================================================================================


def test_T19_V500_ADDOPP_1_2_add_opponent_hand():
    b = t19_game().addopp(1, 3, "8H")
    b.end(1, out=0).game_end(-1, capped=1)
    assert b.scores[0][1:7] == [0, 99, 99, 89, 0, 10]  # A: 89 + KC 10
    assert b.scores[1][1:7] == [1, 80, 80, 80, 0, 0]  # B: table 80, subtracts nothing
    f = F(**ADDOPP)
    assert_ok(b, f)
    # without the rule the lay-off after going out is illegal
    assert_rule(b, "V500-ADDOPP-2", F())
    # subtracting B's hand is wrong under the rule
    i = find(b.rows, 41, c1=1)
    bad = mutate(b, i, 5, 10)
    bad[i, 2] -= 10
    bad[i, 3] -= 10
    assert_rule(bad, "V500-ADDOPP-1", f)
    # crediting the lay-off to B is wrong (it scores for no one)
    bad = mutate(b, i, 4, 88)
    bad[i, 2] += 8
    bad[i, 3] += 8
    assert_rule(bad, "R500-SCORE-2", f)
    # only melds created by the player who went out take lay-offs
    g = t19_game().addopp(1, 1, "KC")  # meld 1 is B's own set of tens
    g.end(1, out=0).game_end(-1, capped=1)
    assert_rule(g, "V500-ADDOPP-2", f)


def test_V500_ADDOPP_3_nobody_out():
    # 2 players, stock out: each side adds the other's hand value (by_player_count)
    b = run_out_stock(ADDOPP, n=2)
    b.nodraw().end(2).game_end(-1, capped=1)
    assert b.scores[0][6] > 0 and b.scores[0][5] == 0
    f = F(**ADDOPP)
    assert_ok(b, f)
    i = find(b.rows, 41, c1=0)
    bad = mutate(b, i, 6, 0)
    bad[i, 2] = bad[i, 4]
    bad[i, 3] = bad[i, 4]
    assert_rule(bad, "V500-ADDOPP-3", f)
    # 3 players: nothing is added or subtracted
    g = run_out_stock(ADDOPP, n=3)
    g.nodraw().end(2).game_end(-1, capped=1)
    assert all(r[5] == 0 and r[6] == 0 for r in g.scores)
    assert_ok(g, f)


def test_V500_ADDOPP_3_continue_discarding():
    fl = {**ADDOPP, "r500_addopp_stock_out": "continue_discarding"}
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "2C 3C 4C 5C 6C 7C 8C"})
    while b.stock:
        b.draw_discard()
    while b.next != 0:
        s = b.next
        b.nodraw(over=True).discard(s, b.hands[s][0])
    b.nodraw(0, over=True).meld(0, "run", "2C 3C 4C 5C 6C 7C").discard(0, "8C")
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, F(**fl))
    assert_rule(b, "V500-STOCKEND", F(**ADDOPP))  # by_player_count: the stock-out ends the hand


def test_T16_V500_7STRAIGHT_bonus():
    f = F(r500_seven_straight_bonus=500)
    b = t16_game()
    assert b.scores[0][2] == 549
    assert_ok(b, f)
    assert_rule(t16_game(0), "V500-7STRAIGHT", f)  # the 500 is missing
    assert_rule(b, "R500-OUT-3", F())  # no bonus without the flag: going out earns nothing
    # a run of 6 plus a lay-off is not a 7-card straight
    g = B(3, dealer=2)
    g.deal({0: "4C 5C 6C 7C 8C 9C TC"}, stock="KD")
    g.draw(0).meld(0, "run", "4C 5C 6C 7C 8C 9C").layoff(0, 0, "TC").discard(0, "KD")
    g.end(1, out=0, bonus={0: 500}).game_end(-1, capped=1)
    assert_rule(g, "V500-7STRAIGHT", f)
    # going out by melding every card (no discard) earns no bonus
    g = B(3, dealer=2)
    g.deal({0: "4C 5C 6C 7C 8C 9C TC"}, stock="JC")
    g.draw(0).meld(0, "run", "4C 5C 6C 7C 8C 9C TC JC")
    g.end(1, out=0).game_end(-1, capped=1)
    assert_ok(g, f)
    # with V500-DIV5 the bonus is 100
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    assert_ok(t16_game(100, fl), F(r500_seven_straight_bonus=500, **fl))


# ============================================================================================
# V500-VALUES, V500-ACE (four aces), V500-DIV5, V500-JOKERS, V500-DECKS
# ============================================================================================


def aces_game(flags: dict | None = None, split: bool = False) -> B:
    """seat 0 melds AC AD AH; AS is laid off on a later turn by seat 0 (or by seat 1 with `split`)."""
    b = B(3, dealer=2, flags=flags)
    b.deal({0: "AC AD AH AS 9C 9D 2S"} if not split else {0: "AC AD AH 9C 9D 2S 3S", 1: "AS"})
    b.draw(0).meld(0, "set", "AC AD AH").discard(0, b.last)
    if split:
        b.draw(1).layoff(1, 0, "AS").discard(1, b.last)
    else:
        b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0)
    if not split:
        b.layoff(0, 0, "AS")
    return b.discard(0, b.last)


def test_V500_ACE_four_aces_100():
    f = F(4, r500_four_aces_100=True)
    b = aces_game()
    b.end(4, tv={0: 100}).game_end(-1, capped=1)
    assert_ok(b, f)
    assert_rule(b, "R500-SCORE-2", F(4))  # 60 by default
    plain = aces_game()
    plain.end(4).game_end(-1, capped=1)
    assert plain.scores[0][4] == 60
    assert_ok(plain, F(4))
    assert_rule(plain, "V500-ACE", f)
    # the four aces credited to two seats: no 25s
    g = aces_game(split=True)
    g.end(4).game_end(-1, capped=1)
    assert_ok(g, f)
    # a joker as the fourth ace: not four aces (rules-decisions E19)
    j = B(3, dealer=2)
    j.deal({0: "AC AD AH X 9C 9D 2S"})
    j.draw(0).meld(0, "set", "AC AD AH X").discard(0, j.last)
    j.end(4).game_end(-1, capped=1)
    assert j.scores[0][4] == 60
    assert_ok(j, F(1, r500_four_aces_100=True))
    # ace value 25 and divisor 5: 25/5 = 5 per ace either way; 5_10_15 / 5 with ace 15: 3 -> 5
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    d = aces_game(fl)
    d.end(4, tv={0: 20}).game_end(-1, capped=1)
    assert_ok(d, F(4, r500_four_aces_100=True, **fl))


def test_V500_DIV5_values_divided_by_five():
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "5H 6H 7H AS KD 9C 2C"}, stock="TH")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "TH")
    finish_capped(b)
    assert b.scores[0][4] == 3 and b.scores[0][5] == (3 + 2 + 1 + 1)
    assert b.rows[0][4] == 100  # the default target becomes 100
    f = F(1, **fl)
    assert_ok(b, f)
    # undivided values under the divisor
    i = find(b.rows, 41, c1=0)
    bad = mutate(b, i, 4, 15)
    bad[i, 2] += 12
    bad[i, 3] += 12
    assert_rule(bad, "V500-DIV5", f)
    # an explicit target is used as given
    assert_rule(b, "V500-TARGET", F(1, r500_target=500, **fl))
    # all5 / 5: every natural 2-K is 1
    fa = {"r500_card_values": "all5", "r500_score_divisor": 5}
    g = B(3, dealer=2, flags=fa)
    g.deal({0: "5H 6H 7H AS KD 9C 2C"}, stock="TH")
    g.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "TH")
    finish_capped(g)
    assert g.scores[0][4] == 3 and g.scores[0][5] == 3 + 1 + 1 + 1
    assert_ok(g, F(1, **fa))


@pytest.mark.parametrize("n,flags,size", [
    (4, {"r500_num_decks": 2, "r500_jokers_per_deck": 0}, 104),
    (6, {"r500_num_decks": 2, "r500_jokers_per_deck": 1}, 106),
    (4, {"r500_jokers_per_deck": 1, "r500_card_values": "all5"}, 53),
])
def test_V500_JOKERS_V500_DECKS_combined(n, flags, size):
    b = B(n, dealer=n - 1, flags=flags)
    b.deal()
    assert b.rows[1][3] == size
    b.draw_discard(0)
    finish_capped(b)
    assert_ok(b, F(1, **flags))
    assert_rule(b, "R500-SETUP-3", F(1, **{**flags, "r500_jokers_per_deck": 2}))


# ============================================================================================
# V500-TARGET, V500-TIE (T-13), V500-MUSTOUT (T-12), V500-WINNERDEALS, V500-UPCHOICE
# ============================================================================================


def test_V500_TARGET_values():
    for t in (100, 250, 1000):
        b = B(3, dealer=2, flags={"r500_target": t})
        b.deal().draw_discard(0)
        finish_capped(b)
        assert_ok(b, F(1, r500_target=t))
        assert_rule(b, "V500-TARGET", F(1))


def t13_hand(b_keep: str, flags: dict) -> B:
    """T-13 with target 30: seat 0 (A) goes out with 32; seat 1 (B) melds four kings and keeps b_keep."""
    b = B(3, dealer=0, flags=flags)
    b.deal({0: "2C 3C 4C 5C 6H 6D 6S", 1: "KC KD KH KS " + b_keep}, stock="_ _ 9H")
    b.draw(1).meld(1, "set", "KC KD KH KS").discard(1, b.last)
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S").discard(0, "9H")
    return b.end(1, out=0)


def test_T13_V500_TIE_goer_wins():
    flags = {"r500_target": 30, "r500_tie_rule": "goer_wins"}
    f = {**flags, "max_turns_per_hand": 3, "max_hands_per_game": 2}
    tie = t13_hand("2D 3D 3H", flags)  # A 32, B 32
    assert tie.totals[:2] == [32, 32]
    assert_ok(tie.game_end(0), f)
    replay = {**f, "r500_tie_rule": "replay"}
    assert_rule(t13_hand("2D 3D 3H", flags).game_end(0), "R500-END-2", replay)
    over = t13_hand("2D 3D 2H", flags)  # A 32, B 33: A still wins
    assert over.totals[:2] == [32, 33]
    assert_ok(over.game_end(0), f)
    assert_rule(t13_hand("2D 3D 2H", flags).game_end(1), "V500-TIE", f)


MUSTOUT = {"r500_target": 50, "r500_must_go_out_to_win": True}


def t12_game(flags: dict) -> B:
    """RULES.md T-12 scaled to a target of 50.  Hand 1: A (seat 0) 52, B (seat 1) 58, C (seat 2) goes out with
    35.  Hand 2 (dealer 0): A goes out and reaches 75 while B has 91."""
    b = B(3, dealer=2, flags=flags)
    b.deal({0: "KC KD KH QC QD QH 8C", 1: "JC JD JH TC TD TH 2H", 2: "2S 3S 4S 5S 6S 7S 8S"},
           stock="3C 4D 9H")
    b.draw(0).meld(0, "set", "KC KD KH").meld(0, "set", "QC QD QH").discard(0, "3C")
    b.draw(1).meld(1, "set", "JC JD JH").meld(1, "set", "TC TD TH").discard(1, "4D")
    b.draw(2).meld(2, "run", "2S 3S 4S 5S 6S 7S 8S").discard(2, "9H")
    b.end(1, out=2)
    assert b.totals == [52, 58, 35]
    return b


def t12_second_hand(b: B) -> B:
    b.deal({1: "KC KD KH KS 2H 2S 3S", 0: "2C 3C 4C 2D 3D 4D 5D"}, stock="QC _ 9S")
    b.draw(1).meld(1, "set", "KC KD KH KS").discard(1, "QC")
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "2C 3C 4C").meld(0, "run", "2D 3D 4D 5D").discard(0, "9S")
    b.end(1, out=0)
    assert b.totals[0] == 75 and b.totals[1] == 91
    return b


def test_T12_V500_MUSTOUT_must_go_out_to_win():
    f = {**MUSTOUT, "max_hands_per_game": 5}
    # by default B wins after hand 1
    d = t12_game({"r500_target": 50}).game_end(1)
    assert_ok(d, {"r500_target": 50})
    assert_rule(d, "V500-MUSTOUT", f)
    # with the rule another hand is dealt; A goes out with 75 and wins although B has 91
    b = t12_second_hand(t12_game(MUSTOUT)).game_end(0)
    assert_ok(b, f)
    assert_rule(t12_second_hand(t12_game(MUSTOUT)).game_end(1), "V500-MUSTOUT", f)
    assert_rule(b, "R500-END-1", {"r500_target": 50})


def test_V500_WINNERDEALS_winner_deals_next():
    """Hand 1 of T-12: C (seat 2) goes out, so seat 2 deals hand 2 (seat 0 plays first); with the
    must-go-out rule nobody wins hand 1, and hand 2 ends on the turn cap."""
    fl = {**MUSTOUT, "r500_next_dealer": "winner"}
    f = {**fl, "max_hands_per_game": 2, "max_turns_per_hand": 3}
    g = t12_game(fl)
    assert g.dealer == 2
    g.deal().draw_discard().draw_discard().draw_discard().end(4).game_end(-1, capped=1)
    assert g.rows[find(g.rows, 2, nth=1)][2] == 2
    assert_ok(g, f)
    assert_rule(g, "R500-DEAL-3", {**f, "r500_next_dealer": "left"})
    # the seat left of the dealer dealing is wrong under the rule
    h = t12_game({**MUSTOUT})
    h.deal().draw_discard().draw_discard().draw_discard().end(4).game_end(-1, capped=1)
    assert_ok(h, {**f, "r500_next_dealer": "left"})
    assert_rule(h, "V500-WINNERDEALS", f)
    # nobody out: the deal passes left
    k = B(3, dealer=2, flags=fl)
    k.deal().draw_discard().draw_discard().draw_discard().end(4)
    assert k.dealer == 0
    k.deal().draw_discard().draw_discard().draw_discard().end(4).game_end(-1, capped=1)
    assert_ok(k, f)


def test_V500_UPCHOICE_first_player_starts_the_pile():
    fl = {"r500_upcard_mode": "first_player_choice"}
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "9S 2C 3C 4C 5H 6H 7H KD"})
    assert len(b.hands[0]) == 8 and b.pile == []
    b.start_pile(0, "KD")
    b.draw(0).meld(0, "run", "2C 3C 4C").discard(0, "9S")
    b.take(1).discard(1, b.hands[1][0])  # seat 1 takes KD
    finish_capped(b)
    f = F(2, **fl)
    assert_ok(b, f)
    assert_rule(b, "V500-UPCHOICE", F(2))  # under the default upcard mode
    i = find(b.rows, 66)
    assert_rule(delete(b.array(), i), "V500-UPCHOICE", f)  # no START_PILE
    assert_rule(mutate(b, i, 2, cid("AS")), "C-CARD-CONSERVATION", f)  # a card seat 0 lacks
    assert_rule(mutate(b, i, 1, 1), "V500-UPCHOICE", f, first=False)  # the wrong seat
    # the first player's turn with an upcard dealt (first_player_choice expects START_PILE)
    g = B(3, dealer=2)
    g.deal().draw_discard(0)
    assert_rule(finish_capped(g), "V500-UPCHOICE", f)
