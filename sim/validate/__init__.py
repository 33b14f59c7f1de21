"""The independent rules validator: replays kernel traces and checks every action against RULES.md.

It imports nothing from the kernels or the strategies (a second opinion, not a copy).  The common
modules read what every game shares: ``trace`` (record kinds, trace rows, result types, the record
loop), ``cards`` (card ids and names), ``flags`` (the RULES.md §8.6 flag tables) and ``teams``
(partnership play: teams of seats, team scores and totals) and ``presets`` (the validator's own
expansion of a preset name plus overrides, :func:`check_configuration`); each game has
its checker, :mod:`rummysim.validate.rum500` (500 Rum and Standard Rummy) and
:mod:`rummysim.validate.rum5000` (5000 Rummy) and :mod:`rummysim.validate.rummikub` (Rummikub),
with the same ``validate_trace(trace, flags)``.

:func:`validate_trace` here picks the checker from ``flags["game"]`` (:data:`VALIDATORS`) or, when
the flags name no game, from the first GAME_START's game code (2: 5000 Rummy, 3: Rummikub, else
500 Rum).
"""

from __future__ import annotations

from typing import Callable, Mapping

from rummysim.validate import rum500, rum5000, rummikub
from rummysim.validate.presets import RunSettings, check_configuration
from rummysim.validate.trace import (
    GAME_CODE_5000,
    GAME_CODE_RUMMIKUB,
    ValidationResult,
    Violation,
    first_game_code,
)

__all__ = ["VALIDATORS", "RunSettings", "ValidationResult", "Violation", "check_configuration",
           "validate_trace"]

Validator = Callable[[object, "Mapping[str, object] | None"], ValidationResult]

#: ``game`` flag value -> the checker of that game
VALIDATORS: dict[str, Validator] = {
    **dict.fromkeys(rum500.GAME_NAMES, rum500.validate_trace),
    **dict.fromkeys(rum5000.GAME_NAMES, rum5000.validate_trace),
    **dict.fromkeys(rummikub.GAME_NAMES, rummikub.validate_trace),
}

#: GAME_START game code -> its checker, when the flags name no game (another code: 500 Rum)
BY_GAME_CODE: dict[int, Validator] = {
    GAME_CODE_5000: rum5000.validate_trace,
    GAME_CODE_RUMMIKUB: rummikub.validate_trace,
}


def _validator_for(flags: Mapping[str, object] | None, trace: object) -> Validator:
    if flags and "game" in flags:
        raw = flags["game"]
        validator = VALIDATORS.get(raw) if isinstance(raw, str) else None
        if validator is None:
            raise ValueError(f"flag game: value {raw!r} is not checked (only '500-rum', "
                             "'standard-rummy', '5000-rummy' and 'rummikub')")
        return validator
    return BY_GAME_CODE.get(first_game_code(trace), rum500.validate_trace)


def validate_trace(trace: object, flags: Mapping[str, object] | None = None) -> ValidationResult:
    """Replay ``trace`` and check it against RULES.md under ``flags``, with the checker of the
    game ``flags["game"]`` names (or, without a ``game`` flag, of the trace's GAME_START game code).

    Raises ``ValueError`` only for flag values the checker does not implement; every problem with
    the trace itself is reported as a :class:`Violation`.
    """
    return _validator_for(flags, trace)(trace, flags)
