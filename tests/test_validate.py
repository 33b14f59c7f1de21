"""Tests of the independent 500 Rum rules checker (rummysim.validate.rum500): draws from the
discard pile, scoring, the idle guard, melds and lay-offs.

Every trace here is hand made with the small ``B`` (builder) class of ``tests/tracebuild.py``, from
readable card strings ("4H", "TD", "X"; run positions as "AH@14" or "X@7").  The builder is a dumb
recorder: it keeps just enough state (hands, stock, pile, credits) to write TURN_START and SCORE
fields, and it never checks legality, so illegal variants are written the same way as legal ones.
Each test asserts that the legal trace yields no violation and that each illegal variant yields a
violation with the expected rule ID (normally as the first violation).  Card conservation, the
deal, going out, game end, flags and random legal games are in ``tests/test_validate_game.py``;
the variations of RULES.md §3 and Standard Rummy in ``tests/test_validate_variations*.py`` and
``tests/test_validate_standard.py``.
"""

from __future__ import annotations

import pytest

from tests.scenarios_500 import F1, one_turn, t01_flags, t01_state
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
)

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# --------------------------------------------------------------------------------------------
# Scenario states
# --------------------------------------------------------------------------------------------


def stock_out_state(flags: dict | None = None) -> B:
    """T-14 state: 3 players, dealer 1; 32 turns empty the stock; P1 is next with an empty stock.
    P0 has 6C-TC on the table (40) and holds 2C 3D (5); P1 has X 2S 3S (20) and holds 9H 8D 7S 6D
    (30)."""
    b = B(3, dealer=1, flags=flags)
    b.deal({0: "6C 7C 8C 9C TC 2C 3D", 1: "X 2S 3S 9H 8D 7S 6D"})
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "6C 7C 8C 9C TC").discard(0, b.last)
    b.draw(1).meld(1, "run", "X@1 2S 3S").discard(1, b.last)
    while b.stock:
        b.draw_discard()
    assert b.next == 1 and b.turns == 32
    return b


# --------------------------------------------------------------------------------------------
# T-01 .. T-03: drawing from the discard pile
# --------------------------------------------------------------------------------------------


def test_T01_R500_DRAW_3_deep_take_and_meld_is_legal():
    b = t01_state()
    b.take(0, 1).meld(0, "set", "4H 4D 4S").discard(0, "2C")
    assert [cname(c) for c in b.pile] == ["6C", "2C"]
    assert sorted(b.hand(0)) == sorted("5S 7D 8D JC QS KH KS AH".split())
    finish_capped(b)
    assert b.scores[0][4] == 12  # P0 credited 12
    assert_ok(b, t01_flags())
    # 15 under 5_10_15
    b2 = t01_state({"r500_card_values": "5_10_15"})
    b2.take(0, 1).meld(0, "set", "4H 4D 4S").discard(0, "2C")
    finish_capped(b2)
    assert b2.scores[0][4] == 15
    assert_ok(b2, t01_flags(r500_card_values="5_10_15"))
    # the face-value trace is wrong under 5_10_15 (and vice versa)
    assert_rule(b, "R500-SCORE-2", t01_flags(r500_card_values="5_10_15"))


def test_R500_DRAW_3_deep_take_must_meld_selected_card():
    b = t01_state()
    b.take(0, 1).discard(0, "2C")  # 4D never melded
    finish_capped(b)
    assert_rule(b, "R500-DRAW-3", t01_flags())


def c_turn4_state() -> B:
    """P2 holds 9H TH JH 4H 4S; the pile is 5D KS 4D 8C when P2 is to draw."""
    b = B(3, dealer=1)
    b.deal({2: "9H TH JH 4H 4S 2C 3C"}, upcard="5D", stock="KS 4D 8C")
    b.draw_discard(2)  # discards KS
    b.draw(0).discard(0, "4D")
    b.draw(1).discard(1, "8C")
    assert [cname(c) for c in b.pile] == ["5D", "KS", "4D", "8C"]
    return b


