"""Fair strategy comparisons on duplicate deals (common random numbers): ``compare`` and ``tournament``.

**Duplicate deals.** Every game draws its randomness from counter-based streams: the first dealer
from (seed, game index), the deal of hand h from (seed, game index, h) and each seat's decisions
from (seed, game index, seat). A *deal* is one game index g; it is played once under every
*seating* (a rotation of the lineup pattern) with the same seed, so each strategy meets the same
first dealer and the same cards in the same seats as the other (later hands can differ because the
games take different courses, but hand h's deal is the same whenever it is played). Seat and card
luck then cancel within a deal, and the comparison needs far fewer games than independent games.

**Seatings.** A lineup *pattern* says which seats side A and side B take, e.g. ``A,B`` or
``A,B,B,B``. Its seatings are its distinct cyclic rotations (rotation k moves every player k seats
to the left: ``A,B,B,B`` -> ``B,A,B,B`` -> ...), numbered 0, 1, ... in that order. Without a
pattern the seats are shared out evenly: ``A,B`` for 2 players, ``A,B,A,B,...`` for an even
number, and for an odd number both ``A,B,A,...,A`` and its mirror ``B,A,B,...,B`` with all their
rotations, so that ``compare(a, b)`` is exactly ``-compare(b, a)``.

**Game sides.** Here A and B are the strategies' sides; the game's own sides (the seats that win
together, :mod:`sim.sides`; one seat each in every game today) must each be seated with one
strategy, so a pattern that splits a game side between A and B is refused. A game side belongs to
A or B with its seats.

**Statistics.** The unit of analysis is the deal (deals are independent; the seatings of one deal
are not). In each game A's score is the mean final score (``side_score_k``) of its game sides (in
a stakes game, V5K-13/14, their net stake units or chips ``stake_k``: :func:`score_prefix`), and
likewise B's; the deal's difference
is the mean over its seatings of (A's score - B's score), and the per-game difference is the mean
over deals with a normal 95% interval from the spread across deals. *Per hand* is the ratio of
totals, sum of differences / sum of hands played (the points A gains on B per hand actually
played), with a delta-method interval across deals: per deal d_g (mean difference) and h_g (mean
hands per game), ratio r = mean(d)/mean(h), standard error sd((d_g - r h_g) / mean(h)) / sqrt(D).
p-values are two-sided from the paired normal statistic z = estimate / standard error. A side wins
a game if one of its game sides wins (capped or drawn games are lost by both); its win rate over all
games has a Wilson interval (which treats the seatings of a deal as independent games). ``until_ci`` and the verdict use the per-hand interval.

**Independent baseline.** ``baseline=True`` also plays every seating on *different* deals (game
indexes offset by ``(k + 1) * 2**40`` for seating k, same seed), the same number of games, and
reports ``ci_width_ratio`` = width of the duplicate interval / width of the independent one (per
hand; per game in ``baseline["per_game_ratio"]``). ``1 / ratio**2`` is how many times more games
independent deals would need for the same precision.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numba
import numpy as np
import polars as pl

from rummysim.analysis.duels import PAIRING_SCHEMA  # the report reads the same pairing rows back
from rummysim.analysis.stats import diff_stats, format_p, mean_ci, wilson
from rummysim.errors import InputError
from rummysim.limits import check_seed
from rummysim.output import OutputTarget, output_target, run_metadata, write_parquet_atomic
from rummysim.rules import Rules
from rummysim.simulation import (DEFAULT_CHUNK, RunConfig, default_players, play_game_chunk, prepare, set_threads,
                                 variation_meta)
from rummysim.strategies.registry import canonical_spec
from rummysim.warmup import warm_up_runs

DEFAULT_GAMES = 1000
DEFAULT_BATCH = 1000
DEFAULT_MAX_GAMES = 100_000
INDEPENDENT_OFFSET = 1 << 40  # game-index offset per seating for the independent baseline
ALPHA = 0.05
BT_ITERATIONS = 1000
BT_PSEUDO_WINS = 0.5
BT_BOOTSTRAP = 200  # deal resamples behind the strengths' intervals
BT_BOOTSTRAP_STREAM = 0x4254  # the resampling stream, apart from every game's streams

# progress(deals done, deals planned (the cap with until_ci), current half-width per hand or None)
ProgressFn = Callable[[int, int, "float | None"], None]


@dataclass
class ComparisonResult:
    """Rows and summary of a comparison.

    ``games``: one row per game played, in (deal, rotation) order: ``deal``, ``rotation``,
    ``lineup``, then the columns of ``simulate``'s game rows. ``deals``: one row per deal (``deal``, ``games``, ``hands`` = mean
    hands per game, ``a_score``, ``b_score``, ``diff``, ``a_wins``, ``b_wins``). ``summary``: the
    statistics (see :func:`compare`).
    """

    games: pl.DataFrame
    deals: pl.DataFrame
    summary: dict


@dataclass
class TournamentResult:
    """Rows and summary of a tournament.

    ``games``: one row per game (``pairing``, ``deal``, ``rotation``, ``lineup``, game columns).
    ``matrix``: one row per ordered pair (strategy, opponent) with the score difference of
    strategy - opponent per game and per hand (95% intervals, p-value) and strategy's win rate.
    ``ranking``: one row per strategy, best first. ``summary``: run information.
    """

    games: pl.DataFrame
    matrix: pl.DataFrame
    ranking: pl.DataFrame
    summary: dict


# ---------------------------------------------------------------------------------------------
# seatings


@dataclass
class _Seating:
    rotation: int
    labels: tuple[str, ...]
    lineup: str
    cfg: RunConfig = field(repr=False)
    a_mask: np.ndarray = field(repr=False)  # per seat
    b_mask: np.ndarray = field(repr=False)
    a_sides: np.ndarray = field(repr=False)  # per game side (cfg.sides)
    b_sides: np.ndarray = field(repr=False)


def balanced_patterns(players: int) -> list[tuple[str, ...]]:
    """The default patterns: seats shared out evenly between A and B (both mirrors for odd N).

    Example:
        >>> balanced_patterns(3)
        [('A', 'B', 'A'), ('B', 'A', 'B')]
    """
    pattern = tuple("AB"[s % 2] for s in range(players))
    if players % 2 == 0:
        return [pattern]
    return [pattern, tuple("B" if x == "A" else "A" for x in pattern)]


def _named_side(token: str) -> str:
    """A lineup entry naming a strategy, canonical; the text itself if it names none."""
    try:
        return canonical_spec(token)
    except InputError:
        return token


def parse_pattern(text: str, a: str, b: str, players: int) -> tuple[str, ...]:
    """``--lineup`` for a comparison: one entry per seat, each ``A``/``B`` or the name of a or b.

    Example:
        >>> parse_pattern("greedy,random,random,random", "greedy", "random", 4)
        ('A', 'B', 'B', 'B')
    """
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    labels = []
    for t in tokens:
        named = t if t in ("A", "a", "B", "b") else _named_side(t)
        if a == b and named == a:
            raise InputError(f"--lineup entry {t!r} names both sides of an A/A comparison: seat them as A and B")
        if named in ("A", "a") or named == a:
            labels.append("A")
        elif named in ("B", "b") or named == b:
            labels.append("B")
        else:
            raise InputError(f"--lineup entry {t!r} is neither A nor B ({a} or {b})")
    if len(labels) != players:
        raise InputError(f"--lineup names {len(labels)} seats for {players} players")
    if "A" not in labels or "B" not in labels:
        raise InputError(f"--lineup {text!r} must seat both {a} (A) and {b} (B)")
    return tuple(labels)


def rotations(patterns: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The distinct cyclic rotations of the patterns, in order (rotation k: seat s plays p[s - k]).

    Example:
        >>> rotations([("A", "B", "A", "B")])
        [('A', 'B', 'A', 'B'), ('B', 'A', 'B', 'A')]
    """
    out: list[tuple[str, ...]] = []
    for p in patterns:
        n = len(p)
        for k in range(n):
            rot = tuple(p[(s - k) % n] for s in range(n))
            if rot not in out:
                out.append(rot)
    return out


