"""Integer layouts every game shares: card and seat limits, and the rules vector's common header.

A game's rules reach its kernels as one int64 vector: the header below, then slots the game owns
(``kernels/<game>/layout.py``, from ``R_HEADER_SIZE`` on). The header says which game the vector
is for and the limits the batch runner and the result rows need. The module holds constants only,
so reading it does not import numba.
"""

from __future__ import annotations

# ---- cards and seats
JOKER = 64  # a joker's card id: jokers are counted apart from the natural-card planes
MAX_SEATS = 8
MAX_PACK = 108
SUIT_SHIFT = 16  # one 16-bit lane per suit: card id = 16 * suit + rank

# ---- rules vector: the common header
R_GAME = 0  # GAME_*
R_N_PLAYERS = 1
R_TURN_CAP = 2  # turns after which a hand ends unfinished
R_HAND_CAP = 3  # hands after which a game ends unfinished (also the hand-row buffer size)
R_HEADER_SIZE = 4  # a game's own slots start here

GAME_500 = 0
GAME_STANDARD = 1  # Standard Rummy: played by the 500 Rum kernels
GAME_5000 = 2

# ---- trace mode (kernels.common.trace): record layout, the cursor in every game's ``st``, and the
# common record kinds; kinds below KINDS_500 mean the same in every game, and each game numbers its
# own in a range of its own (docs/trace-format.md)
TRACE_COLS = 8
TRACE_POS = 0
TRACE_OVERFLOW = 1

T_GAME_START = 1
T_HAND_START = 2
T_DECK = 3
T_TURN_START = 5
T_DRAW_STOCK = 10
T_TAKE_PILE = 11
T_NO_DRAW = 12
T_MELD = 20
T_CARD = 21
T_LAYOFF = 22
T_DISCARD = 30
T_FLOAT = 31
T_HAND_END = 40
T_SCORE = 41
T_TEAM_SCORE = 42  # partnerships: team, team hand score, team total after
T_GAME_BONUS = 43  # partnerships: team, bonus, team total after (V500-PERSIAN-5)
T_GAME_END = 50

# GAME_START column 7: what the trace records beyond the base format (bits)
TRACE_FEATURES = 1 << 8  # GAME_START column 7, bit 8: every seat asked in a call or out-of-turn window
# (the *_ASK kinds); the low byte is the game's own feature (Dealer's gambit, the 5000 stakes mode)
# column 2 of a call window's ask record: the seat's answer
ASK_CANNOT = 0  # no legal claim: not asked
ASK_PASS = 1
ASK_CALL = 2

# ---- the ranges each game's own kinds are numbered in
KINDS_500 = 64  # 500 Rum and Standard Rummy: 64..95
KINDS_5000 = 96  # 5000 Rummy: 96..127
KINDS_RUMMIKUB = 128  # Rummikub: 128..159
KINDS_END = 160

# ---- strategies
N_PARAMS = 28  # parameters per seat
