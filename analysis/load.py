"""Finding, validating and lazily scanning result files.

A *source* is anything ``simulate``, ``compare``, ``tournament`` or ``sweep`` wrote: one Parquet
file, a folder (searched recursively for ``*.parquet``, with hive partitions ``key=value`` in the
folder names turned into columns), or a glob. Each file is classified by its columns:

- **game rows** (``kind="games"``): ``game_index, first_dealer, winner, hands, turns, capped,
  score_0..``, and since issue 14 ``winner_side, side_score_0..``; one row per game.
- **hand rows** (``kind="hands"``): ``dealer, reason, out_seat, turns, score_0..`` plus either
  ``game_index, hand`` (the ``X.hands.parquet`` beside a game file) or ``hand_index``
  (``--unit hands``, independent hands).

**Sides.** A file's side map (which seats win together, :mod:`sim.sides`) is its metadata key
``sides``; a file without it (written before issue 14, or not by rummysim) has one seat per side.
Scanned rows carry their side columns, derived from the map when the file lacks them
(``winner_side`` / ``out_side`` for hand rows, and ``side_score_k``), and hidden columns for the
statistics by side: ``_ns`` (sides), ``_fs`` (the side that plays first), ``_wpos`` (the position
of the winning side in the order of play, -1 for none), ``_side_s`` (seat s's side) and ``_sidemap``
(the map as JSON, null for one seat per side).

Only Parquet footers are read here (schema and key-value metadata); the rows stay on disk and are
scanned lazily, so datasets larger than memory work. The run metadata of each file (``game``,
``players``, ``lineup``, ``seed``, ``unit``, every rule flag, ...) and its hive partition values
can be attached to its rows as constant columns, so ``--by r500_target`` works on a single file.

Example:
    >>> ds = open_source("runs/first.parquet")           # doctest: +SKIP
    >>> ds.scan("games", ["lineup"]).collect()            # doctest: +SKIP
"""

from __future__ import annotations

import glob as globlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from rummysim.errors import InputError
from rummysim.sides import SideMap, side_of_seat_expr, side_score_columns

GAMES = "games"
HANDS = "hands"
KINDS = (GAMES, HANDS)

GAME_COLUMNS = ("game_index", "first_dealer", "winner", "hands", "turns", "capped")
HAND_COLUMNS = ("dealer", "reason", "out_seat", "turns")
META_PREFIX = "rummysim."
# Metadata keys that identify a run configuration (used for the automatic grouping); the others
# (seed, count, versions) differ between repeated runs of the same configuration, and the side
# map follows from the game and the player count (files written before it had none).
NON_CONFIG_META = frozenset({"seed", "count", "version", "numba", "sides"})
VARIATION = "variation"  # a file's preset and overrides as one label (rummysim.variations)
# Keys a variation label stands for: the preset (a sweep's game=PRESET folder), the game, the
# overrides, a sweep's cell and every rule flag. The default grouping names them by the label.
VARIATION_COVERS = frozenset({"game", "preset", "overrides", "cell", VARIATION})
N_COL = "_n"          # number of seats of the row's game (non-null score columns)
SIDES_COL = "_ns"     # number of sides of the row's game
FIRST_SIDE_COL = "_fs"  # the side that plays first: that of the seat left of the (first) dealer
WIN_POS_COL = "_wpos"   # position in the order of play of the side that won (went out), -1 for none
SIDE_MAP_COL = "_sidemap"  # the row's side map as JSON; null for one seat per side
WIN_SIDE = {"games": "winner_side", "hands": "out_side"}  # the side that won / went out
_WIN_SEAT = {"games": "winner", "hands": "out_seat"}
_DEALER = {"games": "first_dealer", "hands": "dealer"}
PATH_COL = "_path"    # source file of a row (only when rows must be linked across files)
SCORE_RE = re.compile(r"^score_(\d+)$")
HIVE_RE = re.compile(r"^([^=]+)=(.*)$")


