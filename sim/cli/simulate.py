"""CLI commands that play games: ``simulate``, ``validate`` and ``replay``.

Parsing and printing only: ``rummysim.simulation`` plays and summarises, ``rummysim.checks``
validates and replays. Each command is a plain function (``simulate_command`` ...) that tests
may call with Python arguments; ``register`` attaches them to the app.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from rummysim.cli.console import out_console, print_note
from rummysim.cli.options import (BettingOpt, GameOpt, JsonOpt, LineupOpt, PlayersOpt, ProgressOpt, RuleOpt, SeedOpt, ThreadsOpt,
                                  out_option)
from rummysim.cli.progress import progress_bar, show_progress

MAX_VIOLATIONS_SHOWN = 50
COMPILE_SHOWN_FROM = 1.0  # seconds: a warm cache usually loads in less


def _ci(pair: list[float], pct: bool = False) -> str:
    if pct:
        return f"[{pair[0] * 100:.1f}, {pair[1] * 100:.1f}]"
    return f"[{pair[0]:.1f}, {pair[1]:.1f}]"


def played(s: dict) -> str:
    """What a summary played: its variation (``boathouse``, ``500-rum +r500_target=1000``), and the
    game when the preset's name does not say it."""
    label = s.get("variation") or s["game"]
    return label if str(s.get("preset", s["game"])).startswith(s["game"]) else f"{label} ({s['game']})"


def _rows_by_side(s: dict) -> tuple[str, list[tuple[str, dict]]]:
    """The summary's rows: one per team (labelled by its seats, ``0+2``) when seats play in
    partnerships, else one per seat."""
    if len(s["sides"]) < len(s["seats"]):
        return "team", [("+".join(map(str, side["members"])), side) for side in s["sides"]]
    return "seat", [(str(seat["seat"]), seat) for seat in s["seats"]]


def _compile_text(s: dict) -> str:
    """The warm-up's time beside the rates, which exclude it, when it was long enough to notice."""
    seconds = s["compile_seconds"]
    if seconds < COMPILE_SHOWN_FROM:
        return ""
    return f", after {seconds:.1f} s compiling or loading the kernels (not in the rates)"


def _print_game_summary(s: dict) -> None:
    key, rows = _rows_by_side(s)
    teams = " in two partnerships" if key == "team" else ""
    table = Table(title=f"{played(s)}, {s['players']} players{teams}, {s['games']:,} games (seed {s['seed']})")
    score = "mean team total" if key == "team" else "mean final score"
    for col in (key, "strategy", "wins", "win rate %", "95% CI", score, "95% CI"):
        table.add_column(col, justify="right" if col != "strategy" else "left")
    for label, row in rows:
        table.add_row(
            label, row["strategy"], f"{row['wins']:,}", f"{row['win_rate'] * 100:.2f}",
            _ci(row["win_rate_ci"], pct=True), f"{row['mean_score']:.1f}", _ci(row["mean_score_ci"]),
        )
    out_console.print(table)
    if "stakes" in s:
        _print_stakes(s)
    out_console.print(
        f"hands/game {s['mean_hands_per_game']:.2f}   turns/hand {s['mean_turns_per_hand']:.2f}   "
        f"drawn games {s['drawn_games']}   capped games {s['capped_games']}   capped hands {s['capped_hands']}"
    )
    out_console.print(
        f"{s['games_per_s']:,.0f} games/s   {s['hands_per_s']:,.0f} hands/s   "
        f"{s['elapsed_s']:.2f} s on {s['threads']} threads{_compile_text(s)}"
    )


def _print_stakes(s: dict) -> None:
    unit = "stake units" if s.get("rules_changed", {}).get("r5k_doubling") else "chips"
    table = Table(title=f"stakes: net {unit} per game (a session of 2 hands)")
    for col in ("seat", "strategy", "betting", "mean", "95% CI", "per hand"):
        table.add_column(col, justify="left" if col in ("strategy", "betting") else "right")
    for row in s["stakes"]:
        table.add_row(str(row["seat"]), row["strategy"], row["betting"], f"{row['mean_stake']:+.3f}",
                      f"[{row['mean_stake_ci'][0]:+.3f}, {row['mean_stake_ci'][1]:+.3f}]", f"{row['stake_per_hand']:+.3f}")
    out_console.print(table)


