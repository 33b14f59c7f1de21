"""Decisions for Rummikub (RULES.md §6): the initial meld, the play after it, and every later turn.

The engine (``kernels.rummikub.engine``) calls these with a ``RkView`` of what the seat may know
(C-INFO-1): its own rack, the public table, the public counts in the observation vector (rack sizes,
pool size, scores, the first tiles, who has made the initial meld) and the rules vector. Every
strategy plays through the exact solver (``kernels.rummikub.table``): a decision is a set of
weights for the rack tiles, and the solver finds the arrangement that maximises them; the result
is left in the solver workspace's ``out`` rows, which is also the only scratch the strategies use.
A choice of 0 rows means no play (the engine then draws, or passes once the pool is empty).

* ``greedy``: the most rack tiles every turn (also ``heuristic``, ``cautious``, ``digger`` and
  ``rollout``, which have no Rummikub model of their own).
* ``value``: the most points off the rack (numbers; a joker its rack penalty).
* ``random``: a random decision: draws a third of the time even when it could play, otherwise
  plays the arrangement that maximises random weights (between -2 and 3 a tile), which reaches
  rearrangements, joker retrieval and partial plays; with ``blunder`` > 0 it sometimes tries an
  invalid table (RKUB-TIME-1).
* ``holder``: holds tiles back: keeps its jokers unless they let it empty its rack, makes no
  initial meld until time is short (``wait_initial``; with ``wait_initial`` 0, as soon as it is
  worth ``initial_min``), and plays only when it places at least ``min_tiles`` tiles, unless an
  opponent's rack is down to ``hurry_rack`` tiles or the pool to ``hurry_pool`` (then it plays
  everything it can). Waiting is its strength: against ``greedy`` (2 players) it gained about 90
  points a hand, melding at 40 about 2.
"""

from __future__ import annotations

from collections import namedtuple

from rummysim.kernels.common._jit import njit_inline, njit_noalloc
from rummysim.kernels.common.rng import below
from rummysim.kernels.rummikub.layout import (
    INITIAL_MIN, JOKER, N_COLOURS, O_N, O_POOL, O_RACK_SIZE, O_SEAT, OBJ_COUNT, OBJ_VALUE, RK_INITIAL_RULE,
    RK_JOKER_PENALTY, RK_JOKER_RELEASE, RK_MAX_JOKERS, RELEASE_BOTH_COLOURS, TOP,
)
from rummysim.kernels.rummikub.table import arrangement, best_arrangement
from rummysim.strategies.ids import (
    HOLD_HURRY_POOL, HOLD_HURRY_RACK, HOLD_INITIAL_MIN, HOLD_KEEP_JOKERS, HOLD_MIN_TILES, HOLD_WAIT_INITIAL, HOLDER,
    RANDOM, RK_BLUNDER, VALUE,
)

RkView = namedtuple("RkView", "obs rack table n_combos rules")
"""What a seat sees: the observation vector (``O_*``), its rack (counts by tile id), the table rows
and their number, and the rules vector."""

RANDOM_DRAW = 3  # random draws with probability 1 / RANDOM_DRAW when it could play
HOLD_JOKER = -1000  # holder's weight of a rack joker while it keeps them


@njit_noalloc
def rack_size(rack):
    k = 0
    for t in range(rack.shape[0]):
        k += rack[t]
    return k


@njit_inline
def solve_for(view, ws, objective, initial, threshold):
    """The solver's best arrangement for the seat under ``objective``; returns (objective, rows)."""
    rules = view.rules
    return best_arrangement(ws, view.table, view.n_combos, view.rack, objective, rules[RK_JOKER_PENALTY],
                            rules[RK_MAX_JOKERS], rules[RK_JOKER_RELEASE] == RELEASE_BOTH_COLOURS, initial,
                            rules[RK_INITIAL_RULE], threshold)


