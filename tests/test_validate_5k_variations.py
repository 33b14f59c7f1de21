"""Tests of the independent 5000 Rummy checker (rummysim.validate.rum5000): V5K-7 Michigan and
V5K-12 money cards (T-31), game end (R5K-GAME-1/2, V5K-2), draws (R5K-DRAW-1/2, C-TURN-4, V5K-8
Polish), the first turn (V5K-10, V5K-11), the end of the stock (R5K-STOCK-1), card conservation
and trace bookkeeping.  Traces as in ``tests/test_validate_5k.py``.
"""

from __future__ import annotations

import pytest

from rummysim.validate import ValidationResult, validate_trace
from tests.scenarios_5k import (
    F,
    bad,
    capped,
    close,
    mutate,
    ok,
    replace,
    rows_of,
    short_hand,
    t20_game,
    t21_game,
    t22_game,
)
from tests.tracebuild import cid
from tests.tracebuild_5k import B5

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# V5K-7 Michigan and V5K-12 Money Cards (T-31)
# ============================================================================================


def t31_michigan(flags: dict | None = None, out: bool = True) -> B5:
    """RULES.md T-31 (cards chosen here): 3 players, wild 4, dealer 2.  P0 melds the wild-card
    group 4C 4D 4S, P1 adds a 4D to it and keeps a wild 4C and 7C, P2 melds three 3s and keeps
    AS; P0 adds 4H (400 points credited) and goes out on its second turn discarding 3D."""
    b = B5(3, dealer=2, flags=flags)
    b.deal("4", {0: "3D 4C 4D 4S", 1: "2C 4C 7C", 2: "3S 3D 3H AS"}, stock="9H 4D 9C 4H")
    b.draw(0).meld(0, "wild", "4C 4D 4S").discard(0, "9H")
    b.draw(1).layoff(1, 0, "4D").discard(1, "2C")
    b.draw(2).meld(2, "group", "3S 3D 3H").discard(2, "9C")
    if out:
        b.draw(0).layoff(0, 0, "4H").discard(0, "3D")
    return b


MICH = {"r5k_michigan": True}


def test_T31_V5K_7_michigan_collects_the_other_hands():
    b = close(t31_michigan(MICH), 1, out=0)
    assert [r[2] for r in b.scores] == [905, 100, 15]
    assert [r[5] for r in b.scores] == [0, 0, 0]
    ok(b, F(**MICH))
    base = close(t31_michigan(), 1, out=0)
    assert [r[2] for r in base.scores] == [600, -5, -185]
    ok(base, F())


def test_V5K_7_others_subtract_nothing_and_the_goer_collects():
    b = close(t31_michigan(MICH), 1, out=0, hv={1: 105})
    bad(b, "V5K-7", F(**MICH))
    b2 = close(t31_michigan(MICH), 1, out=0, bonus={0: 200})
    bad(b2, "V5K-7", F(**MICH))


def test_V5K_7_no_one_out_is_base_scoring():
    b = capped(t31_michigan(MICH, out=False))
    assert b.scores[1][5] == 105
    ok(b, F(3, **MICH))


MONEY = {"r5k_money_cards": True}


def money_pairs(wild: str = "J") -> B5:
    """RULES.md T-31 Money Cards: P0 is credited QH 7H QH 7H (groups of 7s and Qs) and goes out
    on its first turn."""
    b = B5(3, dealer=2, flags=MONEY)
    b.deal(wild, {0: "7H 7D 7S QH QD QS 7H QH"}, stock="2C")
    b.draw(0).meld(0, "group", "7H 7D 7S 7H")
    if wild == "Q":
        b.meld(0, "wild", "QH QD QS QH")
    else:
        b.meld(0, "group", "QH QD QS QH")
    b.discard(0, "2C")
    return close(b, 1, out=0)


def test_T31_V5K_12_two_pairs_of_queen_and_seven_of_hearts():
    b = money_pairs()
    assert b.scores[0][6] == 300 + 200
    ok(b, F(**MONEY))
    bad(money_pairs().array(), "R5K-OUT-2", F())  # the same bonus without the variation


def test_V5K_12_wild_queens_are_not_money_cards():
    b = money_pairs(wild="Q")
    assert b.scores[0][6] == 300
    ok(b, F(**MONEY))