def test_C_TURN_4_first_meld_must_contain_selected_card():
    flags = {"max_turns_per_hand": 4, **CAP1}
    ok = c_turn4_state()
    ok.take(2, 2).meld(2, "set", "4H 4D 4S").meld(2, "run", "9H TH JH").discard(2, "2C")
    assert_ok(finish_capped(ok), flags)
    bad = c_turn4_state()
    bad.take(2, 2).meld(2, "run", "9H TH JH").meld(2, "set", "4H 4D 4S").discard(2, "2C")
    assert_rule(finish_capped(bad), "C-TURN-4", flags)


def test_T02_R500_DRAW_2_top_card_may_be_kept():
    b = t01_state()
    b.take(0).discard(0, "2C")  # takes 7D only, keeps it
    finish_capped(b)
    assert_ok(b, t01_flags())


def test_T02_R500_DISC_2_top_single_card_not_discarded():
    b = t01_state()
    b.take(0).discard(0, "7D")
    finish_capped(b)
    assert_rule(b, "R500-DISC-2", t01_flags())
    # allowed with r500_discard_restriction=none
    assert_ok(b, t01_flags(r500_discard_restriction="none"))


def test_T02_V500_TOPMUST_top_card_must_be_played():
    b = t01_state()
    b.take(0).discard(0, "2C")
    finish_capped(b)
    assert_rule(b, "V500-TOPMUST", t01_flags(r500_top_card_must_be_played=True))
    # the preset V500-NOHIT implies it too
    assert_rule(b, "V500-TOPMUST", t01_flags(r500_no_pickup_to_hit=True))
    # a top-only take that is melded at once is fine with the flag
    b2 = B(3, dealer=2)
    b2.deal({0: "7H 7S 2C 3C 4D 5D 9S"}, upcard="7C")
    b2.take(0).meld(0, "set", "7H 7S 7C").discard(0, "9S")
    finish_capped(b2)
    assert_ok(b2, {"max_turns_per_hand": 1, **CAP1, "r500_top_card_must_be_played": True})


def test_T03_R500_DRAW_5_illegal_deep_takes():
    # from QS (index 2): QS cannot be melded, so the turn ends without melding it
    b = t01_state()
    b.take(0, 2).discard(0, "2C")
    finish_capped(b)
    assert_rule(b, "R500-DRAW-3", t01_flags())
    # from 4S (index 3): 4H 4S lack a third 4 (4D stays in the pile)
    b = t01_state()
    b.take(0, 3).meld(0, "set", "4H 4S 4D").discard(0, "2C")
    finish_capped(b)
    assert_rule(b, "C-CARD-CONSERVATION", t01_flags())


def test_V500_NEWMELD_selected_card_not_laid_off():
    # P0 has 4H 4D 4S on the table; later P0 takes deep from a 4C and lays it off
    b = B(3, dealer=2)
    b.deal({0: "4H 4D 4S 2C 3C 5D 9S"}, upcard="8H", stock="_ 4C KD QD")
    b.draw(0).meld(0, "set", "4H 4D 4S").discard(0, b.last)
    b.draw(1).discard(1, "4C")
    b.draw(2).discard(2, "KD")
    b.take(0, 2).layoff(0, 0, "4C").discard(0, "2C")  # takes 4C KD
    finish_capped(b)
    flags = {"max_turns_per_hand": 4, **CAP1}
    assert_ok(b, flags)
    assert_rule(b, "V500-NEWMELD", {**flags, "r500_pickup_use": "new_meld"})


def test_V500_DISCSAME_any_taken():
    b = t01_state()
    b.take(0, 1).meld(0, "set", "4H 4D 4S").discard(0, "QS")  # QS was taken with 4D
    finish_capped(b)
    assert_ok(b, t01_flags())
    assert_rule(b, "V500-DISCSAME", t01_flags(r500_discard_restriction="any_taken"))


# --------------------------------------------------------------------------------------------
# T-04, T-05, T-14: scoring
# --------------------------------------------------------------------------------------------


