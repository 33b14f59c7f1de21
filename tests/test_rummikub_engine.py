"""The Rummikub engine: scoring (T-35, T-36, AMB-42), the deal and first player (RKUB-SETUP-1/2,
AMB-41), turns and the table in its traces (RKUB-TURN-*, RKUB-INIT-*, RKUB-MANIP-1, RKUB-JOKER-*),
the variations, hidden information (C-INFO-1) and determinism.

The trace checks here are a light consistency check of the engine's own output (tile conservation
and valid combinations after every turn, from docs/trace-format.md); the full rules checker is
``rummysim.validate.rummikub``.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from rummysim.checks import traced_game
from rummysim.kernels.rummikub import layout as L
from rummysim.kernels.rummikub.state import M_BEAM, M_STAMP
from rummysim.kernels.rummikub.engine import new_context, new_workspace, play_turn, score_round, seed_game, start_round
from rummysim.rules import Rules
from rummysim.rummikub import JOKER_ID, Combo
from rummysim.simulation import prepare, simulate
from tests.rummikub_positions import check_arrangement

RK = Rules(game="rummikub")


def context(players: int = 3, lineup: str = "greedy", **flags: object):
    cfg = prepare("rummikub", players, lineup, rules=RK.with_(**flags))
    g = new_context(cfg.vector, cfg.lineup, cfg.params, None, new_workspace(), None)
    g.st[L.S_N] = players
    g.st[L.S_DIR] = cfg.vector[L.RK_DIRECTION]
    return g


def set_rack(g, seat: int, tiles: list[int]) -> None:
    g.racks[seat, :] = 0
    for t in tiles:
        g.racks[seat, t] += 1


def round_scores(g) -> list[int]:
    return [int(g.st[L.S_ROUND_SCORE + s]) for s in range(int(g.st[L.S_N]))]


# ----------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("penalty, expected", [(30, [50, -47, -3]), (25, [45, -42, -3])])
def test_T35_scoring_when_someone_goes_out(penalty, expected):
    g = context(rkub_joker_penalty=penalty)
    set_rack(g, 0, [])
    set_rack(g, 1, [16 + 5, 32 + 12, JOKER_ID])  # 5, 12, J*
    set_rack(g, 2, [1, 2])
    score_round(g, L.END_OUT, 0)
    assert round_scores(g) == expected


def test_T36_pool_empty_lowest_rack_wins():
    g = context()
    set_rack(g, 0, [10])
    set_rack(g, 1, [13, 12])
    set_rack(g, 2, [4])
    score_round(g, L.END_STOCK, -1)
    assert round_scores(g) == [-6, -21, 27]


def test_AMB42_tied_lowest_racks_share_the_differences_in_seat_order():
    """Decision R-rk7: the differences (15) split into 8 and 7, the extra point to the lower seat."""
    g = context()
    set_rack(g, 0, [10])
    set_rack(g, 1, [16 + 10])
    set_rack(g, 2, [13, 12])
    score_round(g, L.END_STOCK, -1)
    assert round_scores(g) == [8, 7, -15]
    assert sum(round_scores(g)) == 0


# ----------------------------------------------------------------------------- deal and first player


def dealt(players: int, seed: int, **flags: object):
    cfg = prepare("rummikub", players, "greedy", rules=RK.with_(**flags))
    trace, _, over = traced_game(cfg, seed, 0)
    assert not over
    return trace


def records(trace: np.ndarray, kind: int) -> list[list[int]]:
    return [list(map(int, r)) for r in trace if r[0] == kind]


def test_RKUB_SETUP_first_tiles_racks_and_the_first_player():
    for seed in range(20):
        trace = dealt(4, seed)
        pool = [t for r in records(trace, L.T_DECK) for t in r[2:8] if t >= 0]
        assert sorted(pool) == sorted([16 * c + n for c in range(4) for n in range(1, 14)] * 2 + [JOKER_ID] * 2)
        firsts = records(trace, L.T_FIRST_TILE)
        assert [r[2] for r in firsts] == pool[:4]
        rank = [14 if t == JOKER_ID else t & 15 for t in pool[:4]]
        first = records(trace, L.T_HAND_START)[0][5]
        assert rank[first] == max(rank)  # AMB-41: a joker ranks above 13


def test_AMB41_ties_for_the_first_player_are_broken_at_random():
    chosen = Counter()
    for seed in range(400):
        g = context(2)
        seed_game(g, 7, seed)
        g.rng_deal[:] = np.arange(1, 5, dtype=np.uint64) + seed
        first = start_round(g)
        a, b = (int(g.st[L.S_FIRST_TILE + s]) for s in range(2))
        if (a & 15) == (b & 15) and JOKER_ID not in (a, b):
            chosen[first] += 1
    assert chosen[0] > 0 and chosen[1] > 0


# ----------------------------------------------------------------------------- turns in the trace


def table_after(block: list[list[int]]) -> list[dict]:
    """The combinations of an INITIAL/TABLE block (COMBO + TILE records)."""
    rows = []
    for r in block:
        if r[0] == L.T_COMBO:
            rows.append(dict(kind=r[2], key=r[3], lo=r[4], tiles=[], desig=[], rack=[], **{"from": r[6]}))
        elif r[0] == L.T_TILE:
            rows[-1]["tiles"].append(r[2])
            rows[-1]["desig"].append(r[3])
            rows[-1]["rack"].append(r[4])
    return rows


def as_combo(row: dict) -> Combo:
    return Combo("run" if row["kind"] == 1 else "group", row["key"], row["lo"], tuple(row["tiles"]),
                 tuple(row["desig"]))


def replay_turns(trace: np.ndarray, max_jokers: int = 2, both: bool = False) -> Counter:
    """Walk the trace: racks from the deal, every block checked against the table before it.
    Returns counts of what happened (draws, passes, plays, initial melds, freed jokers)."""
    rows = [list(map(int, r)) for r in trace]
    seen = Counter()
    i = 0
    n = rows[0][1]
    while i < len(rows):
        r = rows[i]
        if r[0] == L.T_HAND_START:
            pool = []
            table: list[Combo] = []
            racks = [Counter() for _ in range(n)]
            melded = [False] * n
        elif r[0] == L.T_DECK:
            pool += [t for t in r[2:8] if t >= 0]
            if len(pool) == L.POOL:
                for s in range(n):
                    racks[s].update([pool[s]] + pool[n + 13 * s: n + 13 * s + 13])
                drawn = 14 * n
        elif r[0] == L.T_DRAW_STOCK:
            assert r[2] == pool[drawn]
            racks[r[1]][r[2]] += 1
            drawn += 1
            seen["draws"] += 1
        elif r[0] == L.T_PASS:
            assert drawn == L.POOL
            seen["passes"] += 1
        elif r[0] in (L.T_INITIAL, L.T_TABLE):
            seat, count = r[1], r[2]
            j = i + 1
            block = []
            while j < len(rows) and rows[j][0] in (L.T_COMBO, L.T_TILE):
                block.append(rows[j])
                j += 1
            new = table_after(block)
            assert len(new) == count
            if r[0] == L.T_INITIAL:
                assert not melded[seat]
                assert all(f == 1 for c in new for f in c["rack"])
                assert sum(d & 15 for c in new for d in c["desig"]) == r[3] >= 30
                placed = check_arrangement([], list(racks[seat].elements()), new, max_jokers, both)
                table = table + [as_combo(c) for c in new]
                melded[seat] = True
                seen["initial"] += 1
            else:
                assert melded[seat]
                placed = check_arrangement(table, list(racks[seat].elements()), new, max_jokers, both)
                assert sum(placed.values()) == r[3]
                table = [as_combo(c) for c in new]
                seen["plays"] += r[3] > 0
            racks[seat] -= placed
            i = j
            continue
        elif r[0] == L.T_HAND_END and r[1] == L.END_OUT:
            assert sum(racks[r[2]].values()) == 0
            seen["out"] += 1
        i += 1
    return seen


@pytest.mark.parametrize("lineup", ["greedy", "random", "value,holder,greedy,random"])
def test_every_turn_keeps_the_tiles_and_leaves_valid_combinations(lineup):
    cfg = prepare("rummikub", 4, lineup)
    seen = Counter()
    for game in range(6):
        trace, _, over = traced_game(cfg, 3, game)
        assert not over
        seen += replay_turns(trace)
    assert seen["initial"] > 0 and seen["plays"] > 0 and seen["draws"] > 0


def _holder_initial_turns(lineup: str) -> list[int]:
    """The turn (counted from the round's start) of seat 0's initial meld in a few 2-player games."""
    cfg = prepare("rummikub", 2, lineup)
    turns = []
    for game in range(6):
        trace, _, _ = traced_game(cfg, 21, game)
        turn = 0
        for r in trace:
            turn += int(r[0] == L.T_TURN_START)
            if r[0] == L.T_INITIAL and r[1] == 0:
                turns.append(turn)
    return turns


def test_holder_waits_with_its_initial_meld_unless_told_to_meld_at_initial_min():
    """``holder`` makes no initial meld until time is short (``wait_initial``, its strength); with
    ``wait_initial=0`` it melds once the meld is worth ``initial_min`` (40), much earlier (the solver
    reaches minimums above 31 since session 15)."""
    waiting = _holder_initial_turns("holder,greedy")
    eager = _holder_initial_turns("holder:wait_initial=0,greedy")
    assert eager and waiting
    assert sum(eager) / len(eager) + 10 < sum(waiting) / len(waiting)


def test_RKUB_JOKER_3_random_frees_table_jokers():
    res = simulate("rummikub", players=4, lineup="random", games=60, seed=5, hands=True)
    assert int(res.hands["jokers_freed"].sum()) > 0


def test_AMB39_no_play_after_the_initial_meld_with_the_flag_off():
    cfg = prepare("rummikub", 4, "greedy", rules=RK.with_(rkub_manipulate_on_initial_turn=False))
    for game in range(5):
        trace, _, _ = traced_game(cfg, 2, game)
        rows = [list(map(int, r)) for r in trace]
        for i, r in enumerate(rows):
            if r[0] == L.T_INITIAL:
                j = i + 1
                while rows[j][0] in (L.T_COMBO, L.T_TILE):
                    j += 1
                assert rows[j][0] == L.T_TABLE and rows[j][3] == 0


@pytest.mark.parametrize("flags", [dict(rkub_max_jokers_per_combo=1), dict(rkub_group_joker_release="both_colours"),
                                   dict(rkub_initial_rule="single_combo"), dict(rkub_joker_penalty=25)])
def test_variations_play_valid_games(flags):
    cfg = prepare("rummikub", 3, "greedy,random,value", rules=RK.with_(**flags))
    for game in range(4):
        trace, _, over = traced_game(cfg, 9, game)
        assert not over
        replay_turns(trace, flags.get("rkub_max_jokers_per_combo", 2),
                     flags.get("rkub_group_joker_release") == "both_colours")


def test_VKUB_DIR_counterclockwise_play_goes_to_the_right():
    cfg = prepare("rummikub", 4, "greedy", rules=RK.with_(rkub_direction="counterclockwise"))
    trace, _, _ = traced_game(cfg, 1, 0)
    seats = [int(r[1]) for r in trace if r[0] == L.T_TURN_START]
    assert all((b - a) % 4 == 3 for a, b in zip(seats, seats[1:]))


def test_RKUB_TIME_1_penalty_draw3_undoes_an_invalid_table_and_draws_three():
    rules = RK.with_(rkub_invalid_turn="penalty_draw3")
    cfg = prepare("rummikub", 2, "random,greedy", rules=rules)
    cfg.params[0, 0] = 0.3  # random's blunder
    trace, _, _ = traced_game(cfg, 4, 0)
    rows = [list(map(int, r)) for r in trace]
    penalties = [i for i, r in enumerate(rows) if r[0] == L.T_PENALTY]
    assert penalties
    for i in penalties:
        k = rows[i][2]
        assert all(rows[i + 1 + j][0] == L.T_DRAW_STOCK for j in range(k)) and k == min(3, k)
    reject = prepare("rummikub", 2, "random,greedy")
    reject.params[0, 0] = 0.3
    trace, _, _ = traced_game(reject, 4, 0)
    assert not any(r[0] in (L.T_ATTEMPT, L.T_PENALTY) for r in trace)


def test_RKUB_GAME_1_rounds_add_up():
    res = simulate("rummikub", players=3, lineup="greedy", games=20, seed=3, rule=["rkub_rounds=3"], hands=True)
    assert (res.games["hands"] == 3).all()
    per_game = res.hands.group_by("game_index").agg([pl.col(f"score_{s}").sum() for s in range(3)])
    joined = res.games.join(per_game, on="game_index", suffix="_h")
    for s in range(3):
        assert (joined[f"score_{s}"] == joined[f"score_{s}_h"]).all()


# ----------------------------------------------------------------------------- hidden information


def twin_contexts(seed: int, turns: int):
    """Two games with the same public state and seat's rack after ``turns`` turns of the first,
    differing in everything the seat to play cannot see: the other racks (same sizes), the pool
    order, and every scratch buffer (the solver workspace filled with garbage)."""
    a = context(4, "greedy,random,holder,value")
    seed_game(a, 11, seed)
    a.rng_deal[:] = np.arange(1, 5, dtype=np.uint64) * (seed + 1)
    seat = start_round(a)
    for _ in range(turns):
        play_turn(a, seat)
        seat = (seat + 1) % 4
    b = context(4, "greedy,random,holder,value")
    for field in ("st", "racks", "pool", "table", "rngs"):
        getattr(b, field)[...] = getattr(a, field)
    hidden = [t for s in range(4) if s != seat for t in np.repeat(np.arange(L.TILE_IDS), a.racks[s])]
    hidden += [int(t) for t in a.pool[int(a.st[L.S_POOL_POS]):]]
    rng = np.random.default_rng(seed)
    shuffled = rng.permutation(hidden)
    k = 0
    for s in range(4):
        if s == seat:
            continue
        size = int(a.racks[s].sum())
        b.racks[s, :] = 0
        for t in shuffled[k:k + size]:
            b.racks[s, t] += 1
        k += size
    b.pool[int(a.st[L.S_POOL_POS]):] = shuffled[k:]
    for arr in b.ws:
        arr[...] = rng.integers(0, 50, size=arr.shape).astype(arr.dtype)
    # the solver's own bookkeeping: its step counter is past every stamp in its hash table
    b.ws.meta[M_STAMP] = b.ws.hstamp.max()
    # the beam width is the engine's setting, not scratch: garbage there changes which solves are cut
    b.ws.meta[M_BEAM] = a.ws.meta[M_BEAM]
    return a, b, seat


@pytest.mark.parametrize("seed", range(16))
def test_C_INFO_1_hidden_tiles_and_scratch_do_not_change_decisions(seed):
    a, b, seat = twin_contexts(seed, turns=6 + seed % 9)
    assert not np.array_equal(a.racks, b.racks) or not np.array_equal(a.pool, b.pool)
    pool_a, pool_b = int(a.st[L.S_POOL_POS]), int(b.st[L.S_POOL_POS])
    play_turn(a, seat)
    play_turn(b, seat)
    n = int(a.st[L.S_N_COMBOS])
    assert n == int(b.st[L.S_N_COMBOS])
    assert np.array_equal(a.table[:n], b.table[:n])
    drew_a, drew_b = int(a.st[L.S_POOL_POS]) - pool_a, int(b.st[L.S_POOL_POS]) - pool_b
    assert drew_a == drew_b
    if drew_a == 0:
        assert np.array_equal(a.racks[seat], b.racks[seat])


# ----------------------------------------------------------------------------- determinism


def test_determinism_threads_and_chunks():
    args = dict(game="rummikub", players=4, lineup="greedy,random,value,holder", games=24, seed=13, hands=True)
    base = simulate(**args, threads=2, chunk_size=24)
    for threads, chunk in ((1, 24), (2, 5), (1, 7)):
        other = simulate(**args, threads=threads, chunk_size=chunk)
        assert_frame_equal(base.games, other.games)
        assert_frame_equal(base.hands, other.hands)
