"""5000 Rummy turn start and draws: TURN_START, rummy calls (V5K-3a/3b/3c, V5K-4a/4b/4c), the
first-turn variations (V5K-10 extra card, V5K-11 upcard exchange), stock draws, pile takes
(R5K-DRAW-1, V5K-5c), Polish take-all (V5K-8) and NO_DRAW (R5K-STOCK-1, R5K-OUT-3)."""

from __future__ import annotations

from collections import Counter

from rummysim.validate.cards import card_name
from rummysim.validate.rum5000.phases import (
    D_ALL,
    D_DECLINE,
    D_DEEP,
    D_DISCARD_ONLY,
    D_SKIP,
    D_STOCK,
    D_TOP,
    P_DECK,
    P_DRAW,
    P_FACE_UP,
    P_NODRAW,
    P_PLAY,
    P_TURN,
)
from rummysim.validate.rum5000.table import addable, placeable_with
from rummysim.validate.teams import partner_of
from rummysim.validate.trace import Replayer


class DrawChecks(Replayer):
    """Turn start and the draw phase of a 5000 Rummy turn."""

    def _turn_start(self, row: list[int]) -> None:
        ph = self.phase
        if ph in (P_DECK, P_FACE_UP):
            self.fail("TRACE-FORMAT", "TURN_START before the deal was fully listed "
                                       "(DECK / FACE_UP records)")
        if ph != P_TURN or self.end_due:
            self._unexpected(row)
        seat, turn_no, stock_size, pile_size, kind = row[1], row[2], row[3], row[4], row[5]
        self._seat_ok(seat, "TURN_START")
        if kind not in (0, 1):
            self.fail("TRACE-FORMAT", f"TURN_START turn kind {kind} (0 normal, 1 rummy call)")
        self._check_asked_turn(seat, kind)
        if kind == 1:
            self._check_call_allowed(seat)
        elif seat != self.next_seat:
            self.flag("R5K-TURN-1", f"seat {seat} plays; expected seat {self.next_seat}")
        if turn_no != self.turns:
            self.flag("TRACE-FORMAT", f"turn_no {turn_no}, expected {self.turns}")
        if stock_size != self._stock_left():
            self.flag("TRACE-FORMAT", f"TURN_START stock_size {stock_size}, replay has "
                                       f"{self._stock_left()}")
        if pile_size != len(self.pile):
            self.flag("TRACE-FORMAT", f"TURN_START pile_size {pile_size}, replay has "
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
        self.phase = P_DRAW

    def _check_call_allowed(self, seat: int) -> None:
        """V5K-3a / V5K-4a: calls are on, a window is open, and the caller is not embargoed."""
        mode = self.cfg.rummy
        rule = "V5K-4a" if mode == "any_cards" else "V5K-3a"
        if mode == "off":
            self.flag("V5K-3a", "rummy-call turn but r5k_rummy=off")
        elif not self.window:
            self.flag(rule, "rummy-call turn without an open window (a call follows a turn "
                             "that did not end the hand, before the next normal turn)")
        elif seat == self.embargo:
            self.flag(rule, f"seat {seat} calls right after its own turn ended (its own "
                             "discard or rummy)")
        elif self.teams and self.embargo >= 0 and seat == partner_of(self.embargo):
            # trace spec (Persian 5000): only the discarder's two opponents may call
            self.flag("V5K-9", f"seat {seat} calls a rummy on its partner seat {self.embargo}'s "
                               "turn: only the two opponents may call")

    def _check_first_turn_draw(self, draw: int) -> None:
        """V5K-10: the first player's first turn is NO_DRAW reason 3 and a discard; V5K-11: after
        a swap the first player draws from the stock."""
        if self.cfg.first_turn == "extra_card" and self.first_of_hand and draw != D_DISCARD_ONLY:
            self.flag("V5K-10", "the first player's first turn under extra_card only discards "
                                 "(NO_DRAW reason 3, AMB-33)")
        if self.exchanged and draw != D_STOCK:
            self.flag("V5K-11", "after a swap of the upcard the first player draws from the "
                                 "stock (AMB-32)")

    def _exchange(self, row: list[int]) -> None:
        """V5K-11: one other seat swaps a hand card for the upcard before the first draw."""
        if self.phase != P_DRAW:
            self._unexpected(row)
        seat, give, take = row[1], row[2], row[3]
        self._seat_ok(seat, "EXCHANGE")
        if self.cfg.first_turn != "exchange_upcard":
            self.flag("V5K-11", f"EXCHANGE but r5k_first_turn={self.cfg.first_turn}")
        elif not self.first_of_hand:
            self.flag("V5K-11", "EXCHANGE outside the first turn of the hand")
        elif self.exchanged:
            self.flag("V5K-11", "a second EXCHANGE: the first swap ends the offer")
        elif seat == self.cur:
            self.flag("V5K-11", "the first player takes the upcard or draws; it does not swap")
        self._check_offer_swap(seat)
        if len(self.pile) != 1 or self.pile[0] != take:
            shown = card_name(self.pile[-1]) if self.pile else "none"
            self.fail("C-CARD-CONSERVATION", f"EXCHANGE takes {card_name(take)} but the upcard "
                                              f"is {shown}")
        self._take_from_hand(seat, give, "swaps in")
        self._give_to_hand(seat, take)
        self.pile[0] = give
        self.exchanged = True

    def _draw_start(self, row: list[int], what: str) -> None:
        if self.phase != P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.kind == 1 and what != "TAKE_PILE":
            rule = "V5K-4c" if self.cfg.rummy == "any_cards" else "V5K-3c"
            self.fail(rule, f"{what} in a rummy-call turn: the caller takes from the pile")

    def _draw_stock(self, row: list[int]) -> None:
        self._draw_start(row, "DRAW_STOCK")
        self._check_first_turn_draw(D_STOCK)
        card = row[2]
        if not self._stock_left():
            self.fail("R5K-STOCK-1", "DRAW_STOCK from an empty stock")
        top = self.stock[self.stock_pos]
        if card != top:
            self.fail("C-CARD-CONSERVATION", f"DRAW_STOCK of {card_name(card)} but the top "
                                              f"stock card is {card_name(top)} (C-PILE-1)")
        self.stock_pos += 1
        self._give_to_hand(self.cur, card)
        self.draw = D_STOCK
        self.phase = P_PLAY

    def _take_pile(self, row: list[int]) -> None:
        self._draw_start(row, "TAKE_PILE")
        k, n_taken, sel = row[2], row[3], row[4]
        pile = self.pile
        size = len(pile)
        if size == 0:
            self.fail("R5K-DRAW-1", "TAKE_PILE from an empty discard pile")
        if not 0 <= k < size:
            self.fail("C-PILE-4", f"TAKE_PILE k={k} outside the pile (size {size})")
        if n_taken != size - k:
            self.flag("TRACE-FORMAT", f"TAKE_PILE n_taken {n_taken}, expected {size - k}")
        if sel != pile[k]:
            self.fail("C-CARD-CONSERVATION", f"TAKE_PILE selected {card_name(sel)} but pile[{k}] "
                                              f"is {card_name(pile[k])}")
        taken = pile[k:]
        top_only = k == size - 1
        if self.kind == 1:
            self._call_take(taken)
            self._check_asked_claim(k)
        else:
            self._check_first_turn_draw(D_TOP if top_only else D_DEEP)
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
        self.draw = D_TOP if top_only else D_DEEP
        self.phase = P_PLAY

    def _check_floating_take(self, card: int) -> None:
        """V5K-5c: a floating seat (0 cards) may not take only the top discard if it cannot be
        added to a table meld or traded."""
        if self.hand_size[self.cur] == 0 and not addable(card, self.melds, self.wild):
            self.flag("V5K-5c", f"floating seat {self.cur} takes only the top discard "
                                 f"{card_name(card)}, which cannot be added or traded")

    def _call_take(self, taken: list[int]) -> None:
        """V5K-3b/3c (top card) or V5K-4b/4c (any cards): what a caller may take."""
        sel = taken[0]
        if self.cfg.rummy == "any_cards":
            if not placeable_with(sel, taken[1:], self.melds, self.wild):
                self.flag("V5K-4b", f"call on {card_name(sel)}, which cannot be melded with the "
                                     "pile cards above it and the table melds alone")
            self.duty, self.duty_rule = sel, "V5K-4c"
            self.call_cards = Counter(taken)
            return
        if len(taken) != 1:
            self.flag("V5K-3c", f"a top-card call takes {len(taken)} cards; only the card just "
                                 "discarded")
        elif not addable(sel, self.melds, self.wild):
            self.flag("V5K-3b", f"call on {card_name(sel)}, which cannot be added to a table "
                                 "meld or traded without hand cards")
        self.duty, self.duty_rule = sel, "V5K-3c"

    def _take_all(self, row: list[int]) -> None:
        """V5K-8: the whole pile into hand, no duty."""
        self._draw_start(row, "TAKE_ALL")
        self._check_first_turn_draw(D_ALL)
        if not self.cfg.polish:
            self.flag("V5K-8", "TAKE_ALL but r5k_polish=false")
        pile = self.pile
        if not pile:
            self.fail("V5K-8", "TAKE_ALL from an empty discard pile")
        if row[2] != len(pile):
            self.flag("TRACE-FORMAT", f"TAKE_ALL n_taken {row[2]}, pile holds {len(pile)}")
        if len(pile) == 1:
            self._check_floating_take(pile[0])  # the whole pile is then the top card alone
        for c in pile:
            self._give_to_hand(self.cur, c)
        pile.clear()
        self.draw = D_ALL
        self.phase = P_PLAY

    def _no_draw(self, row: list[int]) -> None:
        self._draw_start(row, "NO_DRAW")
        reason = row[2]
        if reason == 0:
            # R5K-STOCK-1 (b): declining the pile on an empty stock ends the hand
            self._check_first_turn_draw(D_DECLINE)
            if self._stock_left():
                self.flag("R5K-DRAW-1", f"NO_DRAW with {self._stock_left()} cards in the "
                                         "stock: a turn begins with a draw")
            self.end_due = 2
            self.end_ok = {2}
            self.phase = P_NODRAW
            return
        if reason == 2:
            # R5K-OUT-3: only on the seat's first turn, to go out by melding every card
            self._check_first_turn_draw(D_SKIP)
            if not self.first_of_seat:
                self.flag("R5K-OUT-3", f"seat {self.cur} skips the draw, but this is not its "
                                        "first turn of the hand")
            self.draw = D_SKIP
        elif reason == 3:
            if self.cfg.first_turn != "extra_card":
                self.flag("V5K-10", f"discard-only first turn but r5k_first_turn="
                                     f"{self.cfg.first_turn}")
            elif not self.first_of_hand:
                self.flag("V5K-10", "NO_DRAW reason 3 outside the first turn of the hand")
            self.draw = D_DISCARD_ONLY
        else:
            self.fail("TRACE-FORMAT", f"NO_DRAW reason {reason} (0, 2 or 3)")
        self.phase = P_PLAY

