"""Integer ids of the strategies, shared by the numba dispatch and the Python registry.

Parameter indexes point into the seat's float parameter row (``kernels.common.layout.N_PARAMS`` wide).
``heuristic``, ``cautious`` and ``digger`` share one parameter layout (``H_*``): the latter two are
points in the heuristic's space with their own defaults.
"""

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
CAUTIOUS = 3
DIGGER = 4
ROLLOUT = 5

# A seat whose decisions are made outside numba (the step API, ``rummysim.stepenv``) plays
# ``EXTERNAL + h``: h is the built-in strategy whose pick it is offered as a hint
# (strategies/rum500/external.py).
EXTERNAL = 64

# greedy parameters
GREEDY_DEADWOOD_WEIGHT = 0
GREEDY_MIN_GAIN = 1
GREEDY_TEAM_FEED = 2  # partnership play only: see strategies.rum500.greedy.greedy_team_discard
GREEDY_NOMINATE = 3  # Dealer's gambit only (this and the next two): see strategies.rum500.gambit
GREEDY_DOUBLE_MIN = 4
GREEDY_BLOCK = 5

# heuristic parameters (also cautious and digger); the first two mean what greedy's do
H_DEADWOOD_WEIGHT = 0
H_MIN_GAIN = 1
H_MAX_TAKE = 2
H_FUTURE = 3
H_LATER_WEIGHT = 4
H_HOLD_MELDS = 5
H_RISK_STOCK = 6
H_RISK_OPP_CARDS = 7
H_FEED_WEIGHT = 8
H_USEFUL_WEIGHT = 9
H_VALUE_WEIGHT = 10
H_HORIZON = 11
H_TEAM_PLAY = 12  # partnership play only: feed tests by the opponents' lay-off rights (strategies.rum500.heuristic)
H_NOMINATE = 13  # Dealer's gambit only (this and the next two): see strategies.rum500.gambit
H_DOUBLE_MIN = 14
H_BLOCK = 15
H_HOLD_5000 = 16  # 5000 Rummy only (this and the next): see strategies.rum5000.dispatch
H_WORTH_5000 = 17
H_TEMPO_5000 = 18
H_DISCARD_5000 = 19

# search parameters (strategies/rum500/search.py): the heuristic's columns first (its base policy),
# then its own, from the first column after the heuristic's
S_BUDGET = H_DISCARD_5000 + 1
S_MAX_CANDIDATES = S_BUDGET + 1
S_CONFIDENCE = S_BUDGET + 2
S_MODEL = S_BUDGET + 3
S_LATE_STOCK = S_BUDGET + 4
S_LATE_CARDS = S_BUDGET + 5
S_SEARCH_DRAWS = S_BUDGET + 6
S_KNOWN_TAKES = S_BUDGET + 7

# rollout parameters
RO_SAMPLES = 0
RO_MAX_CANDIDATES = 1
RO_SEARCH_DISCARDS = 2

# ---- betting policies (5000 Rummy's stakes layers: V5K-13 Doubling, V5K-14 Limit-Poker)
# A seat's betting policy sits in its parameter row after the play strategy's N_PARAMS columns:
# column N_PARAMS + BP_ID is the policy id, the BP_* columns after it its parameters
# (strategies/betting.py names them, strategies/rum5000/betting.py plays them).
BET_ACCEPT_ALL = 0
BET_NEVER_DOUBLE = 1
BET_THRESHOLD = 2
BET_AGGRESSIVE = 3
BP_ID = 0
BP_DOUBLE_AT = 1
BP_TAKE_AT = 2
BP_BEAVER_AT = 3
BP_BET_AT = 4
BP_RAISE_AT = 5
BP_CHIPS = 6
BP_FOLD_AT = 7
BP_CONCEDE_AT = 8
BP_SIZE = 9

# Rummikub-only strategies (strategies/rummikub/dispatch.py)
VALUE = 6
HOLDER = 7

# search (500 Rum and Standard Rummy's engine: strategies/rum500/search.py; 5000 Rummy: strategies/rum5000/search.py)
SEARCH = 8

# random's parameter in Rummikub
RK_BLUNDER = 0

# holder parameters (Rummikub)
HOLD_KEEP_JOKERS = 0
HOLD_INITIAL_MIN = 1
HOLD_MIN_TILES = 2
HOLD_HURRY_RACK = 3
HOLD_HURRY_POOL = 4
HOLD_WAIT_INITIAL = 5
