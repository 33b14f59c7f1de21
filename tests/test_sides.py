"""Sides in results (issue 14, point 5): the seat -> side map, the side columns of game rows, and
the statistics by side.

Every game today has one seat per side, so every figure by side must equal the seat's; a
hand-made two-side map over four seats (and runs played under such a map) shows that the grouping
adds up the members' wins before partnership games exist.
"""

from __future__ import annotations

import dataclasses
import json

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import rummysim.comparison as comparison
import rummysim.simulation as simulation
from rummysim.analysis.load import Dataset, open_source
from rummysim.analysis.tables import balance, payoffs, seat_table, strategies, strategy_matrix, summarize
from rummysim.errors import InputError
from rummysim.sides import SideMap
from rummysim.simulation import pad_score_columns, prepare, simulate

PARTNERS = SideMap((0, 1, 0, 1))


# ---------------------------------------------------------------------------------------------
# the map


def test_side_map_definition():
    assert SideMap.identity(3).of_seat == (0, 1, 2) and SideMap.identity(3).is_identity
    assert PARTNERS.n_seats == 4 and PARTNERS.n_sides == 2 and not PARTNERS.is_identity
    assert PARTNERS.members(0) == (0, 2) and PARTNERS.members(1) == (1, 3) and PARTNERS.lead_seat(1) == 1
    assert PARTNERS.label(1) == "1+3" and SideMap.identity(3).label(2) == "2"
    # play starts left of the dealer: dealer 1 -> seat 2 (side 0) plays first
    assert PARTNERS.play_order(1) == (0, 1) and PARTNERS.play_order(0) == (1, 0)
    assert SideMap.identity(4).play_order(2) == (3, 0, 1, 2)
    assert SideMap.from_json("[0, 1, 0, 1]") == PARTNERS == SideMap.from_json(PARTNERS.to_json())
    for bad in ((1, 0), (0, 2, 1), (), (0, -1)):
        with pytest.raises(InputError, match="side"):
            SideMap(bad)
    with pytest.raises(InputError, match="not a list"):
        SideMap.from_json('{"a": 1}')


def test_every_run_takes_the_identity_map_from_prepare():
    assert prepare("500-rum", 3, "greedy").sides == SideMap.identity(3)
    assert prepare("5000-rummy", 2, "random").sides == SideMap.identity(2)


# ---------------------------------------------------------------------------------------------
# (a) game rows and metadata


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sides")
    path = tmp / "r.parquet"
    res = simulate("500-rum", players=3, lineup="greedy,random,greedy", games=200, seed=3, out=path, hands=True)
    return path, res


def test_game_rows_and_metadata_carry_the_sides(run):
    path, res = run
    g = res.games
    assert g.columns[-4:] == ["winner_side", "side_score_0", "side_score_1", "side_score_2"]
    assert g.columns[:-4] == ["game_index", "first_dealer", "winner", "hands", "turns", "capped", "capped_hands",
                              "tied_seats", "score_0", "score_1", "score_2"]  # the existing columns, unchanged
    assert g["winner_side"].dtype == pl.Int8 and g["side_score_0"].dtype == g["score_0"].dtype
    assert g["winner_side"].to_list() == g["winner"].to_list()
    for k in range(3):
        assert g[f"side_score_{k}"].to_list() == g[f"score_{k}"].to_list()
    assert (g["winner"] == -1).sum() == (g["winner_side"] == -1).sum()
    meta = pl.read_parquet_metadata(path)
    assert json.loads(meta["rummysim.sides"]) == [0, 1, 2]
    assert json.loads(pl.read_parquet_metadata(path.with_name("r.hands.parquet"))["rummysim.sides"]) == [0, 1, 2]
    assert_frame_equal(pl.read_parquet(path), g)


# ---------------------------------------------------------------------------------------------
# (b) figures by side = figures by seat


def test_run_summary_by_side_equals_by_seat(run):
    _, res = run
    seats, sides = res.summary["seats"], res.summary["sides"]
    assert len(sides) == len(seats) == 3
    for seat, side in zip(seats, sides):
        assert side["side"] == seat["seat"] and side["members"] == [seat["seat"]]
        for key in ("strategy", "wins", "win_rate", "win_rate_ci", "mean_score", "mean_score_ci"):
            assert side[key] == seat[key]
        assert seat["wins"] == int((res.games["winner"] == seat["seat"]).sum())


