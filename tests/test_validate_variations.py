"""Tests of the independent rules checker (sim/validate.py) for the 500 Rum variations of RULES.md
§3 and for Standard Rummy (§7), as docs/trace-format.md ("Variations (RULES.md §3) and Standard
Rummy (§7)") records them.

Every trace is hand made with the builder of ``tests/tracebuild.py``.  For each variation there is
at least one legal trace (no violation) and at least one illegal variant, flagged with the expected
rule ID.  RULES.md §10 scenarios T-06, T-07, T-08, T-10 .. T-13, T-15, T-16, T-19 and T-37 are
played as written (T-12 with its totals scaled down to a target of 50).
"""

from __future__ import annotations

import numpy as np
import pytest

import rummysim.validate.rum500 as V
from rummysim.replay_text import format_trace
from rummysim.validate.rum500 import validate_trace
from tests.tracebuild import (
    CAP1,
    B,
    assert_ok,
    assert_rule,
    cid,
    cname,
    find,
    finish_capped,
    mutate,
    run,
)

pytestmark = pytest.mark.usefixtures("paranoid_validator")



def F(turns: int | None = None, **kw) -> dict:
    """Flags: one hand (hand cap 1), optionally a turn cap, plus ``kw``."""
    f = {**CAP1, **kw}
    if turns is not None:
        f["max_turns_per_hand"] = turns
    return f


def insert(a: np.ndarray, i: int, *rows: list[int]) -> np.ndarray:
    return np.insert(a, i, np.array(rows, np.int32), axis=0)


def delete(a: np.ndarray, *idx: int) -> np.ndarray:
    return np.delete(a, list(idx), axis=0)


# ============================================================================================
# V500-RUMMY
# ============================================================================================


def t06_game(mode: str = "pile", discard: str = "6H", after: int | None = None,
             caller_discards: bool = False) -> B:
    """RULES.md T-06: 4 players; P3 owns 3H 4H 5H; P0 discards `discard` with cards left; P2 calls
    (P1 does not).  Dealer 2, so P3 plays first.  `after`: the seat that plays after the call.
    (Which of several callers wins, V500-RUMMY-1's priority, is not visible in a trace.)"""
    caller = 2
    b = B(4, dealer=2, flags={"r500_call_rummy": mode})
    b.deal({3: "3H 4H 5H 9S TS 2C 3C", 0: f"{discard} 8S 7C 2D 3D 4D JC", caller: "QC QD KS"},
           stock="KC KH")
    b.draw(3).meld(3, "run", "3H 4H 5H").discard(3, "KC")
    b.draw(0).discard(0, discard)
    b.call(caller)
    if mode == "layoff_only":
        b.layoff(caller, 0, discard)
        if caller_discards:
            b.discard(caller, b.hands[caller][0])
    else:
        b.layoff(caller, 0, discard).discard(caller, b.hands[caller][0])
    nxt = b.next if after is None else after
    b.draw_discard(nxt)
    return b


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


def t07_game(claimant: int = 2, early: bool = False) -> B:
    """RULES.md T-07: 4 players, pile mode.  Dealer 2 (P3 first).  The pile is 5C TD KS when P1
    draws 6C, melds 6C 7C 8C and discards 2D.  `claimant` then claims 5C (pile index 0)."""
    b = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({1: "7C 8C 2D 9H 9D 4S 3S", 3: "TD", 0: "KS"}, upcard="5C", stock="2H 3H 6C")
    b.draw(3).discard(3, "TD")
    b.draw(0).discard(0, "KS")
    if early:  # a claim of 5C in the window after P0's discard: not yet playable
        b.call(1, 0).discard(1, "2D")
        return b
    b.draw(1).meld(1, "run", "6C 7C 8C").discard(1, "2D")
    assert [cname(c) for c in b.pile] == ["5C", "TD", "KS", "2D"]
    b.call(claimant, 0).layoff(claimant, 0, "5C").discard(claimant, "TD")
    return b


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


def t11_game(last: str = "KD", unplayable: bool = False, kings: bool = False,
             tail: str = "") -> B:
    """RULES.md T-11: 3 players, dealer 2 (P0 first).  P0 gets down to 4S 5S, then draws 6S and
    melds 4S 5S 6S: P0 floats.  Next turn P0 draws `last` and discards it."""
    flags = {"r500_going_out": "floating", "r500_unplayable_discard": unplayable}
    b = B(3, dealer=2, flags=flags)
    p1 = "KC KH KS 2D 3D 4D 8C" if kings else "2D 3D 4D 8C 9D TD JD"
    b.deal({0: "4S 5S 7H 8H 9H TH 2C", 1: p1}, stock=f"JH QD _ 6S _ _ {last} {tail}")
    b.draw(0).meld(0, "run", "7H 8H 9H TH JH").discard(0, "2C")
    if kings:
        b.draw(1).meld(1, "set", "KC KH KS").discard(1, b.last)
    else:
        b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "4S 5S 6S")
    assert b.hands[0] == []
    b.float_(0)
    b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).discard(0, last)
    return b


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