def queen_in_hand(out: bool = True) -> B5:
    """P0 melds 5H 6H 7H and QH QD QS (one money pair) and goes out on its first turn, or
    keeps a 6C; P1 holds 2C QH 3C."""
    b = B5(2, dealer=1, flags=MONEY)
    b.deal("J", {0: ("" if out else "6C ") + "5H 6H 7H QH QD QS", 1: "2C QH 3C"}, stock="2D")
    b.draw(0).meld(0, "seq", "5H 6H 7H").meld(0, "group", "QH QD QS").discard(0, "2D")
    if out:
        return close(b, 1, out=0)
    return b.draw_discard(1)


def test_T31_V5K_12_queen_of_hearts_in_hand_counts_50_when_someone_went_out():
    b = queen_in_hand()
    assert b.scores[1][5] == 60 and b.scores[0][6] == 300 + 100
    ok(b, F(**MONEY))
    s1 = rows_of(b, 41)[1]
    bad(mutate(mutate(b, s1, 5, 20), s1, 2, -20), "V5K-12", F(**MONEY))
    s0 = rows_of(b, 41)[0]
    bad(mutate(mutate(b, s0, 6, 300), s0, 2, b.scores[0][2] - 100), "V5K-12", F(**MONEY))


def test_V5K_12_queen_counts_10_when_no_one_went_out():
    b = capped(queen_in_hand(out=False))
    assert b.scores[1][5] == 20
    ok(b, F(2, **MONEY))


# ============================================================================================
# Game end: R5K-GAME-1/2, V5K-2
# ============================================================================================


def test_R5K_GAME_1_target_by_player_count():
    assert t20_game().rows[0][4] == 2000
    assert t22_game("9H").rows[0][4] == 3000
    assert short_hand().rows[0][4] == 5000
    b = t20_game()
    bad(mutate(b, 0, 4, 5000), "R5K-GAME-1", F(4))
    bad(mutate(b, 0, 4, 2000), "R5K-GAME-1", F(4, r5k_target=1500))


def tie_game() -> B5:
    """2 players, wild K, dealer 1; both meld 15 points and keep a 9 (hand cap 2 turns): 5 each,
    a tie at the target 5."""
    b = B5(2, dealer=1, flags={"r5k_target": 5})
    b.deal("K", {0: "3C 4C 5C 9S", 1: "3D 4D 5D 9H"}, stock="2S 2H")
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "2S")
    b.draw(1).meld(1, "seq", "3D 4D 5D").discard(1, "2H")
    return close(b, 4)


def test_R5K_GAME_2_shared_highest_total_is_a_tie():
    b = tie_game()
    assert b.rows[-1][1:5] == [-1, 1, 0, 3]
    ok(b, F(2, r5k_target=5))
    bad(mutate(b, len(b.rows) - 1, 1, 0), "R5K-GAME-2", F(2, r5k_target=5))
    bad(mutate(b, len(b.rows) - 1, 4, 0), "R5K-GAME-2", F(2, r5k_target=5))


def test_V5K_2_only_the_player_who_went_out_wins():
    # aces wild: P0 ends on 820, P1 (who went out) on 640; target 400
    b = t21_game(wild="A")
    b.end(1, out=1)
    assert b.totals == [820, 640]
    b.game_end(1)
    ok(b, F(r5k_target=400, r5k_must_go_out_to_win=True))
    bad(b, "R5K-GAME-2", F(r5k_target=400))  # without V5K-2 the highest total wins
    bad(mutate(b, len(b.rows) - 1, 1, 0), "V5K-2", F(r5k_target=400, r5k_must_go_out_to_win=True))


def test_V5K_2_no_one_out_means_another_hand():
    def game(stop_after_one: bool) -> B5:
        b = B5(2, dealer=1, flags={"r5k_target": 400})
        b.deal("5", {0: "7C AS AD 5H KC 8C 5C 2D", 1: "4H 9C TC JC QC"}, upcard="3S",
               stock="3D 6D 9S")
        b.draw(0).meld(0, "group", "AS AD 5H", key="A").discard(0, "3D")
        b.draw(1).meld(1, "seq", "9C TC JC QC").discard(1, "6D")
        b.draw(0).layoff(0, 1, "KC").layoff(0, 1, "8C 7C").discard(0, "9S")
        b.end(4)
        if stop_after_one:
            return b.game_end(0)
        b.deal("K", {0: "2C", 1: "2D"})
        b.draw_discard().draw_discard().draw_discard()
        return b.end(4).game_end(-1, capped=1)
    flags = F(3, hands=2, r5k_target=400, r5k_must_go_out_to_win=True)
    ok(game(False), flags)
    bad(game(True), "V5K-2", flags)
    ok(game(True), F(3, hands=2, r5k_target=400))  # base rules: P0's 420 wins


