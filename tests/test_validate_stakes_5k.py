"""Tests of the 5000 Rummy stakes checker (rummysim.validate.rum5000.stakes) by rule ID:
V5K-13 Doubling and V5K-14 Limit-Poker 5000, with the flags' refusals.

Every trace is a 2-hand session built with ``tests/tracebuild_stakes_5k.S5``: hand 0 is the
"out" hand (seat 0 first, goes out on its second turn; the dealer's hand fixes the difference),
hand 1 the "tie" hand (four draw-and-discard turns, then the turn cap).  Each legal case passes;
each planted illegal case is caught with the rule ID it breaks (normally the first violation).
"""

from __future__ import annotations

import pytest

from rummysim.validate import validate_trace
from rummysim.validate.rum5000.results import game_point_payoffs, result_problems
from tests.scenarios_5k import bad, close, insert, mutate, ok, rows_of, short_hand
from tests.tracebuild_5k import GAME
from tests.tracebuild_stakes_5k import (
    DOUBLING,
    LIMIT_POKER,
    LOSS_245,
    LOSS_250,
    LOSS_455,
    LOSS_500,
    LOSS_830,
    S5,
    Before,
    deal_out_hand,
    deal_tie_hand,
    play_out_hand,
    play_tie_hand,
)

pytestmark = pytest.mark.usefixtures("paranoid_validator")

DFL = {**GAME, "r5k_doubling": True, "max_turns_per_hand": 4}
PFL = {**GAME, "r5k_limit_poker": True, "max_turns_per_hand": 4}

# record kinds (docs/trace-format.md), written out as the builder writes them
HAND_STAKE, DOUBLE, DOUBLE_TAKE, DOUBLE_FOLD, BEAVER = 102, 103, 104, 105, 106
ANTE, BET, CALL, RAISE, CONCEDE, PAYOUT = 107, 109, 110, 111, 112, 113
DRAW_STOCK, HAND_END, SCORE, HAND_START, GAME_END = 10, 40, 41, 2, 50


def doubling(loss: str = LOSS_830, auto: int = 0, before: Before | None = None,
             before_tie: Before | None = None) -> S5:
    """A Doubling session: the out hand (seat 0 first), then the tie hand (seat 1 first)."""
    b = S5(DOUBLING, auto=auto)
    f = deal_out_hand(b, loss)
    play_out_hand(b.hand_stake(), f, before).payouts()
    f = deal_tie_hand(b)
    play_tie_hand(b.hand_stake(), f, before_tie).payouts()
    return b.session_end()


def payout_rows(b: S5) -> list[list[int]]:
    return [r for r in b.rows if r[0] == PAYOUT]


# ============================================================================================
# Flags
# ============================================================================================


@pytest.mark.parametrize("extra", [
    {"r5k_limit_poker": True}, {"r5k_must_go_out_to_win": True}, {"r5k_target": 3000},
    {"r5k_payoff": "game_point"}, {"r5k_persian": True},
])
def test_stakes_flags_refuse_what_the_contract_excludes(extra):
    with pytest.raises(ValueError, match="r5k_doubling"):
        validate_trace(doubling().array(), {**DFL, **extra})


def test_stakes_records_in_a_plain_game_are_trace_format():
    res = bad(doubling(), "TRACE-FORMAT", {**GAME, "max_turns_per_hand": 4}, first=False)
    assert "without a stakes layer" in res.violations[-1].message


def test_doubling_records_in_a_poker_session_are_trace_format():
    bad(doubling(), "TRACE-FORMAT", PFL)


def test_stakes_session_is_for_two_players_only():
    bad(mutate(doubling(), 0, 1, 3), "V5K-13", DFL)


def test_stakes_start_must_follow_game_start():
    a = doubling().array()
    bad(a[[0] + list(range(2, len(a)))], "V5K-13", DFL)


@pytest.mark.parametrize("col,val", [(3, 3), (4, 5), (2, 2)])
def test_stakes_start_columns(col, val):
    bad(mutate(doubling(), 1, col, val), "V5K-13", DFL)


# ============================================================================================
# V5K-13 Doubling: the payout by the margin
# ============================================================================================


