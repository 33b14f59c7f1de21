"""Tests of the independent checker (rummysim.validate.rum500) for Partnership 500 rum
(V500-PARTNER, RULES.md §3), as docs/trace-format.md "Partnerships: Partnership 500 rum and Persian
rummy" records it: team lay-off rights, no rummy call on a partner's discard, V500-ADDOPP and
V500-OPEN30 with teams, team scores (TEAM_SCORE) and the team game end.

Every trace is hand made with ``tests.tracebuild_team.TB`` (four seats, team of seat s = s mod 2,
dealer 3 so seat 0 plays first); the flags are ``rummysim.Rules`` dictionaries.  For each rule a
legal trace passes and illegal variants are flagged with the rule's ID.  Persian rummy is in
``tests/test_validate_persian.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.replay import format_trace
from tests.scenarios_variations import delete
from tests.tracebuild import B, assert_ok, assert_rule, find, mutate
from tests.tracebuild_team import TB, rules_flags

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def F(turns: int = 4, hands: int = 1, **kw) -> dict:
    """Partnership 500 rum flags with a turn cap and a hand cap, plus ``kw``."""
    return rules_flags("partnership-500", max_turns_per_hand=turns, max_hands_per_game=hands, **kw)


def capped(b: TB) -> TB:
    """End the hand on the turn cap and the game on the hand cap."""
    return b.end(4).game_end(-1, capped=1)


# ============================================================================================
# V500-PARTNER-1: lay-offs
# ============================================================================================


def layoff_game(flags: dict, layers: tuple[int, ...]) -> TB:
    """Seat 0 melds 5H 6H 7H; each seat of ``layers`` lays off on it (seat 1 the 8H, an
    opponent; seat 2 the 4H, the partner)."""
    b = TB(flags, dealer=3)
    b.deal({0: "5H 6H 7H 2C 3D 9S KC", 1: "8H 2D 3C 4S 9C TD JD",
            2: "4H 2S 3S 5S 9D TC JC"}, stock="QD QS KD KS")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "QD")
    b.draw(1)
    if 1 in layers:
        b.layoff(1, 0, "8H")
    b.discard(1, "QS")
    b.draw(2)
    if 2 in layers:
        b.layoff(2, 0, "4H")
    b.discard(2, "KD")
    b.draw(3).discard(3, "KS")
    return capped(b)


def test_V500_PARTNER_1_partner_lays_off_on_partners_run_4H_on_5H_6H_7H():
    for mode in ("any", "team_only"):
        f = F(r500_partner_layoff=mode)
        assert_ok(layoff_game(f, (2,)), f)


def test_V500_PARTNER_1_team_only_refuses_8H_on_opponents_run():
    f = F(r500_partner_layoff="team_only")
    assert_rule(layoff_game(f, (1, 2)), "V500-PARTNER-1", f)
    # with `any` (the default) an opponent's meld takes lay-offs as in the base game (AMB-19)
    assert_ok(layoff_game(F(), (1, 2)), F())


def test_V500_PARTNER_1_team_only_is_the_seats_own_right_for_the_unplayable_test():
    """V500-UNPLAYABLE-1 with team_only: seat 1's last card 8H fits only seat 0's run, an
    opponent's meld, so it is unplayable for seat 1 and the discard goes out."""
    def game(flags: dict) -> TB:
        b = TB(flags, dealer=3)
        b.deal({0: "5H 6H 7H 9C TD JS QC", 1: "8H 2C 2D 2S 3C 3D 3S"}, stock="KD 2H")
        b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KD")
        b.draw(1).meld(1, "set", "2C 2D 2S 2H").meld(1, "set", "3C 3D 3S").discard(1, "8H")
        return b.end(1, out=1).game_end(-1, capped=1)

    team_only = F(r500_partner_layoff="team_only", r500_unplayable_discard=True)
    assert team_only["r500_going_out"] == "floating"  # implied (AMB-26)
    assert_ok(game(team_only), team_only)
    # with `any` seat 1 could lay 8H off on the run: it floats and the hand goes on
    anyone = F(r500_unplayable_discard=True)
    assert_rule(game(anyone), "V500-UNPLAYABLE-1", anyone)