def t04_game() -> B:
    """T-04: P0 reaches 200 in hand 1 (melds 21 cards after a deep take and goes out), then in
    hand 2 is credited 85 and holds 90."""
    b = B(3, dealer=1)
    # hand 1: dealer 1, first player P2; turns 0..15 draw and discard; P0 plays turn 16
    b.deal({0: "AC AD AH AS KC KD KH"},
           stock="_ _ KS QC QD QH QS JC JD JH JS 2C 3C 4C 5C 6C")
    for _ in range(16):
        b.draw_discard()
    assert b.next == 0
    k = [cname(c) for c in b.pile].index("KS")
    b.take(0, k)
    b.meld(0, "set", "KC KD KH KS").meld(0, "set", "AC AD AH AS")
    b.meld(0, "set", "QC QD QH QS").meld(0, "set", "JC JD JH JS")
    b.meld(0, "run", "2C 3C 4C 5C 6C")
    assert b.hands[0] == []
    b.end(1, out=0)
    assert b.scores[0][1:6] == [0, 200, 200, 200, 0]
    # hand 2: dealer 2, P0 first; 12 draw-discard turns fill the pile, then P0 takes from index 1
    b.deal({0: "X X AC AD KC QC JC"}, stock="KD KH KS QD QH QS 3H 4H 5H 6H 7H 2C")
    for _ in range(12):
        b.draw_discard()
    b.take(0, 1).meld(0, "set", "KD KH KS").meld(0, "set", "QD QH QS")
    b.meld(0, "run", "3H 4H 5H 6H 7H").discard(0, "2C")
    for _ in range(4):
        b.draw_discard()
    b.end(4)
    return b.game_end(-1, capped=1)


T04_FLAGS = {"max_turns_per_hand": 17, "max_hands_per_game": 2}


def test_T04_R500_SCORE_1_negative_hand_score():
    b = t04_game()
    # P0's hand-2 SCORE: hand_score -5, total 195, table 85, hand 90
    assert b.scores[0] == [41, 0, -5, 195, 85, 90, 0, 0]
    assert_ok(b, T04_FLAGS)
    rows = b.rows
    i = find(rows, 41, nth=1, c1=0)  # second hand, seat 0
    assert_rule(mutate(b, i, 2, 5), "R500-SCORE-1", T04_FLAGS)  # +5 instead of -5
    bad = mutate(b, i, 2, 5)
    bad[i, 3] = 205
    assert_rule(bad, "R500-SCORE-1", T04_FLAGS)
    assert_rule(mutate(b, i, 3, 205), "R500-SCORE-3", T04_FLAGS)  # total 205
    assert_rule(mutate(b, i, 4, 86), "R500-SCORE-2", T04_FLAGS)  # table_value


T05_CASES = [
    ({}, 26),
    ({"r500_card_values": "5_10_15"}, 35),
    ({"r500_ace_low_value": "same"}, 40),
    ({"r500_ace_value": 25, "r500_ace_low_value": "same"}, 50),
]


def t05_game(flags: dict) -> B:
    b = B(3, dealer=2, flags=flags)
    b.deal({0: "AH 2H 3H QS KS AS AD"})
    b.draw(0).meld(0, "run", "AH 2H 3H").meld(0, "run", "QS KS AS@14").discard(0, b.last)
    return finish_capped(b)


@pytest.mark.parametrize("extra,expected", T05_CASES)
def test_T05_R500_SCORE_2_ace_values(extra, expected):
    flags = {"max_turns_per_hand": 1, **CAP1, **extra}
    b = t05_game(extra)
    assert b.hand(0) == ["AD"]
    assert b.scores[0][2] == expected  # hand_score from RULES.md T-05
    assert_ok(b, flags)
    # every other setting disagrees with this trace
    for other, other_expected in T05_CASES:
        if other_expected != expected:
            assert_rule(b, "R500-SCORE-2", {"max_turns_per_hand": 1, **CAP1, **other})


def test_V500_VALUES_all5():
    flags = {"max_turns_per_hand": 1, **CAP1, "r500_card_values": "all5"}
    b = t05_game({"r500_card_values": "all5"})
    assert b.scores[0][2] == 5 + 5 + 5 + 5 + 5 + 15 - 15
    assert_ok(b, flags)


