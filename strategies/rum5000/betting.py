"""Betting policies of 5000 Rummy's stakes layers: doubling (V5K-13) and limit poker (V5K-14).

A policy decides from the seat's *stakes view* alone (``kernels.rum5000.stakes.stake_view``): its
own cards, the public table and hand sizes, and the state of the stake or the betting round, never
another seat's hidden cards (C-INFO-1). Every policy reads one number from that view, the seat's
``edge``: how far ahead it looks in the hand (its credited table points minus the opponent's, 25
per card the opponent holds more, 50 per wild card in its own hand). The policies and their
parameters (``strategies/betting.py`` names them) are:

* ``accept-all``: never doubles, bets or concedes; takes every double and calls every bet.
* ``never-double``: never doubles or bets; folds a double below ``take_at``, folds to a bet below
  ``fold_at``, concedes during play below ``concede_at``.
* ``threshold``: doubles at ``double_at``, beavers at ``beaver_at``, folds below ``take_at``; bets
  ``chips`` at ``bet_at``, raises ``chips`` at ``raise_at``, folds to a bet below ``fold_at``,
  concedes below ``concede_at``.
* ``aggressive``: doubles whenever it may, beavers every double, bets and raises 10 whenever it
  may, never folds: the stakes grow as fast as the rules allow.
"""

from __future__ import annotations

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.common.layout import N_PARAMS
from rummysim.strategies.ids import (
    BET_AGGRESSIVE, BET_NEVER_DOUBLE, BET_THRESHOLD, BP_BEAVER_AT, BP_BET_AT, BP_CHIPS, BP_CONCEDE_AT,
    BP_DOUBLE_AT, BP_FOLD_AT, BP_ID, BP_RAISE_AT, BP_TAKE_AT,
)

# ---- the stakes view (filled by the kernel, read here)
SV_MY_TABLE = 0  # points credited to the seat on the table this hand
SV_OPP_TABLE = 1
SV_MY_CARDS = 2
SV_OPP_CARDS = 3  # public (R5K-INFO-1)
SV_MY_WILDS = 4  # wild cards in the seat's own hand
SV_TO_CALL = 5  # Limit-Poker: chips the seat must put in to equalize
SV_BET_MADE = 6  # Limit-Poker: 1 once a bet was made this round
SV_CAN_RAISE = 7  # Limit-Poker: 1 while the seat has raised fewer than 2 times
SV_SIZE = 8

# ---- answers and betting-round actions
ANSWER_TAKE = 0
ANSWER_FOLD = 1
ANSWER_BEAVER = 2
ACT_CHECK = 0
ACT_BET = 1
ACT_CALL = 2
ACT_RAISE = 3
ACT_CONCEDE = 4
MAX_CHIPS = 10  # V5K-14: bets and raises are 1..10 chips


@njit_noalloc
def edge(sv):
    """How far ahead the seat looks, in points, from its own view."""
    return (sv[SV_MY_TABLE] - sv[SV_OPP_TABLE]) + 25 * (sv[SV_OPP_CARDS] - sv[SV_MY_CARDS]) + 50 * sv[SV_MY_WILDS]


@njit_noalloc
def policy_of(params):
    return int(params[N_PARAMS + BP_ID])


@njit_noalloc
def param(params, slot):
    return params[N_PARAMS + slot]


@njit_noalloc
def chips(params, policy):
    if policy == BET_AGGRESSIVE:
        return MAX_CHIPS
    return int(min(MAX_CHIPS, max(1.0, param(params, BP_CHIPS))))


@njit_noalloc
def wants_double(params, sv):
    """Doubling: offer a double just before the opponent draws (the kernel checks it may)."""
    policy = policy_of(params)
    if policy == BET_AGGRESSIVE:
        return True
    if policy == BET_THRESHOLD:
        return edge(sv) >= param(params, BP_DOUBLE_AT)
    return False


@njit_noalloc
def answer_double(params, sv):
    """Doubling: ANSWER_TAKE, ANSWER_FOLD or ANSWER_BEAVER to a double just offered."""
    policy = policy_of(params)
    if policy == BET_AGGRESSIVE:
        return ANSWER_BEAVER
    e = edge(sv)
    if policy == BET_THRESHOLD and e >= param(params, BP_BEAVER_AT):
        return ANSWER_BEAVER
    if (policy == BET_THRESHOLD or policy == BET_NEVER_DOUBLE) and e < param(params, BP_TAKE_AT):
        return ANSWER_FOLD
    return ANSWER_TAKE


@njit_noalloc
def round_action(params, sv):
    """Limit-Poker's betting round: (action, chips) for the seat to act (the kernel keeps it legal)."""
    policy = policy_of(params)
    facing = sv[SV_TO_CALL] > 0
    e = edge(sv)
    if policy == BET_AGGRESSIVE:
        if not facing:
            return (ACT_BET, MAX_CHIPS) if sv[SV_BET_MADE] == 0 else (ACT_CHECK, 0)
        return (ACT_RAISE, MAX_CHIPS) if sv[SV_CAN_RAISE] == 1 else (ACT_CALL, 0)
    if not facing:
        if policy == BET_THRESHOLD and sv[SV_BET_MADE] == 0 and e >= param(params, BP_BET_AT):
            return ACT_BET, chips(params, policy)
        return ACT_CHECK, 0
    if (policy == BET_THRESHOLD or policy == BET_NEVER_DOUBLE) and e < param(params, BP_FOLD_AT):
        return ACT_CONCEDE, 0
    if policy == BET_THRESHOLD and sv[SV_CAN_RAISE] == 1 and e >= param(params, BP_RAISE_AT):
        return ACT_RAISE, chips(params, policy)
    return ACT_CALL, 0


@njit_noalloc
def wants_concede(params, sv):
    """Limit-Poker: give up the hand (and the pot) before one of the seat's own turns."""
    policy = policy_of(params)
    if policy == BET_THRESHOLD or policy == BET_NEVER_DOUBLE:
        return edge(sv) < param(params, BP_CONCEDE_AT)
    return False