def test_ENGINE_HAND_CAP_and_turn_cap():
    b = t20_game()
    bad(b, "ENGINE-TURN-CAP", F(5))  # HAND_END 4 before the cap
    bad(b, "ENGINE-HAND-CAP", F(4, hands=2))  # GAME_END capped before the cap


# ============================================================================================
# Draws: R5K-DRAW-1/2, C-TURN-4, V5K-8 Polish
# ============================================================================================


def deep_take(first=None, skip_meld: bool = False) -> B5:
    """2 players, wild K, dealer 1; the pile becomes 8C 3S 3D; P0 takes it from the 8C (index
    0), plays ``first`` (if any), then melds 8C 9C TC (unless ``skip_meld``) and discards."""
    b = B5(2, dealer=1)
    b.deal("K", {0: "3S 9C TC 4D", 1: "2H 5S 6S"}, upcard="8C", stock="2D 3D")
    b.draw(0).discard(0, "3S")
    b.draw(1).discard(1, "3D")
    b.take(0, k=0)
    if first:
        first(b)
    if not skip_meld:
        b.meld(0, "seq", "8C 9C TC")
    b.discard(0, "3S")
    return capped(b)


def test_R5K_DRAW_1_c_deep_take_melds_the_selected_card_first():
    ok(deep_take(), F(3))
    bad(deep_take(first=lambda b: b.meld(0, "seq", "2D 3D 4D")), "C-TURN-4", F(3))
    bad(deep_take(skip_meld=True), "R5K-DRAW-1", F(3))


def test_R5K_DRAW_1_b_top_card_has_no_duty_and_may_be_discarded():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9D")
    b.take(0).discard(0, "9D")
    ok(capped(b), F(1))


def test_R5K_DRAW_1_one_draw_per_turn():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9D", stock="5D")
    b.take(0).draw(0, start=False).discard(0, "5D")
    bad(capped(b), "R5K-DRAW-1", F(1))
    b2 = B5(2, dealer=1)
    b2.deal("K", {0: "2C 3C 4C"}, upcard="9D", stock="5D")
    b2.turn(0)
    b2.discard(0, "2C")
    bad(capped(b2), "R5K-DRAW-1", F(1))


def polish_game() -> B5:
    b = B5(2, dealer=1, flags={"r5k_polish": True})
    b.deal("K", {0: "2C 3C 4C", 1: "2D 3D 4D"}, upcard="9H", stock="5C 5D")
    b.draw(0).discard(0, "2C")
    b.draw(1).discard(1, "2D")
    b.take_all(0).discard(0, "3C")
    return capped(b)


def test_V5K_8_polish_takes_the_whole_pile_without_duty():
    b = polish_game()
    assert "9H" in b.hand(0) and len(b.pile) == 1
    ok(b, F(3, r5k_polish=True))
    bad(b, "V5K-8", F(3))
    i = rows_of(b, 97)[0]
    bad(mutate(b, i, 2, 2), "TRACE-FORMAT", F(3, r5k_polish=True))


# ============================================================================================
# First turn: V5K-10 Extra Card Dealt, V5K-11 Exchanging Upcard
# ============================================================================================


EXTRA = {"r5k_first_turn": "extra_card"}
EXCH = {"r5k_first_turn": "exchange_upcard"}


def extra_game(first=None) -> B5:
    """V5K-10: 3 players, dealer 2; P0 is dealt one extra card, and its first turn only
    discards (``first`` replaces that turn); P1 takes that card, P2 draws."""
    b = B5(3, dealer=2, flags=EXTRA)
    b.deal("K", {0: "3C 4C 5C 6C 9D", 1: "2D 7D 8D"})
    if first is None:
        b.nodraw(0, reason=3).discard(0, "9D")
    else:
        first(b)
    b.take(1).discard(1, "2D")
    b.draw_discard(2)
    return capped(b)


def test_V5K_10_extra_card_and_discard_only_first_turn():
    b = extra_game()
    assert b.face_ups[0][2] == 5 and b.rows[rows_of(b, 5)[0]][4] == 0  # no upcard
    ok(b, F(3, **EXTRA))


