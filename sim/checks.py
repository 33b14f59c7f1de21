"""Trace-mode runs: play games recording every action and replay them through the validator.

This is the bridge between the kernels (which play) and ``rummysim.validate`` (which only knows
RULES.md and docs/trace-format.md), both found through the game's registry entry. It also renders
one game for ``rummysim replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from rummysim.errors import InputError
from rummysim.kernels.common import results as R
from rummysim.kernels.common import layout as C
from rummysim.limits import check_game_index, check_range, check_seed
from rummysim.rules import Rules
from rummysim.simulation import RunConfig, play_game_chunk, prepare
from rummysim.validate import RunSettings, check_configuration
from rummysim.validate.asks import ASKS_RECORDED
from rummysim.validate.trace import (GAME_BONUS, GAME_CODE_500, GAME_CODE_5000, GAME_CODE_STANDARD, GAME_END, GAME_START,
                                     PAYOUT, STAKES_START)

TRACE_ROWS = 400_000
#: GAME_START game codes of the kernels that record their windows' asks (docs/trace-format.md)
WINDOW_GAME_CODES = (GAME_CODE_500, GAME_CODE_STANDARD, GAME_CODE_5000)


@dataclass
class ReportedViolation:
    seed: int
    game_index: int  # -1: the run's configuration (the validator's own preset expansion)
    action: int
    rule_id: str
    message: str


@dataclass
class ValidationReport:
    games: int = 0
    actions_checked: int = 0
    violations: list[ReportedViolation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


def traced_game(cfg: RunConfig, seed: int, game_index: int, buffer: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, bool]:
    """(trace rows, kernel game row, overflowed) for one game."""
    if buffer is None:
        buffer = np.zeros((TRACE_ROWS, C.TRACE_COLS), dtype=np.int32)
    game_row, used, over = cfg.spec.traced_runner()(cfg.vector, cfg.lineup, cfg.params, seed, game_index, buffer)
    return buffer[:used].copy(), game_row, bool(over)


def _flags(cfg: RunConfig) -> dict[str, object]:
    return cfg.rules.as_dict()


def _configuration_violations(settings: RunSettings, flags: dict[str, object], seed: int) -> list[ReportedViolation]:
    """The validator's own expansion of what the run was asked for, against the flags it played
    (game index -1: the run's configuration, not one game)."""
    return [ReportedViolation(seed, -1, 0, v.rule_id, v.message) for v in check_configuration(settings, flags)]


def validate_run(
    game: str = "500-rum",
    players: int = 4,
    lineup: str = "random",
    games: int = 100,
    seed: int = 0,
    rule: Sequence[str] = (),
    rules: Rules | None = None,
    progress: Callable[[int, int], None] | None = None,
    betting: str | None = None,
) -> ValidationReport:
    """Play ``games`` games in trace mode and replay each through the independent validator
    (``betting``: the seats' betting policies of a stakes game, V5K-13/14).

    The validator also expands the preset name ``game`` and the ``rule`` overrides itself (from
    RULES.md, not through the config layer) and reports every flag where the run's rules differ.

    Example:
        >>> from rummysim import validate_run
        >>> validate_run("500-rum", players=3, lineup="random", games=5, seed=1).ok
        True
    """
    check_range(games, "--games", 1)
    check_seed(seed)
    cfg = prepare(game, players, lineup, rule, rules, betting)
    flags = _flags(cfg)
    report = ValidationReport()
    settings = RunSettings(None if rules is not None else game, tuple(rule), rules.as_dict() if rules is not None else None)
    report.violations.extend(_configuration_violations(settings, flags, seed))
    validate_trace = cfg.spec.validator()
    results = _ResultColumns(cfg)
    buffer = np.zeros((TRACE_ROWS, C.TRACE_COLS), dtype=np.int32)
    for g in range(games):
        trace, game_row, over = traced_game(cfg, seed, g, buffer)
        report.games += 1
        if over:
            report.violations.append(
                ReportedViolation(seed, g, len(trace), "TRACE-FORMAT", f"trace longer than {TRACE_ROWS} rows")
            )
            continue
        try:
            result = validate_trace(trace, flags)
        except ValueError as exc:  # a validator refuses the flags it does not check (the stakes layers, today)
            raise InputError(f"the validator cannot check this configuration: {exc}") from None
        report.actions_checked += result.actions_checked
        for v in result.violations:
            report.violations.append(ReportedViolation(seed, g, v.record, v.rule_id, v.message))
        report.violations.extend(_kernel_row_matches_trace(seed, g, trace, game_row, players))
        results.keep(g, trace)
        report.violations.extend(_kernel_trace_records_asks(seed, g, trace))
        if progress is not None:
            progress(g + 1, games)
    report.violations.extend(results.problems(cfg, seed, games))
    return report


class _ResultColumns:
    """The validator's check of the result columns some rules add (5000 Rummy's payoff and stakes
    columns): the games are played again on the normal, untraced path, and each game's rows are
    checked against the records of its trace that decide them."""

    KINDS = (GAME_START, STAKES_START, PAYOUT, GAME_END)

    def __init__(self, cfg: RunConfig) -> None:
        self.check = cfg.spec.result_checker()
        self.payoff = str(cfg.rules.as_dict().get("r5k_payoff", "difference"))
        self.rows: list[np.ndarray] = []

    def keep(self, g: int, trace: np.ndarray) -> None:
        if self.check is not None:
            self.rows.append(trace[np.isin(trace[:, 0], self.KINDS)])

    def problems(self, cfg: RunConfig, seed: int, games: int) -> list[ReportedViolation]:
        if self.check is None:
            return []
        game_rows, hand_rows = play_game_chunk(cfg, seed, 0, games, want_hands=True)
        by_game = hand_rows.partition_by("game_index", as_dict=True) if hand_rows is not None else {}
        found = []
        for g, rows in enumerate(self.rows):
            hands = by_game.get((g,))
            named = hands.rows(named=True) if hands is not None else []
            for v in self.check(rows, game_rows.row(g, named=True), named, self.payoff):
                found.append(ReportedViolation(seed, g, v.record, v.rule_id, f"result columns: {v.message}"))
        return found


def _kernel_trace_records_asks(seed: int, g: int, trace: np.ndarray) -> list[ReportedViolation]:
    """A trace of the kernels that have call or out-of-turn windows (500 Rum, Standard Rummy, 5000
    Rummy) declares that it lists every seat they ask (GAME_START column 7), so the validator
    checks the asks rather than skipping them."""
    if trace[0, 0] != C.T_GAME_START or trace[0, 5] not in WINDOW_GAME_CODES or trace[0, 7] & ASKS_RECORDED:
        return []
    return [ReportedViolation(seed, g, 0, "TRACE-FORMAT", "the kernel's trace does not declare its window asks (GAME_START column 7)")]


def _kernel_row_matches_trace(seed: int, g: int, trace: np.ndarray, row: np.ndarray, n: int) -> list[ReportedViolation]:
    """The game row the fast path reports must agree with what the trace shows."""
    end = trace[-1]
    problems = []
    if end[0] != C.T_GAME_END or end[1] != row[R.G_WINNER] or end[2] != row[R.G_HANDS] or end[4] != row[R.G_TIED]:
        problems.append(ReportedViolation(seed, g, len(trace) - 1, "KERNEL-ROW", "kernel game row differs from the trace's GAME_END"))
    scores = trace[trace[:, 0] == C.T_SCORE]
    finals = scores[-n:, 3].copy() if len(scores) >= n else np.zeros(n)
    for team, _bonus, total in trace[trace[:, 0] == GAME_BONUS][:, 1:4]:
        finals[team::2] = total  # V500-PERSIAN-5: the game bonus after the last SCORE records
    if not np.array_equal(finals, row[R.G_TOTAL : R.G_TOTAL + n]):
        problems.append(ReportedViolation(seed, g, len(trace) - 1, "C-SCORE-3", "kernel totals differ from the trace's last SCORE records"))
    return problems


def replay_game(
    seed: int,
    game_index: int,
    game: str = "500-rum",
    players: int = 4,
    lineup: str = "greedy",
    rule: Sequence[str] = (),
    rules: Rules | None = None,
    betting: str | None = None,
    full_pile: bool = False,
) -> str:
    """One game, turn by turn, as text a person can read (card glyphs, melds, pile, scores, and
    the stakes actions of a stakes game played with the ``betting`` policies); ``full_pile``
    shows the whole discard pile after each turn instead of its top 10 cards.

    Example:
        >>> text = replay_game(7, 3, players=2, lineup="greedy,random")
        >>> text.splitlines()[0].startswith("Game 3")
        True
    """
    check_seed(seed)
    check_game_index(game_index)
    cfg = prepare(game, players, lineup, rule, rules, betting)
    trace, _, _ = traced_game(cfg, seed, game_index)
    return cfg.spec.replay()(trace, full_pile=full_pile)
