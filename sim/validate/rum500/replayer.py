"""The 500 Rum / Standard Rummy replayer: its state, the record dispatch, the rule a record out of
place breaks, and the game and hand setup (GAME_START, HAND_START, DECK, the deal, START_PILE).

The checks are split by concern over the mixins it is made of: draws (``draws.py``), melds and
lay-offs (``plays.py``), going out, out-of-turn melds and the end of a turn (``turns.py``), hand
end, scores and game end (``scoring.py``), Dealer's gambit's records (``gambit.py``).
"""

from __future__ import annotations

from collections import Counter

from rummysim.validate.asks import ASKS_RECORDED, GAME_FEATURE_MASK
from rummysim.validate.cards import JOKER, NATURAL_IDS, VALID_CARD, card_name
from rummysim.validate.rum500.asks import WindowAsks
from rummysim.validate.rum500.config import Config, value_table
from rummysim.validate.rum500.draws import DrawChecks
from rummysim.validate.rum500.gambit import GAMBIT_FLAG, GambitChecks
from rummysim.validate.rum500.phases import (
    ACTION_KINDS,
    P_DEALERS_JOKER,
    P_DECK,
    P_DONE,
    P_DRAW,
    P_DRAW2,
    P_FLOAT,
    P_GAME_OVER,
    P_GAME_START,
    P_HAND_START,
    P_NODRAW,
    P_NOMINATE,
    P_OOT,
    P_GAME_BONUS,
    P_OUT,
    P_PLAY,
    P_SPLIT,
    P_START_PILE,
    P_TEAM_SCORE,
    P_TURN,
    PHASE_NAMES,
    STD_RULES,
    USED_COLS,
)
from rummysim.validate.rum500.plays import PlayChecks
from rummysim.validate.rum500.scoring import Scoring
from rummysim.validate.rum500.table import Meld
from rummysim.validate.rum500.turns import TurnEnd
from rummysim.validate.teams import TEAM_SEATS, TeamLedger, partner_of
from rummysim.validate.trace import (
    ADDOPP_LAYOFF,
    BLOCK,
    CARD,
    DEALERS_JOKER,
    DECK,
    DISCARD,
    DOUBLE,
    DRAW_STOCK,
    FLOAT,
    GAME_CODE_500,
    GAME_BONUS,
    GAME_CODE_STANDARD,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    LAYOFF,
    MELD,
    NO_DRAW,
    NOMINATE,
    OOT_ASK,
    OUT_OF_TURN,
    PARTNERS_500,
    PARTNERS_NONE,
    PARTNERS_PERSIAN,
    RECORD_NAMES,
    RESHUFFLE,
    RESTOCK,
    RUMMY_ASK,
    SCORE,
    SPLIT,
    START_PILE,
    TAKE_PILE,
    TEAM_SCORE,
    TURN_START,
    Violation,
)


