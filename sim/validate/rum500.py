"""Independent rules checker for 500 Rum and Standard Rummy traces (5000 Rummy: sim/validate_5k.py).

This module replays a kernel trace (``docs/trace-format.md``) record by record and checks it against
the normative rules in ``RULES.md`` (§1 common concepts, §2 500 Rum base rules, §3 the V500
variations listed below, §7 Standard Rummy, §8 reference tables and §9 chosen defaults).  It was
written from those two documents alone, as a second opinion on the kernels; it shares no code with
them.

Public API
----------
``validate_trace(trace, flags=None) -> ValidationResult``
    ``trace`` is an integer array of shape ``(n, 8)`` holding one whole game (GAME_START ..
    GAME_END).  Several games concatenated back to back are accepted as well.  ``flags`` maps the
    RULES.md §8.6 flag names (plus ``game``, ``max_turns_per_hand`` and ``max_hands_per_game``) to
    values written as in RULES.md -- typically ``sim.rules.Rules.as_dict()``.  Missing flags take
    the RULES.md defaults; a preset (``r500_no_pickup_to_hit``, ``r500_boathouse``) or an implying
    flag (``r500_unplayable_discard``, ``r500_score_divisor=5``) fills in the flags it implies only
    when they are absent (``as_dict()`` already holds the expanded values).

    A malformed or illegal trace never raises: every problem becomes a :class:`Violation`.  After a
    violation that makes further replay meaningless (a card that is not where the trace says it
    is, a broken record structure, ...) the replay of that game stops.

    A flag value the checker does not implement raises :class:`ValueError` naming the flag, so an
    unchecked configuration is never silently accepted.

Implemented games and flags
---------------------------
5000 Rummy (``game=5000-rummy``, or no ``game`` flag and GAME_START game code 2) is handed to
:mod:`sim.validate_5k`, which shares only the card helpers, record constants and result types.
``game``: ``500-rum`` (GAME_START column 5 = 0) and ``standard-rummy`` (column 5 = 1, flags
``std_going_out``, ``std_game_hands``, ``std_end_of_stock``; every ``r500_`` flag must then hold its
default).  500 Rum: every §8.6 ``r500_`` flag and value except V500-GAMBIT
(``r500_dealers_gambit``, ``r500_gambit_jokers``), V500-PARTNER (``r500_partnership``,
``r500_partner_layoff``) and V500-PERSIAN (``r500_persian``), which must hold their defaults, as
must every ``r5k_`` and ``rkub_`` flag.

Rule IDs used in violations are RULES.md IDs, plus:

* ``C-CARD-CONSERVATION`` -- a card is not where the trace moves it from (card conservation);
* ``TRACE-FORMAT`` -- the trace breaks ``docs/trace-format.md`` (record kinds, field values,
  record order, counts of CARD records, TURN_START/HAND_END bookkeeping fields);
* ``ENGINE-TURN-CAP`` / ``ENGINE-HAND-CAP`` -- misuse of the engine's safety caps.

In a Standard Rummy game the 500 Rum rule IDs of the shared machinery are reported as their §7
counterparts (``RSTD-DRAW-1``, ``RSTD-MELD-1/2``, ``RSTD-OUT-1``, ``RSTD-SCORE-1``, ...).

Readings where RULES.md and the trace spec are silent (see the report for docs/rules-decisions.md):

* a DISCARD "ends the hand" (no rummy / out-of-turn window) when going out, the idle guard, the
  turn cap or ``end_immediately`` ends the hand after it; a turn ending in FLOAT without a DISCARD,
  and START_PILE, open no window;
* a rummy call closes the out-of-turn window of the discard it followed; only the caller's own
  discard opens new windows (rules-decisions E12; so no window after a ``layoff_only`` call);
* eligibility of a ``pile`` claim: card k laid off on one table meld (alone, or with pile cards
  above it filling the gap, as one lay-off) or a new meld of card k and pile cards above it
  (V500-RUN4, V500-CORNER, jokers wild); V500-NEWMELD binds draws only, not calls (E13); rummy
  calls are allowed under ``discard_until_out`` (E14);
* out-of-turn melds and calls reset the idle count (E16); a turn that reshuffles is not idle;
* V500-UNPLAYABLE: "could be laid off" is the single card added to one table meld, ignoring
  V500-OPEN30 (E18); V500-OPEN30 compares the points put down, divisor applied, with
  ``r500_first_meld_min`` divided the same way (30 raw points = 6 under V500-DIV5: E17) and
  values an ace by its run as it stands after that group; V500-CORNER credits an ace by its run at hand end;
* four aces: four natural aces in one set, all credited to one seat, score 25 each (E19);
* V500-ADDOPP: ``hand_value`` is 0 for every seat whether or not someone went out; the 2-player
  stock-out bonus uses the hand values even with ``r500_stock_out_hand_penalty=false``; a
  turn-cap end under ``continue_discarding`` is scored like ``by_player_count``;
* 500 Rum ``hand_score = table_value - hand_value + bonus``; Standard Rummy ``hand_value`` is the
  deadwood even when nobody went out; the Standard Rummy GAME_START target column is not checked;
  Standard Rummy's top-card discard restriction is reported as R500-DISC-2.

Performance: the replay runs on plain Python lists and ints (the array is converted once with
``.tolist()``), with no copying of state per record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

__all__ = [
    "Violation",
    "ValidationResult",
    "validate_trace",
    "card_name",
    "card_glyph",
    "parse_card",
    "RECORD_NAMES",
]

# --------------------------------------------------------------------------------------------
# Trace constants (docs/trace-format.md)
# --------------------------------------------------------------------------------------------

GAME_START = 1
HAND_START = 2
DECK = 3
RESTOCK = 64  # 500 Rum's range, 64..95
TURN_START = 5
RESHUFFLE = 65
START_PILE = 66
FACE_UP = 96  # 5000 Rummy's range, 96..127
DRAW_STOCK = 10
TAKE_PILE = 11
NO_DRAW = 12
TAKE_ALL = 97  # 5000 Rummy (V5K-8)
EXCHANGE = 98  # 5000 Rummy (V5K-11)
MELD = 20
CARD = 21
LAYOFF = 22
OUT_OF_TURN = 67
ADDOPP_LAYOFF = 68
JOIN = 99  # 5000 Rummy (R5K-SEQ-5/6)
TRADE = 100  # 5000 Rummy (R5K-TRADE-1)
DISCARD = 30
FLOAT = 31
HAND_END = 40
SCORE = 41
GAME_END = 50

RECORD_NAMES: dict[int, str] = {
    GAME_START: "GAME_START",
    HAND_START: "HAND_START",
    DECK: "DECK",
    RESTOCK: "RESTOCK",
    TURN_START: "TURN_START",
    RESHUFFLE: "RESHUFFLE",
    START_PILE: "START_PILE",
    FACE_UP: "FACE_UP",
    DRAW_STOCK: "DRAW_STOCK",
    TAKE_PILE: "TAKE_PILE",
    NO_DRAW: "NO_DRAW",
    TAKE_ALL: "TAKE_ALL",
    EXCHANGE: "EXCHANGE",
    MELD: "MELD",
    CARD: "CARD",
    LAYOFF: "LAYOFF",
    OUT_OF_TURN: "OUT_OF_TURN",
    ADDOPP_LAYOFF: "ADDOPP_LAYOFF",
    JOIN: "JOIN",
    TRADE: "TRADE",
    DISCARD: "DISCARD",
    FLOAT: "FLOAT",
    HAND_END: "HAND_END",
    SCORE: "SCORE",
    GAME_END: "GAME_END",
}

# Number of meaningful columns after column 0; the rest must be 0 ("unused columns are 0").
# DECK and RESTOCK are special (unused card slots are -1) and are checked separately.
_USED_COLS: dict[int, int] = {
    GAME_START: 5,
    HAND_START: 5,
    TURN_START: 5,
    RESHUFFLE: 2,
    START_PILE: 2,
    DRAW_STOCK: 2,
    TAKE_PILE: 4,
    NO_DRAW: 2,
    MELD: 6,
    CARD: 4,
    LAYOFF: 4,
    OUT_OF_TURN: 1,
    ADDOPP_LAYOFF: 4,
    DISCARD: 2,
    FLOAT: 1,
    HAND_END: 3,
    SCORE: 6,
    GAME_END: 3,
}

# Records counted in ValidationResult.actions_checked.
_ACTION_KINDS = frozenset(
    {
        DRAW_STOCK,
        TAKE_PILE,
        NO_DRAW,
        MELD,
        LAYOFF,
        CARD,
        DISCARD,
        HAND_END,
        SCORE,
        RESHUFFLE,
        START_PILE,
        OUT_OF_TURN,
        ADDOPP_LAYOFF,
        FLOAT,
    }
)

JOKER = 64
_SUITS = "CDHS"
_SUIT_GLYPHS = "♣♦♥♠"
_RANKS = "A23456789TJQK"  # index rank-1

#: valid card ids: 16*s + r (s 0..3, r 1..13) and the joker 64
_VALID_CARD: list[bool] = [False] * 65
for _s in range(4):
    for _r in range(1, 14):
        _VALID_CARD[16 * _s + _r] = True
_VALID_CARD[JOKER] = True
_NATURAL_IDS: tuple[int, ...] = tuple(16 * s + r for s in range(4) for r in range(1, 14))


def card_name(card: int) -> str:
    """Plain RULES.md notation: ``4H``, ``TD``, ``X`` (joker); ``?<id>`` for an invalid id."""
    if card == JOKER:
        return "X"
    if 0 <= card < 64 and _VALID_CARD[card]:
        return _RANKS[(card & 15) - 1] + _SUITS[card >> 4]
    return f"?{card}"


def card_glyph(card: int) -> str:
    """Card with a suit glyph: ``4♥``, ``T♦``, ``🃏`` (joker)."""
    if card == JOKER:
        return "🃏"
    if 0 <= card < 64 and _VALID_CARD[card]:
        return _RANKS[(card & 15) - 1] + _SUIT_GLYPHS[card >> 4]
    return f"?{card}"


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name`: ``"4H"`` -> 34, ``"X"`` -> 64 (``"10H"`` is accepted too)."""
    t = text.strip().upper()
    if t in ("X", "JK", "JOKER", "🃏"):
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in _RANKS or t[1] not in _SUITS:
        raise ValueError(f"bad card {text!r}")
    return 16 * _SUITS.index(t[1]) + _RANKS.index(t[0]) + 1


def _rank_at(pos: int) -> int:
    """Rank of run position ``pos``: 1..13 as is, 14 the ace high, beyond that (V500-CORNER)
    wrapping: ``((pos-1) mod 13) + 1``."""
    return (pos - 1) % 13 + 1


# --------------------------------------------------------------------------------------------
# Public result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """One rule violation or format problem found in a trace."""

    game_index: int  # from GAME_START (-1 before any GAME_START was read)
    record: int  # row index in the trace where the problem was detected
    rule_id: str  # e.g. "R500-DRAW-3", "C-CARD-CONSERVATION", "TRACE-FORMAT"
    message: str


@dataclass
class ValidationResult:
    """Outcome of :func:`validate_trace`."""

    games: int
    actions_checked: int  # draws, melds, lay-offs, cards, discards, hand ends, scores, ...
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


# --------------------------------------------------------------------------------------------
# Flags (RULES.md §8.6)
# --------------------------------------------------------------------------------------------

_BOOL = "bool"
_INT = "int"
_END_MODES = {"pile_or_end", "end_immediately", "reshuffle", "discard_until_out"}

# flag -> (type, default, implemented values or None for "any positive int")
_FLAG_SPECS: dict[str, tuple[str, Any, Any]] = {
    "r500_num_decks": ("str|int", "auto", {"auto", 1, 2}),  # V500-DECKS
    "r500_jokers_per_deck": (_INT, 2, {2, 1, 0}),  # V500-JOKERS
    "r500_card_values": ("str", "face", {"face", "5_10_15", "all5"}),  # V500-VALUES
    "r500_ace_value": (_INT, 15, {15, 25}),  # V500-ACE
    "r500_ace_low_value": ("str|int", "auto", {"auto", 1, 5, "same"}),  # V500-ACE
    "r500_four_aces_100": (_BOOL, False, {False, True}),  # V500-ACE
    "r500_score_divisor": (_INT, 1, {1, 5}),  # V500-DIV5
    "r500_top_card_must_be_played": (_BOOL, False, {False, True}),  # V500-TOPMUST
    "r500_pickup_use": ("str", "any", {"any", "new_meld"}),  # V500-NEWMELD
    "r500_no_pickup_to_hit": (_BOOL, False, {False, True}),  # V500-NOHIT preset
    "r500_discard_restriction": ("str", "top_single", {"top_single", "none", "any_taken"}),
    "r500_call_rummy": ("str", "off", {"off", "pile", "top_only", "layoff_only"}),  # V500-RUMMY
    "r500_going_out": ("str", "any", {"any", "discard_required", "floating"}),
    "r500_unplayable_discard": (_BOOL, False, {False, True}),  # V500-UNPLAYABLE
    "r500_must_go_out_to_win": (_BOOL, False, {False, True}),  # V500-MUSTOUT
    "r500_first_meld_min": (_INT, 0, {0, 30}),  # V500-OPEN30
    "r500_min_new_run": (_INT, 3, {3, 4}),  # V500-RUN4
    "r500_round_the_corner": (_BOOL, False, {False, True}),  # V500-CORNER
    "r500_boathouse": (_BOOL, False, {False, True}),  # V500-BOATHOUSE preset
    "r500_stock_draw_count": (_INT, 1, {1, 2}),  # V500-BOATHOUSE
    "r500_end_of_stock": ("str", "pile_or_end", _END_MODES),  # V500-STOCKEND
    "r500_stock_out_hand_penalty": (_BOOL, True, {True, False}),  # V500-STOCKEND
    "r500_stock_out_idle_turns": ("str|int", "n", None),  # R500-STOCK-2: "n" or int > 0
    "r500_add_opponent_hand": (_BOOL, False, {False, True}),  # V500-ADDOPP
    "r500_addopp_stock_out": ("str", "by_player_count", {"by_player_count", "continue_discarding"}),
    "r500_seven_straight_bonus": (_INT, 0, {0, 500}),  # V500-7STRAIGHT
    "r500_target": (_INT, 500, None),  # V500-TARGET: any positive int
    "r500_tie_rule": ("str", "replay", {"replay", "goer_wins"}),  # V500-TIE
    "r500_meld_out_of_turn": (_BOOL, False, {False, True}),  # V500-OUTOFTURN
    "r500_upcard_mode": ("str", "stock", {"stock", "first_player_choice"}),  # V500-UPCHOICE
    "r500_next_dealer": ("str", "left", {"left", "winner"}),  # V500-WINNERDEALS
    "r500_dealers_gambit": (_BOOL, False, {False}),  # V500-GAMBIT: not implemented
    "r500_gambit_jokers": (_INT, 2, {2}),
    "r500_partnership": (_BOOL, False, {False}),  # V500-PARTNER: not implemented
    "r500_partner_layoff": ("str", "any", {"any"}),
    "r500_persian": (_BOOL, False, {False}),  # V500-PERSIAN: not implemented
}

