"""The validator's reading of a kernel trace (docs/trace-format.md), shared by every game's checker.

It declares, once for the validator, the record kinds (the common ones, 1..63, and each game's own
range), the GAME_START game and partnership codes and the MELD kinds; reads a trace array into rows of plain ints;
defines the result types :class:`Violation` and :class:`ValidationResult`; and holds
:class:`Replayer`, the record loop every game's replayer runs (dispatch by record kind, the
unused-columns check, stopping a game after a fatal violation and going on with the next one).
These declarations are the validator's own, written from the trace spec; nothing here comes from
the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NoReturn

import numpy as np

# --------------------------------------------------------------------------------------------
# Record kinds (docs/trace-format.md "Records"): numbered in ranges
# --------------------------------------------------------------------------------------------

COMMON_KINDS = range(1, 64)  # every game
RUM500_KINDS = range(64, 96)  # 500 Rum and Standard Rummy
RUM5000_KINDS = range(96, 128)  # 5000 Rummy
RUMMIKUB_KINDS = range(128, 160)  # Rummikub

GAME_START = 1
HAND_START = 2
DECK = 3
TURN_START = 5
DRAW_STOCK = 10
TAKE_PILE = 11
NO_DRAW = 12
MELD = 20
CARD = 21
LAYOFF = 22
DISCARD = 30
FLOAT = 31
HAND_END = 40
SCORE = 41
TEAM_SCORE = 42  # partnerships (V500-PARTNER-2, V5K-9)
GAME_BONUS = 43  # V500-PERSIAN-5
GAME_END = 50

RESTOCK = 64  # 500 Rum's range
RESHUFFLE = 65
START_PILE = 66
OUT_OF_TURN = 67
ADDOPP_LAYOFF = 68
DEALERS_JOKER = 69  # V500-GAMBIT-1
NOMINATE = 70  # V500-GAMBIT-3
DOUBLE = 71  # V500-GAMBIT-5
SPLIT = 72  # V500-GAMBIT-6
BLOCK = 73  # V500-GAMBIT-8
OOT_ASK = 94  # a seat's turn in an out-of-turn window (V500-OUTOFTURN)
RUMMY_ASK = 95  # a seat asked in a rummy-call window (V500-RUMMY-1)

FACE_UP = 96  # 5000 Rummy's range
TAKE_ALL = 97  # V5K-8
EXCHANGE = 98  # V5K-11
JOIN = 99  # R5K-SEQ-5/6
TRADE = 100  # R5K-TRADE-1
# 5000 Rummy stakes layers (docs/trace-format.md "Stakes"): V5K-13 Doubling, V5K-14 Limit-Poker
STAKES_START = 101
HAND_STAKE = 102
STAKE_DOUBLE = 103  # the Doubling offer (docs/trace-format.md names it DOUBLE; 71 is the gambit's)
DOUBLE_TAKE = 104
DOUBLE_FOLD = 105
BEAVER = 106
ANTE = 107
CHECK = 108
BET = 109
CALL = 110
RAISE = 111
CONCEDE = 112
PAYOUT = 113
EXCHANGE_ASK = 126  # a seat offered the upcard swap (V5K-11)
CALL_ASK = 127  # a seat asked in a rummy-call window (V5K-3a, V5K-4a)

FIRST_TILE = 128  # Rummikub's range
INITIAL = 129  # RKUB-INIT-30
TABLE = 130  # the whole table after a play
COMBO = 131  # one combination of an INITIAL, TABLE or ATTEMPT block
TILE = 132  # one tile of a COMBO
PASS = 133  # RKUB-END-2
ATTEMPT = 134  # RKUB-TIME-1 penalty_draw3: an invalid table tried
PENALTY = 135  # ... undone, with the penalty draws

RECORD_NAMES: dict[int, str] = {
    GAME_START: "GAME_START",
    HAND_START: "HAND_START",
    DECK: "DECK",
    RESTOCK: "RESTOCK",
    TURN_START: "TURN_START",
    RESHUFFLE: "RESHUFFLE",
    START_PILE: "START_PILE",
    FACE_UP: "FACE_UP",
    DRAW_STOCK: "DRAW_STOCK",
    TAKE_PILE: "TAKE_PILE",
    NO_DRAW: "NO_DRAW",
    TAKE_ALL: "TAKE_ALL",
    EXCHANGE: "EXCHANGE",
    MELD: "MELD",
    CARD: "CARD",
    LAYOFF: "LAYOFF",
    OUT_OF_TURN: "OUT_OF_TURN",
    ADDOPP_LAYOFF: "ADDOPP_LAYOFF",
    DEALERS_JOKER: "DEALERS_JOKER",
    NOMINATE: "NOMINATE",
    DOUBLE: "DOUBLE",
    SPLIT: "SPLIT",
    BLOCK: "BLOCK",
    JOIN: "JOIN",
    TRADE: "TRADE",
    RUMMY_ASK: "RUMMY_ASK",
    OOT_ASK: "OOT_ASK",
    CALL_ASK: "CALL_ASK",
    EXCHANGE_ASK: "EXCHANGE_ASK",
    DISCARD: "DISCARD",
    FLOAT: "FLOAT",
    HAND_END: "HAND_END",
    SCORE: "SCORE",
    TEAM_SCORE: "TEAM_SCORE",
    GAME_BONUS: "GAME_BONUS",
    GAME_END: "GAME_END",
    FIRST_TILE: "FIRST_TILE",
    INITIAL: "INITIAL",
    TABLE: "TABLE",
    COMBO: "COMBO",
    TILE: "TILE",
    PASS: "PASS",
    ATTEMPT: "ATTEMPT",
    PENALTY: "PENALTY",
    STAKES_START: "STAKES_START",
    HAND_STAKE: "HAND_STAKE",
    STAKE_DOUBLE: "DOUBLE",
    DOUBLE_TAKE: "DOUBLE_TAKE",
    DOUBLE_FOLD: "DOUBLE_FOLD",
    BEAVER: "BEAVER",
    ANTE: "ANTE",
    CHECK: "CHECK",
    BET: "BET",
    CALL: "CALL",
    RAISE: "RAISE",
    CONCEDE: "CONCEDE",
    PAYOUT: "PAYOUT",
}

# GAME_START column 5
GAME_CODE_500 = 0
GAME_CODE_STANDARD = 1
GAME_CODE_5000 = 2
GAME_CODE_RUMMIKUB = 3

# GAME_START column 6: the partnership code
PARTNERS_NONE = 0
PARTNERS_500 = 1  # V500-PARTNER
PARTNERS_PERSIAN = 2  # V500-PERSIAN
PARTNERS_PERSIAN_5000 = 3  # V5K-9

# MELD column 3: 500 Rum / Standard Rummy set and run; 5000 Rummy group, sequence, wild-card group
SET, RUN, GROUP, SEQUENCE, WILD_GROUP = 0, 1, 2, 3, 4

# COMBO column 2 (Rummikub): a group or a run
COMBO_GROUP, COMBO_RUN = 0, 1

# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """One rule violation or format problem found in a trace."""

    game_index: int  # from GAME_START (-1 before any GAME_START was read)
    record: int  # row index in the trace where the problem was detected
    rule_id: str  # e.g. "R500-DRAW-3", "C-CARD-CONSERVATION", "TRACE-FORMAT"
    message: str


@dataclass
class ValidationResult:
    """Outcome of a ``validate_trace``."""

    games: int
    actions_checked: int  # draws, melds, lay-offs, cards, discards, hand ends, scores, ...
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


def trace_rows(trace: object) -> tuple[list[list[int]], ValidationResult | None]:
    """(rows as plain lists, None) for a well-formed ``(n, 8)`` integer array, else
    ([], a result holding the TRACE-FORMAT violation)."""

    def bad(msg: str) -> tuple[list[list[int]], ValidationResult]:
        return [], ValidationResult(0, 0, [Violation(-1, 0, "TRACE-FORMAT", msg)])

    try:
        arr = np.asarray(trace)
    except Exception as exc:  # pragma: no cover - exotic inputs
        return bad(f"not an array: {exc}")
    if arr.ndim != 2 or arr.shape[1] != 8:
        return bad(f"trace shape {arr.shape}, expected (n, 8)")
    if arr.dtype.kind not in "iu":
        return bad(f"trace dtype {arr.dtype}, expected int32")
    if arr.shape[0] == 0:
        return bad("empty trace")
    return arr.tolist(), None


def first_game_code(trace: object) -> int | None:
    """Column 5 of the trace's first record if it is a GAME_START, else None."""
    try:
        arr = np.asarray(trace)
        if arr.ndim == 2 and arr.shape[0] > 0 and arr.shape[1] == 8 and arr[0, 0] == GAME_START:
            return int(arr[0, 5])
    except Exception:  # pragma: no cover - exotic inputs are reported by trace_rows
        pass
    return None


