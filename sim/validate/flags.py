"""The RULES.md §8.6 flags as the validator reads them, shared by every game's checker.

For each game, the flags it knows: the value kind, the RULES.md default and the values that game's
checker implements (a set, a ``range`` for the numeric flags a designer may set to any value of
:mod:`rummysim.rules`' range, or ``None``: any positive int, or a flag-specific test in the checker).  A checker
accepts the flags of the other games only at their defaults, so each needs the other games' tables;
they are declared here once.  Values are written as in RULES.md (``True`` / ``"true"``, ``5`` /
``"5"``); :func:`norm_value` reads them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

BOOL = "bool"
INT = "int"
STR = "str"
STR_OR_INT = "str|int"

#: flag -> (kind, default, implemented values or None)
FlagSpecs = dict[str, tuple[str, Any, Any]]

ENGINE_DEFAULTS = {"max_turns_per_hand": 1000, "max_hands_per_game": 200}

END_OF_STOCK_MODES = {"pile_or_end", "end_immediately", "reshuffle", "discard_until_out"}

RUM500_FLAGS: FlagSpecs = {
    "r500_num_decks": (STR_OR_INT, "auto", {"auto", 1, 2}),  # V500-DECKS
    "r500_jokers_per_deck": (INT, 2, {2, 1, 0}),  # V500-JOKERS
    "r500_card_values": (STR, "face", {"face", "5_10_15", "all5"}),  # V500-VALUES
    "r500_ace_value": (INT, 15, range(1, 101)),  # V500-ACE; rules.py int_range
    "r500_ace_low_value": (STR_OR_INT, "auto", {"auto", 1, 5, "same"}),  # V500-ACE
    "r500_four_aces_100": (BOOL, False, {False, True}),  # V500-ACE
    "r500_score_divisor": (INT, 1, {1, 5}),  # V500-DIV5
    "r500_top_card_must_be_played": (BOOL, False, {False, True}),  # V500-TOPMUST
    "r500_pickup_use": (STR, "any", {"any", "new_meld"}),  # V500-NEWMELD
    "r500_no_pickup_to_hit": (BOOL, False, {False, True}),  # V500-NOHIT preset
    "r500_discard_restriction": (STR, "top_single", {"top_single", "none", "any_taken"}),
    "r500_call_rummy": (STR, "off", {"off", "pile", "top_only", "layoff_only"}),  # V500-RUMMY
    "r500_going_out": (STR, "any", {"any", "discard_required", "floating"}),
    "r500_unplayable_discard": (BOOL, False, {False, True}),  # V500-UNPLAYABLE
    "r500_must_go_out_to_win": (BOOL, False, {False, True}),  # V500-MUSTOUT
    "r500_first_meld_min": (INT, 0, range(0, 501)),  # V500-OPEN30
    "r500_min_new_run": (INT, 3, {3, 4}),  # V500-RUN4
    "r500_round_the_corner": (BOOL, False, {False, True}),  # V500-CORNER
    "r500_boathouse": (BOOL, False, {False, True}),  # V500-BOATHOUSE preset
    "r500_stock_draw_count": (INT, 1, {1, 2}),  # V500-BOATHOUSE
    "r500_end_of_stock": (STR, "pile_or_end", END_OF_STOCK_MODES),  # V500-STOCKEND
    "r500_stock_out_hand_penalty": (BOOL, True, {True, False}),  # V500-STOCKEND
    "r500_stock_out_idle_turns": (STR_OR_INT, "n", None),  # R500-STOCK-2: "n" or int > 0
    "r500_add_opponent_hand": (BOOL, False, {False, True}),  # V500-ADDOPP
    "r500_addopp_stock_out": (STR, "by_player_count", {"by_player_count", "continue_discarding"}),
    "r500_seven_straight_bonus": (INT, 0, range(0, 5001)),  # V500-7STRAIGHT
    "r500_target": (INT, 500, None),  # V500-TARGET: any positive int
    "r500_tie_rule": (STR, "replay", {"replay", "goer_wins"}),  # V500-TIE
    "r500_meld_out_of_turn": (BOOL, False, {False, True}),  # V500-OUTOFTURN
    "r500_upcard_mode": (STR, "stock", {"stock", "first_player_choice"}),  # V500-UPCHOICE
    "r500_next_dealer": (STR, "left", {"left", "winner"}),  # V500-WINNERDEALS
    "r500_dealers_gambit": (BOOL, False, {False, True}),  # V500-GAMBIT
    "r500_gambit_jokers": (INT, 2, {2, 4}),  # V500-GAMBIT-1
    "r500_partnership": (BOOL, False, {False, True}),  # V500-PARTNER
    "r500_partner_layoff": (STR, "any", {"any", "team_only"}),  # V500-PARTNER-1
    "r500_persian": (BOOL, False, {False, True}),  # V500-PERSIAN
}

# Standard Rummy (§7)
STANDARD_FLAGS: FlagSpecs = {
    "std_going_out": (STR, "discard_required", {"discard_required", "any"}),  # RSTD-OUT-1
    "std_game_hands": (INT, 5, None),  # RSTD-GAME-1: any positive int
    "std_end_of_stock": (STR, "pile_or_end", END_OF_STOCK_MODES),  # RSTD-STOCK-1
}

# 5000 Rummy (§5); r5k_target: None = "auto" or a positive int
RUM5000_FLAGS: FlagSpecs = {
    "r5k_target": (STR_OR_INT, "auto", None),  # R5K-GAME-1
    "r5k_payoff": (STR, "difference", {"difference", "game_point"}),  # V5K-1 [STAKES]
    "r5k_must_go_out_to_win": (BOOL, False, {False, True}),  # V5K-2
    "r5k_rummy": (STR, "off", {"off", "top_card", "any_cards"}),  # V5K-3/4
    "r5k_going_out": (STR, "any", {"any", "unmeldable_discard", "meld_all"}),  # V5K-5/6
    "r5k_michigan": (BOOL, False, {False, True}),  # V5K-7
    "r5k_polish": (BOOL, False, {False, True}),  # V5K-8
    "r5k_persian": (BOOL, False, {False, True}),  # V5K-9
    "r5k_first_turn": (STR, "upcard", {"upcard", "extra_card", "exchange_upcard"}),  # V5K-10/11
    "r5k_money_cards": (BOOL, False, {False, True}),  # V5K-12
    "r5k_doubling": (BOOL, False, {False, True}),  # V5K-13 [STAKES]: a fold ends a hand
    "r5k_limit_poker": (BOOL, False, {False, True}),  # V5K-14 [STAKES]: a concession likewise
}

# Rummikub (§6); rkub_rounds: None = any positive int
RUMMIKUB_FLAGS: FlagSpecs = {
    "rkub_direction": (STR, "clockwise", {"clockwise", "counterclockwise"}),  # VKUB-DIR
    "rkub_group_joker_release": (STR, "one_tile", {"one_tile", "both_colours"}),  # VKUB-JOKERBOTH
    "rkub_max_jokers_per_combo": (INT, 2, {2, 1}),  # VKUB-TWOJOKERS
    "rkub_joker_penalty": (INT, 30, range(0, 101)),  # VKUB-JOKER25
    "rkub_initial_rule": (STR, "total", {"total", "single_combo"}),  # RKUB-INIT-30, AMB-38
    "rkub_manipulate_on_initial_turn": (BOOL, True, {True, False}),  # RKUB-INIT-2, AMB-39
    "rkub_invalid_turn": (STR, "reject", {"reject", "penalty_draw3"}),  # RKUB-TIME-1
    "rkub_rounds": (INT, 1, None),  # RKUB-GAME-1
}


def norm_value(name: str, kind: str, value: Any) -> Any:
    """Normalise a flag value written as in RULES.md (``True``/``"true"``, ``1``/``"1"``...)."""
    if isinstance(value, np.generic):
        value = value.item()
    if kind == BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ValueError(f"flag {name}: value {value!r} is not a boolean")
    if isinstance(value, bool):
        raise ValueError(f"flag {name}: value {value!r} is not valid")
    if kind == INT or kind == STR_OR_INT:
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            v = value.strip()
            if v.lstrip("-").isdigit():
                return int(v)
            if kind == STR_OR_INT:
                return v
        raise ValueError(f"flag {name}: value {value!r} is not valid")
    if isinstance(value, str):
        return value
    raise ValueError(f"flag {name}: value {value!r} is not valid")


def engine_cap(name: str, raw: Any) -> int:
    """``max_turns_per_hand`` / ``max_hands_per_game``: a positive int."""
    v = norm_value(name, INT, raw)
    if v <= 0:
        raise ValueError(f"flag {name}: value {raw!r} must be a positive integer")
    return v