def test_hand_summary_by_side_equals_by_seat():
    res = simulate("500-rum", players=3, lineup="greedy,random,greedy", games=300, seed=4, unit="hands")
    for seat, side in zip(res.summary["seats"], res.summary["sides"]):
        for key in ("strategy", "went_out", "out_rate", "out_rate_ci", "mean_hand_score", "mean_hand_score_ci"):
            assert side[key] == seat[key]


def test_analyze_by_side_equals_the_seat_figures(run):
    path, res = run
    r = summarize(path).row(0, named=True)
    g = res.games
    n = g.height
    assert r["seats"] == 3 and r["sides"] == 3
    for k in range(3):
        assert r[f"members_{k}"] == str(k)
        assert r[f"win_rate_{k}"] == (g["winner"] == k).sum() / n
        assert r[f"mean_score_{k}"] == pytest.approx(g[f"score_{k}"].mean())
    first = (g["first_dealer"].cast(pl.Int32) + 1) % 3
    assert r["first_seat_win_rate"] == (g["winner"].cast(pl.Int32) == first).sum() / n
    assert r["score_mean"] == pytest.approx(pl.concat([g["score_0"], g["score_1"], g["score_2"]]).mean())
    table = seat_table(summarize(path), [])
    assert table["side"].to_list() == [0, 1, 2] and table["members"].to_list() == ["0", "1", "2"]


# ---------------------------------------------------------------------------------------------
# (d) older files: no side columns, no side map


def _as_old_file(path, target) -> None:
    """The file as written before issue 14: without the side columns and the sides metadata."""
    meta = {k: v for k, v in pl.read_parquet_metadata(path).items() if k != "rummysim.sides" and not k.startswith("ARROW")}
    frame = pl.read_parquet(path)
    frame.drop([c for c in frame.columns if c == "winner_side" or c.startswith("side_score_")]).write_parquet(
        target, metadata=meta)


def test_older_files_analyze_as_one_seat_per_side(run, tmp_path):
    path, _ = run
    old = tmp_path / "old.parquet"
    _as_old_file(path, old)
    _as_old_file(path.with_name("r.hands.parquet"), tmp_path / "old.hands.parquet")
    assert "winner_side" not in pl.read_parquet_schema(old)
    assert_frame_equal(summarize(old), summarize(path))
    assert_frame_equal(balance(old), balance(path))
    assert_frame_equal(payoffs(old, "difference"), payoffs(path, "difference"))
    assert_frame_equal(strategies(old), strategies(path))
    assert_frame_equal(strategy_matrix(old, by=[]), strategy_matrix(path, by=[]))
    # an old file and a new one together: one group, nothing told apart by the map
    both = tmp_path / "both"
    both.mkdir()
    _as_old_file(path, both / "a.parquet")
    pl.read_parquet(path).write_parquet(both / "b.parquet", metadata=pl.read_parquet_metadata(path))
    s = summarize(both)
    assert s.height == 1 and s["games"].item() == 400 and s["win_rate_0"].item() == summarize(path)["win_rate_0"].item()


def test_a_bad_side_map_in_a_file_is_one_line(run, tmp_path):
    path, _ = run
    for text, needle in (("[0, 1]", "has 2 seats, the file 3"), ("[0, 2, 1]", "numbered"), ("oops", "JSON")):
        bad = tmp_path / "bad.parquet"
        pl.read_parquet(path).write_parquet(bad, metadata={**pl.read_parquet_metadata(path), "rummysim.sides": text})
        with pytest.raises(InputError, match=needle) as exc:
            summarize(bad)
        assert str(bad) in str(exc.value) and "\n" not in str(exc.value)


# ---------------------------------------------------------------------------------------------
# (c) a two-side map over four seats


WINNER = [0, 2, 1, 3, 2, 0, 0, -1, 3, 2]  # side 0 (seats 0+2) wins 6 games, side 1 (1+3) 3, one capped
FIRST_DEALER = [1, 1, 2, 0, 1, 3, 1, 3, 0, 0]  # first seats 2,2,3,1,2,0,2,0,1,1: sides 0,0,1,1,0,0,0,0,1,1


