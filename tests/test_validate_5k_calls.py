"""Tests of the independent 5000 Rummy checker (rummysim.validate.rum5000): going out
(R5K-OUT-1/2/3, T-26), the stall end (R5K-DRAW-5, T-27), rummy calls (V5K-3, V5K-4: T-28, T-29)
and floating (V5K-5, V5K-6: T-30).  Traces as in ``tests/test_validate_5k.py``.
"""

from __future__ import annotations

import pytest

from rummysim.validate.rum5000.table import card_values
from tests.scenarios_5k import F, bad, capped, check, close, insert, mutate, ok, rows_of
from tests.tracebuild import cid
from tests.tracebuild_5k import B5

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# Going out: R5K-OUT-1/2/3 (T-26)
# ============================================================================================


def test_T26_R5K_OUT_2_going_out_on_a_later_turn_scores_200():
    b = B5(2, dealer=1)
    b.deal("J", {0: "3C 4C 5C 6C", 1: "4D 9D 9H 9S 7S"}, upcard="2D",
           stock="2C 2H 2S 3D KS 8S")
    for _ in range(2):
        b.draw_discard(0).draw_discard(1)
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "KS")
    b.draw(1).meld(1, "group", "9D 9H 9S").discard(1, "8S")
    b.take(0).layoff(0, 0, "6C").discard(0, "8S")  # P0's 4th turn
    close(b, 1, out=0)
    assert b.scores[0][6] == 200
    ok(b, F())
    bad(mutate(b, rows_of(b, 41)[0], 6, 300), "R5K-OUT-2", F())


def t26_first(skip: bool, flags: dict | None = None, discard: bool = False) -> B5:
    """RULES.md T-26: P0's face-up card is 3C, the wild rank is J, the hand 3C 4C 5C 6C.  P0
    goes out on its first turn: after drawing 7C (+300), or without drawing (+500)."""
    b = B5(2, dealer=1, flags=flags)
    b.deal("J", {0: "3C 4C 5C 6C"}, stock="7C")
    if skip:
        b.nodraw(0, reason=2)
        if discard:
            b.meld(0, "seq", "3C 4C 5C").discard(0, "6C")
        else:
            b.meld(0, "seq", "3C 4C 5C 6C")
    else:
        b.draw(0).meld(0, "seq", "3C 4C 5C 6C 7C")
    return b


def test_T26_R5K_OUT_2_first_turn_after_drawing_scores_300():
    b = close(t26_first(False), 1, out=0)
    assert b.scores[0][6] == 300 and b.scores[0][2] == 325
    ok(b, F())


def test_T26_R5K_OUT_3_first_turn_without_drawing_scores_500():
    b = close(t26_first(True), 1, out=0)
    assert b.scores[0][2] == 520
    ok(b, F())
    s0 = rows_of(b, 41)[0]
    bad(mutate(mutate(b, s0, 6, 800), s0, 2, 820), "R5K-OUT-2", F())  # not cumulative (AMB-28)
    bad(mutate(mutate(b, s0, 6, 300), s0, 2, 320), "R5K-OUT-2", F())


def test_T26_R5K_OUT_3_no_discard_in_a_turn_without_draw():
    bad(close(t26_first(True, discard=True), 1, out=0), "R5K-OUT-3", F())


def test_R5K_OUT_3_only_on_the_first_turn():
    b = B5(2, dealer=1)
    b.deal("J", {0: "3C 4C 5C 6C"}, stock="2D 2S")
    b.draw_discard(0).draw_discard(1)
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C")
    bad(close(b, 1, out=0), "R5K-OUT-3", F())


def test_R5K_OUT_3_skipping_the_draw_means_going_out():
    b = B5(2, dealer=1)
    b.deal("J", {0: "4C 3C 5C 6C 9D"}, stock="2S")
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C").discard(0, "9D")  # last card discarded
    bad(close(b, 1, out=0), "R5K-OUT-3", F())
    b2 = B5(2, dealer=1)
    b2.deal("J", {0: "4C 3C 5C 6C 9D"}, stock="2S")
    b2.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C").discard(0, "9D")  # keeps 6C
    bad(capped(b2), "R5K-OUT-3", F(1))


