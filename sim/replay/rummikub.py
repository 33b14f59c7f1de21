"""The replay text of Rummikub (game code 3, docs/trace-format.md "Rummikub"): racks and table turn by turn.

Each round shows the first tiles and who plays first, every rack after the deal, then each turn:
the draw, the pass, the initial meld with its value, or the whole table after a play with the tiles
that came from the rack marked ``+`` and the jokers freed; the seat's rack after the turn; and the
scores at the end. Tiles are written as in RULES.md (``r10``, ``J*``, a placed joker with what it
stands for, ``J*(r11)``). Like the other games' replay it only decodes: it checks no rule and never
raises on a malformed trace (a record it cannot read is shown raw). The record kinds below are this
module's own reading of the trace format.
"""

from __future__ import annotations

from collections.abc import Callable

GAME_START = 1
HAND_START = 2
DECK = 3
TURN_START = 5
DRAW_STOCK = 10
HAND_END = 40
SCORE = 41
GAME_END = 50
FIRST_TILE = 128
INITIAL = 129
TABLE = 130
COMBO = 131
TILE = 132
PASS = 133
ATTEMPT = 134
PENALTY = 135
GAME_CODE = 3
JOKER = 64
COLOURS = "krob"

_END = {1: "went out (RKUB-END-1)", 2: "{n} passes in a row with the pool empty (RKUB-END-2)",
        4: "turn cap (engine limit)"}


def tile(t: int, designation: int | None = None) -> str:
    if t == JOKER:
        return "J*" if designation is None or designation == JOKER else f"J*({tile(designation)})"
    if 0 < t < JOKER and 1 <= (t & 15) <= 13:
        return f"{COLOURS[t >> 4]}{t & 15}"
    return f"?{t}"


def tiles(ts: list[int]) -> str:
    return " ".join(tile(t) for t in sorted(ts, key=lambda t: (t >= JOKER, t >> 4, t & 15))) or "—"


def is_rummikub(rows: list[list[int]]) -> bool:
    """Does the trace start with a Rummikub GAME_START?"""
    return bool(rows) and rows[0][0] == GAME_START and rows[0][5] == GAME_CODE