@pytest.mark.parametrize("loss,diff,m", [
    (LOSS_245, 245, 1), (LOSS_250, 250, 2), (LOSS_455, 455, 2), (LOSS_500, 500, 3),
    (LOSS_830, 830, 3),
])
def test_doubling_payout_multiple_by_hand_difference(loss, diff, m):
    b = doubling(loss)
    s0, s1 = b.rows[rows_of(b, SCORE)[0]], b.rows[rows_of(b, SCORE)[1]]
    assert s0[2] - s1[2] == diff
    p0, p1 = payout_rows(b)[:2]
    assert (p0[2], p1[2], p0[4], p0[5]) == (m, -m, m, 1)
    ok(b, DFL)
    i = rows_of(b, PAYOUT)[0]
    for wrong in {1, 2, 3} - {m}:  # a wrong payout multiple, amounts kept consistent
        a = mutate(mutate(mutate(mutate(b, i, 2, wrong), i, 3, wrong), i, 4, wrong), i + 1, 4,
                   wrong)
        a = mutate(mutate(a, i + 1, 2, -wrong), i + 1, 3, -wrong)
        bad(a, "V5K-13", DFL)


def test_doubling_tied_hand_pays_nothing():
    b = doubling()
    p2, p3 = payout_rows(b)[2:]
    assert (p2[2], p3[2], p2[4]) == (0, 0, 0)
    i = rows_of(b, PAYOUT)[2]
    bad(mutate(b, i, 4, 1), "V5K-13", DFL)  # multiplier of a tie is 0


def test_doubling_payout_uses_hand_difference_not_game_totals():
    """Hand 1 is a tie (0) although the game totals differ by 830 (E65)."""
    b = doubling()
    i = rows_of(b, PAYOUT)[2]
    a = mutate(mutate(mutate(b, i, 2, -3), i, 3, 0), i, 4, 3)
    bad(mutate(mutate(mutate(a, i + 1, 2, 3), i + 1, 3, 0), i + 1, 4, 3), "V5K-13", DFL)


def test_doubling_payout_not_conserved():
    b = doubling()
    i = rows_of(b, PAYOUT)[1]
    res = bad(mutate(mutate(b, i, 2, -2), i, 3, -2), "V5K-13", DFL)
    assert any("do not cancel" in v.message for v in res.violations)


def test_doubling_session_total_after():
    b = doubling()
    bad(mutate(b, rows_of(b, PAYOUT)[2], 3, 0), "V5K-13", DFL)


def test_doubling_payout_order_seat0_then_seat1():
    b = doubling()
    bad(mutate(b, rows_of(b, PAYOUT)[0], 1, 1), "TRACE-FORMAT", DFL)


# ============================================================================================
# V5K-13 Doubling: the stake, doubles and answers
# ============================================================================================


def test_auto_double_gives_hand_0_stake_2_only():
    b = doubling(auto=1)
    stakes = [r[1] for r in b.rows if r[0] == HAND_STAKE]
    assert stakes == [2, 1] and payout_rows(b)[0][2] == 6
    ok(b, DFL)
    bad(mutate(b, rows_of(b, HAND_STAKE)[0], 1, 1), "V5K-13", DFL)
    bad(mutate(b, rows_of(b, HAND_STAKE)[1], 1, 2), "V5K-13", DFL)


def test_hand_stake_must_follow_the_deal():
    b = doubling()
    a = b.array()
    i = rows_of(b, HAND_STAKE)[0]
    bad(a[[j for j in range(len(a)) if j != i]], "V5K-13", DFL)


def test_double_taken_by_the_dealer_before_the_first_turn():
    b = doubling(before={0: lambda b: b.double(1).take_double(0)})
    assert payout_rows(b)[0][2] == 6 and payout_rows(b)[0][5] == 2
    ok(b, DFL)


def test_double_beaver_and_the_right_to_double_next():
    """Seat 1 doubles, seat 0 beavers (4) and keeps the right to double: it doubles before
    seat 1's turn (8), and seat 1, no longer the last doubler, doubles again (16)."""
    b = doubling(before={0: lambda b: b.double(1).beaver(0),
                         1: lambda b: b.double(0).take_double(1),
                         2: lambda b: b.double(1).take_double(0)})
    assert [r[2] for r in b.rows if r[0] in (DOUBLE, DOUBLE_TAKE, BEAVER)] == [2, 4, 8, 8, 16, 16]
    assert payout_rows(b)[0][2] == 48
    ok(b, DFL)