def oot_game(seats=(2,)) -> B:
    """3 players, dealer 2: P0 discards; `seats` meld out of turn; then P1 plays."""
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H JS QS KS 2D", 1: "JC JD JH 8S"},
           stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    for s in seats:
        b.oot(s)
        if s == 2:
            b.meld(2, "set", "9C 9D 9H")
        elif s == 1:
            b.meld(1, "set", "JC JD JH")
        else:
            b.meld(0, "set", "2C 3C 4D", key=2)
    b.draw_discard(1)
    return b


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

BOATHOUSE = {"r500_boathouse": True, "r500_going_out": "discard_required",
             "r500_discard_restriction": "any_taken", "r500_stock_draw_count": 2}


def t10_state() -> B:
    """RULES.md T-10 state: boathouse; P0 is down to 3C 3D; the top discard is 3H (P2's)."""
    b = B(3, dealer=2, flags=BOATHOUSE)
    b.deal({0: "3C 3D 7H 8H 9H TH 2C", 2: "3H"}, stock="JH QH")
    b.draw(0).meld(0, "run", "7H 8H 9H TH JH QH").discard(0, "2C")
    assert sorted(b.hand(0)) == ["3C", "3D"]
    b.draw_discard(1)
    b.draw(2).discard(2, "3H")
    return b


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


# ============================================================================================
# V500-STOCKEND
# ============================================================================================


def run_out_stock(flags: dict, n: int = 3) -> B:
    b = B(n, dealer=n - 1, flags=flags)
    b.deal()
    while b.stock:
        b.draw_discard()
    return b


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
    """P1 takes the whole pile (KD, the upcard, melded with KC KH) when one stock card is left and
    discards; P2 draws the last stock card and floats; P0 starts with an empty stock and a pile of
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
    g = B(3, dealer=1, flags=fl)  # P2 first
    g.deal({0: "2C 3C 4C 5C 6C 7C 8C"}, stock="_ " * 31 + "9C")
    while len(g.stock) > 1:
        g.draw_discard()
    assert g.next == 0 and cname(g.stock[0]) == "9C"
    g.draw(0).meld(0, "run", "2C 3C 4C 5C 6C 7C 8C 9C").float_(0)  # P0 floats, stock empty
    for _ in range(2):  # P1, P2: draws are over, they discard
        s = g.next
        g.nodraw(over=True).discard(s, g.hands[s][0])
    g.nodraw(0, over=True).float_(0)  # P0 has 0 cards: FLOAT and pass
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

ADDOPP = {"r500_add_opponent_hand": True}


def t19_game() -> B:
    """RULES.md T-19: 2 players.  B (P1, first) melds down to 8H KC; A (P0) goes out with the run
    5H 6H 7H among its melds; B lays 8H off on A's run (no one scores it); KC is added to A."""
    b = B(2, dealer=0, flags=ADDOPP)
    b.deal({1: "8H KC 2D 3D 4D 5D 6D TD TH TS QD QH QC",
            0: "5H 6H 7H 2C 3C 4C 5C 9D 9S 9C JD JS JC"}, stock="2S QS")
    b.draw(1).meld(1, "run", "2D 3D 4D 5D 6D").meld(1, "set", "TD TH TS") \
        .meld(1, "set", "QD QH QC").discard(1, "2S")
    assert sorted(b.hand(1)) == ["8H", "KC"]
    b.draw(0).meld(0, "run", "5H 6H 7H").meld(0, "run", "2C 3C 4C 5C") \
        .meld(0, "set", "9D 9S 9C").meld(0, "set", "JD JS JC").discard(0, "QS")
    return b


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


def t16_game(bonus: int = 500, flags: dict | None = None) -> B:
    """RULES.md T-16: 3 players; after drawing KD, P0 holds 4C..TC KD, lays down the run and
    discards KD."""
    b = B(3, dealer=2, flags=flags)
    b.deal({0: "4C 5C 6C 7C 8C 9C TC"}, stock="KD")
    b.draw(0).meld(0, "run", "4C 5C 6C 7C 8C 9C TC").discard(0, "KD")
    b.end(1, out=0, bonus={0: bonus})
    target = 100 if (flags or {}).get("r500_score_divisor") == 5 else 500
    return b.game_end(0) if b.totals[0] >= target else b.game_end(-1, capped=1)


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
    """P0 melds AC AD AH; AS is laid off on a later turn by P0 (or by P1 with `split`)."""
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
    """T-13 with target 30: P0 (A) goes out with 32; P1 (B) melds four kings and keeps b_keep."""
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
    """RULES.md T-12 scaled to a target of 50.  Hand 1: A (P0) 52, B (P1) 58, C (P2) goes out with
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
    """Hand 1 of T-12: C (P2) goes out, so P2 deals hand 2 (P0 plays first); with the
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
    b.take(1).discard(1, b.hands[1][0])  # P1 takes KD
    finish_capped(b)
    f = F(2, **fl)
    assert_ok(b, f)
    assert_rule(b, "V500-UPCHOICE", F(2))  # under the default upcard mode
    i = find(b.rows, 66)
    assert_rule(delete(b.array(), i), "V500-UPCHOICE", f)  # no START_PILE
    assert_rule(mutate(b, i, 2, cid("AS")), "C-CARD-CONSERVATION", f)  # a card P0 lacks
    assert_rule(mutate(b, i, 1, 1), "V500-UPCHOICE", f, first=False)  # the wrong seat
    # the first player's turn with an upcard dealt (first_player_choice expects START_PILE)
    g = B(3, dealer=2)
    g.deal().draw_discard(0)
    assert_rule(finish_capped(g), "V500-UPCHOICE", f)


