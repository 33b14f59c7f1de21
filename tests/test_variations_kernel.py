"""Hand-built scenarios for the 500 Rum variations and Standard Rummy (RULES.md §3, §7, §10) on
the kernel functions. Every variation is also replayed in bulk through the independent validator
(tests/test_validation_bulk.py); these pin down single rules with the cards written out."""

from __future__ import annotations

import numpy as np

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.melds import Table
from rummysim.kernels.rum500.scoring import game_winner, score_hand
from rummysim.kernels.rum500.table import layoff_target_exists
from rummysim.rules import Rules
from tests.cardtext import cid, ids
from tests.kstate import make_state
from tests.test_rules_kernel import candidates, discards, draw, find, legal_draws, play

BOATHOUSE = Rules().with_(r500_boathouse=True)


def test_V500_BOATHOUSE_draw_two_and_must_discard_T10():
    k = make_state(3, {0: "3C 3D"}, pile="9S 3H", stock="5C 6C 7C", rules=BOATHOUSE)
    draw(k, 1)  # action A: take 3H
    assert find(k, "3C 3D 3H", L.ACT_MELD_SET) is None  # would leave nothing to discard
    assert sorted(discards(k)) == sorted(ids("3C 3D"))  # 3H was taken: any_taken
    k = make_state(3, {0: "3C 3D"}, pile="9S 3H", stock="5C 6C 7C", rules=BOATHOUSE)
    draw(k, L.DRAW_STOCK)  # action B: two cards from the stock
    assert k.hand_ids(0) == sorted(ids("3C 3D 5C 6C"))


def test_V500_DISCREQ_no_play_may_empty_the_hand():
    k = make_state(2, {0: "4S 5S"}, stock="6S", rules=Rules().with_(r500_going_out="discard_required"))
    draw(k, L.DRAW_STOCK)
    assert find(k, "4S 5S 6S", L.ACT_MELD_RUN) is None


def test_V500_FLOAT_laying_down_every_card_is_offered_T11():
    k = make_state(2, {0: "4S 5S"}, stock="6S", rules=Rules().with_(r500_going_out="floating"))
    draw(k, L.DRAW_STOCK)
    assert find(k, "4S 5S 6S", L.ACT_MELD_RUN) is not None


def test_V500_UNPLAYABLE_playable_last_card_T11():
    k = make_state(2, {0: "KD"}, stock="2C", rules=Rules().with_(r500_unplayable_discard=True))
    k.add_meld(1, "set", "KC KH KS")
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    assert layoff_target_exists(cid("KD"), Table(k.melds, 1, k.vals, k.ace_low, k.rules, -1), scratch)
    assert not layoff_target_exists(cid("9C"), Table(k.melds, 1, k.vals, k.ace_low, k.rules, -1), scratch)


def test_V500_OPEN30_first_meld_of_thirty_T15():
    rules = Rules().with_(r500_first_meld_min=30)
    k = make_state(2, {0: "2H 3H 4H 9C KD"}, stock="QS", rules=rules)
    draw(k, L.DRAW_STOCK)
    assert find(k, "2H 3H 4H", L.ACT_MELD_RUN) is None  # 9 points can never reach 30 here
    assert [r[L.A_TYPE] for r in candidates(k)] == [L.ACT_STOP]
    k = make_state(2, {0: "2H 3H 4H JC JD JS 9C"}, stock="QS", rules=rules)
    draw(k, L.DRAW_STOCK)
    play(k, "2H 3H 4H", L.ACT_MELD_RUN)  # 9, and JC JD JS still reach 39
    assert all(r[L.A_TYPE] != L.ACT_STOP for r in candidates(k))  # may not stop at 9
    play(k, "JC JD JS", L.ACT_MELD_SET)
    assert any(r[L.A_TYPE] == L.ACT_STOP for r in candidates(k))


def test_V500_RUN4_new_runs_need_four_cards():
    k = make_state(2, {0: "2H 3H 4H 5H 9C"}, stock="QS", rules=Rules().with_(r500_min_new_run=4))
    runs = {int(r[L.A_LEN]) for r in candidates(k) if r[L.A_TYPE] == L.ACT_MELD_RUN}
    assert runs == {4}
    m = k.add_meld(1, "run", "6H 7H 8H 9H")
    assert find(k, "5H", L.ACT_LAYOFF, m) is not None  # lay-offs are unchanged


