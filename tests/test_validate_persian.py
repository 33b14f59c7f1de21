"""Tests of the independent checker (rummysim.validate.rum500) for Persian rummy (V500-PERSIAN,
RULES.md §3 and T-17), as docs/trace-format.md "Partnerships: Partnership 500 rum and Persian
rummy" records it: the 56-card pack, joker sets, doubled sets of four, the going-out bonus, exactly
two deals with the game bonus or a draw, and face values.

Every trace is hand made with ``tests.tracebuild_team.TB`` (Persian flags: four seats, team of
seat s = s mod 2, dealer 3 so seat 0 plays first); the flags are ``rummysim.Rules`` dictionaries
of the ``persian-rummy`` preset.  For each rule a legal trace passes and illegal variants are
flagged with the rule's ID.  The partnership rules Persian shares with Partnership 500 rum are in
``tests/test_validate_partnership.py``.
"""

from __future__ import annotations

import pytest

from rummysim.replay import format_trace
from rummysim.validate import validate_trace
from tests.tracebuild import assert_ok, assert_rule, find, mutate
from tests.tracebuild_team import TB, rules_flags

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def P(turns: int = 4, hands: int = 1, **kw) -> dict:
    """Persian rummy flags with a turn cap and a hand cap, plus ``kw``."""
    return rules_flags("persian-rummy", max_turns_per_hand=turns, max_hands_per_game=hands, **kw)


def capped(b: TB) -> TB:
    return b.end(4).game_end(-1, capped=1)


def seat_tv(b: TB, seat: int) -> int:
    return b.scores[seat][4]


# ============================================================================================
# V500-PERSIAN-1: the pack; V500-PERSIAN-5: no target
# ============================================================================================


def quiet_hand(flags: dict) -> TB:
    """One hand of four stock draws and discards, ended by the turn cap."""
    b = TB(flags, dealer=3)
    b.deal()
    for seat in range(4):
        b.draw_discard(seat)
    return capped(b)


def test_V500_PERSIAN_1_pack_of_56_cards_with_4_jokers_dealt_7_each():
    f = P()
    b = quiet_hand(f)
    hs = b.rows[find(b.rows, 2)]
    assert hs[3:5] == [56, 7]
    assert b.rows[0][4:7] == [0, 0, 2]  # target column 0, game code 0, partnership code 2
    assert_ok(b, f)
    # r500_target and r500_jokers_per_deck are replaced by Persian's two deals and pack
    assert_ok(b, {**f, "r500_target": 1000, "r500_jokers_per_deck": 0})


def test_V500_PERSIAN_1_a_54_card_pack_is_refused():
    f = P()
    b = TB(f, dealer=3)
    b.pack = lambda: TB(rules_flags("partnership-500")).pack()  # 52 cards and 2 jokers
    b.deal()
    for seat in range(4):
        b.draw_discard(seat)
    assert_rule(capped(b), "V500-PERSIAN-1", f)


def test_V500_PERSIAN_5_target_column_is_0():
    f = P()
    assert_rule(mutate(quiet_hand(f), 0, 4, 500), "V500-PERSIAN-5", f)


# ============================================================================================
# V500-PERSIAN-2: jokers only in joker sets, worth 20
# ============================================================================================


def joker_game(flags: dict, seat0: str = "X X X 5C 7D 9S KC", play0=None, play1=None) -> TB:
    """Seat 0 holds ``seat0`` and makes ``play0(b)`` in its first turn (default: a joker set of
    three); seat 1 holds 5H and the fourth joker unless seat 0 has it, and makes ``play1(b)``."""
    b = TB(flags, dealer=3)
    seat1 = ("" if seat0.split().count("X") == 4 else "X ") + "5H 8C 2D 3C 4S 9C"
    b.deal({0: seat0, 1: seat1}, stock="QD QS KD KS")
    b.draw(0)
    (play0 or (lambda b: b.joker_set(0, 3)))(b)
    b.discard(0, "QD")
    b.draw(1)
    if play1:
        play1(b)
    b.discard(1, "QS")
    b.draw_discard(2)
    b.draw_discard(3)
    return capped(b)


def test_V500_PERSIAN_2_three_jokers_60_and_the_fourth_laid_off_later_20():
    f = P()
    b = joker_game(f, play1=lambda b: b.layoff(1, 0, "X"))
    assert seat_tv(b, 0) == 60 and seat_tv(b, 1) == 20  # 80 in all (T-17)
    assert b.rows[find(b.rows, 20)][3:7] == [0, 0, 0, 3]  # set, key 0, 3 cards
    assert_ok(b, f)


def test_V500_PERSIAN_2_X_6C_6D_is_illegal_jokers_are_not_wild():
    f = P()
    b = joker_game(f, seat0="X 6C 6D 5C 7D 9S KC", play0=lambda b: b.meld(0, "set", "X 6C 6D"))
    assert_rule(b, "V500-PERSIAN-2", f)


