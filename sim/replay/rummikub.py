"""The replay text of Rummikub (docs/trace-format.md "Rummikub"): each round's first tiles and first
player, every rack after the deal, then turn by turn the draw, pass, initial meld, the whole table
after a play (tiles from the rack marked ``+``, jokers with the tile they stand for, ``J*(r11)``),
penalty attempts, and each round's end with the racks left, the scores and the game end.

Pure decoding, like the card games' replay: it checks no rule (see ``rummysim.validate.rummikub``)
and never raises on a malformed trace; a record it cannot decode is shown raw.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

import numpy as np

from rummysim.validate.trace import (
    ATTEMPT,
    COMBO,
    COMBO_RUN,
    DECK,
    DRAW_STOCK,
    FIRST_TILE,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    INITIAL,
    PASS,
    PENALTY,
    SCORE,
    TABLE,
    TILE,
    TURN_START,
)

COLOURS = "krob"
JOKER = 64
_END_REASONS = {
    1: "played the last tile and wins the round (RKUB-END-1)",
    2: "{n} consecutive turns on an empty pool without a play (RKUB-END-2)",
    4: "turn cap (engine limit)",
}


def tile_text(tile: int, joker: str = "J*") -> str:
    if tile == JOKER:
        return joker
    if 0 < tile < 64 and 1 <= tile & 15 <= 13:
        return f"{COLOURS[tile >> 4]}{tile & 15}"
    return f"?{tile}"


def _sort_key(tile: int) -> tuple[int, int]:
    return (99, 99) if tile == JOKER else (tile >> 4, tile & 15)


class RummikubDecoder:
    """The decoding state of one Rummikub trace; one method per record kind."""

    def __init__(self, rows: list[list[int]], plain: bool) -> None:
        self.rows = rows
        self.joker = "J*" if plain else "🃏"
        self.out: list[str] = []
        self.n = 0
        self.pool: list[int] = []
        self.pool_pos = 0
        self.racks: list[Counter[int]] = []
        self.block: dict | None = None
        self.totals: list[str] = []
        self.handlers: dict[int, Callable[[list[int]], None]] = {
            GAME_START: self.game_start, HAND_START: self.hand_start, DECK: self.deck,
            FIRST_TILE: self.first_tile, TURN_START: self.turn_start,
            DRAW_STOCK: self.draw_stock, PASS: self.pass_, INITIAL: self.block_start,
            TABLE: self.block_start, ATTEMPT: self.block_start, COMBO: self.combo,
            TILE: self.tile, PENALTY: self.penalty, HAND_END: self.hand_end, SCORE: self.score,
            GAME_END: self.game_end,
        }

    def run(self) -> str:
        for i, row in enumerate(self.rows):
            try:
                handler = self.handlers.get(row[0])
                if handler is None:
                    self.w(f"  ?? record {i}: {row}")
                else:
                    handler(row)
            except Exception as exc:  # never raise on a bad trace
                self.w(f"  ?? record {i}: {row} ({exc.__class__.__name__})")
        if self.block is not None:
            self.w("  ?? unfinished combination block")
        return "\n".join(self.out) + "\n"

    def w(self, line: str) -> None:
        self.out.append(line)

    def tiles(self, tiles: list[int] | Counter[int]) -> str:
        seq = sorted(tiles.elements() if isinstance(tiles, Counter) else tiles, key=_sort_key)
        return " ".join(tile_text(t, self.joker) for t in seq) if seq else "—"

    # ---- game and round start ----
    def game_start(self, row: list[int]) -> None:
        self.n = max(0, min(row[1], 8))
        way = "counterclockwise" if row[6] == 1 else "clockwise"
        rounds = f"{row[4]} rounds" if row[4] != 1 else "1 round"
        self.w(f"Game {row[3]} · Rummikub · {row[1]} players · {rounds} · {way}")

    def hand_start(self, row: list[int]) -> None:
        self.pool = []
        self.pool_pos = 0
        self.racks = [Counter() for _ in range(self.n)]
        self.first_line: list[str] = []
        self.w("")
        self.w(f"━━ Round {row[1] + 1} · {row[3]} tiles · racks of {row[4]} · "
               f"seat {row[5]} plays first ━━")

    def deck(self, row: list[int]) -> None:
        off = row[1]
        for j, t in enumerate(row[2:8]):
            if t >= 0 and 0 <= off + j < 256:
                if off + j >= len(self.pool):
                    self.pool.extend([-1] * (off + j + 1 - len(self.pool)))
                self.pool[off + j] = t

    def first_tile(self, row: list[int]) -> None:
        seat = row[1]
        self.first_line.append(f"seat {seat} {tile_text(row[2], self.joker)}")
        if seat == self.n - 1:
            self.deal()
            self.w("  first tiles: " + ", ".join(self.first_line))
            for s, rack in enumerate(self.racks):
                self.w(f"  seat {s} rack   {self.tiles(rack)}")
            self.w(f"  pool {len(self.pool) - self.pool_pos}")

    def deal(self) -> None:
        """The trace spec's dealing: seat s's first tile at pool position s, then 13 tiles from
        position n + 13 s; the pool from position 14 n."""
        n, pool = self.n, self.pool
        self.racks = [Counter([pool[s]] + pool[n + 13 * s:n + 13 * s + 13]) for s in range(n)]
        self.pool_pos = 14 * n

    # ---- turns ----
    def turn_start(self, row: list[int]) -> None:
        self.seat = row[1]
        self.w(f"  Turn {row[2]} · seat {row[1]} · pool {row[3]}")

    def draw_stock(self, row: list[int]) -> None:
        self.pool_pos += 1
        self.racks[row[1]][row[2]] += 1
        self.w(f"    draw    {tile_text(row[2], self.joker)}")

    def pass_(self, row: list[int]) -> None:
        self.w("    pass    (the pool is empty)")

    def penalty(self, row: list[int]) -> None:
        self.w(f"    penalty the attempt is undone; draws {row[2]} tile(s)")

    def block_start(self, row: list[int]) -> None:
        self.block = {"kind": row[0], "seat": row[1], "n": row[2], "cols": row[3:5],
                      "combos": []}
        if row[2] == 0:
            self.flush()

    def combo(self, row: list[int]) -> None:
        b = self.block
        if b is None:
            self.w(f"    (stray COMBO {row})")
            return
        b["combos"].append({"kind": row[2], "key": row[3], "lo": row[4], "n": row[5],
                            "from": row[6], "tiles": []})
        self.flush_if_done()

    def tile(self, row: list[int]) -> None:
        b = self.block
        if b is None or not b["combos"]:
            self.w(f"    (stray TILE {row})")
            return
        b["combos"][-1]["tiles"].append((row[2], row[3], row[4]))
        self.flush_if_done()

    def flush_if_done(self) -> None:
        b = self.block
        last = b["combos"][-1]
        if len(b["combos"]) == b["n"] and len(last["tiles"]) >= last["n"]:
            self.flush()

    def combo_text(self, c: dict) -> str:
        shown = []
        for t, d, from_rack in c["tiles"]:
            txt = tile_text(t, self.joker)
            if t == JOKER:
                txt += f"({tile_text(d)})"
            shown.append(("+" if from_rack else "") + txt)
        if c["kind"] == COMBO_RUN:
            col = COLOURS[c["key"]] if 0 <= c["key"] <= 3 else "?"
            label = f"run {col}{c['lo']}-{col}{c['lo'] + len(c['tiles']) - 1}"
        else:
            label = f"group of {c['key']}s"
        locked = f", locked, was #{c['from']}" if c["from"] >= 0 else ""
        return f"{label}{locked}: {' '.join(shown)}"

    def flush(self) -> None:
        b = self.block
        self.block = None
        seat = b["seat"]
        if b["kind"] == INITIAL:
            self.w(f"    initial meld worth {b['cols'][0]}, {b['cols'][1]} tiles:")
        elif b["kind"] == ATTEMPT:
            self.w(f"    attempt (an invalid table, {b['cols'][0]} rack tile(s)):")
        else:
            self.w(f"    table   ({b['cols'][0]} rack tile(s) played, marked +):")
        for i, c in enumerate(b["combos"]):
            self.w(f"      #{i} {self.combo_text(c)}")
        if b["kind"] != ATTEMPT and 0 <= seat < len(self.racks):
            rack = self.racks[seat]
            for c in b["combos"]:
                for t, _, from_rack in c["tiles"]:
                    if from_rack and rack[t] > 0:
                        rack[t] -= 1
            if b["kind"] == TABLE:
                self.w(f"    rack    {self.tiles(+rack)}")

    # ---- round and game end ----
    def hand_end(self, row: list[int]) -> None:
        reason, out_seat, turns = row[1:4]
        why = _END_REASONS.get(reason, f"reason {reason}").format(n=self.n)
        who = f"seat {out_seat} " if out_seat >= 0 else ""
        self.w(f"  Round end after {turns} turns: {who}{why}")
        for s, rack in enumerate(self.racks):
            if +rack:
                self.w(f"    seat {s} holds {self.tiles(+rack)}")
        self.totals = []

    def score(self, row: list[int]) -> None:
        seat, sc, total, _, value = row[1:6]
        self.w(f"    seat {seat}  rack {value:>4}  score {sc:>+5}  total {total:>5}")
        self.totals.append(f"seat {seat} {total}")

    def game_end(self, row: list[int]) -> None:
        winner, rounds, capped, tied = row[1:5]
        self.w("")
        if capped:
            self.w(f"Game over: round cap reached after {rounds} rounds, no winner")
        elif winner >= 0:
            self.w(f"Game over after {rounds} round(s): seat {winner} wins")
        else:
            seats = " and ".join(f"seat {s}" for s in range(31) if tied >> s & 1)
            self.w(f"Game over after {rounds} round(s): tie between {seats}")
        if self.totals:
            self.w("  final totals: " + ", ".join(self.totals))


def format_trace(trace: object, plain: bool = False) -> str:
    """Return the Rummikub game(s) in ``trace`` as readable text, turn by turn."""
    try:
        rows: list[list[int]] = np.asarray(trace).reshape(-1, 8).tolist()
    except Exception as exc:  # never raise
        return f"(cannot read trace: {exc})\n"
    return RummikubDecoder(rows, plain).run()
