"""The plan of a sweep: how many cells, chunks and games, what an earlier run into the same
folder already wrote, the backend and a time estimate (shown before the first game).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rummysim.output import check_output_folder
from rummysim.sweeps.chunks import ChunkJob, PendingChunks, pending_jobs
from rummysim.sweeps.config import SweepConfig, load_sweep, size_line
from rummysim.sweeps.store import check_folder, engine_fingerprint


@dataclass
class SweepPlan:
    """What a sweep will do: sizes, what is already done, the backend and a time estimate.

    ``est_seconds`` is the time left: set before the first game and updated as chunks finish.
    """

    config: SweepConfig
    out: Path
    jobs: PendingChunks
    resumed: bool
    backend: str = "local"
    est_seconds: float | None = None
    est_games_per_s: float | None = None

    @property
    def cells(self) -> int:
        return self.config.n_cells

    @property
    def chunks_total(self) -> int:
        return self.config.total_chunks

    @property
    def games_total(self) -> int:
        return self.config.total_games

    @property
    def chunks_done(self) -> int:
        return self.chunks_total - len(self.jobs)

    @property
    def games_left(self) -> int:
        return self.jobs.games

    @property
    def games_done(self) -> int:
        return self.games_total - self.games_left

    @property
    def damaged(self) -> list[tuple[Path, str]]:
        """Files found damaged in the folder, whose chunks are played again."""
        return self.jobs.folder.damaged

    def describe(self) -> list[str]:
        """Human-readable lines (the CLI prints them before starting)."""
        return [size_line(self.config), *self.status_lines()]

    def status_lines(self) -> list[str]:
        """What the folder holds already, and the backend with the estimate."""
        lines = []
        if self.resumed:
            lines.append(f"resuming: {self.chunks_done:,} chunks ({self.games_done:,} games) already written, "
                         f"{self.games_left:,} games to go")
        if self.damaged:
            path, why = self.damaged[0]
            more = f" (and {len(self.damaged) - 1} more)" if len(self.damaged) > 1 else ""
            lines.append(f"replaying {len(self.damaged):,} damaged file{'s' * (len(self.damaged) != 1)}: "
                         f"{path.relative_to(self.out.resolve())}{more}: {why}")
        est = ""
        if self.est_seconds is not None and self.games_left:
            est = f"; estimate {duration(self.est_seconds)} at ~{self.est_games_per_s:,.0f} games/s"
        lines.append(f"backend: {self.backend}{est}")
        return lines


class Pacer:
    """The time left of a sweep: a cost model of each chunk (seconds, or any unit) scaled by what
    the finished chunks really took, so the estimate corrects itself as chunks finish (issue 21,
    point 9). ``cost`` of every pending chunk sums to ``left``."""

    def __init__(self, cost: Callable[[ChunkJob], float], left: float) -> None:
        self.cost = cost
        self.left = left
        self.done = 0.0
        self.started = time.perf_counter()

    def start(self) -> None:
        self.started = time.perf_counter()

    def finished(self, job: ChunkJob) -> float | None:
        """Seconds left after ``job`` finished: the model's cost of the rest, at the pace so far."""
        cost = self.cost(job)
        self.done += cost
        self.left -= cost
        if self.left < 1e-9 * self.done:  # the last chunk: no rounding left over
            self.left = 0.0
        if self.done <= 0:
            return None
        return self.left * (time.perf_counter() - self.started) / self.done


def duration(seconds: float) -> str:
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
    check_output_folder(out, create=False)
    engine = engine_fingerprint()
    manifest = check_folder(out, config, engine)
    run_id = manifest["run_id"] if manifest else "(new)"
    return SweepPlan(config, out, pending_jobs(config, out, run_id, None, engine), manifest is not None)