def test_V500_PERSIAN_2_joker_in_a_run_is_illegal():
    f = P()
    b = joker_game(f, seat0="X 5D 6D 2C 7C 9S KC", play0=lambda b: b.meld(0, "run", "X@4 5D 6D"))
    assert_rule(b, "V500-PERSIAN-2", f)


def test_V500_PERSIAN_2_natural_card_in_a_joker_set_is_illegal():
    f = P()
    b = joker_game(f, seat0="X X 5D 2C 7C 9S KC",
                   play0=lambda b: b.meld(0, "set", "X X 5D", key=0))
    assert_rule(b, "V500-PERSIAN-2", f)
    # laid off on a joker set
    assert_rule(joker_game(f, play1=lambda b: b.layoff(1, 0, "5H")), "V500-PERSIAN-2", f)


def test_V500_PERSIAN_2_joker_laid_off_on_a_natural_set_is_illegal():
    f = P()
    b = joker_game(f, seat0="6H 6D 6S 5C 7D 9S KC",
                   play0=lambda b: b.meld(0, "set", "6H 6D 6S"),
                   play1=lambda b: b.layoff(1, 0, "X"))
    assert_rule(b, "V500-PERSIAN-2", f)


def test_V500_PERSIAN_2_a_joker_in_hand_counts_20():
    f = P()

    def game(hv: dict | None = None) -> TB:
        b = TB(f, dealer=3)
        b.deal({0: "X X X 5C 7D 9S KC", 1: "X 5H 6C 2D 3C 4S 9C"}, stock="QD QS KD KS")
        b.draw(0).joker_set(0, 3).discard(0, "QD")
        b.draw(1).discard(1, "QS")  # seat 1 keeps its joker
        b.draw_discard(2)
        b.draw_discard(3)
        return b.end(4, hv=hv).game_end(-1, capped=1)

    b = game()
    held = b.scores[1][5]
    assert held == 20 + 5 + 6 + 2 + 3 + 4 + 9
    assert_ok(b, f)
    assert_rule(game(hv={1: held - 5}), "V500-PERSIAN-2", f)  # the joker counted 15


def test_V500_PERSIAN_2_top_only_call_on_a_joker_needs_a_joker_set():
    """Seat 1 discards its joker; seat 2 calls it.  With seat 0's joker set on the table the
    joker is laid off as the fourth; with only a run on the table it is not eligible (a joker is
    not wild), as it would be in the base game."""
    def game(flags: dict, seat0_set: bool) -> TB:
        b = TB(flags, dealer=3)
        b.deal({0: "X X X 5H 6H 7H KC", 1: "X 2D 3C 4S 9C TD JD", 2: "9D 2S 3S 5S 4D TC JC"},
               stock="QD QS KD KS")
        b.draw(0)
        if seat0_set:
            b.joker_set(0, 3)
        else:
            b.meld(0, "run", "5H 6H 7H")
        b.discard(0, "QD")
        b.draw(1).discard(1, "X")
        b.call(2).layoff(2, 0, "X" if seat0_set else "X@8").discard(2, "9D")
        b.draw_discard(3)
        return capped(b)

    f = P(r500_call_rummy="top_only")
    assert_ok(game(f, seat0_set=True), f)
    assert_rule(game(f, seat0_set=False), "V500-RUMMY-5", f)


def test_V500_UNPLAYABLE_1_a_last_joker_with_no_joker_set_goes_out():
    """Seat 1's last card is a joker and the table holds only a run: unplayable, so it goes
    out (in the base game a joker fits any run with room, so it would float)."""
    f = P(r500_unplayable_discard=True)
    b = TB(f, dealer=3)
    b.deal({0: "5H 6H 7H 9C TD JS QC", 1: "X 2C 2D 2S 3C 3D 3S"}, stock="KD 2H")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KD")
    b.draw(1).meld(1, "set", "2C 2D 2S 2H").meld(1, "set", "3C 3D 3S").discard(1, "X")
    assert_ok(b.end(1, out=1).game_end(-1, capped=1), f)


# ============================================================================================
# V500-PERSIAN-3: a set of four laid at once scores double (AMB-21: sets only)
# ============================================================================================


def four_game(flags: dict, play, tv: dict | None = None) -> TB:
    """Seat 0 holds 6C 6D 6H 6S 3H 4H 5H and makes ``play(b)`` in its first turn; ``tv``
    overrides the table values written."""
    b = TB(flags, dealer=3)
    b.deal({0: "6C 6D 6H 6S 3H 4H 5H"}, stock="QD QS KD KS")
    b.draw(0)
    play(b)
    b.discard(0, "QD")
    for seat in (1, 2, 3):
        b.draw_discard(seat)
    return b.end(4, tv=tv).game_end(-1, capped=1)


