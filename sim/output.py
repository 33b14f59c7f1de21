"""Result files and folders: output paths checked before any work, Parquet and text written
atomically (temporary file, then rename) with run metadata."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rummysim.errors import InputError

if TYPE_CHECKING:  # the CLI imports this module at start-up: no polars or numba until used
    import polars as pl

PACKAGE_VERSION = "0.1.0"


def run_metadata(**fields: object) -> dict[str, str]:
    """Parquet key-value metadata: the given fields as JSON plus package and numba versions."""
    import numba

    meta = {"rummysim.version": PACKAGE_VERSION, "rummysim.numba": numba.__version__}
    for key, value in fields.items():
        meta[f"rummysim.{key}"] = json.dumps(value)
    return meta


@dataclass(frozen=True)
class OutputTarget:
    """Where an output file goes, checked before any game is played (``output_target``).

    ``path`` is the file (a symlink's target, so the link is followed, never replaced);
    ``through`` means write straight into it, because replacing it is not what the user asked
    for (a FIFO), and ``stdout`` means ``-``.
    """

    path: Path
    through: bool = False
    stdout: bool = False


_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a directory"))


def output_target(path: str | Path, option: str = "--out") -> OutputTarget:
    """Check that ``path`` can be written as an output file, before the work that fills it.

    ``-`` is standard output; a FIFO is written through; any other existing file that is not a
    regular file (a device, a socket, a directory) is refused rather than replaced; a symlink is
    followed. The folder is created if needed and probed with a temporary file, so a read-only
    folder, a missing permission or a full disk's refusal to create a file is reported now, in one
    line naming the path and the cause, not after the run.
    """
    if str(path) == "-":
        return OutputTarget(Path("-"), through=True, stdout=True)
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise InputError(f"{option} {path}: {exc.strerror}") from None
    if mode is not None:
        if stat.S_ISFIFO(mode):
            return OutputTarget(real, through=True)
        for test, kind in _KINDS:
            if test(mode):
                raise InputError(f"{option} {path} is {kind}, not a file: give a file path (or - for standard output)")
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".probe", dir=real.parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot write in {real.parent}: {exc.strerror}") from None
    return OutputTarget(real)


_NOT_FOLDERS = ((stat.S_ISREG, "a file"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def check_output_folder(out: str | Path, create: bool, option: str = "--out") -> None:
    """Check, before any game is played, that a sweep can write its folder ``out`` (a symlink
    to a folder is followed): refuse a file or a device, and report a folder that cannot be
    created or written in one line naming the path and the cause (issue 21, points 1-2). With
    ``create`` the folder is made and probed with a temporary file; without (a dry run) nothing
    is written and the nearest existing folder is checked for write permission."""
    real = Path(os.path.realpath(out))
    try:
        mode = os.stat(real).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:
        raise InputError(f"{option} {out}: {exc.strerror}") from None
    if mode is not None:
        for test, kind in _NOT_FOLDERS:
            if test(mode):
                raise InputError(f"{option} {out} is {kind}; a sweep writes a folder")
    existing = next(p for p in (real, *real.parents) if p.exists())
    if not existing.is_dir():
        raise InputError(f"{option} {out}: cannot create it: {existing} is not a folder")
    if not create:
        if not os.access(existing, os.W_OK | os.X_OK):
            raise InputError(f"{option} {out}: cannot write in {existing}: Permission denied")
        return
    try:
        real.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=real)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"{option} {out}: cannot write in {exc.filename or real}: {exc.strerror}") from None


def write_parquet_atomic(df: pl.DataFrame, target: OutputTarget | Path, metadata: dict[str, str]) -> None:
    """Write ``df`` so that readers never see a half-written file: to a temporary name renamed
    into place, or straight through for standard output and FIFOs. Any OS error (a full disk,
    a permission) is one ``InputError`` naming the path, and leaves no partial file."""
    target = target if isinstance(target, OutputTarget) else output_target(target)
    if target.stdout:
        _write_or_explain(lambda: df.write_parquet(sys.stdout.buffer, metadata=metadata), "standard output")
        return
    if target.through:
        _write_or_explain(lambda: _write_parquet_through(df, target.path, metadata), target.path)
        return
    path = target.path
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None
    try:
        _write_or_explain(lambda: df.write_parquet(tmp, metadata=metadata), path)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_parquet_through(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    """Write to a FIFO through one open of it: given the path, polars may open it more than once,
    and a reader that saw the first writer close has gone, so the next open waits for ever (a CI
    run hung so in tests/test_output_paths.py::test_a_fifo_is_written_through)."""
    with open(path, "wb") as sink:
        df.write_parquet(sink, metadata=metadata)


def write_text_atomic(text: str, target: OutputTarget) -> None:
    """``write_parquet_atomic`` for a text file (csv, json): complete or not there at all."""
    data = text.encode()
    if target.stdout:
        _write_or_explain(lambda: sys.stdout.buffer.write(data), "standard output")
        return
    if target.through:
        _write_or_explain(lambda: target.path.write_bytes(data), target.path)
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.path.name}.", suffix=".tmp", dir=target.path.parent)
        os.close(fd)
    except OSError as exc:
        raise InputError(f"cannot write {target.path}: {exc.strerror}") from None
    try:
        _write_or_explain(lambda: Path(tmp).write_bytes(data), target.path)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target.path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_or_explain(write, where: object) -> None:
    try:
        write()
    except OSError as exc:
        raise InputError(f"cannot write {where}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def hands_path(out: Path) -> Path:
    """Where ``--hands`` puts the per-hand rows beside the per-game file."""
    out = Path(out)
    return out.with_name(out.stem + ".hands" + (out.suffix or ".parquet"))