# ============================================================================================
# Standard Rummy (RULES.md §7, T-37)
# ============================================================================================

STD = {"game": "standard-rummy", "std_game_hands": 1}


def std_finish(b: B) -> B:
    """End a Standard Rummy hand on the turn cap; the 1-hand game names the highest total."""
    b.end(4)
    top = max(b.totals)
    return b.game_end(b.totals.index(top) if b.totals.count(top) == 1 else -1)


def t37_deal(flags: dict | None = None, p0: str = "7H 8H 9H TC JC QC KC", p0_draw: str = "KH") -> B:
    """RULES.md T-37: 3 players, dealer 0 (P1 first).  P1 melds down to AS KD 5C (16), P2 down to
    2H 2D (4); the pile is then 6C 4D 7D and P0 is to play."""
    b = B(3, dealer=0, flags=flags or STD)
    b.deal({1: "AS KD 5C 8D 9D TD 4D", 2: "2H 2D 3S 4S 5S 6S 7D", 0: p0}, upcard="6C",
           stock=f"JD 7S {p0_draw}")
    b.draw(1).meld(1, "run", "8D 9D TD JD").discard(1, "4D")
    b.draw(2).meld(2, "run", "3S 4S 5S 6S 7S").discard(2, "7D")
    assert [cname(c) for c in b.pile] == ["6C", "4D", "7D"]
    assert sorted(b.hand(1)) == ["5C", "AS", "KD"] and sorted(b.hand(2)) == ["2D", "2H"]
    return b


def test_T37_RSTD_OUT_1_SCORE_1_out_by_discarding():
    b = t37_deal()
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
    b.end(1, out=0).game_end(0)
    assert b.rows[0][5] == 1  # GAME_START game code: Standard Rummy
    assert [r[2] for r in b.scores] == [20, 0, 0]
    assert [r[5] for r in b.scores] == [0, 16, 4]
    assert_ok(b, STD)
    # melded cards score nothing
    i = find(b.rows, 41, c1=0)
    bad = mutate(b, i, 4, 37)
    assert_rule(bad, "RSTD-SCORE-1", STD)
    # the hand score is the bonus only (no table value, no hand value)
    j = find(b.rows, 41, c1=1)
    bad = mutate(b, j, 2, -16)
    bad[j, 3] = -16
    assert_rule(bad, "RSTD-SCORE-1", STD)
    # the game code must say Standard Rummy
    assert_rule(mutate(b, 0, 5, 0), "TRACE-FORMAT", STD)


def test_T37_RSTD_DRAW_1_only_the_top_discard():
    b = t37_deal()
    b.take(0).meld(0, "run", "TC JC QC KC").discard(0, "9H")  # 7D may be taken
    std_finish(b)
    f = {**STD, "max_turns_per_hand": 3}
    assert_ok(b, f)
    # taking from 4D is illegal
    b = t37_deal()
    b.take(0, 1).meld(0, "run", "TC JC QC KC").discard(0, "9H")
    assert_rule(std_finish(b), "RSTD-DRAW-1", f)
    # the top discard just taken may not be discarded (as R500-DISC-2)
    b = t37_deal()
    b.take(0).meld(0, "run", "TC JC QC KC").discard(0, "7D")
    assert_rule(std_finish(b), "R500-DISC-2", f)


def test_T37_RSTD_OUT_1_going_out_by_melding():
    b = t37_deal(p0_draw="6H")
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "6H 7H 8H 9H")
    b.end(1, out=0).game_end(0)
    assert_rule(b, "RSTD-OUT-1", STD)  # a discard is required by default
    assert_ok(b, {**STD, "std_going_out": "any"})


def test_RSTD_MELD_1_2_sets_and_runs():
    f = {**STD, "max_turns_per_hand": 3}
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "run", "QC KC AC@14").discard(0, "9S")  # Q-K-A: aces are low only
    assert_rule(std_finish(b), "RSTD-MELD-2", f)
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "run", "AC 2C 3C 4C").meld(0, "run", "JC QC KC").discard(0, "9S")
    assert_ok(b.end(1, out=0).game_end(0), f)
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "set", "QC KC JC", key=12).discard(0, "9S")
    assert_rule(std_finish(b), "RSTD-MELD-1", f)


def test_RSTD_GAME_1_number_of_hands_and_winner():
    fl = {**STD, "std_game_hands": 2}
    f = {**fl, "max_turns_per_hand": 3}

    def first_hand() -> B:
        b = t37_deal(fl)
        b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
        return b.end(1, out=0)

    assert first_hand().dealer == 1  # the deal rotates left
    assert_rule(first_hand().game_end(0), "RSTD-GAME-1", f)  # after 1 of 2 hands
    b = first_hand()
    b.deal().draw_discard().draw_discard().draw_discard().end(4)
    assert [r[2] for r in b.scores] == [0, 0, 0]  # nobody out: 0 for all
    b.game_end(0)
    assert_ok(b, f)
    # a shared highest total: GAME_END names no one
    g = B(3, dealer=0, flags=fl)
    for _ in range(2):
        g.deal().draw_discard().draw_discard().draw_discard().end(4)
    g.game_end(-1)
    assert_ok(g, f)
    h = g.array()
    h[-1, 1] = 0
    assert_rule(h, "RSTD-GAME-1", f)
    # the engine hand cap before std_game_hands: no winner, capped
    assert_rule(g, "ENGINE-HAND-CAP", {**f, "max_hands_per_game": 1})


