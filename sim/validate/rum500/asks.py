"""500 Rum: the seats the rummy-call and out-of-turn windows ask (RUMMY_ASK, OOT_ASK), checked
when the trace records them (GAME_START column 7, docs/trace-format.md "Window asks").

V500-RUMMY-1: after a discard that does not end the hand every seat but the discarder (with
partners, but the discarder's partner too: docs/rules-decisions.md) is asked, clockwise from the
discarder's left, until one calls; the call turn that follows is that seat's, on the pile card it
named, and a window where nobody calls is followed by no call.  V500-OUTOFTURN: then, unless
someone called (E12), every seat but the discarder is offered new melds in the same order, and a
seat's out-of-turn melds follow its own OOT_ASK.
"""

from __future__ import annotations

from rummysim.validate.asks import ASK_ANSWERS, ASK_CALL, ASK_CANNOT, AskWindow
from rummysim.validate.rum500.phases import P_TURN
from rummysim.validate.teams import partner_of
from rummysim.validate.trace import (CARD, DOUBLE, FLOAT, HAND_END, MELD, OOT_ASK, OUT_OF_TURN, RECORD_NAMES,
                                     RUMMY_ASK, Replayer)

#: records that may come while an out-of-turn window is asking its seats (DOUBLE: a Dealer's gambit
#: marker on a meld as it is melded, out of turn too, V500-GAMBIT-5)
_IN_OOT_WINDOW = frozenset({OOT_ASK, OUT_OF_TURN, MELD, CARD, DOUBLE, FLOAT})


