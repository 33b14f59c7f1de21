"""Hand-made traces for the tests of the independent rules checker (rummysim.validate).

Every trace is written with the small ``B`` (builder) class from readable card strings ("4H",
"TD", "X"; run positions as "AH@14" or "X@7").  The builder is a dumb recorder: it keeps just
enough state (hands, stock, pile, credits) to write TURN_START and SCORE fields, and it never
checks legality, so illegal variants are written the same way as legal ones.  Its scoring is
written out from RULES.md §2.6, §3 and §7 independently of the checker; where a test states a
scenario's expected numbers (RULES.md §10), it passes them explicitly (``end(tv=..., bonus=...)``).

Record layouts are those of docs/trace-format.md, including the variation records (RESTOCK,
RESHUFFLE, START_PILE, OUT_OF_TURN, ADDOPP_LAYOFF, FLOAT) and the new columns (GAME_START game
code, TURN_START turn kind, NO_DRAW mode, SCORE bonus).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from rummysim.validate import ValidationResult, validate_trace

SUITS = "CDHS"
RANKS = "A23456789TJQK"
X = 64


def cid(s: str) -> int:
    s = s.upper()
    if s == "X":
        return X
    return 16 * SUITS.index(s[1]) + RANKS.index(s[0]) + 1


def cname(c: int) -> str:
    return "X" if c == X else RANKS[(c & 15) - 1] + SUITS[c >> 4]


def parse(spec: str) -> list[tuple[int, int | None]]:
    """ "5H 6H X@7 AH@14" -> [(card, pos or None)]."""
    out = []
    for tok in spec.split():
        if "@" in tok:
            c, p = tok.split("@")
            out.append((cid(c), int(p)))
        else:
            out.append((cid(tok), None))
    return out


def is_std(flags: dict) -> bool:
    return flags.get("game") == "standard-rummy"


def value(card: int, flags: dict, run_pos: int | None = None) -> int:
    """Card values written out from RULES.md §8.3 (independently of the checker)."""
    if is_std(flags):  # RSTD-SCORE-1: A = 1, 2-10 face, J/Q/K = 10
        return min(card & 15, 10)
    scheme = flags.get("r500_card_values", "face")
    ace = flags.get("r500_ace_value", 15)
    low = flags.get("r500_ace_low_value", "auto")
    div = flags.get("r500_score_divisor", 1)
    if card == X:
        return 15 // div
    r = card & 15
    if r == 1:
        if run_pos == 1:
            if low == "auto":
                return (1 if scheme == "face" else 5) // div
            return (ace if low == "same" else int(low)) // div
        return ace // div
    if scheme == "face":
        v = min(r, 10)
    elif scheme == "5_10_15":
        v = 5 if r <= 9 else 10
    else:
        v = 5
    return v // div


class B:
    """Trace builder for one game."""

    def __init__(self, n: int, dealer: int = 0, flags: dict | None = None, game_index: int = 7):
        self.flags = dict(flags or {})
        self.std = is_std(self.flags)
        self.n = n
        self.dealer = dealer
        self.totals = [0] * n
        self.hand_no = 0
        default_target = 100 if self.flags.get("r500_score_divisor", 1) == 5 else 500
        target = 0 if self.std else self.flags.get("r500_target", default_target)
        self.rows: list[list[int]] = [[1, n, dealer, game_index, target, int(self.std), 0, 0]]
        f = self.flags
        self.draw_count = f.get("r500_stock_draw_count", 2 if f.get("r500_boathouse") else 1)

    # ---- setup ----
    def pack(self) -> list[int]:
        if self.std:
            decks, jokers = 1, 0
        else:
            nd = self.flags.get("r500_num_decks", "auto")
            decks = (1 if self.n <= 4 else 2) if nd == "auto" else int(nd)
            jokers = decks * self.flags.get("r500_jokers_per_deck", 2)
        cards = [16 * s + r for s in range(4) for r in range(1, 14)] * decks + [X] * jokers
        return sorted(cards, key=lambda c: ((c & 15) if c != X else 99, c))

    def deal(self, hands: dict[int, str] | None = None, upcard: str | None = None,
             stock: str = "", order: list[int] | None = None, deal_size: int | None = None):
        """Deal a hand.  ``stock`` lists the first stock cards ("_" = any filler card).  With
        V500-UPCHOICE the first player gets deal_size + 1 cards and there is no upcard."""
        n = self.n
        d = deal_size or (13 if n == 2 else 7)
        upchoice = self.flags.get("r500_upcard_mode") == "first_player_choice"
        sizes = [d + 1 if (upchoice and i == 0) else d for i in range(n)]
        if order is None:
            pool = Counter(self.pack())
            hands = hands or {}
            spec_h = {s: [cid(t) for t in hands.get(s, "").split()] for s in range(n)}
            spec_s = [None if t == "_" else cid(t) for t in stock.split()]
            up = cid(upcard) if upcard else None
            fixed = [c for h in spec_h.values() for c in h] + [c for c in spec_s if c is not None]
            for c in fixed + ([up] if up else []):
                assert pool[c] > 0, f"card {cname(c)} used twice in the scenario"
                pool[c] -= 1
            filler = list(pool.elements())
            filler.sort(key=lambda c: (-(c & 15) if c != X else -99, c))  # high cards first
            order = []
            for i in range(n):
                seat = (self.dealer + 1 + i) % n
                h = spec_h[seat]
                assert len(h) <= sizes[i]
                order += h + [filler.pop() for _ in range(sizes[i] - len(h))]
            if not upchoice:
                order.append(up if up is not None else filler.pop())
            for c in spec_s:
                order.append(c if c is not None else filler.pop())
            order += filler
        ps = len(order)
        self.rows.append([2, self.hand_no, self.dealer, ps, d, (self.dealer + 1) % n, 0, 0])
        for off in range(0, ps, 6):
            chunk = order[off:off + 6]
            self.rows.append([3, off] + chunk + [-1] * (6 - len(chunk)))
        self.hands = [[] for _ in range(n)]
        pos = 0
        for i in range(n):
            self.hands[(self.dealer + 1 + i) % n] = list(order[pos:pos + sizes[i]])
            pos += sizes[i]
        if upchoice:
            self.pile = []
        else:
            self.pile = [order[pos]]
            pos += 1
        self.stock = list(order[pos:])
        self.credit = [0] * n
        self.melds: list[dict] = []
        self.turns = 0
        self.next = (self.dealer + 1) % n
        self.out = -1
        self.last = None
        return self

    def start_pile(self, seat: int, card: str):
        """V500-UPCHOICE: START_PILE."""
        c = cid(card)
        self.rows.append([66, seat, c, 0, 0, 0, 0, 0])
        self._remove(seat, c)
        self.pile.append(c)
        return self

    # ---- turns ----
    def turn(self, seat: int | None = None, kind: int = 0) -> int:
        """TURN_START (kind 1: a rummy-call turn)."""
        seat = self.next if seat is None else seat
        self.rows.append([5, seat, self.turns, len(self.stock), len(self.pile), kind, 0, 0])
        self.turns += 1
        self.next = (seat + 1) % self.n
        return seat

    def draw(self, seat: int | None = None, card: str | None = None, count: int | None = None,
             start: bool = True):
        """A stock draw: ``count`` DRAW_STOCK records (default r500_stock_draw_count)."""
        seat = self.turn(seat) if start else seat
        count = self.draw_count if count is None else count
        for j in range(min(count, len(self.stock))):
            c = self.stock.pop(0)
            if card is not None and j == 0:
                c = cid(card)
            self.rows.append([10, seat, c, 0, 0, 0, 0, 0])
            self.hands[seat].append(c)
            self.last = c
        return self

    def take(self, seat: int | None = None, k: int | None = None, kind: int = 0,
             start: bool = True):
        seat = self.turn(seat, kind) if start else seat
        if k is None:
            k = len(self.pile) - 1
        taken = self.pile[k:]
        self.rows.append([11, seat, k, len(taken), self.pile[k], 0, 0, 0])
        del self.pile[k:]
        self.hands[seat] += taken
        self.last = taken[0]
        return self

    def call(self, seat: int, k: int | None = None, resume: int | None = None):
        """V500-RUMMY: a rummy-call turn (TURN_START kind 1 + TAKE_PILE); play then resumes
        left of the caller, or at ``resume`` (layoff_only: left of the discarder)."""
        nxt = self.next
        self.take(seat, k, kind=1)
        if resume is not None:
            self.next = resume
        elif self.flags.get("r500_call_rummy") == "layoff_only":
            self.next = nxt
        return self

    def nodraw(self, seat: int | None = None, over: bool = False, start: bool = True):
        """NO_DRAW; ``over``: column 2 = 1 (discard_until_out, the turn goes on)."""
        seat = self.turn(seat) if start else seat
        self.rows.append([12, seat, int(over), 0, 0, 0, 0, 0])
        return self

    def reshuffle(self, seat: int | None = None, order: list[str] | None = None):
        """TURN_START + RESHUFFLE + RESTOCK (V500-STOCKEND reshuffle); then draw(start=False)."""
        seat = self.turn(seat)
        below = self.pile[:-1]
        new = [cid(c) for c in order] if order is not None else list(reversed(below))
        assert sorted(new) == sorted(below)
        self.rows.append([65, seat, len(below), 0, 0, 0, 0, 0])
        for off in range(0, len(new), 6):
            chunk = new[off:off + 6]
            self.rows.append([64, off] + chunk + [-1] * (6 - len(chunk)))
        self.pile = self.pile[-1:]
        self.stock = new
        return self

    def float_(self, seat: int):
        self.rows.append([31, seat, 0, 0, 0, 0, 0, 0])
        return self

    def oot(self, seat: int):
        """OUT_OF_TURN: the MELD groups that follow are this seat's."""
        self.rows.append([67, seat, 0, 0, 0, 0, 0, 0])
        return self

    def _remove(self, seat: int, c: int) -> None:
        if c in self.hands[seat]:
            self.hands[seat].remove(c)

    def value_of(self, card: int, run_pos: int | None = None) -> int:
        """The value of ``card`` (a builder for another variation overrides it)."""
        return value(card, self.flags, run_pos)

    def _cards(self, seat, mid, cards, kind, credit=True):
        for c, p in cards:
            self.rows.append([21, seat, mid, c, p, 0, 0, 0])
            self._remove(seat, c)
            if credit:
                self.credit[seat] += self.value_of(c, p if kind == 1 else None)

    @staticmethod
    def _run_positions(cards):
        out = []
        for c, p in cards:
            if p is None:
                p = (c & 15) if c != X else None
            out.append((c, p))
        return out

    def meld(self, seat: int, kind: str, spec: str, key: int | None = None, lo: int | None = None):
        cards = parse(spec)
        mid = len(self.melds)
        if kind == "set":
            k = 0
            nat = [c for c, _ in cards if c != X]
            key = key if key is not None else (nat[0] & 15)
            cards = [(c, 0) for c, _ in cards]
            lo_ = 0
            self.melds.append({"kind": 0, "key": key, "count": len(cards), "owner": seat,
                               "suits": {c >> 4 for c in nat}})
        else:
            k = 1
            cards = self._run_positions(cards)
            nat = [c for c, _ in cards if c != X]
            key = key if key is not None else (nat[0] >> 4)
            lo_ = lo if lo is not None else min(p for _, p in cards)
            self.melds.append({"kind": 1, "key": key, "lo": lo_, "hi": lo_ + len(cards) - 1,
                               "count": len(cards), "owner": seat})
        self.rows.append([20, seat, mid, k, key, lo_, len(cards), 0])
        self._cards(seat, mid, cards, k)
        return self

    def _layoff_rows(self, rec: list[int], seat: int, mid: int, spec: str, credit: bool,
                     run_lo: int | None = None):
        """A lay-off group; ``run_lo`` (LAYOFF column 4) defaults to the run's first position
        after the lay-off without re-basing; give it for a V500-CORNER lay-off below position 1."""
        cards = parse(spec)
        m = self.melds[mid]
        lo_col = 0
        if m["kind"] == 0:
            cards = [(c, 0) for c, _ in cards]
            m["suits"] |= {c >> 4 for c, _ in cards if c != X}
        else:
            cards = self._run_positions(cards)
            ps = [p for _, p in cards]
            if run_lo is not None and run_lo > m["lo"]:  # re-based one lap up
                m["lo"], m["hi"] = m["lo"] + 13, m["hi"] + 13
            m["lo"], m["hi"] = min([m["lo"]] + ps), max([m["hi"]] + ps)
            lo_col = m["lo"] if run_lo is None else run_lo
        m["count"] += len(cards)
        self.rows.append(rec[:3] + [len(cards), lo_col, 0, 0, 0])
        self._cards(seat, mid, cards, m["kind"], credit)
        return self

    def layoff(self, seat: int, mid: int, spec: str, run_lo: int | None = None):
        return self._layoff_rows([22, seat, mid], seat, mid, spec, credit=True, run_lo=run_lo)

    def addopp(self, seat: int, mid: int, spec: str, run_lo: int | None = None):
        """V500-ADDOPP-2: ADDOPP_LAYOFF group (scores for no one)."""
        return self._layoff_rows([68, seat, mid], seat, mid, spec, credit=False, run_lo=run_lo)

    def discard(self, seat: int, card: str | int):
        c = cid(card) if isinstance(card, str) else card
        self.rows.append([30, seat, c, 0, 0, 0, 0, 0])
        self._remove(seat, c)
        self.pile.append(c)
        return self

    def draw_discard(self, seat: int | None = None):
        seat = self.next if seat is None else seat
        self.draw(seat)
        return self.discard(seat, self.last)

    def hand(self, seat: int) -> list[str]:
        return [cname(c) for c in self.hands[seat]]

    # ---- end ----
    def end(self, reason: int, out: int = -1, tv: dict | None = None, hv: dict | None = None,
            bonus: dict | None = None):
        """HAND_END and SCORE records.  ``tv``/``hv`` replace computed values, ``bonus`` adds."""
        self.rows.append([40, reason, out, self.turns, 0, 0, 0, 0])
        f = self.flags
        n = self.n
        raw = [sum(self.value_of(c) for c in self.hands[s]) for s in range(n)]
        bon = [0] * n
        if self.std:  # RSTD-SCORE-1
            tvs = [0] * n
            hvs = list(raw)
            if out >= 0:
                bon[out] = sum(raw) - raw[out]
        else:
            tvs = list(self.credit)
            if f.get("r500_add_opponent_hand"):  # V500-ADDOPP-1/3
                hvs = [0] * n
                if out >= 0:
                    bon[out] = sum(raw) - raw[out]
                elif n == 2:
                    bon = [raw[1], raw[0]]
            else:
                penalty = out >= 0 or f.get("r500_stock_out_hand_penalty", True)
                hvs = list(raw) if penalty else [0] * n
        for s, v in (tv or {}).items():
            tvs[s] = v
        for s, v in (hv or {}).items():
            hvs[s] = v
        for s, v in (bonus or {}).items():
            bon[s] += v
        self.scores = []
        for s in range(n):
            hs = bon[s] if self.std else tvs[s] - hvs[s] + bon[s]
            self.totals[s] += hs
            row = [41, s, hs, self.totals[s], tvs[s], hvs[s], bon[s], 0]
            self.scores.append(row)
            self.rows.append(row)
        self.hand_no += 1
        if f.get("r500_next_dealer") == "winner" and out >= 0:
            self.dealer = out
        else:
            self.dealer = (self.dealer + 1) % n
        return self

    def game_end(self, winner: int = -1, capped: int = 0, mask: int = 0):
        """GAME_END; ``mask``: the seats sharing a drawn game's highest total."""
        self.rows.append([50, winner, self.hand_no, capped, mask, 0, 0, 0])
        return self

    def array(self) -> np.ndarray:
        return np.array(self.rows, dtype=np.int32)