# ============================================================================================
# Rummy calls: only the discarder's two opponents may call
# ============================================================================================


def call_game(flags: dict, caller: int) -> TB:
    """Seat 0 melds 5H 6H 7H; seat 1 discards 8H, which fits it; ``caller`` calls Rummy and lays
    8H off; play resumes left of the caller."""
    b = TB(flags, dealer=3)
    b.deal({0: "5H 6H 7H 2C 3D 9S KC", 1: "8H 2D 3C 4S 9C TD JD",
            2: "9D 2S 3S 5S 4D TC JC", 3: "9H 6C 7C 6D 7D 4C 5C"}, stock="QD QS KD KS")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "QD")
    b.draw(1).discard(1, "8H")
    b.call(caller).layoff(caller, 0, "8H").discard(caller, "9D" if caller == 2 else "9H")
    b.draw_discard(b.next)
    return capped(b)


@pytest.mark.parametrize("mode", ["pile", "top_only"])
def test_V500_RUMMY_opponent_of_the_discarder_calls_8H(mode):
    f = F(r500_call_rummy=mode)
    b = call_game(f, caller=2)
    assert b.rows[find(b.rows, 5, nth=3)][1] == 3  # left of the caller plays next
    assert_ok(b, f)


@pytest.mark.parametrize("mode", ["pile", "top_only"])
def test_V500_PARTNER_partner_of_the_discarder_may_not_call(mode):
    f = F(r500_call_rummy=mode)
    assert_rule(call_game(f, caller=3), "V500-PARTNER", f)


def test_V500_RUMMY_2_team_only_call_eligibility_uses_the_callers_own_rights():
    """Seat 1 melds 5H 6H 7H, its partner seat 3 discards 8H: the callers (seats 0 and 2) may not
    lay off on team 1's meld under team_only, so the card is not eligible for them."""
    def game(flags: dict) -> TB:
        b = TB(flags, dealer=3)
        b.deal({1: "5H 6H 7H 2C 3D 9S KC", 3: "8H 2D 3C 4S 9C TD JD",
                2: "9D 2S 3S 5S 4D TC JC"}, stock="QD QS KD KS")
        b.draw_discard(0)
        b.draw(1).meld(1, "run", "5H 6H 7H").discard(1, "QS")
        b.draw_discard(2)
        b.draw(3).discard(3, "8H")
        b.call(2).layoff(2, 0, "8H").discard(2, "9D")
        return capped(b)

    f = F(turns=5, r500_call_rummy="top_only")
    assert_ok(game(f), f)
    team_only = F(turns=5, r500_call_rummy="top_only", r500_partner_layoff="team_only")
    res = assert_rule(game(team_only), "V500-RUMMY-5", team_only)
    assert "V500-PARTNER-1" in [v.rule_id for v in res.violations]  # the lay-off itself
    pile = F(turns=5, r500_call_rummy="pile", r500_partner_layoff="team_only")
    assert_rule(game(pile), "V500-RUMMY-2", pile)


# ============================================================================================
# V500-ADDOPP with two partnerships
# ============================================================================================


def addopp_game(flags: dict, partner_lays: bool = False, bonus: dict | None = None) -> TB:
    """Seat 0 goes out with 5H 6H 7H and 8C 8D 8S 8H; opponent seat 1 lays 4H off on the run
    (scoring for no one); with ``partner_lays`` seat 2 then lays 3H off as well."""
    b = TB(flags, dealer=3)
    b.deal({0: "5H 6H 7H 8C 8D 8S 8H", 1: "4H 2C 3C 9D TD JD QD", 2: "3H 2D 4D 5D 9C TC JC"},
           stock="QC")
    b.draw(0).meld(0, "run", "5H 6H 7H").meld(0, "set", "8C 8D 8S 8H").discard(0, "QC")
    b.addopp(1, 0, "4H")
    if partner_lays:
        b.addopp(2, 0, "3H")
    return b.end(1, out=0, bonus=bonus).game_end(-1, capped=1)