class RummikubDecoder:
    """The decoding state of one Rummikub trace; one method per record kind."""

    def __init__(self, rows: list[list[int]]) -> None:
        self.rows = rows
        self.out: list[str] = []
        self.n = 0
        self.pool: list[int] = []
        self.racks: list[list[int]] = []
        self.block: dict | None = None  # the INITIAL / TABLE / ATTEMPT block being read
        self.combo: dict | None = None
        self.seat = -1
        self.totals: list[str] = []
        self.handlers: dict[int, Callable[[list[int]], None]] = {
            GAME_START: self.game_start, HAND_START: self.hand_start, DECK: self.deck,
            FIRST_TILE: self.first_tile, TURN_START: self.turn_start, DRAW_STOCK: self.draw,
            PASS: self.pass_, INITIAL: self.open_block, TABLE: self.open_block, ATTEMPT: self.open_block,
            COMBO: self.combo_start, TILE: self.tile, PENALTY: self.penalty, HAND_END: self.hand_end,
            SCORE: self.score, GAME_END: self.game_end,
        }

    def w(self, line: str) -> None:
        self.out.append(line)

    def run(self) -> str:
        for i, row in enumerate(self.rows):
            try:
                if row[0] not in (COMBO, TILE):
                    self.close_block()
                handler = self.handlers.get(row[0])
                if handler is None:
                    self.w(f"  ?? record {i}: {row}")
                else:
                    handler(row)
            except Exception as exc:  # never raise on a bad trace
                self.w(f"  ?? record {i}: {row} ({exc.__class__.__name__})")
        try:
            self.close_block()
        except Exception as exc:
            self.w(f"  ?? unfinished block ({exc.__class__.__name__})")
        return "\n".join(self.out) + "\n"

    # ---- game, round and deal ----
    def game_start(self, row: list[int]) -> None:
        self.n = max(0, min(row[1], 8))
        way = "counterclockwise" if row[6] == 1 else "clockwise"
        self.w(f"Game {row[3]} · Rummikub · {row[1]} players · {row[4]} round(s) · {way}")

    def hand_start(self, row: list[int]) -> None:
        self.pool = []
        self.racks = [[] for _ in range(self.n)]
        self.w("")
        self.w(f"━━ Round {row[1] + 1} · pool {row[3]} · racks of {row[4]} · P{row[5]} plays first ━━")

    def deck(self, row: list[int]) -> None:
        off = row[1]
        for j, t in enumerate(row[2:8]):
            if t >= 0:
                while len(self.pool) <= off + j:
                    self.pool.append(-1)
                self.pool[off + j] = t

    def first_tile(self, row: list[int]) -> None:
        seat, t = row[1], row[2]
        self.w(f"  P{seat} draws {tile(t)} as first tile")
        if seat == self.n - 1:
            self.deal()

    def deal(self) -> None:
        n = self.n
        for s in range(n):
            self.racks[s] = [self.pool[s]] + self.pool[n + 13 * s: n + 13 * s + 13]
            self.w(f"  P{s} rack  {tiles(self.racks[s])}")
        self.w(f"  pool {len(self.pool) - 14 * n}")

    # ---- turns ----
    def turn_start(self, row: list[int]) -> None:
        self.seat = row[1]
        self.w(f"  Turn {row[2]} · P{row[1]} · pool {row[3]}")

    def draw(self, row: list[int]) -> None:
        self.w(f"    draw    {tile(row[2])}")
        if 0 <= row[1] < len(self.racks):
            self.racks[row[1]].append(row[2])
            self.show_rack(row[1])

    def pass_(self, row: list[int]) -> None:
        self.w("    passes (the pool is empty)")

    def penalty(self, row: list[int]) -> None:
        self.w(f"    the table is undone (RKUB-TIME-1); draws {row[2]} tile(s) as a penalty")

    def show_rack(self, seat: int) -> None:
        self.w(f"    rack    {tiles(self.racks[seat])}")

    # ---- table blocks ----
    def open_block(self, row: list[int]) -> None:
        self.block = {"kind": row[0], "seat": row[1], "n": row[2], "extra": row[3], "combos": []}

    def combo_start(self, row: list[int]) -> None:
        if self.block is None:
            self.w(f"    (stray COMBO {row})")
            return
        self.combo = {"kind": row[2], "key": row[3], "lo": row[4], "n": row[5], "from": row[6], "tiles": []}
        self.block["combos"].append(self.combo)

    def tile(self, row: list[int]) -> None:
        if self.combo is None:
            self.w(f"    (stray TILE {row})")
            return
        self.combo["tiles"].append((row[2], row[3], row[4]))

    def close_block(self) -> None:
        b = self.block
        if b is None:
            return
        self.block = None
        self.combo = None
        seat = b["seat"]
        placed = [t for c in b["combos"] for t, _, rack in c["tiles"] if rack == 1]
        if b["kind"] == INITIAL:
            self.w(f"    initial meld, value {b['extra']}: " + "  ".join(self.combo_text(c, False) for c in b["combos"]))
        elif b["kind"] == ATTEMPT:
            self.w("    tries an invalid table: " + "  ".join(self.combo_text(c, True) for c in b["combos"]))
            return
        else:
            if b["extra"] == 0:
                self.w("    no further play")
            else:
                self.w(f"    plays {b['extra']} tile(s): {tiles(placed)}; the table is now:")
                for c in b["combos"]:
                    self.w(f"      {self.combo_text(c, True)}")
        if 0 <= seat < len(self.racks):
            for t in placed:
                if t in self.racks[seat]:
                    self.racks[seat].remove(t)
            if b["kind"] == TABLE:
                self.show_rack(seat)

    def combo_text(self, c: dict, mark: bool) -> str:
        parts = []
        for t, d, rack in c["tiles"]:
            text = tile(t, d if t == JOKER else None)
            parts.append(("+" if rack == 1 and mark else "") + text)
        locked = " (locked)" if any(t == JOKER for t, _, _ in c["tiles"]) else ""
        return "[" + " ".join(parts) + "]" + (locked if mark else "")

    # ---- round and game end ----
    def hand_end(self, row: list[int]) -> None:
        reason, out_seat, turns = row[1:4]
        why = _END.get(reason, f"reason {reason}").format(n=self.n)
        who = f"P{out_seat} " if out_seat >= 0 else ""
        self.w(f"  Round end after {turns} turns: {who}{why}")
        for s, r in enumerate(self.racks):
            if r:
                self.w(f"    P{s} holds {tiles(r)}")
        self.totals = []

    def score(self, row: list[int]) -> None:
        seat, score, total, _, rack_value = row[1:6]
        self.w(f"    P{seat}  rack {rack_value:>4}  score {score:>+5}  total {total:>5}")
        self.totals.append(f"P{seat} {total}")

    def game_end(self, row: list[int]) -> None:
        winner, rounds, capped, tied = row[1:5]
        self.w("")
        if capped:
            self.w(f"Game over: round cap reached after {rounds} rounds, no winner")
        elif winner >= 0:
            self.w(f"Game over after {rounds} round(s): P{winner} wins")
        else:
            seats = " and ".join(f"P{s}" for s in range(8) if tied >> s & 1)
            self.w(f"Game over after {rounds} round(s): tie between {seats}")
        if self.totals:
            self.w("  final totals: " + ", ".join(self.totals))