def _partner_games(**extra) -> pl.DataFrame:
    n = len(WINNER)
    side = [PARTNERS.of_seat[w] if w >= 0 else -1 for w in WINNER]
    team0 = [300 + g + (200 if side[g] == 0 else 0) for g in range(n)]  # the winners 200 ahead
    team1 = [300 + g + (200 if side[g] == 1 else 0) for g in range(n)]
    return pl.DataFrame({
        "game_index": pl.Series(range(n), dtype=pl.Int64), "first_dealer": pl.Series(FIRST_DEALER, dtype=pl.Int8),
        "winner": pl.Series(WINNER, dtype=pl.Int8), "hands": pl.Series([3] * n, dtype=pl.Int32),
        "turns": pl.Series([30] * n, dtype=pl.Int32), "capped": [w < 0 for w in WINNER],
        "capped_hands": pl.Series([0] * n, dtype=pl.Int32),
        # the kernel's team total sits in each member's column
        "score_0": pl.Series(team0, dtype=pl.Int32), "score_1": pl.Series(team1, dtype=pl.Int32),
        "score_2": pl.Series(team0, dtype=pl.Int32), "score_3": pl.Series(team1, dtype=pl.Int32),
        **extra,
    })


def _check_partner_summary(r: dict) -> None:
    assert r["seats"] == 4 and r["sides"] == 2 and r["games"] == 10 and r["decided"] == 9
    assert (r["members_0"], r["members_1"]) == ("0+2", "1+3")
    assert r["win_rate_0"] == pytest.approx(0.6) and r["win_rate_1"] == pytest.approx(0.3)
    assert r["win_dev_0"] == pytest.approx(0.6 - 0.5)  # fair share 1/2: two sides
    assert "win_rate_2" not in r
    assert r["mean_score_0"] == pytest.approx(424.5) and r["mean_score_1"] == pytest.approx(364.5)
    # the winners' sides 0,0,1,1,0,0,0,-,1,0: the first side won games 0-6 and 8 (seat by seat: 4 games)
    assert r["first_seat_win_rate"] == pytest.approx(0.8) and r["first_seat_adv"] == pytest.approx(0.8 - 0.5)
    assert r["score_mean"] == pytest.approx((424.5 + 364.5) / 2)  # every side's score once, not every seat's


def test_a_two_side_map_adds_up_the_members_wins():
    frame = _partner_games(lineup=["a,b,a,b"] * 10)
    ds = Dataset.from_frame(frame, sides=PARTNERS)
    r = summarize(ds, by=[]).row(0, named=True)
    _check_partner_summary(r)
    assert (r["strategy_0"], r["strategy_1"]) == ("a", "b")
    b = balance(ds, by=[]).row(0, named=True)
    # positions: P1 (the side that plays first) won 8 of 9 decided games
    assert b["players"] == 4 and b["first_edge"] == pytest.approx(8 / 9 - 1 / 2)
    assert b["balance_index"] == pytest.approx(2 * 8 / 9 - 1)  # P2 has the same edge, negative
    pay = payoffs(ds, "game-point", by=[])
    assert pay["side"].to_list() == [0, 1] and pay["members"].to_list() == ["0+2", "1+3"]
    assert pay["total_payoff"].to_list() == pytest.approx([6.0, 3.0])
    diff = payoffs(ds, "difference", by=[])
    assert diff["total_payoff"].sum() == pytest.approx(0.0)
    assert diff["total_payoff"][0] == pytest.approx(200.0 * 6 - 200.0 * 3)  # the loser pays 200 in every game
    st = strategies(ds, by=[]).sort("strategy")
    # seat-games: a sits at seats 0 and 2, and wins with its side
    assert st["seat_games"].to_list() == [20, 20] and st["wins"].to_list() == [12, 6]
    assert st["fair"].to_list() == pytest.approx([0.5, 0.5])
    m = strategy_matrix(ds, by=[]).sort("strategy")
    # only opponents at seats of the other side: (0,1), (0,3), (2,1), (2,3) per game
    assert m.select("strategy", "opponent", "pairs", "wins").rows() == [("a", "b", 40, 24), ("b", "a", 40, 12)]


