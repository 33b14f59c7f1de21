"""Dealer's gambit (V500-GAMBIT) in the 500 Rum replay: the dealer's joker beside the dealer, the
nomination of the jokers' effect, doubled and sealed melds, split takes from the discard pile,
blocking the dealer's joker, and the cards out of play (docs/trace-format.md "Dealer's gambit").

Records: DEALERS_JOKER and NOMINATE right after a hand's DECK records (V500-GAMBIT-1/3), DOUBLE
right after the CARD records of a MELD (V500-GAMBIT-5), SPLIT as the draw of a normal turn,
directly followed by its TAKE_PILE (V500-GAMBIT-6), BLOCK in the play phase of the blocker's own
turn (V500-GAMBIT-8).  A joker's CARD record, a DOUBLE and a SPLIT name the joker's *source*: 0 a
joker of the seat's hand, 1 the dealer's joker, which only the dealer may use, on the dealer's own
turns, at most once a hand and never after it was blocked (V500-GAMBIT-7).  The other effects of
the variation are checked where the base rule is: joker values 0 (``config.value_table``), the
deal rotating right (``scoring``), sealed melds and jokers that are not wild in the playability
tests (``table``), the split take's duty (``draws``).
"""

from __future__ import annotations

from rummysim.validate.cards import JOKER, card_name
from rummysim.validate.rum500.phases import (
    P_CARDS,
    P_DEALERS_JOKER,
    P_DECK,
    P_DRAW,
    P_GAME_START,
    P_HAND_START,
    P_NOMINATE,
    P_OOT,
    P_PLAY,
    P_RESTOCK,
    P_SPLIT,
    P_START_PILE,
    P_TURN,
)
from rummysim.validate.trace import RECORD_NAMES, Replayer

# NOMINATE column 2: the effect of every joker of the hand (V500-GAMBIT-3)
EFFECT_WILD, EFFECT_DOUBLE, EFFECT_SPLIT = 1, 2, 3
EFFECT_NAMES = {EFFECT_WILD: "wild", EFFECT_DOUBLE: "double", EFFECT_SPLIT: "split"}

# CARD column 5, DOUBLE column 3, SPLIT column 5: where a joker comes from
SOURCE_HAND, SOURCE_DEALERS_JOKER = 0, 1
SOURCES = (SOURCE_HAND, SOURCE_DEALERS_JOKER)

# Where the dealer's joker is
DJ_ASIDE = 0  # set aside before the deal, not yet shown (DEALERS_JOKER not yet recorded)
DJ_BESIDE = 1  # face up beside the dealer, usable
DJ_USED = 2  # used by the dealer: on the table or out of play
DJ_BLOCKED = 3  # blocked: out of play with the blocking joker

GAMBIT_FLAG = 1  # GAME_START column 7 under Dealer's gambit

# before a hand's cards are all dealt: the previous hand's joker state does not count
DEALING_PHASES = frozenset({P_GAME_START, P_HAND_START, P_DECK})


