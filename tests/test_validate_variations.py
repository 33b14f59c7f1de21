"""Tests of the independent rules checker (rummysim.validate.rum500) for the 500 Rum variations
of RULES.md §3, as docs/trace-format.md ("Variations (RULES.md §3) and Standard Rummy (§7)")
records them: rummy calls, floating and going out, out-of-turn melds, opening and run variations,
Boathouse and the pickup rules.

Every trace is hand made with the builder of ``tests/tracebuild.py``.  For each variation there is
at least one legal trace (no violation) and at least one illegal variant, flagged with the expected
rule ID.  RULES.md §10 scenarios T-06, T-07, T-08, T-10 .. T-13, T-15, T-16, T-19 and T-37 are
played as written (T-12 with its totals scaled down to a target of 50), here and in
``tests/test_validate_variations_end.py`` (end of stock, scoring and game-end variations),
``tests/test_validate_standard.py`` (Standard Rummy, flags, robustness) and
``tests/test_validate_random.py`` (random legal games under combined flags).
"""

from __future__ import annotations

import pytest

from tests.scenarios_variations import (
    BOATHOUSE,
    F,
    oot_game,
    t06_game,
    t07_game,
    t10_state,
    t11_game,
)
from tests.tracebuild import B, assert_ok, assert_rule, cid, cname, find, finish_capped, mutate

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# V500-RUMMY
# ============================================================================================


def test_T06_V500_RUMMY_1_3_call_lays_off_and_skips_to_callers_left():
    b = finish_capped(t06_game())
    assert b.rows[find(b.rows, 5, nth=2)][5] == 1  # the call turn is kind 1
    assert b.rows[find(b.rows, 5, nth=3)][1] == 3  # P3 (left of the caller P2) plays next
    f = F(4, r500_call_rummy="pile")
    assert_ok(b, f)
    # the call is credited to P2: 6 points
    assert b.scores[2][4] == 6
    assert_ok(b, {**f, "r500_call_rummy": "top_only"})
    # a discarded 2H works the same way
    assert_ok(finish_capped(t06_game(discard="2H")), f)


def test_V500_RUMMY_1_calls_off_or_without_window():
    b = finish_capped(t06_game())
    assert_rule(b, "V500-RUMMY-1", F(4))  # r500_call_rummy=off
    # a call before any discard (first turn of the hand)
    b2 = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b2.deal({3: "3H 4H 5H 9S TS 2C 3C"}, upcard="6H")
    b2.call(2).discard(2, b2.hands[2][0])
    assert_rule(finish_capped(b2), "V500-RUMMY-1", F(1, r500_call_rummy="pile"), first=False)


def test_V500_RUMMY_3_turn_order_after_call():
    # P1 (skipped) plays after the call instead of P3
    b = finish_capped(t06_game(after=1))
    assert_rule(b, "R500-TURN-1", F(4, r500_call_rummy="pile"))


def test_V500_RUMMY_3_claimed_card_must_be_played():
    b = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({3: "3H 4H 5H 9S TS 2C 3C", 0: "6H 8S 7C 2D 3D 4D JC", 2: "QC QD KS"}, stock="KC KH")
    b.draw(3).meld(3, "run", "3H 4H 5H").discard(3, "KC")
    b.draw(0).discard(0, "6H")
    b.call(2).discard(2, "QC")  # 6H kept in hand
    b.draw_discard(3)
    assert_rule(finish_capped(b), "V500-RUMMY-3", F(4, r500_call_rummy="pile"))
    # a call turn cannot draw from the stock
    a = finish_capped(t06_game()).array()
    i = find(a.tolist(), 11)
    a2 = a.copy()
    a2[i] = [10, 2, 0, 0, 0, 0, 0, 0]
    assert_rule(a2, "V500-RUMMY-3", F(4, r500_call_rummy="pile"))


def test_V500_RUMMY_2_ineligible_card():
    # 9C fits no table meld and makes no meld with pile cards
    b = finish_capped(t06_game(discard="9C"))
    res = assert_rule(b, "V500-RUMMY-2", F(4, r500_call_rummy="pile"))
    # (the lay-off of 9C on the heart run is itself illegal too)
    assert "R500-MELD-8" in [v.rule_id for v in res.violations]


