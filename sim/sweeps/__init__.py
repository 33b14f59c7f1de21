"""Sweeps: a TOML grid of game configurations, played into a hive-partitioned Parquet dataset.

A sweep file names what to vary; every combination is a *cell* (a preset, a player count, a
lineup and rule overrides), and every cell plays the same number of games::

    [run]
    seed = 7                  # run seed (default 0)
    games_per_cell = 20000    # required
    chunk_size = 4096         # games per Parquet file (default 4096)
    hands = false             # also write one row per hand (part-NNNN.hands.parquet)

    [grid]                    # a list sweeps over its values; a single value is fixed
    game = ["500-rum", "boathouse"]           # presets (`rummysim rules list`); default 500-rum
    players = [3, 4]                          # default 4
    lineup = ["greedy", "random at seat 0, greedy elsewhere"]   # default greedy
    r500_target = [500, 1000]                 # any rule flag (`rummysim rules show 500-rum`)
    # betting = ["threshold,accept-all"]      # stakes games (r5k_doubling, r5k_limit_poker) only
    # heuristic.max_take = [0, 2, 4]          # a strategy parameter swept (`rummysim strategies show`)

A lineup is one strategy for every seat (``"greedy"``, ``"all random"``), one per seat
(``"greedy,random,greedy,random"`` or ``["greedy", "random", "greedy", "random"]``), or seats
named against a default (``"random at seat 0, greedy elsewhere"``, ``"random at seats 0 and 2,
greedy elsewhere"``); seats are numbered from 0 like the ``score_k`` columns. A strategy may set
parameters, ``"heuristic:min_gain=3 at seat 0, greedy elsewhere"``, checked by name and range. A grid key
``STRATEGY.PARAM`` sweeps one parameter: each value is set on every seat of the cell that plays
that strategy (a cell with no such seat is refused), and the cell's ``lineup`` column names it
(``heuristic:max_take=2``).

**Layout.** ``OUT/game=<preset>/players=<n>/cell=<id>/part-NNNN.parquet``, one file per chunk of
``chunk_size`` games (chunk k holds games ``k*chunk_size ..``), plus ``part-NNNN.hands.parquet``
beside it with ``hands = true``. Rows are those of ``rummysim simulate`` (score columns padded
with nulls up to the sweep's largest player count, so every file has one schema), plus ``lineup``
(comma-separated strategies) and one column per rule flag named in ``[grid]``. Each file is
written under ``OUT/.staging/`` and renamed into place, so a file either exists complete or not at
all. Its key-value metadata holds the ``rummysim.*`` keys of ``simulate`` (game, players, lineup,
seed = the cell seed, unit, count, the cell's full rules, package and numba versions) and
``sweep.*`` keys (run id, sweep hash, cell id and label, run seed, chunk range, git commit, engine
fingerprint). ``OUT/_run.json`` describes the whole sweep (the TOML, every cell with its rules and
seed, totals, sessions). Polars reads it without rummysim:
``pl.scan_parquet("OUT/**/*.parquet", hive_partitioning=True)`` (with hand files, use
``OUT/**/part-*[0-9].parquet`` for the games and ``OUT/**/*.hands.parquet`` for the hands).

**Cells and seeds.** A cell's identity is the JSON of (preset, game, players, lineup per seat,
the rule flags that differ from RULES.md's defaults); its hash H (sha256) gives the cell id
``"c" + H[:10]`` (stable across sweeps, readable labels in the manifest) and the cell seed
``int(sha256("rummysim-sweep-seed/<run seed>/<H>")[:8]) >> 1``. Game i of a cell is the kernel's
game (cell seed, i), the same for any chunking, thread count or backend, so rows depend only on
the sweep file. Two cells never share a stream unless they are the same configuration.

**Resume.** A chunk is done when its final file exists, its footer names this sweep and chunk,
and its rows read back match the checksum (``sweep.checksum``, of the decoded rows) recorded in
the footer when it was written; a damaged file is played again. Rerunning the same sweep into
the same folder plays only the missing or damaged chunks, so an interrupted run (Ctrl-C,
SIGKILL, a dead worker or scheduler) ends with exactly the rows of an uninterrupted one. A
Parquet file in the folder that is not one of the sweep's own (a copy of a chunk, another
sweep's cell) is refused by name, since ``analyze`` would count its rows too. A different sweep
(other seed, games, chunk size, cells or columns; comments and key order do not matter) or
changed engine code is refused.

**Limits.** A plan's cells, games and chunks are counted from the grid before any cell is built,
and a plan beyond ``RUMMYSIM_MAX_CELLS`` (default 100,000), ``RUMMYSIM_MAX_SWEEP_GAMES``
(10^10) or ``RUMMYSIM_MAX_CHUNKS`` (10^6) is refused in one line with the numbers
(:mod:`rummysim.limits`). Cells are built one at a time and chunk jobs as they are taken, so a
dry run starts printing at once.

**Dask.** With ``scheduler="tcp://host:port"`` (an existing cluster) or ``cluster="local:N"`` (a
LocalCluster of N single-threaded worker processes) each chunk is one task that plays, writes
and renames its files on the worker (OUT must be on a filesystem every worker and the client
share); the client keeps only small results, so memory stays bounded. Each task uses
cores // (Dask threads on its host) numba threads. Failed tasks are resubmitted, and a killed
worker's tasks are rescheduled by Dask; both write the same bytes, so the dataset is identical to
a local run. A scheduler that dies ends the sweep within about 10 s with one line naming it; a
rerun (on a new cluster, or locally) finishes the dataset.

The package imports numba only when games are played, so that Dask workers can size numba's
thread pool before numba loads.

**Modules.** ``config`` reads and checks a sweep file (grammar, lineups, cells, seeds, chunking);
``store`` owns the output folder (manifest, lock, staging, atomic files, what is done, engine
fingerprint and git commit); ``chunks`` builds, plays and writes one chunk of one cell; ``plan``
says what a sweep will do; ``run`` holds :func:`sweep` and its local and Dask backends. The
names below are the public API.

The package is named ``sweeps``, not ``sweep``: ``from rummysim import sweep`` gives the
function, and a submodule ``rummysim.sweep`` would take that attribute of ``rummysim`` once
imported (likewise no submodule here is named ``sweep``, which would shadow the function in this
package). As a package it keeps every ``from rummysim.sweeps import ...`` of the former module.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Names are imported on first use: reading a sweep file (``config``) needs neither polars nor
# numba, so a dry run prints its plan's sizes before they load.
_EXPORTS = {
    **{name: "rummysim.sweeps.config" for name in (
        "Cell", "LineupSpec", "SweepConfig", "SweepConfigError", "cell_seed", "load_sweep", "parse_lineup_spec")},
    "SweepPlan": "rummysim.sweeps.plan",
    "plan_sweep": "rummysim.sweeps.plan",
    "sweep": "rummysim.sweeps.run",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rummysim.sweeps' has no attribute {name!r}")