def test_a_two_side_map_from_file_metadata(tmp_path):
    path = tmp_path / "partners.parquet"
    meta = {"rummysim.players": "4", "rummysim.lineup": json.dumps(["a", "b", "a", "b"]),
            "rummysim.sides": json.dumps(PARTNERS.to_json())}
    _partner_games().write_parquet(path, metadata=meta)
    r = summarize(path).row(0, named=True)
    _check_partner_summary(r)
    assert (r["strategy_0"], r["strategy_1"]) == ("a", "b")
    assert open_source(path).files[0].sides == PARTNERS
    # the stored side columns, when present, are what the statistics read
    stored = tmp_path / "stored.parquet"
    _partner_games().with_columns(
        pl.Series("winner_side", [0, 0, 1, 1, 0, 0, 0, -1, 1, 0], dtype=pl.Int8),
        pl.col("score_0").alias("side_score_0"), pl.col("score_1").alias("side_score_1"),
    ).write_parquet(stored, metadata=meta)
    assert_frame_equal(summarize(stored), summarize(path))


def test_runs_under_a_partnership_map(monkeypatch, tmp_path):
    """A run whose configuration carries a two-side map (what the game registry will supply):
    its rows, metadata, summary and analysis group the seats' wins by side."""
    real = simulation.prepare

    def partnered(*args, **kw):
        return dataclasses.replace(real(*args, **kw), sides=PARTNERS)

    plain = simulate("500-rum", players=4, lineup="greedy,random,greedy,random", games=120, seed=5)
    monkeypatch.setattr(simulation, "prepare", partnered)
    path = tmp_path / "p.parquet"
    res = simulate("500-rum", players=4, lineup="greedy,random,greedy,random", games=120, seed=5, out=path)
    g = res.games
    assert json.loads(pl.read_parquet_metadata(path)["rummysim.sides"]) == [0, 1, 0, 1]
    assert g.drop("winner_side", "side_score_0", "side_score_1").equals(plain.games.drop(
        "winner_side", "side_score_0", "side_score_1", "side_score_2", "side_score_3"))
    team0 = g["winner"].is_in([0, 2])
    assert (g["winner_side"] == 0).to_list() == team0.to_list()
    assert g["side_score_1"].to_list() == g["score_1"].to_list()  # the side's lowest seat
    side0, side1 = res.summary["sides"]
    assert side0["members"] == [0, 2] and side0["strategy"] == "greedy" and side1["strategy"] == "random"
    seat_wins = [s["wins"] for s in plain.summary["seats"]]
    assert side0["wins"] == seat_wins[0] + seat_wins[2] and side1["wins"] == seat_wins[1] + seat_wins[3]
    # a seat counts as winning with its side
    assert [s["wins"] for s in res.summary["seats"]] == [side0["wins"], side1["wins"]] * 2
    r = summarize(path).row(0, named=True)
    assert r["sides"] == 2 and r["win_rate_0"] == pytest.approx(side0["win_rate"])
    assert r["win_rate_1"] == pytest.approx(side1["win_rate"])


def test_compare_under_a_partnership_map(monkeypatch):
    """A and B hold whole game sides; A's wins are its seats' wins; a pattern splitting a side is refused."""
    plain = compare_4p()
    real = comparison.prepare
    monkeypatch.setattr(comparison, "prepare", lambda *a, **kw: dataclasses.replace(real(*a, **kw), sides=PARTNERS))
    teams = compare_4p()
    for x, y in zip(plain.summary["sides"], teams.summary["sides"]):
        assert x["wins"] == y["wins"] and x["seats"] == y["seats"] == 2.0 and y["fair"] == 0.5
    with pytest.raises(InputError, match="splits side 0\\+2"):
        comparison.compare("greedy", "random", players=4, lineup="A,A,B,B", games=4, seed=2)


def compare_4p():
    return comparison.compare("greedy", "random", players=4, lineup="A,B,A,B", games=20, seed=2)


# ---------------------------------------------------------------------------------------------
# sweeps: one schema whatever the player count


def test_pad_score_columns_pads_seats_and_sides():
    frame = pl.DataFrame({"winner": [0], "score_0": [1], "score_1": [2], "winner_side": [0], "side_score_0": [1],
                          "side_score_1": [2], "lineup": ["x"]})
    padded = pad_score_columns(frame, 3)
    assert padded.columns == ["winner", "score_0", "score_1", "score_2", "winner_side", "side_score_0",
                              "side_score_1", "side_score_2", "lineup"]
    assert padded["score_2"].dtype == pl.Int32 and padded["side_score_2"].null_count() == 1
    assert pad_score_columns(frame, 2).equals(frame)