def test_V500_PERSIAN_3_four_sixes_laid_at_once_score_48():
    f = P()
    b = four_game(f, lambda b: b.meld(0, "set", "6C 6D 6H 6S"))
    assert seat_tv(b, 0) == 48
    assert_ok(b, f)
    assert_rule(four_game(f, lambda b: b.meld(0, "set", "6C 6D 6H 6S"), tv={0: 24}),
                "V500-PERSIAN-3", f)


def test_V500_PERSIAN_3_three_sixes_and_the_fourth_laid_off_score_18_plus_6():
    f = P()

    def three_then_one(b: TB) -> None:
        b.meld(0, "set", "6C 6D 6H").layoff(0, 0, "6S")  # even in the same turn (AMB-21)

    b = four_game(f, three_then_one)
    assert seat_tv(b, 0) == 24
    assert_ok(b, f)
    assert_rule(four_game(f, three_then_one, tv={0: 48}), "V500-PERSIAN-3", f)


def test_V500_PERSIAN_3_a_run_of_four_does_not_double():
    f = P()

    def run4(b: TB) -> None:
        b.meld(0, "run", "3H 4H 5H 6H")

    assert seat_tv(four_game(f, run4), 0) == 18
    assert_ok(four_game(f, run4), f)
    assert_rule(four_game(f, run4, tv={0: 36}), "V500-PERSIAN-3", f)


def test_V500_PERSIAN_3_four_jokers_laid_at_once_score_160():
    f = P()
    b = joker_game(f, seat0="X X X X 7D 9S KC", play0=lambda b: b.joker_set(0, 4))
    assert seat_tv(b, 0) == 160
    assert_ok(b, f)


def test_V500_OPEN30_counts_a_persian_set_of_four_as_it_scores():
    """Four 6s laid at once score 48 (V500-PERSIAN-3); the opening minimum of 30 counts them as
    they score (the lenient reading: their face value is 24)."""
    f = P(r500_first_meld_min=30)
    assert_ok(four_game(f, lambda b: b.meld(0, "set", "6C 6D 6H 6S")), f)
    assert_rule(four_game(f, lambda b: b.meld(0, "run", "3H 4H 5H 6H")), "V500-OPEN30", f)


# ============================================================================================
# V500-PERSIAN-4: +25 for going out
# ============================================================================================


def out_game(flags: dict, bonus: dict | None = None) -> TB:
    """Seat 0 goes out: 5H 6H 7H (18) and 8C 8D 8S 8H laid at once (64), discarding QC."""
    b = TB(flags, dealer=3)
    b.deal({0: "5H 6H 7H 8C 8D 8S 8H"}, stock="QC")
    b.draw(0).meld(0, "run", "5H 6H 7H").meld(0, "set", "8C 8D 8S 8H").discard(0, "QC")
    return b.end(1, out=0, bonus=bonus).game_end(-1, capped=1)


def test_V500_PERSIAN_4_going_out_earns_25():
    f = P()
    b = out_game(f)
    assert b.scores[0][4] == 82 and b.scores[0][6] == 25 and b.scores[0][2] == 107
    assert_ok(b, f)
    assert_rule(out_game(f, bonus={0: -25}), "V500-PERSIAN-4", f)
    # with the add-opponent rule the goer also collects the opponents' hands
    addopp = P(r500_add_opponent_hand=True)
    b = out_game(addopp)
    raw = [sum(b.value_of(c) for c in b.hands[s]) for s in range(4)]
    assert b.scores[0][6] == 25 + raw[1] + raw[3]
    assert_ok(b, addopp)


# ============================================================================================
# V500-PERSIAN-5: exactly two deals, the game bonus, draws
# ============================================================================================


def two_deals(flags: dict, seat1_jokers: bool, third_deal: bool = False) -> TB:
    """No hand penalty at the stock end; two hands of four turns ended by the turn cap.  If
    ``seat1_jokers`` seat 1 melds three jokers (60) in hand 1, else nobody melds (0 to 0)."""
    b = TB(flags, dealer=3)
    b.deal({1: "X X X 2D 3C 4S 9C"})
    b.draw_discard(0)
    b.draw(1)
    if seat1_jokers:
        b.joker_set(1, 3)
    b.discard(1, b.last)
    b.draw_discard(2)
    b.draw_discard(3)
    b.end(4)
    b.deal()
    for _ in range(4):
        b.draw_discard()
    b.end(4)
    return b


def PF(**kw) -> dict:
    return P(hands=200, r500_stock_out_hand_penalty=False, **kw)