def test_R5K_OUT_1_the_hand_ends_at_once():
    b = close(t26_first(False), 1, out=0)
    i = rows_of(b, 40)[0]
    bad(insert(b, i, [30, 0, cid("7C"), 0, 0, 0, 0, 0]), "R5K-OUT-1", F())
    bad(mutate(b, i, 1, 4), "R5K-OUT-1", F(1))


# ============================================================================================
# Stall end: R5K-DRAW-5 (T-27)
# ============================================================================================


def t27_game(turns: int = 9, meld_at: int | None = None) -> B5:
    """RULES.md T-27: 3 players, dealer 2; each turn takes only the top discard, does not meld
    it and discards another card.  If ``meld_at`` (a turn index), that turn's player P1 melds the
    card taken (2C) with 2H 2S instead."""
    b = B5(3, dealer=2)
    b.deal("K", {0: "5C 2C 3C 4C 6C 7C", 1: "5D 2H 2S 4D 6D 7D", 2: "5S 2D 3S 4S 6S 7S"},
           upcard="9H")
    for t in range(turns):
        seat = t % 3
        b.take(seat)
        if t == meld_at:
            b.meld(seat, "group", "2C 2H 2S")
        b.discard(seat, b.hands[seat][0])
    return b


def test_T27_R5K_DRAW_5_stall_ends_the_hand_after_3n_turns():
    b = close(t27_game(), 6)
    assert all(r[6] == 0 for r in b.scores)  # no going-out bonus
    assert b.scores[0][2] == -sum(card_values(13)[c] for c in b.hands[0])
    ok(b, F())


def test_R5K_DRAW_5_not_before_3n_turns():
    bad(close(t27_game(8), 6), "R5K-DRAW-5", F())


def test_R5K_DRAW_5_the_hand_must_end():
    b = t27_game(10)
    bad(capped(b), "R5K-DRAW-5", F(10))


def test_T27_R5K_DRAW_5_a_meld_of_the_card_taken_restarts_the_count():
    assert cid("2C") == t27_game(5).rows[rows_of(t27_game(5), 11)[4]][4]
    bad(close(t27_game(9, meld_at=4), 6), "R5K-DRAW-5", F())
    ok(close(t27_game(14, meld_at=4), 6), F())


def test_R5K_DRAW_5_no_bonus_at_a_stall_end():
    b = close(t27_game(), 6, bonus={0: 200})
    bad(b, "R5K-DRAW-5", F())


def test_R5K_DRAW_5_a_rummy_call_neither_counts_nor_resets():
    """Top-card rummy: P0 draws and melds 3C 4C 5C; then 9 stall turns, with P2's call on P1's
    discard 6C between the first and the second of them."""
    def game(stall_turns: int) -> B5:
        b = B5(3, dealer=2, flags={"r5k_rummy": "top_card"})
        b.deal("K", {0: "5C 3C 4C 5S 2S 3S", 1: "5D 6C 2D 3D 4D 7D", 2: "5H 2H 3H 4H 6H 7H"},
               upcard="9H", stock="8S")
        b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "8S")
        b.take(1).discard(1, "6C")
        b.call_(2).layoff(2, 0, "6C").discard(2, "2H")
        for t in range(stall_turns - 1):
            seat = (2 + t) % 3
            b.take(seat).discard(seat, b.hands[seat][0])
        return close(b, 6)
    ok(game(9), F(r5k_rummy="top_card"))
    bad(game(8), "R5K-DRAW-5", F(r5k_rummy="top_card"))


# ============================================================================================
# V5K-3: rummy with the top card (T-28)
# ============================================================================================


