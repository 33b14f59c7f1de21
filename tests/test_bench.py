"""The benchmark suite (`rummysim bench`): its JSON has every section with sane numbers, cases this
build cannot play are reported with their reason, and the target arithmetic is right.

No test here checks a time: speed is measured by the suite, never asserted.
"""

from __future__ import annotations

import io
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from rummysim.bench import (GREEDY_POINT_LINEUP, MILLION, SIZES, TARGETS, THROUGHPUT_CASES, Case, Rates, evaluate_targets, million_games_rss,
                       million_games_seconds, strategies_of)
from rummysim.cli.bench import print_results

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def quick(tmp_path_factory) -> tuple[dict, dict]:
    """The quick suite's JSON on stdout and in the --out file."""
    out = tmp_path_factory.mktemp("bench") / "results" / "bench.json"
    r = run("bench", "--quick", "--json", "--out", str(out))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), json.loads(out.read_text())


def _positive(*values: object) -> bool:
    return all(isinstance(v, (int, float)) and v > 0 for v in values)


def _check_rate_row(row: dict) -> None:
    if not row["available"]:
        assert row["reason"], row  # said, never silently skipped
        return
    for side in ("one_thread", "all_threads"):
        rate = row[side]
        assert _positive(rate["games_per_s"], rate["hands_per_s"], rate["hands_per_cpu_s"], rate["games_per_run"],
                         rate["runs"]), row
    assert _positive(row["scaling"], row["threads"])


def test_stdout_json_is_the_written_file(quick):
    printed, written = quick
    assert printed == written
    assert set(printed) == {"suite", "machine", "throughput", "strategies", "greedy_point", "validator_reference",
                            "rummikub_solver", "startup", "end_to_end", "targets"}
    assert printed["suite"]["mode"] == "quick"


def test_machine_names_numba_and_threading_layer(quick):
    machine = quick[0]["machine"]
    assert machine["numba"] and machine["threading_layer"] and machine["cpu"]
    assert _positive(machine["numba_threads"], machine["cores"])


def test_every_throughput_case_is_a_row(quick):
    rows = quick[0]["throughput"]
    assert [(r["game"], r["players"], r["lineup"]) for r in rows] == [
        (c.game, c.players, c.lineup) for c in THROUGHPUT_CASES]
    for row in rows:
        _check_rate_row(row)
    assert all(r["available"] for r in rows if r["game"] == "500-rum")


def test_every_registered_strategy_of_500_rum_has_a_row(quick):
    rows = quick[0]["strategies"]
    assert [r["lineup"] for r in rows] == [*strategies_of("500-rum"), GREEDY_POINT_LINEUP]
    for row in rows:
        assert (row["game"], row["players"]) == ("500-rum", 4)
        _check_rate_row(row)


def test_greedy_point_cost_is_the_median_of_alternated_pairs(quick):
    """Issue 19 point 3's ratio comes from runs of greedy and the heuristic at greedy's point
    alternated in one process, not from two rows measured minutes apart."""
    point = quick[0]["greedy_point"]
    assert (point["base"], point["other"]) == ("greedy", GREEDY_POINT_LINEUP)
    assert len(point["pairs"]) == SIZES["quick"].repetitions and _positive(*point["pairs"], point["games_per_run"])
    assert point["cost"] == pytest.approx(statistics.median(point["pairs"]))
    target = next(t for t in quick[0]["targets"] if t["key"] == "heuristic_greedy_point_cost")
    assert target["value"] == point["cost"] and "alternated" in target["note"]


def test_paired_cost_reports_a_case_it_cannot_play():
    from rummysim.bench import paired_cost

    result = paired_cost(Case("500-rum", 4, "greedy"), Case("500-rum", 4, "no-such-strategy"), SIZES["quick"])
    assert result["cost"] is None and "unknown strategy" in result["reason"]


def test_validator_reference_replays_the_games_cleanly(quick):
    ref = quick[0]["validator_reference"]
    assert ref["games"] == SIZES["quick"].validator_games and ref["violations"] == 0
    assert _positive(ref["validator_games_per_s"], ref["validator_actions_per_s"], ref["kernel_games_per_s"],
                     ref["kernel_over_validator"])


