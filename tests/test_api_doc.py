"""The API: docs/api.md's notebook session runs as written, and the CLI gives what the API gives."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal

from rummysim import Rules, simulate
from rummysim.errors import RummysimError, UnsupportedRuleError
from rummysim.rules import KERNEL_SUPPORT

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_api_doc_session_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert (tmp_path / "runs/api/report.html").stat().st_size > 0
    assert any((tmp_path / "runs/api/png").glob("*.png"))
    assert "beats" in namespace["cmp"].summary["verdict"]


def test_cli_and_api_give_identical_results(tmp_path):
    args = dict(game="500-rum", players=3, lineup="greedy,random,greedy", games=150, seed=9,
                rule=["r500_card_values=5_10_15"])
    api = simulate(**args, out=tmp_path / "api.parquet")
    out = tmp_path / "cli.parquet"
    r = subprocess.run(
        [sys.executable, "-m", "rummysim", "simulate", "--players", "3", "--lineup", "greedy,random,greedy",
         "--games", "150", "--seed", "9", "--rule", "r500_card_values=5_10_15", "--out", str(out), "--json"],
        capture_output=True, text=True, env={**os.environ},
    )
    assert r.returncode == 0, r.stderr
    assert_frame_equal(pl.read_parquet(out), api.games)
    cli_summary = json.loads(r.stdout)
    assert cli_summary["seats"] == api.summary["seats"]


def test_typed_errors_carry_the_rule(monkeypatch):
    monkeypatch.setitem(KERNEL_SUPPORT, "r5k_doubling", (False,))  # every value is played: a build without one
    try:
        Rules(game="5000-rummy").with_(r5k_doubling=True).check(2)
    except UnsupportedRuleError as err:
        assert err.rule_id == "V5K-13" and isinstance(err, RummysimError)
    else:
        raise AssertionError("expected UnsupportedRuleError")
