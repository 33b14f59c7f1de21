"""5000 Rummy kernel games replayed by the independent validator (issue #4, point 6).

At least 2,000 random-strategy games of the base game and 300 per value of every play or scoring
variation flag (V5K-2..8, V5K-10..12) go through ``rummysim.validate``, which knows only RULES.md
and docs/trace-format.md; greedy and mixed lineups too. The variations not played yet are refused by
rule ID.
"""

from __future__ import annotations

import pytest

from rummysim.checks import validate_run
from rummysim.simulation import prepare

PLAYER_COUNTS = (2, 3, 4, 5)  # R5K-SETUP-1


def assert_clean(report) -> None:
    shown = "\n".join(f"game {v.game_index} action {v.action} {v.rule_id}: {v.message}" for v in report.violations[:10])
    assert report.ok, shown
    assert report.actions_checked > 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_R5K_base_random_500_games_per_player_count(players):
    report = validate_run("5000-rummy", players=players, lineup="random", games=500, seed=5000 + players)
    assert report.games == 500
    assert_clean(report)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_R5K_base_greedy_and_mixed_lineups(players):
    mixed = ",".join("greedy" if s % 2 else "random" for s in range(players))
    assert_clean(validate_run("5000-rummy", players=players, lineup="greedy", games=100, seed=5100 + players))
    assert_clean(validate_run("5000-rummy", players=players, lineup=mixed, games=100, seed=5200 + players))


# Every non-default value of every play or scoring variation flag of RULES.md §5 the kernels play.
FLAG_VALUES = [
    "r5k_must_go_out_to_win=true",  # V5K-2
    "r5k_rummy=top_card",  # V5K-3
    "r5k_rummy=any_cards",  # V5K-4
    "r5k_going_out=unmeldable_discard",  # V5K-5
    "r5k_going_out=meld_all",  # V5K-6
    "r5k_michigan=true",  # V5K-7
    "r5k_polish=true",  # V5K-8
    "r5k_first_turn=extra_card",  # V5K-10
    "r5k_first_turn=exchange_upcard",  # V5K-11
    "r5k_money_cards=true",  # V5K-12
    "r5k_target=1000",  # R5K-GAME-1 integer override
]


@pytest.mark.parametrize("flag", FLAG_VALUES)
def test_V5K_every_variation_value_300_games(flag):
    report = validate_run("5000-rummy", players=2 + len(flag) % 4, lineup="random", games=300,
                          seed=5300 + len(flag), rule=[flag])
    assert report.games == 300
    assert_clean(report)


@pytest.mark.parametrize("flag", FLAG_VALUES)
def test_V5K_every_variation_value_greedy(flag):
    mixed = "greedy,random,greedy"
    assert_clean(validate_run("5000-rummy", players=3, lineup=mixed, games=40, seed=5400, rule=[flag]))


@pytest.mark.parametrize(
    ("flag", "rule_id"),
    [("r5k_doubling=true", "V5K-13"), ("r5k_limit_poker=true", "V5K-14"), ("r5k_payoff=game_point", "V5K-1")],
)
def test_V5K_stakes_variations_are_played(flag, rule_id):
    """Issue 16: the stakes layers run (tests/test_stakes_5k.py checks how); no refusal is left."""
    cfg = prepare("5000-rummy", 2, "random", [flag])
    assert (cfg.betting is not None) == (rule_id != "V5K-1")


@pytest.mark.parametrize("name", ["heuristic", "cautious", "digger", "rollout"])
def test_R5K_every_strategy_plays_valid_games(name):
    lineup = f"{name},random,{name}"
    for flag in ("r5k_rummy=any_cards", "r5k_going_out=meld_all", "r5k_polish=true"):
        assert_clean(validate_run("5000-rummy", players=3, lineup=lineup, games=20, seed=5500, rule=[flag]))
    assert_clean(validate_run("5000-rummy", players=2, lineup=f"{name},greedy", games=40, seed=5501))


@pytest.mark.parametrize("rummy", ["top_card", "any_cards"])
@pytest.mark.parametrize("lineup", ["random", "greedy"])
def test_V5K_3a_4a_call_windows_around_a_turn_that_floats_without_discarding(rummy, lineup):
    """V5K-5b: melding the last card floats with no discard. V5K-3a: top-card calls come only after
    a discard, so no seat is asked then (the window asks found the kernel asking, issue 21 point
    11); V5K-4a: any-cards calls are allowed between turns, so the window opens all the same."""
    report = validate_run("5000-rummy", players=3, lineup=lineup, games=60, seed=35,
                          rule=[f"r5k_rummy={rummy}", "r5k_going_out=unmeldable_discard"])
    assert report.ok, [(v.game_index, v.rule_id, v.message) for v in report.violations[:5]]
