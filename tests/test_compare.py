"""Strategy comparisons on duplicate deals: ``rummysim.comparison`` and the ``compare``/``tournament`` CLI.

Measured with the seeds below (2 players, 500 Rum, default rules, seed 0, 3,000 deals = 6,000
games): greedy beats random by about 48 points per hand (230 per game) and wins about 96% of the
games; the 95% interval of the per-hand difference is about 0.92 times as wide on duplicate deals
as on independent deals with the same number of games.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from rummysim.checks import traced_game
from rummysim.comparison import balanced_patterns, bradley_terry, compare, diff_stats, rotations, tournament, verdict
from rummysim.simulation import prepare
from rummysim.strategies import ids
from rummysim.strategies.registry import STRATEGIES, Param, StrategyInfo

GAME_START, HAND_START, DECK = 1, 2, 3


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True)


def _hand0_deal(lineup: str, players: int, seed: int, game_index: int) -> list[tuple[int, ...]]:
    """GAME_START (first dealer), hand 0's HAND_START (dealer) and its shuffled pack, from the trace."""
    trace, _, _ = traced_game(prepare("500-rum", players, lineup), seed, game_index)
    out, hand = [], None
    for row in trace:
        kind = int(row[0])
        if kind == HAND_START:
            hand = int(row[1])
        if hand is not None and hand > 0:
            break
        if kind in (GAME_START, HAND_START, DECK):
            out.append(tuple(int(x) for x in row))
    return out


# ---------------------------------------------------------------------------------------------
# seatings and duplicates


def test_seatings_are_the_distinct_rotations():
    assert rotations([("A", "B")]) == [("A", "B"), ("B", "A")]
    assert len(rotations([("A", "B", "B", "B")])) == 4
    assert rotations(balanced_patterns(4)) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    # odd counts play both mirrors, so each side holds half the seats on average
    six = rotations(balanced_patterns(3))
    assert len(six) == 6 and sum(r.count("A") for r in six) == 9


def test_duplicate_deals_are_duplicates():
    res = compare("greedy", "random", players=2, games=40, seed=11)
    g = res.games
    assert g.height == 80 and (g["deal"] == g["game_index"]).all()
    assert set(g["lineup"]) == {"greedy,random", "random,greedy"}
    per_deal = g.group_by("deal").agg(pl.col("first_dealer").n_unique().alias("dealers"), pl.len().alias("n"))
    assert (per_deal["dealers"] == 1).all() and (per_deal["n"] == 2).all()
    # the same shuffled pack for hand 0 (and the same dealer) in both seatings, different between deals
    packs = [_hand0_deal(lineup, 2, 11, gi) for gi in range(3) for lineup in ("greedy,random", "random,greedy")]
    assert packs[0] == packs[1] and packs[2] == packs[3] and packs[4] == packs[5]
    assert packs[0] != packs[2]
    # ... while the games themselves differ (the strategies swapped seats)
    r0 = g.filter(pl.col("rotation") == 0).sort("deal")
    r1 = g.filter(pl.col("rotation") == 1).sort("deal")
    assert not r0["score_0"].equals(r1["score_0"])


def test_four_player_lineup_a_b_b_b():
    res = compare("greedy", "random", players=4, lineup="A,B,B,B", games=60, seed=2)
    s, g = res.summary, res.games
    assert s["seatings"] == ["greedy,random,random,random", "random,greedy,random,random",
                             "random,random,greedy,random", "random,random,random,greedy"]
    assert g.height == 240 and s["games"] == 240
    for r in range(4):  # rotation r seats greedy at seat r
        assert (g.filter(pl.col("rotation") == r)["lineup"].str.split(",").list.get(r) == "greedy").all()
    assert (g.group_by("deal").agg(pl.col("first_dealer").n_unique())["first_dealer"] == 1).all()
    a, b = s["sides"]
    assert (a["seats"], b["seats"], a["fair"], b["fair"]) == (1, 3, 0.25, 0.75)
    assert a["wins"] + b["wins"] + s["no_winner"] == 240
    assert a["win_rate"] > 0.5  # one greedy against three random still wins most games
    # strategy names work as the pattern too, with the same games
    same = compare("greedy", "random", players=4, lineup="greedy,random,random,random", games=60, seed=2)
    assert same.games.equals(g)
    # A,B,A,B has two distinct rotations
    assert len(compare("greedy", "random", players=4, lineup="A,B,A,B", games=5, seed=2).summary["seatings"]) == 2


