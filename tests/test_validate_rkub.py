"""Tests of the independent Rummikub checker (rummysim.validate.rummikub): dispatch and flags, the
deal and the first player, the turn order, draws, single combinations and the initial meld
(RULES.md T-32).

Every trace is hand made with ``tests/tracebuild_rkub.BK`` from readable tile strings.  For each
rule there is a legal trace (no violation) and illegal variants flagged with the expected rule ID
(normally the first violation).  Table manipulation and jokers (T-33, T-34) are in
``tests/test_validate_rkub_table.py``; passes, penalties, scores and game end (T-35, T-36) in
``tests/test_validate_rkub_end.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummysim.validate.rummikub
from rummysim.rules import Rules
from rummysim.validate import validate_trace
from rummysim.validate.rummikub.tiles import Combo, Placed, combo_problems, tile_name
from tests.scenarios_rkub import (
    F,
    bad,
    capped,
    delete,
    insert,
    mutate,
    ok,
    opened,
    rows_of,
    t32_first,
    t32_then_table,
)
from tests.tracebuild_rkub import BK, GAME, parse_combo, tid

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def short(flags: dict | None = None) -> BK:
    """2 players: P0 melds b11 b12 b13, P1 melds k11 k12 k13, P0 draws; turn cap 3."""
    return capped(opened(flags).draw())


# ============================================================================================
# Dispatch and flags
# ============================================================================================


def test_short_game_accepted_with_and_without_flags():
    b = short()
    ok(b, F(turns=3))
    # no game flag: the GAME_START game code 3 picks the Rummikub checker
    res = validate_trace(b.array(), {"max_turns_per_hand": 3})
    assert res.violations == [] and res.games == 1 and res.actions_checked > 20
    assert (rummysim.validate.rummikub.validate_trace(b.array(), F(turns=3))
            == validate_trace(b.array(), F(turns=3)))


def test_flags_from_Rules_as_dict_are_accepted():
    flags = Rules(game="rummikub").as_dict()
    flags["max_turns_per_hand"] = 3
    ok(short(), flags)


@pytest.mark.parametrize("flag,value", [
    ("rkub_direction", "left"), ("rkub_max_jokers_per_combo", 3), ("rkub_joker_penalty", 101),
    ("rkub_rounds", 0), ("rkub_initial_rule", "each"), ("rkub_invalid_turn", "warn"),
    ("r500_target", 1000), ("r5k_rummy", "top_card"), ("std_game_hands", 3), ("no_such_flag", 1),
    ("game", "500-rum-ish"),
])
def test_flags_not_checked_raise(flag, value):
    with pytest.raises(ValueError, match=flag):
        rummysim.validate.rummikub.validate_trace(short().array(), {**GAME, flag: value})


def test_other_games_flags_at_their_defaults_are_accepted():
    ok(short(), F(turns=3, r500_target=500, r5k_target="auto", std_game_hands=5,
                  rkub_manipulate_on_initial_turn="true", rkub_rounds="1"))


def test_game_code_must_be_3():
    bad(mutate(short(), 0, 5, 2), "TRACE-FORMAT", F(turns=3))


def test_other_games_records_are_not_rummikub_records():
    b = short()
    i = rows_of(b, 5)[2]
    bad(insert(b, i + 1, [30, 0, 5, 0, 0, 0, 0, 0]), "TRACE-FORMAT", F(turns=3))  # DISCARD


def test_unused_columns_must_be_zero():
    b = short()
    bad(mutate(b, rows_of(b, 10)[0], 4, 1), "TRACE-FORMAT", F(turns=3))
    bad(mutate(b, rows_of(b, 41)[0], 4, 7), "TRACE-FORMAT", F(turns=3))  # SCORE column 4


def test_concatenated_games_and_bad_arrays():
    a = short().array()
    res = validate_trace(np.concatenate([a, a]), F(turns=3))
    assert res.violations == [] and res.games == 2
    for broken in (a[:, :7], a.astype(float), a[:0]):
        res = validate_trace(broken, F(turns=3))
        assert [v.rule_id for v in res.violations] == ["TRACE-FORMAT"]
    bad(a[:-1], "TRACE-FORMAT", F(turns=3))  # ends before GAME_END


def test_a_fatal_violation_skips_to_the_next_game():
    a = short().array()
    broken = mutate(a, rows_of(a, 10)[0], 2, tid("k1"))  # a draw of the wrong tile
    res = validate_trace(np.concatenate([broken, a]), F(turns=3))
    assert [v.rule_id for v in res.violations] == ["C-CARD-CONSERVATION"] and res.games == 2


# ============================================================================================
# Tiles and single combinations: RKUB-SET-1, RKUB-COMB-1/2, RKUB-JOKER-1, VKUB-TWOJOKERS
# ============================================================================================


def test_tile_ids_and_names():
    assert [tile_name(t) for t in (1, 13, 26, 35, 61, 64)] == ["k1", "k13", "r10", "o3", "b13",
                                                               "J*"]
    assert tile_name(0) == "?0" and tile_name(14) == "?14"


def combo(spec: str) -> Combo:
    c = parse_combo(spec)
    return Combo(c["kind"], c["key"], c["lo"], len(c["tiles"]), -1,
                 [Placed(t, d, 1) for t, d, _ in c["tiles"]])


@pytest.mark.parametrize("spec", [
    "k3 r3 o3", "k3 r3 o3 b3", "r3 k3 J*", "r3 J*=k3 J*=b3", "J*=k3 r3 J*=b3 o3",
    "r10 r11 r12", "r9 r10 J*", "J* J* k3", "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13",
    "J* k12 k13", "k11 k12 J*",
])
def test_valid_combinations(spec):
    assert combo_problems(combo(spec), 2) == []


@pytest.mark.parametrize("spec,rule", [
    ("k3 r3", "RKUB-COMB-1"),  # 2 tiles
    ("k3 r3 o3 b3 J*=k3", "RKUB-COMB-1"),  # 5 tiles
    ("k3 r3 k3", "RKUB-COMB-1"),  # a colour twice (two decks: AMB-08)
    ("G: k3 r3 o4", "RKUB-COMB-1"),  # two numbers
    ("k3 r3 J*=k3", "RKUB-JOKER-1"),  # a joker standing for a colour present
    ("k3 J*=o3 J*=o3", "RKUB-JOKER-1"),  # two jokers for one tile
    ("k3 r3 J*=o4", "RKUB-JOKER-1"),  # a joker for another number
    ("r10 r11", "RKUB-COMB-2"),  # 2 tiles
    ("r10 r11 r13", "RKUB-COMB-2"),  # a gap
    ("R: r10 k11 r12", "RKUB-COMB-2"),  # two colours
    ("r12 r13 J*", "RKUB-COMB-2"),  # past 13
    ("J* r1 r2", "RKUB-COMB-2"),  # below 1
    ("r9 r10 J*=r12", "RKUB-JOKER-1"),  # a joker for the wrong position
    ("r9 r10 J*=k11", "RKUB-JOKER-1"),  # a joker in another colour
])
def test_invalid_combinations(spec, rule):
    assert rule in [p.rule for p in combo_problems(combo(spec), 2)]


def test_RKUB_COMB_2_no_wrap():
    """AMB-44: 1 is always low, 13 always high."""
    c = Combo(1, 1, 12, 3, -1, [Placed(tid(t), tid(t), 1) for t in ("r12", "r13", "r1")])
    assert [p.rule for p in combo_problems(c, 2)] == ["RKUB-COMB-2", "RKUB-COMB-2"]


def test_VKUB_TWOJOKERS_one_joker_per_combination():
    assert combo_problems(combo("J* J* k3"), 2) == []
    assert [p.rule for p in combo_problems(combo("J* J* k3"), 1)] == ["VKUB-TWOJOKERS"]
    assert combo_problems(combo("r3 k3 J*"), 1) == []


def test_VKUB_TWOJOKERS_in_a_trace():
    b = t32_first(("r9 J* J*", "b10 b11 b12"), "r9 b10 b11 b12 J* J*")
    ok(capped(b), F(turns=2))
    bad(capped(t32_first(("r9 J* J*", "b10 b11 b12"), "r9 b10 b11 b12 J* J*")),
        "VKUB-TWOJOKERS", F(turns=2, rkub_max_jokers_per_combo=1))


# ============================================================================================
# Deal: RKUB-SET-1/2, RKUB-SETUP-1/2 (AMB-41)
# ============================================================================================


def test_RKUB_SET_2_two_to_four_players():
    for n in (2, 3, 4):
        b = BK(n).deal({0: "J*"})
        for _ in range(n):
            b.draw()
        ok(capped(b), F(turns=n))
    bad(mutate(short(), 0, 1, 5), "RKUB-SET-2", F(turns=3))


def test_RKUB_SET_1_pack_is_106_tiles():
    b = short()
    deck = rows_of(b, 3)[0]
    bad(mutate(b, deck, 2, tid("k5")), "RKUB-SET-1", F(turns=3))  # a third k5
    bad(mutate(b, rows_of(b, 2)[0], 3, 104), "RKUB-SET-1", F(turns=3))
    bad(mutate(b, deck, 2, 14), "TRACE-FORMAT", F(turns=3))  # not a tile id


def test_RKUB_SETUP_2_racks_are_14_tiles():
    b = short()
    bad(mutate(b, rows_of(b, 2)[0], 4, 13), "RKUB-SETUP-2", F(turns=3))
    # P0's racks are pool positions 0 and 2..14: its meld of b11 b12 b13 fails if b11 moves
    a = b.array().copy()
    deck = rows_of(b, 3)
    flat = [t for i in deck for t in a[i, 2:8]]
    j, k = flat.index(tid("b11")), 50  # swap b11 into the pool
    flat[j], flat[k] = flat[k], flat[j]
    for n, i in enumerate(deck):
        a[i, 2:8] = (flat[6 * n:6 * n + 6] + [-1] * 6)[:6]
    bad(a, "C-CARD-CONSERVATION", F(turns=3))


def test_RKUB_SETUP_1_first_tiles_and_first_player():
    b = short()
    first = rows_of(b, 128)
    bad(mutate(b, first[1], 2, tid("k5")), "RKUB-SETUP-1", F(turns=3))  # not pool position 1
    bad(mutate(b, first[0], 1, 1), "TRACE-FORMAT", F(turns=3))  # seat order
    bad(delete(b, first[1]), "TRACE-FORMAT", F(turns=3))
    # HAND_START names P1, whose k12 is lower than P0's b13
    bad(mutate(b, rows_of(b, 2)[0], 5, 1), "RKUB-SETUP-1", F(turns=3))


def test_AMB_41_joker_ranks_above_13_and_ties_pick_either():
    b = BK(3).deal({0: "b13", 1: "J*", 2: "k13"})
    assert b.first == 1
    ok(capped(b.draw().draw().draw()), F(turns=3))
    for first in (0, 2):  # b13 and k13 tie: either may start
        b = BK(3).deal({0: "b13", 1: "r2", 2: "k13"}, first=first)
        ok(capped(b.draw().draw().draw()), F(turns=3))
    b = BK(3).deal({0: "b13", 1: "r2", 2: "k13"}, first=0)
    bad(mutate(b.draw().draw().draw().close(4), rows_of(b, 2)[0], 5, 1), "RKUB-SETUP-1",
        F(turns=3))


def test_HAND_START_and_GAME_START_columns():
    b = short()
    bad(mutate(b, 0, 2, 0), "TRACE-FORMAT", F(turns=3))  # no dealer: -1
    bad(mutate(b, rows_of(b, 2)[0], 2, 0), "TRACE-FORMAT", F(turns=3))
    bad(mutate(b, rows_of(b, 2)[0], 1, 1), "TRACE-FORMAT", F(turns=3))  # round index


# ============================================================================================
# Turns: RKUB-DIR-1, VKUB-DIR, RKUB-TURN-1/2/3
# ============================================================================================


def test_RKUB_DIR_1_clockwise():
    b = BK(3).deal({0: "k1", 1: "b13", 2: "k2"})
    ok(capped(b.draw().draw().draw()), F(turns=3))
    assert [r[1] for r in b.rows if r[0] == 5] == [1, 2, 0]
    b = BK(3).deal({0: "k1", 1: "b13", 2: "k2"})
    bad(capped(b.draw(1).draw(0).draw(2)), "RKUB-DIR-1", F(turns=3))


def test_VKUB_DIR_counterclockwise():
    f = {"rkub_direction": "counterclockwise"}
    b = BK(3, f).deal({0: "k1", 1: "b13", 2: "k2"})
    ok(capped(b.draw().draw().draw()), F(turns=3, **f))
    assert [r[1] for r in b.rows if r[0] == 5] == [1, 0, 2]
    bad(b, "VKUB-DIR", F(turns=3))  # GAME_START says counterclockwise
    b = BK(3).deal({0: "k1", 1: "b13", 2: "k2"})
    bad(capped(b.draw().draw().draw()), "VKUB-DIR", F(turns=3, **f))


def test_first_turn_is_the_first_players():
    b = BK(2).deal({0: "k1", 1: "b13"})
    bad(capped(b.draw(0).draw(1)), "RKUB-SETUP-1", F(turns=2))


def test_TURN_START_columns():
    b = short()
    i = rows_of(b, 5)[2]
    bad(mutate(b, i, 2, 7), "TRACE-FORMAT", F(turns=3))  # turn_no
    bad(mutate(b, i, 3, 50), "TRACE-FORMAT", F(turns=3))  # pool size


def test_RKUB_TURN_1_a_draw_takes_the_next_pool_tile_and_ends_the_turn():
    b = opened(pool="r7 r8")
    b.draw()
    assert b.rack(0)[-1] == "r7"
    ok(capped(b), F(turns=3))
    a = b.array()
    i = rows_of(a, 10)[0]
    bad(mutate(a, i, 2, tid("r8")), "C-CARD-CONSERVATION", F(turns=3))
    bad(insert(a, i + 1, [10, 0, tid("r8"), 0, 0, 0, 0, 0]), "RKUB-TURN-1", F(turns=3))
    bad(mutate(a, i, 1, 1), "TRACE-FORMAT", F(turns=3))  # another seat's draw
    bad(delete(a, i), "RKUB-TURN-1", F(turns=3))  # a turn with nothing in it


def test_RKUB_TURN_2_drawing_is_allowed_when_a_play_is_possible():
    """AMB-40: P0 holds r1 r2 r3 (worth only 6, but a later play) and draws anyway; P1 could lay
    an initial meld and draws too."""
    b = BK(2).deal({0: "b13 b12 b11", 1: "k12 k11 k13"})
    ok(capped(b.draw().draw()), F(turns=2))


def test_RKUB_TURN_3_a_drawn_tile_is_not_played_that_turn():
    """P0 draws b13 and lays b11 b12 b13 in the same turn."""
    b = BK(2).deal({0: "b12 b11", 1: "k12"}, pool="b13")
    seat = b.turn(0)
    b.draw(seat, start=False)
    b.initial(seat, "b11 b12 b13")
    b.table_block(seat, "b11 b12 b13")
    bad(capped(b.draw()), "RKUB-TURN-3", F(turns=2))
    # the same play on the next turn is legal
    b = BK(2).deal({0: "b12 b11", 1: "k12"}, pool="b13")
    ok(capped(b.draw().draw().meld(0, "b11 b12 b13")), F(turns=3))


# ============================================================================================
# The initial meld: RKUB-INIT-30, RKUB-INIT-2, AMB-38, AMB-39 (T-32)
# ============================================================================================


@pytest.mark.parametrize("spec,rack", [
    (("r10 r11 r12",), "r10 r11 r12"),  # 33
    (("k3 r3 o3", "b7 b8 b9"), "k3 r3 o3 b7 b8 b9"),  # 9 + 24
    (("r9 r10 J*",), "r9 r10 J*"),  # the joker as r11: 30
])
def test_T32_legal_initial_melds(spec, rack):
    ok(capped(t32_first(spec, rack)), F(turns=2))


def test_T32_initial_meld_under_30_is_illegal():
    bad(capped(t32_first(("k3 r3 o3",), "k3 r3 o3")), "RKUB-INIT-30", F(turns=2))
    # a joker counts as the tile it stands for: r8 r9 J*(r10) is 27
    bad(capped(t32_first(("r8 r9 J*",), "r8 r9 J*")), "RKUB-INIT-30", F(turns=2))


def test_T32_AMB_38_single_combo():
    f = F(turns=2, rkub_initial_rule="single_combo")
    bad(capped(t32_first(("k3 r3 o3", "b7 b8 b9"), "k3 r3 o3 b7 b8 b9")), "RKUB-INIT-30", f)
    ok(capped(t32_first(("k3 r3 o3", "b9 b10 b11"), "k3 r3 o3 b9 b10 b11")), f)  # 30 alone


def test_T32_a_table_tile_does_not_count_toward_30():
    """P1 lays r9 + P0's r10 r11 r12 + r13 as its 'initial meld'."""
    b = BK(2).deal({0: "b13 r10 r11 r12", 1: "k12 r9 r13"})
    b.meld(0, "r10 r11 r12")
    seat = b.turn(1)
    b.initial(seat, "r9 ^r10 ^r11 ^r12 r13")
    b.table_block(seat, "r9 r10 r11 r12 r13")
    bad(capped(b), "RKUB-INIT-30", F(turns=2))


