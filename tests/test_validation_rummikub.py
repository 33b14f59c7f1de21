"""Thousands of Rummikub games replayed by the independent validator (issue 17, point 4).

Every player count with random, greedy and mixed lineups, every `rkub_*` flag value away from its
default, and random combinations of them; the validator (sim/validate/rummikub/) was written from
RULES.md and docs/trace-format.md without reading the engine or the solver.
"""

from __future__ import annotations

import random
import zlib

import pytest

from rummysim.checks import validate_run
from tests.test_validation_bulk import assert_clean

# Each flag's values away from the RULES.md default (rkub_rounds has the one value 1).
FLAG_VALUES = ["rkub_direction=counterclockwise", "rkub_group_joker_release=both_colours",
               "rkub_max_jokers_per_combo=1", "rkub_joker_penalty=25", "rkub_initial_rule=single_combo",
               "rkub_manipulate_on_initial_turn=false", "rkub_invalid_turn=penalty_draw3"]
LINEUPS = ("random", "greedy", "value", "holder")
MIXED = {2: "greedy,random", 3: "value,holder,random", 4: "greedy,value,holder,random"}


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("lineup", LINEUPS + ("mixed",))
def test_every_player_count_and_strategy_replays_without_violations(players, lineup):
    text = MIXED[players] if lineup == "mixed" else lineup
    report = validate_run("rummikub", players=players, lineup=text, games=70, seed=1700 + players)
    assert report.games == 70
    assert_clean(report)


@pytest.mark.parametrize("flag", FLAG_VALUES)
@pytest.mark.parametrize("lineup", ("random", "greedy"))
def test_every_flag_value_replays_without_violations(flag, lineup):
    players = 2 + zlib.crc32(flag.encode()) % 3
    report = validate_run("rummikub", players=players, lineup=lineup, games=70,
                          seed=zlib.crc32(f"{flag}{lineup}".encode()) % 1000, rule=[flag])
    assert_clean(report)


@pytest.mark.parametrize("combo", range(6))
def test_random_flag_combinations_replay_without_violations(combo):
    rng = random.Random(1717 + combo)
    rule = rng.sample(FLAG_VALUES, 3)
    players = 2 + combo % 3
    report = validate_run("rummikub", players=players, lineup=MIXED[players], games=60, seed=combo, rule=rule)
    assert_clean(report)