# --------------------------------------------------------------------------------------------
# Assertion helpers
# --------------------------------------------------------------------------------------------


def run(trace, flags=None) -> ValidationResult:
    if isinstance(trace, B):
        trace = trace.array()
    return validate_trace(trace, flags)


def assert_ok(trace, flags=None) -> ValidationResult:
    res = run(trace, flags)
    assert res.violations == [], "\n".join(map(str, res.violations))
    assert res.games == 1
    return res


def assert_rule(trace, rule: str, flags=None, first: bool = True) -> ValidationResult:
    res = run(trace, flags)
    ids = [v.rule_id for v in res.violations]
    assert ids, f"expected {rule}, got no violation"
    if first:
        assert ids[0] == rule, f"expected {rule} first, got {res.violations}"
    else:
        assert rule in ids, f"expected {rule}, got {res.violations}"
    return res


def find(rows, kind: int, nth: int = 0, **cols) -> int:
    """Index of the nth row of `kind` whose columns match (c1=..., c2=...)."""
    hits = [i for i, r in enumerate(rows) if r[0] == kind
            and all(r[int(k[1:])] == v for k, v in cols.items())]
    return hits[nth]


def mutate(b: B, i: int, col: int, val: int) -> np.ndarray:
    a = b.array()
    a[i, col] = val
    return a


CAP1 = {"max_hands_per_game": 1}


def finish_capped(b: B) -> B:
    """End a hand on the turn cap (reason 4) and the game on the hand cap."""
    return b.end(4).game_end(-1, capped=1)
