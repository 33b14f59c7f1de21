"""Orchestration of simulation runs: rules and lineup in, Polars frames and a summary out.

The heavy lifting is the game's batch kernels (found through ``rummysim.games``); this module chunks the index range (for progress and
bounded memory), turns kernel rows into frames, writes Parquet and summarises. It never loops over
cards in Python.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numba
import numpy as np
import polars as pl

from rummysim.analysis.summary import summarize_games, summarize_hands, summarize_stakes
from rummysim.errors import InputError
from rummysim.limits import check_games, check_seed
from rummysim.games import GameSpec, encode_rules, get_game
from rummysim.kernels.common import layout as C
from rummysim.kernels.common import results as R
from rummysim.output import OutputTarget, hands_path, output_target, run_metadata, write_parquet_atomic
from rummysim.rules import PRESETS, Rules
from rummysim.sides import SideMap, side_columns
from rummysim.strategies.betting import DEFAULT_BETTING, parse_betting
from rummysim.strategies.registry import is_python, parse_lineup
from rummysim.variations import Variation, variation_of

if TYPE_CHECKING:
    from rummysim.stepenv.python_players import PythonSpec

UNITS = ("games", "hands")
DEFAULT_CHUNK = 4096  # games per chunk when hand rows are kept (a hand-row buffer of ~50 MB)
LARGE_CHUNK = 16384  # games per chunk otherwise: fewer waits for the slowest thread (issue 8)

ProgressFn = Callable[[int, int], None]
_SCORE_COLUMN = re.compile(r"^(score|side_score)_(\d+)$")


@dataclass
class RunConfig:
    """Everything that determines a run's results (the seed and the game count included), and
    which seats win together (``sides``, see :mod:`rummysim.sides`)."""

    rules: Rules
    players: int
    strategies: list[str]
    lineup: np.ndarray = field(repr=False)
    params: np.ndarray = field(repr=False)
    vector: np.ndarray = field(repr=False)
    spec: GameSpec = field(repr=False)
    sides: SideMap
    betting: list[str] | None = None  # the seats' betting policies, when the rules play stakes
    variation: Variation | None = None  # the rules named by their preset and overrides (rummysim.variations)
    python: dict[int, PythonSpec] = field(default_factory=dict)  # the seats played by a user's Python class

    def games_runner(self) -> Callable:
        """The kernels' batch runner, or one that asks the Python seats (played one game at a time)."""
        if not self.python:
            return self.spec.games_runner()
        from rummysim.stepenv.python_players import python_games_runner

        return python_games_runner(self.python, self.spec.step_game())


@dataclass
class SimulationResult:
    """Rows and summary of a run. ``games`` is None for ``unit="hands"``."""

    games: pl.DataFrame | None
    hands: pl.DataFrame | None
    summary: dict


def resolve_rules(game: str = "500-rum", rule: Iterable[str] = (), rules: Rules | None = None) -> Rules:
    """A preset name plus ``flag=value`` overrides, or a ready ``Rules`` plus overrides."""
    base = rules if rules is not None else Rules.preset(game)
    return base.with_strings(list(rule)) if rule else base


def default_players(game: str, rule: Iterable[str], rules: Rules | None, fallback: int) -> int:
    """The player count a command uses when none is given: 4 for a partnership game (V500-PARTNER,
    V5K-9 need exactly 4), else ``fallback``."""
    resolved = resolve_rules(game, rule, rules)
    return 4 if resolved.r500_partnership or resolved.r5k_persian else fallback


def prepare(game: str, players: int, lineup: str, rule: Iterable[str] = (), rules: Rules | None = None,
            betting: str | None = None) -> RunConfig:
    """Validate everything about a run before any game is played (typed errors on bad input).

    The run's variation is named relative to ``game`` (the preset asked for, see
    :mod:`rummysim.variations`), or to the nearest preset when ``game`` is of another game.

    ``betting`` gives the seats' betting policies (``strategies.betting``) when the rules play a
    stakes layer (V5K-13, V5K-14); they default to accept-all and are refused otherwise.
    """
    if rules is None and game not in PRESETS:
        Rules.preset(game)  # raises the RulesError with the list of presets
    resolved = resolve_rules(game, rule, rules)
    vector = encode_rules(resolved, players)
    names, ids, params = parse_lineup(lineup, players, resolved.game)
    spec = get_game(resolved.game)
    policies = None
    if spec.has_stakes(resolved):
        policies, rows = parse_betting(betting or DEFAULT_BETTING, players)
        params = np.ascontiguousarray(np.hstack([params, rows]))  # the betting row after N_PARAMS
    elif betting is not None:
        raise InputError("--betting needs a stakes game: r5k_doubling=true or r5k_limit_poker=true")
    return RunConfig(resolved, players, names, ids, params, vector, spec, SideMap(spec.sides(resolved, players)),
                     policies, variation_of(resolved, game), _python_seats(names))


