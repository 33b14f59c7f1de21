"""Rummikub in the registry: its rules vector and kernel entry points (``kernels.rummikub``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rummysim.games.spec import GameSpec, rules_header
from rummysim.kernels.common import results as R
from rummysim.kernels.rummikub import layout as LK
from rummysim.rules import Rules

_RELEASE = {"one_tile": LK.RELEASE_ONE_TILE, "both_colours": LK.RELEASE_BOTH_COLOURS}
_INITIAL = {"total": LK.INIT_TOTAL, "single_combo": LK.INIT_SINGLE_COMBO}
_INVALID = {"reject": LK.INVALID_REJECT, "penalty_draw3": LK.INVALID_PENALTY_DRAW3}

#: Hand-end reasons (a hand is a round): out (RKUB-END-1), the pool-empty passes (RKUB-END-2)
#: and the engine's turn cap.
REASONS = {R.END_OUT: "out", R.END_STOCK: "passes", R.END_TURN_CAP: "turn_cap"}

#: Per-round counters: tiles drawn, jokers freed from the table (RKUB-JOKER-3), penalty turns
#: (RKUB-TIME-1), in the hand-row slots the other games use for calls, floats and deep takes, and
#: the decisions whose solve the solver's beam cut (not proven best), in the row's spare slot.
COUNTERS = (("draws", LK.H_DRAWS), ("jokers_freed", LK.H_RETRIEVED), ("penalties", LK.H_PENALTIES),
            ("unproven_solves", LK.H_UNPROVEN))


def encode_rummikub(rules: Rules, n_players: int) -> np.ndarray:
    """Rummikub (RULES.md §6) with its variations (VKUB-*) and the AMB-38/39 choices."""
    vec = rules_header(rules, n_players, LK.RK_SIZE, LK.GAME_RUMMIKUB)
    vec[LK.RK_ROUNDS] = rules.rkub_rounds
    vec[LK.RK_DIRECTION] = 1 if rules.rkub_direction == "clockwise" else -1
    vec[LK.RK_JOKER_RELEASE] = _RELEASE[rules.rkub_group_joker_release]
    vec[LK.RK_MAX_JOKERS] = rules.rkub_max_jokers_per_combo
    vec[LK.RK_JOKER_PENALTY] = rules.rkub_joker_penalty
    vec[LK.RK_INITIAL_RULE] = _INITIAL[rules.rkub_initial_rule]
    vec[LK.RK_MANIPULATE_INITIAL] = int(rules.rkub_manipulate_on_initial_turn)
    vec[LK.RK_INVALID_TURN] = _INVALID[rules.rkub_invalid_turn]
    return vec


def counters_rummikub(flags: Mapping[str, object]) -> frozenset[str]:
    """Draws, freed jokers and unproven solves always; penalty turns only with
    ``rkub_invalid_turn = penalty_draw3``."""
    out = {"draws", "jokers_freed", "unproven_solves"}
    if flags.get("rkub_invalid_turn") == "penalty_draw3":
        out.add("penalties")
    return frozenset(out)


_ENTRY = "rummysim.kernels.rummikub.batch"

SPECS = (
    GameSpec(
        name="rummikub",
        encode=encode_rummikub,
        active_counters=counters_rummikub,
        games_runner_at=f"{_ENTRY}:run_games",
        hands_runner_at=f"{_ENTRY}:run_hands",
        traced_runner_at=f"{_ENTRY}:run_game_traced",
        validator_at="rummysim.validate.rummikub:validate_trace",
        replay_at="rummysim.replay:format_trace",
        hand_end_reasons=REASONS,
        hand_counters=COUNTERS,
        variant_at=f"{_ENTRY}:engine_variant_rk",
        warmup_runs=(("rummikub", "greedy"), ("rummikub", "py:rummysim:Strategy")),
        compile_seconds={"": 65.0, "step-api": 100.0},  # session 13: 66 s measured; the step API's: estimated
        step_game_at="rummysim.stepenv.engines:RUMMIKUB",
    ),
)
