"""Tests of the Rummikub checker's table rules after a turn: rearranging the table (RKUB-MANIP-1,
RKUB-COMB-3, RKUB-TURN-1), the joker lock (RKUB-JOKER-2, T-34) and joker retrieval
(RKUB-JOKER-3, VKUB-JOKERBOTH, AMB-43, T-33), with the trace spec's ``from`` pairing.

In most tests P0 lays the table under test as its initial meld (with b13 first, it plays first),
P1 melds k11 k12 k13, P0 draws, and P1 then plays the move under test (``setup``).
"""

from __future__ import annotations

import pytest

from tests.scenarios_rkub import F, bad, capped, mutate, ok, rows_of, t33_table, t34_table
from tests.tracebuild_rkub import BK

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def setup(p0_melds: tuple[str, ...], p1_rack: str, flags: dict | None = None) -> BK:
    """P0 melds ``p0_melds``; P1 (holding ``p1_rack`` too) melds k11 k12 k13; P0 draws."""
    p0 = " ".join(t.lstrip("+^").partition("=")[0] for m in p0_melds for t in m.split()
                  if t not in ("G:", "R:"))
    b = BK(2, flags).deal({0: "b13 " + p0, 1: "o12 k11 k12 k13 " + p1_rack})
    return b.meld(0, *p0_melds).meld(1, "k11 k12 k13").draw()


def done(b: BK, flags: dict | None = None) -> tuple[BK, dict]:
    """End on the turn cap right after the last turn written."""
    return capped(b), F(turns=b.turns, **(flags or {}))


def accepted(b: BK, flags: dict | None = None) -> None:
    ok(*done(b, flags))


def refused(b: BK, rule: str, flags: dict | None = None, first: bool = True) -> None:
    trace, f = done(b, flags)
    bad(trace, rule, f, first)


def table_rows(b: BK) -> list[int]:
    """Row indexes of the last TABLE block's COMBO records."""
    start = rows_of(b, 130)[-1]
    return [i for i in rows_of(b, 131) if i > start]


# ============================================================================================
# RKUB-MANIP-1: rearranging unlocked combinations
# ============================================================================================


def rearranged(*specs: str) -> BK:
    """P0 (b11 b12 b13) and P1 (k10 k11 k12 k13) have melded; P0, holding b10 r13 o13, leaves
    the table ``specs``."""
    b = BK(2).deal({0: "b13 b11 b12 b10 r13 o13", 1: "k12 k10 k11 k13"})
    b.meld(0, "b11 b12 b13").meld(1, "k10 k11 k12 k13")
    return b.play(0, *specs)


def test_RKUB_MANIP_1_split_join_and_move_table_tiles():
    """b13 and k13 leave their runs for a new group with rack tiles r13 o13."""
    accepted(rearranged("b10 b11 b12", "k10 k11 k12", "b13 k13 r13 o13"))


def test_RKUB_MANIP_1_no_table_tile_goes_to_a_rack():
    refused(rearranged("b10 b11 b12", "k10 k11 k12", "k13 r13 o13"), "RKUB-MANIP-1")


def test_RKUB_COMB_1_2_every_combination_valid_at_the_end_of_the_turn():
    refused(rearranged("b10 b11 b12 b13", "k10 k11", "k12 k13 r13 o13"), "RKUB-COMB-2")
    b, f = done(rearranged("b10 b11 b12", "k10 k11 k12", "G: b13 k13 r13 o13 ^k13"))
    bad(b, "RKUB-COMB-3", f)  # a second k13 marked as a table tile
    b, f = done(rearranged("b10 b11 b12", "k10 k11 k12", "b13 k13 r13 +k13"))
    bad(b, "C-CARD-CONSERVATION", f)  # a k13 the rack does not hold


def test_RKUB_TURN_1_a_play_turn_plays_a_rack_tile():
    """Rearranging without a rack tile is not a turn (n_rack_tiles 0)."""
    b, f = done(rearranged("b11 b12 b13", "k10 k11 k12 k13"))
    bad(b, "RKUB-TURN-1", f)
    b, f = done(rearranged("b10 b11 b12 b13", "k10 k11 k12 k13"))
    ok(b, f)
    bad(mutate(b, rows_of(b, 130)[-1], 3, 2), "TRACE-FORMAT", f)  # n_rack_tiles says 2


