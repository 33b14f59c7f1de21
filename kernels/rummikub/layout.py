"""Integer layouts of the Rummikub kernels (RULES.md §6), beside the shared ``kernels.common``.

Tiles use the card ids of every game: ``16 * colour + number`` with colours k=0, r=1, o=2, b=3 and
numbers 1..13, the joker 64 (``JOKER``). A holding (a rack, the pool's unseen tiles) is a count
vector ``int64[TILE_IDS]`` indexed by id, each natural id held 0..2 times and the joker counted at
index ``JOKER``; the solver reads it as count planes ``[colour, number]``.

* **Table** ``int64[MAX_COMBOS, CB_SIZE]``: one row per combination, ``CB_KIND`` (group or run),
  ``CB_KEY`` (a group's number, a run's colour), ``CB_LO`` (a run's first number), ``CB_LEN``,
  ``CB_FROM`` (trace: the locked combination it continues, or -1), then ``CB_LEN`` tile ids from
  ``CB_TILE`` (a run's slot ``i`` is number ``CB_LO + i``), their designations from ``CB_DESIG``
  and, while a turn is recorded, whether each came from the rack (``CB_RACK``).
* **Locked items** ``int64[MAX_LOCKED, LK_SIZE]``: what the solver keeps fixed, a combination of the
  table that holds a joker (RKUB-JOKER-2), or a combination it must build (the ``single_combo``
  initial meld, AMB-38).
"""

from __future__ import annotations

from rummysim.kernels.common.layout import *  # noqa: F403
from rummysim.kernels.common.results import *  # noqa: F403

GAME_RUMMIKUB = 3
TILE_IDS = 65  # natural ids 1..61 and the joker at 64
N_COLOURS = 4
TOP = 13  # highest number
POOL = 106  # RKUB-SET-1
RACK_START = 14  # RKUB-SETUP-2
N_JOKERS = 2
INITIAL_MIN = 30  # RKUB-INIT-30

# ---- rules vector: this game's slots after the common header (kernels.common.layout)
RK_ROUNDS = 4  # RKUB-GAME-1
RK_DIRECTION = 5  # VKUB-DIR: +1 clockwise, -1 counterclockwise
RK_JOKER_RELEASE = 6  # VKUB-JOKERBOTH: RELEASE_*
RK_MAX_JOKERS = 7  # VKUB-TWOJOKERS: 2 or 1
RK_JOKER_PENALTY = 8  # VKUB-JOKER25: 30 or 25
RK_INITIAL_RULE = 9  # AMB-38: INIT_*
RK_MANIPULATE_INITIAL = 10  # AMB-39: 1 = the table may be rearranged on the initial-meld turn
RK_INVALID_TURN = 11  # RKUB-TIME-1: INVALID_*
RK_SIZE = 12
RELEASE_ONE_TILE = 0
RELEASE_BOTH_COLOURS = 1
INIT_TOTAL = 0
INIT_SINGLE_COMBO = 1
INVALID_REJECT = 0
INVALID_PENALTY_DRAW3 = 1
PENALTY_DRAW = 3

# ---- table rows
MAX_COMBOS = 40  # 106 tiles make at most 35 combinations
MAX_IN_COMBO = 13
CB_KIND = 0
CB_KEY = 1
CB_LO = 2
CB_LEN = 3
CB_FROM = 4
CB_TILE = 5
CB_DESIG = CB_TILE + MAX_IN_COMBO
CB_RACK = CB_DESIG + MAX_IN_COMBO
CB_SIZE = CB_RACK + MAX_IN_COMBO
KIND_GROUP = 0
KIND_RUN = 1

# ---- locked items (solver input)
MAX_LOCKED = 2  # two jokers make at most two joker combinations
LK_KIND = 0  # KIND_GROUP or KIND_RUN
LK_KEY = 1  # group: number; run: colour
LK_LO = 2  # run: first number
LK_HI = 3  # run: last number
LK_JOKERS = 4  # jokers it holds
LK_MASK = 5  # group: bitmask of the colours of its natural tiles
LK_MIN = 6  # group: least size at the end (3, or 4 for a forced group worth 30 only with four tiles)
LK_SOURCE = 7  # the table row it continues (-1 for a forced combination)
LK_TILE = 8  # run: + (number - lo): a natural id, JOKER, or REQUIRED (a forced run's empty place)
LK_SIZE = LK_TILE + MAX_IN_COMBO
REQUIRED = -1

# ---- solver objectives (the weight of each rack tile placed)
OBJ_COUNT = 0  # every tile 1
OBJ_VALUE = 1  # its number; a joker its rack penalty (RKUB-SCORE-1)

# ---- state scalars (st); the trace cursor comes first, as every game's (kernels.common.trace)
S_TPOS = TRACE_POS
S_TOVER = TRACE_OVERFLOW
S_N = 2
S_POOL_POS = 3  # next pool position to draw
S_TURN = 4
S_N_COMBOS = 5
S_PASSES = 6  # consecutive passes since the pool ran out
S_FIRST = 7  # first player of the round
S_ROUND = 8
S_DIR = 9
S_DRAWS = 10  # tiles drawn this round (hand-row counter)
S_RETRIEVED = 11  # jokers freed this round
S_PENALTIES = 12
S_UNPROVEN = 13  # decisions whose solve was cut by the solver's beam (not proven best)
S_MELDED = 16  # + seat: 1 once the initial meld is made
S_TOTAL = 24  # + seat
S_ROUND_SCORE = 32  # + seat
S_FIRST_TILE = 40  # + seat
S_SIZE = 48

# ---- hand-row counters (kernels.common.results slots the other games use for their own counts)
H_DRAWS = H_CALLS
H_RETRIEVED = H_FLOATS
H_PENALTIES = H_DEEP_TAKES
H_UNPROVEN = 7  # the slot before H_SCORE, unused by the other games

# ---- observation (public information and the seat's own situation, C-INFO-1)
O_SEAT = 0
O_N = 1
O_POOL = 2
O_N_COMBOS = 3
O_TURN = 4
O_MELDED = 8  # + seat
O_RACK_SIZE = 16  # + seat
O_TOTAL = 24  # + seat
O_FIRST_TILE = 32  # + seat
O_SIZE = 40

# ---- this game's trace kinds (KINDS_RUMMIKUB range; docs/trace-format.md "Rummikub")
T_FIRST_TILE = KINDS_RUMMIKUB
T_INITIAL = KINDS_RUMMIKUB + 1
T_TABLE = KINDS_RUMMIKUB + 2
T_COMBO = KINDS_RUMMIKUB + 3
T_TILE = KINDS_RUMMIKUB + 4
T_PASS = KINDS_RUMMIKUB + 5
T_ATTEMPT = KINDS_RUMMIKUB + 6
T_PENALTY = KINDS_RUMMIKUB + 7
