"""The Rummikub replayer: its state, the record dispatch, the rule a record out of place breaks,
and the game and round setup (GAME_START, HAND_START, DECK, FIRST_TILE and the deal).

The turn records are checked in ``turns.py`` (draws, passes, penalties, the turn order and the
pass count) and ``plays.py`` (the INITIAL, TABLE and ATTEMPT blocks); round end, scores and game
end in ``scoring.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from rummysim.validate.rummikub.config import Config
from rummysim.validate.rummikub.phases import (
    ACTION_KINDS,
    P_AFTER_ATTEMPT,
    P_AFTER_INITIAL,
    P_BLOCK,
    P_BODY,
    P_DECK,
    P_DONE,
    P_FIRST_TILE,
    P_GAME_OVER,
    P_GAME_START,
    P_HAND_START,
    P_OUT,
    P_PENALTY_DRAWS,
    P_TURN,
    PHASE_NAMES,
    T_DRAW,
    T_PASS,
    T_PENALTY,
    T_PLAY,
    USED_COLS,
)
from rummysim.validate.rummikub.plays import Block, PlayChecks
from rummysim.validate.rummikub.scoring import Scoring
from rummysim.validate.rummikub.tiles import (
    PACK,
    PACK_SIZE,
    RACK_SIZE,
    VALID_TILE,
    Combo,
    first_tile_rank,
    tile_name,
)
from rummysim.validate.rummikub.turns import TurnChecks
from rummysim.validate.trace import (
    ATTEMPT,
    COMBO,
    DECK,
    DRAW_STOCK,
    FIRST_TILE,
    GAME_CODE_RUMMIKUB,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    INITIAL,
    PASS,
    PENALTY,
    RECORD_NAMES,
    SCORE,
    TABLE,
    TILE,
    TURN_START,
)

_BLOCKS = (INITIAL, TABLE, ATTEMPT)


class RummikubReplayer(TurnChecks, PlayChecks, Scoring):
    """Replays Rummikub games record by record."""

    USED_COLS = USED_COLS
    ACTION_KINDS = ACTION_KINDS
    PHASE_NAMES = PHASE_NAMES
    UNDEALT_PHASES = frozenset({P_GAME_START, P_HAND_START, P_DECK, P_DONE})
    START_PHASE = P_GAME_START
    DONE_PHASE = P_DONE
    UNKNOWN_KIND = "record kind {kind} is not a Rummikub record"

    def __init__(self, rows: list[list[int]], cfg: Config) -> None:
        super().__init__(rows, cfg)
        self.cfg: Config = cfg
        self.n = 0
        self.cur = -1
        self.pool: list[int] = []
        self.pool_pos = 0
        self.racks: list[Counter[int]] = []
        self.table: list[Combo] = []
        self.block: Block | None = None
        self.dispatch = {
            GAME_START: self._game_start,
            HAND_START: self._hand_start,
            DECK: self._deck,
            FIRST_TILE: self._first_tile,
            TURN_START: self._turn_start,
            DRAW_STOCK: self._draw_stock,
            PASS: self._pass,
            INITIAL: self._block_start,
            TABLE: self._block_start,
            ATTEMPT: self._block_start,
            COMBO: self._combo,
            TILE: self._tile,
            PENALTY: self._penalty,
            HAND_END: self._hand_end,
            SCORE: self._score,
            GAME_END: self._game_end,
        }

    # ---- a record out of place ----------------------------------------------------------

    def _unexpected(self, row: list[int]) -> NoReturn:
        """A record the current phase does not allow: name the rule it breaks."""
        kind = row[0]
        name = RECORD_NAMES.get(kind, str(kind))
        ph = self.phase
        rule, msg = "TRACE-FORMAT", f"unexpected {name} record ({PHASE_NAMES.get(ph, ph)})"
        if ph == P_TURN and kind in (*_BLOCKS, DRAW_STOCK, PASS):
            rule, msg = self._second_action(name)
        elif ph == P_TURN and kind == TURN_START and self.must_end:
            rule = self._end_rule_due()
            msg = f"the round must end here ({self._end_text()}) but TURN_START follows"
        elif ph == P_BODY and kind in (TURN_START, HAND_END):
            rule, msg = "RKUB-TURN-1", (f"seat {self.cur}'s turn neither draws, passes nor "
                                        "plays")
        elif ph == P_BODY and kind == PENALTY:
            rule, msg = "RKUB-TIME-1", "PENALTY without an ATTEMPT before it"
        elif ph == P_AFTER_INITIAL:
            msg = f"{name} after the INITIAL block; the initial-meld turn has a TABLE block next"
        elif ph == P_AFTER_ATTEMPT:
            rule, msg = "RKUB-TIME-1", f"{name} after an ATTEMPT; an invalid table is undone by "\
                                       "PENALTY"
        elif ph == P_PENALTY_DRAWS:
            rule, msg = "RKUB-TIME-1", (f"{name} while {self.draws_due} penalty draw(s) are "
                                        "still due")
        elif ph == P_OUT:
            rule, msg = "RKUB-END-1", (f"{name} after seat {self.out_seat} played its last tile; "
                                       "the round ends at once")
        elif ph == P_BLOCK:
            msg = f"{name} inside an unfinished {RECORD_NAMES[self.block.kind]} block"
        elif ph == P_GAME_OVER and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else "RKUB-GAME-1"
            msg = (f"the game must end after {self.rounds_played} round(s) but another round is "
                   "dealt")
        self.fail(rule, msg)

    def _second_action(self, name: str) -> tuple[str, str]:
        """A draw, pass or play record after the turn's action is over."""
        done = self.turn_kind
        if done == T_DRAW:
            if name == "DRAW_STOCK":
                return "RKUB-TURN-1", "a second DRAW_STOCK: drawing one tile ends the turn"
            return "RKUB-TURN-3", (f"{name} after the turn's draw: the drawing ends the turn and "
                                   "a drawn tile cannot be played on that turn")
        if done == T_PENALTY:
            return "RKUB-TIME-1", f"{name} after the penalty draws, which end the turn"
        if done == T_PASS:
            return "RKUB-TURN-1", f"{name} after the turn's PASS"
        if done == T_PLAY:
            return "TRACE-FORMAT", f"{name} after the turn's TABLE block, which ends the play"
        return "TRACE-FORMAT", f"{name} before any TURN_START"

    # ---- small checks -------------------------------------------------------------------

    def _seat_ok(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.n:
            self.fail("TRACE-FORMAT", f"{what} seat {seat} is not a seat")

    def _check_seat(self, seat: int, what: str) -> None:
        if seat != self.cur:
            self.fail("TRACE-FORMAT", f"{what} for seat {seat} during seat {self.cur}'s turn")

    def _pool_left(self) -> int:
        return PACK_SIZE - self.pool_pos

    # ---- game level ---------------------------------------------------------------------

    def _game_start(self, row: list[int]) -> None:
        if self.phase not in (P_GAME_START, P_DONE):
            self._unexpected(row)
        self.games += 1
        self.game_index = row[3]
        self.bad_unused = set()
        n, dealer, rounds, code, direction = row[1], row[2], row[4], row[5], row[6]
        if code != GAME_CODE_RUMMIKUB:
            self.flag("TRACE-FORMAT", f"GAME_START game code {code}, but the game is Rummikub "
                                      f"({GAME_CODE_RUMMIKUB})")
        if not 2 <= n <= 4:
            self.fail("RKUB-SET-2", f"{n} players; Rummikub is for 2-4 players")
        if dealer != -1:
            self.flag("TRACE-FORMAT", f"GAME_START column 2 is {dealer}; Rummikub has no "
                                      "dealer (-1)")
        if rounds != self.cfg.rounds:
            self.flag("RKUB-GAME-1", f"GAME_START rounds {rounds}, expected rkub_rounds = "
                                     f"{self.cfg.rounds}")
        want = 1 if self.cfg.counterclockwise else 0
        if direction != want:
            self.flag("VKUB-DIR", f"GAME_START direction {direction}, expected {want} "
                                  f"(rkub_direction)")
        self.n = n
        self.step = n - 1 if self.cfg.counterclockwise else 1  # VKUB-DIR, RKUB-DIR-1
        self.true_totals = [0] * n  # recomputed by the checker
        self.trace_totals = [0] * n  # as the trace states them
        self.rounds_played = 0
        self.phase = P_HAND_START

    # ---- deal ---------------------------------------------------------------------------

    def _hand_start(self, row: list[int]) -> None:
        if self.phase != P_HAND_START:
            self._unexpected(row)
        index, dealer, pack_size, rack_size, first = row[1], row[2], row[3], row[4], row[5]
        if index != self.rounds_played:
            self.flag("TRACE-FORMAT", f"round_index {index}, expected {self.rounds_played}")
        if dealer != -1:
            self.flag("TRACE-FORMAT", f"HAND_START column 2 is {dealer}; Rummikub has no "
                                      "dealer (-1)")
        if pack_size != PACK_SIZE:
            self.fail("RKUB-SET-1", f"pack_size {pack_size}; Rummikub has {PACK_SIZE} tiles")
        if rack_size != RACK_SIZE:
            self.flag("RKUB-SETUP-2", f"rack size {rack_size}; each player takes {RACK_SIZE}")
        self._seat_ok(first, "HAND_START first_player")
        self.first_player = first
        self.pool = [-1] * PACK_SIZE
        self.pool_filled = 0
        self.phase = P_DECK

    def _deck(self, row: list[int]) -> None:
        if self.phase != P_DECK:
            self._unexpected(row)
        off = row[1]
        for j in range(6):
            t = row[2 + j]
            if t == -1:
                continue
            p = off + j
            if not 0 <= p < PACK_SIZE:
                self.fail("TRACE-FORMAT", f"DECK tile at position {p} >= {PACK_SIZE}")
            if t not in VALID_TILE:
                self.fail("TRACE-FORMAT", f"invalid tile id {t} in DECK")
            if self.pool[p] != -1:
                self.fail("TRACE-FORMAT", f"DECK position {p} given twice")
            self.pool[p] = t
            self.pool_filled += 1
        if self.pool_filled == PACK_SIZE:
            self._deal()

    def _deal(self) -> None:
        """RKUB-SET-1 pool; RKUB-SETUP-1/2 racks (trace spec: seat s's first tile is pool position
        s, then 13 tiles from position n + 13 s; the pool is drawn from position 14 n)."""
        counts = Counter(self.pool)
        if counts != PACK:
            missing = sorted(tile_name(t) for t in (PACK - counts).elements())
            extra = sorted(tile_name(t) for t in (counts - PACK).elements())
            self.fail("RKUB-SET-1", "the pool is not 2 x 52 numbered tiles and 2 jokers: missing "
                                    f"{missing}, extra {extra}")
        n = self.n
        pool = self.pool
        self.racks = [Counter([pool[s]] + pool[n + 13 * s:n + 13 * s + 13]) for s in range(n)]
        self.pool_pos = RACK_SIZE * n
        self.table = []
        self.first_seen = 0
        self.phase = P_FIRST_TILE

    def _first_tile(self, row: list[int]) -> None:
        if self.phase != P_FIRST_TILE:
            if self.phase == P_DECK:
                self.fail("TRACE-FORMAT", f"FIRST_TILE after only {self.pool_filled} of "
                                          f"{PACK_SIZE} DECK positions")
            self._unexpected(row)
        seat, tile = row[1], row[2]
        if seat != self.first_seen:
            self.fail("TRACE-FORMAT", f"FIRST_TILE for seat {seat}; seat {self.first_seen} "
                                      "comes next (seat order)")
        if tile != self.pool[seat]:
            self.flag("RKUB-SETUP-1", f"seat {seat}'s first tile is {tile_name(self.pool[seat])} "
                                      f"(pool position {seat}), FIRST_TILE says {tile_name(tile)}")
        self.first_seen += 1
        if self.first_seen == self.n:
            self._check_first_player()
            self._start_round_state()

    def _check_first_player(self) -> None:
        """RKUB-SETUP-1, AMB-41: the first player drew a highest first tile (a joker above 13)."""
        ranks = [first_tile_rank(self.pool[s]) for s in range(self.n)]
        top = max(ranks)
        if ranks[self.first_player] != top:
            best = [s for s in range(self.n) if ranks[s] == top]
            self.flag("RKUB-SETUP-1", f"first player {self.first_player} drew "
                                      f"{tile_name(self.pool[self.first_player])}; the highest "
                                      f"first tile is seat(s) {best}'s")

    def _start_round_state(self) -> None:
        n = self.n
        self.table = []
        self.initial_done = [False] * n  # RKUB-INIT-30
        self.turns = 0
        self.passes = 0  # consecutive turns on an empty pool that did not play
        self.pass_records = 0  # consecutive PASS records
        self.next_seat = self.first_player
        self.out_seat = -1
        self.end_ok: set[int] = set()
        self.must_end = False
        self.turn_kind = -1
        self.cur = -1
        self.phase = P_TURN