def test_rummikub_solver_section_compares_the_same_positions(quick):
    r = quick[0]["rummikub_solver"]
    if not r["available"]:
        assert "scipy" in r["reason"]
        return
    assert {g["positions"] for g in r["groups"]} <= {"no jokers", "jokers"} and r["groups"]
    for g in r["groups"]:
        if g["solver_beam_cuts"] == 0:  # every solve proven best: the integer program agrees on all
            assert g["same_answers"] == g["milp_positions"]
        assert _positive(g["count"], g["solver_solves_per_s"], g["milp_solves_per_s"], g["ratio"])


def test_startup_figures(quick):
    s = quick[0]["startup"]
    assert _positive(s["help"]["cold_s"], s["help"]["warm_s"], s["simulate_1_game"]["warm_s"],
                     s["simulate_1_game"]["warm_cpu_s"], s["help"]["cold_cpu_s"])
    one = s["simulate_1_game"]
    # quick mode skips the cold compile (minutes) and says so
    assert one["cold_s"] is None and one["cold_runs"] == 0 and "not measured" in one["note"]
    assert set(s["cold_other"]) == {"heuristic", "5000-rummy"}
    assert all(row["cold_s"] is None and row["cold_runs"] == 0 for row in s["cold_other"].values())


def test_end_to_end_sizes_and_memory(quick):
    e = quick[0]["end_to_end"]
    assert [row["games"] for row in e["sizes"]] == list(SIZES["quick"].e2e_games)
    for row in e["sizes"]:
        assert _positive(row["wall_s"], row["cpu_s"], row["games_per_s"], row["play_games_per_s"], row["peak_rss_mib"],
                         row["threads"])
    assert "--full measures it" in e["million_games_how"] and _positive(e["million_games_s"], e["peak_rss_mib_at_million"])
    assert isinstance(e["rss_growth_mib_per_million_games"], float)


def test_every_target_is_reported(quick):
    targets = quick[0]["targets"]
    assert [t["key"] for t in targets] == [t.key for t in TARGETS]
    for t in targets:
        assert (t["met"] is None) == (t["value"] is None)
    by_key = {t["key"]: t for t in targets}
    for key in ("cold_simulate_s", "cold_simulate_s_19", "cold_heuristic_s", "cold_5000_s"):
        assert by_key[key]["met"] is None and "not measured" in by_key[key]["note"]
    assert "--full measures it" in by_key["million_games_s"]["note"]
    # issue 19's per-core targets read the rows of the same run
    rates = {(r["game"], r["players"], r["lineup"]): r["one_thread"]["hands_per_s"]
             for r in quick[0]["throughput"] + quick[0]["strategies"] if r["available"]}
    assert by_key["digger_hands_per_s"]["value"] == rates[("500-rum", 4, "digger")]
    assert by_key["rum5000_4p_hands_per_s"]["value"] == rates[("5000-rummy", 4, "greedy")]
    assert by_key["hands_per_s_per_core_19"]["value"] == by_key["hands_per_s_per_core"]["value"]


def test_tables_show_every_section_and_unavailable_cases(quick):
    result = quick[0]
    console = Console(file=io.StringIO(), width=200)
    print_results(console, result)
    text = console.file.getvalue()
    for needle in ("throughput", "strategies", "validator reference", "Rummikub solver", "start-up", "end to end",
                   "targets of issues 8, 17 and 19",
                   "MISSED" if any(t["met"] is False for t in result["targets"]) else "met"):
        assert needle in text
    for row in result["throughput"]:
        if not row["available"]:
            assert "not available in this build" in text and row["reason"] in text


def test_the_strategies_table_leaves_out_rummikubs_own_strategies(quick):
    labels = [row.get("label", row["lineup"]) for row in quick[0]["strategies"]]
    assert {"greedy", "heuristic", "rollout"} <= set(labels) and not {"value", "holder"} & set(labels)
    assert all(row["available"] for row in quick[0]["strategies"])


