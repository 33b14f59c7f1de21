"""500 Rum / Standard Rummy melds and lay-offs: MELD, LAYOFF, ADDOPP_LAYOFF and their CARD records
checked against R500-MELD-*, V500-RUN4, V500-CORNER, V500-OPEN30 (RSTD-MELD-1/2 in Standard Rummy),
the partnership lay-off rights (V500-PARTNER-1, V500-ADDOPP-2 with teams), Persian rummy's joker
sets (V500-PERSIAN-2) and Dealer's gambit's joker sources and sealed melds (V500-GAMBIT-3/5/7), and
the bookkeeping after each group: the duty to meld a taken card (R500-DRAW-3, C-TURN-4,
V500-NEWMELD), V500-7STRAIGHT, discard restrictions, a DOUBLE that may follow a MELD, going out."""

from __future__ import annotations

from rummysim.validate.cards import JOKER, RANKS, SUITS, VALID_CARD, card_name, run_rank
from rummysim.validate.rum500.phases import P_CARDS, P_OOT, P_OUT, P_PLAY
from rummysim.validate.rum500.table import JOKER_SET_KEY, Meld
from rummysim.validate.teams import opponents_of
from rummysim.validate.trace import LAYOFF, MELD, Replayer


class PlayChecks(Replayer):
    """Melds, lay-offs and the CARD records of a 500 Rum / Standard Rummy turn."""

    def _meld(self, row: list[int]) -> None:
        ph = self.phase
        if ph != P_PLAY and ph != P_OOT:
            self._unexpected(row)
        self._check_seat(row[1])
        if ph == P_PLAY and self.call_layoff:
            self.flag("V500-RUMMY-6", "a layoff_only caller lays off the claimed card only "
                                       "(no new meld)")
        meld_id, kind, key, lo, n_cards = row[2], row[3], row[4], row[5], row[6]
        if meld_id != len(self.melds):
            self.fail("TRACE-FORMAT", f"MELD id {meld_id}, expected {len(self.melds)}")
        if kind not in (0, 1):
            self.fail("TRACE-FORMAT", f"MELD kind {kind} (0 set, 1 run)")
        if not 1 <= n_cards <= 108:
            self.fail("TRACE-FORMAT", f"MELD n_cards {n_cards}")
        joker_set = kind == 0 and key == JOKER_SET_KEY and self.persian
        if kind == 0 and not 1 <= key <= 13 and not joker_set:
            self.fail("TRACE-FORMAT", f"set key (rank) {key} outside 1..13 (0, a joker set, "
                                      "only in Persian rummy)")
        if kind == 1 and not 0 <= key <= 3:
            self.fail("TRACE-FORMAT", f"run key (suit) {key} outside 0..3")
        if kind == 0 and lo != 0:
            self.flag("TRACE-FORMAT", f"set MELD with lo={lo} (must be 0)")
        self.group = (MELD, meld_id, kind, key, lo)
        self.group_ctx = "oot" if ph == P_OOT else "turn"
        self.group_seat = self.cur
        self.group_need = n_cards
        self.group_cards: list[tuple[int, int]] = []
        self.group_dj = 0
        self.phase = P_CARDS

    def _layoff(self, row: list[int]) -> None:
        if self.phase != P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        meld_id, n_cards = row[2], row[3]
        if self.call_layoff and (self.first_play_done or n_cards != 1):
            self.flag("V500-RUMMY-6", "a layoff_only caller lays off exactly the one claimed card")
        owners = self.lay_owners(self.cur)
        if owners is not None and 0 <= meld_id < len(self.melds):
            owner = self.melds[meld_id].owner
            if owner not in owners:
                self.flag("V500-PARTNER-1",
                          f"seat {self.cur} lays off on meld {meld_id} of opponent seat {owner}; "
                          "r500_partner_layoff=team_only allows only its own and its partner's "
                          "melds")
        self._start_layoff(meld_id, n_cards, "turn", row[4])

    def _start_layoff(self, meld_id: int, n_cards: int, ctx: str, run_lo: int) -> None:
        if not 0 <= meld_id < len(self.melds):
            self.fail("TRACE-FORMAT", f"lay-off on meld {meld_id}, which is not on the table")
        if not 1 <= n_cards <= 108:
            self.fail("TRACE-FORMAT", f"lay-off n_cards {n_cards}")
        m = self.melds[meld_id]
        if m.sealed:
            self.flag("V500-GAMBIT-5", f"lay-off on meld {meld_id}, which a joker doubled: a "
                                       "doubled meld is sealed")
        self.group = (LAYOFF, meld_id, m.kind, m.key, run_lo)
        self.group_ctx = ctx
        self.group_seat = self.cur
        self.group_need = n_cards
        self.group_cards = []
        self.group_dj = 0
        self.phase = P_CARDS

    def _addopp_layoff(self, row: list[int]) -> None:
        """V500-ADDOPP-2: after a player went out, the others may lay off on that player's melds;
        those cards score for no one."""
        if self.phase != P_OUT:
            self._unexpected(row)
        seat, meld_id, n_cards = row[1], row[2], row[3]
        n = self.n
        if not 0 <= seat < n:
            self.fail("TRACE-FORMAT", f"ADDOPP_LAYOFF seat {seat} is not a seat")
        if not self.cfg.add_opp:
            self.flag("V500-ADDOPP-2", "ADDOPP_LAYOFF but r500_add_opponent_hand=false")
        out = self.out_seat
        dist = (seat - out) % n
        if dist == 0:
            self.flag("V500-ADDOPP-2", f"seat {seat} went out and cannot lay off afterwards")
        elif self.teams and seat not in opponents_of(out):
            self.flag("V500-ADDOPP-2", f"seat {seat} is the partner of seat {out}, who went out: "
                                       "only the two opponents lay off deadwood")
        elif dist < self.addopp_last:
            self.flag("V500-ADDOPP-2",
                       f"seat {seat} lays off after a seat later in clockwise order from the "
                       f"player who went out (seat {out})")
        self.addopp_last = max(self.addopp_last, dist)
        if 0 <= meld_id < len(self.melds) and self.melds[meld_id].owner != out:
            self.flag("V500-ADDOPP-2",
                       f"ADDOPP lay-off on meld {meld_id} of seat {self.melds[meld_id].owner}; "
                       f"only melds created by seat {out} (who went out) may take them")
        self.cur = seat
        self._start_layoff(meld_id, n_cards, "addopp", row[4])

    def _card(self, row: list[int]) -> None:
        if self.phase != P_CARDS:
            self._unexpected(row)
        seat, meld_id, card, pos = row[1], row[2], row[3], row[4]
        if seat != self.group_seat:
            self.fail("TRACE-FORMAT", f"CARD for seat {seat} in seat {self.group_seat}'s group")
        if meld_id != self.group[1]:
            self.fail(
                "TRACE-FORMAT", f"CARD for meld {meld_id} inside a group for {self.group[1]}"
            )
        if not (0 <= card <= 64 and VALID_CARD[card]):
            self.fail("TRACE-FORMAT", f"invalid card id {card}")
        src = row[5]  # a joker's source under Dealer's gambit
        if not ((src or self.gambit) and self.card_source(seat, card, src)):  # not the dealer's
            hc = self.hands[seat]
            if hc[card] <= 0:
                self.fail(
                    "C-CARD-CONSERVATION",
                    f"seat {seat} puts {card_name(card)} on the table but does not hold it",
                )
            hc[card] -= 1
            self.hand_size[seat] -= 1
        self.table_counts[card] += 1
        self.group_cards.append((card, pos))
        if len(self.group_cards) == self.group_need:
            credit_seat = -1 if self.group_ctx == "addopp" else seat
            if self.group[0] == MELD:
                self._finish_meld(credit_seat)
            else:
                self._finish_layoff(credit_seat)
            self._after_group()

    def _ace_low(self, m: Meld, pos: int) -> bool:
        """Is a natural ace at ``pos`` of run ``m`` used low?  (R500-SCORE-2: position 1;
        V500-CORNER: only as the first card of its run.)"""
        return pos == m.lo if self.cfg.corner else pos == 1

    @staticmethod
    def _wrap_attempt(positions: set[int] | range) -> bool:
        """True if the positions would form a run only by going round the corner (K-A-2).

        Ranks (position 14 read as the ace, rank 1) form a cyclic interval holding both K and A
        that is not a plain interval: forbidden by R500-MELD-4 without V500-CORNER.
        """
        ranks = {p if p <= 13 else 1 for p in positions if 1 <= p <= 14}
        if 1 not in ranks or 13 not in ranks or len(ranks) == 13:
            return False
        gap = [r for r in range(1, 14) if r not in ranks]
        return gap[-1] - gap[0] + 1 == len(gap)

    def _finish_meld(self, seat: int) -> None:
        _, meld_id, kind, key, lo = self.group
        cards = self.group_cards
        n = len(cards)
        cfg = self.cfg
        if self.persian:
            self._check_persian_meld(kind, key, cards)
        if kind == 0 and key == JOKER_SET_KEY:  # V500-PERSIAN-2: a joker set (3 or 4 jokers)
            if n < 3 or n > 4:
                self.flag("R500-MELD-1", f"joker set of {n} cards (3 or 4 jokers)")
            for _c, pos in cards:
                if pos != 0:
                    self.flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
            m = Meld(0, key, 0, 0, n, 0, self.group_seat)
        elif kind == 0:  # set: R500-MELD-1/2/6, RSTD-MELD-1
            if n < 3 or n > 4:
                self.flag("R500-MELD-1", f"set of {n} cards (a set has 3 or 4 cards)")
            suits = 0
            for c, pos in cards:
                if pos != 0:
                    self.flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
                if c != JOKER:  # a joker stands for the rank only (R500-MELD-6)
                    if c & 15 != key:
                        self.flag(
                            "R500-MELD-1", f"{card_name(c)} in a set of rank {RANKS[key - 1]}"
                        )
                    bit = 1 << (c >> 4)
                    if suits & bit:
                        self.flag("R500-MELD-2", f"two natural {card_name(c)} in one set")
                    suits |= bit
            m = Meld(0, key, 0, 0, n, suits, self.group_seat)
        elif cfg.corner:  # run, V500-CORNER: positions may pass 14 and wrap
            positions: set[int] = set()
            for c, pos in cards:
                if pos in positions:
                    self.flag("R500-MELD-3", f"two cards at run position {pos}")
                positions.add(pos)
                if c != JOKER and (c >> 4 != key or c & 15 != run_rank(pos)):
                    self.flag(
                        "R500-MELD-3", f"{card_name(c)} at position {pos} of a {SUITS[key]} run"
                    )
            if n < 3:
                self.flag("R500-MELD-3", f"run of {n} cards (a run has at least 3)")
            if not 1 <= lo <= 13:
                self.flag("V500-CORNER", f"run MELD lo={lo}; runs are written with 1 <= lo <= 13")
            if n > 13:
                self.flag("V500-CORNER", f"run of {n} cards (at most 13, even round the corner)")
            elif positions != set(range(lo, lo + n)):
                self.flag("R500-MELD-3",
                           f"run positions {sorted(positions)} are not consecutive from lo={lo}")
            lo_s, hi_s = (min(positions), max(positions)) if positions else (lo, lo)
            m = Meld(1, key, lo_s, hi_s, n, 0, self.group_seat)
        else:  # run: R500-MELD-3/4/5, RSTD-MELD-2
            positions = set()
            bad_pos = False
            for c, pos in cards:
                if not 1 <= pos <= 14:
                    bad_pos = True
                elif pos in positions:
                    self.flag("R500-MELD-3", f"two cards at run position {pos}")
                positions.add(pos)
                if c != JOKER and 1 <= pos <= 14:
                    rank = pos if pos <= 13 else 1
                    if c >> 4 != key or c & 15 != rank:
                        self.flag(
                            "R500-MELD-3",
                            f"{card_name(c)} at position {pos} of a {SUITS[key]} run",
                        )
            hi = lo + n - 1
            if n < 3:
                self.flag("R500-MELD-3", f"run of {n} cards (a run has at least 3)")
            if bad_pos or lo < 1 or hi > 14 or n > 13:
                self.flag(
                    "R500-MELD-4",
                    f"run positions {sorted(positions)} (lo {lo}, {n} cards) outside 1..14 "
                    "or longer than 13 (no round-the-corner runs)",
                )
            elif positions != set(range(lo, hi + 1)):
                if self._wrap_attempt(positions):
                    self.flag(
                        "R500-MELD-4", f"run round the corner: positions {sorted(positions)}"
                    )
                else:
                    self.flag(
                        "R500-MELD-3",
                        f"run positions {sorted(positions)} are not consecutive from lo={lo}",
                    )
            elif self.std and 14 in positions:
                self.flag("R500-MELD-4", "an ace played high: aces are low only (RSTD-MELD-2)")
            # keep the table state within positions 1..14 even after a reported violation
            valid = [p for p in positions if 1 <= p <= 14]
            lo_s, hi_s = (min(valid), max(valid)) if valid else (1, 1)
            m = Meld(1, key, lo_s, hi_s, n, 0, self.group_seat)
        if kind == 1 and 3 <= n < cfg.min_new_run:
            self.flag("V500-RUN4", f"new run of {n} cards; r500_min_new_run={cfg.min_new_run}")
        m.placed = [[seat, c, pos] for c, pos in cards]
        self.melds.append(m)

    def _check_persian_meld(self, kind: int, key: int, cards: list[tuple[int, int]]) -> None:
        """V500-PERSIAN-2: jokers only in joker sets, joker sets only of jokers."""
        jokers = sum(1 for c, _ in cards if c == JOKER)
        if kind == 0 and key == JOKER_SET_KEY:
            if jokers < len(cards):
                naturals = [card_name(c) for c, _ in cards if c != JOKER]
                self.flag("V500-PERSIAN-2", f"natural card(s) {naturals} in a joker set")
        elif jokers:
            what = f"a set of {RANKS[key - 1]}s" if kind == 0 else f"a {SUITS[key]} run"
            self.flag("V500-PERSIAN-2", f"joker in {what}: jokers are not wild, they are melded "
                                        "only as a set of 3 or 4 jokers")

    def _lay_rule(self, kind: int) -> str:
        if self.std:
            return "RSTD-MELD-1" if kind == 0 else "RSTD-MELD-2"
        return "R500-MELD-8"

    def _finish_layoff(self, seat: int) -> None:
        _, meld_id, kind, key, run_lo = self.group
        m = self.melds[meld_id]
        cards = self.group_cards
        n = len(cards)
        lay_rule = self._lay_rule(kind)
        if self.persian:
            self._check_persian_meld(kind, key, cards)
        if kind == 0 and key == JOKER_SET_KEY:  # V500-PERSIAN-2: a 4th joker on a joker set
            if m.count + n > 4:
                self.flag(lay_rule, f"lay-off of {n} card(s) makes joker set {meld_id} "
                                    f"{m.count + n} cards (max 4)")
            m.count += n
        elif kind == 0:  # set: R500-MELD-8 (max 4), R500-MELD-2
            if m.count + n > 4:
                self.flag(
                    lay_rule,
                    f"lay-off of {n} card(s) makes set {meld_id} {m.count + n} cards (max 4)",
                )
            for c, pos in cards:
                if pos != 0:
                    self.flag("TRACE-FORMAT", f"set CARD with pos {pos} (must be 0)")
                if c != JOKER:
                    if c & 15 != key:
                        self.flag(
                            lay_rule,
                            f"{card_name(c)} laid off on a set of rank {RANKS[key - 1]}",
                        )
                    bit = 1 << (c >> 4)
                    if m.suits & bit:
                        self.flag(
                            "R500-MELD-2", f"{card_name(c)} repeats a suit in set {meld_id}"
                        )
                    m.suits |= bit
            m.count += n
        elif self.cfg.corner:
            self._layoff_corner(m, meld_id, cards, run_lo)
        else:  # run: extended at either end only (R500-MELD-8), no rearranging (R500-MELD-9)
            positions: set[int] = set()
            problem = ""
            rule = lay_rule
            for c, pos in cards:
                if not 1 <= pos <= 14:
                    problem, rule = f"position {pos} outside 1..14", "R500-MELD-4"
                elif m.lo <= pos <= m.hi:
                    problem = (
                        f"position {pos} is inside the run {m.lo}..{m.hi} "
                        "(only the ends can be extended; R500-MELD-9)"
                    )
                elif pos in positions:
                    problem = f"two cards at position {pos}"
                positions.add(pos)
                if c != JOKER and 1 <= pos <= 14:
                    rank = pos if pos <= 13 else 1
                    if c >> 4 != key or c & 15 != rank:
                        self.flag(
                            lay_rule,
                            f"{card_name(c)} does not fit position {pos} of a {SUITS[key]} run",
                        )
            if not problem:
                new_lo = min(m.lo, min(positions))
                new_hi = max(m.hi, max(positions))
                allpos = positions | set(range(m.lo, m.hi + 1))
                if 1 in allpos and 14 in allpos:
                    rule = "R500-MELD-4"
                    problem = "the ace would be both low and high"
                elif new_hi - new_lo + 1 != m.count + n:
                    if self._wrap_attempt(allpos):
                        rule = "R500-MELD-4"
                        problem = f"positions {sorted(positions)} go round the corner"
                    else:
                        problem = (
                            f"positions {sorted(positions)} are not contiguous with "
                            f"the run {m.lo}..{m.hi}"
                        )
                elif new_hi - new_lo + 1 > 13:
                    rule, problem = "R500-MELD-4", "run longer than 13 cards"
                elif self.std and 14 in positions:
                    rule, problem = "R500-MELD-4", "an ace laid off high (aces are low only)"
                m.lo, m.hi = new_lo, new_hi
            if problem:
                self.flag(rule, f"lay-off on run {meld_id}: {problem}")
            m.count += n
        if kind == 1 and run_lo != m.lo:
            self.flag("TRACE-FORMAT",
                      f"LAYOFF run_lo {run_lo}, but run {meld_id} now starts at {m.lo}")
        elif kind == 0 and run_lo != 0:
            self.flag("TRACE-FORMAT", f"LAYOFF on set {meld_id} with run_lo {run_lo} (expected 0)")
        m.placed.extend([seat, c, pos] for c, pos in cards)

    def _layoff_corner(self, m: Meld, meld_id: int, cards: list[tuple[int, int]],
                       run_lo: int) -> None:
        """V500-CORNER lay-off: positions continue the run at either end; a lay-off below
        position 1 is written with the run re-based 13 positions up (trace spec). When a card
        could join either end (a 12-card run), ``run_lo`` says which: re-based iff it moved up."""
        positions = [pos for _, pos in cards]
        ps = set(positions)
        problem = ""
        rule = "R500-MELD-8"
        if len(ps) != len(positions):
            problem = "two cards at one position"
        elif min(ps) < 1:
            problem, rule = (f"position {min(ps)} < 1 (a lay-off below position 1 is written "
                             "with positions shifted up by 13)"), "V500-CORNER"
        else:
            def joined(lo: int, hi: int) -> bool:
                allp = ps | set(range(lo, hi + 1))
                return not (ps & set(range(lo, hi + 1))) and max(allp) - min(allp) + 1 == len(allp)

            rebase_ok = min(ps) <= 13 and min(ps) < m.lo + 13 and joined(m.lo + 13, m.hi + 13)
            if joined(m.lo, m.hi) and not (rebase_ok and run_lo == min(ps)):
                pass
            elif rebase_ok:
                # re-based: the run moves 13 positions up, the lay-off goes below it
                m.lo += 13
                m.hi += 13
                for pl in m.placed:
                    pl[2] += 13
            else:
                problem = (f"positions {sorted(ps)} are not contiguous with the run "
                           f"{m.lo}..{m.hi}")
            if not problem:
                new_lo, new_hi = min(m.lo, min(ps)), max(m.hi, max(ps))
                if new_hi - new_lo + 1 > 13:
                    problem, rule = "run longer than 13 cards", "V500-CORNER"
                else:
                    m.lo, m.hi = new_lo, new_hi
        for c, pos in cards:
            if c != JOKER and (c >> 4 != m.key or c & 15 != run_rank(pos)):
                self.flag("R500-MELD-8",
                           f"{card_name(c)} does not fit position {pos} of a {SUITS[m.key]} run")
        if problem:
            self.flag(rule, f"lay-off on run {meld_id}: {problem}")
        m.count += len(cards)

    def put_value(self, m: Meld, cards: list[tuple[int, int]]) -> int:
        """The value of ``cards`` just put into meld ``m`` (an ace by its run as it stands)."""
        vals = self.vals
        total = 0
        for c, pos in cards:
            if m.kind == 1 and c != JOKER and c & 15 == 1 and self._ace_low(m, pos):
                total += self.ace_low
            else:
                total += vals[c]
        return total

    def _open_add(self, seat: int, cards: list[tuple[int, int]]) -> None:
        """V500-OPEN30: add the value of the cards just put down by a seat that has not opened."""
        if self.opened[seat]:
            return
        m = self.melds[self.group[1]]
        total = self.put_value(m, cards)
        if self._doubled(m) and self.group[0] == MELD:
            total *= 2  # the more lenient reading: a set of four counts as it scores
        self.open_acc += total
        self.open_any = True

    def _doubled(self, m: Meld) -> bool:
        """V500-PERSIAN-3 (AMB-21): a set MELD of four cards (a natural rank or four jokers)
        scores double; a set completed later, and every run, scores normally."""
        return self.persian and m.kind == 0 and m.laid == 4

    def _check_open(self, seat: int) -> None:
        """V500-OPEN30: the first turn / window / call in which a seat puts cards on the table
        puts at least r500_first_meld_min points there (AMB-14)."""
        if self.open_any:
            need = self.cfg.first_meld_min
            if need and not self.opened[seat] and self.open_acc < need:
                self.flag(
                    "V500-OPEN30",
                    f"seat {seat}'s first cards on the table this hand are worth {self.open_acc} "
                    f"points; r500_first_meld_min={need}",
                )
            self.opened[seat] = True
        self.open_acc = 0
        self.open_any = False

    def _after_group(self) -> None:
        """Bookkeeping after a MELD/LAYOFF group: duties, restrictions, a DOUBLE that may follow
        a MELD (Dealer's gambit), going out."""
        ctx = self.group_ctx
        if ctx == "addopp":
            self.phase = P_OUT
            return
        cards = self.group_cards
        seat = self.cur
        if self.cfg.first_meld_min:
            self._open_add(seat, cards)
        if ctx == "oot":
            self.idle = 0  # cards put on the table reset the idle count (R500-STOCK-2)
            self.oot_melds += 1
        else:
            self._after_turn_group(cards)
        if self.gambit and self.group[0] == MELD:
            # V500-GAMBIT-5: a DOUBLE may follow; the hand counts as emptied only after it
            self.pending_double = (self.group[1], seat, ctx)
            self.phase = P_OOT if ctx == "oot" else P_PLAY
            return
        self._group_done(ctx)

    def _after_turn_group(self, cards: list[tuple[int, int]]) -> None:
        """A group in the seat's own turn: the take's duty, V500-7STRAIGHT, restrictions."""
        self.put_on_table = True  # resets the idle count (R500-STOCK-2)
        sel = self.duty_sel
        if sel >= 0:
            contains = any(c == sel for c, _ in cards)
            if not self.first_play_done:
                if contains:
                    # V500-NEWMELD: the selected card goes into a new meld, never a lay-off
                    if self.duty_newmeld and self.group[0] == LAYOFF:
                        self.flag(
                            "V500-NEWMELD",
                            f"selected card {card_name(sel)} laid off instead of a new meld",
                        )
                    self.duty_sel = -1
                else:
                    self.duty_missed_first = True
            elif contains:
                # C-TURN-4: the turn's first play action must contain the selected card
                self.flag(
                    "C-TURN-4",
                    f"selected card {card_name(sel)} melded, but not in the turn's first "
                    "meld/lay-off",
                )
                self.duty_sel = -1
        self.first_play_done = True
        if self.group[0] == MELD and self.group[2] == 1 and len(cards) >= 7:
            self.run7 = True  # V500-7STRAIGHT
        restricted = self.restricted
        if restricted:
            dealers_jokers = self.group_dj  # not from the hand (V500-GAMBIT-7)
            for c, _ in cards:
                if c == JOKER and dealers_jokers:
                    dealers_jokers -= 1
                    continue
                r = restricted.get(c)
                if r:  # assume the taken copy went to the table (copies are interchangeable)
                    restricted[c] = r - 1

    def _group_done(self, ctx: str) -> None:
        """After a group (and a DOUBLE on it): the seat laid down every card, or goes on."""
        if self.hand_size[self.cur] == 0:
            self._hand_emptied(oot=ctx == "oot")
        elif ctx == "oot":
            self.phase = P_OOT
        elif self.call_layoff:
            self._end_turn()  # V500-RUMMY-6: the caller does nothing else and does not discard
        else:
            self.phase = P_PLAY