def hands_sibling(path: Path) -> Path:
    """The ``--hands`` file written beside a game file: ``X.parquet`` -> ``X.hands.parquet``."""
    path = Path(path)
    return path.with_name(path.stem + ".hands" + (path.suffix or ".parquet"))


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _decode_meta(raw: dict[str, str]) -> tuple[dict[str, object], list[str]]:
    """rummysim.* key-value metadata as plain values, the rules dict flattened into flags; and the
    names of those flags."""
    meta: dict[str, object] = {}
    rules: dict[str, object] = {}
    for key, text in raw.items():
        if not key.startswith(META_PREFIX):
            continue
        name = key[len(META_PREFIX):]
        try:
            value = json.loads(text)
        except (TypeError, ValueError):
            value = text
        if name == "rules" and isinstance(value, dict):
            rules = value
        elif name in ("lineup", "betting") and isinstance(value, list):
            meta[name] = ",".join(str(v) for v in value)
        elif isinstance(value, (dict, list)):
            meta[name] = json.dumps(value)
        else:
            meta[name] = value
    flags = []
    for flag, value in rules.items():
        if flag not in meta:
            meta[flag] = json.dumps(value) if isinstance(value, (dict, list)) else value
            flags.append(flag)
    return meta, flags


COUNTERS = ("calls", "floats", "deep_takes")


def counters_in_rules(meta: dict[str, object]) -> frozenset[str]:
    """The per-hand counters the file's rules can produce (rummy calls, floats, deep takes).

    Hand rows carry the counters whatever the rules; a counter the rules rule out (no V500-RUMMY
    calls, no V500-FLOAT floating, no deep takes in Standard Rummy) is shown as n/a, not 0. A file
    without rules metadata keeps every counter it has.
    """
    from rummysim.games import GAMES

    game = meta.get("game")
    if game not in GAMES or "r500_call_rummy" not in meta and "r5k_rummy" not in meta:
        return frozenset(COUNTERS)
    return GAMES[game].active_counters(meta)


def _hive_value(text: str) -> object:
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    try:
        return float(text)
    except ValueError:
        return text


def _hive(path: Path, root: Path | None) -> dict[str, object]:
    if root is None:
        return {}
    try:
        parts = path.relative_to(root).parts[:-1]
    except ValueError:
        return {}
    out: dict[str, object] = {}
    for part in parts:
        m = HIVE_RE.match(part)
        if m:
            out[m.group(1)] = _hive_value(m.group(2))
    return out


@dataclass(frozen=True)
class ResultFile:
    """One validated result file: its kind, row columns, decoded metadata and hive values."""

    path: Path
    kind: str
    columns: tuple[str, ...]
    dtypes: tuple[str, ...]
    meta: dict[str, object] = field(default_factory=dict, hash=False, compare=False)
    hive: dict[str, object] = field(default_factory=dict, hash=False, compare=False)
    rule_flags: frozenset[str] = frozenset()
    sides: SideMap | None = field(default=None, hash=False, compare=False)  # None: one seat per side
    chunk: SweepChunk | None = field(default=None, hash=False, compare=False)  # a sweep's file: its games

    @property
    def seats(self) -> int:
        return sum(1 for c in self.columns if SCORE_RE.match(c))

    @property
    def linked(self) -> bool:
        """Hand rows that belong to games (``game_index``), as opposed to independent hands."""
        return self.kind == HANDS and "game_index" in self.columns

    def constants(self) -> dict[str, object]:
        """Values that are constant over the file's rows: metadata, then hive (hive wins)."""
        const = dict(self.meta)
        const.setdefault("players", self.seats)
        const.update(self.hive)
        return const


