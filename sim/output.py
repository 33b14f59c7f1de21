"""Result files: Parquet written atomically (temporary file, then rename) with run metadata."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numba
import polars as pl

from rummysim.errors import InputError

PACKAGE_VERSION = "0.1.0"


def run_metadata(**fields: object) -> dict[str, str]:
    """Parquet key-value metadata: the given fields as JSON plus package and numba versions."""
    meta = {"rummysim.version": PACKAGE_VERSION, "rummysim.numba": numba.__version__}
    for key, value in fields.items():
        meta[f"rummysim.{key}"] = json.dumps(value)
    return meta


def write_parquet_atomic(df: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    """Write ``df`` to ``path`` so that readers never see a half-written file."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create output folder {path.parent}: {exc.strerror}") from None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        df.write_parquet(tmp, metadata=metadata)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def hands_path(out: Path) -> Path:
    """Where ``--hands`` puts the per-hand rows beside the per-game file."""
    out = Path(out)
    return out.with_name(out.stem + ".hands" + (out.suffix or ".parquet"))