# Standard Rummy (§7)
_STD_SPECS: dict[str, tuple[str, Any, Any]] = {
    "std_going_out": ("str", "discard_required", {"discard_required", "any"}),  # RSTD-OUT-1
    "std_game_hands": (_INT, 5, None),  # RSTD-GAME-1: any positive int
    "std_end_of_stock": ("str", "pile_or_end", _END_MODES),  # RSTD-STOCK-1
}

# 5000 Rummy and Rummikub flags: not implemented, so they must hold their §8.6 defaults.
_OTHER_DEFAULTS: dict[str, tuple[str, Any]] = {
    "r5k_target": ("str|int", "auto"),
    "r5k_payoff": ("str", "difference"),
    "r5k_must_go_out_to_win": (_BOOL, False),
    "r5k_rummy": ("str", "off"),
    "r5k_going_out": ("str", "any"),
    "r5k_michigan": (_BOOL, False),
    "r5k_polish": (_BOOL, False),
    "r5k_persian": (_BOOL, False),
    "r5k_first_turn": ("str", "upcard"),
    "r5k_money_cards": (_BOOL, False),
    "r5k_doubling": (_BOOL, False),
    "r5k_limit_poker": (_BOOL, False),
    "rkub_direction": ("str", "clockwise"),
    "rkub_group_joker_release": ("str", "one_tile"),
    "rkub_max_jokers_per_combo": (_INT, 2),
    "rkub_joker_penalty": (_INT, 30),
    "rkub_initial_rule": ("str", "total"),
    "rkub_manipulate_on_initial_turn": (_BOOL, True),
    "rkub_invalid_turn": ("str", "reject"),
    "rkub_rounds": (_INT, 1),
}

_ENGINE_DEFAULTS = {"max_turns_per_hand": 1000, "max_hands_per_game": 200}
_GAME_NAMES = {
    "500-rum": "500",
    "500_rum": "500",
    "r500": "500",
    "standard-rummy": "std",
    "standard_rummy": "std",
    "std": "std",
}


def _norm_value(name: str, kind: str, value: Any) -> Any:
    """Normalise a flag value written as in RULES.md (``True``/``"true"``, ``1``/``"1"``...)."""
    if isinstance(value, np.generic):
        value = value.item()
    if kind == _BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ValueError(f"flag {name}: value {value!r} is not a boolean")
    if isinstance(value, bool):
        raise ValueError(f"flag {name}: value {value!r} is not valid")
    if kind == _INT or kind == "str|int":
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            v = value.strip()
            if v.lstrip("-").isdigit():
                return int(v)
            if kind == "str|int":
                return v
        raise ValueError(f"flag {name}: value {value!r} is not valid")
    if isinstance(value, str):
        return value
    raise ValueError(f"flag {name}: value {value!r} is not valid")


@dataclass(frozen=True)
class _Config:
    game: str  # "500" or "std"
    decks_mode: Any  # "auto", 1 or 2
    jokers_per_deck: int
    card_values: str
    ace_value: int
    ace_low_value: int  # resolved, before the divisor
    four_aces: bool
    divisor: int
    top_must: bool
    new_meld: bool
    discard_restriction: str
    call_rummy: str
    going_out: str
    unplayable: bool
    must_go_out: bool
    first_meld_min: int
    min_new_run: int
    corner: bool
    draw_count: int
    end_of_stock: str  # effective mode (V500-ADDOPP continue_discarding -> discard_until_out)
    hand_penalty: bool
    idle_turns: Any  # "n" or int
    add_opp: bool
    seven_bonus: int
    target: int
    tie_rule: str
    oot: bool
    upchoice: bool
    winner_deals: bool
    std_hands: int
    max_turns: int
    max_hands: int


def _parse_flags(flags: Mapping[str, object] | None) -> _Config:
    vals: dict[str, Any] = {k: spec[1] for k, spec in _FLAG_SPECS.items()}
    std_vals: dict[str, Any] = {k: spec[1] for k, spec in _STD_SPECS.items()}
    explicit: set[str] = set()
    engine = dict(_ENGINE_DEFAULTS)
    game = "500"
    flags = dict(flags or {})
    if "game" in flags:
        raw = flags["game"]
        g = _GAME_NAMES.get(raw) if isinstance(raw, str) else None
        if g is None:
            raise ValueError(
                f"flag game: value {raw!r} is not checked (only '500-rum' and 'standard-rummy')"
            )
        game = g
    for name, raw in flags.items():
        if name == "game":
            continue
        if name in engine:
            v = _norm_value(name, _INT, raw)
            if v <= 0:
                raise ValueError(f"flag {name}: value {raw!r} must be a positive integer")
            engine[name] = v
            continue
        if name in _OTHER_DEFAULTS:
            kind, default = _OTHER_DEFAULTS[name]
            if _norm_value(name, kind, raw) != default:
                raise ValueError(
                    f"flag {name}: value {raw!r} is not implemented by the checker "
                    f"(5000 Rummy / Rummikub flags must hold their default {default!r})"
                )
            continue
        if name in _STD_SPECS:
            kind, default, allowed = _STD_SPECS[name]
            v = _norm_value(name, kind, raw)
            ok = (isinstance(v, int) and v > 0) if allowed is None else v in allowed
            if not ok:
                raise ValueError(f"flag {name}: value {raw!r} is not valid")
            if game != "std" and v != default:
                raise ValueError(
                    f"flag {name}: value {raw!r} belongs to standard-rummy, but the game is 500-rum"
                )
            std_vals[name] = v
            continue
        spec = _FLAG_SPECS.get(name)
        if spec is None:
            raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
        kind, default, allowed = spec
        v = _norm_value(name, kind, raw)
        if allowed is None:
            if name == "r500_stock_out_idle_turns":
                ok = v == "n" or (isinstance(v, int) and v > 0)
            else:  # r500_target
                ok = isinstance(v, int) and v > 0
            if not ok:
                raise ValueError(f"flag {name}: value {raw!r} is not valid")
        elif v not in allowed:
            raise ValueError(f"flag {name}: value {raw!r} is not implemented by the checker")
        if game == "std" and v != default:
            raise ValueError(
                f"flag {name}: value {raw!r} belongs to 500-rum, but the game is standard-rummy"
            )
        vals[name] = v
        explicit.add(name)

    # Presets and implied settings fill in only flags that were not given (RULES.md §3 preamble:
    # "a flag set explicitly overrides the preset"; Rules.as_dict() holds them expanded already).
    def imply(name: str, value: Any) -> None:
        if name not in explicit:
            vals[name] = value

    if vals["r500_no_pickup_to_hit"]:  # V500-NOHIT
        imply("r500_pickup_use", "new_meld")
        imply("r500_top_card_must_be_played", True)
    if vals["r500_boathouse"]:  # V500-BOATHOUSE
        imply("r500_going_out", "discard_required")
        imply("r500_discard_restriction", "any_taken")
        imply("r500_stock_draw_count", 2)
    if vals["r500_unplayable_discard"]:  # V500-UNPLAYABLE forces floating (AMB-26)
        imply("r500_going_out", "floating")
        if vals["r500_going_out"] != "floating":
            raise ValueError(
                "flag r500_unplayable_discard: true needs r500_going_out=floating (AMB-26), got "
                f"{vals['r500_going_out']!r}"
            )
    divisor = vals["r500_score_divisor"]
    if divisor == 5:  # V500-DIV5: default target 100
        imply("r500_target", 100)

    ace_value = vals["r500_ace_value"]
    low = vals["r500_ace_low_value"]
    if low == "auto":  # V500-ACE: 1 under face, 5 under 5_10_15 / all5
        low = 1 if vals["r500_card_values"] == "face" else 5
    elif low == "same":
        low = ace_value
    if divisor == 5:
        if vals["r500_card_values"] == "face":
            raise ValueError(
                "flag r500_score_divisor: 5 needs r500_card_values=5_10_15 or all5 (V500-DIV5)"
            )
        if ace_value % 5 or low % 5:
            raise ValueError(
                "flag r500_score_divisor: 5 needs ace values that are multiples of 5 (V500-DIV5, "
                f"ace {ace_value}, ace used low {low})"
            )

    if game == "std":
        going_out = std_vals["std_going_out"]
        end_mode = std_vals["std_end_of_stock"]
    else:
        going_out = vals["r500_going_out"]
        end_mode = vals["r500_end_of_stock"]
        addopp_out = vals["r500_addopp_stock_out"]
        if vals["r500_add_opponent_hand"] and addopp_out == "continue_discarding":
            end_mode = "discard_until_out"  # V500-ADDOPP-3
    return _Config(
        game=game,
        decks_mode=vals["r500_num_decks"],
        jokers_per_deck=vals["r500_jokers_per_deck"],
        card_values=vals["r500_card_values"],
        ace_value=ace_value,
        ace_low_value=low,
        four_aces=bool(vals["r500_four_aces_100"]),
        divisor=divisor,
        top_must=bool(vals["r500_top_card_must_be_played"]),
        new_meld=vals["r500_pickup_use"] == "new_meld",
        discard_restriction=vals["r500_discard_restriction"],
        call_rummy=vals["r500_call_rummy"],
        going_out=going_out,
        unplayable=bool(vals["r500_unplayable_discard"]),
        must_go_out=bool(vals["r500_must_go_out_to_win"]),
        first_meld_min=vals["r500_first_meld_min"] // divisor,
        min_new_run=vals["r500_min_new_run"],
        corner=bool(vals["r500_round_the_corner"]),
        draw_count=vals["r500_stock_draw_count"],
        end_of_stock=end_mode,
        hand_penalty=bool(vals["r500_stock_out_hand_penalty"]),
        idle_turns=vals["r500_stock_out_idle_turns"],
        add_opp=bool(vals["r500_add_opponent_hand"]),
        seven_bonus=vals["r500_seven_straight_bonus"],
        target=vals["r500_target"],
        tie_rule=vals["r500_tie_rule"],
        oot=bool(vals["r500_meld_out_of_turn"]),
        upchoice=vals["r500_upcard_mode"] == "first_player_choice",
        winner_deals=vals["r500_next_dealer"] == "winner",
        std_hands=std_vals["std_game_hands"],
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )


def _value_table(cfg: _Config) -> tuple[list[int], int, int]:
    """(value of each card in hand / in a set / high in a run, value of an ace used low, value of
    an ace in a one-seat set of four aces), divisor applied (R500-SCORE-2, V500-VALUES, V500-ACE,
    V500-DIV5; Standard Rummy: RSTD-SCORE-1)."""
    vals = [0] * 65
    if cfg.game == "std":
        for card in _NATURAL_IDS:
            r = card & 15
            vals[card] = r if r <= 10 else 10  # A = 1, 2-10 face, J/Q/K = 10
        vals[JOKER] = 0  # no jokers in Standard Rummy (the pack check reports one)
        return vals, 1, 1
    d = cfg.divisor
    for card in _NATURAL_IDS:
        r = card & 15
        if r == 1:
            v = cfg.ace_value
        elif cfg.card_values == "face":
            v = r if r <= 10 else 10
        elif cfg.card_values == "5_10_15":
            v = 5 if r <= 9 else 10
        else:  # all5
            v = 5
        vals[card] = v // d
    vals[JOKER] = 15 // d  # a joker is 15 whatever it represents
    return vals, cfg.ace_low_value // d, 25 // d


# --------------------------------------------------------------------------------------------
# Table melds and "could this card be played?" tests (V500-RUMMY-2/5/6, V500-UNPLAYABLE-1)
# --------------------------------------------------------------------------------------------


class _Meld:
    """A meld on the table.  Runs: positions lo..hi, all occupied (R500-MELD-3)."""

    __slots__ = ("kind", "key", "lo", "hi", "count", "suits", "owner", "placed")

    def __init__(self, kind: int, key: int, lo: int, hi: int, count: int, suits: int,
                 owner: int) -> None:
        self.kind = kind  # 0 set, 1 run
        self.key = key  # set: rank; run: suit
        self.lo = lo
        self.hi = hi
        self.count = count
        self.suits = suits  # set: bit mask of the natural suits present (R500-MELD-2)
        self.owner = owner  # seat of the MELD record (V500-ADDOPP-2)
        self.placed: list[list[int]] = []  # [credited seat (-1: nobody), card, pos]


