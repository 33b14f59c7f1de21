"""Chunk jobs: one chunk of one cell, built from the sweep and its folder, then played and
written by the same code locally and on Dask workers.

A :class:`ChunkJob` is small and picklable, so a Dask task carries it to a worker, which plays
its games, pads and decorates the rows and publishes the file(s) into the shared folder.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from rummysim.rules import Rules, format_value
from rummysim.sweeps.config import SweepConfig, canonical
from rummysim.sweeps.store import STAGING, chunk_done, publish

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


def pending_jobs(config: SweepConfig, out: Path, run_id: str, commit: str | None,
                 engine: str) -> tuple[list[ChunkJob], int]:
    """The chunks of ``config`` still to play in ``out``, and the games already done."""
    from rummysim.output import run_metadata

    root = out.resolve()
    staging = root / STAGING
    columns = _flag_column_types(config)
    jobs: list[ChunkJob] = []
    done_games = 0
    sweep_hash = config.sweep_hash
    for cell in config.cells:
        consts = tuple((name, _column_value(cell.rules[name], kind), kind) for name, kind in columns)
        meta = run_metadata(game=cell.game, players=cell.players, lineup=list(cell.lineup), seed=cell.seed,
                            unit="games", count=config.chunk_size, rules=cell.rules)
        meta.update({
            "sweep.run_id": run_id, "sweep.hash": sweep_hash, "sweep.cell": cell.id, "sweep.label": cell.label,
            "sweep.run_seed": str(config.seed), "sweep.git_commit": commit or "", "sweep.engine": engine,
        })
        for k in range(config.chunks_per_cell):
            start, count = config.chunk_range(k)
            part = config.part_name(k)
            if chunk_done(root / cell.path / part, config, cell, k) and (
                not config.hands or (root / cell.path / config.part_name(k, hands=True)).is_file()
            ):
                done_games += count
                continue
            jobs.append(ChunkJob(
                root=str(root), staging=str(staging), cell_id=cell.id, cell_path=cell.path, preset=cell.preset,
                players=cell.players, lineup=cell.lineup, rules=cell.rules, seed=cell.seed, index=k, start=start,
                count=count, hands=config.hands, pad_players=config.max_players, columns=consts, part=part,
                hands_part=config.part_name(k, hands=True), cell_meta=meta,
            ))
    return jobs, done_games


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
        cfg = prepare(job.preset, job.players, ",".join(job.lineup), rules=Rules.from_dict(job.rules))
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
        publish(_decorate(hands, job), job.final_hands, metadata, staging)
    publish(_decorate(games, job), job.final, metadata, staging)
    return {"cell": job.cell_id, "index": job.index, "games": job.count, "seconds": time.perf_counter() - t0}
