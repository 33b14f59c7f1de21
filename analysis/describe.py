"""What a set of result files played, from their metadata: the report's opening description.

One :class:`RunLine` per configuration (variation, players, lineup, command), with its games and
seeds, and for a sweep folder the sweep's own name, description and run seed (its manifest).
Files written before the metadata named the preset get their variation from
:func:`analysis.load.inspect_file` (the nearest preset).

Example:
    >>> from rummysim.analysis.load import open_source
    >>> describe_runs(open_source("runs/balance")).heading  # doctest: +SKIP
    'Sweep variation-balance: Seat balance and game length of 500 Rum house rules, 4 greedy players'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import polars as pl

from rummysim.analysis.load import GAMES, HANDS, MANIFEST, VARIATION, Dataset, ResultFile, sweep_root


@dataclass
class RunLine:
    """One configuration of the data: what it played and how often."""

    variation: str
    rules_command: str
    players: str
    lineup: str
    games: int
    unit: str
    seeds: list[str] = field(default_factory=list)


@dataclass
class RunDescription:
    heading: str
    lines: list[RunLine]
    notes: list[str] = field(default_factory=list)


def describe_runs(ds: Dataset) -> RunDescription:
    """The configurations of ``ds``'s files (game rows, else hand rows) and a one-line heading."""
    files = ds.files_of(GAMES) or ds.files_of(HANDS)
    lines: dict[tuple, RunLine] = {}
    for f in files:
        key = (_variation(f), str(f.constants().get("players", f.seats)), _lineup(f), str(f.meta.get("unit", "games")))
        line = lines.setdefault(key, RunLine(key[0], _rules_command(key[0]), key[1], key[2], 0, key[3]))
        line.games += _rows(f)
        seed = _seed(f)
        if seed not in line.seeds:
            line.seeds.append(seed)
    heading, notes = _heading(ds, files)
    return RunDescription(heading, list(lines.values()), notes)


def _variation(f: ResultFile) -> str:
    value = f.meta.get(VARIATION)
    return str(value) if value is not None else str(f.meta.get("game", "unknown (no rules metadata)"))


def _rules_command(label: str) -> str:
    """``rummysim rules show ...`` for a label this version can rebuild, else ``""``."""
    from rummysim.errors import RummysimError
    from rummysim.variations import Variation

    words = label.split()
    if not words:
        return ""
    variation = Variation(words[0], tuple(w[1:] for w in words[1:]))
    try:
        variation.rules()
    except RummysimError:
        return ""
    return variation.rules_command


def _lineup(f: ResultFile) -> str:
    command = f.meta.get("command")
    if command in ("compare", "tournament"):
        names = _json_list(f.meta.get("strategies"))
        seatings = _json_list(f.meta.get("seatings"))
        text = f"{command}: {' vs '.join(names) if command == 'compare' else ', '.join(names)}"
        return text + (f" (seatings {' | '.join(seatings)})" if seatings else "")
    lineup = f.meta.get("lineup")
    if not isinstance(lineup, str):
        return "see the lineup column" if "lineup" in f.columns else "-"
    names = lineup.split(",")
    return f"{names[0]} at every seat" if len(set(names)) == 1 else lineup


def _json_list(raw: object) -> list[str]:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _rows(f: ResultFile) -> int:
    return int(pl.scan_parquet(f.path, hive_partitioning=False).select(pl.len()).collect().item())


def _seed(f: ResultFile) -> str:
    if f.chunk is not None:
        return "derived per cell from the sweep seed"
    return str(f.meta.get("seed", "unknown"))


def _heading(ds: Dataset, files: list[ResultFile]) -> tuple[str, list[str]]:
    """The sweep's name and description (from its manifest) or the number of runs."""
    roots = {sweep_root(f.path) for f in files}
    if len(roots) == 1 and None not in roots:
        root = roots.pop()
        try:
            manifest = json.loads((root / MANIFEST).read_text())  # type: ignore[operator]
        except (OSError, ValueError):
            manifest = {}
        name = manifest.get("name") or str(root)
        text = f"Sweep {name}" + (f": {manifest['description']}" if manifest.get("description") else "")
        notes = [f"sweep seed {manifest.get('seed')}, {manifest.get('games_per_cell', 0):,} games per cell"
                 + (f", from {manifest['source']}" if manifest.get("source") else "")] if manifest else []
        return text, notes
    runs = len(files)
    return f"{runs} result file{'s' * (runs != 1)} in {ds.label}", []

