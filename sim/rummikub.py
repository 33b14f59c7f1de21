"""Rummikub's exact move solver as a Python function: ``best_play(table, rack, objective, initial)``.

Tiles are written as in RULES.md §0.3: a colour letter ``k`` (black), ``r`` (red), ``o`` (orange)
or ``b`` (blue) followed by the number 1..13 (``r10``), and the joker ``J*``. A joker on the
table may carry its designation in parentheses, ``J*(r11)``; without it the designation follows
from the combination (see :func:`parse_combo`). The solver itself is the numba kernel
``kernels.rummikub.solver`` (docs/api.md, "Rummikub").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rummysim.errors import InputError
from rummysim.rules import Rules

COLOURS = "krob"
JOKER_TEXT = "J*"
JOKER_ID = 64
_TILE_RE = re.compile(r"^(?:([krob])(1[0-3]|[1-9])|J\*(?:\(([krob])(1[0-3]|[1-9])\))?)$")
OBJECTIVES = {"count": 0, "value": 1}


@dataclass(frozen=True)
class Tile:
    """A parsed tile: ``id`` (``16 * colour + number``, or 64 for the joker) and, for a joker, the
    id it stands for when written with one (``designation``, else None)."""

    id: int
    designation: int | None = None

    @property
    def is_joker(self) -> bool:
        return self.id == JOKER_ID


def tile_text(tile_id: int, designation: int | None = None) -> str:
    """``r10``; ``J*``, or ``J*(r11)`` with a designation."""
    if tile_id == JOKER_ID:
        return JOKER_TEXT if designation is None else f"{JOKER_TEXT}({tile_text(designation)})"
    return f"{COLOURS[tile_id >> 4]}{tile_id & 15}"


def parse_tile(text: str) -> Tile:
    match = _TILE_RE.match(text.strip())
    if not match:
        raise InputError(f"not a Rummikub tile: {text!r} (write k1..k13, r1..r13, o1..o13, b1..b13 or J*)")
    colour, number, jc, jn = match.groups()
    if colour:
        return Tile(16 * COLOURS.index(colour) + int(number))
    return Tile(JOKER_ID, None if jc is None else 16 * COLOURS.index(jc) + int(jn))


def _tiles(items: str | Iterable[str]) -> list[Tile]:
    parts = items.split() if isinstance(items, str) else list(items)
    return [parse_tile(p) for p in parts]


@dataclass(frozen=True)
class Combo:
    """A table combination: ``kind`` "group" or "run", ``key`` (its number, or its colour 0..3),
    ``lo`` (a run's first number), and its tile ids with their designations in order."""

    kind: str
    key: int
    lo: int
    tiles: tuple[int, ...]
    designations: tuple[int, ...]

    def text(self) -> list[str]:
        return [tile_text(t, d if t == JOKER_ID else None) for t, d in zip(self.tiles, self.designations)]


def _as_run(tiles: list[Tile]) -> Combo | None:
    naturals = [(i, t.id) for i, t in enumerate(tiles) if not t.is_joker]
    anchors = [(i, t.designation) for i, t in enumerate(tiles) if t.is_joker and t.designation is not None]
    known = naturals + anchors
    if not known:
        return None
    colours = {x >> 4 for _, x in known}
    los = {(x & 15) - i for i, x in known}
    if len(colours) != 1 or len(los) != 1:
        return None
    colour, lo = colours.pop(), los.pop()
    if lo < 1 or lo + len(tiles) - 1 > 13 or not 3 <= len(tiles) <= 13:
        return None
    desig = tuple(16 * colour + lo + i for i in range(len(tiles)))
    return Combo("run", colour, lo, tuple(t.id for t in tiles), desig)


def _as_group(tiles: list[Tile]) -> Combo | None:
    naturals = [t.id for t in tiles if not t.is_joker]
    named = [t.designation for t in tiles if t.is_joker and t.designation is not None]
    numbers = {x & 15 for x in naturals + named}
    colours = [x >> 4 for x in naturals + named]
    if len(numbers) != 1 or len(set(colours)) != len(colours) or not 3 <= len(tiles) <= 4:
        return None
    number = numbers.pop()
    free = [c for c in range(4) if c not in colours]
    desig = []
    for t in tiles:
        if not t.is_joker:
            desig.append(t.id)
        elif t.designation is not None:
            desig.append(t.designation)
        else:
            desig.append(16 * free.pop(0) + number)
    return Combo("group", number, 0, tuple(t.id for t in tiles), tuple(desig))


def parse_combo(items: str | Iterable[str]) -> Combo:
    """A table combination from its tiles, a run's in number order (``"r9 r10 J*"``: the joker is
    ``r11``). A group's jokers take the missing colours. A combination that reads both ways
    (``"r5 J* J*"``) needs a designation (``"r5 J*(r6) J*(r7)"``)."""
    tiles = _tiles(items)
    run, group = _as_run(tiles), _as_group(tiles)
    shown = " ".join(tile_text(t.id, t.designation) for t in tiles)
    if run and group:
        raise InputError(f"combination {shown!r} is both a run and a group: designate its jokers, e.g. J*(r6)")
    if not (run or group):
        raise InputError(f"{shown!r} is not a valid Rummikub group or run (RKUB-COMB-1/2)")
    return run or group  # type: ignore[return-value]


@dataclass(frozen=True)
class Play:
    """``best_play``'s answer: the rack tiles placed, how many and their value (a joker at its rack
    penalty), the jokers freed from table combinations, the solver's objective, and the whole table
    after the play (each combination as tile texts, jokers with their designations), and whether
    the answer is proven best (``False`` only if a position outgrew the solver's workspace: the play
    is then valid and the best found)."""

    placed: list[str]
    count: int
    value: int
    freed_jokers: int
    objective: int
    table: list[list[str]]
    proven: bool = True


@lru_cache(maxsize=1)
def _workspace(widest: bool = False):
    """The solver's workspace: the games' beam (``state.BEAM`` states per step), or with ``widest``
    the most the hash table holds, for ``best_play``'s exact answers."""
    from rummysim.kernels.rummikub.state import BEAM, WIDEST_BEAM, new_solver

    return new_solver(WIDEST_BEAM if widest else BEAM)


def _table_array(combos: Sequence[Combo]) -> np.ndarray:
    from rummysim.kernels.rummikub import layout as L

    if len(combos) > L.MAX_COMBOS:
        raise InputError(f"a table holds at most {L.MAX_COMBOS} combinations, got {len(combos)}")
    table = np.zeros((L.MAX_COMBOS, L.CB_SIZE), dtype=np.int64)
    for r, combo in enumerate(combos):
        table[r, L.CB_KIND] = L.KIND_RUN if combo.kind == "run" else L.KIND_GROUP
        table[r, L.CB_KEY] = combo.key
        table[r, L.CB_LO] = combo.lo
        table[r, L.CB_LEN] = len(combo.tiles)
        table[r, L.CB_FROM] = -1
        for i, (t, d) in enumerate(zip(combo.tiles, combo.designations)):
            table[r, L.CB_TILE + i] = t
            table[r, L.CB_DESIG + i] = d
    return table


def _check_counts(combos: Sequence[Combo], rack: list[Tile]) -> None:
    counts = Counter(t for c in combos for t in c.tiles) + Counter(t.id for t in rack)
    for tile, k in counts.items():
        if k > 2:
            raise InputError(f"{tile_text(tile)} appears {k} times; the pack has two (RKUB-SET-1)")


def _combos_of(out: np.ndarray, rows: int) -> list[list[str]]:
    from rummysim.kernels.rummikub import layout as L

    return [[tile_text(int(out[r, L.CB_TILE + i]), int(out[r, L.CB_DESIG + i])) for i in range(out[r, L.CB_LEN])]
            for r in range(rows)]


@dataclass(frozen=True)
class Arrangement:
    """``solve_table``'s answer in the kernels' layout: the solver's objective (0 or less: no play),
    the table after the play as ``CB_*`` rows with their rack flags, its number of rows, and the
    jokers freed."""

    objective: int
    table: np.ndarray
    rows: int
    freed_jokers: int
    proven: bool = True


def solve_table(combos: Sequence[Combo], rack: Sequence[int], objective: str = "count", initial: bool = False,
                rules: Rules | None = None) -> Arrangement:
    """``best_play`` on parsed combinations and rack tile ids (64 = joker), answered as table rows."""
    from rummysim.kernels.rummikub import layout as L
    from rummysim.kernels.rummikub.state import M_FREED, M_OVERFLOW
    from rummysim.kernels.rummikub.table import best_arrangement, copy_table, mark_rack

    rules = rules or Rules(game="rummikub")
    if rules.game != "rummikub":
        raise InputError(f"best_play needs Rummikub rules, got game {rules.game}")
    if objective not in OBJECTIVES:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    grid = _table_array(combos)
    counts = np.zeros(L.TILE_IDS, dtype=np.int64)
    for t in rack:
        counts[t] += 1
    ws = _workspace(widest=True)
    best, rows = best_arrangement(
        ws, grid, len(combos), counts, OBJECTIVES[objective], rules.rkub_joker_penalty,
        rules.rkub_max_jokers_per_combo, rules.rkub_group_joker_release == "both_colours", bool(initial),
        L.INIT_SINGLE_COMBO if rules.rkub_initial_rule == "single_combo" else L.INIT_TOTAL, L.INITIAL_MIN)
    proven = ws.meta[M_OVERFLOW] == 0
    if best <= 0 or rows == 0:
        return Arrangement(max(int(best), 0), grid, len(combos), 0, proven)
    new = np.zeros_like(grid)
    if initial:
        copy_table(new, grid, len(combos))
        new[len(combos):len(combos) + rows] = ws.out[:rows]
        rows += len(combos)
    else:
        copy_table(new, ws.out, rows)
    mark_rack(new, rows, grid, len(combos), np.zeros(L.TILE_IDS, dtype=np.int64))
    if initial:
        new[:len(combos), L.CB_RACK:L.CB_RACK + L.MAX_IN_COMBO] = 0
        new[:len(combos), L.CB_FROM] = -1
    return Arrangement(int(best), new, int(rows), 0 if initial else int(ws.meta[M_FREED]), proven)


def best_play(
    table: Sequence[str | Iterable[str]],
    rack: str | Iterable[str],
    objective: str = "count",
    initial: bool = False,
    rules: Rules | None = None,
) -> Play:
    """The best play of ``rack`` on ``table``, found exactly (the whole table may be rearranged).

    ``table`` is a list of combinations, each a string or list of tiles (``["r9 r10 J*", "k3 r3
    o3"]``); ``rack`` a string or list of tiles. ``objective`` is ``"count"`` (most rack tiles) or
    ``"value"`` (most points off the rack: numbers, a joker its rack penalty). With ``initial`` the
    play is an initial meld (RKUB-INIT-30): new combinations from the rack alone worth at least 30
    (``rkub_initial_rule``), the table untouched. ``rules`` (a Rummikub ``Rules``) sets
    ``rkub_max_jokers_per_combo``, ``rkub_group_joker_release``, ``rkub_joker_penalty`` and
    ``rkub_initial_rule``. Combinations holding a joker are locked (RKUB-JOKER-2/3).

    Example:
        >>> best_play(["r9 r10 r11"], "r12 k3 k4", objective="count").table
        [['r9', 'r10', 'r11', 'r12']]
    """
    from rummysim.kernels.rummikub import layout as L

    combos = [parse_combo(c) for c in table]
    rack_tiles = _tiles(rack)
    if any(t.designation is not None for t in rack_tiles):
        raise InputError("rack jokers carry no designation")
    _check_counts(combos, rack_tiles)
    result = solve_table(combos, [t.id for t in rack_tiles], objective, initial, rules)
    if result.objective <= 0:
        return Play([], 0, 0, 0, result.objective, [c.text() for c in combos], result.proven)
    new, rows = result.table, result.rows
    penalty = (rules or Rules(game="rummikub")).rkub_joker_penalty
    placed = [int(new[r, L.CB_TILE + i]) for r in range(rows) for i in range(new[r, L.CB_LEN])
              if new[r, L.CB_RACK + i] == 1]
    value = sum(penalty if t == JOKER_ID else t & 15 for t in placed)
    return Play(sorted(tile_text(t) for t in placed), len(placed), value, result.freed_jokers, result.objective,
                _combos_of(new, rows), result.proven)

