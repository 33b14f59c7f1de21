"""Independent rules checker for 5000 Rummy traces (game code 2).

``sim.validate.validate_trace`` hands 5000 Rummy traces to :func:`validate_trace_5k`, which replays
them record by record against RULES.md §4 (base rules), §5 (variations V5K-2..8, V5K-10..12), §8
(tables), §9 (AMB-28..37) and the "5000 Rummy" section of docs/trace-format.md.  Like the 500 Rum
checker it was written from those two documents alone, as a second opinion on the engine; it shares
only the card helpers, record constants and result types of ``sim.validate``.

Flags: ``r5k_target`` (auto or a positive int), ``r5k_must_go_out_to_win``, ``r5k_rummy``,
``r5k_going_out``, ``r5k_michigan``, ``r5k_polish``, ``r5k_first_turn``, ``r5k_money_cards`` and
``r5k_payoff`` (a stakes flag, V5K-1: play is unchanged, so every value is accepted), plus the
engine caps.  V5K-9 Persian 5000 and the stakes layers V5K-13/14 are not checked: those flags, and
every flag of another game, must hold their defaults, otherwise ``ValueError`` names the flag.

Rule IDs in violations are RULES.md IDs plus ``C-CARD-CONSERVATION`` (a card is not where the trace
moves it from; every one of the 104 cards is in exactly one place: stock, pile, a hand, a meld
slot), ``TRACE-FORMAT`` and ``ENGINE-TURN-CAP`` / ``ENGINE-HAND-CAP``.  The readings this checker
had to choose are listed in docs/rules-decisions.md (validator section, V15 onwards).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, NoReturn

from rummysim.validate.rum500 import (
    CARD,
    DECK,
    DISCARD,
    DRAW_STOCK,
    EXCHANGE,
    FACE_UP,
    FLOAT,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOIN,
    LAYOFF,
    MELD,
    NO_DRAW,
    RECORD_NAMES,
    SCORE,
    TAKE_ALL,
    TAKE_PILE,
    TRADE,
    TURN_START,
    ValidationResult,
    Violation,
    _ENGINE_DEFAULTS,
    _FLAG_SPECS,
    _NATURAL_IDS,
    _OTHER_DEFAULTS,
    _RANKS,
    _STD_SPECS,
    _SUITS,
    _norm_value,
    card_name,
    trace_rows,
)

__all__ = ["validate_trace_5k"]

# Number of meaningful columns after column 0 (the rest must be 0); DECK is checked separately.
_USED_COLS: dict[int, int] = {
    GAME_START: 5,
    HAND_START: 6,
    FACE_UP: 3,
    TURN_START: 5,
    DRAW_STOCK: 2,
    TAKE_PILE: 4,
    NO_DRAW: 2,
    TAKE_ALL: 2,
    EXCHANGE: 3,
    MELD: 6,
    CARD: 4,
    LAYOFF: 4,
    JOIN: 4,
    TRADE: 5,
    DISCARD: 2,
    FLOAT: 1,
    HAND_END: 3,
    SCORE: 6,
    GAME_END: 4,
}
_ACTION_KINDS = frozenset(_USED_COLS) - {GAME_START, HAND_START, TURN_START, GAME_END}

PACK_SIZE = 104  # R5K-SETUP-2: two 52-card decks, no jokers
GROUP, SEQUENCE, WILD_GROUP = 2, 3, 4  # MELD kinds
QH, SEVEN_H = 16 * 2 + 12, 16 * 2 + 7  # V5K-12 money cards
_KIND_NAMES = {GROUP: "group", SEQUENCE: "sequence", WILD_GROUP: "wild-card group"}
_NATURAL = [False] * 64
for _c in _NATURAL_IDS:
    _NATURAL[_c] = True


def _rank_at(pos: int) -> int:
    """Rank of sequence position ``pos`` (1..13 as is, 14 the ace above the K)."""
    return 1 if pos == 14 else pos


def _positions_of(card: int) -> tuple[int, ...]:
    """Sequence positions a natural card may occupy (an ace: below the 2 or above the K)."""
    r = card & 15
    return (1, 14) if r == 1 else (r,)


def _dealt_hand_size(face_up: int) -> int:
    """R5K-DEAL-1 (§8.2): 12 for an ace, 11 for K/Q/J/10, rank + 1 for 2..9."""
    r = face_up & 15
    return 12 if r == 1 else 11 if r >= 10 else r + 1


def _card_values(wild: int) -> list[int]:
    """R5K-VAL-1/2: naturals K..8 = 10, 7..2 = 5, A = 200; wild cards 100, 200 with Q or 10
    wild, 400 with A wild (replacing the natural value)."""
    wild_value = 400 if wild == 1 else 200 if wild in (10, 12) else 100
    vals = [0] * 64
    for c in _NATURAL_IDS:
        r = c & 15
        vals[c] = wild_value if r == wild else 200 if r == 1 else 10 if r >= 8 else 5
    return vals


def _natural_values() -> list[int]:
    """R5K-VAL-1 for every card, wild or not (to name R5K-VAL-2 when a wild card is
    valued as a natural one)."""
    return _card_values(0)


# --------------------------------------------------------------------------------------------
# Flags
# --------------------------------------------------------------------------------------------

_BOOL = "bool"
# flag -> (kind, default, accepted values; None: "auto" or a positive int)
_R5K_SPECS: dict[str, tuple[str, Any, Any]] = {
    "r5k_target": ("str|int", "auto", None),  # R5K-GAME-1
    "r5k_payoff": ("str", "difference", {"difference", "game_point"}),  # V5K-1 [STAKES]
    "r5k_must_go_out_to_win": (_BOOL, False, {False, True}),  # V5K-2
    "r5k_rummy": ("str", "off", {"off", "top_card", "any_cards"}),  # V5K-3/4
    "r5k_going_out": ("str", "any", {"any", "unmeldable_discard", "meld_all"}),  # V5K-5/6
    "r5k_michigan": (_BOOL, False, {False, True}),  # V5K-7
    "r5k_polish": (_BOOL, False, {False, True}),  # V5K-8
    "r5k_persian": (_BOOL, False, {False}),  # V5K-9: not checked
    "r5k_first_turn": ("str", "upcard", {"upcard", "extra_card", "exchange_upcard"}),  # V5K-10/11
    "r5k_money_cards": (_BOOL, False, {False, True}),  # V5K-12
    "r5k_doubling": (_BOOL, False, {False}),  # V5K-13 [STAKES]: a fold ends a hand; not traced
    "r5k_limit_poker": (_BOOL, False, {False}),  # V5K-14 [STAKES]: likewise
}


@dataclass(frozen=True)
class _Config:
    target: Any  # "auto" or int
    must_go_out: bool
    rummy: str
    going_out: str
    michigan: bool
    polish: bool
    first_turn: str
    money: bool
    max_turns: int
    max_hands: int


def _other_game_default(name: str) -> tuple[str, Any] | None:
    """(kind, default) of a flag of another game, which must hold its default here."""
    if name in _FLAG_SPECS:
        return _FLAG_SPECS[name][0], _FLAG_SPECS[name][1]
    if name in _STD_SPECS:
        return _STD_SPECS[name][0], _STD_SPECS[name][1]
    if name in _OTHER_DEFAULTS and name not in _R5K_SPECS:
        return _OTHER_DEFAULTS[name]
    return None


def _parse_flags(flags: Mapping[str, object] | None) -> _Config:
    vals = {k: spec[1] for k, spec in _R5K_SPECS.items()}
    engine = dict(_ENGINE_DEFAULTS)
    for name, raw in (flags or {}).items():
        if name == "game":
            continue
        if name in engine:
            v = _norm_value(name, "int", raw)
            if v <= 0:
                raise ValueError(f"flag {name}: value {raw!r} must be a positive integer")
            engine[name] = v
            continue
        spec = _R5K_SPECS.get(name)
        if spec is None:
            other = _other_game_default(name)
            if other is None:
                raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
            if _norm_value(name, other[0], raw) != other[1]:
                raise ValueError(f"flag {name}: value {raw!r} belongs to another game, but the "
                                 "game is 5000-rummy")
            continue
        kind, _default, allowed = spec
        v = _norm_value(name, kind, raw)
        if allowed is None:
            if not (v == "auto" or (isinstance(v, int) and v > 0)):
                raise ValueError(f"flag {name}: value {raw!r} is not valid")
        elif v not in allowed:
            raise ValueError(f"flag {name}: value {raw!r} is not implemented by the checker")
        vals[name] = v
    return _Config(
        target=vals["r5k_target"],
        must_go_out=bool(vals["r5k_must_go_out_to_win"]),
        rummy=vals["r5k_rummy"],
        going_out=vals["r5k_going_out"],
        michigan=bool(vals["r5k_michigan"]),
        polish=bool(vals["r5k_polish"]),
        first_turn=vals["r5k_first_turn"],
        money=bool(vals["r5k_money_cards"]),
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )


def _target_for(cfg: _Config, n: int) -> int:
    """R5K-GAME-1: auto = 5000 / 3000 / 2000 for 2 / 3 / 4-5 players."""
    if cfg.target != "auto":
        return cfg.target
    return 5000 if n == 2 else 3000 if n == 3 else 2000


# --------------------------------------------------------------------------------------------
# Table melds and "could this card be placed?" tests (V5K-3b, V5K-4b, V5K-5a/5c)
# --------------------------------------------------------------------------------------------


class _Meld:
    """A meld on the table.  ``slots`` hold [credited seat, card, position] (position 0 outside
    sequences); a sequence occupies positions lo..hi, every one filled (R5K-SEQ-1/2)."""

    __slots__ = ("kind", "key", "lo", "hi", "creators", "alive", "slots")

    def __init__(self, kind: int, key: int, lo: int, hi: int, creator: int) -> None:
        self.kind = kind
        self.key = key  # group: rank; sequence: suit; wild-card group: 0
        self.lo = lo
        self.hi = hi
        self.creators = {creator}  # seats whose MELD records formed it (joins merge them)
        self.alive = True  # False once joined into another sequence (JOIN meld_b)
        self.slots: list[list[int]] = []


def _seq_end_open(m: _Meld, pos: int) -> bool:
    """Can one card go at ``pos`` as the next position outward of sequence ``m``?"""
    if len(m.slots) >= 13:
        return False
    return (pos == m.lo - 1 and pos >= 1) or (pos == m.hi + 1 and pos <= 14)


def _addable(card: int, melds: list[_Meld], wild: int) -> bool:
    """Can ``card`` alone be added to a table meld, or (a natural card) traded for a table wild
    card it matches?  Only the table counts: no hand or pile cards (V5K-3b, V5K-5a; AMB-36).  A
    single card filling the one-position gap between two sequences is also an addition at the end
    of either, so joins need no separate test."""
    is_wild = card & 15 == wild
    rank, suit = card & 15, card >> 4
    for m in melds:
        if not m.alive:
            continue
        if m.kind == WILD_GROUP:
            if is_wild:
                return True
        elif m.kind == GROUP:
            if is_wild or m.key == rank:
                return True
        elif is_wild:
            if len(m.slots) < 13 and (m.lo > 1 or m.hi < 14):
                return True
        elif m.key == suit:
            for p in _positions_of(card):
                if _seq_end_open(m, p):
                    return True
            for _s, c, p in m.slots:
                if c & 15 == wild and _rank_at(p) == rank and 1 <= p <= 14:
                    return True  # R5K-TRADE-1: the wild card stands for exactly this card
    return False


def _fill(need: int, naturals: Counter, wilds: int) -> tuple[bool, int]:
    """Use helper natural ``need`` (taken from ``naturals``) or else a helper wild card."""
    if naturals[need] > 0:
        naturals[need] -= 1
        return True, wilds
    if wilds > 0:
        return True, wilds - 1
    return False, wilds


def _extends_with(card: int, m: _Meld, naturals: Counter, wilds: int, wild: int) -> bool:
    """Can ``card`` be added to sequence ``m`` when the positions between it and the sequence are
    filled by helper cards (naturals of the exact card, or wild cards)?"""
    is_wild = card & 15 == wild
    if not is_wild and card >> 4 != m.key:
        return False
    for step in (-1, 1):
        nat = Counter(naturals)
        w = wilds
        pos = m.lo - 1 if step < 0 else m.hi + 1
        length = len(m.slots)
        while 1 <= pos <= 14 and length < 13:
            length += 1
            if is_wild or pos in _positions_of(card):
                return True
            ok, w = _fill(16 * m.key + _rank_at(pos), nat, w)
            if not ok:
                break
            pos += step
    return False


def _new_meld_with(card: int, naturals: Counter, wilds: int, wild: int) -> bool:
    """Is there a new group, wild-card group or 3-card sequence holding ``card`` and otherwise
    only helper cards?"""
    is_wild = card & 15 == wild
    by_rank = Counter()
    for c, k in naturals.items():
        by_rank[c & 15] += k
    if is_wild:
        if wilds >= 2 or any(k + wilds >= 2 for k in by_rank.values()):
            return True
    elif by_rank[card & 15] + wilds >= 2:
        return True
    suits = range(4) if is_wild else (card >> 4,)
    for suit in suits:
        for a in range(1, 13):  # windows a..a+2 inside 1..14
            window = range(a, a + 3)
            spots = list(window) if is_wild else [p for p in _positions_of(card) if p in window]
            for spot in spots:
                nat = Counter(naturals)
                w = wilds
                ok = True
                for p in window:
                    if p != spot:
                        ok, w = _fill(16 * suit + _rank_at(p), nat, w)
                        if not ok:
                            break
                if ok:
                    return True
    return False


def _placeable_with(card: int, helpers: list[int], melds: list[_Meld], wild: int) -> bool:
    """V5K-4b: can ``card`` go on the table using only ``helpers`` (the pile cards above it) and
    the table melds: alone, extending a sequence with helpers filling the positions up to it, or
    in a new meld with helpers?"""
    if _addable(card, melds, wild):
        return True
    naturals = Counter(c for c in helpers if c & 15 != wild)
    wilds = len(helpers) - sum(naturals.values())
    for m in melds:
        if m.alive and m.kind == SEQUENCE and _extends_with(card, m, naturals, wilds, wild):
            return True
    return _new_meld_with(card, naturals, wilds, wild)


# --------------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------------


class _Stop(Exception):
    """Raised after a violation that makes further replay of the game meaningless."""


_P_GAME_START = 0
_P_HAND_START = 1
_P_DECK = 2
_P_FACE_UP = 3
_P_TURN = 4  # between turns: TURN_START or HAND_END
_P_DRAW = 5  # after TURN_START: EXCHANGE or one draw record
_P_PLAY = 6  # MELD / LAYOFF / JOIN / TRADE / DISCARD
_P_CARDS = 7  # CARD records of a MELD / LAYOFF / JOIN
_P_FLOAT = 8  # the seat floats with 0 cards: FLOAT
_P_OUT = 9  # someone went out: HAND_END
_P_NODRAW = 10  # NO_DRAW reason 0: HAND_END
_P_SCORE = 11
_P_GAME_OVER = 12
_P_DONE = 13

_PHASE_NAMES = {
    _P_GAME_START: "GAME_START expected",
    _P_HAND_START: "HAND_START expected",
    _P_DECK: "reading DECK records",
    _P_FACE_UP: "reading FACE_UP records",
    _P_TURN: "between turns",
    _P_DRAW: "draw phase",
    _P_PLAY: "play/discard phase",
    _P_CARDS: "inside a MELD/LAYOFF/JOIN group",
    _P_FLOAT: "FLOAT expected",
    _P_OUT: "after going out",
    _P_NODRAW: "after NO_DRAW",
    _P_SCORE: "reading SCORE records",
    _P_GAME_OVER: "GAME_END expected",
    _P_DONE: "after GAME_END",
}

_END_RULES = {1: "R5K-OUT-1", 2: "R5K-STOCK-1", 3: "R5K-STOCK-1", 4: "ENGINE-TURN-CAP",
              6: "R5K-DRAW-5"}

# draw kinds of the current turn
_D_STOCK, _D_TOP, _D_DEEP, _D_ALL, _D_SKIP, _D_DISCARD_ONLY, _D_DECLINE = range(7)


class _Replayer:
    def __init__(self, rows: list[list[int]], cfg: _Config) -> None:
        self.rows = rows
        self.cfg = cfg
        self.violations: list[Violation] = []
        self.games = 0
        self.actions = 0
        self.game_index = -1
        self.i = 0
        self.phase = _P_GAME_START
        self.bad_unused: set[int] = set()
        self.n = 0
        self.cur = -1
        self.hands: list[list[int]] = []
        self.hand_size: list[int] = []
        self.melds: list[_Meld] = []
        self.pile: list[int] = []
        self._dispatch = {
            GAME_START: self._game_start,
            HAND_START: self._hand_start,
            DECK: self._deck,
            FACE_UP: self._face_up,
            TURN_START: self._turn_start,
            EXCHANGE: self._exchange,
            DRAW_STOCK: self._draw_stock,
            TAKE_PILE: self._take_pile,
            TAKE_ALL: self._take_all,
            NO_DRAW: self._no_draw,
            MELD: self._meld,
            LAYOFF: self._layoff,
            JOIN: self._join,
            CARD: self._card,
            TRADE: self._trade,
            DISCARD: self._discard,
            FLOAT: self._float,
            HAND_END: self._hand_end,
            SCORE: self._score,
            GAME_END: self._game_end,
        }

    # ---- violations ---------------------------------------------------------------------

    def _flag(self, rule: str, msg: str) -> None:
        self.violations.append(Violation(self.game_index, self.i, rule, msg))

    def _fail(self, rule: str, msg: str) -> NoReturn:
        self._flag(rule, msg + " (replay of this game stopped)")
        raise _Stop

    def _unexpected(self, row: list[int]) -> NoReturn:
        """A record the current phase does not allow: name the rule it breaks."""
        kind = row[0]
        name = RECORD_NAMES.get(kind, str(kind))
        ph = self.phase
        go = self.cfg.going_out
        rule, msg = "TRACE-FORMAT", f"unexpected {name} record ({_PHASE_NAMES.get(ph, ph)})"
        if ph == _P_OUT:
            rule = "R5K-OUT-1"
            msg = f"{name} after seat {self.out_seat} went out; the hand ends at once"
            if kind == FLOAT and self.out_by_discard and go == "unmeldable_discard":
                rule = "V5K-5a"
                msg = (f"FLOAT after seat {self.out_seat} discarded a last card that cannot be "
                       "added or traded: the player is out")
            elif kind == FLOAT and go == "meld_all":
                rule = "V5K-6"
                msg = f"FLOAT after seat {self.out_seat} melded the last card: that is going out"
        elif ph == _P_FLOAT:
            if self.float_after_discard:
                rule = "V5K-6" if go == "meld_all" else "V5K-5a"
                why = ("under meld_all a discarded last card never goes out" if go == "meld_all"
                       else "the last card discarded could be added to a table meld or traded")
            else:
                rule, why = "V5K-5b", "melding the last card floats under unmeldable_discard"
            msg = f"{name} where seat {self.cur} must FLOAT with 0 cards: {why}"
        elif kind == FLOAT:
            rule = "V5K-5b" if go != "any" else "R5K-OUT-1"
            held = self.hand_size[self.cur] if 0 <= self.cur < len(self.hand_size) else "?"
            msg = f"FLOAT by seat {row[1]} holding {held} card(s), r5k_going_out={go}"
        elif ph == _P_NODRAW:
            rule, msg = "R5K-STOCK-1", f"{name} after NO_DRAW on an empty stock; the hand ends"
        elif kind == EXCHANGE:
            rule, msg = "V5K-11", f"EXCHANGE {_PHASE_NAMES.get(ph, ph)}: only before the first draw"
        elif ph == _P_DRAW and kind in (MELD, LAYOFF, JOIN, TRADE, DISCARD):
            rule, msg = "R5K-DRAW-1", f"{name} before the turn's draw"
        elif ph == _P_PLAY and kind in (DRAW_STOCK, TAKE_PILE, TAKE_ALL, NO_DRAW, EXCHANGE):
            rule, msg = "R5K-DRAW-1", f"second draw {name} in one turn"
        elif ph == _P_PLAY and kind in (TURN_START, HAND_END):
            rule = "R5K-OUT-3" if self.draw == _D_SKIP else "R5K-PLAY-1"
            msg = f"{name} before the turn's discard (seat {self.cur} still holds cards)"
        elif ph == _P_TURN and kind == TURN_START and self.end_due:
            rule = _END_RULES[self.end_due]
            msg = f"the hand must end here ({self._end_text(self.end_due)}) but {name} follows"
        elif ph == _P_GAME_OVER and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            msg = f"the game must end (winner seat {self.exp_winner}) but another hand is dealt"
        self._fail(rule, msg)

    def _end_text(self, reason: int) -> str:
        n = self.n
        return {
            1: f"seat {self.out_seat} went out",
            2: "NO_DRAW on an empty stock",
            3: f"{self.idle} consecutive turns put no card on the table after the stock ran out "
               f"(R5K-STOCK-1 c needs {n})",
            4: f"turn cap max_turns_per_hand={self.cfg.max_turns} reached",
            6: f"{self.stall} consecutive turns took the top discard without melding it "
               f"(R5K-DRAW-5 needs {3 * n})",
        }.get(reason, f"reason {reason}")

    # ---- main loop ----------------------------------------------------------------------

    def run(self) -> None:
        for i, row in enumerate(self.rows):
            self.i = i
            kind = row[0]
            try:
                handler = self._dispatch.get(kind)
                if handler is None:
                    self._fail("TRACE-FORMAT", f"record kind {kind} is not a 5000 Rummy record")
                if kind in _ACTION_KINDS:
                    self.actions += 1
                self._check_unused(row)
                handler(row)
                if _CHECK_CONSERVATION_EVERY_RECORD and self.phase not in (
                    _P_GAME_START, _P_HAND_START, _P_DECK, _P_FACE_UP, _P_DONE
                ):
                    self._check_conservation()
            except _Stop:
                self._skip_to_next_game(i + 1)
                return
            except (IndexError, KeyError, ValueError, TypeError, AttributeError) as exc:
                # defensive: a malformed trace must never make the checker raise
                self.violations.append(Violation(
                    self.game_index, i, "TRACE-FORMAT",
                    f"record {row} cannot be replayed ({exc.__class__.__name__}: {exc}) "
                    "(replay of this game stopped)"))
                self._skip_to_next_game(i + 1)
                return
        if self.phase != _P_DONE:
            self.i = len(self.rows)
            if self.games == 0:
                self.violations.append(Violation(-1, 0, "TRACE-FORMAT",
                                                 "trace holds no GAME_START record"))
            else:
                self._flag("TRACE-FORMAT", "trace ends before GAME_END "
                                           f"({_PHASE_NAMES.get(self.phase, self.phase)})")

    def _check_unused(self, row: list[int]) -> None:
        kind = row[0]
        used = _USED_COLS.get(kind)
        if used is not None and any(row[used + 1:]) and kind not in self.bad_unused:
            self.bad_unused.add(kind)
            self._flag("TRACE-FORMAT", f"{RECORD_NAMES[kind]} has non-zero unused columns: {row}")

    def _skip_to_next_game(self, start: int) -> None:
        rows = self.rows
        for j in range(start, len(rows)):
            if rows[j][0] == GAME_START:
                sub = _Replayer(rows[j:], self.cfg)
                sub.run()
                self.violations.extend(
                    Violation(v.game_index, v.record + j, v.rule_id, v.message)
                    for v in sub.violations)
                self.games += sub.games
                self.actions += sub.actions
                return

    # ---- small checks -------------------------------------------------------------------

    def _seat_ok(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.n:
            self._fail("TRACE-FORMAT", f"{what} seat {seat} is not a seat")

    def _check_seat(self, seat: int) -> None:
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"record for seat {seat} during seat {self.cur}'s turn")

    def _card_ok(self, card: int) -> None:
        if not (0 <= card < 64 and _NATURAL[card]):
            self._fail("TRACE-FORMAT", f"invalid card id {card} (5000 Rummy has no jokers)")

    def _is_wild(self, card: int) -> bool:
        return card & 15 == self.wild

    def _take_from_hand(self, seat: int, card: int, what: str) -> None:
        self._card_ok(card)
        hc = self.hands[seat]
        if hc[card] <= 0:
            self._fail("C-CARD-CONSERVATION",
                       f"seat {seat} {what} {card_name(card)} but does not hold it")
        hc[card] -= 1
        self.hand_size[seat] -= 1

    def _give_to_hand(self, seat: int, card: int) -> None:
        self.hands[seat][card] += 1
        self.hand_size[seat] += 1

    def _stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def _live_meld(self, meld_id: int, what: str) -> _Meld:
        if not 0 <= meld_id < len(self.melds):
            self._fail("TRACE-FORMAT", f"{what} on meld {meld_id}, which is not on the table")
        m = self.melds[meld_id]
        if not m.alive:
            self._fail("TRACE-FORMAT", f"{what} on meld {meld_id}, which was joined into another "
                                       "sequence and no longer exists")
        return m

    # ---- game level ---------------------------------------------------------------------

    def _game_start(self, row: list[int]) -> None:
        if self.phase not in (_P_GAME_START, _P_DONE):
            self._unexpected(row)
        self.games += 1
        self.game_index = row[3]
        self.bad_unused = set()
        n, first_dealer, target, code = row[1], row[2], row[4], row[5]
        if code != 2:
            self._flag("TRACE-FORMAT", f"GAME_START game code {code}, but the game is 5000 "
                                       "Rummy (2)")
        if not 2 <= n <= 5:
            self._fail("R5K-SETUP-1", f"{n} players; 5000 Rummy is for 2-5 players")
        if not 0 <= first_dealer < n:
            self._fail("TRACE-FORMAT", f"first_dealer {first_dealer} is not a seat")
        self.n = n
        self.target = _target_for(self.cfg, n)
        if target != self.target:
            self._flag("R5K-GAME-1", f"GAME_START target {target}, expected {self.target} "
                                     f"(r5k_target={self.cfg.target}, {n} players)")
        self.true_totals = [0] * n  # recomputed by the checker
        self.trace_totals = [0] * n  # as the trace states them
        self.hands_played = 0
        self.dealer = first_dealer
        self.phase = _P_HAND_START

    def _winner_rule(self) -> str:
        return "V5K-2" if self.cfg.must_go_out else "R5K-GAME-2"

    def _decide_game_end(self) -> None:
        """R5K-GAME-2 (highest total at or above the target wins; a shared highest total is a
        tie), V5K-2 (only the player who went out, once at the target) and the hand cap."""
        totals = self.true_totals
        winner, mask, over = -1, 0, False
        if self.cfg.must_go_out:
            out = self.out_seat
            if out >= 0 and totals[out] >= self.target:
                winner, over = out, True
        else:
            top = max(totals)
            if top >= self.target:
                over = True
                leaders = [s for s in range(self.n) if totals[s] == top]
                if len(leaders) == 1:
                    winner = leaders[0]
                else:
                    mask = sum(1 << s for s in leaders)
        if over:
            self.exp_winner, self.exp_capped, self.exp_mask = winner, 0, mask
            self.phase = _P_GAME_OVER
        elif self.hands_played >= self.cfg.max_hands:
            self.exp_winner, self.exp_capped, self.exp_mask = -1, 1, 0
            self.phase = _P_GAME_OVER
        else:
            self.phase = _P_HAND_START

    def _game_end(self, row: list[int]) -> None:
        winner, n_hands, capped, mask = row[1], row[2], row[3], row[4]
        if self.phase == _P_HAND_START:
            rule = self._winner_rule()
            why = (f"no seat that went out reached the target {self.target}"
                   if self.cfg.must_go_out else f"no total reached the target {self.target}")
            if capped:
                rule, why = "ENGINE-HAND-CAP", (f"hand cap is {self.cfg.max_hands}, "
                                                f"{self.hands_played} hands played")
            self._flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why} "
                             f"(totals {self.true_totals})")
        elif self.phase != _P_GAME_OVER:
            self._unexpected(row)
        elif (winner, capped, mask) != (self.exp_winner, self.exp_capped, self.exp_mask):
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            self._flag(rule, f"GAME_END winner {winner} capped {capped} tie mask {mask}; expected "
                             f"winner {self.exp_winner} capped {self.exp_capped} tie mask "
                             f"{self.exp_mask} (totals {self.true_totals})")
        if n_hands != self.hands_played:
            self._flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = _P_DONE

    # ---- deal ---------------------------------------------------------------------------

    def _hand_start(self, row: list[int]) -> None:
        if self.phase != _P_HAND_START:
            self._unexpected(row)
        h, dealer, pack_size, first, wild = row[1], row[2], row[3], row[5], row[6]
        n = self.n
        if h != self.hands_played:
            self._flag("TRACE-FORMAT", f"hand_index {h}, expected {self.hands_played}")
        if dealer != self.dealer:
            self._fail("R5K-DEAL-3", f"dealer {dealer}, expected seat {self.dealer}")
        if pack_size != PACK_SIZE:
            self._fail("R5K-SETUP-2", f"pack_size {pack_size}; the pack is {PACK_SIZE} cards")
        if first != (dealer + 1) % n:
            self._fail("R5K-TURN-1", f"first_player {first}, expected {(dealer + 1) % n}")
        if not 1 <= wild <= 13:
            self._fail("R5K-WILD-1", f"wild rank {wild} is not a rank 1..13")
        self.wild = wild
        self.vals = _card_values(wild)
        self.pack = [-1] * PACK_SIZE
        self.pack_filled = 0
        self.phase = _P_DECK

    def _deck(self, row: list[int]) -> None:
        if self.phase != _P_DECK:
            self._unexpected(row)
        off = row[1]
        for j in range(6):
            c = row[2 + j]
            if c == -1:
                continue
            p = off + j
            if not 0 <= p < PACK_SIZE:
                self._fail("TRACE-FORMAT", f"DECK card at position {p} >= {PACK_SIZE}")
            if not (0 <= c < 65):
                self._fail("TRACE-FORMAT", f"invalid card id {c} in DECK")
            if self.pack[p] != -1:
                self._fail("TRACE-FORMAT", f"DECK position {p} given twice")
            self.pack[p] = c
            self.pack_filled += 1
        if self.pack_filled == PACK_SIZE:
            self._deal()

    def _deal(self) -> None:
        """R5K-SETUP-2 pack, R5K-DEAL-1/2 blocks (trace spec: consecutive blocks from position 0
        in dealing order, the first card face up), upcard, stock."""
        pack = self.pack
        counts = Counter(pack)
        expected = Counter({c: 2 for c in _NATURAL_IDS})
        if counts != expected:
            self._fail("R5K-SETUP-2", "the pack is not two 52-card decks without jokers: missing "
                       f"{sorted(card_name(c) for c in (expected - counts).elements())}, extra "
                       f"{sorted(card_name(c) for c in (counts - expected).elements())}")
        n = self.n
        extra = self.cfg.first_turn == "extra_card"
        self.hands = [[0] * 64 for _ in range(n)]
        self.hand_size = [0] * n
        self.face_ups: list[tuple[int, int, int]] = []
        pos = 0
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            face = pack[pos]
            size = _dealt_hand_size(face) + (1 if extra and i == 0 else 0)  # V5K-10
            for c in pack[pos:pos + size]:
                self.hands[seat][c] += 1
            self.hand_size[seat] = size
            self.face_ups.append((seat, face, size))
            pos += size
        if extra:
            self.pile = []  # V5K-10: no upcard
        else:
            self.pile = [pack[pos]]  # R5K-DEAL-2: the upcard is pile index 0
            pos += 1
        self.stock = pack
        self.stock_pos = pos
        self.face_up_seen = 0
        self.phase = _P_FACE_UP

    def _face_up(self, row: list[int]) -> None:
        if self.phase != _P_FACE_UP:
            if self.phase == _P_DECK:
                self._fail("TRACE-FORMAT", f"FACE_UP after only {self.pack_filled} of "
                                           f"{PACK_SIZE} DECK positions")
            self._unexpected(row)
        seat, card, size = row[1], row[2], row[3]
        exp_seat, exp_card, exp_size = self.face_ups[self.face_up_seen]
        if seat != exp_seat:
            self._fail("TRACE-FORMAT", f"FACE_UP for seat {seat}; dealing order gives seat "
                                       f"{exp_seat} next")
        if card != exp_card:
            self._flag("R5K-DEAL-1", f"seat {seat}'s face-up card is {card_name(card)}, but the "
                                     f"first card of its block is {card_name(exp_card)}")
        if size != exp_size:
            self._flag("R5K-DEAL-1", f"seat {seat}: face-up {card_name(exp_card)} gives a hand of "
                                     f"{exp_size} cards, FACE_UP says {size}")
        self.face_up_seen += 1
        if self.face_up_seen == self.n:
            self._start_hand_state()

    def _start_hand_state(self) -> None:
        n = self.n
        self.melds = []
        self.group_of: list[dict[int, int]] = [{} for _ in range(n)]  # R5K-GROUP-2
        self.had_turn = [False] * n  # a normal turn played this hand (R5K-OUT-2/3)
        self.turns = 0
        self.stall = 0  # R5K-DRAW-5
        self.idle = 0  # R5K-STOCK-1 (c)
        self.end_due = 0
        self.end_ok: set[int] = set()
        self.out_seat = -1
        self.out_bonus = 0
        self.out_by_discard = False
        self.float_after_discard = False
        self.next_seat = (self.dealer + 1) % n  # R5K-TURN-1
        self.window = False  # V5K-3/4 rummy window open
        self.embargo = -1  # the seat that may not call in the open window
        self.cur = -1
        self.draw = -1
        self.phase = _P_TURN

    # ---- turn start and draws -----------------------------------------------------------

    def _turn_start(self, row: list[int]) -> None:
        ph = self.phase
        if ph in (_P_DECK, _P_FACE_UP):
            self._fail("TRACE-FORMAT", "TURN_START before the deal was fully listed "
                                       "(DECK / FACE_UP records)")
        if ph != _P_TURN or self.end_due:
            self._unexpected(row)
        seat, turn_no, stock_size, pile_size, kind = row[1], row[2], row[3], row[4], row[5]
        self._seat_ok(seat, "TURN_START")
        if kind not in (0, 1):
            self._fail("TRACE-FORMAT", f"TURN_START turn kind {kind} (0 normal, 1 rummy call)")
        if kind == 1:
            self._check_call_allowed(seat)
        elif seat != self.next_seat:
            self._flag("R5K-TURN-1", f"seat {seat} plays; expected seat {self.next_seat}")
        if turn_no != self.turns:
            self._flag("TRACE-FORMAT", f"turn_no {turn_no}, expected {self.turns}")
        if stock_size != self._stock_left():
            self._flag("TRACE-FORMAT", f"TURN_START stock_size {stock_size}, replay has "
                                       f"{self._stock_left()}")
        if pile_size != len(self.pile):
            self._flag("TRACE-FORMAT", f"TURN_START pile_size {pile_size}, replay has "
                                       f"{len(self.pile)}")
        self.window = False
        self.cur = seat
        self.kind = kind
        self.turns += 1
        self.start_stock = self._stock_left()
        self.first_of_seat = kind == 0 and not self.had_turn[seat]
        self.first_of_hand = kind == 0 and not any(self.had_turn)
        if kind == 0:
            self.had_turn[seat] = True
        self.draw = -1
        self.exchanged = False
        self.duty = -1  # card the turn's first play must contain
        self.duty_rule = ""
        self.call_cards: Counter | None = None  # V5K-4c: the first play uses only these
        self.plays = 0
        self.duty_plays = 0
        self.put = False  # a card went from hand to table (R5K-STOCK-1 c)
        self.stall_card = -1  # the top discard taken alone (R5K-DRAW-5)
        self.stall_placed = False
        self.traded_ends: set[tuple[int, int]] = set()  # R5K-SEQ-6
        self.discarded = False
        self.phase = _P_DRAW

    def _check_call_allowed(self, seat: int) -> None:
        """V5K-3a / V5K-4a: calls are on, a window is open, and the caller is not embargoed."""
        mode = self.cfg.rummy
        rule = "V5K-4a" if mode == "any_cards" else "V5K-3a"
        if mode == "off":
            self._flag("V5K-3a", "rummy-call turn but r5k_rummy=off")
        elif not self.window:
            self._flag(rule, "rummy-call turn without an open window (a call follows a turn "
                             "that did not end the hand, before the next normal turn)")
        elif seat == self.embargo:
            self._flag(rule, f"seat {seat} calls right after its own turn ended (its own "
                             "discard or rummy)")

    def _check_first_turn_draw(self, draw: int) -> None:
        """V5K-10: the first player's first turn is NO_DRAW reason 3 and a discard; V5K-11: after
        a swap the first player draws from the stock."""
        if self.cfg.first_turn == "extra_card" and self.first_of_hand and draw != _D_DISCARD_ONLY:
            self._flag("V5K-10", "the first player's first turn under extra_card only discards "
                                 "(NO_DRAW reason 3, AMB-33)")
        if self.exchanged and draw != _D_STOCK:
            self._flag("V5K-11", "after a swap of the upcard the first player draws from the "
                                 "stock (AMB-32)")

    def _exchange(self, row: list[int]) -> None:
        """V5K-11: one other seat swaps a hand card for the upcard before the first draw."""
        if self.phase != _P_DRAW:
            self._unexpected(row)
        seat, give, take = row[1], row[2], row[3]
        self._seat_ok(seat, "EXCHANGE")
        if self.cfg.first_turn != "exchange_upcard":
            self._flag("V5K-11", f"EXCHANGE but r5k_first_turn={self.cfg.first_turn}")
        elif not self.first_of_hand:
            self._flag("V5K-11", "EXCHANGE outside the first turn of the hand")
        elif self.exchanged:
            self._flag("V5K-11", "a second EXCHANGE: the first swap ends the offer")
        elif seat == self.cur:
            self._flag("V5K-11", "the first player takes the upcard or draws; it does not swap")
        if len(self.pile) != 1 or self.pile[0] != take:
            shown = card_name(self.pile[-1]) if self.pile else "none"
            self._fail("C-CARD-CONSERVATION", f"EXCHANGE takes {card_name(take)} but the upcard "
                                              f"is {shown}")
        self._take_from_hand(seat, give, "swaps in")
        self._give_to_hand(seat, take)
        self.pile[0] = give
        self.exchanged = True

    def _draw_start(self, row: list[int], what: str) -> None:
        if self.phase != _P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.kind == 1 and what != "TAKE_PILE":
            rule = "V5K-4c" if self.cfg.rummy == "any_cards" else "V5K-3c"
            self._fail(rule, f"{what} in a rummy-call turn: the caller takes from the pile")

    def _draw_stock(self, row: list[int]) -> None:
        self._draw_start(row, "DRAW_STOCK")
        self._check_first_turn_draw(_D_STOCK)
        card = row[2]
        if not self._stock_left():
            self._fail("R5K-STOCK-1", "DRAW_STOCK from an empty stock")
        top = self.stock[self.stock_pos]
        if card != top:
            self._fail("C-CARD-CONSERVATION", f"DRAW_STOCK of {card_name(card)} but the top "
                                              f"stock card is {card_name(top)} (C-PILE-1)")
        self.stock_pos += 1
        self._give_to_hand(self.cur, card)
        self.draw = _D_STOCK
        self.phase = _P_PLAY

    def _take_pile(self, row: list[int]) -> None:
        self._draw_start(row, "TAKE_PILE")
        k, n_taken, sel = row[2], row[3], row[4]
        pile = self.pile
        size = len(pile)
        if size == 0:
            self._fail("R5K-DRAW-1", "TAKE_PILE from an empty discard pile")
        if not 0 <= k < size:
            self._fail("C-PILE-4", f"TAKE_PILE k={k} outside the pile (size {size})")
        if n_taken != size - k:
            self._flag("TRACE-FORMAT", f"TAKE_PILE n_taken {n_taken}, expected {size - k}")
        if sel != pile[k]:
            self._fail("C-CARD-CONSERVATION", f"TAKE_PILE selected {card_name(sel)} but pile[{k}] "
                                              f"is {card_name(pile[k])}")
        taken = pile[k:]
        top_only = k == size - 1
        if self.kind == 1:
            self._call_take(taken)
        else:
            self._check_first_turn_draw(_D_TOP if top_only else _D_DEEP)
            if top_only:
                # R5K-DRAW-1 (b): no duty; V5K-5c: not by a floating seat if the card is dead
                self._check_floating_take(sel)
                if self.start_stock:
                    self.stall_card = sel
            else:
                # R5K-DRAW-1 (c), C-TURN-4: the first play contains the selected card
                self.duty, self.duty_rule = sel, "R5K-DRAW-1"
        del pile[k:]  # C-PILE-4: cards k..top, order kept
        for c in taken:
            self._give_to_hand(self.cur, c)
        self.draw = _D_TOP if top_only else _D_DEEP
        self.phase = _P_PLAY

    def _check_floating_take(self, card: int) -> None:
        """V5K-5c: a floating seat (0 cards) may not take only the top discard if it cannot be
        added to a table meld or traded."""
        if self.hand_size[self.cur] == 0 and not _addable(card, self.melds, self.wild):
            self._flag("V5K-5c", f"floating seat {self.cur} takes only the top discard "
                                 f"{card_name(card)}, which cannot be added or traded")

    def _call_take(self, taken: list[int]) -> None:
        """V5K-3b/3c (top card) or V5K-4b/4c (any cards): what a caller may take."""
        sel = taken[0]
        if self.cfg.rummy == "any_cards":
            if not _placeable_with(sel, taken[1:], self.melds, self.wild):
                self._flag("V5K-4b", f"call on {card_name(sel)}, which cannot be melded with the "
                                     "pile cards above it and the table melds alone")
            self.duty, self.duty_rule = sel, "V5K-4c"
            self.call_cards = Counter(taken)
            return
        if len(taken) != 1:
            self._flag("V5K-3c", f"a top-card call takes {len(taken)} cards; only the card just "
                                 "discarded")
        elif not _addable(sel, self.melds, self.wild):
            self._flag("V5K-3b", f"call on {card_name(sel)}, which cannot be added to a table "
                                 "meld or traded without hand cards")
        self.duty, self.duty_rule = sel, "V5K-3c"

    def _take_all(self, row: list[int]) -> None:
        """V5K-8: the whole pile into hand, no duty."""
        self._draw_start(row, "TAKE_ALL")
        self._check_first_turn_draw(_D_ALL)
        if not self.cfg.polish:
            self._flag("V5K-8", "TAKE_ALL but r5k_polish=false")
        pile = self.pile
        if not pile:
            self._fail("V5K-8", "TAKE_ALL from an empty discard pile")
        if row[2] != len(pile):
            self._flag("TRACE-FORMAT", f"TAKE_ALL n_taken {row[2]}, pile holds {len(pile)}")
        if len(pile) == 1:
            self._check_floating_take(pile[0])  # the whole pile is then the top card alone
        for c in pile:
            self._give_to_hand(self.cur, c)
        pile.clear()
        self.draw = _D_ALL
        self.phase = _P_PLAY

    def _no_draw(self, row: list[int]) -> None:
        self._draw_start(row, "NO_DRAW")
        reason = row[2]
        if reason == 0:
            # R5K-STOCK-1 (b): declining the pile on an empty stock ends the hand
            self._check_first_turn_draw(_D_DECLINE)
            if self._stock_left():
                self._flag("R5K-DRAW-1", f"NO_DRAW with {self._stock_left()} cards in the "
                                         "stock: a turn begins with a draw")
            self.end_due = 2
            self.end_ok = {2}
            self.phase = _P_NODRAW
            return
        if reason == 2:
            # R5K-OUT-3: only on the seat's first turn, to go out by melding every card
            self._check_first_turn_draw(_D_SKIP)
            if not self.first_of_seat:
                self._flag("R5K-OUT-3", f"seat {self.cur} skips the draw, but this is not its "
                                        "first turn of the hand")
            self.draw = _D_SKIP
        elif reason == 3:
            if self.cfg.first_turn != "extra_card":
                self._flag("V5K-10", f"discard-only first turn but r5k_first_turn="
                                     f"{self.cfg.first_turn}")
            elif not self.first_of_hand:
                self._flag("V5K-10", "NO_DRAW reason 3 outside the first turn of the hand")
            self.draw = _D_DISCARD_ONLY
        else:
            self._fail("TRACE-FORMAT", f"NO_DRAW reason {reason} (0, 2 or 3)")
        self.phase = _P_PLAY

    # ---- plays --------------------------------------------------------------------------

    def _play_start(self, row: list[int], what: str) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.draw == _D_DISCARD_ONLY:
            self._flag("V5K-10", f"{what} in the discard-only first turn (AMB-33)")
        if self.kind == 1 and self.cfg.rummy == "top_card" and self.plays >= 1:
            self._flag("V5K-3c", f"{what} after the top-card caller's one play (it then only "
                                 "discards)")

    def _meld(self, row: list[int]) -> None:
        self._play_start(row, "MELD")
        meld_id, kind, key, lo, n_cards = row[2], row[3], row[4], row[5], row[6]
        if self.kind == 1 and self.cfg.rummy == "top_card":
            self._flag("V5K-3c", "a top-card caller adds, trades or joins with the card; no new "
                                 "meld")
        if meld_id != len(self.melds):
            self._fail("TRACE-FORMAT", f"MELD id {meld_id}, expected {len(self.melds)}")
        if kind not in (GROUP, SEQUENCE, WILD_GROUP):
            self._fail("TRACE-FORMAT", f"MELD kind {kind} (2 group, 3 sequence, 4 wild-card "
                                       "group)")
        key_ok = {GROUP: 1 <= key <= 13, SEQUENCE: 0 <= key <= 3, WILD_GROUP: key == 0}[kind]
        if not key_ok:
            self._fail("TRACE-FORMAT", f"{_KIND_NAMES[kind]} MELD key {key}")
        if kind != SEQUENCE and lo != 0:
            self._flag("TRACE-FORMAT", f"{_KIND_NAMES[kind]} MELD with lo={lo} (must be 0)")
        if not 1 <= n_cards <= PACK_SIZE:
            self._fail("TRACE-FORMAT", f"MELD n_cards {n_cards}")
        self._open_group(MELD, meld_id, n_cards, (kind, key, lo))

    def _layoff(self, row: list[int]) -> None:
        self._play_start(row, "LAYOFF")
        meld_id, n_cards, lo_after = row[2], row[3], row[4]
        m = self._live_meld(meld_id, "LAYOFF")
        if self.kind == 1 and self.cfg.rummy == "top_card" and n_cards != 1:
            self._flag("V5K-3c", f"a top-card caller adds the one card taken, not {n_cards}")
        if not 1 <= n_cards <= PACK_SIZE:
            self._fail("TRACE-FORMAT", f"LAYOFF n_cards {n_cards}")
        if m.kind != SEQUENCE and lo_after != 0:
            self._flag("TRACE-FORMAT", f"LAYOFF on a {_KIND_NAMES[m.kind]} with lo {lo_after} "
                                       "(must be 0)")
        self._open_group(LAYOFF, meld_id, n_cards, (lo_after,))

    def _join(self, row: list[int]) -> None:
        """R5K-SEQ-5/6: sequence meld_b joins the high end of sequence meld_a."""
        self._play_start(row, "JOIN")
        a, b, n_cards = row[2], row[3], row[4]
        ma = self._live_meld(a, "JOIN")
        mb = self._live_meld(b, "JOIN")
        if a == b:
            self._fail("TRACE-FORMAT", f"JOIN of meld {a} with itself")
        if ma.kind != SEQUENCE or mb.kind != SEQUENCE or ma.key != mb.key:
            self._fail("R5K-SEQ-5", f"JOIN of meld {a} ({_KIND_NAMES[ma.kind]}) and meld {b} "
                                    f"({_KIND_NAMES[mb.kind]}): only two sequences of one suit")
        if mb.lo <= ma.hi:
            self._fail("R5K-SEQ-5", f"JOIN: meld {b} starts at {mb.lo}, not above meld {a}'s "
                                    f"high end {ma.hi}")
        if self.kind == 1 and self.cfg.rummy == "top_card" and n_cards != 1:
            self._flag("V5K-3c", "a top-card caller joins with the card taken as the only card")
        if not 0 <= n_cards <= 13:
            self._fail("TRACE-FORMAT", f"JOIN n_cards {n_cards}")
        if n_cards == 0:
            self._finish_join(a, b, [])
        else:
            self._open_group(JOIN, a, n_cards, (b,))

    def _open_group(self, kind: int, meld_id: int, n_cards: int, extra: tuple) -> None:
        self.group = (kind, meld_id, extra)
        self.group_need = n_cards
        self.group_cards: list[tuple[int, int]] = []
        self.phase = _P_CARDS

    def _card(self, row: list[int]) -> None:
        if self.phase != _P_CARDS:
            self._unexpected(row)
        seat, meld_id, card, pos = row[1], row[2], row[3], row[4]
        if seat != self.cur:
            self._fail("TRACE-FORMAT", f"CARD for seat {seat} in seat {self.cur}'s group")
        if meld_id != self.group[1]:
            self._fail("TRACE-FORMAT", f"CARD for meld {meld_id} inside a group for meld "
                                       f"{self.group[1]}")
        self._take_from_hand(seat, card, "puts on the table")
        self.group_cards.append((card, pos))
        if len(self.group_cards) < self.group_need:
            return
        kind, meld_id, extra = self.group
        self.phase = _P_PLAY
        if kind == MELD:
            self._finish_meld(meld_id, *extra)
        elif kind == LAYOFF:
            self._finish_layoff(meld_id, extra[0])
        else:
            self._finish_join(meld_id, extra[0], self.group_cards)

    def _check_group_rule(self, rank: int, meld_id: int, creating: bool) -> None:
        """R5K-GROUP-2: per rank, a seat puts cards into one group only (its own, or one other
        seat's group as an addition; a TRADE into a group counts as an addition)."""
        mine = self.group_of[self.cur]
        prev = mine.get(rank)
        if prev is not None and (creating or prev != meld_id):
            self._flag("R5K-GROUP-2", f"seat {self.cur} puts {_RANKS[rank - 1]}s into group "
                                      f"{meld_id}, but already has cards in group {prev} of "
                                      "that rank")
        elif prev is None:
            mine[rank] = meld_id

    def _check_seq_cards(self, cards: list[tuple[int, int]], suit: int, rule: str) -> None:
        """A natural card sits only at its own rank and suit; positions are 1..14."""
        for c, pos in cards:
            if not 1 <= pos <= 14:
                self._flag("R5K-SEQ-1", f"{card_name(c)} at sequence position {pos} (1..14)")
            elif not self._is_wild(c) and (c >> 4 != suit or c & 15 != _rank_at(pos)):
                self._flag(rule, f"natural {card_name(c)} at position {pos} of a "
                                 f"{_SUITS[suit]} sequence")

    def _check_group_cards(self, cards: list[tuple[int, int]], m_kind: int, key: int) -> None:
        for c, pos in cards:
            if pos != 0:
                self._flag("TRACE-FORMAT", f"{_KIND_NAMES[m_kind]} CARD with pos {pos} (must "
                                           "be 0)")
            if m_kind == WILD_GROUP:
                if not self._is_wild(c):
                    self._flag("R5K-WILD-3", f"natural {card_name(c)} in a wild-card group")
            elif not self._is_wild(c) and c & 15 != key:
                self._flag("R5K-GROUP-1", f"{card_name(c)} in a group of "
                                          f"{_RANKS[key - 1]}s")

    def _finish_meld(self, meld_id: int, kind: int, key: int, lo: int) -> None:
        """R5K-PLAY-2, R5K-GROUP-1/2, R5K-SEQ-1, R5K-WILD-3 for a new meld."""
        cards = self.group_cards
        n = len(cards)
        seat = self.cur
        if n < 3:
            self._flag("R5K-PLAY-2", f"new {_KIND_NAMES[kind]} of {n} card(s) (at least 3)")
        if kind == SEQUENCE:
            self._check_seq_cards(cards, key, "R5K-SEQ-1")
            positions = [p for _, p in cards]
            hi = lo + n - 1
            if sorted(positions) != list(range(lo, hi + 1)):
                self._flag("R5K-SEQ-1", f"sequence positions {sorted(positions)} are not "
                                        f"{lo}..{hi}, one card each")
            elif lo < 1 or hi > 14 or n > 13:
                self._flag("R5K-SEQ-1", f"sequence {lo}..{hi}: positions 1..14, at most 13 "
                                        "cards, an ace not both below the 2 and above the K")
            valid = [p for p in positions if 1 <= p <= 14] or [1]
            m = _Meld(SEQUENCE, key, min(valid), max(valid), seat)
        else:
            self._check_group_cards(cards, kind, key)
            if kind == GROUP:
                if key == self.wild:
                    self._flag("R5K-GROUP-1", f"group designated with the wild rank "
                                              f"{_RANKS[key - 1]} (no natural card can match it)")
                self._check_group_rule(key, meld_id, creating=True)
            m = _Meld(kind, key, 0, 0, seat)
        m.slots = [[seat, c, p] for c, p in cards]
        self.melds.append(m)
        self._after_play([c for c, _ in cards])

    def _finish_layoff(self, meld_id: int, lo_after: int) -> None:
        """An addition (R5K-PLAY-1/4): groups (R5K-GROUP-1/2), wild-card groups (R5K-WILD-3),
        sequences at the ends only, one position outward per card (R5K-SEQ-1/2/3)."""
        m = self.melds[meld_id]
        cards = self.group_cards
        seat = self.cur
        if m.kind == SEQUENCE:
            self._extend_sequence(m, meld_id, cards)
            if lo_after != m.lo:
                self._flag("TRACE-FORMAT", f"LAYOFF lo {lo_after}, but sequence {meld_id} now "
                                           f"starts at {m.lo}")
        else:
            self._check_group_cards(cards, m.kind, m.key)
            if m.kind == GROUP:
                self._check_group_rule(m.key, meld_id, creating=False)
        m.slots.extend([seat, c, p] for c, p in cards)
        self._after_play([c for c, _ in cards])

    def _extend_sequence(self, m: _Meld, meld_id: int, cards: list[tuple[int, int]]) -> None:
        self._check_seq_cards(cards, m.key, "R5K-SEQ-2")
        positions = [p for _, p in cards]
        inside = [p for p in positions if m.lo <= p <= m.hi]
        allpos = set(positions) | set(range(m.lo, m.hi + 1))
        lo, hi = min(allpos), max(allpos)
        if inside or len(set(positions)) != len(positions):
            self._flag("R5K-SEQ-2", f"addition at position(s) {sorted(positions)} of sequence "
                                    f"{meld_id} ({m.lo}..{m.hi}): each position holds one card, "
                                    "added only at the ends")
        elif hi - lo + 1 != len(allpos):
            self._flag("R5K-SEQ-2", f"addition at {sorted(positions)} is not the next position "
                                    f"outward of sequence {meld_id} ({m.lo}..{m.hi})")
        elif lo < 1 or hi > 14 or len(allpos) > 13:
            self._flag("R5K-SEQ-1", f"sequence {meld_id} would span {lo}..{hi}: at most 13 "
                                    "cards, an ace not at both ends")
        valid = [p for p in allpos if 1 <= p <= 14]
        if valid:
            m.lo, m.hi = min(valid), max(valid)

    def _owns_sequence(self, m: _Meld, seat: int) -> bool:
        """R5K-SEQ-4: the seat created it, or 3+ of its cards are credited to the seat."""
        return seat in m.creators or sum(1 for s, _, _ in m.slots if s == seat) >= 3

    def _finish_join(self, a: int, b: int, cards: list[tuple[int, int]]) -> None:
        """R5K-SEQ-5 (cards filling the gap, at most 13 in all) and R5K-SEQ-6 (no cards: two
        adjacent sequences of the seat's own, or a wild card traded this turn at the seam)."""
        ma, mb = self.melds[a], self.melds[b]
        seat = self.cur
        gap = list(range(ma.hi + 1, mb.lo))
        self._check_seq_cards(cards, ma.key, "R5K-SEQ-5")
        if sorted(p for _, p in cards) != gap:
            self._flag("R5K-SEQ-5", f"JOIN cards at {sorted(p for _, p in cards)}; the gap "
                                    f"between melds {a} and {b} is {gap}")
        total = len(ma.slots) + len(mb.slots) + len(cards)
        if total > 13:
            self._flag("R5K-SEQ-5", f"JOIN makes a sequence of {total} cards (at most 13)")
        if not cards and not gap:
            own = self._owns_sequence(ma, seat) and self._owns_sequence(mb, seat)
            traded = (a, ma.hi) in self.traded_ends or (b, mb.lo) in self.traded_ends
            if not (own or traded):
                self._flag("R5K-SEQ-6", f"seat {seat} joins sequences {a} and {b} without "
                                        "adding cards, but they are not both its own and it "
                                        "traded no wild card at their ends this turn")
        ma.slots.extend([seat, c, p] for c, p in cards)
        ma.slots.extend(mb.slots)
        ma.hi = max(ma.hi, mb.hi)
        ma.creators |= mb.creators
        mb.alive = False
        mb.slots = []
        self._after_play([c for c, _ in cards])

    def _trade(self, row: list[int]) -> None:
        """R5K-TRADE-1/2/3, R5K-WILD-3, R5K-DRAW-3."""
        self._play_start(row, "TRADE")
        meld_id, give, take, pos = row[2], row[3], row[4], row[5]
        seat = self.cur
        counts = True
        if self.duty >= 0 and self.duty_rule == "R5K-DRAW-1":
            self._flag("R5K-DRAW-3", "trade before the deep take's meld of the selected card "
                                     "(trades come only after draw (c) is complete)")
            counts = False
        m = self._live_meld(meld_id, "TRADE")
        self._card_ok(give)
        self._card_ok(take)
        if m.kind == WILD_GROUP:
            self._fail("R5K-WILD-3", f"trade for {card_name(take)} in wild-card group {meld_id}: "
                                     "never traded for")
        if self._is_wild(give):
            self._flag("R5K-TRADE-2", f"gives the wild card {card_name(give)}: only natural cards "
                                      "are traded for wild cards")
        if not self._is_wild(take):
            self._flag("R5K-TRADE-2", f"takes the natural {card_name(take)}: only wild cards are "
                                      "traded for")
        slot = self._trade_slot(m, meld_id, take, pos)
        if m.kind == SEQUENCE:
            need = 16 * m.key + _rank_at(pos)
            if give != need:
                self._flag("R5K-TRADE-1", f"gives {card_name(give)} for the wild card standing "
                                          f"for {card_name(need)}: it must be exactly that card")
            if pos in (m.lo, m.hi):
                self.traded_ends.add((meld_id, pos))
        else:
            if give & 15 != m.key:
                self._flag("R5K-TRADE-1", f"gives {card_name(give)} for a wild card in a group of "
                                          f"{_RANKS[m.key - 1]}s")
            self._check_group_rule(m.key, meld_id, creating=False)
        self._take_from_hand(seat, give, "trades away")
        self._give_to_hand(seat, take)
        slot[0], slot[1] = seat, give  # R5K-TRADE-3: credited to the trader
        self._after_play([give], counts_for_duty=counts)

    def _trade_slot(self, m: _Meld, meld_id: int, take: int, pos: int) -> list[int]:
        """The meld slot holding the wild card taken (designations stay where they were)."""
        if m.kind == SEQUENCE:
            for slot in m.slots:
                if slot[2] == pos:
                    if slot[1] != take:
                        self._fail("C-CARD-CONSERVATION", f"TRADE takes {card_name(take)} from "
                                   f"position {pos} of meld {meld_id}, which holds "
                                   f"{card_name(slot[1])}")
                    return slot
            self._fail("C-CARD-CONSERVATION", f"TRADE at position {pos}, outside meld {meld_id}")
        if pos != 0:
            self._flag("TRACE-FORMAT", f"TRADE in a group with pos {pos} (must be 0)")
        for slot in m.slots:
            if slot[1] == take:
                return slot
        self._fail("C-CARD-CONSERVATION", f"TRADE takes {card_name(take)}, which is not in "
                                          f"meld {meld_id}")

    def _after_play(self, cards: list[int], counts_for_duty: bool = True) -> None:
        """Duties (C-TURN-4, V5K-3c/4c), the stall and stock-out counts, going out."""
        self.plays += 1
        if cards:
            self.put = True
            if self.stall_card in cards:
                self.stall_placed = True  # copies are interchangeable (C-CARD-1)
        if self.duty >= 0 and counts_for_duty:
            self.duty_plays += 1
            if self.duty_plays == 1:
                self._check_duty_play(cards)
        if self.hand_size[self.cur] == 0:
            self._hand_emptied()

    def _check_duty_play(self, cards: list[int]) -> None:
        sel, rule = self.duty, self.duty_rule
        self.duty = -1
        if sel not in cards:
            what = "deep take" if rule == "R5K-DRAW-1" else "rummy call"
            self._flag("C-TURN-4" if rule == "R5K-DRAW-1" else rule,
                       f"the {what}'s first play does not contain {card_name(sel)} "
                       f"(it holds {[card_name(c) for c in cards]})")
        elif self.call_cards is not None and Counter(cards) - self.call_cards:
            self._flag("V5K-4c", "the caller's first play uses hand cards: only the pile cards "
                                 "taken and the table may be used")

    def _missed_duty(self) -> None:
        if self.duty < 0:
            return
        what = {"R5K-DRAW-1": "took a card below the top", "V5K-3c": "called",
                "V5K-4c": "called"}[self.duty_rule]
        self._flag(self.duty_rule, f"seat {self.cur} {what} ({card_name(self.duty)}) but did not "
                                   "meld it at once (C-TURN-4, C-LEGAL-1)")
        self.duty = -1

    # ---- going out, discard, end of turn ------------------------------------------------

    def _hand_emptied(self) -> None:
        """The seat's last card went on the table: out (R5K-OUT-1, V5K-6) or floating (V5K-5b)."""
        if self.cfg.going_out == "unmeldable_discard":
            self.float_after_discard = False
            self.phase = _P_FLOAT
        else:
            self.out_by_discard = False
            self._went_out()

    def _went_out(self) -> None:
        """R5K-OUT-1/2/3: the hand ends at once; 500 / 300 / 200 (AMB-28)."""
        self._missed_duty()
        if self.draw == _D_SKIP and self.out_by_discard:
            self._flag("R5K-OUT-3", "a turn without a draw goes out by melding every card, "
                                    "with no discard")
        self.out_seat = self.cur
        if self.kind == 0 and self.first_of_seat:
            self.out_bonus = 500 if self.draw == _D_SKIP else 300
        else:
            self.out_bonus = 200
        self.end_due = 1
        self.end_ok = {1}
        self.phase = _P_OUT

    def _discard(self, row: list[int]) -> None:
        if self.phase != _P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        card = row[2]
        seat = self.cur
        self._take_from_hand(seat, card, "discards")
        self.pile.append(card)  # C-PILE-2
        self.discarded = True
        if self.hand_size[seat]:
            self._end_turn()
            return
        go = self.cfg.going_out
        if go == "meld_all" or (go == "unmeldable_discard"
                                and _addable(card, self.melds, self.wild)):
            self._missed_duty()
            self.float_after_discard = True  # V5K-6, V5K-5a/5b
            self.phase = _P_FLOAT
            return
        self.out_by_discard = True
        self._went_out()

    def _float(self, row: list[int]) -> None:
        if self.phase != _P_FLOAT:
            self._unexpected(row)
        if row[1] != self.cur:
            self._fail("TRACE-FORMAT", f"FLOAT for seat {row[1]}; seat {self.cur} has 0 cards")
        self._end_turn()

    def _end_turn(self) -> None:
        """The turn is over (DISCARD or FLOAT): counts, hand-end conditions, rummy window."""
        self._missed_duty()
        n = self.n
        if self.draw == _D_SKIP:
            self._flag("R5K-OUT-3", f"seat {self.cur} skipped the draw but did not go out by "
                                    "melding every card")
        if self.kind == 0:  # R5K-DRAW-5: call turns neither count nor reset
            self.stall = self.stall + 1 if self.stall_card >= 0 and not self.stall_placed else 0
        if self.start_stock == 0:  # R5K-STOCK-1 (c), AMB-30
            self.idle = 0 if self.put else self.idle + 1
        else:
            self.idle = 0
        ok = set()
        if self.stall >= 3 * n:
            ok.add(6)
        if self.idle >= n:
            ok.add(3)
        if self.turns >= self.cfg.max_turns:
            ok.add(4)
        self.end_ok = ok
        self.end_due = 6 if 6 in ok else 3 if 3 in ok else 4 if ok else 0
        if self.kind == 0:
            self.next_seat = (self.cur + 1) % n  # a call leaves the in-turn seat as it was
        mode = self.cfg.rummy
        self.window = not self.end_due and (
            (mode == "top_card" and self.discarded) or mode == "any_cards")
        self.embargo = self.cur
        self.phase = _P_TURN

    # ---- hand end and scores ------------------------------------------------------------

    def _hand_end(self, row: list[int]) -> None:
        ph = self.phase
        if ph in (_P_DECK, _P_FACE_UP):
            self._fail("TRACE-FORMAT", "HAND_END before the deal was fully listed")
        if ph not in (_P_TURN, _P_OUT, _P_NODRAW):
            self._unexpected(row)
        reason, out_seat, turns = row[1], row[2], row[3]
        if reason not in _END_RULES:
            self._fail("TRACE-FORMAT", f"HAND_END reason {reason}")
        if reason not in self.end_ok:
            self._wrong_end_reason(reason)
        if out_seat != self.out_seat:
            self._flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat}, expected {self.out_seat}")
        if turns != self.turns:
            self._flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self._check_conservation()
        self._expected_scores()
        self.score_seat = 0
        self.phase = _P_SCORE

    def _wrong_end_reason(self, reason: int) -> None:
        due = self.end_due
        if due in (1, 2):
            self._flag(_END_RULES[due], f"HAND_END reason {reason}, expected {due} "
                                        f"({self._end_text(due)})")
        elif reason == 1:
            self._flag("R5K-OUT-1", "HAND_END reason 1 but no one went out")
        elif reason == 2:
            self._flag("R5K-STOCK-1", "HAND_END reason 2 without NO_DRAW on an empty stock")
        elif reason == 3:
            self._flag("R5K-STOCK-1", f"HAND_END reason 3 after {self.idle} turn(s) without a "
                                      f"card put on the table on an empty stock; {self.n} needed")
        elif reason == 6:
            self._flag("R5K-DRAW-5", f"HAND_END reason 6 after {self.stall} stalled turn(s); "
                                     f"{3 * self.n} needed")
        else:
            self._flag("ENGINE-TURN-CAP", f"turn-cap HAND_END after {self.turns} turns; the cap "
                                          f"is {self.cfg.max_turns}")

    def _credited(self) -> list[list[int]]:
        """Table cards credited to each seat (C-MELD-5, R5K-PLAY-4, R5K-TRADE-3)."""
        per_seat: list[list[int]] = [[] for _ in range(self.n)]
        for m in self.melds:
            for s, c, _ in m.slots:
                per_seat[s].append(c)
        return per_seat

    def _expected_scores(self) -> None:
        """R5K-SCORE-1 with R5K-VAL-*, R5K-OUT-2, V5K-7 (AMB-34) and V5K-12 (AMB-35)."""
        n = self.n
        vals = self.vals
        out = self.out_seat
        wild = self.wild
        queen_penalty = self.cfg.money and out >= 0 and wild != 12
        hv = []
        for hc in self.hands:
            v = sum(vals[c] * k for c, k in enumerate(hc) if k)
            if queen_penalty:
                v += 40 * hc[QH]  # V5K-12: a natural QH in hand counts 50, not 10
            hv.append(v)
        credited = self._credited()
        tv = [sum(vals[c] for c in cs) for cs in credited]
        plain = _natural_values()
        self.plain_tv = [sum(plain[c] for c in cs) for cs in credited]
        self.plain_hv = [sum(plain[c] * k for c, k in enumerate(hc) if k) for hc in self.hands]
        self.out_part = [0] * n
        self.mich_part = [0] * n
        self.money_part = [0] * n
        self.unzeroed_hv = list(hv)
        if out >= 0:
            self.out_part[out] = self.out_bonus
            if self.cfg.michigan:  # V5K-7: the goer collects, the others subtract nothing
                self.mich_part[out] = sum(hv) - hv[out]
                hv = [hv[s] if s == out else 0 for s in range(n)]
        if self.cfg.money:
            for s, cs in enumerate(credited):
                qh = cs.count(QH) if wild != 12 else 0
                sh = cs.count(SEVEN_H) if wild != 7 else 0
                self.money_part[s] = 100 * min(qh, sh, 2)
        bonus = [self.out_part[s] + self.mich_part[s] + self.money_part[s] for s in range(n)]
        self.exp_tv, self.exp_hv, self.exp_bonus = tv, hv, bonus
        self.exp_hs = [bonus[s] + tv[s] - hv[s] for s in range(n)]

    def _check_conservation(self) -> None:
        """C-CARD-CONSERVATION: each of the 104 cards in exactly one place."""
        total = [0] * 64
        for c in self.stock[self.stock_pos:]:
            total[c] += 1
        for c in self.pile:
            total[c] += 1
        for hc in self.hands:
            for c in range(64):
                total[c] += hc[c]
        for m in self.melds:
            for _, c, _ in m.slots:
                total[c] += 1
        if self.phase == _P_CARDS:  # cards of the group being read
            for c, _ in self.group_cards:
                total[c] += 1
        for c in _NATURAL_IDS:
            if total[c] != 2:
                self._fail("C-CARD-CONSERVATION", f"{card_name(c)}: {total[c]} copies in play, "
                                                  "the pack has 2")
        for s in range(self.n):
            if sum(self.hands[s]) != self.hand_size[s]:
                self._fail("C-CARD-CONSERVATION", f"seat {s}'s hand count is inconsistent")

    def _score(self, row: list[int]) -> None:
        if self.phase != _P_SCORE:
            self._unexpected(row)
        seat, hs, tot, tv, hv, bonus = row[1], row[2], row[3], row[4], row[5], row[6]
        if seat != self.score_seat:
            self._fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        if tv != self.exp_tv[seat]:
            rule = "R5K-VAL-2" if tv == self.plain_tv[seat] else "R5K-SCORE-1"
            self._flag(rule, f"seat {seat} table_value {tv}, expected {self.exp_tv[seat]} "
                             "(credited table cards)")
        if hv != self.exp_hv[seat]:
            self._flag(self._hand_value_rule(seat, hv),
                       f"seat {seat} hand_value {hv}, expected {self.exp_hv[seat]}")
        if bonus != self.exp_bonus[seat]:
            self._flag(self._bonus_rule(seat, bonus),
                       f"seat {seat} bonus {bonus}, expected {self.exp_bonus[seat]} (going out "
                       f"{self.out_part[seat]}, Michigan {self.mich_part[seat]}, money cards "
                       f"{self.money_part[seat]})")
        if hs != bonus + tv - hv:
            self._flag("R5K-SCORE-1", f"seat {seat} hand_score {hs} != bonus {bonus} + "
                                      f"table_value {tv} - hand_value {hv}")
        if tot != self.trace_totals[seat] + hs:
            self._flag("C-SCORE-3", f"seat {seat} total_after {tot} != previous total "
                                    f"{self.trace_totals[seat]} + hand_score {hs}")
        self.trace_totals[seat] = tot
        self.true_totals[seat] += self.exp_hs[seat]
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            self.dealer = (self.dealer + 1) % self.n  # R5K-DEAL-3
            self._decide_game_end()

    def _hand_value_rule(self, seat: int, hv: int) -> str:
        out = self.out_seat
        if self.cfg.michigan and out >= 0 and seat != out:
            return "V5K-7"
        if self.cfg.money and out >= 0 and self.hands[seat][QH] and self.wild != 12:
            return "V5K-12"
        if hv == self.plain_hv[seat]:
            return "R5K-VAL-2"
        return "R5K-SCORE-1"

    def _bonus_rule(self, seat: int, bonus: int) -> str:
        """Which part of the bonus is wrong: the first part that alone explains the trace's
        bonus when the other parts are right (money cards, then going out, then Michigan)."""
        out_p, mich_p, money_p = self.out_part[seat], self.mich_part[seat], self.money_part[seat]
        if self.cfg.money and bonus - out_p - mich_p in (0, 100, 200):
            return "V5K-12"
        if bonus - mich_p - money_p in (0, 200, 300, 500, 700, 800, 1000):
            return "R5K-DRAW-5" if self.end_due == 6 else "R5K-OUT-2"
        if self.cfg.michigan and seat == self.out_seat:
            return "V5K-7"
        return "R5K-SCORE-1"


# Debug aid: re-count every card after every record (slow; the unit tests switch it on).
_CHECK_CONSERVATION_EVERY_RECORD = False


def validate_trace_5k(trace: object, flags: Mapping[str, object] | None = None
                      ) -> ValidationResult:
    """Replay a 5000 Rummy ``trace`` and check it against RULES.md §4-5 under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement; every problem with
    the trace itself is a :class:`~sim.validate.Violation`.
    """
    cfg = _parse_flags(flags)
    rows, error = trace_rows(trace)
    if error is not None:
        return error
    rep = _Replayer(rows, cfg)
    rep.run()
    return ValidationResult(rep.games, rep.actions, rep.violations)