def test_the_table_is_the_last_TABLE_block():
    """After a TABLE the next turn's old table is its combinations, in its order."""
    b = rearranged("b13 k13 r13 o13", "k10 k11 k12", "b10 b11 b12")
    b.draw(1)
    b.play(0, "b10 b11 b12", "k10 k11 k12", "b13 k13 r13 o13")  # no rack tile: a new order only
    refused(b, "RKUB-TURN-1")


# ============================================================================================
# T-33 joker retrieval: RKUB-JOKER-3, VKUB-JOKERBOTH, AMB-43
# ============================================================================================


def test_T33_replacing_a_group_joker_with_either_missing_colour():
    for colour in ("o3", "b3"):
        for run in ("k8 k9 J*", "J*=k7 k8 k9"):  # the joker as k10 or k7
            b = t33_table()
            b.play(1, "r10 r11 r12", f"r3 k3 {colour}", "k11 k12 k13", run)
            accepted(b)


def test_T33_the_freed_joker_never_goes_to_a_rack():
    b = t33_table()
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13")
    refused(b, "RKUB-JOKER-3")


def test_T33_VKUB_JOKERBOTH_both_missing_colours():
    f = {"rkub_group_joker_release": "both_colours"}
    b = t33_table(f)
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13", "k8 k9 J*")
    refused(b, "VKUB-JOKERBOTH", f)
    b = t33_table(f)
    b.play(1, "r10 r11 r12", "r3 k3 o3 b3", "k11 k12 k13", "k8 k9 J*")
    accepted(b, f)
    # adding one colour without freeing the joker is an addition, legal under both flags
    for flags in ({}, f):
        b = t33_table(flags)
        b.play(1, "r10 r11 r12", "r3 k3 o3 J*=b3", "k11 k12 k13")
        accepted(b, flags)


def test_AMB_43_the_freed_joker_may_join_an_existing_combination():
    b = t33_table()
    b.play(1, "r10 r11 r12 J*", "r3 k3 o3", "k11 k12 k13")
    accepted(b)
    b = t33_table()
    b.play(1, "r10 r11 r12", "r3 k3 o3", "J* k11 k12 k13")
    accepted(b)


def test_RKUB_JOKER_3_freeing_needs_a_rack_tile():
    """The joker leaves the group but no tile replaces it."""
    b = setup(("r10 r11 r12", "r3 k3 o3 J*"), "k8 k9")
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13", "k8 k9 J*", frm={1: 1})
    refused(b, "RKUB-JOKER-3")


def test_RKUB_JOKER_3_a_run_joker_is_freed_only_by_its_tile_from_the_rack():
    """b5 b6 J*(b7) b8: b7 from the rack frees the joker; the table's b7 does not."""
    b = BK(2).deal({0: "b13 o10 o11 o12 b5 b6 J* b8", 1: "o9 k11 k12 k13 b7 b9"})
    b.meld(0, "b5 b6 J* b8", "o10 o11 o12").meld(1, "k11 k12 k13").draw()
    b.play(1, "b5 b6 b7 b8", "o10 o11 o12 J*", "k11 k12 k13")
    accepted(b)
    b = BK(2).deal({0: "b13 o10 o11 o12 b5 b6 J* b8 b7 b8 b9", 1: "o9 k11 k12 k13 b10"})
    b.meld(0, "b5 b6 J* b8", "o10 o11 o12", "b7 b8 b9").meld(1, "k11 k12 k13").draw()
    b.play(1, "b5 b6 ^b7 b8", "o10 o11 o12 J*", "k11 k12 k13", "b8 b9 +b10", frm={0: 0})
    refused(b, "RKUB-JOKER-3")


def test_freeing_a_joker_and_putting_it_back_on_the_same_run():
    """b5 b6 J*(b7) b8 -> b5 b6 b7 b8 J*(b9): the joker, freed by b7, extends its own run."""
    b = BK(2).deal({0: "b13 o10 o11 o12 b5 b6 J* b8", 1: "o9 k11 k12 k13 b7"})
    b.meld(0, "b5 b6 J* b8", "o10 o11 o12").meld(1, "k11 k12 k13").draw()
    b.play(1, "b5 b6 b7 b8 J*", "o10 o11 o12", "k11 k12 k13")
    accepted(b)


