"""Tests of the independent 5000 Rummy checker (rummysim.validate.rum5000) for Persian 5000 (V5K-9,
RULES.md §5), as docs/trace-format.md "Persian 5000" records it: one meld area per partnership
(R5K-GROUP-2 per partnership, joins of the partnership's own sequences), no rummy call on a
partner's discard, Michigan per team, team scores (TEAM_SCORE) and the team game end.

Every trace is hand made with ``tests.tracebuild_team.TB5`` (four seats, team of seat s = s mod 2,
dealer 3 so seat 0 plays first; the wild rank is K, so the other cards are natural); the plain
5000 Rummy comparisons use ``tests.tracebuild_5k.B5``.  The flags are ``rummysim.Rules``
dictionaries of the ``5000-rummy`` preset.
"""

from __future__ import annotations

import pytest

from rummysim.replay import format_trace
from tests.scenarios_5k import bad as assert_rule
from tests.scenarios_5k import mutate
from tests.scenarios_5k import ok as assert_ok
from tests.tracebuild import find
from tests.tracebuild_5k import B5
from tests.tracebuild_5k import value as value_5k
from tests.tracebuild_team import TB5, rules_flags

pytestmark = pytest.mark.usefixtures("paranoid_validator")

WILD = "K"


def P5(turns: int = 4, hands: int = 1, persian: bool = True, **kw) -> dict:
    """5000 Rummy flags (Persian 5000 unless ``persian`` is false) with turn and hand caps."""
    return rules_flags("5000-rummy", r5k_persian=persian, max_turns_per_hand=turns,
                       max_hands_per_game=hands, **kw)


def builder(flags: dict) -> B5:
    return TB5(flags, dealer=3) if flags["r5k_persian"] else B5(4, dealer=3, flags=flags)


def capped(b: B5) -> B5:
    return b.end(4).game_end(-1, capped=1)


# ============================================================================================
# R5K-GROUP-2 per partnership
# ============================================================================================


def partner_sevens(flags: dict, creates: bool) -> B5:
    """Seat 0 melds 7C 7D 7H; its partner seat 2 then creates a group 7S 7S 7H of its own
    (``creates``) or adds the three cards to seat 0's group."""
    b = builder(flags)
    b.deal(WILD, {0: "3C 7C 7D 7H", 2: "3D 7S 7S 7H"}, stock="9C 9D 9H 9S")
    b.draw(0).meld(0, "group", "7C 7D 7H").discard(0, "9C")
    b.draw_discard(1)
    b.draw(2)
    if creates:
        b.meld(2, "group", "7S 7S 7H")
    else:
        b.layoff(2, 0, "7S 7S 7H")
    b.discard(2, "9H")
    b.draw_discard(3)
    return capped(b)


def test_V5K_9_R5K_GROUP_2_partner_adds_to_the_partnerships_group_of_7s():
    f = P5()
    assert_ok(partner_sevens(f, creates=False), f)
    assert_ok(partner_sevens(P5(persian=False), creates=False), P5(persian=False))


def test_V5K_9_R5K_GROUP_2_second_group_of_a_rank_by_the_partner_is_refused():
    f = P5()
    assert_rule(partner_sevens(f, creates=True), "R5K-GROUP-2", f)
    # in plain 5000 Rummy R5K-GROUP-2 is per player: seat 2's own group is legal
    plain = P5(persian=False)
    assert_ok(partner_sevens(plain, creates=True), plain)


def test_V5K_9_R5K_GROUP_2_after_adding_to_an_opponents_group_the_partnership_cannot_create():
    """Seat 1 melds 7C 7D 7S; seat 0 adds 7H to it (an addition to the other partnership's
    group); seat 2 then creates 7S 7H 7D: its partnership already added 7s elsewhere."""
    def game(flags: dict) -> B5:
        b = builder(flags)
        b.deal(WILD, {0: "3C 7H 8C 8D", 1: "3S 7C 7D 7S", 2: "3D 7S 7H 7D"},
               stock="9C 9D 9H 9S TC")
        b.draw_discard(0)
        b.draw(1).meld(1, "group", "7C 7D 7S").discard(1, "9D")
        b.draw(2).discard(2, "9H")
        b.draw_discard(3)
        b.draw(0).layoff(0, 0, "7H").discard(0, "TC")
        b.draw(1).discard(1, b.last)
        b.draw(2).meld(2, "group", "7S 7H 7D").discard(2, b.last)
        return capped(b)

    f = P5(turns=7)
    assert_rule(game(f), "R5K-GROUP-2", f)
    plain = P5(turns=7, persian=False)
    assert_ok(game(plain), plain)


