"""The plan of a sweep: how many cells, chunks and games, what an earlier run into the same
folder already wrote, the backend and a time estimate (shown before the first game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rummysim.sweeps.chunks import ChunkJob, pending_jobs
from rummysim.sweeps.config import SweepConfig, load_sweep
from rummysim.sweeps.store import check_folder, engine_fingerprint


@dataclass
class SweepPlan:
    """What a sweep will do: sizes, what is already done, the backend and a time estimate."""

    config: SweepConfig
    out: Path
    jobs: list[ChunkJob]
    chunks_total: int
    games_done: int
    resumed: bool
    backend: str = "local"
    est_seconds: float | None = None
    est_games_per_s: float | None = None

    @property
    def cells(self) -> int:
        return len(self.config.cells)

    @property
    def games_total(self) -> int:
        return self.config.total_games

    @property
    def chunks_done(self) -> int:
        return self.chunks_total - len(self.jobs)

    @property
    def games_left(self) -> int:
        return self.games_total - self.games_done

    def describe(self) -> list[str]:
        """Human-readable lines (the CLI prints them before starting)."""
        c = self.config
        factors = " x ".join(f"{k} {n}" for k, n in c.swept.items())
        lines = [
            f"{self.cells} cell{'s' * (self.cells != 1)} ({factors}), {c.games_per_cell:,} games each: "
            f"{self.games_total:,} games in {self.chunks_total:,} chunks of up to {c.chunk_size:,} games (one file each)",
        ]
        if self.resumed:
            lines.append(f"resuming: {self.chunks_done:,} chunks ({self.games_done:,} games) already written, "
                         f"{self.games_left:,} games to go")
        est = ""
        if self.est_seconds is not None and self.games_left:
            est = f"; estimate {_duration(self.est_seconds)} at ~{self.est_games_per_s:,.0f} games/s"
        lines.append(f"backend: {self.backend}{est}")
        return lines


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, s = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {s:02d} s"
    hours, m = divmod(minutes, 60)
    return f"{hours} h {m:02d} min"


def plan_sweep(source: str | Path | Mapping[str, object] | SweepConfig, out: str | Path) -> SweepPlan:
    """Validate a sweep and see what running it into ``out`` would do (nothing is written)."""
    config = source if isinstance(source, SweepConfig) else load_sweep(source)
    out = Path(out)
    engine = engine_fingerprint()
    manifest = check_folder(out, config, engine)
    run_id = manifest["run_id"] if manifest else "(new)"
    jobs, done_games = pending_jobs(config, out, run_id, None, engine)
    return SweepPlan(config, out, jobs, len(config.cells) * config.chunks_per_cell, done_games, manifest is not None)
