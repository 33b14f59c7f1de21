"""500 Rum and Standard Rummy in the registry: their rules vectors and kernel entry points.

Both games are played by the ``kernels.rum500`` engine; Standard Rummy (RULES.md §7, AMB-46) is
500 Rum's engine with aces low only, top-card draws and deadwood scoring, set by its vector.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rummysim.games.spec import COMMON_REASONS, GameSpec, rules_header
from rummysim.kernels.rum500 import layout as L
from rummysim.rules import Rules, pack_for

_VALUES = {"face": L.VALUES_FACE, "5_10_15": L.VALUES_5_10_15, "all5": L.VALUES_ALL5}
_DISCARD = {"top_single": L.DISC_TOP_SINGLE, "none": L.DISC_NONE, "any_taken": L.DISC_ANY_TAKEN}
_CALLS = {"off": L.CALL_OFF, "pile": L.CALL_PILE, "top_only": L.CALL_TOP, "layoff_only": L.CALL_LAYOFF}
_GOING_OUT = {"any": L.OUT_ANY, "discard_required": L.OUT_DISCARD_REQUIRED, "floating": L.OUT_FLOATING}
_END_OF_STOCK = {
    "pile_or_end": L.EOS_PILE_OR_END,
    "end_immediately": L.EOS_END_IMMEDIATELY,
    "reshuffle": L.EOS_RESHUFFLE,
    "discard_until_out": L.EOS_DISCARD_UNTIL_OUT,
}
JOKER_VALUE = 15  # R500-SCORE-2: a joker is worth 15 whatever it represents
PERSIAN_JOKER_VALUE = 20  # V500-PERSIAN-2
TEAMS = (0, 1, 0, 1)  # V500-PARTNER: partners sit opposite, seats 0 and 2 against 1 and 3
STANDARD_DEAL = {2: 13}  # RSTD-DEAL-1: 13 cards with 2 players, else 7
NO_TARGET = 1 << 40  # Standard Rummy ends after a number of hands, not at a target


def ace_low_value(rules: Rules) -> int:
    """V500-ACE: the value of an ace used low, resolving ``auto`` and ``same`` (AMB-02)."""
    v = rules.r500_ace_low_value
    if v == "same":
        return int(rules.r500_ace_value)
    if v == "auto":
        return 1 if rules.r500_card_values == "face" else 5
    return int(v)


def _common(rules: Rules, n_players: int, game: int) -> np.ndarray:
    """500 Rum and Standard Rummy: the header and the 500 slots' neutral values."""
    vec = rules_header(rules, n_players, L.R_SIZE, game)
    vec[L.R_MIN_RUN] = 3
    vec[L.R_STOCK_DRAW] = 1
    vec[L.R_DIVISOR] = 1
    return vec


