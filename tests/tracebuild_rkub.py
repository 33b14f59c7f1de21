"""Hand-made Rummikub traces for the tests of the independent checker (rummysim.validate.rummikub).

``BK`` is a dumb recorder like ``tests.tracebuild.B`` and ``tests.tracebuild_5k.B5``: it writes the
records of docs/trace-format.md ("Rummikub") from readable tile strings and keeps just enough state
(racks, pool, table, turn order) to fill TURN_START, TABLE and SCORE fields.  It never checks
legality, so illegal variants are written the same way as legal ones.  Its scoring is written out
from RULES.md RKUB-SCORE-1, RKUB-END-2 (AMB-42) and §8.3, independently of the checker.

Tiles: ``"k3"``, ``"r10"``, ``"b13"``, the joker ``"J*"``; a joker's designation ``"J*=o3"``
(without one, a run's joker stands for its position, a group's for the first missing colour).
A combination is one string of tiles: a group if its natural tiles share a number, else a run
(``"G: r5 J* J*"`` / ``"R: ..."`` force the kind).  In a TABLE a tile is a table tile while the
old table still holds an unused copy of it (locked continuations are matched first), else a rack
tile; ``"+k5"`` forces a rack tile and ``"^k5"`` a table tile.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

GAME = {"game": "rummikub"}
COLOURS = "krob"
JK = 64
ALL_TILES = Counter({**{16 * c + n: 2 for c in range(4) for n in range(1, 14)}, JK: 2})


def tid(tok: str) -> int:
    """``"k3"`` -> 3, ``"r10"`` -> 26, ``"J*"`` -> 64."""
    if tok.upper() in ("J*", "J", "JK"):
        return JK
    return 16 * COLOURS.index(tok[0].lower()) + int(tok[1:])


def tname(t: int) -> str:
    return "J*" if t == JK else f"{COLOURS[t >> 4]}{t & 15}"


def tiles(spec: str) -> list[int]:
    return [tid(tok) for tok in spec.split()]


def value(t: int, joker_penalty: int = 30) -> int:
    """§8.3: a rack tile is worth its number, a joker the penalty."""
    return joker_penalty if t == JK else t & 15


def parse_combo(spec: str) -> dict:
    """A combination string -> {kind, key, lo, tiles: [(tile, designation, forced)]} where
    ``forced`` is 1 (``+``: from the rack), 0 (``^``: from the table) or None."""
    toks = spec.split()
    kind = None
    if toks and toks[0] in ("G:", "R:"):
        kind = 0 if toks[0] == "G:" else 1
        toks = toks[1:]
    raw = []
    for tok in toks:
        forced = 1 if tok[0] == "+" else 0 if tok[0] == "^" else None
        tok = tok.lstrip("+^")
        t, _, d = tok.partition("=")
        raw.append((tid(t), tid(d) if d else None, forced))
    nats = [t for t, _, _ in raw if t != JK]
    named = [d for t, d, _ in raw if t == JK and d is not None]
    if kind is None:
        same_number = len({t & 15 for t in nats + named}) == 1
        kind = 0 if same_number and (len(nats) >= 2 or named and len(nats) == 1
                                     and len({t >> 4 for t in nats + named}) > 1) else 1
    if kind == 0:
        key = (nats or named)[0] & 15
        held = {t >> 4 for t in nats} | {d >> 4 for d in named}
        free = [c for c in range(4) if c not in held]
        out = []
        for t, d, f in raw:
            if t == JK and d is None:
                d = 16 * (free.pop(0) if free else 0) + key
            out.append((t, t if t != JK else d, f))
        return {"kind": 0, "key": key, "lo": 0, "tiles": out}
    first = next((i for i, (t, d, _) in enumerate(raw) if t != JK or d is not None), 0)
    ref = raw[first][0] if raw[first][0] != JK else raw[first][1]
    key, lo = ref >> 4, (ref & 15) - first
    out = [(t, t if t != JK else (d if d is not None else 16 * key + lo + i), f)
           for i, (t, d, f) in enumerate(raw)]
    return {"kind": 1, "key": key, "lo": lo, "tiles": out}


def rack_only(spec: str) -> str:
    """The combination string with every tile forced from the rack (``+``)."""
    return " ".join(tok if tok in ("G:", "R:") or tok[0] in "+^" else "+" + tok
                    for tok in spec.split())


def same_combo(a: dict, b: dict) -> bool:
    def sig(c):
        ts = [(t, d) for t, d, *_ in c["tiles"]]
        return (c["kind"], c["key"], c["lo"], tuple(ts if c["kind"] == 1 else sorted(ts)))
    return sig(a) == sig(b)


class BK:
    """Trace builder for one Rummikub game."""

    def __init__(self, n: int, flags: dict | None = None, game_index: int = 7):
        self.flags = {**GAME, **(flags or {})}
        self.n = n
        self.rounds = int(self.flags.get("rkub_rounds", 1))
        ccw = self.flags.get("rkub_direction") == "counterclockwise"
        self.step = n - 1 if ccw else 1
        self.penalty = int(self.flags.get("rkub_joker_penalty", 30))
        self.totals = [0] * n
        self.round_no = 0
        self.rows: list[list[int]] = [[1, n, -1, game_index, self.rounds, 3, int(ccw), 0]]

    # ---- deal ----
    def deal(self, racks: dict[int, str] | None = None, pool: str = "",
             first: int | None = None):
        """Deal a round: ``racks[s]`` lists seat s's rack (its first tile first, up to 14 tiles),
        ``pool`` the first pool tiles in draw order; the rest is filled from the unused tiles,
        lowest numbers first, jokers last.  ``first`` picks the first player among seats tied
        for the highest first tile."""
        n = self.n
        left = Counter(ALL_TILES)
        specs = {s: tiles((racks or {}).get(s, "")) for s in range(n)}
        head = tiles(pool)
        for t in [t for s in specs.values() for t in s] + head:
            assert left[t] > 0, f"tile {tname(t)} used three times in the scenario"
            left[t] -= 1
        filler = sorted(left.elements(), key=lambda t: (t == JK, t & 15, t >> 4))
        self.racks = []
        for s in range(n):
            spec = specs[s]
            assert len(spec) <= 14, f"seat {s}: {len(spec)} tiles"
            self.racks.append(spec + [filler.pop(0) for _ in range(14 - len(spec))])
        self.pool = head + filler
        order = [r[0] for r in self.racks] + [t for r in self.racks for t in r[1:]] + self.pool
        assert len(order) == 106
        ranks = [14 if r[0] == JK else r[0] & 15 for r in self.racks]
        tied = [s for s in range(n) if ranks[s] == max(ranks)]
        self.first = first if first is not None else tied[0]
        assert self.first in tied, f"seat {self.first} did not draw a highest first tile"
        self.rows.append([2, self.round_no, -1, 106, 14, self.first, 0, 0])
        for off in range(0, 106, 6):
            chunk = order[off:off + 6]
            self.rows.append([3, off] + chunk + [-1] * (6 - len(chunk)))
        for s in range(n):
            self.rows.append([128, s, self.racks[s][0], 0, 0, 0, 0, 0])
        self.table: list[dict] = []
        self.turns = 0
        self.next = self.first
        self.cur = -1
        return self

    # ---- turns ----
    def turn(self, seat: int | None = None) -> int:
        seat = self.next if seat is None else seat
        self.rows.append([5, seat, self.turns, len(self.pool), 0, 0, 0, 0])
        self.turns += 1
        self.cur = seat
        self.next = (seat + self.step) % self.n
        return seat

    def draw(self, seat: int | None = None, start: bool = True):
        seat = self.turn(seat) if start else self.cur
        t = self.pool.pop(0)
        self.rows.append([10, seat, t, 0, 0, 0, 0, 0])
        self.racks[seat].append(t)
        return self

    def draws(self, k: int):
        """``k`` draw turns in turn order."""
        for _ in range(k):
            self.draw()
        return self

    def pass_(self, seat: int | None = None):
        seat = self.turn(seat)
        self.rows.append([133, seat, 0, 0, 0, 0, 0, 0])
        return self

    # ---- combination blocks ----
    def _write_combos(self, combos: list[dict]) -> None:
        for i, c in enumerate(combos):
            self.rows.append([131, i, c["kind"], c["key"], c["lo"], len(c["tiles"]),
                              c.get("from", -1), 0])
            for t, d, fr in c["tiles"]:
                self.rows.append([132, i, t, d, fr, 0, 0, 0])

    def _mark(self, old: list[dict], specs: tuple[str, ...], frm: dict[int, int] | None
              ) -> list[dict]:
        """Parse a whole new table: each locked old combination's continuation (``frm``: new
        index -> old index, else found) and every tile's from_rack."""
        new = [parse_combo(s) for s in specs]
        locked = [i for i, c in enumerate(old) if any(t == JK for t, *_ in c["tiles"])]
        if frm is None:
            frm = {}
            for i in locked:
                j = next((j for j, c in enumerate(new) if j not in frm and same_combo(c, old[i])),
                         None)
                if j is None:
                    nats = Counter(t for t, *_ in old[i]["tiles"] if t != JK)
                    j = next((j for j, c in enumerate(new) if j not in frm
                              and (c["kind"], c["key"]) == (old[i]["kind"], old[i]["key"])
                              and not nats - Counter(t for t, *_ in c["tiles"])), None)
                if j is not None:
                    frm[j] = i
        avail = Counter(t for c in old for t, *_ in c["tiles"])
        for j in sorted(range(len(new)), key=lambda j: j not in frm):
            c = new[j]
            c["from"] = frm.get(j, -1)
            marked = []
            for t, d, forced in c["tiles"]:
                fr = forced if forced is not None else (0 if avail[t] > 0 else 1)
                if fr == 0:
                    avail[t] -= 1
                marked.append((t, d, fr))
            c["tiles"] = marked
        return new

    def _from_rack(self, seat: int, combos: list[dict]) -> None:
        for c in combos:
            for t, _, fr in c["tiles"]:
                if fr and t in self.racks[seat]:
                    self.racks[seat].remove(t)

    def initial(self, seat: int, *specs: str, value: int | None = None):
        """An INITIAL block (every tile from the rack); the TABLE block must follow."""
        combos = [parse_combo(s) for s in specs]
        for c in combos:
            c["tiles"] = [(t, d, 1 if f is None else f) for t, d, f in c["tiles"]]
        worth = sum(d & 15 for c in combos for _, d, _ in c["tiles"])
        n_tiles = sum(len(c["tiles"]) for c in combos)
        self.rows.append([129, seat, len(combos), worth if value is None else value, n_tiles,
                          0, 0, 0])
        self._write_combos(combos)
        self._from_rack(seat, combos)
        self.turn_old = self.table + combos
        return self

    def table_block(self, seat: int, *specs: str, frm: dict[int, int] | None = None,
                    kind: int = 130):
        """A TABLE (or ATTEMPT, ``kind`` 134) block listing the whole new table."""
        old = getattr(self, "turn_old", None) or self.table
        new = self._mark(old, specs, frm)
        n_rack = sum(fr for c in new for _, _, fr in c["tiles"])
        self.rows.append([kind, seat, len(new), n_rack, 0, 0, 0, 0])
        self._write_combos(new)
        if kind == 130:
            self._from_rack(seat, new)
            self.table = [dict(c, tiles=[(t, d, 0) for t, d, _ in c["tiles"]]) for c in new]
        self.turn_old = None
        return self

    def specs(self, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The current table as combination strings (designations kept), plus ``extra``."""
        out = []
        for c in self.table:
            toks = [("J*=" + tname(d)) if t == JK else tname(t) for t, d, _ in c["tiles"]]
            out.append(("G: " if c["kind"] == 0 else "R: ") + " ".join(toks))
        return tuple(out) + tuple(extra)

    def meld(self, seat: int | None = None, *specs: str):
        """An initial-meld turn laying ``specs``, the table otherwise unchanged."""
        seat = self.turn(seat)
        self.initial(seat, *specs)
        old = self.turn_old
        self.turn_old = None
        self.table = old  # the TABLE is the old table and the initial meld, unchanged
        self.rows.append([130, seat, len(old), 0, 0, 0, 0, 0])
        self._write_combos([dict(c, tiles=[(t, d, 0) for t, d, _ in c["tiles"]],
                                 **{"from": i if any(t == JK for t, *_ in c["tiles"]) else -1})
                            for i, c in enumerate(old)])
        return self

    def add(self, seat: int | None = None, *specs: str):
        """A later play turn: the table unchanged plus new combinations from the rack."""
        return self.play(seat, *self.specs(tuple(rack_only(s) for s in specs)))

    def play(self, seat: int | None = None, *specs: str, frm: dict[int, int] | None = None):
        """A later play turn leaving the table ``specs``."""
        seat = self.turn(seat)
        return self.table_block(seat, *specs, frm=frm)

    def attempt(self, seat: int | None = None, *specs: str, frm: dict[int, int] | None = None):
        """A penalty turn: an ATTEMPT listing ``specs``, then PENALTY and its draws."""
        seat = self.turn(seat)
        self.table_block(seat, *specs, frm=frm, kind=134)
        k = min(3, len(self.pool))
        self.rows.append([135, seat, k, 0, 0, 0, 0, 0])
        for _ in range(k):
            self.draw(seat, start=False)
        return self

    def rack(self, seat: int) -> list[str]:
        return [tname(t) for t in self.racks[seat]]

    # ---- scoring ----
    def end(self, reason: int, out: int = -1, values: dict | None = None,
            scores: dict | None = None):
        """HAND_END and SCORE records; ``values`` / ``scores`` replace computed numbers."""
        n = self.n
        self.rows.append([40, reason, out, self.turns, 0, 0, 0, 0])
        vals = [sum(value(t, self.penalty) for t in r) for r in self.racks]
        if out >= 0:  # RKUB-SCORE-1
            sc = [-v for v in vals]
            sc[out] = sum(vals) - vals[out]
        else:  # RKUB-END-2, AMB-42
            low = min(vals)
            diff = sum(v - low for v in vals)
            best = [s for s in range(n) if vals[s] == low]
            sc = [low - v for v in vals]
            for k, s in enumerate(best):
                sc[s] = diff // len(best) + (1 if k < diff % len(best) else 0)
        for s, v in (values or {}).items():
            vals[s] = v
        for s, v in (scores or {}).items():
            sc[s] = v
        self.scores = []
        for s in range(n):
            self.totals[s] += sc[s]
            row = [41, s, sc[s], self.totals[s], 0, vals[s], 0, 0]
            self.scores.append(row)
            self.rows.append(row)
        self.round_no += 1
        return self

    def game_end(self, winner: int | None = None, capped: int = 0, mask: int | None = None):
        """GAME_END; by default the highest total wins, a shared one is a tie."""
        top = max(self.totals)
        leaders = [s for s in range(self.n) if self.totals[s] == top]
        if winner is None:
            winner = leaders[0] if len(leaders) == 1 and not capped else -1
        if mask is None:
            mask = 0 if winner >= 0 or capped else sum(1 << s for s in leaders)
        self.rows.append([50, winner, self.round_no, capped, mask, 0, 0, 0])
        return self

    def close(self, reason: int, out: int = -1, **kw):
        """End the round and, after the last round, the game."""
        self.end(reason, out, **kw)
        if self.round_no >= self.rounds:
            self.game_end()
        return self

    def array(self) -> np.ndarray:
        return np.array(self.rows, dtype=np.int32)