def test_joker_retrieval_on_the_initial_meld_turn_AMB_39():
    """P1 lays k11 k12 k13 as its initial meld and, in the same turn, frees the joker of
    P0's r3 k3 J* with o3 and plays it on its new run."""
    def game(flags=None):
        b = BK(2, flags).deal({0: "b13 r10 r11 r12 r3 k3 J*", 1: "o12 k11 k12 k13 o3"})
        b.meld(0, "r10 r11 r12", "r3 k3 J*")
        seat = b.turn(1)
        b.initial(seat, "k11 k12 k13")
        return b.table_block(seat, "r10 r11 r12", "r3 k3 o3", "J* k11 k12 k13")
    accepted(game())
    f = {"rkub_manipulate_on_initial_turn": False}
    refused(game(f), "RKUB-INIT-2", f)


def test_two_jokers_in_a_group():
    """r3 J* J*: one rack tile frees one joker (one_tile); both_colours needs four naturals."""
    b = setup(("r10 r11 r12", "r3 J*=k3 J*=o3"), "k3 o3 b3 k8 k9")
    b.play(1, "r10 r11 r12", "r3 k3 J*=o3", "k11 k12 k13", "k8 k9 J*")
    accepted(b)
    f = {"rkub_group_joker_release": "both_colours"}
    b = setup(("r10 r11 r12", "r3 J*=k3 J*=o3"), "k3 o3 b3 k8 k9", f)
    b.play(1, "r10 r11 r12", "r3 k3 J*=o3", "k11 k12 k13", "k8 k9 J*")
    refused(b, "VKUB-JOKERBOTH", f)
    b = setup(("r10 r11 r12", "r3 J*=k3 J*=o3"), "k3 o3 b3 k8 k9", f)
    b.play(1, "r10 r11 r12", "r3 k3 o3 b3", "k11 k12 k13", "k8 k9 J* J*")
    accepted(b, f)


def test_VKUB_JOKERBOTH_a_four_tile_group_frees_its_joker_with_one_tile():
    f = {"rkub_group_joker_release": "both_colours"}
    b = setup(("r10 r11 r12", "r3 k3 o3 J*"), "b3 k8 k9", f)
    b.play(1, "r10 r11 r12", "r3 k3 o3 b3", "k11 k12 k13", "k8 k9 J*")
    accepted(b, f)


# ============================================================================================
# T-34 joker combinations are locked: RKUB-JOKER-2
# ============================================================================================


def test_T34_a_locked_run_may_be_extended():
    b = t34_table()
    b.play(1, "b5 b6 J* b8 b9", "o10 o11 o12", "k11 k12 k13")
    accepted(b)
    b = t34_table()  # with another combination extended in the same turn
    b.play(1, "b5 b6 J* b8 b9", "o9 o10 o11 o12", "k11 k12 k13")
    accepted(b)


def test_T34_no_tile_may_be_taken_out_of_a_locked_run():
    b = t34_table()
    b.play(1, "b6 J* b8", "o10 o11 o12", "k11 k12 k13", "b5 r5 k5", frm={0: 0})
    refused(b, "RKUB-JOKER-2")
    b = t34_table()  # the same, without naming the continuation: it has none
    b.play(1, "b6 J* b8", "o10 o11 o12", "k11 k12 k13", "b5 r5 k5")
    refused(b, "RKUB-JOKER-2")


def test_T34_the_same_move_on_a_run_without_a_joker_is_legal():
    b = t34_table(joker=False)
    b.play(1, "b6 b7 b8", "o10 o11 o12", "k11 k12 k13", "b5 r5 k5")
    accepted(b)


