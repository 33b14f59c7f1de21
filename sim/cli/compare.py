"""CLI commands for strategy comparisons: ``compare`` and ``tournament``.

Parsing and printing only: the games and statistics come from ``rummysim.comparison``. User
errors are raised as the typed errors of ``rummysim.errors`` and turned into ``error: ...`` and
exit code 2 by ``rummysim.cli.main``. ``compare_command`` and ``tournament_command`` are plain
functions tests may call directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from rummysim.cli.console import out_console, print_note
from rummysim.cli.options import (BettingOpt, DealsOpt, GameOpt, JsonOpt, OptionalPlayersOpt, ProgressOpt, RuleOpt, SeedOpt, ThreadsOpt,
                                  out_option)
from rummysim.cli.progress import progress_bar, show_progress
from rummysim.cli.simulate import played

GameRowsOutOpt = Annotated[Optional[Path], out_option("Parquet file for the game rows.")]


def _half_width_note(half: float | None) -> str:
    """The progress bar's note: the current 95% CI half-width of the per-hand difference."""
    return "" if half is None else f"  ± {half:.3g} points per hand"


def _n(x: float, digits: int = 2) -> str:
    return f"{x:+,.{digits}f}"


def _pm(est: dict, digits: int = 2) -> str:
    lo, hi = est["ci"]
    return f"{_n(est['diff'], digits)} ± {est['half_width']:.{digits}f}  [{lo:,.{digits}f}, {hi:,.{digits}f}]"


def _print_compare(console: Console, s: dict) -> None:
    from rummysim.comparison import p_text

    console.print(
        f"{s['a']} (A) vs {s['b']} (B): {played(s)}, {s['players']} players, {s['deals']:,} deals x "
        f"{len(s['seatings'])} seatings = {s['games']:,} games (seed {s['seed']})"
    )
    console.print(f"seatings: {' | '.join(s['seatings'])}")
    table = Table()
    score = "mean final score" if s.get("unit", "points") == "points" else f"mean {s['unit']}"
    for col in ("side", "strategy", "seats", "wins", "win rate %", "95% CI", "fair %", score, "95% CI"):
        table.add_column(col, justify="left" if col in ("side", "strategy") else "right")
    for side in s["sides"]:
        lo, hi = side["win_rate_ci"]
        slo, shi = side["mean_score_ci"]
        table.add_row(side["side"], side["strategy"], f"{side['seats']:g}", f"{side['wins']:,}",
                      f"{side['win_rate'] * 100:.2f}", f"[{lo * 100:.1f}, {hi * 100:.1f}]", f"{side['fair'] * 100:.1f}",
                      f"{side['mean_score']:.1f}", f"[{slo:.1f}, {shi:.1f}]")
    console.print(table)
    what = "score" if s.get("unit", "points") == "points" else s["unit"]
    console.print(f"{what} difference {s['a']} - {s['b']} (95% CI; the unit of analysis is the deal):")
    console.print(f"  per game  {_pm(s['per_game'], 1)}   {p_text(s['per_game']['p_value'])}")
    console.print(f"  per hand  {_pm(s['per_hand'])}   {p_text(s['per_hand']['p_value'])}   "
                  f"({s['mean_hands_per_game']:.2f} hands per game)")
    if s["baseline"] is not None:
        b = s["baseline"]
        console.print(
            f"independent deals ({b['games']:,} games): per hand ± {b['per_hand']['half_width']:.2f}, per game ± "
            f"{b['per_game']['half_width']:.1f}; CI width ratio duplicate/independent {s['ci_width_ratio']:.3f} "
            f"(per game {b['per_game_ratio']:.3f}): duplicate deals are worth {b['games_factor']:.2f}x as many games"
        )
    if s["until_ci"] is not None:
        state = "reached" if s["reached_ci"] else "not reached (stopped at --max-games)"
        console.print(f"until-ci {s['until_ci']:g}: {state} after {s['batches']} batch{'es' if s['batches'] != 1 else ''}, half-width "
                      f"{s['per_hand']['half_width']:.3g} points per hand")
    console.print(s["verdict"], style="bold", markup=False)


