"""5000 Rummy in the step API (issue 20 point 1): one engine with simulate, legal games, stable ids,
partnership rewards and Python strategies.

A file of its own so that the 5000 engine's step-API specialization compiles in parallel with the
500 engine's (tests/test_stepenv.py) under pytest-xdist.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rummysim
from rummysim.errors import InputError
from rummysim.kernels.common.results import G_SIZE, G_TOTAL, H_SIZE
from rummysim.kernels.rum5000.layout import C_TYPE, P_STOP
from rummysim.simulation import prepare
from rummysim.stepenv.rum5000 import ENC_SIZE, MAX_ACTIONS
from rummysim.strategies.rum5000.external import K_CALL, K_DISCARD, K_DRAW, K_EXCHANGE, K_PLAY

CALLS = {"r5k_rummy": "any_cards"}
EXCHANGE = {"r5k_first_turn": "exchange_upcard"}
PERSIAN = {"r5k_persian": True}


def rule_strings(rules: dict) -> list[str]:
    return [f"{k}={str(v).lower()}" for k, v in rules.items()]


def play_out(env, policy) -> None:
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policy(env, agent))


def take_hint(env, agent) -> int:
    return env.infos[agent]["hint"]


def simulate_rows(players: int, lineup: str, seed: int, games: int, rules: dict) -> np.ndarray:
    cfg = prepare("5000-rummy", players, lineup, rule_strings(rules))
    rows = np.zeros((games, G_SIZE), dtype=np.int64)
    cfg.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, games, rows, np.zeros((0, 0, H_SIZE), dtype=np.int32))
    return rows


@pytest.mark.parametrize(("players", "lineup", "rules", "games"), [
    (2, "greedy", {}, 6),
    (3, "greedy,heuristic,random", CALLS, 4),
    (4, "greedy,random,greedy,random", PERSIAN, 3),
    (3, "random", EXCHANGE, 4),
])
def test_every_seat_taking_its_hint_reproduces_simulate_rows(players, lineup, rules, games):
    env = rummysim.env("5000-rummy", players=players, seed=43, rules=rules, lineup=lineup)
    played = []
    for _ in range(games):
        env.reset()
        play_out(env, take_hint)
        played.append(env.finished.row)
    assert np.array_equal(np.array(played), simulate_rows(players, lineup, 43, games, rules))


def test_only_the_external_seats_are_agents():
    env = rummysim.env("5000-rummy", players=3, seed=5, external=[2], lineup="greedy,random,greedy")
    env.reset()
    assert env.possible_agents == ["player_2"]
    seen = set()
    for agent in env.agent_iter():
        seen.add(agent)
        _, _, terminated, _, _ = env.last()
        env.step(None if terminated else take_hint(env, agent))
    assert seen == {"player_2"}
    assert np.array_equal(env.finished.row, simulate_rows(3, "greedy,random,greedy", 5, 1, {})[0])


@pytest.mark.parametrize(("players", "rules", "games"), [
    (2, {}, 20), (3, CALLS, 12), (4, PERSIAN, 8), (3, {**EXCHANGE, "r5k_polish": True}, 10),
    (2, {"r5k_rummy": "top_card", "r5k_going_out": "meld_all"}, 10),
])
def test_random_legal_moves_validate(players, rules, games):
    """Random picks among the listed options through the step API: the traces validate."""
    env = rummysim.env("5000-rummy", players=players, seed=500 + players, rules=rules)
    cfg = prepare("5000-rummy", players, "greedy", rule_strings(rules))
    validate = cfg.spec.validator()
    pick = random.Random(players)
    violations, checked = [], 0
    for _ in range(games):
        env.reset()
        play_out(env, lambda e, a: pick.randrange(e.decision.n))
        assert not env.finished.overflowed
        result = validate(env.finished.trace, cfg.rules.as_dict())
        violations += result.violations
        checked += result.actions_checked
    assert violations == [] and checked > 50 * games


def _content(kind: int, index: int, option) -> tuple:
    if kind == K_PLAY:
        row = np.asarray(option)
        return ("stop",) if row[C_TYPE] == P_STOP else tuple(int(v) for v in row[:10])  # C_TYPE..C_POS
    if kind in (K_CALL, K_EXCHANGE) and index == 0:
        return ("decline",)
    return (int(option),)


def test_stable_ids_name_one_move_each_in_every_position():
    env = rummysim.env("5000-rummy", players=3, seed=77, rules={**CALLS, **EXCHANGE})
    pick = random.Random(3)
    move_of: dict[int, tuple] = {}
    id_of: dict[tuple, int] = {}
    kinds = set()

    def policy(e, agent):
        decision, ids = e.decision, e.infos[agent]["action_ids"]
        assert len(set(ids.tolist())) == decision.n == len(e.infos[agent]["legal"])
        kinds.add(decision.view.kind)
        for i, option in enumerate(decision.options):
            move = (decision.view.kind, *_content(decision.view.kind, i, option))
            assert move_of.setdefault(int(ids[i]), move) == move
            assert id_of.setdefault(move, int(ids[i])) == int(ids[i])
        choice = pick.randrange(decision.n)
        assert decision.index_of(ids[choice]) == choice
        return choice

    for _ in range(12):
        env.reset()
        play_out(env, policy)
    assert {K_DRAW, K_PLAY, K_DISCARD} <= kinds and len(move_of) > 100
    with pytest.raises(InputError, match="not a legal"):
        env.reset()
        env.decision.index_of(-1)


def test_observation_and_spaces():
    env = rummysim.env("5000-rummy", players=2, seed=3)
    env.reset()
    agent = env.agent_selection
    obs = env.observe(agent)
    assert obs["observation"].shape == (ENC_SIZE,) and obs["action_mask"].shape == (MAX_ACTIONS,)
    assert obs["action_mask"].sum() == env.decision.n
    view = env.infos[agent]["view"]
    assert view["hand"].sum() == view["obs"][10 + view["seat"]]  # its hand size (O_HAND_SIZE + seat)
    assert env.metadata["name"] == "rummysim_5000_rummy_v0"
    assert all(isinstance(name, str) and name for name in env.infos[agent]["legal"])


def test_partners_are_rewarded_with_their_sides_points():
    """Persian 5000 (V5K-9): both partners receive the partnership's points, which sum over the
    game to the side's final score."""
    env = rummysim.env("5000-rummy", players=4, seed=19, rules=PERSIAN)
    env.reset()
    earned = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        _, _, terminated, _, info = env.last()
        if not terminated:
            assert info["side"] == int(agent[-1]) % 2
        env.step(None if terminated else take_hint(env, agent))
        for other, gain in env.rewards.items():
            earned[other] += gain
    totals = env.finished.row[G_TOTAL:G_TOTAL + 2]
    assert earned["player_0"] == earned["player_2"] == totals[0]
    assert earned["player_1"] == earned["player_3"] == totals[1]
    assert totals.any()


