"""5000 Rummy: the seats a rummy-call window asks (CALL_ASK) and the upcard offer (EXCHANGE_ASK),
checked when the trace records them (GAME_START column 7, docs/trace-format.md "Window asks").

V5K-3a / V5K-4a: every seat but the one whose turn or call turn just ended (and, in Persian 5000,
but its partner: docs/trace-format.md) is asked, clockwise from the seat whose normal turn is
next, until one calls; the call turn that follows is that seat's, on the pile card it named, and
a window where nobody calls is followed by the normal turn.  V5K-11: when the first player of the
hand draws from the stock, the upcard is offered to each following seat clockwise up to the dealer
until one swaps, and the EXCHANGE is that seat's.
"""

from __future__ import annotations

from rummysim.validate.asks import ASK_ANSWERS, ASK_CALL, ASK_CANNOT, ASK_PASS, AskWindow
from rummysim.validate.rum5000.phases import P_DRAW, P_TURN
from rummysim.validate.teams import partner_of
from rummysim.validate.trace import CALL_ASK, DRAW_STOCK, EXCHANGE, EXCHANGE_ASK, Replayer


class CallAsks(Replayer):
    """CALL_ASK and EXCHANGE_ASK records and what they bind the call turn and the swap to."""

    def _reset_call_asks(self) -> None:
        self.call_asks: AskWindow | None = None
        self.offer_asks: AskWindow | None = None  # V5K-11 upcard offer of the turn
        self.pending_call: tuple[int, int] | None = None  # (caller, pile index) the asks gave
        self.asked_claim = -1  # the pile index the call turn must take

    def _call_rule(self) -> str:
        return "V5K-4a" if self.cfg.rummy == "any_cards" else "V5K-3a"

    def _open_call_asks(self) -> None:
        """A turn ended with the window open: the seats it must ask, in V5K-3a's order."""
        self._reset_call_asks()
        if not (self.asks_on and self.window):
            return
        n, last = self.n, self.cur
        barred = {last, partner_of(last)} if self.teams else {last}
        order = [(self.next_seat + j) % n for j in range(n)]
        self.call_asks = AskWindow([s for s in order if s not in barred])

    def _close_call_asks(self, kind: int) -> None:
        """Before each record: a record other than CALL_ASK closes the window being asked."""
        if self.offer_asks is not None and kind != EXCHANGE_ASK and kind != EXCHANGE:
            self._close_offer(kind)
        win = self.call_asks
        if win is None or kind == CALL_ASK:
            return
        self.call_asks = None
        if win.caller >= 0:
            self.pending_call = (win.caller, win.claim)
            return
        message = win.unfinished()
        if message is not None:
            self.flag(self._call_rule(), f"rummy window after seat {self.cur}'s turn: {message}")

    def _close_offer(self, kind: int) -> None:
        """V5K-11: a stock draw ends the offer, which then asked every seat or ended at a swap;
        any other draw (the upcard taken, going out without drawing) comes with no offer."""
        offer, self.offer_asks = self.offer_asks, None
        if kind == DRAW_STOCK:
            message = offer.unfinished()
            if message is not None:
                self.flag("V5K-11", f"upcard offer: {message}")
        elif offer.pos > 0:
            self.flag("V5K-11", "the upcard was offered, but the first player does not draw from "
                                "the stock")

    def _exchange_ask(self, row: list[int]) -> None:
        if self.phase != P_DRAW:
            self._unexpected(row)
        seat, answer = row[1], row[2]
        if not self.asks_on:
            self.flag("TRACE-FORMAT", "EXCHANGE_ASK, but GAME_START column 7 does not declare "
                                      "window asks")
            return
        win = self.offer_asks
        if win is None:
            self.flag("V5K-11", f"EXCHANGE_ASK of seat {seat} outside the upcard offer of the "
                                "hand's first turn")
            return
        if answer not in (ASK_PASS, ASK_CALL):
            self.fail("TRACE-FORMAT", f"EXCHANGE_ASK answer {answer} (1 declines, 2 swaps)")
        message = win.ask(seat)
        if message is not None:
            self.flag("V5K-11", f"upcard offer: {message}")
        if answer == ASK_CALL and win.caller < 0:
            win.caller = seat

    def _check_offer_swap(self, seat: int) -> None:
        """EXCHANGE: the swap is the one the offer's asks gave."""
        win = self.offer_asks
        if self.asks_on and (win is None or win.caller != seat):
            swapper = win.caller if win is not None else -1
            self.flag("V5K-11", f"EXCHANGE by seat {seat}; the offer's asks give seat {swapper}")

    def _call_ask(self, row: list[int]) -> None:
        if self.phase != P_TURN:
            self._unexpected(row)
        seat, answer, k, n_claims = row[1], row[2], row[3], row[4]
        if not self.asks_on:
            self.flag("TRACE-FORMAT", "CALL_ASK, but GAME_START column 7 does not declare "
                                      "window asks")
            return
        win = self.call_asks
        if win is None:
            if self.end_due != 4:  # at the turn cap the kernels still ask (an engine limit)
                self.flag(self._call_rule(), f"CALL_ASK of seat {seat} without an open rummy "
                                             "window")
            return
        if answer not in ASK_ANSWERS:
            self.fail("TRACE-FORMAT", f"CALL_ASK answer {answer} (0 no claim, 1 pass, 2 call)")
        if (answer == ASK_CANNOT) != (n_claims == 0):
            self.flag("TRACE-FORMAT", f"CALL_ASK answer {answer} with {n_claims} legal claims")
        message = win.ask(seat)
        if message is not None:
            self.flag(self._call_rule(), f"rummy window after seat {self.cur}'s turn: {message}")
        if answer == ASK_CALL:
            if not 0 <= k < len(self.pile):
                self.flag("TRACE-FORMAT", f"CALL_ASK claims pile index {k} (pile size "
                                          f"{len(self.pile)})")
            if win.caller < 0:
                win.caller, win.claim = seat, k
        elif k != -1:
            self.flag("TRACE-FORMAT", f"CALL_ASK without a call names pile index {k}")

    def _check_asked_turn(self, seat: int, kind: int) -> None:
        """TURN_START: a call turn is the first caller's, and a call the asks gave is played."""
        if not self.asks_on:
            return
        call, self.pending_call = self.pending_call, None
        self.asked_claim = -1
        self.offer_asks = None
        if kind == 0 and self.cfg.first_turn == "exchange_upcard" and not any(self.had_turn):
            self.offer_asks = AskWindow([(seat + j) % self.n for j in range(1, self.n)])
        if kind == 1 and self.window:
            if call is None:
                self.flag(self._call_rule(), f"rummy-call turn of seat {seat}, but no seat "
                                             "asked in the window called")
            elif call[0] != seat:
                self.flag(self._call_rule(), f"rummy-call turn of seat {seat}; seat {call[0]} "
                                             "called first")
            else:
                self.asked_claim = call[1]
        elif call is not None:
            self.flag(self._call_rule(), f"seat {call[0]} called a rummy, but seat {seat}'s "
                                         "normal turn follows")

    def _check_asked_claim(self, k: int) -> None:
        """A call turn's TAKE_PILE takes the pile index the caller named when asked."""
        if self.asked_claim >= 0 and k != self.asked_claim:
            self.flag(self._call_rule(), f"the caller takes from pile index {k}; its call named "
                                         f"index {self.asked_claim}")