def _fits_set(m: _Meld, c: int) -> bool:
    """Can card ``c`` alone be laid off on set ``m`` (R500-MELD-1/2/8)?"""
    if m.count >= 4:
        return False
    if c == JOKER:
        return True
    return (c & 15) == m.key and not (m.suits >> (c >> 4)) & 1


def _fits_run(m: _Meld, c: int, nat: Mapping[int, int], jokers: int, corner: bool,
              max_pos: int) -> bool:
    """Can ``c`` be laid off on run ``m``, the gap between it and the run (if any) being filled by
    helper naturals ``nat`` (card -> count) and ``jokers`` helper jokers, laid off with it?"""
    suit = m.key
    span = m.hi - m.lo + 1
    for step in (-1, 1):
        p = m.lo - 1 if step < 0 else m.hi + 1
        length = span
        j = jokers
        used: dict[int, int] = {}
        while True:
            length += 1
            if length > 13:
                break
            if not corner and (p < 1 or p > max_pos):
                break
            r = _rank_at(p)
            if c == JOKER or (c >> 4 == suit and c & 15 == r):
                return True
            need = 16 * suit + r
            u = used.get(need, 0)
            if nat.get(need, 0) > u:
                used[need] = u + 1
            elif j > 0:
                j -= 1
            else:
                break
            p += step
    return False


def _fits_table(melds: list[_Meld], c: int, corner: bool, max_pos: int,
                nat: Mapping[int, int] | None = None, jokers: int = 0) -> bool:
    nat = nat or {}
    for m in melds:
        if m.kind == 0:
            if _fits_set(m, c):
                return True
        elif _fits_run(m, c, nat, jokers, corner, max_pos):
            return True
    return False


def _new_meld_with(c: int, nat: Mapping[int, int], jokers: int, corner: bool, max_pos: int,
                   min_run: int) -> bool:
    """Is there a new set or run holding ``c`` and otherwise only helper cards (``nat`` naturals,
    ``jokers`` jokers)?  Runs need ``min_run`` cards (V500-RUN4)."""
    # sets (R500-MELD-1/2): distinct natural suits, jokers for the rank
    if c == JOKER:
        if jokers >= 2:
            return True
        for r in range(1, 14):
            d = sum(1 for s in range(4) if nat.get(16 * s + r, 0) > 0)
            if d + jokers >= 2:
                return True
    else:
        r, cs = c & 15, c >> 4
        d = sum(1 for s in range(4) if s != cs and nat.get(16 * s + r, 0) > 0)
        if d + jokers >= 2:
            return True
    # runs (R500-MELD-3/4, V500-CORNER): a window of min_run positions holding c
    L = min_run
    suits = range(4) if c == JOKER else (c >> 4,)
    starts = range(1, 14) if corner else range(1, max_pos - L + 2)
    for s in suits:
        for a in starts:
            missing = 0
            has_c = c == JOKER
            for p in range(a, a + L):
                r = _rank_at(p)
                if not has_c and c & 15 == r:
                    has_c = True
                    continue
                if nat.get(16 * s + r, 0) <= 0:
                    missing += 1
            if has_c and missing <= jokers + (1 if c == JOKER else 0):
                return True
    return False


# --------------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------------


class _Stop(Exception):
    """Raised internally after a violation that makes further replay of the game meaningless."""


# replay phases (what the next record may be)
_P_GAME_START = 0  # expecting GAME_START
_P_HAND_START = 1  # expecting HAND_START (first hand, or after scores with the game going on)
_P_DECK = 2  # reading DECK records
_P_TURN = 3  # between turns: TURN_START, OUT_OF_TURN (or HAND_END)
_P_DRAW = 4  # after TURN_START: one draw record (or RESHUFFLE)
_P_PLAY = 5  # after the draw: MELD / LAYOFF / DISCARD
_P_CARDS = 6  # inside a MELD/LAYOFF/ADDOPP_LAYOFF group: CARD records
_P_OUT = 7  # someone went out: ADDOPP_LAYOFF groups (V500-ADDOPP) then HAND_END (R500-OUT-1)
_P_NODRAW = 8  # NO_DRAW: only HAND_END may follow (R500-STOCK-1)
_P_SCORE = 9  # SCORE records
_P_GAME_OVER = 10  # after scores when the game must end: GAME_END
_P_DONE = 11  # after GAME_END
_P_START_PILE = 12  # V500-UPCHOICE: START_PILE before the first turn
_P_RESTOCK = 13  # after RESHUFFLE: RESTOCK records
_P_DRAW2 = 14  # V500-BOATHOUSE: the second DRAW_STOCK of a two-card stock draw
_P_FLOAT = 15  # the seat has 0 cards and floats: FLOAT
_P_OOT = 16  # after OUT_OF_TURN: that seat's MELD groups

_PHASE_NAMES = {
    _P_GAME_START: "GAME_START expected",
    _P_HAND_START: "HAND_START expected",
    _P_DECK: "reading DECK records",
    _P_TURN: "between turns",
    _P_DRAW: "draw phase",
    _P_PLAY: "play/discard phase",
    _P_CARDS: "inside a MELD/LAYOFF group",
    _P_OUT: "after going out",
    _P_NODRAW: "after NO_DRAW",
    _P_SCORE: "reading SCORE records",
    _P_GAME_OVER: "GAME_END expected",
    _P_DONE: "after GAME_END",
    _P_START_PILE: "START_PILE expected",
    _P_RESTOCK: "reading RESTOCK records",
    _P_DRAW2: "second card of a two-card stock draw",
    _P_FLOAT: "FLOAT expected",
    _P_OOT: "out-of-turn melds",
}

# Standard Rummy: the §7 counterpart of a rule of the shared machinery.
_STD_RULES = {
    "R500-SETUP-1": "RSTD-SETUP-1",
    "R500-SETUP-2": "RSTD-SETUP-1",
    "R500-SETUP-3": "RSTD-SETUP-1",
    "R500-DEAL-1": "RSTD-DEAL-1",
    "R500-DEAL-2": "RSTD-DEAL-2",
    "R500-DEAL-3": "RSTD-SETUP-2",
    "R500-TURN-1": "C-TURN-1",
    "R500-DRAW-1": "RSTD-DRAW-1",
    "R500-MELD-1": "RSTD-MELD-1",
    "R500-MELD-2": "RSTD-MELD-1",
    "R500-MELD-3": "RSTD-MELD-2",
    "R500-MELD-4": "RSTD-MELD-2",
    "R500-DISC-1": "RSTD-PLAY-1",
    "R500-OUT-1": "RSTD-OUT-1",
    "V500-DISCREQ": "RSTD-OUT-1",
    "R500-OUT-3": "RSTD-OUT-2",
    "R500-STOCK-1": "RSTD-STOCK-1",
    "R500-STOCK-2": "RSTD-STOCK-1",
    "V500-STOCKEND": "RSTD-STOCK-1",
    "R500-SCORE-1": "RSTD-SCORE-1",
    "R500-SCORE-2": "RSTD-SCORE-1",
    "R500-SCORE-3": "C-SCORE-3",
    "R500-END-1": "RSTD-GAME-1",
    "R500-END-2": "RSTD-GAME-1",
}