def _check_strategy(name: str) -> str:
    """The strategy (with any parameters set, ``NAME:key=value``) in its canonical form."""
    return canonical_spec(name)


def _side_mask(cfg: RunConfig, labels: tuple[str, ...]) -> np.ndarray:
    """Which game sides strategy A holds; a pattern that splits a game side is an input error."""
    sides = cfg.sides
    held = []
    for k in range(sides.n_sides):
        mine = {labels[s] for s in sides.members(k)}
        if len(mine) > 1:
            raise InputError(f"--lineup {','.join(labels)} splits side {sides.label(k)} (seats that win together) "
                             "between A and B")
        held.append(mine == {"A"})
    return np.array(held)


def _seatings(a: str, b: str, patterns, game: str, players: int, rule, rules: Rules | None,
              betting: str | None = None) -> list[_Seating]:
    out = []
    for k, labels in enumerate(rotations(patterns)):
        names = [a if x == "A" else b for x in labels]
        lineup = ",".join(names)
        cfg = prepare(game, players, lineup, rule, rules, betting)
        mask = np.array([x == "A" for x in labels])
        sides = _side_mask(cfg, labels)
        out.append(_Seating(k, labels, lineup, cfg, mask, ~mask, sides, ~sides))
    return out


# ---------------------------------------------------------------------------------------------
# playing deals