class WindowAsks(Replayer):
    """RUMMY_ASK / OOT_ASK records and what they bind the call turn and the out-of-turn melds to."""

    def _reset_window_asks(self) -> None:
        self.rummy_asks: AskWindow | None = None
        self.oot_asks: AskWindow | None = None
        self.pending_call: tuple[int, int] | None = None  # (caller, pile index) the asks gave
        self.asked_claim = -1  # the pile index the call turn must take

    def _open_window_asks(self) -> None:
        """A discard opened the windows: the seats each must ask, in RULES.md's order."""
        self._reset_window_asks()
        if not self.asks_on:
            return
        disc, n = self.win_discarder, self.n
        order = [(disc + i) % n for i in range(1, n)]
        if self.rummy_open:
            partner = partner_of(disc) if self.teams else -1
            self.rummy_asks = AskWindow([s for s in order if s != partner])
        if self.oot_open:
            self.oot_asks = AskWindow(order)

    def _close_window_asks(self, kind: int) -> None:
        """Before each record: a record that is not an ask closes the window being asked."""
        win = self.rummy_asks
        if win is not None and kind != RUMMY_ASK:
            self.rummy_asks = None
            if win.caller >= 0:
                self.pending_call = (win.caller, win.claim)
                self.oot_asks = None  # a call closes the discard's out-of-turn window (E12)
            else:
                self._report(win.unfinished(), "V500-RUMMY-1", "rummy window")
        oot = self.oot_asks
        if oot is not None and self.rummy_asks is None and kind not in _IN_OOT_WINDOW:
            self.oot_asks = None
            if kind != HAND_END:  # a seat went out in the window: the others are not asked
                self._report(oot.unfinished(), "V500-OUTOFTURN", "out-of-turn window")

    def _report(self, message: str | None, rule: str, what: str) -> None:
        if message is not None:
            self.flag(rule, f"{what} after seat {self.win_discarder}'s discard: {message}")

    def _declared(self, row: list[int]) -> bool:
        if self.phase != P_TURN:
            self._unexpected(row)
        if not self.asks_on:
            self.flag("TRACE-FORMAT", f"{RECORD_NAMES[row[0]]}, but GAME_START column 7 does "
                                      "not declare window asks")
        return self.asks_on

    def _rummy_ask(self, row: list[int]) -> None:
        if not self._declared(row):
            return
        seat, answer, k, n_claims = row[1], row[2], row[3], row[4]
        win = self.rummy_asks
        if win is None:
            if self.end_due != 4:  # at the turn cap the kernels still ask (an engine limit)
                self.flag("V500-RUMMY-1", f"RUMMY_ASK of seat {seat} without an open rummy "
                                          "window")
            return
        if answer not in ASK_ANSWERS:
            self.fail("TRACE-FORMAT", f"RUMMY_ASK answer {answer} (0 no claim, 1 pass, 2 call)")
        if (answer == ASK_CANNOT) != (n_claims == 0):
            self.flag("TRACE-FORMAT", f"RUMMY_ASK answer {answer} with {n_claims} legal claims")
        rule = "V500-RUMMY-4" if seat == self.win_discarder else "V500-RUMMY-1"
        self._report(win.ask(seat), rule, "rummy window")
        if answer == ASK_CALL:
            if not 0 <= k < len(self.pile):
                self.flag("TRACE-FORMAT", f"RUMMY_ASK claims pile index {k} (pile size "
                                          f"{len(self.pile)})")
            if win.caller < 0:
                win.caller, win.claim = seat, k
        elif k != -1:
            self.flag("TRACE-FORMAT", f"RUMMY_ASK without a call names pile index {k}")

    def _oot_ask(self, row: list[int]) -> None:
        if not self._declared(row):
            return
        seat, holds = row[1], row[2]
        win = self.oot_asks
        if win is None and self.end_due == 4:
            return  # at the turn cap the kernels still ask (an engine limit)
        if win is None or self.pending_call is not None:
            self.flag("V500-OUTOFTURN", f"OOT_ASK of seat {seat} without an open out-of-turn "
                                        "window")
            return
        if not 0 <= seat < self.n:
            self.fail("TRACE-FORMAT", f"OOT_ASK seat {seat} is not a seat")
        if holds != (1 if self.hand_size[seat] > 0 else 0):
            self.flag("TRACE-FORMAT", f"OOT_ASK of seat {seat} says holds-cards {holds}; it holds "
                                      f"{self.hand_size[seat]}")
        self._report(win.ask(seat), "V500-OUTOFTURN", "out-of-turn window")

    def _check_oot_seat_asked(self, seat: int) -> None:
        """OUT_OF_TURN: the melds are those of the seat asked last, and only after no call."""
        if not self.asks_on:
            return
        win = self.oot_asks
        last = win.asked[-1] if win is not None and win.asked else None
        if self.pending_call is not None:
            self.flag("V500-OUTOFTURN", f"out-of-turn melds of seat {seat} after seat "
                                        f"{self.pending_call[0]} called Rummy")
        elif last != seat:
            self.flag("V500-OUTOFTURN", f"out-of-turn melds of seat {seat}, but the window's last "
                                        f"OOT_ASK was seat {last}'s")

    def _check_asked_turn(self, seat: int, kind: int) -> None:
        """TURN_START: a call turn is the first caller's, and a call the asks gave is played."""
        if not self.asks_on:
            return
        call, self.pending_call = self.pending_call, None
        self.asked_claim = -1
        if kind == 1 and self.rummy_open:
            if call is None:
                self.flag("V500-RUMMY-1", f"rummy-call turn of seat {seat}, but no seat asked "
                                          "in the window called")
            elif call[0] != seat:
                self.flag("V500-RUMMY-1", f"rummy-call turn of seat {seat}; seat {call[0]} "
                                          "called first")
            else:
                self.asked_claim = call[1]
        elif call is not None:
            self.flag("V500-RUMMY-1", f"seat {call[0]} called Rummy, but seat {seat}'s normal "
                                      "turn follows")

    def _check_asked_claim(self, k: int) -> None:
        """A call turn's TAKE_PILE takes the pile index the caller named when asked."""
        if self.asked_claim >= 0 and k != self.asked_claim:
            self.flag("V500-RUMMY-1", f"the caller takes from pile index {k}; its call named "
                                      f"index {self.asked_claim}")