def test_swapping_the_sides_negates_the_difference():
    for players in (2, 3):
        ab = compare("greedy", "random", players=players, games=30, seed=4).summary
        ba = compare("random", "greedy", players=players, games=30, seed=4).summary
        for unit in ("per_game", "per_hand"):
            assert ba[unit]["diff"] == pytest.approx(-ab[unit]["diff"])
            assert ba[unit]["half_width"] == pytest.approx(ab[unit]["half_width"])
        assert ab["sides"][0]["wins"] == ba["sides"][1]["wins"]


# ---------------------------------------------------------------------------------------------
# the evidence: greedy against random on 500 Rum, and what duplicate deals buy


def test_greedy_beats_random_decisively_and_duplicate_deals_narrow_the_interval():
    res = compare("greedy", "random", game="500-rum", players=2, games=3000, seed=0, baseline=True)
    s = res.summary
    hand, game = s["per_hand"], s["per_game"]
    print(f"\n{s['verdict']}; per game {game['diff']:.1f} ± {game['half_width']:.1f}; win rates "
          f"{s['sides'][0]['win_rate']:.3f} / {s['sides'][1]['win_rate']:.3f}; "
          f"CI width ratio duplicate/independent {s['ci_width_ratio']:.3f} (per game {s['baseline']['per_game_ratio']:.3f})")
    assert s["deals"] == 3000 and s["games"] == 6000 and res.deals.height == 3000
    # decisive: the interval is far from 0 and the margin is large
    assert hand["ci"][0] > 30 and game["ci"][0] > 150
    assert hand["p_value"] < 1e-12 and hand["half_width"] < 0.1 * hand["diff"]
    greedy, rnd = s["sides"]
    assert greedy["win_rate_ci"][0] > 0.9 and rnd["win_rate_ci"][1] < 0.1
    assert s["verdict"].startswith("greedy beats random by ") and "points per hand, p " in s["verdict"]
    # the per-hand difference is the ratio of totals
    d = res.deals
    assert hand["diff"] == pytest.approx(d["diff"].sum() / d["hands"].sum())
    # common random numbers: narrower than independent deals at the same number of games
    b = s["baseline"]
    assert b["games"] == s["games"]
    assert s["ci_width_ratio"] < 1 and b["per_game_ratio"] < 1
    assert b["per_hand"]["ci"][0] > 30  # the independent estimate agrees


# ---------------------------------------------------------------------------------------------
# --until-ci


def test_until_ci_stops_when_it_should_and_is_deterministic():
    calls = []
    kw = dict(players=2, games=200, batch=200, until_ci=1.5, max_games=4000, seed=5)
    res = compare("greedy", "random", progress=lambda done, total, half: calls.append((done, total, half)), **kw)
    s = res.summary
    assert s["reached_ci"] and s["per_hand"]["half_width"] < 1.5
    assert s["deals"] > 200 and s["deals"] % 200 == 0 and s["batches"] == s["deals"] // 200
    # one batch fewer was not enough
    before = compare("greedy", "random", players=2, games=s["deals"] - 200, seed=5).summary
    assert before["per_hand"]["half_width"] >= 1.5
    # game indexes continue across batches: the same rows as one run of that many deals
    again = compare("greedy", "random", **kw)
    whole = compare("greedy", "random", players=2, games=s["deals"], seed=5)
    assert again.games.equals(res.games) and whole.games.equals(res.games)
    assert again.summary["per_hand"] == s["per_hand"] and whole.summary["per_hand"] == s["per_hand"]
    # progress: deals done against the cap, with the half-width after each batch
    assert calls[0] == (0, 4000, None) and calls[-1][0] == s["deals"]
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert calls[-1][2] == pytest.approx(s["per_hand"]["half_width"])


def test_until_ci_stops_at_max_games():
    s = compare("greedy", "random", games=100, batch=150, until_ci=0.01, max_games=400, seed=1).summary
    assert s["deals"] == 400 and s["reached_ci"] is False and s["batches"] == 3