def test_V500_RUMMY_4_discarder_cannot_call():
    b = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({3: "3H 4H 5H 9S TS 2C 3C", 0: "6H 8S 7C 2D 3D 4D JC"}, stock="KC KH")
    b.draw(3).meld(3, "run", "3H 4H 5H").discard(3, "KC")
    b.draw(0).discard(0, "6H")
    b.call(0).layoff(0, 0, "6H").discard(0, "8S")
    b.draw_discard(1)
    assert_rule(finish_capped(b), "V500-RUMMY-4", F(4, r500_call_rummy="pile"))


def test_T07_V500_RUMMY_2_buried_card_made_live():
    b = t07_game()
    assert b.next == 3  # play continues to the claimant's left
    b.draw_discard(3)
    assert_ok(finish_capped(b), F(5, r500_call_rummy="pile"))
    assert b.scores[2][4] == 5  # 5C credited to the claimant


def test_T07_V500_RUMMY_4_meld_owner_cannot_claim_in_that_window():
    b = t07_game(claimant=1)
    b.draw_discard(2)
    assert_rule(finish_capped(b), "V500-RUMMY-4", F(5, r500_call_rummy="pile"))


def test_T07_V500_RUMMY_4_meld_owner_may_claim_in_a_later_window():
    b = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({1: "7C 8C 2D 9H 9D 4S 3S", 3: "TD", 0: "KS"}, upcard="5C", stock="2H 3H 6C QH")
    b.draw(3).discard(3, "TD")
    b.draw(0).discard(0, "KS")
    b.draw(1).meld(1, "run", "6C 7C 8C").discard(1, "2D")
    b.draw(2).discard(2, "QH")  # no call; P2 plays and discards
    b.call(1, 0).layoff(1, 0, "5C").discard(1, "TD")  # now P1 may claim 5C
    assert b.next == 2
    b.draw_discard(2)
    assert_ok(finish_capped(b), F(6, r500_call_rummy="pile"))


def test_V500_RUMMY_2_card_not_yet_playable():
    b = t07_game(early=True)
    b.draw_discard(2)
    res = assert_rule(finish_capped(b), "V500-RUMMY-2", F(4, r500_call_rummy="pile"))
    assert "V500-RUMMY-3" in [v.rule_id for v in res.violations]  # and 5C was never played


