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
    monkeypatch.setattr(simulation, "_warm_up", played)
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
