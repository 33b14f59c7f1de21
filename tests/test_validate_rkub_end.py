"""Tests of the Rummikub checker's round and game end: going out (RKUB-END-1) and its scores
(RKUB-SCORE-1, VKUB-JOKER25, T-35), the empty pool and n consecutive passes (RKUB-END-2, AMB-42,
T-36), the penalty for an invalid table (RKUB-TIME-1), rounds and the game end (RKUB-GAME-1) and
the engine caps.
"""

from __future__ import annotations

import pytest

from rummysim.validate.rummikub.scoring import out_scores, pool_end_scores
from tests.scenarios_rkub import (
    F,
    T36_LAYS,
    bad,
    capped,
    delete,
    insert,
    mutate,
    ok,
    opened,
    rows_of,
    t35_game,
    t36_game,
)
from tests.tracebuild_rkub import BK, tid

pytestmark = pytest.mark.usefixtures("paranoid_validator")

PEN = {"rkub_invalid_turn": "penalty_draw3"}

# T-36 with P2 keeping k4 o6 (10, tied with P0): its orange copy B is laid as o1-o5 and o7-o13
T36_TIED_KEEPS = {0: "k4 k6", 1: "b12 b13", 2: "k4 o6"}
T36_TIED_LAYS = {**T36_LAYS, 2: (T36_LAYS[2][0], "o1 o2 o3 o4 o5",
                                 "o7 o8 o9 o10 o11 o12 o13", *T36_LAYS[2][2:])}


def add_k4(b: BK, seat: int) -> BK:
    """``seat`` plays k4 in front of P0's run k5-k13."""
    specs = [("R: +k4 " + s[3:]) if s.startswith("R: k5 k6") else s for s in b.specs()]
    return b.play(seat, *specs)


# ============================================================================================
# Going out: RKUB-END-1, RKUB-SCORE-1, VKUB-JOKER25 (T-35)
# ============================================================================================


def test_T35_scores_when_someone_goes_out():
    b = t35_game().close(1, 0)
    assert [r[2] for r in b.scores] == [50, -47, -3]
    assert [r[5] for r in b.scores] == [0, 47, 3]
    ok(b, F())


def test_T35_VKUB_JOKER25():
    f = {"rkub_joker_penalty": 25}
    b = t35_game(f).close(1, 0)
    assert [r[2] for r in b.scores] == [45, -42, -3]
    ok(b, F(**f))
    bad(b, "VKUB-JOKER25", F())  # the rack value counts the joker 25 under 30
    bad(t35_game().close(1, 0), "VKUB-JOKER25", F(**f))


def test_RKUB_SCORE_1_wrong_scores():
    b = t35_game().close(1, 0, scores={0: 47})
    bad(b, "RKUB-SCORE-1", F())
    b = t35_game().close(1, 0, values={2: 4})
    bad(b, "RKUB-SCORE-1", F())
    b = t35_game().close(1, 0)
    bad(mutate(b, rows_of(b, 41)[1], 3, -40), "C-SCORE-3", F())


def test_RKUB_END_1_the_round_ends_at_once():
    b = t35_game()
    b.draw(1)
    bad(b.close(1, 0), "RKUB-END-1", F())
    bad(t35_game().close(2, 0), "RKUB-END-1", F())  # reason 2 for an empty rack
    b = t35_game().close(1, 0)
    bad(mutate(b, rows_of(b, 40)[0], 2, 1), "TRACE-FORMAT", F())  # out_seat
    bad(mutate(b, rows_of(b, 40)[0], 3, 9), "TRACE-FORMAT", F())  # turns
    # reason 1 while every rack still holds tiles
    b = capped(opened().draw())
    bad(mutate(b, rows_of(b, 40)[0], 1, 1), "RKUB-END-1", F(turns=3))


def test_score_helpers():
    assert out_scores([0, 47, 3], 0) == [50, -47, -3]
    assert pool_end_scores([10, 25, 4]) == [-6, -21, 27]
    assert pool_end_scores([10, 25, 10]) == [8, -15, 7]  # AMB-42: the remainder to seat 0
    assert pool_end_scores([5, 5, 5, 5]) == [0, 0, 0, 0]
    assert pool_end_scores([1, 9, 1, 2]) == [5, -8, 4, -1]


# ============================================================================================
# The empty pool: RKUB-END-2, AMB-42 (T-36)
# ============================================================================================


