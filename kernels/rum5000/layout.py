"""Integer layouts of the 5000 Rummy kernels (RULES.md §4-5), beside the shared ``kernels.common``.

5000 Rummy keeps its own state shapes because its table differs from 500 Rum's: groups of any
size owned per rank and per player, sequences that join, and wild cards whose designation can be
traded away. What it shares with 500 Rum (card ids ``16*suit + rank``, the trace kinds, the rules
vector's common slots, the per-game and per-hand result rows) comes from ``kernels.common``.

* ``hands`` int64[MAX_SEATS, CARD_IDS]: how many copies of each card id a seat holds.
* ``melds`` int64[MAX_MELDS5, M_SIZE]: one row per meld id; a sequence's slot ``i`` is position
  ``lo + i``, a group's slots are in the order laid; ``M_CRED`` slots say who is credited.
* ``grp`` int64[MAX_SEATS, 14]: per seat and rank, the group the seat has put cards into (or -1):
  R5K-GROUP-2 allows one group or one group addition per rank and player. In Persian 5000 (V5K-9)
  row t is team t's, shared by both partners.
"""

from __future__ import annotations

from rummysim.kernels.common.layout import *  # noqa: F403
from rummysim.kernels.common.results import *  # noqa: F403

CARD_IDS = 64
DECK5 = 104
MAX_MELDS5 = 48
SLOTS = 16  # 8 naturals + 8 wild cards is the largest group; a sequence holds at most 13
MAX_SEQ = 13

# ---- rules vector: this game's slots after the common header (kernels.common.layout)
R5_TARGET = 4  # R5K-GAME-1, resolved for the player count
R5_RUMMY = 5  # RUMMY_* (V5K-3, V5K-4)
R5_GOING_OUT = 6  # GO_* (V5K-5, V5K-6)
R5_MUST_GO_OUT = 7  # V5K-2
R5_MICHIGAN = 8  # V5K-7
R5_POLISH = 9  # V5K-8
R5_FIRST_TURN = 10  # FT_* (V5K-10, V5K-11)
R5_MONEY = 11  # V5K-12
R5_PERSIAN = 12  # V5K-9: two partnerships, seat s plays for team s % 2
R5_STAKES = 13  # STAKES_*: Doubling (V5K-13) or Limit-Poker (V5K-14), 2-hand sessions
R5_SIZE = 16
FT_UPCARD = 0
FT_EXTRA_CARD = 1
FT_EXCHANGE = 2
RUMMY_OFF = 0
RUMMY_TOP = 1  # V5K-3
RUMMY_ANY = 2  # V5K-4
GO_ANY = 0
GO_UNMELDABLE = 1  # V5K-5
GO_MELD_ALL = 2  # V5K-6
STAKES_OFF = 0
STAKES_DOUBLING = 1  # V5K-13
STAKES_POKER = 2  # V5K-14
SESSION_HANDS = 2  # a stakes session is two hands (docs/rules-decisions.md E71)
MAX_STAKE = 1 << 20  # engine safety limit on a doubled stake (docs/trace-format.md)

# ---- meld rows
M_KIND = 0
M_KEY = 1  # group: rank; sequence: suit; wild-card group: 0
M_LO = 2  # sequence: first position (1..14)
M_LEN = 3
M_CREATOR = 4
M_ALIVE = 5  # 0 once joined into another sequence
M_CARD = 6  # + slot
M_CRED = M_CARD + SLOTS  # + slot
M_SIZE = M_CRED + SLOTS
K_GROUP = 2
K_SEQ = 3
K_WILD = 4

# ---- play candidates
C_TYPE = 0
C_MELD = 1  # target meld (additions, trades, joins: the lower sequence)
C_MELD2 = 2  # joins: the higher sequence
C_KEY = 3  # new group: rank; new sequence: suit
C_LO = 4  # sequence positions covered by the cards put down: lo..hi
C_HI = 5
C_NNAT = 6  # groups: natural cards of the rank put down
C_NWILD = 7  # wild cards put down
C_CARD = 8  # trades: the natural card given
C_POS = 9  # trades: slot of the wild card taken
C_VALUE = 10  # points credited for the cards put down
C_NCARDS = 11
C_SIZE = 12
MAX_CAND5 = 768
P_STOP = 0
P_NEW_GROUP = 1
P_NEW_SEQ = 2
P_NEW_WILD = 3
P_ADD_GROUP = 4
P_ADD_SEQ = 5
P_ADD_WILD = 6
P_JOIN = 7
P_TRADE = 8

# ---- what a play may use (enumeration scope)
SC_FULL = 0  # the play phase of a turn
SC_DUTY = 1  # the first play after a take from below the top: contains the card, no trade
SC_CALL_TOP = 2  # V5K-3: the one card, alone, onto the table