@dataclass
class _Tally:
    """Per-deal arrays accumulated over batches (one entry per deal, in deal order)."""

    diff: list[np.ndarray] = field(default_factory=list)
    hands: list[np.ndarray] = field(default_factory=list)
    a_score: list[np.ndarray] = field(default_factory=list)
    b_score: list[np.ndarray] = field(default_factory=list)
    a_wins: list[np.ndarray] = field(default_factory=list)
    b_wins: list[np.ndarray] = field(default_factory=list)
    frames: list[pl.DataFrame] = field(default_factory=list)
    deals: int = 0

    def rows(self) -> pl.DataFrame:
        """The game rows in (deal, rotation) order, whatever the batches."""
        return pl.concat(self.frames).sort("deal", "rotation")

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate(getattr(self, k)) if getattr(self, k) else np.zeros(0)
                for k in ("diff", "hands", "a_score", "b_score", "a_wins", "b_wins")}


def _play_block(seatings: Sequence[_Seating], seed: int, start: int, count: int, tally: _Tally,
                independent: bool = False, keep_rows: bool = True) -> None:
    """Deals start..start+count-1 under every seating, added to ``tally``."""
    diff, hands, a_sc, b_sc, a_w, b_w = [], [], [], [], [], []
    for st in seatings:
        offset = (st.rotation + 1) * INDEPENDENT_OFFSET if independent else 0
        g, _ = play_game_chunk(st.cfg, seed, start + offset, count)
        n = st.a_sides.size
        scores = g.select([f"{score_prefix(st.cfg)}_{k}" for k in range(n)]).to_numpy().astype(np.float64)
        scores = scores.reshape(count, n)
        a = scores[:, st.a_sides].mean(axis=1)
        b = scores[:, st.b_sides].mean(axis=1)
        winner = g["winner_side"].to_numpy().astype(np.int64)
        decided = winner >= 0
        side = np.where(decided, winner, 0)
        a_w.append(decided & st.a_sides[side])
        b_w.append(decided & st.b_sides[side])
        diff.append(a - b)
        a_sc.append(a)
        b_sc.append(b)
        hands.append(g["hands"].to_numpy().astype(np.float64))
        if keep_rows:
            lead = [pl.Series("deal", np.arange(start, start + count, dtype=np.int64)),
                    pl.lit(st.rotation, dtype=pl.Int16).alias("rotation"),
                    pl.lit(st.lineup, dtype=pl.String).alias("lineup")]
            tally.frames.append(g.select(*lead, pl.all()))
    tally.diff.append(np.mean(diff, axis=0))
    tally.hands.append(np.mean(hands, axis=0))
    tally.a_score.append(np.mean(a_sc, axis=0))
    tally.b_score.append(np.mean(b_sc, axis=0))
    tally.a_wins.append(np.sum(a_w, axis=0))
    tally.b_wins.append(np.sum(b_w, axis=0))
    tally.deals += count


