"""A play-out model in which every seat plays the heuristic, for ``search`` (strategies/rum500/search.py).

The fast model of strategies/rum500/playout.py plays every seat greedily. Here each seat of the
dealt world decides as the heuristic does, with the searching seat's parameter row: its draw
(the stock or the top discard), whether to lay its melds down now (``time_to_lay``) and its
discard, each from a ``View`` of the world as that seat would see it (its own hand, the pile, the
table, the sizes). It keeps the fast model's simplifications otherwise: no deep takes, rummy
calls or opening minimum, melds laid highest first, the same end and scoring (``hand_result``).
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.common._jit import njit
from rummysim.kernels.common.planes import U1, lowest_bit_index, n_cards
from rummysim.kernels.rum500.layout import (
    DISC_TOP_SINGLE, DRAW_STOCK, END_OUT, END_STOCK, END_TURN_CAP, JOKER, MAX_PACK, OB_HAND_SIZE, OB_MY_JOKERS,
    OB_N, OB_N_MELDS, OB_PILE_LEN, OB_SEAT, OB_SIZE, OB_STOCK, OB_TEAMS, PARTNER_NONE, R_DISC_RESTRICT,
    R_PARTNERSHIP, R_TOPMUST,
)
from rummysim.kernels.rum500.melds import Table, layoff_team
from rummysim.kernels.rum500.view import View
from rummysim.strategies.ids import H_HOLD_MELDS
from rummysim.strategies.rum500.heuristic import heuristic_discard, heuristic_draw, time_to_lay
from rummysim.strategies.rum500.playout import (
    MAX_TURNS, NO_STOCK, W_N_MELDS, W_PILE_LEN, W_STOCK_LEN, W_STOCK_POS, discard_card, draw_stock, meld_greedily,
    take_pile,
)


@njit
def new_seat_buffers():
    """(observation, own planes, options) reused by every decision of the model's seats."""
    return np.zeros(OB_SIZE, dtype=np.int64), np.zeros(2, dtype=np.uint64), np.zeros(MAX_PACK + 1, dtype=np.int64)


@njit
def world_view(w, seat, n, rules, vals, ace_low, obs, mine):
    """The ``View`` seat ``seat`` has of the dealt world: sizes, its own cards, the pile, the table."""
    hands, jok, pts, stock, wpile, wmelds, ints = w
    obs[:] = 0
    obs[OB_SEAT] = seat
    obs[OB_N] = n
    obs[OB_TEAMS] = 1 if rules[R_PARTNERSHIP] != PARTNER_NONE else 0
    obs[OB_STOCK] = ints[W_STOCK_LEN] - ints[W_STOCK_POS]
    obs[OB_PILE_LEN] = ints[W_PILE_LEN]
    obs[OB_N_MELDS] = ints[W_N_MELDS]
    obs[OB_MY_JOKERS] = jok[seat]
    for s in range(n):
        obs[OB_HAND_SIZE + s] = n_cards(hands[s, 0], hands[s, 1], jok[s])
    mine[0] = hands[seat, 0]
    mine[1] = hands[seat, 1]
    table = Table(wmelds, ints[W_N_MELDS], vals, ace_low, rules, layoff_team(rules, seat), 0)
    return View(obs, mine, wpile, table)


@njit
def model_draw(params, w, seat, n, rules, vals, ace_low, scratch, bufs):
    """The heuristic's draw between the stock and the top discard. Returns (card taken from the
    pile or -1, the card it must play or -1, the card it may not discard or -1); NO_STOCK as the
    first when the turn starts on an empty stock."""
    obs, mine, opts = bufs
    top = w[6][W_PILE_LEN] - 1
    if top >= 0:
        view = world_view(w, seat, n, rules, vals, ace_low, obs, mine)
        opts[0] = DRAW_STOCK
        opts[1] = top
        if heuristic_draw(params, view, opts, 2, scratch) == 1:
            card = take_pile(w, seat, top)
            must = card if rules[R_TOPMUST] != 0 else -1  # V500-TOPMUST
            forbidden = card if rules[R_DISC_RESTRICT] == DISC_TOP_SINGLE else -1  # R500-DISC-2
            return card, must, forbidden
    if draw_stock(w, seat, rules) == NO_STOCK:
        return NO_STOCK, -1, -1
    return -1, -1, -1


@njit
def model_discard(params, w, seat, n, forbidden, rules, vals, ace_low, scratch, bufs):
    """The heuristic's discard (the forbidden card only when nothing else is left); True if out."""
    obs, mine, opts = bufs
    hands, jok = w[0], w[1]
    nopt = 0
    x = hands[seat, 0]
    while x:
        c = lowest_bit_index(x)
        x &= x - U1
        if c != forbidden:
            opts[nopt] = c
            nopt += 1
    if jok[seat] > 0:
        opts[nopt] = JOKER
        nopt += 1
    if nopt == 0:
        return discard_card(w, seat, forbidden)
    view = world_view(w, seat, n, rules, vals, ace_low, obs, mine)
    return discard_card(w, seat, np.int64(opts[heuristic_discard(params, view, opts, nopt, scratch)]))


@njit
def model_finish(params, w, seat, n, forbidden, must, rules, vals, ace_low, scratch, bufs):
    """Melds (all of them, unless the heuristic holds them: then only a required one), then the
    discard. True if the seat went out."""
    hold = params[H_HOLD_MELDS] > 0
    if hold and must < 0:
        view = world_view(w, seat, n, rules, vals, ace_low, bufs[0], bufs[1])
        hold = not time_to_lay(params, view.obs, view.mine, view.table, scratch)
    if not hold or must >= 0:
        if meld_greedily(w, seat, must, rules, vals, ace_low, scratch):
            return True
    return model_discard(params, w, seat, n, forbidden, rules, vals, ace_low, scratch, bufs)


@njit
def model_rest(params, w, seat, n, rules, vals, ace_low, scratch, bufs):
    """Whole turns from ``seat`` on until the hand ends; returns (end reason, seat out or -1)."""
    for _ in range(MAX_TURNS):
        card, must, forbidden = model_draw(params, w, seat, n, rules, vals, ace_low, scratch, bufs)
        if card == NO_STOCK:
            return END_STOCK, -1
        if model_finish(params, w, seat, n, forbidden, must, rules, vals, ace_low, scratch, bufs):
            return END_OUT, seat
        seat = (seat + 1) % n
    return END_TURN_CAP, -1