@njit_inline
def solve_weighted(view, ws, joker_weight, initial, threshold):
    """The best arrangement for the weights already in ``ws.wts``; returns (objective, rows)."""
    rules = view.rules
    return arrangement(ws, view.table, view.n_combos, view.rack, joker_weight, rules[RK_MAX_JOKERS],
                       rules[RK_JOKER_RELEASE] == RELEASE_BOTH_COLOURS, initial, rules[RK_INITIAL_RULE], threshold)


@njit_noalloc
def random_weights(ws, rng):
    for c in range(N_COLOURS):
        for n in range(1, TOP + 1):
            ws.wts[c, n] = below(rng, 6) - 2
    return below(rng, 6) - 2


@njit_noalloc
def rows_if(best, rows):
    return rows if best > 0 else 0


@njit_inline
def random_play(view, ws, rng, initial, threshold):
    if below(rng, RANDOM_DRAW) == 0:
        return 0
    joker_weight = random_weights(ws, rng)
    best, rows = solve_weighted(view, ws, joker_weight, initial, threshold)
    return rows_if(best, rows)


@njit_noalloc
def hurry(params, obs):
    """Is the holder out of time: an opponent nearly out, or the pool nearly empty?"""
    n = obs[O_N]
    for s in range(n):
        if s != obs[O_SEAT] and obs[O_RACK_SIZE + s] <= params[HOLD_HURRY_RACK]:
            return True
    return obs[O_POOL] <= params[HOLD_HURRY_POOL]


@njit_inline
def holder_play(params, view, ws):
    """The holder's later turns: everything if that empties the rack or time is short, else the
    most tiles without its jokers, if that is at least ``min_tiles``."""
    best, rows = solve_for(view, ws, OBJ_COUNT, False, 0)
    if best <= 0:
        return 0
    if best >= rack_size(view.rack) or hurry(params, view.obs):
        return rows
    if params[HOLD_KEEP_JOKERS] > 0 and view.rack[JOKER] > 0:
        for c in range(N_COLOURS):
            for n in range(1, TOP + 1):
                ws.wts[c, n] = 1
        best, rows = solve_weighted(view, ws, HOLD_JOKER, False, 0)
    return rows if best >= params[HOLD_MIN_TILES] else 0


@njit_inline
def holder_initial(params, view, ws):
    hurried = hurry(params, view.obs)
    if params[HOLD_WAIT_INITIAL] > 0 and not hurried:
        return 0
    threshold = INITIAL_MIN
    if not hurried:
        threshold = max(INITIAL_MIN, int(params[HOLD_INITIAL_MIN]))
    best, rows = solve_for(view, ws, OBJ_COUNT, True, threshold)
    return rows_if(best, rows)


@njit_inline
def choose_initial(sid, params, view, ws, rng):
    """The seat's initial meld (RKUB-INIT-30): rows of new combinations in ``ws.out``, or 0 to draw."""
    if sid == RANDOM:
        return random_play(view, ws, rng, True, INITIAL_MIN)
    if sid == HOLDER:
        return holder_initial(params, view, ws)
    best, rows = solve_for(view, ws, OBJ_VALUE if sid == VALUE else OBJ_COUNT, True, INITIAL_MIN)
    return rows_if(best, rows)


@njit_inline
def choose_play(sid, params, view, ws, rng):
    """A later turn's play (or, after the initial meld, its continuation, RKUB-INIT-2): rows of the
    whole new table in ``ws.out``, or 0 for no play."""
    if sid == RANDOM:
        return random_play(view, ws, rng, False, 0)
    if sid == HOLDER:
        return holder_play(params, view, ws)
    best, rows = solve_for(view, ws, OBJ_VALUE if sid == VALUE else OBJ_COUNT, False, 0)
    return rows_if(best, rows)


@njit_noalloc
def choose_blunder(sid, params, rng):
    """Does the seat try an invalid table this turn (RKUB-TIME-1; only ``random`` with ``blunder``)?"""
    if sid != RANDOM or params[RK_BLUNDER] <= 0:
        return False
    return below(rng, 1_000_000) < params[RK_BLUNDER] * 1_000_000
