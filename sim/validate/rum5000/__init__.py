"""Independent rules checker for 5000 Rummy traces (game code 2).

:func:`validate_trace` replays a trace record by record against RULES.md §4 (base rules), §5
(variations V5K-2..14), §8 (tables), §9 (AMB-28..37) and the "5000 Rummy" section of
docs/trace-format.md.  Like the 500 Rum checker (:mod:`rummysim.validate.rum500`) it was written
from those two documents alone, as a second opinion on the engine; the two share only the common
modules of :mod:`rummysim.validate` (trace reading and record kinds, cards, flag tables, the record
loop).

Flags: ``r5k_target`` (auto or a positive int), ``r5k_must_go_out_to_win``, ``r5k_rummy``,
``r5k_going_out``, ``r5k_michigan``, ``r5k_polish``, ``r5k_first_turn``, ``r5k_money_cards`` and
``r5k_payoff`` (a stakes flag, V5K-1: play is unchanged, so every value is accepted),
``r5k_persian`` (V5K-9, below), ``r5k_doubling`` and ``r5k_limit_poker`` (the stakes layers
V5K-13/14, checked by ``stakes``), plus the engine caps.  Every flag of another game must hold its
default, otherwise ``ValueError`` names the flag.

Window asks (docs/trace-format.md "Window asks", when GAME_START column 7 declares them,
:mod:`~rummysim.validate.rum5000.asks`): every rummy window asks the seats but the one whose turn
just ended (and its partner) clockwise from the seat whose normal turn is next, until the first
call, and the call turn is that caller's on the index it named (V5K-3a, V5K-4a).

Persian 5000 (docs/trace-format.md "Persian 5000"): 4 seats, team of seat s = s mod 2; a
partnership's melds are its own for R5K-SEQ-4/6 (JOIN without cards), R5K-GROUP-2 counts per
partnership, no rummy call by the partner of the seat whose turn just ended (reported as
``V5K-9``), Michigan per team (the two opponents pay), SCORE ``total_after`` the team total and the
TEAM_SCORE records, the game end per team (target 2000 by default, V5K-2 per team, a tie: winner
-1 and every seat in the tie mask).

Rule IDs in violations are RULES.md IDs plus ``C-CARD-CONSERVATION`` (a card is not where the trace
moves it from; every one of the 104 cards is in exactly one place: stock, pile, a hand, a meld
slot), ``TRACE-FORMAT`` and ``ENGINE-TURN-CAP`` / ``ENGINE-HAND-CAP``.  The readings this checker
had to choose are listed in docs/rules-decisions.md (validator section, V15 onwards).

Modules: ``config`` (flags), ``table`` (cards, values and table melds), ``phases`` (what may come
next), ``replayer`` (the replayer and the deal) with its mixins ``draws``, ``plays``, ``turns``,
``scoring``, ``asks`` (window asks) and ``stakes`` (Doubling, Limit-Poker); ``results`` checks the
result columns the stakes layers add (V5K-1 game points, stake and payout columns).
"""

from __future__ import annotations

from typing import Mapping

from rummysim.validate.rum5000.config import GAME_NAMES, parse_flags
from rummysim.validate.rum5000.replayer import Rum5000Replayer
from rummysim.validate.trace import ValidationResult, result_of, trace_rows

__all__ = ["GAME_NAMES", "validate_trace"]


def validate_trace(trace: object, flags: Mapping[str, object] | None = None
                   ) -> ValidationResult:
    """Replay a 5000 Rummy ``trace`` and check it against RULES.md §4-5 under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement (a ``game`` flag
    must name 5000 Rummy); every problem with the trace itself is a
    :class:`~rummysim.validate.Violation`.
    """
    cfg = parse_flags(flags)
    rows, error = trace_rows(trace)
    if error is not None:
        return error
    return result_of(Rum5000Replayer(rows, cfg))
