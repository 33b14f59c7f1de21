"""Tests of the independent 5000 Rummy checker (rummysim.validate.rum5000): dispatch and flags,
the deal, values and scores, sequences, joins, trades and groups.

Every trace is hand made with ``tests/tracebuild_5k.B5`` from readable card strings.  For each
rule there is a legal trace (no violation) and illegal variants flagged with the expected rule ID
(normally the first violation).  RULES.md §10 scenarios T-20 .. T-31 are played as written, with
the cards marked "chosen here" where the scenario leaves them open; going out, stalls, rummy calls
and floating are in ``tests/test_validate_5k_calls.py``, the other variations, game end, draws,
the first turn, the end of the stock and card conservation in
``tests/test_validate_5k_variations.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.rules import Rules
from rummysim.validate import validate_trace
from rummysim.validate.rum5000.table import card_values
from tests.scenarios_5k import (
    F,
    bad,
    capped,
    check,
    close,
    insert,
    mutate,
    ok,
    rows_of,
    short_hand,
    t20_game,
    t21_game,
    t22_game,
)
from tests.tracebuild import cid
from tests.tracebuild_5k import B5, GAME

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def delete(a: B5 | np.ndarray, *idx: int) -> np.ndarray:
    arr = a.array() if isinstance(a, B5) else a
    return np.delete(arr, list(idx), axis=0)


# ============================================================================================
# Dispatch and flags
# ============================================================================================


def test_short_hand_accepted_with_and_without_flags():
    b = close(short_hand(), 1, out=0)
    assert b.scores[0][2] == 200 + 20 and b.scores[1][2] == 30 - 10
    ok(b, F())
    # flags without a game: GAME_START game code 2 selects the 5000 checker
    res = validate_trace(b.array(), {"max_hands_per_game": 1})
    assert res.violations == [] and res.games == 1 and res.actions_checked > 10


def test_flags_from_Rules_as_dict_are_accepted():
    flags = Rules(game="5000-rummy").as_dict()
    flags["max_hands_per_game"] = 1
    ok(close(short_hand(), 1, out=0), flags)


@pytest.mark.parametrize("flag,value", [
    ("r500_target", 1000), ("std_game_hands", 3), ("rkub_rounds", 2), ("r5k_rummy", "pile"),
    ("no_such_flag", 1), ("r5k_target", 0),
])
def test_flags_not_checked_raise(flag, value):
    with pytest.raises(ValueError, match=flag):
        validate_trace(close(short_hand(), 1, out=0).array(), {**GAME, flag: value})


def test_stakes_payoff_flag_does_not_change_play():
    ok(close(short_hand(), 1, out=0), F(r5k_payoff="game_point"))


def test_game_code_must_be_2():
    b = close(short_hand(), 1, out=0)
    bad(mutate(b, 0, 5, 0), "TRACE-FORMAT", F())


def test_500_records_are_not_5000_records():
    b = close(short_hand(), 1, out=0)
    i = rows_of(b, 5)[1]
    bad(insert(b, i + 1, [65, 1, 0, 0, 0, 0, 0, 0]), "TRACE-FORMAT", F())  # RESHUFFLE


def test_unused_columns_must_be_zero():
    b = close(short_hand(), 1, out=0)
    bad(mutate(b, rows_of(b, 30)[0], 5, 3), "TRACE-FORMAT", F())


def test_concatenated_games():
    a = close(short_hand(), 1, out=0).array()
    res = validate_trace(np.concatenate([a, a]), F())
    assert res.violations == [] and res.games == 2


# ============================================================================================
# Deal: R5K-SETUP-*, R5K-WILD-1, R5K-DEAL-*, R5K-TURN-1 (T-20)
# ============================================================================================


def test_T20_R5K_DEAL_1_hand_size_from_face_up_card():
    b = t20_game()
    assert [(s, size) for s, _, size in b.face_ups] == [(0, 6), (1, 12), (2, 11), (3, 3)]
    ok(b, F(4))
    # 5s wild: a face-up 5D still brings 5 more cards
    b5 = t20_game(wild="5")
    assert b5.face_ups[0][2] == 6
    ok(b5, F(4))
    # a ten brings 10 more
    b10 = B5(2, dealer=1)
    b10.deal("K", {0: "TC", 1: "9D"})
    assert [size for _, _, size in b10.face_ups] == [11, 10]
    ok(capped(b10.draw_discard().draw_discard()), F(2))


def test_R5K_DEAL_1_face_up_record_must_match_the_block():
    b = t20_game()
    i = rows_of(b, 96)[1]
    bad(mutate(b, i, 3, 11), "R5K-DEAL-1", F(4))  # AS gives 12, not 11
    bad(mutate(b, i, 2, cid("KS")), "R5K-DEAL-1", F(4))
    bad(mutate(b, i, 1, 2), "TRACE-FORMAT", F(4))  # dealing order
    bad(delete(b, i), "TRACE-FORMAT", F(4))


def test_R5K_DEAL_1_blocks_follow_the_face_up_cards():
    # P0's face-up 5D and the 6th card swapped: the deal no longer matches the trace's FACE_UP
    b = t20_game()
    deck = rows_of(b, 3)[0]
    a = b.array()
    a[deck, 2], a[deck, 7] = a[deck, 7], a[deck, 2]
    res = check(a, F(4))
    assert "R5K-DEAL-1" in [v.rule_id for v in res.violations]


def test_R5K_SETUP_2_pack_is_104_cards_without_jokers():
    b = t20_game()
    deck = rows_of(b, 3)[-1]
    bad(mutate(b, deck, 3, 64), "R5K-SETUP-2", F(4))  # a joker in place of a card
    bad(mutate(b, rows_of(b, 2)[0], 3, 108), "R5K-SETUP-2", F(4))


def test_R5K_SETUP_1_two_to_five_players():
    b = t20_game()
    bad(mutate(b, 0, 1, 6), "R5K-SETUP-1", F(4))


def test_R5K_WILD_1_wild_rank_is_a_rank():
    b = t20_game()
    bad(mutate(b, rows_of(b, 2)[0], 6, 0), "R5K-WILD-1", F(4))
    bad(mutate(b, rows_of(b, 2)[0], 6, 14), "R5K-WILD-1", F(4))


def test_R5K_DEAL_3_and_R5K_TURN_1_dealer_and_first_player():
    b = t20_game()
    h = rows_of(b, 2)[0]
    bad(mutate(b, h, 2, 1), "R5K-DEAL-3", F(4))
    bad(mutate(b, h, 5, 2), "R5K-TURN-1", F(4))
    # the second seat plays out of turn
    bad(mutate(b, rows_of(b, 5)[1], 1, 2), "R5K-TURN-1", F(4))


def test_R5K_DEAL_3_dealer_moves_left_each_hand():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C", 1: "2D"})
    b.draw_discard().draw_discard()
    b.end(4)
    b.deal("K", {0: "2C", 1: "2D"})
    assert b.rows[rows_of(b, 2)[1]][2] == 0
    b.draw_discard().draw_discard()
    b.end(4).game_end(-1, capped=1)
    ok(b, F(2, hands=2))
    bad(mutate(b, rows_of(b, 2)[1], 2, 1), "R5K-DEAL-3", F(2, hands=2))


# ============================================================================================
# Values and scores: R5K-VAL-1/2, R5K-SCORE-1 (T-21)
# ============================================================================================


def test_T21_R5K_VAL_1_2_R5K_SCORE_1_card_values():
    b = close(t21_game(), 1, out=1)
    assert b.hand(0) == ["5C", "2D"]
    assert b.scores[0][2] == 420  # 100 + 200 + 200 + 10 + 5 + 10 - 100 - 5
    ok(b, F(r5k_target=400))
    ba = close(t21_game(wild="A"), 1, out=1)
    assert ba.scores[0][2] == 820  # 5 + 400 + 400 + 10 + 5 + 10 - 5 - 5
    ok(ba, F(r5k_target=400))


def test_R5K_VAL_2_wild_card_values_by_wild_rank():
    vals = card_values
    assert vals(5)[cid("5H")] == 100 and vals(5)[cid("AS")] == 200
    assert vals(12)[cid("QS")] == 200 and vals(10)[cid("TD")] == 200
    assert vals(1)[cid("AC")] == 400 and vals(1)[cid("KC")] == 10
    assert [vals(3)[cid(c)] for c in "2C 7C 8C KC".split()] == [5, 5, 10, 10]


def test_R5K_VAL_2_wild_card_scored_as_natural_is_flagged():
    b = t21_game()
    close(b, 1, out=1, tv={0: 525 - 95}, hv={0: 10})  # 5H and 5C valued 5 each
    bad(b, "R5K-VAL-2", F(r5k_target=400))


def test_R5K_SCORE_1_arithmetic():
    b = close(t21_game(), 1, out=1)
    s0 = rows_of(b, 41)[0]
    bad(mutate(b, s0, 4, 500), "R5K-SCORE-1", F(r5k_target=400))  # table value
    bad(mutate(b, s0, 2, 421), "R5K-SCORE-1", F(r5k_target=400))  # hand score
    bad(mutate(b, s0, 3, 421), "C-SCORE-3", F(r5k_target=400))  # running total


def test_R5K_GAME_2_winner_at_target():
    b = close(t21_game(), 1, out=1)
    assert b.totals == [420, 440] and b.rows[-1][1] == 1
    bad(mutate(b, len(b.rows) - 1, 1, 0), "R5K-GAME-2", F(r5k_target=400))


# ============================================================================================
# Sequences: R5K-SEQ-1/2/3 (T-22)
# ============================================================================================


@pytest.mark.parametrize("addition", ["9H", "KS@9", "4H", "9H TH", "4H 9H"])
def test_T22_R5K_SEQ_2_additions_at_the_ends(addition):
    ok(t22_game(addition), F(3))


@pytest.mark.parametrize("addition", ["8H@9", "8H", "TH", "3S@9"])
def test_T22_R5K_SEQ_2_simple_order(addition):
    # a second 8H (at 9 or inside), a gap, a natural of another suit
    bad(t22_game(addition), "R5K-SEQ-2", F(3))


def test_R5K_SEQ_2_trace_lo_column_after_an_addition():
    b = t22_game("4H")
    bad(mutate(b, rows_of(b, 22, c1=0)[0], 4, 5), "TRACE-FORMAT", F(3))


def t22_long(p1_play) -> B5:
    """RULES.md T-22, sequence limits: 2 players, wild 9 (chosen here).  P0 melds AH..JH; P1 adds
    QH KH (13 cards) and plays ``p1_play``."""
    b = B5(2, dealer=1)
    b.deal("9", {0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH 5S",
                 1: "7C QH KH AH QS KS AS 2S"}, stock="3D 4D")
    b.draw(0).meld(0, "seq", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH").discard(0, "3D")
    b.draw(1).layoff(1, 0, "QH KH")
    p1_play(b)
    b.discard(1, "4D")
    return capped(b)


def test_T22_R5K_SEQ_1_thirteen_cards_and_the_ace_above_the_K():
    ok(t22_long(lambda b: None), F(2))
    ok(t22_long(lambda b: b.meld(1, "seq", "QS KS AS@14")), F(2))
    bad(t22_long(lambda b: b.layoff(1, 0, "AH@14")), "R5K-SEQ-1", F(2))  # a 14th card
    bad(t22_long(lambda b: b.meld(1, "seq", "2S AS KS")), "R5K-SEQ-1", F(2))  # 2-A-K
    bad(t22_long(lambda b: b.meld(1, "seq", "KS AS@14 2S", lo=13)), "R5K-SEQ-1", F(2))


def test_T22_R5K_SEQ_1_a_thirteen_card_meld_goes_out():
    b = B5(2, dealer=1)
    b.deal("9", {0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"}, stock="KH")
    b.draw(0).meld(0, "seq", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    close(b, 1, out=0)
    assert b.scores[0][6] == 300  # first turn, after drawing
    ok(b, F())


def test_R5K_SEQ_1_natural_card_out_of_place_in_a_new_sequence():
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 4C 5C 6D"}, stock="2S")
    b.draw(0).meld(0, "seq", "3C 4C 6D@5").discard(0, "2S")
    bad(capped(b), "R5K-SEQ-1", F(1))


def test_R5K_PLAY_2_new_meld_needs_three_cards():
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 4C 5C 6D"}, stock="2S")
    b.draw(0).meld(0, "seq", "3C 4C").discard(0, "2S")
    bad(capped(b), "R5K-PLAY-2", F(1))


def test_R5K_WILD_4_wild_cards_as_a_regular_sequence_or_group():
    b = B5(2, dealer=1)
    b.deal("K", {0: "6C KC KD KH KS KC KD"}, stock="2S 3S")
    b.draw(0).meld(0, "seq", "KC@4 KD@5 KH@6", key="S").meld(0, "group", "KS KC KD", key=9)
    b.discard(0, "2S")
    ok(capped(b), F(1))


# ============================================================================================
# Joining: R5K-SEQ-4/5/6 (T-23)
# ============================================================================================


def t23_game() -> B5:
    """RULES.md T-23: 4 players, wild J, dealer 0.  P1 melds AH 2H 3H, P2 melds 7H 8H 9H, P3
    joins them with 4H 5H 6H; P0 then adds TH."""
    b = B5(4, dealer=0)
    b.deal("J", {1: "3C AH 2H 3H", 2: "3D 7H 8H 9H", 3: "3S 4H 5H 6H", 0: "4C TH 9S 8S 7S"},
           stock="2C 2D 2S 2H")
    b.draw(1).meld(1, "seq", "AH 2H 3H").discard(1, "2C")
    b.draw(2).meld(2, "seq", "7H 8H 9H").discard(2, "2D")
    b.draw(3).join(3, 0, 1, "4H 5H 6H").discard(3, "2S")
    b.draw(0).layoff(0, 0, "TH").discard(0, "2H")
    return capped(b)


def test_T23_R5K_SEQ_5_filling_the_gap_joins_two_sequences():
    b = t23_game()
    assert b.scores[3][4] == 15  # 4H 5H 6H credited to P3
    ok(b, F(4))


def test_T23_joined_sequence_no_longer_exists_separately():
    b = t23_game()
    i = rows_of(b, 22, c1=0)[0]
    bad(mutate(b, i, 2, 1), "TRACE-FORMAT", F(4))


def test_R5K_SEQ_5_gap_must_be_filled_exactly():
    b = B5(4, dealer=0)
    b.deal("J", {1: "3C AH 2H 3H", 2: "3D 7H 8H 9H", 3: "3S 4H 5H 6H"}, stock="2C 2D 2S")
    b.draw(1).meld(1, "seq", "AH 2H 3H").discard(1, "2C")
    b.draw(2).meld(2, "seq", "7H 8H 9H").discard(2, "2D")
    b.draw(3).join(3, 0, 1, "4H 5H").discard(3, "2S")
    bad(capped(b), "R5K-SEQ-5", F(3))


def test_R5K_SEQ_5_at_most_thirteen_cards():
    b = B5(2, dealer=1)
    b.deal("K", {1: "8C AS 2S 3S 4S 5S 6S 7S 9C", 0: "8D 8S 9S TS JS QS KS AS 9D"},
           stock="2C 2D 2H 2S")
    b.draw(0).meld(0, "seq", "8S 9S TS JS QS KS AS@14").discard(0, "2C")
    b.draw(1).meld(1, "seq", "AS 2S 3S 4S 5S 6S").discard(1, "2D")
    b.draw(0).discard(0, "2H")
    b.draw(1).join(1, 1, 0, "7S").discard(1, "2S")
    bad(capped(b), "R5K-SEQ-5", F(4))


def test_R5K_SEQ_5_only_sequences_of_one_suit():
    b = B5(2, dealer=1)
    b.deal("K", {0: "6C 5S 6S 7S 9D TD JD"}, stock="2C")
    b.draw(0).meld(0, "seq", "5S 6S 7S").meld(0, "seq", "9D TD JD").join(0, 0, 1, "")
    b.discard(0, "2C")
    bad(capped(b), "R5K-SEQ-5", F(1))


def own_join(joiner: int, wild_end: bool = False, trade: bool = False) -> B5:
    """RULES.md T-23 (second part): P1 melds 5S 6S 7S (or 5S 6S JC=W(7S)) and 8S 9S TS;
    ``joiner`` joins them without adding cards, after trading 7S for JC if ``trade``."""
    b = B5(2, dealer=0)
    seven = "JC" if wild_end else "7S"
    b.deal("J", {1: f"6C 5S 6S {seven} 8S 9S TS", 0: "3D 7S 4D"}, stock="2C 2D")
    b.draw(1).meld(1, "seq", f"5S 6S {seven}@7").meld(1, "seq", "8S 9S TS")
    if joiner == 1:
        b.join(1, 0, 1)
    b.discard(1, "2C")
    b.draw(0)
    if trade:
        b.trade(0, 0, "7S", "JC", 7)
    if joiner == 0:
        b.join(0, 0, 1)
    b.discard(0, "2D")
    return capped(b)


def test_T23_R5K_SEQ_6_joining_own_adjacent_sequences():
    ok(own_join(1), F(2))


def test_T23_R5K_SEQ_6_another_seat_cannot_join_without_cards():
    bad(own_join(0), "R5K-SEQ-6", F(2))
    bad(own_join(0, wild_end=True), "R5K-SEQ-6", F(2))


def test_R5K_SEQ_6_trading_the_end_wild_counts_as_adding():
    b = own_join(0, wild_end=True, trade=True)
    assert b.scores[0][4] == 5  # 7S credited to P0
    ok(b, F(2))


def seq4_join(added: str) -> B5:
    """R5K-SEQ-4: P0 adds ``added`` to P1's 2S 3S 4S, melds its own sequence and joins."""
    b = B5(2, dealer=0)
    b.deal("K", {1: "3C 2S 3S 4S", 0: "9D 5S 6S 7S 8S 9S TS 5D 6D 7D"}, stock="2C 2D")
    b.draw(1).meld(1, "seq", "2S 3S 4S").discard(1, "2C")
    top = int(added.split()[-1][0])
    rest = " ".join(f"{r}S" for r in "56789T"[top - 4:][:3])
    b.draw(0).layoff(0, 0, added).meld(0, "seq", rest).join(0, 0, 1).discard(0, "2D")
    return capped(b)