def test_V500_RUMMY_2_pile_cards_forming_a_meld():
    """Eligibility from pile cards alone: 5C, 6C (with a joker between) above it form a run."""
    b = B(3, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({0: "6C 2D", 1: "X 9H", 2: "KD"}, upcard="4C")
    b.draw(0).discard(0, "6C")
    b.draw(1).discard(1, "X")  # pile 4C 6C X
    b.call(0, 0).meld(0, "run", "4C X@5 6C").discard(0, "2D")
    b.draw_discard(1)
    assert_ok(finish_capped(b), F(4, r500_call_rummy="pile"))
    # with V500-RUN4 the three pile cards no longer make a meld
    assert_rule(finish_capped(b), "V500-RUMMY-2",
                F(4, r500_call_rummy="pile", r500_min_new_run=4))


def test_V500_RUMMY_5_top_only():
    f = F(4, r500_call_rummy="top_only")
    assert_ok(finish_capped(t06_game("top_only")), f)
    # T-07's buried 5C may not be claimed in top_only mode
    b = t07_game()
    b.draw_discard(3)
    assert_rule(finish_capped(b), "V500-RUMMY-5", F(5, r500_call_rummy="top_only"))


def test_V500_RUMMY_6_layoff_only():
    f = F(4, r500_call_rummy="layoff_only")
    b = t06_game("layoff_only")
    assert b.rows[find(b.rows, 5, nth=3)][1] == 1  # P1, left of the discarder P0, plays next
    assert_ok(finish_capped(b), f)
    # the caller may not discard
    assert_rule(finish_capped(t06_game("layoff_only", caller_discards=True)), "V500-RUMMY-6", f)
    # play continues left of the discarder, not of the caller
    assert_rule(finish_capped(t06_game("layoff_only", after=3)), "R500-TURN-1", f)
    # the layoff_only trace is wrong in pile mode: the caller must discard
    assert_rule(finish_capped(t06_game("layoff_only")), "R500-DISC-1", F(4, r500_call_rummy="pile"))
    # a deep claim is not allowed in layoff_only mode
    b = t07_game()
    b.draw_discard(3)
    assert_rule(finish_capped(b), "V500-RUMMY-6", F(5, r500_call_rummy="layoff_only"))


def test_V500_RUMMY_7_call_turn_counts_as_a_turn():
    b = finish_capped(t06_game())
    i = find(b.rows, 5, nth=3)
    assert b.rows[i][2] == 3  # turn_no advanced by the call
    assert_rule(mutate(b, i, 2, 2), "TRACE-FORMAT", F(4, r500_call_rummy="pile"))
    # the turn cap counts the call turn: with a cap of 3 the hand ends after the call
    assert_rule(b, "ENGINE-TURN-CAP", F(3, r500_call_rummy="pile"))


def test_V500_RUMMY_NEWMELD_does_not_bind_calls():
    """rules-decisions E13: r500_pickup_use=new_meld narrows draws only; a call follows
    V500-RUMMY-3/5/6 (here: the claimed 6H laid off)."""
    b = finish_capped(t06_game())
    assert_ok(b, F(4, r500_call_rummy="pile", r500_pickup_use="new_meld"))
    assert_ok(b, F(4, r500_call_rummy="pile", r500_no_pickup_to_hit=True))


# ============================================================================================
# V500-DISCREQ, V500-FLOAT, V500-UNPLAYABLE (T-11)
# ============================================================================================


def test_T11_V500_FLOAT_1_float_then_out_by_discard():
    b = t11_game()
    b.end(1, out=0).game_end(-1, capped=1)
    f = F(r500_going_out="floating")
    assert_ok(b, f)
    # without floating, laying down every card goes out at once
    assert_rule(b, "R500-OUT-1", F())
    # the hand does not end when P0 lays down every card
    b2 = B(3, dealer=2, flags=f)
    b2.deal({0: "4S 5S 7H 8H 9H TH 2C"}, stock="JH QD _ 6S")
    b2.draw(0).meld(0, "run", "7H 8H 9H TH JH").discard(0, "2C")
    b2.draw_discard(1)
    b2.draw_discard(2)
    b2.draw(0).meld(0, "run", "4S 5S 6S")
    b2.end(1, out=0).game_end(-1, capped=1)
    assert_rule(b2, "V500-FLOAT-3", f)


def test_V500_FLOAT_3_discarding_the_last_card_ends_the_hand():
    b = t11_game()
    b.float_(0)
    b.draw_discard(1)
    finish_capped(b)
    assert_rule(b, "V500-FLOAT-3", F(r500_going_out="floating"))


def test_V500_FLOAT_1_float_record_with_cards_in_hand():
    b = B(3, dealer=2, flags={"r500_going_out": "floating"})
    b.deal()
    b.draw(0).float_(0)
    assert_rule(finish_capped(b), "V500-FLOAT-1", F(1, r500_going_out="floating"))


def test_T11_V500_UNPLAYABLE_1_playable_last_discard_floats():
    f = F(r500_going_out="floating", r500_unplayable_discard=True)
    b = t11_game(unplayable=True, kings=True, tail="_ _ 9C")
    b.float_(0)  # KD fits KC KH KS: P0 floats again
    b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).discard(0, b.last)  # 9C: unplayable, P0 goes out
    assert cname(b.pile[-1]) == "9C"
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, f)
    # ending the hand on the playable KD is wrong
    b2 = t11_game(unplayable=True, kings=True)
    b2.end(1, out=0).game_end(-1, capped=1)
    assert_rule(b2, "V500-UNPLAYABLE-1", f)
    # the same trace is right without the unplayable rule (KD is then a going-out discard)
    assert_ok(b2, F(r500_going_out="floating"))
    # and r500_unplayable_discard alone implies floating (AMB-26)
    assert_rule(b2, "V500-UNPLAYABLE-1", F(r500_unplayable_discard=True))


def test_V500_UNPLAYABLE_1_unplayable_last_card_ends_the_hand():
    f = F(r500_going_out="floating", r500_unplayable_discard=True)
    b = t11_game(last="9C", unplayable=True, kings=True)
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, f)
    b2 = t11_game(last="9C", unplayable=True, kings=True)
    b2.float_(0)
    b2.draw_discard(1)
    finish_capped(b2)
    assert_rule(b2, "V500-UNPLAYABLE-1", f)


def test_V500_DISCREQ_no_going_out_by_melding():
    f = F(r500_going_out="discard_required")
    b = B(3, dealer=2)
    b.deal({0: "2C 3C 4C 5C 6H 6D 6S"}, stock="6C")
    b.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S 6C")
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, F())
    assert_rule(b, "V500-DISCREQ", f)
    # going out by discarding the last card is the way out
    b2 = B(3, dealer=2)
    b2.deal({0: "2C 3C 4C 5C 6H 6D 6S"}, stock="9H")
    b2.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S").discard(0, "9H")
    b2.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b2, f)


