"""The Rummikub move solver: RULES.md §10 scenarios T-32..T-34, the issue's cases, the API, and
identical optima with an independent integer program on 10,000 random positions of every kind.

The integer program (``rummysim.rummikub_reference``) and the arrangement check
(``tests.rummikub_positions.check_arrangement``) share nothing with the solver but the rules.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummysim.errors import InputError
from rummysim.kernels.rummikub import layout as L
from rummysim.kernels.rummikub.state import M_OVERFLOW
from rummysim.rules import Rules
from rummysim.kernels.rummikub.table import best_arrangement
from rummysim.rummikub import JOKER_ID, _table_array, _workspace, best_play, parse_combo, parse_tile, solve_table
from tests.rummikub_positions import check_arrangement, random_position, upper_bound

scipy = pytest.importorskip("scipy")
from rummysim.rummikub_reference import reference_best  # noqa: E402

RK = Rules(game="rummikub")


def rules(**flags: object) -> Rules:
    return RK.with_(**flags)


# ----------------------------------------------------------------------------- T-32 initial meld


def test_T32_initial_meld_of_30_from_the_rack():
    assert best_play([], "r10 r11 r12", initial=True).count == 3  # 33
    assert best_play([], "k3 r3 o3", initial=True).count == 0  # 9 alone
    assert best_play([], "k3 r3 o3 b7 b8 b9", initial=True).count == 6  # 9 + 24 in total
    assert best_play([], "r9 r10 J*", initial=True).table == [["r9", "r10", "J*(r11)"]]  # 9+10+11


def test_T32_AMB38_single_combo_needs_one_combination_of_30():
    single = rules(rkub_initial_rule="single_combo")
    assert best_play([], "k3 r3 o3 b7 b8 b9", initial=True, rules=single).count == 0
    assert best_play([], "k3 r3 o3 b10 b11 b12", initial=True, rules=single).count == 6


def test_T32_a_table_tile_never_counts_toward_the_30():
    # the rack alone has 9 + 10 = 19 in r9 r10; the table's r11 may not complete the meld
    assert best_play(["r11 r12 r13"], "r9 r10", initial=True).count == 0


def test_T32_a_later_turn_may_use_the_table():
    play = best_play(["r11 r12 r13", "k9 o9 b9"], "r9 r10")
    assert play.placed == ["r10", "r9"]  # e.g. r9 r10 r11 r12 r13, or k9 r9 o9 b9 and r10 r11 r12 r13


# ----------------------------------------------------------------------------- T-33, T-34 jokers


def test_T33_replacing_a_group_joker_frees_it_for_the_same_turn():
    play = best_play(["r3 k3 J*"], "o3 b3 k8 k9")
    assert play.freed_jokers == 1 and play.count == 4
    assert ["k8", "k9", "J*(k10)"] in play.table or ["J*(k7)", "k8", "k9"] in play.table


def test_T33_the_freed_joker_never_goes_back_to_the_rack():
    # o3 frees the joker, but without k8 k9 there is nowhere to put it: the joker stays
    play = best_play(["r3 k3 J*"], "o3")
    assert play.freed_jokers == 0 and play.table == [["k3", "r3", "o3", "J*(b3)"]]


def test_T33_VKUB_JOKERBOTH_needs_both_missing_colours():
    both = rules(rkub_group_joker_release="both_colours")
    assert best_play(["r3 k3 J*"], "o3 k8 k9", rules=both).freed_jokers == 0
    play = best_play(["r3 k3 J*"], "o3 b3 k8 k9", rules=both)
    assert play.freed_jokers == 1 and ["k3", "r3", "o3", "b3"] in play.table


def test_T34_a_joker_run_may_be_extended():
    assert best_play(["b5 b6 J* b8"], "b9").table == [["b5", "b6", "J*(b7)", "b8", "b9"]]


def test_T34_no_tile_leaves_a_joker_combination():
    assert best_play(["b5 b6 J* b8"], "r5 k5").count == 0
    play = best_play(["b5 b6 b7 b8"], "r5 k5")
    assert play.count == 2 and ["b6", "b7", "b8"] in play.table


def test_R_rk2_no_table_tile_moves_into_a_joker_combination():
    """Decision R-rk2: with one joker per combination the rack joker could only be placed by moving
    b5 from the full group onto the locked b2 J* b4; that move is not allowed. Without the lock
    (b3 natural) the same rearrangement places it."""
    one = rules(rkub_max_jokers_per_combo=1)
    assert best_play(["b2 J* b4", "b5 k5 r5 o5"], "J*", rules=one).count == 0
    assert best_play(["b2 b3 b4", "b5 k5 r5 o5"], "J*", rules=one).count == 1


def test_three_run_slots_per_colour_are_needed_with_a_joker():
    """The issue's case: two full runs r1..r13 on the table and a rack joker: the joker fits."""
    full = " ".join(f"r{n}" for n in range(1, 14))
    play = best_play([full, full], "J*")
    assert play.count == 1