def t28_game(flags: dict | None = None, discard: str = "8H", caller: int = 2, play=None,
             after: int = 1, seq: str = "5H 6H 7H", p2: str = "5H 6H 7H 3C 4D 9S") -> B5:
    """RULES.md T-28: 4 players, wild K, dealer 1 (P2 first).  P2 melds ``seq``; P3 draws and
    discards; P0, not going out, discards ``discard``; ``caller`` calls and plays ``play``
    (default: adds the card to P2's sequence) and discards; then ``after`` plays a normal turn."""
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card", **(flags or {})})
    b.deal("K", {2: p2, 0: f"4S {discard} 2C 3D 9D", 1: "2D 4C 5C", 3: "3H 8S 9C 2S"},
           stock="2H 3S 4H 5S 6S 7S")
    b.draw(2).meld(2, "seq", seq).discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, discard)
    b.call_(caller)
    if play is None:
        b.layoff(caller, 0, discard)
    else:
        play(b)
    b.discard(caller, b.hands[caller][0])
    b.draw_discard(after)
    return capped(b)


def T28F(**kw) -> dict:
    return F(5, r5k_rummy="top_card", **kw)


def test_T28_V5K_3_top_card_call_then_the_in_turn_player():
    b = t28_game()
    assert b.scores[2][4] == 25  # 5H 6H 7H 8H, 8H credited to the caller
    ok(b, T28F())
    ok(t28_game(caller=1), T28F())  # the in-turn player may call too
    ok(t28_game(caller=3), T28F())


def test_V5K_3a_calls_need_the_variation_and_a_window():
    bad(t28_game(), "V5K-3a", F(5))  # r5k_rummy=off
    bad(t28_game(caller=0), "V5K-3a", T28F())  # the discarder


def test_V5K_3a_no_call_before_a_discard():
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "3C 5H 6H"}, upcard="7H")
    b.call_(2).discard(2, "3C")
    bad(capped(b), "V5K-3a", T28F(), first=False)


def test_V5K_3d_play_resumes_with_the_in_turn_player():
    bad(t28_game(after=3), "R5K-TURN-1", T28F())
    bad(t28_game(caller=3, after=0), "R5K-TURN-1", T28F())


def test_V5K_3c_exactly_one_play_with_the_card():
    bad(t28_game(play=lambda b: b.layoff(2, 0, "8H").meld(2, "group", "9S 9D 9C", key=9)),
        "V5K-3c", T28F(), first=False)
    bad(t28_game(play=lambda b: None), "V5K-3c", T28F())  # the card is kept


def test_V5K_3b_the_card_must_fit_the_table():
    res = bad(t28_game(discard="9D"), "V5K-3b", T28F())
    assert "R5K-SEQ-2" in [v.rule_id for v in res.violations]


def test_V5K_3c_only_the_card_just_discarded():
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "5H 6H 7H 3C 4D 9S", 0: "4S 8H 2C 3D 9D"}, stock="2H 3S 4H 5S 6S")
    b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, "8H")
    b.call_(2, k=len(b.pile) - 2).layoff(2, 0, "8H").discard(2, "3S")
    b.draw_discard(1)
    bad(capped(b), "V5K-3c", T28F())


def test_T28_V5K_3c_trade_the_card_for_a_matching_wild():
    b = t28_game(discard="7H", seq="5H 6H KD@7", p2="5H 6H KD 3C 4D 9S",
                 play=lambda b: b.trade(2, 0, "7H", "KD", 7))
    assert "KD" in b.hand(2)
    ok(b, T28F())


def test_T28_V5K_3c_a_discarded_wild_card_is_melded_not_traded():
    ok(t28_game(discard="KS", play=lambda b: b.layoff(2, 0, "KS@8")), T28F())
    b = t28_game(discard="KS", seq="5H 6H KD@7", p2="5H 6H KD 3C 4D 9S",
                 play=lambda b: b.trade(2, 0, "KS", "KD", 7))
    bad(b, "R5K-TRADE-2", T28F())


def test_V5K_3d_a_call_on_the_callers_discard():
    def game(second: int) -> B5:
        b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
        b.deal("K", {2: "5H 6H 7H 3C 4D 9H", 0: "4S 8H 2C 3D 9D", 1: "2D 4C 5C",
                     3: "3H 8S 9C 2S"}, stock="2H 3S 4H 5S 6S 7S")
        b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
        b.draw(3).discard(3, "3S")
        b.draw(0).discard(0, "8H")
        b.call_(2).layoff(2, 0, "8H").discard(2, "9H")
        b.call_(second).layoff(second, 0, "9H").discard(second, b.hands[second][0])
        b.draw_discard(1)
        return capped(b)
    ok(game(3), F(6, r5k_rummy="top_card"))
    bad(game(2), "V5K-3a", F(6, r5k_rummy="top_card"))


