"""Output paths are checked before any game is played, and written safely (issue 21, points 1-2).

Special files are never replaced: a device, socket or folder is refused; a FIFO and ``-`` are
written through; a symlink is followed. OS errors are one ``error:`` line naming the path.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import threading
from pathlib import Path

import polars as pl
import pytest

import rummysim.simulation as simulation
from rummysim.cli.main import main

RUN = ["simulate", "--players", "2", "--lineup", "greedy,random", "--games", "20", "--seed", "3", "--no-progress"]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out = capsys.readouterr()
    return exit_info.value.code, out.out, out.err


@pytest.fixture
def no_games(monkeypatch):
    """Fail loudly if a game is played: the path check must come first."""
    def played(*args, **kwargs):
        raise AssertionError("a game was played before the output path was checked")
    monkeypatch.setattr(simulation, "warm_up", played)
    monkeypatch.setattr(simulation, "play_game_chunk", played)


def test_a_device_is_refused_and_left_alone(capsys, no_games):
    code, _, err = run_cli(capsys, *RUN, "--out", "/dev/full")
    assert code == 2 and err.startswith("error: --out /dev/full is a character device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_folder_is_refused(capsys, tmp_path, no_games):
    code, _, err = run_cli(capsys, *RUN, "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err and "Traceback" not in err


def test_a_folder_that_cannot_be_made_is_reported_before_playing(capsys, tmp_path, no_games):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli(capsys, *RUN, "--out", str(blocker / "sub" / "r.parquet"))
    assert code == 2 and err.startswith(f"error: --out {blocker / 'sub' / 'r.parquet'}: ") and "Not a directory" in err


def test_the_hands_file_is_checked_too(capsys, tmp_path, no_games):
    (tmp_path / "r.hands.parquet").mkdir()
    code, _, err = run_cli(capsys, *RUN, "--hands", "--out", str(tmp_path / "r.parquet"))
    assert code == 2 and "r.hands.parquet is a directory" in err


def test_a_symlink_is_followed_not_replaced(capsys, tmp_path):
    target = tmp_path / "real.parquet"
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    code, _, _ = run_cli(capsys, *RUN, "--out", str(link))
    assert code == 0 and link.is_symlink() and pl.read_parquet(target).height == 20


def test_a_fifo_is_written_through(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _, _ = run_cli(capsys, *RUN, "--out", str(fifo))
    reader.join(timeout=60)
    assert code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert pl.read_parquet(io.BytesIO(received[0])).height == 20


def test_a_full_disk_is_one_line_and_leaves_no_file(capsys, tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    out = tmp_path / "r.parquet"
    code, _, err = run_cli(capsys, *RUN, "--out", str(out))
    assert code == 2 and err.strip() == f"error: cannot write {out}: No space left on device"
    assert list(tmp_path.iterdir()) == []


def test_analyze_checks_its_out_before_reading(capsys, tmp_path):
    code, _, err = run_cli(capsys, "analyze", str(tmp_path / "missing.parquet"), "--format", "csv", "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err


# ---------------------------------------------------------------------------------------------
# sweep: its folder is checked before any game is played

SWEEP = """
[run]
seed = 1
games_per_cell = 30
chunk_size = 10