def test_RSTD_STOCK_1_end_of_stock():
    f = {**STD, "std_end_of_stock": "end_immediately"}
    b = run_out_stock({**STD, "std_end_of_stock": "end_immediately"})
    b.end(5).game_end(-1)
    scores = [r[2] for r in b.scores]
    assert scores == [0, 0, 0]
    assert_ok(b, f)
    assert_rule(b, "RSTD-STOCK-1", STD)
    g = run_out_stock(STD)
    g.nodraw().end(2).game_end(-1)
    assert_ok(g, STD)
    # only the top discard may be taken at an empty stock either
    g = run_out_stock(STD)
    s = g.next
    g.take(s, 0).discard(s, g.hands[s][0]).end(4).game_end(-1)
    assert_rule(g, "RSTD-DRAW-1", {**STD, "max_turns_per_hand": g.turns})


def test_RSTD_SETUP_1_pack_and_flags():
    b = B(3, dealer=2)  # a 500 Rum trace (54 cards) relabelled as Standard Rummy
    b.deal().draw_discard(0)
    finish_capped(b)
    a = b.array()
    a[0, 5] = 1
    assert_rule(a, "RSTD-SETUP-1", {**STD, "max_turns_per_hand": 1})
    with pytest.raises(ValueError):
        validate_trace(a, {**STD, "r500_call_rummy": "pile"})
    with pytest.raises(ValueError):
        validate_trace(a, {"std_going_out": "any"})  # a Standard Rummy flag in a 500 Rum game
    # 7 players is too many
    g = B(7, dealer=0, flags=STD)
    g.rows.append([2, 0, 0, 52, 7, 1, 0, 0])
    assert_rule(g, "RSTD-SETUP-1", STD)


# ============================================================================================
# Flags as sim.rules.Rules.as_dict() produces them; robustness; text replay
# ============================================================================================


def test_flags_from_rules_as_dict():
    from rummysim.rules import Rules

    # V500-BOATHOUSE expanded by Rules.with_: T-10's legal trace
    flags = {**Rules().with_(r500_boathouse=True).as_dict(), "max_turns_per_hand": 4,
             "max_hands_per_game": 1}
    b = t10_state()
    b.draw(0).discard(0, "3C")
    assert_ok(finish_capped(b), flags)
    # V500-UNPLAYABLE implies floating; T-11
    flags = {**Rules().with_(r500_unplayable_discard=True).as_dict(), "max_hands_per_game": 1}
    b = t11_game(last="9C", unplayable=True, kings=True)
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, flags)
    # V500-DIV5 implies target 100
    r = Rules().with_(r500_score_divisor=5, r500_card_values="5_10_15")
    assert r.as_dict()["r500_target"] == 100
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    assert_ok(t16_game(0, fl), {**r.as_dict(), "max_hands_per_game": 1})
    # Standard Rummy
    std = {**Rules(game="standard-rummy").with_(std_game_hands=1).as_dict()}
    b = t37_deal()
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
    assert_ok(b.end(1, out=0).game_end(0), std)
    # not implemented: V500-GAMBIT, V500-PARTNER, V500-PERSIAN
    for extra in ({"r500_dealers_gambit": True}, {"r500_partnership": True},
                  {"r500_persian": True, "r500_partnership": True}):
        with pytest.raises(ValueError):
            validate_trace(b.array(), {**Rules().as_dict(), **extra})


VARIATION_TRACES = [
    (lambda: finish_capped(t06_game()), F(4, r500_call_rummy="pile")),
    (lambda: finish_capped(t06_game("layoff_only")), F(4, r500_call_rummy="layoff_only")),
    (lambda: t11_game(last="9C", unplayable=True, kings=True).end(1, out=0).game_end(-1, capped=1),
     F(r500_unplayable_discard=True)),
    (lambda: t19_game().addopp(1, 3, "8H").end(1, out=0).game_end(-1, capped=1), F(**ADDOPP)),
    (lambda: finish_capped(oot_game(seats=(1, 2))), F(2, r500_meld_out_of_turn=True)),
    (lambda: t37_deal().draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H")
     .discard(0, "KH").end(1, out=0).game_end(0), STD),
]


def reshuffle_trace() -> tuple[np.ndarray, dict]:
    b = run_out_stock({"r500_end_of_stock": "reshuffle"})
    s = b.next
    b.reshuffle()
    b.draw(s, start=False).discard(s, b.last)
    b.end(4).game_end(-1, capped=1)
    return b.array(), F(b.turns, r500_end_of_stock="reshuffle")


