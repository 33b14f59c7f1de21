"""Rummikub tiles and combinations as the trace spec writes them (docs/trace-format.md "Rummikub"),
and the validity of one combination (RULES.md RKUB-COMB-1/2, RKUB-JOKER-1, VKUB-TWOJOKERS).

A tile of colour ``c`` (k, r, o, b = 0..3) and number ``n`` (1..13) is ``16*c + n``; the joker is
64.  A combination read from a COMBO record and its TILE records is a :class:`Combo`; the checks
here look at one combination alone, those of a whole table are in ``table.py``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from rummysim.validate.trace import COMBO_GROUP, COMBO_RUN

JOKER = 64
COLOURS = "krob"  # RULES.md §0.3: black, red, orange, blue
PACK_SIZE = 106  # RKUB-SET-1
RACK_SIZE = 14  # RKUB-SETUP-2
NUMBER_IDS: tuple[int, ...] = tuple(16 * c + n for c in range(4) for n in range(1, 14))
VALID_TILE: frozenset[int] = frozenset(NUMBER_IDS) | {JOKER}
#: RKUB-SET-1: each numbered tile twice, two jokers
PACK: Counter[int] = Counter({**{t: 2 for t in NUMBER_IDS}, JOKER: 2})


def tile_name(tile: int) -> str:
    """RULES.md notation: ``k3``, ``r10``, ``J*``; ``?<id>`` for an id that is not a tile."""
    if tile == JOKER:
        return "J*"
    if tile in VALID_TILE:
        return f"{COLOURS[tile >> 4]}{tile & 15}"
    return f"?{tile}"


def number(tile: int) -> int:
    return tile & 15


def colour(tile: int) -> int:
    return tile >> 4


def first_tile_rank(tile: int) -> int:
    """AMB-41: a first tile ranks by its number, a joker above 13."""
    return 14 if tile == JOKER else number(tile)


def rack_value(rack: Counter[int] | list[int], joker_penalty: int) -> int:
    """RKUB-SCORE-1, VKUB-JOKER25: the numbers on a rack, a joker ``joker_penalty``."""
    tiles = rack.elements() if isinstance(rack, Counter) else rack
    return sum(joker_penalty if t == JOKER else number(t) for t in tiles)


class Placed(NamedTuple):
    """One TILE record: the tile, what it stands for, and whether it came from the rack."""

    tile: int
    designation: int
    from_rack: int


class Problem(NamedTuple):
    """A rule a table breaks: the RULES.md ID and the reason."""

    rule: str
    message: str


@dataclass
class Combo:
    """One combination as a COMBO record gives it (``origin`` is its ``from`` column)."""

    kind: int  # COMBO_GROUP or COMBO_RUN
    key: int  # group: its number; run: its colour
    lo: int  # run: the number of its first tile; group: 0
    n_tiles: int  # as the COMBO record declares; ``tiles`` fills up to it
    origin: int = -1
    tiles: list[Placed] = field(default_factory=list)

    @property
    def is_run(self) -> bool:
        return self.kind == COMBO_RUN

    @property
    def hi(self) -> int:
        """A run's last number."""
        return self.lo + len(self.tiles) - 1

    @property
    def jokers(self) -> int:
        return sum(1 for p in self.tiles if p.tile == JOKER)

    def value(self) -> int:
        """The numbers its tiles stand for (a joker at its designation: RKUB-JOKER-1)."""
        if self.is_run:
            return sum(self.lo + i for i in range(len(self.tiles)))
        return self.key * len(self.tiles)

    def signature(self) -> tuple:
        """What "the same combination" compares (AMB-39): kind, key, first number and its tiles
        with their designations, a run's in position order, a group's in any order."""
        tiles = [(p.tile, p.designation) for p in self.tiles]
        return (self.kind, self.key, self.lo, tuple(tiles if self.is_run else sorted(tiles)))

    def describe(self) -> str:
        """``run r9-r11 [r9 r10 J*(r11)]`` / ``group of 3s [r3 k3 J*(o3)]``."""
        shown = " ".join(tile_name(p.tile) + (f"({tile_name(p.designation)})"
                                               if p.tile == JOKER else "") for p in self.tiles)
        if self.is_run:
            c = COLOURS[self.key] if 0 <= self.key <= 3 else "?"
            return f"run {c}{self.lo}-{c}{self.hi} [{shown}]"
        if self.kind == COMBO_GROUP:
            return f"group of {self.key}s [{shown}]"
        return f"combination of kind {self.kind} [{shown}]"


