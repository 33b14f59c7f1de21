"""Card ids as the trace spec writes them (docs/trace-format.md "Cards"): names, glyphs, parsing,
run positions.  The validator's own reading, shared by every game's checker and the replay text.

A natural card of suit ``s`` (C, D, H, S = 0..3) and rank ``r`` (A = 1 .. K = 13) is ``16*s + r``;
the joker is 64.
"""

from __future__ import annotations

JOKER = 64
SUITS = "CDHS"
SUIT_GLYPHS = "♣♦♥♠"
RANKS = "A23456789TJQK"  # index rank-1

#: valid card ids: 16*s + r (s 0..3, r 1..13) and the joker 64
VALID_CARD: list[bool] = [False] * 65
for _s in range(4):
    for _r in range(1, 14):
        VALID_CARD[16 * _s + _r] = True
VALID_CARD[JOKER] = True
NATURAL_IDS: tuple[int, ...] = tuple(16 * s + r for s in range(4) for r in range(1, 14))


def card_name(card: int) -> str:
    """Plain RULES.md notation: ``4H``, ``TD``, ``X`` (joker); ``?<id>`` for an invalid id."""
    if card == JOKER:
        return "X"
    if 0 <= card < 64 and VALID_CARD[card]:
        return RANKS[(card & 15) - 1] + SUITS[card >> 4]
    return f"?{card}"


def card_glyph(card: int) -> str:
    """Card with a suit glyph: ``4♥``, ``T♦``, ``🃏`` (joker)."""
    if card == JOKER:
        return "🃏"
    if 0 <= card < 64 and VALID_CARD[card]:
        return RANKS[(card & 15) - 1] + SUIT_GLYPHS[card >> 4]
    return f"?{card}"


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name`: ``"4H"`` -> 34, ``"X"`` -> 64 (``"10H"`` is accepted too)."""
    t = text.strip().upper()
    if t in ("X", "JK", "JOKER", "🃏"):
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"bad card {text!r}")
    return 16 * SUITS.index(t[1]) + RANKS.index(t[0]) + 1


def run_rank(pos: int) -> int:
    """Rank of run position ``pos``: 1..13 as is, 14 the ace high, beyond that (V500-CORNER)
    wrapping: ``((pos-1) mod 13) + 1``."""
    return (pos - 1) % 13 + 1