def test_R5K_SEQ_4_an_addition_of_three_cards_is_the_seats_sequence():
    ok(seq4_join("5S 6S 7S"), F(2))
    bad(seq4_join("5S 6S"), "R5K-SEQ-6", F(2))


# ============================================================================================
# Trading: R5K-TRADE-1/2/3, R5K-WILD-3, R5K-DRAW-3 (T-24)
# ============================================================================================


def t24_game(p1_turn, deep: bool = False) -> B5:
    """RULES.md T-24: 4 players, wild 2, dealer 1.  P2 melds 5H 6H 2C=W(7H); P3 melds the group
    9C 9D 2D=W(9) and the wild-card group 2H 2S 2C; P0 draws and discards; then P1 plays
    ``p1_turn`` after drawing (or, if ``deep``, after taking the pile from the upcard 8H)."""
    b = B5(4, dealer=1)
    b.deal("2", {2: "3D 5H 6H 2C", 3: "6S 9C 9D 2D 2H 2S 2C", 0: "3S 4S 5S 6C",
                 1: "7H 7D 9C 2S 4D 5D 8D TD"}, upcard="8H", stock="3C 4C 5C 6D")
    b.draw(2).meld(2, "seq", "5H 6H 2C@7").discard(2, "3C")
    b.draw(3).meld(3, "group", "9C 9D 2D", key=9).meld(3, "wild", "2H 2S 2C").discard(3, "4C")
    b.draw(0).discard(0, "5C")
    if deep:
        b.take(1, k=0)
    else:
        b.draw(1)
    p1_turn(b)
    b.discard(1, "4D")
    return capped(b)