def _python_seats(names: list[str]) -> dict[int, PythonSpec]:
    """The lineup's ``py:`` seats, loaded and checked (the step API is imported only for them)."""
    if not any(is_python(name) for name in names):
        return {}
    from rummysim.stepenv.python_players import python_seats

    return python_seats(names)


def _chunks(total: int, size: int) -> Iterable[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(size, total - start)


def set_threads(threads: int | None) -> None:
    if threads is None:
        return
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise InputError(f"--threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {threads}")
    numba.set_num_threads(threads)


def pad_score_columns(df: pl.DataFrame, width: int) -> pl.DataFrame:
    """``df`` with its ``score_k`` and its ``side_score_k`` columns each padded with null Int32
    columns up to ``width``, right after the last of them (a sweep's files share one schema
    whatever their player count)."""
    last: dict[str, tuple[int, int]] = {}
    for i, name in enumerate(df.columns):
        m = _SCORE_COLUMN.match(name)
        if m:
            last[m.group(1)] = (i, int(m.group(2)))
    exprs: list[pl.Expr] = []
    for i, name in enumerate(df.columns):
        exprs.append(pl.col(name))
        for prefix, (j, k) in last.items():
            if i == j:
                exprs += [pl.lit(None, dtype=pl.Int32).alias(f"{prefix}_{s}") for s in range(k + 1, width)]
    return df.select(exprs)


def _seat_columns(block: np.ndarray, n: int, prefix: str) -> dict[str, np.ndarray]:
    return {f"{prefix}_{s}": block[:, s] for s in range(n)}


def games_frame(rows: np.ndarray, start: int, sides: SideMap,
                extra: dict[str, np.ndarray] | None = None) -> pl.DataFrame:
    """Kernel game rows (G_*) as a frame: one row per game, then the ``extra`` columns of the
    game's rules (``GameSpec.game_columns``), the side columns last."""
    n = sides.n_seats
    data = {
        "game_index": np.arange(start, start + rows.shape[0], dtype=np.int64),
        "first_dealer": rows[:, R.G_FIRST_DEALER].astype(np.int8),
        "winner": rows[:, R.G_WINNER].astype(np.int8),
        "hands": rows[:, R.G_HANDS].astype(np.int32),
        "turns": rows[:, R.G_TURNS].astype(np.int32),
        "capped": rows[:, R.G_CAPPED].astype(bool),
        "capped_hands": rows[:, R.G_CAPPED_HANDS].astype(np.int32),
        "tied_seats": rows[:, R.G_TIED].astype(np.int8),  # bitmask of the seats sharing the win
    }
    data.update(_seat_columns(rows[:, R.G_TOTAL : R.G_TOTAL + n].astype(np.int32), n, "score"))
    data.update(extra or {})
    return pl.DataFrame(data).with_columns(side_columns(sides))


def hands_frame(rows: np.ndarray, lead: dict[str, np.ndarray], n: int, spec: GameSpec,
                extra: dict[str, np.ndarray] | None = None) -> pl.DataFrame:
    """Kernel hand rows (H_*) as a frame, one row per hand, after the ``lead`` index columns; the
    reasons and per-hand counters are the game's (``spec``), the ``extra`` columns last."""
    reasons = spec.reason_names()[rows[:, R.H_REASON]]
    data = {
        **lead,
        "dealer": rows[:, R.H_DEALER].astype(np.int8),
        "reason": pl.Series(reasons.tolist(), dtype=pl.Categorical),
        "out_seat": rows[:, R.H_OUT_SEAT].astype(np.int8),
        "turns": rows[:, R.H_TURNS].astype(np.int32),
        **{name: rows[:, slot].astype(np.int16) for name, slot in spec.hand_counters},
    }
    data.update(_seat_columns(rows[:, R.H_SCORE : R.H_SCORE + n], n, "score"))
    data.update(extra or {})
    return pl.DataFrame(data)


def play_game_chunk(
    cfg: RunConfig, seed: int, start: int, count: int, want_hands: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Play games ``start .. start+count-1`` of run ``seed`` and return their rows.

    Returns ``(games, hands)``: the game rows (as in :func:`simulate`) and the hand rows, or None
    without ``want_hands``. Game ``i`` is the same game whatever chunk it is played in, so callers
    (``rummysim.sweeps``, ``rummysim.comparison``) may split an index range any way they like. ``cfg`` comes from
    :func:`prepare`.
    """
    games = np.zeros((count, R.G_SIZE), dtype=np.int64)
    cap = int(cfg.vector[C.R_HAND_CAP])
    hands = np.zeros((count, cap, R.H_SIZE) if want_hands else (0, 0, R.H_SIZE), dtype=np.int32)
    cfg.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, start, count, games, hands)
    gframe = games_frame(games, start, cfg.sides, cfg.spec.game_columns(cfg.rules, games, cfg.players))
    hframe = None
    if want_hands:
        n_hands = games[:, R.G_HANDS]
        keep = np.arange(cap)[None, :] < n_hands[:, None]
        game_idx = np.broadcast_to(np.arange(start, start + count)[:, None], keep.shape)[keep]
        hand_idx = np.broadcast_to(np.arange(cap)[None, :], keep.shape)[keep]
        lead = {"game_index": game_idx.astype(np.int64), "hand": hand_idx.astype(np.int32)}
        kept = hands[keep]
        hframe = hands_frame(kept, lead, cfg.players, cfg.spec, cfg.spec.hand_columns(cfg.rules, kept, cfg.players))
    return gframe, hframe


def simulate(
    game: str = "500-rum",
    players: int = 4,
    lineup: str = "greedy",
    games: int = 1000,
    seed: int = 0,
    rule: Sequence[str] = (),
    rules: Rules | None = None,
    unit: str = "games",
    hands: bool = False,
    out: str | Path | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: ProgressFn | None = None,
    betting: str | None = None,
    compile_note: Callable[[str], None] | None = None,
) -> SimulationResult:
    """Simulate ``games`` games (or independent hands with ``unit="hands"``) and summarise them.

    Example:
        >>> from sim import simulate
        >>> res = simulate("500-rum", players=2, lineup="greedy,random", games=200, seed=7)
        >>> res.games.columns[:3]
        ['game_index', 'first_dealer', 'winner']

    Results depend only on the arguments that shape the games (rules, players, lineup, seed, game
    count, and ``betting``: the seats' betting policies of a stakes game, V5K-13/14), never on ``threads`` or ``chunk_size`` (games per kernel call and progress update;
    default 16,384, or 4,096 with ``hands``). With ``out`` the game rows (or hand rows for
    ``unit="hands"``) are written to Parquet, and ``hands=True`` adds ``<out>.hands.parquet``.

    The kernels are compiled (or loaded from the cache) by a one-game warm-up before the timed
    run: ``games_per_s`` and ``hands_per_s`` exclude it, the summary's ``compile_seconds`` is its
    time, and ``compile_note`` is told in one line before a compile starts.
    """
    if unit not in UNITS:
        raise InputError(f"--unit must be one of {', '.join(UNITS)}, got {unit!r}")
    check_games(games)
    check_seed(seed)
    if chunk_size is None:
        chunk_size = DEFAULT_CHUNK if hands else LARGE_CHUNK
    if chunk_size < 1:
        raise InputError(f"chunk size must be at least 1, got {chunk_size}")
    cfg = prepare(game, players, lineup, rule, rules, betting)
    if cfg.python and unit == "hands":
        raise InputError("py: strategies play whole games: --unit hands needs built-in strategies on every seat")
    targets = _output_targets(out, hands and unit == "games")
    set_threads(threads)
    compile_seconds = warm_up(cfg, seed, unit, compile_note)

    t0 = time.perf_counter()
    game_parts: list[pl.DataFrame] = []
    hand_parts: list[pl.DataFrame] = []
    done = 0
    for start, count in _chunks(games, chunk_size):
        if unit == "games":
            gframe, hframe = play_game_chunk(cfg, seed, start, count, hands)
            game_parts.append(gframe)
            if hframe is not None:
                hand_parts.append(hframe)
        else:
            rows = np.zeros((count, R.H_SIZE), dtype=np.int32)
            cfg.spec.hands_runner()(cfg.vector, cfg.lineup, cfg.params, seed, start, count, rows)
            idx = np.arange(start, start + count)
            hand_parts.append(hands_frame(rows, {"hand_index": idx.astype(np.int64)}, cfg.players, cfg.spec,
                                          cfg.spec.hand_columns(cfg.rules, rows, cfg.players)))
        done += count
        if progress is not None:
            progress(done, games)
    elapsed = time.perf_counter() - t0

    games_df = pl.concat(game_parts) if game_parts else None
    hands_df = pl.concat(hand_parts) if hand_parts else None
    if unit == "games":
        summary = summarize_games(games_df, cfg.strategies, cfg.sides)
        if cfg.betting is not None:
            summary["stakes"] = summarize_stakes(games_df, cfg.strategies, cfg.betting)
    else:
        summary = summarize_hands(hands_df, cfg.strategies, cfg.sides)
    summary.update(_run_info(cfg, seed, unit, elapsed, threads))
    n_hands = summary["hands"]
    summary["games_per_s"] = games / elapsed if unit == "games" else None
    summary["hands_per_s"] = n_hands / elapsed
    summary["compile_seconds"] = compile_seconds  # not in elapsed_s nor the rates

    if targets:
        meta = run_metadata(
            game=cfg.rules.game, players=players, lineup=cfg.strategies, seed=seed, unit=unit,
            count=games, rules=cfg.rules.as_dict(), sides=cfg.sides.to_json(), **variation_meta(cfg),
            **({"betting": cfg.betting} if cfg.betting is not None else {}),
        )
        main_df = games_df if unit == "games" else hands_df
        if len(targets) == 2:
            write_parquet_atomic(hands_df, targets[1], meta)
        write_parquet_atomic(main_df, targets[0], meta)
    return SimulationResult(games_df, hands_df if (hands or unit == "hands") else None, summary)


def _output_targets(out: str | Path | None, hands_file: bool) -> list[OutputTarget]:
    """The checked output files (the rows, then the hand rows), before any game is played."""
    if out is None:
        return []
    main = output_target(out)
    if not hands_file:
        return [main]
    if main.through:
        raise InputError(f"--hands writes OUT.hands.parquet beside OUT: give a file path as --out, not {out}")
    return [main, output_target(hands_path(Path(out)))]


def warm_up(cfg: RunConfig, seed: int, unit: str = "games", note: Callable[[str], None] | None = None) -> float:
    """Compile (or load from the cache) the kernels before timing, by playing one game (or hand)
    and dropping it: zero games call no kernel, so they would leave the compile in the timing.
    Returns its seconds; ``note`` is told in one line, beforehand, when it must compile
    (``rummysim.warmup.first_compile``)."""
    from rummysim.warmup import first_compile

    t0 = time.perf_counter()
    with first_compile(cfg, unit, note):
        if unit == "games":
            play_game_chunk(cfg, seed, 0, 1, False)
        else:
            cfg.spec.hands_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, 1,
                                    np.zeros((1, R.H_SIZE), dtype=np.int32))
    return time.perf_counter() - t0


def variation_meta(cfg: RunConfig) -> dict[str, object]:
    """The metadata and summary keys naming what was played: ``preset``, ``overrides`` (the
    ``flag=value`` items relative to the preset) and ``variation`` (the label)."""
    variation = cfg.variation or variation_of(cfg.rules)
    return variation.as_json()


def _run_info(cfg: RunConfig, seed: int, unit: str, elapsed: float, threads: int | None) -> dict:
    return {
        "game": cfg.rules.game,
        **variation_meta(cfg),
        "players": cfg.players,
        "lineup": cfg.strategies,
        "rules_changed": {k: v for k, v in cfg.rules.changed().items()},
        "seed": seed,
        "unit": unit,
        "elapsed_s": elapsed,
        "threads": numba.get_num_threads(),
        **({"betting": cfg.betting} if cfg.betting is not None else {}),
    }
