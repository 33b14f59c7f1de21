"""Rummikub plays: reading an INITIAL, TABLE or ATTEMPT block (its COMBO and TILE records) and
checking it: the initial meld (RKUB-INIT-30, AMB-38), the whole table after a play (the trace
spec's TABLE rules 1-6, in ``table.py``), the manipulation rules on the initial-meld turn
(RKUB-INIT-2, AMB-39), going out (RKUB-END-1), and whether an ATTEMPT is really invalid
(RKUB-TIME-1)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rummysim.validate.rummikub.phases import (
    P_AFTER_ATTEMPT,
    P_AFTER_INITIAL,
    P_BLOCK,
    P_BODY,
    P_OUT,
    T_PLAY,
)
from rummysim.validate.rummikub.table import (
    initial_value_problem,
    kept_problems,
    legal_as_initial_turn,
    origin_problems,
    rack_tiles,
    table_problems,
    validity_problems,
)
from rummysim.validate.rummikub.tiles import (
    JOKER,
    PACK_SIZE,
    VALID_TILE,
    Combo,
    Placed,
    Problem,
    tile_name,
)
from rummysim.validate.trace import COMBO_GROUP, COMBO_RUN, INITIAL, RECORD_NAMES, TABLE, Replayer


@dataclass
class Block:
    """An INITIAL, TABLE or ATTEMPT block being read."""

    kind: int
    record: int  # row index of its header record
    n_combos: int
    declared: tuple[int, ...]  # INITIAL: (value, n_tiles); TABLE / ATTEMPT: (n_rack_tiles,)
    combos: list[Combo] = field(default_factory=list)

    def complete(self) -> bool:
        return len(self.combos) == self.n_combos and (
            not self.combos or len(self.combos[-1].tiles) == self.combos[-1].n_tiles)


class PlayChecks(Replayer):
    """The INITIAL, TABLE and ATTEMPT blocks of a Rummikub turn."""

    # ---- reading a block ------------------------------------------------------------------

    def _block_start(self, row: list[int]) -> None:
        kind = row[0]
        allowed = (P_AFTER_INITIAL,) if kind == TABLE else ()
        if self.phase not in (P_BODY, *allowed):
            self._unexpected(row)
        self._check_seat(row[1], RECORD_NAMES[kind])
        n_combos = row[2]
        if not 0 <= n_combos <= PACK_SIZE:
            self.fail("TRACE-FORMAT", f"{RECORD_NAMES[kind]} with {n_combos} combinations")
        declared = (row[3], row[4]) if kind == INITIAL else (row[3],)
        self.block = Block(kind, self.i, n_combos, declared)
        self.phase = P_BLOCK
        if n_combos == 0:
            self._finish_block()

    def _combo(self, row: list[int]) -> None:
        b = self.block
        if self.phase != P_BLOCK or len(b.combos) == b.n_combos or (
                b.combos and len(b.combos[-1].tiles) < b.combos[-1].n_tiles):
            self._unexpected(row)
        index, kind, key, lo, n_tiles, origin = row[1:7]
        if index != len(b.combos):
            self.fail("TRACE-FORMAT", f"COMBO index {index}, expected {len(b.combos)}")
        if kind not in (COMBO_GROUP, COMBO_RUN):
            self.fail("TRACE-FORMAT", f"COMBO kind {kind} (0 group, 1 run)")
        if not 0 <= n_tiles <= PACK_SIZE:
            self.fail("TRACE-FORMAT", f"COMBO with {n_tiles} tiles")
        if kind == COMBO_GROUP and lo != 0:
            self.flag("TRACE-FORMAT", f"COMBO {index}: a group's lo is 0, not {lo}")
        b.combos.append(Combo(kind, key, lo if kind == COMBO_RUN else 0, n_tiles, origin))
        if b.complete():
            self._finish_block()

    def _tile(self, row: list[int]) -> None:
        b = self.block
        if self.phase != P_BLOCK or not b.combos or len(b.combos[-1].tiles) == b.combos[-1].n_tiles:
            self._unexpected(row)
        index, tile, designation, from_rack = row[1:5]
        c = b.combos[-1]
        if index != len(b.combos) - 1:
            self.fail("TRACE-FORMAT", f"TILE of combination {index} inside combination "
                                      f"{len(b.combos) - 1}")
        if tile not in VALID_TILE:
            self.fail("TRACE-FORMAT", f"invalid tile id {tile}")
        if from_rack not in (0, 1):
            self.fail("TRACE-FORMAT", f"TILE from_rack {from_rack} (0 or 1)")
        if tile != JOKER and designation != tile:
            self.flag("TRACE-FORMAT", f"natural tile {tile_name(tile)} with designation "
                                      f"{tile_name(designation)} (a natural tile stands for "
                                      "itself)")
        c.tiles.append(Placed(tile, designation, from_rack))
        if b.complete():
            self._finish_block()

    def _finish_block(self) -> None:
        b = self.block
        self.block = None
        at = self.i
        self.i = b.record  # report the block's problems at its header record
        if b.kind == INITIAL:
            self._finish_initial(b)
        elif b.kind == TABLE:
            self._finish_table(b)
        else:
            self._finish_attempt(b)
        self.i = at

    def _flag_all(self, problems: list[Problem]) -> None:
        """Flag each problem, naming the seat and turn whose block it is in."""
        for p in problems:
            self.flag(p.rule, f"seat {self.cur}, turn {self.turns - 1}: {p.message}")

    def _check_rack_count(self, b: Block, combos: list[Combo]) -> None:
        counted = sum(rack_tiles(combos).values())
        if b.declared[0] != counted:
            self.flag("TRACE-FORMAT", f"{RECORD_NAMES[b.kind]} n_rack_tiles {b.declared[0]}, "
                                      f"{counted} tiles marked from_rack 1")

    # ---- the initial meld -----------------------------------------------------------------

    def _finish_initial(self, b: Block) -> None:
        """RKUB-INIT-30 (AMB-38): new valid combinations of rack tiles alone, worth 30."""
        seat = self.cur
        combos = b.combos
        if self.initial_done[seat]:
            self.flag("TRACE-FORMAT", f"a second INITIAL block for seat {seat}, which made its "
                                      "initial meld on an earlier turn")
        for i, c in enumerate(combos):
            if c.origin != -1:
                self.flag("RKUB-INIT-30", f"initial meld combination {i} continues combination "
                                          f"{c.origin}: the initial meld lays new combinations")
            if any(not p.from_rack for p in c.tiles):
                self.fail("RKUB-INIT-30", f"initial meld combination {i} ({c.describe()}) uses "
                                          "a table tile: the initial meld is laid from the rack "
                                          "alone")
        self._flag_all(validity_problems(combos, self.cfg.table))
        value = sum(c.value() for c in combos)
        n_tiles = sum(len(c.tiles) for c in combos)
        if b.declared != (value, n_tiles):
            self.flag("TRACE-FORMAT", f"INITIAL value {b.declared[0]} and n_tiles "
                                      f"{b.declared[1]}; its combinations hold {n_tiles} tiles "
                                      f"worth {value}")
        problem = initial_value_problem(combos, self.cfg.table.initial_rule)
        if problem is not None:
            self._flag_all([problem])
        self._take_from_rack(rack_tiles(combos), "INITIAL")
        self.turn_table = self.turn_table + combos
        self.table = self.turn_table  # the initial meld is on the table until the TABLE block
        self.initial_turn = True
        self.phase = P_AFTER_INITIAL

    def _take_from_rack(self, tiles: Counter[int], what: str) -> None:
        rack = self.racks[self.cur]
        for t, k in sorted(tiles.items()):
            if rack[t] < k:
                self.fail("C-CARD-CONSERVATION", f"{what} plays {k} {tile_name(t)} from seat "
                                                 f"{self.cur}'s rack, which holds {rack[t]}")
        rack.subtract(tiles)
        for t in [t for t, k in rack.items() if k == 0]:
            del rack[t]

    # ---- the table after a play -----------------------------------------------------------

    def _finish_table(self, b: Block) -> None:
        """The trace spec's TABLE rules 1-6 against the turn's old table."""
        seat = self.cur
        new = b.combos
        old = self.turn_table
        if not self.initial_turn and not self.initial_done[seat]:
            self.flag("RKUB-INIT-30", f"seat {seat} changes the table before its initial meld "
                                      "(a play turn without an INITIAL block)")
        self._check_rack_count(b, new)
        self._flag_all(origin_problems(old, new))
        kept = kept_problems(old, new, self.racks[seat])
        if kept:
            self._flag_all(kept[:-1])
            self.fail(kept[-1].rule, f"seat {seat}, turn {self.turns - 1}: {kept[-1].message}")
        self._flag_all(table_problems(old, new, self.cfg.table, self.initial_turn))
        self._take_from_rack(rack_tiles(new), "TABLE")
        self.table = new
        if self.initial_turn:
            self.initial_done[seat] = True
        self.passes = 0
        self.pass_records = 0
        self.turn_kind = T_PLAY
        if sum(self.racks[seat].values()) == 0:
            self.out_seat = seat  # RKUB-END-1
            self.phase = P_OUT
        else:
            self._end_turn()

    # ---- an invalid table tried (penalty_draw3) -------------------------------------------

    def _finish_attempt(self, b: Block) -> None:
        """RKUB-TIME-1: an ATTEMPT keeps every table tile but breaks a table rule; a legal table
        must not be undone."""
        seat = self.cur
        new = b.combos
        old = self.table
        if self.cfg.invalid_turn != "penalty_draw3":
            self.flag("RKUB-TIME-1", "ATTEMPT with rkub_invalid_turn = reject: invalid final "
                                     "tables are refused, not undone")
        self._check_rack_count(b, new)
        self._flag_all(origin_problems(old, new))
        kept = kept_problems(old, new, self.racks[seat])
        self._flag_all(kept)
        if not kept and self._legal_attempt(old, new):
            self.flag("RKUB-TIME-1", f"seat {seat}'s ATTEMPT is a legal table; only an invalid "
                                     "one is undone with the penalty")
        self.phase = P_AFTER_ATTEMPT

    def _legal_attempt(self, old: list[Combo], new: list[Combo]) -> bool:
        rules = self.cfg.table
        if self.initial_done[self.cur]:
            return not table_problems(old, new, rules, initial_turn=False)
        return legal_as_initial_turn(old, new, rules)
