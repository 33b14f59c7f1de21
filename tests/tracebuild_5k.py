"""Hand-made 5000 Rummy traces for the tests of the independent checker (rummysim.validate.rum5000).

``B5`` is a dumb recorder like ``tests.tracebuild.B``: it writes the records of
docs/trace-format.md ("5000 Rummy") from readable card strings and keeps just enough state (hands,
stock, pile, meld slots with credits, first turns) to fill TURN_START and SCORE fields.  It never
checks legality, so illegal variants are written the same way as legal ones.  Its scoring is
written out from RULES.md §4.8, §5 (V5K-7, V5K-12) and §8.3-8.4, independently of the checker.

Card strings: ``"5H"``; a sequence position ``"2C@7"`` (a wild 2C standing for 7 of the sequence's
suit) or ``"AH@14"`` (an ace above the K).  A seat's hand spec starts with its face-up card, which
sets the hand size (R5K-DEAL-1); missing cards are filled from the rest of the pack.
"""

from __future__ import annotations

from collections import Counter, deque

import numpy as np

from tests.tracebuild import RANKS, SUITS, cid, cname, parse

GAME = {"game": "5000-rummy"}


def rank_of(text: str | int) -> int:
    return text if isinstance(text, int) else RANKS.index(text.upper()) + 1


def value(card: int, wild: int) -> int:
    """§8.3, 5000 column: K..8 = 10, 7..2 = 5, A = 200; wild 100 / 200 (Q, 10) / 400 (A)."""
    r = card & 15
    if r == wild:
        return 400 if wild == 1 else 200 if wild in (10, 12) else 100
    return 200 if r == 1 else 10 if r >= 8 else 5


def hand_size_for(face_up: int) -> int:
    """§8.2: 12 for an ace, 11 for K/Q/J/10, rank + 1 for 2..9."""
    r = face_up & 15
    return 12 if r == 1 else 11 if r >= 10 else r + 1


def default_target(n: int) -> int:
    return 5000 if n == 2 else 3000 if n == 3 else 2000