def test_R5K_OUT_3_a_call_does_not_use_up_the_first_turn():
    """P1 calls on P0's 8H before its own first turn, then goes out on that first turn: +300."""
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "5H 6H 7H 3C 4D 9S", 0: "4S 8H 2C 3D 9D", 1: "2D 4C 5C",
                 3: "3H 8S 9C 2S"}, stock="2H 3S 4H 3C")
    b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, "8H")
    b.call_(1).layoff(1, 0, "8H").discard(1, "2D")
    b.draw(1).meld(1, "seq", "3C 4C 5C")
    close(b, 1, out=1)
    assert b.scores[1][6] == 300
    ok(b, T28F())


# ============================================================================================
# V5K-4: rummy with any cards (T-29)
# ============================================================================================


def t29_game(caller: int = 2, k: int = 0, first: str = "5H 6H 7H", more=None) -> B5:
    """RULES.md T-29: 4 players, wild Q (chosen here), dealer 3.  The pile becomes
    5H 9C 6H JD 7H 2S (P3 discarded 7H, P0 just discarded 2S); ``caller`` takes from index ``k``,
    melds ``first``, plays ``more`` and discards; then the in-turn player P1 plays."""
    b = B5(4, dealer=3, flags={"r5k_rummy": "any_cards"})
    b.deal("Q", {0: "3C 9C 2S 4C", 1: "3D 6H 4D 5D", 2: "4S JD 8H 3S 5S", 3: "3H 7H 8S 9S"},
           upcard="5H", stock="2C 2D 2H 4H 6C 7C")
    b.draw(0).discard(0, "9C")
    b.draw(1).discard(1, "6H")
    b.draw(2).discard(2, "JD")
    b.draw(3).discard(3, "7H")
    b.draw(0).discard(0, "2S")
    b.call_(caller, k=k).meld(caller, "seq", first)
    if more:
        more(b)
    b.discard(caller, "9C")
    b.draw_discard(1)
    return capped(b)


def T29F(**kw) -> dict:
    return F(7, r5k_rummy="any_cards", **kw)


def test_T29_V5K_4_any_cards_call_then_a_full_turn():
    ok(t29_game(), T29F())
    ok(t29_game(more=lambda b: b.meld(2, "seq", "3S 4S 5S")), T29F())


def test_T29_V5K_4a_embargo_ends_with_another_seats_turn():
    ok(t29_game(caller=3), T29F())  # P3 created the rummy, but P0's turn has ended since
    bad(t29_game(caller=0), "V5K-4a", T29F())  # P0's own turn just ended


def test_V5K_4c_first_play_uses_only_the_taken_cards():
    bad(t29_game(first="5H 6H 7H 8H"), "V5K-4c", T29F())  # 8H from hand
    bad(t29_game(first="6H 7H 8H"), "V5K-4c", T29F())  # card k (5H) not in it


def test_V5K_4b_card_k_must_be_a_rummy_card():
    res = check(t29_game(k=1, first="6H 7H 8H"), T29F())
    assert res.violations and res.violations[0].rule_id == "V5K-4b"


def test_V5K_3c_top_card_mode_takes_only_the_top_card():
    res = check(t29_game(), F(7, r5k_rummy="top_card"))
    assert res.violations and res.violations[0].rule_id == "V5K-3c"


# ============================================================================================
# V5K-5 / V5K-6: floating (T-30)
# ============================================================================================