# An end-game position of a greedy game (seed 17) where the games' beam of 6,144 states per step cut
# before the later-turn solver bounded its passes (``solver.solve_play``): it now stays under the beam.
CUT_TABLE = ["k2 o2 b2", "r2 o2 b2", "k3 r3 J*(o3)", "k4 r4 b4", "r8 o8 b8", "r9 o9 b9", "r12 o12 b12",
             "k13 r13 b13", "r3 r4 r5 r6", "k5 k6 k7 k8 k9 k10 k11 k12", "r6 r7 r8 r9 r10 r11 r12 r13",
             "o6 o7 o8", "b6 b7 b8 b9 b10", "k9 k10 k11 k12", "o10 o11 o12", "b10 b11 b12", "o3 o4 o5 J*(o6) o7"]
CUT_RACK = "b3 b3 b13 r10 k2 o4 r1 r11"


def test_R_rk12_best_play_is_proven_where_the_games_beam_cuts():
    """R-rk12: games bound the solver's states per step (the cut is counted as unproven); best_play
    widens the bound to what its workspace holds and proves the answer. A workspace with a beam of 16
    states stands for the games' one, which this position no longer reaches."""
    from rummysim.kernels.rummikub.state import new_solver
    from rummysim.kernels.rummikub.table import best_arrangement

    combos = [parse_combo(c) for c in CUT_TABLE]
    rack = [parse_tile(t).id for t in CUT_RACK.split()]
    counts = np.bincount(rack, minlength=L.TILE_IDS).astype(np.int64)
    results = {}
    for name, ws in (("narrow", new_solver(16)), ("games", _workspace())):
        best, _ = best_arrangement(ws, _table_array(combos), len(combos), counts, L.OBJ_COUNT, 30, 2, False,
                                   False, L.INIT_TOTAL, L.INITIAL_MIN)
        results[name] = (int(best), int(ws.meta[M_OVERFLOW]))
    assert results["narrow"][1] == 1
    assert results["games"] == (8, 0)
    in_game = results["narrow"][0]
    play = best_play(CUT_TABLE, CUT_RACK)
    assert play.proven and play.count == 8 >= in_game
    assert sum(check_arrangement(combos, rack, _rows(solve_table(combos, rack))).values()) == 8


def test_VKUB_TWOJOKERS_one_joker_per_combination():
    assert best_play(["r5 r6 r7"], "J* J*").count == 2
    one = rules(rkub_max_jokers_per_combo=1)
    assert best_play(["r5 r6 r7"], "J* J*", rules=one).count == 1  # J* r5 r6 r7 J* holds two
    play = best_play(["r5 r6 r7", "k9 o9 b9"], "J* J*", rules=one)
    assert play.count == 2 and all(sum(t.startswith("J*") for t in c) <= 1 for c in play.table)
    assert best_play([], "r5 J* J*", initial=True).count == 0  # worth 5+6+7 = 18 < 30