# ============================================================================================
# R5K-SEQ-4/6: a partnership's sequences are its own
# ============================================================================================


def join_game(flags: dict, joiner: int) -> B5:
    """Seat 0 melds 4H 5H 6H, seat 2 melds 7H 8H 9H; ``joiner`` (2: in the same turn; 3: the
    next turn) joins them without adding cards (R5K-SEQ-6)."""
    b = builder(flags)
    b.deal(WILD, {0: "3C 4H 5H 6H", 2: "3D 7H 8H 9H", 3: "3S 9S TS JS"}, stock="9C 9D TH TD")
    b.draw(0).meld(0, "seq", "4H 5H 6H").discard(0, "9C")
    b.draw_discard(1)
    b.draw(2).meld(2, "seq", "7H 8H 9H")
    if joiner == 2:
        b.join(2, 0, 1)
    b.discard(2, "TH")
    b.draw(3)
    if joiner == 3:
        b.join(3, 0, 1)
    b.discard(3, "TD")
    return capped(b)


def test_V5K_9_R5K_SEQ_6_join_of_a_partners_sequence_without_cards():
    f = P5()
    assert_ok(join_game(f, joiner=2), f)
    # in plain 5000 Rummy seat 0's sequence is not seat 2's own
    plain = P5(persian=False)
    assert_rule(join_game(plain, joiner=2), "R5K-SEQ-6", plain)


def test_V5K_9_R5K_SEQ_6_join_of_the_opponents_sequences_is_refused():
    f = P5()
    assert_rule(join_game(f, joiner=3), "R5K-SEQ-6", f)


# ============================================================================================
# Rummy calls: not on a partner's discard
# ============================================================================================


def call_game(flags: dict, caller: int) -> B5:
    """Seat 0 melds 4H 5H 6H; seat 1 discards 7H, which fits it; ``caller`` calls (top card) and
    adds 7H; the normal turn then goes to seat 2, who was next."""
    b = builder(flags)
    b.deal(WILD, {0: "3C 4H 5H 6H", 1: "3S 7H 9C TD", 2: "3D 9D TC JC", 3: "3H 9S TS JS"},
           stock="8C 8D 8S JD")
    b.draw(0).meld(0, "seq", "4H 5H 6H").discard(0, "8C")
    b.draw(1).discard(1, "7H")
    b.call_(caller).layoff(caller, 0, "7H").discard(caller, "9D" if caller == 2 else "9S")
    b.draw_discard(2)
    return capped(b)


def test_V5K_9_opponent_of_the_discarder_calls_rummy():
    f = P5(r5k_rummy="top_card")
    b = call_game(f, caller=2)
    assert b.rows[find(b.rows, 5, nth=2)][5] == 1
    assert_ok(b, f)


def test_V5K_9_partner_of_the_discarder_may_not_call():
    f = P5(r5k_rummy="top_card")
    assert_rule(call_game(f, caller=3), "V5K-9", f)
    plain = P5(persian=False, r5k_rummy="top_card")
    assert_ok(call_game(plain, caller=3), plain)
    anycards = P5(r5k_rummy="any_cards")
    assert_rule(call_game(anycards, caller=3), "V5K-9", anycards)


# ============================================================================================
# V5K-7 Michigan per team; team scores
# ============================================================================================


def out_game(flags: dict, hv: dict | None = None, bonus: dict | None = None,
             winner: int | None = -1, capped_: int = 1) -> B5:
    """Seat 0 (face-up 2C, three cards) draws 9S, melds 2C 2D 2H and goes out by discarding 9S
    on its first turn (300)."""
    b = builder(flags)
    b.deal(WILD, {0: "2C 2D 2H"}, stock="9S")
    b.draw(0).meld(0, "group", "2C 2D 2H").discard(0, "9S")
    b.end(1, out=0, hv=hv, bonus=bonus)
    if winner is not None:
        b.game_end(winner, capped=capped_)
    return b


