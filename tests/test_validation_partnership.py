"""Thousands of partnership games replayed by the independent validator (issue 15, point 3).

Partnership 500 rum, Persian rummy and Persian 5000 under random and greedy lineups, every
partnership flag value, and random combinations of the 500 Rum variations with teams; the
validator was written from RULES.md and docs/trace-format.md without reading the kernels.
"""

from __future__ import annotations

import random
import zlib

import pytest

from rummysim.checks import validate_run
from rummysim.errors import RummysimError
from rummysim.simulation import prepare
from tests.test_validation_bulk import FLAG_VALUES, assert_clean

CASES = [
    ("partnership-500", ()),
    ("partnership-500", ("r500_partner_layoff=team_only",)),
    ("persian-rummy", ()),
    ("persian-rummy", ("r500_partner_layoff=team_only",)),
    ("persian-5000", ()),
]
LINEUPS = ("random", "greedy", "greedy,random,greedy,random", "heuristic,greedy,cautious,random")


@pytest.mark.parametrize("game, rule", CASES)
@pytest.mark.parametrize("lineup", LINEUPS)
def test_partnership_presets_replay_without_violations(game, rule, lineup):
    games = 60 if game == "persian-5000" else 250
    report = validate_run(game, players=4, lineup=lineup, games=games,
                          seed=zlib.crc32(f"{game}{rule}{lineup}".encode()) % 1000, rule=list(rule))
    assert report.games == games
    assert_clean(report)


# The 500 Rum variation values that combine with teams (the Persian value flags are refused: E38).
TEAM_FLAGS = [f for f in FLAG_VALUES if "r500_num_decks=2" not in f] + ["r500_partner_layoff=team_only"]
FIVE_K_FLAGS = ["r5k_rummy=top_card", "r5k_rummy=any_cards", "r5k_going_out=unmeldable_discard",
                "r5k_going_out=meld_all", "r5k_michigan=true", "r5k_polish=true", "r5k_must_go_out_to_win=true",
                "r5k_first_turn=extra_card", "r5k_first_turn=exchange_upcard", "r5k_money_cards=true"]


def _combination(rng: random.Random, game: str, pool: list[str], k: int) -> list[str]:
    while True:
        picked: dict[str, str] = {}
        for flags in rng.sample(pool, k):
            for item in flags.split():
                name, value = item.split("=")
                picked.setdefault(name, value)
        rule = [f"{n}={v}" for n, v in picked.items()]
        try:
            prepare(game, 4, "random", rule)
            return rule
        except RummysimError:
            continue


@pytest.mark.parametrize("combo", range(12))
def test_random_flag_combinations_with_teams(combo):
    rng = random.Random(1500 + combo)
    game = ("partnership-500", "persian-rummy")[combo % 2]
    rule = _combination(rng, game, TEAM_FLAGS, 3)
    report = validate_run(game, players=4, lineup=LINEUPS[combo % 3], games=120, seed=combo, rule=rule)
    assert_clean(report)


@pytest.mark.parametrize("flags", FIVE_K_FLAGS)
def test_persian_5000_with_every_play_variation(flags):
    report = validate_run("persian-5000", players=4, lineup="greedy,random,greedy,random", games=25,
                          seed=zlib.crc32(flags.encode()) % 1000, rule=flags.split())
    assert_clean(report)
