"""Hand-made 5000 Rummy stakes traces (V5K-13 Doubling, V5K-14 Limit-Poker) for the tests of the
stakes checker (tests/test_validate_stakes_5k.py).

``S5`` extends ``tests.tracebuild_5k.B5`` with the stakes records of docs/trace-format.md
("Stakes: Doubling (V5K-13) and Limit-Poker 5000 (V5K-14)"): it writes STAKES_START, HAND_STAKE,
DOUBLE and its answers, the antes and the betting round, CONCEDE, the unreckoned hand end of a
fold or concession, the PAYOUT records and the session's GAME_END.  Like B5 it is a dumb recorder:
it never checks legality, and it fills the PAYOUT columns from RULES.md V5K-13/14 as written
there (x1 / x2 from 250 / x3 from 500 of the hand-score difference; the pot to the higher hand
score), so illegal variants are made by mutating its rows.

The hand scripts at the bottom play one short hand each with seat ``f`` first.
"""

from __future__ import annotations

from typing import Callable, Mapping

from tests.tracebuild_5k import B5

#: records to write before turn i of a hand script (DOUBLE and its answer, CONCEDE)
Before = Mapping[int, Callable[["S5"], object]]

DOUBLING, LIMIT_POKER = 1, 2


class S5(B5):
    """Trace builder for one 2-hand stakes session."""

    def __init__(self, mode: int, auto: int = 0, dealer: int = 1, flags: dict | None = None):
        layer = {"r5k_doubling": True} if mode == DOUBLING else {"r5k_limit_poker": True}
        super().__init__(2, dealer=dealer, flags={**layer, **(flags or {})})
        self.mode = mode
        self.auto = auto
        self.rows[0][4] = 0  # no target: the session is 2 hands
        self.rows[0][7] = mode
        self.rows.append([101, mode, auto, 2, 1, 0, 0, 0])
        self.session = [0, 0]

    # ---- Doubling ----
    def hand_stake(self) -> S5:
        self.stake = 2 if self.hand_no == 0 and self.auto else 1
        self.ended_by = ""
        self.rows.append([102, self.stake, 0, 0, 0, 0, 0, 0])
        return self

    def double(self, seat: int) -> S5:
        self.offered = 2 * self.stake
        self.rows.append([103, seat, self.offered, 0, 0, 0, 0, 0])
        return self

    def take_double(self, seat: int) -> S5:
        self.stake = self.offered
        self.rows.append([104, seat, self.stake, 0, 0, 0, 0, 0])
        return self

    def beaver(self, seat: int) -> S5:
        self.stake = 2 * self.offered
        self.rows.append([106, seat, self.stake, 0, 0, 0, 0, 0])
        return self

    def fold(self, seat: int) -> S5:
        self.rows.append([105, seat, self.stake, 0, 0, 0, 0, 0])
        self.ended_by, self.loser = "fold", seat
        return self

    # ---- Limit-Poker ----
    def antes(self) -> S5:
        first = (self.dealer + 1) % 2
        self.contrib = [0, 0]
        self.ended_by = ""
        for seat in (first, self.dealer):
            self.contrib[seat] += 1
            self.rows.append([107, seat, 1, sum(self.contrib), 0, 0, 0, 0])
        return self

    def check(self, seat: int) -> S5:
        self.rows.append([108, seat, 0, 0, 0, 0, 0, 0])
        return self

    def bet(self, seat: int, chips: int) -> S5:
        self.contrib[seat] += chips
        self.rows.append([109, seat, chips, sum(self.contrib), 0, 0, 0, 0])
        return self

    def equalize(self, seat: int) -> S5:
        """CALL (named so because B5.call marks a rummy-call turn)."""
        owed = self.contrib[1 - seat] - self.contrib[seat]
        self.contrib[seat] += owed
        self.rows.append([110, seat, owed, sum(self.contrib), 0, 0, 0, 0])
        return self

    def raise_(self, seat: int, chips: int) -> S5:
        owed = self.contrib[1 - seat] - self.contrib[seat]
        self.contrib[seat] += owed + chips
        self.rows.append([111, seat, owed, chips, sum(self.contrib), 0, 0, 0])
        return self

    def concede(self, seat: int, phase: int) -> S5:
        self.rows.append([112, seat, sum(self.contrib), phase, 0, 0, 0, 0])
        self.ended_by, self.loser = "concede", seat
        return self

    # ---- hand end and session ----
    def end_unreckoned(self) -> S5:
        """HAND_END reason 7 (fold) or 8 (concede): zero SCOREs, totals unchanged."""
        reason = 7 if self.ended_by == "fold" else 8
        self.rows.append([40, reason, -1, self.turns, 0, 0, 0, 0])
        self.scores = []
        for s in range(2):
            row = [41, s, 0, self.totals[s], 0, 0, 0, 0]
            self.scores.append(row)
            self.rows.append(row)
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % 2
        return self

    def _amounts(self) -> tuple[list[int], int, int]:
        """(amounts, multiplier, hand_stake) of the hand just ended."""
        hs = [self.scores[0][2], self.scores[1][2]]
        if self.mode == DOUBLING:
            stake, m = self.stake, 0
            if self.ended_by == "fold":
                pay, loser = stake, self.loser
            elif hs[0] == hs[1]:
                return [0, 0], 0, stake
            else:
                d = abs(hs[0] - hs[1])
                m = 3 if d >= 500 else 2 if d >= 250 else 1
                pay, loser = stake * m, 0 if hs[0] < hs[1] else 1
        else:
            stake, m = sum(self.contrib), 0
            if self.ended_by == "concede":
                loser = self.loser
            elif hs[0] == hs[1]:
                return [0, 0], 0, stake
            else:
                loser = 0 if hs[0] < hs[1] else 1
            pay = self.contrib[loser]
        amounts = [pay, pay]
        amounts[loser] = -pay
        return amounts, m, stake

    def payouts(self) -> S5:
        amounts, m, stake = self._amounts()
        for s in range(2):
            self.session[s] += amounts[s]
            self.rows.append([113, s, amounts[s], self.session[s], m, stake, 0, 0])
        return self

    def session_end(self) -> S5:
        s0, s1 = self.session
        winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
        return self.game_end(winner, 0, 3 if winner < 0 else 0)