[grid]
players = [2, 3]
lineup = "random"
"""


@pytest.fixture
def sweep_file(tmp_path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SWEEP)
    return path


@pytest.fixture
def no_sweep_games(monkeypatch):
    """Fail loudly if a sweep plays (or calibrates) before its folder was checked."""
    import rummysim.sweeps.chunks as chunks
    import rummysim.sweeps.run as run

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the sweep folder was checked")
    monkeypatch.setattr(simulation, "play_game_chunk", played)
    monkeypatch.setattr(simulation, "warm_up", played)
    monkeypatch.setattr(chunks, "run_chunk", played)
    monkeypatch.setattr(run, "run_chunk", played)


@pytest.mark.parametrize("dry", [False, True])
def test_sweep_refuses_a_device_and_leaves_it_alone(capsys, sweep_file, no_sweep_games, dry):
    code, _, err = run_cli(capsys, "sweep", str(sweep_file), "--out", "/dev/full", "--no-progress",
                           *(["--dry-run"] if dry else []))
    assert code == 2 and err.strip() == "error: --out /dev/full is a character device; a sweep writes a folder"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_sweep_refuses_a_file(capsys, sweep_file, tmp_path, no_sweep_games):
    (tmp_path / "f").write_text("x")
    code, _, err = run_cli(capsys, "sweep", str(sweep_file), "--out", str(tmp_path / "f"), "--no-progress")
    assert code == 2 and "is a file; a sweep writes a folder" in err and (tmp_path / "f").read_text() == "x"


@pytest.mark.parametrize("dry", [False, True])
def test_sweep_folder_under_a_file_is_one_line_before_playing(capsys, sweep_file, tmp_path, no_sweep_games, dry):
    (tmp_path / "f").write_text("x")
    out = tmp_path / "f" / "runs"
    code, _, err = run_cli(capsys, "sweep", str(sweep_file), "--out", str(out), "--no-progress",
                           *(["--dry-run"] if dry else []))
    assert code == 2 and err.strip() == f"error: --out {out}: cannot create it: {tmp_path / 'f'} is not a folder"


def test_sweep_folder_without_permission_is_one_line_before_playing(capsys, sweep_file, no_sweep_games):
    code, _, err = run_cli(capsys, "sweep", str(sweep_file), "--out", "/sys/rummysim-test", "--no-progress")
    assert code == 2 and err.startswith("error: --out /sys/rummysim-test: cannot write in ")
    assert ("Operation not permitted" in err or "Permission denied" in err) and len(err.strip().splitlines()) == 1


def test_sweep_full_disk_is_one_line_and_leaves_no_partial_file(capsys, sweep_file, tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "sweep", str(sweep_file), "--out", str(out), "--no-progress")
    last = err.strip().splitlines()[-1]
    assert code == 2 and last.startswith(f"error: cannot write {out.resolve()}/game=500-rum/players=2/cell=")
    assert last.endswith("part-0000.parquet: No space left on device") and "Traceback" not in err
    assert err.count("error:") == 1
    assert not list(out.rglob("*.parquet")) and not list(out.rglob("*.tmp"))


# ---------------------------------------------------------------------------------------------
# report: HTML and --png are checked first; a failed --png leaves no HTML


@pytest.fixture(scope="module")
def result_file(tmp_path_factory) -> Path:
    from rummysim.simulation import simulate

    path = tmp_path_factory.mktemp("rep") / "r.parquet"
    simulate("500-rum", players=2, lineup="greedy,random", games=40, seed=2, out=path)
    return path


@pytest.fixture
def no_report_work(monkeypatch):
    import rummysim.analysis.report as report

    def built(*args, **kwargs):
        raise AssertionError("the report was built before its output paths were checked")
    monkeypatch.setattr(report, "build_report", built)


def test_report_refuses_a_device_and_a_folder_before_reading(capsys, result_file, tmp_path, no_report_work):
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", "/dev/full")
    assert code == 2 and err.startswith("error: --out /dev/full is a character device")
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_report_png_folder_is_checked_before_anything_is_written(capsys, result_file, tmp_path, no_report_work):
    (tmp_path / "charts").write_text("x")
    html = tmp_path / "r.html"
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", str(html), "--png", str(tmp_path / "charts"))
    assert code == 2 and err.startswith(f"error: --png {tmp_path / 'charts'}") and "Traceback" not in err
    assert not html.exists()
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", str(html), "--png", "/sys/rummysim-charts")
    assert code == 2 and err.startswith("error: --png /sys/rummysim-charts: ") and not html.exists()


def test_a_failed_png_leaves_no_html_and_no_png(capsys, result_file, tmp_path, monkeypatch):
    real_write, pngs = os.write, []

    def full_at_the_third_png(fd, data):
        if bytes(data[:8]) == b"\x89PNG\r\n\x1a\n":
            pngs.append(fd)
            if len(pngs) == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)
    html = tmp_path / "r.html"
    monkeypatch.setattr(os, "write", full_at_the_third_png)
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", str(html), "--png", str(tmp_path / "png"))
    monkeypatch.undo()
    assert code == 2 and err.strip().endswith(".png: No space left on device") and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [], "the HTML, a PNG or the folder made for them is left"


def test_report_full_disk_leaves_no_html(capsys, result_file, tmp_path, monkeypatch):
    real_write = os.write

    def full(fd, data):
        if len(data) > 10_000:  # the page, not a probe
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)
    html = tmp_path / "r.html"
    monkeypatch.setattr(os, "write", full)
    code, _, err = run_cli(capsys, "report", str(result_file), "--out", str(html))
    monkeypatch.undo()
    assert code == 2 and err.strip() == f"error: cannot write {html}: No space left on device"
    assert list(tmp_path.iterdir()) == []