def encode_500(rules: Rules, n_players: int) -> np.ndarray:
    """500 Rum (RULES.md §2) with its variations (§3), for a ``Rules`` already checked."""
    decks, jokers, deal = pack_for(rules, n_players)
    div = int(rules.r500_score_divisor)
    vec = _common(rules, n_players, L.GAME_500)
    vec[L.R_DECKS] = decks
    vec[L.R_JOKERS] = jokers
    vec[L.R_DEAL_SIZE] = deal
    vec[L.R_TARGET] = rules.r500_target
    vec[L.R_VALUES] = _VALUES[rules.r500_card_values]
    vec[L.R_DIVISOR] = div
    vec[L.R_ACE_VALUE] = rules.r500_ace_value // div
    vec[L.R_ACE_LOW_VALUE] = ace_low_value(rules) // div
    vec[L.R_JOKER_VALUE] = JOKER_VALUE // div
    vec[L.R_FOUR_ACES] = 25 // div if rules.r500_four_aces_100 else 0
    vec[L.R_DISC_RESTRICT] = _DISCARD[rules.r500_discard_restriction]
    vec[L.R_TOPMUST] = int(rules.r500_top_card_must_be_played)
    vec[L.R_NEW_MELD_ONLY] = int(rules.r500_pickup_use == "new_meld")
    vec[L.R_CALL] = _CALLS[rules.r500_call_rummy]
    vec[L.R_GOING_OUT] = _GOING_OUT[rules.r500_going_out]
    vec[L.R_UNPLAYABLE] = int(rules.r500_unplayable_discard)
    vec[L.R_MUST_GO_OUT] = int(rules.r500_must_go_out_to_win)
    vec[L.R_FIRST_MELD_MIN] = rules.r500_first_meld_min // div
    vec[L.R_MIN_RUN] = rules.r500_min_new_run
    vec[L.R_MAX_POS] = 26 if rules.r500_round_the_corner else 14
    vec[L.R_STOCK_DRAW] = rules.r500_stock_draw_count
    eos = rules.r500_end_of_stock
    if rules.r500_add_opponent_hand and rules.r500_addopp_stock_out == "continue_discarding":
        eos = "discard_until_out"  # V500-ADDOPP-3
    vec[L.R_END_OF_STOCK] = _END_OF_STOCK[eos]
    vec[L.R_STOCK_PENALTY] = int(rules.r500_stock_out_hand_penalty)
    idle = rules.r500_stock_out_idle_turns
    vec[L.R_IDLE_TURNS] = n_players if idle == "n" else int(idle)
    vec[L.R_ADDOPP] = int(rules.r500_add_opponent_hand)
    vec[L.R_SEVEN_BONUS] = rules.r500_seven_straight_bonus // div
    vec[L.R_TIE_RULE] = L.TIE_GOER_WINS if rules.r500_tie_rule == "goer_wins" else L.TIE_REPLAY
    vec[L.R_OUT_OF_TURN] = int(rules.r500_meld_out_of_turn)
    vec[L.R_UPCHOICE] = int(rules.r500_upcard_mode == "first_player_choice")
    vec[L.R_NEXT_DEALER] = L.DEALER_WINNER if rules.r500_next_dealer == "winner" else L.DEALER_LEFT
    vec[L.R_DEEP_TAKES] = 1
    _encode_partnership(rules, vec)
    _encode_gambit(rules, vec)
    return vec


def _encode_gambit(rules: Rules, vec: np.ndarray) -> None:
    """V500-GAMBIT: the pack shuffled and dealt lacks the dealer's joker (V500-GAMBIT-1), and a
    joker is worth 0 under every effect (V500-GAMBIT-4/5/9)."""
    if rules.r500_dealers_gambit:
        vec[L.R_GAMBIT] = 1
        vec[L.R_JOKERS] -= 1
        vec[L.R_JOKER_VALUE] = 0


def _encode_partnership(rules: Rules, vec: np.ndarray) -> None:
    """V500-PARTNER and V500-PERSIAN: teams, lay-off rights, Persian's joker value, two deals."""
    if rules.r500_persian:
        vec[L.R_PARTNERSHIP] = L.PARTNER_PERSIAN
        vec[L.R_JOKER_VALUE] = PERSIAN_JOKER_VALUE
        vec[L.R_TARGET] = 0  # V500-PERSIAN-5: the game is two deals, not a target
    elif rules.r500_partnership:
        vec[L.R_PARTNERSHIP] = L.PARTNER_TEAMS
    vec[L.R_TEAM_ONLY] = int(rules.r500_partner_layoff == "team_only")


def sides_500(rules: Rules, players: int) -> tuple[int, ...]:
    """Two teams of partners opposite under V500-PARTNER (and V500-PERSIAN), else one seat a side."""
    return TEAMS if rules.r500_partnership else tuple(range(players))