def test_V500_ADDOPP_1_2_goer_collects_the_two_opponents_hands_only():
    f = F(r500_add_opponent_hand=True)
    b = addopp_game(f)
    raw = [sum(b.value_of(c) for c in b.hands[s]) for s in range(4)]
    assert b.scores[0][6] == raw[1] + raw[3]  # the partner's hand is neither added nor subtracted
    assert [r[5] for r in b.scores] == [0, 0, 0, 0]
    assert_ok(b, f)
    # ADDOPP-2 is a right to lay deadwood on the opponent's melds, also under team_only
    team_only = F(r500_add_opponent_hand=True, r500_partner_layoff="team_only")
    assert_ok(addopp_game(team_only), team_only)


def test_V500_ADDOPP_2_partner_of_the_goer_may_not_lay_off_deadwood():
    f = F(r500_add_opponent_hand=True)
    assert_rule(addopp_game(f, partner_lays=True), "V500-ADDOPP-2", f)


def test_V500_ADDOPP_1_partners_hand_added_to_the_goer_is_refused():
    f = F(r500_add_opponent_hand=True)
    b = addopp_game(f)
    partner = sum(b.value_of(c) for c in b.hands[2])
    assert_rule(addopp_game(f, bonus={0: partner}), "V500-ADDOPP-1", f)


def test_V500_ADDOPP_3_nobody_out_each_team_adds_the_opponents_remainder():
    f = F(r500_add_opponent_hand=True)

    def game(bonus: dict | None = None) -> TB:
        b = TB(f, dealer=3)
        b.deal()
        for seat in range(4):
            b.draw_discard(seat)
        return b.end(4, bonus=bonus).game_end(-1, capped=1)

    b = game()
    raw = [sum(b.value_of(c) for c in b.hands[s]) for s in range(4)]
    assert [r[6] for r in b.scores] == [raw[1], raw[2], raw[3], raw[0]]
    assert_ok(b, f)
    # "with more sides, nothing is added": wrong for two partnerships
    assert_rule(game({s: -raw[(s + 1) % 4] for s in range(4)}), "V500-ADDOPP-3", f)


# ============================================================================================
# V500-OPEN30 per player
# ============================================================================================


def open_game(flags: dict, partner_melds: bool) -> TB:
    """Seat 0 opens with KC KD KH (30); its partner seat 2 then lays KS off (10) on it, after
    opening with QC QD QH (30) in the same turn if ``partner_melds``."""
    b = TB(flags, dealer=3)
    b.deal({0: "KC KD KH 2C 3C 4D 5D", 2: "KS QC QD QH 2S 3S 4S"}, stock="9C 9D 9H 9S")
    b.draw(0).meld(0, "set", "KC KD KH").discard(0, "9C")
    b.draw_discard(1)
    b.draw(2)
    if partner_melds:
        b.meld(2, "set", "QC QD QH")
    b.layoff(2, 0, "KS").discard(2, "9H")
    b.draw_discard(3)
    return capped(b)


def test_V500_OPEN30_each_partner_opens_for_itself():
    f = F(r500_first_meld_min=30)
    assert_ok(open_game(f, partner_melds=True), f)
    # a partner's opening does not open the seat: KS alone is 10 points
    assert_rule(open_game(f, partner_melds=False), "V500-OPEN30", f)


# ============================================================================================
# V500-PARTNER-2: team scores (SCORE total_after, TEAM_SCORE)
# ============================================================================================


