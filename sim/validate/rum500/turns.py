"""The end of a 500 Rum / Standard Rummy turn: emptying the hand (R500-OUT-1, V500-DISCREQ,
V500-FLOAT), out-of-turn melds (V500-OUTOFTURN), the discard (R500-DISC-2, V500-DISCSAME,
V500-UNPLAYABLE), FLOAT, and what must happen next (the idle guard R500-STOCK-2, V500-STOCKEND
end_immediately, the turn cap, the rummy and out-of-turn windows)."""

from __future__ import annotations

from rummysim.validate.cards import VALID_CARD, card_name
from rummysim.validate.rum500.phases import P_DRAW, P_FLOAT, P_OOT, P_OUT, P_PLAY, P_TURN
from rummysim.validate.rum500.table import fits_table
from rummysim.validate.trace import ADDOPP_LAYOFF, DISCARD, LAYOFF, Replayer


class TurnEnd(Replayer):
    """Going out, out-of-turn melds, the discard and the end of a turn."""

    def _hand_emptied(self, oot: bool = False) -> None:
        """The seat laid down its last card (R500-OUT-1, V500-DISCREQ, V500-FLOAT-1)."""
        go = self.cfg.going_out
        if go == "floating":
            self.float_ctx = "oot" if oot else "turn"
            self.float_after_discard = False
            self.phase = P_FLOAT
            return
        if go == "discard_required":
            self.flag(
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
        self.phase = P_OUT

    def _check_duty_at_turn_end(self) -> None:
        sel = self.duty_sel
        if sel >= 0:
            rule = self.duty_rule
            if rule == "R500-DRAW-3":
                what = "took a card below the top"
            elif rule == "V500-TOPMUST":
                what = "took the top card"
            elif rule == "V500-GAMBIT-6":
                what = "took by a split"
            else:
                what = "claimed"
            self.flag(
                rule,
                f"{what} ({card_name(sel)}) from the discard pile but did not meld it this "
                "turn (R500-DRAW-3/5, V500-RUMMY-3, C-LEGAL-1)",
            )
            self.duty_sel = -1

    # ---- out-of-turn melds (V500-OUTOFTURN) ---------------------------------------------

    def _out_of_turn(self, row: list[int]) -> None:
        if self.phase != P_TURN:
            self._unexpected(row)
        seat = row[1]
        n = self.n
        if not 0 <= seat < n:
            self.fail("TRACE-FORMAT", f"OUT_OF_TURN seat {seat} is not a seat")
        if self.end_due:
            self._unexpected(row)
        if not self.cfg.oot:
            self.flag("V500-OUTOFTURN", "OUT_OF_TURN but r500_meld_out_of_turn=false")
        elif not self.oot_open:
            self.flag("V500-OUTOFTURN",
                       "OUT_OF_TURN without an open window (the window follows a discard that "
                       "does not end the hand, before the next player draws)")
        disc = self.win_discarder
        dist = (seat - disc) % n if disc >= 0 else n
        if seat == disc:
            self.flag("V500-OUTOFTURN", f"seat {seat} melds out of turn after its own discard")
        elif dist <= self.oot_last:
            self.flag("V500-OUTOFTURN",
                       f"seat {seat} melds out of turn out of clockwise order from the seat left "
                       f"of the discarder (seat {disc}), or twice in one window")
        self.oot_last = max(self.oot_last, dist)
        self._check_oot_seat_asked(seat)
        self.rummy_open = False  # the rummy window closes before the out-of-turn window
        self.last_call_layoff = False
        self.cur = seat
        self.oot_melds = 0
        self.open_acc = 0
        self.open_any = False
        self.phase = P_OOT

    def _close_oot(self, kind: int) -> None:
        """A record other than MELD/CARD ends the out-of-turn seat's melds."""
        if kind in (LAYOFF, ADDOPP_LAYOFF):
            self.fail("V500-OUTOFTURN", "lay-off in an out-of-turn window (new melds only)")
        if kind == DISCARD:
            self.fail("V500-OUTOFTURN", "discard in an out-of-turn window")
        if self.oot_melds == 0:
            self.flag("TRACE-FORMAT", f"OUT_OF_TURN of seat {self.cur} without a MELD")
        self._check_open(self.cur)
        self.phase = P_TURN

    # ---- discard and end of turn --------------------------------------------------------

    def _discard(self, row: list[int]) -> None:
        if self.phase != P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        card = row[2]
        if not (0 <= card <= 64 and VALID_CARD[card]):
            self.fail("TRACE-FORMAT", f"invalid card id {card}")
        seat = self.cur
        if self.call_layoff:
            self.flag("V500-RUMMY-6", "a layoff_only caller does not discard")
        hc = self.hands[seat]
        held = hc[card]
        if held <= 0:
            self.fail(
                "C-CARD-CONSERVATION",
                f"seat {seat} discards {card_name(card)} but does not hold it",
            )
        r = self.restricted.get(card, 0)
        if r and r >= held:  # every copy held is a restricted taken card
            if self.std or self.cfg.discard_restriction == "top_single":
                self.flag(
                    "R500-DISC-2",
                    f"discards {card_name(card)}, the top card taken alone this turn",
                )
            else:
                self.flag(
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
                and fits_table(self.melds, card, cfg.corner, self.max_pos, persian=self.persian,
                               owners=self.lay_owners(seat),  # the seat's own lay-off rights
                               wild=self.jokers_wild)  # V500-GAMBIT-3/5: no sealed meld
            ):
                # V500-UNPLAYABLE-1: a playable last card stays on the pile; the player floats
                self._check_duty_at_turn_end()
                self.float_ctx = "turn"
                self.float_after_discard = True
                self.phase = P_FLOAT
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
        if ph != P_FLOAT:
            if (
                ph == P_DRAW
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
            self.fail("TRACE-FORMAT", f"FLOAT for seat {seat}; seat {self.cur} has 0 cards")
        if self.float_ctx == "oot":
            self._check_open(seat)
            self.phase = P_TURN  # the out-of-turn window goes on
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
        self._open_window_asks()
        self.last_call_layoff = self.call_layoff
        self.call_layoff = False
        self.phase = P_TURN