def test_T36_three_passes_end_the_round():
    b = t36_game().close(2)
    assert [r[5] for r in b.scores] == [10, 25, 4]
    assert [r[2] for r in b.scores] == [-6, -21, 27]
    ok(b, F())


def test_T36_the_round_does_not_end_before_n_passes():
    bad(t36_game(passes=2).close(2), "RKUB-END-2", F())
    b = t36_game()
    b.pass_()
    bad(b.close(2), "RKUB-END-2", F())  # a 4th pass: the round had ended


def test_AMB_42_tied_lowest_racks_share():
    b = t36_game(T36_TIED_KEEPS, T36_TIED_LAYS).close(2)
    assert [r[5] for r in b.scores] == [10, 25, 10]
    assert [r[2] for r in b.scores] == [8, -15, 7]
    ok(b, F())
    bad(t36_game(T36_TIED_KEEPS, T36_TIED_LAYS).close(2, scores={0: 7, 2: 8}), "RKUB-END-2", F())


def test_RKUB_END_2_a_play_resets_the_pass_count():
    """P0, P1 pass; P2 plays k4 (keeping o6); then P0, P1, P2 must all pass again."""
    b = t36_game(T36_TIED_KEEPS, T36_TIED_LAYS, passes=2)
    add_k4(b, 2)
    b.pass_().pass_()
    bad(b.close(2), "RKUB-END-2", F())
    b = t36_game(T36_TIED_KEEPS, T36_TIED_LAYS, passes=2)
    add_k4(b, 2)
    b.pass_().pass_().pass_()
    b.close(2)
    assert [r[5] for r in b.scores] == [10, 25, 6]
    ok(b, F())


def test_going_out_on_an_empty_pool():
    """P0 and P1 pass, then P2 plays its last tile, k4."""
    b = t36_game(passes=2)
    add_k4(b, 2)
    b.close(1, 2)
    assert [r[2] for r in b.scores] == [-10, -25, 35]
    ok(b, F())


def test_RKUB_END_2_no_draw_from_an_empty_pool_and_no_pass_from_a_full_one():
    b = t36_game(passes=0)
    i = len(b.rows)
    b.pass_().pass_().pass_().close(2)
    a = b.array()
    bad(insert(a, i + 1, [10, 0, tid("k1"), 0, 0, 0, 0, 0]), "RKUB-END-2", F())  # a draw
    b = opened()
    b.pass_()
    bad(capped(b), "RKUB-TURN-1", F(turns=3))


# ============================================================================================
# Penalties: RKUB-TIME-1
# ============================================================================================


def test_RKUB_TIME_1_an_invalid_table_is_undone_with_three_draws():
    b = opened(PEN, p0="r13", pool="k1 k2 k3 k4")
    b.attempt(0, "b11 b12 b13 +r13", "k11 k12 k13")
    assert b.rack(0)[-3:] == ["k1", "k2", "k3"] and "r13" in b.rack(0)
    b.draw(1)
    ok(capped(b), F(turns=4, **PEN))
    bad(b, "RKUB-TIME-1", F(turns=4))  # reject: no ATTEMPT


def test_RKUB_TIME_1_the_penalty_counts():
    b = capped(opened(PEN, p0="r13").attempt(0, "b11 b12 b13 +r13", "k11 k12 k13"))
    f = F(turns=3, **PEN)
    ok(b, f)
    i = rows_of(b, 135)[0]
    bad(mutate(b, i, 2, 2), "RKUB-TIME-1", f, first=False)  # 2 draws instead of 3
    bad(delete(b, i + 3), "RKUB-TIME-1", f)  # the third draw is missing
    bad(delete(b, i, i + 1, i + 2, i + 3), "RKUB-TIME-1", f)  # no PENALTY


def test_RKUB_TIME_1_a_legal_table_is_not_undone():
    b = capped(opened(PEN, p0="b10").attempt(0, "+b10 b11 b12 b13", "k11 k12 k13"))
    bad(b, "RKUB-TIME-1", F(turns=3, **PEN))


def test_RKUB_TIME_1_attempts_before_the_initial_meld():
    """An initial meld under 30 may be attempted; a legal one (36) may not be undone."""
    b = BK(2, PEN).deal({0: "b13 b11 b12 r1 r2 r3", 1: "k12"})
    ok(capped(b.attempt(0, "r1 r2 r3").draw()), F(turns=2, **PEN))
    b = BK(2, PEN).deal({0: "b13 b11 b12 r1 r2 r3", 1: "k12"})
    bad(capped(b.attempt(0, "b11 b12 b13").draw()), "RKUB-TIME-1", F(turns=2, **PEN))
    # the attempt is not an initial meld: a later TABLE still needs one
    b = BK(2, PEN).deal({0: "b13 b11 b12 r1 r2 r3", 1: "k12"})
    b.attempt(0, "r1 r2 r3").draw()
    bad(capped(b.play(0, "+r1 r2 r3")), "RKUB-INIT-30", F(turns=3, **PEN))


