"""Human-readable replay of a 500 Rum, Standard Rummy or 5000 Rummy trace (docs/trace-format.md).

``format_trace(trace) -> str`` decodes a trace turn by turn: each hand's deal (every seat's hand,
the upcard, or the first player's START_PILE with V500-UPCHOICE), each turn (who, the draw, melds
and lay-offs with the meld id and cards, jokers with their designation such as ``🃏(7♥)``, the
discard, the pile after the turn), rummy calls, out-of-turn melds, floating, reshuffles, lay-offs
after someone went out (V500-ADDOPP), the scores at each hand end (with bonuses, or Standard Rummy's
deadwood and collection) and the game end.

5000 Rummy (game code 2) adds: the hand's wild rank, every wild card marked ``*`` (``7♥*``, in a
sequence with its designation ``7♥*(5♠)``), each seat's face-up card and the hand size it sets,
groups, sequences and wild-card groups, additions, joins, trades, Polish take-all, upcard
exchanges, the first-turn no-draw, the hand-end reasons of R5K-STOCK-1 and R5K-DRAW-5, and ties.

It is pure decoding: it does not check rules (see ``sim.validate``) and it never raises on a
malformed trace; records it cannot decode are shown raw.

Command line: ``python -m sim.replay_text trace.npy [--plain]`` (``--plain`` writes ``4H``/``X``
instead of glyphs).
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np

from rummysim.validate.rum500 import (
    ADDOPP_LAYOFF,
    CARD,
    DECK,
    DISCARD,
    DRAW_STOCK,
    EXCHANGE,
    FACE_UP,
    FLOAT,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOIN,
    JOKER,
    LAYOFF,
    MELD,
    NO_DRAW,
    OUT_OF_TURN,
    RESHUFFLE,
    RESTOCK,
    SCORE,
    START_PILE,
    TAKE_ALL,
    TAKE_PILE,
    TRADE,
    TURN_START,
    card_glyph,
    card_name,
)

__all__ = ["format_trace"]

_RANK_NAMES = "A23456789TJQK"
_SUIT_GLYPHS = "♣♦♥♠"
_SUIT_PLAIN = "CDHS"
_PILE_SHOWN = 10  # pile cards shown after each turn (top ones)

# GAME_START column 5
_STANDARD = 1
_R5K = 2

# MELD kinds: 500 Rum / Standard Rummy set and run; 5000 Rummy group, sequence, wild-card group
_SET, _RUN, _GROUP, _SEQUENCE, _WILD_GROUP = 0, 1, 2, 3, 4
_POSITIONAL = (_RUN, _SEQUENCE)

_END_REASONS = {
    1: "went out",
    2: "stock out (NO_DRAW, R500-STOCK-1)",
    3: "idle guard (R500-STOCK-2)",
    4: "turn cap (engine limit)",
    5: "stock ran out (end_immediately, V500-STOCKEND)",
}
# {n} is the number of players, {n3} three times it
_END_REASONS_5K = {
    1: "went out",
    2: "stock out (NO_DRAW, R5K-STOCK-1 b)",
    3: "{n} turns in a row put no card on the table after the stock ran out (R5K-STOCK-1 c)",
    4: "turn cap (engine limit)",
    6: "stall: {n3} top-card takes in a row that stayed in hand (R5K-DRAW-5)",
}
_NO_DRAW_5K = {
    0: "stock empty, does not take from the pile",
    2: "first turn: melds every card to go out, R5K-OUT-3",
    3: "the first player's opening turn only discards, V5K-10",
}


def _rank_at(pos: int) -> int:
    return (pos - 1) % 13 + 1


class _Fmt:
    """Card and meld text; ``wild`` is the 5000 Rummy wild rank of the current hand (0: none)."""

    def __init__(self, plain: bool) -> None:
        self.base: Callable[[int], str] = card_name if plain else card_glyph
        self.suits = _SUIT_PLAIN if plain else _SUIT_GLYPHS
        self.joker = "X" if plain else "🃏"
        self.wild = 0

    def is_wild(self, card: int) -> bool:
        return self.wild > 0 and 0 < card < JOKER and (card & 15) == self.wild

    def card(self, card: int) -> str:
        return self.base(card) + ("*" if self.is_wild(card) else "")

    def sort_key(self, card: int) -> tuple[int, int]:
        if card == JOKER:
            return (99, 99)
        if self.is_wild(card):
            return (98, card >> 4)  # wild cards last, like jokers
        return (card >> 4, card & 15)

    def cards(self, cards: list[int], sort: bool = False) -> str:
        seq = sorted(cards, key=self.sort_key) if sort else cards
        return " ".join(self.card(c) for c in seq) if seq else "—"

    def rank(self, r: int) -> str:
        return _RANK_NAMES[r - 1] if 1 <= r <= 13 else f"?{r}"

    def pos_card(self, suit: int, pos: int) -> str:
        s = self.suits[suit] if 0 <= suit <= 3 else "?"
        return self.rank(_rank_at(pos)) + s

    def placed(self, card: int, kind: int, key: int, pos: int) -> str:
        """A card as placed in a meld; jokers and wild cards in a run/sequence show what they
        stand for, jokers in a set its rank."""
        if card == JOKER:
            if kind in _POSITIONAL:
                return f"{self.joker}({self.pos_card(key, pos)})"
            return f"{self.joker}({self.rank(key)})"
        txt = self.card(card)
        if kind in _POSITIONAL and self.is_wild(card):
            return f"{txt}({self.pos_card(key, pos)})"
        if kind in _POSITIONAL and pos == 14 and (card & 15) == 1:
            txt += "(high)"
        return txt

    def meld_label(self, kind: int, key: int, lo: int, hi: int) -> str:
        if kind == _SET:
            return f"set of {self.rank(key)}s"
        if kind == _GROUP:
            return f"group of {self.rank(key)}s"
        if kind == _WILD_GROUP:
            return "wild-card group"
        s = self.suits[key] if 0 <= key <= 3 else "?"
        word = "sequence" if kind == _SEQUENCE else "run"
        return f"{word} {s} {self.rank(_rank_at(lo))}–{self.rank(_rank_at(hi))}"


class _Replay:
    """The decoding state of one trace; one method per record kind, run over the records."""

    def __init__(self, rows: list[list[int]], plain: bool) -> None:
        self.rows = rows
        self.f = _Fmt(plain)
        self.out: list[str] = []
        self.i = 0  # index of the record being decoded
        self.n = 0
        self.dealer = 0
        self.deal = 0
        self.game = 0  # GAME_START column 5
        self.pack: list[int] = []
        self.pack_size = 0
        self.face_ups: list[tuple[int, int, int]] = []  # 5000: (seat, card, hand size)
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        self.melds: dict[int, dict] = {}
        self.group: dict | None = None  # the MELD/LAYOFF/JOIN whose CARD records are being read
        self.call_turn = False
        self.oot_seat = -1
        self.totals_line: list[str] = []
        self.handlers: dict[int, Callable[[list[int]], None]] = {
            GAME_START: self.game_start, HAND_START: self.hand_start, DECK: self.deck,
            FACE_UP: self.face_up, START_PILE: self.start_pile, TURN_START: self.turn_start,
            RESHUFFLE: self.reshuffle, RESTOCK: self.restock, DRAW_STOCK: self.draw_stock,
            TAKE_PILE: self.take_pile, TAKE_ALL: self.take_all, EXCHANGE: self.exchange,
            NO_DRAW: self.no_draw, OUT_OF_TURN: self.out_of_turn, MELD: self.meld,
            LAYOFF: self.layoff, ADDOPP_LAYOFF: self.layoff, JOIN: self.join, TRADE: self.trade,
            CARD: self.card, DISCARD: self.discard, FLOAT: self.float_, HAND_END: self.hand_end,
            SCORE: self.score, GAME_END: self.game_end,
        }

    @property
    def r5k(self) -> bool:
        return self.game == _R5K

    def w(self, line: str) -> None:
        self.out.append(line)

    def run(self) -> str:
        for i, row in enumerate(self.rows):
            self.i = i
            kind = row[0]
            try:
                g = self.group
                if kind != CARD and g is not None and len(g["cards"]) >= g["n"]:
                    self.flush_group()
                if kind not in (MELD, CARD):
                    self.oot_seat = -1
                handler = self.handlers.get(kind)
                if handler is None:
                    self.w(f"  ?? record {i}: {row}")
                else:
                    handler(row)
            except Exception as exc:  # never raise on a bad trace
                self.w(f"  ?? record {i}: {row} ({exc.__class__.__name__})")
        try:
            if self.group is not None:
                self.flush_group()
        except Exception as exc:
            self.w(f"  ?? unfinished meld group ({exc.__class__.__name__})")
        return "\n".join(self.out) + "\n"

    # ---- helpers ----
    def take_from_hand(self, seat: int, c: int) -> None:
        if 0 <= seat < len(self.hands) and c in self.hands[seat]:
            self.hands[seat].remove(c)

    def add_to_hand(self, seat: int, cards: list[int]) -> None:
        if 0 <= seat < len(self.hands):
            self.hands[seat].extend(cards)

    def show_pile(self) -> None:
        shown = self.pile[-_PILE_SHOWN:]
        more = f"({len(self.pile) - len(shown)} more) … " if len(self.pile) > len(shown) else ""
        self.w(f"    pile    {more}{self.f.cards(shown)}")

    def next_row(self, wanted: Callable[[int], bool]) -> list[int] | None:
        """The first record after the current one whose kind is ``wanted``."""
        for j in range(self.i + 1, len(self.rows)):
            if wanted(self.rows[j][0]):
                return self.rows[j]
        return None

    def describe(self, mid: int) -> str:
        """``P1's group of 4s`` for meld ``mid``."""
        m = self.melds.get(mid)
        if m is None:
            return "?"
        return f"P{m['owner']}'s " + self.f.meld_label(m["kind"], m["key"], m["lo"], m["hi"])

    # ---- game and hand start, dealing ----
    def game_start(self, row: list[int]) -> None:
        self.n = max(0, min(row[1], 8))
        self.dealer = row[2]
        self.game = row[5]
        name = {_STANDARD: "Standard Rummy · ", _R5K: "5000 Rummy · "}.get(self.game, "")
        target = "" if self.game == _STANDARD else f" · target {row[4]}"
        self.w(f"Game {row[3]} · {name}{row[1]} players · first dealer P{row[2]}{target}")

    def hand_start(self, row: list[int]) -> None:
        self.dealer, self.pack_size, self.deal = row[2], row[3], row[4]
        self.pack = []
        self.melds = {}
        self.face_ups = []
        self.w("")
        self.f.wild = row[6] if self.r5k else 0  # R5K-WILD-1
        what = f"wild rank {self.f.rank(row[6])} (marked *)" if self.r5k else f"deal {self.deal}"
        self.w(f"━━ Hand {row[1] + 1} · dealer P{self.dealer} · pack {self.pack_size} · {what} · "
               f"P{row[5]} plays first ━━")

    def deck(self, row: list[int]) -> None:
        off = row[1]
        for j, c in enumerate(row[2:8]):
            p = off + j
            if c >= 0 and 0 <= p < min(self.pack_size, 256):
                if p >= len(self.pack):
                    self.pack.extend([-1] * (p + 1 - len(self.pack)))
                self.pack[p] = c
        complete = len([c for c in self.pack if c >= 0]) == self.pack_size
        if complete and self.pack_size and self.n and not self.r5k:  # 5000: after FACE_UP
            nxt = self.next_row(lambda kind: kind != DECK)
            self.deal_hands(nxt is not None and nxt[0] == START_PILE)

    def deal_hands(self, upchoice: bool) -> None:
        """500 Rum / Standard Rummy: equal blocks, then the upcard (or V500-UPCHOICE)."""
        n, f, pack = self.n, self.f, self.pack
        self.hands = [[] for _ in range(n)]
        pos = 0
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            size = self.deal + 1 if (upchoice and i == 0) else self.deal
            self.hands[seat] = [c for c in pack[pos:pos + size]]
            pos += size
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.w(f"  P{seat} dealt  {f.cards(self.hands[seat], sort=True)}")
        if upchoice:
            self.pile = []
            self.w(f"  no upcard (the first player starts the pile) · stock "
                   f"{max(0, len(pack) - pos)}")
            return
        self.deal_upcard(pos)

    def deal_upcard(self, pos: int) -> None:
        up = self.pack[pos] if pos < len(self.pack) else -1
        self.pile = [up] if up >= 0 else []
        self.w(f"  upcard {self.f.card(up) if up >= 0 else '?'} · stock "
               f"{max(0, len(self.pack) - pos - 1)}")

    def face_up(self, row: list[int]) -> None:
        self.face_ups.append((row[1], row[2], row[3]))
        if len(self.face_ups) == self.n:
            self.deal_blocks()

    def deal_blocks(self) -> None:
        """5000 Rummy (R5K-DEAL-1/2): consecutive blocks in dealing order, each sized by its
        first (face-up) card, then the upcard unless V5K-10's extra card replaces it."""
        f = self.f
        self.hands = [[] for _ in range(self.n)]
        pos = 0
        for seat, card, size in self.face_ups:
            block = self.pack[pos:pos + max(0, size)]
            pos += max(0, size)
            self.add_to_hand(seat, block)
            self.w(f"  P{seat} face-up {f.card(card)} → {size} cards: {f.cards(block, sort=True)}")
        first_turn = self.next_row(lambda kind: kind == TURN_START)
        if first_turn is not None and first_turn[4] == 0:  # the first turn sees an empty pile
            self.pile = []
            self.w(f"  no upcard (the first player's discard starts the pile, V5K-10) · stock "
                   f"{max(0, len(self.pack) - pos)}")
            return
        self.deal_upcard(pos)

    def start_pile(self, row: list[int]) -> None:
        seat, c = row[1], row[2]
        self.w(f"  P{seat} starts the pile with {self.f.card(c)}")
        self.take_from_hand(seat, c)
        self.pile.append(c)

    # ---- turns and draws ----
    def turn_start(self, row: list[int]) -> None:
        self.call_turn = row[5] == 1
        what = f"P{row[1]} calls Rummy!" if self.call_turn else f"P{row[1]}"
        self.w(f"  Turn {row[2]} · {what} · stock {row[3]} · pile {row[4]}")

    def reshuffle(self, row: list[int]) -> None:
        self.w(f"    reshuffle: {row[2]} cards (the pile but its top card) form a new stock")
        self.pile = self.pile[-1:]

    def restock(self, row: list[int]) -> None:
        """The new stock's order: the stock is not shown, so nothing to decode."""

    def draw_stock(self, row: list[int]) -> None:
        self.w(f"    draw    {self.f.card(row[2])} from the stock")
        self.add_to_hand(row[1], [row[2]])

    def take_pile(self, row: list[int]) -> None:
        f, pile = self.f, self.pile
        k = row[2]
        taken = pile[k:] if 0 <= k <= len(pile) else []
        top = k == len(pile) - 1
        what = "the top card" if top else f"from pile[{k}] ({f.card(row[4])})"
        if self.call_turn:
            if top:
                what = f"the top card ({f.card(row[4])})"
            self.w(f"    P{row[1]} calls Rummy! takes {what}, {row[3]} card(s): "
                   f"{f.cards(taken)}")
        else:
            self.w(f"    take    {what}, {row[3]} card(s): {f.cards(taken)}")
        if 0 <= k <= len(pile):
            del pile[k:]
        self.add_to_hand(row[1], taken)

    def take_all(self, row: list[int]) -> None:
        """V5K-8 Polish: the whole pile into the hand."""
        taken = self.pile
        self.w(f"    take    the whole pile (Polish, V5K-8), {row[2]} card(s): "
               f"{self.f.cards(taken)}")
        self.add_to_hand(row[1], taken)
        self.pile = []

    def exchange(self, row: list[int]) -> None:
        """V5K-11: a seat swaps a hand card for the upcard before the first player draws."""
        seat, given, taken = row[1], row[2], row[3]
        self.w(f"    P{seat} exchanges {self.f.card(given)} for the upcard {self.f.card(taken)} "
               f"(V5K-11)")
        self.take_from_hand(seat, given)
        self.add_to_hand(seat, [taken])
        self.pile[:1] = [given]

    def no_draw(self, row: list[int]) -> None:
        if self.r5k:
            why = _NO_DRAW_5K.get(row[2], f"reason {row[2]}")
            self.w(f"    no draw ({why})")
        elif row[2] == 1:
            self.w("    no draw (the stock is out: discard until someone is out)")
        else:
            self.w("    no draw (stock empty, does not take from the pile)")

    def out_of_turn(self, row: list[int]) -> None:
        self.oot_seat = row[1]

    # ---- plays ----
    def meld(self, row: list[int]) -> None:
        seat, mid, mk, key, lo, nc = row[1:7]
        hi = lo + nc - 1 if mk in _POSITIONAL else 0
        self.melds[mid] = {"kind": mk, "key": key, "lo": lo, "hi": hi, "count": nc,
                           "owner": seat}
        self.group = {"type": MELD, "meld_id": mid, "kind": mk, "key": key, "n": nc,
                      "cards": [], "seat": seat, "oot": self.oot_seat == seat}

    def layoff(self, row: list[int]) -> None:
        """LAYOFF (500 lay-off, 5000 addition) or ADDOPP_LAYOFF."""
        seat, mid, nc = row[1:4]
        m = self.melds.get(mid, {"kind": 0, "key": 0, "lo": 0, "hi": 0, "count": 0,
                                 "owner": -1})
        m["count"] += nc
        self.group = {"type": row[0], "meld_id": mid, "kind": m["kind"], "key": m["key"],
                      "n": nc, "cards": [], "seat": seat}

    def join(self, row: list[int]) -> None:
        """R5K-SEQ-5/6: sequence meld_b joins the high end of meld_a, with n gap cards."""
        seat, a, b, nc = row[1:5]
        m = self.melds.get(a, {"kind": _SEQUENCE, "key": 0})
        self.group = {"type": JOIN, "meld_id": a, "other": b, "kind": m["kind"],
                      "key": m["key"], "n": nc, "cards": [], "seat": seat}

    def trade(self, row: list[int]) -> None:
        """R5K-TRADE-1..3: a natural card replaces a table wild card, which goes to the hand."""
        f = self.f
        seat, mid, given, taken, pos = row[1:6]
        m = self.melds.get(mid, {"kind": _GROUP, "key": 0})
        wild = f.placed(taken, m["kind"], m["key"], pos)
        self.w(f"    trade   {f.card(given)} for {wild} on #{mid} ({self.describe(mid)}), "
               f"{f.card(taken)} to the hand")
        self.take_from_hand(seat, given)
        self.add_to_hand(seat, [taken])

    def card(self, row: list[int]) -> None:
        seat, mid, c, pos = row[1:5]
        g = self.group
        if g is None:
            self.w(f"    (stray CARD {self.f.card(c)} for meld #{mid})")
            return
        g["cards"].append((c, pos))
        self.take_from_hand(seat, c)
        if len(g["cards"]) >= g["n"]:
            self.flush_group()

    def discard(self, row: list[int]) -> None:
        seat, c = row[1], row[2]
        self.w(f"    discard {self.f.card(c)}")
        self.take_from_hand(seat, c)
        self.pile.append(c)
        self.show_pile()

    def float_(self, row: list[int]) -> None:
        self.w(f"    P{row[1]} floats (0 cards, the hand goes on)")

    # ---- a finished MELD / LAYOFF / JOIN group ----
    def flush_group(self) -> None:
        g = self.group
        if g is None:
            return
        self.group = None
        joined = f"#{g['meld_id']} ({self.describe(g['meld_id'])})"  # before the gap cards
        self.extend_range(g)
        f = self.f
        cards_txt = " ".join(
            f.placed(c, g["kind"], g["key"], p) for c, p in sorted(g["cards"], key=lambda x: x[1])
        )
        if g["type"] == JOIN:
            self.write_join(g, joined, cards_txt)
        elif g["type"] == MELD:
            self.write_meld(g, cards_txt)
        else:
            self.write_layoff(g, cards_txt)

    def extend_range(self, g: dict) -> None:
        """A run's / sequence's range grows to the positions of the cards put on it."""
        m = self.melds.get(g["meld_id"])
        ps = [p for _, p in g["cards"]]
        if m is None or m["kind"] not in _POSITIONAL or not ps:
            return
        if (m["kind"] == _RUN and g["type"] not in (MELD, JOIN) and min(ps) > m["hi"] + 1
                and max(ps) < m["lo"] + 13):
            m["lo"] += 13  # V500-CORNER: a lay-off below position 1, written re-based
            m["hi"] += 13
        m["lo"] = min([m["lo"]] + ps)
        m["hi"] = max([m["hi"]] + ps)

    def write_meld(self, g: dict, cards_txt: str) -> None:
        m = self.melds.get(g["meld_id"])
        label = self.f.meld_label(m["kind"], m["key"], m["lo"], m["hi"]) if m else "?"
        if g.get("oot"):
            self.w(f"  P{g['seat']} out of turn: meld #{g['meld_id']} {label}: {cards_txt}")
        else:
            self.w(f"    meld    #{g['meld_id']} {label}: {cards_txt}")

    def write_layoff(self, g: dict, cards_txt: str) -> None:
        mid = g["meld_id"]
        m = self.melds.get(mid)
        what = self.describe(mid) if m else "?"
        now = f", now {m['count']} cards" if m else ""
        if g["type"] == ADDOPP_LAYOFF:
            self.w(f"    P{g['seat']} lays off on #{mid} ({what}{now}), "
                   f"scoring for no one: {cards_txt}")
        elif self.r5k:
            self.w(f"    add to  #{mid} ({what}{now}): {cards_txt}")
        else:
            self.w(f"    lay off on #{mid} ({what}{now}): {cards_txt}")

    def write_join(self, g: dict, joined: str, cards_txt: str) -> None:
        """The JOIN's gap cards are already on meld_a's range; meld_b now merges into it.
        ``joined`` describes meld_a as it was before the gap cards."""
        a, b = g["meld_id"], g["other"]
        ma, mb = self.melds.get(a), self.melds.get(b)
        parts = f"{joined} and #{b} ({self.describe(b)})"
        if ma is not None:
            ma["count"] += len(g["cards"])
            if mb is not None:
                ma["hi"] = max(ma["hi"], mb["hi"])
                ma["count"] += mb["count"]
                del self.melds[b]  # meld_b ceases to exist (R5K-SEQ-5)
        gap = f"with {cards_txt}" if g["cards"] else "(adjacent)"
        now = (f": now #{a} {self.f.meld_label(ma['kind'], ma['key'], ma['lo'], ma['hi'])}, "
               f"{ma['count']} cards") if ma is not None else ""
        self.w(f"    join    {parts} {gap}{now}")

    # ---- hand and game end ----
    def hand_end(self, row: list[int]) -> None:
        reason, out_seat, turns = row[1:4]
        if self.r5k:
            why = _END_REASONS_5K.get(reason, f"reason {reason}").format(n=self.n, n3=3 * self.n)
        else:
            why = _END_REASONS.get(reason, f"reason {reason}")
        who = f"P{out_seat} " if out_seat >= 0 else ""
        self.w(f"  Hand end after {turns} turns: {who}{why}")
        for s, h in enumerate(self.hands):
            if h:
                self.w(f"    P{s} holds {self.f.cards(h, sort=True)}")
        self.totals_line = []

    def score(self, row: list[int]) -> None:
        seat, hs, tot, tv, hv, bonus = row[1:7]
        if self.game == _STANDARD:
            coll = f"  collects {bonus:>4}" if bonus else ""
            self.w(f"    P{seat}  deadwood {hv:>4}{coll}  score {hs:>+5}  total {tot:>5}")
        else:
            bon = f"  bonus {bonus:>+5}" if bonus else ""
            self.w(f"    P{seat}  table {tv:>4}  hand {hv:>4}{bon}  score {hs:>+5}  "
                   f"total {tot:>5}")
        self.totals_line.append(f"P{seat} {tot}")

    def game_end(self, row: list[int]) -> None:
        winner, n_hands, capped, tied = row[1:5]
        self.w("")
        if capped:
            self.w(f"Game over: hand cap reached after {n_hands} hands, no winner")
        elif winner >= 0:
            self.w(f"Game over after {n_hands} hands: P{winner} wins")
        elif self.r5k and tied > 0:
            seats = " and ".join(f"P{s}" for s in range(31) if tied >> s & 1)
            self.w(f"Game over after {n_hands} hands: tie between {seats} (R5K-GAME-2)")
        else:
            self.w(f"Game over after {n_hands} hands: no winner (highest total shared)")
        if self.totals_line:
            self.w("  final totals: " + ", ".join(self.totals_line))


def format_trace(trace: np.ndarray, plain: bool = False) -> str:
    """Return the game(s) in ``trace`` as readable text, turn by turn."""
    try:
        rows: list[list[int]] = np.asarray(trace).reshape(-1, 8).tolist()
    except Exception as exc:  # never raise
        return f"(cannot read trace: {exc})\n"
    return _Replay(rows, plain).run()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    plain = "--plain" in args
    paths = [a for a in args if a != "--plain"]
    if len(paths) != 1:
        print("usage: python -m sim.replay_text trace.npy [--plain]", file=sys.stderr)
        return 2
    sys.stdout.write(format_trace(np.load(paths[0]), plain=plain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
