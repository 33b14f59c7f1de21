"""Rummikub in the step API (issue 20 point 1): a play composed tile by tile, one engine with
simulate, legal games, stable ids and Python strategies.

A file of its own so that the Rummikub engine's step-API specialization compiles in parallel with
the other engines' under pytest-xdist.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rummysim
from rummysim.kernels.common.results import G_SIZE, H_SIZE
from rummysim.simulation import prepare
from rummysim.stepenv.rummikub import ENC_SIZE, MAX_ACTIONS
from rummysim.strategies.rummikub.external import DRAW, PLAY

SINGLE = {"rkub_initial_rule": "single_combo"}
NO_MANIPULATION = {"rkub_manipulate_on_initial_turn": False}


def rule_strings(rules: dict) -> list[str]:
    return [f"{k}={str(v).lower()}" for k, v in rules.items()]


def play_out(env, policy) -> None:
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policy(env, agent))


def take_hint(env, agent) -> int:
    return env.infos[agent]["hint"]


def simulate_rows(players: int, lineup: str, seed: int, games: int, rules: dict) -> np.ndarray:
    cfg = prepare("rummikub", players, lineup, rule_strings(rules))
    rows = np.zeros((games, G_SIZE), dtype=np.int64)
    cfg.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, games, rows, np.zeros((0, 0, H_SIZE), dtype=np.int32))
    return rows


def random_composer(seed: int):
    """Random legal moves that still finish plays: half the time the hint (which walks toward the
    built-in play from whatever is chosen), else a uniformly random option; the chosen tiles are
    played whenever they may be, two times in three."""
    pick = random.Random(seed)

    def policy(env, agent) -> int:
        options = [int(o) for o in env.decision.options]
        if PLAY in options and pick.random() < 2 / 3:
            return options.index(PLAY)
        if pick.random() < 0.5:
            return env.infos[agent]["hint"]
        return pick.randrange(len(options))
    return policy


@pytest.mark.parametrize(("players", "lineup", "rules", "games"), [
    (2, "greedy", {}, 3),
    (3, "greedy,random,value", SINGLE, 2),
    (4, "holder,greedy,holder,greedy", NO_MANIPULATION, 2),
])
def test_every_seat_taking_its_hint_reproduces_simulate_rows(players, lineup, rules, games):
    env = rummysim.env("rummikub", players=players, seed=47, rules=rules, lineup=lineup)
    played = []
    for _ in range(games):
        env.reset()
        play_out(env, take_hint)
        played.append(env.finished.row)
    assert np.array_equal(np.array(played), simulate_rows(players, lineup, 47, games, rules))


@pytest.mark.parametrize(("players", "rules", "games"), [
    (2, {}, 6), (3, SINGLE, 4), (4, {"rkub_max_jokers_per_combo": 1, "rkub_group_joker_release": "both_colours"}, 3),
    (2, NO_MANIPULATION, 4),
])
def test_random_legal_moves_validate(players, rules, games):
    """Plays composed by random legal choices give traces the validator accepts, and every legal
    option is what it says: a chosen tile is on the rack, a play places exactly the chosen tiles."""
    env = rummysim.env("rummikub", players=players, seed=700 + players, rules=rules)
    cfg = prepare("rummikub", players, "greedy", rule_strings(rules))
    validate = cfg.spec.validator()
    policy = random_composer(players)
    violations, checked, plays = [], 0, 0
    after_play: dict[str, np.ndarray] = {}  # the rack a seat's play must leave (one round a game)

    def checked_policy(e, agent):
        nonlocal plays
        view = e.decision.view
        if agent in after_play:
            assert np.array_equal(view.hand, after_play.pop(agent))
        for option in e.decision.options:
            if option >= 0:
                assert view.hand[option] > view.chosen[option]
        choice = policy(e, agent)
        if int(e.decision.options[choice]) == PLAY:
            plays += 1
            after_play[agent] = view.hand - view.chosen
        return choice

    for _ in range(games):
        env.reset()
        after_play.clear()
        play_out(env, checked_policy)
        assert not env.finished.overflowed
        result = validate(env.finished.trace, cfg.rules.as_dict())
        violations += result.violations
        checked += result.actions_checked
    assert violations == [] and plays >= 2 * games and checked > 20 * games


def test_stable_ids_and_names():
    env = rummysim.env("rummikub", players=2, seed=9)
    env.reset()
    policy = random_composer(1)
    seen: dict[int, int] = {}
    for agent in env.agent_iter():
        _, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            continue
        ids, options = info["action_ids"], env.decision.options
        assert len(set(ids.tolist())) == len(ids) == len(info["legal"])
        for move_id, option in zip(ids.tolist(), options.tolist()):
            assert seen.setdefault(move_id, option) == option
        assert info["legal"][0] in ("draw a tile", "pass (the pool is empty)") and options[0] == DRAW
        env.step(policy(env, agent))
    assert len(seen) > 20


def test_observation_and_spaces():
    env = rummysim.env("rummikub", players=3, seed=3)
    env.reset()
    agent = env.agent_selection
    obs = env.observe(agent)
    assert obs["observation"].shape == (ENC_SIZE,) and obs["action_mask"].shape == (MAX_ACTIONS,)
    view = env.infos[agent]["view"]
    assert view["hand"].sum() == view["obs"][16 + view["seat"]]  # its rack size (O_RACK_SIZE + seat)
    assert view["chosen"].sum() == 0 and env.metadata["name"] == "rummysim_rummikub_v0"


def test_pettingzoo_api_test():
    api = pytest.importorskip("pettingzoo.test")
    api.api_test(rummysim.env("rummikub", players=2, seed=9), num_cycles=200)


def test_python_strategies_play_rummikub(tmp_path):
    """A Python seat taking its hints plays greedy's games."""
    path = tmp_path / "hinted.py"
    path.write_text("import rummysim\n\n\nclass Hinted(rummysim.Strategy):\n    pass\n")
    rows = simulate_rows(2, f"py:{path}:Hinted,value", 4, 2, {})
    assert np.array_equal(rows, simulate_rows(2, "greedy,value", 4, 2, {}))
