"""Integer ids of the strategies, shared by the numba dispatch and the Python registry."""

RANDOM = 0
GREEDY = 1

# greedy parameters (indexes into the seat's float parameter row)
GREEDY_DEADWOOD_WEIGHT = 0
GREEDY_MIN_GAIN = 1