def test_unplayable_case_is_reported_with_its_reason():
    rates = Rates(SIZES["quick"], lambda message: None)
    row = rates.row(Case("500-rum", 9, "greedy"))
    assert row["available"] is False and "2-8 players" in row["reason"]
    row = rates.row(Case("500-rum", 4, "no-such-strategy"))
    assert row["available"] is False and "unknown strategy" in row["reason"]


def test_million_games_time_is_measured_or_labelled():
    rows = [{"games": 10_000, "wall_s": 3.0}, {"games": 100_000, "wall_s": 21.0}]
    value, how = million_games_seconds(rows)
    assert value == pytest.approx(21.0 + 18.0 / 90_000 * 900_000) and how.startswith("extrapolated linearly")
    # start-up noise at tiny sizes: no positive slope, so scale the larger run (never a negative time)
    value, how = million_games_seconds([{"games": 200, "wall_s": 1.5}, {"games": 800, "wall_s": 1.4}])
    assert value == pytest.approx(1.4 / 800 * MILLION) and how.startswith("scaled from 800 games")
    rows = [{"games": 100_000, "wall_s": 21.0}, {"games": MILLION, "wall_s": 190.0}]
    assert million_games_seconds(rows) == (190.0, "measured")


def test_million_games_memory_growth_and_plateau():
    rss, growth, how = million_games_rss([{"games": 100_000, "peak_rss_mib": 240.0}, {"games": MILLION, "peak_rss_mib": 285.0}])
    assert (rss, growth, how) == (285.0, pytest.approx(50.0), "measured")
    rss, growth, how = million_games_rss([{"games": 10_000, "peak_rss_mib": 240.0}, {"games": 100_000, "peak_rss_mib": 249.0}])
    assert rss == pytest.approx(339.0) and growth == pytest.approx(100.0) and how.startswith("extrapolated")
    rss, growth, how = million_games_rss([{"games": 10_000, "peak_rss_mib": 240.0}, {"games": 100_000, "peak_rss_mib": 239.0}])
    assert rss == 239.0 and growth < 0 and "plateau" in how
    assert million_games_rss([{"games": 1, "peak_rss_mib": None}, {"games": 2, "peak_rss_mib": None}])[0] is None


def test_targets_met_missed_and_not_measured():
    values = {t.key: (None, None) for t in TARGETS}
    values["hands_per_s_per_core"] = (100_000.0, None)  # exactly the goal counts as met
    values["million_games_s"] = (60.5, "extrapolated")
    values["thread_scaling"] = (1.79, None)
    values["warm_simulate_s"] = (1.5, None)
    values["heuristic_greedy_point_cost"] = (1.21, None)
    values["cold_5000_s"] = (35.0, "median of 3 runs")
    met = {t["key"]: t["met"] for t in evaluate_targets(values)}
    assert met["heuristic_greedy_point_cost"] is False and met["cold_5000_s"] is True
    assert {k: met[k] for k in ("hands_per_s_per_core", "million_games_s", "thread_scaling", "warm_simulate_s")} == {
        "hands_per_s_per_core": True, "million_games_s": False, "thread_scaling": False, "warm_simulate_s": True}
    assert all(met[k] is None for k, (value, _) in values.items() if value is None)  # not measured


def test_quick_and_full_exclude_each_other(tmp_path):
    r = run("bench", "--quick", "--full", "--out", str(tmp_path / "b.json"))
    assert r.returncode == 2 and r.stderr.strip() == "error: --quick and --full exclude each other"
    assert not (tmp_path / "b.json").exists()


def test_benchmark_script_is_the_bench_command():
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--quick" in r.stdout and "--full" in r.stdout


def test_profile_script_writes_a_perf_map_naming_the_kernels():
    """``benchmarks/profile.py`` (perf profiling, benchmarks/README.md) keeps working: it compiles
    in-process and writes the JIT symbol table ``perf report`` reads."""
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "profile.py"), "--games", "20"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    path = Path(re.search(r"perf map (\S+)", r.stdout).group(1))
    symbols = path.read_text()
    path.unlink()
    assert "play_turn" in symbols and "enumerate_plays" in symbols and "greedy_draw" in symbols
    assert "20 games" in r.stdout