def score_prefix(cfg: RunConfig) -> str:
    """What a comparison scores a game side by: its final points, or in a stakes game (V5K-13/14,
    whose 2 seats are the sides) its net stake units or chips."""
    return "stake" if cfg.betting is not None else "side_score"


def score_unit(cfg: RunConfig) -> str:
    """The unit of a comparison's differences, as the verdict names it."""
    if cfg.betting is None:
        return "points"
    return "stake units" if cfg.rules.r5k_doubling else "chips"


def _play_range(seatings, seed: int, start: int, stop: int, tally: _Tally, independent: bool = False,
                keep_rows: bool = True, on_chunk: Callable[[int], None] | None = None) -> None:
    for lo in range(start, stop, DEFAULT_CHUNK):
        hi = min(stop, lo + DEFAULT_CHUNK)
        _play_block(seatings, seed, lo, hi - lo, tally, independent, keep_rows)
        if on_chunk is not None:
            on_chunk(hi)


# ---------------------------------------------------------------------------------------------
# statistics


def p_text(p: float) -> str:
    """``p = 0.047`` or ``p < 1e-300``."""
    shown = format_p(p)
    return f"p {shown}" if shown.startswith("<") else f"p = {shown}"


def _digits(half: float) -> int:
    if not math.isfinite(half) or half <= 0:
        return 2
    return max(1, min(4, 1 - math.floor(math.log10(half))))


def verdict(a: str, b: str, per_hand: dict, alpha: float = ALPHA, unit: str = "points") -> str:
    """The one-line conclusion: "A beats B by X ± Y points per hand, p = ..." or no difference.

    Example:
        >>> verdict("greedy", "random", {"diff": 20.0, "half_width": 1.5, "p_value": 1e-40})
        'greedy beats random by 20.0 ± 1.5 points per hand, p = 1e-40'
    """
    x, half, p = per_hand["diff"], per_hand["half_width"], per_hand["p_value"]
    d = _digits(half)
    if p < alpha and x != 0:
        win, lose = (a, b) if x > 0 else (b, a)
        return f"{win} beats {lose} by {abs(x):.{d}f} ± {half:.{d}f} {unit} per hand, {p_text(p)}"
    return (f"no significant difference between {a} and {b}: {a} - {b} = {x:+.{d}f} ± {half:.{d}f} "
            f"{unit} per hand, {p_text(p)}")


def _side(label: str, name: str, seatings: Sequence[_Seating], wins: int, games: int, score: np.ndarray) -> dict:
    """A or B: its mean number of seats, its fair share of the wins (its share of the game sides)."""
    seats = float(np.mean([(st.a_mask if label == "A" else st.b_mask).sum() for st in seatings]))
    game_sides = float(np.mean([(st.a_sides if label == "A" else st.b_sides).sum() for st in seatings]))
    lo, hi = wilson(wins, games)
    slo, shi = mean_ci(float(score.mean()), float(score.std(ddof=1)), score.size)
    return {"side": label, "strategy": name, "seats": seats, "fair": game_sides / seatings[0].a_sides.size, "wins": wins,
            "games": games, "win_rate": wins / games, "win_rate_ci": [lo, hi],
            "mean_score": float(score.mean()), "mean_score_ci": [slo, shi]}


def _summarize(a: str, b: str, seatings: Sequence[_Seating], arr: dict[str, np.ndarray]) -> dict:
    stats = diff_stats(arr["diff"], arr["hands"])
    deals = arr["diff"].size
    games = deals * len(seatings)
    a_wins, b_wins = int(arr["a_wins"].sum()), int(arr["b_wins"].sum())
    stats.update({
        "games": games, "hands": int(round(float(arr["hands"].sum()) * len(seatings))),
        "no_winner": games - a_wins - b_wins,
        "sides": [_side("A", a, seatings, a_wins, games, arr["a_score"]),
                  _side("B", b, seatings, b_wins, games, arr["b_score"])],
    })
    unit = score_unit(seatings[0].cfg)
    stats["unit"] = unit
    stats["verdict"] = verdict(a, b, stats["per_hand"], unit=unit)
    return stats


