"""The options the commands share, declared once: every command module takes its game, players,
lineup, rule overrides, seed, threads, output file, ``--json`` and ``--progress`` from here.

An option that means something different per command (``--out``: rows, a table, a report, a
folder) shares its spelling through a factory and keeps its own help text.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game or preset name (see `rummysim rules list`).")]
GamesOpt = Annotated[Optional[list[str]], typer.Option(
    "--game", "-g", help="Game or preset whose engine variants to compile (repeatable; default: every game).")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Number of players.")]
OptionalPlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", "-n", help="Number of players (default: 4 for a partnership game, else 2).")]
LineupOpt = Annotated[str, typer.Option(
    "--lineup", "-l", help="Strategy per seat, comma-separated (one name = every seat).")]
BettingOpt = Annotated[Optional[str], typer.Option(
    "--betting", help="Betting policy per seat in a stakes game (r5k_doubling, r5k_limit_poker), comma-separated "
                      "(one = every seat), NAME:key=value as in --lineup; default accept-all. See "
                      "`rummysim strategies list`.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", "-r", help="Rule flag override FLAG=VALUE (repeatable).")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Run seed.")]
ThreadsOpt = Annotated[Optional[int], typer.Option("--threads", help="Worker threads (default: all cores).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON instead of tables.")]
ProgressOpt = Annotated[Optional[bool], typer.Option(
    "--progress/--no-progress", help="Progress on stderr (default: when stderr is a terminal).")]
DealsOpt = Annotated[int, typer.Option(
    "--games", help="Deals (game indexes) to play; each is played once per seating of the lineup.")]


def out_option(help: str) -> Any:
    """``--out/-o FILE`` with the command's own help (what is written there)."""
    return typer.Option("--out", "-o", help=help)
