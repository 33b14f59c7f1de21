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

A lineup is one strategy for every seat (``"greedy"``, ``"all random"``), one per seat
(``"greedy,random,greedy,random"`` or ``["greedy", "random", "greedy", "random"]``), or seats
named against a default (``"random at seat 0, greedy elsewhere"``, ``"random at seats 0 and 2,
greedy elsewhere"``); seats are numbered from 0 like the ``score_k`` columns.

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

**Resume.** A chunk is done when its final file exists (its footer names this sweep and chunk).
Rerunning the same sweep into the same folder plays only the missing chunks, so an interrupted
run (Ctrl-C, SIGKILL, a dead worker) ends with exactly the rows of an uninterrupted one. A
different sweep (other seed, games, chunk size, cells or columns; comments and key order do not
matter) or changed engine code is refused.

**Dask.** With ``scheduler="tcp://host:port"`` (an existing cluster) or ``cluster="local:N"`` (a
LocalCluster of N single-threaded worker processes) each chunk is one task that plays, writes
and renames its files on the worker (OUT must be on a filesystem every worker and the client
share); the client keeps only small results, so memory stays bounded. Each task uses
cores // (Dask threads on its host) numba threads. Failed tasks are resubmitted, and a killed
worker's tasks are rescheduled by Dask; both write the same bytes, so the dataset is identical to
a local run.

This module imports numba only when games are played, so that Dask workers can size numba's
thread pool before numba loads.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import itertools
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

from rummysim.errors import InputError, RulesError, RummysimError, UnsupportedRuleError
from rummysim.rules import FLAGS, GAMES, Rules, format_value

__all__ = [
    "Cell",
    "SweepConfig",
    "SweepConfigError",
    "SweepPlan",
    "load_sweep",
    "plan_sweep",
    "sweep",
]

FORMAT = "rummysim-sweep/1"
MANIFEST = "_run.json"
STAGING = ".staging"
LOCK = ".lock"
DEFAULT_CHUNK = 4096
DEFAULT_GRID: dict[str, object] = {"game": "500-rum", "players": 4, "lineup": "greedy"}
RUN_KEYS = ("seed", "games_per_cell", "chunk_size", "hands", "name", "description")
TOP_KEYS = ("run", "grid")
DASK_MISSING = (
    "--scheduler and --cluster need Dask distributed, which is not installed: "
    "pip install '.[distributed]' in the rummysim checkout (or pip install 'dask[distributed]>=2024.1')"
)
SEEDING = (
    "cell seed = first 8 bytes of sha256('rummysim-sweep-seed/<run seed>/<cell hash>') as a big-endian "
    "integer, shifted right by 1; game i of a cell is the kernel game (cell seed, i) whatever the chunking"
)
GAMES_GLOB = "**/part-*[0-9].parquet"
HANDS_GLOB = "**/*.hands.parquet"

ProgressFn = Callable[[int, int], None]
log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# errors


class SweepConfigError(InputError):
    """A bad sweep file: names the file, the key and the reason (one line)."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        where = f"{source}: {key}: " if key else f"{source}: "
        super().__init__(where + reason)

    def __reduce__(self):  # type: ignore[override]
        return (type(self), (self.source, self.key, self.reason))


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ---------------------------------------------------------------------------------------------
# lineups

_NAME = r"[A-Za-z_][\w-]*"
_AT_RE = re.compile(rf"^(?P<name>{_NAME})\s+at\s+seats?\s+(?P<seats>\d+(?:\s*(?:and|\+|&)\s*\d+)*)$", re.I)
_ELSE_RE = re.compile(rf"^(?P<name>{_NAME})\s+(?:elsewhere|everywhere\s+else|at\s+(?:the\s+)?other\s+seats)$", re.I)
_ALL_RE = re.compile(rf"^(?:all(?:\s+seats)?\s+(?P<a>{_NAME})|(?P<b>{_NAME})\s+(?:everywhere|at\s+(?:all|every)\s+seats?))$", re.I)


@dataclass(frozen=True)
class LineupSpec:
    """A parsed lineup: every seat one strategy, one per seat, or some seats against a default."""

    text: str
    every: str | None = None
    seats: tuple[str, ...] = ()
    at: tuple[tuple[int, str], ...] = ()
    elsewhere: str | None = None

    def resolve(self, players: int) -> list[str]:
        """Strategy names per seat for ``players`` players (InputError if impossible)."""
        if self.every is not None:
            return [self.every] * players
        if self.seats:
            if len(self.seats) != players:
                raise InputError(f"lineup {self.text!r} names {len(self.seats)} seats for {players} players")
            return list(self.seats)
        names: list[str | None] = [None] * players
        for seat, name in self.at:
            if seat >= players:
                raise InputError(f"lineup {self.text!r} names seat {seat}, but seats are 0-{players - 1} "
                                 f"with {players} players")
            names[seat] = name
        if self.elsewhere is None and None in names:
            missing = ", ".join(str(s) for s, n in enumerate(names) if n is None)
            raise InputError(f"lineup {self.text!r} leaves seat(s) {missing} empty; add 'X elsewhere'")
        return [n if n is not None else str(self.elsewhere) for n in names]


def parse_lineup_spec(value: object) -> LineupSpec:
    """Read one lineup of a sweep file (a string or a list of names); InputError on bad syntax or
    unknown strategies."""
    from rummysim.strategies.registry import STRATEGIES

    def known(name: str) -> str:
        if name not in STRATEGIES:
            raise InputError(f"unknown strategy {name!r}{_did_you_mean(name, list(STRATEGIES))} "
                             f"(known: {', '.join(STRATEGIES)})")
        return name

    if isinstance(value, list):
        if not value or not all(isinstance(v, str) and v.strip() for v in value):
            raise InputError(f"a lineup given as a list must hold strategy names, got {value!r}")
        names = tuple(known(v.strip()) for v in value)
        if len(names) == 1:
            return LineupSpec(",".join(names), every=names[0])
        return LineupSpec(",".join(names), seats=names)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"a lineup must be a string or a list of strategy names, got {value!r}")
    text = " ".join(value.split())
    m = _ALL_RE.match(text)
    if m:
        return LineupSpec(text, every=known(m.group("a") or m.group("b")))
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise InputError(f"lineup {text!r} has an empty entry")
    if not any(" " in p for p in parts):
        names = tuple(known(p) for p in parts)
        return LineupSpec(text, every=names[0]) if len(names) == 1 else LineupSpec(text, seats=names)
    at: dict[int, str] = {}
    elsewhere = None
    for part in parts:
        m_at, m_else = _AT_RE.match(part), _ELSE_RE.match(part)
        if m_at:
            name = known(m_at.group("name"))
            for seat in (int(s) for s in re.findall(r"\d+", m_at.group("seats"))):
                if seat in at and at[seat] != name:
                    raise InputError(f"lineup {text!r} gives seat {seat} two strategies")
                at[seat] = name
        elif m_else:
            if elsewhere is not None:
                raise InputError(f"lineup {text!r} says 'elsewhere' twice")
            elsewhere = known(m_else.group("name"))
        else:
            raise InputError(
                f"cannot read {part!r} in lineup {text!r}: expected 'NAME', 'NAME at seat K', "
                "'NAME at seats K and L' or 'NAME elsewhere'"
            )
    return LineupSpec(text, at=tuple(sorted(at.items())), elsewhere=elsewhere)


# ---------------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True)
class Cell:
    """One configuration of the grid: where its files go, its rules and its seed."""

    id: str
    hash: str
    label: str
    preset: str
    game: str
    players: int
    lineup: tuple[str, ...]
    lineup_spec: str
    overrides: dict[str, object]
    rules: dict[str, object]
    changed: dict[str, object]
    seed: int

    @property
    def path(self) -> str:
        """The cell's folder relative to the sweep root (hive partitions)."""
        return f"game={self.preset}/players={self.players}/cell={self.id}"

    def as_json(self, sweep: "SweepConfig") -> dict[str, object]:
        return {
            "id": self.id, "label": self.label, "path": self.path, "preset": self.preset, "game": self.game,
            "players": self.players, "lineup": list(self.lineup), "lineup_spec": self.lineup_spec,
            "overrides": self.overrides, "rules_changed": self.changed, "rules": self.rules, "seed": self.seed,
            "hash": self.hash, "games": sweep.games_per_cell, "chunks": sweep.chunks_per_cell,
        }


@dataclass(frozen=True)
class SweepConfig:
    """A validated sweep: run settings, the grid as given, and the expanded cells."""

    source: str
    seed: int
    games_per_cell: int
    chunk_size: int
    hands: bool
    grid: dict[str, tuple[object, ...]]
    cells: tuple[Cell, ...]
    flag_columns: tuple[str, ...]
    name: str | None = None
    description: str | None = None
    text: str | None = field(default=None, repr=False)

    @property
    def chunks_per_cell(self) -> int:
        return -(-self.games_per_cell // self.chunk_size)

    @property
    def total_games(self) -> int:
        return self.games_per_cell * len(self.cells)

    @property
    def max_players(self) -> int:
        return max(c.players for c in self.cells)

    @property
    def swept(self) -> dict[str, int]:
        """Grid keys with their number of values (the factors of the cell count)."""
        return {k: len(v) for k, v in self.grid.items()}

    @cached_property
    def sweep_hash(self) -> str:
        """Identity of the sweep: what decides its rows and files (not comments, order or names)."""
        ident = {
            "format": FORMAT, "seed": self.seed, "games_per_cell": self.games_per_cell,
            "chunk_size": self.chunk_size, "hands": self.hands, "columns": list(self.flag_columns),
            "cells": sorted(c.id for c in self.cells),
        }
        return hashlib.sha256(_canonical(ident).encode()).hexdigest()

    def part_name(self, k: int, hands: bool = False) -> str:
        width = max(4, len(str(self.chunks_per_cell - 1)))
        return f"part-{k:0{width}d}{'.hands' if hands else ''}.parquet"

    def chunk_range(self, k: int) -> tuple[int, int]:
        start = k * self.chunk_size
        return start, min(self.chunk_size, self.games_per_cell - start)


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def cell_seed(run_seed: int, cell_hash: str) -> int:
    """The seed of a cell's games: independent of every other cell and of the chunking."""
    digest = hashlib.sha256(f"rummysim-sweep-seed/{run_seed}/{cell_hash}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _values(raw: object) -> list[object]:
    return list(raw) if isinstance(raw, list) else [raw]


def load_sweep(source: str | Path | Mapping[str, object], *, label: str | None = None) -> SweepConfig:
    """Read and validate a sweep (a TOML file path, or the dict a TOML file parses to).

    Every cell is expanded and checked (rules, player count, lineup) before anything is played;
    the first problem raises :class:`SweepConfigError` naming the file, the key and the reason.
    """
    text = None
    if isinstance(source, Mapping):
        data = dict(source)
        where = label or "<sweep>"
    else:
        path = Path(source)
        where = label or str(source)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise SweepConfigError(where, "", "no such file") from None
        except IsADirectoryError:
            raise SweepConfigError(where, "", "is a folder, not a sweep file") from None
        except OSError as exc:
            raise SweepConfigError(where, "", f"cannot read: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
            data = tomllib.loads(text)
        except UnicodeDecodeError:
            raise SweepConfigError(where, "", "not valid TOML: not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            raise SweepConfigError(where, "", f"not valid TOML: {exc}") from None

    def fail(key: str, reason: str) -> SweepConfigError:
        return SweepConfigError(where, key, reason)

    for key in data:
        if key not in TOP_KEYS:
            raise fail(f"[{key}]", f"unknown table{_did_you_mean(key, TOP_KEYS)}; a sweep file has [run] and [grid]")
    run = data.get("run")
    if not isinstance(run, dict):
        raise fail("[run]", "missing table (it needs at least games_per_cell)" if run is None else "must be a table")
    for key in run:
        if key not in RUN_KEYS:
            raise fail(f"[run] {key}", f"unknown key{_did_you_mean(key, RUN_KEYS)}; known: {', '.join(RUN_KEYS)}")

    def integer(key: str, default: int | None, low: int) -> int:
        if key not in run:
            if default is None:
                raise fail(f"[run] {key}", "missing (how many games each cell plays)")
            return default
        value = run[key]
        if type(value) is not int or value < low:
            raise fail(f"[run] {key}", f"expected an integer >= {low}, got {value!r}")
        return value

    seed = integer("seed", 0, 0)
    games = integer("games_per_cell", None, 1)
    chunk = integer("chunk_size", DEFAULT_CHUNK, 1)
    hands = run.get("hands", False)
    if type(hands) is not bool:
        raise fail("[run] hands", f"expected true or false, got {hands!r}")
    texts = {}
    for key in ("name", "description"):
        if key in run and not isinstance(run[key], str):
            raise fail(f"[run] {key}", f"expected a string, got {run[key]!r}")
        texts[key] = run.get(key)

    grid_raw = data.get("grid", {})
    if not isinstance(grid_raw, dict):
        raise fail("[grid]", "must be a table")
    grid = _read_grid(grid_raw, fail)
    cells, flag_columns = _expand(grid, seed, where)
    config = SweepConfig(
        source=where, seed=seed, games_per_cell=games, chunk_size=chunk, hands=hands,
        grid={k: tuple(v) for k, v in grid.items()}, cells=tuple(cells), flag_columns=flag_columns,
        name=texts["name"], description=texts["description"], text=text,
    )
    return config


def _read_grid(raw: dict[str, object], fail: Callable[[str, str], SweepConfigError]) -> dict[str, list[object]]:
    """Each grid key with its list of typed, individually valid values (in file order)."""
    keys = ["game", "players", "lineup", *FLAGS]
    grid: dict[str, list[object]] = {}
    for key, value in raw.items():
        where = f"[grid] {key}"
        if key not in keys:
            raise fail(where, f"unknown key{_did_you_mean(key, keys)}; [grid] takes game, players, lineup "
                              "and rule flags (`rummysim rules show 500-rum` lists them)")
        if isinstance(value, dict):
            raise fail(where, "expected a value or a list of values, got a table")
        values = _values(value) if key != "lineup" else (value if isinstance(value, list) else [value])
        if not values:
            raise fail(where, "empty list: give at least one value")
        typed: list[object] = []
        for v in values:
            try:
                typed.append(_grid_value(key, v))
            except RummysimError as exc:
                raise fail(where, str(exc)) from None
        seen: set[str] = set()
        for v in typed:
            tag = _canonical(v if not isinstance(v, LineupSpec) else v.text)
            if tag in seen:
                raise fail(where, f"value {format_value(v) if not isinstance(v, LineupSpec) else v.text!r} is listed twice")
            seen.add(tag)
        grid[key] = typed
    for key, default in DEFAULT_GRID.items():
        if key not in grid:
            grid[key] = [_grid_value(key, default)]
    order = ["game", "players", "lineup"]
    return {k: grid[k] for k in [*order, *[k for k in grid if k not in order]]}


def _grid_value(key: str, value: object) -> object:
    if key == "game":
        if not isinstance(value, str):
            raise InputError(f"expected a preset name, got {value!r}")
        Rules.preset(value)  # RulesError with the known presets
        return value
    if key == "players":
        if type(value) is not int:
            raise InputError(f"expected a number of players, got {value!r}")
        low = min(g.min_players for g in GAMES.values())
        high = max(g.max_players for g in GAMES.values())
        if not low <= value <= high:
            raise InputError(f"{value} players: the games are for {low}-{high} players")
        return value
    if key == "lineup":
        return parse_lineup_spec(value)
    flag = FLAGS[key]
    if isinstance(value, float) or not isinstance(value, (str, int, bool)):
        raise InputError(f"expected true/false, an integer or a string, got {value!r}")
    typed = flag.parse(value)
    if not flag.allows(typed):
        raise RulesError(flag.bad_value_message(value))
    return typed


def _cell_text(values: Mapping[str, object]) -> str:
    out = []
    for key, value in values.items():
        shown = value.text if isinstance(value, LineupSpec) else format_value(value)
        out.append(f"{key}={shown}")
    return ", ".join(out)


def _blame(exc: RummysimError, values: Mapping[str, object]) -> str:
    """The grid key a cell's error is about."""
    if isinstance(exc, UnsupportedRuleError) and exc.flag in values:
        return exc.flag
    text = str(exc)
    if isinstance(exc, UnsupportedRuleError) and exc.flag == "game":
        return "game"
    if not isinstance(exc, RulesError) and "players" in text:
        return "players"
    mentioned = [k for k in values if k not in ("game", "players", "lineup") and re.search(rf"\b{k}\b", text)]
    if mentioned:
        return mentioned[0]
    if "players" in text or re.search(r"\bgot \d+$", text):
        return "players"
    return "game"


def _expand(grid: dict[str, list[object]], run_seed: int, where: str) -> tuple[list[Cell], tuple[str, ...]]:
    """Every combination of the grid as a checked cell; the first impossible one is an error."""
    from rummysim.games import encode_rules

    keys = list(grid)
    flag_keys = [k for k in keys if k in FLAGS]
    cells: list[Cell] = []
    bad: list[tuple[str, str, str]] = []
    seen: dict[str, tuple[str, dict[str, object]]] = {}
    for combo in itertools.product(*(grid[k] for k in keys)):
        values = dict(zip(keys, combo))
        preset, players, spec = values["game"], values["players"], values["lineup"]
        overrides = {k: values[k] for k in flag_keys}
        try:
            try:
                lineup = spec.resolve(players)  # type: ignore[union-attr]
            except InputError as exc:
                raise _Blamed("lineup", exc) from None
            rules = Rules.preset(preset).with_(**overrides)  # type: ignore[arg-type]
            encode_rules(rules, players)  # type: ignore[arg-type]
        except _Blamed as exc:
            bad.append((exc.key, _cell_text(values), str(exc.error)))
            continue
        except RummysimError as exc:
            bad.append((_blame(exc, values), _cell_text(values), str(exc)))
            continue
        changed = rules.changed()
        ident = {"preset": preset, "game": rules.game, "players": players, "lineup": lineup, "rules": changed}
        digest = hashlib.sha256(_canonical(ident).encode()).hexdigest()
        cid = "c" + digest[:10]
        label_parts = [str(preset), f"{players} players", ",".join(lineup)]
        label_parts += [f"{k}={format_value(v)}" for k, v in overrides.items()]
        label = ", ".join(label_parts)
        if cid in seen:
            other, other_values = seen[cid]
            keys_differ = [k for k in keys if _canonical(_plain(values[k])) != _canonical(_plain(other_values[k]))]
            raise SweepConfigError(
                where, f"[grid] {', '.join(keys_differ) or 'grid'}",
                f"two cells are the same game ({label}): {_cell_text({k: other_values[k] for k in keys_differ})} "
                f"and {_cell_text({k: values[k] for k in keys_differ})} give the same rules and lineup; drop one",
            )
        seen[cid] = (label, values)
        cells.append(Cell(
            id=cid, hash=digest, label=label, preset=str(preset), game=rules.game, players=int(players),  # type: ignore[arg-type]
            lineup=tuple(lineup), lineup_spec=spec.text, overrides=dict(overrides),  # type: ignore[union-attr]
            rules=rules.as_dict(), changed=changed, seed=cell_seed(run_seed, digest),
        ))
    if bad:
        key, cell, reason = bad[0]
        more = f" (and {len(bad) - 1} more impossible cells)" if len(bad) > 1 else ""
        raise SweepConfigError(where, f"[grid] {key}", f"impossible cell ({cell}): {reason}{more}")
    return cells, tuple(flag_keys)


def _plain(value: object) -> object:
    return value.text if isinstance(value, LineupSpec) else value


class _Blamed(Exception):
    def __init__(self, key: str, error: Exception) -> None:
        self.key = key
        self.error = error


# ---------------------------------------------------------------------------------------------
# jobs: one chunk of one cell, played and written by the same code locally and on Dask workers


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


_CONFIGS: dict[str, Any] = {}


def _run_config(job: ChunkJob):
    """The cell's RunConfig, built once per process."""
    from rummysim.simulation import prepare

    key = job.cell_id + _canonical(job.rules)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = prepare(job.preset, job.players, ",".join(job.lineup), rules=Rules.from_dict(job.rules))
        if len(_CONFIGS) > 256:
            _CONFIGS.clear()
        _CONFIGS[key] = cfg
    return cfg


_DTYPES = {"Int64": pl.Int64, "Boolean": pl.Boolean, "String": pl.String}


def _decorate(df: pl.DataFrame, job: ChunkJob) -> pl.DataFrame:
    """Pad the score columns to the sweep's seat count and add the constant columns."""
    names = df.columns
    last_score = max(i for i, c in enumerate(names) if c.startswith("score_"))
    pad = [pl.lit(None, dtype=pl.Int32).alias(f"score_{s}") for s in range(job.players, job.pad_players)]
    consts = [pl.lit(",".join(job.lineup), dtype=pl.String).alias("lineup")]
    consts += [pl.lit(v, dtype=_DTYPES[t]).alias(n) for n, v, t in job.columns]
    head = [pl.col(c) for c in names[: last_score + 1]]
    tail = [pl.col(c) for c in names[last_score + 1:]]
    return df.select(*head, *pad, *tail, *consts)


def _move_into_place(tmp: Path, final: Path) -> None:
    """The atomic step: a complete file appears under its final name, or nothing does."""
    os.replace(tmp, final)


def _publish(df: pl.DataFrame, final: Path, metadata: dict[str, str], staging: Path) -> None:
    staging.mkdir(parents=True, exist_ok=True)
    tmp = staging / f"{final.parent.name}-{final.name}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        df.write_parquet(tmp, metadata=metadata)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        final.parent.mkdir(parents=True, exist_ok=True)
        _move_into_place(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def run_chunk(job: ChunkJob) -> dict[str, object]:
    """Play one chunk and move its file(s) into place; returns a small record of the work."""
    from rummysim.simulation import play_game_chunk

    t0 = time.perf_counter()
    cfg = _run_config(job)
    games, hands = play_game_chunk(cfg, job.seed, job.start, job.count, job.hands)
    staging = Path(job.staging)
    if hands is not None:  # the hands file first: the games file is the chunk's "done" mark
        _publish(_decorate(hands, job), job.final_hands, job.metadata, staging)
    _publish(_decorate(games, job), job.final, job.metadata, staging)
    return {"cell": job.cell_id, "index": job.index, "games": job.count, "seconds": time.perf_counter() - t0}


# ---------------------------------------------------------------------------------------------
# output folder: manifest, lock, what is done


def engine_fingerprint() -> str:
    """Hash of the sources that decide the rows (kernels, strategies, rules encoding): the same
    fingerprint that names the numba cache folder."""
    from rummysim.kernels.common._jit import source_fingerprint

    return source_fingerprint()


def git_commit() -> str | None:
    """The git commit of the code, with ``+dirty`` if tracked files changed; None outside git."""
    base = Path(__file__).resolve().parent.parent
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


def _check_folder(out: Path, config: SweepConfig, engine: str) -> dict | None:
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
def _locked(out: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fh = open(out / LOCK, "a+")
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError(f"another sweep is writing to {out} right now") from None
        yield
    finally:
        fh.close()


def _chunk_done(path: Path, config: SweepConfig, cell: Cell, k: int) -> bool:
    if not path.is_file():
        return False
    try:
        meta = pl.read_parquet_metadata(path)
        chunk = json.loads(meta.get("sweep.chunk", "{}"))
    except Exception:  # noqa: BLE001 - an unreadable file is redone
        return False
    start, count = config.chunk_range(k)
    return (meta.get("sweep.hash") == config.sweep_hash and meta.get("sweep.cell") == cell.id
            and chunk.get("start") == start and chunk.get("stop") == start + count)


# ---------------------------------------------------------------------------------------------
# plan


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


def _jobs(config: SweepConfig, out: Path, run_id: str, commit: str | None, engine: str) -> tuple[list[ChunkJob], int, int]:
    """The chunks still to play (and the games and files already done)."""
    from rummysim.output import run_metadata

    root = out.resolve()
    staging = root / STAGING
    columns = _flag_column_types(config)
    jobs: list[ChunkJob] = []
    done_games = done_files = 0
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
            if _chunk_done(root / cell.path / part, config, cell, k) and (
                not config.hands or (root / cell.path / config.part_name(k, hands=True)).is_file()
            ):
                done_games += count
                done_files += 1
                continue
            jobs.append(ChunkJob(
                root=str(root), staging=str(staging), cell_id=cell.id, cell_path=cell.path, preset=cell.preset,
                players=cell.players, lineup=cell.lineup, rules=cell.rules, seed=cell.seed, index=k, start=start,
                count=count, hands=config.hands, pad_players=config.max_players, columns=consts, part=part,
                hands_part=config.part_name(k, hands=True), cell_meta=meta,
            ))
    return jobs, done_games, done_files


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


def plan_sweep(source: str | Path | Mapping[str, object] | SweepConfig, out: str | Path) -> SweepPlan:
    """Validate a sweep and see what running it into ``out`` would do (nothing is written)."""
    config = source if isinstance(source, SweepConfig) else load_sweep(source)
    out = Path(out)
    engine = engine_fingerprint()
    manifest = _check_folder(out, config, engine)
    run_id = manifest["run_id"] if manifest else "(new)"
    jobs, done_games, _ = _jobs(config, out, run_id, None, engine)
    return SweepPlan(config, out, jobs, len(config.cells) * config.chunks_per_cell, done_games, manifest is not None)


# ---------------------------------------------------------------------------------------------
# backends


def _local_threads(threads: int | None) -> int:
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
        cfg = _run_config(job)
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
    if scheduler is not None and cluster is not None:
        raise InputError("give either --scheduler or --cluster, not both")
    try:
        import distributed
    except ImportError:
        raise InputError(DASK_MISSING) from None
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

    ``source`` is a TOML file (see the module docstring), the dict it parses to, or a
    :class:`SweepConfig`. Everything is validated before any game runs (typed errors, nothing
    written). Rerunning into the same folder resumes: only missing chunks are played, and the
    rows are exactly those of an uninterrupted run; a different sweep in ``out`` is refused.

    Backends: in-process by default, chunk after chunk, each on ``threads`` numba threads (default
    all cores); ``scheduler="tcp://HOST:PORT"`` (or a ``distributed.Client``) runs the chunks on
    an existing Dask cluster, ``cluster="local:N"`` on a new LocalCluster of N workers. The rows do
    not depend on the backend, the thread count or the chunk size.

    ``progress(done_games, total_games)`` is called after each chunk; ``on_plan(plan)`` once,
    before the first game, with the cell count, what is already done and a time estimate.

    Example:
        >>> from sim.sweeps import sweep
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
        if scheduler is not None and cluster is not None:
            raise InputError("give either --scheduler or --cluster, not both")
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise InputError(DASK_MISSING) from None
        if threads is not None and threads < 1:
            raise InputError(f"--threads must be at least 1, got {threads}")
    engine = engine_fingerprint()
    _check_folder(out, config, engine)  # refuse before touching anything

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
        stack.enter_context(_locked(out))
        manifest = _check_folder(out, config, engine)  # again, under the lock
        commit = git_commit()
        if manifest is None:
            manifest = _new_manifest(config, out, engine, commit)
        shutil.rmtree(out / STAGING, ignore_errors=True)  # leftovers of killed runs
        jobs, done_games, _ = _jobs(config, out, manifest["run_id"], commit, engine)
        plan = SweepPlan(config, out, jobs, len(config.cells) * config.chunks_per_cell, done_games,
                         bool(manifest.get("sessions")), backend)
        if not use_dask:
            _calibrate(plan, threads or _local_threads(None))
        session = {"started": _now(), "finished": None, "backend": backend, "files_written": 0,
                   "games_written": 0, "elapsed_s": None, "games_per_s": None}
        manifest.setdefault("sessions", []).append(session)
        manifest["status"] = "running" if plan.jobs else "complete"
        manifest["updated"] = session["started"]
        _write_json_atomic(out / MANIFEST, manifest)
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
        session.update({"finished": _now(), "files_written": files, "games_written": games,
                        "elapsed_s": round(elapsed, 3), "games_per_s": round(games / elapsed, 1) if elapsed else None})
        manifest["status"] = "complete"
        manifest["updated"] = session["finished"]
        if not manifest.get("completed"):
            manifest["completed"] = session["finished"]
        _write_json_atomic(out / MANIFEST, manifest)
        shutil.rmtree(out / STAGING, ignore_errors=True)
    return out


def _new_manifest(config: SweepConfig, out: Path, engine: str, commit: str | None) -> dict:
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
