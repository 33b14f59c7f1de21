"""Checking helpers and scenario traces of the Rummikub checker's tests
(tests/test_validate_rkub*.py), built with ``tests/tracebuild_rkub.BK``.  RULES.md §10 T-32..T-36
are written out here with the tiles marked "chosen here" where the scenario leaves them open.
"""

from __future__ import annotations

import numpy as np

from rummysim.validate import ValidationResult, validate_trace
from tests.tracebuild_rkub import BK, GAME


def F(turns: int | None = None, **kw) -> dict:
    """Rummikub flags, optionally a turn cap, plus ``kw``."""
    f = {**GAME, **kw}
    if turns is not None:
        f["max_turns_per_hand"] = turns
    return f


def arr(trace) -> np.ndarray:
    return trace.array() if isinstance(trace, BK) else trace


def check(trace, flags: dict) -> ValidationResult:
    return validate_trace(arr(trace), flags)


def ok(trace, flags: dict) -> ValidationResult:
    res = check(trace, flags)
    assert res.violations == [], "\n".join(map(str, res.violations))
    assert res.games == 1
    return res


def bad(trace, rule: str, flags: dict, first: bool = True) -> ValidationResult:
    res = check(trace, flags)
    ids = [v.rule_id for v in res.violations]
    assert ids, f"expected {rule}, got no violation"
    if first:
        assert ids[0] == rule, f"expected {rule} first, got {res.violations}"
    else:
        assert rule in ids, f"expected {rule}, got {res.violations}"
    return res


def rows_of(trace, kind: int, **cols) -> list[int]:
    """Indexes of the rows of ``kind`` whose columns match (c1=..., c2=...)."""
    a = arr(trace)
    return [i for i in range(len(a)) if a[i, 0] == kind
            and all(a[i, int(k[1:])] == v for k, v in cols.items())]


def mutate(trace, i: int, col: int, val: int) -> np.ndarray:
    a = arr(trace).copy()
    a[i, col] = val
    return a


def insert(trace, i: int, *rows: list[int]) -> np.ndarray:
    return np.insert(arr(trace), i, np.array(rows, np.int32), axis=0)


def delete(trace, *idx: int) -> np.ndarray:
    return np.delete(arr(trace), list(idx), axis=0)


def capped(b: BK) -> BK:
    """End the round on the turn cap (reason 4, scored like the pool-end rule) and the game."""
    return b.close(4)


# ---- two opened seats ----

def opened(flags: dict | None = None, p0: str = "", p1: str = "", pool: str = "") -> BK:
    """2 players, P0 first (b13 beats k12).  Turn 0: P0 melds b11 b12 b13 (36); turn 1: P1 melds
    k11 k12 k13 (36).  ``p0`` / ``p1`` are more rack tiles, ``pool`` the first pool tiles."""
    b = BK(2, flags)
    b.deal({0: "b13 b11 b12 " + p0, 1: "k12 k11 k13 " + p1}, pool)
    return b.meld(0, "b11 b12 b13").meld(1, "k11 k12 k13")


# ---- RULES.md §10 ----

def t32_first(spec: tuple[str, ...], rack: str, flags: dict | None = None) -> BK:
    """T-32: P0 (first, b13) lays ``spec`` as its initial meld from ``rack``; P1 draws."""
    b = BK(2, flags)
    b.deal({0: "b13 " + rack, 1: "k12"})
    return b.meld(0, *spec).draw()


def t32_then_table(flags: dict | None = None, add_b3: bool = True) -> BK:
    """T-32 last part: P0 has laid k3 r3 o3 + b7 b8 b9 (33); P1 lays r10 r11 r12 as its initial
    meld and, in the same turn, adds b3 to the group (or only lays the run)."""
    b = BK(2, flags)
    b.deal({0: "b13 k3 r3 o3 b7 b8 b9", 1: "k12 r10 r11 r12 b3"})
    b.meld(0, "k3 r3 o3", "b7 b8 b9")
    seat = b.turn(1)
    b.initial(seat, "r10 r11 r12")
    group = "k3 r3 o3 +b3" if add_b3 else "k3 r3 o3"
    return b.table_block(seat, group, "b7 b8 b9", "r10 r11 r12")