def _classify(path: Path, columns: Sequence[str]) -> str:
    cols = set(columns)
    has_scores = any(SCORE_RE.match(c) for c in cols)
    if has_scores and set(GAME_COLUMNS) <= cols and "hand" not in cols:
        return GAMES
    if has_scores and set(HAND_COLUMNS) <= cols and ("hand_index" in cols or {"game_index", "hand"} <= cols):
        return HANDS
    missing = [c for c in (*GAME_COLUMNS, "score_0") if c not in cols]
    raise InputError(
        f"{path} is not a rummysim result file (no game or hand rows; missing columns {', '.join(missing)})"
    )


def side_seat(s: int) -> str:
    """The hidden column holding seat ``s``'s side in scanned rows."""
    return f"_side_{s}"


def _file_sides(path: Path, meta: dict[str, object], seats: int) -> SideMap | None:
    """The file's side map from its metadata; None (one seat per side) when it has none."""
    if "sides" not in meta:
        return None
    try:
        sides = SideMap.from_json(meta["sides"])
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    players = meta.get("players", seats)
    if sides.n_seats != players:
        raise InputError(f"{path}: side map {sides.to_json()} has {sides.n_seats} seats, the file {players}")
    return None if sides.is_identity else sides


def _file_variation(meta: dict[str, object], flags: Sequence[str], hive: dict[str, object]) -> str | None:
    """The file's variation label (:mod:`rummysim.variations`): from its metadata, or for a file
    written before the metadata named it, from its rules and the preset (its ``preset`` key, a
    sweep's ``game=PRESET`` folder, else the nearest preset); None without rules metadata."""
    if isinstance(meta.get(VARIATION), str):
        return str(meta[VARIATION])
    if not flags or not isinstance(meta.get("game"), str):
        return None
    from rummysim.errors import RummysimError
    from rummysim.rules import Rules
    from rummysim.variations import variation_of

    try:
        rules = Rules.from_dict({"game": meta["game"], **{f: meta[f] for f in flags}})
    except (RummysimError, TypeError):  # rules of another version: no label, the flags still group
        return None
    preset = meta.get("preset", hive.get("game"))
    return variation_of(rules, preset if isinstance(preset, str) else None).label


def inspect_file(path: Path, root: Path | None = None) -> ResultFile:
    """Read one file's footer (schema and metadata) and classify it; typed error if unusable."""
    try:
        schema = pl.read_parquet_schema(path)
        raw = pl.read_parquet_metadata(path)
    except Exception as exc:  # polars raises ComputeError, OSError, ... for corrupt files
        raise InputError(damaged_message(path, _one_line(exc))) from None
    columns = tuple(schema)
    kind = _classify(path, columns)
    meta, flags = _decode_meta(raw)
    hive = _hive(path, root)
    variation = _file_variation(meta, flags, hive)
    if variation is not None:
        meta[VARIATION] = variation
    seats = sum(1 for c in columns if SCORE_RE.match(c))
    return ResultFile(
        path=path, kind=kind, columns=columns, dtypes=tuple(str(t) for t in schema.values()),
        meta=meta, hive=hive, rule_flags=frozenset(flags), sides=_file_sides(path, meta, seats),
        chunk=_sweep_chunk(raw),
    )


# ---------------------------------------------------------------------------------------------
# sweep chunks: damaged files and copies (issue 21, points 5 and 6)

MANIFEST = "_run.json"  # a sweep folder's manifest (rummysim.sweeps); analysis reads only its "source"


@dataclass(frozen=True)
class SweepChunk:
    """Which games of which sweep cell a file holds, from the ``sweep.*`` keys of its footer."""

    sweep: str
    cell: str
    index: int
    start: int
    stop: int


def _sweep_chunk(raw: dict[str, str]) -> SweepChunk | None:
    try:
        chunk = json.loads(raw["sweep.chunk"])
        return SweepChunk(raw["sweep.hash"], raw["sweep.cell"], int(chunk["index"]), int(chunk["start"]),
                          int(chunk["stop"]))
    except (KeyError, TypeError, ValueError):
        return None