@pytest.mark.parametrize("penalty,expected", [(True, [35, -10]), (False, [40, 20])])
def test_T14_R500_STOCK_1_stock_exhausted(penalty, expected):
    flags = {"r500_stock_out_hand_penalty": penalty}
    b = stock_out_state(flags)
    b.nodraw(1).end(2).game_end(-1, capped=1)
    assert [r[2] for r in b.scores[:2]] == expected
    assert b.scores[2][4] == 0
    p2 = b.scores[2][2]
    assert (p2 < 0) if penalty else (p2 == 0)
    assert_ok(b, {**flags, **CAP1})
    # the other penalty setting disagrees
    other = {"r500_stock_out_hand_penalty": not penalty, **CAP1}
    assert_rule(b, "R500-STOCK-1" if not penalty else "V500-STOCKEND", other)


def test_R500_STOCK_1_no_draw_with_cards_in_stock():
    b = t01_state()
    b.nodraw(0).end(2)
    b.game_end(-1, capped=1)
    assert_rule(b, "R500-STOCK-1", CAP1)


def test_R500_STOCK_1_no_draw_must_end_hand():
    b = stock_out_state()
    b.nodraw(1)
    b.rows.append([30, 1, cid("9H"), 0, 0, 0, 0, 0])
    assert_rule(b, "R500-STOCK-1", CAP1)


# --------------------------------------------------------------------------------------------
# R500-STOCK-2: idle guard
# --------------------------------------------------------------------------------------------


def idle_turn(b: B, seat: int | None = None) -> B:
    seat = b.next if seat is None else seat
    b.take(seat)
    taken = b.last
    other = next(c for c in b.hands[seat] if c != taken)
    return b.discard(seat, other)


def test_R500_STOCK_2_idle_guard_ends_after_n_idle_turns():
    b = stock_out_state()
    for _ in range(3):
        idle_turn(b)
    b.end(3).game_end(-1, capped=1)
    assert_ok(b, CAP1)


def test_R500_STOCK_2_idle_guard_too_early():
    b = stock_out_state()
    for _ in range(2):
        idle_turn(b)
    b.end(3).game_end(-1, capped=1)
    assert_rule(b, "R500-STOCK-2", CAP1)
    # but legal with r500_stock_out_idle_turns = 2
    assert_ok(b, {**CAP1, "r500_stock_out_idle_turns": 2})


def test_R500_STOCK_2_idle_guard_too_late():
    b = stock_out_state()
    for _ in range(4):
        idle_turn(b)
    b.end(3).game_end(-1, capped=1)
    assert_rule(b, "R500-STOCK-2", CAP1)


def test_R500_STOCK_2_layoff_resets_idle_count():
    b = B(3, dealer=1)
    b.deal({0: "6C 7C 8C 9C TC 2C 3D", 1: "X 2S 3S 4S 8D 7S 6D"})
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "6C 7C 8C 9C TC").discard(0, b.last)
    b.draw(1).meld(1, "run", "X@1 2S 3S").discard(1, b.last)
    while b.stock:
        b.draw_discard()
    assert b.next == 1
    b.take(1).layoff(1, 1, "4S").discard(1, "8D")  # not idle: resets the count
    idle_turn(b)  # P2: 1
    idle_turn(b)  # P0: 2
    idle_turn(b)  # P1: 3 -> ends
    b.end(3).game_end(-1, capped=1)
    assert_ok(b, CAP1)
    # ending one turn earlier is too early
    b2 = B(3, dealer=1)
    b2.deal({0: "6C 7C 8C 9C TC 2C 3D", 1: "X 2S 3S 4S 8D 7S 6D"})
    b2.draw_discard(2)
    b2.draw(0).meld(0, "run", "6C 7C 8C 9C TC").discard(0, b2.last)
    b2.draw(1).meld(1, "run", "X@1 2S 3S").discard(1, b2.last)
    while b2.stock:
        b2.draw_discard()
    b2.take(1).layoff(1, 1, "4S").discard(1, "8D")
    idle_turn(b2)
    idle_turn(b2)
    b2.end(3).game_end(-1, capped=1)
    assert_rule(b2, "R500-STOCK-2", CAP1)


# --------------------------------------------------------------------------------------------
# Melds: T-08, T-09, runs and lay-offs
# --------------------------------------------------------------------------------------------


