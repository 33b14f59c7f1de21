"""Tests of the 500 Rum / Standard Rummy checker for Standard Rummy (RULES.md §7, T-37), the flags
as ``rummysim.rules.Rules.as_dict()`` produces them, robustness on malformed variation traces,
and the text replay of the variation records.  Traces as in ``tests/test_validate_variations.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummysim.validate.trace as T
from rummysim.replay import format_trace
from rummysim.validate import validate_trace
from tests.scenarios_variations import (
    ADDOPP,
    F,
    oot_game,
    run_out_stock,
    t06_game,
    t07_game,
    t10_state,
    t11_game,
    t16_game,
    t19_game,
)
from tests.tracebuild import B, assert_ok, assert_rule, cname, find, finish_capped, mutate, run

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# Standard Rummy (RULES.md §7, T-37)
# ============================================================================================

STD = {"game": "standard-rummy", "std_game_hands": 1}


def std_finish(b: B) -> B:
    """End a Standard Rummy hand on the turn cap; the 1-hand game names the highest total, or
    is a draw between the seats sharing it."""
    b.end(4)
    top = max(b.totals)
    if b.totals.count(top) == 1:
        return b.game_end(b.totals.index(top))
    return b.game_end(-1, mask=sum(1 << s for s, t in enumerate(b.totals) if t == top))


def t37_deal(flags: dict | None = None, p0: str = "7H 8H 9H TC JC QC KC", p0_draw: str = "KH") -> B:
    """RULES.md T-37: 3 players, dealer 0 (seat 1 first).  seat 1 melds down to AS KD 5C (16), seat 2 down to
    2H 2D (4); the pile is then 6C 4D 7D and seat 0 is to play."""
    b = B(3, dealer=0, flags=flags or STD)
    b.deal({1: "AS KD 5C 8D 9D TD 4D", 2: "2H 2D 3S 4S 5S 6S 7D", 0: p0}, upcard="6C",
           stock=f"JD 7S {p0_draw}")
    b.draw(1).meld(1, "run", "8D 9D TD JD").discard(1, "4D")
    b.draw(2).meld(2, "run", "3S 4S 5S 6S 7S").discard(2, "7D")
    assert [cname(c) for c in b.pile] == ["6C", "4D", "7D"]
    assert sorted(b.hand(1)) == ["5C", "AS", "KD"] and sorted(b.hand(2)) == ["2D", "2H"]
    return b


def test_T37_RSTD_OUT_1_SCORE_1_out_by_discarding():
    b = t37_deal()
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
    b.end(1, out=0).game_end(0)
    assert b.rows[0][5] == 1  # GAME_START game code: Standard Rummy
    assert [r[2] for r in b.scores] == [20, 0, 0]
    assert [r[5] for r in b.scores] == [0, 16, 4]
    assert_ok(b, STD)
    # melded cards score nothing
    i = find(b.rows, 41, c1=0)
    bad = mutate(b, i, 4, 37)
    assert_rule(bad, "RSTD-SCORE-1", STD)
    # the hand score is the bonus only (no table value, no hand value)
    j = find(b.rows, 41, c1=1)
    bad = mutate(b, j, 2, -16)
    bad[j, 3] = -16
    assert_rule(bad, "RSTD-SCORE-1", STD)
    # the game code must say Standard Rummy
    assert_rule(mutate(b, 0, 5, 0), "TRACE-FORMAT", STD)


def test_T37_RSTD_DRAW_1_only_the_top_discard():
    b = t37_deal()
    b.take(0).meld(0, "run", "TC JC QC KC").discard(0, "9H")  # 7D may be taken
    std_finish(b)
    f = {**STD, "max_turns_per_hand": 3}
    assert_ok(b, f)
    # taking from 4D is illegal
    b = t37_deal()
    b.take(0, 1).meld(0, "run", "TC JC QC KC").discard(0, "9H")
    assert_rule(std_finish(b), "RSTD-DRAW-1", f)
    # the top discard just taken may not be discarded (as R500-DISC-2)
    b = t37_deal()
    b.take(0).meld(0, "run", "TC JC QC KC").discard(0, "7D")
    assert_rule(std_finish(b), "R500-DISC-2", f)


def test_T37_RSTD_OUT_1_going_out_by_melding():
    b = t37_deal(p0_draw="6H")
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "6H 7H 8H 9H")
    b.end(1, out=0).game_end(0)
    assert_rule(b, "RSTD-OUT-1", STD)  # a discard is required by default
    assert_ok(b, {**STD, "std_going_out": "any"})


def test_RSTD_MELD_1_2_sets_and_runs():
    f = {**STD, "max_turns_per_hand": 3}
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "run", "QC KC AC@14").discard(0, "9S")  # Q-K-A: aces are low only
    assert_rule(std_finish(b), "RSTD-MELD-2", f)
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "run", "AC 2C 3C 4C").meld(0, "run", "JC QC KC").discard(0, "9S")
    assert_ok(b.end(1, out=0).game_end(0), f)
    b = t37_deal(p0="QC KC AC 2C 3C 4C 9S", p0_draw="JC")
    b.draw(0).meld(0, "set", "QC KC JC", key=12).discard(0, "9S")
    assert_rule(std_finish(b), "RSTD-MELD-1", f)


def test_RSTD_GAME_1_number_of_hands_and_winner():
    fl = {**STD, "std_game_hands": 2}
    f = {**fl, "max_turns_per_hand": 3}

    def first_hand() -> B:
        b = t37_deal(fl)
        b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
        return b.end(1, out=0)

    assert first_hand().dealer == 1  # the deal rotates left
    assert_rule(first_hand().game_end(0), "RSTD-GAME-1", f)  # after 1 of 2 hands
    b = first_hand()
    b.deal().draw_discard().draw_discard().draw_discard().end(4)
    assert [r[2] for r in b.scores] == [0, 0, 0]  # nobody out: 0 for all
    b.game_end(0)
    assert_ok(b, f)
    # a shared highest total: GAME_END names no one and the tied seats (all three, at 0)
    g = B(3, dealer=0, flags=fl)
    for _ in range(2):
        g.deal().draw_discard().draw_discard().draw_discard().end(4)
    g.game_end(-1, mask=0b111)
    assert_ok(g, f)
    h = g.array()
    h[-1, 1] = 0
    assert_rule(h, "RSTD-GAME-1", f)
    h = g.array()
    h[-1, 4] = 0  # a draw without its tied seats
    assert_rule(h, "RSTD-GAME-1", f)
    # the engine hand cap before std_game_hands: no winner, capped
    assert_rule(g, "ENGINE-HAND-CAP", {**f, "max_hands_per_game": 1})


def test_RSTD_STOCK_1_end_of_stock():
    f = {**STD, "std_end_of_stock": "end_immediately"}
    b = run_out_stock({**STD, "std_end_of_stock": "end_immediately"})
    b.end(5).game_end(-1, mask=0b111)
    scores = [r[2] for r in b.scores]
    assert scores == [0, 0, 0]
    assert_ok(b, f)
    assert_rule(b, "RSTD-STOCK-1", STD)
    g = run_out_stock(STD)  # nobody scores: a draw between the three seats
    g.nodraw().end(2).game_end(-1, mask=0b111)
    assert_ok(g, STD)
    # only the top discard may be taken at an empty stock either
    g = run_out_stock(STD)
    s = g.next
    g.take(s, 0).discard(s, g.hands[s][0]).end(4).game_end(-1, mask=0b111)
    assert_rule(g, "RSTD-DRAW-1", {**STD, "max_turns_per_hand": g.turns})


def test_RSTD_SETUP_1_pack_and_flags():
    b = B(3, dealer=2)  # a 500 Rum trace (54 cards) relabelled as Standard Rummy
    b.deal().draw_discard(0)
    finish_capped(b)
    a = b.array()
    a[0, 5] = 1
    assert_rule(a, "RSTD-SETUP-1", {**STD, "max_turns_per_hand": 1})
    with pytest.raises(ValueError):
        validate_trace(a, {**STD, "r500_call_rummy": "pile"})
    with pytest.raises(ValueError):
        validate_trace(a, {"std_going_out": "any"})  # a Standard Rummy flag in a 500 Rum game
    # 7 players is too many
    g = B(7, dealer=0, flags=STD)
    g.rows.append([2, 0, 0, 52, 7, 1, 0, 0])
    assert_rule(g, "RSTD-SETUP-1", STD)


# ============================================================================================
# Flags as sim.rules.Rules.as_dict() produces them; robustness; text replay
# ============================================================================================


def test_flags_from_rules_as_dict():
    from rummysim.rules import Rules

    # V500-BOATHOUSE expanded by Rules.with_: T-10's legal trace
    flags = {**Rules().with_(r500_boathouse=True).as_dict(), "max_turns_per_hand": 4,
             "max_hands_per_game": 1}
    b = t10_state()
    b.draw(0).discard(0, "3C")
    assert_ok(finish_capped(b), flags)
    # V500-UNPLAYABLE implies floating; T-11
    flags = {**Rules().with_(r500_unplayable_discard=True).as_dict(), "max_hands_per_game": 1}
    b = t11_game(last="9C", unplayable=True, kings=True)
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, flags)
    # V500-DIV5 implies target 100
    r = Rules().with_(r500_score_divisor=5, r500_card_values="5_10_15")
    assert r.as_dict()["r500_target"] == 100
    fl = {"r500_card_values": "5_10_15", "r500_score_divisor": 5}
    assert_ok(t16_game(0, fl), {**r.as_dict(), "max_hands_per_game": 1})
    # Standard Rummy
    std = {**Rules(game="standard-rummy").with_(std_game_hands=1).as_dict()}
    b = t37_deal()
    b.draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H").discard(0, "KH")
    assert_ok(b.end(1, out=0).game_end(0), std)
    # V500-GAMBIT is a 500 Rum variation: refused with Standard Rummy
    with pytest.raises(ValueError, match="r500_dealers_gambit"):
        validate_trace(b.array(), {**std, "r500_dealers_gambit": True})


VARIATION_TRACES = [
    (lambda: finish_capped(t06_game()), F(4, r500_call_rummy="pile")),
    (lambda: finish_capped(t06_game("layoff_only")), F(4, r500_call_rummy="layoff_only")),
    (lambda: t11_game(last="9C", unplayable=True, kings=True).end(1, out=0).game_end(-1, capped=1),
     F(r500_unplayable_discard=True)),
    (lambda: t19_game().addopp(1, 3, "8H").end(1, out=0).game_end(-1, capped=1), F(**ADDOPP)),
    (lambda: finish_capped(oot_game(seats=(1, 2))), F(2, r500_meld_out_of_turn=True)),
    (lambda: t37_deal().draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H")
     .discard(0, "KH").end(1, out=0).game_end(0), STD),
]


def reshuffle_trace() -> tuple[np.ndarray, dict]:
    b = run_out_stock({"r500_end_of_stock": "reshuffle"})
    s = b.next
    b.reshuffle()
    b.draw(s, start=False).discard(s, b.last)
    b.end(4).game_end(-1, capped=1)
    return b.array(), F(b.turns, r500_end_of_stock="reshuffle")


def test_malformed_variation_traces_never_raise(monkeypatch):
    monkeypatch.setattr(T, "CHECK_CONSERVATION_EVERY_RECORD", False)
    import random

    rng = random.Random(5)
    cases = [(make().array(), f) for make, f in VARIATION_TRACES] + [reshuffle_trace()]
    for a, f in cases:
        assert run(a, f).violations == []
        for _ in range(150):
            m = a.copy()
            for _ in range(rng.randint(1, 3)):
                r = rng.randrange(len(m))
                if rng.random() < 0.2:
                    m = np.delete(m, r, axis=0)
                    continue
                m[r, rng.randrange(8)] = rng.choice([-1, 0, 1, 2, 4, 5, 6, 7, 13, 14, 23, 24,
                                                     31, 64, 99, 2**31 - 1])
            res = run(m, f)
            assert isinstance(res.violations, list)


def test_replay_text_variation_records():
    txt = format_trace(finish_capped(t06_game()).array())
    assert "Turn 2 · seat 2 calls Rummy!" in txt
    assert "seat 2 calls Rummy! takes the top card (6♥), 1 card(s): 6♥" in txt
    b = t07_game()
    b.draw_discard(3)
    txt = format_trace(finish_capped(b).array())
    assert "seat 2 calls Rummy! takes from pile[0] (5♣), 4 card(s): 5♣ T♦ K♠ 2♦" in txt
    assert "lay off on #0 (seat 1's run ♣ 5–8, now 4 cards): 5♣" in txt
    txt = format_trace(t11_game().array())
    assert "seat 0 floats" in txt
    a, _ = reshuffle_trace()
    assert "reshuffle: 32 cards" in format_trace(a)
    txt = format_trace(finish_capped(oot_game()).array())
    assert "seat 2 out of turn: meld #1 set of 9s: 9♣ 9♦ 9♥" in txt
    u = B(3, dealer=2, flags={"r500_upcard_mode": "first_player_choice"})
    u.deal({0: "9S 2C 3C 4C 5H 6H 7H KD"}).start_pile(0, "KD").draw_discard(0)
    txt = format_trace(finish_capped(u).array())
    assert "seat 0 starts the pile with K♦" in txt and "no upcard" in txt
    assert "seat 0 dealt  2♣ 3♣ 4♣ K♦ 5♥ 6♥ 7♥ 9♠" in txt
    g = t19_game().addopp(1, 3, "8H").end(1, out=0).game_end(-1, capped=1)
    txt = format_trace(g.array())
    assert "seat 1 lays off on #3 (seat 0's run ♥ 5–8, now 4 cards), scoring for no one: 8♥" in txt
    assert "bonus   +10" in txt
    t = t37_deal().draw(0).meld(0, "run", "TC JC QC KC").meld(0, "run", "7H 8H 9H")
    t.discard(0, "KH").end(1, out=0).game_end(0)
    txt = format_trace(t.array())
    assert "Standard Rummy" in txt
    assert "seat 0  deadwood    0  collects   20  score   +20" in txt
    assert "seat 1  deadwood   16  score    +0" in txt
    s = run_out_stock({"r500_end_of_stock": "discard_until_out"})
    s.nodraw(over=True)
    assert "discard until someone is out" in format_trace(s.array())
    c = B(3, dealer=2)
    c.deal({0: "AH 2H 3H 9C 9D 9S 5C", 1: "KH QH 4H 8D"})
    c.draw(0).meld(0, "run", "AH@1 2H 3H").discard(0, c.last)
    c.draw(1).layoff(1, 0, "KH@13").layoff(1, 0, "QH@12 4H@17").discard(1, "8D")
    assert "now 6 cards): Q♥ 4♥" in format_trace(c.array())
    assert "run ♥ Q–4" in format_trace(c.array())