def test_V500_PARTNER_2_score_total_after_is_the_team_total_and_TEAM_SCORE_adds_partners():
    f = F()
    b = layoff_game(f, (2,))
    hs = [r[2] for r in b.scores]
    assert [r[3] for r in b.scores] == [hs[0] + hs[2], hs[1] + hs[3]] * 2
    rows = b.rows
    t0, t1 = find(rows, 42, c1=0), find(rows, 42, c1=1)
    assert t1 == t0 + 1 and rows[t0 - 1][0] == 41 and rows[t1 + 1][0] == 50
    assert rows[t0][2:4] == [hs[0] + hs[2]] * 2 and rows[t1][2:4] == [hs[1] + hs[3]] * 2
    assert_ok(b, f)


def test_V500_PARTNER_2_wrong_TEAM_SCORE_sum_is_refused():
    f = F()
    b = layoff_game(f, (2,))
    t0 = find(b.rows, 42, c1=0)
    assert_rule(mutate(b, t0, 2, b.rows[t0][2] + 1), "V500-PARTNER-2", f)
    assert_rule(mutate(b, t0, 3, b.rows[t0][3] - 5), "V500-PARTNER-2", f)


def test_V500_PARTNER_2_seat_total_instead_of_team_total_is_refused():
    f = F()
    b = layoff_game(f, (2,))
    s2 = find(b.rows, 41, c1=2)
    assert_rule(mutate(b, s2, 3, b.rows[s2][2]), "V500-PARTNER-2", f)


def test_V500_PARTNER_2_missing_or_misordered_TEAM_SCORE():
    f = F()
    b = layoff_game(f, (2,))
    t0 = find(b.rows, 42, c1=0)
    assert_rule(delete(b.array(), t0 + 1), "V500-PARTNER-2", f)
    a = b.array()
    a[[t0, t0 + 1]] = a[[t0 + 1, t0]]
    assert_rule(a, "TRACE-FORMAT", f)


def test_partnership_code_and_four_seats():
    f = F()
    b = layoff_game(f, (2,))
    assert b.rows[0][6] == 1
    assert_rule(mutate(b, 0, 6, 0), "TRACE-FORMAT", f)
    # the same trace without partnership flags: the code and the TEAM_SCORE records are wrong
    base = {**f, "r500_partnership": False}
    assert_rule(b, "TRACE-FORMAT", base)
    # three seats cannot play partnerships
    b3 = B(3, dealer=2, flags={})
    b3.deal()
    for seat in range(3):
        b3.draw_discard(seat)
    b3.end(4).game_end(-1, capped=1)
    assert_rule(b3, "V500-PARTNER", {**F(turns=3)}, first=False)


# ============================================================================================
# V500-PARTNER-3: the team game end
# ============================================================================================


def end_game(flags: dict, seat3_melds_aces: bool, winner: int | None = None,
             capped_: int = 0) -> TB:
    """Target 100.  Seats 0 and 2 meld KKK QQQ and JJJ TTT (team 0: 58 + 57 = 115); seat 1 goes
    out with 8S..KS AS (72); seat 3 melds AC AD AH (45) and holds 2H 3H 4C 5C (14) if
    ``seat3_melds_aces`` (team 1: 103), else holds them all (team 1: 72 - 59 = 13)."""
    b = TB(flags, dealer=3)
    b.deal({0: "KC KD KH QC QD QH 2D", 1: "8S 9S TS JS QS KS AS", 2: "JC JD JH TC TD TH 3D",
            3: "AC AD AH 2H 3H 4C 5C"}, stock="6D 7D 8D 9D 4D 5D")
    b.draw(0).meld(0, "set", "KC KD KH").meld(0, "set", "QC QD QH").discard(0, "6D")
    b.draw_discard(1)
    b.draw(2).meld(2, "set", "JC JD JH").meld(2, "set", "TC TD TH").discard(2, "8D")
    b.draw(3)
    if seat3_melds_aces:
        b.meld(3, "set", "AC AD AH")
    b.discard(3, "9D")
    b.draw_discard(0)
    b.draw(1).meld(1, "run", "8S 9S TS JS QS KS AS@14").discard(1, "5D")
    b.end(1, out=1)
    if winner is not None:
        b.game_end(winner, capped=capped_)
    return b