def _print_tournament(console: Console, res) -> None:
    s = res.summary
    console.print(
        f"tournament: {played(s)}, {s['players']} players, {len(s['strategies'])} strategies, {len(s['pairings'])} "
        f"pairings x {s['deals']:,} deals x {s['seatings_per_pairing']} seatings = {s['games']:,} games (seed {s['seed']})"
    )
    names = s["strategies"]
    cells = {(r["strategy"], r["opponent"]): r for r in res.matrix.to_dicts()}
    unit = s.get("unit", "points")
    what = "score difference" if unit == "points" else f"difference in {unit}"
    table = Table(title=f"{what} per hand, row - column (95% CI)")
    table.add_column("strategy")
    for n in names:
        table.add_column(n, justify="right")
    for row in names:
        out = []
        for col in names:
            c = cells.get((row, col))
            out.append("-" if c is None else
                       f"{c['diff_per_hand']:+.2f} [{c['diff_per_hand_lo']:.2f}, {c['diff_per_hand_hi']:.2f}]")
        table.add_row(row, *out)
    console.print(table)
    rank = Table(title=f"ranking: mean {what} per hand against the others")
    for col in ("rank", "strategy", "per hand", "95% CI", "per game", "95% CI", "win rate %", "Bradley-Terry",
                "95% CI"):
        rank.add_column(col, justify="left" if col == "strategy" else "right")
    for r in res.ranking.to_dicts():
        rank.add_row(str(r["rank"]), r["strategy"], f"{r['diff_per_hand']:+.2f}",
                     f"[{r['diff_per_hand_lo']:.2f}, {r['diff_per_hand_hi']:.2f}]", f"{r['diff_per_game']:+.1f}",
                     f"[{r['diff_per_game_lo']:.1f}, {r['diff_per_game_hi']:.1f}]", f"{r['win_rate'] * 100:.1f}",
                     f"{r['bt_strength']:.3f}", f"[{r['bt_lo']:.3f}, {r['bt_hi']:.3f}]")
    console.print(rank)


def compare_command(
    a: Annotated[str, typer.Argument(help="Strategy A (see `rummysim strategies list`).")],
    b: Annotated[str, typer.Argument(help="Strategy B.")],
    game: GameOpt = "500-rum",
    players: OptionalPlayersOpt = None,
    lineup: Annotated[Optional[str], typer.Option(
        "--lineup", "-l", help="Seat pattern such as A,B,B,B (or with the strategy names); default: seats "
                               "shared evenly. Every rotation of it is played on each deal.")] = None,
    rule: RuleOpt = None,
    games: DealsOpt = 1000,
    seed: SeedOpt = 0,
    until_ci: Annotated[Optional[float], typer.Option(
        "--until-ci", help="Add batches of deals until the 95% CI half-width of the per-hand score "
                           "difference is below this (points per hand).")] = None,
    max_games: Annotated[int, typer.Option("--max-games", help="Most deals to play with --until-ci.")] = 100_000,
    batch: Annotated[int, typer.Option("--batch", help="Deals per batch with --until-ci.")] = 1000,
    baseline: Annotated[bool, typer.Option(
        "--baseline", help="Also play independent deals (same number of games) and report the CI width "
                           "ratio duplicate/independent.")] = False,
    out: GameRowsOutOpt = None,
    as_json: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = None,
    betting: BettingOpt = None,
) -> None:
    """Strategy A against B on duplicate deals: score difference per game and per hand, win rates, verdict
    (in stake units or chips in a stakes game)."""
    from rummysim.comparison import compare

    with progress_bar("comparing", show_progress(progress), unit="deals", note=_half_width_note) as update:
        res = compare(a, b, game=game, players=players, lineup=lineup, rule=rule or (), games=games, seed=seed,
                      until_ci=until_ci, max_games=max_games, batch=batch, baseline=baseline, out=out,
                      threads=threads, progress=update, betting=betting, compile_note=print_note)
    if as_json:
        out_console.print_json(json.dumps(res.summary))
        return
    _print_compare(out_console, res.summary)
    if out is not None:
        out_console.print(f"wrote {out}")


def tournament_command(
    strategies: Annotated[list[str], typer.Argument(help="Two or more strategies.")],
    game: GameOpt = "500-rum",
    players: OptionalPlayersOpt = None,
    rule: RuleOpt = None,
    games: DealsOpt = 1000,
    seed: SeedOpt = 0,
    out: GameRowsOutOpt = None,
    as_json: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = None,
    betting: BettingOpt = None,
) -> None:
    """Every pair of strategies on the same duplicate deals: matrix of score differences and ranking."""
    from rummysim.comparison import tournament

    with progress_bar("tournament", show_progress(progress), unit="deals", note=_half_width_note) as update:
        res = tournament(strategies, game=game, players=players, rule=rule or (), games=games, seed=seed, out=out,
                         threads=threads, progress=update, betting=betting, compile_note=print_note)
    if as_json:
        out_console.print_json(json.dumps({**res.summary, "matrix": res.matrix.to_dicts(),
                                           "ranking": res.ranking.to_dicts()}))
        return
    _print_tournament(out_console, res)
    if out is not None:
        out_console.print(f"wrote {out}")


def register(app: typer.Typer) -> None:
    """Attach ``compare`` and ``tournament`` to the app."""
    app.command("compare")(compare_command)
    app.command("tournament")(tournament_command)
