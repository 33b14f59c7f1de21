"""5000 Rummy cards and table melds: the pack, hand sizes, card values (R5K-VAL-1/2), sequence
positions, and the "could this card be placed?" tests (V5K-3b, V5K-4b, V5K-5a/5c)."""

from __future__ import annotations

from collections import Counter

from rummysim.validate.cards import NATURAL_IDS
from rummysim.validate.trace import GROUP, SEQUENCE, WILD_GROUP

PACK_SIZE = 104  # R5K-SETUP-2: two 52-card decks, no jokers
QH, SEVEN_H = 16 * 2 + 12, 16 * 2 + 7  # V5K-12 money cards
KIND_NAMES = {GROUP: "group", SEQUENCE: "sequence", WILD_GROUP: "wild-card group"}
NATURAL = [False] * 64
for _c in NATURAL_IDS:
    NATURAL[_c] = True


def rank_at(pos: int) -> int:
    """Rank of sequence position ``pos`` (1..13 as is, 14 the ace above the K)."""
    return 1 if pos == 14 else pos


def positions_of(card: int) -> tuple[int, ...]:
    """Sequence positions a natural card may occupy (an ace: below the 2 or above the K)."""
    r = card & 15
    return (1, 14) if r == 1 else (r,)


def dealt_hand_size(face_up: int) -> int:
    """R5K-DEAL-1 (§8.2): 12 for an ace, 11 for K/Q/J/10, rank + 1 for 2..9."""
    r = face_up & 15
    return 12 if r == 1 else 11 if r >= 10 else r + 1


def card_values(wild: int) -> list[int]:
    """R5K-VAL-1/2: naturals K..8 = 10, 7..2 = 5, A = 200; wild cards 100, 200 with Q or 10
    wild, 400 with A wild (replacing the natural value)."""
    wild_value = 400 if wild == 1 else 200 if wild in (10, 12) else 100
    vals = [0] * 64
    for c in NATURAL_IDS:
        r = c & 15
        vals[c] = wild_value if r == wild else 200 if r == 1 else 10 if r >= 8 else 5
    return vals


def natural_values() -> list[int]:
    """R5K-VAL-1 for every card, wild or not (to name R5K-VAL-2 when a wild card is
    valued as a natural one)."""
    return card_values(0)


class Meld:
    """A meld on the table.  ``slots`` hold [credited seat, card, position] (position 0 outside
    sequences); a sequence occupies positions lo..hi, every one filled (R5K-SEQ-1/2)."""

    __slots__ = ("kind", "key", "lo", "hi", "creators", "alive", "slots")

    def __init__(self, kind: int, key: int, lo: int, hi: int, creator: int) -> None:
        self.kind = kind
        self.key = key  # group: rank; sequence: suit; wild-card group: 0
        self.lo = lo
        self.hi = hi
        self.creators = {creator}  # seats whose MELD records formed it (joins merge them)
        self.alive = True  # False once joined into another sequence (JOIN meld_b)
        self.slots: list[list[int]] = []


def seq_end_open(m: Meld, pos: int) -> bool:
    """Can one card go at ``pos`` as the next position outward of sequence ``m``?"""
    if len(m.slots) >= 13:
        return False
    return (pos == m.lo - 1 and pos >= 1) or (pos == m.hi + 1 and pos <= 14)


def addable(card: int, melds: list[Meld], wild: int) -> bool:
    """Can ``card`` alone be added to a table meld, or (a natural card) traded for a table wild
    card it matches?  Only the table counts: no hand or pile cards (V5K-3b, V5K-5a; AMB-36).  A
    single card filling the one-position gap between two sequences is also an addition at the end
    of either, so joins need no separate test."""
    is_wild = card & 15 == wild
    rank, suit = card & 15, card >> 4
    for m in melds:
        if not m.alive:
            continue
        if m.kind == WILD_GROUP:
            if is_wild:
                return True
        elif m.kind == GROUP:
            if is_wild or m.key == rank:
                return True
        elif is_wild:
            if len(m.slots) < 13 and (m.lo > 1 or m.hi < 14):
                return True
        elif m.key == suit:
            for p in positions_of(card):
                if seq_end_open(m, p):
                    return True
            for _s, c, p in m.slots:
                if c & 15 == wild and rank_at(p) == rank and 1 <= p <= 14:
                    return True  # R5K-TRADE-1: the wild card stands for exactly this card
    return False


def fill_with(need: int, naturals: Counter, wilds: int) -> tuple[bool, int]:
    """Use helper natural ``need`` (taken from ``naturals``) or else a helper wild card."""
    if naturals[need] > 0:
        naturals[need] -= 1
        return True, wilds
    if wilds > 0:
        return True, wilds - 1
    return False, wilds


def extends_with(card: int, m: Meld, naturals: Counter, wilds: int, wild: int) -> bool:
    """Can ``card`` be added to sequence ``m`` when the positions between it and the sequence are
    filled by helper cards (naturals of the exact card, or wild cards)?"""
    is_wild = card & 15 == wild
    if not is_wild and card >> 4 != m.key:
        return False
    for step in (-1, 1):
        nat = Counter(naturals)
        w = wilds
        pos = m.lo - 1 if step < 0 else m.hi + 1
        length = len(m.slots)
        while 1 <= pos <= 14 and length < 13:
            length += 1
            if is_wild or pos in positions_of(card):
                return True
            ok, w = fill_with(16 * m.key + rank_at(pos), nat, w)
            if not ok:
                break
            pos += step
    return False


def new_meld_with(card: int, naturals: Counter, wilds: int, wild: int) -> bool:
    """Is there a new group, wild-card group or 3-card sequence holding ``card`` and otherwise
    only helper cards?"""
    is_wild = card & 15 == wild
    by_rank = Counter()
    for c, k in naturals.items():
        by_rank[c & 15] += k
    if is_wild:
        if wilds >= 2 or any(k + wilds >= 2 for k in by_rank.values()):
            return True
    elif by_rank[card & 15] + wilds >= 2:
        return True
    suits = range(4) if is_wild else (card >> 4,)
    for suit in suits:
        for a in range(1, 13):  # windows a..a+2 inside 1..14
            window = range(a, a + 3)
            spots = list(window) if is_wild else [p for p in positions_of(card) if p in window]
            for spot in spots:
                nat = Counter(naturals)
                w = wilds
                ok = True
                for p in window:
                    if p != spot:
                        ok, w = fill_with(16 * suit + rank_at(p), nat, w)
                        if not ok:
                            break
                if ok:
                    return True
    return False


def placeable_with(card: int, helpers: list[int], melds: list[Meld], wild: int) -> bool:
    """V5K-4b: can ``card`` go on the table using only ``helpers`` (the pile cards above it) and
    the table melds: alone, extending a sequence with helpers filling the positions up to it, or
    in a new meld with helpers?"""
    if addable(card, melds, wild):
        return True
    naturals = Counter(c for c in helpers if c & 15 != wild)
    wilds = len(helpers) - sum(naturals.values())
    for m in melds:
        if m.alive and m.kind == SEQUENCE and extends_with(card, m, naturals, wilds, wild):
            return True
    return new_meld_with(card, naturals, wilds, wild)