class B5:
    """Trace builder for one 5000 Rummy game."""

    def __init__(self, n: int, dealer: int = 0, flags: dict | None = None, game_index: int = 7):
        self.flags = {**GAME, **(flags or {})}
        self.n = n
        self.dealer = dealer
        self.totals = [0] * n
        self.hand_no = 0
        t = self.flags.get("r5k_target", "auto")
        self.target = default_target(n) if t == "auto" else int(t)
        self.rows: list[list[int]] = [[1, n, dealer, game_index, self.target, 2, 0, 0]]

    # ---- deal ----
    def deal(self, wild: str | int, hands: dict[int, str] | None = None, upcard: str | None = None,
             stock: str = ""):
        """Deal a hand with wild rank ``wild``; ``stock`` lists the first stock cards."""
        n = self.n
        self.wild = rank_of(wild)
        extra = self.flags.get("r5k_first_turn") == "extra_card"
        pool = Counter(16 * s + r for s in range(4) for r in range(1, 14))
        pool = Counter({c: 2 for c in pool})
        specs = {s: [cid(t) for t in (hands or {}).get(s, "").split()] for s in range(n)}
        fixed = [c for h in specs.values() for c in h] + [cid(t) for t in stock.split()]
        if upcard:
            fixed.append(cid(upcard))
        for c in fixed:
            assert pool[c] > 0, f"card {cname(c)} used three times in the scenario"
            pool[c] -= 1
        # filler: non-wild 2s first (small hands), then upward; deterministic
        filler = deque(sorted(pool.elements(), key=lambda c: (
            (c & 15) == self.wild, (c & 15) == 1, c & 15, c)))
        order: list[int] = []
        self.face_ups = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            spec = list(specs[seat])
            face = spec[0] if spec else filler.popleft()
            size = hand_size_for(face) + (1 if extra and i == 0 else 0)
            block = [face] + spec[1:]
            assert len(block) <= size, f"seat {seat}: {len(block)} cards for a hand of {size}"
            block += [filler.popleft() for _ in range(size - len(block))]
            self.hands[seat] = list(block)
            self.face_ups.append((seat, face, size))
            order += block
        self.pile = []
        if not extra:
            up = cid(upcard) if upcard else filler.popleft()
            order.append(up)
            self.pile = [up]
        self.stock = [cid(t) for t in stock.split()] + list(filler)
        order += self.stock
        assert len(order) == 104
        self.rows.append([2, self.hand_no, self.dealer, 104, 0, (self.dealer + 1) % n, self.wild,
                          0])
        for off in range(0, 104, 6):
            chunk = order[off:off + 6]
            self.rows.append([3, off] + chunk + [-1] * (6 - len(chunk)))
        for seat, face, size in self.face_ups:
            self.rows.append([96, seat, face, size, 0, 0, 0, 0])
        self.melds: list[dict] = []
        self.turns = 0
        self.next = (self.dealer + 1) % n
        self.had_turn = [False] * n
        self.first = False
        self.skipped = False
        self.call = False
        self.last = None
        return self

    # ---- turns and draws ----
    def turn(self, seat: int | None = None, kind: int = 0) -> int:
        seat = self.next if seat is None else seat
        self.rows.append([5, seat, self.turns, len(self.stock), len(self.pile), kind, 0, 0])
        self.turns += 1
        self.call = kind == 1
        self.first = kind == 0 and not self.had_turn[seat]
        self.skipped = False
        if kind == 0:
            self.had_turn[seat] = True
            self.next = (seat + 1) % self.n
        return seat

    def draw(self, seat: int | None = None, start: bool = True):
        seat = self.turn(seat) if start else seat
        c = self.stock.pop(0)
        self.rows.append([10, seat, c, 0, 0, 0, 0, 0])
        self.hands[seat].append(c)
        self.last = c
        return self

    def take(self, seat: int | None = None, k: int | None = None, kind: int = 0,
             start: bool = True):
        seat = self.turn(seat, kind) if start else seat
        k = len(self.pile) - 1 if k is None else k
        taken = self.pile[k:]
        self.rows.append([11, seat, k, len(taken), self.pile[k], 0, 0, 0])
        del self.pile[k:]
        self.hands[seat] += taken
        self.last = taken[0]
        return self

    def call_(self, seat: int, k: int | None = None):
        """A rummy-call turn (TURN_START kind 1 + TAKE_PILE)."""
        return self.take(seat, k, kind=1)

    def take_all(self, seat: int | None = None, start: bool = True):
        seat = self.turn(seat) if start else seat
        self.rows.append([97, seat, len(self.pile), 0, 0, 0, 0, 0])
        self.hands[seat] += self.pile
        self.pile = []
        return self

    def nodraw(self, seat: int | None = None, reason: int = 0, start: bool = True):
        seat = self.turn(seat) if start else seat
        self.rows.append([12, seat, reason, 0, 0, 0, 0, 0])
        self.skipped = reason == 2
        return self

    def exchange(self, seat: int, give: str):
        c = cid(give)
        old = self.pile[0]
        self.rows.append([98, seat, c, old, 0, 0, 0, 0])
        self.hands[seat].remove(c)
        self.hands[seat].append(old)
        self.pile[0] = c
        return self

    # ---- plays ----
    def _remove(self, seat: int, c: int) -> None:
        if c in self.hands[seat]:
            self.hands[seat].remove(c)

    def _positions(self, cards):
        return [(c, p if p is not None else (c & 15)) for c, p in cards]

    def _card_rows(self, seat: int, mid: int, cards) -> list[list[int]]:
        out = []
        for c, p in cards:
            self.rows.append([21, seat, mid, c, p, 0, 0, 0])
            self._remove(seat, c)
            out.append([seat, c, p])
        return out

    def meld(self, seat: int, kind: str, spec: str, key: int | str | None = None,
             lo: int | None = None):
        """``kind``: "group" (key = rank), "seq" (key = suit) or "wild" (wild-card group)."""
        cards = parse(spec)
        mid = len(self.melds)
        if kind == "seq":
            cards = self._positions(cards)
            nat = [c for c, _ in cards if (c & 15) != self.wild]
            k = 3
            key = SUITS.index(key) if isinstance(key, str) else key
            key = key if key is not None else (nat[0] >> 4)
            lo_ = lo if lo is not None else min(p for _, p in cards)
            m = {"kind": 3, "key": key, "lo": lo_, "hi": lo_ + len(cards) - 1}
        else:
            cards = [(c, 0) for c, _ in cards]
            k = 2 if kind == "group" else 4
            if k == 2:
                nat = [c for c, _ in cards if (c & 15) != self.wild]
                key = rank_of(key) if key is not None else (nat[0] & 15)
            else:
                key = 0
            lo_ = 0
            m = {"kind": k, "key": key}
        self.rows.append([20, seat, mid, k, key, lo_, len(cards), 0])
        m["slots"] = self._card_rows(seat, mid, cards)
        self.melds.append(m)
        return self

    def layoff(self, seat: int, mid: int, spec: str, lo: int | None = None):
        m = self.melds[mid]
        cards = parse(spec)
        lo_col = 0
        if m["kind"] == 3:
            cards = self._positions(cards)
            ps = [p for _, p in cards]
            m["lo"], m["hi"] = min([m["lo"]] + ps), max([m["hi"]] + ps)
            lo_col = m["lo"] if lo is None else lo
        else:
            cards = [(c, 0) for c, _ in cards]
        self.rows.append([22, seat, mid, len(cards), lo_col, 0, 0, 0])
        m["slots"] += self._card_rows(seat, mid, cards)
        return self

    def join(self, seat: int, a: int, b: int, spec: str = ""):
        cards = self._positions(parse(spec))
        self.rows.append([99, seat, a, b, len(cards), 0, 0, 0])
        ma, mb = self.melds[a], self.melds[b]
        ma["slots"] += self._card_rows(seat, a, cards) + mb["slots"]
        ma["hi"] = mb["hi"]
        mb["slots"] = []
        return self

    def trade(self, seat: int, mid: int, give: str, take: str, pos: int = 0):
        g, t = cid(give), cid(take)
        self.rows.append([100, seat, mid, g, t, pos, 0, 0])
        for slot in self.melds[mid]["slots"]:
            if slot[1] == t and (pos == 0 or slot[2] == pos):
                slot[0], slot[1] = seat, g
                break
        self._remove(seat, g)
        self.hands[seat].append(t)
        return self

    def discard(self, seat: int, card: str | int):
        c = cid(card) if isinstance(card, str) else card
        self.rows.append([30, seat, c, 0, 0, 0, 0, 0])
        self._remove(seat, c)
        self.pile.append(c)
        return self

    def draw_discard(self, seat: int | None = None, card: str | None = None):
        """DRAW_STOCK then DISCARD of ``card`` (default: the card drawn)."""
        seat = self.next if seat is None else seat
        self.draw(seat)
        return self.discard(seat, card if card is not None else self.last)

    def float_(self, seat: int):
        self.rows.append([31, seat, 0, 0, 0, 0, 0, 0])
        return self

    def hand(self, seat: int) -> list[str]:
        return [cname(c) for c in self.hands[seat]]

    # ---- scoring ----
    def end(self, reason: int, out: int = -1, tv: dict | None = None, hv: dict | None = None,
            bonus: dict | None = None):
        """HAND_END and SCORE records; ``tv``/``hv``/``bonus`` replace computed values."""
        self.rows.append([40, reason, out, self.turns, 0, 0, 0, 0])
        f = self.flags
        n = self.n
        w = self.wild
        money = f.get("r5k_money_cards", False)
        credited: list[list[int]] = [[] for _ in range(n)]
        for m in self.melds:
            for s, c, _ in m["slots"]:
                credited[s].append(c)
        tvs = [sum(value(c, w) for c in cs) for cs in credited]
        hvs = []
        for s in range(n):
            v = 0
            for c in self.hands[s]:
                natural_qh = c == cid("QH") and w != 12
                v += 50 if (money and out >= 0 and natural_qh) else value(c, w)
            hvs.append(v)
        bon = [0] * n
        if out >= 0:  # R5K-OUT-2 (AMB-28: not cumulative)
            bon[out] = (500 if self.skipped else 300) if self.first and not self.call else 200
            if f.get("r5k_michigan"):  # V5K-7
                bon[out] += sum(hvs) - hvs[out]
                hvs = [hvs[s] if s == out else 0 for s in range(n)]
        if money:  # V5K-12: natural QH + natural 7H pairs, at most 2
            for s in range(n):
                qh = credited[s].count(cid("QH")) if w != 12 else 0
                sh = credited[s].count(cid("7H")) if w != 7 else 0
                bon[s] += 100 * min(qh, sh, 2)
        for s, v in (tv or {}).items():
            tvs[s] = v
        for s, v in (hv or {}).items():
            hvs[s] = v
        for s, v in (bonus or {}).items():
            bon[s] = v
        self.scores = []
        for s in range(n):
            hs = bon[s] + tvs[s] - hvs[s]
            self.totals[s] += hs
            row = [41, s, hs, self.totals[s], tvs[s], hvs[s], bon[s], 0]
            self.scores.append(row)
            self.rows.append(row)
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % n
        return self

    def game_end(self, winner: int = -1, capped: int = 0, mask: int = 0):
        self.rows.append([50, winner, self.hand_no, capped, mask, 0, 0, 0])
        return self

    def array(self) -> np.ndarray:
        return np.array(self.rows, dtype=np.int32)
