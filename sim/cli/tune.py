"""``rummysim tune``: improve a strategy's parameters by self-play on duplicate deals
(``rummysim.tune``), with progress, a resumable state file and the result measured on fresh deals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from rummysim.cli.console import out_console
from rummysim.cli.options import GameOpt, JsonOpt, OptionalPlayersOpt, ProgressOpt, RuleOpt, SeedOpt, ThreadsOpt
from rummysim.cli.progress import progress_bar, show_progress


def _best_note(best: float | None) -> str:
    return "" if best is None else f"  best so far {best:+.2f} points per hand"


def tune_command(
    strategy: Annotated[str, typer.Argument(help="The strategy to tune, NAME[:key=value...] (the starting point).")],
    game: GameOpt = "500-rum",
    players: OptionalPlayersOpt = None,
    rule: RuleOpt = None,
    against: Annotated[Optional[str], typer.Option(
        "--against", help="The reference strategy every candidate plays (default: STRATEGY as given).")] = None,
    params: Annotated[Optional[str], typer.Option(
        "--params", help="Parameters to tune, comma-separated (default: every searchable one it has).")] = None,
    trials: Annotated[int, typer.Option("--trials", help="Candidates to try in all (resumed ones count).")] = 40,
    games: Annotated[int, typer.Option("--games", help="Deals each candidate plays (the same deals for all).")] = 400,
    fresh_games: Annotated[int, typer.Option("--fresh-games", help="Fresh deals the best candidate is measured on.")] = 4000,
    seed: SeedOpt = 0,
    state: Annotated[Optional[Path], typer.Option(
        "--state", help="Optuna journal file: the study is saved there and a rerun resumes it.")] = None,
    as_json: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = None,
) -> None:
    """Tune a strategy's parameters (Optuna TPE) against a reference on duplicate deals, then measure
    the best on fresh deals with its 95% interval."""
    from rummysim.simulation import default_players
    from rummysim.output import output_target
    from rummysim.tune import TuneSetup, parse_params, tune

    if state is not None:
        output_target(state, "--state")
    n = players if players is not None else default_players(game, rule or (), None, fallback=2)
    setup = TuneSetup(strategy, game, n, tuple(rule or ()), against, parse_params(params), trials, games, seed,
                      fresh_games)
    with progress_bar("tuning", show_progress(progress), unit="trials", note=_best_note) as update:
        res = tune(setup, state=state, threads=threads, progress=update)
    if as_json:
        out_console.print_json(json.dumps(res.as_json()))
        return
    lo, hi = res.fresh["ci"]
    out_console.print(f"best after {res.trials} trials: {res.best}", markup=False)
    out_console.print(f"  on the tuning deals: {res.tuning_diff:+.2f} points per hand against {res.reference}",
                      markup=False)
    out_console.print(f"  on {fresh_games:,} fresh deals (seed {res.fresh_seed}): {res.fresh['diff']:+.2f} points per "
                      f"hand, 95% CI [{lo:+.2f}, {hi:+.2f}]", markup=False)


def register(app: typer.Typer) -> None:
    """Attach ``tune`` to the app."""
    app.command("tune")(tune_command)