def test_V500_NEWMELD_selected_card_only_into_a_new_meld():
    rules = Rules().with_(r500_pickup_use="new_meld")
    k = make_state(3, {0: "7C 8C 2D"}, pile="6C 4D QS", stock="3C", rules=rules)
    k.add_meld(1, "run", "3C 4C 5C")
    draw(k, 0)
    rows = candidates(k)
    assert len(rows) and all(r[L.A_TYPE] != L.ACT_LAYOFF for r in rows)


def test_V500_MUSTOUT_and_V500_TIE_game_end_T12_T13():
    st = np.zeros(L.ST_SIZE, dtype=np.int64)
    mustout = make_state(3, {}, rules=Rules().with_(r500_must_go_out_to_win=True)).rules
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [510, 515, 360]  # C (seat 2) went out
    assert game_winner(st, mustout, 3, 2) == -1
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [530, 560, 360]  # then A goes out on 530
    assert game_winner(st, mustout, 3, 0) == 0
    goer = make_state(3, {}, rules=Rules().with_(r500_tie_rule="goer_wins")).rules
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [505, 505, 300]
    assert game_winner(st, goer, 3, 0) == 0
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [505, 510, 300]
    assert game_winner(st, goer, 3, 0) == 0


def test_V500_ADDOPP_add_opponents_hand_T19():
    k = make_state(2, {0: "", 1: "KC"}, stock="2C", rules=Rules().with_(r500_add_opponent_hand=True))
    k.add_meld(0, "run", "5H 6H 7H 8H")
    k.melds[0, L.MK_OWNER + 3] = L.NOBODY  # B laid 8H off after A went out: scores for no one
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 0, k.trace)
    assert list(k.st[L.ST_HAND_SCORE : L.ST_HAND_SCORE + 2]) == [18 + 10, 0]


def test_V500_7STRAIGHT_bonus_is_added_T16():
    k = make_state(3, {0: ""}, stock="2C", rules=Rules().with_(r500_seven_straight_bonus=500))
    k.add_meld(0, "run", "4C 5C 6C 7C 8C 9C TC")
    k.st[L.ST_BONUS] = k.rules[L.R_SEVEN_BONUS]  # set by the turn that laid it and went out
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 0, k.trace)
    assert k.st[L.ST_HAND_SCORE] == 549


def test_V500_DIV5_values_divided():
    rules = Rules().with_(r500_card_values="5_10_15", r500_score_divisor=5)
    k = make_state(2, {0: "AD"}, stock="2C", rules=rules)
    k.add_meld(0, "run", "AH 2H 3H", lo=1)
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, k.trace)
    assert k.st[L.ST_HAND_SCORE] == (5 + 5 + 5 - 15) // 5


def test_V500_ACE_four_aces_100():
    k = make_state(2, {}, stock="2C", rules=Rules().with_(r500_four_aces_100=True))
    k.add_meld(0, "set", "AC AD AH AS")
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 0, k.trace)
    assert k.st[L.ST_HAND_SCORE] == 100


def test_RSTD_DRAW_1_RSTD_OUT_1_RSTD_SCORE_1_standard_rummy_T37():
    std = Rules.preset("standard-rummy")
    k = make_state(3, {0: "2C 9S"}, pile="6C 4D 7D", stock="3D", rules=std)
    assert legal_draws(k) == [L.DRAW_STOCK, 2]  # 7D may be taken; 4D may not
    k = make_state(3, {0: "7H 8H"}, stock="9H", rules=std)
    draw(k, L.DRAW_STOCK)
    assert find(k, "7H 8H 9H", L.ACT_MELD_RUN) is None  # a discard is required
    k = make_state(3, {0: "7H 8H"}, stock="9H", rules=std.with_(std_going_out="any"))
    draw(k, L.DRAW_STOCK)
    assert find(k, "7H 8H 9H", L.ACT_MELD_RUN) is not None
    k = make_state(3, {0: "", 1: "AS KD 5C", 2: "2H 2D"}, stock="3D", rules=std)
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 0, k.trace)
    assert list(k.st[L.ST_HAND_SCORE : L.ST_HAND_SCORE + 3]) == [20, 0, 0]


def test_RSTD_MELD_2_aces_low_only():
    k = make_state(3, {0: "QH KH AH 2H 3H"}, stock="3D", rules=Rules.preset("standard-rummy"))
    runs = {(int(r[L.A_LO]), int(r[L.A_LEN])) for r in candidates(k) if r[L.A_TYPE] == L.ACT_MELD_RUN}
    assert (1, 3) in runs and (12, 3) not in runs