# ---- hand scripts: seat f plays first (the dealer is 1 - f) ----

def deal_out_hand(b: S5, loser: str) -> int:
    """Deal: f holds 3C 4C 5C 6C (face-up 3C); the dealer's hand spec is ``loser``."""
    f = (b.dealer + 1) % 2
    b.deal("J", {f: "3C 4C 5C 6C", 1 - f: loser}, upcard="2D", stock="KS 8S")
    return f


def _before(b: S5, before: Before | None, i: int) -> None:
    if before and i in before:
        before[i](b)


def play_out_hand(b: S5, f: int, before: Before | None = None) -> S5:
    """f melds 3C 4C 5C, the dealer draws and discards 8S, f takes it, adds 6C and goes out by
    discarding 8S (bonus 200): f scores 220, the dealer minus its hand value.  ``before[i]``
    writes records before turn i (0, 1, 2)."""
    _before(b, before, 0)
    b.draw(f).meld(f, "seq", "3C 4C 5C").discard(f, "KS")
    _before(b, before, 1)
    b.draw(1 - f).discard(1 - f, "8S")
    _before(b, before, 2)
    b.take(f).layoff(f, 0, "6C").discard(f, "8S")
    return b.end(1, out=f)


#: dealer hands (face-up first) and the difference to f's 220 they give
LOSS_245 = "4D 2D 2H 2S 3S"  # hand value 25: x1
LOSS_250 = "4D 2D 2H 2S 9S"  # 30: x2 (the lower edge)
LOSS_455 = "4D AD 9D 9H 9S"  # 235: x2
LOSS_500 = "8D AD 9D 9H 9S KD KH KS QD"  # 280: x3 (the lower edge)
LOSS_830 = "4D AD AH AS 7S"  # 610: x3


def deal_tie_hand(b: S5) -> int:
    f = (b.dealer + 1) % 2
    b.deal("J", {f: "3C 4C 5C 6C", 1 - f: "3D 4D 5D 6D"}, upcard="2D", stock="KS KH QS QH")
    return f


def play_tie_hand(b: S5, f: int, before: Before | None = None) -> S5:
    """Four draw-and-discard turns, then the turn cap (max_turns_per_hand=4): -20 each."""
    for i, seat in enumerate((f, 1 - f, f, 1 - f)):
        _before(b, before, i)
        b.draw_discard(seat)
    return b.end(4)