# --------------------------------------------------------------------------------------------
# The record loop
# --------------------------------------------------------------------------------------------

# Debug aid: re-count every card after every record (slow; the unit tests switch it on).
CHECK_CONSERVATION_EVERY_RECORD = False

# What a malformed trace may make a handler raise; reported as TRACE-FORMAT, never raised.
_REPLAY_ERRORS = (IndexError, KeyError, ValueError, TypeError, ZeroDivisionError, AttributeError)


class StopReplay(Exception):
    """Raised after a violation that makes further replay of the game meaningless."""


class Replayer:
    """The record loop of one game's replay; each game's replayer subclasses it.

    A subclass sets ``self.dispatch`` (record kind -> handler) and the class attributes below, and
    implements ``check_conservation``.  Several games concatenated back to back are replayed in
    turn: after a fatal violation the rest of that game is skipped.
    """

    #: meaningful columns after column 0 per record kind; the rest must be 0
    USED_COLS: Mapping[int, int] = {}
    #: record kinds counted in ValidationResult.actions_checked
    ACTION_KINDS: frozenset[int] = frozenset()
    #: phase -> text for messages
    PHASE_NAMES: Mapping[int, str] = {}
    #: phases in which the cards are not all dealt, so conservation is not checked
    UNDEALT_PHASES: frozenset[int] = frozenset()
    START_PHASE = 0  # expecting GAME_START
    DONE_PHASE = -1  # after GAME_END
    UNKNOWN_KIND = "unknown record kind {kind}"

    def __init__(self, rows: list[list[int]], cfg: Any) -> None:
        self.rows = rows
        self.cfg = cfg
        self.violations: list[Violation] = []
        self.games = 0
        self.actions = 0
        self.game_index = -1
        self.i = 0
        self.phase = self.START_PHASE
        self.bad_unused: set[int] = set()  # record kinds already reported for unused columns
        self.dispatch: dict[int, Callable[[list[int]], None]] = {}
        #: called with the record kind before its handler, when set
        self.before_record: Callable[[int], None] | None = None

    # ---- violations ---------------------------------------------------------------------

    def flag(self, rule: str, msg: str) -> None:
        self.violations.append(Violation(self.game_index, self.i, rule, msg))

    def fail(self, rule: str, msg: str) -> NoReturn:
        self.flag(rule, msg + " (replay of this game stopped)")
        raise StopReplay

    def check_conservation(self) -> None:
        raise NotImplementedError

    # ---- the loop -----------------------------------------------------------------------

    def run(self) -> None:
        rows = self.rows
        dispatch = self.dispatch
        used_cols = self.USED_COLS
        action_kinds = self.ACTION_KINDS
        undealt = self.UNDEALT_PHASES
        before = self.before_record
        for i, row in enumerate(rows):
            self.i = i
            kind = row[0]
            try:
                handler = dispatch.get(kind)
                if handler is None:
                    self.fail("TRACE-FORMAT", self.UNKNOWN_KIND.format(kind=kind))
                if kind in action_kinds:
                    self.actions += 1
                u = used_cols.get(kind)
                if u is not None and u < 7 and any(row[u + 1 :]) and kind not in self.bad_unused:
                    self.bad_unused.add(kind)
                    self.flag("TRACE-FORMAT",
                              f"{RECORD_NAMES[kind]} has non-zero unused columns: {row}")
                if before is not None:
                    before(kind)
                handler(row)
                if CHECK_CONSERVATION_EVERY_RECORD and self.phase not in undealt:
                    self.check_conservation()
            except StopReplay:
                self._skip_to_next_game(i + 1)
                return
            except _REPLAY_ERRORS as exc:
                self.violations.append(Violation(
                    self.game_index, i, "TRACE-FORMAT",
                    f"record {row} cannot be replayed ({exc.__class__.__name__}: {exc}) "
                    "(replay of this game stopped)"))
                self._skip_to_next_game(i + 1)
                return
        if self.phase != self.DONE_PHASE:
            self.i = len(rows)
            if self.games == 0:
                self.violations.append(Violation(-1, 0, "TRACE-FORMAT",
                                                 "trace holds no GAME_START record"))
            else:
                self.flag("TRACE-FORMAT", "trace ends before GAME_END "
                                          f"({self.PHASE_NAMES.get(self.phase, self.phase)})")

    def _skip_to_next_game(self, start: int) -> None:
        """Replay the trace from the next GAME_START after ``start``, if any, with a fresh
        replayer, and take over its counts and violations (record indices shifted)."""
        rows = self.rows
        for j in range(start, len(rows)):
            if rows[j][0] == GAME_START:
                self.phase = self.START_PHASE
                sub = type(self)(rows[j:], self.cfg)
                sub.run()
                self.violations.extend(
                    Violation(v.game_index, v.record + j, v.rule_id, v.message)
                    for v in sub.violations)
                self.games += sub.games
                self.actions += sub.actions
                return


def result_of(replayer: Replayer) -> ValidationResult:
    """Run ``replayer`` over its rows and return what it found."""
    replayer.run()
    return ValidationResult(replayer.games, replayer.actions, replayer.violations)