def test_V5K_10_the_first_turn_only_discards():
    bad(extra_game(lambda b: b.draw(0).discard(0, "9D")), "V5K-10", F(3, **EXTRA))
    bad(extra_game(lambda b: b.nodraw(0, reason=3).meld(0, "seq", "3C 4C 5C").discard(0, "9D")),
        "V5K-10", F(3, **EXTRA))


def test_V5K_10_flag_and_dealing():
    b = extra_game()
    bad(b, "R5K-DEAL-1", F(3))  # without the flag the first block is one card shorter
    i = rows_of(b, 12)[0]
    bad(mutate(b, i, 2, 2), "V5K-10", F(3, **EXTRA))  # NO_DRAW 2 in the discard-only turn


def test_V5K_10_discard_only_turn_is_the_first_turn():
    """Reading: the discard-only turn is the first player's first turn (AMB-33), so its next
    turn is not a first turn for R5K-OUT-2/3."""
    b = B5(3, dealer=2, flags=EXTRA)
    b.deal("K", {0: "3C 4C 5C 6C 9D"})
    b.nodraw(0, reason=3).discard(0, "9D")
    b.draw_discard(1).draw_discard(2)
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C")
    bad(close(b, 1, out=0), "R5K-OUT-3", F(**EXTRA))


def exch_game(first) -> B5:
    """V5K-11: 3 players, dealer 2, upcard 9H; ``first`` is P0's first turn after TURN_START."""
    b = B5(3, dealer=2, flags=EXCH)
    b.deal("K", {0: "3C 4C 5C 6C", 1: "2D 7D 8D", 2: "2S 7S 8S"}, upcard="9H",
           stock="5H 5D 5S")
    b.turn(0)
    first(b)
    b.discard(0, "5H")
    b.draw_discard(1).draw_discard(2)
    return capped(b)


def test_V5K_11_a_later_seat_swaps_for_the_upcard():
    b = exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False))
    assert "9H" in b.hand(1) and b.pile[0] == cid("7D")
    ok(b, F(3, **EXCH))
    ok(exch_game(lambda b: b.exchange(2, "2S").draw(0, start=False)), F(3, **EXCH))
    ok(exch_game(lambda b: b.draw(0, start=False)), F(3, **EXCH))  # nobody swaps


def test_V5K_11_first_player_may_take_the_upcard():
    b = B5(3, dealer=2, flags=EXCH)
    b.deal("K", {0: "3C 4C 5C 6C"}, upcard="9H")
    b.take(0).discard(0, "9H")
    ok(capped(b), F(1, **EXCH))


def test_V5K_11_exchange_rules():
    bad(exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False)), "V5K-11", F(3))
    bad(exch_game(lambda b: b.exchange(1, "7D").exchange(2, "7S").draw(0, start=False)),
        "V5K-11", F(3, **EXCH))
    bad(exch_game(lambda b: b.exchange(0, "6C").draw(0, start=False)), "V5K-11", F(3, **EXCH))
    b = exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False))
    i = rows_of(b, 10)[0]
    # the first player takes the swapped-in card instead of drawing
    bad(replace(b, i, [11, 0, 0, 1, cid("7D"), 0, 0, 0]), "V5K-11", F(3, **EXCH))


# ============================================================================================
# End of stock: R5K-STOCK-1
# ============================================================================================


def stock_out() -> B5:
    """2 players, wild K, dealer 1, hands of 4: every turn draws and discards the card drawn
    until the stock (95 cards) is empty."""
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 2C 4C 9S", 1: "3D 2D 4D 9D"}, upcard="9H")
    while b.stock:
        b.draw_discard()
    return b


def idle_turn(b: B5) -> B5:
    """Take the top discard and discard another card."""
    seat = b.next
    b.take()
    return b.discard(seat, b.hands[seat][0])


def test_R5K_STOCK_1_b_declining_the_pile_ends_the_hand():
    b = stock_out().nodraw(reason=0)
    ok(close(b, 2), F())
    bad(close(stock_out().nodraw(reason=0), 3), "R5K-STOCK-1", F())


def test_R5K_STOCK_1_no_stock_draw_once_empty():
    b = stock_out()
    seat = b.turn()
    b.rows.append([10, seat, cid("9H"), 0, 0, 0, 0, 0])
    bad(b.array(), "R5K-STOCK-1", F())


