"""A replay of Dealer's gambit traces for the kernel tests: the gambit's own bookkeeping checked.

Not the validator (``rummysim.validate`` is written apart from the kernels, from RULES.md and
docs/trace-format.md): this follows every card of a 500 Rum trace with ``r500_dealers_gambit``
and checks what V500-GAMBIT-1..9 add, so the kernel tests can run thousands of games. Checked:
the pack and the dealer's joker (GAMBIT-1), the next dealer on the right (GAMBIT-2), NOMINATE
before any turn (GAMBIT-3), jokers only wild under ``wild`` and worth 0 (GAMBIT-4/9), DOUBLE right
after its MELD and no lay-off on a sealed meld, doubled values (GAMBIT-5), SPLIT's removal and the
take that follows with its duty (GAMBIT-6), the dealer's joker used at most once, only by the
dealer on the dealer's turns, never after a block (GAMBIT-7/8), BLOCK's conditions (GAMBIT-8),
card conservation with cards out of play at every record, and SCORE's table and hand values.
It covers the deal, draws, melds, lay-offs, discards, rummy-call turns, out-of-turn melds,
V500-UPCHOICE, reshuffles and V500-ADDOPP lay-offs (value checks assume `face` values).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from rummysim.kernels.rum500 import layout as L

JOKER = 64


class GambitViolation(AssertionError):
    pass


def face_value(card: int, low: bool = False) -> int:
    """R500-SCORE-2 `face` values; a joker is worth 0 under the gambit (V500-GAMBIT-4/5/9)."""
    if card == JOKER:
        return 0
    r = card & 15
    if r == 1:
        return 1 if low else 15
    return min(r, 10)


@dataclass
class Meld:
    seat: int
    kind: int
    cards: list[tuple[int, int, int]] = field(default_factory=list)  # (card, owner, pos)
    doubled: bool = False
    jokers_from_dealer: int = 0


@dataclass
class HandState:
    n: int
    dealer: int
    pack: list[int]
    effect: int = 0
    dj: str = "none"  # none, ready, used, blocked
    hands: list[Counter] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    out_of_play: list[int] = field(default_factory=list)
    doublers: int = 0
    seat: int = -1  # seat in turn (-1 between turns)
    turn_kind: int = 0
    duty: int = -1  # card a take must play, pending
    last_meld: int = -1  # meld id of the MELD just recorded (for DOUBLE)
    in_out_of_turn: bool = False
    dealer_joker_uses: int = 0

    def cards_in_play(self) -> int:
        table = sum(len(m.cards) for m in self.melds)
        return sum(sum(h.values()) for h in self.hands) + len(self.pile) + len(self.stock) + table \
            + self.doublers + len(self.out_of_play)


@dataclass
class ReplayStats:
    hands: int = 0
    effects: Counter = field(default_factory=Counter)
    doubles: int = 0
    splits: int = 0
    blocks: int = 0
    dealer_joker_uses: int = 0
    cards_out_of_play: int = 0


def _fail(i: int, rule: str, msg: str) -> None:
    raise GambitViolation(f"record {i}: {rule}: {msg}")


def _take(h: HandState, seat: int, card: int, i: int, what: str) -> None:
    if h.hands[seat][card] <= 0:
        _fail(i, "C-CARD", f"seat {seat} puts down {what} {card} it does not hold")
    h.hands[seat][card] -= 1


def replay(trace: np.ndarray, gambit_jokers: int = 2, upchoice: bool = False, winner_deals: bool = False,
           first_meld_min: int = 0, stats: ReplayStats | None = None) -> ReplayStats:
    """Replay one game's trace; raises GambitViolation at the first record that breaks a rule.
    With ``first_meld_min`` V500-OPEN30 is checked too (doubled melds count double)."""
    stats = stats or ReplayStats()
    opening = Opening(first_meld_min)
    n = 0
    h: HandState | None = None
    deck: list[int] = []
    deck_size = 0
    expected_dealer = None
    pending_split = False
    scored: list[list[int]] = []
    i = 0
    while i < len(trace):
        r = [int(x) for x in trace[i]]
        kind = r[0]
        if kind in (L.T_TURN_START, L.T_OUT_OF_TURN, L.T_DISCARD, L.T_HAND_END, L.T_FLOAT, L.T_ADDOPP_LAYOFF):
            opening.close(i)
        if kind in (L.T_TURN_START, L.T_OUT_OF_TURN):
            opening.open_unit(r[1])
        if kind == L.T_HAND_START:
            opening.new_hand()
        if kind == L.T_GAME_START:
            n = r[1]
            if r[7] & 0xFF != 1:  # the low byte; bit 8 says the window asks are recorded
                _fail(i, "V500-GAMBIT", "GAME_START column 7's low byte is not 1")
        elif kind == L.T_HAND_START:
            dealer, deck_size, deal = r[2], r[3], r[4]
            if expected_dealer is not None and dealer != expected_dealer:
                _fail(i, "V500-GAMBIT-2", f"dealer {dealer}, expected {expected_dealer}")
            if deck_size != 52 + gambit_jokers - 1:
                _fail(i, "V500-GAMBIT-1", f"pack of {deck_size} cards")
            deck = []
            h = HandState(n=n, dealer=dealer, pack=deck)
            h.hands = [Counter() for _ in range(n)]
            hand_deal = deal
        elif kind == L.T_DECK:
            deck.extend(c for c in r[2:] if c >= 0)
        elif kind == L.T_DEALERS_JOKER:
            assert h is not None
            if len(deck) != deck_size or Counter(deck)[JOKER] != gambit_jokers - 1:
                _fail(i, "V500-GAMBIT-1", "the shuffled pack is not 52 naturals and the other jokers")
            if r[1] != h.dealer:
                _fail(i, "V500-GAMBIT-1", "the dealer's joker is not beside the dealer")
            pos = 0
            for j in range(n):
                s = (h.dealer + 1 + j) % n
                count = hand_deal + (1 if (upchoice and j == 0) else 0)
                h.hands[s].update(deck[pos:pos + count])
                pos += count
            if not upchoice:
                h.pile.append(deck[pos])
                pos += 1
            h.stock = list(deck[pos:])
            h.dj = "ready"
        elif kind == L.T_NOMINATE:
            assert h is not None
            if trace[i - 1][0] != L.T_DEALERS_JOKER or r[1] != h.dealer or r[2] not in (1, 2, 3):
                _fail(i, "V500-GAMBIT-3", "NOMINATE must follow DEALERS_JOKER, by the dealer, 1..3")
            h.effect = r[2]
            stats.effects[r[2]] += 1
            stats.hands += 1
        elif kind == L.T_START_PILE:
            assert h is not None
            _take(h, r[1], r[2], i, "start card")
            h.pile.append(r[2])
        elif kind == L.T_TURN_START:
            assert h is not None
            if h.effect == 0:
                _fail(i, "V500-GAMBIT-3", "a turn before the nomination")
            h.seat, h.turn_kind, h.duty, h.in_out_of_turn = r[1], r[5], -1, False
            if r[3] != len(h.stock) or r[4] != len(h.pile):
                _fail(i, "C-CARD", f"TURN_START sizes {r[3]}/{r[4]}, replay {len(h.stock)}/{len(h.pile)}")
        elif kind == L.T_DRAW_STOCK:
            c = h.stock.pop(0)
            if c != r[2]:
                _fail(i, "C-PILE-1", f"drew {r[2]}, stock top {c}")
            h.hands[r[1]][c] += 1
        elif kind == L.T_SPLIT:
            seat, k, s, removed, source = r[1:6]
            top = len(h.pile) - 1
            if h.effect != L.EFFECT_SPLIT or h.turn_kind != 0 or seat != h.seat:
                _fail(i, "V500-GAMBIT-6", "SPLIT outside a normal turn under split")
            if not (k < top and k < s <= top + 1 and removed == s - k - 1 and removed >= 1):
                _fail(i, "V500-GAMBIT-6", f"split k={k} s={s} removed={removed} on a pile of {top + 1}")
            if trace[i + 1][0] != L.T_TAKE_PILE or int(trace[i + 1][2]) != k:
                _fail(i, "V500-GAMBIT-6", "SPLIT not followed by its TAKE_PILE")
            _use_joker(h, seat, source, i, "split")
            gone = h.pile[k + 1:s]
            h.out_of_play.extend(gone)
            h.out_of_play.append(JOKER)  # the split's joker (or the dealer's joker) leaves play
            h.pile = h.pile[:k + 1] + h.pile[s:]
            stats.splits += 1
            stats.cards_out_of_play += len(gone)
            pending_split = True
        elif kind == L.T_TAKE_PILE:
            seat, k, ntaken, sel = r[1:5]
            if ntaken != len(h.pile) - k or h.pile[k] != sel:
                _fail(i, "C-PILE-4", "TAKE_PILE does not match the pile")
            if sel == JOKER and h.effect != L.EFFECT_WILD and (k < len(h.pile) - 1 or pending_split or h.turn_kind):
                _fail(i, "V500-GAMBIT-3", "a non-wild joker taken with a duty")
            if k < len(h.pile) - 1 or pending_split or h.turn_kind == 1:
                h.duty = sel
            for c in h.pile[k:]:
                h.hands[seat][c] += 1
            h.pile = h.pile[:k]
            pending_split = False
        elif kind in (L.T_MELD, L.T_LAYOFF, L.T_ADDOPP_LAYOFF):
            seat, m, ncards = r[1], r[2], (r[6] if kind == L.T_MELD else r[3])
            if kind == L.T_MELD:
                if m != len(h.melds):
                    _fail(i, "C-MELD", "meld ids out of order")
                h.melds.append(Meld(seat=seat, kind=r[3]))
                h.last_meld = m
            else:
                if h.melds[m].doubled:
                    _fail(i, "V500-GAMBIT-5", f"lay-off on the sealed meld {m}")
                h.last_meld = -1
            owner = seat if kind != L.T_ADDOPP_LAYOFF else L.NOBODY
            cards = []
            for j in range(ncards):
                c = [int(x) for x in trace[i + 1 + j]]
                if c[0] != L.T_CARD:
                    _fail(i, "C-MELD", "missing CARD record")
                card, pos, source = c[3], c[4], c[5]
                if card == JOKER and h.effect != L.EFFECT_WILD:
                    _fail(i, "V500-GAMBIT-4", "a joker in a meld under double or split")
                if card == JOKER and source == L.SOURCE_DEALER:
                    if kind == L.T_ADDOPP_LAYOFF or h.in_out_of_turn:
                        _fail(i, "V500-GAMBIT-7", "the dealer's joker outside the dealer's turn")
                    _use_joker(h, seat, L.SOURCE_DEALER, i, "wild")
                    h.melds[m].jokers_from_dealer += 1
                else:
                    _take(h, seat, card, i, "card")
                cards.append((card, owner, pos))
            h.melds[m].cards.extend(cards)
            if kind != L.T_ADDOPP_LAYOFF:
                opening.add(sum(face_value(c, low=(h.melds[m].kind == L.KIND_RUN and p == 1)) for c, _, p in cards))
            if h.duty >= 0 and seat == h.seat and not h.in_out_of_turn:
                if h.duty not in [c for c, _, _ in cards]:
                    _fail(i, "C-TURN-4", "the first play does not contain the selected card")
                h.duty = -1
            i += ncards
        elif kind == L.T_DOUBLE:
            seat, m, source = r[1], r[2], r[3]
            if h.effect != L.EFFECT_DOUBLE or m != h.last_meld or h.melds[m].seat != seat or h.melds[m].doubled:
                _fail(i, "V500-GAMBIT-5", "DOUBLE must follow its own new meld, under double, once")
            if source == L.SOURCE_DEALER and h.in_out_of_turn:
                _fail(i, "V500-GAMBIT-7", "the dealer's joker outside the dealer's turn")
            _use_joker(h, seat, source, i, "double")
            h.melds[m].doubled = True
            h.doublers += 1
            opening.add(sum(face_value(c, low=(h.melds[m].kind == L.KIND_RUN and p == 1)) for c, _, p in h.melds[m].cards))
            stats.doubles += 1
        elif kind == L.T_BLOCK:
            seat = r[1]
            if seat == h.dealer or seat != h.seat or h.dj != "ready" or h.hands[seat][JOKER] <= 0 or h.duty >= 0:
                _fail(i, "V500-GAMBIT-8", "BLOCK by the dealer, out of turn, without a joker or a ready dealer's joker")
            h.hands[seat][JOKER] -= 1
            if sum(h.hands[seat].values()) == 0:
                _fail(i, "V500-GAMBIT-8", "a block emptied the hand")
            h.out_of_play.extend([JOKER, JOKER])  # the blocking joker and the dealer's joker
            h.dj = "blocked"
            stats.blocks += 1
        elif kind == L.T_OUT_OF_TURN:
            h.in_out_of_turn = True
            h.seat = r[1]
        elif kind == L.T_DISCARD:
            _take(h, r[1], r[2], i, "discard")
            h.pile.append(r[2])
            h.seat = -1
        elif kind == L.T_RESHUFFLE:
            if trace[i + 1][0] != L.T_RESTOCK:
                _fail(i, "V500-STOCKEND", "RESHUFFLE without RESTOCK")
            moved = Counter(h.pile[:-1])
            h.pile = h.pile[-1:]
            new_stock: list[int] = []
            while i + 1 < len(trace) and trace[i + 1][0] == L.T_RESTOCK:
                i += 1
                new_stock.extend(int(c) for c in trace[i][2:] if c >= 0)
            if Counter(new_stock) != moved:
                _fail(i, "V500-STOCKEND", "the new stock is not the old pile")
            h.stock = new_stock
        elif kind == L.T_HAND_END:
            scored = []
        elif kind == L.T_SCORE:
            scored.append(r)
            if len(scored) == n:
                _check_scores(h, scored, i)
                stats.dealer_joker_uses += h.dealer_joker_uses
                expected_dealer = (h.dealer - 1) % n
                if winner_deals and int(trace[_hand_end_index(trace, i)][2]) >= 0:
                    expected_dealer = int(trace[_hand_end_index(trace, i)][2])
        if h is not None and h.dj != "none" and kind not in (L.T_HAND_START, L.T_DECK):
            expected = len(h.pack) + (0 if h.dj == "ready" else 1)  # + the dealer's joker once played
            if h.cards_in_play() != expected:
                _fail(i, "C-CARD", f"{h.cards_in_play()} cards in play, expected {expected} (conservation)")
        i += 1
    return stats


@dataclass
class Opening:
    """V500-OPEN30 per hand: a seat's first turn (or out-of-turn window) that puts cards down puts
    down at least ``minimum`` points, a doubled meld counting twice."""

    minimum: int
    opened: set[int] = field(default_factory=set)
    seat: int = -1
    placed: int = 0
    any_card: bool = False  # a joker meld may be worth 0 and still puts cards down

    def new_hand(self) -> None:
        self.opened = set()
        self.seat = -1

    def open_unit(self, seat: int) -> None:
        self.seat, self.placed, self.any_card = seat, 0, False

    def add(self, points: int) -> None:
        if self.seat >= 0:
            self.placed += points
            self.any_card = True

    def close(self, i: int) -> None:
        if self.seat >= 0 and self.any_card and self.seat not in self.opened:
            if self.minimum and self.placed < self.minimum:
                _fail(i, "V500-OPEN30", f"seat {self.seat} opened with {self.placed} points")
            self.opened.add(self.seat)
        self.seat = -1


def _hand_end_index(trace: np.ndarray, i: int) -> int:
    while trace[i][0] != L.T_HAND_END:
        i -= 1
    return i


def _use_joker(h: HandState, seat: int, source: int, i: int, what: str) -> None:
    """A joker for a split, a double or a wild meld: from the seat's hand or the dealer's joker."""
    if source == L.SOURCE_DEALER:
        h.dealer_joker_uses += 1
        if seat != h.dealer or h.dj != "ready" or seat != h.seat:
            _fail(i, "V500-GAMBIT-7", f"the dealer's joker used for {what} by seat {seat} (state {h.dj})")
        h.dj = "used"
    else:
        _take(h, seat, JOKER, i, f"a joker for {what}")


def _check_scores(h: HandState, scored: list[list[int]], i: int) -> None:
    """SCORE table and hand values: doubled melds x2, jokers 0 (V500-GAMBIT-4/5/9)."""
    table = [0] * h.n
    for m in h.melds:
        factor = 2 if m.doubled else 1
        for j, (card, owner, pos) in enumerate(m.cards):
            if owner == L.NOBODY:
                continue
            table[owner] += factor * face_value(card, low=(m.kind == L.KIND_RUN and pos == 1))
    for r in scored:
        seat, table_value, hand_value = r[1], r[4], r[5]
        if table_value != table[seat]:
            _fail(i, "V500-GAMBIT-5", f"seat {seat} table value {table_value}, replay {table[seat]}")
        held = sum(face_value(c) * k for c, k in h.hands[seat].items())
        if hand_value not in (held, 0):
            _fail(i, "V500-GAMBIT-9", f"seat {seat} hand value {hand_value}, replay {held}")
