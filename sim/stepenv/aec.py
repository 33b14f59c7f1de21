"""``RumEnv``: a game of the rummy engines as a PettingZoo AEC environment (docs/env.md).

Agents are the external seats, ``player_<seat>``; the other seats play their built-in strategy
inside the engine. The agent selected is the seat the engine asks next
(draws, plays, discards, rummy calls and the Dealer's gambit decisions: not always in turn order).
``observe(agent)`` is ``{"observation": int64[enc_size], "action_mask": int8[max_actions]}`` (sizes
of the engine's ``StepGame``): the agent's view at its latest decision, with a mask of zeros
unless it is the one to act. An
action is an index into the legal options (``infos[agent]["legal"]`` names them,
``infos[agent]["action_ids"]`` gives their stable ids). Rewards are the points each seat's side
scores (the seat's own in games without partnerships, the partnership's in Partnership 500 and
Persian rummy), credited when a hand is scored (and the last hand's at the game's end).

Subclasses ``pettingzoo.AECEnv`` when PettingZoo is installed (the ``env`` extra); the AEC methods
it relies on (``agent_iter``, ``last``, the step of a terminated agent) are defined here, so the
environment behaves the same without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from rummysim.errors import InputError
from rummysim.sides import SideMap
from rummysim.kernels.common.results import G_TOTAL
from rummysim.stepenv.engines import StepGame
from rummysim.stepenv.game import Failed, Finished, GameSetup, GameThread

try:
    from pettingzoo import AECEnv as _Base
except ImportError:  # the env extra is not installed: the same environment, without the base class
    _Base = object

MAX_ITER = 2 ** 63


def _gym_spaces():
    try:
        from gymnasium import spaces
    except ImportError:
        raise InputError("the step API's spaces need gymnasium: pip install 'rummysim[env]'") from None
    return spaces


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class RumEnv(_Base):
    """A game of one of the engines, one external decision per ``step`` (see the module docstring)."""

    metadata = {"name": "rummysim_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, engine: StepGame, setup: GameSetup, external: list[int], sides: SideMap,
                 render_mode: str | None = None) -> None:
        self.engine = engine
        self.metadata = {**RumEnv.metadata, "name": engine.name}
        self._setup = replace(setup, game=-1)  # reset() plays the next game index of the seed
        self.sides = sides
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in external]
        self._thread: GameThread | None = None
        self.decision = None  # the engine's decision record (actions.Decision, rum5000.Decision5)
        self.finished: Finished | None = None
        self._views: dict[str, object] = {}
        self._totals = np.zeros(len(setup.lineup), dtype=np.int64)
        self.agents: list[str] = []

    # ---- spaces (the same object for every call, as PettingZoo asks)
    @cached_property
    def _observation_space(self):
        spaces = _gym_spaces()
        limit = np.iinfo(np.int64)  # some slots are card masks (OB_MY_DISCARDS, OB_OUT_MASK)
        return spaces.Dict({
            "observation": spaces.Box(limit.min, limit.max, (self.engine.enc_size,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, (self.engine.max_actions,), dtype=np.int8),
        })

    @cached_property
    def _action_space(self):
        spaces = _gym_spaces()
        return spaces.Discrete(self.engine.max_actions)

    def observation_space(self, agent: str):
        return self._observation_space

    def action_space(self, agent: str):
        return self._action_space

    # ---- the AEC cycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start the next game index of the seed, or game 0 of a new ``seed``; ``options`` may name
        the game, ``{"game_index": i}`` (the game ``simulate`` plays at that index)."""
        self.close()
        if seed is not None:
            self._setup = replace(self._setup, seed=int(seed), game=-1)
        game = (options or {}).get("game_index")
        self._setup = replace(self._setup, game=self._setup.game + 1 if game is None else int(game))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._views = {a: None for a in self.agents}
        self._totals[:] = 0
        self.finished = None
        self._thread = GameThread(self._setup, self.engine)
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(action)
            return
        decision = self.decision
        if action is None or not 0 <= int(action) < decision.n:
            raise InputError(f"illegal action {action!r} for {agent}: give an index below {decision.n}")
        self._cumulative_rewards[agent] = 0
        self._thread.answer(int(action))
        self._advance()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = self._views.get(agent)
        encoded = view.encode() if view is not None else np.zeros(self.engine.enc_size, dtype=np.int64)
        acting = self.decision is not None and agent == self.agent_selection
        mask = self.decision.mask() if acting else np.zeros(self.engine.max_actions, dtype=np.int8)
        return {"observation": encoded, "action_mask": mask}

    def agent_iter(self, max_iter: int = MAX_ITER) -> Iterator[str]:
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def last(self, observe: bool = True) -> tuple:
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def render(self) -> str | None:
        if self.decision is None:
            return None
        text = f"{self.agent_selection} {self.engine.kind_names[self.decision.view.kind]}: " + "; ".join(
            f"{i} {name}" for i, name in enumerate(self.decision.names()))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        if self._thread is not None:
            self._thread.abort()
            self._thread = None
        self.decision = None

    # ---- between decisions
    def _advance(self) -> None:
        """Wait for the game's next event and publish it: a decision, or the game's end."""
        event = self._thread.next_event()
        if isinstance(event, Failed):
            raise event.error
        if isinstance(event, Finished):
            self._finish(event)
            return
        self.decision = event
        agent = agent_name(event.view.seat)
        self._views[agent] = event.view
        total = self.engine.obs_total
        self._credit(event.view.obs[total:total + len(self._totals)])
        self.agent_selection = agent
        self.infos[agent] = {
            "action_mask": event.mask(), "legal": event.names(), "action_ids": event.ids(), "options": event.options,
            "kind": self.engine.kind_names[event.view.kind], "hint": event.hint, "view": event.view.as_dict(),
            "side": self.sides.of_seat[event.view.seat],
        }

    def _credit(self, totals: np.ndarray) -> None:
        """Reward every seat with the points its side scored since the last event: a side's score is
        its lowest seat's total (``rummysim.sides``; partners' totals are the team's)."""
        gains = np.asarray(totals, dtype=np.int64) - self._totals
        self._totals[:] = totals
        for s in range(len(gains)):
            agent = agent_name(s)
            if agent in self.rewards:
                gain = int(gains[self.sides.members(self.sides.of_seat[s])[0]])
                self.rewards[agent] = gain
                self._cumulative_rewards[agent] += gain

    def _finish(self, event: Finished) -> None:
        self.finished = event
        self.decision = None
        self._thread = None
        self._credit(event.row[G_TOTAL:G_TOTAL + len(self._totals)])
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = {"action_mask": np.zeros(self.engine.max_actions, dtype=np.int8), "legal": [],
                                 "totals": self._totals.copy()}
        self.agent_selection = self.agents[0]

    def _dead_step(self, action: int | None) -> None:
        """A terminated agent steps with None and leaves (the AEC convention)."""
        if action is not None:
            raise InputError(f"{self.agent_selection} is done: step it with None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        for other in self.rewards:
            self.rewards[other] = 0