def encode_standard(rules: Rules, n_players: int) -> np.ndarray:
    """Standard Rummy (RULES.md §7, AMB-46): aces low only, top-card draws, deadwood scoring."""
    vec = _common(rules, n_players, L.GAME_STANDARD)
    vec[L.R_DECKS] = 1
    vec[L.R_JOKERS] = 0
    vec[L.R_DEAL_SIZE] = STANDARD_DEAL.get(n_players, 7)
    vec[L.R_TARGET] = NO_TARGET
    vec[L.R_GAME_HANDS] = rules.std_game_hands
    vec[L.R_VALUES] = L.VALUES_FACE
    vec[L.R_ACE_VALUE] = 1
    vec[L.R_ACE_LOW_VALUE] = 1
    vec[L.R_DISC_RESTRICT] = L.DISC_TOP_SINGLE
    vec[L.R_GOING_OUT] = _GOING_OUT[rules.std_going_out]
    vec[L.R_MAX_POS] = 13
    vec[L.R_END_OF_STOCK] = _END_OF_STOCK[rules.std_end_of_stock]
    vec[L.R_STOCK_PENALTY] = 1
    vec[L.R_IDLE_TURNS] = n_players
    vec[L.R_DEEP_TAKES] = 0
    vec[L.R_NEXT_DEALER] = L.DEALER_LEFT
    return vec



_ENTRY = "rummysim.kernels.rum500.batch"
_REASONS = {**COMMON_REASONS, L.END_STOCK_END: "stock_end"}  # V500-STOCKEND end_immediately


def counters_500(flags: Mapping[str, object]) -> frozenset[str]:
    """Rummy calls with V500-RUMMY, floats with V500-FLOAT or V500-UNPLAYABLE, deep takes always."""
    out = {"deep_takes"}
    if flags.get("r500_call_rummy", "off") != "off":
        out.add("calls")
    if flags.get("r500_going_out") == "floating" or flags.get("r500_unplayable_discard") is True:
        out.add("floats")
    return frozenset(out)


def counters_standard(flags: Mapping[str, object]) -> frozenset[str]:
    """Standard Rummy has no rummy calls, no floating and no takes below the top (RSTD-*)."""
    return frozenset()


# The engine variants of kernels.rum500.batch.engine_variant: every strategy family on the lean
# engine (500-rum) and on the full one (500-rum-calling uses a rare path). Standard Rummy plays
# the same kernels, so its runs compile the same variants.
_WARMUP_RUNS = tuple((preset, lineup) for preset in ("500-rum", "500-rum-calling")
                     for lineup in ("greedy", "heuristic", "rollout", "heuristic,rollout")) + (
    ("500-rum", "py:rummysim:Strategy"),)  # the step API's engine (Python strategies, rummysim.env)
# Cold-compile seconds on the idle machine by variant label, else by strategy family: basic and
# heuristic measured at session 24 (29, 36.5 s), rollout at session 21 (53 s: a 1-game simulate,
# empty cache; "all" compiles what rollout does, since search uses the heuristic's decisions); the
# full engine's from earlier sessions (benchmarks/README.md, issue 19)
_COMPILE_SECONDS = {"basic": 30.0, "heuristic": 37.0, "rollout": 55.0, "all": 55.0,
                    "basic-full": 50.0, "heuristic-full": 55.0, "rollout-full": 60.0, "all-full": 70.0,
                    "step-api": 160.0}  # Python strategies, the step API: every strategy, the full engine, objmode


def _spec(name: str, encode, counters, sides=None) -> GameSpec:
    extra = {} if sides is None else {"sides": sides}
    return GameSpec(
        name=name,
        encode=encode,
        active_counters=counters,
        games_runner_at=f"{_ENTRY}:run_games",
        hands_runner_at=f"{_ENTRY}:run_hands",
        traced_runner_at=f"{_ENTRY}:run_game_traced",
        validator_at="rummysim.validate.rum500:validate_trace",
        replay_at="rummysim.replay:format_trace",
        hand_end_reasons=_REASONS,
        variant_at=f"{_ENTRY}:engine_variant",
        warmup_runs=_WARMUP_RUNS,
        compile_seconds=_COMPILE_SECONDS,
        step_game_at="rummysim.stepenv.engines:RUM500",
        **extra,
    )


SPECS = (_spec("500-rum", encode_500, counters_500, sides_500), _spec("standard-rummy", encode_standard, counters_standard))
