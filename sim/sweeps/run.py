"""Running a sweep: :func:`sweep`, and its two backends, chunk after chunk in this process (on
numba's threads) or one Dask task per chunk on a cluster; progress and the time estimate.

numba is imported only when games are played, so that Dask workers can size numba's thread pool
before numba loads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummysim.errors import InputError
from rummysim.output import check_output_folder
from rummysim.sweeps.chunks import ChunkJob, pending_jobs, run_chunk, run_config
from rummysim.sweeps.config import SweepConfig, load_sweep
from rummysim.sweeps.plan import Pacer, SweepPlan
from rummysim.sweeps.store import (
    check_folder,
    clear_staging,
    engine_fingerprint,
    finish_session,
    git_commit,
    locked,
    new_manifest,
    start_session,
)

if TYPE_CHECKING:  # numba loads only when games are played (module docstring)
    from rummysim.simulation import RunConfig

DASK_MISSING = (
    "--scheduler and --cluster need Dask distributed, which is not installed: "
    "pip install '.[distributed]' in the rummysim checkout (or pip install 'dask[distributed]>=2024.1')"
)

ProgressFn = Callable[[int, int], None]
log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# local backend


def _local_threads(threads: int | None) -> int:
    """Numba's thread count for a local run, set to ``threads`` if given."""
    import numba

    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise InputError(f"--threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
        numba.set_num_threads(threads)
    return numba.get_num_threads()


CALIBRATION_SECONDS = 0.25  # per (players, lineup): long enough to time a rate, short beside a sweep
CHUNK_OVERHEAD = 0.005  # seconds to decorate and write a chunk's file, beside its games


def _calibrate(plan: SweepPlan, budget: float = 1.5) -> Pacer:
    """Seconds per game by (players, lineup), timed on the first cell of each after a one-game
    warm-up (which compiles the kernels or loads them from the cache, and must not be timed):
    the estimate shown before the sweep starts, and the model that later chunks correct."""
    from rummysim.simulation import warm_up

    costs: dict[tuple, float] = {}
    t_start = time.perf_counter()
    for work in plan.jobs.cells:
        key = (work.cell.players, work.cell.lineup)
        if key in costs:
            continue
        if costs and time.perf_counter() - t_start > budget:
            break
        job = next(plan.jobs.of_cell(work))
        cfg = run_config(job)
        warm_up(cfg, job.seed)
        costs[key] = _seconds_per_game(cfg, job.seed)
    fallback = sum(costs.values()) / len(costs) if costs else 0.0

    def per_game(players: int, lineup: tuple[str, ...]) -> float:
        known = costs.get((players, lineup))
        if known is not None:
            return known
        same = [c for (p, _), c in costs.items() if p == players]
        return sum(same) / len(same) if same else fallback

    def cost(job: ChunkJob) -> float:
        return job.count * per_game(job.players, job.lineup) + CHUNK_OVERHEAD

    left = sum(w.games * per_game(w.cell.players, w.cell.lineup) + CHUNK_OVERHEAD * w.left
               for w in plan.jobs.cells)
    return Pacer(cost, left)


def _seconds_per_game(cfg: "RunConfig", seed: int) -> float:
    """Seconds per game of a batch that takes at least CALIBRATION_SECONDS (doubling from 2
    games, at most 4,096): long enough for the threads' start to be negligible."""
    from rummysim.simulation import play_game_chunk

    n = 2
    while True:
        t0 = time.perf_counter()
        play_game_chunk(cfg, seed, 1, n, False)
        spent = time.perf_counter() - t0
        if spent >= CALIBRATION_SECONDS or n >= 4096:
            return spent / n
        n *= 2


def _run_local(plan: SweepPlan, progress: ProgressFn | None, pacer: Pacer) -> int:
    """Chunk after chunk in this process (each on numba's threads); returns the chunks written."""
    done = plan.games_done
    written = 0
    pacer.start()
    for job in plan.jobs:
        run_chunk(job)
        written += 1
        done += job.count
        plan.est_seconds = pacer.finished(job)
        if progress is not None:
            progress(done, plan.games_total)
    return written


# ---------------------------------------------------------------------------------------------
# Dask backend


def _check_dask_options(scheduler: object, cluster: str | None, threads: int | None) -> None:
    """Refuse bad Dask options, or a missing Dask, before anything is checked or started."""
    if scheduler is not None and cluster is not None:
        raise InputError("give either --scheduler or --cluster, not both")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError(DASK_MISSING) from None
    if threads is not None and threads < 1:
        raise InputError(f"--threads must be at least 1, got {threads}")


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _probe_worker() -> dict[str, object]:
    """Run on every Dask worker before the sweep: its cores and engine code."""
    return {"cpus": _cpus(), "engine": engine_fingerprint(), "numba_loaded": "numba" in sys.modules}


def _set_worker_threads(plan: Mapping[str, int]) -> None:
    """Numba threads for this task: cores // Dask threads on this host (set before numba loads)."""
    n = None
    try:
        from distributed import get_worker

        worker = get_worker()
        n = plan.get(worker.address) or plan.get("host:" + _host(worker.address))
        if n is None:
            n = max(1, _cpus() // max(1, worker.state.nthreads))
    except (ImportError, ValueError):
        pass
    if n is None:
        return
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = str(n)
    import numba

    numba.set_num_threads(max(1, min(n, numba.config.NUMBA_NUM_THREADS)))


def dask_chunk_task(job: ChunkJob, threads: Mapping[str, int]) -> dict[str, object]:
    """The Dask task: size numba's threads for the worker, then :func:`run_chunk`."""
    _set_worker_threads(threads)
    return run_chunk(job)


@contextlib.contextmanager
def _dask_client(scheduler: object, cluster: str | None, threads: int | None) -> Iterator[Any]:
    """A client of the given scheduler (or Client), or of a new LocalCluster for ``local:N``."""
    import distributed

    if scheduler is not None and not isinstance(scheduler, str):
        yield scheduler  # a distributed.Client made by the caller
        return
    if cluster is not None:
        m = re.fullmatch(r"local:(\d+)", cluster.strip())
        if not m or int(m.group(1)) < 1:
            raise InputError(f"--cluster must be local:N with N >= 1 workers, got {cluster!r}")
        n = int(m.group(1))
        per_worker = threads or max(1, _cpus() // n)
        with distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": str(per_worker)},
        ) as lc, distributed.Client(lc) as client:
            yield client
        return
    address = str(scheduler)
    if "://" not in address:
        raise InputError(f"--scheduler must be an address like tcp://HOST:PORT, got {address!r}")
    try:
        client = distributed.Client(address, timeout="10s")  # also how long it tries to reconnect
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    quiet = _QuietWhenLost(client)
    handlers = _dask_log_handlers()
    for handler in handlers:
        handler.addFilter(quiet)
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=5)
        for handler in handlers:
            handler.removeFilter(quiet)


def _dask_log_handlers() -> list[logging.Handler]:
    """The handlers Dask's own loggers write to stderr with (distributed configures its own)."""
    found: list[logging.Handler] = []
    for name in ("distributed", "distributed.client"):
        found += [h for h in logging.getLogger(name).handlers if h not in found]
    return found


class _QuietWhenLost(logging.Filter):
    """Once the scheduler is gone Dask logs its reconnection attempts with tracebacks; the sweep
    says it in one error line, so those records are dropped, and any other Dask record keeps its
    message without the traceback (the CLI never prints one)."""

    def __init__(self, client: Any) -> None:
        super().__init__()
        self.client = client

    def filter(self, record: logging.LogRecord) -> bool:
        if "Failed to reconnect" in record.getMessage() or getattr(self.client, "status", "running") != "running":
            return False
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def _worker_threads(client: Any, threads: int | None, engine: str) -> tuple[dict[str, int], str]:
    """Numba threads per worker address, and a description of the cluster."""
    try:
        client.wait_for_workers(1, timeout=60)
    except Exception:  # noqa: BLE001 - distributed raises TimeoutError variants
        raise InputError("the Dask cluster has no workers (waited 60 s)") from None
    try:
        probes = client.run(_probe_worker)
    except Exception as exc:  # noqa: BLE001 - e.g. ModuleNotFoundError on the worker
        raise InputError(f"Dask workers cannot run rummysim ({type(exc).__name__}: {exc}); "
                         "install rummysim on every worker") from None
    stale = [addr for addr, p in probes.items() if p["engine"] != engine]
    if stale:
        raise InputError(f"Dask worker {stale[0]} runs different rummysim engine code than this client; "
                         "install the same version everywhere")
    workers = _workers(client)
    per_host: dict[str, int] = {}
    for addr, info in workers.items():
        host = info.get("host") or _host(addr)
        per_host[host] = per_host.get(host, 0) + int(info.get("nthreads", 1))
    plan: dict[str, int] = {}
    for addr, info in workers.items():
        host = info.get("host") or _host(addr)
        cpus = int(probes.get(addr, {}).get("cpus", 1))
        plan[addr] = threads or max(1, cpus // max(1, per_host[host]))
        plan["host:" + _host(addr)] = plan[addr]  # for a worker that restarts under a new address
    total = sum(int(info.get("nthreads", 1)) for info in workers.values())
    per_task = sorted({plan[a] for a in workers})
    shown = str(per_task[0]) if len(per_task) == 1 else "/".join(map(str, per_task))
    desc = (f"dask {client.scheduler.address} ({len(workers)} workers, {total} task slots, "
            f"{shown} numba thread{'s' * (per_task != [1])} per task)")
    return plan, desc


def _host(address: str) -> str:
    return address.split("://", 1)[-1].rsplit(":", 1)[0]


def _workers(client: Any) -> dict[str, dict]:
    """Every worker's info (recent ``scheduler_info`` lists only the first few unless asked)."""
    import inspect

    try:
        every = "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):
        every = False
    info = client.scheduler_info(n_workers=-1) if every else client.scheduler_info()
    return info["workers"]


POLL_SECONDS = 0.05  # how often the client looks at its running chunks and at the scheduler
LOST_SECONDS = 30.0  # a scheduler unreachable this long is lost, even if the client still retries


class _Window:
    """The chunks on the cluster: at most ``size`` at a time, so the client's memory stays flat
    however many chunks the plan has."""

    def __init__(self, client: Any, plan: SweepPlan, threads: Mapping[str, int], size: int) -> None:
        self.client = client
        self.threads = dict(threads)
        self.size = size
        self.pending = iter(plan.jobs)
        self.running: set[Any] = set()
        self.attempts: dict[tuple[str, int], int] = {}
        self.token = uuid.uuid4().hex[:8]

    def submit(self, job: ChunkJob) -> None:
        n = self.attempts.get((job.cell_id, job.index), 0) + 1
        self.attempts[(job.cell_id, job.index)] = n
        key = f"rummysim-chunk-{job.cell_id}-{job.index}-{self.token}-{n}"
        fut = self.client.submit(dask_chunk_task, job, self.threads, key=key, pure=False, retries=1)
        fut.job = job  # type: ignore[attr-defined]
        self.running.add(fut)

    def fill(self) -> None:
        while len(self.running) < self.size:
            job = next(self.pending, None)
            if job is None:
                return
            self.submit(job)

    def cancel(self) -> None:
        for fut in list(self.running):
            with contextlib.suppress(Exception):
                fut.cancel()


def _finished(window: _Window, address: str) -> list[Any]:
    """The chunks that finished (or failed), waiting for at least one; InputError as soon as the
    scheduler is lost: the client closed after failing to reconnect, or unreachable for
    LOST_SECONDS (issue 21, point 3: the sweep used to wait forever)."""
    unreachable_since = None
    while True:
        status = window.client.status
        if status in ("closing", "closed"):
            raise _lost_scheduler(address, "the client could not reconnect to it")
        if status != "running":
            unreachable_since = unreachable_since or time.monotonic()
            if time.monotonic() - unreachable_since > LOST_SECONDS:
                raise _lost_scheduler(address, f"unreachable for {LOST_SECONDS:.0f} s")
        else:
            unreachable_since = None
            done = [fut for fut in window.running if fut.status != "pending"]
            if done:
                return done
        time.sleep(POLL_SECONDS)


def _lost_scheduler(address: str, how: str) -> InputError:
    return InputError(f"lost the Dask scheduler {address} ({how}); the chunks written so far are kept: rerun "
                      "the same command to resume, or leave out --scheduler to finish the sweep here (same rows)")


def _run_dask(client: Any, plan: SweepPlan, threads: Mapping[str, int], progress: ProgressFn | None,
              pacer: Pacer, max_attempts: int = 4) -> int:
    """Submit chunks with a bounded window; resubmit failures; return the number of chunks written."""
    slots = sum(int(w.get("nthreads", 1)) for w in _workers(client).values()) or 1
    window = _Window(client, plan, threads, max(8, 4 * slots))
    address = client.scheduler.address
    done = plan.games_done
    written = 0
    pacer.start()
    window.fill()
    try:
        while window.running:
            for fut in _finished(window, address):
                window.running.discard(fut)
                job = fut.job  # type: ignore[attr-defined]
                try:
                    fut.result()
                except InputError:
                    raise  # a full disk, a permission: the next attempt would fail the same way
                except Exception as exc:  # noqa: BLE001 - worker errors, KilledWorker, ...
                    if window.client.status != "running":
                        raise _lost_scheduler(address, "the client lost its connection") from None
                    if window.attempts[(job.cell_id, job.index)] >= max_attempts:
                        raise InputError(f"chunk {job.index} of cell {job.cell_id} failed {max_attempts} times on "
                                         f"the Dask workers: {type(exc).__name__}: {exc}") from None
                    log.warning("chunk %s/%s failed (%s); resubmitting", job.cell_id, job.index, exc)
                    window.submit(job)
                    continue
                finally:
                    fut.release()
                if not job.final.is_file():
                    raise InputError(
                        f"the Dask workers wrote {job.final.relative_to(Path(job.root))} where this client cannot "
                        "see it: --out must be on a filesystem shared by the client and every worker")
                written += 1
                done += job.count
                plan.est_seconds = pacer.finished(job)
                if progress is not None:
                    progress(done, plan.games_total)
            window.fill()
    except BaseException:
        window.cancel()
        raise
    return written


# ---------------------------------------------------------------------------------------------
# the sweep


def sweep(
    source: str | Path | Mapping[str, object] | SweepConfig,
    out: str | Path,
    scheduler: object = None,
    cluster: str | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    on_plan: Callable[[SweepPlan], None] | None = None,
) -> Path:
    """Play every cell of a sweep into a partitioned Parquet dataset at ``out``; returns ``out``.

    ``source`` is a TOML file (see the ``rummysim.sweeps`` docstring), the dict it parses to, or
    a :class:`SweepConfig`. Everything is validated before any game runs (typed errors, nothing
    written). Rerunning into the same folder resumes: only missing chunks are played, and the
    rows are exactly those of an uninterrupted run; a different sweep in ``out`` is refused.

    Backends: in-process by default, chunk after chunk, each on ``threads`` numba threads (default
    all cores); ``scheduler="tcp://HOST:PORT"`` (or a ``distributed.Client``) runs the chunks on
    an existing Dask cluster, ``cluster="local:N"`` on a new LocalCluster of N workers. The rows do
    not depend on the backend, the thread count or the chunk size.

    ``progress(done_games, total_games)`` is called after each chunk; ``on_plan(plan)`` once,
    before the first game, with the cell count, what is already done and a time estimate.

    Example:
        >>> from rummysim.sweeps import sweep
        >>> import polars as pl
        >>> cfg = {"run": {"seed": 1, "games_per_cell": 50, "chunk_size": 25},
        ...        "grid": {"players": [2, 3], "lineup": ["greedy", "random"]}}
        >>> path = sweep(cfg, "runs/tiny")                                   # doctest: +SKIP
        >>> pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect().height  # doctest: +SKIP
        200
    """
    config = source if isinstance(source, SweepConfig) else load_sweep(source)
    out = Path(out)
    use_dask = scheduler is not None or cluster is not None
    if use_dask:
        _check_dask_options(scheduler, cluster, threads)
    check_output_folder(out, create=False)  # refuse before touching anything
    engine = engine_fingerprint()
    check_folder(out, config, engine)

    with contextlib.ExitStack() as stack:
        client = None
        worker_threads: dict[str, int] = {}
        if use_dask:
            client = stack.enter_context(_dask_client(scheduler, cluster, threads))
            worker_threads, backend = _worker_threads(client, threads, engine)
        else:
            n = _local_threads(threads)
            backend = f"local ({n} thread{'s' * (n != 1)})"
        check_output_folder(out, create=True)
        stack.enter_context(locked(out))
        manifest = check_folder(out, config, engine)  # again, under the lock
        commit = git_commit()
        if manifest is None:
            manifest = new_manifest(config, out, engine, commit)
        clear_staging(out)  # leftovers of killed runs
        jobs = pending_jobs(config, out, manifest["run_id"], commit, engine)
        plan = SweepPlan(config, out, jobs, bool(manifest.get("sessions")), backend)
        if use_dask:  # no timing on the client: the pace of the first chunks sets the estimate
            pacer = Pacer(lambda job: float(job.count), float(plan.games_left))
        else:
            pacer = _calibrate(plan)
            plan.est_seconds = pacer.left
            plan.est_games_per_s = plan.games_left / pacer.left if pacer.left else None
        session = start_session(out, manifest, backend, pending=bool(plan.jobs))
        if on_plan is not None:
            on_plan(plan)
        if progress is not None:
            progress(plan.games_done, plan.games_total)
        t0 = time.perf_counter()
        if use_dask:
            written = _run_dask(client, plan, worker_threads, progress, pacer)
        else:
            written = _run_local(plan, progress, pacer)
        elapsed = time.perf_counter() - t0
        games = plan.games_left
        files = written * (2 if config.hands else 1)
        finish_session(out, manifest, session, files=files, games=games, elapsed=elapsed)
        clear_staging(out)
    return out
