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

import sim.validate as V
from sim.replay_text import format_trace
from sim.validate import validate_trace
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


@pytest.fixture(autouse=True)
def _paranoid(monkeypatch):
    """Re-count every card after every record in these small traces."""
    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", True)


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


def t06_game(mode: str = "pile", caller: int = 2, discard: str = "6H", after: int | None = None,
             caller_discards: bool | None = None) -> B:
    """RULES.md T-06: 4 players; P3 owns 3H 4H 5H; P0 discards `discard` with cards left; `caller`
    calls.  Dealer 2, so P3 plays first.  The hand ends on a turn cap of 4 turns."""
    b = B(4, dealer=2, flags={"r500_call_rummy": mode})
    b.deal({3: "3H 4H 5H 9S TS 2C 3C", 0: f"{discard} 8S 7C 2D 3D 4D JC", caller: "QC QD KS"}
           if caller != 0 else {3: "3H 4H 5H 9S TS 2C 3C", 0: f"{discard} 8S 7C 2D 3D 4D JC"},
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
    assert b.next == 1  # left of the discarder P0
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


def test_V500_RUMMY_NEWMELD_applies_to_pile_calls():
    b = finish_capped(t06_game())
    assert_rule(b, "V500-NEWMELD", F(4, r500_call_rummy="pile", r500_pickup_use="new_meld"))


# ============================================================================================
# V500-DISCREQ, V500-FLOAT, V500-UNPLAYABLE (T-11)
# ============================================================================================


def t11_game(last: str = "KD", unplayable: bool = False, kings: bool = False) -> B:
    """RULES.md T-11: 3 players, dealer 2 (P0 first).  P0 gets down to 4S 5S, then draws 6S and
    melds 4S 5S 6S: P0 floats.  Next turn P0 draws `last` and discards it."""
    flags = {"r500_going_out": "floating", "r500_unplayable_discard": unplayable}
    b = B(3, dealer=2, flags=flags)
    p1 = "KC KH KS 2D 3D 4D 8C" if kings else "2D 3D 4D 8C 9D TD JD"
    b.deal({0: "4S 5S 7H 8H 9H TH 2C", 1: p1}, stock=f"JH QD _ 6S _ _ {last}")
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
    b = t11_game(unplayable=True, kings=True)
    b.float_(0)  # KD fits KC KH KS: P0 floats again
    b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).discard(0, b.last)  # 9C: unplayable, P0 goes out
    assert cname(b.pile[-1]) == "9C"
    b.end(1, out=0).game_end(-1, capped=1)
    stock_fix = t11_game(unplayable=True, kings=True)
    del stock_fix
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


def oot_game(seats=(2,), layoff: bool = False, all_cards: bool = False) -> B:
    """3 players, dealer 2: P0 discards; `seats` meld out of turn; then P1 plays."""
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H JS QS KS 2D", 1: "JC JD JH 8S"},
           stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    for s in seats:
        b.oot(s)
        if s == 2:
            b.meld(2, "set", "9C 9D 9H")
            if all_cards:
                b.meld(2, "run", "JS QS KS")
            if layoff:
                b.layoff(2, 0, "8H")
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
    f = F(4, r500_meld_out_of_turn=True, r500_call_rummy="pile")
    # P0 discards 8H; P1 calls and lays it off on P0's run; P2 melds out of turn after P1's discard
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True, "r500_call_rummy": "pile"})
    b.deal({0: "5H 6H 7H 8H 3C 4D 9S", 2: "9C 9D 9H 2D", 1: "QC"}, stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b.call(1).layoff(1, 0, "8H").discard(1, "QC")
    b.oot(2).meld(2, "set", "9C 9D 9H")
    b.draw_discard(2)
    assert_ok(finish_capped(b), f)
    # a call after an out-of-turn meld of the same window is too late
    b2 = B(3, dealer=2, flags={"r500_meld_out_of_turn": True, "r500_call_rummy": "pile"})
    b2.deal({0: "5H 6H 7H 8H 3C 4D 9S", 2: "9C 9D 9H 2D", 1: "QC"}, stock="KC")
    b2.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b2.oot(2).meld(2, "set", "9C 9D 9H")
    b2.call(1).layoff(1, 0, "8H").discard(1, "QC")
    b2.draw_discard(2)
    assert_rule(finish_capped(b2), "V500-RUMMY-1", f)