def _print_hand_summary(s: dict) -> None:
    table = Table(title=f"{played(s)}, {s['players']} players, {s['hands']:,} independent hands (seed {s['seed']})")
    key, rows = _rows_by_side(s)
    for col in (key, "strategy", "went out %", "95% CI", "mean hand score", "95% CI"):
        table.add_column(col, justify="right" if col != "strategy" else "left")
    for label, row in rows:
        table.add_row(
            label, row["strategy"], f"{row['out_rate'] * 100:.2f}", _ci(row["out_rate_ci"], pct=True),
            f"{row['mean_hand_score']:.2f}", _ci(row["mean_hand_score_ci"]),
        )
    out_console.print(table)
    ends = ", ".join(f"{k} {v:,}" for k, v in sorted(s["ends"].items()))
    out_console.print(f"turns/hand {s['mean_turns_per_hand']:.2f}   hand ends: {ends}")
    out_console.print(f"{s['hands_per_s']:,.0f} hands/s   {s['elapsed_s']:.2f} s on {s['threads']} threads"
                      f"{_compile_text(s)}")


def simulate_command(
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "greedy",
    games: Annotated[int, typer.Option("--games", help="Number of games (or hands with --unit hands).")] = 1000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    unit: Annotated[str, typer.Option("--unit", help="games (played to the target) or hands (independent hands).")] = "games",
    hands: Annotated[bool, typer.Option("--hands", help="Also write one row per hand to OUT.hands.parquet.")] = False,
    out: Annotated[Optional[Path], out_option("Parquet file for the rows.")] = None,
    as_json: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = None,
    betting: BettingOpt = None,
) -> None:
    """Play many complete games (or hands) in parallel and summarise them."""
    from rummysim.errors import InputError
    from rummysim.simulation import simulate

    if hands and out is None:
        raise InputError("--hands writes the hand rows to OUT.hands.parquet: give --out too")
    with progress_bar("simulating", show_progress(progress)) as update:
        res = simulate(game=game, players=players, lineup=lineup, games=games, seed=seed, rule=rule or (), unit=unit,
                       hands=hands, out=out, threads=threads, progress=update, betting=betting,
                       compile_note=print_note)
    if as_json:
        out_console.print_json(json.dumps(res.summary))
    elif unit == "games":
        _print_game_summary(res.summary)
    else:
        _print_hand_summary(res.summary)
    if out is not None and not as_json:
        out_console.print(f"wrote {out}")


def validate_command(
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "random",
    games: Annotated[int, typer.Option("--games", help="Number of games to play in trace mode.")] = 100,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    progress: ProgressOpt = None,
    betting: BettingOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play games in trace mode and check every action with the independent validator (exit 1 on any violation)."""
    from rummysim.checks import validate_run

    with progress_bar("validating", show_progress(progress)) as update:
        report = validate_run(game=game, players=players, lineup=lineup, games=games, seed=seed, rule=rule or (),
                              progress=update, betting=betting)
    if as_json:
        violations = [{"seed": v.seed, "game_index": v.game_index, "action": v.action, "rule_id": v.rule_id,
                       "message": v.message} for v in report.violations]
        out_console.print_json(json.dumps({"games": report.games, "actions_checked": report.actions_checked,
                                           "violations": violations}))
        if report.violations:
            raise typer.Exit(1)
        return
    out_console.print(f"games {report.games}   actions checked {report.actions_checked:,}   violations {len(report.violations)}")
    for v in report.violations[:MAX_VIOLATIONS_SHOWN]:
        where = "configuration" if v.game_index < 0 else f"seed {v.seed} game {v.game_index} action {v.action}"
        out_console.print(f"  {where} {v.rule_id}: {v.message}", markup=False)
    if len(report.violations) > MAX_VIOLATIONS_SHOWN:
        out_console.print(f"  ... and {len(report.violations) - MAX_VIOLATIONS_SHOWN} more")
    if report.violations:
        raise typer.Exit(1)


def replay_command(
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game-index", "-i", help="Index of the game within the run.")] = 0,
    game: GameOpt = "500-rum",
    players: PlayersOpt = 4,
    lineup: LineupOpt = "greedy",
    rule: RuleOpt = None,
    betting: BettingOpt = None,
    full_pile: Annotated[bool, typer.Option("--full-pile",
                                            help="Show the whole discard pile after each turn (default: its top 10 cards).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print one game turn by turn (the same game `simulate` plays for that seed and index)."""
    from rummysim.checks import replay_game

    text = replay_game(seed, game_index, game=game, players=players, lineup=lineup, rule=rule or (),
                       betting=betting, full_pile=full_pile)
    if as_json:
        out_console.print_json(json.dumps({"seed": seed, "game_index": game_index, "game": game, "players": players,
                                           "lineup": lineup, "rule": list(rule or ()), "lines": text.splitlines()}))
        return
    out_console.print(text, markup=False)


def register(app: typer.Typer) -> None:
    """Attach ``simulate``, ``validate`` and ``replay`` to the app."""
    app.command("simulate")(simulate_command)
    app.command("validate")(validate_command)
    app.command("replay")(replay_command)