class GambitChecks(Replayer):
    """The Dealer's gambit records and the state they move (mixed into the 500 Rum replayer)."""

    # ---- per hand -----------------------------------------------------------------------

    def _gambit_reset(self) -> None:
        """A new hand: nothing nominated, the dealer's joker set aside, nothing out of play."""
        self.effect = 0
        self.dj_state = DJ_ASIDE
        self.out_counts = [0] * 65  # cards out of play for the rest of the hand
        self.pending_double: tuple[int, int, str] | None = None  # (meld id, seat, ctx)
        self.last_doubled = -1
        self.split_k = -1
        self.group_dj = 0  # dealer's jokers in the current MELD/LAYOFF group

    @property
    def jokers_wild(self) -> bool:
        """Are jokers wild cards this hand?  (Under Dealer's gambit only when nominated ``wild``:
        V500-GAMBIT-3/4.)"""
        return not self.gambit or self.effect == EFFECT_WILD

    def dealers_joker_out(self) -> int:
        """1 once the dealer's joker has been used or blocked (it is then on the table or out of
        play and counts toward card conservation), else 0."""
        return 1 if self.dj_state in (DJ_USED, DJ_BLOCKED) else 0

    def _not_gambit(self, row: list[int]) -> None:
        if not self.gambit:
            self.fail("V500-GAMBIT", f"{RECORD_NAMES[row[0]]} but r500_dealers_gambit=false")

    # ---- DEALERS_JOKER, NOMINATE ----------------------------------------------------------

    def _dealers_joker(self, row: list[int]) -> None:
        """V500-GAMBIT-1: after the deal the joker set aside lies face up beside the dealer."""
        self._not_gambit(row)
        if self.phase != P_DEALERS_JOKER:
            if self.phase not in DEALING_PHASES and self.dj_state != DJ_ASIDE:
                self.fail("V500-GAMBIT-1", "a second DEALERS_JOKER in one hand")
            self._unexpected(row)
        if row[1] != self.dealer:
            self.flag("V500-GAMBIT-1", f"the dealer's joker lies beside seat {row[1]}; the dealer "
                                       f"is seat {self.dealer}")
        self.dj_state = DJ_BESIDE
        self.phase = P_NOMINATE

    def _nominate(self, row: list[int]) -> None:
        """V500-GAMBIT-3: the dealer names one effect for every joker of the hand, after the
        deal and before any decision."""
        self._not_gambit(row)
        if self.phase != P_NOMINATE:
            if self.phase not in DEALING_PHASES and self.effect:
                self.fail("V500-GAMBIT-3", f"a second NOMINATE in one hand (the effect "
                                           f"{EFFECT_NAMES[self.effect]} holds for the whole "
                                           "hand)")
            self._unexpected(row)
        dealer, effect = row[1], row[2]
        if dealer != self.dealer:
            self.flag("V500-GAMBIT-3", f"NOMINATE by seat {dealer}; the dealer (seat "
                                       f"{self.dealer}) names the effect")
        if effect not in EFFECT_NAMES:
            self.fail("TRACE-FORMAT", f"NOMINATE effect {effect} (1 wild, 2 double, 3 split)")
        self.effect = effect
        self.phase = P_START_PILE if self.cfg.upchoice else P_TURN

    # ---- the dealer's joker ---------------------------------------------------------------

    def _use_dealers_joker(self, seat: int, effect: int, what: str, own_turn: bool) -> None:
        """V500-GAMBIT-7: ``seat`` uses the dealer's joker ``what`` (its effect ``effect``) on
        one of its own turns (``own_turn``); it leaves the place beside the dealer."""
        if self.effect != effect:
            self.flag("V500-GAMBIT-3", f"the dealer's joker used {what} under the nomination "
                                       f"{EFFECT_NAMES[self.effect]}")
        if seat != self.dealer:
            self.flag("V500-GAMBIT-7", f"seat {seat} uses the dealer's joker; only the dealer "
                                       f"(seat {self.dealer}) may")
        elif not own_turn:
            self.flag("V500-GAMBIT-7", "the dealer uses the dealer's joker outside the dealer's "
                                       "own turns (an out-of-turn meld or lay-off)")
        if self.dj_state == DJ_BLOCKED:
            self.fail("V500-GAMBIT-8", "the dealer's joker was blocked: the dealer cannot use it "
                                       "for the rest of the hand")
        if self.dj_state == DJ_USED:
            self.fail("V500-GAMBIT-7", "the dealer's joker was used already (once a hand)")
        self.dj_state = DJ_USED

    def _joker_from_hand(self, seat: int, what: str) -> None:
        """A joker of ``seat``'s hand leaves it (to the table or out of play)."""
        hc = self.hands[seat]
        if hc[JOKER] <= 0:
            self.fail("C-CARD-CONSERVATION", f"seat {seat} {what} with a joker from its hand but "
                                             "holds none")
        hc[JOKER] -= 1
        self.hand_size[seat] -= 1
        r = self.restricted.get(JOKER)
        if r and seat == self.cur:
            self.restricted[JOKER] = r - 1  # the taken copy went (copies are interchangeable)

    def _joker_source(self, src: int) -> None:
        if src not in SOURCES:
            self.fail("TRACE-FORMAT", f"joker source {src} (0 hand, 1 the dealer's joker)")

    def card_source(self, seat: int, card: int, src: int) -> bool:
        """CARD column 5 of a card ``seat`` puts on the table: True if it is the dealer's joker
        (which then leaves the place beside the dealer, not a hand).  Also V500-GAMBIT-3: under
        ``double`` and ``split`` no joker goes into a meld."""
        if src and not self.gambit:
            self.fail("TRACE-FORMAT", f"CARD joker source {src} in a game without Dealer's gambit")
        self._joker_source(src)
        if card == JOKER and not self.jokers_wild:
            self.flag("V500-GAMBIT-3", f"a joker in a meld under the nomination "
                                       f"{EFFECT_NAMES[self.effect]}: jokers are wild only when "
                                       "nominated wild")
        if src != SOURCE_DEALERS_JOKER:
            return False
        if card != JOKER:
            self.fail("TRACE-FORMAT", f"CARD {card_name(card)} with source 1 (the dealer's joker)")
        self._use_dealers_joker(seat, EFFECT_WILD, "as a wild card",
                                own_turn=self.group_ctx == "turn")
        self.group_dj += 1
        return True

    # ---- DOUBLE ---------------------------------------------------------------------------

    def _double(self, row: list[int]) -> None:
        """V500-GAMBIT-5: a joker put on the meld just laid; its cards score double, the joker 0,
        and the meld is sealed."""
        self._not_gambit(row)
        seat, meld_id, src = row[1], row[2], row[3]
        pending = self.pending_double
        if pending is None:
            if self.phase == P_CARDS:
                self.fail("TRACE-FORMAT", "DOUBLE inside a MELD/LAYOFF group")
            if meld_id == self.last_doubled:
                self.fail("V500-GAMBIT-5", f"a second DOUBLE on meld {meld_id} (at most one)")
            self.fail("V500-GAMBIT-5", "DOUBLE does not directly follow the CARD records of a "
                                       "MELD (only a meld being laid down can be doubled)")
        pend_meld, pend_seat, ctx = pending
        self.pending_double = None
        if self.effect != EFFECT_DOUBLE:
            self.flag("V500-GAMBIT-3", f"DOUBLE under the nomination {EFFECT_NAMES[self.effect]}")
        if meld_id != pend_meld:
            self.flag("V500-GAMBIT-5", f"DOUBLE names meld {meld_id}; only the meld just laid "
                                       f"({pend_meld}) can be doubled")
        if seat != pend_seat:
            self.flag("V500-GAMBIT-5", f"DOUBLE by seat {seat} on the meld seat {pend_seat} just "
                                       "laid: the player laying the meld puts the joker on it")
        self._joker_source(src)
        if src == SOURCE_DEALERS_JOKER:
            self._use_dealers_joker(seat, EFFECT_DOUBLE, "to double a meld",
                                    own_turn=ctx == "turn")
        else:
            if not 0 <= seat < self.n:
                self.fail("TRACE-FORMAT", f"DOUBLE seat {seat} is not a seat")
            self._joker_from_hand(seat, "doubles a meld")
        self.table_counts[JOKER] += 1  # the doubling joker lies on the meld, not one of its cards
        m = self.melds[pend_meld]
        m.sealed = True
        self.last_doubled = pend_meld
        if self.cfg.first_meld_min and not self.opened[pend_seat]:
            self.open_acc += self.put_value(m, self.group_cards)  # the doubled value counts
        self._group_done(ctx)

    def _resolve_pending_double(self) -> None:
        """The record after a MELD group is no DOUBLE: the meld stays undoubled and the turn (or
        out-of-turn window) goes on, or the seat has laid down every card."""
        _, _, ctx = self.pending_double
        self.pending_double = None
        self._group_done(ctx)

    # ---- SPLIT ----------------------------------------------------------------------------

    def _split(self, row: list[int]) -> None:
        """V500-GAMBIT-6: a joker splits the discard pile above the selected card k: cards
        k+1..s-1 leave play, the TAKE_PILE that follows takes card k and cards s..top."""
        self._not_gambit(row)
        if self.phase != P_DRAW:
            if self.phase == P_RESTOCK:
                self.fail("TRACE-FORMAT", "SPLIT before the whole new stock was listed")
            self.fail("V500-GAMBIT-6", f"SPLIT outside the draw of a turn "
                                       f"({self.PHASE_NAMES.get(self.phase, self.phase)})")
        self._check_seat(row[1])
        seat, k, s, n_removed, src = row[1], row[2], row[3], row[4], row[5]
        if self.effect != EFFECT_SPLIT:
            self.flag("V500-GAMBIT-3", f"SPLIT under the nomination {EFFECT_NAMES[self.effect]}")
        if self.turn_kind == 1:
            self.flag("V500-GAMBIT-6", "SPLIT in a rummy-call turn (a split is a normal turn's "
                                       "draw)")
        pile = self.pile
        top = len(pile) - 1
        if not 0 <= k < top:
            self.fail("V500-GAMBIT-6", f"SPLIT at k={k}: the selected card lies below the top "
                                       f"(pile of {len(pile)} cards)")
        if not k < s <= top + 1:
            self.fail("V500-GAMBIT-6", f"SPLIT point s={s} outside k < s <= top+1 "
                                       f"(k={k}, top={top})")
        if n_removed != s - k - 1:
            self.flag("TRACE-FORMAT", f"SPLIT n_removed {n_removed}, expected s - k - 1 = "
                                      f"{s - k - 1}")
        self._joker_source(src)
        if src == SOURCE_DEALERS_JOKER:
            self._use_dealers_joker(seat, EFFECT_SPLIT, "to split the pile", own_turn=True)
        else:
            self._joker_from_hand(seat, "splits the pile")
        out = self.out_counts
        out[JOKER] += 1  # the joker of the split leaves play
        for c in pile[k + 1:s]:
            out[c] += 1  # the cards inside the split leave play for the hand
        self.pile = pile[:k + 1] + pile[s:]
        self.split_k = k
        self.phase = P_SPLIT

    # ---- BLOCK ----------------------------------------------------------------------------

    def _block(self, row: list[int]) -> None:
        """V500-GAMBIT-8: a seat places a joker of its hand on the dealer's joker on its own turn;
        both leave play and the dealer cannot use the dealer's joker any more."""
        self._not_gambit(row)
        seat = row[1]
        ph = self.phase
        if ph == P_CARDS:
            self.fail("TRACE-FORMAT", "BLOCK inside a MELD/LAYOFF group")
        if not 0 <= seat < self.n:
            self.fail("TRACE-FORMAT", f"BLOCK seat {seat} is not a seat")
        if ph != P_PLAY or seat != self.cur:
            where = ("in an out-of-turn window" if ph == P_OOT else "before the draw"
                     if ph == P_DRAW else f"in seat {self.cur}'s turn" if ph == P_PLAY
                     else "between turns")
            self.fail("V500-GAMBIT-8", f"BLOCK by seat {seat} {where}: a block is made in the "
                                       "play phase of the blocker's own turn")
        if seat == self.dealer:
            self.flag("V500-GAMBIT-8", "the dealer blocks the dealer's own joker")
        if self.dj_state == DJ_USED:
            self.flag("V500-GAMBIT-8", "BLOCK after the dealer used the dealer's joker")
        elif self.dj_state == DJ_BLOCKED:
            self.flag("V500-GAMBIT-8", "the dealer's joker was blocked already")
        if self.duty_sel >= 0:
            self.flag("V500-GAMBIT-8", f"BLOCK while the duty to meld {card_name(self.duty_sel)}, "
                                       "taken from the pile, is still unmet")
        self._joker_from_hand(seat, "blocks")
        if self.hand_size[seat] == 0:
            self.flag("V500-GAMBIT-8", f"seat {seat}'s block empties its hand (a block never "
                                       "empties the hand)")
        self.out_counts[JOKER] += 1  # the blocking joker leaves play
        if self.dj_state == DJ_BESIDE:
            self.out_counts[JOKER] += 1  # and so does the dealer's joker
            self.dj_state = DJ_BLOCKED