def combo_problems(c: Combo, max_jokers: int) -> list[Problem]:
    """Everything that makes ``c`` an invalid combination (rule 1 of the trace spec's TABLE)."""
    out = _group_problems(c) if c.kind == COMBO_GROUP else _run_problems(c)
    if c.jokers > max_jokers:
        out.append(Problem("VKUB-TWOJOKERS", f"{c.describe()} holds {c.jokers} jokers; "
                                             f"rkub_max_jokers_per_combo is {max_jokers}"))
    return out


def _group_problems(c: Combo) -> list[Problem]:
    """RKUB-COMB-1: 3 or 4 tiles of one number in different colours; RKUB-JOKER-1: a joker
    stands for the number in a colour no natural tile of the group has, each joker its own."""
    out: list[Problem] = []
    what = c.describe()
    if not 3 <= len(c.tiles) <= 4:
        out.append(Problem("RKUB-COMB-1", f"{what} has {len(c.tiles)} tiles; a group has 3 or 4"))
    if not 1 <= c.key <= 13:
        out.append(Problem("RKUB-COMB-1", f"{what}: {c.key} is not a number 1..13"))
        return out
    naturals = [p.tile for p in c.tiles if p.tile != JOKER]
    if any(number(t) != c.key for t in naturals):
        out.append(Problem("RKUB-COMB-1", f"{what}: not every tile is a {c.key}"))
    held = [colour(t) for t in naturals]
    if len(set(held)) != len(held):
        out.append(Problem("RKUB-COMB-1", f"{what}: two tiles of one colour"))
    stood = [p.designation for p in c.tiles if p.tile == JOKER]
    for d in stood:
        if not (d in VALID_TILE and d != JOKER and number(d) == c.key
                and colour(d) not in held):
            out.append(Problem("RKUB-JOKER-1", f"{what}: a joker stands for {tile_name(d)}, "
                                               f"not a {c.key} in a colour the group lacks"))
    if len(set(stood)) != len(stood):
        out.append(Problem("RKUB-JOKER-1", f"{what}: two jokers stand for the same tile"))
    return out


def _run_problems(c: Combo) -> list[Problem]:
    """RKUB-COMB-2 (AMB-44): 3 or more tiles of one colour on consecutive numbers within 1..13;
    RKUB-JOKER-1: a joker stands for the tile of its position."""
    what = c.describe()
    n = len(c.tiles)
    if not 0 <= c.key <= 3:
        return [Problem("RKUB-COMB-2", f"{what}: {c.key} is not a colour 0..3")]
    out: list[Problem] = []
    if n < 3:
        out.append(Problem("RKUB-COMB-2", f"{what} has {n} tiles; a run has at least 3"))
    if c.lo < 1 or c.lo + n - 1 > 13:
        out.append(Problem("RKUB-COMB-2", f"{what} does not fit the numbers 1..13 "
                                          "(runs do not wrap, AMB-44)"))
    for i, p in enumerate(c.tiles):
        wanted = 16 * c.key + c.lo + i
        if p.tile == JOKER:
            if p.designation != wanted:
                out.append(Problem("RKUB-JOKER-1", f"{what}: the joker at number {c.lo + i} "
                                                   f"stands for {tile_name(p.designation)}"))
        elif p.tile != wanted:
            out.append(Problem("RKUB-COMB-2", f"{what}: {tile_name(p.tile)} at number "
                                              f"{c.lo + i} of a {COLOURS[c.key]} run"))
    return out