def test_T24_R5K_TRADE_1_3_natural_for_wild_credited_to_trader():
    b = t24_game(lambda b: b.trade(1, 0, "7H", "2C", 7).trade(1, 1, "9C", "2D"))
    assert sorted(b.hand(1)) == sorted("7D 2S 5D 8D TD 6D 2C 2D".split())
    assert [r[4] for r in b.scores] == [0, 15, 10, 320]  # 7H + 9C to P1; P2 keeps 5H 6H
    ok(b, F(4))


def test_T24_R5K_TRADE_1_wrong_suit_rejected():
    bad(t24_game(lambda b: b.trade(1, 0, "7D", "2C", 7)), "R5K-TRADE-1", F(4))


def test_R5K_TRADE_1_group_needs_its_rank():
    bad(t24_game(lambda b: b.trade(1, 1, "8D", "2D")), "R5K-TRADE-1", F(4))


def test_T24_R5K_TRADE_2_only_natural_for_wild():
    bad(t24_game(lambda b: b.trade(1, 0, "2S", "2C", 7)), "R5K-TRADE-2", F(4))  # wild given
    bad(t24_game(lambda b: b.trade(1, 0, "7H", "6H", 6)), "R5K-TRADE-2", F(4))  # natural taken


def test_R5K_TRADE_designation_is_where_the_wild_card_sits():
    bad(t24_game(lambda b: b.trade(1, 0, "6H", "2C", 6)), "C-CARD-CONSERVATION", F(4))