# ============================================================================================
# V500-OUTOFTURN
# ============================================================================================


def test_V500_OUTOFTURN_meld_after_a_discard():
    f = F(2, r500_meld_out_of_turn=True)
    b = finish_capped(oot_game())
    assert_ok(b, f)
    assert b.scores[2][4] == 27  # out-of-turn melds are credited to the seat that lays them
    assert_ok(finish_capped(oot_game(seats=(1, 2))), f)
    # the flag is off
    assert_rule(b, "V500-OUTOFTURN", F(2))
    # clockwise from the seat left of the discarder, each seat at most once
    assert_rule(finish_capped(oot_game(seats=(2, 1))), "V500-OUTOFTURN", f)
    assert_rule(finish_capped(oot_game(seats=(2, 2))), "V500-OUTOFTURN", f)
    # the discarder may not meld out of turn
    assert_rule(finish_capped(oot_game(seats=(0,))), "V500-OUTOFTURN", f, first=False)


def test_V500_OUTOFTURN_no_layoffs():
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H 8H QS KS 2D"}, stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    b.oot(2).meld(2, "set", "9C 9D 9H").layoff(2, 0, "8H")
    b.draw_discard(1)
    assert_rule(finish_capped(b), "V500-OUTOFTURN", F(2, r500_meld_out_of_turn=True))


def test_V500_OUTOFTURN_emptying_the_hand():
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H JS QS KS AS"}, stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    b.oot(2).meld(2, "set", "9C 9D 9H").meld(2, "run", "JS QS KS AS@14")
    assert b.hands[2] == []
    b.end(1, out=2).game_end(-1, capped=1)
    assert_ok(b, F(r500_meld_out_of_turn=True))
    assert_rule(b, "V500-DISCREQ", F(r500_meld_out_of_turn=True,
                                     r500_going_out="discard_required"))
    # floating: the seat floats and the next turn starts
    b2 = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b2.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H JS QS KS AS"}, stock="KC")
    b2.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    b2.oot(2).meld(2, "set", "9C 9D 9H").meld(2, "run", "JS QS KS AS@14").float_(2)
    b2.draw_discard(1)
    assert_ok(finish_capped(b2), F(2, r500_meld_out_of_turn=True, r500_going_out="floating"))


