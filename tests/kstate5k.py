"""Build 5000 Rummy kernel contexts (``kernels.rum5000.engine.new_context5``) from readable cards.

A scenario names the wild rank, each seat's hand, the pile (bottom to top), the stock (next card
first) and the melds on the table; the helpers then call the kernel functions on that context.
Seats play through the real decision code: a ``random`` seat's generator is left all-zero, so it
always picks option 0 (draws from the stock or declines, stops playing, discards its lowest card
id, passes on rummy calls): a passive, predictable seat. ``greedy`` seats decide as in real games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.rum5000.engine import Game5, new_context5
from rummysim.kernels.rum5000.batch import switches5
from rummysim.kernels.rum5000.melds import Table5, apply_play5, enumerate_plays5, fill_values
from rummysim.simulation import prepare
from tests.cardtext import RANKS, cid, ids

TRACE_ROWS = 4096
KINDS = {"group": L5.K_GROUP, "seq": L5.K_SEQ, "wild": L5.K_WILD}


def rank_of(text: str) -> int:
    """Rank number of "J" or of a card "JC": A = 1 ... K = 13."""
    return RANKS.index(text[0]) + 1


def table_for(g: Game5, seat: int) -> Table5:
    """``engine.seat_table`` built in Python (a compiled kernel returning arrays to Python is not
    allowed under the jit policy): the seat's group row and, in Persian 5000, its partnership's."""
    teams = g.rules[L5.R5_PERSIAN] != 0
    row = seat % 2 if teams else seat
    return Table5(g.melds, g.n_melds, g.grp[row], g.ends, int(g.st[L5.S_WILD]), g.vals, row if teams else -1)


def value_table(wild: int) -> np.ndarray:
    """Card values (R5K-VAL-1/2) per card id when ``wild`` is the wild rank."""
    vals = np.zeros(L5.CARD_IDS, dtype=np.int64)
    fill_values(vals, wild)
    return vals


@dataclass
class K5:
    """One 5000 Rummy game context ``g`` with readable accessors; the arrays are the live state."""

    g: Game5

    @property
    def st(self) -> np.ndarray:
        return self.g.st

    @property
    def hands(self) -> np.ndarray:
        return self.g.hands

    @property
    def melds(self) -> np.ndarray:
        return self.g.melds

    @property
    def grp(self) -> np.ndarray:
        return self.g.grp

    @property
    def params(self) -> np.ndarray:
        return self.g.params

    @property
    def ends(self) -> np.ndarray:
        return self.g.ends

    @property
    def wild(self) -> int:
        return int(self.st[L5.S_WILD])

    @property
    def n_melds(self) -> int:
        return int(self.g.n_melds[0])

    def set_hand(self, seat: int, cards: str) -> None:
        self.hands[seat] = 0
        for c in ids(cards):
            self.hands[seat, c] += 1

    def hand_ids(self, seat: int) -> list[int]:
        return [c for c in range(L5.CARD_IDS) for _ in range(int(self.hands[seat, c]))]

    def set_pile(self, cards: str) -> None:
        cs = ids(cards)
        self.g.pile[: len(cs)] = cs
        self.st[L5.S_PILE_LEN] = len(cs)

    def pile_ids(self) -> list[int]:
        return [int(c) for c in self.g.pile[: self.st[L5.S_PILE_LEN]]]

    def set_stock(self, cards: str) -> None:
        """The stock is the end of the pack; ``cards`` are drawn first to last."""
        cs = ids(cards)
        pos = L5.DECK5 - len(cs)
        self.g.pack[pos:] = cs
        self.st[L5.S_STOCK_POS] = pos

    def add_meld(self, owner: int, kind: str, cards: str, credits: list[int] | None = None, lo: int = 0) -> int:
        """Put a meld on the table: kind "group", "seq" (cards in position order) or "wild".

        ``credits`` names the seat credited with each card (default: the owner); a sequence's first
        position comes from its first natural card below the ace unless ``lo`` is given.
        """
        words = cards.split()
        cs = ids(cards)
        who = credits or [owner] * len(cs)
        m = self.n_melds
        row = self.melds[m]
        row[:] = 0
        row[L5.M_KIND] = KINDS[kind]
        row[L5.M_LEN] = len(cs)
        row[L5.M_CREATOR] = owner
        row[L5.M_ALIVE] = 1
        natural = [(i, w) for i, w in enumerate(words) if rank_of(w) != self.wild]
        if kind == "group":
            rank = rank_of(natural[0][1])
            row[L5.M_KEY] = rank
            teams = self.g.rules[L5.R5_PERSIAN] != 0  # V5K-9: one row per partnership
            for seat in set(who):
                self.grp[seat % 2 if teams else seat, rank] = m  # R5K-GROUP-2: the meld used for this rank
        elif kind == "seq":
            i, w = next((i, w) for i, w in natural if rank_of(w) != 1)
            row[L5.M_KEY] = cid(w) // 16
            row[L5.M_LO] = lo or rank_of(w) - i
        for i, (c, s) in enumerate(zip(cs, who)):
            row[L5.M_CARD + i] = c
            row[L5.M_CRED + i] = s
        self.g.n_melds[0] = m + 1
        return m

    def meld_cards(self, m: int) -> list[int]:
        return [int(c) for c in self.melds[m, L5.M_CARD : L5.M_CARD + self.melds[m, L5.M_LEN]]]

    def meld_credits(self, m: int) -> list[int]:
        return [int(c) for c in self.melds[m, L5.M_CRED : L5.M_CRED + self.melds[m, L5.M_LEN]]]

    def table(self, seat: int) -> Table5:
        """The live table as ``seat`` plays on it."""
        return table_for(self.g, seat)

    def plays(self, seat: int, cards: str | None = None, must: int = -1, scope: int = L5.SC_FULL) -> np.ndarray:
        """Every canonical play for ``seat`` (its hand, or ``cards`` instead), without STOP."""
        av = self.hands[seat].copy()
        if cards is not None:
            av[:] = 0
            for c in ids(cards):
                av[c] += 1
        cand = np.zeros((L5.MAX_CAND5, L5.C_SIZE), dtype=np.int64)
        n = enumerate_plays5(av, must, self.table(seat), seat, scope, cand, False)
        return cand[:n].copy()

    def apply(self, seat: int, row: np.ndarray, must: int = -1) -> int:
        """Carry out a play from the seat's hand on the live table; returns the cards put down."""
        return int(apply_play5(row, self.hands[seat], self.table(seat), seat, must, self.g.trace, self.st))

    def trace(self) -> np.ndarray:
        return self.g.trace[: self.st[L5.S_TPOS]].copy()

    def records(self, kind: int) -> list[list[int]]:
        return [[int(x) for x in r] for r in self.trace() if r[0] == kind]


def make5(players: int, wild: str, hands: dict[int, str] | None = None, pile: str = "", stock: str = "",
          rule: tuple[str, ...] = (), lineup: str = "random", played: int = 1) -> K5:
    """A hand in progress: ``wild`` is the wild rank ("K"); every seat has played ``played`` turns."""
    cfg = prepare("5000-rummy", players, lineup, rule)
    trace = np.zeros((TRACE_ROWS, L.TRACE_COLS), dtype=np.int32)
    k = K5(new_context5(cfg.vector, cfg.lineup, cfg.params.copy(), trace, None, *switches5(cfg.vector, cfg.lineup)))
    st = k.st
    st[L5.S_N] = players
    st[L5.S_DEALER] = players - 1
    st[L5.S_FIRST] = 0
    st[L5.S_WILD] = rank_of(wild)
    st[L5.S_OUT] = -1
    k.g.vals[:] = value_table(rank_of(wild))
    for s in range(players):
        st[L5.S_PLAYED + s] = played
    k.set_stock(stock)
    k.set_pile(pile)
    for seat, cards in (hands or {}).items():
        k.set_hand(seat, cards)
    return k
