"""Stable action ids of the 500 Rum engine's step API: one integer per move, the same in every position.

A step picks an *index* into the decision's option list (the masked ``Discrete`` space), and the
move at an index changes from one position to the next. The id names the move itself, packed from
what the move does, so that "discard 9S", "take the pile from index 3" or "meld run 4S 5S 6S" has
one id in every position and every game: a key for logging moves, matching them across positions
and tabular learning (docs/env.md, "Actions"). Ids are not dense: they are 64-bit keys, not
indexes of a small action space.

Layout (bits of a non-negative int64): the decision kind (``K_*``) in bits 58-60, then

- draw: the pile index + 2 (1 = the stock, 0 = decline on an empty stock);
- discard: the card id (the joker 64);
- call, split: 0 to decline, else the pile index or split point + 1;
- nominate: the gambit effect;
- play: the candidate row's content (``_PLAY_FIELDS``): type, gambit use, jokers, side, target
  meld, first position, length and cards put down, and the natural cards as one suit's 16 bits or
  one rank's four suits.
"""

from __future__ import annotations

import numpy as np

from rummysim.kernels.rum500.layout import (
    A_GAMBIT, A_LEN, A_LO, A_MASK, A_MELD, A_NCARDS, A_NJOK, A_SIDE, A_TYPE, ACT_STOP,
)
from rummysim.strategies.rum500.external import K_CALL, K_DRAW, K_PLAY, K_SPLIT

KIND_SHIFT = 58
SUIT_BITS = 16  # card id = 16 * suit + rank

# (row column, bits, offset): packed from the top down, then the natural cards (_cards_key, 22
# bits); the offset makes a new meld's target (-1) a field value of 0
_PLAY_FIELDS = ((A_TYPE, 3, 0), (A_GAMBIT, 2, 0), (A_NJOK, 3, 0), (A_SIDE, 2, 0), (A_MELD, 6, 1), (A_LO, 5, 0),
                (A_LEN, 5, 0), (A_NCARDS, 5, 0))
_CARDS_BITS = 22


def _cards_key(mask: int) -> int:
    """The natural cards of a play in 22 bits: a flag (0 = one suit, 1 = one rank), 5 bits of suit
    or rank, and that suit's 16 card bits or the rank's 4 suit bits. Every meld and lay-off puts
    down cards of one suit (a run) or of one rank (a set)."""
    suits = [s for s in range(4) if (mask >> (SUIT_BITS * s)) & 0xFFFF]
    if len(suits) <= 1:
        suit = suits[0] if suits else 0
        return (suit << 16) | ((mask >> (SUIT_BITS * suit)) & 0xFFFF)
    ranks = {r for s in suits for r in range(SUIT_BITS) if (mask >> (SUIT_BITS * s + r)) & 1}
    if len(ranks) != 1:
        raise ValueError(f"a play whose cards {mask:#x} are neither one suit nor one rank")
    rank = ranks.pop()
    return (1 << 21) | (rank << 16) | sum(1 << s for s in suits)


def play_key(row: np.ndarray) -> int:
    """A candidate row's content as one integer (0 for STOP, whose other columns mean nothing)."""
    if int(row[A_TYPE]) == ACT_STOP:
        return 0
    key = 0
    for column, bits, offset in _PLAY_FIELDS:
        value = int(row[column]) + offset
        if not 0 <= value < 1 << bits:
            raise ValueError(f"play row column {column} = {value} does not fit the id's {bits} bits")
        key = (key << bits) | value
    return (key << _CARDS_BITS) | _cards_key(int(row[A_MASK]) & (2 ** 64 - 1))


def action_id(kind: int, index: int, option) -> int:
    """The stable id of option ``index`` (value or candidate row ``option``) of a decision of kind ``kind``."""
    if kind == K_PLAY:
        body = play_key(option)
    elif kind == K_DRAW:
        body = int(option) + 2
    elif kind in (K_CALL, K_SPLIT):
        body = 0 if index == 0 else int(option) + 1
    else:
        body = int(option)
    return (kind << KIND_SHIFT) | body