def test_V500_OUTOFTURN_window_after_the_rummy_window():
    f = F(3, r500_meld_out_of_turn=True, r500_call_rummy="pile")
    # P0 discards 8H; P1 calls and lays it off on P0's run; P2 melds out of turn after P1's discard
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True, "r500_call_rummy": "pile"})
    b.deal({0: "5H 6H 7H 8H 3C 4D 9S", 2: "9C 9D 9H 2D", 1: "QC"}, stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b.call(1).layoff(1, 0, "8H").discard(1, "QC")
    b.oot(2).meld(2, "set", "9C 9D 9H")
    b.draw_discard(2)
    assert_ok(finish_capped(b), f)
    # a layoff_only call closes the window too (rules-decisions E12)
    lo = {"r500_meld_out_of_turn": True, "r500_call_rummy": "layoff_only"}
    b3 = B(3, dealer=2, flags=lo)
    b3.deal({0: "5H 6H 7H 8H 3C 4D 9S", 2: "9C 9D 9H 2D", 1: "QC"}, stock="KC")
    b3.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b3.call(2).layoff(2, 0, "8H")
    assert b3.next == 1
    b3.oot(2).meld(2, "set", "9C 9D 9H")
    b3.draw_discard(1)
    assert_rule(finish_capped(b3), "V500-OUTOFTURN", F(3, **lo))
    # a call after an out-of-turn meld of the same window is too late
    b2 = B(3, dealer=2, flags={"r500_meld_out_of_turn": True, "r500_call_rummy": "pile"})
    b2.deal({0: "5H 6H 7H 8H 3C 4D 9S", 2: "9C 9D 9H 2D", 1: "QC"}, stock="KC")
    b2.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b2.oot(2).meld(2, "set", "9C 9D 9H")
    b2.call(1).layoff(1, 0, "8H").discard(1, "QC")
    b2.draw_discard(2)
    assert_rule(finish_capped(b2), "V500-RUMMY-1", f)


# ============================================================================================
# V500-OPEN30 (T-15), V500-RUN4, V500-CORNER (T-08)
# ============================================================================================


def t15_game(first: str = "both") -> B:
    """RULES.md T-15: P0 (first player) opens with 2H 3H 4H (+ JC JD JS), then lays off 5H on a
    later turn."""
    b = B(3, dealer=2, flags={"r500_first_meld_min": 30})
    b.deal({0: "2H 3H 4H JC JD JS 9C", 1: "QC 8D", 2: "KD"}, stock="9D _ _ 5H")
    b.draw(0).meld(0, "run", "2H 3H 4H")
    if first == "both":
        b.meld(0, "set", "JC JD JS")
    b.discard(0, "9C")
    b.draw(1).discard(1, "QC")
    b.draw_discard(2)
    b.draw(0).layoff(0, 0, "5H").discard(0, "9D")
    if not b.hands[0]:  # P0 went out (after 2H 3H 4H JC JD JS it held one card)
        return b.end(1, out=0).game_end(-1, capped=1)
    return finish_capped(b)


def test_T15_V500_OPEN30_first_meld_of_30():
    f = F(4, r500_first_meld_min=30)
    assert_ok(t15_game(), f)  # 9 + 30 = 39, then a single 5H lay-off
    assert_rule(t15_game(first="run"), "V500-OPEN30", f)  # 2H 3H 4H alone: 9
    assert_ok(t15_game(first="run"), F(4))


def test_V500_OPEN30_counts_layoffs_and_every_opening():
    f = F(3, r500_first_meld_min=30)
    # P1's first cards on the table are a lay-off of 5H (5 points): too little
    b = B(3, dealer=2, flags={"r500_first_meld_min": 30})
    b.deal({0: "2H 3H 4H JC JD JS 9C", 1: "5H 8D"})
    b.draw(0).meld(0, "run", "2H 3H 4H").meld(0, "set", "JC JD JS").discard(0, "9C")
    b.draw(1).layoff(1, 0, "5H").discard(1, "8D")
    b.draw_discard(2)
    assert_rule(finish_capped(b), "V500-OPEN30", f)
    # lay-offs count towards the 30 (AMB-14): 5H + KH KD KC = 35
    b = B(3, dealer=2, flags={"r500_first_meld_min": 30})
    b.deal({0: "2H 3H 4H JC JD JS 9C", 1: "5H KH KD KC 8D"})
    b.draw(0).meld(0, "run", "2H 3H 4H").meld(0, "set", "JC JD JS").discard(0, "9C")
    b.draw(1).layoff(1, 0, "5H").meld(1, "set", "KH KD KC").discard(1, "8D")
    b.draw_discard(2)
    assert_ok(finish_capped(b), f)
    # an out-of-turn window is an opening too: 9C 9D 9H (27) is too little
    g = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    g.deal({0: "5H 6H 7H 8H 9H TH 2C", 2: "9C 9D 9S 2D"}, stock="KC")
    g.draw(0).meld(0, "run", "5H 6H 7H 8H 9H TH").discard(0, "KC")  # 45
    g.oot(2).meld(2, "set", "9C 9D 9S")
    g.draw_discard(1)
    finish_capped(g)
    fo = F(2, r500_meld_out_of_turn=True)
    assert_ok(g, fo)
    assert_rule(g, "V500-OPEN30", {**fo, "r500_first_meld_min": 30})


def test_V500_OPEN30_with_divisor_counts_divided_points():
    """E17: under V500-DIV5 the card values and the minimum are both divided (30 raw = 6)."""
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    f = {**F(r500_target=100, **fl), "r500_first_meld_min": 30}
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "KC KD KH QC QD 2S 3S"}, stock="2C")
    b.draw(0).meld(0, "set", "KC KD KH").discard(0, "2C")  # 3 x 10 = 30 raw, 6 divided: enough
    assert_ok(finish_capped(b), {**f, "max_turns_per_hand": 1, "max_hands_per_game": 1})
    b = B(3, dealer=2, flags=fl)
    b.deal({0: "2C 2D 2H QC QD 9S 3S"}, stock="KC")
    b.draw(0).meld(0, "set", "2C 2D 2H").discard(0, "KC")  # 3 x 5 = 15 raw, 3 divided: too little
    assert_rule(finish_capped(b), "V500-OPEN30", {**f, "max_turns_per_hand": 1, "max_hands_per_game": 1})