def test_double_twice_in_a_row():
    bad(doubling(before={0: lambda b: b.double(1).take_double(0),
                         2: lambda b: b.double(1).take_double(0)}), "V5K-13", DFL)


def test_beavered_doubler_may_not_double_again():
    bad(doubling(before={0: lambda b: b.double(1).beaver(0),
                         2: lambda b: b.double(1).take_double(0)}), "V5K-13", DFL)


def test_double_only_before_the_opponents_draw():
    bad(doubling(before={0: lambda b: b.double(0).take_double(1)}), "V5K-13", DFL)


def test_double_amount_and_answers():
    b = doubling(before={0: lambda b: b.double(1).take_double(0)})
    i = rows_of(b, DOUBLE)[0]
    bad(mutate(b, i, 2, 3), "V5K-13", DFL)  # stake_offered 2 x 1
    bad(mutate(b, i + 1, 2, 4), "V5K-13", DFL)  # DOUBLE_TAKE stake = offered
    bad(mutate(b, i + 1, 1, 1), "V5K-13", DFL)  # only the doubled seat answers
    b = doubling(before={0: lambda b: b.double(1).beaver(0)})
    bad(mutate(b, rows_of(b, BEAVER)[0], 2, 2), "V5K-13", DFL)  # beaver: 2 x offered


def test_double_needs_an_answer_at_once():
    b = doubling(before={0: lambda b: b.double(1).take_double(0)})
    a = b.array()
    i = rows_of(b, DOUBLE_TAKE)[0]
    bad(a[[j for j in range(len(a)) if j != i]], "V5K-13", DFL)


def test_double_only_between_turns():
    b = doubling()
    i = rows_of(b, DRAW_STOCK)[0]
    bad(insert(b, i + 1, [DOUBLE, 1, 2, 0, 0, 0, 0, 0], [DOUBLE_TAKE, 0, 2, 0, 0, 0, 0, 0]),
        "V5K-13", DFL)


def test_double_after_the_hand_is_over():
    b = doubling()
    i = rows_of(b, HAND_END)[0]
    bad(insert(b, i, [DOUBLE, 1, 2, 0, 0, 0, 0, 0]), "V5K-13", DFL)


# ============================================================================================
# V5K-13 Doubling: the fold
# ============================================================================================


def fold_session() -> S5:
    """Hand 0: seat 1 doubles before seat 0's second turn and seat 0 folds, losing 1."""
    b = S5(DOUBLING)
    f = deal_out_hand(b, LOSS_830)
    b.hand_stake()
    b.draw(f).meld(f, "seq", "3C 4C 5C").discard(f, "KS")
    b.draw(1 - f).discard(1 - f, "8S")
    b.double(1 - f).fold(f).end_unreckoned().payouts()
    f = deal_tie_hand(b)
    play_tie_hand(b.hand_stake(), f).payouts()
    return b.session_end()


def test_fold_ends_the_hand_and_loses_the_current_stake():
    b = fold_session()
    assert b.rows[rows_of(b, HAND_END)[0]][1:4] == [7, -1, 2]
    assert [r[2] for r in payout_rows(b)] == [-1, 1, 0, 0]
    assert b.rows[-1][1] == 1  # seat 1 wins the session
    ok(b, DFL)


def test_fold_loses_the_stake_before_the_double():
    b = fold_session()
    bad(mutate(b, rows_of(b, DOUBLE_FOLD)[0], 2, 2), "V5K-13", DFL)
    i = rows_of(b, PAYOUT)[0]
    a = mutate(mutate(mutate(mutate(b, i, 2, -2), i, 3, -2), i + 1, 2, 2), i + 1, 3, 2)
    bad(a, "V5K-13", DFL)


