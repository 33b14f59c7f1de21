"""Integer layouts every game shares: card and seat limits, and the rules vector's common header.

A game's rules reach its kernels as one int64 vector: the header below, then slots the game owns
(``kernels/<game>/layout.py``, from ``R_HEADER_SIZE`` on). The header says which game the vector
is for and the limits the batch runner and the result rows need.
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

# ---- strategies
N_PARAMS = 16  # parameters per seat
