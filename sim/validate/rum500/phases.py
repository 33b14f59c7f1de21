"""What a 500 Rum / Standard Rummy replay expects next (its phases), the record columns each kind
uses, and the Standard Rummy names of the rules of the machinery it shares with 500 Rum."""

from __future__ import annotations

from rummysim.validate.trace import (
    ADDOPP_LAYOFF,
    BLOCK,
    CARD,
    DEALERS_JOKER,
    DISCARD,
    DOUBLE,
    DRAW_STOCK,
    FLOAT,
    GAME_BONUS,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    LAYOFF,
    MELD,
    NO_DRAW,
    NOMINATE,
    OOT_ASK,
    OUT_OF_TURN,
    RESHUFFLE,
    RUMMY_ASK,
    SCORE,
    SPLIT,
    START_PILE,
    TAKE_PILE,
    TEAM_SCORE,
    TURN_START,
)

# Number of meaningful columns after column 0; the rest must be 0 ("unused columns are 0").
# DECK and RESTOCK are special (unused card slots are -1) and are checked separately.
USED_COLS: dict[int, int] = {
    GAME_START: 7,
    HAND_START: 5,
    TURN_START: 5,
    RESHUFFLE: 2,
    START_PILE: 2,
    DRAW_STOCK: 2,
    TAKE_PILE: 4,
    NO_DRAW: 2,
    MELD: 6,
    CARD: 5,
    LAYOFF: 4,
    OUT_OF_TURN: 1,
    RUMMY_ASK: 4,
    OOT_ASK: 2,
    ADDOPP_LAYOFF: 4,
    DISCARD: 2,
    FLOAT: 1,
    HAND_END: 3,
    SCORE: 6,
    TEAM_SCORE: 3,
    GAME_BONUS: 3,
    GAME_END: 4,
    DEALERS_JOKER: 1,
    NOMINATE: 2,
    DOUBLE: 3,
    SPLIT: 5,
    BLOCK: 1,
}

# Records counted in ValidationResult.actions_checked.
ACTION_KINDS = frozenset(
    {
        DRAW_STOCK,
        TAKE_PILE,
        NO_DRAW,
        MELD,
        LAYOFF,
        CARD,
        DISCARD,
        HAND_END,
        SCORE,
        TEAM_SCORE,
        GAME_BONUS,
        RESHUFFLE,
        START_PILE,
        OUT_OF_TURN,
        ADDOPP_LAYOFF,
        FLOAT,
        NOMINATE,
        DOUBLE,
        SPLIT,
        BLOCK,
        RUMMY_ASK,
        OOT_ASK,
    }
)

# replay phases (what the next record may be)
P_GAME_START = 0  # expecting GAME_START
P_HAND_START = 1  # expecting HAND_START (first hand, or after scores with the game going on)
P_DECK = 2  # reading DECK records
P_TURN = 3  # between turns: TURN_START, OUT_OF_TURN (or HAND_END)
P_DRAW = 4  # after TURN_START: one draw record (or RESHUFFLE)
P_PLAY = 5  # after the draw: MELD / LAYOFF / DISCARD
P_CARDS = 6  # inside a MELD/LAYOFF/ADDOPP_LAYOFF group: CARD records
P_OUT = 7  # someone went out: ADDOPP_LAYOFF groups (V500-ADDOPP) then HAND_END (R500-OUT-1)
P_NODRAW = 8  # NO_DRAW: only HAND_END may follow (R500-STOCK-1)
P_SCORE = 9  # SCORE records
P_GAME_OVER = 10  # after scores when the game must end: GAME_END
P_DONE = 11  # after GAME_END
P_START_PILE = 12  # V500-UPCHOICE: START_PILE before the first turn
P_RESTOCK = 13  # after RESHUFFLE: RESTOCK records
P_DRAW2 = 14  # V500-BOATHOUSE: the second DRAW_STOCK of a two-card stock draw
P_FLOAT = 15  # the seat has 0 cards and floats: FLOAT
P_OOT = 16  # after OUT_OF_TURN: that seat's MELD groups
P_TEAM_SCORE = 17  # partnerships: the two TEAM_SCORE records after the SCORE records
P_GAME_BONUS = 18  # V500-PERSIAN-5: the higher team's GAME_BONUS before GAME_END
P_DEALERS_JOKER = 19  # V500-GAMBIT-1: DEALERS_JOKER right after the DECK records
P_NOMINATE = 20  # V500-GAMBIT-3: NOMINATE right after DEALERS_JOKER
P_SPLIT = 21  # V500-GAMBIT-6: the split take's TAKE_PILE right after SPLIT

PHASE_NAMES = {
    P_GAME_START: "GAME_START expected",
    P_HAND_START: "HAND_START expected",
    P_DECK: "reading DECK records",
    P_TURN: "between turns",
    P_DRAW: "draw phase",
    P_PLAY: "play/discard phase",
    P_CARDS: "inside a MELD/LAYOFF group",
    P_OUT: "after going out",
    P_NODRAW: "after NO_DRAW",
    P_SCORE: "reading SCORE records",
    P_GAME_OVER: "GAME_END expected",
    P_DONE: "after GAME_END",
    P_START_PILE: "START_PILE expected",
    P_RESTOCK: "reading RESTOCK records",
    P_DRAW2: "second card of a two-card stock draw",
    P_FLOAT: "FLOAT expected",
    P_OOT: "out-of-turn melds",
    P_TEAM_SCORE: "reading TEAM_SCORE records",
    P_GAME_BONUS: "GAME_BONUS expected",
    P_DEALERS_JOKER: "DEALERS_JOKER expected",
    P_NOMINATE: "NOMINATE expected",
    P_SPLIT: "the split take's TAKE_PILE expected",
}

# Standard Rummy: the §7 counterpart of a rule of the shared machinery.
STD_RULES = {
    "R500-SETUP-1": "RSTD-SETUP-1",
    "R500-SETUP-2": "RSTD-SETUP-1",
    "R500-SETUP-3": "RSTD-SETUP-1",
    "R500-DEAL-1": "RSTD-DEAL-1",
    "R500-DEAL-2": "RSTD-DEAL-2",
    "R500-DEAL-3": "RSTD-SETUP-2",
    "R500-TURN-1": "C-TURN-1",
    "R500-DRAW-1": "RSTD-DRAW-1",
    "R500-MELD-1": "RSTD-MELD-1",
    "R500-MELD-2": "RSTD-MELD-1",
    "R500-MELD-3": "RSTD-MELD-2",
    "R500-MELD-4": "RSTD-MELD-2",
    "R500-DISC-1": "RSTD-PLAY-1",
    "R500-OUT-1": "RSTD-OUT-1",
    "V500-DISCREQ": "RSTD-OUT-1",
    "R500-OUT-3": "RSTD-OUT-2",
    "R500-STOCK-1": "RSTD-STOCK-1",
    "R500-STOCK-2": "RSTD-STOCK-1",
    "V500-STOCKEND": "RSTD-STOCK-1",
    "R500-SCORE-1": "RSTD-SCORE-1",
    "R500-SCORE-2": "RSTD-SCORE-1",
    "R500-SCORE-3": "C-SCORE-3",
    "R500-END-1": "RSTD-GAME-1",
    "R500-END-2": "RSTD-GAME-1",
}