def test_V500_RUN4_new_runs_of_four():
    f = F(4, r500_min_new_run=4)
    b = B(3, dealer=2)
    b.deal({0: "2H 3H 4H 5H 9S 9C 9D", 1: "6H 8D"})
    b.draw(0).meld(0, "run", "2H 3H 4H 5H").discard(0, b.last)
    b.draw(1).layoff(1, 0, "6H").discard(1, "8D")  # a single-card lay-off on a run is fine
    b.draw_discard(2)
    b.draw_discard(0)
    assert_ok(finish_capped(b), f)
    b = B(3, dealer=2)
    b.deal({0: "2H 3H 4H 5H 9S 9C 9D"})
    b.draw(0).meld(0, "run", "2H 3H 4H").discard(0, b.last)
    assert_ok(finish_capped(b), F(1))
    assert_rule(b, "V500-RUN4", F(1, r500_min_new_run=4))


def test_T08_V500_CORNER_runs_round_the_corner():
    fc = F(1, r500_round_the_corner=True)
    h = "QH KH AH 2H 3H 4H 9C"

    def one(play) -> B:
        return finish_capped(play(B(3, dealer=2).deal({0: h}, stock="9D").draw(0)))

    kh_ah_2h = one(lambda b: b.meld(0, "run", "KH AH@14 2H@15").discard(0, "9C"))
    assert_ok(kh_ah_2h, fc)
    assert_rule(kh_ah_2h, "R500-MELD-4", F(1))
    six = one(lambda b: b.meld(0, "run", "QH KH AH@14 2H@15 3H@16 4H@17").discard(0, "9C"))
    assert_ok(six, fc)
    assert_rule(six, "R500-MELD-4", F(1))
    # laying 2H off on Q-K-A is legal round the corner, not by default
    lay = one(lambda b: b.meld(0, "run", "QH KH AH@14").layoff(0, 0, "2H@15").discard(0, "9C"))
    assert_ok(lay, fc)
    assert_rule(lay, "R500-MELD-4", F(1))
    # the MELD's lo must be 1..13: K-A-2 is never written from 13 with positions 0..
    bad = one(lambda b: b.meld(0, "run", "KH AH@14 2H@15", lo=13).discard(0, "9C"))
    i = find(bad.rows, 20)
    assert_rule(mutate(bad, i, 5, 26), "V500-CORNER", fc, first=False)


def test_V500_CORNER_layoff_below_position_1_rebases_and_ace_scores_high():
    """A 2 3 by P0 (ace low); P1 lays off K below it (written at 13, the run re-based to 14..16);
    then Q at 12 and 4 at 17.  At hand end P0's ace is next to K and 2: it scores high."""
    fc = F(3, r500_round_the_corner=True)
    b = B(3, dealer=2)
    b.deal({0: "AH 2H 3H 9C 9D 9S 5C", 1: "KH QH 4H 8D"})
    b.draw(0).meld(0, "run", "AH@1 2H 3H").meld(0, "set", "9C 9D 9S").discard(0, b.last)
    b.draw(1).layoff(1, 0, "KH@13", run_lo=13).layoff(1, 0, "QH@12 4H@17").discard(1, "8D")
    b.draw_discard(2)
    b.end(4, tv={0: 15 + 2 + 3 + 27})
    b.game_end(-1, capped=1)
    assert b.scores[1][4] == 24
    assert_ok(b, fc)
    # scoring the ace low (1) is wrong
    i = find(b.rows, 41, c1=0)
    bad = mutate(b, i, 4, 33)
    bad[i, 2] -= 14
    bad[i, 3] -= 14
    assert_rule(bad, "V500-CORNER", fc)
    # a lay-off below position 1 must be written shifted up by 13
    j = find(b.rows, 21, c3=cid("KH"))
    assert_rule(mutate(b, j, 4, 0), "V500-CORNER", fc)
    # 14 cards: K-A-2-...-K is too long (13 at most, even round the corner)
    g = B(5, dealer=4)
    g.deal({0: "AH 2H 3H 4H 5H 2D 2S", 1: "6H 7H 8H 9H TH 2C 3C", 2: "JH QH KH 3D 4D 5D 6D",
            3: "KH 3S"})
    g.draw(0).meld(0, "run", "AH 2H 3H 4H 5H").discard(0, g.last)
    g.draw(1).layoff(1, 0, "6H 7H 8H 9H TH").discard(1, g.last)
    g.draw(2).layoff(2, 0, "JH QH KH").discard(2, g.last)
    g.draw(3).layoff(3, 0, "KH@13").discard(3, "3S")
    assert_rule(finish_capped(g), "V500-CORNER", F(4, r500_round_the_corner=True))


