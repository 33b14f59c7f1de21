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
from typing import Any

from rummysim.errors import InputError
from rummysim.sweeps.chunks import ChunkJob, pending_jobs, run_chunk, run_config
from rummysim.sweeps.config import SweepConfig, load_sweep
from rummysim.sweeps.plan import SweepPlan
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


def _calibrate(plan: SweepPlan, threads: int, budget: float = 1.5) -> None:
    """A rough games/s per (players, lineup) from a few games of the first cell of each, so that
    the estimate is shown before the sweep starts (also compiles or loads the kernels)."""
    from rummysim.simulation import play_game_chunk

    todo: dict[str, int] = {}
    for job in plan.jobs:
        todo[job.cell_id] = todo.get(job.cell_id, 0) + job.count
    if not todo:
        return
    cells = {c.id: c for c in plan.config.cells}
    rates: dict[tuple, float] = {}
    overhead = 0.0
    t_start = time.perf_counter()
    for job in plan.jobs:
        key = (job.players, job.lineup)
        if key in rates:
            continue
        if rates and time.perf_counter() - t_start > budget:
            break
        cfg = run_config(job)
        play_game_chunk(cfg, job.seed, 0, 0, False)  # compile / load from the cache
        if not rates:  # the fixed cost of a chunk: a kernel launch, and about 5 ms to write a file
            t0 = time.perf_counter()
            play_game_chunk(cfg, job.seed, 0, 0, False)
            overhead = time.perf_counter() - t0 + 0.005
        n = max(16, 8 * threads)
        t0 = time.perf_counter()
        play_game_chunk(cfg, job.seed, 0, n, False)
        rates[key] = n / max(time.perf_counter() - t0 - overhead + 0.005, 1e-6)
    fallback = sum(rates.values()) / len(rates)
    seconds = 0.0
    for cid, games in todo.items():
        cell = cells[cid]
        rate = rates.get((cell.players, cell.lineup))
        if rate is None:
            same = [r for (p, _), r in rates.items() if p == cell.players]
            rate = sum(same) / len(same) if same else fallback
        seconds += games / rate
    seconds += overhead * len(plan.jobs)
    plan.est_seconds = seconds
    plan.est_games_per_s = plan.games_left / seconds if seconds else None


def _run_local(plan: SweepPlan, progress: ProgressFn | None) -> int:
    """Chunk after chunk in this process (each on numba's threads); returns the chunks written."""
    done = plan.games_done
    written = 0
    for job in plan.jobs:
        run_chunk(job)
        written += 1
        done += job.count
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
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        yield client
    finally:
        client.close()


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


def _run_dask(client: Any, plan: SweepPlan, threads: Mapping[str, int], progress: ProgressFn | None,
              max_attempts: int = 4) -> int:
    """Submit chunks with a bounded window; resubmit failures; return the number of chunks written."""
    from distributed import as_completed

    slots = sum(int(w.get("nthreads", 1)) for w in _workers(client).values()) or 1
    window = max(8, 4 * slots)
    pending = list(reversed(plan.jobs))
    attempts: dict[tuple[str, int], int] = {}
    token = uuid.uuid4().hex[:8]
    done = plan.games_done
    written = 0

    def submit(job: ChunkJob):
        n = attempts.get((job.cell_id, job.index), 0) + 1
        attempts[(job.cell_id, job.index)] = n
        key = f"rummysim-chunk-{job.cell_id}-{job.index}-{token}-{n}"
        fut = client.submit(dask_chunk_task, job, dict(threads), key=key, pure=False, retries=1)
        fut.job = job  # type: ignore[attr-defined]
        return fut

    running = as_completed([submit(pending.pop()) for _ in range(min(window, len(pending)))])
    try:
        for fut in running:
            job = fut.job  # type: ignore[attr-defined]
            try:
                fut.result()
            except Exception as exc:  # noqa: BLE001 - worker errors, KilledWorker, ...
                if attempts[(job.cell_id, job.index)] >= max_attempts:
                    raise InputError(f"chunk {job.index} of cell {job.cell_id} failed {max_attempts} times on the "
                                     f"Dask workers: {type(exc).__name__}: {exc}") from None
                log.warning("chunk %s/%s failed (%s); resubmitting", job.cell_id, job.index, exc)
                running.add(submit(job))
                continue
            finally:
                fut.release()
            written += 1
            done += job.count
            if progress is not None:
                progress(done, plan.games_total)
            if pending:
                running.add(submit(pending.pop()))
    except BaseException:
        for f in list(running.futures):
            f.cancel()
        raise
    missing = [j for j in plan.jobs if not j.final.is_file()]
    if missing:
        raise InputError(
            f"the Dask workers wrote {missing[0].final.relative_to(Path(missing[0].root))} (and maybe others) where "
            "this client cannot see it: --out must be on a filesystem shared by the client and every worker"
        )
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
    engine = engine_fingerprint()
    check_folder(out, config, engine)  # refuse before touching anything

    with contextlib.ExitStack() as stack:
        client = None
        worker_threads: dict[str, int] = {}
        if use_dask:
            client = stack.enter_context(_dask_client(scheduler, cluster, threads))
            worker_threads, backend = _worker_threads(client, threads, engine)
        else:
            n = _local_threads(threads)
            backend = f"local ({n} thread{'s' * (n != 1)})"
        out.mkdir(parents=True, exist_ok=True)
        stack.enter_context(locked(out))
        manifest = check_folder(out, config, engine)  # again, under the lock
        commit = git_commit()
        if manifest is None:
            manifest = new_manifest(config, out, engine, commit)
        clear_staging(out)  # leftovers of killed runs
        jobs, done_games = pending_jobs(config, out, manifest["run_id"], commit, engine)
        plan = SweepPlan(config, out, jobs, len(config.cells) * config.chunks_per_cell, done_games,
                         bool(manifest.get("sessions")), backend)
        if not use_dask:
            _calibrate(plan, threads or _local_threads(None))
        session = start_session(out, manifest, backend, pending=bool(plan.jobs))
        if on_plan is not None:
            on_plan(plan)
        if progress is not None:
            progress(plan.games_done, plan.games_total)
        t0 = time.perf_counter()
        if use_dask:
            written = _run_dask(client, plan, worker_threads, progress)
        else:
            written = _run_local(plan, progress)
        elapsed = time.perf_counter() - t0
        games = sum(j.count for j in plan.jobs)
        files = written * (2 if config.hands else 1)
        finish_session(out, manifest, session, files=files, games=games, elapsed=elapsed)
        clear_staging(out)
    return out