class Rum500Replayer(DrawChecks, PlayChecks, TurnEnd, Scoring, GambitChecks, WindowAsks):
    """Replays 500 Rum or Standard Rummy games record by record (``cfg.game``)."""

    USED_COLS = USED_COLS
    ACTION_KINDS = ACTION_KINDS
    PHASE_NAMES = PHASE_NAMES
    UNDEALT_PHASES = frozenset({P_GAME_START, P_HAND_START, P_DECK, P_DONE})
    START_PHASE = P_GAME_START
    DONE_PHASE = P_DONE

    def __init__(self, rows: list[list[int]], cfg: Config) -> None:
        super().__init__(rows, cfg)
        self.cfg: Config = cfg
        self.std = cfg.game == "std"
        self.teams = cfg.partnership  # V500-PARTNER (and V500-PERSIAN)
        self.persian = cfg.persian
        self.gambit = cfg.gambit  # V500-GAMBIT
        self._gambit_reset()
        self.dealer_rule = "R500-DEAL-3"  # the rule that named the next dealer
        self.ledger = TeamLedger("V500-PARTNER-2")
        self.vals, self.ace_low, self.four_ace_value = value_table(cfg)
        self.max_pos = 13 if self.std else 14  # RSTD-MELD-2: aces low only
        self.call_mode = cfg.call_rummy
        self.idle_applies = cfg.end_of_stock != "discard_until_out"
        self.out_seat = -1
        self.tied = False
        self.exp_winner = -1
        self.exp_capped = 0
        self.exp_mask = 0  # GAME_END column 4: the seats sharing a Persian draw
        self.goer_won = False
        self.end_due = 0
        self.end_ok: set[int] = set()
        self.cur = -1
        self.turn_kind = 0
        self.call_layoff = False
        self.last_call_layoff = False
        self.float_ctx = "turn"
        self.float_after_discard = False
        self.out_by_discard = False
        self.limbo: Counter = Counter()
        self.n = 0
        self.hands: list[list[int]] = []
        self.hand_size: list[int] = []
        self.pile: list[int] = []
        self.melds: list[Meld] = []
        self.asks_on = False  # GAME_START column 7: the windows' asks are recorded
        self._reset_window_asks()
        self.dispatch = {
            GAME_START: self._game_start,
            HAND_START: self._hand_start,
            DECK: self._deck,
            RESTOCK: self._restock,
            TURN_START: self._turn_start,
            RESHUFFLE: self._reshuffle,
            START_PILE: self._start_pile,
            DRAW_STOCK: self._draw_stock,
            TAKE_PILE: self._take_pile,
            NO_DRAW: self._no_draw,
            MELD: self._meld,
            LAYOFF: self._layoff,
            CARD: self._card,
            OUT_OF_TURN: self._out_of_turn,
            RUMMY_ASK: self._rummy_ask,
            OOT_ASK: self._oot_ask,
            ADDOPP_LAYOFF: self._addopp_layoff,
            DISCARD: self._discard,
            FLOAT: self._float,
            HAND_END: self._hand_end,
            SCORE: self._score,
            TEAM_SCORE: self._team_score,
            GAME_BONUS: self._game_bonus,
            GAME_END: self._game_end,
            DEALERS_JOKER: self._dealers_joker,
            NOMINATE: self._nominate,
            DOUBLE: self._double,
            SPLIT: self._split,
            BLOCK: self._block,
        }
        self.before_record = self._before_record

    # ---- violation helpers --------------------------------------------------------------

    def flag(self, rule: str, msg: str) -> None:
        if self.std:
            rule = STD_RULES.get(rule, rule)
        self.violations.append(Violation(self.game_index, self.i, rule, msg))

    def _before_record(self, kind: int) -> None:
        if self.pending_double is not None and kind != DOUBLE:
            self._resolve_pending_double()
        self._end_oot_melds(kind)
        if self.asks_on:
            self._close_window_asks(kind)

    def _end_oot_melds(self, kind: int) -> None:
        """A record other than MELD/CARD (or a DOUBLE: a Dealer's gambit MELD group's marker) ends
        the out-of-turn seat's melds."""
        if self.phase == P_OOT and kind != MELD and kind != CARD and kind != DOUBLE:
            self._close_oot(kind)

    def _unexpected(self, row: list[int]) -> None:
        """A record arrived that the current phase does not allow: name the rule it breaks."""
        kind = row[0]
        name = RECORD_NAMES.get(kind, str(kind))
        ph = self.phase
        rule = "TRACE-FORMAT"
        floating = self.cfg.going_out == "floating"
        if ph == P_OUT and kind == FLOAT and floating and self.out_by_discard:
            if self.cfg.unplayable:
                rule = "V500-UNPLAYABLE-1"
                msg = (f"FLOAT after seat {self.out_seat} discarded an unplayable last card: "
                       "the player is out and the hand ends")
            else:
                rule = "V500-FLOAT-3"
                msg = f"FLOAT after seat {self.out_seat} discarded the last card: the hand ends"
        elif ph == P_OUT:
            rule = "R500-OUT-1"  # the hand ends at once when a player goes out
            msg = f"{name} after seat {self.out_seat} went out; only HAND_END may follow"
            if kind == ADDOPP_LAYOFF:
                rule = "V500-ADDOPP-2"
        elif ph == P_FLOAT:
            if kind == HAND_END:
                if self.float_after_discard:
                    rule = "V500-UNPLAYABLE-1"
                    msg = ("HAND_END after the last card was discarded, but it could be laid off "
                           "on a table meld: the player floats and the hand goes on")
                else:
                    rule = "V500-FLOAT-3"
                    msg = ("HAND_END after a seat laid down every card under floating: only a "
                           "discard of the last card ends the hand")
            else:
                rule = "V500-FLOAT-1"
                msg = f"{name} where seat {self.cur} (0 cards) must record FLOAT"
        elif kind == ADDOPP_LAYOFF:
            rule = "V500-ADDOPP-2"
            msg = "ADDOPP_LAYOFF when no one has gone out (it follows going out, before HAND_END)"
        elif ph == P_NODRAW:
            rule = "R500-STOCK-1"  # NO_DRAW ends the hand at once
            msg = f"{name} after NO_DRAW; the hand must end at once"
        elif ph == P_DRAW2:
            rule = "V500-BOATHOUSE"
            msg = (f"{name} after one DRAW_STOCK: a stock draw takes "
                   f"{self.cfg.draw_count} cards (r500_stock_draw_count)")
        elif ph == P_TEAM_SCORE:
            rule = "V500-PARTNER-2"
            msg = (f"{name} where the TEAM_SCORE record of team {self.team_seen} is expected "
                   "(after a partnership hand's SCORE records)")
        elif ph == P_START_PILE:
            rule = "V500-UPCHOICE"
            msg = f"{name} before the first player started the discard pile (START_PILE)"
        elif ph == P_DEALERS_JOKER:
            rule = "V500-GAMBIT-1"
            msg = (f"{name} where DEALERS_JOKER is expected: after the deal the dealer's joker "
                   "lies face up beside the dealer")
        elif ph == P_NOMINATE:
            rule = "V500-GAMBIT-3"
            msg = (f"{name} before NOMINATE: the dealer names the jokers' effect after the deal, "
                   "before any decision")
        elif ph == P_SPLIT:
            rule = "V500-GAMBIT-6"
            msg = f"{name} after SPLIT: the split take's TAKE_PILE follows it directly"
        elif kind == FLOAT and ph in (P_DRAW, P_PLAY, P_TURN, P_OOT):
            rule = "V500-FLOAT-1"
            held = self.hand_size[self.cur] if 0 <= self.cur < len(self.hand_size) else "?"
            msg = (f"FLOAT by seat {row[1]} (holding {held} cards, r500_going_out="
                   f"{self.cfg.going_out})")
        elif ph == P_DRAW and kind in (MELD, LAYOFF, DISCARD):
            rule = "R500-DRAW-1"
            msg = f"{name} before the turn's draw"
        elif ph == P_PLAY and kind in (DRAW_STOCK, TAKE_PILE, NO_DRAW):
            rule = "R500-DRAW-1"
            msg = f"second draw {name} in one turn"
        elif ph == P_PLAY and self.call_layoff and kind in (TURN_START, HAND_END, OUT_OF_TURN):
            rule = "V500-RUMMY-6"
            msg = f"{name} before the caller laid off the claimed card (layoff_only)"
        elif ph == P_PLAY and kind in (TURN_START, HAND_END, OUT_OF_TURN):
            rule = "R500-DISC-1"
            msg = f"{name} before the turn's discard (seat {self.cur} still holds cards)"
        elif ph == P_TURN and self.last_call_layoff and kind in (MELD, LAYOFF, DISCARD):
            rule = "V500-RUMMY-6"
            msg = f"{name} after the layoff_only call's lay-off: the caller does nothing else"
        elif ph == P_TURN and kind in (TURN_START, OUT_OF_TURN) and self.end_due:
            rule = self._end_rule(self.end_due)
            msg = (f"hand must end here ({self._end_text(self.end_due)}) but {name} "
                   "follows")
        elif ph in (P_GAME_OVER, P_GAME_BONUS) and kind == HAND_START:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            msg = f"game must end (winner {self._winner_text()}) but another hand is dealt"
            if self.persian and not self.exp_capped:
                msg = "a third deal: a Persian rummy game is exactly two deals"
        else:
            msg = f"unexpected {name} record ({PHASE_NAMES.get(ph, ph)})"
        self.fail(rule, msg)

    @staticmethod
    def _end_rule(reason: int) -> str:
        return {
            1: "R500-OUT-1",
            2: "R500-STOCK-1",
            3: "R500-STOCK-2",
            4: "ENGINE-TURN-CAP",
            5: "V500-STOCKEND",
        }.get(reason, "TRACE-FORMAT")

    def _end_text(self, reason: int) -> str:
        if reason == 3:
            return f"{self.idle} consecutive idle turns with an empty stock (R500-STOCK-2)"
        if reason == 4:
            return f"turn cap max_turns_per_hand={self.cfg.max_turns} reached"
        if reason == 1:
            return f"seat {self.out_seat} went out"
        if reason == 5:
            return "the last stock card was drawn this turn (end_immediately)"
        return "NO_DRAW"


    # ---- game level ---------------------------------------------------------------------

    def _game_start(self, row: list[int]) -> None:
        if self.phase not in (P_GAME_START, P_DONE):
            self._unexpected(row)
        self.games += 1
        self.game_index = row[3]
        self.bad_unused = set()
        self.out_seat = -1
        self.tied = False
        n, first_dealer, target, code = row[1], row[2], row[4], row[5]
        cfg = self.cfg
        self._check_gambit_start(row)
        exp_code = GAME_CODE_STANDARD if self.std else GAME_CODE_500
        if code != exp_code:
            self.flag(
                "TRACE-FORMAT",
                f"GAME_START game code {code}, but the flags say game "
                f"{'standard-rummy (1)' if self.std else '500-rum (0)'}",
            )
        if self.std:
            if not 2 <= n <= 6:
                self.fail("RSTD-SETUP-1", f"{n} players; Standard Rummy is for 2-6 players")
        elif not 2 <= n <= 8:
            self.fail("R500-SETUP-1", f"{n} players; 500 Rum is for 2-8 players")
        if not 0 <= first_dealer < n:
            self.fail("TRACE-FORMAT", f"first_dealer {first_dealer} is not a seat")
        self._check_partnership_start(row)
        self.asks_on = bool(row[7] & ASKS_RECORDED)
        if row[7] & ~(ASKS_RECORDED | GAME_FEATURE_MASK):
            self.flag("TRACE-FORMAT", f"GAME_START column 7 {row[7]}: only the low byte (the game's "
                                      "feature: gambit, stakes mode) and bit 8 (window asks) are defined")
        if self.persian:
            if target != 0:
                self.flag("V500-PERSIAN-5", f"GAME_START target {target}; a Persian game is two "
                                            "deals (target column 0)")
        elif not self.std and target != cfg.target:
            self.flag("V500-TARGET", f"GAME_START target {target} but r500_target={cfg.target}")
        self.n = n
        self.first_dealer = first_dealer
        if self.std:
            decks, jokers = 1, 0  # RSTD-SETUP-1: one 52-card deck, no jokers
        elif self.persian:
            decks, jokers = 1, 4  # V500-PERSIAN-1: 52 cards and 4 jokers
        elif self.gambit:
            # V500-GAMBIT-1: one deck and 2 or 4 jokers, one of them set aside before the deal
            decks, jokers = 1, cfg.gambit_jokers - 1
        else:
            # R500-SETUP-2 / V500-DECKS: 1 deck for 2-4 players, 2 for 5-8 unless set explicitly
            decks = (1 if n <= 4 else 2) if cfg.decks_mode == "auto" else cfg.decks_mode
            jokers = decks * cfg.jokers_per_deck  # R500-SETUP-3 / V500-JOKERS
        self.exp_pack = Counter({c: decks for c in NATURAL_IDS})
        if jokers:
            self.exp_pack[JOKER] = jokers
        self.exp_pack_size = 52 * decks + jokers
        self.exp_deal = 13 if n == 2 else 7  # R500-DEAL-1, RSTD-DEAL-1
        if n * self.exp_deal + 1 > self.exp_pack_size:
            self.fail(
                "V500-DECKS",
                f"{decks} deck(s) of {self.exp_pack_size} cards cannot deal {self.exp_deal} "
                f"cards to {n} players plus an upcard",
            )
        self.idle_limit = n if cfg.idle_turns == "n" else cfg.idle_turns
        self.true_totals = [0] * n  # totals recomputed by the checker (R500-SCORE-3)
        self.trace_totals = [0] * n  # totals as the trace states them
        self.ledger = TeamLedger("V500-PARTNER-2")  # team totals (V500-PARTNER-2)
        self.hands_played = 0
        self.dealer = first_dealer
        self.dealer_rule = "V500-WINNERDEALS" if cfg.winner_deals else "R500-DEAL-3"
        self.phase = P_HAND_START


    def _check_gambit_start(self, row: list[int]) -> None:
        """GAME_START column 7 (1 under Dealer's gambit) and the gambit's 2-4 players."""
        exp = GAMBIT_FLAG if self.gambit else 0
        if row[7] & GAME_FEATURE_MASK != exp:
            self.flag("TRACE-FORMAT", f"GAME_START column 7's low byte = {row[7] & GAME_FEATURE_MASK}, but the flags "
                                      f"give {exp} (1 = Dealer's gambit)")
        if self.gambit and not 2 <= row[1] <= 4:
            self.fail("V500-GAMBIT", f"{row[1]} players; Dealer's gambit uses one deck, so 2-4 "
                                     "players (AMB-22)")

    def _check_partnership_start(self, row: list[int]) -> None:
        """GAME_START column 6 (the partnership code) and the four seats of V500-PARTNER."""
        code = row[6]
        exp = PARTNERS_PERSIAN if self.persian else PARTNERS_500 if self.teams else PARTNERS_NONE
        if code != exp:
            self.flag("TRACE-FORMAT", f"GAME_START partnership code {code}, but the flags give "
                                      f"{exp} (0 none, 1 Partnership 500 rum, 2 Persian rummy)")
        if self.teams and row[1] != TEAM_SEATS:
            rule = "V500-PERSIAN" if self.persian else "V500-PARTNER"
            self.fail(rule, f"{row[1]} players; partnership play needs exactly 4 (two teams of "
                            "partners seated opposite)")

    def lay_owners(self, seat: int) -> frozenset[int] | None:
        """Seats whose melds ``seat`` may lay off on: V500-PARTNER-1 ``team_only`` gives its own
        and its partner's; None: any meld."""
        if self.cfg.team_only:
            return frozenset((seat, partner_of(seat)))
        return None

    # ---- hand setup ---------------------------------------------------------------------

    def _hand_start(self, row: list[int]) -> None:
        if self.phase != P_HAND_START:
            self._unexpected(row)
        h, dealer, pack_size, deal, first = row[1], row[2], row[3], row[4], row[5]
        n = self.n
        if h != self.hands_played:
            self.flag("TRACE-FORMAT", f"hand_index {h}, expected {self.hands_played}")
        if dealer != self.dealer:
            # R500-DEAL-3: the next hand is dealt by the player left of the current dealer;
            # V500-WINNERDEALS: by the player who went out; V500-GAMBIT-2: on the right
            self.fail(self.dealer_rule, f"dealer {dealer}, expected seat {self.dealer}")
        if pack_size != self.exp_pack_size:
            rule = "R500-SETUP-2"
            if self.persian:
                rule = "V500-PERSIAN-1"
            elif self.gambit:
                rule = "V500-GAMBIT-1"
            elif pack_size - self.exp_pack_size in (-4, -2, -1, 1, 2, 4):
                rule = "R500-SETUP-3"
            self.flag(rule, f"pack_size {pack_size}, expected {self.exp_pack_size}")
        if deal != self.exp_deal:
            self.fail("R500-DEAL-1", f"deal_size {deal}, expected {self.exp_deal}")
        if first != (dealer + 1) % n:
            # R500-TURN-1: the player left of the dealer plays first
            self.fail("R500-TURN-1", f"first_player {first}, expected {(dealer + 1) % n}")
        if pack_size < n * deal + 1 or pack_size > 2 * 54:
            self.fail("TRACE-FORMAT", f"pack_size {pack_size} cannot be dealt")
        self.pack_size = pack_size
        self.pack: list[int] = [-1] * pack_size
        self.pack_filled = 0
        self.phase = P_DECK

    def _fill(self, row: list[int], buf: list[int], what: str) -> int:
        """DECK / RESTOCK: store the card ids of ``row`` in ``buf``; return how many."""
        off = row[1]
        size = len(buf)
        filled = 0
        for j in range(6):
            c = row[2 + j]
            if c == -1:
                continue  # unused slot
            p = off + j
            if not 0 <= p < size:
                self.fail("TRACE-FORMAT", f"{what} card at position {p} >= size {size}")
            if not (0 <= c <= 64 and VALID_CARD[c]):
                self.fail("TRACE-FORMAT", f"invalid card id {c} in {what}")
            if buf[p] != -1:
                self.fail("TRACE-FORMAT", f"{what} position {p} given twice")
            buf[p] = c
            filled += 1
        return filled

    def _deck(self, row: list[int]) -> None:
        if self.phase != P_DECK:
            self._unexpected(row)
        self.pack_filled += self._fill(row, self.pack, "DECK")
        if self.pack_filled == self.pack_size:
            self._deal()

    def _deal(self) -> None:
        n = self.n
        pack = self.pack
        counts = Counter(pack)
        if counts != self.exp_pack:
            diff_nat = any(counts.get(c, 0) != self.exp_pack.get(c, 0) for c in NATURAL_IDS)
            rule = "R500-SETUP-2" if diff_nat else "R500-SETUP-3"
            if self.persian:
                rule = "V500-PERSIAN-1"
            elif self.gambit:
                rule = "V500-GAMBIT-1"
            missing = self.exp_pack - counts
            extra = counts - self.exp_pack
            self.flag(
                rule,
                "pack is not a permutation of the expected pack: missing "
                f"{sorted(card_name(c) for c in missing.elements())}, extra "
                f"{sorted(card_name(c) for c in extra.elements())}",
            )
        self.pack_counts = counts  # the universe for card conservation
        d = self.exp_deal
        hands = [[0] * 65 for _ in range(n)]
        upchoice = self.cfg.upchoice
        for i in range(n):  # dealing convention of the trace spec
            seat = (self.dealer + 1 + i) % n
            hc = hands[seat]
            if upchoice:
                # V500-UPCHOICE: the first player gets d+1 cards, later blocks start one later
                lo, hi = (0, d + 1) if i == 0 else (i * d + 1, (i + 1) * d + 1)
            else:
                lo, hi = i * d, (i + 1) * d
            for c in pack[lo:hi]:
                hc[c] += 1
        self.hands = hands
        self.hand_size = [d] * n
        if upchoice:
            self.hand_size[(self.dealer + 1) % n] = d + 1
            self.pile: list[int] = []  # no upcard: the first player starts the pile
        else:
            self.pile = [pack[n * d]]  # the upcard is pile index 0 (R500-DEAL-2, C-PILE-3)
        self.stock = pack  # stock = pack positions n*d+1 ..
        self.stock_pos = n * d + 1
        self.limbo = Counter()
        self.table_counts = [0] * 65
        self.melds: list[Meld] = []
        self.opened = [False] * n  # V500-OPEN30
        self.turns = 0
        self.idle = 0
        self.end_due = 0  # reason the hand must end now (0: none)
        self.end_ok = set()
        self.out_seat = -1
        self.out_by_discard = False
        self.seven_seat = -1
        self.next_seat = (self.dealer + 1) % n  # R500-TURN-1
        self.cur = -1
        self.turn_kind = 0
        self.call_layoff = False
        self.last_call_layoff = False
        self.win_discarder = -1  # seat whose discard opened the current windows
        self.rummy_open = False  # V500-RUMMY-1 window
        self.oot_open = False  # V500-OUTOFTURN window
        self.oot_last = 0
        self.oot_melds = 0
        self.open_acc = 0
        self.open_any = False
        self._gambit_reset()
        self._reset_window_asks()
        if self.gambit:
            self.phase = P_DEALERS_JOKER  # V500-GAMBIT-1/3: DEALERS_JOKER, NOMINATE come first
        else:
            self.phase = P_START_PILE if upchoice else P_TURN

    def _stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def _start_pile(self, row: list[int]) -> None:
        if self.phase != P_START_PILE:
            if not self.cfg.upchoice:
                self.fail("V500-UPCHOICE", "START_PILE but r500_upcard_mode=stock (upcard dealt)")
            self._unexpected(row)
        seat, card = row[1], row[2]
        first = (self.dealer + 1) % self.n
        if seat != first:
            self.flag("V500-UPCHOICE", f"START_PILE by seat {seat}; the first player is {first}")
        if not 0 <= seat < self.n:
            self.fail("TRACE-FORMAT", f"START_PILE seat {seat} is not a seat")
        if not (0 <= card <= 64 and VALID_CARD[card]):
            self.fail("TRACE-FORMAT", f"invalid card id {card}")
        hc = self.hands[seat]
        if hc[card] <= 0:
            self.fail("C-CARD-CONSERVATION",
                       f"seat {seat} starts the pile with {card_name(card)} but does not hold it")
        hc[card] -= 1
        self.hand_size[seat] -= 1
        self.pile.append(card)
        self.phase = P_TURN