# ============================================================================================
# V500-BOATHOUSE (T-10), V500-DISCSAME, V500-TOPMUST, V500-NEWMELD, V500-NOHIT
# ============================================================================================


def test_T10_V500_BOATHOUSE_take_top_card_cannot_go_out():
    f = F(4, **BOATHOUSE)
    b = t10_state()
    b.take(0).discard(0, "3C")  # legal: P0 keeps 3D 3H
    assert_ok(finish_capped(b), f)
    # melding 3C 3D 3H would leave nothing to discard
    b = t10_state()
    b.take(0).meld(0, "set", "3C 3D 3H")
    b.end(1, out=0).game_end(-1, capped=1)
    assert_rule(b, "V500-DISCREQ", f)
    # 3H itself may not be discarded
    b = t10_state()
    b.take(0).discard(0, "3H")
    assert_rule(finish_capped(b), "V500-DISCSAME", f)


def test_T10_V500_BOATHOUSE_stock_draw_takes_two_cards():
    f = F(4, **BOATHOUSE)
    b = t10_state()
    b.draw(0).discard(0, "3C")
    assert len([r for r in b.rows[-4:] if r[0] == 10]) == 2
    assert_ok(finish_capped(b), f)
    # only the preset flag (a partial dict): the components are implied
    assert_ok(b, F(4, r500_boathouse=True))
    one = t10_state()
    one.draw(0, count=1).discard(0, "3C")
    assert_rule(finish_capped(one), "V500-BOATHOUSE", f)
    assert_rule(finish_capped(t10_state().draw(0, count=3).discard(0, "3C")), "R500-DRAW-1", f)
    # r500_stock_draw_count=2 on its own; one card left: a single DRAW_STOCK
    g = B(2, dealer=1, flags={"r500_stock_draw_count": 2})
    g.deal()
    assert len(g.stock) == 27
    while len(g.stock) > 1:
        g.draw_discard()
    g.draw_discard()
    assert not g.stock and g.rows[-2][0] == 10 and g.rows[-3][0] == 5
    g.nodraw().end(2).game_end(-1, capped=1)
    assert_ok(g, F(r500_stock_draw_count=2))


def test_V500_DISCSAME_none_and_any_taken():
    b = B(3, dealer=2)
    b.deal({0: "7H 7S 2C 3C 4D 5D 9S"}, upcard="7C")
    b.take(0).discard(0, "7C")
    finish_capped(b)
    assert_rule(b, "R500-DISC-2", F(1))
    assert_ok(b, F(1, r500_discard_restriction="none"))
    assert_rule(b, "V500-DISCSAME", F(1, r500_discard_restriction="any_taken"))


def test_V500_NOHIT_preset_components():
    """as_dict() form of V500-NOHIT: the preset and both components."""
    nohit = {"r500_no_pickup_to_hit": True, "r500_pickup_use": "new_meld",
             "r500_top_card_must_be_played": True}
    # the top card goes into a new meld: legal
    b = B(3, dealer=2)
    b.deal({0: "7H 7S 2C 3C 4D 5D 9S"}, upcard="7C")
    b.take(0).meld(0, "set", "7H 7S 7C").discard(0, "9S")
    assert_ok(finish_capped(b), F(1, **nohit))
    # the top card kept: V500-TOPMUST; laid off: V500-NEWMELD
    b = B(3, dealer=2)
    b.deal({0: "7H 7S 2C 3C 4D 5D 9S"}, upcard="7C")
    b.take(0).discard(0, "9S")
    assert_rule(finish_capped(b), "V500-TOPMUST", F(1, **nohit))
    b = B(3, dealer=2)
    b.deal({0: "7H 7S 7D 3C 4D 5D 9S", 2: "7C"})
    b.draw(0).meld(0, "set", "7H 7S 7D").discard(0, b.last)
    b.draw_discard(1)
    b.draw(2).discard(2, "7C")
    b.take(0).layoff(0, 0, "7C").discard(0, "9S")
    assert_rule(finish_capped(b), "V500-NEWMELD", F(4, **nohit))
    assert_ok(b, F(4))
