"""5000 Rummy in the step API: a seat's view, its legal moves with names and stable ids, the encoding.

The 5000 engine asks an external seat (``strategies.rum5000.external``) for five kinds of decision:
the draw (stock, a pile index, the whole pile under V5K-8, going out without drawing, declining on
an empty stock), a play (new groups and sequences, additions, joins, trades for wild cards), the
discard, a rummy call and the first player's upcard exchange (V5K-11). The view is the seat's
observation vector (``O_*`` of ``kernels/rum5000/layout.py``), its own cards, the pile and the
table's meld rows (``M_*``): what the built-in strategies see (C-INFO-1). docs/env.md documents
the names, the ids and the encoding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.kernels.rum5000.layout import (
    C_CARD, C_HI, C_KEY, C_LO, C_MELD, C_MELD2, C_NNAT, C_NWILD, C_POS, C_TYPE, CARD_IDS, D_ALL, D_DECLINE, D_SKIP,
    D_STOCK, DECK5, M_SIZE, MAX_CAND5, MAX_MELDS5, O_N_MELDS, O_PILE_LEN, O_SEAT, O_SIZE, O_WILD, P_ADD_GROUP,
    P_ADD_SEQ, P_ADD_WILD, P_JOIN, P_NEW_GROUP, P_NEW_SEQ, P_NEW_WILD, P_STOP, P_TRADE,
)
from rummysim.stepenv.moves import Moves
from rummysim.strategies.rum5000.external import K_CALL, K_DISCARD, K_DRAW, K_EXCHANGE, K_PLAY, KIND_NAMES
from rummysim.validate.cards import RANKS, SUITS, card_name

KIND_SHIFT = 58  # the decision kind's bits in an id, as in the 500 engine's ids
MAX_ACTIONS = MAX_CAND5  # the longest option list: the play candidates

# the fixed-size encoding (int64): [kind, obs[O_SIZE], hand counts[CARD_IDS], pile[DECK5], melds]
ENC_KIND = 0
ENC_OBS = 1
ENC_HAND = ENC_OBS + O_SIZE
ENC_PILE = ENC_HAND + CARD_IDS  # card ids bottom first, -1 past the top
ENC_MELDS = ENC_PILE + DECK5  # MAX_MELDS5 rows of M_SIZE, zeros past the last meld
ENC_SIZE = ENC_MELDS + MAX_MELDS5 * M_SIZE

DRAW_NAMES = {D_STOCK: "draw from the stock", D_DECLINE: "decline (empty stock)",
              D_SKIP: "go out without drawing (R5K-OUT-3)", D_ALL: "take the whole pile (V5K-8)"}

# (candidate column, bits, offset) of a play's id, packed from the top down; offsets make -1 a 0
_PLAY_FIELDS = ((C_TYPE, 4, 0), (C_MELD, 6, 1), (C_MELD2, 6, 1), (C_KEY, 5, 0), (C_LO, 5, 1), (C_HI, 5, 1),
                (C_NNAT, 5, 0), (C_NWILD, 5, 0), (C_CARD, 7, 1), (C_POS, 5, 0))


@dataclass(frozen=True)
class SeatView5:
    """One decision's view, copied out of the engine's buffers."""

    seat: int
    kind: int  # K_* of strategies/rum5000/external.py
    obs: np.ndarray  # int64[O_SIZE]
    hand: np.ndarray  # int64[CARD_IDS]: copies of each card held (the cards a play may use)
    pile: np.ndarray  # card ids, bottom first
    melds: np.ndarray  # int64[n_melds, M_SIZE]

    @property
    def wild(self) -> int:
        """The hand's wild rank (1..13)."""
        return int(self.obs[O_WILD])

    def as_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": KIND_NAMES[self.kind], "obs": self.obs, "hand": self.hand,
                "pile": self.pile, "melds": self.melds}

    def encode(self) -> np.ndarray:
        out = np.zeros(ENC_SIZE, dtype=np.int64)
        out[ENC_KIND] = self.kind
        out[ENC_OBS:ENC_HAND] = self.obs
        out[ENC_HAND:ENC_PILE] = self.hand
        out[ENC_PILE:ENC_MELDS] = -1
        out[ENC_PILE:ENC_PILE + len(self.pile)] = self.pile
        out[ENC_MELDS:ENC_MELDS + self.melds.size] = self.melds.ravel()
        return out


def play_key(row: np.ndarray) -> int:
    """A candidate row's content as one integer (0 for STOP)."""
    if int(row[C_TYPE]) == P_STOP:
        return 0
    key = 0
    for column, bits, offset in _PLAY_FIELDS:
        value = int(row[column]) + offset
        if not 0 <= value < 1 << bits:
            raise ValueError(f"5000 play row column {column} = {value} does not fit the id's {bits} bits")
        key = (key << bits) | value
    return key