def test_fold_payout_to_the_folder_is_wrong():
    b = fold_session()
    i = rows_of(b, PAYOUT)[0]
    a = mutate(mutate(mutate(mutate(b, i, 2, 1), i, 3, 1), i + 1, 2, -1), i + 1, 3, -1)
    bad(a, "V5K-13", DFL)


def test_fold_not_ending_the_hand():
    b = S5(DOUBLING)
    f = deal_out_hand(b, LOSS_830)
    b.hand_stake()
    b.draw(f).meld(f, "seq", "3C 4C 5C").discard(f, "KS")
    b.draw(1 - f).discard(1 - f, "8S")
    b.double(1 - f).fold(f)
    b.take(f).layoff(f, 0, "6C").discard(f, "8S")
    b.end(1, out=f)
    bad(b, "V5K-13", DFL)


def test_fold_hand_end_reason_and_scores():
    b = fold_session()
    i = rows_of(b, HAND_END)[0]
    bad(mutate(b, i, 1, 4), "V5K-13", DFL)  # reason 7 expected
    bad(mutate(b, i, 2, 0), "TRACE-FORMAT", DFL)  # out_seat -1
    bad(mutate(mutate(b, i + 1, 2, 20), i + 1, 4, 20), "V5K-13", DFL)  # not reckoned
    bad(mutate(b, i + 2, 3, 5), "V5K-13", DFL)  # total unchanged


def test_reason_7_without_a_fold():
    b = doubling()
    bad(mutate(b, rows_of(b, HAND_END)[1], 1, 7), "V5K-13", DFL)


# ============================================================================================
# V5K-13 / V5K-14: the 2-hand session
# ============================================================================================


def test_session_is_two_hands():
    b = doubling()
    a = b.array()
    cut = rows_of(b, HAND_START)[1]
    one_hand = insert(a[:cut], cut, [GAME_END, 1, 1, 0, 0, 0, 0, 0])
    bad(one_hand, "V5K-13", DFL)
    bad(mutate(b, len(b.rows) - 1, 1, 1), "V5K-13", DFL)  # seat 0 won (+3)


def test_session_tie_is_winner_minus_one_both_seats():
    b = S5(DOUBLING)
    for _ in range(2):
        f = deal_tie_hand(b)
        play_tie_hand(b.hand_stake(), f).payouts()
    b.session_end()
    assert b.rows[-1][1:5] == [-1, 2, 0, 3]
    ok(b, DFL)
    bad(mutate(b, len(b.rows) - 1, 4, 0), "V5K-13", DFL)


def test_payout_records_must_follow_the_scores():
    b = doubling()
    a = b.array()
    i = rows_of(b, PAYOUT)[0]
    bad(a[[j for j in range(len(a)) if j not in (i, i + 1)]], "V5K-13", DFL)


def test_third_hand_is_not_dealt():
    b = doubling()
    a = b.array()
    start, end = rows_of(b, HAND_START)[1], rows_of(b, PAYOUT)[3]
    extra = a[start:end + 1]
    bad(insert(a, len(a) - 1, *extra.tolist()), "V5K-13", DFL)


# ============================================================================================
# V5K-14 Limit-Poker: antes, the betting round
# ============================================================================================


def poker(betting=lambda b, f: b.check(f).check(1 - f), loss: str = LOSS_245,
          before: Before | None = None, betting_tie=None) -> S5:
    """A Limit-Poker session: the out hand (seat 0 first), then the tie hand (seat 1 first)."""
    b = S5(LIMIT_POKER)
    f = deal_out_hand(b, loss)
    betting(b.antes(), f)
    play_out_hand(b, f, before).payouts()
    f = deal_tie_hand(b)
    (betting_tie or (lambda b, f: b.check(f).check(1 - f)))(b.antes(), f)
    play_tie_hand(b, f).payouts()
    return b.session_end()


LEGAL_ROUNDS = {
    "check-check": lambda b, f: b.check(f).check(1 - f),
    "bet-call": lambda b, f: b.bet(f, 10).equalize(1 - f),
    "check-bet-call": lambda b, f: b.check(f).bet(1 - f, 1).equalize(f),
    "two-raises-each": lambda b, f: (b.bet(f, 3).raise_(1 - f, 10).raise_(f, 10)
                                     .raise_(1 - f, 1).raise_(f, 2).equalize(1 - f)),
    "check-bet-raises": lambda b, f: (b.check(f).bet(1 - f, 5).raise_(f, 10).raise_(1 - f, 3)
                                      .raise_(f, 4).raise_(1 - f, 7).equalize(f)),
}