def test_malformed_variation_traces_never_raise(monkeypatch):
    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", False)
    import random

    rng = random.Random(5)
    cases = [(make().array(), f) for make, f in VARIATION_TRACES] + [reshuffle_trace()]
    for a, f in cases:
        assert run(a, f).violations == []
        for _ in range(150):
            m = a.copy()
            for _ in range(rng.randint(1, 3)):
                r = rng.randrange(len(m))
                if rng.random() < 0.2:
                    m = np.delete(m, r, axis=0)
                    continue
                m[r, rng.randrange(8)] = rng.choice([-1, 0, 1, 2, 4, 5, 6, 7, 13, 14, 23, 24,
                                                     31, 64, 99, 2**31 - 1])
            res = run(m, f)
            assert isinstance(res.violations, list)


def test_replay_text_variation_records():
    txt = format_trace(finish_capped(t06_game()).array())
    assert "Turn 2 · P2 calls Rummy!" in txt
    assert "P2 calls Rummy! takes the top card (6♥), 1 card(s): 6♥" in txt
    b = t07_game()
    b.draw_discard(3)
    txt = format_trace(finish_capped(b).array())
    assert "P2 calls Rummy! takes from pile[0] (5♣), 4 card(s): 5♣ T♦ K♠ 2♦" in txt
    assert "lay off on #0 (P1's run ♣ 5–8, now 4 cards): 5♣" in txt
    txt = format_trace(t11_game().array())
    assert "P0 floats" in txt
    a, _ = reshuffle_trace()
    assert "reshuffle: 32 cards" in format_trace(a)
    txt = format_trace(finish_capped(oot_game()).array())
    assert "P2 out of turn: meld #1 set of 9s: 9♣ 9♦ 9♥" in txt
    u = B(3, dealer=2, flags={"r500_upcard_mode": "first_player_choice"})
    u.deal({0: "9S 2C 3C 4C 5H 6H 7H KD"}).start_pile(0, "KD").draw_discard(0)
    txt = format_trace(finish_capped(u).array())
    assert "P0 starts the pile with K♦" in txt and "no upcard" in txt
    assert "P0 dealt  2♣ 3♣ 4♣ K♦ 5♥ 6♥ 7♥ 9♠" in txt
    g = t19_game().addopp(1, 3, "8H").end(1, out=0).game_end(-1, capped=1)
    txt = format_trace(g.array())
    assert "P1 lays off on #3 (P0's run ♥ 5–8, now 4 cards), scoring for no one: 8♥" in txt
    assert "bonus   +10" in txt
    t = t37_deal().draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H")
    t.discard(0, "KH").end(1, out=0).game_end(0)
    txt = format_trace(t.array())
    assert "Standard Rummy" in txt
    assert "P0  deadwood    0  collects   20  score   +20" in txt
    assert "P1  deadwood   16  score    +0" in txt
    s = run_out_stock({"r500_end_of_stock": "discard_until_out"})
    s.nodraw(over=True)
    assert "discard until someone is out" in format_trace(s.array())
    c = B(3, dealer=2)
    c.deal({0: "AH 2H 3H 9C 9D 9S 5C", 1: "KH QH 4H 8D"})
    c.draw(0).meld(0, "run", "AH@1 2H 3H").discard(0, c.last)
    c.draw(1).layoff(1, 0, "KH@13").layoff(1, 0, "QH@12 4H@17").discard(1, "8D")
    assert "now 6 cards): Q♥ 4♥" in format_trace(c.array())
    assert "run ♥ Q–4" in format_trace(c.array())


# ============================================================================================
# Random legal games under combined flags (a simple policy written from RULES.md §3 and §7)
# ============================================================================================


