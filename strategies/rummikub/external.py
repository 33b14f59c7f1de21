"""Decisions made outside numba: Rummikub's asks of the step API's seats (``rummysim.stepenv``).

A Rummikub play is a whole new table, too many to list. The step API lists it as the tiles it
places instead: an external seat composes its play one rack tile at a time, and the exact solver
arranges the table. Each ask (kind ``K_PLACE``) offers

* ``DRAW`` (-1): no play this turn (draw a tile, or pass once the pool is empty);
* ``PLAY`` (-2), when the tiles chosen so far can be placed exactly as they are: the solver's
  arrangement of them (RKUB-MANIP-1; as the initial meld, new combinations from the rack alone
  worth at least 30, RKUB-INIT-30);
* a tile id t, once for each id still on the rack beyond the copies chosen: add one copy of t.

So every set of rack tiles the rules let the seat place is reachable, and only those are played.
The built-in strategy of the seat (``hint``) has already chosen its play: the hint walks toward
its tiles, and a play of exactly its tiles lays its own arrangement, so a seat that takes every
hint plays the built-in strategy's game. Outside the step API (the engine's switch ``ext`` None)
``ask_play`` compiles to ``return rows``; in it ``ext`` is an int32 array, one flag per seat.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.external import ENV_FAMILY, ask, is_env, set_handler
from rummysim.kernels.rummikub.layout import (
    CB_LEN, CB_SIZE, CB_TILE, MAX_COMBOS, OBJ_COUNT, RK_INITIAL_RULE, RK_JOKER_PENALTY, RK_JOKER_RELEASE,
    RK_MAX_JOKERS, RELEASE_BOTH_COLOURS, TILE_IDS,
)
from rummysim.kernels.rummikub.table import best_arrangement, copy_table

__all__ = ["ENV_FAMILY", "set_handler", "ask_play"]

K_PLACE = 7  # the one kind of Rummikub decision (numbered apart from the other engines' kinds)
KIND_NAMES = {K_PLACE: "place"}
DRAW = -1
PLAY = -2
MAX_OPTIONS = TILE_IDS + 2


def ask_play(ext, seat, view, ws, initial, threshold, rows):
    """Seat ``seat``'s play: the number of rows it leaves in ``ws.out`` (0: no play), asked of the
    step API's handler for an external seat, else the built-in pick ``rows``."""


@overload(ask_play)
def _ask_play(ext, seat, view, ws, initial, threshold, rows):
    if is_env(ext):
        def impl(ext, seat, view, ws, initial, threshold, rows):
            if ext[seat] == 0:
                return rows
            return compose_play(view, ws, initial, threshold, rows)
        return impl
    return lambda ext, seat, view, ws, initial, threshold, rows: rows


@njit
def placed_tiles(out, rows, table, n_combos, initial):
    """Counts by tile id of the rack tiles a play puts down: its tiles less the table's."""
    counts = np.zeros(TILE_IDS, dtype=np.int64)
    for r in range(rows):
        for i in range(out[r, CB_LEN]):
            counts[out[r, CB_TILE + i]] += 1
    if not initial:
        for r in range(n_combos):
            for i in range(table[r, CB_LEN]):
                counts[table[r, CB_TILE + i]] -= 1
    return counts


@njit
def exact_rows(view, ws, chosen, initial, threshold):
    """The solver's arrangement placing exactly the ``chosen`` rack tiles (rows in ``ws.out``), or 0."""
    k = 0
    for t in range(TILE_IDS):
        k += chosen[t]
    if k == 0:
        return 0
    rules = view.rules
    best, rows = best_arrangement(ws, view.table, view.n_combos, chosen, OBJ_COUNT, rules[RK_JOKER_PENALTY],
                                  rules[RK_MAX_JOKERS], rules[RK_JOKER_RELEASE] == RELEASE_BOTH_COLOURS, initial,
                                  rules[RK_INITIAL_RULE], threshold)
    return rows if best == k else 0


@njit
def compose_play(view, ws, initial, threshold, hint_rows):
    """Ask the seat's play one tile at a time (the module docstring); returns rows of ``ws.out``."""
    saved = np.zeros((MAX_COMBOS, CB_SIZE), dtype=np.int64)
    copy_table(saved, ws.out, hint_rows)
    goal = placed_tiles(ws.out, hint_rows, view.table, view.n_combos, initial)
    chosen = np.zeros(TILE_IDS, dtype=np.int64)
    options = np.zeros(MAX_OPTIONS, dtype=np.int64)
    while True:
        same = True
        for t in range(TILE_IDS):
            same = same and chosen[t] == goal[t]
        n = 0
        options[n] = DRAW
        n += 1
        # the built-in play's own tiles are placeable (its arrangement), whatever a cut solve says
        playable = (same and hint_rows > 0) or exact_rows(view, ws, chosen, initial, threshold) > 0
        if playable:
            options[n] = PLAY
            n += 1
        hint = -1
        for t in range(TILE_IDS):
            if view.rack[t] > chosen[t]:
                if hint < 0 and chosen[t] < goal[t]:
                    hint = n
                options[n] = t
                n += 1
        if hint < 0:  # every tile of the built-in play is chosen: play, or draw as it would
            hint = 1 if playable else 0
        pick = options[ask(K_PLACE, view.obs, view.rack, chosen, view.table[:view.n_combos], options, n, hint, 0)]
        if pick == DRAW:
            return 0
        if pick != PLAY:
            chosen[pick] += 1
            continue
        if same and hint_rows > 0:
            copy_table(ws.out, saved, hint_rows)
            return hint_rows
        return exact_rows(view, ws, chosen, initial, threshold)