class _Replayer:
    def __init__(self, rows: list[list[int]], cfg: _Config) -> None:
        self.rows = rows
        self.cfg = cfg
        self.std = cfg.game == "std"
        self.vals, self.ace_low, self.four_ace_value = _value_table(cfg)
        self.max_pos = 13 if self.std else 14  # RSTD-MELD-2: aces low only
        self.call_mode = cfg.call_rummy
        self.idle_applies = cfg.end_of_stock != "discard_until_out"
        self.violations: list[Violation] = []
        self.games = 0
        self.actions = 0
        self.game_index = -1
        self.i = 0
        self.phase = _P_GAME_START
        self.bad_unused: set[int] = set()  # record kinds already reported for unused columns
        self.out_seat = -1
        self.tied = False
        self.exp_winner = -1
        self.exp_capped = 0
        self.goer_won = False
        self.end_due = 0
        self.end_ok: set[int] = set()
        self.cur = -1
        self.turn_kind = 0
        self.call_layoff = False
        self.last_call_layoff = False
        self.float_ctx = "turn"
        self.float_after_discard = False
        self.out_by_discard = False
        self.limbo: Counter = Counter()
        self.n = 0
        self.hands: list[list[int]] = []
        self.hand_size: list[int] = []
        self.pile: list[int] = []
        self.melds: list[_Meld] = []
        self._dispatch = {
            GAME_START: self._game_start,
            HAND_START: self._hand_start,
            DECK: self._deck,
            RESTOCK: self._restock,
            TURN_START: self._turn_start,
            RESHUFFLE: self._reshuffle,
            START_PILE: self._start_pile,
            DRAW_STOCK: self._draw_stock,
            TAKE_PILE: self._take_pile,
            NO_DRAW: self._no_draw,
            MELD: self._meld,
            LAYOFF: self._layoff,
            CARD: self._card,
            OUT_OF_TURN: self._out_of_turn,
            ADDOPP_LAYOFF: self._addopp_layoff,
            DISCARD: self._discard,
            FLOAT: self._float,
            HAND_END: self._hand_end,
            SCORE: self._score,
            GAME_END: self._game_end,
        }

    # ---- violation helpers --------------------------------------------------------------

    def _flag(self, rule: str, msg: str) -> None:
        if self.std:
            rule = _STD_RULES.get(rule, rule)
        self.violations.append(Violation(self.game_index, self.i, rule, msg))

    def _fail(self, rule: str, msg: str) -> None:
        self._flag(rule, msg + " (replay of this game stopped)")
        raise _Stop

    def _unexpected(self, row: list[int]) -> None:
        """A record arrived that the current phase does not allow: name the rule it breaks."""
        kind = row[0]
        name = RECORD_NAMES.get(kind, str(kind))
        ph = self.phase
        rule = "TRACE-FORMAT"
        floating = self.cfg.going_out == "floating"
        if ph == _P_OUT and kind == FLOAT and floating and self.out_by_discard:
            if self.cfg.unplayable:
                rule = "V500-UNPLAYABLE-1"
                msg = (f"FLOAT after seat {self.out_seat} discarded an unplayable last card: "
                       "the player is out and the hand ends")
            else:
                rule = "V500-FLOAT-3"
                msg = f"FLOAT after seat {self.out_seat} discarded the last card: the hand ends"
        elif ph == _P_OUT:
            rule = "R500-OUT-1"  # the hand ends at once when a player goes out
            msg = f"{name} after seat {self.out_seat} went out; only HAND_END may follow"
            if kind == ADDOPP_LAYOFF:
                rule = "V500-ADDOPP-2"
        elif ph == _P_FLOAT:
            if kind == HAND_END:
                if self.float_after_discard:
                    rule = "V500-UNPLAYABLE-1"
                    msg = ("HAND_END after the last card was discarded, but it could be laid off "
                           "on a table meld: the player floats and the hand goes on")
                else:
                    rule = "V500-FLOAT-3"
                    msg = ("HAND_END after a seat laid down every card under floating: only a "
                           "discard of the last card ends the hand")
            else:
                rule = "V500-FLOAT-1"
                msg = f"{name} where seat {self.cur} (0 cards) must record FLOAT"
        elif kind == ADDOPP_LAYOFF:
            rule = "V500-ADDOPP-2"
            msg = "ADDOPP_LAYOFF when no one has gone out (it follows going out, before HAND_END)"
        elif ph == _P_NODRAW:
            rule = "R500-STOCK-1"  # NO_DRAW ends the hand at once
            msg = f"{name} after NO_DRAW; the hand must end at once"
        elif ph == _P_DRAW2:
            rule = "V500-BOATHOUSE"
            msg = (f"{name} after one DRAW_STOCK: a stock draw takes "
                   f"{self.cfg.draw_count} cards (r500_stock_draw_count)")
        elif ph == _P_START_PILE:
            rule = "V500-UPCHOICE"
            msg = f"{name} before the first player started the discard pile (START_PILE)"
        elif kind == FLOAT and ph in (_P_DRAW, _P_PLAY, _P_TURN, _P_OOT):
            rule = "V500-FLOAT-1"
            held = self.hand_size[self.cur] if 0 <= self.cur < len(self.hand_size) else "?"
            msg = (f"FLOAT by seat {row[1]} (holding {held} cards, r500_going_out="
                   f"{self.cfg.going_out})")
        elif ph == _P_DRAW and kind in (MELD, LAYOFF, DISCARD):
            rule = "R500-DRAW-1"
            msg = f"{name} before the turn's draw"
        elif ph == _P_PLAY and kind in (DRAW_STOCK, TAKE_PILE, NO_DRAW):
            rule = "R500-DRAW-1"
            msg = f"second draw {name} in one turn"
        elif ph == _P_PLAY and self.call_layoff and kind in (TURN_START, HAND_END, OUT_OF_TURN):
            rule = "V500-RUMMY-6"
            msg = f"{name} before the caller laid off the claimed card (layoff_only)"
        elif ph == _P_PLAY and kind in (TURN_START, HAND_END, OUT_OF_TURN):
            rule = "R500-DISC-1"
            msg = f"{name} before the turn's discard (seat {self.cur} still holds cards)"
        elif ph == _P_TURN and self.last_call_layoff and kind in (MELD, LAYOFF, DISCARD):
            rule = "V500-RUMMY-6"
            msg = f"{name} after the layoff_only call's lay-off: the caller does nothing else"
        elif ph == _P_TURN and kind in (TURN_START, OUT_OF_TURN) and self.end_due:
            rule = self._end_rule(self.end_due)
            msg = (f"hand must end here ({self._end_text(self.end_due)}) but {name} "
                   "follows")
        elif ph == _P_GAME_OVER and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            msg = f"game must end (winner seat {self.exp_winner}) but another hand is dealt"
        else:
            msg = f"unexpected {name} record ({_PHASE_NAMES.get(ph, ph)})"
        self._fail(rule, msg)

    @staticmethod
    def _end_rule(reason: int) -> str:
        return {
            1: "R500-OUT-1",
            2: "R500-STOCK-1",
            3: "R500-STOCK-2",
            4: "ENGINE-TURN-CAP",
            5: "V500-STOCKEND",
        }.get(reason, "TRACE-FORMAT")

    def _end_text(self, reason: int) -> str:
        if reason == 3:
            return f"{self.idle} consecutive idle turns with an empty stock (R500-STOCK-2)"
        if reason == 4:
            return f"turn cap max_turns_per_hand={self.cfg.max_turns} reached"
        if reason == 1:
            return f"seat {self.out_seat} went out"
        if reason == 5:
            return "the last stock card was drawn this turn (end_immediately)"
        return "NO_DRAW"

    # ---- main loop ----------------------------------------------------------------------

    def run(self) -> None:
        rows = self.rows
        dispatch = self._dispatch
        used_cols = _USED_COLS
        action_kinds = _ACTION_KINDS
        for i, row in enumerate(rows):
            self.i = i
            kind = row[0]
            try:
                handler = dispatch.get(kind)
                if handler is None:
                    self._fail("TRACE-FORMAT", f"unknown record kind {kind}")
                if kind in action_kinds:
                    self.actions += 1
                u = used_cols.get(kind)
                if u is not None and u < 7 and any(row[u + 1 :]):
                    if kind not in self.bad_unused:
                        self.bad_unused.add(kind)
                        self._flag(
                            "TRACE-FORMAT",
                            f"{RECORD_NAMES[kind]} has non-zero unused columns: {row}",
                        )
                if self.phase == _P_OOT and kind != MELD and kind != CARD:
                    self._close_oot(kind)
                handler(row)
                if _CHECK_CONSERVATION_EVERY_RECORD and self.phase not in (
                    _P_GAME_START,
                    _P_HAND_START,
                    _P_DECK,
                    _P_DONE,
                ):
                    self._check_conservation()
            except _Stop:
                # the rest of this game is not replayed; go on with the next GAME_START, if any
                # (concatenated games)
                self._skip_to_next_game(i + 1)
                return
            except (
                IndexError, KeyError, ValueError, TypeError, ZeroDivisionError, AttributeError
            ) as exc:
                # defensive: a malformed trace must never make the checker raise
                self.violations.append(
                    Violation(self.game_index, i, "TRACE-FORMAT",
                              f"record {row} cannot be replayed ({exc.__class__.__name__}: {exc}) "
                              "(replay of this game stopped)")
                )
                self._skip_to_next_game(i + 1)
                return
        if self.phase != _P_DONE:
            self.i = len(rows)
            if self.games == 0:
                self.violations.append(
                    Violation(-1, 0, "TRACE-FORMAT", "trace holds no GAME_START record")
                )
            else:
                self._flag(
                    "TRACE-FORMAT",
                    f"trace ends before GAME_END ({_PHASE_NAMES.get(self.phase, self.phase)})",
                )

    def _skip_to_next_game(self, start: int) -> None:
        rows = self.rows
        for j in range(start, len(rows)):
            if rows[j][0] == GAME_START:
                self.phase = _P_GAME_START
                sub = _Replayer(rows[j:], self.cfg)
                sub.run()
                for v in sub.violations:
                    self.violations.append(
                        Violation(v.game_index, v.record + j, v.rule_id, v.message)
                    )
                self.games += sub.games
                self.actions += sub.actions
                return

    # ---- game level ---------------------------------------------------------------------

    def _game_start(self, row: list[int]) -> None:
        if self.phase not in (_P_GAME_START, _P_DONE):
            self._unexpected(row)
        self.games += 1
        self.game_index = row[3]
        self.bad_unused = set()
        self.out_seat = -1
        self.tied = False
        n, first_dealer, target, code = row[1], row[2], row[4], row[5]
        cfg = self.cfg
        exp_code = 1 if self.std else 0
        if code != exp_code:
            self._flag(
                "TRACE-FORMAT",
                f"GAME_START game code {code}, but the flags say game "
                f"{'standard-rummy (1)' if self.std else '500-rum (0)'}",
            )
        if self.std:
            if not 2 <= n <= 6:
                self._fail("RSTD-SETUP-1", f"{n} players; Standard Rummy is for 2-6 players")
        elif not 2 <= n <= 8:
            self._fail("R500-SETUP-1", f"{n} players; 500 Rum is for 2-8 players")
        if not 0 <= first_dealer < n:
            self._fail("TRACE-FORMAT", f"first_dealer {first_dealer} is not a seat")
        if not self.std and target != cfg.target:
            self._flag("V500-TARGET", f"GAME_START target {target} but r500_target={cfg.target}")
        self.n = n
        self.first_dealer = first_dealer
        if self.std:
            decks, jokers = 1, 0  # RSTD-SETUP-1: one 52-card deck, no jokers
        else:
            # R500-SETUP-2 / V500-DECKS: 1 deck for 2-4 players, 2 for 5-8 unless set explicitly
            decks = (1 if n <= 4 else 2) if cfg.decks_mode == "auto" else cfg.decks_mode
            jokers = decks * cfg.jokers_per_deck  # R500-SETUP-3 / V500-JOKERS
        self.exp_pack = Counter({c: decks for c in _NATURAL_IDS})
        if jokers:
            self.exp_pack[JOKER] = jokers
        self.exp_pack_size = 52 * decks + jokers
        self.exp_deal = 13 if n == 2 else 7  # R500-DEAL-1, RSTD-DEAL-1
        if n * self.exp_deal + 1 > self.exp_pack_size:
            self._fail(
                "V500-DECKS",
                f"{decks} deck(s) of {self.exp_pack_size} cards cannot deal {self.exp_deal} "
                f"cards to {n} players plus an upcard",
            )
        self.idle_limit = n if cfg.idle_turns == "n" else cfg.idle_turns
        self.true_totals = [0] * n  # totals recomputed by the checker (R500-SCORE-3)
        self.trace_totals = [0] * n  # totals as the trace states them
        self.hands_played = 0
        self.dealer = first_dealer
        self.phase = _P_HAND_START

    def _decide_game_end(self) -> None:
        """R500-END-1/2, V500-TIE, V500-MUSTOUT, RSTD-GAME-1 and the engine hand cap."""
        totals = self.true_totals
        cfg = self.cfg
        target = cfg.target
        top = max(totals)
        winner = -1
        game_over = False
        self.goer_won = False
        leaders = [s for s in range(self.n) if totals[s] == top]
        if self.std:
            # RSTD-GAME-1: std_game_hands hands, the highest total wins (-1 when shared)
            if self.hands_played >= cfg.std_hands:
                game_over = True
                winner = leaders[0] if len(leaders) == 1 else -1
            self.tied = False
        elif cfg.must_go_out:
            # V500-MUSTOUT: only the player who went out, once at the target, can win
            out = self.out_seat
            if out >= 0 and totals[out] >= target:
                winner = out
            self.tied = False
        else:
            if top >= target:
                if cfg.tie_rule == "goer_wins":
                    reached = [s for s in range(self.n) if totals[s] >= target]
                    if len(reached) >= 2 and self.out_seat in reached:
                        winner = self.out_seat  # V500-TIE goer_wins
                        self.goer_won = True
                if winner < 0 and len(leaders) == 1:
                    winner = leaders[0]  # R500-END-1
                # else: R500-END-2, another hand is dealt
            self.tied = top >= target and winner < 0
        if winner >= 0 or game_over:
            self.exp_winner, self.exp_capped = winner, 0
            self.phase = _P_GAME_OVER
        elif self.hands_played >= cfg.max_hands:
            self.exp_winner, self.exp_capped = -1, 1
            self.phase = _P_GAME_OVER
        else:
            self.exp_winner, self.exp_capped = -1, 0
            self.phase = _P_HAND_START

    def _winner_rule(self) -> str:
        if self.std:
            return "RSTD-GAME-1"
        if self.cfg.must_go_out:
            return "V500-MUSTOUT"
        return "V500-TIE" if self.goer_won else "R500-END-1"

    def _game_end(self, row: list[int]) -> None:
        if self.phase == _P_HAND_START:
            self._game_end_wrong(row)
            return
        if self.phase != _P_GAME_OVER:
            self._unexpected(row)
        winner, n_hands, capped = row[1], row[2], row[3]
        if winner != self.exp_winner or capped != self.exp_capped:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            self._flag(
                rule,
                f"GAME_END winner {winner} capped {capped}; expected winner {self.exp_winner} "
                f"capped {self.exp_capped} (totals {self.true_totals})",
            )
        if n_hands != self.hands_played:
            self._flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = _P_DONE

    def _game_end_wrong(self, row: list[int]) -> None:
        """GAME_END where the rules say another hand is dealt."""
        winner, n_hands, capped = row[1], row[2], row[3]
        if capped:
            rule = "ENGINE-HAND-CAP"
            why = f"hand cap is {self.cfg.max_hands}, {self.hands_played} hands played"
        elif self.std:
            rule = "RSTD-GAME-1"
            why = f"{self.hands_played} of std_game_hands={self.cfg.std_hands} hands played"
        elif self.cfg.must_go_out and max(self.true_totals) >= self.cfg.target:
            rule = "V500-MUSTOUT"
            why = (f"only the player who went out (seat {self.out_seat}) can win, once at the "
                   f"target (totals {self.true_totals})")
        elif self.tied:
            rule = "R500-END-2"
            why = f"highest total shared (totals {self.true_totals}): another hand is dealt"
        else:
            rule = "R500-END-1"
            why = f"no total reached the target {self.cfg.target} (totals {self.true_totals})"
        self._flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why}")
        if n_hands != self.hands_played:
            self._flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = _P_DONE

    # ---- hand setup ---------------------------------------------------------------------

    def _hand_start(self, row: list[int]) -> None:
        if self.phase != _P_HAND_START:
            self._unexpected(row)
        h, dealer, pack_size, deal, first = row[1], row[2], row[3], row[4], row[5]
        n = self.n
        if h != self.hands_played:
            self._flag("TRACE-FORMAT", f"hand_index {h}, expected {self.hands_played}")
        if dealer != self.dealer:
            # R500-DEAL-3: the next hand is dealt by the player left of the current dealer;
            # V500-WINNERDEALS: by the player who went out
            rule = "V500-WINNERDEALS" if self.cfg.winner_deals else "R500-DEAL-3"
            self._fail(rule, f"dealer {dealer}, expected seat {self.dealer}")
        if pack_size != self.exp_pack_size:
            rule = "R500-SETUP-2"
            if pack_size - self.exp_pack_size in (-4, -2, -1, 1, 2, 4):
                rule = "R500-SETUP-3"
            self._flag(rule, f"pack_size {pack_size}, expected {self.exp_pack_size}")
        if deal != self.exp_deal:
            self._fail("R500-DEAL-1", f"deal_size {deal}, expected {self.exp_deal}")
        if first != (dealer + 1) % n:
            # R500-TURN-1: the player left of the dealer plays first
            self._fail("R500-TURN-1", f"first_player {first}, expected {(dealer + 1) % n}")
        if pack_size < n * deal + 1 or pack_size > 2 * 54:
            self._fail("TRACE-FORMAT", f"pack_size {pack_size} cannot be dealt")
        self.pack_size = pack_size
        self.pack: list[int] = [-1] * pack_size
        self.pack_filled = 0
        self.phase = _P_DECK

    def _fill(self, row: list[int], buf: list[int], what: str) -> int:
        """DECK / RESTOCK: store the card ids of ``row`` in ``buf``; return how many."""
        off = row[1]
        size = len(buf)
        filled = 0
        for j in range(6):
            c = row[2 + j]
            if c == -1:
                continue  # unused slot
            p = off + j
            if not 0 <= p < size:
                self._fail("TRACE-FORMAT", f"{what} card at position {p} >= size {size}")
            if not (0 <= c <= 64 and _VALID_CARD[c]):
                self._fail("TRACE-FORMAT", f"invalid card id {c} in {what}")
            if buf[p] != -1:
                self._fail("TRACE-FORMAT", f"{what} position {p} given twice")
            buf[p] = c
            filled += 1
        return filled

    def _deck(self, row: list[int]) -> None:
        if self.phase != _P_DECK:
            self._unexpected(row)
        self.pack_filled += self._fill(row, self.pack, "DECK")
        if self.pack_filled == self.pack_size:
            self._deal()

    def _deal(self) -> None:
        n = self.n
        pack = self.pack
        counts = Counter(pack)
        if counts != self.exp_pack:
            diff_nat = any(counts.get(c, 0) != self.exp_pack.get(c, 0) for c in _NATURAL_IDS)
            rule = "R500-SETUP-2" if diff_nat else "R500-SETUP-3"
            missing = self.exp_pack - counts
            extra = counts - self.exp_pack
            self._flag(
                rule,
                "pack is not a permutation of the expected pack: missing "
                f"{sorted(card_name(c) for c in missing.elements())}, extra "
                f"{sorted(card_name(c) for c in extra.elements())}",
            )
        self.pack_counts = counts  # the universe for card conservation
        d = self.exp_deal
        hands = [[0] * 65 for _ in range(n)]
        upchoice = self.cfg.upchoice
        for i in range(n):  # dealing convention of the trace spec
            seat = (self.dealer + 1 + i) % n
            hc = hands[seat]
            if upchoice:
                # V500-UPCHOICE: the first player gets d+1 cards, later blocks start one later
                lo, hi = (0, d + 1) if i == 0 else (i * d + 1, (i + 1) * d + 1)
            else:
                lo, hi = i * d, (i + 1) * d
            for c in pack[lo:hi]:
                hc[c] += 1
        self.hands = hands
        self.hand_size = [d] * n
        if upchoice:
            self.hand_size[(self.dealer + 1) % n] = d + 1
            self.pile: list[int] = []  # no upcard: the first player starts the pile
        else:
            self.pile = [pack[n * d]]  # the upcard is pile index 0 (R500-DEAL-2, C-PILE-3)
        self.stock = pack  # stock = pack positions n*d+1 ..
        self.stock_pos = n * d + 1
        self.limbo = Counter()
        self.table_counts = [0] * 65
        self.melds: list[_Meld] = []
        self.opened = [False] * n  # V500-OPEN30
        self.turns = 0
        self.idle = 0
        self.end_due = 0  # reason the hand must end now (0: none)
        self.end_ok = set()
        self.out_seat = -1
        self.out_by_discard = False
        self.seven_seat = -1
        self.next_seat = (self.dealer + 1) % n  # R500-TURN-1
        self.cur = -1
        self.turn_kind = 0
        self.call_layoff = False
        self.last_call_layoff = False
        self.win_discarder = -1  # seat whose discard opened the current windows
        self.rummy_open = False  # V500-RUMMY-1 window
        self.oot_open = False  # V500-OUTOFTURN window
        self.oot_last = 0
        self.oot_melds = 0
        self.open_acc = 0
        self.open_any = False
        self.phase = _P_START_PILE if upchoice else _P_TURN

    def _stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def _start_pile(self, row: list[int]) -> None:
        if self.phase != _P_START_PILE:
            if not self.cfg.upchoice:
                self._fail("V500-UPCHOICE", "START_PILE but r500_upcard_mode=stock (upcard dealt)")
            self._unexpected(row)
        seat, card = row[1], row[2]
        first = (self.dealer + 1) % self.n
        if seat != first:
            self._flag("V500-UPCHOICE", f"START_PILE by seat {seat}; the first player is {first}")
        if not 0 <= seat < self.n:
            self._fail("TRACE-FORMAT", f"START_PILE seat {seat} is not a seat")
        if not (0 <= card <= 64 and _VALID_CARD[card]):
            self._fail("TRACE-FORMAT", f"invalid card id {card}")
        hc = self.hands[seat]
        if hc[card] <= 0:
            self._fail("C-CARD-CONSERVATION",
                       f"seat {seat} starts the pile with {card_name(card)} but does not hold it")
        hc[card] -= 1
        self.hand_size[seat] -= 1
        self.pile.append(card)
        self.phase = _P_TURN

    # ---- turns --------------------------------------------------------------------------

    def _turn_start(self, row: list[int]) -> None:
        ph = self.phase
        if ph == _P_DECK:
            self._fail(
                "TRACE-FORMAT",
                f"DECK records give {self.pack_filled} of {self.pack_size} pack positions",
            )
        if ph != _P_TURN or self.end_due:
            self._unexpected(row)
        seat, turn_no, stock_size, pile_size, tkind = row[1], row[2], row[3], row[4], row[5]
        n = self.n
        if not 0 <= seat < n:
            self._fail("TRACE-FORMAT", f"TURN_START seat {seat} is not a seat")
        if tkind not in (0, 1):
            self._fail("TRACE-FORMAT", f"TURN_START turn kind {tkind} (0 normal, 1 rummy call)")
        self.call_layoff = False
        if tkind == 1:
            # V500-RUMMY-1/4: a call follows a discard that did not end the hand, by a seat
            # other than the discarder, before the next player draws
            if self.call_mode == "off":
                self._flag("V500-RUMMY-1", "rummy-call turn but r500_call_rummy=off")
            elif not self.rummy_open:
                self._flag("V500-RUMMY-1",
                           "rummy-call turn without an open rummy window (calls follow a "
                           "discard that does not end the hand, before any out-of-turn meld)")
            if seat == self.win_discarder and self.rummy_open:
                self._flag("V500-RUMMY-4", f"seat {seat} calls Rummy on its own discard")
            self.saved_next = self.next_seat
            self.call_layoff = self.call_mode == "layoff_only"
        elif seat != self.next_seat:
            # R500-TURN-1 / C-TURN-1: play moves clockwise (V500-RUMMY-3: left of the caller)
            self._flag("R500-TURN-1", f"seat {seat} plays; expected seat {self.next_seat}")
        if turn_no != self.turns:
            self._flag("TRACE-FORMAT", f"turn_no {turn_no}, expected {self.turns}")
        stock_left = self._stock_left()
        if stock_size != stock_left:
            self._flag(
                "TRACE-FORMAT", f"TURN_START stock_size {stock_size}, replay has {stock_left}"
            )
        if pile_size != len(self.pile):
            self._flag(
                "TRACE-FORMAT", f"TURN_START pile_size {pile_size}, replay has {len(self.pile)}"
            )
        self.rummy_open = False
        self.oot_open = False
        self.last_call_layoff = False
        self.cur = seat
        self.turn_kind = tkind
        self.next_seat = (seat + 1) % n
        self.turns += 1
        self.start_stock_empty = stock_left == 0
        self.start_pile_size = len(self.pile)
        self.reshuffled = False
        self.put_on_table = False
        self.drew_stock = False
        self.discarded = False
        self.run7 = False
        self.open_acc = 0
        self.open_any = False
        self.duty_sel = -1  # card that must be melded this turn (R500-DRAW-3), -1: none
        self.duty_rule = ""
        self.duty_newmeld = False
        self.duty_missed_first = False
        self.first_play_done = False
        self.restricted: dict[int, int] = {}  # taken cards that may not be discarded
        self.phase = _P_DRAW

    def _check_seat(self, seat: int) -> None:
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"record for seat {seat} during seat {self.cur}'s turn")

    def _must_reshuffle(self) -> bool:
        """V500-STOCKEND reshuffle: an empty stock and a pile of 2+ cards at a normal turn."""
        return (
            self.cfg.end_of_stock == "reshuffle"
            and self.turn_kind == 0
            and not self.reshuffled
            and self._stock_left() == 0
            and len(self.pile) >= 2
        )

    def _reshuffle(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        n_cards = row[2]
        if self.cfg.end_of_stock != "reshuffle":
            self._flag("V500-STOCKEND",
                       f"RESHUFFLE but the end of stock mode is {self.cfg.end_of_stock}")
        elif self.turn_kind == 1 or self.reshuffled:
            self._flag("V500-STOCKEND", "RESHUFFLE outside the start of a normal turn")
        if self._stock_left():
            self._fail("V500-STOCKEND", f"RESHUFFLE with {self._stock_left()} cards in the stock")
        if len(self.pile) < 2:
            self._fail("V500-STOCKEND",
                       f"RESHUFFLE with {len(self.pile)} pile card(s): pile_or_end applies")
        if n_cards != len(self.pile) - 1:
            self._flag("TRACE-FORMAT", f"RESHUFFLE n_cards {n_cards}, expected pile size - 1 = "
                                       f"{len(self.pile) - 1}")
        # AMB-15: every pile card but the top one forms the new stock
        self.limbo = Counter(self.pile[:-1])
        self.restock = [-1] * (len(self.pile) - 1)
        self.restock_filled = 0
        self.pile = self.pile[-1:]
        self.stock = []
        self.stock_pos = 0
        self.phase = _P_RESTOCK

    def _restock(self, row: list[int]) -> None:
        if self.phase != _P_RESTOCK:
            self._unexpected(row)
        self.restock_filled += self._fill(row, self.restock, "RESTOCK")
        if self.restock_filled == len(self.restock):
            if Counter(self.restock) != self.limbo:
                self._fail(
                    "C-CARD-CONSERVATION",
                    "RESTOCK is not a permutation of the reshuffled pile cards: "
                    f"{sorted(card_name(c) for c in self.limbo.elements())}",
                )
            self.stock = self.restock
            self.stock_pos = 0
            self.limbo = Counter()
            self.reshuffled = True
            self.start_stock_empty = False  # the stock is refilled before the draw: not idle
            self.phase = _P_DRAW

    def _draw_stock(self, row: list[int]) -> None:
        ph = self.phase
        if ph == _P_RESTOCK:
            self._fail("TRACE-FORMAT", "DRAW_STOCK before the whole new stock was listed (RESTOCK)")
        if ph != _P_DRAW and ph != _P_DRAW2:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.turn_kind == 1:
            self._fail("V500-RUMMY-3", "a rummy call takes from the discard pile, not the stock")
        card = row[2]
        if self.stock_pos >= len(self.stock):
            if self._must_reshuffle():
                self._fail("V500-STOCKEND",
                           "empty stock and 2+ pile cards: the turn must RESHUFFLE first")
            if self.cfg.end_of_stock == "discard_until_out":
                self._fail("V500-STOCKEND", "DRAW_STOCK from an empty stock: draws are over")
            self._fail("R500-STOCK-1", "DRAW_STOCK from an empty stock")
        top = self.stock[self.stock_pos]
        if card != top:
            # C-PILE-1: a stock draw takes the top card, i.e. the lowest undrawn position
            self._fail(
                "C-CARD-CONSERVATION",
                f"DRAW_STOCK of {card_name(card)} but the top stock card "
                f"(position {self.stock_pos}) is {card_name(top)} (C-PILE-1)",
            )
        self.stock_pos += 1
        self.hands[self.cur][card] += 1
        self.hand_size[self.cur] += 1
        self.drew_stock = True
        if ph == _P_DRAW and self.cfg.draw_count == 2 and self.stock_pos < len(self.stock):
            self.phase = _P_DRAW2  # V500-BOATHOUSE: a stock draw takes two cards
        else:
            self.phase = _P_PLAY

    def _take_pile(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            if self.phase == _P_RESTOCK:
                self._fail("TRACE-FORMAT", "TAKE_PILE before the whole new stock was listed")
            self._unexpected(row)
        self._check_seat(row[1])
        k, n_taken, sel = row[2], row[3], row[4]
        cfg = self.cfg
        pile = self.pile
        size = len(pile)
        if size == 0:
            self._fail("R500-DRAW-1", "TAKE_PILE from an empty discard pile")
        if not 0 <= k < size:
            self._fail("C-PILE-4", f"TAKE_PILE k={k} outside the pile (size {size})")
        if n_taken != size - k:
            self._flag("TRACE-FORMAT", f"TAKE_PILE n_taken {n_taken}, expected {size - k}")
        if sel != pile[k]:
            self._fail(
                "C-CARD-CONSERVATION",
                f"TAKE_PILE selected {card_name(sel)} but pile[{k}] is {card_name(pile[k])}",
            )
        top_only = k == size - 1
        call = self.turn_kind == 1
        if not call:
            if self._must_reshuffle():
                self._flag("V500-STOCKEND",
                           "empty stock and 2+ pile cards: the turn must RESHUFFLE, not take")
            elif cfg.end_of_stock == "discard_until_out" and self._stock_left() == 0:
                self._flag("V500-STOCKEND",
                           "TAKE_PILE after the stock ran out under discard_until_out (AMB-16: "
                           "no draws at all)")
        if self.std and not top_only:
            self._flag("RSTD-DRAW-1", f"takes from pile[{k}] ({card_name(sel)}); only the top "
                                      "discard may be taken")
        if call:
            self._check_call_eligible(k)
        taken = pile[k:]
        del pile[k:]  # C-PILE-4: cards k..top, order kept
        hc = self.hands[self.cur]
        for c in taken:
            hc[c] += 1
        self.hand_size[self.cur] += len(taken)
        if call:
            # V500-RUMMY-3: the claimed card must be played, first (C-TURN-4); layoff_only: laid
            # off (V500-RUMMY-6).  V500-NEWMELD narrows draws only (rules-decisions E13).
            self.duty_sel = sel
            self.duty_rule = "V500-RUMMY-6" if self.call_layoff else "V500-RUMMY-3"
            self.duty_newmeld = False
        elif self.std:
            pass  # RSTD-DRAW-1: the top discard carries no duty
        elif not top_only:
            self.duty_sel = sel  # R500-DRAW-3 / C-TURN-4
            self.duty_rule = "R500-DRAW-3"
            self.duty_newmeld = cfg.new_meld
        elif cfg.top_must:
            self.duty_sel = sel  # V500-TOPMUST: R500-DRAW-3 also for the top card alone
            self.duty_rule = "V500-TOPMUST"
            self.duty_newmeld = cfg.new_meld
        if self.std or cfg.discard_restriction == "top_single":
            if top_only:
                self.restricted = {sel: 1}  # R500-DISC-2 (Standard Rummy: the same rule)
        elif cfg.discard_restriction == "any_taken":
            self.restricted = dict(Counter(taken))  # V500-DISCSAME any_taken
        self.phase = _P_PLAY

    def _check_call_eligible(self, k: int) -> None:
        """V500-RUMMY-2/5/6: is the claimed card k eligible, using only pile cards k..top and
        the table melds (no hand cards, AMB-18)?"""
        pile = self.pile
        c = pile[k]
        cfg = self.cfg
        mode = self.call_mode
        if mode in ("top_only", "layoff_only"):
            rule = "V500-RUMMY-5" if mode == "top_only" else "V500-RUMMY-6"
            if k != len(pile) - 1:
                self._flag(rule, f"{mode} call claims pile[{k}] ({card_name(c)}); only the card "
                                 "just discarded is eligible")
            elif not _fits_table(self.melds, c, cfg.corner, self.max_pos):
                self._flag(rule, f"{mode} call on {card_name(c)}, which cannot be laid off on any "
                                 "table meld")
            return
        if mode != "pile":
            return  # calls are off: reported at TURN_START
        rest = pile[k + 1:]
        nat = Counter(x for x in rest if x != JOKER)
        jokers = len(rest) - sum(nat.values())
        if _fits_table(self.melds, c, cfg.corner, self.max_pos, nat, jokers):
            return
        if _new_meld_with(c, nat, jokers, cfg.corner, self.max_pos, cfg.min_new_run):
            return
        self._flag(
            "V500-RUMMY-2",
            f"claims pile[{k}] ({card_name(c)}), which cannot be played using only pile cards "
            f"{k}..top and the table melds",
        )

    def _no_draw(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            if self.phase == _P_RESTOCK:
                self._fail("TRACE-FORMAT", "NO_DRAW before the whole new stock was listed")
            self._unexpected(row)
        self._check_seat(row[1])
        if self.turn_kind == 1:
            self._fail("V500-RUMMY-3", "NO_DRAW in a rummy-call turn")
        mode = row[2]
        if mode not in (0, 1):
            self._fail("TRACE-FORMAT", f"NO_DRAW column 2 = {mode} (0 declines, 1 draws are over)")
        left = self._stock_left()
        d_u_o = self.cfg.end_of_stock == "discard_until_out"
        if left:
            # R500-STOCK-1: NO_DRAW only when the stock is empty
            self._flag("R500-STOCK-1", f"NO_DRAW with {left} cards in the stock")
        if mode == 1:
            if not d_u_o:
                self._flag("V500-STOCKEND",
                           "NO_DRAW 'draws are over' but the end of stock mode is "
                           f"{self.cfg.end_of_stock}")
            # the turn goes on; a seat with 0 cards (floating) records FLOAT and passes
            if self.hand_size[self.cur] == 0:
                self.float_ctx = "turn"
                self.float_after_discard = False
                self.phase = _P_FLOAT
            else:
                self.phase = _P_PLAY
            return
        if d_u_o and not left:
            self._flag("V500-STOCKEND",
                       "NO_DRAW ends the hand, but under discard_until_out the turn goes on "
                       "(NO_DRAW column 2 = 1)")
        elif self._must_reshuffle():
            self._flag("V500-STOCKEND",
                       "NO_DRAW ends the hand, but the stock must be reshuffled (pile of 2+ cards)")
        self.end_due = 2
        self.end_ok = {2}
        self.phase = _P_NODRAW

    # ---- melds and lay-offs -------------------------------------------------------------

    def _meld(self, row: list[int]) -> None:
        ph = self.phase
        if ph != _P_PLAY and ph != _P_OOT:
            self._unexpected(row)
        self._check_seat(row[1])
        if ph == _P_PLAY and self.call_layoff:
            self._flag("V500-RUMMY-6", "a layoff_only caller lays off the claimed card only "
                                       "(no new meld)")
        meld_id, kind, key, lo, n_cards = row[2], row[3], row[4], row[5], row[6]
        if meld_id != len(self.melds):
            self._fail("TRACE-FORMAT", f"MELD id {meld_id}, expected {len(self.melds)}")
        if kind not in (0, 1):
            self._fail("TRACE-FORMAT", f"MELD kind {kind} (0 set, 1 run)")
        if not 1 <= n_cards <= 108:
            self._fail("TRACE-FORMAT", f"MELD n_cards {n_cards}")
        if kind == 0 and not 1 <= key <= 13:
            self._fail("TRACE-FORMAT", f"set key (rank) {key} outside 1..13")
        if kind == 1 and not 0 <= key <= 3:
            self._fail("TRACE-FORMAT", f"run key (suit) {key} outside 0..3")
        if kind == 0 and lo != 0:
            self._flag("TRACE-FORMAT", f"set MELD with lo={lo} (must be 0)")
        self.group = (MELD, meld_id, kind, key, lo)
        self.group_ctx = "oot" if ph == _P_OOT else "turn"
        self.group_seat = self.cur
        self.group_need = n_cards
        self.group_cards: list[tuple[int, int]] = []
        self.phase = _P_CARDS

    def _layoff(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        meld_id, n_cards = row[2], row[3]
        if self.call_layoff and (self.first_play_done or n_cards != 1):
            self._flag("V500-RUMMY-6", "a layoff_only caller lays off exactly the one claimed card")
        self._start_layoff(meld_id, n_cards, "turn", row[4])

    def _start_layoff(self, meld_id: int, n_cards: int, ctx: str, run_lo: int) -> None:
        if not 0 <= meld_id < len(self.melds):
            self._fail("TRACE-FORMAT", f"lay-off on meld {meld_id}, which is not on the table")
        if not 1 <= n_cards <= 108:
            self._fail("TRACE-FORMAT", f"lay-off n_cards {n_cards}")
        m = self.melds[meld_id]
        self.group = (LAYOFF, meld_id, m.kind, m.key, run_lo)
        self.group_ctx = ctx
        self.group_seat = self.cur
        self.group_need = n_cards
        self.group_cards = []
        self.phase = _P_CARDS

    def _addopp_layoff(self, row: list[int]) -> None:
        """V500-ADDOPP-2: after a player went out, the others may lay off on that player's melds;
        those cards score for no one."""
        if self.phase != _P_OUT:
            self._unexpected(row)
        seat, meld_id, n_cards = row[1], row[2], row[3]
        n = self.n
        if not 0 <= seat < n:
            self._fail("TRACE-FORMAT", f"ADDOPP_LAYOFF seat {seat} is not a seat")
        if not self.cfg.add_opp:
            self._flag("V500-ADDOPP-2", "ADDOPP_LAYOFF but r500_add_opponent_hand=false")
        out = self.out_seat
        dist = (seat - out) % n
        if dist == 0:
            self._flag("V500-ADDOPP-2", f"seat {seat} went out and cannot lay off afterwards")
        elif dist < self.addopp_last:
            self._flag("V500-ADDOPP-2",
                       f"seat {seat} lays off after a seat later in clockwise order from the "
                       f"player who went out (seat {out})")
        self.addopp_last = max(self.addopp_last, dist)
        if 0 <= meld_id < len(self.melds) and self.melds[meld_id].owner != out:
            self._flag("V500-ADDOPP-2",
                       f"ADDOPP lay-off on meld {meld_id} of seat {self.melds[meld_id].owner}; "
                       f"only melds created by seat {out} (who went out) may take them")
        self.cur = seat
        self._start_layoff(meld_id, n_cards, "addopp", row[4])

    def _card(self, row: list[int]) -> None:
        if self.phase != _P_CARDS:
            self._unexpected(row)
        seat, meld_id, card, pos = row[1], row[2], row[3], row[4]
        if seat != self.group_seat:
            self._fail("TRACE-FORMAT", f"CARD for seat {seat} in seat {self.group_seat}'s group")
        if meld_id != self.group[1]:
            self._fail(
                "TRACE-FORMAT", f"CARD for meld {meld_id} inside a group for {self.group[1]}"
            )
        if not (0 <= card <= 64 and _VALID_CARD[card]):
            self._fail("TRACE-FORMAT", f"invalid card id {card}")
        hc = self.hands[seat]
        if hc[card] <= 0:
            self._fail(
                "C-CARD-CONSERVATION",
                f"seat {seat} puts {card_name(card)} on the table but does not hold it",
            )
        hc[card] -= 1
        self.hand_size[seat] -= 1
        self.table_counts[card] += 1
        self.group_cards.append((card, pos))
        if len(self.group_cards) == self.group_need:
            credit_seat = -1 if self.group_ctx == "addopp" else seat
            if self.group[0] == MELD:
                self._finish_meld(credit_seat)
            else:
                self._finish_layoff(credit_seat)
            self._after_group()

    def _ace_low(self, m: _Meld, pos: int) -> bool:
        """Is a natural ace at ``pos`` of run ``m`` used low?  (R500-SCORE-2: position 1;
        V500-CORNER: only as the first card of its run.)"""
        return pos == m.lo if self.cfg.corner else pos == 1

    @staticmethod
    def _wrap_attempt(positions: set[int] | range) -> bool:
        """True if the positions would form a run only by going round the corner (K-A-2).

        Ranks (position 14 read as the ace, rank 1) form a cyclic interval holding both K and A
        that is not a plain interval: forbidden by R500-MELD-4 without V500-CORNER.
        """
        ranks = {p if p <= 13 else 1 for p in positions if 1 <= p <= 14}
        if 1 not in ranks or 13 not in ranks or len(ranks) == 13:
            return False
        gap = [r for r in range(1, 14) if r not in ranks]
        return gap[-1] - gap[0] + 1 == len(gap)

    def _finish_meld(self, seat: int) -> None:
        _, meld_id, kind, key, lo = self.group
        cards = self.group_cards
        n = len(cards)
        cfg = self.cfg
        if kind == 0:  # set: R500-MELD-1/2/6, RSTD-MELD-1
            if n < 3 or n > 4:
                self._flag("R500-MELD-1", f"set of {n} cards (a set has 3 or 4 cards)")
            suits = 0
            for c, pos in cards:
                if pos != 0:
                    self._flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
                if c != JOKER:  # a joker stands for the rank only (R500-MELD-6)
                    if c & 15 != key:
                        self._flag(
                            "R500-MELD-1", f"{card_name(c)} in a set of rank {_RANKS[key - 1]}"
                        )
                    bit = 1 << (c >> 4)
                    if suits & bit:
                        self._flag("R500-MELD-2", f"two natural {card_name(c)} in one set")
                    suits |= bit
            m = _Meld(0, key, 0, 0, n, suits, self.group_seat)
        elif cfg.corner:  # run, V500-CORNER: positions may pass 14 and wrap
            positions: set[int] = set()
            for c, pos in cards:
                if pos in positions:
                    self._flag("R500-MELD-3", f"two cards at run position {pos}")
                positions.add(pos)
                if c != JOKER and (c >> 4 != key or c & 15 != _rank_at(pos)):
                    self._flag(
                        "R500-MELD-3", f"{card_name(c)} at position {pos} of a {_SUITS[key]} run"
                    )
            if n < 3:
                self._flag("R500-MELD-3", f"run of {n} cards (a run has at least 3)")
            if not 1 <= lo <= 13:
                self._flag("V500-CORNER", f"run MELD lo={lo}; runs are written with 1 <= lo <= 13")
            if n > 13:
                self._flag("V500-CORNER", f"run of {n} cards (at most 13, even round the corner)")
            elif positions != set(range(lo, lo + n)):
                self._flag("R500-MELD-3",
                           f"run positions {sorted(positions)} are not consecutive from lo={lo}")
            lo_s, hi_s = (min(positions), max(positions)) if positions else (lo, lo)
            m = _Meld(1, key, lo_s, hi_s, n, 0, self.group_seat)
        else:  # run: R500-MELD-3/4/5, RSTD-MELD-2
            positions = set()
            bad_pos = False
            for c, pos in cards:
                if not 1 <= pos <= 14:
                    bad_pos = True
                elif pos in positions:
                    self._flag("R500-MELD-3", f"two cards at run position {pos}")
                positions.add(pos)
                if c != JOKER and 1 <= pos <= 14:
                    rank = pos if pos <= 13 else 1
                    if c >> 4 != key or c & 15 != rank:
                        self._flag(
                            "R500-MELD-3",
                            f"{card_name(c)} at position {pos} of a {_SUITS[key]} run",
                        )
            hi = lo + n - 1
            if n < 3:
                self._flag("R500-MELD-3", f"run of {n} cards (a run has at least 3)")
            if bad_pos or lo < 1 or hi > 14 or n > 13:
                self._flag(
                    "R500-MELD-4",
                    f"run positions {sorted(positions)} (lo {lo}, {n} cards) outside 1..14 "
                    "or longer than 13 (no round-the-corner runs)",
                )
            elif positions != set(range(lo, hi + 1)):
                if self._wrap_attempt(positions):
                    self._flag(
                        "R500-MELD-4", f"run round the corner: positions {sorted(positions)}"
                    )
                else:
                    self._flag(
                        "R500-MELD-3",
                        f"run positions {sorted(positions)} are not consecutive from lo={lo}",
                    )
            elif self.std and 14 in positions:
                self._flag("R500-MELD-4", "an ace played high: aces are low only (RSTD-MELD-2)")
            # keep the table state within positions 1..14 even after a reported violation
            valid = [p for p in positions if 1 <= p <= 14]
            lo_s, hi_s = (min(valid), max(valid)) if valid else (1, 1)
            m = _Meld(1, key, lo_s, hi_s, n, 0, self.group_seat)
        if kind == 1 and 3 <= n < cfg.min_new_run:
            self._flag("V500-RUN4", f"new run of {n} cards; r500_min_new_run={cfg.min_new_run}")
        m.placed = [[seat, c, pos] for c, pos in cards]
        self.melds.append(m)

    def _lay_rule(self, kind: int) -> str:
        if self.std:
            return "RSTD-MELD-1" if kind == 0 else "RSTD-MELD-2"
        return "R500-MELD-8"

    def _finish_layoff(self, seat: int) -> None:
        _, meld_id, kind, key, run_lo = self.group
        m = self.melds[meld_id]
        cards = self.group_cards
        n = len(cards)
        lay_rule = self._lay_rule(kind)
        if kind == 0:  # set: R500-MELD-8 (max 4), R500-MELD-2
            if m.count + n > 4:
                self._flag(
                    lay_rule,
                    f"lay-off of {n} card(s) makes set {meld_id} {m.count + n} cards (max 4)",
                )
            for c, pos in cards:
                if pos != 0:
                    self._flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
                if c != JOKER:
                    if c & 15 != key:
                        self._flag(
                            lay_rule,
                            f"{card_name(c)} laid off on a set of rank {_RANKS[key - 1]}",
                        )
                    bit = 1 << (c >> 4)
                    if m.suits & bit:
                        self._flag(
                            "R500-MELD-2", f"{card_name(c)} repeats a suit in set {meld_id}"
                        )
                    m.suits |= bit
            m.count += n
        elif self.cfg.corner:
            self._layoff_corner(m, meld_id, cards, run_lo)
        else:  # run: extended at either end only (R500-MELD-8), no rearranging (R500-MELD-9)
            positions: set[int] = set()
            problem = ""
            rule = lay_rule
            for c, pos in cards:
                if not 1 <= pos <= 14:
                    problem, rule = f"position {pos} outside 1..14", "R500-MELD-4"
                elif m.lo <= pos <= m.hi:
                    problem = (
                        f"position {pos} is inside the run {m.lo}..{m.hi} "
                        "(only the ends can be extended; R500-MELD-9)"
                    )
                elif pos in positions:
                    problem = f"two cards at position {pos}"
                positions.add(pos)
                if c != JOKER and 1 <= pos <= 14:
                    rank = pos if pos <= 13 else 1
                    if c >> 4 != key or c & 15 != rank:
                        self._flag(
                            lay_rule,
                            f"{card_name(c)} does not fit position {pos} of a {_SUITS[key]} run",
                        )
            if not problem:
                new_lo = min(m.lo, min(positions))
                new_hi = max(m.hi, max(positions))
                allpos = positions | set(range(m.lo, m.hi + 1))
                if 1 in allpos and 14 in allpos:
                    rule = "R500-MELD-4"
                    problem = "the ace would be both low and high"
                elif new_hi - new_lo + 1 != m.count + n:
                    if self._wrap_attempt(allpos):
                        rule = "R500-MELD-4"
                        problem = f"positions {sorted(positions)} go round the corner"
                    else:
                        problem = (
                            f"positions {sorted(positions)} are not contiguous with "
                            f"the run {m.lo}..{m.hi}"
                        )
                elif new_hi - new_lo + 1 > 13:
                    rule, problem = "R500-MELD-4", "run longer than 13 cards"
                elif self.std and 14 in positions:
                    rule, problem = "R500-MELD-4", "an ace laid off high (aces are low only)"
                m.lo, m.hi = new_lo, new_hi
            if problem:
                self._flag(rule, f"lay-off on run {meld_id}: {problem}")
            m.count += n
        if kind == 1 and run_lo != m.lo:
            self._flag("TRACE-FORMAT", f"LAYOFF run_lo {run_lo}, but run {meld_id} now starts at {m.lo}")
        elif kind == 0 and run_lo != 0:
            self._flag("TRACE-FORMAT", f"LAYOFF on set {meld_id} with run_lo {run_lo} (expected 0)")
        m.placed.extend([seat, c, pos] for c, pos in cards)

    def _layoff_corner(self, m: _Meld, meld_id: int, cards: list[tuple[int, int]], run_lo: int) -> None:
        """V500-CORNER lay-off: positions continue the run at either end; a lay-off below
        position 1 is written with the run re-based 13 positions up (trace spec). When a card
        could join either end (a 12-card run), ``run_lo`` says which: re-based iff it moved up."""
        positions = [pos for _, pos in cards]
        ps = set(positions)
        problem = ""
        rule = "R500-MELD-8"
        if len(ps) != len(positions):
            problem = "two cards at one position"
        elif min(ps) < 1:
            problem, rule = (f"position {min(ps)} < 1 (a lay-off below position 1 is written "
                             "with positions shifted up by 13)"), "V500-CORNER"
        else:
            def joined(lo: int, hi: int) -> bool:
                allp = ps | set(range(lo, hi + 1))
                return not (ps & set(range(lo, hi + 1))) and max(allp) - min(allp) + 1 == len(allp)

            rebase_ok = min(ps) <= 13 and min(ps) < m.lo + 13 and joined(m.lo + 13, m.hi + 13)
            if joined(m.lo, m.hi) and not (rebase_ok and run_lo == min(ps)):
                pass
            elif rebase_ok:
                # re-based: the run moves 13 positions up, the lay-off goes below it
                m.lo += 13
                m.hi += 13
                for pl in m.placed:
                    pl[2] += 13
            else:
                problem = (f"positions {sorted(ps)} are not contiguous with the run "
                           f"{m.lo}..{m.hi}")
            if not problem:
                new_lo, new_hi = min(m.lo, min(ps)), max(m.hi, max(ps))
                if new_hi - new_lo + 1 > 13:
                    problem, rule = "run longer than 13 cards", "V500-CORNER"
                else:
                    m.lo, m.hi = new_lo, new_hi
        for c, pos in cards:
            if c != JOKER and (c >> 4 != m.key or c & 15 != _rank_at(pos)):
                self._flag("R500-MELD-8",
                           f"{card_name(c)} does not fit position {pos} of a {_SUITS[m.key]} run")
        if problem:
            self._flag(rule, f"lay-off on run {meld_id}: {problem}")
        m.count += len(cards)

    def _open_add(self, seat: int, cards: list[tuple[int, int]]) -> None:
        """V500-OPEN30: add the value of the cards just put down by a seat that has not opened."""
        if self.opened[seat]:
            return
        m = self.melds[self.group[1]]
        vals = self.vals
        total = 0
        for c, pos in cards:
            if m.kind == 1 and c != JOKER and c & 15 == 1 and self._ace_low(m, pos):
                total += self.ace_low
            else:
                total += vals[c]
        self.open_acc += total
        self.open_any = True

    def _check_open(self, seat: int) -> None:
        """V500-OPEN30: the first turn / window / call in which a seat puts cards on the table
        puts at least r500_first_meld_min points there (AMB-14)."""
        if self.open_any:
            need = self.cfg.first_meld_min
            if need and not self.opened[seat] and self.open_acc < need:
                self._flag(
                    "V500-OPEN30",
                    f"seat {seat}'s first cards on the table this hand are worth {self.open_acc} "
                    f"points; r500_first_meld_min={need}",
                )
            self.opened[seat] = True
        self.open_acc = 0
        self.open_any = False

    def _after_group(self) -> None:
        """Bookkeeping after a MELD/LAYOFF group: duties, restrictions, going out."""
        ctx = self.group_ctx
        if ctx == "addopp":
            self.phase = _P_OUT
            return
        cards = self.group_cards
        seat = self.cur
        if self.cfg.first_meld_min:
            self._open_add(seat, cards)
        if ctx == "oot":
            self.idle = 0  # cards put on the table reset the idle count (R500-STOCK-2)
            self.oot_melds += 1
            if self.hand_size[seat] == 0:
                self._hand_emptied(oot=True)
            else:
                self.phase = _P_OOT
            return
        self.put_on_table = True  # resets the idle count (R500-STOCK-2)
        sel = self.duty_sel
        if sel >= 0:
            contains = any(c == sel for c, _ in cards)
            if not self.first_play_done:
                if contains:
                    # V500-NEWMELD: the selected card goes into a new meld, never a lay-off
                    if self.duty_newmeld and self.group[0] == LAYOFF:
                        self._flag(
                            "V500-NEWMELD",
                            f"selected card {card_name(sel)} laid off instead of a new meld",
                        )
                    self.duty_sel = -1
                else:
                    self.duty_missed_first = True
            elif contains:
                # C-TURN-4: the turn's first play action must contain the selected card
                self._flag(
                    "C-TURN-4",
                    f"selected card {card_name(sel)} melded, but not in the turn's first "
                    "meld/lay-off",
                )
                self.duty_sel = -1
        self.first_play_done = True
        if self.group[0] == MELD and self.group[2] == 1 and len(cards) >= 7:
            self.run7 = True  # V500-7STRAIGHT
        restricted = self.restricted
        if restricted:
            for c, _ in cards:
                r = restricted.get(c)
                if r:  # assume the taken copy went to the table (copies are interchangeable)
                    restricted[c] = r - 1
        if self.hand_size[seat] == 0:
            self._hand_emptied()
        elif self.call_layoff:
            self._end_turn()  # V500-RUMMY-6: the caller does nothing else and does not discard
        else:
            self.phase = _P_PLAY

    def _hand_emptied(self, oot: bool = False) -> None:
        """The seat laid down its last card (R500-OUT-1, V500-DISCREQ, V500-FLOAT-1)."""
        go = self.cfg.going_out
        if go == "floating":
            self.float_ctx = "oot" if oot else "turn"
            self.float_after_discard = False
            self.phase = _P_FLOAT
            return
        if go == "discard_required":
            self._flag(
                "V500-DISCREQ",
                f"seat {self.cur} empties the hand by laying down cards; going out needs a "
                "discard of the last card",
            )
        self.out_by_discard = False
        self._went_out(oot)

    def _went_out(self, oot: bool = False) -> None:
        """R500-OUT-1: the hand ends at once."""
        if not oot:
            self._check_duty_at_turn_end()
        self._check_open(self.cur)
        self.out_seat = self.cur
        self.end_due = 1
        self.end_ok = {1}
        self.addopp_last = 0
        self.phase = _P_OUT

    def _check_duty_at_turn_end(self) -> None:
        sel = self.duty_sel
        if sel >= 0:
            rule = self.duty_rule
            if rule == "R500-DRAW-3":
                what = "took a card below the top"
            elif rule == "V500-TOPMUST":
                what = "took the top card"
            else:
                what = "claimed"
            self._flag(
                rule,
                f"{what} ({card_name(sel)}) from the discard pile but did not meld it this "
                "turn (R500-DRAW-3/5, V500-RUMMY-3, C-LEGAL-1)",
            )
            self.duty_sel = -1

    # ---- out-of-turn melds (V500-OUTOFTURN) ---------------------------------------------

    def _out_of_turn(self, row: list[int]) -> None:
        if self.phase != _P_TURN:
            self._unexpected(row)
        seat = row[1]
        n = self.n
        if not 0 <= seat < n:
            self._fail("TRACE-FORMAT", f"OUT_OF_TURN seat {seat} is not a seat")
        if self.end_due:
            self._unexpected(row)
        if not self.cfg.oot:
            self._flag("V500-OUTOFTURN", "OUT_OF_TURN but r500_meld_out_of_turn=false")
        elif not self.oot_open:
            self._flag("V500-OUTOFTURN",
                       "OUT_OF_TURN without an open window (the window follows a discard that "
                       "does not end the hand, before the next player draws)")
        disc = self.win_discarder
        dist = (seat - disc) % n if disc >= 0 else n
        if seat == disc:
            self._flag("V500-OUTOFTURN", f"seat {seat} melds out of turn after its own discard")
        elif dist <= self.oot_last:
            self._flag("V500-OUTOFTURN",
                       f"seat {seat} melds out of turn out of clockwise order from the seat left "
                       f"of the discarder (seat {disc}), or twice in one window")
        self.oot_last = max(self.oot_last, dist)
        self.rummy_open = False  # the rummy window closes before the out-of-turn window
        self.last_call_layoff = False
        self.cur = seat
        self.oot_melds = 0
        self.open_acc = 0
        self.open_any = False
        self.phase = _P_OOT

    def _close_oot(self, kind: int) -> None:
        """A record other than MELD/CARD ends the out-of-turn seat's melds."""
        if kind in (LAYOFF, ADDOPP_LAYOFF):
            self._fail("V500-OUTOFTURN", "lay-off in an out-of-turn window (new melds only)")
        if kind == DISCARD:
            self._fail("V500-OUTOFTURN", "discard in an out-of-turn window")
        if self.oot_melds == 0:
            self._flag("TRACE-FORMAT", f"OUT_OF_TURN of seat {self.cur} without a MELD")
        self._check_open(self.cur)
        self.phase = _P_TURN

    # ---- discard and end of turn --------------------------------------------------------

    def _discard(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        card = row[2]
        if not (0 <= card <= 64 and _VALID_CARD[card]):
            self._fail("TRACE-FORMAT", f"invalid card id {card}")
        seat = self.cur
        if self.call_layoff:
            self._flag("V500-RUMMY-6", "a layoff_only caller does not discard")
        hc = self.hands[seat]
        held = hc[card]
        if held <= 0:
            self._fail(
                "C-CARD-CONSERVATION",
                f"seat {seat} discards {card_name(card)} but does not hold it",
            )
        r = self.restricted.get(card, 0)
        if r and r >= held:  # every copy held is a restricted taken card
            if self.std or self.cfg.discard_restriction == "top_single":
                self._flag(
                    "R500-DISC-2",
                    f"discards {card_name(card)}, the top card taken alone this turn",
                )
            else:
                self._flag(
                    "V500-DISCSAME",
                    f"discards {card_name(card)}, taken from the pile this turn (any_taken)",
                )
        hc[card] = held - 1
        self.hand_size[seat] -= 1
        self.pile.append(card)  # C-PILE-2: each discard goes on top
        self.discarded = True
        if self.hand_size[seat] == 0:
            cfg = self.cfg
            if (
                cfg.unplayable
                and not self.std
                and _fits_table(self.melds, card, cfg.corner, self.max_pos)
            ):
                # V500-UNPLAYABLE-1: a playable last card stays on the pile; the player floats
                self._check_duty_at_turn_end()
                self.float_ctx = "turn"
                self.float_after_discard = True
                self.phase = _P_FLOAT
                return
            # R500-OUT-1 / V500-FLOAT-3: out by discarding the last card
            if self.run7 and cfg.seven_bonus:
                self.seven_seat = seat  # V500-7STRAIGHT
            self.out_by_discard = True
            self._went_out()
            return
        self._end_turn()

    def _float(self, row: list[int]) -> None:
        ph = self.phase
        if ph != _P_FLOAT:
            if (
                ph == _P_DRAW
                and self.cfg.end_of_stock == "discard_until_out"
                and self.cfg.going_out == "floating"
                and self.turn_kind == 0
                and self._stock_left() == 0
                and self.hand_size[self.cur] == 0
            ):
                # a floating seat at a no-draw turn passes (NO_DRAW before FLOAT is optional)
                self.float_ctx = "turn"
                self.float_after_discard = False
            else:
                self._unexpected(row)
        seat = row[1]
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"FLOAT for seat {seat}; seat {self.cur} has 0 cards")
        if self.float_ctx == "oot":
            self._check_open(seat)
            self.phase = _P_TURN  # the out-of-turn window goes on
            return
        self._end_turn()

    def _end_turn(self) -> None:
        """The current turn is over (discard, FLOAT, or a layoff_only call's lay-off)."""
        self._check_duty_at_turn_end()
        self._check_open(self.cur)
        cfg = self.cfg
        # R500-STOCK-2 idle guard as the trace spec reads it (not under discard_until_out)
        if self.idle_applies:
            if self.start_stock_empty and not self.put_on_table:
                self.idle += 1
            else:
                self.idle = 0
        ok = set()
        if self.idle_applies and self.idle >= self.idle_limit:
            ok.add(3)
        if cfg.end_of_stock == "end_immediately" and self.drew_stock and not self._stock_left():
            ok.add(5)  # V500-STOCKEND end_immediately
        if self.turns >= cfg.max_turns:
            ok.add(4)  # engine turn cap
        self.end_ok = ok
        self.end_due = 5 if 5 in ok else 3 if 3 in ok else 4 if 4 in ok else 0
        if self.call_layoff:
            self.next_seat = self.saved_next  # V500-RUMMY-6: left of the discarder (AMB-18)
        self.rummy_open = False
        self.oot_open = False
        if not self.end_due:
            if self.discarded:
                self.win_discarder = self.cur
                self.rummy_open = self.call_mode != "off"
                self.oot_open = cfg.oot
                self.oot_last = 0
        self.last_call_layoff = self.call_layoff
        self.call_layoff = False
        self.phase = _P_TURN

    # ---- hand end and scoring -----------------------------------------------------------

    def _hand_end(self, row: list[int]) -> None:
        ph = self.phase
        if ph == _P_DECK:
            self._fail("TRACE-FORMAT", "HAND_END before the whole pack was listed")
        if ph not in (_P_TURN, _P_OUT, _P_NODRAW):
            self._unexpected(row)
        reason, out_seat, turns = row[1], row[2], row[3]
        due = self.end_due
        if reason not in (1, 2, 3, 4, 5):
            self._fail("TRACE-FORMAT", f"HAND_END reason {reason}")
        if reason not in self.end_ok:
            if due in (1, 2):
                # the hand did end by going out / NO_DRAW, under another reason
                self._flag(
                    self._end_rule(due),
                    f"HAND_END reason {reason}, expected {due} ({self._end_text(due)})",
                )
            elif reason == 1:
                self._flag("R500-OUT-1", "HAND_END reason 1 but no one went out")
            elif reason == 2:
                self._flag("R500-STOCK-1", "HAND_END reason 2 without a NO_DRAW turn")
            elif reason == 3:
                if not self.idle_applies:
                    self._flag("V500-STOCKEND",
                               "idle-guard HAND_END under discard_until_out (no idle guard)")
                else:
                    self._flag(
                        "R500-STOCK-2",
                        f"idle-guard HAND_END after {self.idle} consecutive idle turn(s); the "
                        f"guard needs {self.idle_limit}",
                    )
            elif reason == 5:
                self._flag(
                    "V500-STOCKEND",
                    "HAND_END reason 5 but the last stock card was not drawn in this turn under "
                    f"end_immediately (end of stock mode {self.cfg.end_of_stock})",
                )
            elif due:
                self._flag(
                    self._end_rule(due),
                    f"HAND_END reason {reason}, expected {due} ({self._end_text(due)})",
                )
            else:
                self._flag(
                    "ENGINE-TURN-CAP",
                    f"turn-cap HAND_END after {self.turns} turns; the cap is {self.cfg.max_turns}",
                )
        exp_out = self.out_seat if self.out_seat >= 0 else -1
        if out_seat != exp_out:
            self._flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat}, expected {exp_out}")
        if turns != self.turns:
            self._flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self._check_conservation()
        self._expected_scores()
        self.score_seat = 0
        self.phase = _P_SCORE

    def _table_credits(self) -> tuple[list[int], list[int]]:
        """(credited table value per seat, the same without V500-ACE four-aces scoring)."""
        n = self.n
        credit = [0] * n
        plain = [0] * n
        vals = self.vals
        ace_low = self.ace_low
        four = self.cfg.four_aces
        for m in self.melds:
            placed = m.placed
            if m.kind == 0:
                # V500-ACE r500_four_aces_100: four natural aces all credited to one seat
                # (rules-decisions E19)
                bonus4 = (
                    four
                    and m.key == 1
                    and m.count == 4
                    and len(placed) == 4
                    and placed[0][0] >= 0
                    and all(p[0] == placed[0][0] and p[1] != JOKER for p in placed)
                )
                for s, c, _ in placed:
                    if s < 0:
                        continue  # V500-ADDOPP-2: scores for no one
                    v = vals[c]
                    plain[s] += v
                    credit[s] += self.four_ace_value if bonus4 else v
            else:
                for s, c, pos in placed:
                    if s < 0:
                        continue
                    if c != JOKER and c & 15 == 1 and self._ace_low(m, pos):
                        v = ace_low
                    else:
                        v = vals[c]
                    credit[s] += v
                    plain[s] += v
        return credit, plain

    def _expected_scores(self) -> None:
        """Expected SCORE columns (R500-SCORE-*, V500-STOCKEND, V500-ADDOPP, V500-7STRAIGHT,
        V500-DIV5, RSTD-SCORE-1)."""
        n = self.n
        vals = self.vals
        cfg = self.cfg
        out = self.out_seat
        raw = [sum(vals[c] * k for c, k in enumerate(hc) if k) for hc in self.hands]
        bonus = [0] * n
        if self.std:
            tv = [0] * n
            plain = tv
            hv = raw
            if out >= 0:
                bonus[out] = sum(raw) - raw[out]
            hs = list(bonus)
        else:
            tv, plain = self._table_credits()
            if cfg.add_opp:
                hv = [0] * n  # V500-ADDOPP-1/3: no one subtracts hand cards
                if out >= 0:
                    bonus[out] = sum(raw) - raw[out]
                elif n == 2:
                    bonus = [raw[1], raw[0]]
            else:
                penalty = out >= 0 or cfg.hand_penalty
                hv = raw if penalty else [0] * n
            if self.seven_seat >= 0:
                bonus[self.seven_seat] += cfg.seven_bonus // cfg.divisor
            hs = [tv[s] - hv[s] + bonus[s] for s in range(n)]
        self.exp_tv, self.exp_tv_plain, self.exp_hv, self.exp_bonus, self.exp_hs = (
            tv, plain, hv, bonus, hs
        )
        self.raw_hand_value = raw

    def _check_conservation(self) -> None:
        """C-CARD-CONSERVATION: every card is in exactly one place (multiset counts)."""
        total = [0] * 65
        for c in self.stock[self.stock_pos :]:
            total[c] += 1
        for c in self.pile:
            total[c] += 1
        for c, k in self.limbo.items():
            total[c] += k
        for hc in self.hands:
            for c in range(65):
                total[c] += hc[c]
        tc = self.table_counts
        pc = self.pack_counts
        for c in range(65):
            if total[c] + tc[c] != pc.get(c, 0):
                self._fail(
                    "C-CARD-CONSERVATION",
                    f"{card_name(c)}: {total[c] + tc[c]} copies in play, pack has {pc.get(c, 0)}",
                )

    def _score(self, row: list[int]) -> None:
        if self.phase != _P_SCORE:
            self._unexpected(row)
        seat, hs, tot, tv, hv, bonus = row[1], row[2], row[3], row[4], row[5], row[6]
        if seat != self.score_seat:
            self._fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        cfg = self.cfg
        out = self.out_seat
        exp_tv = self.exp_tv[seat]
        exp_hv = self.exp_hv[seat]
        exp_bonus = self.exp_bonus[seat]
        exp_hs = self.exp_hs[seat]
        if tv != exp_tv:
            if self.std:
                rule = "RSTD-SCORE-1"  # melded cards score nothing
            elif cfg.four_aces and tv == self.exp_tv_plain[seat]:
                rule = "V500-ACE"
            elif cfg.corner and any(
                m.kind == 1 and any(p[0] == seat and p[1] & 15 == 1 and p[1] != JOKER
                                    for p in m.placed)
                for m in self.melds
            ):
                rule = "V500-CORNER"
            elif cfg.divisor != 1 and tv == exp_tv * cfg.divisor:
                rule = "V500-DIV5"
            else:
                rule = "R500-SCORE-2"
            self._flag(
                rule,
                f"seat {seat} table_value {tv}, expected {exp_tv} (credited table cards)",
            )
        if hv != exp_hv:
            if self.std:
                rule = "RSTD-SCORE-1"
            elif cfg.add_opp:
                rule = "V500-ADDOPP-1" if out >= 0 else "V500-ADDOPP-3"
            elif out < 0 and not cfg.hand_penalty and exp_hv == 0:
                rule = "V500-STOCKEND"  # r500_stock_out_hand_penalty = false
            elif out < 0 and hv == 0:
                rule = "R500-STOCK-1"  # hand cards count against them
            elif cfg.divisor != 1 and hv == exp_hv * cfg.divisor:
                rule = "V500-DIV5"
            else:
                rule = "R500-SCORE-2"
            self._flag(rule, f"seat {seat} hand_value {hv}, expected {exp_hv}")
        if bonus != exp_bonus:
            seven = cfg.seven_bonus // cfg.divisor if cfg.seven_bonus else 0
            if self.std:
                rule = "RSTD-SCORE-1"
            elif seven and (seat == self.seven_seat or bonus - exp_bonus == seven
                            or exp_bonus - bonus == seven):
                rule = "V500-7STRAIGHT"
            elif cfg.add_opp:
                rule = "V500-ADDOPP-1" if out >= 0 else "V500-ADDOPP-3"
            else:
                rule = "R500-OUT-3"  # going out earns no bonus
            self._flag(rule, f"seat {seat} bonus {bonus}, expected {exp_bonus}")
        if self.std:
            if hs != bonus:
                self._flag("RSTD-SCORE-1",
                           f"seat {seat} hand_score {hs} != bonus {bonus} (only the player who "
                           "went out scores)")
        elif hs != tv - hv + bonus:
            self._flag(
                "R500-SCORE-1",
                f"seat {seat} hand_score {hs} != table_value {tv} - hand_value {hv} + bonus "
                f"{bonus}",
            )
        if tot != self.trace_totals[seat] + hs:
            self._flag(
                "R500-SCORE-3",
                f"seat {seat} total_after {tot} != previous total "
                f"{self.trace_totals[seat]} + hand_score {hs}",
            )
        self.trace_totals[seat] = tot
        self.true_totals[seat] += exp_hs
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            if cfg.winner_deals and out >= 0:
                self.dealer = out  # V500-WINNERDEALS
            else:
                self.dealer = (self.dealer + 1) % self.n  # R500-DEAL-3, RSTD-SETUP-2
            self._decide_game_end()


# Debug aid: re-count every card after every record (slow; used by the tests on small traces).
_CHECK_CONSERVATION_EVERY_RECORD = False


_GAME_5000_NAMES = frozenset({"5000-rummy", "5000_rummy", "r5k", "5000"})


def _is_5000(flags: Mapping[str, object] | None, trace: object) -> bool:
    """5000 Rummy is checked by ``sim.validate_5k``: chosen by ``flags["game"]``, or, when the
    flags name no game, by the first GAME_START's game code 2 (docs/trace-format.md)."""
    if flags and "game" in flags:
        return flags["game"] in _GAME_5000_NAMES
    try:
        arr = np.asarray(trace)
        return bool(arr.ndim == 2 and arr.shape[0] > 0 and arr.shape[1] == 8
                    and arr[0, 0] == GAME_START and arr[0, 5] == 2)
    except Exception:  # pragma: no cover - exotic inputs are reported by trace_rows
        return False


def trace_rows(trace: object) -> tuple[list[list[int]], ValidationResult | None]:
    """(rows as plain lists, None) for a well-formed ``(n, 8)`` integer array, else
    ([], a result holding the TRACE-FORMAT violation)."""

    def bad(msg: str) -> tuple[list[list[int]], ValidationResult]:
        return [], ValidationResult(0, 0, [Violation(-1, 0, "TRACE-FORMAT", msg)])

    try:
        arr = np.asarray(trace)
    except Exception as exc:  # pragma: no cover - exotic inputs
        return bad(f"not an array: {exc}")
    if arr.ndim != 2 or arr.shape[1] != 8:
        return bad(f"trace shape {arr.shape}, expected (n, 8)")
    if arr.dtype.kind not in "iu":
        return bad(f"trace dtype {arr.dtype}, expected int32")
    if arr.shape[0] == 0:
        return bad("empty trace")
    return arr.tolist(), None


def validate_trace(
    trace: np.ndarray, flags: Mapping[str, object] | None = None
) -> ValidationResult:
    """Replay ``trace`` and check it against RULES.md under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement; every problem with
    the trace itself is reported as a :class:`Violation`.  5000 Rummy traces are replayed by
    :mod:`sim.validate_5k`.
    """
    if _is_5000(flags, trace):
        # imported here: sim.validate_5k builds on this module's card helpers and result types
        from rummysim.validate.rum5000 import validate_trace_5k

        return validate_trace_5k(trace, flags)
    cfg = _parse_flags(flags)
    rows, error = trace_rows(trace)
    if error is not None:
        return error
    rep = _Replayer(rows, cfg)
    rep.run()
    return ValidationResult(rep.games, rep.actions, rep.violations)
