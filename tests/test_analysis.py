"""Analysis layer: statistics on hand-made datasets with known answers, on a real simulated run,
and the ``analyze`` command (formats, views, errors)."""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import polars as pl
import pytest

from rummysim.analysis import tables as analysis_tables
from rummysim.analysis.load import open_source
from rummysim.analysis.tables import balance, payoffs, seat_table, strategies, strategy_matrix, summarize
from rummysim.cli.main import main
from rummysim.errors import InputError

Z = 1.959963984540054


def wilson_ref(k: int, n: int, z: float = Z) -> tuple[float, float]:
    """Textbook Wilson score interval, written out independently of analysis.stats."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def meta(players: int, lineup: list[str], **rules) -> dict[str, str]:
    base = {"game": "500-rum", "r500_target": 500}
    base.update(rules)
    return {
        "rummysim.game": json.dumps("500-rum"), "rummysim.players": json.dumps(players),
        "rummysim.lineup": json.dumps(lineup), "rummysim.seed": json.dumps(1), "rummysim.unit": json.dumps("games"),
        "rummysim.rules": json.dumps(base), "rummysim.version": "0.1.0",
    }


def games_frame(winner, first_dealer, scores, hands=None, capped=None, capped_hands=None, **extra) -> pl.DataFrame:
    n = len(winner)
    hands = hands or [1] * n
    data = {
        "game_index": pl.Series(range(n), dtype=pl.Int64),
        "first_dealer": pl.Series(first_dealer, dtype=pl.Int8),
        "winner": pl.Series(winner, dtype=pl.Int8),
        "hands": pl.Series(hands, dtype=pl.Int32),
        "turns": pl.Series([h * 10 for h in hands], dtype=pl.Int32),
        "capped": pl.Series(capped or [False] * n, dtype=pl.Boolean),
        "capped_hands": pl.Series(capped_hands or [0] * n, dtype=pl.Int32),
    }
    for s, col in enumerate(scores):
        data[f"score_{s}"] = pl.Series(col, dtype=pl.Int32)
    data.update(extra)
    return pl.DataFrame(data)


# -- a hand-made 2-player run: 10 games and 15 hands -------------------------------------------

WINNER = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1]
FIRST_DEALER = [1, 1, 1, 1, 0, 0, 0, 0, 0, 1]  # first seat = [0,0,0,0,1,1,1,1,1,0]: it wins games 0-3, 7, 8
SCORE_0 = [510, 520, 530, 540, 550, 560, 570, 100, 200, 300]
SCORE_1 = [0, 10, 20, 30, 40, 50, 60, 505, 515, 525]
HANDS = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]
HAND_TURNS = list(range(10, 40, 2))  # 15 hands
REASONS = ["out"] * 9 + ["stock_out"] * 3 + ["idle_guard"] * 2 + ["turn_cap"]


@pytest.fixture()
def small_run(tmp_path):
    games = games_frame(WINNER, FIRST_DEALER, [SCORE_0, SCORE_1], hands=HANDS, capped_hands=[0] * 9 + [1])
    path = tmp_path / "small.parquet"
    games.write_parquet(path, metadata=meta(2, ["greedy", "random"]))
    game_index = [g for g, h in enumerate(HANDS) for _ in range(h)]
    hands = pl.DataFrame({
        "game_index": pl.Series(game_index, dtype=pl.Int64),
        "hand": pl.Series([0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], dtype=pl.Int32),
        "dealer": pl.Series([0] * 15, dtype=pl.Int8),
        "reason": pl.Series(REASONS, dtype=pl.Categorical),
        "out_seat": pl.Series([0] * 9 + [-1] * 6, dtype=pl.Int8),
        "turns": pl.Series(HAND_TURNS, dtype=pl.Int32),
        "score_0": pl.Series([10] * 15, dtype=pl.Int32),
        "score_1": pl.Series([-5] * 15, dtype=pl.Int32),
        "calls": pl.Series([1, 1, 1] + [0] * 12, dtype=pl.Int32),
    })
    hands.write_parquet(tmp_path / "small.hands.parquet", metadata=meta(2, ["greedy", "random"]))
    return path


def test_summary_known_answers(small_run):
    s = summarize(small_run)
    assert s.height == 1
    r = s.row(0, named=True)
    assert r["unit"] == "games" and r["games"] == 10 and r["seats"] == 2 and r["decided"] == 10
    assert r["hands"] == 15 and r["capped_games"] == 0 and r["capped_hands"] == 1
    # seat win rates 7/10 and 3/10 with their Wilson intervals (textbook: 7/10 -> [0.3968, 0.8922])
    assert r["win_rate_0"] == 0.7 and r["win_rate_1"] == pytest.approx(0.3)
    assert (r["win_lo_0"], r["win_hi_0"]) == pytest.approx((0.39678, 0.89221), abs=1e-5)
    assert (r["win_lo_1"], r["win_hi_1"]) == pytest.approx(wilson_ref(3, 10))
    assert r["win_dev_0"] == pytest.approx(0.2) and r["win_dev_1"] == pytest.approx(-0.2)
    assert r["strategy_0"] == "greedy" and r["strategy_1"] == "random"
    # first seat (left of the first dealer) won 6 of 10
    assert r["first_seat_win_rate"] == pytest.approx(0.6)
    assert (r["first_seat_win_lo"], r["first_seat_win_hi"]) == pytest.approx(wilson_ref(6, 10))
    assert r["first_seat_adv"] == pytest.approx(0.1)
    assert r["first_seat_adv_lo"] == pytest.approx(wilson_ref(6, 10)[0] - 0.5)
    # final scores
    assert r["mean_score_0"] == pytest.approx(438.0) and r["mean_score_1"] == pytest.approx(175.5)
    sd = float(np.std(SCORE_0, ddof=1))
    assert r["mean_score_lo_0"] == pytest.approx(438.0 - Z * sd / math.sqrt(10))
    pooled = SCORE_0 + SCORE_1
    assert r["score_mean"] == pytest.approx(np.mean(pooled))
    for q in (10, 25, 50, 75, 90):
        assert r[f"score_p{q}"] == pytest.approx(np.quantile(pooled, q / 100))
    assert r["winner_score_mean"] == pytest.approx((sum(SCORE_0[:7]) + sum(SCORE_1[7:])) / 10)
    # lengths: hands per game from game rows, turns per hand from hand rows
    assert (r["hands_per_game_mean"], r["hands_per_game_p50"], r["hands_per_game_p90"]) == pytest.approx((1.5, 1.5, 2.0))
    assert (r["turns_per_hand_mean"], r["turns_per_hand_p50"], r["turns_per_hand_p90"]) == pytest.approx((24.0, 24.0, 35.2))
    # how hands end, and the counters the hand rows have (calls) or lack (floats, deep takes)
    assert (r["ends_out"], r["ends_stock_out"], r["ends_stall"]) == pytest.approx((0.6, 0.2, 0.2))
    assert r["calls_per_hand"] == pytest.approx(0.2)
    assert r["floats_per_hand"] is None and r["deep_takes_per_hand"] is None


def test_seat_table_and_metadata_grouping(small_run):
    s = summarize(small_run, by="r500_target,lineup,players")
    assert s.select("r500_target", "lineup", "players").row(0) == (500, "greedy,random", 2)
    seats = seat_table(s, ["r500_target"])
    assert seats.columns[:4] == ["r500_target", "side", "members", "strategy"]  # one seat per side
    assert seats["members"].to_list() == ["0", "1"]
    assert seats["win_rate"].to_list() == pytest.approx([0.7, 0.3])


def test_hand_rows_grouped_by_a_game_column(small_run):
    """Hand rows take first_dealer from their games (joined on the game index)."""
    s = summarize(small_run, by="first_dealer").sort("first_dealer")
    assert s["games"].to_list() == [5, 5]
    dealer1_games = [g for g, d in enumerate(FIRST_DEALER) if d == 1]
    idx = [g for g, h in enumerate(HANDS) for _ in range(h)]
    turns = [t for t, g in zip(HAND_TURNS, idx) if g in dealer1_games]
    assert s.filter(pl.col("first_dealer") == 1)["turns_per_hand_mean"].item() == pytest.approx(np.mean(turns))


def test_games_without_hand_rows_say_na(tmp_path):
    path = tmp_path / "g.parquet"
    games_frame(WINNER, FIRST_DEALER, [SCORE_0, SCORE_1], hands=HANDS).write_parquet(path)
    r = summarize(path).row(0, named=True)
    assert r["turns_per_hand_mean"] == pytest.approx(10.0)  # turns / hands from game rows
    assert r["turns_per_hand_p50"] is None and r["ends_out"] is None and r["calls_per_hand"] is None
    assert r["strategy_0"] is None  # no metadata, no lineup


def test_counters_the_rules_rule_out_are_na(tmp_path):
    """Hand rows carry calls/floats/deep_takes whatever the rules; only those the rules have count."""
    frame = pl.DataFrame({
        "hand_index": pl.Series(range(4), dtype=pl.Int64), "dealer": pl.Series([0] * 4, dtype=pl.Int8),
        "reason": pl.Series(["out"] * 4, dtype=pl.Categorical), "out_seat": pl.Series([0] * 4, dtype=pl.Int8),
        "turns": pl.Series([9] * 4, dtype=pl.Int32), "score_0": [1] * 4, "score_1": [0] * 4,
        "calls": pl.Series([0] * 4, dtype=pl.Int16), "floats": pl.Series([1, 0, 0, 0], dtype=pl.Int16),
        "deep_takes": pl.Series([2, 2, 1, 1], dtype=pl.Int16),
    })
    path = tmp_path / "h.parquet"
    frame.write_parquet(path, metadata=meta(2, ["greedy", "greedy"], r500_call_rummy="off", r500_going_out="floating"))
    r = summarize(path).row(0, named=True)
    assert r["calls_per_hand"] is None
    assert r["floats_per_hand"] == pytest.approx(0.25) and r["deep_takes_per_hand"] == pytest.approx(1.5)
    std = tmp_path / "std"
    std.mkdir()
    frame.write_parquet(std / "s.parquet", metadata={
        **meta(2, ["greedy", "greedy"], r500_call_rummy="pile", r500_going_out="any"),
        "rummysim.game": json.dumps("standard-rummy"),
        "rummysim.rules": json.dumps({"game": "standard-rummy", "r500_call_rummy": "pile", "r500_going_out": "any"}),
    })
    r = summarize(std).row(0, named=True)
    assert r["calls_per_hand"] is None and r["floats_per_hand"] is None and r["deep_takes_per_hand"] is None


def test_independent_hands(tmp_path):
    n = 20
    out_seat = [0] * 12 + [1] * 6 + [-1] * 2
    dealer = [1] * 10 + [0] * 10  # first seat = 0 for the first 10 hands, 1 for the rest
    frame = pl.DataFrame({
        "hand_index": pl.Series(range(n), dtype=pl.Int64), "dealer": pl.Series(dealer, dtype=pl.Int8),
        "reason": pl.Series(["out"] * 18 + ["stock_out"] * 2, dtype=pl.Categorical),
        "out_seat": pl.Series(out_seat, dtype=pl.Int8), "turns": pl.Series([10] * n, dtype=pl.Int32),
        "score_0": pl.Series([5] * n, dtype=pl.Int32), "score_1": pl.Series([-5] * n, dtype=pl.Int32),
    })
    r = summarize(frame.lazy(), by=[]).row(0, named=True)
    assert r["unit"] == "hands" and r["games"] is None and r["hands"] == 20
    assert r["win_rate_0"] == pytest.approx(0.6) and r["win_rate_1"] == pytest.approx(0.3)
    assert r["first_seat_win_rate"] == pytest.approx((10 + 6) / 20)
    assert r["ends_stock_out"] == pytest.approx(0.1)
    b = balance(frame, by=[]).row(0, named=True)
    assert b["unit"] == "hands" and b["decided"] == 18
    assert b["balance_index"] == pytest.approx(abs(2 * 16 / 18 - 1))


def test_balance_index_and_ranking(tmp_path):
    """Variation A: P1 wins 60 of 100 decided games (plus 10 capped); B: 50 of 100. B is fairer."""
    folder = tmp_path / "runs"
    folder.mkdir()
    n = 100
    first_dealer = [0] * n  # P1 = seat 1
    a_winner = [1] * 60 + [0] * 40 + [-1] * 10
    a = games_frame(a_winner, first_dealer + [0] * 10, [[400] * 110, [500] * 110],
                    hands=[4] * 50 + [6] * 60, capped=[False] * 100 + [True] * 10)
    a.write_parquet(folder / "a.parquet", metadata=meta(2, ["greedy", "greedy"], r500_target=500))
    b = games_frame([1] * 50 + [0] * 50, first_dealer, [[400] * n, [500] * n], hands=[8] * n)
    b.write_parquet(folder / "b.parquet", metadata=meta(2, ["greedy", "greedy"], r500_target=1000))

    bal = balance(folder)
    # grouped by variation (files without a preset key: the nearest preset), fairest first
    assert bal["variation"].to_list() == ["500-rum-long", "500-rum"]
    assert balance(folder, by="r500_target")["r500_target"].to_list() == [1000, 500]
    assert bal["rank"].to_list() == [1, 2]
    fair, skewed = bal.row(0, named=True), bal.row(1, named=True)
    assert fair["balance_index"] == pytest.approx(0.0) and fair["balance_lo"] == 0.0
    assert fair["consistent_with_fair"] is True
    # A: q = (0.6, 0.4), index |2*0.6 - 1| = 0.2; the interval from Bonferroni Wilson at z(0.025/2)
    assert skewed["games"] == 110 and skewed["decided"] == 100
    assert skewed["balance_index"] == pytest.approx(0.2)
    z_adj = 2.241402727604947
    lo, hi = wilson_ref(60, 100, z_adj)
    assert skewed["balance_lo"] == pytest.approx(max(0.0, 2 * lo - 1))
    assert skewed["balance_hi"] == pytest.approx(2 * hi - 1)
    # edges in percentage points over the fair share: 60% - 50% = +10 pp, index = N * |edge|
    assert skewed["worst_position"] == "P1" and skewed["worst_edge"] == pytest.approx(0.1)
    flo, fhi = wilson_ref(60, 100)
    assert (skewed["first_edge_lo"], skewed["first_edge_hi"]) == pytest.approx((flo - 0.5, fhi - 0.5))
    assert skewed["capped_share"] == pytest.approx(10 / 110)
    assert skewed["hands_per_game_mean"] == pytest.approx((50 * 4 + 60 * 6) / 110)
    assert fair["hands_per_game_mean"] == 8.0 and fair["hands_per_game_lo"] == 8.0  # no spread


def test_balance_strongly_unfair_is_not_consistent_with_fair():
    g = games_frame([1] * 90 + [0] * 10, [0] * 100, [[0] * 100, [0] * 100])
    b = balance(g, by=[]).row(0, named=True)
    assert b["balance_index"] == pytest.approx(0.8) and b["consistent_with_fair"] is False and b["balance_lo"] > 0.5


def test_payoffs_difference_and_game_points():
    g = games_frame(
        winner=[0, -1, -1, 1], first_dealer=[0, 0, 0, 0],
        scores=[[520, 600, 700, 700], [300, 600, 100, 650], [450, 100, 50, 10], [None, 300, 40, 5]],
        capped=[False, False, True, False],
    )
    # game 0: 3 players, winner 0 collects 220 + 70; game 1: a tie at 600, each non-winner pays once
    # (500 and 300) and the two winners share 800; game 2: capped, nothing settles; game 3: the
    # recorded winner (seat 1, e.g. V5K-2 must go out) is paid even with a lower total than seat 0
    diff = g.lazy().with_columns(analysis_tables.payoff_columns(4, "difference")).collect()
    rows = diff.select("payoff_0", "payoff_1", "payoff_2", "payoff_3").rows()
    assert rows == [
        (290.0, -220.0, -70.0, None),
        (400.0, 400.0, -500.0, -300.0),
        (0.0, 0.0, 0.0, 0.0),
        (50.0, 1235.0, -640.0, -645.0),  # the winner's total 650 is the reference: seat 0 (700) receives 50
    ]
    for row in rows:
        assert sum(v for v in row if v is not None) == pytest.approx(0.0)  # zero-sum
    assert diff["settled"].to_list() == [True, True, False, True]
    gp = g.lazy().with_columns(analysis_tables.payoff_columns(4, "game-point")).collect()
    assert gp.select("payoff_0", "payoff_1", "payoff_2", "payoff_3").rows() == [
        (1.0, 0.0, 0.0, None), (0.5, 0.5, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)]

    table = payoffs(g, "game-point", by=[])
    assert table["side"].to_list() == [0, 1, 2, 3]
    assert table["games"].to_list() == [4, 4, 4, 3] and table["settled"].to_list() == [3, 3, 3, 2]
    assert table["total_payoff"].to_list() == pytest.approx([1.5, 1.5, 0.0, 0.0])
    assert table["mean_payoff"][0] == pytest.approx(1.5 / 4)
    with pytest.raises(InputError, match="--payoff"):
        payoffs(g, "bogus", by=[])


def test_strategy_tables_from_a_lineup_column(tmp_path):
    """compare-style rows: a lineup column, seats swapped between halves."""
    g = games_frame([0, 0, 0, 1, 1, 1, 1, 0], [0] * 8, [[1] * 8, [2] * 8],
                    lineup=["a,b"] * 4 + ["b,a"] * 4)
    path = tmp_path / "cmp.parquet"
    g.write_parquet(path)
    st = strategies(path, by=[]).sort("strategy")
    assert st["strategy"].to_list() == ["a", "b"]
    assert st["seat_games"].to_list() == [8, 8] and st["wins"].to_list() == [6, 2]
    assert st["win_rate"].to_list() == [0.75, 0.25] and st["edge"].to_list() == [0.25, -0.25]
    assert (st["win_lo"][0], st["win_hi"][0]) == pytest.approx(wilson_ref(6, 8))
    m = strategy_matrix(path, by=[]).sort("strategy")
    assert m.select("strategy", "opponent", "pairs", "wins").rows() == [("a", "b", 8, 6), ("b", "a", 8, 2)]
    # a lineup row column is grouped by default
    s = summarize(path)
    assert s["lineup"].to_list() == ["a,b", "b,a"]
    assert s["strategy_0"].to_list() == ["a", "b"] and s["win_rate_0"].to_list() == [0.75, 0.25]


def test_hive_partitions_and_globs(tmp_path):
    root = tmp_path / "runs" / "sweep"
    for cell, wins in ((0, [0, 0, 1]), (1, [1, 1, 1])):
        d = root / "game=500-rum" / "players=2" / f"cell={cell}"
        d.mkdir(parents=True)
        games_frame(wins, [0, 0, 0], [[1, 2, 3], [4, 5, 6]]).write_parquet(
            d / "part-0000.parquet", metadata=meta(2, ["greedy", "random"]))
    s = summarize(root)
    assert s.columns[:3] == ["game", "players", "cell"]  # hive keys first, in path order
    assert s["cell"].to_list() == [0, 1] and s["win_rate_1"].to_list() == pytest.approx([1 / 3, 1.0])
    g = summarize(str(root / "**" / "*.parquet"), by="cell")
    assert g["win_rate_1"].to_list() == pytest.approx([1 / 3, 1.0])
    assert summarize(root, by="").row(0, named=True)["games"] == 6


def test_docstring_examples():
    result = doctest.testmod(analysis_tables, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 3


# -- a real simulated run ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    from rummysim.simulation import simulate

    tmp = tmp_path_factory.mktemp("real")
    res = simulate("500-rum", players=3, lineup="greedy,random,greedy", games=300, seed=1, out=tmp / "r.parquet", hands=True)
    return tmp / "r.parquet", res


def test_real_run_matches_the_simulation_summary(real_run):
    path, res = real_run
    s = summarize(path)
    assert s.height == 1
    r = s.row(0, named=True)
    ref = res.summary
    assert r["games"] == 300 and r["hands"] == ref["hands"] == res.hands.height
    for seat in ref["seats"]:
        k = seat["seat"]
        assert r[f"strategy_{k}"] == seat["strategy"]
        assert r[f"win_rate_{k}"] == pytest.approx(seat["win_rate"])
        assert [r[f"win_lo_{k}"], r[f"win_hi_{k}"]] == pytest.approx(seat["win_rate_ci"])
        assert r[f"mean_score_{k}"] == pytest.approx(seat["mean_score"])
    assert r["hands_per_game_mean"] == pytest.approx(ref["mean_hands_per_game"])
    assert r["turns_per_hand_mean"] == pytest.approx(ref["mean_turns_per_hand"])
    assert r["ends_out"] + r["ends_stock_out"] + r["ends_stall"] == pytest.approx(1.0)
    assert r["calls_per_hand"] is None and r["floats_per_hand"] is None  # the base rules have neither
    assert r["deep_takes_per_hand"] == pytest.approx(float(res.hands["deep_takes"].cast(pl.Float64).mean()))
    games = res.games
    first = (games["first_dealer"].cast(pl.Int32) + 1) % 3
    assert r["first_seat_win_rate"] == pytest.approx(float((games["winner"].cast(pl.Int32) == first).mean()))

    b = balance(path).row(0, named=True)
    assert b["rank"] == 1 and b["balance_lo"] <= b["balance_index"] <= b["balance_hi"]
    p = payoffs(path, "difference")
    assert p["total_payoff"].sum() == pytest.approx(0.0)
    assert p["games"].to_list() == [300, 300, 300]
    st = strategies(path).sort("strategy")
    assert st["seat_games"].to_list() == [600, 300]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_analyze_formats(real_run, tmp_path, capsys):
    path, _ = real_run
    code, out, _ = run_cli(capsys, "analyze", str(path))
    assert code == 0
    for needle in ("win rate", "first seat (left of the first dealer)", "hands/game", "turns/hand", "hand ends",
                   "rummy calls n/a"):
        assert needle in out
    code, out, _ = run_cli(capsys, "analyze", str(path), "--format", "csv")
    assert code == 0
    import io

    csv = pl.read_csv(io.StringIO(out))
    assert csv["games"].to_list() == [300] and "first_seat_adv" in csv.columns
    code, out, _ = run_cli(capsys, "analyze", str(path), "--balance", "--format", "json")
    assert code == 0 and json.loads(out)[0]["rank"] == 1
    target = tmp_path / "pay.parquet"
    code, out, _ = run_cli(capsys, "analyze", str(path), "--payoff", "game-point", "--format", "parquet", "--out", str(target))
    assert code == 0 and pl.read_parquet(target)["total_payoff"].sum() == pytest.approx(300.0)
    for view in ("--balance", "--strategies", "--matrix"):
        code, out, _ = run_cli(capsys, "analyze", str(path), view)
        assert code == 0 and out.strip()
    code, out, _ = run_cli(capsys, "analyze", str(path), "--payoff", "difference", "--by", "lineup,r500_target")
    assert code == 0 and "lineup=greedy,random,greedy; r500_target=500" in out


@pytest.mark.parametrize(
    "make, extra, needle",
    [
        (lambda d: d / "missing.parquet", [], "missing.parquet does not exist"),
        (lambda d: (d / "empty").mkdir() or d / "empty", [], "no result files"),
        (lambda d: (d / "c.parquet").write_bytes(b"not parquet at all") and d / "c.parquet", [], "c.parquet is not a readable Parquet file"),
        (lambda d: pl.DataFrame({"a": [1]}).write_parquet(d / "f.parquet") or d / "f.parquet", [], "f.parquet is not a rummysim result file"),
        (lambda d: d / "*.nothing", [], "no result files match"),
    ],
)
def test_cli_errors_are_one_line_exit_2(tmp_path, capsys, make, extra, needle):
    path = make(tmp_path)
    code, out, err = run_cli(capsys, "analyze", str(path), *extra)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and needle in err and err.count("\n") == 1


def test_cli_error_bad_by_column_and_corrupt_rows(real_run, tmp_path, capsys):
    path, _ = real_run
    code, _, err = run_cli(capsys, "analyze", str(path), "--by", "players,no_such_column")
    assert code == 2 and "'no_such_column'" in err and str(path) in err and err.count("\n") == 1
    # a file whose footer is intact but whose data pages are not
    data = bytearray(path.read_bytes())
    data[200:4000] = bytes([0x55]) * 3800
    bad = tmp_path / "pages.parquet"
    bad.write_bytes(bytes(data))
    code, _, err = run_cli(capsys, "analyze", str(bad))
    assert code == 2 and "pages.parquet is not a readable Parquet file" in err and err.count("\n") == 1
    for args, needle in ((["--format", "xml"], "--format"), (["--format", "parquet"], "--out"),
                         (["--balance", "--matrix"], "choose one"), (["--payoff", "x"], "--payoff")):
        code, _, err = run_cli(capsys, "analyze", str(path), *args)
        assert code == 2 and needle in err


def test_open_source_reads_only_footers(real_run):
    path, _ = real_run
    ds = open_source(path)
    assert [f.kind for f in ds.files] == ["games", "hands"]  # the .hands.parquet beside it is picked up
    assert ds.files[0].meta["lineup"] == "greedy,random,greedy" and ds.files[0].meta["r500_target"] == 500
