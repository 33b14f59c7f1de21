"""The result rows every game's batch kernels write: one row per game and one per hand.

``sim`` turns them into Polars frames (the game registry names each game's columns); the hand-end
reasons below are shared, and a game adds its own from ``END_GAME_FIRST`` on.
"""

from __future__ import annotations

# ---- per-game result row (int64)
G_WINNER = 0
G_HANDS = 1
G_TURNS = 2
G_CAPPED = 3
G_FIRST_DEALER = 4
G_CAPPED_HANDS = 5
G_TIED = 6  # bitmask of the seats sharing the win
G_TOTAL = 8  # + seat
G_STAKE = 16  # + seat (2 seats): a stakes session's net stake units or chips (5000 Rummy V5K-13/14)
G_SIZE = 20

# ---- per-hand result row (int32)
H_DEALER = 0
H_REASON = 1  # END_*
H_OUT_SEAT = 2
H_TURNS = 3
H_CALLS = 4
H_FLOATS = 5
H_DEEP_TAKES = 6
H_SCORE = 8  # + seat
H_STAKE = 16  # stakes hands: the stake at hand end (Doubling) or the pot (Limit-Poker)
H_PAYOUT = 17  # + seat (2 seats): the hand's signed stake units or chips
H_SIZE = 20

# ---- hand-end reasons
END_OUT = 1
END_STOCK = 2
END_IDLE = 3
END_TURN_CAP = 4
END_STOCK_END = 5
END_GAME_FIRST = 6  # a game's own reasons start here
