"""``rummysim play``: play seats of a game against the bots in the terminal (issue 20 point 4).

The game runs on the step API (``rummysim.stepenv.terminal``); this module reads the options,
checks them before the game starts, and connects the session to standard input and output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from rummysim.cli.options import GameOpt, LineupOpt, PlayersOpt, RuleOpt, SeedOpt
from rummysim.errors import InputError

PLAYABLE = ("500-rum", "standard-rummy")  # the games the terminal board draws (stepenv.terminal)


def _seats(text: str, players: int) -> tuple[int, ...]:
    try:
        seats = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise InputError(f"--seat takes seat numbers separated by commas, e.g. 0 or 0,2: got {text!r}") from None
    if not seats or not all(0 <= s < players for s in seats):
        raise InputError(f"--seat: seats are 0..{players - 1} for {players} players, got {text!r}")
    return seats


def _lineup(bots: str, hint: str, seats: tuple[int, ...], players: int) -> list[str]:
    """Every seat's strategy: the bots' from ``--lineup`` (one name for all, or one per seat) and
    the hint strategy on the person's seats."""
    names = [part.strip() for part in bots.split(",") if part.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InputError(f"--lineup names {len(names)} strategies for {players} players (give one, or one per seat)")
    return [hint if s in seats else names[s] for s in range(players)]


def _rules(rule: list[str] | None) -> dict[str, str]:
    out = {}
    for item in rule or ():
        flag, eq, value = item.partition("=")
        if not eq:
            raise InputError(f"--rule {item!r}: write FLAG=VALUE")
        out[flag.strip()] = value.strip()
    return out


def play_command(
    game: GameOpt = "500-rum",
    players: PlayersOpt = 3,
    seat: Annotated[str, typer.Option("--seat", help="Your seat (0 deals first); several for hot-seat play: 0,2.")] = "0",
    lineup: LineupOpt = "heuristic",
    hint: Annotated[str, typer.Option("--hint", help="The strategy whose move `h` shows on your seats.")] = "greedy",
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game-index", "-i", help="Which game of the seed (as in `replay`).")] = 0,
    rule: RuleOpt = None,
    plain: Annotated[bool, typer.Option("--plain", help="Suits as letters C D H S instead of symbols.")] = False,
    replay_out: Annotated[Optional[Path], typer.Option(
        "--replay-out", help="Where the finished game's replay is saved (default: rummysim-play-SEED-INDEX.txt).")] = None,
) -> None:
    """Play a game against the bots: your hand, the table and the pile, your legal moves numbered;
    `h` for a hint, `u` to take back a meld, lay-off or pile take of your turn, `q` to quit. The
    finished game's replay is saved."""
    import sys

    from rummysim.output import output_target
    from rummysim.stepenv.terminal import PlaySession, PlaySetup, run

    if game not in PLAYABLE:
        raise InputError(f"rummysim play seats people at {' and '.join(PLAYABLE)}; {game} is played "
                         "one decision at a time through rummysim.env (docs/env.md)")
    if not sys.stdin.isatty():
        raise InputError("rummysim play needs a terminal: its standard input is not one")
    seats = _seats(seat, players)
    path = replay_out or Path(f"rummysim-play-{seed}-{game_index}.txt")
    output_target(path, "--replay-out")
    if game_index < 0:
        raise InputError(f"--game-index must be 0 or more, got {game_index}")
    setup = PlaySetup(game, players, seats, _lineup(lineup, hint, seats, players), seed, game_index, _rules(rule), plain)
    session = PlaySession(setup, lambda text: typer.echo(text))
    raise typer.Exit(run(session, _read, path))


def _read(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


def register(app: typer.Typer) -> None:
    """Attach ``play`` to the app."""
    app.command("play")(play_command)
