"""Sweeps: TOML grid, partitioned dataset, resume after SIGKILL, determinism, Dask, bad input."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from rummysim.errors import InputError
from rummysim.sweeps import SweepConfigError, cell_seed, load_sweep, parse_lineup_spec, sweep

ROOT = Path(__file__).resolve().parent.parent

SMALL = """
[run]
seed = 5
games_per_cell = 40
chunk_size = 15

[grid]
players = [2, 3]
lineup = ["random", "greedy at seat 0, random elsewhere"]
r500_target = [250]
"""

WITH_HANDS = """
[run]
seed = 9
games_per_cell = 30
chunk_size = 10
hands = true

[grid]
game = ["500-rum", "500-rum-calling"]
players = [2, 4]
lineup = ["random"]
"""


def write(tmp_path: Path, text: str, name: str = "sweep.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True, cwd=kw.get("cwd"))


def games(out: Path) -> pl.DataFrame:
    files = "**/part-*[0-9].parquet"
    return pl.scan_parquet(str(out / files), hive_partitioning=True).collect().sort("cell", "game_index")


def hands(out: Path) -> pl.DataFrame:
    lf = pl.scan_parquet(str(out / "**/*.hands.parquet"), hive_partitioning=True)
    return lf.with_columns(pl.col("reason").cast(pl.String)).collect().sort("cell", "game_index", "hand")


def assert_same_dataset(a: Path, b: Path, with_hands: bool = False) -> None:
    ga, gb = games(a), games(b)
    assert_frame_equal(ga, gb)
    assert ga.select("cell", "game_index").is_duplicated().sum() == 0
    if with_hands:
        assert_frame_equal(hands(a), hands(b))
    for out in (a, b):
        assert not list(out.rglob("*.tmp")), "staging leftovers"
        assert json.loads((out / "_run.json").read_text())["status"] == "complete"


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, Path]:
    """Uninterrupted local runs of the two test sweeps."""
    base = tmp_path_factory.mktemp("ref")
    small = sweep(write(base, SMALL, "small.toml"), base / "small")
    with_hands = sweep(write(base, WITH_HANDS, "hands.toml"), base / "hands")
    return {"small": small, "hands": with_hands}


# ---------------------------------------------------------------------------------------------
# parsing and expansion


def test_grid_expands_to_checked_cells():
    cfg = load_sweep({"run": {"seed": 3, "games_per_cell": 100, "chunk_size": 30},
                      "grid": {"players": [2, 4], "lineup": ["greedy", "random at seat 0, greedy elsewhere"],
                               "r500_target": [500, 1000], "r500_call_rummy": "pile"}})
    assert len(cfg.cells) == 8 and cfg.chunks_per_cell == 4 and cfg.total_games == 800
    assert cfg.swept == {"game": 1, "players": 2, "lineup": 2, "r500_target": 2, "r500_call_rummy": 1}
    assert cfg.flag_columns == ("r500_target", "r500_call_rummy")
    lineups = {(c.players, c.lineup) for c in cfg.cells}
    assert (4, ("random", "greedy", "greedy", "greedy")) in lineups and (2, ("greedy", "greedy")) in lineups
    for c in cfg.cells:
        assert c.rules["r500_call_rummy"] == "pile" and c.path == f"game=500-rum/players={c.players}/cell={c.id}"
        assert c.seed == cell_seed(3, c.hash) and 0 <= c.seed < 2**63
        assert c.id.startswith("c") and len(c.id) == 11
    assert len({c.id for c in cfg.cells}) == 8 and len({c.seed for c in cfg.cells}) == 8
    assert cfg.chunk_range(3) == (90, 10) and cfg.part_name(3) == "part-0003.parquet"


def test_cell_ids_are_stable_and_seeds_follow_the_run_seed():
    a = load_sweep({"run": {"seed": 1, "games_per_cell": 10}, "grid": {"players": [3, 2], "r500_target": [1000]}})
    b = load_sweep({"run": {"games_per_cell": 99, "seed": 1},
                    "grid": {"r500_target": 1000, "players": [2, 3], "lineup": "all greedy"}})
    c = load_sweep({"run": {"seed": 2, "games_per_cell": 10}, "grid": {"players": [2, 3], "r500_target": [1000]}})
    assert sorted(x.id for x in a.cells) == sorted(x.id for x in b.cells) == sorted(x.id for x in c.cells)
    assert {x.seed for x in a.cells} == {x.seed for x in b.cells}
    assert not {x.seed for x in a.cells} & {x.seed for x in c.cells}


@pytest.mark.parametrize("spec, players, seats", [
    ("greedy", 3, ["greedy"] * 3),
    ("all random", 2, ["random"] * 2),
    ("all seats random", 2, ["random"] * 2),
    ("greedy,random,random", 3, ["greedy", "random", "random"]),
    (["random", "greedy"], 2, ["random", "greedy"]),
    ("random at seat 2, greedy elsewhere", 4, ["greedy", "greedy", "random", "greedy"]),
    ("random at seats 0 and 2, greedy elsewhere", 4, ["random", "greedy", "random", "greedy"]),
    ("greedy at seat 0, greedy at seat 1, random elsewhere", 3, ["greedy", "greedy", "random"]),
])
def test_lineup_forms(spec, players, seats):
    assert parse_lineup_spec(spec).resolve(players) == seats


def test_strategy_parameters_in_lineups_and_as_a_grid_axis():
    """Issue 18 point 1: parameters set in a sweep's lineup, and a swept parameter as an axis set
    on every seat that plays the strategy; the cell's lineup names them canonically."""
    config = load_sweep({"run": {"games_per_cell": 10}, "grid": {
        "players": [2], "lineup": ["heuristic:min_gain=3 at seat 0, greedy elsewhere", "cautious"],
        "heuristic": {"max_take": [0, 2]}, "cautious": {"max_take": [1]}}}, label="params", expand=False)
    assert parse_lineup_spec("heuristic:min_gain=5:max_take=0,greedy").resolve(2) == ["heuristic", "greedy"]
    assert config.swept == {"game": 1, "players": 1, "lineup": 2, "heuristic:max_take": 2, "cautious:max_take": 1}
    with pytest.raises(SweepConfigError, match=r"no seat of lineup heuristic:min_gain=3,greedy plays cautious \(and 3 more"):
        config.cells  # noqa: B018
    config = load_sweep({"run": {"games_per_cell": 10}, "grid": {
        "players": [2], "lineup": ["heuristic:min_gain=3 at seat 0, greedy elsewhere"], "heuristic": {"max_take": [0, 2]}}})
    assert [c.lineup for c in config.cells] == [("heuristic:min_gain=3", "greedy"),
                                                ("heuristic:min_gain=3:max_take=2", "greedy")]
    assert len({c.id for c in config.cells}) == 2


