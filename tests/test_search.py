"""``search`` (strategies/rum500/search.py): its parameters, C-INFO-1 when it searches, budget 0
as its base, the paired test that guards the base's pick, and validator games.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.checks import validate_run
from rummysim.comparison import compare
from rummysim.strategies import ids
from rummysim.strategies.registry import canonical_spec, parse_strategy, preset_values
from rummysim.strategies.rum500.search import significant_best
from tests.test_information import decisions, twin_states
from tests.test_validation_bulk import assert_clean

# Every decision searched (the twin states are early in the hand), with both play-out models
SEARCHING = ("search:late_stock=100:budget=8", "search:late_stock=100:budget=8:model=0:confidence=0")


def test_search_parameters_are_settable_and_checked():
    info, row = parse_strategy("search:budget=64:confidence=2.5:model=0")
    assert info.id == ids.SEARCH
    assert (row[ids.S_BUDGET], row[ids.S_CONFIDENCE], row[ids.S_MODEL]) == (64, 2.5, 0)
    assert canonical_spec("search:budget=64") == "search:budget=64"
    with pytest.raises(Exception, match="budget"):
        parse_strategy("search:budget=-1")
    with pytest.raises(Exception, match="no parameter"):
        parse_strategy("search:samples=3")


def test_search_base_is_the_tuned_heuristic():
    """The first columns are the heuristic's, at heuristic@500-rum-2p by default."""
    _, search_row = parse_strategy("search")
    _, base_row = parse_strategy("heuristic@500-rum-2p")
    assert np.array_equal(search_row[: ids.S_BUDGET], base_row[: ids.S_BUDGET])
    _, four = parse_strategy("search@500-rum-4p")
    for key, value in preset_values("heuristic", "500-rum-4p").items():
        assert four[parse_strategy("heuristic")[0].param_index(key)] == value


def sampled_decisions(k, spec: str) -> list[int]:
    """``decisions`` of tests/test_information.py for ``search`` with parameters set."""
    return decisions(k, "search", parse_strategy(spec)[1])


@pytest.mark.parametrize("spec", SEARCHING)
@pytest.mark.parametrize("seed", range(16))
def test_C_INFO_1_search_decisions_do_not_depend_on_hidden_cards(spec, seed):
    a, b = twin_states(seed)
    assert sampled_decisions(a, spec) == sampled_decisions(b, spec)


def test_the_twin_states_are_really_searched():
    """Without the paired test the search moves away from its base on some of these states, so the
    information test above checks searched decisions, not the base's."""
    states = [twin_states(seed)[0] for seed in range(16)]
    moved = [sampled_decisions(k, SEARCHING[1]) != sampled_decisions(k, "search:budget=0") for k in states]
    assert any(moved)


def test_paired_test_keeps_the_base_unless_the_gain_is_clear():
    noisy = np.array([[0.0, 0.0, 0.0, 0.0], [30.0, -20.0, 25.0, -15.0]])  # mean +5, spread large
    clear = np.array([[0.0, 0.0, 0.0, 0.0], [6.0, 5.0, 4.0, 5.0]])
    assert significant_best(noisy, 1.0) == 0
    assert significant_best(noisy, 0.0) == 1
    assert significant_best(clear, 2.0) == 1
    assert significant_best(clear[:, :1], 0.0) == 0  # one deal: no spread to test


def test_budget_0_plays_its_base_exactly():
    per_hand = compare("search:budget=0", "heuristic@500-rum-2p", games=60, seed=3, threads=1).summary["per_hand"]
    assert per_hand["diff"] == 0.0 and per_hand["half_width"] == 0.0


@pytest.mark.parametrize("players", (2, 3, 4))
def test_search_games_validate(players):
    lineup = ",".join("search:late_stock=15:budget=4" if s % 2 == 0 else "heuristic" for s in range(players))
    assert_clean(validate_run("500-rum", players=players, lineup=lineup, games=40, seed=40 + players))


@pytest.mark.parametrize("rule", (["r500_call_rummy=pile"], ["r500_going_out=floating"], ["r500_stock_draw_count=2"]))
def test_search_games_validate_with_variations(rule):
    lineup = "search:late_stock=15:budget=4:model=0,search:late_stock=15:budget=4"
    assert_clean(validate_run("500-rum", players=2, lineup=lineup, games=30, seed=7, rule=rule))


def test_search_plays_5000_rummy_as_its_base():
    assert_clean(validate_run("5000-rummy", players=3, lineup="search,heuristic,greedy", games=20, seed=5))