def t33_table(flags: dict | None = None) -> BK:
    """T-33 state: P0 (first) melds r10 r11 r12 + r3 k3 J* (joker as o3); P1 melds k11 k12 k13
    and holds o3 b3 k8 k9; P0 draws.  P1's turn comes next."""
    b = BK(2, flags)
    b.deal({0: "b13 r10 r11 r12 r3 k3 J*", 1: "o12 k11 k12 k13 o3 b3 k8 k9"})
    return b.meld(0, "r10 r11 r12", "r3 k3 J*").meld(1, "k11 k12 k13").draw()


def t34_table(joker: bool = True) -> BK:
    """T-34 state: P0 (first) melds b5 b6 J* b8 (joker as b7; or b5 b6 b7 b8) + o10 o11 o12; P1
    melds k11 k12 k13 and holds b9 r5 k5; P0 draws.  P1's turn comes next."""
    b = BK(2)
    run = "b5 b6 J* b8" if joker else "b5 b6 b7 b8"
    b.deal({0: "b13 o10 o11 o12 " + run, 1: "o9 k11 k12 k13 b9 r5 k5"})
    return b.meld(0, run, "o10 o11 o12").meld(1, "k11 k12 k13").draw()


def t35_game(flags: dict | None = None) -> BK:
    """T-35 (colours chosen here): 3 players, P1 first (a joker).  P1 lays r1..r11 and keeps k5
    r12 J*; P2 lays o1..o12 and keeps b1 b2; P0 lays all 14 tiles and goes out."""
    b = BK(3, flags)
    b.deal({0: "k6 k7 k8 k9 k10 k11 k12 k13 b5 b6 b7 b8 b9 b10",
            1: "J* r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 k5 r12",
            2: "o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 o11 o12 b1 b2"})
    b.meld(1, "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11")
    b.meld(2, "o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 o11 o12")
    return b.meld(0, "k6 k7 k8 k9 k10 k11 k12 k13", "b5 b6 b7 b8 b9 b10")


# T-36 (tiles chosen here): what each seat holds once the pool is empty, what it lays, what it
# keeps.  P2 opens with o13, so the turns go P2, P0, P1; the 64 pool tiles are drawn in turns
# 0..63, then P0, P1 and P2 each lay everything but their last tiles and then pass in turn.
T36_LAYS = {
    0: ("k1 k2 k3 J* k5 J* k7 k8 k9 k10 k11 k12 k13", "k1 k2 k3", "k5 k6 k7 k8 k9 k10 k11 k12 k13",
        "b6 b7 b8 b9 b10 b11 b12 b13"),
    1: ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13",
        "b1 b2 b3 b4 b5 b6 b7"),
    2: ("o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 o11 o12 o13", "o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 o11 o12 o13",
        "b8 b9 b10 b11", "b1 b2 b3 b4 b5"),
}
T36_KEEPS = {0: "k4 k6", 1: "b12 b13", 2: "k4"}


def stack(n: int, first: int, step: int, holds: dict[int, list[str]]) -> tuple[dict, str]:
    """Racks and pool order for seats that should hold ``holds[s]`` (their first tile first)
    when the pool runs out: each rack is the first 14, the rest are dealt to the pool in the
    order the draw turns (from ``first``, every turn a draw) take them."""
    racks = {s: " ".join(holds[s][:14]) for s in range(n)}
    rest = {s: list(holds[s][14:]) for s in range(n)}
    pool: list[str] = []
    seat = first
    while any(rest.values()):
        assert rest[seat], f"seat {seat} runs out of tiles to draw first"
        pool.append(rest[seat].pop(0))
        seat = (seat + step) % n
    return racks, " ".join(pool)


def t36_game(keeps: dict[int, str] | None = None, lays: dict[int, tuple[str, ...]] | None = None,
             flags: dict | None = None, passes: int = 3) -> BK:
    """T-36: 3 players; after the pool is empty P0, P1 and P2 lay everything but their last
    tiles, then pass one after another (``passes`` of them)."""
    keeps = keeps or T36_KEEPS
    lays = lays or T36_LAYS
    holds = {}
    for s in range(3):
        laid = [t for spec in lays[s] for t in spec.split()]
        first = "o13" if s == 2 else laid[0]
        ts = laid + keeps[s].split()
        ts.remove(first)
        holds[s] = [first] + ts
    racks, pool = stack(3, 2, 1, holds)
    b = BK(3, flags).deal(racks, pool)
    b.draws(64)
    for s in (0, 1, 2):
        b.meld(s, *lays[s])
    for _ in range(passes):
        b.pass_()
    return b