def test_pettingzoo_api_test():
    api = pytest.importorskip("pettingzoo.test")
    api.api_test(rummysim.env("5000-rummy", players=2, seed=9), num_cycles=200)


HINTED = '''
import rummysim


class Hinted(rummysim.Strategy):
    def __init__(self, salt: int = 0) -> None:
        self.salt = salt
'''

RANDOM = '''
import rummysim


class Dice(rummysim.Strategy):
    def draw(self, view, moves):
        return int(self.rng.integers(moves.n))

    def play(self, view, moves):
        return int(self.rng.integers(moves.n))

    def discard(self, view, moves):
        return int(self.rng.integers(moves.n))
'''


def test_python_strategies_play_5000_rummy(tmp_path):
    """A Python seat taking its hints plays greedy's games; a random one is deterministic for a seed."""
    hinted = tmp_path / "hinted.py"
    hinted.write_text(HINTED)
    rows = simulate_rows(3, f"py:{hinted}:Hinted:salt=1,greedy,random", 8, 3, {})
    assert np.array_equal(rows, simulate_rows(3, "greedy,greedy,random", 8, 3, {}))
    dice = tmp_path / "dice.py"
    dice.write_text(RANDOM)
    first = rummysim.simulate("5000-rummy", players=2, lineup=f"py:{dice}:Dice,greedy", games=4, seed=2).games
    again = rummysim.simulate("5000-rummy", players=2, lineup=f"py:{dice}:Dice,greedy", games=4, seed=2).games
    assert first.equals(again) and first["winner"].to_list().count(1) >= 2