def action_id(kind: int, index: int, option) -> int:
    """The stable id of option ``index`` of a decision of kind ``kind``: the draw's option + 5
    (pile indexes from 5; 4 the stock, 3 decline, 2 go out, 1 the whole pile), the card id of a
    discard, 0 for a declined call or exchange and else the pile index or card id + 1, a play's
    packed content."""
    if kind == K_PLAY:
        body = play_key(option)
    elif kind == K_DRAW:
        body = int(option) + 5
    elif kind in (K_CALL, K_EXCHANGE):
        body = 0 if index == 0 else int(option) + 1
    else:
        body = int(option)
    return (kind << KIND_SHIFT) | body


def _rank(rank: int) -> str:
    return RANKS[rank - 1] if 1 <= rank <= 13 else f"?{rank}"


def _positions(suit: int, lo: int, hi: int) -> str:
    """Sequence positions lo..hi of a suit (position 14 is the high ace)."""
    def card(pos: int) -> str:
        return f"{_rank(pos if pos <= 13 else 1)}{SUITS[suit]}"

    return card(lo) if lo == hi else f"{card(lo)}..{card(hi)}"


def play_name(row: np.ndarray) -> str:
    kind, meld, key = int(row[C_TYPE]), int(row[C_MELD]), int(row[C_KEY])
    nnat, nwild, lo, hi = int(row[C_NNAT]), int(row[C_NWILD]), int(row[C_LO]), int(row[C_HI])
    wilds = f" ({nwild} wild)" if nwild else ""
    naturals = f"{nnat} natural {_rank(key)}{'s' if nnat > 1 else ''}"
    if kind == P_STOP:
        return "stop"
    if kind == P_NEW_GROUP:
        return f"meld a group: {naturals}{wilds}"
    if kind == P_NEW_SEQ:
        return f"meld a sequence {_positions(key, lo, hi)}{wilds}"
    if kind == P_NEW_WILD:
        return f"meld a group of {nwild} wild cards"
    if kind == P_ADD_GROUP:
        return f"add {naturals}{wilds} to group {meld}"
    if kind == P_ADD_WILD:
        return f"add {nwild} wild cards to group {meld}"
    if kind == P_ADD_SEQ:
        return f"add {_positions(key, lo, hi)}{wilds} to sequence {meld} (its positions {lo}..{hi})"
    if kind == P_JOIN:
        gap = f" filling {_positions(key, lo, hi)}{wilds}" if lo <= hi else ""
        return f"join sequences {meld} and {int(row[C_MELD2])}{gap}"
    if kind == P_TRADE:
        return f"trade {card_name(int(row[C_CARD]))} for the wild card in meld {meld} (slot {int(row[C_POS])})"
    return f"play type {kind}"


def action_name(view: SeatView5, kind: int, index: int, option) -> str:
    if kind == K_PLAY:
        return play_name(option)
    value = int(option)
    if kind == K_DRAW:
        if value in DRAW_NAMES:
            return DRAW_NAMES[value]
        return f"take the pile from {card_name(int(view.pile[value]))} (index {value}, {len(view.pile) - value} cards)"
    if kind == K_DISCARD:
        return f"discard {card_name(value)}"
    if kind == K_CALL:
        return "pass" if index == 0 else f"call rummy: take {card_name(int(view.pile[value]))} (index {value})"
    if kind == K_EXCHANGE:
        return "keep the hand" if index == 0 else f"exchange {card_name(value)} for the upcard"
    return f"option {value}"


@dataclass(frozen=True)
class Decision5(Moves):
    """One decision the 5000 engine asks of an external seat."""

    max_actions = MAX_ACTIONS
    kind_names = KIND_NAMES
    id_of = staticmethod(action_id)

    def names(self) -> list[str]:
        return [action_name(self.view, self.view.kind, i, option) for i, option in enumerate(self.options)]


def decision_of5(kind, obs, hand, pile, melds, options, n, hint, extra) -> Decision5:
    """The ``Decision5`` an external ask of the 5000 engine describes, copied out of its buffers."""
    obs = np.array(obs, dtype=np.int64)
    view = SeatView5(int(obs[O_SEAT]), int(kind), obs, np.array(hand, dtype=np.int64),
                     np.array(pile[:obs[O_PILE_LEN]], dtype=np.int64),
                     np.array(melds[:obs[O_N_MELDS]], dtype=np.int64))
    return Decision5(view, np.array(options[:n]), int(hint), int(extra))
