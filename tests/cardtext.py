"""Readable cards for tests: "4H", "TD", "AS", "X" (joker) to kernel ids and back."""

from __future__ import annotations

import numpy as np

SUITS = "CDHS"
RANKS = "A23456789TJQK"
JOKER = 64


def cid(text: str) -> int:
    """Card id of "4H" (16*suit + rank) or of "X" (joker)."""
    if text == "X":
        return JOKER
    return 16 * SUITS.index(text[1]) + RANKS.index(text[0]) + 1


def ids(text: str) -> list[int]:
    return [cid(t) for t in text.split()]


def name(card: int) -> str:
    if card == JOKER:
        return "X"
    return RANKS[(card & 15) - 1] + SUITS[card >> 4]


def mask(text: str) -> np.uint64:
    m = 0
    for c in ids(text):
        if c != JOKER:
            m |= 1 << c
    return np.uint64(m)


def jokers(text: str) -> int:
    return sum(1 for t in text.split() if t == "X")