# ---------------------------------------------------------------------------------------------
# tournament


def test_tournament_two_strategies_matches_compare(tmp_path):
    out = tmp_path / "league.parquet"
    res = tournament(["greedy", "random"], players=2, games=150, seed=3, out=out)
    m = res.matrix
    assert m.height == 2
    gr = m.row(by_predicate=(pl.col("strategy") == "greedy"), named=True)
    rg = m.row(by_predicate=(pl.col("strategy") == "random"), named=True)
    assert gr["diff_per_hand"] == pytest.approx(-rg["diff_per_hand"])
    assert gr["diff_per_hand_lo"] == pytest.approx(-rg["diff_per_hand_hi"])
    c = compare("greedy", "random", players=2, games=150, seed=3).summary
    assert gr["diff_per_hand"] == pytest.approx(c["per_hand"]["diff"])
    assert gr["diff_per_game"] == pytest.approx(c["per_game"]["diff"])
    assert gr["wins"] == c["sides"][0]["wins"]
    assert res.ranking["strategy"].to_list() == ["greedy", "random"]
    assert res.ranking["bt_strength"].sum() == pytest.approx(1.0)
    # the games on disk: lineup per row (so `analyze --strategies` works), rotation, deal, pairing
    g = pl.read_parquet(out)
    assert {"lineup", "rotation", "deal", "pairing", "game_index", "winner"} <= set(g.columns)
    assert g.height == 300 and json.loads(pl.read_parquet_metadata(out)["rummysim.seed"]) == 3
    from rummysim.analysis.tables import strategies

    per = strategies(out, by=[])
    assert set(per["strategy"]) == {"greedy", "random"}
    assert per.filter(pl.col("strategy") == "greedy")["wins"][0] == gr["wins"]


def test_tournament_three_strategies(monkeypatch):
    """A third strategy (greedy with other defaults) is added for the test."""
    monkeypatch.setitem(STRATEGIES, "greedy_picky", StrategyInfo(
        "greedy_picky", ids.GREEDY, "greedy that takes from the pile only for a large gain",
        (Param("deadwood_weight", 1.0, ""), Param("min_gain", 30.0, "")),
    ))
    res = tournament(["random", "greedy", "greedy_picky"], players=2, games=200, seed=8)
    m = res.matrix
    assert m.height == 6
    cell = {(r["strategy"], r["opponent"]): r for r in m.to_dicts()}
    for (s, o), r in cell.items():
        back = cell[(o, s)]
        assert r["diff_per_hand"] == pytest.approx(-back["diff_per_hand"])
        assert r["diff_per_game"] == pytest.approx(-back["diff_per_game"])
        assert r["diff_per_hand_lo"] == pytest.approx(-back["diff_per_hand_hi"])
    assert res.summary["games"] == 3 * 200 * 2 == res.games.height
    assert set(res.games["pairing"]) == {"random vs greedy", "random vs greedy_picky", "greedy vs greedy_picky"}
    ranking = res.ranking
    assert ranking["rank"].to_list() == [1, 2, 3]
    assert ranking["strategy"][-1] == "random"
    # the ranking score is each row's mean difference against the others
    for r in ranking.to_dicts():
        row = m.filter(pl.col("strategy") == r["strategy"])
        assert r["diff_per_game"] == pytest.approx(row["diff_per_game"].mean())
        assert r["diff_per_game_lo"] < r["diff_per_game"] < r["diff_per_game_hi"]
    assert ranking["bt_strength"].sum() == pytest.approx(1.0)
    assert ranking["bt_strength"].to_list() == sorted(ranking["bt_strength"].to_list(), reverse=True)
    # the bootstrap interval holds the strength and is not empty
    assert (ranking["bt_lo"] <= ranking["bt_strength"]).all() and (ranking["bt_strength"] <= ranking["bt_hi"]).all()
    assert (ranking["bt_lo"] < ranking["bt_hi"]).all()


def test_tournament_four_players_seats_each_side_twice():
    res = tournament(["greedy", "random"], players=4, games=20, seed=1)
    assert set(res.games["lineup"]) == {"greedy,random,greedy,random", "random,greedy,random,greedy"}
    assert res.matrix.height == 2