@pytest.mark.parametrize("text, key, needle", [
    ("[run]\ngames_per_cell = 10\n[grid\n", "", "not valid TOML"),
    ("[grid]\nplayers = [2]\n", "[run]", "games_per_cell"),
    ("[run]\ngames_per_cell = 10\nchunksize = 5\n", "[run] chunksize", "did you mean 'chunk_size'"),
    ("[run]\ngames_per_cell = 0\n", "[run] games_per_cell", ">= 1"),
    ("[run]\ngames_per_cell = 10\n[sweep]\n", "[sweep]", "unknown table"),
    ("[run]\ngames_per_cell = 10\n[grid]\nr500_targt = [500]\n", "[grid] r500_targt", "did you mean 'r500_target'"),
    ("[run]\ngames_per_cell = 10\n[grid]\nplayers = [4, 9]\n", "[grid] players", "9 players"),
    ("[run]\ngames_per_cell = 10\n[grid]\ngame = ['standard-rummy']\nplayers = [7]\n", "[grid] players", "2-6 players"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['greedy', 'smart']\n", "[grid] lineup", "unknown strategy 'smart'"),
    ("[run]\ngames_per_cell = 10\n[grid]\nplayers = [2, 4]\nlineup = ['greedy,random,greedy,random']\n",
     "[grid] lineup", "names 4 seats for 2 players"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['random at seat 5, greedy elsewhere']\n", "[grid] lineup", "seat 5"),
    ("[run]\ngames_per_cell = 10\n[grid]\nr500_score_divisor = [1, 5]\n", "[grid] r500_score_divisor", "V500-DIV5"),
    ("[run]\ngames_per_cell = 10\n[grid]\nr500_target = [500, 7]\n", "[grid] r500_target", "allowed 50..100000"),
    ("[run]\ngames_per_cell = 10\n[grid]\ngame = ['5000-rummy']\nplayers = [3]\nr5k_doubling = [true]\n",
     "[grid] r5k_doubling", "is for 2 players"),
    ("[run]\ngames_per_cell = 10\n[grid]\ngame = ['500-rum', 'standard-rummy']\nr500_target = [1000]\n",
     "[grid] r500_target", "belongs to 500-rum"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['greedy', 'greedy,greedy,greedy,greedy']\n", "[grid] lineup",
     "same game"),
    ("[run]\ngames_per_cell = 10\n[grid]\ngame = ['500-rumm']\n", "[grid] game", "did you mean '500-rum'"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['heuristic:max_take=-1']\n", "[grid] lineup", "max_take=-1 is out of range"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['heuristic']\nheuristic.max_take = [-1]\n",
     "[grid] heuristic.max_take", "out of range [0, inf]"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['heuristic']\nheuristic.max_takes = [1]\n",
     "[grid] heuristic.max_takes", "no parameter 'max_takes'"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['greedy']\nheuristic.max_take = [1]\n",
     "[grid] heuristic.max_take", "no seat of lineup greedy,greedy,greedy,greedy plays heuristic"),
])
def test_bad_sweep_files_name_file_key_and_reason(tmp_path, text, key, needle):
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(SweepConfigError) as info:
        load_sweep(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {key}" if key else f"{path}: "), message
    assert needle in message and "\n" not in message


@pytest.mark.parametrize("text, needle", [
    ("[run]\ngames_per_cell = 10\n[grid\n", "not valid TOML"),
    ("[run]\ngames_per_cell = 10\n[grid]\nplayers = [4, 9]\n", "[grid] players"),
    ("[run]\ngames_per_cell = 10\n[grid]\nlineup = ['greedy,bogus']\n", "unknown strategy 'bogus'"),
])
def test_cli_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, text, needle):
    path = write(tmp_path, text, "bad.toml")
    out = tmp_path / "runs" / "bad"
    r = cli("sweep", str(path), "--out", str(out))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: ") and needle in lines[0], r.stderr
    assert not (tmp_path / "runs").exists()


def test_dask_flags_without_dask_say_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    path = write(tmp_path, SMALL)
    for kw in ({"cluster": "local:2"}, {"scheduler": "tcp://127.0.0.1:8786"}):
        with pytest.raises(InputError, match=r"pip install '\.\[distributed\]'"):
            sweep(path, tmp_path / "out", **kw)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name, cells", [("variation-balance", 8), ("player-counts", 14), ("lineup-study", 12)])
def test_examples_are_valid_sweeps(name, cells):
    cfg = load_sweep(ROOT / "examples" / f"{name}.toml")
    assert len(cfg.cells) == cells and cfg.name == name
    assert f"examples/{name}.toml" in (ROOT / "README.md").read_text()


def test_dry_run_lists_the_cells_and_writes_nothing(tmp_path):
    out = tmp_path / "runs" / "lineups"
    r = cli("sweep", str(ROOT / "examples" / "lineup-study.toml"), "--out", str(out), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "12 cells (game 1 x players 3 x lineup 4)" in r.stderr and "random,greedy,greedy,greedy" in r.stdout
    assert not out.exists()


# ---------------------------------------------------------------------------------------------
# dataset, determinism, resume


def test_dataset_reads_with_polars_and_analyze(reference):
    out = reference["small"]
    df = pl.scan_parquet(str(out / "**/*.parquet"), hive_partitioning=True).collect()
    assert df.height == 4 * 40
    assert {"game", "players", "cell", "lineup", "r500_target", "score_0", "score_2"} <= set(df.columns)
    assert df.filter(pl.col("players") == 2)["score_2"].null_count() == 2 * 40  # padded seat
    assert set(df["lineup"].unique()) == {"random,random", "random,random,random", "greedy,random",
                                          "greedy,random,random"}
    files = sorted(out.rglob("*.parquet"))
    assert len(files) == 4 * 3 and all(f.name.startswith("part-") for f in files)
    meta = pl.read_parquet_metadata(files[0])
    manifest = json.loads((out / "_run.json").read_text())
    cell = next(c for c in manifest["cells"] if c["id"] == files[0].parent.name.removeprefix("cell="))
    assert meta["sweep.run_id"] == manifest["run_id"] and json.loads(meta["rummysim.seed"]) == cell["seed"]
    assert json.loads(meta["sweep.chunk"]) == {"index": 0, "start": 0, "stop": 15}
    assert json.loads(meta["rummysim.rules"]) == cell["rules"] and meta["rummysim.numba"]
    assert "sweep.git_commit" in meta and manifest["totals"] == {"cells": 4, "games": 160, "files": 12}

    # a cell's games are simulate's games for the cell seed
    from rummysim.simulation import simulate
    res = simulate(players=cell["players"], lineup=",".join(cell["lineup"]), games=40, seed=cell["seed"],
                   rule=["r500_target=250"])
    mine = games(out).filter(pl.col("cell") == cell["id"]).select(res.games.columns)
    assert_frame_equal(mine, res.games)

    r = cli("analyze", str(out), "--by", "players,lineup", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert sum(row["games"] for row in rows) == 160 and len(rows) == 4


def test_same_rows_for_any_chunk_size_and_thread_count(tmp_path, reference):
    for chunk, threads in ((7, 1), (40, 2)):
        text = SMALL.replace("chunk_size = 15", f"chunk_size = {chunk}")
        out = sweep(write(tmp_path, text, f"c{chunk}.toml"), tmp_path / f"c{chunk}", threads=threads)
        assert_frame_equal(games(out), games(reference["small"]))


KILLER = """
import os, signal, sys
import rummysim.sweeps as s
import rummysim.sweeps.store as store
kill_at, calls = int(sys.argv[3]), [0]
move = store._move_into_place
def killer(tmp, final):
    calls[0] += 1
    if calls[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
    move(tmp, final)
store._move_into_place = killer
s.sweep(sys.argv[1], sys.argv[2])
"""


def test_resume_after_sigkill_gives_the_uninterrupted_rows(tmp_path, reference):
    """SIGKILL before the 1st, 8th (a chunk's hands file moved, not its games file) and last file
    move, then rerun the same command; also once at an arbitrary moment from outside."""
    path = write(tmp_path, WITH_HANDS)
    total_moves = 2 * 4 * 3  # (games + hands) x cells x chunks
    for kill_at in (1, 8, total_moves):
        out = tmp_path / f"k{kill_at}"
        r = subprocess.run([sys.executable, "-c", KILLER, str(path), str(out), str(kill_at)], capture_output=True)
        assert r.returncode == -signal.SIGKILL, r.stderr
        assert len(list(out.rglob("*.parquet"))) == kill_at - 1
        assert json.loads((out / "_run.json").read_text())["status"] == "running"
        r = cli("sweep", str(path), "--out", str(out))
        assert r.returncode == 0, r.stderr
        assert_same_dataset(out, reference["hands"], with_hands=True)

    out = tmp_path / "external"
    proc = subprocess.Popen([sys.executable, "-m", "rummysim", "sweep", str(path), "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline and len(list(out.rglob("*.parquet"))) < 5:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    r = cli("sweep", str(path), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert_same_dataset(out, reference["hands"], with_hands=True)


def test_rerun_of_a_complete_sweep_plays_nothing_and_another_sweep_is_refused(tmp_path):
    path = write(tmp_path, SMALL)
    out = sweep(path, tmp_path / "out")
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    r = cli("sweep", str(path), "--out", str(out))
    assert r.returncode == 0 and "nothing to do" in r.stdout, r.stderr
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == before
    # comments and key order do not make another sweep; a different seed does
    write(tmp_path, "# same sweep\n" + SMALL.replace("seed = 5\n", "") .replace("[run]\n", "[run]\nseed = 5\n"), "same.toml")
    assert cli("sweep", str(tmp_path / "same.toml"), "--out", str(out)).returncode == 0
    other = write(tmp_path, SMALL.replace("seed = 5", "seed = 6"), "other.toml")
    r = cli("sweep", str(other), "--out", str(out))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "holds a different sweep" in r.stderr and "seed 6 here, 5 there" in r.stderr
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")} == before
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.txt").write_text("x")
    with pytest.raises(InputError, match="not a sweep folder"):
        sweep(path, tmp_path / "plain")


# ---------------------------------------------------------------------------------------------
# Dask


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as cluster:
        yield cluster


def test_dask_cluster_gives_the_local_rows(tmp_path, reference, dask_cluster):
    path = write(tmp_path, WITH_HANDS)
    r = cli("sweep", str(path), "--out", str(tmp_path / "dask"), "--scheduler", dask_cluster.scheduler_address)
    assert r.returncode == 0, r.stderr
    assert "dask" in r.stderr and "2 workers" in r.stderr
    assert_same_dataset(tmp_path / "dask", reference["hands"], with_hands=True)


def test_dask_killed_worker_chunks_are_retried(tmp_path, reference, dask_cluster):
    from distributed import Client

    text = SMALL.replace("chunk_size = 15", "chunk_size = 4")  # 40 chunks
    killed = []
    with Client(dask_cluster) as client:
        pids = client.run(os.getpid)

        def progress(done: int, total: int) -> None:
            if not killed and done >= total // 4:
                busy = [addr for addr, tasks in client.processing().items() if tasks and addr in pids]
                victim = busy[0] if busy else sorted(pids)[0]
                os.kill(pids[victim], signal.SIGKILL)  # mid-chunk when busy: its task is rescheduled
                killed.append(victim)

        out = sweep(write(tmp_path, text), tmp_path / "killed", scheduler=client, progress=progress)
        assert killed
        client.wait_for_workers(2, timeout=60)  # the nanny brings the worker back for later tests
    assert_frame_equal(games(out), games(reference["small"]))
    assert not list(out.rglob("*.tmp"))
    assert len(list(out.rglob("*.parquet"))) == 4 * 10


def test_local_cluster_flag(tmp_path, reference):
    pytest.importorskip("distributed")
    out = sweep(write(tmp_path, SMALL), tmp_path / "lc", cluster="local:1")
    assert_frame_equal(games(out), games(reference["small"]))
    manifest = json.loads((out / "_run.json").read_text())
    assert "1 workers" in manifest["sessions"][-1]["backend"]
