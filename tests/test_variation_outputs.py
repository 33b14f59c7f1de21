"""Every output names the preset and the overrides played (issue 22, point 1): the simulate, compare
and tournament summaries (terminal and JSON), the Parquet metadata, sweep cells, analyze tables."""

from __future__ import annotations

import json
import re
from io import StringIO

import polars as pl
import pytest
from rich.console import Console

from rummysim.analysis import tables
from rummysim.analysis.load import open_source
from rummysim.cli.analysis import _print_balance
from rummysim.cli.main import main

TINY_SWEEP = """
[run]
seed = 3
games_per_cell = 24
chunk_size = 24

[grid]
game = ["500-rum", "boathouse"]
players = [3]
lineup = ["greedy"]
r500_target = [250, 300]
"""


def run_cli(capsys, *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    return exc.value.code, capsys.readouterr().out


def test_simulate_names_the_preset_and_overrides_everywhere(capsys, tmp_path):
    out = tmp_path / "bh.parquet"
    code, text = run_cli(capsys, "simulate", "--game", "boathouse", "-n", "3", "--games", "20", "-r", "r500_target=1000",
                         "--out", str(out), "--no-progress")
    assert code == 0 and "boathouse +r500_target=1000 (500-rum), 3 players, 20 games" in text
    code, text = run_cli(capsys, "simulate", "--game", "boathouse", "-n", "3", "--games", "20", "-r", "r500_target=1000",
                         "--json", "--no-progress")
    s = json.loads(text)
    assert (s["preset"], s["overrides"], s["variation"]) == ("boathouse", ["r500_target=1000"],
                                                              "boathouse +r500_target=1000")
    assert s["game"] == "500-rum"
    meta = pl.read_parquet_metadata(out)
    assert json.loads(meta["rummysim.preset"]) == "boathouse"
    assert json.loads(meta["rummysim.overrides"]) == ["r500_target=1000"]
    assert json.loads(meta["rummysim.variation"]) == "boathouse +r500_target=1000"
    # analyze names the one group by it, in the table and in JSON
    code, text = run_cli(capsys, "analyze", str(out))
    assert code == 0 and "boathouse +r500_target=1000: 20 games" in text
    code, text = run_cli(capsys, "analyze", str(out), "--format", "json")
    assert json.loads(text)[0]["variation"] == "boathouse +r500_target=1000"


def test_old_files_without_a_preset_key_get_the_nearest_preset(tmp_path):
    from rummysim.simulation import simulate

    path = tmp_path / "old.parquet"
    simulate("boathouse", players=2, games=10, seed=1, out=path)
    df = pl.read_parquet(path)
    meta = {k: v for k, v in pl.read_parquet_metadata(path).items() if k not in
            ("rummysim.preset", "rummysim.overrides", "rummysim.variation")}
    df.write_parquet(path, metadata=meta)
    assert tables.summarize(path)["variation"].to_list() == ["boathouse"]


def test_compare_and_tournament_summaries_name_the_variation(capsys, tmp_path):
    out = tmp_path / "c.parquet"
    code, text = run_cli(capsys, "compare", "greedy", "random", "--game", "500-rum-long", "-r", "r500_tie_rule=goer_wins",
                         "--games", "6", "--out", str(out), "--no-progress")
    assert code == 0 and "500-rum-long +r500_tie_rule=goer_wins, 2 players" in text
    # analyze groups a compare file by its seatings, and names the one variation above them
    code, text = run_cli(capsys, "analyze", str(out))
    assert text.splitlines()[0] == "variation: 500-rum-long +r500_tie_rule=goer_wins (every file)"
    assert "lineup=greedy,random" in text
    code, text = run_cli(capsys, "compare", "greedy", "random", "--game", "boathouse", "--games", "6", "--json",
                         "--no-progress")
    s = json.loads(text)
    assert s["variation"] == "boathouse" and s["preset"] == "boathouse" and s["overrides"] == []
    code, text = run_cli(capsys, "tournament", "greedy", "random", "--game", "pinochle-rummy", "--games", "4", "--json",
                         "--no-progress")
    assert json.loads(text)["variation"] == "pinochle-rummy"
    code, text = run_cli(capsys, "tournament", "greedy", "random", "--game", "pinochle-rummy", "--games", "4",
                         "--no-progress")
    assert "tournament: pinochle-rummy (500-rum), 2 players" in text


@pytest.fixture(scope="module")
def tiny_sweep(tmp_path_factory):
    from rummysim.sweeps import load_sweep, sweep

    tmp = tmp_path_factory.mktemp("sweep")
    (tmp / "s.toml").write_text(TINY_SWEEP)
    config = load_sweep(tmp / "s.toml")
    return config, sweep(config, tmp / "out")


def test_sweep_cells_are_labelled_by_variation(tiny_sweep):
    config, out = tiny_sweep
    labels = sorted(c.label for c in config.cells)
    assert labels == ["500-rum +r500_target=250, 3 players, greedy", "500-rum +r500_target=300, 3 players, greedy",
                      "boathouse +r500_target=250, 3 players, greedy", "boathouse +r500_target=300, 3 players, greedy"]
    manifest = json.loads((out / "_run.json").read_text())
    assert sorted(c["variation"] for c in manifest["cells"]) == [label.split(",")[0] for label in labels]
    part = next(out.glob("game=boathouse/**/part-*.parquet"))
    meta = pl.read_parquet_metadata(part)
    assert json.loads(meta["rummysim.preset"]) == "boathouse"
    assert json.loads(meta["rummysim.overrides"]) in (["r500_target=250"], ["r500_target=300"])


def test_analyze_groups_a_sweep_by_variation_and_fits_80_columns(tiny_sweep):
    _, out = tiny_sweep
    ds = open_source(out)
    by = tables.resolve_by(ds, None)
    assert by == ["variation"]  # not game, players, cell and every flag that differs
    frame = tables.balance(ds, by)
    assert sorted(frame["variation"].to_list())[0] == "500-rum +r500_target=250"
    buf = StringIO()
    _print_balance(Console(file=buf, width=80), frame, by)
    text = buf.getvalue()
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    for row in frame.to_dicts():  # every label and every number whole, on one line
        line = next(line for line in text.splitlines() if f" {row['variation']} " in line or
                    line.strip().startswith(f"{row['rank']}  {row['variation']}"))
        assert f"{row['balance_index']:.3f}" in line and "…" not in line
    assert "rummysim rules show PRESET" in re.sub(r"\s+", " ", text)
    # an explicit --by still groups by the flag
    assert tables.resolve_by(ds, "r500_target") == ["r500_target"]
