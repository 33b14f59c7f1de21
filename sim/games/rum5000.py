"""5000 Rummy in the registry: its rules vector and kernel entry points (``kernels.rum5000``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rummysim.games.spec import COMMON_REASONS, GameSpec, rules_header
from rummysim.kernels.rum5000 import layout as L5
from rummysim.rules import Rules

_RUMMY_5K = {"off": L5.RUMMY_OFF, "top_card": L5.RUMMY_TOP, "any_cards": L5.RUMMY_ANY}
_GOING_OUT_5K = {"any": L5.GO_ANY, "unmeldable_discard": L5.GO_UNMELDABLE, "meld_all": L5.GO_MELD_ALL}
_FIRST_TURN_5K = {"upcard": L5.FT_UPCARD, "extra_card": L5.FT_EXTRA_CARD, "exchange_upcard": L5.FT_EXCHANGE}


def r5k_target(rules: Rules, n_players: int) -> int:
    """R5K-GAME-1: ``auto`` is 5000 with 2 players, 3000 with 3, 2000 with 4 or 5."""
    if rules.r5k_target == "auto":
        return {2: 5000, 3: 3000}.get(n_players, 2000)
    return int(rules.r5k_target)


def encode_5000(rules: Rules, n_players: int) -> np.ndarray:
    """5000 Rummy (RULES.md §4) with its play and scoring variations (§5)."""
    vec = rules_header(rules, n_players, L5.R5_SIZE, L5.GAME_5000)
    vec[L5.R5_TARGET] = r5k_target(rules, n_players)
    vec[L5.R5_RUMMY] = _RUMMY_5K[rules.r5k_rummy]
    vec[L5.R5_GOING_OUT] = _GOING_OUT_5K[rules.r5k_going_out]
    vec[L5.R5_MUST_GO_OUT] = int(rules.r5k_must_go_out_to_win)
    vec[L5.R5_MICHIGAN] = int(rules.r5k_michigan)
    vec[L5.R5_POLISH] = int(rules.r5k_polish)
    vec[L5.R5_FIRST_TURN] = _FIRST_TURN_5K[rules.r5k_first_turn]
    vec[L5.R5_MONEY] = int(rules.r5k_money_cards)
    vec[L5.R5_PERSIAN] = int(rules.r5k_persian)
    vec[L5.R5_STAKES] = stakes_mode(rules)
    return vec


def stakes_mode(rules: Rules) -> int:
    """STAKES_*: Doubling (V5K-13), Limit-Poker (V5K-14) or neither."""
    if rules.r5k_doubling:
        return L5.STAKES_DOUBLING
    if rules.r5k_limit_poker:
        return L5.STAKES_POKER
    return L5.STAKES_OFF


def sides_5000(rules: Rules, players: int) -> tuple[int, ...]:
    """Persian 5000 (V5K-9): partners opposite, seats 0 and 2 against 1 and 3."""
    return (0, 1, 0, 1) if rules.r5k_persian else tuple(range(players))


def counters_5000(flags: Mapping[str, object]) -> frozenset[str]:
    """Rummy calls with V5K-3/V5K-4, deep takes always; no floats are recorded in 5000 Rummy."""
    return frozenset({"deep_takes"} | ({"calls"} if flags.get("r5k_rummy", "off") != "off" else set()))


def has_stakes_5000(rules: Rules) -> bool:
    return stakes_mode(rules) != L5.STAKES_OFF


def game_columns_5000(rules: Rules, rows: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """``stake_0``, ``stake_1`` for a Doubling or Limit-Poker session; ``payoff_k`` (V5K-1's game
    point: 1 to the winner, 1/k to each of k tied winners, 0 in a capped game) for ``game_point``."""
    if has_stakes_5000(rules):
        return {f"stake_{s}": rows[:, L5.G_STAKE + s].astype(np.int32) for s in range(2)}
    if rules.r5k_payoff != "game_point":
        return {}
    winner, tied, capped = rows[:, L5.G_WINNER], rows[:, L5.G_TIED], rows[:, L5.G_CAPPED] != 0
    seats = np.arange(players)
    wins = (winner[:, None] == seats[None, :]) | (((tied[:, None] >> seats[None, :]) & 1) == 1)
    wins &= ~capped[:, None]
    k = np.maximum(wins.sum(axis=1, keepdims=True), 1)
    share = wins / k
    return {f"payoff_{s}": share[:, s].astype(np.float64) for s in range(players)}


def hand_columns_5000(rules: Rules, rows: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """``stake`` (the hand's stake at its end, or the pot) and ``payout_0``, ``payout_1`` for stakes."""
    if not has_stakes_5000(rules):
        return {}
    return {"stake": rows[:, L5.H_STAKE].astype(np.int32),
            **{f"payout_{s}": rows[:, L5.H_PAYOUT + s].astype(np.int32) for s in range(2)}}


_ENTRY = "rummysim.kernels.rum5000.batch"

SPECS = (
    GameSpec(
        name="5000-rummy",
        encode=encode_5000,
        active_counters=counters_5000,
        games_runner_at=f"{_ENTRY}:run_games5",
        hands_runner_at=f"{_ENTRY}:run_hands5",
        traced_runner_at=f"{_ENTRY}:run_game_traced5",
        validator_at="rummysim.validate.rum5000:validate_trace",
        result_checker_at="rummysim.validate.rum5000.results:result_problems",
        replay_at="rummysim.replay:format_trace",
        hand_end_reasons={**COMMON_REASONS, L5.END_STALL: "stall",  # R5K-DRAW-5
                          L5.END_FOLD: "fold", L5.END_CONCEDE: "concede"},  # V5K-13, V5K-14
        sides=sides_5000,
        has_stakes=has_stakes_5000,
        game_columns=game_columns_5000,
        hand_columns=hand_columns_5000,
        variant_at=f"{_ENTRY}:engine_variant5",
        # the engine's switches (search, full: doubling is a rare path) on and off, and the step
        # API's engine
        warmup_runs=tuple(("5000-rummy", lineup, rule) for lineup in ("greedy", "search")
                          for rule in ((), ("r5k_doubling=true",))) + (("5000-rummy", "py:rummysim:Strategy"),),
        # "" measured idle at session 23 (31.9 s, 3 players, median of 3, the hand's pieces as
        # calls), "full" as session 22's "" with the rare paths (41-45 s), "search" (the variant
        # compiling search) as "" was before search was left out of it (47-51 s); the step API's:
        # estimated
        compile_seconds={"": 35.0, "full": 45.0, "search": 50.0, "step-api": 100.0},
        step_game_at="rummysim.stepenv.engines:RUM5000",
    ),
)
