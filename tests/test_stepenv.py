"""The step API (issue 20, rummysim.stepenv): one engine with simulate, legal games, the AEC cycle.

Kept small (CI's slack is a few minutes): the env compiles its own engine specializations (every
strategy plus the objmode calls), once per cache.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rummysim
import rummysim.strategies.ids
from rummysim.errors import InputError
from rummysim.kernels.rum500.layout import G_SIZE, H_SIZE
from rummysim.simulation import prepare
from rummysim.stepenv.observation import ENC_SIZE

CALLS = {"r500_call_rummy": "pile"}
GAMBIT = {"r500_dealers_gambit": True}


def play_out(env, policy) -> None:
    """Play the env's current game to its end, every agent acting by ``policy(env, agent)``."""
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policy(env, agent))


def take_hint(env, agent) -> int:
    return env.infos[agent]["hint"]


def simulate_rows(game: str, players: int, lineup: str, seed: int, games: int, rules: dict) -> np.ndarray:
    """The game rows ``simulate`` writes, from the same runner it calls."""
    cfg = prepare(game, players, lineup, [f"{k}={str(v).lower()}" for k, v in rules.items()])
    rows = np.zeros((games, G_SIZE), dtype=np.int64)
    cfg.spec.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, games, rows,
                            np.zeros((0, 0, H_SIZE), dtype=np.int32))
    return rows


@pytest.mark.parametrize(("game", "players", "lineup", "rules", "games"), [
    ("500-rum", 2, "greedy", {}, 12),
    ("500-rum", 3, "greedy,heuristic,random", CALLS, 8),
    ("500-rum", 3, "greedy,random,rollout", GAMBIT, 4),
    ("standard-rummy", 4, "random", {}, 8),
])
def test_every_seat_taking_its_hint_reproduces_simulate_rows(game, players, lineup, rules, games):
    env = rummysim.env(game, players=players, seed=41, rules=rules, lineup=lineup)
    played = []
    for _ in range(games):
        env.reset()
        play_out(env, take_hint)
        played.append(env.finished.row)
    assert np.array_equal(np.array(played), simulate_rows(game, players, lineup, 41, games, rules))


def test_only_the_external_seats_are_agents_and_the_bots_play_inside():
    env = rummysim.env("500-rum", players=3, seed=5, external=[1])
    env.reset()
    assert env.possible_agents == ["player_1"]
    seen = set()
    for agent in env.agent_iter():
        seen.add(agent)
        _, _, terminated, _, _ = env.last()
        env.step(None if terminated else take_hint(env, agent))
    assert seen == {"player_1"} and env.agents == []
    assert np.array_equal(env.finished.row, simulate_rows("500-rum", 3, "greedy", 5, 1, {})[0])


@pytest.mark.parametrize(("game", "players", "rules", "games"), [
    ("500-rum", 2, {}, 80), ("500-rum", 3, CALLS, 60), ("500-rum", 4, GAMBIT, 40),
    ("500-rum", 3, {"r500_meld_out_of_turn": True}, 40), ("500-rum", 4, {"r500_partnership": True}, 40),
    ("standard-rummy", 3, {}, 40),
])
def test_random_legal_moves_validate(game, players, rules, games):
    """Random picks among the listed options through the step API: the traces validate."""
    env = rummysim.env(game, players=players, seed=300 + players, rules=rules)
    cfg = prepare(game, players, "greedy", [f"{k}={str(v).lower()}" for k, v in rules.items()])
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


def test_observation_is_the_seats_own_view():
    env = rummysim.env("500-rum", players=2, seed=3)
    env.reset()
    agent = env.agent_selection
    view = env.infos[agent]["view"]
    obs = env.observe(agent)
    assert obs["observation"].shape == (ENC_SIZE,)  # the spaces need gymnasium (the env extra)
    assert obs["action_mask"].sum() == env.decision.n == len(env.infos[agent]["legal"])
    assert view["hand"].sum() == view["obs"][10 + view["seat"]]  # its hand size (OB_HAND_SIZE + seat)
    other = "player_1" if agent == "player_0" else "player_0"
    assert env.observe(other)["action_mask"].sum() == 0


def test_illegal_action_is_refused_and_reset_abandons_a_game():
    env = rummysim.env("500-rum", players=2, seed=3)
    env.reset()
    with pytest.raises(InputError):
        env.step(env.decision.n)
    thread = env._thread._thread
    env.reset()
    thread.join(5)
    assert not thread.is_alive()
    env.close()


def test_refuses_another_engines_game():
    with pytest.raises(InputError):
        rummysim.env("5000-rummy", players=2)


def test_pettingzoo_api_and_seed_tests():
    api = pytest.importorskip("pettingzoo.test")
    api.api_test(rummysim.env("500-rum", players=3, seed=9), num_cycles=200)
    api.seed_test(lambda: rummysim.env("500-rum", players=3, seed=9), num_cycles=50)


def test_outside_the_step_api_an_external_ask_is_the_hint_without_object_mode():
    """The ``ask_*`` overloads compile to ``return hint`` for simulate's families: with no handler
    installed, the objmode path would raise."""
    import numba

    from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES
    from rummysim.strategies.rum500.external import K_DRAW, ask_options

    @numba.njit
    def ask(family):
        return ask_options(family, K_DRAW, 0, np.zeros(3, dtype=np.int64), 3, 2, 0)

    assert ask(None) == 2 and ask(ALL_STRATEGIES) == 2


def test_ansi_render_names_the_legal_moves():
    env = rummysim.env("500-rum", players=2, seed=3, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.startswith(f"{env.agent_selection} draw: 0 draw from the stock")
    env.close()


def test_a_handler_index_out_of_range_stops_the_game_with_an_error():
    """The last guard before the kernels, for handlers other than the env's own checked step."""
    from rummysim.stepenv.game import Failed, GameSetup, GameThread

    cfg = prepare("500-rum", 2, "greedy")
    thread = GameThread(GameSetup(cfg.vector, cfg.lineup + rummysim.strategies.ids.EXTERNAL, cfg.params, 1, 0))
    decision = thread.next_event()
    thread.answer(decision.n)
    event = thread.next_event()
    assert isinstance(event, Failed) and "not an index below" in str(event.error)