def _deals_frame(arr: dict[str, np.ndarray], n_seatings: int) -> pl.DataFrame:
    n = arr["diff"].size
    return pl.DataFrame({
        "deal": np.arange(n, dtype=np.int64), "games": np.full(n, n_seatings, dtype=np.int32),
        "hands": arr["hands"], "a_score": arr["a_score"], "b_score": arr["b_score"], "diff": arr["diff"],
        "a_wins": arr["a_wins"].astype(np.int32), "b_wins": arr["b_wins"].astype(np.int32),
    })


def _check_counts(games: int, seed: int) -> None:
    if games < 2:
        raise InputError(f"--games must be at least 2 (deals; the interval needs two), got {games}")
    check_seed(seed)


def _write(df: pl.DataFrame, target: OutputTarget, cfg: RunConfig, seed: int, **fields: object) -> None:
    meta = run_metadata(game=cfg.rules.game, players=cfg.players, seed=seed, unit="games", count=df.height,
                        rules=cfg.rules.as_dict(), sides=cfg.sides.to_json(), **variation_meta(cfg), **fields)
    write_parquet_atomic(df, target, meta)


def _run_info(cfg: RunConfig, seed: int, elapsed: float) -> dict:
    return {"game": cfg.rules.game, **variation_meta(cfg), "players": cfg.players,
            "rules_changed": dict(cfg.rules.changed()),
            "seed": seed, "elapsed_s": elapsed, "threads": numba.get_num_threads()}


# ---------------------------------------------------------------------------------------------
# compare