# ---------------------------------------------------------------------------------------------
# statistics helpers


@pytest.mark.parametrize("strategy, players", [("greedy", 2), ("greedy", 3), ("heuristic", 4)])
def test_a_a_comparison_reports_exactly_zero(strategy, players):
    """Issue 18 point 6: a deterministic strategy against itself on the same deals plays the same
    games on both sides, so every per-deal difference is 0 and the verdict says no difference."""
    res = compare(strategy, strategy, players=players, games=40, seed=3)
    assert (res.deals["diff"] == 0).all()
    per_hand = res.summary["per_hand"]
    assert per_hand["diff"] == 0 and per_hand["half_width"] == 0 and per_hand["p_value"] == 1
    assert res.summary["verdict"].startswith(f"no significant difference between {strategy} and {strategy}")


def test_statistics_helpers():
    s = diff_stats(np.array([10.0, 30.0, 20.0, 20.0]), np.array([2.0, 4.0, 3.0, 3.0]))
    assert s["per_game"]["diff"] == 20.0 and s["per_hand"]["diff"] == pytest.approx(80 / 12)
    lo, hi = s["per_game"]["ci"]
    assert lo < 20 < hi and hi - 20 == pytest.approx(s["per_game"]["half_width"])
    assert 0 < s["per_game"]["p_value"] < 0.05
    flat = diff_stats(np.zeros(5), np.ones(5))
    assert flat["per_game"]["p_value"] == 1.0
    assert verdict("a", "b", {"diff": -3.0, "half_width": 1.0, "p_value": 0.001}).startswith("b beats a by 3.0 ± 1.0")
    assert verdict("a", "b", {"diff": 0.5, "half_width": 1.0, "p_value": 0.4}).startswith("no significant difference")
    p = bradley_terry(np.array([[0, 30, 50], [10, 0, 40], [0, 5, 0]]))
    assert p.sum() == pytest.approx(1.0) and p[0] > p[1] > p[2] > 0


# ---------------------------------------------------------------------------------------------
# CLI


def test_cli_compare_and_tournament(tmp_path):
    out = tmp_path / "cmp.parquet"
    r = run("compare", "greedy", "random", "--players", "2", "--games", "200", "--seed", "1", "--baseline",
            "--out", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "greedy beats random by" in r.stdout and "CI width ratio duplicate/independent" in r.stdout
    assert pl.read_parquet(out).height == 400
    r = run("compare", "greedy", "random", "--games", "100", "--until-ci", "50", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["reached_ci"] and s["deals"] == 100 and s["verdict"].startswith("greedy beats random")
    r = run("tournament", "greedy", "random", "--games", "50", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["ranking"][0]["strategy"] == "greedy"


@pytest.mark.parametrize(
    "args, needle",
    [
        (["compare", "greedy", "bogus"], "unknown strategy 'bogus'"),
        (["compare", "greedy", "greedy", "--lineup", "greedy,greedy"], "names both sides"),
        (["compare", "greedy", "random", "--players", "1"], "2-8 players"),
        (["compare", "greedy", "random", "--players", "9"], "2-8 players"),
        (["compare", "greedy", "random", "--players", "three"], "--players"),
        (["compare", "greedy", "random", "--lineup", "A,B,B"], "3 seats for 2 players"),
        (["compare", "greedy", "random", "--lineup", "A,A"], "must seat both"),
        (["compare", "greedy", "random", "--lineup", "A,C"], "neither A nor B"),
        (["compare", "greedy", "random", "--games", "1"], "--games"),
        (["compare", "greedy", "random", "--until-ci", "0"], "--until-ci"),
        (["compare", "greedy", "random", "--until-ci", "1", "--games", "500", "--max-games", "100"], "--max-games"),
        (["compare", "greedy", "random", "--game", "no-such-game"], "unknown preset"),
        (["tournament", "greedy"], "at least 2 strategies"),
        (["tournament", "greedy", "random", "greedy"], "more than once"),
        (["tournament", "greedy", "nope"], "unknown strategy 'nope'"),
        (["tournament", "greedy", "random", "--players", "9"], "2-8 players"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, args, needle):
    out = tmp_path / "bad.parquet"
    r = run(*args, "--out", str(out))
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr
    assert not out.exists()