def test_V500_PARTNER_3_higher_team_wins_even_if_the_other_team_went_out():
    f = F(turns=100, r500_target=100)
    b = end_game(f, seat3_melds_aces=False, winner=0)
    assert b.team_totals == [115, 13]
    assert b.rows[-1][1] == 0  # GAME_END names the team
    assert_ok(b, f)
    assert_rule(end_game(f, False, winner=1), "V500-PARTNER-3", f)  # the goer's team
    assert_rule(end_game(f, False, winner=2), "V500-PARTNER-3", f)  # a seat, not the team
    # a hand dealt after the game was won
    b2 = end_game(f, False)
    b2.deal()
    assert_rule(b2, "V500-PARTNER-3", f)


def test_V500_TIE_goer_wins_per_team():
    """Both teams at the target (115 and 103): the higher team wins under `replay`, the team of
    the player who went out under `goer_wins`."""
    replay = F(turns=100, r500_target=100)
    b = end_game(replay, seat3_melds_aces=True, winner=0)
    assert b.team_totals == [115, 103]
    assert_ok(b, replay)
    goer = F(turns=100, r500_target=100, r500_tie_rule="goer_wins")
    assert_ok(end_game(goer, True, winner=1), goer)
    assert_rule(end_game(goer, True, winner=0), "V500-TIE", goer)


def test_V500_MUSTOUT_per_team():
    must = F(turns=100, hands=2, r500_target=100, r500_must_go_out_to_win=True)
    # team 1 went out and reached 103: it wins although team 0 has 115
    assert_ok(end_game(must, seat3_melds_aces=True, winner=1), must)
    assert_rule(end_game(must, True, winner=0), "V500-MUSTOUT", must)
    # team 1 went out with 13: no winner, another hand although team 0 has 115
    assert_rule(end_game(must, False, winner=0), "V500-MUSTOUT", must)


def tie_game(flags: dict, first_end: int | None = None) -> TB:
    """Target 100, no hand penalty at the stock end: both teams meld 102 points in hand 1 (ended
    by the turn cap), nothing in hand 2; the hand cap (2) ends the game."""
    b = TB(flags, dealer=3)
    b.deal({0: "KC KD KH QC QD QH 2D", 1: "JC JD JH TC TD TH 3D", 2: "9C 9D 9H 5C 5D 5H 4D",
            3: "8C 8D 8H 6C 6D 6H 7D"}, stock="AS 2S 3S 4S")
    for seat, (a, c) in enumerate((("KC KD KH", "QC QD QH"), ("JC JD JH", "TC TD TH"),
                                   ("9C 9D 9H", "5C 5D 5H"), ("8C 8D 8H", "6C 6D 6H"))):
        b.draw(seat).meld(seat, "set", a).meld(seat, "set", c).discard(seat, b.last)
    b.end(4)
    if first_end is not None:
        return b.game_end(first_end)
    b.deal()
    for _ in range(4):
        b.draw_discard()
    return b.end(4).game_end(-1, capped=1)


def test_R500_END_2_equal_team_totals_at_the_target_deal_another_hand():
    f = F(hands=2, r500_target=100, r500_stock_out_hand_penalty=False)
    b = tie_game(f)
    assert b.team_totals == [102, 102]
    assert_ok(b, f)
    assert_rule(tie_game(f, first_end=0), "R500-END-2", f)


# ============================================================================================
# Replay text
# ============================================================================================


def test_replay_text_shows_teams_and_team_scores():
    b = end_game(F(turns=100, r500_target=100), seat3_melds_aces=False, winner=0)
    text = format_trace(b.array(), plain=True)
    assert "teams team 0 (seats 0+2) v team 1 (seats 1+3)" in text
    assert "team 0 (seats 0+2)  score  +115  total   115" in text
    assert "team 0 (seats 0+2) wins" in text
    assert "??" not in text
    assert isinstance(format_trace(np.array(b.rows[:-3], np.int32)), str)