def test_T08_R500_MELD_4_no_round_the_corner():
    h = "QH KH AH 2H 3H 9C 9D"
    assert_ok(one_turn(h, lambda b: b.meld(0, "run", "QH KH AH@14").discard(0, "9C")), F1)
    assert_ok(one_turn(h, lambda b: b.meld(0, "run", "AH 2H 3H").discard(0, "9C")), F1)
    # K-A-2 written with positions 13, 14, 15 ...
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "KH AH@14 2H@15").discard(0, "9C")),
                "R500-MELD-4", F1)
    # ... or with positions 13, 1, 2
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "KH AH@1 2H", lo=13).discard(0, "9C")),
                "R500-MELD-4", F1)
    # laying 2H off on Q-K-A
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "QH KH AH@14").layoff(0, 0, "2H")
                         .discard(0, "9C")), "R500-MELD-4", F1)
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "QH KH AH@14").layoff(0, 0, "2H@15")
                         .discard(0, "9C")), "R500-MELD-4", F1)


def test_R500_MELD_4_ace_not_both_low_and_high_and_13_max():
    flags5 = {"max_turns_per_hand": 1, **CAP1}
    # two decks: A..K of hearts (13 cards) then an ace high
    b = B(5, dealer=4)
    b.deal({0: "AH 2H 3H 4H 5H 6H 7H"}, stock="8H")
    b.draw(0).meld(0, "run", "AH 2H 3H 4H 5H 6H 7H 8H")
    assert b.hands[0] == []
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, flags5)
    # an ace played high on A..8 would make the ace both low and high
    b2 = B(5, dealer=4)
    b2.deal({0: "AH 2H 3H 4H 5H 6H 7H"}, stock="8H")
    b2.draw(0).meld(0, "run", "AH 2H 3H 4H 5H 6H 7H")
    b2.rows.append([22, 0, 0, 1, 0, 0, 0, 0])
    b2.rows.append([21, 0, 0, cid("8H"), 14, 0, 0, 0])
    b2.hands[0].remove(cid("8H"))
    b2.end(1, out=0).game_end(-1, capped=1)
    assert_rule(b2, "R500-MELD-8", flags5)


def test_R500_MELD_3_run_with_a_gap():
    h = "5H 6H 8H 9C 9D 9S 2C"
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "5H 6H 8H", lo=5).discard(0, "2C")),
                "R500-MELD-3", F1)
    # a joker fills the gap
    assert_ok(one_turn("5H 6H 8H X 9D 9S 2C",
                       lambda b: b.meld(0, "run", "5H 6H X@7 8H").discard(0, "2C")), F1)
    # wrong suit in a run
    assert_rule(one_turn("5H 6H 7D 9C 9D 9S 2C",
                         lambda b: b.meld(0, "run", "5H 6H 7D", key=2).discard(0, "2C")),
                "R500-MELD-3", F1)
    # a run of 2
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "5H 6H").discard(0, "2C")),
                "R500-MELD-3", F1)


def test_R500_MELD_5_all_joker_run_and_jokers_anywhere():
    assert_ok(one_turn("X X 7H 2C 3C 4D 5D", lambda b: b.meld(0, "run", "X@5 X@6 7H")
                       .discard(0, "2C")), F1)
    # all-joker run needs a designated suit (key): legal
    b = B(5, dealer=4)
    b.deal({0: "X X X 2C 3C 4D 9S"})
    b.draw(0).meld(0, "run", "X@8 X@9 X@10", key=1).discard(0, "9S")
    assert_ok(finish_capped(b), F1)


def test_R500_MELD_8_layoff_in_the_middle_of_a_run():
    h = "5H 6H 7H 8H X 9C 2C"
    assert_ok(one_turn(h, lambda b: b.meld(0, "run", "5H 6H 7H 8H").layoff(0, 0, "X@9")
                       .discard(0, "2C")), F1)
    assert_ok(one_turn(h, lambda b: b.meld(0, "run", "5H 6H 7H 8H").layoff(0, 0, "X@4")
                       .discard(0, "2C")), F1)
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "5H 6H 7H 8H").layoff(0, 0, "X@6")
                         .discard(0, "2C")), "R500-MELD-8", F1)
    # with a gap
    assert_rule(one_turn(h, lambda b: b.meld(0, "run", "5H 6H 7H").layoff(0, 0, "X@9")
                         .discard(0, "2C")), "R500-MELD-8", F1)
    # a pair of consecutive cards at one end, and cards at both ends in one lay-off, are fine
    assert_ok(one_turn("5H 6H 7H 8H 9H 4H 2C", lambda b: b.meld(0, "run", "5H 6H 7H")
                       .layoff(0, 0, "8H 9H").discard(0, "2C")), F1)
    assert_ok(one_turn("5H 6H 7H 8H 9H 4H 2C", lambda b: b.meld(0, "run", "5H 6H 7H")
                       .layoff(0, 0, "4H 8H").discard(0, "2C")), F1)
    # a natural card at the wrong position
    assert_rule(one_turn("5H 6H 7H 9H 2C 3C 4D", lambda b: b.meld(0, "run", "5H 6H 7H")
                         .layoff(0, 0, "9H@8").discard(0, "2C")), "R500-MELD-8", F1)