class _Policy:
    """Plays whole games with a random legal policy through the builder.  It uses every
    variation it can play simply: rummy calls on the card just discarded (lay-off only),
    out-of-turn sets and runs, floating, the unplayable discard, the first-meld minimum,
    four-card runs, two-card stock draws, every end-of-stock mode, the add-opponent lay-offs,
    the 7-card straight bonus, the first player's pile start, winner deals, must-go-out."""

    def __init__(self, seed: int, n: int, flags: dict) -> None:
        import random

        self.rng = random.Random(seed)
        self.n = n
        self.f = flags
        self.std = flags.get("game") == "standard-rummy"
        g = flags.get
        self.going_out = g("std_going_out", "discard_required") if self.std else g(
            "r500_going_out", "floating" if g("r500_unplayable_discard") else "any")
        self.unplayable = bool(g("r500_unplayable_discard"))
        self.call = g("r500_call_rummy", "off")
        self.oot = bool(g("r500_meld_out_of_turn"))
        end = g("std_end_of_stock" if self.std else "r500_end_of_stock", "pile_or_end")
        if g("r500_add_opponent_hand") and g("r500_addopp_stock_out") == "continue_discarding":
            end = "discard_until_out"
        self.end_mode = end
        self.min_run = g("r500_min_new_run", 3)
        self.open_min = g("r500_first_meld_min", 0)
        self.restriction = "top_single" if self.std else g("r500_discard_restriction",
                                                           "top_single")
        self.pickup_strict = bool(g("r500_top_card_must_be_played") or
                                  g("r500_pickup_use") == "new_meld" or
                                  g("r500_no_pickup_to_hit"))
        self.max_turns = g("max_turns_per_hand", 1000)
        self.max_hands = g("max_hands_per_game", 200)
        self.target = g("r500_target", 100 if g("r500_score_divisor") == 5 else 500)

    # ---- helpers ----
    def value(self, c: int, pos: int | None = None) -> int:
        from tests.tracebuild import value
        return value(c, self.f, pos)

    def fit(self, m: dict, c: int):
        """Position spec for laying `c` off alone on meld m (no wrap), or None."""
        if c == 64:
            if m["kind"] == 0:
                return "X" if m["count"] < 4 else None
            if m["hi"] - m["lo"] >= 12:
                return None
            if m["hi"] < (13 if self.std else 14):
                return f"X@{m['hi'] + 1}"
            return f"X@{m['lo'] - 1}" if m["lo"] > 1 else None
        if m["kind"] == 0:
            if m["count"] < 4 and c & 15 == m["key"] and c >> 4 not in m["suits"]:
                return cname(c)
            return None
        if c >> 4 != m["key"] or m["hi"] - m["lo"] >= 12:
            return None
        r = c & 15
        if m["lo"] > 1 and r == m["lo"] - 1:
            return cname(c)
        if m["hi"] < 13 and r == m["hi"] + 1 and r != 1:
            return cname(c)
        if not self.std and m["hi"] == 13 and r == 1 and m["lo"] > 1:
            return cname(c) + "@14"
        return None

    def new_melds(self, hand: list[int]) -> list[tuple[str, list[int]]]:
        """Disjoint new sets and runs (aces low, naturals only) from `hand`."""
        out = []
        used: set[int] = set()
        for r in range(1, 14):
            by_suit: dict[int, int] = {}
            for c in hand:
                if c != 64 and c & 15 == r:
                    by_suit.setdefault(c >> 4, c)
            if len(by_suit) >= 3:
                cs = list(by_suit.values())[:4]
                out.append(("set", cs))
                used.update(cs)
        for s in range(4):
            have = {c & 15 for c in hand if c != 64 and c >> 4 == s and c not in used}
            r = 1
            while r <= 13:
                ln = 0
                while r + ln <= 13 and r + ln in have:
                    ln += 1
                if ln >= max(3, self.min_run):
                    out.append(("run", [16 * s + q for q in range(r, r + ln)]))
                    r += ln
                else:
                    r += 1
        return out

    def meld_value(self, kind: str, cs: list[int]) -> int:
        return sum(self.value(c, (c & 15) if kind == "run" else None) for c in cs)

    # ---- game ----
    def play(self) -> B:
        rng = self.rng
        n = self.n
        b = B(n, dealer=rng.randrange(n), flags=self.f)
        self.b = b
        while True:
            order = b.pack()
            rng.shuffle(order)
            if self.f.get("r500_upcard_mode") == "first_player_choice":
                b.deal(order=self.upchoice_order(b, order))
                first = b.next
                b.start_pile(first, cname(rng.choice(b.hands[first])))
            else:
                b.deal(order=order)
            self.opened = [False] * n
            self.idle = 0
            reason, out = self.play_hand()
            b.end(reason, out if reason == 1 else -1, bonus=self.bonus)
            t = b.totals
            if self.std:
                if b.hand_no >= self.f.get("std_game_hands", 5):
                    top = max(t)
                    return b.game_end(t.index(top) if t.count(top) == 1 else -1)
            else:
                winner = -1
                if self.f.get("r500_must_go_out_to_win"):
                    if out >= 0 and reason == 1 and t[out] >= self.target:
                        winner = out
                elif max(t) >= self.target:
                    reached = [s for s in range(n) if t[s] >= self.target]
                    if (self.f.get("r500_tie_rule") == "goer_wins" and len(reached) >= 2
                            and reason == 1 and out in reached):
                        winner = out
                    elif t.count(max(t)) == 1:
                        winner = t.index(max(t))
                if winner >= 0:
                    return b.game_end(winner)
            if b.hand_no >= self.max_hands:
                return b.game_end(-1, capped=1)

    @staticmethod
    def upchoice_order(b: B, order: list[int]) -> list[int]:
        return order  # the builder deals deal_size + 1 cards to the first player itself

    def play_hand(self) -> tuple[int, int]:
        b = self.b
        self.bonus: dict[int, int] = {}
        while True:
            seat = b.next
            res = self.turn(seat)
            if res:
                return res
            # windows after a discard that does not end the hand
            if self.last_discarder >= 0:
                res = self.windows(self.last_discarder)
                if res:
                    return res

    def end_check(self, drew_last: bool, started_empty: bool, placed: bool):
        b = self.b
        if self.end_mode != "discard_until_out":
            self.idle = self.idle + 1 if (started_empty and not placed) else 0
            if self.idle >= self.n:
                return (3, -1)
        if self.end_mode == "end_immediately" and drew_last and not b.stock:
            return (5, -1)
        if b.turns >= self.max_turns:
            return (4, -1)
        return None

    def turn(self, seat: int):
        b, rng = self.b, self.rng
        hand = b.hands[seat]
        self.last_discarder = -1
        started_empty = not b.stock
        drew = False
        restricted: list[int] = []
        duty = None
        if started_empty and self.end_mode == "reshuffle" and len(b.pile) >= 2:
            b.reshuffle(seat)
            b.draw(seat, start=False)
            drew = True
            started_empty = False
        elif started_empty and self.end_mode == "discard_until_out":
            b.nodraw(seat, over=True)
            if not hand:
                b.float_(seat)
                return self.end_check(False, started_empty, False)
        elif started_empty:
            top = b.pile[-1] if b.pile else None
            if top is None or self.pickup_strict or rng.random() < 0.3 or (
                    len(hand) == 0 and self.restriction != "none"):
                b.nodraw(seat)
                return (2, -1)
            b.take(seat)
            restricted = [] if self.restriction == "none" else [top]
        else:
            deep = self.deep_take(seat) if not self.std and rng.random() < 0.5 else None
            if deep is not None:
                k, cs = deep
                taken = b.pile[k:]
                b.take(seat, k)
                duty = ("set", cs)
                if self.restriction == "any_taken":
                    restricted = list(taken)
            elif b.pile and not self.pickup_strict and rng.random() < 0.2 and len(hand) >= 1:
                top = b.pile[-1]
                b.take(seat)
                if self.restriction != "none":
                    restricted = [top]
            else:
                b.draw(seat)
                drew = True
        placed, run7 = self.plays(seat, restricted, duty)
        if not hand:  # laid down every card
            if self.going_out == "floating":
                b.float_(seat)
                return self.end_check(drew, started_empty, placed)
            return (1, seat)
        choices = [c for c in hand if c not in restricted] or [c for c in hand]
        live = [c for c in choices if any(self.fit(m, c) for m in b.melds)]
        if live and (self.call != "off" or self.unplayable) and rng.random() < 0.6:
            choices = live  # feed rummy calls and playable last discards
        card = rng.choice(choices)
        b.discard(seat, card)
        if not hand:
            if self.unplayable and any(self.fit(m, card) for m in b.melds):
                b.float_(seat)
            else:
                if run7 and self.f.get("r500_seven_straight_bonus"):
                    self.bonus[seat] = self.bonus.get(seat, 0) + \
                        500 // self.f.get("r500_score_divisor", 1)
                return self.addopp(seat)
        res = self.end_check(drew, started_empty, placed)
        if res:
            return res
        self.last_discarder = seat
        return None

    def deep_take(self, seat: int):
        """A pile card below the top making a set with two hand cards of other suits."""
        b = self.b
        hand = b.hands[seat]
        if (self.open_min and not self.opened[seat]) or len(hand) < 3:
            return None
        for k in range(len(b.pile) - 1):
            c = b.pile[k]
            if c == 64:
                continue
            mates: dict[int, int] = {}
            for h in hand:
                if h != 64 and h & 15 == c & 15 and h >> 4 != c >> 4:
                    mates.setdefault(h >> 4, h)
            if len(mates) >= 2:
                return k, [c] + list(mates.values())[:2]
        return None

    def plays(self, seat: int, restricted: list[int], duty) -> tuple[bool, bool]:
        """Melds and lay-offs of the play phase; returns (placed any, laid a 7+ run)."""
        b, rng = self.b, self.rng
        hand = b.hands[seat]
        keep = 0 if self.going_out in ("any", "floating") else 1
        if self.std and self.going_out == "discard_required":
            keep = 1
        placed = False
        run7 = False
        melds = self.new_melds(hand)
        if duty is not None:
            melds = [duty] + [m for m in melds if not set(m[1]) & set(duty[1])]
        if self.open_min and not self.opened[seat]:
            total = sum(self.meld_value(k, cs) for k, cs in melds)
            if total < self.open_min:
                return False, False
        for k, cs in melds:
            if len(hand) - len(cs) < keep and (k, cs) is not duty:
                continue
            left = [c for c in hand if c not in cs]
            if left and all(c in restricted for c in left) and keep:
                continue
            if left and len(left) == 1 and left[0] in restricted:
                continue
            b.meld(seat, k, " ".join(cname(c) for c in cs))
            placed = True
            run7 |= k == "run" and len(cs) >= 7
        if placed:
            self.opened[seat] = True
        if self.opened[seat] or not self.open_min:
            for mid, m in enumerate(b.melds):
                for c in list(hand):
                    if c not in hand or len(hand) - 1 < keep or rng.random() < 0.1:
                        continue
                    left = [x for x in hand if x != c]
                    if left and len(left) == 1 and left[0] in restricted:
                        continue
                    spec = self.fit(m, c)
                    if spec:
                        b.layoff(seat, mid, spec)
                        placed = True
                        self.opened[seat] = True
        return placed, run7

    def addopp(self, out: int):
        """V500-ADDOPP-2 lay-offs on the melds of the player who went out; then the hand ends."""
        b = self.b
        if self.f.get("r500_add_opponent_hand"):
            for d in range(1, self.n):
                s = (out + d) % self.n
                for mid, m in enumerate(b.melds):
                    if m["owner"] != out:
                        continue
                    for c in list(b.hands[s]):
                        spec = self.fit(m, c)
                        if spec:
                            b.addopp(s, mid, spec)
        return (1, out)

    def windows(self, discarder: int):
        b, rng, n = self.b, self.rng, self.n
        while True:
            top = b.pile[-1]
            caller = -1
            if self.call != "off" and rng.random() < 0.6:
                for d in range(1, n):
                    s = (discarder + d) % n
                    if self.open_min and not self.opened[s]:
                        continue
                    if any(self.fit(m, top) for m in b.melds):
                        caller = s
                        break
            if caller < 0:
                break
            started_empty = not b.stock
            b.call(caller, resume=(discarder + 1) % n if self.call == "layoff_only" else None)
            mid, spec = next((i, self.fit(m, top)) for i, m in enumerate(b.melds)
                             if self.fit(m, top))
            b.layoff(caller, mid, spec)
            hand = b.hands[caller]
            if self.call == "layoff_only":
                if not hand:
                    b.float_(caller)
                return self.end_check(False, started_empty, True)  # no out-of-turn window
            if not hand:
                b.float_(caller)
                res = self.end_check(False, started_empty, True)
                return res
            if self.going_out == "discard_required" and len(hand) == 0:
                break
            card = rng.choice(hand)
            b.discard(caller, card)
            if not hand:
                if self.unplayable and any(self.fit(m, card) for m in b.melds):
                    b.float_(caller)
                else:
                    return self.addopp(caller)
            res = self.end_check(False, started_empty, True)
            if res:
                return res
            discarder = caller
        if self.oot:
            for d in range(1, n):
                s = (discarder + d) % n
                hand = b.hands[s]
                melds = self.new_melds(hand)
                if not melds or rng.random() < 0.4:
                    continue
                if self.open_min and not self.opened[s]:
                    if sum(self.meld_value(k, cs) for k, cs in melds) < self.open_min:
                        continue
                keep = 1 if self.going_out == "discard_required" else 0
                todo = [(k, cs) for k, cs in melds]
                chosen = []
                left = len(hand)
                for k, cs in todo:
                    if left - len(cs) >= keep:
                        chosen.append((k, cs))
                        left -= len(cs)
                if not chosen:
                    continue
                if self.open_min and not self.opened[s] and \
                        sum(self.meld_value(k, cs) for k, cs in chosen) < self.open_min:
                    continue
                b.oot(s)
                for k, cs in chosen:
                    b.meld(s, k, " ".join(cname(c) for c in cs))
                self.opened[s] = True
                self.idle = 0
                if not hand:
                    if self.going_out == "floating":
                        b.float_(s)
                    else:
                        return self.addopp(s)
        return None