def t30_game(flags: dict, last: str = "unmeldable") -> B5:
    """RULES.md T-30: 3 players, wild J, dealer 2.  P0 melds 5H 6H 7H, adds 4H, and discards its
    last card 8H (meldable: P0 floats).  P1 discards, P2 discards 3C.  Then P0 draws KD and
    discards it (``last="unmeldable"``), or draws 3H and adds it (``last="meld"``)."""
    b = B5(3, dealer=2, flags=flags)
    third = "3H" if last == "meld" else "KD"
    b.deal("J", {0: "3D 5H 6H 7H", 1: "2C 2D 2S", 2: "4C 4D 4S 4H 3H"},
           stock=f"8H 9C 9D 4H 9S 3C {third}")
    b.draw(0).meld(0, "seq", "5H 6H 7H").discard(0, "3D")
    b.draw_discard(1).draw_discard(2)
    b.draw(0).layoff(0, 0, "4H").discard(0, "8H")
    return b


def t30_finish(b: B5, last: str = "unmeldable") -> B5:
    b.draw_discard(1)
    b.draw(2).discard(2, "3C")
    b.draw(0)
    if last == "meld":
        b.layoff(0, 0, "3H")
    else:
        b.discard(0, "KD")
    return b


UNMELD = {"r5k_going_out": "unmeldable_discard"}
MELDALL = {"r5k_going_out": "meld_all"}


def test_T30_V5K_5_meldable_last_discard_floats_unmeldable_goes_out():
    b = t30_game(UNMELD).float_(0)
    t30_finish(b)
    close(b, 1, out=0)
    assert b.scores[0][6] == 200 and b.scores[0][4] == 20
    ok(b, F(**UNMELD))


def test_V5K_5a_hand_end_after_a_meldable_last_discard():
    bad(close(t30_game(UNMELD), 1, out=0), "V5K-5a", F(**UNMELD))


def test_V5K_5a_float_after_an_unmeldable_last_discard():
    b = t30_game(UNMELD).float_(0)
    t30_finish(b).float_(0)
    bad(capped(b), "V5K-5a", F(7, **UNMELD))


def test_T30_V5K_5c_floating_seat_may_not_take_a_dead_top_card():
    b = t30_game(UNMELD).float_(0)
    b.draw_discard(1)
    b.draw(2).discard(2, "3C")
    b.take(0).discard(0, "3C")
    bad(close(b, 1, out=0), "V5K-5c", F(**UNMELD))


def test_V5K_5c_floating_seat_may_take_a_top_card_it_can_add():
    b = t30_game(UNMELD).float_(0)
    b.draw_discard(1)
    b.draw(2).discard(2, "3H")  # fits below P0's 4H 5H 6H 7H
    b.take(0).layoff(0, 0, "3H").float_(0)
    ok(capped(b), F(7, **UNMELD))


def test_V5K_5b_melding_the_last_card_floats():
    b = t30_game(UNMELD, last="meld").float_(0)
    t30_finish(b, last="meld").float_(0)
    ok(capped(b), F(7, **UNMELD))
    b2 = t30_game(UNMELD, last="meld").float_(0)
    t30_finish(b2, last="meld")
    bad(close(b2, 1, out=0), "V5K-5b", F(**UNMELD))


def test_T30_V5K_6_meld_all_discarding_the_last_card_floats():
    b = t30_game(MELDALL, last="unmeldable").float_(0)
    t30_finish(b).float_(0)
    ok(capped(b), F(7, **MELDALL))
    b2 = t30_game(MELDALL).float_(0)
    t30_finish(b2)
    bad(close(b2, 1, out=0), "V5K-6", F(**MELDALL))


def test_T30_V5K_6_meld_all_going_out_by_melding_the_last_card():
    b = t30_game(MELDALL, last="meld").float_(0)
    t30_finish(b, last="meld")
    close(b, 1, out=0)
    assert b.scores[0][6] == 200
    ok(b, F(**MELDALL))


def test_R5K_OUT_1_no_floating_without_the_variations():
    bad(capped(t30_game({}).float_(0)), "R5K-OUT-1", F(4))


def test_V5K_5b_float_only_with_zero_cards():
    b = t30_game(UNMELD)
    i = rows_of(b, 30)[0]
    bad(insert(b, i + 1, [31, 0, 0, 0, 0, 0, 0, 0]), "V5K-5b", F(4, **UNMELD))
