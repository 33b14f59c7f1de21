"""The output folder of a sweep: its manifest (``_run.json``), lock, staging folder and the
atomic publishing of files, what is already done (resume), and the code identity (engine
fingerprint, git commit) recorded in the manifest and in every file's metadata.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from rummysim.errors import InputError
from rummysim.sweeps.config import FORMAT, SEEDING, Cell, LineupSpec, SweepConfig

MANIFEST = "_run.json"
STAGING = ".staging"
LOCK = ".lock"
GAMES_GLOB = "**/part-*[0-9].parquet"
HANDS_GLOB = "**/*.hands.parquet"


# ---------------------------------------------------------------------------------------------
# code identity, folder checks, lock, what is done


def engine_fingerprint() -> str:
    """Hash of the sources that decide the rows (kernels, strategies, rules encoding): the same
    fingerprint that names the numba cache folder."""
    from rummysim.kernels.common._jit import source_fingerprint

    return source_fingerprint()


def git_commit() -> str | None:
    """The git commit of the code, with ``+dirty`` if tracked files changed; None outside git."""
    base = Path(__file__).resolve().parents[2]  # the checkout holding sim/sweeps/store.py
    try:
        head = subprocess.run(["git", "-C", str(base), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(base), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _write_json_atomic(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _read_manifest(out: Path) -> dict | None:
    path = out / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} is not a readable sweep manifest ({exc}); use another --out folder") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{path} is not a {FORMAT} manifest; use another --out folder")
    return data


def _difference(old: dict, config: SweepConfig) -> str:
    """What differs between a folder's sweep and this one, in words."""
    diffs = []
    for key in ("seed", "games_per_cell", "chunk_size", "hands"):
        if old.get(key) != getattr(config, key):
            diffs.append(f"{key} {json.dumps(getattr(config, key))} here, {json.dumps(old.get(key))} there")
    old_cells = {c["id"]: c.get("label", c["id"]) for c in old.get("cells", [])}
    new_cells = {c.id: c.label for c in config.cells}
    added = [new_cells[c] for c in new_cells if c not in old_cells]
    removed = [old_cells[c] for c in old_cells if c not in new_cells]
    if added:
        diffs.append(f"{len(added)} cell(s) not in it (e.g. {added[0]})")
    if removed:
        diffs.append(f"{len(removed)} of its cells not here (e.g. {removed[0]})")
    if list(old.get("flag_columns", [])) != list(config.flag_columns):
        diffs.append(f"rule columns {list(config.flag_columns)} here, {old.get('flag_columns')} there")
    return "; ".join(diffs) or "a different configuration"


