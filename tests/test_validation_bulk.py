"""Thousands of kernel games replayed by the independent validator (sim/validate.py).

The validator knows only RULES.md and docs/trace-format.md; any disagreement with the kernels is a
violation naming the rule ID. Also checks that random play reaches every kind of action.
"""

from __future__ import annotations

import zlib
from collections import Counter

import numpy as np
import pytest

from kernels import layout as L
from sim.checks import traced_game, validate_run
from sim.simulate import prepare

PLAYER_COUNTS = (2, 3, 4, 5, 8)


def assert_clean(report) -> None:
    shown = "\n".join(f"game {v.game_index} action {v.action} {v.rule_id}: {v.message}" for v in report.violations[:10])
    assert report.ok, shown
    assert report.actions_checked > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_lineups_1000_games_per_player_count(players):
    report = validate_run("500-rum", players=players, lineup="random", games=1000, seed=100 + players)
    assert report.games == 1000
    assert_clean(report)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_greedy_and_mixed_lineups_200_games_per_player_count(players):
    greedy = validate_run("500-rum", players=players, lineup="greedy", games=200, seed=200 + players)
    mixed = ",".join("greedy" if s % 2 else "random" for s in range(players))
    both = validate_run("500-rum", players=players, lineup=mixed, games=100, seed=300 + players)
    assert_clean(greedy)
    assert_clean(both)


FLAG_VALUES = [
    "r500_discard_restriction=none",
    "r500_discard_restriction=any_taken",
    "r500_card_values=5_10_15",
    "r500_card_values=all5",
    "r500_ace_value=25",
    "r500_ace_low_value=same",
    "r500_ace_low_value=5",
    "r500_jokers_per_deck=1",
    "r500_jokers_per_deck=0",
    "r500_num_decks=1",
    "r500_num_decks=2",
    "r500_stock_out_hand_penalty=false",
    "r500_stock_out_idle_turns=1",
    "r500_target=100",
    "r500_target=1000",
]


@pytest.mark.parametrize("flag", FLAG_VALUES)
def test_supported_flag_values_500_games_each(flag):
    total = 0
    for i, players in enumerate(PLAYER_COUNTS):
        if flag == "r500_num_decks=1" and players == 8:
            continue  # V500-DECKS: 8 x 7 + 1 cards do not fit one 54-card pack
        lineup = "random" if i % 2 == 0 else ",".join("greedy" if s % 2 else "random" for s in range(players))
        report = validate_run("500-rum", players=players, lineup=lineup, games=125, seed=zlib.crc32(flag.encode()) % 1000 + players, rule=[flag])
        assert_clean(report)
        total += report.games
    assert total >= 500


def action_kinds(players: int, games: int, seed: int) -> Counter:
    """Counts of the action kinds random play produced, read from the traces."""
    cfg = prepare("500-rum", players, "random")
    kinds: Counter = Counter()
    for g in range(games):
        trace, _, _ = traced_game(cfg, seed, g)
        rows = trace.tolist()
        for i, r in enumerate(rows):
            k = r[0]
            if k == L.T_TAKE_PILE:
                kinds["deep take" if r[3] > 1 else "top take"] += 1
                if r[2] == 0 and r[3] > 1:
                    kinds["whole pile take"] += 1
            elif k == L.T_DRAW_STOCK:
                kinds["stock draw"] += 1
            elif k == L.T_LAYOFF:
                kinds["lay-off"] += 1
            elif k == L.T_MELD:
                kinds["new set" if r[3] == L.KIND_SET else "new run"] += 1
            elif k == L.T_CARD and r[3] == L.JOKER:
                kinds["joker in run" if r[4] > 0 else "joker in set"] += 1
            elif k == L.T_HAND_END:
                reason = {L.END_OUT: "went out", L.END_STOCK: "stock out", L.END_IDLE: "idle guard", L.END_TURN_CAP: "turn cap"}[r[1]]
                kinds[reason] += 1
                if r[1] == L.END_OUT:
                    kinds["out by discard" if rows[i - 1][0] == L.T_DISCARD else "out by laying down"] += 1
            elif k == L.T_NO_DRAW:
                kinds["declined on empty stock"] += 1
    return kinds


def test_random_play_reaches_every_kind_of_action():
    kinds = action_kinds(3, 400, 5) + action_kinds(2, 200, 6) + action_kinds(5, 100, 7)
    for kind in ("stock draw", "top take", "deep take", "whole pile take", "new set", "new run", "lay-off",
                 "joker in set", "joker in run", "went out", "out by discard", "out by laying down",
                 "stock out", "declined on empty stock"):
        assert kinds[kind] > 0, f"random play never produced: {kind} ({dict(kinds)})"
    assert kinds["turn cap"] == 0


def test_idle_guard_fires_and_validates():
    """R500-STOCK-2: with a 1-turn guard, hands that reach an empty stock end by the guard."""
    cfg = prepare("500-rum", 4, "random", ["r500_stock_out_idle_turns=1"])
    ends = Counter()
    for g in range(200):
        trace, _, _ = traced_game(cfg, 9, g)
        ends.update(int(r[1]) for r in trace if r[0] == L.T_HAND_END)
    assert ends[L.END_IDLE] > 0
    assert_clean(validate_run("500-rum", players=4, lineup="random", games=200, seed=9, rule=["r500_stock_out_idle_turns=1"]))


def test_capped_games_are_recorded_not_dropped():
    """Engine caps: a tiny turn cap ends hands as capped; the validator accepts the capped ends."""
    report = validate_run("500-rum", players=3, lineup="random", games=30, seed=4, rule=["max_turns_per_hand=5", "max_hands_per_game=3"])
    assert_clean(report)
    cfg = prepare("500-rum", 3, "random", ["max_turns_per_hand=5", "max_hands_per_game=3"])
    _, row, _ = traced_game(cfg, 4, 0)
    assert row[L.G_CAPPED_HANDS] > 0
    assert np.all(row[L.G_HANDS] <= 3)