def test_T24_R5K_WILD_3_wild_card_group_never_traded_from():
    bad(t24_game(lambda b: b.trade(1, 2, "9C", "2S")), "R5K-WILD-3", F(4))


def test_T24_R5K_DRAW_3_no_trade_within_draw_c():
    # the deep take of the upcard 8H: its meld comes first, trades after
    ok(t24_game(lambda b: b.layoff(1, 0, "8H").trade(1, 0, "7H", "2C", 7), deep=True), F(4))
    bad(t24_game(lambda b: b.trade(1, 0, "7H", "2C", 7).layoff(1, 0, "8H"), deep=True),
        "R5K-DRAW-3", F(4))


def test_R5K_WILD_3_wild_card_groups():
    def add(card):
        return lambda b: b.layoff(1, 2, card)
    ok(t24_game(add("2S")), F(4))  # any seat adds wild cards
    bad(t24_game(add("7D")), "R5K-WILD-3", F(4))
    b = B5(2, dealer=1)
    b.deal("2", {0: "3C 2H 2S 4D"}, stock="5C")
    b.draw(0).meld(0, "wild", "2H 2S 4D").discard(0, "5C")
    bad(capped(b), "R5K-WILD-3", F(1))


# ============================================================================================
# Groups: R5K-GROUP-1/2 (T-25)
# ============================================================================================


