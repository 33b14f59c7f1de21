"""The 5000 Rummy replayer: its state, the record dispatch, the rule a record out of place breaks,
small shared checks, and the game and hand setup (GAME_START, HAND_START, DECK, the deal by face-up
cards, FACE_UP).

The checks are split by concern over the mixins it is made of: draws (``draws.py``), melds,
additions, joins and trades (``plays.py``), going out, the discard and the end of a turn
(``turns.py``), hand end, scores and game end (``scoring.py``), the stakes layers V5K-13/14
(``stakes.py``).
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from rummysim.validate.asks import ASKS_RECORDED, GAME_FEATURE_MASK
from rummysim.validate.cards import NATURAL_IDS, card_name
from rummysim.validate.rum5000.asks import CallAsks
from rummysim.validate.rum5000.config import Config, target_for
from rummysim.validate.rum5000.draws import DrawChecks
from rummysim.validate.rum5000.plays import PlayChecks
from rummysim.validate.rum5000.scoring import Scoring
from rummysim.validate.rum5000.stakes import STAKE_KINDS, STAKE_PHASES, StakesChecks
from rummysim.validate.rum5000.turns import TurnEnd
from rummysim.validate.teams import TEAM_SEATS, TeamLedger, team_of
from rummysim.validate.rum5000.phases import (
    ACTION_KINDS,
    D_SKIP,
    END_RULES,
    P_DECK,
    P_DONE,
    P_DRAW,
    P_FACE_UP,
    P_FLOAT,
    P_GAME_OVER,
    P_GAME_START,
    P_HAND_START,
    P_NODRAW,
    P_OUT,
    P_PLAY,
    P_STAKES_START,
    P_TEAM_SCORE,
    P_TURN,
    PHASE_NAMES,
    USED_COLS,
)
from rummysim.validate.rum5000.table import (
    NATURAL,
    PACK_SIZE,
    Meld,
    card_values,
    dealt_hand_size,
)
from rummysim.validate.trace import (
    ANTE,
    BEAVER,
    BET,
    CALL,
    CALL_ASK,
    CARD,
    CHECK,
    CONCEDE,
    STAKE_DOUBLE,
    DOUBLE_FOLD,
    DOUBLE_TAKE,
    HAND_STAKE,
    PAYOUT,
    RAISE,
    STAKES_START,
    DECK,
    EXCHANGE_ASK,
    DISCARD,
    DRAW_STOCK,
    EXCHANGE,
    FACE_UP,
    FLOAT,
    GAME_CODE_5000,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOIN,
    LAYOFF,
    MELD,
    NO_DRAW,
    PARTNERS_NONE,
    PARTNERS_PERSIAN_5000,
    RECORD_NAMES,
    SCORE,
    TAKE_ALL,
    TAKE_PILE,
    TEAM_SCORE,
    TRADE,
    TURN_START,
)


class Rum5000Replayer(StakesChecks, DrawChecks, PlayChecks, TurnEnd, Scoring, CallAsks):
    """Replays 5000 Rummy games record by record."""

    USED_COLS = USED_COLS
    ACTION_KINDS = ACTION_KINDS
    PHASE_NAMES = PHASE_NAMES
    UNDEALT_PHASES = frozenset({P_GAME_START, P_HAND_START, P_DECK, P_FACE_UP, P_DONE,
                                P_STAKES_START})
    START_PHASE = P_GAME_START
    DONE_PHASE = P_DONE
    UNKNOWN_KIND = "record kind {kind} is not a 5000 Rummy record"

    def __init__(self, rows: list[list[int]], cfg: Config) -> None:
        super().__init__(rows, cfg)
        self.cfg: Config = cfg
        self.teams = cfg.persian  # V5K-9: two partnerships
        self.ledger = TeamLedger("V5K-9")
        self.n = 0
        self.cur = -1
        self.hands: list[list[int]] = []
        self.hand_size: list[int] = []
        self.melds: list[Meld] = []
        self.pile: list[int] = []
        self.asks_on = False  # GAME_START column 7: the windows' asks are recorded
        self._reset_call_asks()
        self.dispatch = {
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
            TEAM_SCORE: self._team_score,
            GAME_END: self._game_end,
            STAKES_START: self._stakes_start,
            HAND_STAKE: self._hand_stake,
            STAKE_DOUBLE: self._double,
            DOUBLE_TAKE: self._double_take,
            DOUBLE_FOLD: self._double_fold,
            BEAVER: self._beaver,
            ANTE: self._ante,
            CHECK: self._check,
            BET: self._bet,
            CALL: self._call,
            RAISE: self._raise,
            CONCEDE: self._concede,
            PAYOUT: self._payout,
            CALL_ASK: self._call_ask,
            EXCHANGE_ASK: self._exchange_ask,
        }
        self.before_record = self._before_record

    def _before_record(self, kind: int) -> None:
        if self.asks_on:
            self._close_call_asks(kind)

    def _unexpected(self, row: list[int]) -> NoReturn:
        """A record the current phase does not allow: name the rule it breaks."""
        kind = row[0]
        if self.phase in STAKE_PHASES or kind in STAKE_KINDS:
            self._stakes_unexpected(row)
        name = RECORD_NAMES.get(kind, str(kind))
        ph = self.phase
        go = self.cfg.going_out
        rule, msg = "TRACE-FORMAT", f"unexpected {name} record ({PHASE_NAMES.get(ph, ph)})"
        if ph == P_OUT:
            rule = "R5K-OUT-1"
            msg = f"{name} after seat {self.out_seat} went out; the hand ends at once"
            if kind == FLOAT and self.out_by_discard and go == "unmeldable_discard":
                rule = "V5K-5a"
                msg = (f"FLOAT after seat {self.out_seat} discarded a last card that cannot be "
                       "added or traded: the player is out")
            elif kind == FLOAT and go == "meld_all":
                rule = "V5K-6"
                msg = f"FLOAT after seat {self.out_seat} melded the last card: that is going out"
        elif ph == P_FLOAT:
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
        elif ph == P_NODRAW:
            rule, msg = "R5K-STOCK-1", f"{name} after NO_DRAW on an empty stock; the hand ends"
        elif ph == P_TEAM_SCORE:
            rule, msg = "V5K-9", (f"{name} where the TEAM_SCORE record of team {self.team_seen} "
                                  "is expected (partnership scores)")
        elif kind == EXCHANGE:
            rule, msg = "V5K-11", f"EXCHANGE {PHASE_NAMES.get(ph, ph)}: only before the first draw"
        elif ph == P_DRAW and kind in (MELD, LAYOFF, JOIN, TRADE, DISCARD):
            rule, msg = "R5K-DRAW-1", f"{name} before the turn's draw"
        elif ph == P_PLAY and kind in (DRAW_STOCK, TAKE_PILE, TAKE_ALL, NO_DRAW, EXCHANGE):
            rule, msg = "R5K-DRAW-1", f"second draw {name} in one turn"
        elif ph == P_PLAY and kind in (TURN_START, HAND_END):
            rule = "R5K-OUT-3" if self.draw == D_SKIP else "R5K-PLAY-1"
            msg = f"{name} before the turn's discard (seat {self.cur} still holds cards)"
        elif ph == P_TURN and kind == TURN_START and self.end_due:
            rule = END_RULES[self.end_due]
            msg = f"the hand must end here ({self._end_text(self.end_due)}) but {name} follows"
        elif ph == P_GAME_OVER and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            who = "team" if self.teams else "seat"
            msg = (f"the game must end (winner {who} {self.exp_winner}) but another hand is "
                   "dealt")
        self.fail(rule, msg)

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

    # ---- small checks -------------------------------------------------------------------

    def _seat_ok(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.n:
            self.fail("TRACE-FORMAT", f"{what} seat {seat} is not a seat")

    def _check_seat(self, seat: int) -> None:
        if seat != self.cur:
            self.fail("TRACE-FORMAT", f"record for seat {seat} during seat {self.cur}'s turn")

    def _card_ok(self, card: int) -> None:
        if not (0 <= card < 64 and NATURAL[card]):
            self.fail("TRACE-FORMAT", f"invalid card id {card} (5000 Rummy has no jokers)")

    def rank_owner(self, seat: int) -> int:
        """Whose R5K-GROUP-2 limits a seat's group plays count against: the seat, or in
        Persian 5000 its partnership (V5K-9)."""
        return team_of(seat) if self.teams else seat

    def _is_wild(self, card: int) -> bool:
        return card & 15 == self.wild

    def _take_from_hand(self, seat: int, card: int, what: str) -> None:
        self._card_ok(card)
        hc = self.hands[seat]
        if hc[card] <= 0:
            self.fail("C-CARD-CONSERVATION",
                       f"seat {seat} {what} {card_name(card)} but does not hold it")
        hc[card] -= 1
        self.hand_size[seat] -= 1

    def _give_to_hand(self, seat: int, card: int) -> None:
        self.hands[seat][card] += 1
        self.hand_size[seat] += 1

    def _stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def _live_meld(self, meld_id: int, what: str) -> Meld:
        if not 0 <= meld_id < len(self.melds):
            self.fail("TRACE-FORMAT", f"{what} on meld {meld_id}, which is not on the table")
        m = self.melds[meld_id]
        if not m.alive:
            self.fail("TRACE-FORMAT", f"{what} on meld {meld_id}, which was joined into another "
                                       "sequence and no longer exists")
        return m

    # ---- game level ---------------------------------------------------------------------

    def _game_start(self, row: list[int]) -> None:
        if self.phase not in (P_GAME_START, P_DONE):
            self._unexpected(row)
        self.games += 1
        self.game_index = row[3]
        self.bad_unused = set()
        n, first_dealer, target, code = row[1], row[2], row[4], row[5]
        if code != GAME_CODE_5000:
            self.flag("TRACE-FORMAT", f"GAME_START game code {code}, but the game is 5000 "
                                       "Rummy (2)")
        if not 2 <= n <= 5:
            self.fail("R5K-SETUP-1", f"{n} players; 5000 Rummy is for 2-5 players")
        exp_code = PARTNERS_PERSIAN_5000 if self.teams else PARTNERS_NONE
        if row[6] != exp_code:
            self.flag("TRACE-FORMAT", f"GAME_START partnership code {row[6]}, but the flags give "
                                      f"{exp_code} (3: Persian 5000)")
        if self.teams and n != TEAM_SEATS:
            self.fail("V5K-9", f"{n} players; Persian 5000 is exactly 4 players in two "
                               "partnerships")
        if not 0 <= first_dealer < n:
            self.fail("TRACE-FORMAT", f"first_dealer {first_dealer} is not a seat")
        self.asks_on = bool(row[7] & ASKS_RECORDED)
        if row[7] & ~(ASKS_RECORDED | GAME_FEATURE_MASK):
            self.flag("TRACE-FORMAT", f"GAME_START column 7 {row[7]}: only the low byte (the game's "
                                      "feature: gambit, stakes mode) and bit 8 (window asks) are defined")
        self.n = n
        self.target = target_for(self.cfg, n)
        if target != self.target:
            self.flag("R5K-GAME-1", f"GAME_START target {target}, expected {self.target} "
                                     f"(r5k_target={self.cfg.target}, {n} players)")
        self.true_totals = [0] * n  # recomputed by the checker
        self.trace_totals = [0] * n  # as the trace states them
        self.ledger = TeamLedger("V5K-9")  # partnership totals (V5K-9)
        self.hands_played = 0
        self.dealer = first_dealer
        self.phase = P_HAND_START
        self._stakes_game_start(row)  # V5K-13/14: STAKES_START next

    # ---- deal ---------------------------------------------------------------------------

    def _hand_start(self, row: list[int]) -> None:
        if self.phase != P_HAND_START:
            self._unexpected(row)
        h, dealer, pack_size, first, wild = row[1], row[2], row[3], row[5], row[6]
        n = self.n
        if h != self.hands_played:
            self.flag("TRACE-FORMAT", f"hand_index {h}, expected {self.hands_played}")
        if dealer != self.dealer:
            self.fail("R5K-DEAL-3", f"dealer {dealer}, expected seat {self.dealer}")
        if pack_size != PACK_SIZE:
            self.fail("R5K-SETUP-2", f"pack_size {pack_size}; the pack is {PACK_SIZE} cards")
        if first != (dealer + 1) % n:
            self.fail("R5K-TURN-1", f"first_player {first}, expected {(dealer + 1) % n}")
        if not 1 <= wild <= 13:
            self.fail("R5K-WILD-1", f"wild rank {wild} is not a rank 1..13")
        self.wild = wild
        self.vals = card_values(wild)
        self.pack = [-1] * PACK_SIZE
        self.pack_filled = 0
        self.phase = P_DECK

    def _deck(self, row: list[int]) -> None:
        if self.phase != P_DECK:
            self._unexpected(row)
        off = row[1]
        for j in range(6):
            c = row[2 + j]
            if c == -1:
                continue
            p = off + j
            if not 0 <= p < PACK_SIZE:
                self.fail("TRACE-FORMAT", f"DECK card at position {p} >= {PACK_SIZE}")
            if not (0 <= c < 65):
                self.fail("TRACE-FORMAT", f"invalid card id {c} in DECK")
            if self.pack[p] != -1:
                self.fail("TRACE-FORMAT", f"DECK position {p} given twice")
            self.pack[p] = c
            self.pack_filled += 1
        if self.pack_filled == PACK_SIZE:
            self._deal()

    def _deal(self) -> None:
        """R5K-SETUP-2 pack, R5K-DEAL-1/2 blocks (trace spec: consecutive blocks from position 0
        in dealing order, the first card face up), upcard, stock."""
        pack = self.pack
        counts = Counter(pack)
        expected = Counter({c: 2 for c in NATURAL_IDS})
        if counts != expected:
            self.fail("R5K-SETUP-2", "the pack is not two 52-card decks without jokers: missing "
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
            size = dealt_hand_size(face) + (1 if extra and i == 0 else 0)  # V5K-10
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
        self.phase = P_FACE_UP

    def _face_up(self, row: list[int]) -> None:
        if self.phase != P_FACE_UP:
            if self.phase == P_DECK:
                self.fail("TRACE-FORMAT", f"FACE_UP after only {self.pack_filled} of "
                                           f"{PACK_SIZE} DECK positions")
            self._unexpected(row)
        seat, card, size = row[1], row[2], row[3]
        exp_seat, exp_card, exp_size = self.face_ups[self.face_up_seen]
        if seat != exp_seat:
            self.fail("TRACE-FORMAT", f"FACE_UP for seat {seat}; dealing order gives seat "
                                       f"{exp_seat} next")
        if card != exp_card:
            self.flag("R5K-DEAL-1", f"seat {seat}'s face-up card is {card_name(card)}, but the "
                                     f"first card of its block is {card_name(exp_card)}")
        if size != exp_size:
            self.flag("R5K-DEAL-1", f"seat {seat}: face-up {card_name(exp_card)} gives a hand of "
                                     f"{exp_size} cards, FACE_UP says {size}")
        self.face_up_seen += 1
        if self.face_up_seen == self.n:
            self._start_hand_state()

    def _start_hand_state(self) -> None:
        n = self.n
        self.melds = []
        # R5K-GROUP-2, per seat (per partnership in Persian 5000): rank -> the group used
        self.group_of: list[dict[int, int]] = [{} for _ in range(n)]
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
        self._reset_call_asks()
        self.cur = -1
        self.draw = -1
        self.phase = P_TURN
        self._stakes_hand_start()  # V5K-13/14: HAND_STAKE or the antes next