def test_T32_manipulating_in_the_initial_turn_AMB_39():
    ok(capped(t32_then_table()), F(turns=2))
    f = F(turns=2, rkub_manipulate_on_initial_turn=False)
    bad(capped(t32_then_table()), "RKUB-INIT-2", f)
    ok(capped(t32_then_table(add_b3=False)), f)


def test_RKUB_INIT_30_no_table_change_before_the_initial_meld():
    """P1 adds b10 to P0's run b11 b12 b13 before making its initial meld; after its initial
    meld P0 may."""
    b = BK(2).deal({0: "b13 b11 b12", 1: "k12 b10"})
    b.meld(0, "b11 b12 b13")
    b.play(1, "+b10 b11 b12 b13")
    bad(capped(b), "RKUB-INIT-30", F(turns=2))
    b = BK(2).deal({0: "b13 b11 b12 b10", 1: "k12 k11 k13"})
    b.meld(0, "b11 b12 b13").meld(1, "k11 k12 k13")
    ok(capped(b.play(0, "+b10 b11 b12 b13", "k11 k12 k13")), F(turns=3))


def test_RKUB_INIT_30_initial_meld_combinations_are_new_and_valid():
    b = capped(t32_first(("r10 r11 r12",), "r10 r11 r12"))
    bad(mutate(b, rows_of(b, 131)[0], 6, 0), "RKUB-INIT-30", F(turns=2))  # from 0: not new
    b = t32_first(("r10 r11 r13",), "r10 r11 r13")
    bad(capped(b), "RKUB-COMB-2", F(turns=2))


def test_INITIAL_columns_and_block_structure():
    b = capped(t32_first(("r10 r11 r12",), "r10 r11 r12"))
    i = rows_of(b, 129)[0]
    bad(mutate(b, i, 3, 30), "TRACE-FORMAT", F(turns=2))  # value 33
    bad(mutate(b, i, 4, 4), "TRACE-FORMAT", F(turns=2))  # 3 tiles
    table = rows_of(b, 130)[0]
    bad(delete(b, *range(table, table + 5)), "TRACE-FORMAT", F(turns=2))  # no TABLE after it
    bad(mutate(b, i, 1, 1), "TRACE-FORMAT", F(turns=2))  # another seat's block


def test_a_second_initial_meld_is_a_format_error():
    b = opened(p0="r10 r11 r12")
    seat = b.turn(0)
    b.initial(seat, "r10 r11 r12")
    b.table_block(seat, *b.specs(("r10 r11 r12",)))
    bad(capped(b), "TRACE-FORMAT", F(turns=3))


def test_initial_meld_tiles_come_from_the_rack():
    b = t32_first(("r10 r11 r12",), "r10 r11")  # r12 is in the pool, not the rack
    bad(capped(b), "C-CARD-CONSERVATION", F(turns=2))
