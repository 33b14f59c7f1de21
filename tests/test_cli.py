"""CLI: the main job end to end, and bad input as one line with exit code 2 and no output."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True)


def test_simulate_writes_games_and_hands(tmp_path):
    out = tmp_path / "runs" / "first.parquet"
    r = run("simulate", "--game", "500-rum", "--players", "4", "--lineup", "greedy,greedy,random,random",
            "--games", "200", "--seed", "7", "--out", str(out), "--hands", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 200 and len(summary["seats"]) == 4
    for seat in summary["seats"]:
        lo, hi = seat["win_rate_ci"]
        assert lo <= seat["win_rate"] <= hi
    games = pl.read_parquet(out)
    hands = pl.read_parquet(tmp_path / "runs" / "first.hands.parquet")
    assert games.height == 200 and games["hands"].sum() == hands.height
    # R500-END-1: every uncapped game ends with a winner at or over the target
    assert ((games["winner"] >= 0) | games["capped"]).all()
    meta = pl.read_parquet_metadata(out)
    assert json.loads(meta["rummysim.seed"]) == 7


def test_simulate_unit_hands(tmp_path):
    out = tmp_path / "h.parquet"
    r = run("simulate", "--players", "2", "--lineup", "greedy,random", "--games", "100", "--unit", "hands", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "independent hands" in r.stdout
    assert pl.read_parquet(out).height == 100


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--game", "no-such-game"], "unknown preset"),
        (["--players", "1"], "2-8 players"),
        (["--players", "9"], "2-8 players"),
        (["--lineup", "greedy,bogus,random,random"], "unknown strategy 'bogus'"),
        (["--rule", "r500_target=7"], "r500_target"),
        (["--rule", "r500_no_such_flag=1"], "r500_no_such_flag"),
        (["--game", "5000-rummy", "--players", "3", "--rule", "r5k_doubling=true"], "r5k_doubling=true is for 2 players"),
        (["--players", "three"], "--players"),
        (["--games", "0"], "--games"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, args, needle):
    out = tmp_path / "bad.parquet"
    r = run("simulate", *args, "--games" if "--games" not in args else "--seed", "10" if "--games" not in args else "1", "--out", str(out))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_rules_list_and_show():
    r = run("rules", "list")
    assert r.returncode == 0 and "500-rum" in r.stdout
    r = run("rules", "show", "500-rum")
    assert r.returncode == 0 and "r500_target" in r.stdout and "V500-TARGET" in r.stdout
    r = run("rules", "show", "nope")
    assert r.returncode == 2 and r.stderr.startswith("error: ")


@pytest.mark.parametrize("args, needle", [(["rules"], "one of list, show, explain, reference"),
                                           ([], "one of simulate, validate")])
def test_a_command_group_without_its_command_is_one_line_exit_2(args, needle):
    r = run(*args)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: missing command: ") and needle in lines[0], r.stderr


def test_validate_and_replay_commands():
    r = run("validate", "--players", "3", "--lineup", "random,greedy,random", "--games", "5", "--seed", "3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "violations 0" in r.stdout
    r = run("replay", "--seed", "3", "--game-index", "1", "--players", "2", "--lineup", "greedy,random")
    assert r.returncode == 0, r.stderr
    assert "♥" in r.stdout or "H" in r.stdout


def test_strategies_list_and_show():
    r = run("strategies", "list")
    assert r.returncode == 0 and "greedy" in r.stdout and "random" in r.stdout
    r = run("strategies", "show", "greedy")
    assert r.returncode == 0 and "deadwood_weight = 1" in r.stdout
    r = run("strategies", "show", "nope")
    assert r.returncode == 2 and r.stderr.startswith("error: unknown strategy")