def test_V500_PERSIAN_5_higher_team_gets_50_and_wins_after_two_deals():
    f = PF()
    b = two_deals(f, seat1_jokers=True).game_bonus(1).game_end(1)
    assert b.team_totals == [0, 110]
    assert b.rows[-2] == [43, 1, 50, 110, 0, 0, 0, 0]
    assert_ok(b, f)


@pytest.mark.parametrize("ending", ["no bonus", "bonus to team 0", "bonus 25", "winner 0",
                                    "winner seat 3", "two bonuses"])
def test_V500_PERSIAN_5_wrong_game_bonus_or_winner(ending):
    f = PF()
    b = two_deals(f, seat1_jokers=True)
    if ending == "no bonus":
        b.game_end(1)
    elif ending == "bonus to team 0":
        b.game_bonus(0).game_end(1)
    elif ending == "bonus 25":
        b.game_bonus(1, 25).game_end(1)
    elif ending == "winner 0":
        b.game_bonus(1).game_end(0)
    elif ending == "two bonuses":
        b.game_bonus(1).game_bonus(1).game_end(1)
    else:
        b.game_bonus(1).game_end(3)
    assert_rule(b, "V500-PERSIAN-5", f)


def test_V500_PERSIAN_5_a_third_deal_is_refused():
    f = PF()
    b = two_deals(f, seat1_jokers=True).game_bonus(1)
    b.deal()
    assert_rule(b, "V500-PERSIAN-5", f)
    b = two_deals(f, seat1_jokers=False)
    b.deal()
    assert_rule(b, "V500-PERSIAN-5", f)


def test_V500_PERSIAN_5_the_game_does_not_end_after_one_deal():
    f = PF()
    b = TB(f, dealer=3)
    b.deal()
    for seat in range(4):
        b.draw_discard(seat)
    assert_rule(b.end(4).game_end(0), "V500-PERSIAN-5", f)


def test_V500_PERSIAN_5_equal_totals_are_a_draw_winner_minus_1_mask_15():
    f = PF()
    b = two_deals(f, seat1_jokers=False).game_end(-1, mask=15)
    assert b.team_totals == [0, 0]
    assert_ok(b, f)
    assert_rule(two_deals(f, False).game_end(0), "V500-PERSIAN-5", f)  # a winner named
    assert_rule(two_deals(f, False).game_end(-1), "V500-PERSIAN-5", f)  # no tie mask
    assert_rule(two_deals(f, False).game_bonus(0).game_end(0), "V500-PERSIAN-5", f)


def test_V500_PERSIAN_5_hand_cap_before_the_second_deal():
    f = P(hands=1, r500_stock_out_hand_penalty=False)
    assert_ok(quiet_hand(f), f)


# ============================================================================================
# V500-PERSIAN-6: face values; flags
# ============================================================================================


def test_V500_PERSIAN_6_face_values_ace_low_1_ace_in_hand_15():
    f = P()

    def game(tv: dict | None = None) -> TB:
        b = TB(f, dealer=3)
        b.deal({0: "AH 2H 3H AS 7D 9S KC"}, stock="QD QS KD KS")
        b.draw(0).meld(0, "run", "AH 2H 3H").discard(0, "QD")
        for seat in (1, 2, 3):
            b.draw_discard(seat)
        return b.end(4, tv=tv).game_end(-1, capped=1)

    b = game()
    assert seat_tv(b, 0) == 6 and b.scores[0][5] == 15 + 7 + 9 + 10
    assert_ok(b, f)
    assert_rule(game(tv={0: 20}), "V500-PERSIAN-6", f)


@pytest.mark.parametrize("flag,value", [
    ("r500_card_values", "5_10_15"), ("r500_ace_value", 25), ("r500_four_aces_100", True),
    ("r500_tie_rule", "goer_wins"), ("r500_must_go_out_to_win", True), ("r500_num_decks", 2),
    ("r500_partnership", False),
])
def test_V500_PERSIAN_flags_it_fixes_raise(flag, value):
    f = {**P(), flag: value}
    if flag == "r500_ace_value":
        f["r500_ace_low_value"] = "auto"
    with pytest.raises(ValueError, match=flag):
        validate_trace(quiet_hand(P()).array(), f)


# ============================================================================================
# Replay text
# ============================================================================================


def test_replay_text_shows_the_game_bonus_and_draws():
    b = two_deals(PF(), seat1_jokers=True).game_bonus(1).game_end(1)
    text = format_trace(b.array(), plain=True)
    assert "team 1 (seats 1+3) has the higher total: game bonus +50 · total 110" in text
    assert "team 1 (seats 1+3) wins" in text
    assert "target" not in text.splitlines()[0]
    assert "??" not in text
    draw = format_trace(two_deals(PF(), False).game_end(-1, mask=15).array(), plain=True)
    assert "draw, the team totals are equal" in draw
