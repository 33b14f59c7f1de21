"""The end of a 5000 Rummy turn: emptying the hand (R5K-OUT-1/2/3, V5K-5b, V5K-6), the discard
(V5K-5a), FLOAT, and what must happen next (R5K-DRAW-5 stall, R5K-STOCK-1 c, the turn cap, the
rummy window of V5K-3/4)."""

from __future__ import annotations

from rummysim.validate.rum5000.phases import D_SKIP, P_FLOAT, P_OUT, P_PLAY, P_TURN
from rummysim.validate.rum5000.table import addable
from rummysim.validate.trace import Replayer


class TurnEnd(Replayer):
    """Going out, the discard and the end of a 5000 Rummy turn."""

    def _hand_emptied(self) -> None:
        """The seat's last card went on the table: out (R5K-OUT-1, V5K-6) or floating (V5K-5b)."""
        if self.cfg.going_out == "unmeldable_discard":
            self.float_after_discard = False
            self.phase = P_FLOAT
        else:
            self.out_by_discard = False
            self._went_out()

    def _went_out(self) -> None:
        """R5K-OUT-1/2/3: the hand ends at once; 500 / 300 / 200 (AMB-28)."""
        self._missed_duty()
        if self.draw == D_SKIP and self.out_by_discard:
            self.flag("R5K-OUT-3", "a turn without a draw goes out by melding every card, "
                                    "with no discard")
        self.out_seat = self.cur
        if self.kind == 0 and self.first_of_seat:
            self.out_bonus = 500 if self.draw == D_SKIP else 300
        else:
            self.out_bonus = 200
        self.end_due = 1
        self.end_ok = {1}
        self.phase = P_OUT

    def _discard(self, row: list[int]) -> None:
        if self.phase != P_PLAY:
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
                                and addable(card, self.melds, self.wild)):
            self._missed_duty()
            self.float_after_discard = True  # V5K-6, V5K-5a/5b
            self.phase = P_FLOAT
            return
        self.out_by_discard = True
        self._went_out()

    def _float(self, row: list[int]) -> None:
        if self.phase != P_FLOAT:
            self._unexpected(row)
        if row[1] != self.cur:
            self.fail("TRACE-FORMAT", f"FLOAT for seat {row[1]}; seat {self.cur} has 0 cards")
        self._end_turn()

    def _end_turn(self) -> None:
        """The turn is over (DISCARD or FLOAT): counts, hand-end conditions, rummy window."""
        self._missed_duty()
        n = self.n
        if self.draw == D_SKIP:
            self.flag("R5K-OUT-3", f"seat {self.cur} skipped the draw but did not go out by "
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
        self._open_call_asks()
        self.phase = P_TURN
