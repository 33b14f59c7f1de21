"""Damaged and duplicated chunk files in a sweep folder (issue 21, points 5 and 6).

A resume reads every file back against the checksum recorded in its footer and plays a damaged
chunk again; ``analyze`` names a damaged file and the command that repairs it. A copy of a chunk
file (beside the real one or anywhere in the folder) is refused by name by ``analyze`` and by a
resume, instead of counting its games twice.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from rummysim.analysis.tables import summarize
from rummysim.cli.main import main
from rummysim.errors import InputError
from rummysim.sweeps import plan_sweep, sweep

SWEEP = """
[run]
seed = 4
games_per_cell = 600
chunk_size = 200
hands = true

[grid]
players = [2, 3]
lineup = "random"
"""
GAMES = "**/part-*[0-9].parquet"


def rows(out: Path, pattern: str = GAMES) -> pl.DataFrame:
    lf = pl.scan_parquet(str(out / pattern), hive_partitioning=True)
    return lf.collect().sort("cell", *(["game_index", "hand"] if "hands" in pattern else ["game_index"]))


class Run:
    """What ``rummysim ARGS`` printed and its exit code (run in this process: no start-up cost)."""

    def __init__(self, capsys, *args: str) -> None:
        capsys.readouterr()
        with pytest.raises(SystemExit) as done:
            main(list(args))
        captured = capsys.readouterr()
        self.returncode, self.stdout, self.stderr = done.value.code, captured.out, captured.err


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, pl.DataFrame, pl.DataFrame]:
    base = tmp_path_factory.mktemp("damage")
    toml = base / "s.toml"
    toml.write_text(SWEEP)
    out = sweep(toml, base / "ref")
    return toml, rows(out), rows(out, "**/*.hands.parquet")


@pytest.fixture
def dataset(tmp_path, reference) -> Path:
    """A finished copy of the reference sweep to damage (its manifest names the same file)."""
    out = tmp_path / "out"
    shutil.copytree(reference[0].parent / "ref", out)
    return out


def a_chunk(out: Path, k: int = 1, hands: bool = False) -> Path:
    name = f"part-{k:04d}{'.hands' if hands else ''}.parquet"
    return sorted(out.glob(f"game=500-rum/players=2/cell=*/{name}"))[0]


def zero_64_bytes_in_the_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(64)
    path.write_bytes(bytes(data))


def zero_64_bytes_where_analyze_reads(path: Path) -> None:
    """Zero the first 64-byte block of the row data whose loss breaks the columns analyze reads
    (the block found by trying, since the offsets of the pages depend on the encoder)."""
    original = path.read_bytes()
    footer = int.from_bytes(original[-8:-4], "little") + 8
    for offset in range(4, len(original) - footer - 64, 64):
        data = bytearray(original)
        data[offset:offset + 64] = bytes(64)
        path.write_bytes(bytes(data))
        try:
            summarize(path)
        except InputError:  # the damage analyze will meet
            return
    raise AssertionError(f"no 64-byte block of {path} breaks its rows")


def resume_and_check(toml: Path, out: Path, reference) -> None:
    sweep(toml, out)
    assert_frame_equal(rows(out), reference[1])
    assert_frame_equal(rows(out, "**/*.hands.parquet"), reference[2])
    assert summarize(out)["games"].sum() == 2 * 600


# ---------------------------------------------------------------------------------------------
# point 5: damage inside a chunk


def test_zeroed_bytes_are_named_by_analyze_with_the_repair_and_replayed_on_resume(dataset, reference, capsys):
    toml = reference[0]
    bad = a_chunk(dataset)
    zero_64_bytes_where_analyze_reads(bad)
    r = Run(capsys, "analyze", str(dataset))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"error: {bad} is not a readable Parquet file: ")
    assert f"rerun `rummysim sweep {toml} --out {dataset}` to replay it" in r.stderr

    plan = plan_sweep(toml, dataset)
    assert [p for p, _ in plan.damaged] == [bad] and plan.chunks_done == 2 * 3 - 1
    r = Run(capsys, "sweep", str(toml), "--out", str(dataset), "--no-progress")
    assert f"replaying 1 damaged file: {bad.relative_to(dataset)}: its rows cannot be read (" in r.stderr
    assert "(200 games played now" in r.stdout
    resume_and_check(toml, dataset, reference)


def test_rows_changed_behind_an_intact_footer_fail_the_checksum(dataset, reference):
    """A file rewritten with one score changed and its footer kept decodes fine: only the
    checksum recorded at write time shows it."""
    path = a_chunk(dataset, 2)
    meta = pl.read_parquet_metadata(path)
    df = pl.read_parquet(path)
    df = df.with_columns(pl.when(pl.col("game_index") == 450).then(pl.col("score_0") + 5).otherwise(pl.col("score_0"))
                         .alias("score_0"))
    df.write_parquet(path, metadata=meta)
    plan = plan_sweep(reference[0], dataset)
    assert plan.damaged == [(path, "its rows do not match the checksum recorded when it was written")]
    resume_and_check(reference[0], dataset, reference)


@pytest.mark.parametrize("damage", ["truncated", "empty", "hands file zeroed", "another chunk's file"])
def test_other_damage_is_replayed(dataset, reference, damage):
    if damage == "truncated":
        path = a_chunk(dataset, 0)
        path.write_bytes(path.read_bytes()[:-100])
    elif damage == "empty":
        path = a_chunk(dataset, 2)
        path.write_bytes(b"")
    elif damage == "hands file zeroed":
        path = a_chunk(dataset, 1, hands=True)
        zero_64_bytes_in_the_middle(path)
    else:
        path = a_chunk(dataset, 1)
        shutil.copy(a_chunk(dataset, 0), path)
    plan = plan_sweep(reference[0], dataset)
    assert [p for p, _ in plan.damaged] == [path] and len(plan.jobs) == 1
    resume_and_check(reference[0], dataset, reference)


# ---------------------------------------------------------------------------------------------
# point 6: copies of chunk files


@pytest.mark.parametrize("where", ["beside", "elsewhere"])
def test_a_copy_of_a_chunk_is_refused_by_name(dataset, reference, where, capsys):
    real = a_chunk(dataset, 1)
    copy = real.with_name("part-0001 (copy).parquet") if where == "beside" else dataset / "extra" / real.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(real, copy)

    r = Run(capsys, "analyze", str(dataset))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    first, second = sorted([str(real), str(copy)])
    assert r.stderr.strip() == (f"error: {first} and {second} both hold games 200-399 of sweep cell "
                                f"{real.parent.name.removeprefix('cell=')}: one is a copy; remove it "
                                f"(the sweep's own file is {real}) and analyze again")

    r = Run(capsys, "sweep", str(reference[0]), "--out", str(dataset), "--no-progress")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    rel = real.relative_to(dataset)
    assert r.stderr.strip() == (f"error: {copy} repeats games 200-399 of cell {real.parent.name.removeprefix('cell=')}, "
                                f"which are {rel}'s: analyze would count its rows with the sweep's; move it out "
                                f"of {dataset}, then rerun")
    copy.unlink()
    resume_and_check(reference[0], dataset, reference)


def test_a_foreign_file_in_the_folder_is_refused(dataset, reference):
    stray = dataset / "game=500-rum" / "notes.parquet"
    pl.DataFrame({"x": [1]}).write_parquet(stray)
    with pytest.raises(InputError, match=r"notes.parquet is not one of this sweep's files: analyze would count"):
        plan_sweep(reference[0], dataset)


def test_a_renamed_chunk_is_refused_and_its_slot_replayed_once_moved(dataset, reference, tmp_path):
    real = a_chunk(dataset, 0)
    moved = real.with_name("part-0000.old.parquet")
    real.rename(moved)
    with pytest.raises(InputError, match=r"part-0000.old.parquet repeats games 0-199 of cell"):
        plan_sweep(reference[0], dataset)
    moved.rename(tmp_path / "kept.parquet")
    resume_and_check(reference[0], dataset, reference)
