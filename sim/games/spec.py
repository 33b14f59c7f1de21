"""``GameSpec``: what the orchestration layers know about one game, and what every game shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import numpy as np

from rummysim.kernels.common import layout as C
from rummysim.kernels.common import results as R
from rummysim.errors import RummysimError
from rummysim.rules import FLAGS, PRESETS, Rules

#: Hand-end reasons every game shares (kernels.common.results END_*), by code.
COMMON_REASONS: dict[int, str] = {
    R.END_OUT: "out",
    R.END_STOCK: "stock_out",
    R.END_IDLE: "idle_guard",
    R.END_TURN_CAP: "turn_cap",
}

#: Per-hand counters every game's kernels fill in today: (column, hand-row slot).
COMMON_COUNTERS: tuple[tuple[str, int], ...] = (
    ("calls", R.H_CALLS),
    ("floats", R.H_FLOATS),
    ("deep_takes", R.H_DEEP_TAKES),
)


def _load(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


@dataclass(frozen=True)
class GameSpec:
    """What the orchestration layers know about one game (``name`` as in ``Rules.game``).

    The ``*_runner``, ``validator`` and ``replay`` fields name entry points ``"module:attribute"``:
    ``games_runner(rules, lineup, params, seed, start, count, out_games, out_hands)``,
    ``hands_runner(rules, lineup, params, seed, start, count, out_hands)``,
    ``traced_runner(rules, lineup, params, seed, game, trace) -> (game row, rows used, overflowed)``,
    ``validator(trace, flags) -> ValidationResult`` and ``replay(trace, full_pile=False) -> str``.
    ``active_counters(flags)`` names the per-hand counters that a run's flags (``Rules.as_dict()``)
    can make non-zero: the others are shown as n/a rather than 0.
    """

    name: str
    encode: Callable[[Rules, int], np.ndarray]
    games_runner_at: str
    hands_runner_at: str
    traced_runner_at: str
    validator_at: str
    replay_at: str
    hand_end_reasons: dict[int, str]
    active_counters: Callable[[Mapping[str, object]], frozenset[str]]
    hand_counters: tuple[tuple[str, int], ...] = COMMON_COUNTERS
    sides: Callable[[Rules, int], tuple[int, ...]] = lambda rules, players: tuple(range(players))  # SideMap.of_seat
    #: whether the rules play a stakes layer whose seats need betting policies (``--betting``)
    has_stakes: Callable[[Rules], bool] = lambda rules: False
    #: the columns a run's rules add to its game rows and its hand rows, from the kernel rows:
    #: ``(rules, rows, players) -> {name: values}`` (none for most configurations)
    game_columns: Callable[[Rules, np.ndarray, int], dict[str, np.ndarray]] = lambda rules, rows, players: {}
    hand_columns: Callable[[Rules, np.ndarray, int], dict[str, np.ndarray]] = lambda rules, rows, players: {}
    #: the validator's check of the result columns a run's rules add (``"module:attribute"``:
    #: ``(trace rows, game row, hand rows, payoff) -> violations``), or None when there are none
    result_checker_at: str | None = None
    #: the compiled engine variant a run plays (``"module:attribute"``: ``(rules vector, lineup ids)
    #: -> label``, e.g. ``heuristic-lean``), or None for a game whose kernels compile one variant
    variant_at: str | None = None
    #: the step API's engine record (``"module:attribute"``, a ``stepenv.engines.StepGame``), or
    #: None for a game the step API does not drive yet
    step_game_at: str | None = None
    #: runs that between them play every variant (``rummysim warmup``): (preset, lineup) or
    #: (preset, lineup, rule settings), read as ``warmup.WarmupRun``s
    warmup_runs: tuple[tuple, ...] = ()
    #: measured seconds of a variant's cold compile (a 1-game ``simulate``), by its label or by the
    #: label's first word (the strategy family; "" for a game of one variant): the first-compile
    #: note's estimate
    compile_seconds: Mapping[str, float] = field(default_factory=dict)

    @property
    def flags(self) -> tuple[str, ...]:
        """The names of this game's own flags (RULES.md §8.6), engine caps excluded."""
        return tuple(name for name, f in FLAGS.items() if f.game == self.name)

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(name for name, p in PRESETS.items() if p.game == self.name)

    def games_runner(self) -> Callable:
        return _load(self.games_runner_at)

    def hands_runner(self) -> Callable:
        return _load(self.hands_runner_at)

    def traced_runner(self) -> Callable:
        return _load(self.traced_runner_at)

    def validator(self) -> Callable:
        """The game's validator; a build without it (a game whose checker has not landed yet) says so
        as a ``RummysimError`` rather than an import traceback."""
        try:
            return _load(self.validator_at)
        except ModuleNotFoundError as exc:
            raise RummysimError(f"this build has no validator for {self.name} ({exc.name} is missing)") from None

    def result_checker(self) -> Callable | None:
        return None if self.result_checker_at is None else _load(self.result_checker_at)

    def step_game(self) -> Any:
        """The step API's ``StepGame`` for this game, or None."""
        return None if self.step_game_at is None else _load(self.step_game_at)

    def replay(self) -> Callable:
        return _load(self.replay_at)

    def variant(self, vector: np.ndarray, lineup: np.ndarray) -> str:
        """The label of the compiled engine variant a run plays ("" when the game has one)."""
        return "" if self.variant_at is None else _load(self.variant_at)(vector, lineup)

    def reason_names(self) -> np.ndarray:
        """Hand-end reason names indexed by code ("unknown" where a code means nothing here)."""
        names = np.full(max(self.hand_end_reasons) + 1, "unknown", dtype=object)
        for code, name in self.hand_end_reasons.items():
            names[code] = name
        return names


def rules_header(rules: Rules, n_players: int, size: int, game: int) -> np.ndarray:
    """A zeroed rules vector of a game's ``size`` with the common header filled in
    (``kernels.common.layout``); the game's encoder fills its own slots."""
    vec = np.zeros(size, dtype=np.int64)
    vec[C.R_GAME] = game
    vec[C.R_N_PLAYERS] = n_players
    vec[C.R_TURN_CAP] = rules.max_turns_per_hand
    vec[C.R_HAND_CAP] = rules.max_hands_per_game
    return vec
