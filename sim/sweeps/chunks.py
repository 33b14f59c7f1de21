"""Chunk jobs: one chunk of one cell, built from the sweep and its folder, then played and
written by the same code locally and on Dask workers.

A :class:`ChunkJob` is small and picklable, so a Dask task carries it to a worker, which plays
its games, pads and decorates the rows and publishes the file(s) into the shared folder.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from rummysim.rules import Rules, format_value
from rummysim.sweeps.config import Cell, SweepConfig, canonical
from rummysim.sweeps.store import CHECKSUM_KEY, STAGING, FolderState, frame_checksum, publish, scan_folder

if TYPE_CHECKING:
    from rummysim.simulation import RunConfig


@dataclass(frozen=True)
class ChunkJob:
    """Everything a worker needs to play and write one chunk (picklable, small)."""

    root: str
    staging: str
    cell_id: str
    cell_path: str
    preset: str
    players: int
    lineup: tuple[str, ...]
    rules: dict[str, object]
    seed: int
    index: int
    start: int
    count: int
    hands: bool
    pad_players: int
    columns: tuple[tuple[str, object, str], ...]  # (name, value, polars dtype name)
    part: str
    hands_part: str
    cell_meta: dict[str, str]  # shared by the chunks of a cell (memory stays small for many chunks)
    betting: tuple[str, ...] | None = None  # a stakes cell's betting policies

    @property
    def metadata(self) -> dict[str, str]:
        """The file's key-value metadata: the cell's, plus this chunk's game count and range."""
        chunk = {"index": self.index, "start": self.start, "stop": self.start + self.count}
        return {**self.cell_meta, "rummysim.count": json.dumps(self.count), "sweep.chunk": json.dumps(chunk)}

    @property
    def final(self) -> Path:
        return Path(self.root) / self.cell_path / self.part

    @property
    def final_hands(self) -> Path:
        return Path(self.root) / self.cell_path / self.hands_part


@dataclass(frozen=True)
class CellWork:
    """What is left of one cell: its chunks not yet (validly) written, and their games."""

    cell: Cell
    chunks: int  # of the cell, done or not
    done: frozenset[int]
    games: int  # left to play

    @property
    def left(self) -> int:
        return self.chunks - len(self.done)

    def pending(self) -> Iterator[int]:
        return (k for k in range(self.chunks) if k not in self.done)


class PendingChunks:
    """The chunks of a sweep still to play in its folder. A plan may have millions, so the jobs
    are built one at a time as they are iterated (in cell order, then chunk order); the counts
    are known up front."""

    def __init__(self, config: SweepConfig, out: Path, run_id: str, commit: str | None, engine: str,
                 folder: FolderState) -> None:
        self.config = config
        self.root = out.resolve()
        self.run_id, self.commit, self.engine = run_id, commit, engine
        self.folder = folder
        self.cells: list[CellWork] = []
        for cell in config.cells:
            done = frozenset(folder.done.get(cell.id, ()))
            if len(done) < config.chunks_per_cell:
                games = config.games_per_cell - sum(config.chunk_range(k)[1] for k in done)
                self.cells.append(CellWork(cell, config.chunks_per_cell, done, games))
        self.chunks = sum(w.left for w in self.cells)
        self.games = sum(w.games for w in self.cells)
        self._columns = _flag_column_types(config)

    def __len__(self) -> int:
        return self.chunks

    def __bool__(self) -> bool:
        return self.chunks > 0

    def __iter__(self) -> Iterator[ChunkJob]:
        for work in self.cells:
            yield from self.of_cell(work)

    def of_cell(self, work: CellWork) -> Iterator[ChunkJob]:
        """The jobs of one cell (they share its metadata, so memory stays small)."""
        cell, config = work.cell, self.config
        meta = self._cell_meta(cell)
        consts = tuple((name, _column_value(cell.rules[name], kind), kind) for name, kind in self._columns)
        for k in work.pending():
            start, count = config.chunk_range(k)
            yield ChunkJob(
                root=str(self.root), staging=str(self.root / STAGING), cell_id=cell.id, cell_path=cell.path,
                preset=cell.preset, players=cell.players, lineup=cell.lineup, rules=cell.rules, seed=cell.seed,
                index=k, start=start, count=count, hands=config.hands, pad_players=config.max_players,
                columns=consts, part=config.part_name(k), hands_part=config.part_name(k, hands=True), cell_meta=meta,
                betting=cell.betting,
            )

    def _cell_meta(self, cell: Cell) -> dict[str, str]:
        from rummysim.output import run_metadata

        meta = run_metadata(game=cell.game, players=cell.players, lineup=list(cell.lineup), seed=cell.seed,
                            unit="games", count=self.config.chunk_size, rules=cell.rules,
                            **({} if cell.variation is None else cell.variation.as_json()),
                            **({} if cell.betting is None else {"betting": list(cell.betting)}))
        meta.update({
            "sweep.run_id": self.run_id, "sweep.hash": self.config.sweep_hash, "sweep.cell": cell.id,
            "sweep.label": cell.label, "sweep.run_seed": str(self.config.seed), "sweep.git_commit": self.commit or "",
            "sweep.engine": self.engine,
        })
        return meta