def compare(
    a: str,
    b: str,
    game: str = "500-rum",
    players: int | None = None,
    lineup: str | None = None,
    rule: Sequence[str] = (),
    rules: Rules | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    until_ci: float | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    batch: int = DEFAULT_BATCH,
    baseline: bool = False,
    out: str | Path | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    betting: str | None = None,
    compile_note: Callable[[str], None] | None = None,
) -> ComparisonResult:
    """Strategy ``a`` against strategy ``b`` on duplicate deals.

    ``games`` deals (game indexes 0..games-1) are each played once per seating (see the module
    docstring), so ``games * len(seatings)`` games in all. ``lineup`` is a pattern such as
    ``"A,B,B,B"`` (or the same with the strategy names); by default the seats are shared evenly.
    With ``until_ci`` the deals continue in batches of ``batch`` (game indexes continuing) until
    the half-width of the 95% interval of the per-hand difference is below ``until_ci`` or
    ``max_games`` deals have been played; ``games`` is the first amount. The result depends only on
    the arguments that shape the games (never on threads or batching).

    ``summary`` holds ``per_game`` and ``per_hand`` (``diff``, ``ci``, ``half_width``, ``se``,
    ``z``, ``p_value``), ``sides`` (win rate with Wilson interval, fair share, mean final score),
    ``verdict``, ``deals``, ``games``, ``seatings``, ``reached_ci`` and, with ``baseline=True``,
    ``ci_width_ratio`` and ``baseline`` (the independent-deals statistics).

    In a stakes game (``r5k_doubling``, ``r5k_limit_poker``) the sides are scored by their net stake
    units or chips (``stake_k``) instead of their points, ``summary["unit"]`` says which, and
    ``betting`` is the one betting policy every seat uses (``strategies.betting``), so that A and
    B differ only in their play.

    Example:
        >>> from rummysim import compare
        >>> res = compare("greedy", "random", players=2, games=500, seed=1)
        >>> res.summary["verdict"]                                   # doctest: +SKIP
        'greedy beats random by 34.5 ± 2.2 points per hand, p < 1e-300'
    """
    # An A/A comparison (a == b) is allowed: on the same deals a deterministic strategy plays the
    # same games on both sides, so it must report exactly 0, which checks the user's setup.
    a, b = _check_strategy(a), _check_strategy(b)
    _check_counts(games, seed)
    if until_ci is not None:
        if not (until_ci > 0 and math.isfinite(until_ci)):
            raise InputError(f"--until-ci must be a positive number of points per hand, got {until_ci}")
        if batch < 1:
            raise InputError(f"--batch must be at least 1, got {batch}")
        if max_games < games:
            raise InputError(f"--max-games ({max_games}) must be at least --games ({games})")
    if players is None:
        players = default_players(game, rule, rules, fallback=2)
    if betting is not None and "," in betting:
        raise InputError("compare plays one betting policy for every seat (so that A and B differ only in "
                         f"their play), got --betting {betting}")
    prepare(game, players, a, rule, rules, betting)  # game, players, rules and betting errors first
    out_file = output_target(out) if out is not None else None
    patterns = [parse_pattern(lineup, a, b, players)] if lineup else balanced_patterns(players)
    seatings = _seatings(a, b, patterns, game, players, rule, rules, betting)
    set_threads(threads)
    warm_up_runs([st.cfg for st in seatings], seed, compile_note)

    t0 = time.perf_counter()
    tally = _Tally()
    target = games
    cap = max_games if until_ci is not None else games
    half: float | None = None
    batches = 0

    def report(done: int) -> None:
        if progress is not None:
            progress(done, cap, half)

    report(0)
    while True:
        _play_range(seatings, seed, tally.deals, target, tally, on_chunk=report)
        batches += 1
        if until_ci is None:
            break
        arr = tally.arrays()
        half = diff_stats(arr["diff"], arr["hands"])["per_hand"]["half_width"]
        report(tally.deals)
        if half < until_ci or tally.deals >= max_games:
            break
        target = min(tally.deals + batch, max_games)
    arr = tally.arrays()
    summary = {"a": a, "b": b, "lineup": [",".join(p) for p in patterns],
               "seatings": [st.lineup for st in seatings]}
    summary.update(_summarize(a, b, seatings, arr))
    summary.update({"until_ci": until_ci, "batches": batches,
                    "reached_ci": (summary["per_hand"]["half_width"] < until_ci) if until_ci is not None else None})
    summary["ci_width_ratio"] = None
    summary["baseline"] = None
    if baseline:
        ind = _Tally()
        _play_range(seatings, seed, 0, tally.deals, ind, independent=True, keep_rows=False)
        iarr = ind.arrays()
        istats = diff_stats(iarr["diff"], iarr["hands"])
        ratio = summary["per_hand"]["half_width"] / istats["per_hand"]["half_width"]
        summary["ci_width_ratio"] = ratio
        summary["baseline"] = {
            "deals": istats["deals"], "games": istats["deals"] * len(seatings),
            "per_game": istats["per_game"], "per_hand": istats["per_hand"],
            "per_game_ratio": summary["per_game"]["half_width"] / istats["per_game"]["half_width"],
            "per_hand_ratio": ratio,
            "games_factor": 1.0 / ratio ** 2 if ratio > 0 else None,
        }
    summary.update(_run_info(seatings[0].cfg, seed, time.perf_counter() - t0))
    games_df = tally.rows()
    if out_file is not None:
        _write(games_df, out_file, seatings[0].cfg, seed, command="compare", strategies=[a, b],
               seatings=summary["seatings"])
    return ComparisonResult(games_df, _deals_frame(arr, len(seatings)), summary)


# ---------------------------------------------------------------------------------------------
# tournament


def bradley_terry(wins: np.ndarray, pseudo: float = BT_PSEUDO_WINS, iterations: int = BT_ITERATIONS) -> np.ndarray:
    """Bradley-Terry strengths (summing to 1) from ``wins[i, j]`` = games i won against j.

    Fitted by the MM algorithm (Hunter 2004): p_i <- W_i / sum_j n_ij / (p_i + p_j), with
    ``pseudo`` wins added each way for every pair so that a strategy that never loses (or never
    wins) still gets a finite strength. P(i beats j) = p_i / (p_i + p_j).

    Example:
        >>> bradley_terry(np.array([[0, 30], [10, 0]]), pseudo=0).round(3).tolist()
        [0.75, 0.25]
    """
    k = wins.shape[0]
    w = wins.astype(np.float64) + pseudo * (1 - np.eye(k))
    n = w + w.T
    total = w.sum(axis=1)
    p = np.full(k, 1.0 / k)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :]))
        np.fill_diagonal(denom, 0.0)
        new = total / denom.sum(axis=1)
        new /= new.sum()
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    return p