def check_folder(out: Path, config: SweepConfig, engine: str) -> dict | None:
    """The folder's manifest if it holds this very sweep (resume), None if it is new or empty;
    InputError if it holds something else."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file; a sweep writes a folder")
    manifest = _read_manifest(out) if out.is_dir() else None
    if manifest is None:
        if out.is_dir() and any(p.name not in (LOCK, STAGING) for p in out.iterdir()):
            raise InputError(f"--out {out} exists and is not a sweep folder (no {MANIFEST}); use a new or empty folder")
        return None
    if manifest.get("sweep_hash") != config.sweep_hash:
        raise InputError(
            f"{out} holds a different sweep (run {manifest.get('run_id')}, from {manifest.get('source')}): "
            f"{_difference(manifest, config)}; use another --out folder, or delete {out} to start over"
        )
    if manifest.get("code", {}).get("engine") != engine:
        raise InputError(
            f"{out} was started with different engine code (kernels, strategies or rules encoding changed "
            "since), so resumed rows would not match the others; use another --out folder"
        )
    return manifest


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold the folder's lock for the block: one sweep writes to a folder at a time."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        fh = open(out / LOCK, "a+")
    except OSError as exc:
        raise InputError(f"cannot write {out / LOCK}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError(f"another sweep is writing to {out} right now") from None
        yield
    finally:
        fh.close()


CHECKSUM_KEY = "sweep.checksum"
_PART_RE = re.compile(r"^part-(\d+)(\.hands)?\.parquet$")


def frame_checksum(df: pl.DataFrame) -> str:
    """A checksum of a frame's rows (names, types, nulls and values, column by column) that
    does not depend on how Parquet encoded or compressed them, so the rows read back from a file
    can be checked against the value recorded in its footer when it was written."""
    digest = hashlib.sha256()
    for name in df.columns:
        col = df[name]
        if col.dtype in (pl.Categorical, pl.Enum):
            col = col.cast(pl.String)
        digest.update(f"{name}\0{col.dtype}\0{len(col)}\0".encode())
        digest.update(col.is_null().to_numpy().tobytes())
        if col.dtype == pl.String:
            data = "\x1f".join(col.fill_null("").to_list()).encode()
        else:
            data = col.fill_null(0).to_numpy().tobytes()
        digest.update(len(data).to_bytes(8, "big") + data)
    return "sha256:" + digest.hexdigest()


@dataclass
class FolderState:
    """What a sweep folder holds: the verified chunks of each cell, and the damaged files found
    (played again, so they are replaced)."""

    done: dict[str, set[int]] = field(default_factory=dict)
    damaged: list[tuple[Path, str]] = field(default_factory=list)


def scan_folder(out: Path, config: SweepConfig) -> FolderState:
    """Verify every file in a sweep folder (issue 21, points 5 and 6).

    A chunk is done when its games file (and its hands file, with hand rows) is one of this
    sweep's files for that chunk, reads back whole and matches the checksum in its footer; a
    file that fails is recorded as damaged and its chunk played again. A Parquet file anywhere
    else in the folder (a copy of a chunk, another sweep's cell) would be read by ``analyze``
    with the rest, so it is refused by name (InputError) rather than counted twice.
    """
    state = FolderState()
    root = out.resolve()
    if not root.is_dir():
        return state
    cells = {c.path: c for c in config.cells}
    good: dict[tuple[str, int], set[bool]] = {}
    strays: list[Path] = []
    for path in sorted(_data_files(root)):
        rel = path.relative_to(root)
        cell = cells.get(rel.parent.as_posix())
        m = _PART_RE.match(path.name)
        k = int(m.group(1)) if m else -1
        hands = bool(m and m.group(2))
        if cell is None or not 0 <= k < config.chunks_per_cell or path.name != config.part_name(k, hands) or (
                hands and not config.hands):
            strays.append(path)
            continue
        problem = verify_chunk_file(path, config, cell, k)
        if problem is None:
            good.setdefault((cell.id, k), set()).add(hands)
        else:
            state.damaged.append((path, problem))
    if strays:
        _refuse_strays(strays, root, config)
    need = {False, True} if config.hands else {False}
    for (cell_id, k), kinds in good.items():
        if need <= kinds:
            state.done.setdefault(cell_id, set()).add(k)
    return state


def _data_files(root: Path) -> Iterator[Path]:
    """Every ``*.parquet`` under ``root`` that ``analyze`` would read (not in hidden folders)."""
    for path in root.rglob("*.parquet"):
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts):
            yield path


def verify_chunk_file(path: Path, config: SweepConfig, cell: Cell, k: int) -> str | None:
    """None if ``path`` is a whole, unchanged file of chunk ``k`` of ``cell``; else what is wrong."""
    start, count = config.chunk_range(k)
    try:
        meta = pl.read_parquet_metadata(path)
        chunk = json.loads(meta.get("sweep.chunk", "{}"))
    except Exception as exc:  # noqa: BLE001 - any unreadable footer means the file is damaged
        return f"its footer cannot be read ({_one_line(exc)})"
    if (meta.get("sweep.hash") != config.sweep_hash or meta.get("sweep.cell") != cell.id
            or chunk.get("start") != start or chunk.get("stop") != start + count):
        return "its footer is not this sweep's for this chunk"
    try:
        df = pl.read_parquet(path)
    except Exception as exc:  # noqa: BLE001 - a decoding error anywhere in the rows
        return f"its rows cannot be read ({_one_line(exc)})"
    recorded = meta.get(CHECKSUM_KEY)
    if recorded is not None and frame_checksum(df) != recorded:
        return "its rows do not match the checksum recorded when it was written"
    if "hand" not in df.columns and df.height != count:
        return f"it holds {df.height:,} games, not {count:,}"
    return None


def _refuse_strays(strays: list[Path], root: Path, config: SweepConfig) -> None:
    first = strays[0]
    more = f" (and {len(strays) - 1} more such files)" if len(strays) > 1 else ""
    raise InputError(f"{first} {stray_reason(first, root, config)}{more}: analyze would count its rows with "
                     f"the sweep's; move it out of {root}, then rerun")


def stray_reason(path: Path, root: Path, config: SweepConfig) -> str:
    """Why a Parquet file in a sweep folder is not one of its chunk files, in words."""
    try:
        meta = pl.read_parquet_metadata(path)
        chunk = json.loads(meta.get("sweep.chunk", "{}"))
    except Exception:  # noqa: BLE001 - not even a readable footer
        return "is not one of this sweep's files"
    cells = {c.id: c for c in config.cells}
    cell = cells.get(meta.get("sweep.cell", ""))
    if meta.get("sweep.hash") != config.sweep_hash or cell is None or "start" not in chunk:
        return "is not one of this sweep's files"
    kind = ".hands" if path.name.endswith(".hands.parquet") else ""
    own = root / cell.path / config.part_name(int(chunk.get("index", 0)), hands=bool(kind))
    return (f"repeats games {chunk['start']:,}-{chunk['stop'] - 1:,} of cell {cell.id}, which are "
            f"{own.relative_to(root)}'s")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# ---------------------------------------------------------------------------------------------
# files: staged, then renamed into place


def clear_staging(out: Path) -> None:
    """Remove the staging folder (leftovers of killed runs, or of this finished one)."""
    shutil.rmtree(out / STAGING, ignore_errors=True)


def _move_into_place(tmp: Path, final: Path) -> None:
    """The atomic step: a complete file appears under its final name, or nothing does."""
    os.replace(tmp, final)


def publish(df: pl.DataFrame, final: Path, metadata: dict[str, str], staging: Path) -> None:
    """Write ``df`` with ``metadata`` under ``staging``, sync it, and rename it to ``final``."""
    tmp = staging / f"{final.parent.name}-{final.name}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        staging.mkdir(parents=True, exist_ok=True)
        df.write_parquet(tmp, metadata=metadata)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        final.parent.mkdir(parents=True, exist_ok=True)
        _move_into_place(tmp, final)
    except (OSError, pl.exceptions.PolarsError) as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write {final}: {_os_reason(exc)}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _os_reason(exc: BaseException) -> str:
    """The cause of a failed write in words ("No space left on device"), for one error line."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = _one_line(exc)
    m = re.search(r"\(os error (\d+)\)", text)
    return os.strerror(int(m.group(1))) if m else text


# ---------------------------------------------------------------------------------------------
# the manifest


def new_manifest(config: SweepConfig, out: Path, engine: str, commit: str | None) -> dict:
    """The manifest of a sweep started in ``out`` now (not yet saved)."""
    import platform

    import numba

    from rummysim.output import PACKAGE_VERSION

    now = _now()
    run_id = f"{now.replace('-', '').replace(':', '')}-{config.sweep_hash[:8]}"
    source = config.source
    if Path(source).is_file():
        source = str(Path(source).resolve())
    return {
        "format": FORMAT,
        "run_id": run_id,
        "sweep_hash": config.sweep_hash,
        "status": "running",
        "source": source,
        "toml": config.text,
        "name": config.name,
        "description": config.description,
        "seed": config.seed,
        "games_per_cell": config.games_per_cell,
        "chunk_size": config.chunk_size,
        "hands": config.hands,
        "grid": {k: [v.text if isinstance(v, LineupSpec) else v for v in vals] for k, vals in config.grid.items()},
        "flag_columns": list(config.flag_columns),
        "max_players": config.max_players,
        "seeding": SEEDING,
        "layout": {
            "partitions": ["game", "players", "cell"],
            "files": "game=<preset>/players=<n>/cell=<id>/part-NNNN.parquet; chunk k holds games "
                     "k*chunk_size .. min((k+1)*chunk_size, games_per_cell)-1 of its cell",
            "games_glob": "**/*.parquet" if not config.hands else GAMES_GLOB,
            "hands_glob": HANDS_GLOB if config.hands else None,
        },
        "totals": {"cells": len(config.cells), "games": config.total_games,
                   "files": len(config.cells) * config.chunks_per_cell * (2 if config.hands else 1)},
        "cells": [c.as_json(config) for c in config.cells],
        "code": {"rummysim": PACKAGE_VERSION, "numba": numba.__version__, "polars": pl.__version__,
                 "python": platform.python_version(), "git_commit": commit, "engine": engine},
        "created": now,
        "updated": now,
        "completed": None,
        "sessions": [],
    }


def start_session(out: Path, manifest: dict, backend: str, pending: bool) -> dict:
    """Record a new session of this sweep in the manifest and save it; returns the session."""
    session = {"started": _now(), "finished": None, "backend": backend, "files_written": 0,
               "games_written": 0, "elapsed_s": None, "games_per_s": None}
    manifest.setdefault("sessions", []).append(session)
    manifest["status"] = "running" if pending else "complete"
    manifest["updated"] = session["started"]
    _write_json_atomic(out / MANIFEST, manifest)
    return session


def finish_session(out: Path, manifest: dict, session: dict, files: int, games: int, elapsed: float) -> None:
    """Record what the session wrote, mark the sweep complete and save the manifest."""
    session.update({"finished": _now(), "files_written": files, "games_written": games,
                    "elapsed_s": round(elapsed, 3), "games_per_s": round(games / elapsed, 1) if elapsed else None})
    manifest["status"] = "complete"
    manifest["updated"] = session["finished"]
    if not manifest.get("completed"):
        manifest["completed"] = session["finished"]
    _write_json_atomic(out / MANIFEST, manifest)