def t25_game(p2_play, p1_last=None, p2_last=None) -> B5:
    """RULES.md T-25: 3 players, wild 2 (chosen here), dealer 0.  P1 melds 9C 9D 9H; P2 adds 9S
    and plays ``p2_play``; P0 melds its own group 9S 2C 2D; then P1 and P2 play ``p1_last`` and
    ``p2_last``."""
    b = B5(3, dealer=0)
    b.deal("2", {1: "4C 9C 9D 9H 2S", 2: "6D 9S 9C 9D 2H 9H 4S", 0: "3C 9S 2C 2D"},
           stock="5C 5D 5H 5S 6C")
    b.draw(1).meld(1, "group", "9C 9D 9H").discard(1, "5C")
    b.draw(2).layoff(2, 0, "9S")
    p2_play(b)
    b.discard(2, "5D")
    b.draw(0).meld(0, "group", "9S 2C 2D", key=9).discard(0, "5H")
    b.draw(1)
    if p1_last:
        p1_last(b)
    b.discard(1, "5S")
    b.draw(2)
    if p2_last:
        p2_last(b)
    b.discard(2, "6C")
    return capped(b)


def test_T25_R5K_GROUP_2_one_group_or_addition_per_rank():
    ok(t25_game(lambda b: None), F(5))
    ok(t25_game(lambda b: b.layoff(2, 0, "9C")), F(5))  # the same addition grows
    bad(t25_game(lambda b: b.meld(2, "group", "9C 9D 2H", key=9)), "R5K-GROUP-2", F(5))