def test_RKUB_JOKER_2_a_locked_combination_is_not_split_or_merged():
    b = t34_table()  # split: two continuations
    b.play(1, "b5 b6 J* b8 b9", "o10 o11 o12", "k11 k12 k13", frm={0: 0, 1: 0})
    refused(b, "RKUB-JOKER-2")
    # merged: table tiles move into the locked run
    b = BK(2).deal({0: "b13 o10 o11 o12 b5 b6 J* b8 b9 b10 b11", 1: "o9 k11 k12 k13 b12"})
    b.meld(0, "b5 b6 J* b8", "o10 o11 o12", "b9 b10 b11").meld(1, "k11 k12 k13").draw()
    b.play(1, "b5 b6 J* b8 b9 b10 b11 b12", "o10 o11 o12", "k11 k12 k13")
    refused(b, "RKUB-JOKER-2")
    # another kind: the run continues as a "group" (also an invalid combination)
    b = t34_table()
    b.play(1, "b5 b6 J* b8 b9", "o10 o11 o12", "k11 k12 k13")
    b, f = done(b)
    bad(mutate(b, table_rows(b)[0], 2, 0), "RKUB-JOKER-2", f, first=False)


def test_the_initial_meld_is_locked_for_the_rest_of_its_turn():
    """P1 lays r9 r10 J* (30) and, in the same turn, moves r9 out of it into r9 b9 o9 (the run
    going on as r10 J* r12); extending it with r12 alone is legal."""
    def game(*table):
        b = BK(2).deal({0: "b13 k3 r3 o3 b7 b8 b9", 1: "k12 r9 r10 J* b9 o9 r12"})
        b.meld(0, "k3 r3 o3", "b7 b8 b9")
        seat = b.turn(1)
        b.initial(seat, "r9 r10 J*")
        return b.table_block(seat, "k3 r3 o3", "b7 b8 b9", *table, frm={2: 2})
    refused(game("r10 J* +r12", "r9 +b9 +o9"), "RKUB-JOKER-2")
    accepted(game("r9 r10 J* +r12"))


def test_from_column_pairs_only_locked_combinations():
    b = t34_table()
    b.play(1, "b5 b6 J* b8 b9", "o10 o11 o12", "k11 k12 k13")
    b2, f = done(b)
    combos = table_rows(b2)
    bad(mutate(b2, combos[1], 6, 1), "TRACE-FORMAT", f)  # o10 o11 o12 has no joker
    bad(mutate(b2, combos[1], 6, 9), "TRACE-FORMAT", f)  # no combination 9
    bad(mutate(b2, combos[0], 6, -1), "RKUB-JOKER-2", f)  # the locked run lost its pairing


def test_an_unchanged_locked_combination_keeps_its_from():
    b = BK(2).deal({0: "b13 r9 r10 J* b11 b12 o5 o6 o7", 1: "k12 k11 k13"})
    b.meld(0, "r9 r10 J*", "b11 b12 b13").meld(1, "k11 k12 k13").add(0, "o5 o6 o7")
    b, f = done(b)
    ok(b, f)
    locked = table_rows(b)[0]
    assert b.array()[locked, 6] == 0
    bad(mutate(b, locked, 6, -1), "RKUB-JOKER-2", f)


# ============================================================================================
# Block layout (docs/trace-format.md "Records")
# ============================================================================================


@pytest.mark.parametrize("what,col,val", [
    ("combo", 1, 5),  # COMBO index out of order
    ("combo", 2, 3),  # kind 3: neither group nor run
    ("tile", 1, 0),  # a TILE of another combination
    ("tile", 2, 14),  # not a tile id
    ("tile", 4, 2),  # from_rack 2
    ("tile", 3, 17),  # a natural tile standing for another tile
])
def test_combination_block_layout(what, col, val):
    b = t34_table()
    b.play(1, "b5 b6 J* b8 b9", "o10 o11 o12", "k11 k12 k13")
    b, f = done(b)
    combos = table_rows(b)
    row = combos[1] + (1 if what == "tile" else 0)  # o10 o11 o12, or its first tile
    bad(mutate(b, row, col, val), "TRACE-FORMAT", f)


def test_group_lo_is_0_and_a_block_is_complete():
    b = t33_table()
    b.play(1, "r10 r11 r12", "r3 k3 o3", "k11 k12 k13", "k8 k9 J*")
    b, f = done(b)
    group = table_rows(b)[1]
    bad(mutate(b, group, 4, 3), "TRACE-FORMAT", f)
    bad(mutate(b, rows_of(b, 130)[-1], 2, 5), "TRACE-FORMAT", f)  # 5 combinations announced
    bad(mutate(b, group, 5, 4), "TRACE-FORMAT", f)  # 4 tiles announced, 3 given