def test_V5K_9_V5K_7_michigan_goer_collects_the_two_opponents_hands():
    f = P5(r5k_michigan=True)
    b = out_game(f)
    held = [sum(value_5k(c, 13) for c in b.hands[s]) for s in range(4)]
    assert b.scores[0][6] == 300 + held[1] + held[3]
    assert [r[5] for r in b.scores] == [0, 0, held[2], 0]  # the partner's hand still counts
    assert_ok(b, f)
    assert_rule(out_game(f, bonus={0: 300 + held[1] + held[2] + held[3]}), "V5K-7", f)
    assert_rule(out_game(f, hv={2: 0}), "V5K-7", f)


def test_V5K_9_team_scores_total_after_and_TEAM_SCORE():
    f = P5()
    b = out_game(f)
    hs = [r[2] for r in b.scores]
    assert [r[3] for r in b.scores] == [hs[0] + hs[2], hs[1] + hs[3]] * 2
    t0 = find(b.rows, 42, c1=0)
    assert b.rows[t0][:4] == [42, 0, hs[0] + hs[2], hs[0] + hs[2]]
    assert_ok(b, f)
    assert_rule(mutate(b, t0, 2, b.rows[t0][2] + 5), "V5K-9", f)
    s1 = find(b.rows, 41, c1=1)
    assert_rule(mutate(b, s1, 3, b.rows[s1][2]), "V5K-9", f)


# ============================================================================================
# The team game end
# ============================================================================================


def test_V5K_9_target_2000_auto_and_the_team_wins():
    f = P5()
    b = out_game(f)
    assert b.rows[0][4:7] == [2000, 2, 3]  # target, game code 2, partnership code 3
    assert_rule(mutate(b, 0, 4, 3000), "R5K-GAME-1", f)
    f100 = P5(r5k_target=100)
    b = out_game(f100, winner=0, capped_=0)
    assert b.team_totals[0] >= 100
    assert_ok(b, f100)
    assert_rule(out_game(f100, winner=2, capped_=0), "V5K-9", f100)  # a seat, not the team


def tie_game(flags: dict, winner: int = -1, mask: int = 15) -> B5:
    """Seats 0 and 1 meld 8C 8D 8H and 9C 9D 9H (30 each) and hold 5; seats 2 and 3 hold three
    2s (15): 10 to 10 at the turn cap."""
    b = builder(flags)
    b.deal(WILD, {0: "3C 8C 8D 8H", 1: "3D 9C 9D 9H"}, stock="TC TD TH TS")
    b.draw(0).meld(0, "group", "8C 8D 8H").discard(0, "TC")
    b.draw(1).meld(1, "group", "9C 9D 9H").discard(1, "TD")
    b.draw_discard(2)
    b.draw_discard(3)
    return b.end(4).game_end(winner, mask=mask)


def test_V5K_9_equal_team_totals_are_a_tie_winner_minus_1_mask_15():
    f = P5(r5k_target=5)
    b = tie_game(f)
    assert b.team_totals == [10, 10]
    assert_ok(b, f)
    assert_rule(tie_game(f, winner=0, mask=0), "V5K-9", f)
    assert_rule(tie_game(f, mask=3), "V5K-9", f)  # every seat shares the tie


def test_V5K_9_V5K_2_must_go_out_per_team():
    f = P5(hands=2, r5k_target=5, r5k_must_go_out_to_win=True)
    assert_rule(tie_game(f), "V5K-2", f)  # nobody went out: the game goes on
    f100 = P5(r5k_target=100, r5k_must_go_out_to_win=True)
    assert_ok(out_game(f100, winner=0, capped_=0), f100)


def test_V5K_9_needs_four_seats_and_the_partnership_code():
    f = P5()
    assert_rule(mutate(out_game(f), 0, 6, 0), "TRACE-FORMAT", f)
    b = B5(3, dealer=2, flags=f)
    b.deal(WILD)
    for seat in range(3):
        b.draw_discard(seat)
    b.end(4).game_end(-1, capped=1)
    assert_rule(b, "V5K-9", f, first=False)


def test_replay_text_of_a_persian_5000_game():
    text = format_trace(tie_game(P5(r5k_target=5)).array(), plain=True)
    assert "team 1 (seats 1+3)  score   +10  total    10" in text
    assert "draw, the team totals are equal" in text
    assert "??" not in text
