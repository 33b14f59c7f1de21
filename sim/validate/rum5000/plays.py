"""5000 Rummy plays: MELD, LAYOFF (additions), JOIN and their CARD records, and TRADE, checked
against R5K-PLAY-*, R5K-GROUP-1/2, R5K-SEQ-1..6, R5K-WILD-3, R5K-TRADE-1..3, R5K-DRAW-3, and the
duty of a deep take or a rummy call (C-TURN-4, V5K-3c/4c)."""

from __future__ import annotations

from collections import Counter

from rummysim.validate.cards import RANKS, SUITS, card_name
from rummysim.validate.rum5000.phases import D_DISCARD_ONLY, P_CARDS, P_PLAY
from rummysim.validate.rum5000.table import KIND_NAMES, PACK_SIZE, Meld, rank_at
from rummysim.validate.teams import partner_of
from rummysim.validate.trace import GROUP, JOIN, LAYOFF, MELD, SEQUENCE, WILD_GROUP, Replayer


class PlayChecks(Replayer):
    """Melds, additions, joins and trades of a 5000 Rummy turn."""

    def _play_start(self, row: list[int], what: str) -> None:
        if self.phase != P_PLAY:
            self._unexpected(row)
        self._check_seat(row[1])
        if self.draw == D_DISCARD_ONLY:
            self.flag("V5K-10", f"{what} in the discard-only first turn (AMB-33)")
        if self.kind == 1 and self.cfg.rummy == "top_card" and self.plays >= 1:
            self.flag("V5K-3c", f"{what} after the top-card caller's one play (it then only "
                                 "discards)")

    def _meld(self, row: list[int]) -> None:
        self._play_start(row, "MELD")
        meld_id, kind, key, lo, n_cards = row[2], row[3], row[4], row[5], row[6]
        if self.kind == 1 and self.cfg.rummy == "top_card":
            self.flag("V5K-3c", "a top-card caller adds, trades or joins with the card; no new "
                                 "meld")
        if meld_id != len(self.melds):
            self.fail("TRACE-FORMAT", f"MELD id {meld_id}, expected {len(self.melds)}")
        if kind not in (GROUP, SEQUENCE, WILD_GROUP):
            self.fail("TRACE-FORMAT", f"MELD kind {kind} (2 group, 3 sequence, 4 wild-card "
                                       "group)")
        key_ok = {GROUP: 1 <= key <= 13, SEQUENCE: 0 <= key <= 3, WILD_GROUP: key == 0}[kind]
        if not key_ok:
            self.fail("TRACE-FORMAT", f"{KIND_NAMES[kind]} MELD key {key}")
        if kind != SEQUENCE and lo != 0:
            self.flag("TRACE-FORMAT", f"{KIND_NAMES[kind]} MELD with lo={lo} (must be 0)")
        if not 1 <= n_cards <= PACK_SIZE:
            self.fail("TRACE-FORMAT", f"MELD n_cards {n_cards}")
        self._open_group(MELD, meld_id, n_cards, (kind, key, lo))

    def _layoff(self, row: list[int]) -> None:
        self._play_start(row, "LAYOFF")
        meld_id, n_cards, lo_after = row[2], row[3], row[4]
        m = self._live_meld(meld_id, "LAYOFF")
        if self.kind == 1 and self.cfg.rummy == "top_card" and n_cards != 1:
            self.flag("V5K-3c", f"a top-card caller adds the one card taken, not {n_cards}")
        if not 1 <= n_cards <= PACK_SIZE:
            self.fail("TRACE-FORMAT", f"LAYOFF n_cards {n_cards}")
        if m.kind != SEQUENCE and lo_after != 0:
            self.flag("TRACE-FORMAT", f"LAYOFF on a {KIND_NAMES[m.kind]} with lo {lo_after} "
                                       "(must be 0)")
        self._open_group(LAYOFF, meld_id, n_cards, (lo_after,))

    def _join(self, row: list[int]) -> None:
        """R5K-SEQ-5/6: sequence meld_b joins the high end of sequence meld_a."""
        self._play_start(row, "JOIN")
        a, b, n_cards = row[2], row[3], row[4]
        ma = self._live_meld(a, "JOIN")
        mb = self._live_meld(b, "JOIN")
        if a == b:
            self.fail("TRACE-FORMAT", f"JOIN of meld {a} with itself")
        if ma.kind != SEQUENCE or mb.kind != SEQUENCE or ma.key != mb.key:
            self.fail("R5K-SEQ-5", f"JOIN of meld {a} ({KIND_NAMES[ma.kind]}) and meld {b} "
                                    f"({KIND_NAMES[mb.kind]}): only two sequences of one suit")
        if mb.lo <= ma.hi:
            self.fail("R5K-SEQ-5", f"JOIN: meld {b} starts at {mb.lo}, not above meld {a}'s "
                                    f"high end {ma.hi}")
        if self.kind == 1 and self.cfg.rummy == "top_card" and n_cards != 1:
            self.flag("V5K-3c", "a top-card caller joins with the card taken as the only card")
        if not 0 <= n_cards <= 13:
            self.fail("TRACE-FORMAT", f"JOIN n_cards {n_cards}")
        if n_cards == 0:
            self._finish_join(a, b, [])
        else:
            self._open_group(JOIN, a, n_cards, (b,))

    def _open_group(self, kind: int, meld_id: int, n_cards: int, extra: tuple) -> None:
        self.group = (kind, meld_id, extra)
        self.group_need = n_cards
        self.group_cards: list[tuple[int, int]] = []
        self.phase = P_CARDS

    def _card(self, row: list[int]) -> None:
        if self.phase != P_CARDS:
            self._unexpected(row)
        seat, meld_id, card, pos = row[1], row[2], row[3], row[4]
        if seat != self.cur:
            self.fail("TRACE-FORMAT", f"CARD for seat {seat} in seat {self.cur}'s group")
        if meld_id != self.group[1]:
            self.fail("TRACE-FORMAT", f"CARD for meld {meld_id} inside a group for meld "
                                       f"{self.group[1]}")
        self._take_from_hand(seat, card, "puts on the table")
        self.group_cards.append((card, pos))
        if len(self.group_cards) < self.group_need:
            return
        kind, meld_id, extra = self.group
        self.phase = P_PLAY
        if kind == MELD:
            self._finish_meld(meld_id, *extra)
        elif kind == LAYOFF:
            self._finish_layoff(meld_id, extra[0])
        else:
            self._finish_join(meld_id, extra[0], self.group_cards)

    def _check_group_rule(self, rank: int, meld_id: int, creating: bool) -> None:
        """R5K-GROUP-2: per rank, a seat (in Persian 5000 a partnership, V5K-9) puts cards into
        one group only (its own, or one other group as an addition; a TRADE into a group counts
        as an addition)."""
        mine = self.group_of[self.rank_owner(self.cur)]
        prev = mine.get(rank)
        if prev is not None and (creating or prev != meld_id):
            who = "its partnership" if self.teams else "it"
            self.flag("R5K-GROUP-2", f"seat {self.cur} puts {RANKS[rank - 1]}s into group "
                                      f"{meld_id}, but {who} already has cards in group {prev} "
                                      "of that rank")
        elif prev is None:
            mine[rank] = meld_id

    def _check_seq_cards(self, cards: list[tuple[int, int]], suit: int, rule: str) -> None:
        """A natural card sits only at its own rank and suit; positions are 1..14."""
        for c, pos in cards:
            if not 1 <= pos <= 14:
                self.flag("R5K-SEQ-1", f"{card_name(c)} at sequence position {pos} (1..14)")
            elif not self._is_wild(c) and (c >> 4 != suit or c & 15 != rank_at(pos)):
                self.flag(rule, f"natural {card_name(c)} at position {pos} of a "
                                 f"{SUITS[suit]} sequence")

    def _check_group_cards(self, cards: list[tuple[int, int]], m_kind: int, key: int) -> None:
        for c, pos in cards:
            if pos != 0:
                self.flag("TRACE-FORMAT", f"{KIND_NAMES[m_kind]} CARD with pos {pos} (must "
                                           "be 0)")
            if m_kind == WILD_GROUP:
                if not self._is_wild(c):
                    self.flag("R5K-WILD-3", f"natural {card_name(c)} in a wild-card group")
            elif not self._is_wild(c) and c & 15 != key:
                self.flag("R5K-GROUP-1", f"{card_name(c)} in a group of "
                                          f"{RANKS[key - 1]}s")

    def _finish_meld(self, meld_id: int, kind: int, key: int, lo: int) -> None:
        """R5K-PLAY-2, R5K-GROUP-1/2, R5K-SEQ-1, R5K-WILD-3 for a new meld."""
        cards = self.group_cards
        n = len(cards)
        seat = self.cur
        if n < 3:
            self.flag("R5K-PLAY-2", f"new {KIND_NAMES[kind]} of {n} card(s) (at least 3)")
        if kind == SEQUENCE:
            self._check_seq_cards(cards, key, "R5K-SEQ-1")
            positions = [p for _, p in cards]
            hi = lo + n - 1
            if sorted(positions) != list(range(lo, hi + 1)):
                self.flag("R5K-SEQ-1", f"sequence positions {sorted(positions)} are not "
                                        f"{lo}..{hi}, one card each")
            elif lo < 1 or hi > 14 or n > 13:
                self.flag("R5K-SEQ-1", f"sequence {lo}..{hi}: positions 1..14, at most 13 "
                                        "cards, an ace not both below the 2 and above the K")
            valid = [p for p in positions if 1 <= p <= 14] or [1]
            m = Meld(SEQUENCE, key, min(valid), max(valid), seat)
        else:
            self._check_group_cards(cards, kind, key)
            if kind == GROUP:
                if key == self.wild:
                    self.flag("R5K-GROUP-1", f"group designated with the wild rank "
                                              f"{RANKS[key - 1]} (no natural card can match it)")
                self._check_group_rule(key, meld_id, creating=True)
            m = Meld(kind, key, 0, 0, seat)
        m.slots = [[seat, c, p] for c, p in cards]
        self.melds.append(m)
        self._after_play([c for c, _ in cards])

    def _finish_layoff(self, meld_id: int, lo_after: int) -> None:
        """An addition (R5K-PLAY-1/4): groups (R5K-GROUP-1/2), wild-card groups (R5K-WILD-3),
        sequences at the ends only, one position outward per card (R5K-SEQ-1/2/3)."""
        m = self.melds[meld_id]
        cards = self.group_cards
        seat = self.cur
        if m.kind == SEQUENCE:
            self._extend_sequence(m, meld_id, cards)
            if lo_after != m.lo:
                self.flag("TRACE-FORMAT", f"LAYOFF lo {lo_after}, but sequence {meld_id} now "
                                           f"starts at {m.lo}")
        else:
            self._check_group_cards(cards, m.kind, m.key)
            if m.kind == GROUP:
                self._check_group_rule(m.key, meld_id, creating=False)
        m.slots.extend([seat, c, p] for c, p in cards)
        self._after_play([c for c, _ in cards])

    def _extend_sequence(self, m: Meld, meld_id: int, cards: list[tuple[int, int]]) -> None:
        self._check_seq_cards(cards, m.key, "R5K-SEQ-2")
        positions = [p for _, p in cards]
        inside = [p for p in positions if m.lo <= p <= m.hi]
        allpos = set(positions) | set(range(m.lo, m.hi + 1))
        lo, hi = min(allpos), max(allpos)
        if inside or len(set(positions)) != len(positions):
            self.flag("R5K-SEQ-2", f"addition at position(s) {sorted(positions)} of sequence "
                                    f"{meld_id} ({m.lo}..{m.hi}): each position holds one card, "
                                    "added only at the ends")
        elif hi - lo + 1 != len(allpos):
            self.flag("R5K-SEQ-2", f"addition at {sorted(positions)} is not the next position "
                                    f"outward of sequence {meld_id} ({m.lo}..{m.hi})")
        elif lo < 1 or hi > 14 or len(allpos) > 13:
            self.flag("R5K-SEQ-1", f"sequence {meld_id} would span {lo}..{hi}: at most 13 "
                                    "cards, an ace not at both ends")
        valid = [p for p in allpos if 1 <= p <= 14]
        if valid:
            m.lo, m.hi = min(valid), max(valid)

    def _owns_sequence(self, m: Meld, seat: int) -> bool:
        """R5K-SEQ-4: the seat created it, or 3+ of its cards are credited to the seat; in
        Persian 5000 (V5K-9) the same for the seat's partnership (either partner, cards credited
        to the two together)."""
        mine = {seat, partner_of(seat)} if self.teams else {seat}
        return bool(mine & m.creators) or sum(1 for s, _, _ in m.slots if s in mine) >= 3

    def _finish_join(self, a: int, b: int, cards: list[tuple[int, int]]) -> None:
        """R5K-SEQ-5 (cards filling the gap, at most 13 in all) and R5K-SEQ-6 (no cards: two
        adjacent sequences of the seat's own, or a wild card traded this turn at the seam)."""
        ma, mb = self.melds[a], self.melds[b]
        seat = self.cur
        gap = list(range(ma.hi + 1, mb.lo))
        self._check_seq_cards(cards, ma.key, "R5K-SEQ-5")
        if sorted(p for _, p in cards) != gap:
            self.flag("R5K-SEQ-5", f"JOIN cards at {sorted(p for _, p in cards)}; the gap "
                                    f"between melds {a} and {b} is {gap}")
        total = len(ma.slots) + len(mb.slots) + len(cards)
        if total > 13:
            self.flag("R5K-SEQ-5", f"JOIN makes a sequence of {total} cards (at most 13)")
        if not cards and not gap:
            own = self._owns_sequence(ma, seat) and self._owns_sequence(mb, seat)
            traded = (a, ma.hi) in self.traded_ends or (b, mb.lo) in self.traded_ends
            if not (own or traded):
                whose = "its partnership's" if self.teams else "its"
                self.flag("R5K-SEQ-6", f"seat {seat} joins sequences {a} and {b} without "
                                        f"adding cards, but they are not both {whose} own and it "
                                        "traded no wild card at their ends this turn")
        ma.slots.extend([seat, c, p] for c, p in cards)
        ma.slots.extend(mb.slots)
        ma.hi = max(ma.hi, mb.hi)
        ma.creators |= mb.creators
        mb.alive = False
        mb.slots = []
        self._after_play([c for c, _ in cards])

    def _trade(self, row: list[int]) -> None:
        """R5K-TRADE-1/2/3, R5K-WILD-3, R5K-DRAW-3."""
        self._play_start(row, "TRADE")
        meld_id, give, take, pos = row[2], row[3], row[4], row[5]
        seat = self.cur
        counts = True
        if self.duty >= 0 and self.duty_rule == "R5K-DRAW-1":
            self.flag("R5K-DRAW-3", "trade before the deep take's meld of the selected card "
                                     "(trades come only after draw (c) is complete)")
            counts = False
        m = self._live_meld(meld_id, "TRADE")
        self._card_ok(give)
        self._card_ok(take)
        if m.kind == WILD_GROUP:
            self.fail("R5K-WILD-3", f"trade for {card_name(take)} in wild-card group {meld_id}: "
                                     "never traded for")
        if self._is_wild(give):
            self.flag("R5K-TRADE-2", f"gives the wild card {card_name(give)}: only natural cards "
                                      "are traded for wild cards")
        if not self._is_wild(take):
            self.flag("R5K-TRADE-2", f"takes the natural {card_name(take)}: only wild cards are "
                                      "traded for")
        slot = self._trade_slot(m, meld_id, take, pos)
        if m.kind == SEQUENCE:
            need = 16 * m.key + rank_at(pos)
            if give != need:
                self.flag("R5K-TRADE-1", f"gives {card_name(give)} for the wild card standing "
                                          f"for {card_name(need)}: it must be exactly that card")
            if pos in (m.lo, m.hi):
                self.traded_ends.add((meld_id, pos))
        else:
            if give & 15 != m.key:
                self.flag("R5K-TRADE-1", f"gives {card_name(give)} for a wild card in a group of "
                                          f"{RANKS[m.key - 1]}s")
            self._check_group_rule(m.key, meld_id, creating=False)
        self._take_from_hand(seat, give, "trades away")
        self._give_to_hand(seat, take)
        slot[0], slot[1] = seat, give  # R5K-TRADE-3: credited to the trader
        self._after_play([give], counts_for_duty=counts)

    def _trade_slot(self, m: Meld, meld_id: int, take: int, pos: int) -> list[int]:
        """The meld slot holding the wild card taken (designations stay where they were)."""
        if m.kind == SEQUENCE:
            for slot in m.slots:
                if slot[2] == pos:
                    if slot[1] != take:
                        self.fail("C-CARD-CONSERVATION", f"TRADE takes {card_name(take)} from "
                                   f"position {pos} of meld {meld_id}, which holds "
                                   f"{card_name(slot[1])}")
                    return slot
            self.fail("C-CARD-CONSERVATION", f"TRADE at position {pos}, outside meld {meld_id}")
        if pos != 0:
            self.flag("TRACE-FORMAT", f"TRADE in a group with pos {pos} (must be 0)")
        for slot in m.slots:
            if slot[1] == take:
                return slot
        self.fail("C-CARD-CONSERVATION", f"TRADE takes {card_name(take)}, which is not in "
                                          f"meld {meld_id}")

    def _after_play(self, cards: list[int], counts_for_duty: bool = True) -> None:
        """Duties (C-TURN-4, V5K-3c/4c), the stall and stock-out counts, going out."""
        self.plays += 1
        if cards:
            self.put = True
            if self.stall_card in cards:
                self.stall_placed = True  # copies are interchangeable (C-CARD-1)
        if self.duty >= 0 and counts_for_duty:
            self.duty_plays += 1
            if self.duty_plays == 1:
                self._check_duty_play(cards)
        if self.hand_size[self.cur] == 0:
            self._hand_emptied()

    def _check_duty_play(self, cards: list[int]) -> None:
        sel, rule = self.duty, self.duty_rule
        self.duty = -1
        if sel not in cards:
            what = "deep take" if rule == "R5K-DRAW-1" else "rummy call"
            self.flag("C-TURN-4" if rule == "R5K-DRAW-1" else rule,
                       f"the {what}'s first play does not contain {card_name(sel)} "
                       f"(it holds {[card_name(c) for c in cards]})")
        elif self.call_cards is not None and Counter(cards) - self.call_cards:
            self.flag("V5K-4c", "the caller's first play uses hand cards: only the pile cards "
                                 "taken and the table may be used")

    def _missed_duty(self) -> None:
        if self.duty < 0:
            return
        what = {"R5K-DRAW-1": "took a card below the top", "V5K-3c": "called",
                "V5K-4c": "called"}[self.duty_rule]
        self.flag(self.duty_rule, f"seat {self.cur} {what} ({card_name(self.duty)}) but did not "
                                   "meld it at once (C-TURN-4, C-LEGAL-1)")
        self.duty = -1