def damaged_message(path: Path, reason: str) -> str:
    """"X is not a readable Parquet file: ...", and for a chunk of a sweep the command that plays
    it again (the sweep verifies every file when it resumes and replays the damaged ones)."""
    text = f"{path} is not a readable Parquet file: {reason}"
    root = sweep_root(path)
    if root is None:
        return text
    source = _sweep_source(root)
    if source is not None and Path(source).is_file():
        return f"{text}; it is a chunk of the sweep in {root}: rerun `rummysim sweep {source} --out {root}` to replay it"
    return (f"{text}; it is a chunk of the sweep in {root}: write the sweep file again (its text is \"toml\" in "
            f"{root / MANIFEST}) and run `rummysim sweep FILE --out {root}` to replay it")


def sweep_root(path: Path) -> Path | None:
    """The sweep folder holding ``path`` (the nearest parent with a manifest), or None."""
    for parent in Path(path).resolve().parents:
        if (parent / MANIFEST).is_file():
            return parent
    return None


def _sweep_source(root: Path) -> str | None:
    try:
        source = json.loads((root / MANIFEST).read_text()).get("source")
    except (OSError, ValueError, AttributeError):
        return None
    return source if isinstance(source, str) else None


def check_no_repeats(files: Sequence[ResultFile]) -> None:
    """Refuse, naming both files, two sweep files that hold some of the same games of a cell (a
    copy beside the real one would count them twice)."""
    groups: dict[tuple[str, str, str], list[ResultFile]] = {}
    for f in files:
        if f.chunk is not None:
            groups.setdefault((f.kind, f.chunk.sweep, f.chunk.cell), []).append(f)
    for group in groups.values():
        group.sort(key=lambda f: (f.chunk.start, f.chunk.stop, str(f.path)))  # type: ignore[union-attr]
        for a, b in zip(group, group[1:]):
            if b.chunk.start < a.chunk.stop:  # type: ignore[union-attr]
                first, last = b.chunk.start, min(a.chunk.stop, b.chunk.stop) - 1  # type: ignore[union-attr]
                own = [f for f in (a, b) if _is_own_file(f)]
                keep = f" (the sweep's own file is {own[0].path})" if len(own) == 1 else ""
                raise InputError(f"{a.path} and {b.path} both hold games {first:,}-{last:,} of sweep cell "
                                 f"{a.chunk.cell}: one is a copy; remove it{keep} and analyze again")


def _is_own_file(f: ResultFile) -> bool:
    """Whether a chunk file has the name and folder the sweep gave it (part-NNNN in cell=ID)."""
    assert f.chunk is not None
    m = re.fullmatch(r"part-(\d+)(\.hands)?\.parquet", f.path.name)
    return bool(m) and int(m.group(1)) == f.chunk.index and f.path.parent.name == f"cell={f.chunk.cell}"


