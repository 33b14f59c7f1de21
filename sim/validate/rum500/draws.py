"""500 Rum / Standard Rummy draws: TURN_START, the V500-STOCKEND reshuffle (RESHUFFLE, RESTOCK),
stock draws (V500-BOATHOUSE two-card draws), pile takes with their duties and restrictions
(R500-DRAW-*, V500-TOPMUST, V500-NEWMELD, R500-DISC-2, V500-DISCSAME; the take after a Dealer's
gambit SPLIT, V500-GAMBIT-6), rummy-call eligibility (V500-RUMMY-2/5/6) and NO_DRAW."""

from __future__ import annotations

from collections import Counter

from rummysim.validate.cards import JOKER, card_name
from rummysim.validate.rum500.gambit import EFFECT_NAMES
from rummysim.validate.rum500.phases import (
    P_DECK,
    P_DRAW,
    P_DRAW2,
    P_FLOAT,
    P_NODRAW,
    P_PLAY,
    P_RESTOCK,
    P_SPLIT,
    P_TURN,
)
from rummysim.validate.rum500.table import fits_table, new_meld_with
from rummysim.validate.teams import partner_of
from rummysim.validate.trace import Replayer


class DrawChecks(Replayer):
    """Turn start and the draw phase of a 500 Rum / Standard Rummy turn."""

    def _turn_start(self, row: list[int]) -> None:
        ph = self.phase
        if ph == P_DECK:
            self.fail(
                "TRACE-FORMAT",
                f"DECK records give {self.pack_filled} of {self.pack_size} pack positions",
            )
        if ph != P_TURN or self.end_due:
            self._unexpected(row)
        seat, turn_no, stock_size, pile_size, tkind = row[1], row[2], row[3], row[4], row[5]
        n = self.n
        if not 0 <= seat < n:
            self.fail("TRACE-FORMAT", f"TURN_START seat {seat} is not a seat")
        if tkind not in (0, 1):
            self.fail("TRACE-FORMAT", f"TURN_START turn kind {tkind} (0 normal, 1 rummy call)")
        self._check_asked_turn(seat, tkind)
        self.call_layoff = False
        if tkind == 1:
            # V500-RUMMY-1/4: a call follows a discard that did not end the hand, by a seat
            # other than the discarder, before the next player draws
            if self.call_mode == "off":
                self.flag("V500-RUMMY-1", "rummy-call turn but r500_call_rummy=off")
            elif not self.rummy_open:
                self.flag("V500-RUMMY-1",
                           "rummy-call turn without an open rummy window (calls follow a "
                           "discard that does not end the hand, before any out-of-turn meld)")
            if seat == self.win_discarder and self.rummy_open:
                self.flag("V500-RUMMY-4", f"seat {seat} calls Rummy on its own discard")
            elif self.teams and self.rummy_open and seat == partner_of(self.win_discarder):
                # trace spec (partnerships): only the discarder's two opponents may call
                self.flag("V500-PARTNER", f"seat {seat} calls Rummy on the discard of its "
                                          f"partner, seat {self.win_discarder}")
            self.saved_next = self.next_seat
            self.call_layoff = self.call_mode == "layoff_only"
        elif seat != self.next_seat:
            # R500-TURN-1 / C-TURN-1: play moves clockwise (V500-RUMMY-3: left of the caller)
            self.flag("R500-TURN-1", f"seat {seat} plays; expected seat {self.next_seat}")
        if turn_no != self.turns:
            self.flag("TRACE-FORMAT", f"turn_no {turn_no}, expected {self.turns}")
        stock_left = self._stock_left()
        if stock_size != stock_left:
            self.flag(
                "TRACE-FORMAT", f"TURN_START stock_size {stock_size}, replay has {stock_left}"
            )
        if pile_size != len(self.pile):
            self.flag(
                "TRACE-FORMAT", f"TURN_START pile_size {pile_size}, replay has {len(self.pile)}"
            )
        self.rummy_open = False
        self.oot_open = False
        self.last_call_layoff = False
        self.cur = seat
        self.turn_kind = tkind
        self.next_seat = (seat + 1) % n
        self.turns += 1
        self.start_stock_empty = stock_left == 0
        self.start_pile_size = len(self.pile)
        self.reshuffled = False
        self.put_on_table = False
        self.drew_stock = False
        self.discarded = False
        self.run7 = False
        self.open_acc = 0
        self.open_any = False
        self.duty_sel = -1  # card that must be melded this turn (R500-DRAW-3), -1: none
        self.duty_rule = ""
        self.duty_newmeld = False
        self.duty_missed_first = False
        self.first_play_done = False
        self.restricted: dict[int, int] = {}  # taken cards that may not be discarded
        self.phase = P_DRAW

    def _check_seat(self, seat: int) -> None:
        if seat != self.cur:
            self.fail("TRACE-FORMAT", f"record for seat {seat} during seat {self.cur}'s turn")

    def _must_reshuffle(self) -> bool:
        """V500-STOCKEND reshuffle: an empty stock and a pile of 2+ cards at a normal turn."""
        return (
            self.cfg.end_of_stock == "reshuffle"
            and self.turn_kind == 0
            and not self.reshuffled
            and self._stock_left() == 0
            and len(self.pile) >= 2
        )

    def _reshuffle(self, row: list[int]) -> None:
        if self.phase != P_DRAW:
            self._unexpected(row)
        self._check_seat(row[1])
        n_cards = row[2]
        if self.cfg.end_of_stock != "reshuffle":
            self.flag("V500-STOCKEND",
                       f"RESHUFFLE but the end of stock mode is {self.cfg.end_of_stock}")
        elif self.turn_kind == 1 or self.reshuffled:
            self.flag("V500-STOCKEND", "RESHUFFLE outside the start of a normal turn")
        if self._stock_left():
            self.fail("V500-STOCKEND", f"RESHUFFLE with {self._stock_left()} cards in the stock")
        if len(self.pile) < 2:
            self.fail("V500-STOCKEND",
                       f"RESHUFFLE with {len(self.pile)} pile card(s): pile_or_end applies")
        if n_cards != len(self.pile) - 1:
            self.flag("TRACE-FORMAT", f"RESHUFFLE n_cards {n_cards}, expected pile size - 1 = "
                                       f"{len(self.pile) - 1}")
        # AMB-15: every pile card but the top one forms the new stock
        self.limbo = Counter(self.pile[:-1])
        self.restock = [-1] * (len(self.pile) - 1)
        self.restock_filled = 0
        self.pile = self.pile[-1:]
        self.stock = []
        self.stock_pos = 0
        self.phase = P_RESTOCK

    def _restock(self, row: list[int]) -> None:
        if self.phase != P_RESTOCK:
            self._unexpected(row)
        self.restock_filled += self._fill(row, self.restock, "RESTOCK")
        if self.restock_filled == len(self.restock):
            if Counter(self.restock) != self.limbo:
                self.fail(
                    "C-CARD-CONSERVATION",
                    "RESTOCK is not a permutation of the reshuffled pile cards: "
                    f"{sorted(card_name(c) for c in self.limbo.elements())}",
                )
            self.stock = self.restock
            self.stock_pos = 0
            self.limbo = Counter()
            self.reshuffled = True
            self.start_stock_empty = False  # the stock is refilled before the draw: not idle
            self.phase = P_DRAW

    def _draw_stock(self, row: list[int]) -> None:
        ph = self.phase
        if ph == P_RESTOCK:
            self.fail("TRACE-FORMAT", "DRAW_STOCK before the whole new stock was listed (RESTOCK)")
        if ph != P_DRAW and ph != P_DRAW2:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.turn_kind == 1:
            self.fail("V500-RUMMY-3", "a rummy call takes from the discard pile, not the stock")
        card = row[2]
        if self.stock_pos >= len(self.stock):
            if self._must_reshuffle():
                self.fail("V500-STOCKEND",
                           "empty stock and 2+ pile cards: the turn must RESHUFFLE first")
            if self.cfg.end_of_stock == "discard_until_out":
                self.fail("V500-STOCKEND", "DRAW_STOCK from an empty stock: draws are over")
            self.fail("R500-STOCK-1", "DRAW_STOCK from an empty stock")
        top = self.stock[self.stock_pos]
        if card != top:
            # C-PILE-1: a stock draw takes the top card, i.e. the lowest undrawn position
            self.fail(
                "C-CARD-CONSERVATION",
                f"DRAW_STOCK of {card_name(card)} but the top stock card "
                f"(position {self.stock_pos}) is {card_name(top)} (C-PILE-1)",
            )
        self.stock_pos += 1
        self.hands[self.cur][card] += 1
        self.hand_size[self.cur] += 1
        self.drew_stock = True
        if ph == P_DRAW and self.cfg.draw_count == 2 and self.stock_pos < len(self.stock):
            self.phase = P_DRAW2  # V500-BOATHOUSE: a stock draw takes two cards
        else:
            self.phase = P_PLAY

    def _take_pile(self, row: list[int]) -> None:
        split = self.phase == P_SPLIT  # V500-GAMBIT-6: the take of a split
        if self.phase != P_DRAW and not split:
            if self.phase == P_RESTOCK:
                self.fail("TRACE-FORMAT", "TAKE_PILE before the whole new stock was listed")
            self._unexpected(row)
        self._check_seat(row[1])
        k, n_taken, sel = row[2], row[3], row[4]
        cfg = self.cfg
        pile = self.pile
        size = len(pile)
        if size == 0:
            self.fail("R500-DRAW-1", "TAKE_PILE from an empty discard pile")
        if not 0 <= k < size:
            self.fail("C-PILE-4", f"TAKE_PILE k={k} outside the pile (size {size})")
        if split and k != self.split_k:
            self.fail("V500-GAMBIT-6", f"TAKE_PILE from k={k} after a SPLIT at k={self.split_k}: "
                                       "the split take takes from the selected card")
        if n_taken != size - k:
            self.flag("TRACE-FORMAT", f"TAKE_PILE n_taken {n_taken}, expected {size - k}")
        if sel != pile[k]:
            self.fail(
                "C-CARD-CONSERVATION",
                f"TAKE_PILE selected {card_name(sel)} but pile[{k}] is {card_name(pile[k])}",
            )
        top_only = k == size - 1
        call = self.turn_kind == 1
        if not call:
            if self._must_reshuffle():
                self.flag("V500-STOCKEND",
                           "empty stock and 2+ pile cards: the turn must RESHUFFLE, not take")
            elif cfg.end_of_stock == "discard_until_out" and self._stock_left() == 0:
                self.flag("V500-STOCKEND",
                           "TAKE_PILE after the stock ran out under discard_until_out (AMB-16: "
                           "no draws at all)")
        if self.std and not top_only:
            self.flag("RSTD-DRAW-1", f"takes from pile[{k}] ({card_name(sel)}); only the top "
                                      "discard may be taken")
        if call:
            self._check_call_eligible(k)
            self._check_asked_claim(k)
        taken = pile[k:]
        del pile[k:]  # C-PILE-4: cards k..top, order kept
        hc = self.hands[self.cur]
        for c in taken:
            hc[c] += 1
        self.hand_size[self.cur] += len(taken)
        if call:
            # V500-RUMMY-3: the claimed card must be played, first (C-TURN-4); layoff_only: laid
            # off (V500-RUMMY-6).  V500-NEWMELD narrows draws only (rules-decisions E13).
            self.duty_sel = sel
            self.duty_rule = "V500-RUMMY-6" if self.call_layoff else "V500-RUMMY-3"
            self.duty_newmeld = False
        elif split:
            self.duty_sel = sel  # V500-GAMBIT-6: card k must be played, even taken alone
            self.duty_rule = "V500-GAMBIT-6"
            self.duty_newmeld = cfg.new_meld
        elif self.std:
            pass  # RSTD-DRAW-1: the top discard carries no duty
        elif not top_only:
            self.duty_sel = sel  # R500-DRAW-3 / C-TURN-4
            self.duty_rule = "R500-DRAW-3"
            self.duty_newmeld = cfg.new_meld
        elif cfg.top_must:
            self.duty_sel = sel  # V500-TOPMUST: R500-DRAW-3 also for the top card alone
            self.duty_rule = "V500-TOPMUST"
            self.duty_newmeld = cfg.new_meld
        if self.duty_sel == JOKER and not self.jokers_wild:
            # V500-GAMBIT-3: under double and split no joker can be melded, so no take with a duty
            self.flag("V500-GAMBIT-3", f"takes a joker with the duty to meld it under the "
                                       f"nomination {EFFECT_NAMES[self.effect]}, where jokers are "
                                       "not wild (R500-DRAW-5)")
            self.duty_sel = -1
        if (self.std or cfg.discard_restriction == "top_single") and not split:
            if top_only:
                self.restricted = {sel: 1}  # R500-DISC-2 (Standard Rummy: the same rule)
        elif cfg.discard_restriction == "any_taken":
            self.restricted = dict(Counter(taken))  # V500-DISCSAME any_taken
        self.phase = P_PLAY

    def _check_call_eligible(self, k: int) -> None:
        """V500-RUMMY-2/5/6: is the claimed card k eligible, using only pile cards k..top and
        the table melds (no hand cards, AMB-18)?"""
        pile = self.pile
        c = pile[k]
        cfg = self.cfg
        mode = self.call_mode
        persian = self.persian
        wild = self.jokers_wild  # V500-GAMBIT-3
        owners = self.lay_owners(self.cur)  # the caller's own lay-off rights (V500-PARTNER-1)
        if mode in ("top_only", "layoff_only"):
            rule = "V500-RUMMY-5" if mode == "top_only" else "V500-RUMMY-6"
            if k != len(pile) - 1:
                self.flag(rule, f"{mode} call claims pile[{k}] ({card_name(c)}); only the card "
                                 "just discarded is eligible")
            elif not fits_table(self.melds, c, cfg.corner, self.max_pos, persian=persian,
                                owners=owners, wild=wild):
                self.flag(rule, f"{mode} call on {card_name(c)}, which cannot be laid off on any "
                                 "table meld")
            return
        if mode != "pile":
            return  # calls are off: reported at TURN_START
        rest = pile[k + 1:]
        nat = Counter(x for x in rest if x != JOKER)
        jokers = len(rest) - sum(nat.values())
        if fits_table(self.melds, c, cfg.corner, self.max_pos, nat, jokers, persian, owners, wild):
            return
        if new_meld_with(c, nat, jokers, cfg.corner, self.max_pos, cfg.min_new_run, persian,
                         wild):
            return
        self.flag(
            "V500-RUMMY-2",
            f"claims pile[{k}] ({card_name(c)}), which cannot be played using only pile cards "
            f"{k}..top and the table melds",
        )

    def _no_draw(self, row: list[int]) -> None:
        if self.phase != P_DRAW:
            if self.phase == P_RESTOCK:
                self.fail("TRACE-FORMAT", "NO_DRAW before the whole new stock was listed")
            self._unexpected(row)
        self._check_seat(row[1])
        if self.turn_kind == 1:
            self.fail("V500-RUMMY-3", "NO_DRAW in a rummy-call turn")
        mode = row[2]
        if mode not in (0, 1):
            self.fail("TRACE-FORMAT", f"NO_DRAW column 2 = {mode} (0 declines, 1 draws are over)")
        left = self._stock_left()
        d_u_o = self.cfg.end_of_stock == "discard_until_out"
        if left:
            # R500-STOCK-1: NO_DRAW only when the stock is empty
            self.flag("R500-STOCK-1", f"NO_DRAW with {left} cards in the stock")
        if mode == 1:
            if not d_u_o:
                self.flag("V500-STOCKEND",
                           "NO_DRAW 'draws are over' but the end of stock mode is "
                           f"{self.cfg.end_of_stock}")
            # the turn goes on; a seat with 0 cards (floating) records FLOAT and passes
            if self.hand_size[self.cur] == 0:
                self.float_ctx = "turn"
                self.float_after_discard = False
                self.phase = P_FLOAT
            else:
                self.phase = P_PLAY
            return
        if d_u_o and not left:
            self.flag("V500-STOCKEND",
                       "NO_DRAW ends the hand, but under discard_until_out the turn goes on "
                       "(NO_DRAW column 2 = 1)")
        elif self._must_reshuffle():
            self.flag("V500-STOCKEND",
                       "NO_DRAW ends the hand, but the stock must be reshuffled (pile of 2+ cards)")
        self.end_due = 2
        self.end_ok = {2}
        self.phase = P_NODRAW