def test_R5K_STOCK_1_c_n_turns_without_putting_a_card_down():
    ok(close(idle_turn(idle_turn(stock_out())), 3), F())
    bad(close(idle_turn(stock_out()), 3), "R5K-STOCK-1", F())
    bad(capped(idle_turn(idle_turn(idle_turn(stock_out())))), "R5K-STOCK-1", F(98))


def test_R5K_STOCK_1_c_putting_a_card_down_resets_the_count():
    b = stock_out()
    first = b.next
    b.take().meld(first, "seq", "2C 3C 4C" if first == 0 else "2D 3D 4D")
    b.discard(first, b.hands[first][0])
    bad(close(idle_turn(b), 3), "R5K-STOCK-1", F())
    b = stock_out()
    first = b.next
    b.take().meld(first, "seq", "2C 3C 4C" if first == 0 else "2D 3D 4D")
    b.discard(first, b.hands[first][0])
    ok(close(idle_turn(idle_turn(b)), 3), F())


def test_R5K_DRAW_1_no_draw_while_the_stock_lasts():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9H")
    b.nodraw(0, reason=0)
    bad(close(b, 2), "R5K-DRAW-1", F())


# ============================================================================================
# Card conservation and trace bookkeeping
# ============================================================================================


def test_C_CARD_CONSERVATION_cards_must_be_where_the_trace_says():
    b = close(short_hand(), 1, out=0)
    d = rows_of(b, 30)[0]
    bad(mutate(b, d, 2, cid("QD")), "C-CARD-CONSERVATION", F())  # not held
    s = rows_of(b, 10)[0]
    bad(mutate(b, s, 2, cid("QD")), "C-CARD-CONSERVATION", F())  # not the top stock card
    t = rows_of(b, 11)[0]
    bad(mutate(b, t, 4, cid("QD")), "C-CARD-CONSERVATION", F())  # not the pile card
    c = rows_of(b, 21)[0]
    bad(mutate(b, c, 3, cid("QD")), "C-CARD-CONSERVATION", F())  # melds a card not held


def test_TRACE_FORMAT_turn_bookkeeping():
    b = close(short_hand(), 1, out=0)
    t = rows_of(b, 5)[1]
    bad(mutate(b, t, 3, 50), "TRACE-FORMAT", F())  # stock size
    bad(mutate(b, t, 2, 5), "TRACE-FORMAT", F())  # turn number
    h = rows_of(b, 40)[0]
    bad(mutate(b, h, 3, 9), "TRACE-FORMAT", F())  # turns in the hand
    bad(mutate(b, h, 2, 1), "TRACE-FORMAT", F())  # out seat
    m = rows_of(b, 20)[0]
    bad(mutate(b, m, 2, 3), "TRACE-FORMAT", F())  # meld id


def test_TRACE_FORMAT_malformed_traces_never_raise():
    a = close(short_hand(), 1, out=0).array()
    for i in range(0, len(a), 3):
        for col, val in ((0, 99), (1, -5), (2, 200), (4, 70)):
            res = validate_trace(mutate(a, i, col, val), F())
            assert isinstance(res, ValidationResult)
    assert validate_trace(a[:10], F()).violations


def test_R5K_OUT_2_going_out_in_a_call_turn_scores_200():
    """Any-cards rummy, 3 players, dealer 2: the pile becomes 5H 6H 7H; P2, before its first
    normal turn, calls, melds them and 2C 3C 4C and is out.  A call turn is not a first turn."""
    b = B5(3, dealer=2, flags={"r5k_rummy": "any_cards"})
    b.deal("K", {0: "3D 6H 4D 5D", 1: "3S 7H 4S 5S", 2: "2C 3C 4C"}, upcard="5H",
           stock="2D 2S")
    b.draw(0).discard(0, "6H")
    b.draw(1).discard(1, "7H")
    b.call_(2, k=0).meld(2, "seq", "5H 6H 7H").meld(2, "seq", "2C 3C 4C")
    close(b, 1, out=2)
    assert b.scores[2][6] == 200
    ok(b, F(r5k_rummy="any_cards"))
    s2 = rows_of(b, 41)[2]
    bad(mutate(mutate(b, s2, 6, 300), s2, 2, b.scores[2][2] + 100), "R5K-OUT-2",
        F(r5k_rummy="any_cards"))
