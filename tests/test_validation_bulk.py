"""Thousands of kernel games replayed by the independent validator (rummysim.validate).

The validator knows only RULES.md and docs/trace-format.md; any disagreement with the kernels is a
violation naming the rule ID. Also checks that random play reaches every kind of action.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.checks import traced_game, validate_run
from rummysim.errors import RummysimError
from rummysim.simulation import prepare

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


# Every non-default value of every variation of RULES.md §3 the kernels play (issue: V500-*).
FLAG_VALUES = [
    "r500_jokers_per_deck=1", "r500_jokers_per_deck=0",
    "r500_num_decks=1", "r500_num_decks=2",
    "r500_card_values=5_10_15", "r500_card_values=all5",
    "r500_ace_value=25", "r500_ace_low_value=1", "r500_ace_low_value=5", "r500_ace_low_value=same",
    "r500_four_aces_100=true",
    "r500_score_divisor=5 r500_card_values=5_10_15",
    "r500_top_card_must_be_played=true", "r500_pickup_use=new_meld", "r500_no_pickup_to_hit=true",
    "r500_discard_restriction=none", "r500_discard_restriction=any_taken",
    "r500_call_rummy=pile", "r500_call_rummy=top_only", "r500_call_rummy=layoff_only",
    "r500_going_out=discard_required", "r500_going_out=floating", "r500_unplayable_discard=true",
    "r500_must_go_out_to_win=true", "r500_first_meld_min=30", "r500_min_new_run=4",
    "r500_round_the_corner=true", "r500_boathouse=true", "r500_stock_draw_count=2",
    "r500_end_of_stock=end_immediately", "r500_end_of_stock=reshuffle", "r500_end_of_stock=discard_until_out",
    "r500_stock_out_hand_penalty=false", "r500_stock_out_idle_turns=1",
    "r500_add_opponent_hand=true", "r500_add_opponent_hand=true r500_addopp_stock_out=continue_discarding",
    "r500_seven_straight_bonus=500", "r500_target=1000", "r500_target=250", "r500_target=100",
    "r500_tie_rule=goer_wins", "r500_meld_out_of_turn=true", "r500_upcard_mode=first_player_choice",
    "r500_next_dealer=winner",
]


def lineup_for(i: int, players: int) -> str:
    """All random, or random and greedy seats alternating."""
    return "random" if i % 2 == 0 else ",".join("greedy" if s % 2 else "random" for s in range(players))


@pytest.mark.parametrize("flags", FLAG_VALUES)
def test_every_variation_value_500_games(flags):
    rule = flags.split()
    total = 0
    for i, players in enumerate(PLAYER_COUNTS):
        if "r500_num_decks=1" in rule and players == 8:
            continue  # V500-DECKS: 8 x 7 + 1 cards do not fit one 54-card pack
        games = 125 if "r500_num_decks=1" in rule else 100
        report = validate_run("500-rum", players=players, lineup=lineup_for(i, players), games=games,
                              seed=zlib.crc32(flags.encode()) % 1000 + players, rule=rule)
        assert_clean(report)
        total += report.games
    assert total >= 500


COMBINATIONS = 24


@pytest.mark.parametrize("combo", range(COMBINATIONS))
def test_random_combinations_of_variations(combo):
    """Flags drawn at random from the list above, skipping the combinations RULES.md forbids."""
    rng = random.Random(combo)
    while True:
        picked: dict[str, str] = {}
        for flags in rng.sample(FLAG_VALUES, 4):
            for item in flags.split():
                name, value = item.split("=")
                picked.setdefault(name, value)
        rule = [f"{k}={v}" for k, v in picked.items()]
        players = rng.choice(PLAYER_COUNTS)
        try:
            prepare("500-rum", players, "random", rule)
            break
        except RummysimError:
            continue
    report = validate_run("500-rum", players=players, lineup=lineup_for(combo, players), games=120, seed=combo, rule=rule)
    assert_clean(report)


@pytest.mark.parametrize("flags", ["", "std_going_out=any", "std_end_of_stock=end_immediately",
                                   "std_end_of_stock=reshuffle", "std_end_of_stock=discard_until_out",
                                   "std_game_hands=3"])
def test_standard_rummy_500_games(flags):
    total = 0
    for i, players in enumerate((2, 3, 4, 5, 6)):
        report = validate_run("standard-rummy", players=players, lineup=lineup_for(i, players), games=100,
                              seed=77 + players, rule=flags.split())
        assert_clean(report)
        total += report.games
    assert total >= 500


def action_kinds(players: int, games: int, seed: int, rule: list[str] | None = None, lineup: str = "random") -> Counter:
    """Counts of the action kinds play produced, read from the traces."""
    cfg = prepare("500-rum", players, lineup, rule or [])
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
            elif k == L.T_TURN_START and r[5] == 1:
                kinds["rummy call"] += 1
            elif k == L.T_FLOAT:
                kinds["float"] += 1
            elif k == L.T_RESHUFFLE:
                kinds["reshuffle"] += 1
            elif k == L.T_OUT_OF_TURN:
                kinds["out-of-turn meld"] += 1
            elif k == L.T_START_PILE:
                kinds["upcard choice"] += 1
            elif k == L.T_ADDOPP_LAYOFF:
                kinds["add-opponent lay-off"] += 1
            elif k == L.T_SCORE and r[6] >= 500:
                kinds["7-card straight bonus"] += 1
            elif k == L.T_HAND_END:
                reason = {L.END_OUT: "went out", L.END_STOCK: "stock out", L.END_IDLE: "idle guard",
                          L.END_TURN_CAP: "turn cap", L.END_STOCK_END: "stock end"}[r[1]]
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


@pytest.mark.parametrize(
    "rule, kind",
    [
        (["r500_call_rummy=pile"], "rummy call"),
        (["r500_call_rummy=top_only"], "rummy call"),
        (["r500_call_rummy=layoff_only"], "rummy call"),
        (["r500_going_out=floating"], "float"),
        (["r500_unplayable_discard=true"], "float"),
        (["r500_end_of_stock=reshuffle"], "reshuffle"),
        (["r500_end_of_stock=end_immediately"], "stock end"),
        (["r500_meld_out_of_turn=true"], "out-of-turn meld"),
        (["r500_upcard_mode=first_player_choice"], "upcard choice"),
        (["r500_add_opponent_hand=true"], "add-opponent lay-off"),
    ],
)
def test_random_play_exercises_each_variation_action(rule, kind):
    kinds = action_kinds(3, 150, 21, rule) + action_kinds(2, 100, 22, rule)
    assert kinds[kind] > 0, f"random play never produced: {kind} ({dict(kinds)})"


def test_seven_card_straight_bonus_happens():
    """V500-7STRAIGHT is rare (about one game in 400 of 3-player greedy play)."""
    kinds = action_kinds(3, 2000, 23, ["r500_seven_straight_bonus=500"], "greedy")
    assert kinds["7-card straight bonus"] > 0


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
