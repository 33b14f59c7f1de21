"""Integer layouts of the 500 Rum and Standard Rummy kernels, strategies and Python wrappers.

Game state lives in plain numpy arrays (numba jitclasses lose updates inside ``prange``):

* ``hands``  uint64[MAX_SEATS, 2]: count planes per seat; plane 0 holds a bit for every card held
  at least once, plane 1 for every card held twice (two-deck packs). Natural card id = bit index
  ``16*suit + rank`` (rank A=1..K=13); bits 0, 14 and 15 of each 16-bit suit lane stay empty.
* ``st``     int64[ST_SIZE]: scalars and per-seat counters (indexes ``ST_*``).
* ``pack``   int16[MAX_PACK]: the shuffled pack; the stock is ``pack[st[ST_STOCK_POS]:pack_size]``.
* ``pile``   int16[MAX_PACK]: the discard pile, index 0 at the bottom.
* ``melds``  int16[MAX_MELDS, MK_SIZE]: table melds with per-slot cards and credited owners.

The rules reach the kernels as an int64 vector: the common header of ``kernels.common.layout``,
then the slots ``R_*`` below (built by ``sim.games``). The trace record kinds (``T_*``: the common
ones and this game's range) are documented in ``docs/trace-format.md``.

The shared constants (header, cards, result rows, common trace kinds) are re-exported here so that
a 500 Rum module reads every constant it uses from one ``layout``.
"""

from __future__ import annotations

from rummysim.kernels.common.layout import *  # noqa: F403
from rummysim.kernels.common.results import *  # noqa: F403

# ---- rules vector: this game's slots after the common header (R_GAME is GAME_500 or GAME_STANDARD)
R_DECKS = 4
R_JOKERS = 5  # jokers in the pack
R_DEAL_SIZE = 6
R_TARGET = 7
R_VALUES = 8  # 0 face, 1 5_10_15, 2 all5 (V500-VALUES)
R_ACE_VALUE = 9
R_ACE_LOW_VALUE = 10  # resolved from r500_ace_low_value
R_DISC_RESTRICT = 11  # 0 top_single, 1 none, 2 any_taken (V500-DISCSAME)
R_STOCK_PENALTY = 12  # r500_stock_out_hand_penalty
R_IDLE_TURNS = 13  # resolved r500_stock_out_idle_turns (R500-STOCK-2)
R_JOKER_VALUE = 14
R_TOPMUST = 15  # V500-TOPMUST
R_NEW_MELD_ONLY = 16  # V500-NEWMELD: the selected card goes into a new meld
R_CALL = 17  # V500-RUMMY: CALL_OFF, CALL_PILE, CALL_TOP, CALL_LAYOFF
R_GOING_OUT = 18  # OUT_ANY, OUT_DISCARD_REQUIRED, OUT_FLOATING (V500-DISCREQ/FLOAT)
R_UNPLAYABLE = 19  # V500-UNPLAYABLE
R_MUST_GO_OUT = 20  # V500-MUSTOUT
R_FIRST_MELD_MIN = 21  # V500-OPEN30 (already divided by the score divisor)
R_MIN_RUN = 22  # V500-RUN4
R_MAX_POS = 23  # highest run position: 13 (aces low only), 14, or 26 with V500-CORNER
R_STOCK_DRAW = 24  # V500-BOATHOUSE: cards per stock draw
R_END_OF_STOCK = 25  # EOS_* (V500-STOCKEND)
R_ADDOPP = 26  # V500-ADDOPP
R_SEVEN_BONUS = 27  # V500-7STRAIGHT (already divided)
R_TIE_RULE = 28  # TIE_REPLAY, TIE_GOER_WINS
R_OUT_OF_TURN = 29  # V500-OUTOFTURN
R_UPCHOICE = 30  # V500-UPCHOICE
R_NEXT_DEALER = 31  # DEALER_LEFT, DEALER_WINNER
R_FOUR_ACES = 32  # V500-ACE four aces: value per ace (0 = off)
R_DEEP_TAKES = 33  # 1 if cards below the top may be taken (0 in Standard Rummy)
R_GAME_HANDS = 34  # Standard Rummy: hands per game
R_DIVISOR = 35  # V500-DIV5: natural card values are divided by this (others arrive divided)
R_PARTNERSHIP = 36  # PARTNER_* (V500-PARTNER, V500-PERSIAN)
R_TEAM_ONLY = 37  # 1: lay-offs only on the team's melds (V500-PARTNER-1 team_only)
R_GAMBIT = 38  # 1: Dealer's gambit (V500-GAMBIT); R_JOKERS then excludes the dealer's joker
R_SIZE = 40

PARTNER_NONE = 0
PARTNER_TEAMS = 1  # Partnership 500 rum: seat s plays for team s % 2
PARTNER_PERSIAN = 2  # Persian rummy: teams, joker sets, doubled fours, two deals
PERSIAN_OUT_BONUS = 25  # V500-PERSIAN-4
PERSIAN_GAME_BONUS = 50  # V500-PERSIAN-5
PERSIAN_DEALS = 2  # V500-PERSIAN-5

