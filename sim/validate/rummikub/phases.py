"""What a Rummikub replay expects next (its phases), the record columns each kind uses and the
rule behind each HAND_END reason."""

from __future__ import annotations

from rummysim.validate.trace import (
    ATTEMPT,
    COMBO,
    DRAW_STOCK,
    FIRST_TILE,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    INITIAL,
    PASS,
    PENALTY,
    SCORE,
    TABLE,
    TILE,
    TURN_START,
)

# Number of meaningful columns after column 0 (the rest must be 0); DECK is checked separately,
# and the zero columns inside TURN_START and SCORE by their handlers.
USED_COLS: dict[int, int] = {
    GAME_START: 6,
    HAND_START: 5,
    FIRST_TILE: 2,
    TURN_START: 3,
    DRAW_STOCK: 2,
    INITIAL: 4,
    TABLE: 3,
    COMBO: 6,
    TILE: 4,
    PASS: 1,
    ATTEMPT: 3,
    PENALTY: 2,
    HAND_END: 3,
    SCORE: 5,
    GAME_END: 4,
}
ACTION_KINDS = frozenset({DRAW_STOCK, INITIAL, TABLE, TILE, PASS, ATTEMPT, PENALTY, HAND_END,
                          SCORE})

# replay phases (what the next record may be)
P_GAME_START = 0
P_HAND_START = 1
P_DECK = 2
P_FIRST_TILE = 3
P_TURN = 4  # between turns: TURN_START or HAND_END
P_BODY = 5  # after TURN_START: DRAW_STOCK, PASS, INITIAL, TABLE or ATTEMPT
P_BLOCK = 6  # inside an INITIAL / TABLE / ATTEMPT block: COMBO and TILE records
P_AFTER_INITIAL = 7  # the TABLE block of the initial-meld turn
P_AFTER_ATTEMPT = 8  # PENALTY
P_PENALTY_DRAWS = 9  # the PENALTY's DRAW_STOCK records
P_OUT = 10  # a seat went out: HAND_END
P_SCORE = 11
P_GAME_OVER = 12
P_DONE = 13

PHASE_NAMES = {
    P_GAME_START: "GAME_START expected",
    P_HAND_START: "HAND_START expected",
    P_DECK: "reading DECK records",
    P_FIRST_TILE: "reading FIRST_TILE records",
    P_TURN: "between turns",
    P_BODY: "after TURN_START",
    P_BLOCK: "inside a combination block",
    P_AFTER_INITIAL: "TABLE expected after INITIAL",
    P_AFTER_ATTEMPT: "PENALTY expected after ATTEMPT",
    P_PENALTY_DRAWS: "reading the penalty draws",
    P_OUT: "after going out",
    P_SCORE: "reading SCORE records",
    P_GAME_OVER: "GAME_END expected",
    P_DONE: "after GAME_END",
}

# HAND_END reasons
END_OUT, END_PASSES, END_TURN_CAP = 1, 2, 4
END_RULES = {END_OUT: "RKUB-END-1", END_PASSES: "RKUB-END-2", END_TURN_CAP: "ENGINE-TURN-CAP"}

# what the turn being played (or just over) was
T_NONE, T_DRAW, T_PASS, T_PLAY, T_PENALTY = range(5)
