"""What a 5000 Rummy replay expects next (its phases), the record columns each kind uses, the
rule behind each HAND_END reason and the kinds of draw a turn can make (the stakes layers'
phases and records included)."""

from __future__ import annotations

from rummysim.validate.trace import (
    ANTE,
    BEAVER,
    BET,
    CALL,
    CALL_ASK,
    CARD,
    CHECK,
    CONCEDE,
    STAKE_DOUBLE,
    DOUBLE_FOLD,
    DOUBLE_TAKE,
    HAND_STAKE,
    PAYOUT,
    RAISE,
    STAKES_START,
    DISCARD,
    DRAW_STOCK,
    EXCHANGE,
    EXCHANGE_ASK,
    FACE_UP,
    FLOAT,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOIN,
    LAYOFF,
    MELD,
    NO_DRAW,
    SCORE,
    TAKE_ALL,
    TAKE_PILE,
    TEAM_SCORE,
    TRADE,
    TURN_START,
)

# Number of meaningful columns after column 0 (the rest must be 0); DECK is checked separately.
USED_COLS: dict[int, int] = {
    GAME_START: 7,  # column 7: the stakes mode (low byte) and the window-asks bit
    HAND_START: 6,
    FACE_UP: 3,
    TURN_START: 5,
    DRAW_STOCK: 2,
    TAKE_PILE: 4,
    NO_DRAW: 2,
    TAKE_ALL: 2,
    EXCHANGE: 3,
    MELD: 6,
    CARD: 4,
    LAYOFF: 4,
    JOIN: 4,
    TRADE: 5,
    DISCARD: 2,
    FLOAT: 1,
    HAND_END: 3,
    SCORE: 6,
    TEAM_SCORE: 3,
    GAME_END: 4,
    STAKES_START: 4,
    HAND_STAKE: 1,
    STAKE_DOUBLE: 2,
    DOUBLE_TAKE: 2,
    DOUBLE_FOLD: 2,
    BEAVER: 2,
    ANTE: 3,
    CHECK: 1,
    BET: 3,
    CALL: 3,
    RAISE: 4,
    CONCEDE: 3,
    PAYOUT: 5,
    CALL_ASK: 4,
    EXCHANGE_ASK: 2,
}
ACTION_KINDS = frozenset(USED_COLS) - {GAME_START, HAND_START, TURN_START, GAME_END,
                                       STAKES_START, HAND_STAKE, PAYOUT}

# replay phases (what the next record may be)
P_GAME_START = 0
P_HAND_START = 1
P_DECK = 2
P_FACE_UP = 3
P_TURN = 4  # between turns: TURN_START or HAND_END
P_DRAW = 5  # after TURN_START: EXCHANGE or one draw record
P_PLAY = 6  # MELD / LAYOFF / JOIN / TRADE / DISCARD
P_CARDS = 7  # CARD records of a MELD / LAYOFF / JOIN
P_FLOAT = 8  # the seat floats with 0 cards: FLOAT
P_OUT = 9  # someone went out: HAND_END
P_NODRAW = 10  # NO_DRAW reason 0: HAND_END
P_SCORE = 11
P_GAME_OVER = 12
P_DONE = 13
P_TEAM_SCORE = 14  # V5K-9: the two TEAM_SCORE records after the SCORE records
P_STAKES_START = 15  # V5K-13/14: STAKES_START right after GAME_START
P_HAND_STAKE = 16  # V5K-13: HAND_STAKE after the deal
P_ANSWER = 17  # V5K-13: the doubled seat's DOUBLE_TAKE / BEAVER / DOUBLE_FOLD
P_FOLDED = 18  # V5K-13: HAND_END reason 7
P_ANTE = 19  # V5K-14: the two ANTE records after the deal
P_BETTING = 20  # V5K-14: the betting round
P_CONCEDED = 21  # V5K-14: HAND_END reason 8
P_PAYOUT = 22  # V5K-13/14: the two PAYOUT records after the SCORE records

PHASE_NAMES = {
    P_GAME_START: "GAME_START expected",
    P_HAND_START: "HAND_START expected",
    P_DECK: "reading DECK records",
    P_FACE_UP: "reading FACE_UP records",
    P_TURN: "between turns",
    P_DRAW: "draw phase",
    P_PLAY: "play/discard phase",
    P_CARDS: "inside a MELD/LAYOFF/JOIN group",
    P_FLOAT: "FLOAT expected",
    P_OUT: "after going out",
    P_NODRAW: "after NO_DRAW",
    P_SCORE: "reading SCORE records",
    P_GAME_OVER: "GAME_END expected",
    P_DONE: "after GAME_END",
    P_TEAM_SCORE: "reading TEAM_SCORE records",
    P_STAKES_START: "STAKES_START expected",
    P_HAND_STAKE: "HAND_STAKE expected",
    P_ANSWER: "the answer to a DOUBLE expected",
    P_FOLDED: "HAND_END after a fold expected",
    P_ANTE: "ANTE records expected",
    P_BETTING: "in the betting round",
    P_CONCEDED: "HAND_END after a concession expected",
    P_PAYOUT: "reading PAYOUT records",
}

END_RULES = {1: "R5K-OUT-1", 2: "R5K-STOCK-1", 3: "R5K-STOCK-1", 4: "ENGINE-TURN-CAP",
              6: "R5K-DRAW-5"}

# draw kinds of the current turn
D_STOCK, D_TOP, D_DEEP, D_ALL, D_SKIP, D_DISCARD_ONLY, D_DECLINE = range(7)

