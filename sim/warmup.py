"""Compiled engine variants: which one a run plays, whether it is compiled, and ``rummysim warmup``.

A game's kernels compile one machine-code specialization per *variant* of the engine (500 Rum:
the strategy family times the lean or full rule paths, ``kernels.rum500.batch.engine_variant``;
5000 Rummy and Rummikub have one) and per entry point (``games``, ``hands``: the two units of
``simulate``). numba caches each on disk, but cannot say beforehand whether a call will compile,
so a variant's first successful compile leaves a marker file in the cache root, in a folder named
after numba's cache folder and the source fingerprint (``kernels.common._jit``): an edit to any
engine source starts with no markers, as it starts with no cache. ``first_compile`` uses the marker to announce
a compile on stderr (one line, with the expected time) before it happens.

``warmup`` compiles every variant of the chosen games in parallel worker processes. Their cache
writes are serialized by the file lock every process that imports the kernels takes
(``kernels.common._cache_lock``).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from rummysim.errors import InputError

if TYPE_CHECKING:
    from rummysim.games import GameSpec
    from rummysim.simulation import RunConfig

ENTRIES = ("games", "hands")  # the entry points of simulate's two units, compiled apart
DEFAULT_COMPILE_SECONDS = 40.0  # a variant with no measured figure
WARMUP_SEED = 0

Note = Callable[[str], None]
Progress = Callable[..., None]


class Variant(NamedTuple):
    """One compiled specialization: a game's kernels (their batch module), the engine variant's
    label (``heuristic-lean``; "" for a game of one variant) and the entry point."""

    kernels: str
    label: str
    entry: str

    @property
    def name(self) -> str:
        game = self.kernels.rsplit(".", 2)[-2]  # rummysim.kernels.<game>.batch
        return " ".join(part for part in (game, self.label, self.entry) if part)


def variant_of(cfg: RunConfig, entry: str) -> Variant:
    """The variant a run (``simulation.RunConfig``) plays through ``entry`` (games or hands)."""
    kernels = cfg.spec.games_runner_at.partition(":")[0]
    return Variant(kernels, cfg.spec.variant(cfg.vector, cfg.lineup), entry)


def _marker(variant: Variant) -> Path:
    """The marker of a compiled variant: under the cache root, in a folder named after numba's
    cache folder and the source fingerprint (a ``NUMBA_CACHE_DIR`` of the user's has no
    fingerprint in its name)."""
    import numba

    from rummysim.kernels.common._jit import cache_root, source_fingerprint

    key = hashlib.sha256(f"{numba.config.CACHE_DIR}\0{source_fingerprint()}".encode()).hexdigest()[:16]
    return cache_root() / "compiled" / key / f"{variant.kernels}.{variant.label or 'engine'}.{variant.entry}"


def is_compiled(variant: Variant) -> bool:
    """Has this variant compiled successfully into the current cache?"""
    return _marker(variant).exists()


def mark_compiled(variant: Variant) -> None:
    path = _marker(variant)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


def expected_seconds(spec: GameSpec, variant: Variant) -> float:
    """The measured cold-compile time of a variant (``GameSpec.compile_seconds``: by its label,
    else by its strategy family, the label's first word)."""
    seconds = spec.compile_seconds
    return seconds.get(variant.label, seconds.get(variant.label.split("-")[0], DEFAULT_COMPILE_SECONDS))


def compile_note(spec: GameSpec, variant: Variant) -> str:
    return (f"compiling the {variant.name} engine for the first time, about {expected_seconds(spec, variant):.0f} s "
            f"(cached afterwards; `rummysim warmup` compiles every variant once)")


@contextmanager
def first_compile(cfg: RunConfig, entry: str, note: Note | None) -> Iterator[None]:
    """Around a run's first kernel call: announce the compile when the variant is not compiled
    yet, and mark it compiled once the call has succeeded."""
    variant = variant_of(cfg, entry)
    cold = not is_compiled(variant)
    if cold and note is not None:
        note(compile_note(cfg.spec, variant))
    yield
    if cold:
        mark_compiled(variant)


def warm_up_runs(cfgs: Sequence[RunConfig], seed: int, note: Note | None) -> None:
    """Compile (or load) the games entry of every distinct variant the runs play, announcing
    each compile (``compare`` and ``tournament``, whose seatings may play several variants)."""
    from rummysim.simulation import warm_up

    seen: set[Variant] = set()
    for cfg in cfgs:
        variant = variant_of(cfg, "games")
        if variant not in seen:
            seen.add(variant)
            warm_up(cfg, seed, "games", note)


# ----------------------------------------------------------------------------- rummysim warmup


class WarmupRun(NamedTuple):
    """One of a game's ``warmup_runs``: a preset, a lineup and rule settings (``--rule`` form)."""

    preset: str
    lineup: str
    rule: tuple[str, ...] = ()


@dataclass(frozen=True)
class WarmupJob:
    """A representative run compiling some variants in one worker process (its entries share
    most of their compiled callees, so one process compiles them once)."""

    preset: str
    lineup: str
    variants: tuple[Variant, ...]
    seconds: float  # expected
    rule: tuple[str, ...] = ()  # rule settings on top of the preset


@dataclass
class WarmupReport:
    compiled: list[tuple[Variant, float]]  # compiled by this run, with the seconds its job took
    cached: list[Variant]  # found compiled already

    @property
    def variants(self) -> int:
        return len(self.compiled) + len(self.cached)


def _games(names: Sequence[str]) -> list[GameSpec]:
    """The game specs of ``names`` (game or preset names; every game when empty), in order."""
    from rummysim.games import GAMES
    from rummysim.rules import PRESETS

    if not names:
        return list(GAMES.values())
    specs = []
    for name in names:
        game = PRESETS[name].game if name in PRESETS else name
        if game not in GAMES:
            raise InputError(f"unknown game {name!r}: give a game ({', '.join(GAMES)}) "
                             "or a preset of `rummysim rules list`")
        if GAMES[game] not in specs:
            specs.append(GAMES[game])
    return specs


def plan(names: Sequence[str] = ()) -> tuple[list[WarmupJob], list[Variant]]:
    """The jobs compiling every variant of the games not compiled yet (longest first), and the
    variants found compiled already."""
    from rummysim.simulation import default_players, prepare

    jobs: list[WarmupJob] = []
    cached: list[Variant] = []
    seen: set[Variant] = set()
    for spec in _games(names):
        for run in (WarmupRun(*run) for run in spec.warmup_runs or ((spec.name, "greedy"),)):
            cfg = prepare(run.preset, default_players(run.preset, run.rule, None, 2), run.lineup, run.rule)
            todo = []
            entries = ENTRIES[:1] if cfg.python else ENTRIES  # a Python seat plays whole games only
            for variant in (variant_of(cfg, entry) for entry in entries):
                if variant in seen:
                    continue
                seen.add(variant)
                (todo if not is_compiled(variant) else cached).append(variant)
            if todo:
                jobs.append(WarmupJob(run.preset, run.lineup, tuple(todo), expected_seconds(spec, todo[0]), run.rule))
    jobs.sort(key=lambda job: -job.seconds)
    return jobs, cached


def compile_job(job: WarmupJob) -> float:
    """In a worker process: compile the job's variants by playing one game (or hand) through each
    entry, and mark them compiled; returns the seconds it took."""
    from rummysim.simulation import default_players, prepare, warm_up

    t0 = time.perf_counter()
    cfg = prepare(job.preset, default_players(job.preset, job.rule, None, 2), job.lineup, job.rule)
    for variant in job.variants:
        warm_up(cfg, WARMUP_SEED, variant.entry)
    return time.perf_counter() - t0


def default_jobs() -> int:
    return os.cpu_count() or 1


def warmup(names: Sequence[str] = (), jobs: int | None = None, progress: Progress | None = None) -> WarmupReport:
    """Compile every engine variant of the games ``names`` (all games when empty) that is not
    compiled yet, in up to ``jobs`` worker processes (default: the core count).

    ``progress(done, total, variant name)`` is called as each job ends."""
    workers = default_jobs() if jobs is None else jobs
    if workers < 1:
        raise InputError(f"--jobs must be at least 1, got {workers}")
    todo, cached = plan(names)
    report = WarmupReport([], cached)
    if todo:
        report.compiled = run_jobs(todo, workers, progress)
    return report


def run_jobs(todo: Sequence[WarmupJob], workers: int, progress: Progress | None = None) -> list[tuple[Variant, float]]:
    """Run the jobs in up to ``workers`` worker processes: the variants compiled, with the
    seconds their job took, in the order the jobs ended."""
    import multiprocessing

    import numba

    compiled: list[tuple[Variant, float]] = []
    Path(numba.config.CACHE_DIR).mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked numba or thread state
    total = sum(len(job.variants) for job in todo)
    with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=context) as pool:
        futures = {pool.submit(compile_job, job): job for job in todo}
        if progress is not None:
            progress(0, total, "")
        for future in as_completed(futures):
            job = futures[future]
            seconds = future.result()
            compiled += [(variant, seconds) for variant in job.variants]
            if progress is not None:
                progress(len(compiled), total, job.variants[-1].name)
    return compiled
