"""Independent rules checker for 500 Rum traces.

This module replays a kernel trace (``docs/trace-format.md``) record by record and checks it against
the normative rules in ``RULES.md`` (§1 common concepts, §2 500 Rum base rules, the V500 variations
listed below, §8 reference tables and §9 chosen defaults).  It was written from those two documents
alone, as a second opinion on the kernels; it shares no code with them.

Public API
----------
``validate_trace(trace, flags=None) -> ValidationResult``
    ``trace`` is an integer array of shape ``(n, 8)`` holding one whole game (GAME_START ..
    GAME_END).  Several games concatenated back to back are accepted as well.  ``flags`` maps the
    RULES.md §8.6 flag names (plus ``game``, ``max_turns_per_hand`` and ``max_hands_per_game``) to
    values written as in RULES.md.  Missing flags take the RULES.md defaults.

    A malformed or illegal trace never raises: every problem becomes a :class:`Violation`.  After a
    violation that makes further replay meaningless (a card that is not where the trace says it
    is, a broken record structure, ...) the replay of that game stops.

    A flag value the checker does not implement raises :class:`ValueError` naming the flag, so an
    unchecked configuration is never silently accepted.

Implemented flags (every other flag must be absent or at its default):
``r500_num_decks`` (auto/1/2), ``r500_jokers_per_deck`` (2/1/0), ``r500_card_values``
(face/5_10_15/all5), ``r500_ace_value`` (15/25), ``r500_ace_low_value`` (auto/1/5/same),
``r500_top_card_must_be_played``, ``r500_pickup_use`` (any/new_meld), ``r500_no_pickup_to_hit``
(the preset of the previous two), ``r500_discard_restriction`` (top_single/none/any_taken),
``r500_stock_out_hand_penalty``, ``r500_stock_out_idle_turns`` ("n" or a positive int),
``r500_target`` (any positive int), ``r500_tie_rule`` (replay/goer_wins).

Rule IDs used in violations are RULES.md IDs, plus:

* ``C-CARD-CONSERVATION`` -- a card is not where the trace moves it from (card conservation);
* ``TRACE-FORMAT`` -- the trace breaks ``docs/trace-format.md`` (record kinds, field values,
  record order, counts of CARD records, TURN_START/HAND_END bookkeeping fields);
* ``ENGINE-TURN-CAP`` / ``ENGINE-HAND-CAP`` -- misuse of the engine's safety caps.

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
TURN_START = 5
DRAW_STOCK = 10
TAKE_PILE = 11
NO_DRAW = 12
MELD = 20
CARD = 21
LAYOFF = 22
DISCARD = 30
HAND_END = 40
SCORE = 41
GAME_END = 50

RECORD_NAMES: dict[int, str] = {
    GAME_START: "GAME_START",
    HAND_START: "HAND_START",
    DECK: "DECK",
    TURN_START: "TURN_START",
    DRAW_STOCK: "DRAW_STOCK",
    TAKE_PILE: "TAKE_PILE",
    NO_DRAW: "NO_DRAW",
    MELD: "MELD",
    CARD: "CARD",
    LAYOFF: "LAYOFF",
    DISCARD: "DISCARD",
    HAND_END: "HAND_END",
    SCORE: "SCORE",
    GAME_END: "GAME_END",
}

# Number of meaningful columns after column 0; the rest must be 0 ("unused columns are 0").
# DECK is special (unused card slots are -1) and is checked separately.
_USED_COLS: dict[int, int] = {
    GAME_START: 4,
    HAND_START: 5,
    TURN_START: 4,
    DRAW_STOCK: 2,
    TAKE_PILE: 4,
    NO_DRAW: 1,
    MELD: 6,
    CARD: 4,
    LAYOFF: 3,
    DISCARD: 2,
    HAND_END: 3,
    SCORE: 5,
    GAME_END: 3,
}

# Records counted in ValidationResult.actions_checked.
_ACTION_KINDS = frozenset(
    {DRAW_STOCK, TAKE_PILE, NO_DRAW, MELD, LAYOFF, CARD, DISCARD, HAND_END, SCORE}
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
    actions_checked: int  # draws, melds, lay-offs, cards, discards, hand ends, scores
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


# --------------------------------------------------------------------------------------------
# Flags (RULES.md §8.6)
# --------------------------------------------------------------------------------------------

_BOOL = "bool"
_INT = "int"

# flag -> (type, default, implemented values or None for "any positive int")
_FLAG_SPECS: dict[str, tuple[str, Any, Any]] = {
    "r500_num_decks": ("str|int", "auto", {"auto", 1, 2}),  # V500-DECKS
    "r500_jokers_per_deck": (_INT, 2, {2, 1, 0}),  # V500-JOKERS
    "r500_card_values": ("str", "face", {"face", "5_10_15", "all5"}),  # V500-VALUES
    "r500_ace_value": (_INT, 15, {15, 25}),  # V500-ACE
    "r500_ace_low_value": ("str|int", "auto", {"auto", 1, 5, "same"}),  # V500-ACE
    "r500_four_aces_100": (_BOOL, False, {False}),
    "r500_score_divisor": (_INT, 1, {1}),
    "r500_top_card_must_be_played": (_BOOL, False, {False, True}),  # V500-TOPMUST
    "r500_pickup_use": ("str", "any", {"any", "new_meld"}),  # V500-NEWMELD
    "r500_no_pickup_to_hit": (_BOOL, False, {False, True}),  # V500-NOHIT preset
    "r500_discard_restriction": ("str", "top_single", {"top_single", "none", "any_taken"}),
    "r500_call_rummy": ("str", "off", {"off"}),
    "r500_going_out": ("str", "any", {"any"}),
    "r500_unplayable_discard": (_BOOL, False, {False}),
    "r500_must_go_out_to_win": (_BOOL, False, {False}),
    "r500_first_meld_min": (_INT, 0, {0}),
    "r500_min_new_run": (_INT, 3, {3}),
    "r500_round_the_corner": (_BOOL, False, {False}),
    "r500_boathouse": (_BOOL, False, {False}),
    "r500_stock_draw_count": (_INT, 1, {1}),
    "r500_end_of_stock": ("str", "pile_or_end", {"pile_or_end"}),
    "r500_stock_out_hand_penalty": (_BOOL, True, {True, False}),  # V500-STOCKEND
    "r500_stock_out_idle_turns": ("str|int", "n", None),  # R500-STOCK-2: "n" or int > 0
    "r500_add_opponent_hand": (_BOOL, False, {False}),
    "r500_addopp_stock_out": ("str", "by_player_count", {"by_player_count"}),
    "r500_seven_straight_bonus": (_INT, 0, {0}),
    "r500_target": (_INT, 500, None),  # V500-TARGET: any positive int
    "r500_tie_rule": ("str", "replay", {"replay", "goer_wins"}),  # V500-TIE
    "r500_meld_out_of_turn": (_BOOL, False, {False}),
    "r500_upcard_mode": ("str", "stock", {"stock"}),
    "r500_next_dealer": ("str", "left", {"left"}),
    "r500_dealers_gambit": (_BOOL, False, {False}),
    "r500_gambit_jokers": (_INT, 2, {2}),
    "r500_partnership": (_BOOL, False, {False}),
    "r500_partner_layoff": ("str", "any", {"any"}),
    "r500_persian": (_BOOL, False, {False}),
}

_ENGINE_DEFAULTS = {"max_turns_per_hand": 1000, "max_hands_per_game": 200}
_IGNORED_PREFIXES = ("r5k_", "rkub_", "std_")


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
    decks_mode: Any  # "auto", 1 or 2
    jokers_per_deck: int
    card_values: str
    ace_value: int
    ace_low_value: int  # resolved
    top_must: bool
    new_meld: bool
    discard_restriction: str
    hand_penalty: bool
    idle_turns: Any  # "n" or int
    target: int
    tie_rule: str
    max_turns: int
    max_hands: int


def _parse_flags(flags: Mapping[str, object] | None) -> _Config:
    vals: dict[str, Any] = {k: spec[1] for k, spec in _FLAG_SPECS.items()}
    explicit: set[str] = set()
    engine = dict(_ENGINE_DEFAULTS)
    for name, raw in (flags or {}).items():
        if name == "game":
            if raw not in ("500-rum", "500_rum", "r500"):
                raise ValueError(f"flag game: value {raw!r} is not checked (only '500-rum')")
            continue
        if name in engine:
            v = _norm_value(name, _INT, raw)
            if v <= 0:
                raise ValueError(f"flag {name}: value {raw!r} must be a positive integer")
            engine[name] = v
            continue
        if name.startswith(_IGNORED_PREFIXES):
            continue
        spec = _FLAG_SPECS.get(name)
        if spec is None:
            raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
        kind, _default, allowed = spec
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
        vals[name] = v
        explicit.add(name)

    # V500-NOHIT preset: sets pickup_use=new_meld and top_card_must_be_played=true; a flag set
    # explicitly overrides the preset (RULES.md §3 preamble).
    if vals["r500_no_pickup_to_hit"]:
        if "r500_pickup_use" not in explicit:
            vals["r500_pickup_use"] = "new_meld"
        if "r500_top_card_must_be_played" not in explicit:
            vals["r500_top_card_must_be_played"] = True

    ace_value = vals["r500_ace_value"]
    low = vals["r500_ace_low_value"]
    if low == "auto":  # V500-ACE: 1 under face, 5 under 5_10_15 / all5
        low = 1 if vals["r500_card_values"] == "face" else 5
    elif low == "same":
        low = ace_value
    return _Config(
        decks_mode=vals["r500_num_decks"],
        jokers_per_deck=vals["r500_jokers_per_deck"],
        card_values=vals["r500_card_values"],
        ace_value=ace_value,
        ace_low_value=low,
        top_must=bool(vals["r500_top_card_must_be_played"]),
        new_meld=vals["r500_pickup_use"] == "new_meld",
        discard_restriction=vals["r500_discard_restriction"],
        hand_penalty=bool(vals["r500_stock_out_hand_penalty"]),
        idle_turns=vals["r500_stock_out_idle_turns"],
        target=vals["r500_target"],
        tie_rule=vals["r500_tie_rule"],
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )


def _value_table(cfg: _Config) -> list[int]:
    """Card value in hand / in a set / high in a run (R500-SCORE-2, V500-VALUES, V500-ACE)."""
    vals = [0] * 65
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
        vals[card] = v
    vals[JOKER] = 15  # a joker is 15 whatever it represents
    return vals


# --------------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------------


class _Stop(Exception):
    """Raised internally after a violation that makes further replay of the game meaningless."""


# replay phases (what the next record may be)
_P_GAME_START = 0  # expecting GAME_START
_P_HAND_START = 1  # expecting HAND_START (first hand, or after scores with the game going on)
_P_DECK = 2  # reading DECK records
_P_TURN = 3  # expecting TURN_START (or HAND_END)
_P_DRAW = 4  # after TURN_START: one draw record
_P_PLAY = 5  # after the draw: MELD / LAYOFF / DISCARD
_P_CARDS = 6  # inside a MELD/LAYOFF group: CARD records
_P_OUT = 7  # the player went out: only HAND_END may follow (R500-OUT-1)
_P_NODRAW = 8  # NO_DRAW: only HAND_END may follow (R500-STOCK-1)
_P_SCORE = 9  # SCORE records
_P_GAME_OVER = 10  # after scores when the game must end: GAME_END
_P_DONE = 11  # after GAME_END

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
}


class _Meld:
    """A meld on the table.  Runs: positions lo..hi, all occupied (R500-MELD-3)."""

    __slots__ = ("kind", "key", "lo", "hi", "count", "suits")

    def __init__(self, kind: int, key: int, lo: int, hi: int, count: int, suits: int) -> None:
        self.kind = kind  # 0 set, 1 run
        self.key = key  # set: rank; run: suit
        self.lo = lo
        self.hi = hi
        self.count = count
        self.suits = suits  # set: bit mask of the natural suits present (R500-MELD-2)


class _Replayer:
    def __init__(self, rows: list[list[int]], cfg: _Config) -> None:
        self.rows = rows
        self.cfg = cfg
        self.vals = _value_table(cfg)
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
        self._dispatch = {
            GAME_START: self._game_start,
            HAND_START: self._hand_start,
            DECK: self._deck,
            TURN_START: self._turn_start,
            DRAW_STOCK: self._draw_stock,
            TAKE_PILE: self._take_pile,
            NO_DRAW: self._no_draw,
            MELD: self._meld,
            LAYOFF: self._layoff,
            CARD: self._card,
            DISCARD: self._discard,
            HAND_END: self._hand_end,
            SCORE: self._score,
            GAME_END: self._game_end,
        }

    # ---- violation helpers --------------------------------------------------------------

    def _flag(self, rule: str, msg: str) -> None:
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
        if ph == _P_OUT:
            rule = "R500-OUT-1"  # the hand ends at once when a player goes out
            msg = f"{name} after seat {self.out_seat} went out; only HAND_END may follow"
        elif ph == _P_NODRAW:
            rule = "R500-STOCK-1"  # NO_DRAW ends the hand at once
            msg = f"{name} after NO_DRAW; the hand must end at once"
        elif ph == _P_DRAW and kind in (MELD, LAYOFF, DISCARD):
            rule = "R500-DRAW-1"
            msg = f"{name} before the turn's draw"
        elif ph == _P_PLAY and kind in (DRAW_STOCK, TAKE_PILE, NO_DRAW):
            rule = "R500-DRAW-1"
            msg = f"second draw {name} in one turn"
        elif ph == _P_PLAY and kind in (TURN_START, HAND_END):
            rule = "R500-DISC-1"
            msg = f"{name} before the turn's discard (seat {self.cur} still holds cards)"
        elif ph == _P_TURN and kind == TURN_START and self.end_due:
            rule = self._end_rule(self.end_due)
            msg = f"hand must end here ({self._end_text(self.end_due)}) but another turn starts"
        elif ph == _P_GAME_OVER and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            msg = f"game must end (winner seat {self.exp_winner}) but another hand is dealt"
        else:
            msg = f"unexpected {name} record ({_PHASE_NAMES.get(ph, ph)})"
        self._fail(rule, msg)

    @staticmethod
    def _end_rule(reason: int) -> str:
        return {1: "R500-OUT-1", 2: "R500-STOCK-1", 3: "R500-STOCK-2", 4: "ENGINE-TURN-CAP"}.get(
            reason, "TRACE-FORMAT"
        )

    def _end_text(self, reason: int) -> str:
        if reason == 3:
            return f"{self.idle} consecutive idle turns with an empty stock (R500-STOCK-2)"
        if reason == 4:
            return f"turn cap max_turns_per_hand={self.cfg.max_turns} reached"
        if reason == 1:
            return f"seat {self.out_seat} went out"
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
        n, first_dealer, target = row[1], row[2], row[4]
        cfg = self.cfg
        if not 2 <= n <= 8:
            self._fail("R500-SETUP-1", f"{n} players; 500 Rum is for 2-8 players")
        if not 0 <= first_dealer < n:
            self._fail("TRACE-FORMAT", f"first_dealer {first_dealer} is not a seat")
        if target != cfg.target:
            self._flag("V500-TARGET", f"GAME_START target {target} but r500_target={cfg.target}")
        self.n = n
        self.first_dealer = first_dealer
        # R500-SETUP-2 / V500-DECKS: 1 deck for 2-4 players, 2 for 5-8 unless set explicitly
        decks = (1 if n <= 4 else 2) if cfg.decks_mode == "auto" else cfg.decks_mode
        jokers = decks * cfg.jokers_per_deck  # R500-SETUP-3 / V500-JOKERS
        self.exp_pack = Counter({c: decks for c in _NATURAL_IDS})
        if jokers:
            self.exp_pack[JOKER] = jokers
        self.exp_pack_size = 52 * decks + jokers
        self.exp_deal = 13 if n == 2 else 7  # R500-DEAL-1
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
        """R500-END-1/2, V500-TIE and the engine hand cap, after the last SCORE of a hand."""
        totals = self.true_totals
        target = self.cfg.target
        top = max(totals)
        winner = -1
        self.goer_won = False
        if top >= target:
            if self.cfg.tie_rule == "goer_wins":
                reached = [s for s in range(self.n) if totals[s] >= target]
                if len(reached) >= 2 and self.out_seat in reached:
                    winner = self.out_seat  # V500-TIE goer_wins
                    self.goer_won = True
            if winner < 0:
                leaders = [s for s in range(self.n) if totals[s] == top]
                if len(leaders) == 1:
                    winner = leaders[0]  # R500-END-1
                # else: R500-END-2, another hand is dealt
        self.tied = top >= target and winner < 0
        if winner >= 0:
            self.exp_winner, self.exp_capped = winner, 0
            self.phase = _P_GAME_OVER
        elif self.hands_played >= self.cfg.max_hands:
            self.exp_winner, self.exp_capped = -1, 1
            self.phase = _P_GAME_OVER
        else:
            self.exp_winner, self.exp_capped = -1, 0
            self.phase = _P_HAND_START

    def _winner_rule(self) -> str:
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
            # R500-DEAL-3: the next hand is dealt by the player left of the current dealer
            self._fail("R500-DEAL-3", f"dealer {dealer}, expected seat {self.dealer}")
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

    def _deck(self, row: list[int]) -> None:
        if self.phase != _P_DECK:
            self._unexpected(row)
        off = row[1]
        pack = self.pack
        ps = self.pack_size
        for j in range(6):
            c = row[2 + j]
            if c == -1:
                continue  # unused slot
            p = off + j
            if not 0 <= p < ps:
                self._fail("TRACE-FORMAT", f"DECK card at pack position {p} >= pack_size {ps}")
            if not (0 <= c <= 64 and _VALID_CARD[c]):
                self._fail("TRACE-FORMAT", f"invalid card id {c} in DECK")
            if pack[p] != -1:
                self._fail("TRACE-FORMAT", f"pack position {p} given twice")
            pack[p] = c
            self.pack_filled += 1
        if self.pack_filled == ps:
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
        for i in range(n):  # dealing convention of the trace spec
            seat = (self.dealer + 1 + i) % n
            hc = hands[seat]
            for c in pack[i * d : (i + 1) * d]:
                hc[c] += 1
        self.hands = hands
        self.hand_size = [d] * n
        self.pile = [pack[n * d]]  # the upcard is pile index 0 (R500-DEAL-2, C-PILE-3)
        self.stock = pack  # stock = pack positions n*d+1 ..
        self.stock_pos = n * d + 1
        self.table_counts = [0] * 65
        self.melds: list[_Meld] = []
        self.credit = [0] * n  # table value credited to each seat (C-MELD-5)
        self.turns = 0
        self.idle = 0
        self.end_due = 0  # reason the hand must end now (0: none)
        self.out_seat = -1
        self.next_seat = (self.dealer + 1) % n  # R500-TURN-1
        self.cur = -1
        self.phase = _P_TURN

    # ---- turns --------------------------------------------------------------------------

    def _turn_start(self, row: list[int]) -> None:
        if self.phase == _P_DECK:
            self._fail(
                "TRACE-FORMAT",
                f"DECK records give {self.pack_filled} of {self.pack_size} pack positions",
            )
        if self.phase != _P_TURN or self.end_due:
            self._unexpected(row)
        seat, turn_no, stock_size, pile_size = row[1], row[2], row[3], row[4]
        n = self.n
        if not 0 <= seat < n:
            self._fail("TRACE-FORMAT", f"TURN_START seat {seat} is not a seat")
        if seat != self.next_seat:
            # R500-TURN-1 / C-TURN-1: play moves clockwise
            self._flag("R500-TURN-1", f"seat {seat} plays; expected seat {self.next_seat}")
        if turn_no != self.turns:
            self._flag("TRACE-FORMAT", f"turn_no {turn_no}, expected {self.turns}")
        stock_left = self.pack_size - self.stock_pos
        if stock_size != stock_left:
            self._flag("TRACE-FORMAT", f"TURN_START stock_size {stock_size}, replay has {stock_left}")
        if pile_size != len(self.pile):
            self._flag(
                "TRACE-FORMAT", f"TURN_START pile_size {pile_size}, replay has {len(self.pile)}"
            )
        self.cur = seat
        self.next_seat = (seat + 1) % n
        self.turns += 1
        self.start_stock_empty = stock_left == 0
        self.put_on_table = False
        self.duty_sel = -1  # card that must be melded this turn (R500-DRAW-3), -1: none
        self.duty_rule = ""
        self.duty_missed_first = False
        self.first_play_done = False
        self.restricted: dict[int, int] = {}  # taken cards that may not be discarded
        self.phase = _P_DRAW

    def _check_seat(self, seat: int) -> None:
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"record for seat {seat} during seat {self.cur}'s turn")

    def _draw_stock(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        card = row[2]
        if self.stock_pos >= self.pack_size:
            self._fail("R500-STOCK-1", "DRAW_STOCK from an empty stock")
        top = self.stock[self.stock_pos]
        if card != top:
            # C-PILE-1: a stock draw takes the top card, i.e. the lowest undrawn pack position
            self._fail(
                "C-CARD-CONSERVATION",
                f"DRAW_STOCK of {card_name(card)} but the top stock card "
                f"(pack position {self.stock_pos}) is {card_name(top)} (C-PILE-1)",
            )
        self.stock_pos += 1
        self.hands[self.cur][card] += 1
        self.hand_size[self.cur] += 1
        self.phase = _P_PLAY

    def _take_pile(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        k, n_taken, sel = row[2], row[3], row[4]
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
        taken = pile[k:]
        del pile[k:]  # C-PILE-4: cards k..top, order kept
        hc = self.hands[self.cur]
        for c in taken:
            hc[c] += 1
        self.hand_size[self.cur] += len(taken)
        top_only = k == size - 1
        cfg = self.cfg
        if not top_only:
            self.duty_sel = sel  # R500-DRAW-3 / C-TURN-4
            self.duty_rule = "R500-DRAW-3"
        elif cfg.top_must:
            self.duty_sel = sel  # V500-TOPMUST: R500-DRAW-3 also for the top card alone
            self.duty_rule = "V500-TOPMUST"
        if cfg.discard_restriction == "top_single":
            if top_only:
                self.restricted = {sel: 1}  # R500-DISC-2
        elif cfg.discard_restriction == "any_taken":
            self.restricted = dict(Counter(taken))  # V500-DISCSAME any_taken
        self.phase = _P_PLAY

    def _no_draw(self, row: list[int]) -> None:
        if self.phase != _P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        if not self.start_stock_empty:
            # R500-STOCK-1: NO_DRAW only when the stock is empty at turn start
            self._flag(
                "R500-STOCK-1",
                f"NO_DRAW with {self.pack_size - self.stock_pos} cards in the stock",
            )
        self.end_due = 2
        self.phase = _P_NODRAW

    # ---- melds and lay-offs -------------------------------------------------------------

    def _meld(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
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
        self.group_need = n_cards
        self.group_cards: list[tuple[int, int]] = []
        self.phase = _P_CARDS

    def _layoff(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        meld_id, n_cards = row[2], row[3]
        if not 0 <= meld_id < len(self.melds):
            self._fail("TRACE-FORMAT", f"LAYOFF on meld {meld_id}, which is not on the table")
        if not 1 <= n_cards <= 108:
            self._fail("TRACE-FORMAT", f"LAYOFF n_cards {n_cards}")
        m = self.melds[meld_id]
        self.group = (LAYOFF, meld_id, m.kind, m.key, 0)
        self.group_need = n_cards
        self.group_cards = []
        self.phase = _P_CARDS

    def _card(self, row: list[int]) -> None:
        if self.phase != _P_CARDS:
            self._unexpected(row)
        seat, meld_id, card, pos = row[1], row[2], row[3], row[4]
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"CARD for seat {seat} in seat {self.cur}'s group")
        if meld_id != self.group[1]:
            self._fail("TRACE-FORMAT", f"CARD for meld {meld_id} inside a group for {self.group[1]}")
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
            if self.group[0] == MELD:
                self._finish_meld()
            else:
                self._finish_layoff()
            self._after_group()

    def _card_value_on_table(self, card: int, kind: int, pos: int) -> int:
        """R500-SCORE-2: a natural ace at run position 1 is "used low"."""
        if kind == 1 and pos == 1 and card != JOKER:
            return self.cfg.ace_low_value
        return self.vals[card]

    @staticmethod
    def _wrap_attempt(positions: set[int] | range) -> bool:
        """True if the positions would form a run only by going round the corner (K-A-2).

        Ranks (position 14 read as the ace, rank 1) form a cyclic interval holding both K and A
        that is not a plain interval: forbidden by R500-MELD-4 (V500-CORNER is not supported).
        """
        ranks = {p if p <= 13 else 1 for p in positions if 1 <= p <= 14}
        if 1 not in ranks or 13 not in ranks or len(ranks) == 13:
            return False
        gap = [r for r in range(1, 14) if r not in ranks]
        return gap[-1] - gap[0] + 1 == len(gap)

    def _finish_meld(self) -> None:
        _, meld_id, kind, key, lo = self.group
        cards = self.group_cards
        n = len(cards)
        seat = self.cur
        credit = 0
        if kind == 0:  # set: R500-MELD-1/2/6
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
                credit += self.vals[c]
            self.melds.append(_Meld(0, key, 0, 0, n, suits))
        else:  # run: R500-MELD-3/4/5
            positions: set[int] = set()
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
                credit += self._card_value_on_table(c, 1, pos)
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
                    self._flag("R500-MELD-4", f"run round the corner: positions {sorted(positions)}")
                else:
                    self._flag(
                        "R500-MELD-3",
                        f"run positions {sorted(positions)} are not consecutive from lo={lo}",
                    )
            # keep the table state within positions 1..14 even after a reported violation
            valid = [p for p in positions if 1 <= p <= 14]
            lo_s, hi_s = (min(valid), max(valid)) if valid else (1, 1)
            self.melds.append(_Meld(1, key, lo_s, hi_s, n, 0))
        self.credit[seat] += credit

    def _finish_layoff(self) -> None:
        _, meld_id, kind, key, _ = self.group
        m = self.melds[meld_id]
        cards = self.group_cards
        n = len(cards)
        credit = 0
        if kind == 0:  # set: R500-MELD-8 (max 4), R500-MELD-2
            if m.count + n > 4:
                self._flag(
                    "R500-MELD-8",
                    f"lay-off of {n} card(s) makes set {meld_id} {m.count + n} cards (max 4)",
                )
            for c, pos in cards:
                if pos != 0:
                    self._flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
                if c != JOKER:
                    if c & 15 != key:
                        self._flag(
                            "R500-MELD-8",
                            f"{card_name(c)} laid off on a set of rank {_RANKS[key - 1]}",
                        )
                    bit = 1 << (c >> 4)
                    if m.suits & bit:
                        self._flag(
                            "R500-MELD-2", f"{card_name(c)} repeats a suit in set {meld_id}"
                        )
                    m.suits |= bit
                credit += self.vals[c]
            m.count += n
        else:  # run: extended at either end only (R500-MELD-8), no rearranging (R500-MELD-9)
            positions: set[int] = set()
            problem = ""
            rule = "R500-MELD-8"
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
                            "R500-MELD-8",
                            f"{card_name(c)} does not fit position {pos} of a {_SUITS[key]} run",
                        )
                credit += self._card_value_on_table(c, 1, pos)
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
                m.lo, m.hi = new_lo, new_hi
            if problem:
                self._flag(rule, f"lay-off on run {meld_id}: {problem}")
            m.count += n
        self.credit[self.cur] += credit

    def _after_group(self) -> None:
        """Bookkeeping after a MELD/LAYOFF group: duties, restrictions, going out."""
        cards = self.group_cards
        self.put_on_table = True  # resets the idle count (R500-STOCK-2)
        sel = self.duty_sel
        if sel >= 0:
            contains = any(c == sel for c, _ in cards)
            if not self.first_play_done:
                if contains:
                    # V500-NEWMELD: the selected card goes into a new meld, never a lay-off
                    if self.cfg.new_meld and self.group[0] == LAYOFF:
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
        restricted = self.restricted
        if restricted:
            for c, _ in cards:
                r = restricted.get(c)
                if r:  # assume the taken copy went to the table (copies are interchangeable)
                    restricted[c] = r - 1
        if self.hand_size[self.cur] == 0:
            self._went_out()
        else:
            self.phase = _P_PLAY

    def _went_out(self) -> None:
        """R500-OUT-1: the hand ends at once."""
        self._check_duty_at_turn_end()
        self.out_seat = self.cur
        self.end_due = 1
        self.phase = _P_OUT

    def _check_duty_at_turn_end(self) -> None:
        sel = self.duty_sel
        if sel >= 0:
            rule = self.duty_rule
            what = "a card below the top" if rule == "R500-DRAW-3" else "the top card"
            self._flag(
                rule,
                f"took {what} ({card_name(sel)}) from the discard pile but did not meld it this "
                "turn (R500-DRAW-3/5, C-LEGAL-1)",
            )
            self.duty_sel = -1

    # ---- discard and end of turn --------------------------------------------------------

    def _discard(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        card = row[2]
        if not (0 <= card <= 64 and _VALID_CARD[card]):
            self._fail("TRACE-FORMAT", f"invalid card id {card}")
        seat = self.cur
        hc = self.hands[seat]
        held = hc[card]
        if held <= 0:
            self._fail(
                "C-CARD-CONSERVATION", f"seat {seat} discards {card_name(card)} but does not hold it"
            )
        r = self.restricted.get(card, 0)
        if r and r >= held:  # every copy held is a restricted taken card
            if self.cfg.discard_restriction == "top_single":
                self._flag(
                    "R500-DISC-2",
                    f"discards {card_name(card)}, the top card taken alone this turn",
                )
            else:
                self._flag(
                    "V500-DISCSAME",
                    f"discards {card_name(card)}, taken from the pile this turn (any_taken)",
                )
        self._check_duty_at_turn_end()
        hc[card] = held - 1
        self.hand_size[seat] -= 1
        self.pile.append(card)  # C-PILE-2: each discard goes on top
        if self.hand_size[seat] == 0:
            self.out_seat = seat  # R500-OUT-1: out by discarding the last card
            self.end_due = 1
            self.phase = _P_OUT
            return
        # R500-STOCK-2 idle guard as the trace spec reads it
        if self.start_stock_empty and not self.put_on_table:
            self.idle += 1
        else:
            self.idle = 0
        if self.idle >= self.idle_limit:
            self.end_due = 3
        elif self.turns >= self.cfg.max_turns:
            self.end_due = 4  # engine turn cap
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
        if reason not in (1, 2, 3, 4):
            self._fail("TRACE-FORMAT", f"HAND_END reason {reason}")
        # does the condition the trace claims hold?  (idle guard and turn cap may fire after the
        # same turn: either reason is accepted then)
        claimed_holds = reason == due or (
            reason == 4 and due == 3 and self.turns >= self.cfg.max_turns
        )
        if not claimed_holds:
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
                self._flag(
                    "R500-STOCK-2",
                    f"idle-guard HAND_END after {self.idle} consecutive idle turn(s); the guard "
                    f"needs {self.idle_limit}",
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
        # expected SCORE values (R500-SCORE-1/2, V500-STOCKEND hand penalty)
        vals = self.vals
        penalty = self.out_seat >= 0 or self.cfg.hand_penalty
        self.exp_hand_value = [
            sum(vals[c] * k for c, k in enumerate(hc) if k) if penalty else 0 for hc in self.hands
        ]
        self.raw_hand_value = [sum(vals[c] * k for c, k in enumerate(hc) if k) for hc in self.hands]
        self.score_seat = 0
        self.phase = _P_SCORE

    def _check_conservation(self) -> None:
        """C-CARD-CONSERVATION: every card is in exactly one place (multiset counts)."""
        total = [0] * 65
        for c in self.stock[self.stock_pos :]:
            total[c] += 1
        for c in self.pile:
            total[c] += 1
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
        seat, hs, tot, tv, hv = row[1], row[2], row[3], row[4], row[5]
        if seat != self.score_seat:
            self._fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        exp_tv = self.credit[seat]
        exp_hv = self.exp_hand_value[seat]
        if tv != exp_tv:
            self._flag(
                "R500-SCORE-2",
                f"seat {seat} table_value {tv}, expected {exp_tv} (credited table cards)",
            )
        if hv != exp_hv:
            if self.out_seat < 0 and not self.cfg.hand_penalty and exp_hv == 0:
                rule = "V500-STOCKEND"  # r500_stock_out_hand_penalty = false
            elif self.out_seat < 0 and hv == 0:
                rule = "R500-STOCK-1"  # hand cards count against them
            else:
                rule = "R500-SCORE-2"
            self._flag(rule, f"seat {seat} hand_value {hv}, expected {exp_hv}")
        if hs != tv - hv:
            self._flag(
                "R500-SCORE-1", f"seat {seat} hand_score {hs} != table_value {tv} - hand_value {hv}"
            )
        if tot != self.trace_totals[seat] + hs:
            self._flag(
                "R500-SCORE-3",
                f"seat {seat} total_after {tot} != previous total "
                f"{self.trace_totals[seat]} + hand_score {hs}",
            )
        self.trace_totals[seat] = tot
        self.true_totals[seat] += exp_tv - exp_hv
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            self.dealer = (self.dealer + 1) % self.n  # R500-DEAL-3
            self._decide_game_end()


# Debug aid: re-count every card after every record (slow; used by the tests on small traces).
_CHECK_CONSERVATION_EVERY_RECORD = False


def validate_trace(
    trace: np.ndarray, flags: Mapping[str, object] | None = None
) -> ValidationResult:
    """Replay ``trace`` and check it against RULES.md under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement; every problem with
    the trace itself is reported as a :class:`Violation`.
    """
    cfg = _parse_flags(flags)
    try:
        arr = np.asarray(trace)
    except Exception as exc:  # pragma: no cover - exotic inputs
        return ValidationResult(0, 0, [Violation(-1, 0, "TRACE-FORMAT", f"not an array: {exc}")])
    if arr.ndim != 2 or arr.shape[1] != 8:
        return ValidationResult(
            0, 0, [Violation(-1, 0, "TRACE-FORMAT", f"trace shape {arr.shape}, expected (n, 8)")]
        )
    if arr.dtype.kind not in "iu":
        return ValidationResult(
            0, 0, [Violation(-1, 0, "TRACE-FORMAT", f"trace dtype {arr.dtype}, expected int32")]
        )
    if arr.shape[0] == 0:
        return ValidationResult(0, 0, [Violation(-1, 0, "TRACE-FORMAT", "empty trace")])
    rows: list[list[int]] = arr.tolist()
    rep = _Replayer(rows, cfg)
    rep.run()
    return ValidationResult(rep.games, rep.actions, rep.violations)