def test_RKUB_TIME_1_an_attempt_keeps_the_table_tiles():
    b = capped(opened(PEN, p0="r13").attempt(0, "b11 b12 +r13"))
    bad(b, "RKUB-MANIP-1", F(turns=3, **PEN), first=False)


def test_a_penalty_on_an_empty_pool_reads_as_a_pass():
    """V42: P0's penalty (0 draws), P1's and P2's passes may end the round; if it goes on, the
    next three PASS records must end it."""
    f = F(**PEN)
    b = t36_game(flags=PEN, passes=0)
    b.attempt(0, *b.specs(("+k4 +k6",)))
    b.pass_().pass_()
    ok(b.close(2), f)
    b = t36_game(flags=PEN, passes=0)
    b.attempt(0, *b.specs(("+k4 +k6",)))
    b.pass_().pass_().pass_()
    ok(b.close(2), f)
    b = t36_game(flags=PEN, passes=0)
    b.attempt(0, *b.specs(("+k4 +k6",)))
    b.pass_().pass_().pass_().pass_()
    bad(b.close(2), "RKUB-END-2", f)


# ============================================================================================
# Rounds and the game end: RKUB-GAME-1, the engine caps
# ============================================================================================


def two_rounds(flags: dict | None = None) -> BK:
    """2 rounds of 2 draw turns each, on the turn cap."""
    b = BK(2, {"rkub_rounds": 2, **(flags or {})})
    b.deal({0: "b13"}).draws(2).end(4)
    return b.deal({1: "b13"}).draws(2).end(4)


def test_RKUB_GAME_1_rounds_add_up():
    b = two_rounds().game_end()
    assert b.rows[-1][2] == 2
    ok(b, F(turns=2, rkub_rounds=2))
    bad(b, "RKUB-GAME-1", F(turns=2))  # GAME_START says 2 rounds; the game is 1 round
    short = BK(2, {"rkub_rounds": 2}).deal({0: "b13"}).draws(2).end(4).game_end()
    bad(short, "RKUB-GAME-1", F(turns=2, rkub_rounds=2))


def test_RKUB_GAME_1_winner_and_ties():
    b = two_rounds().game_end()
    f = F(turns=2, rkub_rounds=2)
    top = max(b.totals)
    assert b.totals.count(top) == 1
    wrong = 1 - b.rows[-1][1]
    bad(mutate(b, len(b.rows) - 1, 1, wrong), "RKUB-GAME-1", f)
    # a tie: both racks worth 109 at the turn cap, so both totals are 0
    t = BK(2).deal({0: "b13 k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13",
                    1: "k13 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13"}, pool="o5 b5", first=0)
    t.draws(2).end(4).game_end()
    assert t.totals == [0, 0] and t.rows[-1][1] == -1 and t.rows[-1][4] == 3
    ok(t, F(turns=2))
    bad(mutate(t, len(t.rows) - 1, 4, 0), "RKUB-GAME-1", F(turns=2))  # no tie mask
    bad(mutate(t, len(t.rows) - 1, 1, 0), "RKUB-GAME-1", F(turns=2))  # a winner


def test_ENGINE_HAND_CAP():
    b = BK(2, {"rkub_rounds": 2}).deal({0: "b13"}).draws(2).end(4).game_end(capped=1)
    ok(b, F(turns=2, rkub_rounds=2, max_hands_per_game=1))
    bad(mutate(b, len(b.rows) - 1, 3, 0), "ENGINE-HAND-CAP", F(turns=2, rkub_rounds=2,
                                                               max_hands_per_game=1))
    bad(b, "RKUB-GAME-1", F(turns=2, rkub_rounds=2))


def test_ENGINE_TURN_CAP():
    b = capped(opened().draw())
    ok(b, F(turns=3))
    bad(b, "ENGINE-TURN-CAP", F(turns=4))  # reason 4 before the cap
    b = opened().draw().draw()
    bad(capped(b), "ENGINE-TURN-CAP", F(turns=3))  # a turn past the cap
