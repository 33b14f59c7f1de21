"""The ``rummysim`` command line: a thin layer that parses options, calls the API and prints.

Every user error surfaces as one line ``error: ...`` on stderr with exit code 2 (the typed
errors of ``sim.errors`` and click's usage errors alike); ``validate`` exits 1 on violations.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from typer.exceptions import TyperException

from rummysim.errors import RummysimError

app = typer.Typer(
    name="rummysim",
    help="Monte Carlo simulator for the rummy family (500 Rum and its variations).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
rules_app = typer.Typer(help="List presets and show every rule flag.", no_args_is_help=True)
strategies_app = typer.Typer(help="List the strategies and their parameters.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.add_typer(strategies_app, name="strategies")

# Piped output (files, CI logs) gets a wide page so tables keep whole flag names on one line.
out_console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
err_console = Console(stderr=True, highlight=False)

GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game or preset name (see `rummysim rules list`).")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Number of players.")]
LineupOpt = Annotated[str, typer.Option("--lineup", "-l", help="Strategy per seat, comma-separated (one name = every seat).")]
RuleOpt = Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="Rule flag override FLAG=VALUE (repeatable).")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Run seed.")]


@contextmanager
def progress_bar(label: str, enabled: bool) -> Iterator:
    """A rich progress bar on stderr, or a no-op callback when disabled."""
    if not enabled:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _show_progress(flag: Optional[bool]) -> bool:
    return sys.stderr.isatty() if flag is None else flag


def _ci(pair: list[float], pct: bool = False) -> str:
    if pct:
        return f"[{pair[0] * 100:.1f}, {pair[1] * 100:.1f}]"
    return f"[{pair[0]:.1f}, {pair[1]:.1f}]"


def _print_game_summary(s: dict) -> None:
    table = Table(title=f"{s['game']}, {s['players']} players, {s['games']:,} games (seed {s['seed']})")
    for col in ("seat", "strategy", "wins", "win rate %", "95% CI", "mean final score", "95% CI"):
        table.add_column(col, justify="right" if col != "strategy" else "left")
    for seat in s["seats"]:
        table.add_row(
            str(seat["seat"]), seat["strategy"], f"{seat['wins']:,}", f"{seat['win_rate'] * 100:.2f}",
            _ci(seat["win_rate_ci"], pct=True), f"{seat['mean_score']:.1f}", _ci(seat["mean_score_ci"]),
        )
    out_console.print(table)
    out_console.print(
        f"hands/game {s['mean_hands_per_game']:.2f}   turns/hand {s['mean_turns_per_hand']:.2f}   "
        f"capped games {s['capped_games']}   capped hands {s['capped_hands']}"
    )
    out_console.print(
        f"{s['games_per_s']:,.0f} games/s   {s['hands_per_s']:,.0f} hands/s   "
        f"{s['elapsed_s']:.2f} s on {s['threads']} threads"
    )


def _print_hand_summary(s: dict) -> None:
    table = Table(title=f"{s['game']}, {s['players']} players, {s['hands']:,} independent hands (seed {s['seed']})")
    for col in ("seat", "strategy", "went out %", "95% CI", "mean hand score", "95% CI"):
        table.add_column(col, justify="right" if col != "strategy" else "left")
    for seat in s["seats"]:
        table.add_row(
            str(seat["seat"]), seat["strategy"], f"{seat['out_rate'] * 100:.2f}", _ci(seat["out_rate_ci"], pct=True),
            f"{seat['mean_hand_score']:.2f}", _ci(seat["mean_hand_score_ci"]),
        )
    out_console.print(table)
    ends = ", ".join(f"{k} {v:,}" for k, v in sorted(s["ends"].items()))
    out_console.print(f"turns/hand {s['mean_turns_per_hand']:.2f}   hand ends: {ends}")
    out_console.print(f"{s['hands_per_s']:,.0f} hands/s   {s['elapsed_s']:.2f} s on {s['threads']} threads")


@app.command()
def simulate(
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "greedy",
    games: Annotated[int, typer.Option("--games", help="Number of games (or hands with --unit hands).")] = 1000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    unit: Annotated[str, typer.Option("--unit", help="games (played to the target) or hands (independent hands).")] = "games",
    hands: Annotated[bool, typer.Option("--hands", help="Also write one row per hand to OUT.hands.parquet.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Parquet file for the rows.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Worker threads (default: all cores).")] = None,
    progress: Annotated[Optional[bool], typer.Option("--progress/--no-progress", help="Progress bar (default: when stderr is a terminal).")] = None,
) -> None:
    """Play many complete games (or hands) in parallel and summarise them."""
    from rummysim.simulation import simulate as run

    with progress_bar("simulating", _show_progress(progress)) as update:
        res = run(game=game, players=players, lineup=lineup, games=games, seed=seed, rule=rule or (), unit=unit,
                  hands=hands, out=out, threads=threads, progress=update)
    if as_json:
        out_console.print_json(json.dumps(res.summary))
    elif unit == "games":
        _print_game_summary(res.summary)
    else:
        _print_hand_summary(res.summary)
    if out is not None and not as_json:
        out_console.print(f"wrote {out}")


@app.command()
def validate(
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "random",
    games: Annotated[int, typer.Option("--games", help="Number of games to play in trace mode.")] = 100,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    progress: Annotated[Optional[bool], typer.Option("--progress/--no-progress")] = None,
) -> None:
    """Play games in trace mode and check every action with the independent validator (exit 1 on any violation)."""
    from rummysim.checks import validate_run

    with progress_bar("validating", _show_progress(progress)) as update:
        report = validate_run(game=game, players=players, lineup=lineup, games=games, seed=seed, rule=rule or (), progress=update)
    out_console.print(f"games {report.games}   actions checked {report.actions_checked:,}   violations {len(report.violations)}")
    for v in report.violations[:50]:
        out_console.print(f"  seed {v.seed} game {v.game_index} action {v.action} {v.rule_id}: {v.message}")
    if len(report.violations) > 50:
        out_console.print(f"  ... and {len(report.violations) - 50} more")
    if report.violations:
        raise typer.Exit(1)


@app.command()
def replay(
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game-index", "-i", help="Index of the game within the run.")] = 0,
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "greedy",
    rule: RuleOpt = None,
) -> None:
    """Print one game turn by turn (the same game `simulate` plays for that seed and index)."""
    from rummysim.checks import replay_game

    out_console.print(replay_game(seed, game_index, game=game, players=players, lineup=lineup, rule=rule or ()), markup=False)


@rules_app.command("list")
def rules_list() -> None:
    """List the presets with a description and their source."""
    from rummysim.rules import list_presets

    table = Table()
    for col in ("preset", "game", "description", "source"):
        table.add_column(col)
    for row in list_presets():
        table.add_row(row["name"], row["game"], row["description"], row["source"])
    out_console.print(table)


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="Preset name.")] = "500-rum",
    rule: RuleOpt = None,
) -> None:
    """Show every flag of a preset (with overrides): value, default, rule IDs, kernel support."""
    from rummysim.rules import Rules, describe, format_value

    rules = Rules.preset(name)
    if rule:
        rules = rules.with_strings(rule)
    table = Table(title=f"{name} ({rules.game})")
    for col in ("flag", "value", "default", "rule IDs", "supported"):
        table.add_column(col, no_wrap=True)
    table.add_column("meaning")
    for row in describe(rules):
        table.add_row(
            row["flag"], format_value(row["value"]), format_value(row["default"]), ", ".join(row["rule_ids"]),
            "yes" if row["supported"] else "not yet", row["doc"],
        )
    out_console.print(table)


@strategies_app.command("list")
def strategies_list() -> None:
    """List the strategies with their parameters and defaults."""
    from rummysim.strategies.registry import STRATEGIES

    table = Table()
    for col in ("strategy", "what it does", "parameters"):
        table.add_column(col)
    for s in STRATEGIES.values():
        params = "; ".join(f"{p.name}={p.default:g} ({p.doc})" for p in s.params) or "-"
        table.add_row(s.name, s.doc, params)
    out_console.print(table)


@strategies_app.command("show")
def strategies_show(name: Annotated[str, typer.Argument(help="Strategy name.")]) -> None:
    """Show what a strategy does and its parameters with their defaults."""
    from rummysim.strategies.registry import strategy_info

    info = strategy_info(name)
    out_console.print(f"{info.name} (id {info.id})", markup=False)
    out_console.print(info.doc, markup=False)
    if not info.params:
        out_console.print("parameters: none", markup=False)
    for p in info.params:
        out_console.print(f"  {p.name} = {p.default:g}: {p.doc}", markup=False)


def _register_extensions() -> None:
    """Commands that live in their own modules attach themselves here."""
    from rummysim.cli import analysis as cli_analysis
    from rummysim.cli import bench as cli_bench
    from rummysim.cli import compare as cli_compare
    from rummysim.cli import sweep as cli_sweep

    cli_analysis.register(app, out_console)
    cli_bench.register(app, out_console)
    cli_compare.register(app, out_console)
    cli_sweep.register(app, out_console)


_register_extensions()


def main(argv: Optional[list[str]] = None) -> None:
    """Console entry point: run the app and turn every user error into one line and exit code 2."""
    try:
        code = app(args=argv, prog_name="rummysim", standalone_mode=False)
    except RummysimError as exc:
        err_console.print(f"error: {exc}", markup=False, soft_wrap=True)
        sys.exit(2)
    except typer.Abort:
        err_console.print("error: aborted", markup=False)
        sys.exit(130)
    except TyperException as exc:  # click's usage errors (typer vendors click)
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        err_console.print(f"error: {message}", markup=False, soft_wrap=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
