"""Random Rummikub positions for the solver tests and an independent check of a solver's answer.

``random_position(rng, kind)`` deals a valid table (random runs and groups, with jokers in some
for the kinds that lock them) and a rack from the tiles left. ``check_arrangement`` verifies a
final table against the rules of docs/trace-format.md ("TABLE", rules 1, 2 and 5) and returns the
weight of the rack tiles it places; it is written from that page, not from the solver.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from rummysim.rummikub import JOKER_ID, Combo

KINDS = ("plain", "table_jokers", "rack_jokers", "both_jokers", "initial")


@dataclass
class Position:
    kind: str
    table: list[Combo]
    rack: list[int]


def _run(colour: int, lo: int, tiles: list[int]) -> Combo:
    return Combo("run", colour, lo, tuple(tiles), tuple(16 * colour + lo + i for i in range(len(tiles))))


def _group(number: int, tiles: list[int]) -> Combo:
    free = [c for c in range(4) if all((t >> 4) != c for t in tiles if t != JOKER_ID)]
    desig = []
    for t in tiles:
        desig.append(t if t != JOKER_ID else 16 * free.pop(0) + number)
    return Combo("group", number, 0, tuple(tiles), tuple(desig))


def _take(pool: Counter, tiles: list[int]) -> bool:
    need = Counter(t for t in tiles if t != JOKER_ID)
    if any(pool[t] < k for t, k in need.items()):
        return False
    pool.subtract(need)
    return True


def random_position(rng: random.Random, kind: str, max_table: int = 36, max_rack: int = 12) -> Position:
    pool = Counter({16 * c + n: 2 for c in range(4) for n in range(1, 14)})
    jokers = 2
    table_jokers = rng.randint(1, 2) if kind in ("table_jokers", "both_jokers") else 0
    target = 0 if kind == "initial" else rng.randint(0, max_table)
    table: list[Combo] = []
    placed = 0
    tries = 0
    while placed < target and tries < 400:
        tries += 1
        if rng.random() < 0.55:
            colour = rng.randrange(4)
            length = rng.randint(3, 6)
            lo = rng.randint(1, 14 - length)
            tiles = [16 * colour + lo + i for i in range(length)]
            combo = lambda ts: _run(colour, lo, ts)  # noqa: E731
        else:
            number = rng.randint(1, 13)
            tiles = [16 * c + number for c in rng.sample(range(4), rng.randint(3, 4))]
            combo = lambda ts: _group(number, ts)  # noqa: E731
        if table_jokers > 0 and rng.random() < 0.5:
            tiles[rng.randrange(len(tiles))] = JOKER_ID
            if not _take(pool, tiles):
                continue
            table_jokers -= 1
            jokers -= 1
        elif not _take(pool, tiles):
            continue
        table.append(combo(tiles))
        placed += len(tiles)
    left = [t for t, k in pool.items() for _ in range(k)]
    rng.shuffle(left)
    rack = left[: rng.randint(1, max_rack)]
    if kind in ("rack_jokers", "both_jokers", "initial") and jokers > 0:
        rack += [JOKER_ID] * rng.randint(0 if kind == "initial" else 1, jokers)
    return Position(kind, table, rack)


def _combo_ok(kind: int, key: int, lo: int, tiles: list[int], desig: list[int], max_jokers: int) -> bool:
    if sum(1 for t in tiles if t == JOKER_ID) > max_jokers:
        return False
    if any(t != JOKER_ID and t != d for t, d in zip(tiles, desig)):
        return False
    if kind == 1:
        return 3 <= len(tiles) <= 13 and lo >= 1 and lo + len(tiles) - 1 <= 13 and all(
            d == 16 * key + lo + i for i, d in enumerate(desig))
    colours = [d >> 4 for d in desig]
    return 3 <= len(tiles) <= 4 and all(d & 15 == key for d in desig) and len(set(colours)) == len(colours)


def check_arrangement(old: list[Combo], rack: list[int], new: list[dict], max_jokers: int = 2,
                      both_colours: bool = False) -> Counter:
    """Check ``new`` (rows with kind, key, lo, tiles, desig, rack flags, from) against the old table
    and the rack; returns the Counter of rack tiles placed (raises AssertionError if invalid)."""
    for row in new:
        assert _combo_ok(row["kind"], row["key"], row["lo"], row["tiles"], row["desig"], max_jokers), row
    old_count = Counter(t for c in old for t in c.tiles)
    kept = Counter(t for row in new for t, f in zip(row["tiles"], row["rack"]) if f == 0)
    assert kept == old_count, (kept, old_count)
    placed = Counter(t for row in new for t, f in zip(row["tiles"], row["rack"]) if f == 1)
    assert not placed - Counter(rack), (placed, rack)
    for i, combo in enumerate(old):
        if JOKER_ID not in combo.tiles:
            continue
        (row,) = [r for r in new if r["from"] == i]
        assert (row["kind"] == 1) == (combo.kind == "run") and row["key"] == combo.key
        if combo.kind == "run":
            _check_run_continuation(combo, row)
        else:
            _check_group_continuation(combo, row, both_colours)
    assert sum(1 for r in new if r["from"] >= 0) == sum(1 for c in old if JOKER_ID in c.tiles)
    return placed


def _check_run_continuation(combo: Combo, row: dict) -> None:
    lo, hi = combo.lo, combo.lo + len(combo.tiles) - 1
    new_lo, new_hi = row["lo"], row["lo"] + len(row["tiles"]) - 1
    assert new_lo <= lo and new_hi >= hi
    for i, tile in enumerate(row["tiles"]):
        n = new_lo + i
        if lo <= n <= hi:
            old = combo.tiles[n - lo]
            if old == JOKER_ID:
                assert tile == JOKER_ID or row["rack"][i] == 1
            else:
                assert tile == old and row["rack"][i] == 0
        else:
            assert tile == JOKER_ID or row["rack"][i] == 1


def _check_group_continuation(combo: Combo, row: dict, both_colours: bool) -> None:
    old_nat = Counter(t for t in combo.tiles if t != JOKER_ID)
    new_nat = Counter(t for t in row["tiles"] if t != JOKER_ID)
    assert not old_nat - new_nat
    added = new_nat - old_nat
    flags = {t: f for t, f in zip(row["tiles"], row["rack"]) if t != JOKER_ID}
    assert all(flags[t] == 1 for t in added)
    freed = combo.tiles.count(JOKER_ID) - row["tiles"].count(JOKER_ID)
    assert freed <= sum(added.values())
    if freed > 0 and both_colours:
        assert len(new_nat) == 4 and JOKER_ID not in row["tiles"]


def upper_bound(pos: Position, weights: dict[int, int], joker_weight: int) -> int:
    """A bound no final table can beat, from counting alone: a rack tile can be placed only if the
    tiles in play (the whole table and the rack; only the rack for an initial meld) could make it a
    run of three or a group of three around it, with the jokers in play filling gaps. When the
    solver reaches this bound with a valid arrangement, its answer is proven best."""
    initial = pos.kind == "initial"
    present = Counter(t for t in pos.rack)
    if not initial:
        present.update(t for c in pos.table for t in c.tiles)
    jokers = present.pop(JOKER_ID, 0)
    if initial and sum(13 if t == JOKER_ID else t & 15 for t in pos.rack) < 30:
        return 0
    bound = 0
    for t in pos.rack:
        if t == JOKER_ID:
            bound += joker_weight if sum(present.values()) + jokers >= 3 else 0
            continue
        colour, n = t >> 4, t & 15
        windows = [range(lo, lo + 3) for lo in range(max(1, n - 2), min(n, 11) + 1)]
        run = any(sum(1 for m in w if m != n and present[16 * colour + m] == 0) <= jokers for w in windows)
        group = sum(1 for c in range(4) if c != colour and present[16 * c + n] > 0) + jokers >= 2
        bound += weights[t] if run or group else 0
    return bound
