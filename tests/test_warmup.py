"""``rummysim warmup`` and the first-compile note (issue 19 point 5).

Kept cheap: every run uses the session's numba cache (``NUMBA_CACHE_DIR`` set to the folder this
process compiles into) with the markers in a temporary ``XDG_CACHE_HOME``, and plays 500 Rum
greedy on the lean engine, the variant most of the suite compiles anyway.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numba
import pytest

from rummysim import warmup as W
from rummysim.games import get_game
from rummysim.simulation import prepare

NOTE = "compiling the rum500 basic-lean games engine for the first time"


@pytest.fixture
def marker_root(tmp_path, monkeypatch):
    """Markers in a temporary cache root; numba's compiled code still from the session's cache."""
    from rummysim.kernels.common import _jit  # noqa: F401 - names numba's cache folder on import

    monkeypatch.setenv("NUMBA_CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def _simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", "simulate", "-n", "2", "--games", "1", "--json", *args],
                          capture_output=True, text=True, env=dict(os.environ))


def test_first_compile_is_announced_once_and_kept_out_of_the_rates(marker_root):
    cold = _simulate()
    assert cold.returncode == 0, cold.stderr
    assert [line for line in cold.stderr.splitlines() if line.startswith(NOTE)], cold.stderr
    expected = get_game("500-rum").compile_seconds["basic"]
    assert f"about {expected:.0f} s" in cold.stderr and "rummysim warmup" in cold.stderr
    summary = json.loads(cold.stdout)
    assert summary["compile_seconds"] > 0
    assert summary["games_per_s"] == pytest.approx(1 / summary["elapsed_s"])  # the rates exclude the compile
    warm = _simulate()
    assert warm.returncode == 0 and "compiling" not in warm.stderr, warm.stderr
    hands = _simulate("--unit", "hands")  # another entry point: compiled apart, announced apart
    assert "basic-lean hands engine" in hands.stderr, hands.stderr


def test_warmup_compiles_in_a_worker_and_then_finds_it_cached(marker_root):
    cfg = prepare("500-rum", 2, "greedy")
    games = W.variant_of(cfg, "games")
    assert games == W.Variant("rummysim.kernels.rum500.batch", "basic-lean", "games")
    assert not W.is_compiled(games)
    job = W.WarmupJob("500-rum", "greedy", (games,), 20.0)
    seen = []
    compiled = W.run_jobs([job], 1, lambda done, total, name: seen.append((done, total, name)))
    assert [v for v, _ in compiled] == [games] and W.is_compiled(games)
    assert seen == [(0, 1, ""), (1, 1, "rum500 basic-lean games")]
    todo, cached = W.plan(["standard-rummy"])  # the same kernels as 500 Rum: the same variants
    assert games in cached and games not in {v for job in todo for v in job.variants}
    # 4 families x 2 paths x 2 units, and the step API's engine (games only: a Python seat plays whole games)
    assert len({v for job in todo for v in job.variants} | set(cached)) == 17


def test_every_game_has_its_variants_planned(marker_root):
    todo, cached = W.plan()
    names = {v.name for job in todo for v in job.variants} | {v.name for v in cached}
    assert {"rum500 heuristic-full hands", "rum500 rollout-lean games", "rum5000 games", "rummikub hands",
            "rum500 step-api games", "rum5000 step-api games", "rummikub step-api games"} <= names
    assert "rum5000 step-api hands" not in names
    assert todo[0].seconds >= todo[-1].seconds  # the longest first, so the workers end together


def test_warmup_refuses_an_unknown_game():
    r = subprocess.run([sys.executable, "-m", "rummysim", "warmup", "--game", "nosuch"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("error: unknown game 'nosuch'"), r.stderr
    r = subprocess.run([sys.executable, "-m", "rummysim", "warmup", "--jobs", "0"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("error: --jobs must be at least 1"), r.stderr


def test_compare_warms_each_variant_of_its_seatings_once(monkeypatch):
    import rummysim.simulation as simulation

    calls = []
    monkeypatch.setattr(simulation, "warm_up", lambda cfg, seed, unit, note: calls.append((cfg.strategies, unit)))
    cfgs = [prepare("500-rum", 2, "greedy,heuristic"), prepare("500-rum", 2, "heuristic,greedy"),
            prepare("500-rum", 2, "greedy,random"), prepare("500-rum-calling", 2, "greedy")]
    W.warm_up_runs(cfgs, 0, None)
    assert calls == [(["greedy", "heuristic"], "games"), (["greedy", "random"], "games"), (["greedy", "greedy"], "games")]