COMBOS = [
    (3, {"r500_call_rummy": "pile", "r500_meld_out_of_turn": True, "r500_target": 150}),
    (4, {"r500_call_rummy": "top_only", "r500_going_out": "floating", "r500_target": 150}),
    (3, {"r500_call_rummy": "layoff_only", "r500_unplayable_discard": True,
         "r500_going_out": "floating", "r500_end_of_stock": "discard_until_out",
         "max_turns_per_hand": 200, "r500_target": 150}),
    (2, {"r500_boathouse": True, "r500_going_out": "discard_required",
         "r500_discard_restriction": "any_taken", "r500_stock_draw_count": 2,
         "r500_add_opponent_hand": True, "r500_target": 200}),
    (5, {"r500_end_of_stock": "reshuffle", "r500_first_meld_min": 30, "r500_min_new_run": 4,
         "r500_next_dealer": "winner", "r500_target": 150, "max_turns_per_hand": 300}),
    (3, {"r500_end_of_stock": "end_immediately", "r500_card_values": "5_10_15",
         "r500_score_divisor": 5, "r500_seven_straight_bonus": 500, "r500_target": 40,
         "r500_stock_out_hand_penalty": False}),
    (4, {"r500_upcard_mode": "first_player_choice", "r500_must_go_out_to_win": True,
         "r500_tie_rule": "goer_wins", "r500_round_the_corner": True, "r500_target": 120,
         "r500_no_pickup_to_hit": True, "max_hands_per_game": 8}),
    (2, {"r500_add_opponent_hand": True, "r500_addopp_stock_out": "continue_discarding",
         "r500_meld_out_of_turn": True, "r500_call_rummy": "pile", "r500_target": 200,
         "max_turns_per_hand": 300}),
    (3, {"game": "standard-rummy", "std_game_hands": 3, "std_going_out": "any",
         "std_end_of_stock": "reshuffle", "max_turns_per_hand": 300}),
    (4, {"game": "standard-rummy", "std_game_hands": 2, "std_end_of_stock": "discard_until_out",
         "max_turns_per_hand": 300}),
]


@pytest.mark.parametrize("case", range(len(COMBOS)))
def test_random_legal_games_under_combined_flags(case, monkeypatch):
    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", case < 3)
    n, flags = COMBOS[case]
    for seed in range(6):
        b = _Policy(100 * case + seed, n, flags).play()
        res = assert_ok(b, flags)
        assert res.actions_checked > 0


def test_validate_speed_with_variations(monkeypatch):
    import time

    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", False)
    n, flags = COMBOS[0]
    flags = {**flags, "r500_target": 500}
    a = np.concatenate([_Policy(s, n, flags).play().array() for s in range(3)])
    t = time.perf_counter()
    res = validate_trace(a, flags)
    dt = time.perf_counter() - t
    assert res.violations == [] and res.games == 3
    rate = len(a) / dt
    print(f"\n{len(a)} records in {dt * 1000:.1f} ms: {rate:,.0f} records/s")
    assert rate > 100_000