def test_objective_value_prefers_points():
    # count: k1 k2 k3 r1 o1 (5 tiles as a run and ... ) vs value
    play_count = best_play([], "k1 k2 k3 b11 b12 b13 r11", initial=True)
    play_value = best_play([], "k1 k2 k3 b11 b12 b13 r11", initial=True, objective="value")
    assert play_count.count == 6 and play_value.value == 42


# ------------------------------------------------- initial meld minimums above 30 (holder's initial_min)


def _initial_objective(rack: list[int], threshold: int) -> tuple[int, int]:
    """The solver's best initial meld (tile count) of ``rack`` worth at least ``threshold``, and
    whether the arena overflowed."""
    counts = np.zeros(L.TILE_IDS, dtype=np.int64)
    for t in rack:
        counts[t] += 1
    ws = _workspace(widest=True)
    empty = np.zeros((L.MAX_COMBOS, L.CB_SIZE), dtype=np.int64)
    best, _ = best_arrangement(ws, empty, 0, counts, L.OBJ_COUNT, 30, 2, False, True, L.INIT_TOTAL, threshold)
    return max(int(best), 0), int(ws.meta[M_OVERFLOW])


def test_RKUB_INIT_30_minimums_up_to_63_are_reached_as_the_integer_program_finds():
    """A seat may ask its initial meld to be worth more than 30 (``holder``'s ``initial_min``, 40 by
    default): the solver's states held the value laid in 5 bits, so no minimum above 31 was ever
    reached and the holder melded only once hurried, after holding 40-50 tiles. Minimums 32..63 on
    random racks (and one rack of 45 tiles from such a game) against the integer program."""
    rng = random.Random("rummikub-initial-minimum")
    weights = {16 * c + n: 1 for c in range(4) for n in range(1, 14)}
    held = [1, 1, 3, 4, 4, 5, 6, 6, 7, 9, 10, 11, 12, 17, 17, 19, 20, 20, 22, 24, 25, 26, 28, 33, 33, 35, 37,
            38, 39, 42, 44, 51, 52, 52, 53, 53, 55, 55, 56, 57, 58, 59, 59, 60, JOKER_ID]
    assert _initial_objective(held, 40) == (42, 0)
    reached = 0
    for _ in range(150):
        pos = random_position(rng, "initial", 0, 14)
        threshold = rng.choice([32, 40, 50, 63])
        got, overflow = _initial_objective(pos.rack, threshold)
        assert overflow == 0
        assert got == reference_best([], pos.rack, weights, 1, initial=True, threshold=threshold), (pos.rack, threshold)
        reached += got > 0
    assert reached > 30  # most of these minimums are reachable: the comparison is not all zeros


def test_the_integer_program_answers_where_highs_presolve_fails():
    """A position of the bench (4-player greedy games, seed 17) on which HiGHS's presolve ends in
    "Solve error": the reference read that as no play, while b13 goes on the group of 13s (the
    solver's answer, 1). The reference now solves it again without presolve and raises on any
    other failure."""
    table = [parse_combo(c) for c in (
        "k1 r1 b1", "r1 o1 b1", "k3 o3 b3", "r3 o3 b3", "k5 r5 o5", "k7 r7 o7", "k9 r9 b9", "r10 o10 b10",
        "r11 b11 J*(k11)", "k12 o12 b12", "k13 r13 o13", "r2 r3 r4", "r4 r5 r6", "o5 o6 o7", "b6 b7 b8",
        "o9 o10 o11", "k10 k11 k12", "r11 r12 r13", "k11 J*(k12) k13", "b8 b9 b10 b11")]
    rack = [parse_tile(t).id for t in ("r8", "o6", "b2", "b13")]
    weights = {16 * c + n: 1 for c in range(4) for n in range(1, 14)}
    assert reference_best(table, rack, weights, 1) == 1 == solve_table(table, rack).objective
    assert reference_best(table, rack, weights, 1, longest_run=13) == 1


# ----------------------------------------------------------------------------- the API


@pytest.mark.parametrize("bad", ["x5", "r14", "r0", "J*(r14)", "k"])
def test_bad_tiles_are_refused(bad):
    with pytest.raises(InputError):
        best_play([], bad)