CALL_OFF = 0
CALL_PILE = 1
CALL_TOP = 2
CALL_LAYOFF = 3
OUT_ANY = 0
OUT_DISCARD_REQUIRED = 1
OUT_FLOATING = 2
EOS_PILE_OR_END = 0
EOS_END_IMMEDIATELY = 1
EOS_RESHUFFLE = 2
EOS_DISCARD_UNTIL_OUT = 3
TIE_REPLAY = 0
TIE_GOER_WINS = 1
DEALER_LEFT = 0
DEALER_WINNER = 1

# Dealer's gambit (V500-GAMBIT): the nominated effect (also the NOMINATE record's column 2) and
# the state of the dealer's joker
EFFECT_NONE = 0  # no gambit: jokers wild, as in the base game
EFFECT_WILD = 1
EFFECT_DOUBLE = 2
EFFECT_SPLIT = 3
N_EFFECTS = 3
DJ_NONE = 0  # no dealer's joker (no gambit)
DJ_READY = 1  # beside the dealer, usable on the dealer's own turns
DJ_USED = 2  # played (on the table or out of play by a split)
DJ_BLOCKED = 3  # blocked by another seat's joker (V500-GAMBIT-8)
GB_EFFECT = 3  # ``Table.gambit``: the effect in the low bits ...
GB_DEALERS_JOKER = 4  # ... and this bit when the holding may also use the dealer's joker
SOURCE_HAND = 0  # a joker's source in DOUBLE, SPLIT and CARD records
SOURCE_DEALER = 1

VALUES_FACE = 0
VALUES_5_10_15 = 1
VALUES_ALL5 = 2
DISC_TOP_SINGLE = 0
DISC_NONE = 1
DISC_ANY_TAKEN = 2

# ---- state scalars (the trace cursor first, as in every game: kernels.common.trace)
ST_TPOS = TRACE_POS  # next free trace row
ST_TOVER = TRACE_OVERFLOW  # 1 if the trace buffer overflowed
ST_PACK_SIZE = 2
ST_STOCK_POS = 3
ST_PILE_LEN = 4
ST_N_MELDS = 5
ST_TURN = 6
ST_SEAT = 7  # seat whose turn it is
ST_MUST_CARD = 8  # selected card of a deep take not yet melded (-1 none): R500-DRAW-3
ST_NO_DISCARD = 9  # card id that may not be discarded this turn (-1 none): R500-DISC-2
ST_TAKEN_MASK = 10  # natural cards taken from the pile this turn (any_taken restriction)
ST_TAKEN_JOKER = 11
ST_IDLE = 12  # consecutive idle turns on an empty stock (R500-STOCK-2)
ST_PLACED = 13  # cards this seat put on the table this turn
ST_N = 14
ST_DEALER = 15
ST_HAND_INDEX = 16
ST_GAME_INDEX = 17
ST_NEW_ONLY = 18  # the pending must-card may only go into a new meld (V500-NEWMELD)
ST_PLACED_VALUE = 19  # points this seat put on the table this turn (V500-OPEN30)
ST_JOKERS = 20  # + seat: jokers in hand
ST_TOTAL = 30  # + seat: running totals
ST_HAND_SCORE = 40  # + seat: last hand score
ST_OPENED = 48  # + seat: 1 once the seat has met V500-OPEN30 this hand
ST_BONUS = 56  # + seat: bonus points this hand (V500-7STRAIGHT, V500-ADDOPP, Standard Rummy)
ST_LONG_RUN = 64  # a new run of 7+ cards was laid this turn (V500-7STRAIGHT)
ST_STOCK_DRAWN = 65  # cards drawn from the stock this turn (end_immediately)
ST_CALLS = 66  # rummy calls this hand
ST_FLOATS = 67  # floats this hand
ST_DEEP_TAKES = 68  # takes from below the top this hand
ST_SCORED_TABLE = 72  # + seat: with teams, the seat's table value of the hand being scored
ST_SCORED_HELD = 80  # + seat: with teams, the seat's hand value of the hand being scored
ST_EFFECT = 88  # the gambit effect nominated for this hand (EFFECT_*)
ST_DJ = 89  # the dealer's joker (DJ_*)
ST_OUT_MASK = 90  # natural cards out of play this hand (V500-GAMBIT-6 splits; one deck)
ST_GONE_JOKERS = 91  # pack jokers seen outside pile and meld cards, less the dealer's joker in a meld
ST_DISCARDED = 92  # + seat: natural cards the seat discarded this hand (public: strategies avoid taking their own back)
ST_SIZE = 100