def find_files(source: str | Path) -> tuple[list[Path], Path | None]:
    """Result files under ``source`` (file, folder or glob) and the root for hive partitions."""
    text = str(source)
    path = Path(text)
    if path.is_dir():
        files = sorted(
            p for p in path.rglob("*.parquet")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            raise InputError(f"no result files (*.parquet) found in {path}")
        return files, path
    if path.is_file():
        files = [path]
        root = None
    elif globlib.has_magic(text):
        files = sorted(Path(p) for p in globlib.glob(text, recursive=True) if Path(p).is_file())
        if not files:
            raise InputError(f"no result files match {text}")
        root = Path(text.split("*")[0].split("?")[0].split("[")[0] or ".")
        root = root if root.is_dir() else root.parent
    else:
        raise InputError(f"{text} does not exist")
    # X.hands.parquet beside X.parquet carries the per-hand rows of the same games
    seen = set(files)
    for f in list(files):
        sib = hands_sibling(f)
        if not f.name.endswith(".hands.parquet") and sib.is_file() and sib not in seen:
            files.append(sib)
            seen.add(sib)
    return files, root


class Dataset:
    """Result rows of one source, by kind, scanned lazily with constant columns on request.

    Build it with :func:`open_source` (files) or :meth:`Dataset.from_frame` (an in-memory or lazy
    frame of game or hand rows).
    """

    def __init__(self, label: str, files: Sequence[ResultFile] = (), frames: dict[str, pl.LazyFrame] | None = None,
                 sides: SideMap | None = None):
        self.label = label
        self.files = list(files)
        self._frames = dict(frames or {})
        self._frame_sides = None if sides is None or sides.is_identity else sides

    @classmethod
    def from_frame(
        cls, frame: pl.DataFrame | pl.LazyFrame, label: str = "<frame>", sides: SideMap | None = None
    ) -> "Dataset":
        """A dataset made of one frame of game rows or of hand rows (kind told by the columns).

        ``sides`` is the side map of the frame's games (default: one seat per side).
        """
        lf = frame.lazy() if isinstance(frame, pl.DataFrame) else frame
        names = lf.collect_schema().names()
        kind = _classify(Path(label), names)
        seats = sum(1 for c in names if SCORE_RE.match(c))
        if sides is not None and sides.n_seats != seats:
            raise InputError(f"side map {sides.to_json()} has {sides.n_seats} seats, the frame {seats}")
        return cls(label, frames={kind: lf}, sides=sides)

    # -- what is there ------------------------------------------------------------------------
    def kinds(self) -> list[str]:
        found = {f.kind for f in self.files} | set(self._frames)
        return [k for k in KINDS if k in found]

    def files_of(self, kind: str) -> list[ResultFile]:
        return [f for f in self.files if f.kind == kind]

    def row_columns(self, kind: str) -> list[str]:
        names: dict[str, None] = {}
        for f in self.files_of(kind):
            names.update(dict.fromkeys(f.columns))
        if kind in self._frames:
            names.update(dict.fromkeys(self._frames[kind].collect_schema().names()))
        return list(names)

    def constant_columns(self, kind: str | None = None) -> list[str]:
        names: dict[str, None] = {}
        for f in self.files:
            if kind is None or f.kind == kind:
                names.update(dict.fromkeys(f.constants()))
        if kind is None or kind in self._frames:
            names["players"] = None
        return list(names)

    def columns(self, kind: str | None = None) -> list[str]:
        """Every column a ``--by`` may name: row columns, hive partitions and metadata."""
        kinds = [kind] if kind else self.kinds()
        names: dict[str, None] = {}
        for k in kinds:
            names.update(dict.fromkeys(self.row_columns(k)))
        names.update(dict.fromkeys(self.constant_columns(kind)))
        return [n for n in names if not n.startswith("_")]

    def seats(self, kind: str | None = None) -> int:
        """Largest number of seats over the files (score columns)."""
        kinds = [kind] if kind else self.kinds()
        best = 0
        for k in kinds:
            best = max([best] + [sum(1 for c in self.row_columns(k) if SCORE_RE.match(c))])
        return best

    def sides(self, kind: str | None = None) -> int:
        """Largest number of sides over the files and frames (one per seat without a side map)."""
        kinds = [kind] if kind else self.kinds()
        best = 0
        for k in kinds:
            for f in self.files_of(k):
                best = max(best, f.sides.n_sides if f.sides else sum(1 for c in f.columns if SCORE_RE.match(c)))
            if k in self._frames:
                names = self._frames[k].collect_schema().names()
                n = self._frame_sides.n_sides if self._frame_sides else sum(1 for c in names if SCORE_RE.match(c))
                best = max(best, n)
        return best

    def varying_constants(self) -> list[str]:
        """Hive keys, then configuration metadata whose value differs between files."""
        hive: dict[str, None] = {}
        for f in self.files:
            hive.update(dict.fromkeys(f.hive))
        out = list(hive)
        consts = [f.constants() for f in self.files]
        values: dict[str, set] = {}
        for const in consts:
            for key, value in const.items():
                values.setdefault(key, set()).add((type(value).__name__, repr(value)))
        for key in values:
            if key in hive or key in NON_CONFIG_META:
                continue
            present = all(key in const for const in consts)
            if len(values[key]) > 1 or not present:
                out.append(key)
        return out

    def check_columns(self, names: Iterable[str]) -> None:
        """Typed error naming the first column that no file provides."""
        available = self.columns()
        flags = {k for f in self.files for k in f.rule_flags}
        for name in names:
            if name not in available:
                shown = ", ".join(c for c in available if c not in flags)
                if flags:
                    shown += ", or a rule flag (see `rummysim rules show`)"
                raise InputError(f"column {name!r} not found in {self.label} (available: {shown})")

    def unreadable(self) -> tuple[Path, str] | None:
        """The first file whose rows cannot be decoded, with the reason (for error messages)."""
        for f in self.files:
            try:
                pl.read_parquet(f.path, glob=False)  # every page: counts may come from the footer alone
            except Exception as exc:  # noqa: BLE001 - any decoding failure names the file
                return f.path, _one_line(exc)
        return None

    # -- rows ---------------------------------------------------------------------------------
    def scan(self, kind: str, want: Iterable[str] = (), with_path: bool = False) -> pl.LazyFrame | None:
        """Lazy rows of one kind with the columns ``want`` attached where they are constants.

        Every frame gets ``_n`` (seats in the row's game). Columns of ``want`` that a file has
        neither as rows nor as constants come out null for that file's rows. With ``with_path``
        the source file is in ``_path`` (to link hand rows to their game rows).
        """
        want = [w for w in dict.fromkeys(want)]
        parts: list[pl.LazyFrame] = []
        if kind in self._frames:
            lf = self._frames[kind]
            names = lf.collect_schema().names()
            n = sum(1 for c in names if SCORE_RE.match(c))
            extra = [pl.lit(n, dtype=pl.Int64).alias("players")] if "players" in want and "players" not in names else []
            if with_path:
                extra.append(pl.lit(self.label).alias(PATH_COL))
            parts.append(_normalise(lf.with_columns(extra) if extra else lf, names, kind, self._frame_sides))
        groups: dict[tuple, list[ResultFile]] = {}
        for f in self.files_of(kind):
            const = f.constants()
            attach = tuple(
                (w, json.dumps(const[w], sort_keys=True, default=str)) for w in want if w not in f.columns and w in const
            )
            na = tuple(c for c in COUNTERS if c in f.columns and c not in counters_in_rules(f.meta)) if kind == HANDS else ()
            groups.setdefault((f.columns, f.dtypes, attach, na, f.sides), []).append(f)
        for (columns, _dtypes, attach, na, sides), files in groups.items():
            lf = pl.scan_parquet(
                [str(f.path) for f in files], hive_partitioning=False, glob=False,
                include_file_paths=PATH_COL if with_path else None,
            )
            const = files[0].constants()
            lits = [_lit(name, const[name]) for name, _ in attach]
            lits += [pl.lit(None, dtype=pl.Int32).alias(c) for c in na]
            if lits:
                lf = lf.with_columns(lits)
            parts.append(_normalise(lf, columns, kind, sides))
        if not parts:
            return None
        lf = parts[0] if len(parts) == 1 else pl.concat(parts, how="diagonal_relaxed")
        have = set(lf.collect_schema().names())
        missing = [pl.lit(None).alias(w) for w in want if w not in have]
        return lf.with_columns(missing) if missing else lf


def _lit(name: str, value: object) -> pl.Expr:
    if value is None:
        return pl.lit(None).alias(name)
    if isinstance(value, bool):
        return pl.lit(value, dtype=pl.Boolean).alias(name)
    if isinstance(value, int):
        return pl.lit(value, dtype=pl.Int64).alias(name)
    if isinstance(value, float):
        return pl.lit(value, dtype=pl.Float64).alias(name)
    return pl.lit(str(value), dtype=pl.String).alias(name)


def _normalise(lf: pl.LazyFrame, columns: Sequence[str], kind: str, sides: SideMap | None) -> pl.LazyFrame:
    """Seat count per row, the hand end reason as a plain string (categoricals of different files
    need not agree), and the side columns (module docstring) under the rows' side map (None: one
    seat per side, however many seats each row has)."""
    scores = [c for c in columns if SCORE_RE.match(c)]
    exprs = [pl.sum_horizontal([pl.col(c).is_not_null() for c in scores]).cast(pl.Int32).alias(N_COL)]
    if "reason" in columns:
        exprs.append(pl.col("reason").cast(pl.String))
    lf = lf.with_columns(exprs)
    mapping = sides if sides is not None else SideMap.identity(max(1, len(scores)))
    derived = []
    if WIN_SIDE[kind] not in columns:
        derived.append(side_of_seat_expr(mapping, pl.col(_WIN_SEAT[kind])).cast(pl.Int8).alias(WIN_SIDE[kind]))
    derived += [e for e in side_score_columns(mapping) if e.meta.output_name() not in columns]
    lf = lf.with_columns(derived) if derived else lf
    order = _identity_order(kind) if sides is None else _mapped_order(kind, sides)
    seat_sides = [pl.lit(s if sides is None else sides.of_seat[s], dtype=pl.Int32).alias(side_seat(s))
                  for s in range(len(scores) if sides is None else sides.n_seats)]
    text = None if sides is None else json.dumps(sides.to_json())
    return lf.with_columns(*order, *seat_sides, pl.lit(text, dtype=pl.String).alias(SIDE_MAP_COL))


def _identity_order(kind: str) -> list[pl.Expr]:
    """Sides count, first side and the winner's position when every seat is its own side: seat
    arithmetic on each row's seat count (rows of one frame may have different counts)."""
    n = pl.col(N_COL)
    d = pl.col(_DEALER[kind]).cast(pl.Int32)
    w = pl.col(WIN_SIDE[kind]).cast(pl.Int32)
    return [
        n.alias(SIDES_COL),
        ((d + 1) % n).alias(FIRST_SIDE_COL),
        pl.when(w >= 0).then((w - d - 1 + 2 * n) % n).otherwise(-1).alias(WIN_POS_COL),
    ]


def _mapped_order(kind: str, sides: SideMap) -> list[pl.Expr]:
    """The same under a side map: the sides in the order they first play, dealer by dealer."""
    d = pl.col(_DEALER[kind]).cast(pl.Int32)
    w = pl.col(WIN_SIDE[kind]).cast(pl.Int32)
    orders = {dealer: sides.play_order(dealer) for dealer in range(sides.n_seats)}
    first = pl.coalesce([pl.when(d == dealer).then(pl.lit(order[0], dtype=pl.Int32)) for dealer, order in orders.items()])
    pos = pl.coalesce([pl.when((d == dealer) & (w == side)).then(pl.lit(p, dtype=pl.Int32))
                       for dealer, order in orders.items() for p, side in enumerate(order)]
                      + [pl.lit(-1, dtype=pl.Int32)])
    return [pl.lit(sides.n_sides, dtype=pl.Int32).alias(SIDES_COL), first.alias(FIRST_SIDE_COL), pos.alias(WIN_POS_COL)]


def open_source(source: str | Path | Dataset | pl.DataFrame | pl.LazyFrame) -> Dataset:
    """Find and validate the result files of ``source`` (a file, folder or glob), or wrap a frame.

    Raises :class:`sim.errors.InputError` with a one-line message naming the path or file when
    nothing is found, a file is not Parquet, or a file holds neither game nor hand rows.
    """
    if isinstance(source, Dataset):
        return source
    if isinstance(source, (pl.DataFrame, pl.LazyFrame)):
        return Dataset.from_frame(source)  # one seat per side; Dataset.from_frame takes a map
    files, root = find_files(source)
    found = [inspect_file(f, root) for f in files]
    check_no_repeats(found)
    return Dataset(str(source), found)
