"""Translate a validated ``Rules`` configuration into the kernels' int64 rules vector."""

from __future__ import annotations

import numpy as np

from kernels import layout as L
from sim.rules import Rules, pack_for

_VALUES = {"face": L.VALUES_FACE, "5_10_15": L.VALUES_5_10_15, "all5": L.VALUES_ALL5}
_DISCARD = {"top_single": L.DISC_TOP_SINGLE, "none": L.DISC_NONE, "any_taken": L.DISC_ANY_TAKEN}
JOKER_VALUE = 15  # R500-SCORE-2: a joker is worth 15 whatever it represents


def ace_low_value(rules: Rules) -> int:
    """V500-ACE: the value of an ace used low, resolving ``auto`` and ``same`` (AMB-02)."""
    v = rules.r500_ace_low_value
    if v == "same":
        return int(rules.r500_ace_value)
    if v == "auto":
        return 1 if rules.r500_card_values == "face" else 5
    return int(v)


def encode_rules(rules: Rules, n_players: int) -> np.ndarray:
    """Check ``rules`` for ``n_players`` (raising the typed errors of ``sim.errors``) and encode it."""
    rules.check(n_players)
    decks, jokers, deal = pack_for(rules, n_players)
    vec = np.zeros(L.R_SIZE, dtype=np.int64)
    vec[L.R_N_PLAYERS] = n_players
    vec[L.R_DECKS] = decks
    vec[L.R_JOKERS] = jokers
    vec[L.R_DEAL_SIZE] = deal
    vec[L.R_TARGET] = rules.r500_target
    vec[L.R_VALUES] = _VALUES[rules.r500_card_values]
    vec[L.R_ACE_VALUE] = rules.r500_ace_value
    vec[L.R_ACE_LOW_VALUE] = ace_low_value(rules)
    vec[L.R_DISC_RESTRICT] = _DISCARD[rules.r500_discard_restriction]
    vec[L.R_STOCK_PENALTY] = 1 if rules.r500_stock_out_hand_penalty else 0
    idle = rules.r500_stock_out_idle_turns
    vec[L.R_IDLE_TURNS] = n_players if idle == "n" else int(idle)
    vec[L.R_TURN_CAP] = rules.max_turns_per_hand
    vec[L.R_HAND_CAP] = rules.max_hands_per_game
    vec[L.R_JOKER_VALUE] = JOKER_VALUE
    return vec