# ---- melds table
MAX_MELDS = 40
MK_KIND = 0  # 0 set, 1 run
MK_KEY = 1  # set: rank; run: suit
MK_LO = 2  # run: first position 1..14
MK_LEN = 3  # cards in the meld
MK_SUITS = 4  # set: mask of natural suits present
MK_NJOK = 5  # jokers in the meld
MK_CARD = 6  # + slot: card id (run slot i = position lo+i; set slot = order laid)
MK_OWNER = 20  # + slot: seat credited with that card (NOBODY for V500-ADDOPP-2 lay-offs)
MK_CREATOR = 34  # seat that laid the meld down
MK_DOUBLE = 35  # 1: its cards score double: a Persian set of four laid at once (V500-PERSIAN-3), or
# a meld doubled by a joker (V500-GAMBIT-5), which is then sealed (no lay-offs)
MK_SIZE = 36
NOBODY = 15
KIND_SET = 0
KIND_RUN = 1

# ---- candidate actions (play phase)
MAX_CAND = 1024
A_TYPE = 0
A_MELD = 1  # layoff target meld id
A_KEY = 2  # set rank / run suit
A_LO = 3  # run: first position after the action
A_LEN = 4  # run: length after the action; set: cards in the new meld
A_MASK = 5  # natural cards put down (card-id bits; ace as bit 16*s+1 also when high)
A_NJOK = 6  # jokers put down
A_VALUE = 7  # points credited for the cards put down
A_NCARDS = 8
A_SIDE = 9  # lay-offs on runs: SIDE_HIGH or SIDE_LOW
A_GAMBIT = 10  # AG_*: how the action uses a joker's gambit effect (0 in every other game)
A_SIZE = 11
SIDE_HIGH = 1
SIDE_LOW = 2
ACT_STOP = 0
ACT_MELD_SET = 1
ACT_MELD_RUN = 2
ACT_LAYOFF = 3
ACT_BLOCK = 4  # V500-GAMBIT-8: a joker from hand on the dealer's joker
AG_NONE = 0
AG_DEALER_WILD = 1  # one more joker than A_NJOK goes down: the dealer's joker, wild (V500-GAMBIT-4/7)
AG_DOUBLE_HAND = 2  # the new meld is doubled by a joker from hand, counted in A_NJOK (V500-GAMBIT-5)
AG_DOUBLE_DEALER = 3  # the new meld is doubled by the dealer's joker (V500-GAMBIT-5/7)

# ---- enumeration scopes
PLAY_ALL = 0
PLAY_NEW_ONLY = 1  # new melds only (out-of-turn melding, V500-NEWMELD duty)
PLAY_LAYOFF_ONLY = 2  # lay-offs only (layoff_only rummy calls, V500-ADDOPP-2)

# ---- draw options
DRAW_STOCK = -1
DRAW_NONE = -2  # decline to take from the pile on an empty stock (R500-STOCK-1)

# ---- observation vector given to strategies (public information + own hand), C-INFO-1
OB_SEAT = 0
OB_N = 1
OB_STOCK = 2
OB_PILE_LEN = 3
OB_N_MELDS = 4
OB_MY_JOKERS = 5
OB_MUST_CARD = 6
OB_NO_DISCARD = 7
OB_TURN = 8
OB_TEAMS = 9  # 1 in partnership play: seat s plays for team s % 2, its partner is seat s + 2
OB_HAND_SIZE = 10  # + seat
OB_TOTAL = 20  # + seat
OB_EFFECT = 32  # Dealer's gambit (public): the nominated effect (EFFECT_*), 0 without the gambit
OB_DEALER = 33  # the dealer's seat
OB_DJ = 34  # the dealer's joker (DJ_*)
OB_OUT_MASK = 35  # natural cards out of play (split-removed)
OB_GONE_JOKERS = 36  # pack jokers out of play or doubling a meld, less the dealer's joker in a meld
OB_HAND_INDEX = 37
OB_MY_DISCARDS = 38  # natural cards this seat discarded this hand (ST_DISCARDED)
OB_SIZE = 40

# ---- this game's trace kinds (KINDS_500 range; docs/trace-format.md)
T_RESTOCK = KINDS_500
T_RESHUFFLE = KINDS_500 + 1
T_START_PILE = KINDS_500 + 2
T_OUT_OF_TURN = KINDS_500 + 3
T_ADDOPP_LAYOFF = KINDS_500 + 4
T_DEALERS_JOKER = KINDS_500 + 5  # V500-GAMBIT-1
T_NOMINATE = KINDS_500 + 6  # V500-GAMBIT-3
T_DOUBLE = KINDS_500 + 7  # V500-GAMBIT-5
T_SPLIT = KINDS_500 + 8  # V500-GAMBIT-6
T_BLOCK = KINDS_500 + 9  # V500-GAMBIT-8
T_OOT_ASK = KINDS_500 + 30  # 94: a seat's turn in an out-of-turn window (V500-OUTOFTURN)
T_RUMMY_ASK = KINDS_500 + 31  # 95: a seat asked in a rummy-call window (V500-RUMMY-1)