def pending_jobs(config: SweepConfig, out: Path, run_id: str, commit: str | None, engine: str) -> PendingChunks:
    """The chunks of ``config`` still to play in ``out``: every file already there is verified
    (footer and checksum; a damaged chunk is played again) and a file that is not one of the
    sweep's own (a copy, another sweep's) is refused by name (``store.scan_folder``)."""
    return PendingChunks(config, out, run_id, commit, engine, scan_folder(out, config))


def _flag_column_types(config: SweepConfig) -> list[tuple[str, str]]:
    """Each rule-flag column with one Parquet type for the whole sweep (text if values mix types)."""
    out = []
    for name in config.flag_columns:
        kinds = {type(c.rules[name]) for c in config.cells}
        kind = "String"
        if kinds == {bool}:
            kind = "Boolean"
        elif kinds == {int}:
            kind = "Int64"
        out.append((name, kind))
    return out


def _column_value(value: object, kind: str) -> object:
    return format_value(value) if kind == "String" else value


_CONFIGS: dict[str, RunConfig] = {}


def run_config(job: ChunkJob) -> RunConfig:
    """The cell's RunConfig, built once per process."""
    from rummysim.simulation import prepare

    key = job.cell_id + canonical(job.rules)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = prepare(job.preset, job.players, ",".join(job.lineup), rules=Rules.from_dict(job.rules),
                      betting=None if job.betting is None else ",".join(job.betting))
        if len(_CONFIGS) > 256:
            _CONFIGS.clear()
        _CONFIGS[key] = cfg
    return cfg


_DTYPES = {"Int64": pl.Int64, "Boolean": pl.Boolean, "String": pl.String}


def _decorate(df: pl.DataFrame, job: ChunkJob) -> pl.DataFrame:
    """Pad the score columns (seats and sides) to the sweep's seat count and add the constant columns."""
    from rummysim.simulation import pad_score_columns

    consts = [pl.lit(",".join(job.lineup), dtype=pl.String).alias("lineup")]
    consts += [pl.lit(v, dtype=_DTYPES[t]).alias(n) for n, v, t in job.columns]
    return pad_score_columns(df, job.pad_players).with_columns(consts)


def run_chunk(job: ChunkJob) -> dict[str, object]:
    """Play one chunk and move its file(s) into place; returns a small record of the work."""
    from rummysim.output import run_metadata
    from rummysim.simulation import play_game_chunk

    t0 = time.perf_counter()
    cfg = run_config(job)
    games, hands = play_game_chunk(cfg, job.seed, job.start, job.count, job.hands)
    staging = Path(job.staging)
    metadata = {**job.metadata, **run_metadata(sides=cfg.sides.to_json())}  # the map is the run's (cfg)
    if hands is not None:  # the hands file first: the games file is the chunk's "done" mark
        _publish_checked(_decorate(hands, job), job.final_hands, metadata, staging)
    _publish_checked(_decorate(games, job), job.final, metadata, staging)
    return {"cell": job.cell_id, "index": job.index, "games": job.count, "seconds": time.perf_counter() - t0}


def _publish_checked(df: pl.DataFrame, final: Path, metadata: dict[str, str], staging: Path) -> None:
    """Publish ``df`` with the checksum of its rows in the footer: a resume reads the file back
    and replays the chunk if the rows no longer match it (issue 21, point 5)."""
    publish(df, final, {**metadata, CHECKSUM_KEY: frame_checksum(df)}, staging)
