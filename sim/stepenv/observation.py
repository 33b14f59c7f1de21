"""What a seat is shown at a decision of the step API: a dict and its fixed-size numpy encoding.

Both hold exactly the seat's ``View`` as the engine hands it to a built-in strategy (C-INFO-1):
the observation vector (``OB_*`` of ``kernels/rum500/layout.py``: sizes, scores, duties of the
turn, the public gambit state), the seat's own cards, the discard pile and the table melds. A
Dealer's gambit nomination shows the dealer's public observation alone (V500-GAMBIT-3): no hand,
pile or table. docs/env.md documents the encoding's layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.kernels.rum500.layout import (
    JOKER, MAX_MELDS, MAX_PACK, MK_SIZE, OB_MY_JOKERS, OB_N_MELDS, OB_PILE_LEN, OB_SIZE,
)
from rummysim.strategies.rum500.external import KIND_NAMES

N_CARD_IDS = JOKER + 1  # hand counts by card id: 16*suit + rank for naturals, 64 for the joker

# the fixed-size encoding (int64): [kind, obs[OB_SIZE], hand counts[N_CARD_IDS], pile[MAX_PACK], melds]
ENC_KIND = 0
ENC_OBS = 1
ENC_HAND = ENC_OBS + OB_SIZE
ENC_PILE = ENC_HAND + N_CARD_IDS  # card ids bottom first, -1 past the top
ENC_MELDS = ENC_PILE + MAX_PACK  # MAX_MELDS rows of MK_SIZE, zeros past the last meld
ENC_SIZE = ENC_MELDS + MAX_MELDS * MK_SIZE


@dataclass(frozen=True)
class SeatView:
    """One decision's view, copied out of the engine's buffers."""

    seat: int
    kind: int  # K_* of strategies/rum500/external.py
    obs: np.ndarray  # int64[OB_SIZE]
    hand: np.ndarray  # int64[N_CARD_IDS]: copies of each card held (jokers at JOKER)
    pile: np.ndarray  # card ids, bottom first
    melds: np.ndarray  # int16[n_melds, MK_SIZE]

    def as_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat, "kind": KIND_NAMES[self.kind], "obs": self.obs, "hand": self.hand,
            "pile": self.pile, "melds": self.melds,
        }

    def encode(self) -> np.ndarray:
        out = np.zeros(ENC_SIZE, dtype=np.int64)
        out[ENC_KIND] = self.kind
        out[ENC_OBS:ENC_HAND] = self.obs
        out[ENC_HAND:ENC_PILE] = self.hand
        out[ENC_PILE:ENC_MELDS] = -1
        out[ENC_PILE:ENC_PILE + len(self.pile)] = self.pile
        out[ENC_MELDS:ENC_MELDS + self.melds.size] = self.melds.ravel()
        return out


def hand_counts(mine: np.ndarray, jokers: int) -> np.ndarray:
    """Copies of each card id from the two count planes (bit set in plane 0: one or more, in plane
    1: two) and the joker count."""
    counts = np.zeros(N_CARD_IDS, dtype=np.int64)
    if len(mine) == 2:
        bits = np.arange(64, dtype=np.uint64)
        for plane in mine:
            counts[:64] += ((np.uint64(plane) >> bits) & np.uint64(1)).astype(np.int64)
    counts[JOKER] = jokers
    return counts


def seat_view(seat: int, kind: int, obs: np.ndarray, mine: np.ndarray, pile: np.ndarray,
              melds: np.ndarray) -> SeatView:
    """Copy the engine's buffers into a ``SeatView`` (a nomination passes empty arrays beside obs)."""
    shown = len(mine) == 2  # a nomination shows no hand, pile or table
    obs = np.array(obs, dtype=np.int64)
    return SeatView(
        seat, kind, obs,
        hand_counts(mine, int(obs[OB_MY_JOKERS]) if shown else 0),
        np.array(pile[:obs[OB_PILE_LEN]] if shown else [], dtype=np.int64),
        np.array(melds[:obs[OB_N_MELDS]] if shown else np.zeros((0, MK_SIZE)), dtype=np.int16),
    )