def test_R5K_GROUP_2_owner_adds_only_to_its_own_group():
    ok(t25_game(lambda b: None, p1_last=lambda b: b.layoff(1, 0, "2S")), F(5))
    bad(t25_game(lambda b: None, p1_last=lambda b: b.layoff(1, 1, "2S")), "R5K-GROUP-2", F(5))


def test_R5K_GROUP_2_a_trade_counts_as_an_addition():
    bad(t25_game(lambda b: None, p2_last=lambda b: b.trade(2, 1, "9C", "2C")), "R5K-GROUP-2",
        F(5))


def test_T25_R5K_GROUP_1_ten_card_group_of_nines():
    b = B5(2, dealer=1)
    b.deal("2", {0: "9C 9D 9H 9S 9C 9D 9H 9S 2H 2S"}, stock="3C")
    b.draw(0).meld(0, "group", "9C 9D 9H 9S 9C 9D 9H 9S 2H 2S").discard(0, "3C")
    close(b, 1, out=0)
    assert b.scores[0][6] == 300
    ok(b, F())


def test_R5K_GROUP_1_group_cards():
    def meld(spec, key=None):
        b = B5(2, dealer=1)
        b.deal("2", {0: "4C 9C 9D 8H 2H"}, stock="3C")
        b.draw(0).meld(0, "group", spec, key=key).discard(0, "3C")
        return capped(b)
    ok(meld("9C 9D 2H"), F(1))
    bad(meld("9C 9D 8H"), "R5K-GROUP-1", F(1))
    bad(meld("9C 2H", key=9), "R5K-PLAY-2", F(1))
    bad(meld("2H 9C 9D", key=2), "R5K-GROUP-1", F(1))  # designated with the wild rank
