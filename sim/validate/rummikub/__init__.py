"""Independent rules checker for Rummikub traces (game code 3).

:func:`validate_trace` replays a trace record by record against RULES.md §6 (RKUB-* and VKUB-*),
§8 (tables), §9 (AMB-38..45) and the "Rummikub" section of docs/trace-format.md.  Like the 500 Rum
and 5000 Rummy checkers it was written from those two documents alone, as a second opinion on the
engine, and shares only the common modules of :mod:`rummysim.validate` (trace reading, record
kinds, flag tables, the record loop).

After every turn it checks: the turn order (RKUB-DIR-1, VKUB-DIR) and that the turn is one draw,
one pass or one play (RKUB-TURN-1/3, RKUB-END-2); the table after a play is a partition of its
tiles into valid groups and runs with designated jokers (RKUB-COMB-1/2/3, RKUB-JOKER-1,
VKUB-TWOJOKERS) that keeps every table tile on the table (RKUB-MANIP-1) and plays a rack tile;
the initial meld (RKUB-INIT-30, RKUB-INIT-2, AMB-38/39); the joker lock and retrieval
(RKUB-JOKER-2/3, VKUB-JOKERBOTH, AMB-43); penalties (RKUB-TIME-1); the round end (RKUB-END-1/2,
AMB-42), scores (RKUB-SCORE-1, VKUB-JOKER25) and the game end (RKUB-GAME-1).

Flags: every ``rkub_`` flag of RULES.md §8.6 with every value, plus the engine caps; every flag of
another game must hold its default, otherwise ``ValueError`` names the flag.

Rule IDs in violations are RULES.md IDs plus ``C-CARD-CONSERVATION`` (a tile is not where the
trace takes it from; every one of the 106 tiles is in exactly one place: the pool, a rack, the
table), ``C-SCORE-3`` (running totals), ``TRACE-FORMAT`` and ``ENGINE-TURN-CAP`` /
``ENGINE-HAND-CAP``.  The readings this checker had to choose are listed in
docs/rules-decisions.md (validator section, V37-V45).

Modules: ``config`` (flags), ``tiles`` (tile ids, combinations and their validity), ``table`` (the
rules of a whole table after a turn), ``phases`` (what may come next), ``replayer`` (the replayer
and the deal) with its mixins ``turns``, ``plays`` and ``scoring``.
"""

from __future__ import annotations

from typing import Mapping

from rummysim.validate.rummikub.config import GAME_NAMES, parse_flags
from rummysim.validate.rummikub.replayer import RummikubReplayer
from rummysim.validate.trace import ValidationResult, result_of, trace_rows

__all__ = ["GAME_NAMES", "validate_trace"]


def validate_trace(trace: object, flags: Mapping[str, object] | None = None
                   ) -> ValidationResult:
    """Replay a Rummikub ``trace`` and check it against RULES.md §6 under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement (a ``game`` flag
    must name Rummikub); every problem with the trace itself is a
    :class:`~rummysim.validate.Violation`.
    """
    cfg = parse_flags(flags)
    rows, error = trace_rows(trace)
    if error is not None:
        return error
    return result_of(RummikubReplayer(rows, cfg))