def test_T09_R500_MELD_2_sets_with_two_decks():
    flags = {"max_turns_per_hand": 1, **CAP1}

    def five(play):
        b = B(5, dealer=4)
        b.deal({0: "5D 5D 5H 5S 5C X 9C"})
        b.draw(0)
        play(b)
        return finish_capped(b)

    assert_rule(five(lambda b: b.meld(0, "set", "5D 5D 5H").discard(0, "9C")), "R500-MELD-2", flags)
    assert_ok(five(lambda b: b.meld(0, "set", "5D 5H 5S").discard(0, "9C")), flags)
    assert_ok(five(lambda b: b.meld(0, "set", "5D 5H 5S").layoff(0, 0, "5C").discard(0, "9C")),
              flags)
    assert_rule(five(lambda b: b.meld(0, "set", "5D 5H 5S").layoff(0, 0, "5C")
                     .layoff(0, 0, "5D").discard(0, "9C")), "R500-MELD-8", flags)
    assert_rule(five(lambda b: b.meld(0, "set", "5D 5H 5S").layoff(0, 0, "5D")
                     .discard(0, "9C")), "R500-MELD-2", flags)
    assert_ok(five(lambda b: b.meld(0, "set", "5D 5H X").discard(0, "9C")), flags)
    # one deck: 5D 5H X X
    assert_ok(one_turn("5D 5H X X 9C 9D 2C", lambda b: b.meld(0, "set", "5D 5H X X")
                       .discard(0, "2C")), F1)


def test_R500_MELD_1_set_of_five():
    flags = {"max_turns_per_hand": 1, **CAP1}
    b = B(5, dealer=4)
    b.deal({0: "5D 5H 5S 5C X 9C 2C"})
    b.draw(0).meld(0, "set", "5D 5H 5S 5C X").discard(0, "9C")
    assert_rule(finish_capped(b), "R500-MELD-1", flags)
    # wrong rank in a set; a set of two
    assert_rule(one_turn("5D 5H 6S 9C 9D 2C 3C", lambda b: b.meld(0, "set", "5D 5H 6S", key=5)
                         .discard(0, "2C")), "R500-MELD-1", F1)
    assert_rule(one_turn("5D 5H 6S 9C 9D 2C 3C", lambda b: b.meld(0, "set", "5D 5H")
                         .discard(0, "2C")), "R500-MELD-1", F1)


def test_R500_MELD_6_all_joker_set():
    b = B(5, dealer=4)
    b.deal({0: "X X X 9C 2C 3D 4S"})
    b.draw(0).meld(0, "set", "X X X", key=7).discard(0, "9C")
    assert_ok(finish_capped(b), F1)


def test_C_MELD_5_layoff_on_other_players_meld_credited_to_layer():
    b = B(3, dealer=2)
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 1: "8H KD QD JS 2S 3S 4S"})
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "2C")
    b.draw(1).layoff(1, 0, "8H").discard(1, "KD")
    b.end(4).game_end(-1, capped=1)
    assert b.scores[1][4] == 8
    flags = {"max_turns_per_hand": 2, **CAP1}
    assert_ok(b, flags)
    i = find(b.rows, 41, c1=0)
    bad = b.array()
    bad[i, 4] += 8  # crediting the lay-off to the meld's owner
    bad[i, 2] += 8
    bad[i, 3] += 8
    assert_rule(bad, "R500-SCORE-2", flags)
