"""Rummikub turns: TURN_START and the turn order (RKUB-DIR-1, VKUB-DIR), drawing (RKUB-TURN-1/3),
passing on an empty pool (RKUB-END-2), the penalty of RKUB-TIME-1, and what must follow a turn
(the n consecutive passes of RKUB-END-2, AMB-42; the engine turn cap).

A penalty turn on an empty pool does not play, but it is not a PASS record either: the trace
spec's pass count is read both ways (V42 of docs/rules-decisions.md): the round may end once n
consecutive turns did not play, and must end once n consecutive PASS records were written.
"""

from __future__ import annotations

from rummysim.validate.rummikub.phases import (
    END_OUT,
    END_PASSES,
    END_TURN_CAP,
    P_AFTER_ATTEMPT,
    P_BODY,
    P_PENALTY_DRAWS,
    P_TURN,
    T_DRAW,
    T_NONE,
    T_PASS,
    T_PENALTY,
)
from rummysim.validate.rummikub.tiles import tile_name
from rummysim.validate.trace import Replayer


class TurnChecks(Replayer):
    """Turn order, draws, passes, penalties and the end of a Rummikub turn."""

    def _turn_start(self, row: list[int]) -> None:
        if self.phase != P_TURN or self.must_end:
            self._unexpected(row)
        seat, turn_no, pool_size = row[1], row[2], row[3]
        self._seat_ok(seat, "TURN_START")
        if seat != self.next_seat:
            if self.turns == 0:
                rule, why = "RKUB-SETUP-1", f"the first player is seat {self.first_player}"
            else:
                rule = "VKUB-DIR" if self.cfg.counterclockwise else "RKUB-DIR-1"
                way = "counterclockwise" if self.cfg.counterclockwise else "clockwise"
                why = f"play moves {way} from seat {self.cur} to seat {self.next_seat}"
            self.fail(rule, f"TURN_START for seat {seat}: {why}")
        if turn_no != self.turns:
            self.flag("TRACE-FORMAT", f"TURN_START turn_no {turn_no}, expected {self.turns}")
        if pool_size != self._pool_left():
            self.flag("TRACE-FORMAT", f"TURN_START pool_size {pool_size}, the pool holds "
                                      f"{self._pool_left()}")
        self.turns += 1
        self.cur = seat
        self.turn_table = list(self.table)  # the turn's old table (INITIAL appends to it)
        self.initial_turn = False
        self.start_pool = self._pool_left()
        self.turn_kind = T_NONE
        self.phase = P_BODY

    # ---- drawing and passing --------------------------------------------------------------

    def _draw_stock(self, row: list[int]) -> None:
        if self.phase not in (P_BODY, P_PENALTY_DRAWS):
            self._unexpected(row)
        self._check_seat(row[1], "DRAW_STOCK")
        tile = row[2]
        if self._pool_left() == 0:
            self.fail("RKUB-END-2", "DRAW_STOCK from an empty pool: once the pool is empty a "
                                    "player plays or passes")
        top = self.pool[self.pool_pos]
        if tile != top:
            self.fail("C-CARD-CONSERVATION", f"DRAW_STOCK of {tile_name(tile)} but the next pool "
                                             f"tile (position {self.pool_pos}) is "
                                             f"{tile_name(top)}")
        self.pool_pos += 1
        self.racks[self.cur][tile] += 1
        if self.phase == P_PENALTY_DRAWS:
            self.draws_due -= 1
            if self.draws_due == 0:
                self._end_turn()
            return
        self.turn_kind = T_DRAW
        self._end_turn()

    def _pass(self, row: list[int]) -> None:
        if self.phase != P_BODY:
            self._unexpected(row)
        self._check_seat(row[1], "PASS")
        if self.start_pool:
            self.flag("RKUB-TURN-1", f"PASS with {self.start_pool} tile(s) in the pool: a player "
                                     "who does not play draws (passing is for an empty pool, "
                                     "RKUB-END-2)")
        self.passes += 1
        self.pass_records += 1
        self.turn_kind = T_PASS
        self._end_turn()

    def _penalty(self, row: list[int]) -> None:
        """RKUB-TIME-1: the ATTEMPT is undone and the seat draws 3 tiles, or all that are left."""
        if self.phase != P_AFTER_ATTEMPT:
            self._unexpected(row)
        self._check_seat(row[1], "PENALTY")
        n_drawn = row[2]
        due = min(3, self._pool_left())
        if not 0 <= n_drawn <= self._pool_left():
            self.fail("TRACE-FORMAT", f"PENALTY draws {n_drawn} tiles from a pool of "
                                      f"{self._pool_left()}")
        if n_drawn != due:
            self.flag("RKUB-TIME-1", f"PENALTY draws {n_drawn} tile(s); the penalty is 3 tiles, "
                                     f"or all that are left ({due})")
        self.turn_kind = T_PENALTY
        if self.start_pool == 0:  # a turn on an empty pool that did not play (V42)
            self.passes += 1
            self.pass_records = 0
        if n_drawn == 0:
            self._end_turn()
            return
        self.draws_due = n_drawn
        self.phase = P_PENALTY_DRAWS

    # ---- after a turn ---------------------------------------------------------------------

    def _end_turn(self) -> None:
        """The turn is over: which HAND_END reasons may, or must, come next."""
        ok: set[int] = set()
        must = False
        if self.passes >= self.n:
            ok.add(END_PASSES)
            must = self.pass_records >= self.n
        if self.turns >= self.cfg.max_turns:
            ok.add(END_TURN_CAP)
            must = True
        self.end_ok = ok
        self.must_end = must
        self.next_seat = (self.cur + self.step) % self.n
        self.phase = P_TURN

    def _end_rule_due(self) -> str:
        if END_PASSES in self.end_ok and self.pass_records >= self.n:
            return "RKUB-END-2"
        return "ENGINE-TURN-CAP"

    def _end_text(self, reason: int | None = None) -> str:
        """Why the round ends (or may end) here."""
        reason = reason if reason is not None else (
            END_PASSES if END_PASSES in self.end_ok else END_TURN_CAP)
        if reason == END_OUT:
            return f"seat {self.out_seat} played its last tile"
        if reason == END_PASSES:
            return f"{self.passes} consecutive turns on an empty pool did not play"
        return f"turn cap max_turns_per_hand = {self.cfg.max_turns} reached"