@pytest.mark.parametrize("name", sorted(LEGAL_ROUNDS))
def test_legal_betting_rounds(name):
    b = poker(LEGAL_ROUNDS[name])
    pot = b.rows[rows_of(b, PAYOUT)[0]][5]
    assert [r[2] for r in payout_rows(b)] == [pot // 2, -(pot // 2), 0, 0]
    ok(b, PFL)


def test_antes():
    b = poker()
    i = rows_of(b, ANTE)[0]
    assert [b.rows[i][1], b.rows[i + 1][1]] == [0, 1]  # the non-dealer, then the dealer
    bad(mutate(b, i, 2, 2), "V5K-14", PFL)
    bad(mutate(mutate(b, i, 1, 1), i + 1, 1, 0), "V5K-14", PFL)
    a = b.array()
    bad(a[[j for j in range(len(a)) if j not in (i, i + 1)]], "V5K-14", PFL)


@pytest.mark.parametrize("round_,why", [
    (lambda b, f: b.bet(f, 11).equalize(1 - f), "a bet of 11"),
    (lambda b, f: b.bet(f, 0).equalize(1 - f), "a bet of 0"),
    (lambda b, f: b.bet(f, 2).raise_(1 - f, 11).equalize(f), "a raise of 11"),
    (lambda b, f: (b.bet(f, 1).raise_(1 - f, 1).raise_(f, 1).raise_(1 - f, 1).raise_(f, 1)
                   .raise_(1 - f, 1).raise_(f, 1).equalize(1 - f)), "a third raise"),
    (lambda b, f: b.bet(f, 2).check(1 - f).equalize(1 - f), "a check after a bet"),
    (lambda b, f: b.bet(f, 2).bet(1 - f, 3).equalize(f), "a second bet"),
    (lambda b, f: b.check(f).raise_(1 - f, 2).equalize(f), "a raise with nothing to call"),
    (lambda b, f: b.check(f).equalize(1 - f), "a call with nothing to call"),
    (lambda b, f: b.check(1 - f).check(f), "the dealer opens"),
    (lambda b, f: b.bet(f, 2).equalize(f), "the bettor calls itself"),
])
def test_illegal_betting_rounds(round_, why):
    bad(poker(round_), "V5K-14", PFL)


def test_call_of_the_wrong_amount():
    b = poker(LEGAL_ROUNDS["bet-call"])
    i = rows_of(b, CALL)[0]
    bad(mutate(b, i, 2, 5), "V5K-14", PFL)


def test_pot_not_conserved():
    b = poker(LEGAL_ROUNDS["two-raises-each"])
    bad(mutate(b, rows_of(b, RAISE)[1], 4, 30), "V5K-14", PFL)
    bad(mutate(b, rows_of(b, BET)[0], 3, 4), "V5K-14", PFL)


def test_play_before_the_betting_round_is_over():
    b = poker(LEGAL_ROUNDS["bet-call"])
    a = b.array()
    i = rows_of(b, CALL)[0]
    bad(a[[j for j in range(len(a)) if j != i]], "V5K-14", PFL)


# ============================================================================================
# V5K-14 Limit-Poker: concession, the pot
# ============================================================================================


def concede_in_betting() -> S5:
    b = S5(LIMIT_POKER)
    f = deal_out_hand(b, LOSS_245)
    b.antes().bet(f, 4).concede(1 - f, 0).end_unreckoned().payouts()
    f = deal_tie_hand(b)
    b.antes().check(f).check(1 - f)
    play_tie_hand(b, f).payouts()
    return b.session_end()


def test_concession_in_the_betting_round_loses_the_pot():
    b = concede_in_betting()
    assert b.rows[rows_of(b, HAND_END)[0]][1:4] == [8, -1, 0]
    assert [r[2] for r in payout_rows(b)][:2] == [1, -1]  # the conceder's ante
    assert b.rows[rows_of(b, PAYOUT)[0]][5] == 6
    ok(b, PFL)
    i = rows_of(b, PAYOUT)[0]
    a = mutate(mutate(mutate(mutate(b, i, 2, 5), i, 3, 5), i + 1, 2, -5), i + 1, 3, -5)
    bad(a, "V5K-14", PFL)  # the winner's own bet is not won
    bad(mutate(b, rows_of(b, CONCEDE)[0], 2, 5), "V5K-14", PFL)  # the pot at that moment
    bad(mutate(b, rows_of(b, CONCEDE)[0], 3, 1), "TRACE-FORMAT", PFL)  # phase 0


def test_concession_before_own_turn():
    b = S5(LIMIT_POKER)
    f = deal_out_hand(b, LOSS_245)
    b.antes().bet(f, 2).equalize(1 - f)
    b.draw(f).meld(f, "seq", "3C 4C 5C").discard(f, "KS")
    b.concede(1 - f, 1).end_unreckoned().payouts()
    f = deal_tie_hand(b)
    b.antes().check(f).check(1 - f)
    play_tie_hand(b, f).payouts()
    b.session_end()
    assert [r[2] for r in payout_rows(b)][:2] == [3, -3]
    ok(b, PFL)
    i = rows_of(b, CONCEDE)[0]
    bad(mutate(b, i, 1, 0), "V5K-14", PFL)  # seat 0 before seat 1's turn
    bad(mutate(b, i, 3, 0), "TRACE-FORMAT", PFL)
    j = rows_of(b, HAND_END)[0]
    bad(mutate(b, j, 1, 7), "V5K-14", PFL)  # reason 8
    bad(mutate(mutate(b, j + 2, 2, -40), j + 2, 5, 40), "V5K-14", PFL)  # not reckoned


def test_concession_not_ending_the_hand():
    b = S5(LIMIT_POKER)
    f = deal_out_hand(b, LOSS_245)
    b.antes().check(f).check(1 - f)
    play_out_hand(b, f, before={1: lambda b: b.concede(1, 1)})
    bad(b, "V5K-14", PFL)


def test_poker_pot_to_the_higher_hand_score_and_tie_split():
    b = poker(LEGAL_ROUNDS["bet-call"])
    i = rows_of(b, PAYOUT)[0]
    a = mutate(mutate(mutate(mutate(b, i, 2, -11), i, 3, -11), i + 1, 2, 11), i + 1, 3, 11)
    bad(a, "V5K-14", PFL)  # the pot to the lower hand score
    b = poker(betting_tie=LEGAL_ROUNDS["bet-call"])
    i = rows_of(b, PAYOUT)[2]
    assert b.rows[i][2] == 0 and b.rows[i][5] == 22
    ok(b, PFL)
    a = mutate(mutate(mutate(mutate(b, i, 2, 11), i, 3, 12), i + 1, 2, -11), i + 1, 3, -12)
    bad(a, "V5K-14", PFL)  # a tie splits the pot
    bad(mutate(b, i, 5, 20), "V5K-14", PFL)  # hand_stake is the pot


def test_poker_payout_not_conserved():
    b = poker(LEGAL_ROUNDS["bet-call"])
    i = rows_of(b, PAYOUT)[1]
    res = bad(mutate(mutate(b, i, 2, -10), i, 3, -10), "V5K-14", PFL)
    assert any("do not cancel" in v.message for v in res.violations)


def test_reason_8_without_a_concession():
    b = poker()
    bad(mutate(b, rows_of(b, HAND_END)[1], 1, 8), "V5K-14", PFL)


# ============================================================================================
# Result columns: V5K-1 game points, stake and payout columns
# ============================================================================================


@pytest.mark.parametrize("winner,capped,mask,exp", [
    (1, 0, 0, [0.0, 1.0, 0.0]), (-1, 0, 0b101, [0.5, 0.0, 0.5]), (-1, 1, 0, [0.0, 0.0, 0.0]),
    (-1, 0, 0b111, [1 / 3, 1 / 3, 1 / 3]),
])
def test_game_point_payoffs(winner, capped, mask, exp):
    assert game_point_payoffs(winner, capped, mask, 3) == pytest.approx(exp)


def test_game_point_payoff_columns():
    b = close(short_hand(), 1, out=0)  # capped after 1 hand: everyone 0
    rows = b.rows
    assert result_problems(rows, {"payoff_0": 0.0, "payoff_1": 0.0}, payoff="game_point") == []
    wrong = result_problems(rows, {"payoff_0": 1.0, "payoff_1": 0.0}, payoff="game_point")
    assert [v.rule_id for v in wrong] == ["V5K-1"]
    assert result_problems(rows, {"payoff_0": 0.0}, payoff="game_point")[0].rule_id == "V5K-1"
    assert result_problems(rows, {"payoff_0": 0.0, "payoff_1": 0.0})[0].rule_id == "V5K-1"
    assert result_problems(rows, {}) == []


def test_stake_and_payout_columns():
    b = doubling()
    hands = [{"stake": 1, "payout_0": 3, "payout_1": -3},
             {"stake": 1, "payout_0": 0, "payout_1": 0}]
    assert result_problems(b.rows, {"stake_0": 3, "stake_1": -3}, hands) == []
    assert [v.rule_id for v in result_problems(b.rows, {"stake_0": 3, "stake_1": 3}, hands)] \
        == ["V5K-13"]
    hands[1] = {"stake": 2, "payout_0": 0, "payout_1": 0}
    assert [v.rule_id for v in result_problems(b.rows, {"stake_0": 3, "stake_1": -3}, hands)] \
        == ["V5K-13"]
    p = poker(LEGAL_ROUNDS["bet-call"])
    assert [v.rule_id for v in result_problems(p.rows, {"stake_0": 0, "stake_1": 0})] \
        == ["V5K-14"]


def test_engine_stake_cap():
    """Beavers before every turn (x4 each, the seats alternating as doubler): ten reach the
    engine limit 2^20; the eleventh DOUBLE would offer 2^21."""
    def session(gaps: int) -> S5:
        b = S5(DOUBLING)
        for _ in range(2):
            f = deal_tie_hand(b)
            b.hand_stake()
            for i in range(12):
                seat = (f + i) % 2
                if i < gaps and b.hand_no == 0:
                    b.double(1 - seat).beaver(seat)
                b.draw_discard(seat)
            b.end(4).payouts()
        return b.session_end()

    flags = {**DFL, "max_turns_per_hand": 12}
    b = session(10)
    assert b.rows[rows_of(b, BEAVER)[-1]][2] == 1 << 20
    ok(b, flags)
    bad(session(11), "ENGINE-STAKE-CAP", flags)


def test_double_before_a_normal_turn_not_before_a_rummy_call():
    """2 players, r5k_rummy=top_card: seat 0 calls on seat 1's 8H; seat 1 may double before
    seat 0's normal turn that follows the call, but not before the call turn."""
    flags = {**DFL, "r5k_rummy": "top_card"}
    b = S5(DOUBLING, flags={"r5k_rummy": "top_card"})
    b.deal("K", {0: "5H 6H 7H 3C 4D 9S", 1: "4C 8H 2C 3D 9D"}, stock="2H 3S 4H")
    b.hand_stake()
    b.draw(0).meld(0, "seq", "5H 6H 7H").discard(0, "2H")
    b.draw(1).discard(1, "8H")
    call_at = len(b.rows)
    b.call_(0).layoff(0, 0, "8H").discard(0, "3C")
    b.double(1).take_double(0)
    b.draw(0).discard(0, "4H")
    b.end(4).payouts()
    f = deal_tie_hand(b)
    play_tie_hand(b.hand_stake(), f).payouts()
    b.session_end()
    assert payout_rows(b)[0][5] == 2
    ok(b, flags)
    a = b.array()
    i = rows_of(b, DOUBLE)[0]
    moved = insert(a[[j for j in range(len(a)) if j not in (i, i + 1)]], call_at,
                   [DOUBLE, 1, 2, 0, 0, 0, 0, 0], [DOUBLE_TAKE, 0, 2, 0, 0, 0, 0, 0])
    res = bad(moved, "V5K-13", flags)
    assert "normal turn follows" in res.violations[0].message