# ---- draw options (>= 0: a pile index to take from)
D_STOCK = -1
D_DECLINE = -2  # empty stock: no pile take, the hand ends (R5K-STOCK-1 b)
D_SKIP = -3  # first turn: no draw, meld everything and go out (R5K-OUT-3)
D_ALL = -4  # V5K-8: the whole pile

# ---- state scalars (st); the trace cursor comes first, as every game's (kernels.common.trace)
S_TPOS = TRACE_POS
S_TOVER = TRACE_OVERFLOW
S_WILD = 2
S_STOCK_POS = 3
S_PILE_LEN = 4
S_N_MELDS = 5
S_TURN = 6
S_N = 7
S_DEALER = 8
S_HAND_INDEX = 9
S_STALL = 10  # consecutive top-card turns without melding it (R5K-DRAW-5)
S_STOCK_OUT = 11  # 1 once the turn that emptied the stock is over (R5K-STOCK-1)
S_IDLE = 12  # consecutive turns without a card put on the table after that (R5K-STOCK-1 c)
S_PLACED = 13  # cards put on the table this turn
S_CALLS = 14
S_FLOATS = 15
S_DEEP = 16
S_FIRST = 17  # seat left of the dealer
S_OUT = 18  # seat that went out this hand
S_TOTAL = 20  # + seat
S_HAND_SCORE = 28  # + seat
S_PLAYED = 36  # + seat: normal turns played this hand
S_BONUS = 44  # + seat
S_STAKE = 52  # Doubling: the hand's stake
S_LAST_DOUBLER = 53  # Doubling: the seat whose double was last taken or beavered (-1)
S_RAISES = 54  # + seat (2 seats), Limit-Poker: raises this hand
S_CONTRIB = 56  # + seat, Limit-Poker: chips in the pot
S_SESSION = 58  # + seat: the session's net stake units or chips so far
S_PAYOUT = 60  # + seat: this hand's
S_LOSER = 62  # the seat that folded or conceded this hand (-1)
S_AUTO_DOUBLE = 63  # 1 when the first-dealer draw tied (V5K-13)
S_DISCARDED = 64  # 1 once the turn in progress has discarded (V5K-3a: calls only on a discard)
S_SIZE = 65

# ---- hand-end reasons beyond the common END_*
END_STALL = END_GAME_FIRST  # R5K-DRAW-5
END_FOLD = END_GAME_FIRST + 1  # V5K-13: a doubled seat folded
END_CONCEDE = END_GAME_FIRST + 2  # V5K-14: a seat conceded (or folded in the betting round)

# ---- observation (public information and the seat's own situation, C-INFO-1)
O_SEAT = 0
O_N = 1
O_STOCK = 2
O_PILE_LEN = 3
O_N_MELDS = 4
O_WILD = 5
O_MUST = 6  # selected card still to be melded (-1)
O_TURN = 7
O_FIRST_TURN = 8  # 1 on the seat's first turn of the hand
O_HAND_SIZE = 10  # + seat
O_TOTAL = 18  # + seat
O_FACE_UP = 26  # + seat: face-up card of the deal (R5K-DEAL-1)
PARTNER_CODE_5000 = 3  # GAME_START column 6 for Persian 5000 (docs/trace-format.md)
UNKNOWN = -1  # an observation slot the seat may not know (V5K-9: hand sizes and the stock size)
O_SIZE = 34

# ---- this game's trace kinds (KINDS_5000 range; docs/trace-format.md)
T_FACE_UP = KINDS_5000
T_TAKE_ALL = KINDS_5000 + 1
T_EXCHANGE = KINDS_5000 + 2
T_JOIN = KINDS_5000 + 3
T_TRADE = KINDS_5000 + 4
T_STAKES_START = KINDS_5000 + 5
T_HAND_STAKE = KINDS_5000 + 6
T_DOUBLE = KINDS_5000 + 7
T_DOUBLE_TAKE = KINDS_5000 + 8
T_DOUBLE_FOLD = KINDS_5000 + 9
T_BEAVER = KINDS_5000 + 10
T_ANTE = KINDS_5000 + 11
T_CHECK = KINDS_5000 + 12
T_BET = KINDS_5000 + 13
T_CALL = KINDS_5000 + 14
T_RAISE = KINDS_5000 + 15
T_CONCEDE = KINDS_5000 + 16
T_PAYOUT = KINDS_5000 + 17
T_EXCHANGE_ASK = KINDS_5000 + 30  # 126: a seat offered the upcard swap (V5K-11)
T_CALL_ASK = KINDS_5000 + 31  # 127: a seat asked in a rummy-call window (V5K-3a, V5K-4a)
