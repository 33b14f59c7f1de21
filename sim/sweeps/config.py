"""A sweep file read and checked: the TOML grammar, lineups, the grid expanded into cells, cell
ids and seeds, and the chunking of a cell's games.

Everything here is pure configuration: nothing is played or written, and numba is not imported.
The grammar itself is described in the ``rummysim.sweeps`` docstring.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from rummysim import limits
from rummysim.errors import InputError, RulesError, RummysimError, UnsupportedRuleError
from rummysim.rules import FLAGS, GAMES, Rules, format_value
from rummysim.strategies.betting import DEFAULT_BETTING, parse_betting, parse_betting_policy
from rummysim.variations import Variation, variation_of

FORMAT = "rummysim-sweep/1"
DEFAULT_CHUNK = 4096
DEFAULT_GRID: dict[str, object] = {"game": "500-rum", "players": 4, "lineup": "greedy"}
RUN_KEYS = ("seed", "games_per_cell", "chunk_size", "hands", "name", "description")
TOP_KEYS = ("run", "grid")
SEEDING = (
    "cell seed = first 8 bytes of sha256('rummysim-sweep-seed/<run seed>/<cell hash>') as a big-endian "
    "integer, shifted right by 1; game i of a cell is the kernel game (cell seed, i) whatever the chunking"
)


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

# A strategy with any parameters set: ``heuristic``, ``heuristic:take_depth=3:hold=0``, a preset
# ``heuristic@500-rum-2p``, or a Python class ``py:bots.py:Digger:keep=1``.
_NAME = r"(?:py:[^\s,]+|[A-Za-z_][\w-]*(?:@[\w.-]+)?(?::\w+=[-+\w.]+)*)"
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
    from rummysim.strategies.registry import STRATEGIES, canonical_spec, is_python

    def known(spec: str) -> str:
        if is_python(spec):
            from rummysim.stepenv.python_players import parse_python_spec

            return parse_python_spec(spec).text  # the file, class and parameters checked now
        name = spec.split(":", 1)[0].split("@", 1)[0].strip()
        if name not in STRATEGIES:
            raise InputError(f"unknown strategy {name!r}{_did_you_mean(name, list(STRATEGIES))} "
                             f"(known: {', '.join(STRATEGIES)})")
        return canonical_spec(spec)  # parameters checked by name and range (issue 18 point 1)

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
    betting: tuple[str, ...] | None = None  # the seats' betting policies of a stakes cell (V5K-13/14)
    variation: Variation | None = None  # the preset and the overrides actually played (rummysim.variations)

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
            "betting": None if self.betting is None else list(self.betting),
            **({} if self.variation is None else {"variation": self.variation.label}),
        }


@dataclass(frozen=True)
class SweepConfig:
    """A sweep whose file and grid values are checked: run settings, the grid as given, and its
    cells, expanded and checked on first use (``cells``) or one at a time (``iter_cells``), so
    that a plan's sizes are known, and a huge one refused, before any cell is built."""

    source: str
    seed: int
    games_per_cell: int
    chunk_size: int
    hands: bool
    grid: dict[str, tuple[object, ...]]
    flag_columns: tuple[str, ...]
    name: str | None = None
    description: str | None = None
    text: str | None = field(default=None, repr=False)

    @property
    def n_cells(self) -> int:
        """The number of cells: the product of the grid's value counts (no cell is built)."""
        return math.prod(len(values) for values in self.grid.values())

    @property
    def chunks_per_cell(self) -> int:
        return -(-self.games_per_cell // self.chunk_size)

    @property
    def total_chunks(self) -> int:
        return self.n_cells * self.chunks_per_cell

    @property
    def total_games(self) -> int:
        return self.games_per_cell * self.n_cells

    @property
    def max_players(self) -> int:
        return max(int(p) for p in self.grid["players"])  # type: ignore[call-overload]

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell, checked (SweepConfigError on the first impossible one)."""
        return tuple(self.iter_cells())

    def iter_cells(self) -> Iterator[Cell]:
        """The cells one at a time as they are built and checked (a dry run prints each at
        once); a full pass keeps them as ``cells``, and an impossible cell raises at the end."""
        if "cells" in self.__dict__:
            yield from self.__dict__["cells"]
            return
        built: list[Cell] = []
        for cell in _expand(self.grid, self.seed, self.source):
            built.append(cell)
            yield cell
        self.__dict__["cells"] = tuple(built)

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
        return hashlib.sha256(canonical(ident).encode()).hexdigest()

    def part_name(self, k: int, hands: bool = False) -> str:
        width = max(4, len(str(self.chunks_per_cell - 1)))
        return f"part-{k:0{width}d}{'.hands' if hands else ''}.parquet"

    def chunk_range(self, k: int) -> tuple[int, int]:
        start = k * self.chunk_size
        return start, min(self.chunk_size, self.games_per_cell - start)


def size_line(config: SweepConfig) -> str:
    """The plan's sizes in one line, from the grid alone (printed before any cell is built)."""
    factors = " x ".join(f"{k} {n}" for k, n in config.swept.items())
    cells = config.n_cells
    return (f"{cells:,} cell{'s' * (cells != 1)} ({factors}), {config.games_per_cell:,} games each: "
            f"{config.total_games:,} games in {config.total_chunks:,} chunks of up to {config.chunk_size:,} games "
            "(one file each)")


def canonical(obj: object) -> str:
    """The JSON text an identity is hashed from: sorted keys, no spaces, ASCII only."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def cell_seed(run_seed: int, cell_hash: str) -> int:
    """The seed of a cell's games: independent of every other cell and of the chunking."""
    digest = hashlib.sha256(f"rummysim-sweep-seed/{run_seed}/{cell_hash}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _values(raw: object) -> list[object]:
    return list(raw) if isinstance(raw, list) else [raw]


def load_sweep(source: str | Path | Mapping[str, object], *, label: str | None = None,
               expand: bool = True) -> SweepConfig:
    """Read and validate a sweep (a TOML file path, or the dict a TOML file parses to).

    Every cell is expanded and checked (rules, player count, lineup) before anything is played;
    the first problem raises :class:`SweepConfigError` naming the file, the key and the reason.
    A plan beyond the limits of :mod:`rummysim.limits` (cells, games, chunks) is refused before
    any cell is built. With ``expand=False`` the cells are built on first use instead (a dry run
    streams them with ``iter_cells``).
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
    config = SweepConfig(
        source=where, seed=seed, games_per_cell=games, chunk_size=chunk, hands=hands,
        grid={k: tuple(v) for k, v in grid.items()}, flag_columns=tuple(k for k in grid if k in FLAGS),
        name=texts["name"], description=texts["description"], text=text,
    )
    check_plan_size(config)
    if expand:
        config.cells  # noqa: B018 - builds and checks every cell now, before anything else
    return config


def check_plan_size(config: SweepConfig) -> None:
    """Refuse a plan beyond the limits (cells, games, chunks) in one line with the numbers, from
    the grid's sizes alone: nothing is built first (issue 21, point 4)."""
    cells, games, chunks = config.n_cells, config.total_games, config.total_chunks
    sizes = (f"{cells:,} cell{'s' * (cells != 1)} x {config.games_per_cell:,} games = {games:,} games "
             f"in {chunks:,} chunks of {config.chunk_size:,}")
    for what, count, limit, key, hint in (
        ("cells", cells, limits.max_sweep_cells(), "[grid]", "fewer values in [grid]"),
        ("games", games, limits.max_sweep_games(), "[run] games_per_cell", "fewer games_per_cell or cells"),
        ("chunks", chunks, limits.max_sweep_chunks(), "[run] chunk_size", "a larger chunk_size"),
    ):
        if count > limit.value:
            raise SweepConfigError(config.source, key, f"{sizes}: more than the {limit.value:,} {what} a sweep may have; "
                                                         f"use {hint}, or raise the limit with {limit.env}=N")


def _read_grid(raw: dict[str, object], fail: Callable[[str, str], SweepConfigError]) -> dict[str, list[object]]:
    """Each grid key with its list of typed, individually valid values (in file order)."""
    keys = ["game", "players", "lineup", "betting", *FLAGS]
    grid: dict[str, list[object]] = {}
    for key, value in _param_keys(raw).items():
        where = f"[grid] {key.replace(':', '.')}"
        if key not in keys and not _is_param_key(key):
            raise fail(where, f"unknown key{_did_you_mean(key, keys)}; [grid] takes game, players, lineup, "
                              "betting (the betting policies of a stakes game), STRATEGY.PARAM (a strategy "
                              "parameter, e.g. heuristic.take_depth) and rule flags (`rummysim rules show 500-rum` lists them)")
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
            tag = canonical(v if not isinstance(v, LineupSpec) else v.text)
            if tag in seen:
                raise fail(where, f"value {_shown(v)!r} is listed twice")
            seen.add(tag)
        grid[key] = typed
    for key, default in DEFAULT_GRID.items():
        if key not in grid:
            grid[key] = [_grid_value(key, default)]
    order = ["game", "players", "lineup", "betting"]
    return {k: grid[k] for k in [*[k for k in order if k in grid], *[k for k in grid if k not in order]]}


def _param_keys(raw: Mapping[str, object]) -> dict[str, object]:
    """The grid with each strategy's table (TOML ``heuristic.take_depth = [...]``) spread into
    ``heuristic:take_depth`` keys, one axis per parameter, in file order."""
    from rummysim.strategies.registry import STRATEGIES

    out: dict[str, object] = {}
    for key, value in raw.items():
        if key in STRATEGIES and isinstance(value, dict):
            out.update({f"{key}:{param}": values for param, values in value.items()})
        else:
            out[key] = value
    return out


def _is_param_key(key: str) -> bool:
    from rummysim.strategies.registry import STRATEGIES

    return key.count(":") == 1 and key.split(":")[0] in STRATEGIES


def _param_value(key: str, value: object) -> float:
    """A swept strategy parameter's value, checked against the parameter's name and range."""
    from rummysim.strategies.registry import with_setting

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"expected a number, got {value!r}")
    name, param = key.split(":")
    with_setting(name, param, float(value))  # InputError naming the key and its range
    return float(value)


def _with_params(lineup: list[str], params: Mapping[str, float]) -> list[str]:
    """The cell's lineup with each swept parameter set on every seat that plays its strategy."""
    from rummysim.strategies.registry import with_setting

    out = list(lineup)
    for key, value in params.items():
        name, param = key.split(":")
        seats = [s for s, spec in enumerate(out) if spec.split(":")[0] == name]
        if not seats:
            raise _Blamed(key.replace(":", "."), InputError(f"no seat of lineup {','.join(lineup)} plays {name}"))
        for s in seats:
            out[s] = with_setting(out[s], param, value)
    return out


def _grid_value(key: str, value: object) -> object:
    if _is_param_key(key):
        return _param_value(key, value)
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
    if key == "betting":
        if not isinstance(value, str):
            raise InputError(f"expected betting policies as text (e.g. \"threshold,accept-all\"), got {value!r}")
        for part in value.split(","):
            parse_betting_policy(part.strip())  # InputError naming the unknown policy or parameter
        return value
    flag = FLAGS[key]
    if isinstance(value, float) or not isinstance(value, (str, int, bool)):
        raise InputError(f"expected true/false, an integer or a string, got {value!r}")
    typed = flag.parse(value)
    if not flag.allows(typed):
        raise RulesError(flag.bad_value_message(value))
    return typed


def _shown(value: object) -> str:
    """A grid value as the file gives it (a strategy parameter as 3, not 3.0)."""
    if isinstance(value, LineupSpec):
        return value.text
    return f"{value:g}" if isinstance(value, float) else format_value(value)


def _cell_text(values: Mapping[str, object]) -> str:
    return ", ".join(f"{key.replace(':', '.')}={_shown(value)}" for key, value in values.items())


def _blame(exc: RummysimError, values: Mapping[str, object]) -> str:
    """The grid key a cell's error is about."""
    if isinstance(exc, UnsupportedRuleError) and exc.flag in values:
        return exc.flag
    text = str(exc)
    if isinstance(exc, UnsupportedRuleError) and exc.flag == "game":
        return "game"
    if not isinstance(exc, RulesError) and "players" in text:
        return "players"
    mentioned = [k for k in values if k not in ("game", "players", "lineup", "betting") and re.search(rf"\b{k}\b", text)]
    if mentioned:
        return mentioned[0]
    if "players" in text or re.search(r"\bgot \d+$", text):
        return "players"
    return "game"


def _expand(grid: Mapping[str, Sequence[object]], run_seed: int, where: str) -> Iterator[Cell]:
    """Every combination of the grid as a checked cell, one at a time; impossible cells are
    collected and the first of them raised at the end (with how many more there were)."""
    from rummysim.games import encode_rules

    keys = list(grid)
    flag_keys = [k for k in keys if k in FLAGS]
    param_keys = [k for k in keys if _is_param_key(k)]
    bad: list[tuple[str, str, str]] = []
    seen: dict[str, tuple[str, dict[str, object]]] = {}
    presets: dict[str, Rules] = {}  # building a preset is half the cost of a cell
    for combo in itertools.product(*(grid[k] for k in keys)):
        values = dict(zip(keys, combo))
        preset, players, spec = values["game"], values["players"], values["lineup"]
        overrides = {k: values[k] for k in flag_keys}
        try:
            try:
                lineup = spec.resolve(players)  # type: ignore[union-attr]
            except InputError as exc:
                raise _Blamed("lineup", exc) from None
            lineup = _with_params(lineup, {k: values[k] for k in param_keys})  # type: ignore[misc]
            if preset not in presets:
                presets[preset] = Rules.preset(preset)  # type: ignore[arg-type]
            rules = presets[preset].with_(**overrides)  # type: ignore[index]
            encode_rules(rules, players)  # type: ignore[arg-type]
            betting = _cell_betting(values.get("betting"), rules, players)  # type: ignore[arg-type]
        except _Blamed as exc:
            bad.append((exc.key, _cell_text(values), str(exc.error)))
            continue
        except RummysimError as exc:
            bad.append((_blame(exc, values), _cell_text(values), str(exc)))
            continue
        changed = rules.changed()
        ident = {"preset": preset, "game": rules.game, "players": players, "lineup": lineup, "rules": changed}
        if betting is not None:  # only then: the cells of sweeps without betting keep their ids
            ident["betting"] = list(betting)
        digest = hashlib.sha256(canonical(ident).encode()).hexdigest()
        cid = "c" + digest[:10]
        variation = variation_of(rules, str(preset))
        label = cell_label(variation.label, int(players), lineup, betting)  # type: ignore[arg-type]
        if cid in seen:
            other, other_values = seen[cid]
            keys_differ = [k for k in keys if canonical(_plain(values[k])) != canonical(_plain(other_values[k]))]
            raise SweepConfigError(
                where, f"[grid] {', '.join(keys_differ) or 'grid'}",
                f"two cells are the same game ({label}): {_cell_text({k: other_values[k] for k in keys_differ})} "
                f"and {_cell_text({k: values[k] for k in keys_differ})} give the same rules and lineup; drop one",
            )
        seen[cid] = (label, values)
        yield Cell(
            id=cid, hash=digest, label=label, preset=str(preset), game=rules.game, players=int(players),  # type: ignore[arg-type]
            lineup=tuple(lineup), lineup_spec=spec.text, overrides=dict(overrides),  # type: ignore[union-attr]
            rules=rules.as_dict(), changed=changed, seed=cell_seed(run_seed, digest), betting=betting,
            variation=variation,
        )
    if bad:
        key, cell, reason = bad[0]
        more = f" (and {len(bad) - 1} more impossible cells)" if len(bad) > 1 else ""
        raise SweepConfigError(where, f"[grid] {key}", f"impossible cell ({cell}): {reason}{more}")


def cell_label(variation: str, players: int, lineup: Sequence[str], betting: Sequence[str] | None) -> str:
    """A cell in a few words: its variation (preset and overrides), players, lineup (one name when
    every seat plays it) and betting policies: ``boathouse, 4 players, greedy``."""
    parts = [variation, f"{players} players", _compact(lineup)]
    return ", ".join(parts if betting is None else [*parts, f"betting {_compact(betting)}"])


def _compact(names: Sequence[str]) -> str:
    return names[0] if len(set(names)) == 1 else ",".join(names)


def _cell_betting(text: str | None, rules: Rules, players: int) -> tuple[str, ...] | None:
    """The canonical betting policy per seat of a stakes cell (accept-all when the grid gives
    none), None for a cell without a stakes layer; a betting value on such a cell is refused."""
    from rummysim.games import get_game

    if not get_game(rules.game).has_stakes(rules):
        if text is not None:
            raise _Blamed("betting", InputError("betting needs a stakes game: r5k_doubling=true or r5k_limit_poker=true"))
        return None
    try:
        names, _ = parse_betting(text or DEFAULT_BETTING, players)
    except InputError as exc:
        raise _Blamed("betting", exc) from None
    return tuple(names)


def _plain(value: object) -> object:
    return value.text if isinstance(value, LineupSpec) else value


class _Blamed(Exception):
    def __init__(self, key: str, error: Exception) -> None:
        self.key = key
        self.error = error
