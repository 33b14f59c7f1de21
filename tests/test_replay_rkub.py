"""Tests of the Rummikub rendering of ``rummysim replay`` (``rummysim.replay.format_trace``, which
hands game code 3 to ``rummysim.replay.rummikub``): the deal, racks and table turn by turn, jokers
with their designation, rack tiles marked ``+``, locked combinations, penalties, passes, round end,
scores and game end, on the hand-made traces of ``tests/scenarios_rkub``.
"""

from __future__ import annotations

import numpy as np

from rummysim.replay import format_trace
from rummysim.replay.rummikub import format_trace as format_rummikub
from tests.scenarios_rkub import capped, opened, t33_table, t35_game, t36_game
from tests.tracebuild_rkub import tname


def t33_played() -> str:
    b = t33_table()
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13", "k8 k9 J*")
    return format_trace(capped(b).array(), plain=True)


def test_game_code_3_goes_to_the_rummikub_decoder():
    b = capped(opened().draw())
    assert format_trace(b.array()) == format_rummikub(b.array())
    header = "Game 7 · Rummikub · 2 players · 1 round · clockwise"
    assert format_trace(b.array()).startswith(header)


def test_deal_lines():
    text = t33_played()
    assert "━━ Round 1 · 106 tiles · racks of 14 · seat 0 plays first ━━" in text
    assert "  first tiles: seat 0 b13, seat 1 o12" in text
    assert "  pool 78" in text
    rack0 = next(line for line in text.splitlines() if line.startswith("  seat 0 rack"))
    assert "b13" in rack0 and "J*" in rack0 and len(rack0.split()) == 3 + 14


def test_initial_meld_and_table_lines():
    lines = t33_played().splitlines()
    assert "    initial meld worth 42, 6 tiles:" in lines
    assert "      #1 group of 3s: +r3 +k3 +J*(o3)" in lines
    assert "      #1 group of 3s, locked, was #1: r3 k3 J*(o3)" in lines


def test_joker_retrieval_lines():
    text = t33_played()
    assert "    table   (3 rack tile(s) played, marked +):" in text
    assert "      #1 group of 3s, locked, was #1: r3 k3 +o3" in text
    assert "      #3 run k8-k10: +k8 +k9 J*(k10)" in text


def test_racks_follow_the_plays_and_draws():
    b = t33_table()
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13", "k8 k9 J*")
    text = format_trace(capped(b).array(), plain=True)
    for seat in (0, 1):
        held = " ".join(sorted((tname(t) for t in b.racks[seat]),
                               key=lambda s: ("krob".index(s[0]), int(s[1:]))))
        assert f"    seat {seat} holds {held}" in text


def test_round_end_scores_and_game_end():
    text = format_trace(t35_game().close(1, 0).array())
    assert "  Round end after 3 turns: seat 0 played the last tile and wins the round (RKUB-END-1)" \
        in text
    assert "    seat 1 holds k5 r12 🃏" in text
    assert "    seat 1  rack   47  score   -47  total   -47" in text
    assert text.rstrip().endswith("final totals: seat 0 50, seat 1 -47, seat 2 -3")
    assert "Game over after 1 round(s): seat 0 wins" in text


def test_passes_and_penalties():
    text = format_trace(t36_game().close(2).array(), plain=True)
    assert text.count("    pass    (the pool is empty)") == 3
    assert "3 consecutive turns on an empty pool without a play (RKUB-END-2)" in text
    b = opened({"rkub_invalid_turn": "penalty_draw3"}, p0="r13")
    b.attempt(0, "b11 b12 b13 +r13", "k11 k12 k13")
    text = format_trace(capped(b).array(), plain=True)
    assert "    attempt (an invalid table, 1 rack tile(s)):" in text
    assert "    penalty the attempt is undone; draws 3 tile(s)" in text
    assert "r13" in next(line for line in text.splitlines() if line.startswith("    seat 0 holds"))


def test_never_raises_on_a_broken_trace():
    a = capped(opened().draw()).array()
    broken = a.copy()
    broken[5:9, 1:] = 999  # DECK positions out of range: ignored
    broken[30, 0] = 77  # not a record kind
    broken[40, 1:] = 999  # a record with nonsense columns
    text = format_trace(broken)
    assert "??" in text and text.startswith("Game 7 · Rummikub")
    assert format_trace(a[:40]).endswith("\n")
    assert format_rummikub(np.zeros((0, 8), np.int32)) == "\n"
    assert format_rummikub("not a trace").startswith("(cannot read trace")