def bradley_terry_interval(deal_wins: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]], k: int, deals: int,
                           seed: int, samples: int = BT_BOOTSTRAP) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile-bootstrap intervals of the Bradley-Terry strengths, resampling deals (every
    pairing played the same deals, so one resample of deal indexes serves them all).

    ``deal_wins[(i, j)]`` holds, per deal, the games i won against j and j against i. The
    resamples are drawn from ``seed``: the same tournament gives the same intervals.
    """
    rng = np.random.default_rng([seed, BT_BOOTSTRAP_STREAM])
    strengths = np.empty((samples, k))
    for b in range(samples):
        weight = np.bincount(rng.integers(0, deals, deals), minlength=deals)
        wins = np.zeros((k, k))
        for (i, j), (i_won, j_won) in deal_wins.items():
            wins[i, j], wins[j, i] = weight @ i_won, weight @ j_won
        strengths[b] = bradley_terry(wins)
    lo, hi = np.percentile(strengths, [2.5, 97.5], axis=0)
    return lo, hi


RANKING_SCHEMA = {
    "rank": pl.Int32, "strategy": pl.String,
    "diff_per_game": pl.Float64, "diff_per_game_lo": pl.Float64, "diff_per_game_hi": pl.Float64,
    "diff_per_hand": pl.Float64, "diff_per_hand_lo": pl.Float64, "diff_per_hand_hi": pl.Float64,
    "games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64, "bt_strength": pl.Float64,
    "bt_lo": pl.Float64, "bt_hi": pl.Float64,
}


def tournament(
    strategies: Sequence[str] | str,
    game: str = "500-rum",
    players: int | None = None,
    rule: Sequence[str] = (),
    rules: Rules | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    out: str | Path | None = None,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    betting: str | None = None,
    compile_note: Callable[[str], None] | None = None,
) -> TournamentResult:
    """Every pair of ``strategies`` on duplicate deals: a matrix of score differences and a ranking.

    Each pairing plays the same ``games`` deals (same seed, game indexes 0..games-1) with the seats
    shared evenly (the default seatings of :func:`compare`, so both orders of a pair mean the same
    thing and the matrix is antisymmetric; a pairing's row equals ``compare(s, t)`` with the same
    arguments). The ranking orders the strategies by their mean score difference per hand against
    the others (the mean over opponents, per deal; its interval from the spread across deals,
    valid because every pairing plays the same deals), and also gives each strategy's win rate over
    all its games and its Bradley-Terry strength fitted to the head-to-head wins (MM algorithm,
    half a pseudo-win each way per pair; strengths sum to 1). In a stakes game the differences are
    in stake units or chips (``summary["unit"]``), every seat playing the one ``betting`` policy.

    Example:
        >>> from rummysim import tournament
        >>> res = tournament(["greedy", "random"], players=2, games=300, seed=1)
        >>> res.ranking["strategy"].to_list()                        # doctest: +SKIP
        ['greedy', 'random']
    """
    names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else \
        [p.strip() for s in strategies for p in str(s).split(",")]
    names = [_check_strategy(s) for s in names if s]
    if len(names) < 2:
        raise InputError("a tournament needs at least 2 strategies")
    dup = sorted({s for s in names if names.count(s) > 1})
    if dup:
        raise InputError(f"strategy {dup[0]!r} is listed more than once")
    _check_counts(games, seed)
    if players is None:
        players = default_players(game, rule, rules, fallback=2)
    if betting is not None and "," in betting:
        raise InputError("tournament plays one betting policy for every seat (so that the strategies differ only "
                         f"in their play), got --betting {betting}")
    cfg0 = prepare(game, players, names[0], rule, rules, betting)
    out_file = output_target(out) if out is not None else None
    patterns = balanced_patterns(players)
    pairs = list(combinations(range(len(names)), 2))
    seatings = {(i, j): _seatings(names[i], names[j], patterns, game, players, rule, rules, betting) for i, j in pairs}
    set_threads(threads)
    warm_up_runs([st.cfg for pair in seatings.values() for st in pair], seed, compile_note)

    t0 = time.perf_counter()
    k = len(names)
    total = games * len(pairs)
    per_deal_diff = np.zeros((k, games))
    per_deal_hands = np.zeros((k, games))
    wins = np.zeros((k, k), dtype=np.int64)
    games_of = np.zeros(k, dtype=np.int64)
    frames, matrix = [], []
    deal_wins: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    if progress is not None:
        progress(0, total, None)
    for p, (i, j) in enumerate(pairs):
        tally = _Tally()
        base = p * games
        _play_range(seatings[(i, j)], seed, 0, games, tally,
                    on_chunk=(lambda done, base=base: progress(base + done, total, None)) if progress else None)
        arr = tally.arrays()
        s = _summarize(names[i], names[j], seatings[(i, j)], arr)
        pairing = f"{names[i]} vs {names[j]}"
        frames.append(tally.rows().select(pl.lit(pairing).alias("pairing"), pl.all()))
        per_deal_diff[i] += arr["diff"]
        per_deal_diff[j] -= arr["diff"]
        per_deal_hands[i] += arr["hands"]
        per_deal_hands[j] += arr["hands"]
        sa, sb = s["sides"]
        wins[i, j], wins[j, i] = sa["wins"], sb["wins"]
        deal_wins[(i, j)] = (arr["a_wins"], arr["b_wins"])
        games_of[i] += s["games"]
        games_of[j] += s["games"]
        for sign, (x, y), side in ((1, (i, j), sa), (-1, (j, i), sb)):
            g, h = s["per_game"], s["per_hand"]
            lo_g, hi_g = sorted(sign * v for v in g["ci"])
            lo_h, hi_h = sorted(sign * v for v in h["ci"])
            matrix.append({
                "strategy": names[x], "opponent": names[y], "deals": s["deals"], "games": s["games"],
                "diff_per_game": sign * g["diff"], "diff_per_game_lo": lo_g, "diff_per_game_hi": hi_g,
                "diff_per_hand": sign * h["diff"], "diff_per_hand_lo": lo_h, "diff_per_hand_hi": hi_h,
                "p_value": h["p_value"], "wins": side["wins"], "win_rate": side["win_rate"],
                "win_lo": side["win_rate_ci"][0], "win_hi": side["win_rate_ci"][1],
            })
    strength = bradley_terry(wins)
    bt_lo, bt_hi = bradley_terry_interval(deal_wins, k, games, seed)
    ranking = []
    for i, name in enumerate(names):
        st = diff_stats(per_deal_diff[i] / (k - 1), per_deal_hands[i] / (k - 1))
        g, h = st["per_game"], st["per_hand"]
        won = int(wins[i].sum())
        ranking.append({
            "strategy": name, "diff_per_game": g["diff"], "diff_per_game_lo": g["ci"][0], "diff_per_game_hi": g["ci"][1],
            "diff_per_hand": h["diff"], "diff_per_hand_lo": h["ci"][0], "diff_per_hand_hi": h["ci"][1],
            "games": int(games_of[i]), "wins": won, "win_rate": won / games_of[i], "bt_strength": float(strength[i]),
            "bt_lo": float(bt_lo[i]), "bt_hi": float(bt_hi[i]),
        })
    ranking.sort(key=lambda r: (-r["diff_per_hand"], r["strategy"]))
    for r, row in enumerate(ranking, 1):
        row["rank"] = r
    order = {n: i for i, n in enumerate(names)}
    matrix.sort(key=lambda r: (order[r["strategy"]], order[r["opponent"]]))
    games_df = pl.concat(frames)
    summary = {"strategies": names, "pairings": [f"{names[i]} vs {names[j]}" for i, j in pairs],
               "lineup": [",".join(p) for p in patterns], "deals": games, "games": games_df.height,
               "seatings_per_pairing": len(next(iter(seatings.values()))), "unit": score_unit(cfg0)}
    summary.update(_run_info(cfg0, seed, time.perf_counter() - t0))
    if out_file is not None:
        _write(games_df, out_file, cfg0, seed, command="tournament", strategies=names)
    return TournamentResult(
        games_df,
        pl.DataFrame(matrix, schema=PAIRING_SCHEMA),
        pl.DataFrame(ranking, schema=RANKING_SCHEMA).select(list(RANKING_SCHEMA)),
        summary,
    )
