"""Build kernel game states from readable cards, for hand-built rule scenarios."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.common.planes import add_card
from rummysim.kernels.rum500.cards import natural_value_table
from rummysim.kernels.rum500.melds import Table, layoff_team
from rummysim.kernels.rum500.engine import Game
from rummysim.kernels.rum500.view import View, gambit_of
from rummysim.strategies.registry import STRATEGIES
from rummysim.games import encode_rules
from rummysim.kernels.rum500.batch import engine_rules
from rummysim.rules import Rules
from tests.cardtext import JOKER, ids


@dataclass
class KState:
    rules: np.ndarray
    st: np.ndarray
    hands: np.ndarray
    pack: np.ndarray
    pile: np.ndarray
    melds: np.ndarray
    vals: np.ndarray
    ace_low: int
    trace: np.ndarray = field(default_factory=lambda: np.zeros((0, L.TRACE_COLS), dtype=np.int32))
    stack: np.ndarray = field(default_factory=lambda: np.zeros((6, 256, L.A_SIZE), dtype=np.int64))
    budget: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    def set_rule(self, index: int, value: int) -> None:
        """Change one entry of the rules vector, which stays read-only where the full engine takes it."""
        vec = np.array(self.rules)
        vec[index] = value
        self.rules = engine_rules(vec)[0]

    def set_hand(self, seat: int, cards: str) -> None:
        self.hands[seat] = 0
        self.st[L.ST_JOKERS + seat] = 0
        for c in ids(cards):
            if c == JOKER:
                self.st[L.ST_JOKERS + seat] += 1
            else:
                add_card(self.hands[seat], c)

    def add_meld(self, owner: int, kind: str, cards: str, lo: int = 0) -> int:
        """Put a meld on the table: kind "set" or "run" (run cards in position order from lo)."""
        m = int(self.st[L.ST_N_MELDS])
        cs = ids(cards)
        self.melds[m] = 0
        self.melds[m, L.MK_LEN] = len(cs)
        if kind == "set":
            self.melds[m, L.MK_KIND] = L.KIND_SET
            self.melds[m, L.MK_KEY] = next((c & 15 for c in cs if c != JOKER), 0)  # 0: a Persian joker set
        else:
            self.melds[m, L.MK_KIND] = L.KIND_RUN
            self.melds[m, L.MK_KEY] = next(c >> 4 for c in cs if c != JOKER)
            self.melds[m, L.MK_LO] = lo or next((c & 15) - i for i, c in enumerate(cs) if c != JOKER)
        self.melds[m, L.MK_CREATOR] = owner
        for i, c in enumerate(cs):
            self.melds[m, L.MK_CARD + i] = c
            self.melds[m, L.MK_OWNER + i] = owner
            if c == JOKER:
                self.melds[m, L.MK_NJOK] += 1
            elif kind == "set":
                self.melds[m, L.MK_SUITS] |= 1 << (c >> 4)
        self.st[L.ST_N_MELDS] = m + 1
        return m

    def table(self, seat: int = -1) -> Table:
        """The table as the meld search reads it, with ``seat``'s lay-off rights (-1: any meld) and,
        under Dealer's gambit, its use of the dealer's joker (``view.gambit_of``)."""
        team = layoff_team(self.rules, seat) if seat >= 0 else -1
        return Table(self.melds, int(self.st[L.ST_N_MELDS]), self.vals, self.ace_low, self.rules, team,
                     int(gambit_of(self.st, self.rules, seat)))

    def view(self, obs: np.ndarray, mine: np.ndarray) -> View:
        """The ``View`` a strategy gets from an observation (``observe``): nothing but public arrays."""
        seat = int(obs[L.OB_SEAT])
        team = layoff_team(self.rules, seat)
        return View(obs, mine, self.pile, Table(self.melds, int(obs[L.OB_N_MELDS]), self.vals, self.ace_low, self.rules,
                                                team, int(gambit_of(self.st, self.rules, seat))))

    def set_gambit(self, effect: int, dealer: int = 0, dj: int = L.DJ_READY) -> None:
        """Dealer's gambit state: the nominated effect, the dealer and the dealer's joker."""
        self.st[L.ST_EFFECT] = effect
        self.st[L.ST_DEALER] = dealer
        self.st[L.ST_DJ] = dj

    def game(self, lineup: list[int], trace_rows: int = 4000) -> Game:
        """The engine's game context over these arrays (``engine.Game``), recording into a fresh trace
        (``self.trace``); every seat's strategy from ``lineup`` with its default parameters."""
        n = int(self.st[L.ST_N])
        self.trace = np.zeros((trace_rows, L.TRACE_COLS), dtype=np.int32)
        params = np.zeros((L.MAX_SEATS, L.N_PARAMS))
        for s, sid in enumerate(lineup):
            params[s] = next(i for i in STRATEGIES.values() if i.id == sid).default_params()
        ids_ = np.zeros(L.MAX_SEATS, dtype=np.int64)
        ids_[:n] = lineup
        rngs = np.zeros((L.MAX_SEATS, 4), dtype=np.uint64)
        rngs[:, 0] = np.arange(1, L.MAX_SEATS + 1)
        return Game(self.st, self.hands, self.pack, self.pile, self.melds, self.rules, self.vals, self.ace_low,
                    ids_, params, rngs, np.zeros(4, dtype=np.uint64), self.trace, np.zeros(L.OB_SIZE, dtype=np.int64),
                    np.zeros(2, dtype=np.uint64), np.zeros(L.MAX_PACK + 2, dtype=np.int64),
                    np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64), np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64),
                    self.budget, None)

    def records(self, kind: int) -> list[list[int]]:
        """The trace records of one kind written so far (after ``game``)."""
        used = int(self.st[L.TRACE_POS])
        return [[int(x) for x in row] for row in self.trace[:used] if row[0] == kind]

    def hand_ids(self, seat: int) -> list[int]:
        out = []
        for plane in (0, 1):
            x = int(self.hands[seat, plane])
            out += [b for b in range(64) if x >> b & 1]
        return sorted(out) + [JOKER] * int(self.st[L.ST_JOKERS + seat])


def make_state(players: int, hands: dict[int, str], pile: str = "", stock: str = "", seat: int = 0,
               rules: Rules | None = None) -> KState:
    vec, _ = engine_rules(encode_rules(rules or Rules(), players))  # read-only for the full engine's rules
    st = np.zeros(L.ST_SIZE, dtype=np.int64)
    st[L.ST_N] = players
    st[L.ST_SEAT] = seat
    st[L.ST_MUST_CARD] = -1
    st[L.ST_NO_DISCARD] = -1
    pack = np.zeros(L.MAX_PACK, dtype=np.int16)
    stock_ids = ids(stock)
    pack[: len(stock_ids)] = stock_ids
    st[L.ST_PACK_SIZE] = len(stock_ids)
    st[L.ST_STOCK_POS] = 0
    pile_arr = np.zeros(L.MAX_PACK, dtype=np.int16)
    pile_ids = ids(pile)
    pile_arr[: len(pile_ids)] = pile_ids
    st[L.ST_PILE_LEN] = len(pile_ids)
    k = KState(vec, st, np.zeros((L.MAX_SEATS, 2), dtype=np.uint64), pack, pile_arr,
               np.zeros((L.MAX_MELDS, L.MK_SIZE), dtype=np.int16), natural_value_table(vec),
               int(vec[L.R_ACE_LOW_VALUE]))
    for s, cards in hands.items():
        k.set_hand(s, cards)
    return k
