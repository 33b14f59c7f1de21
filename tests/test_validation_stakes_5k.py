"""Thousands of 5000 Rummy stakes games replayed by the independent validator (issue 16, point 4).

Doubling (V5K-13) and Limit-Poker (V5K-14) under every betting policy pair that exercises their
actions, and Playing to Win (V5K-1, ``r5k_payoff=game_point``), with random, greedy and heuristic
play. The validator (sim/validate/rum5000/stakes.py, results.py) was written from RULES.md and the
"Stakes" section of docs/trace-format.md without reading the kernels. A second pass over the same
traces counts the stakes actions, so that 0 violations cannot come from games that never double,
fold, bet, raise or concede; and a planted error in the result columns is caught.
"""

from __future__ import annotations

import zlib
from collections import Counter

import numpy as np
import pytest

from rummysim import checks
from rummysim.checks import traced_game, validate_run
from rummysim.simulation import prepare
from rummysim.validate import trace as T
from tests.test_validation_bulk import assert_clean

DOUBLING = ["r5k_doubling=true"]
POKER = ["r5k_limit_poker=true"]
BETTING = ("accept-all", "threshold", "threshold,accept-all", "never-double,threshold", "aggressive,threshold",
           "threshold:double_at=60,aggressive")
LINEUPS = ("random", "greedy", "heuristic,greedy")


def _seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode()) % 1000


@pytest.mark.parametrize("rule", (DOUBLING, POKER), ids=("doubling", "limit-poker"))
@pytest.mark.parametrize("betting", BETTING)
@pytest.mark.parametrize("lineup", LINEUPS)
def test_stakes_sessions_replay_without_violations(rule, betting, lineup):
    games = 50 if "heuristic" in lineup else 100
    report = validate_run("5000-rummy", players=2, lineup=lineup, games=games, seed=_seed(rule, betting, lineup),
                          rule=rule, betting=betting)
    assert report.games == games
    assert_clean(report)


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("lineup", ("random", "greedy"))
def test_V5K_1_game_point_payoffs_replay_without_violations(players, lineup):
    report = validate_run("5000-rummy", players=players, lineup=lineup, games=40, seed=_seed(players, lineup),
                          rule=["r5k_payoff=game_point"])
    assert_clean(report)


def _actions(rule: list[str], betting: str, games: int) -> Counter:
    cfg = prepare("5000-rummy", 2, "greedy,random", rule, None, betting)
    seen: Counter = Counter()
    for g in range(games):
        trace, _, _ = traced_game(cfg, _seed(rule, betting), g)
        seen.update(T.RECORD_NAMES.get(int(k), str(k)) for k in trace[:, 0] if k >= T.STAKES_START)
        seen.update(f"reason {int(r)}" for r in trace[trace[:, 0] == T.HAND_END][:, 1])
    return seen


def test_the_validated_games_reach_every_stakes_action():
    doubling = _actions(DOUBLING, "threshold:double_at=60,aggressive", 40)
    for kind in ("STAKES_START", "HAND_STAKE", "DOUBLE", "DOUBLE_TAKE", "BEAVER", "DOUBLE_FOLD", "PAYOUT"):
        assert doubling[kind] > 0, (kind, doubling)
    poker = _actions(POKER, "aggressive,threshold", 40)
    for kind in ("ANTE", "BET", "RAISE", "CALL", "CONCEDE", "PAYOUT"):
        assert poker[kind] > 0, (kind, poker)
    assert doubling["reason 7"] > 0 and poker["reason 8"] > 0  # folded and conceded hands


def test_a_wrong_stake_column_is_caught(monkeypatch):
    real = checks.play_game_chunk

    def planted(*args, **kwargs):
        games, hands = real(*args, **kwargs)
        return games.with_columns(stake_0=games["stake_0"] + np.where(games["game_index"] == 3, 1, 0)), hands

    monkeypatch.setattr(checks, "play_game_chunk", planted)
    report = validate_run("5000-rummy", players=2, lineup="greedy", games=5, seed=1, rule=DOUBLING,
                          betting="threshold")
    assert [(v.game_index, v.rule_id) for v in report.violations] == [(3, "V5K-13")]