def test_a_combination_that_reads_both_ways_needs_a_designation():
    with pytest.raises(InputError, match="both a run and a group"):
        parse_combo("r5 J* J*")
    assert parse_combo("r5 J*(r6) J*(r7)").kind == "run"
    assert parse_combo("r5 J*(k5) J*(o5)").kind == "group"


def test_invalid_table_and_too_many_copies_are_refused():
    with pytest.raises(InputError, match="not a valid"):
        best_play(["r5 r6 r8"], "k1")
    with pytest.raises(InputError, match="two"):
        best_play(["r5 r6 r7", "r5 k5 o5"], "r5")
    with pytest.raises(InputError, match="objective"):
        best_play([], "r1", objective="most")


# ----------------------------------------------------------------------------- against the reference


def _rows(result) -> list[dict]:
    t = result.table
    rows = []
    for r in range(result.rows):
        n = int(t[r, L.CB_LEN])
        rows.append(dict(kind=int(t[r, L.CB_KIND]), key=int(t[r, L.CB_KEY]), lo=int(t[r, L.CB_LO]),
                         tiles=[int(x) for x in t[r, L.CB_TILE:L.CB_TILE + n]],
                         desig=[int(x) for x in t[r, L.CB_DESIG:L.CB_DESIG + n]],
                         rack=[int(x) for x in t[r, L.CB_RACK:L.CB_RACK + n]],
                         **{"from": int(t[r, L.CB_FROM])}))
    return rows


def _compare(rng: random.Random, kind: str, max_table: int, max_rack: int) -> None:
    objective = rng.choice(["count", "value"])
    max_jokers = rng.choice([2, 2, 1])
    both = rng.random() < 0.3
    single = kind == "initial" and rng.random() < 0.4
    r = rules(rkub_max_jokers_per_combo=max_jokers, rkub_initial_rule="single_combo" if single else "total",
              rkub_group_joker_release="both_colours" if both else "one_tile")
    pos = random_position(rng, kind, max_table, max_rack)
    initial = kind == "initial"
    got = solve_table(pos.table, pos.rack, objective, initial, r)
    assert got.proven
    weights = {16 * c + n: (n if objective == "value" else 1) for c in range(4) for n in range(1, 14)}
    joker_weight = 30 if objective == "value" else 1
    if max(got.objective, 0) == upper_bound(pos, weights, joker_weight):
        want = max(got.objective, 0)  # proven best by the bound, once the arrangement checks below
    else:
        want = reference_best(pos.table, pos.rack, weights, joker_weight, max_jokers, both, initial, 30, single)
    where = f"{kind} {objective} max_jokers={max_jokers} both={both} single={single}: " \
            f"{[c.text() for c in pos.table]} rack {pos.rack}"
    assert got.objective == want, where
    if got.objective > 0:
        rows = _rows(got)[len(pos.table):] if initial else _rows(got)
        placed = check_arrangement([] if initial else pos.table, pos.rack, rows, max_jokers, both)
        value = sum((joker_weight if t == JOKER_ID else weights[t]) * k for t, k in placed.items())
        assert value == got.objective, where


# 10,000 positions in all: (kind, positions, largest table, largest rack). Rack jokers make the
# integer program slow, so those positions are fewer and smaller.
POSITIONS = [("plain", 2450, 20, 8), ("plain", 50, 40, 12), ("table_jokers", 2450, 16, 6),
             ("table_jokers", 50, 40, 12), ("initial", 2450, 20, 10), ("initial", 50, 40, 14),
             ("rack_jokers", 1250, 14, 6), ("both_jokers", 1250, 14, 6)]


@pytest.mark.parametrize("kind, count, max_table, max_rack", POSITIONS)
def test_solver_matches_the_integer_program(kind, count, max_table, max_rack):
    rng = random.Random(f"rummikub-solver-{kind}-{max_table}")
    for _ in range(count):
        _compare(rng, kind, max_table, max_rack)
