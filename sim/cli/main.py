"""The ``rummysim`` command line: the typer app assembled from the command modules, and ``main()``.

Every command module (``simulate``, ``analysis``, ``bench``, ``compare``, ``sweep``, ``rules``, ``warmup``)
parses options, calls the API and prints; this module only attaches them, in the order ``--help``
lists them. Every user error surfaces as one line ``error: ...`` on stderr with exit code 2 (the
typed errors of ``rummysim.errors`` and click's usage errors alike); ``validate`` exits 1 on
violations; Ctrl-C exits 130 and SIGTERM or SIGHUP 128 + the signal, each with one line.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Annotated, Optional

import typer
from typer.exceptions import TyperException

from rummysim.cli import analysis, bench, compare, play, rules, simulate, sweep, tune, warmup
from rummysim.cli.console import print_error
from rummysim.errors import RummysimError

EXIT_USAGE = 2
EXIT_ABORTED = 130


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"rummysim {version('rummysim')}")
        raise typer.Exit()


def _root_options(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Options that come before the command (``rummysim --version``)."""


def build_app() -> typer.Typer:
    """A fresh app with every command and command group attached."""
    app = typer.Typer(
        name="rummysim",
        help="Monte Carlo simulator for the rummy family: 500 Rum, Standard Rummy, 5000 Rummy and their variations.",
        add_completion=True,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root_options)
    for module in (simulate, analysis, bench, compare, sweep, rules, play, tune, warmup):
        module.register(app)
    return app


app = build_app()


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised like Ctrl-C so that every command stops the same way (a sweep
    keeps its finished files, no partial output is left)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_stop_signals: list[int] = []  # typer reports an interrupt only as exit code 130: remember which


def _raise_stopped(signum: int, frame: object) -> None:
    _stop_signals.append(signum)
    raise Stopped(signum)


def _raise_interrupt(signum: int, frame: object) -> None:
    _stop_signals.append(signum)
    raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_like_ctrl_c() -> Iterator[None]:
    """Handle SIGTERM, SIGHUP (and Ctrl-C, unless the shell ignores it) for the command's run,
    then put the previous handlers back (tests call ``main`` in their own process)."""
    _stop_signals.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handlers = {signum: _raise_stopped for signum in (signal.SIGTERM, signal.SIGHUP)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        handlers[signal.SIGINT] = _raise_interrupt
    previous = {signum: signal.signal(signum, handler) for signum, handler in handlers.items()}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _exit_stopped(signum: int) -> None:
    print_error("interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}")
    sys.exit(128 + signum)


def _usage_message(exc: TyperException) -> str:
    """A usage error in one line. A command group run without its command would carry the whole
    help text: name the commands instead."""
    ctx = getattr(exc, "ctx", None)
    commands = getattr(getattr(ctx, "command", None), "commands", None)
    if type(exc).__name__ == "NoArgsIsHelpError" and commands:
        return f"missing command: one of {', '.join(commands)} (see {ctx.command_path} --help)"
    return exc.format_message() if hasattr(exc, "format_message") else str(exc)


def main(argv: Optional[list[str]] = None) -> None:
    """Console entry point: run the app and turn every user error into one line and exit code 2;
    Ctrl-C, SIGTERM and SIGHUP stop a command with one line and exit code 128 + the signal."""
    with _stop_like_ctrl_c():
        try:
            code = app(args=argv, prog_name="rummysim", standalone_mode=False)
        except RummysimError as exc:
            print_error(str(exc))
            sys.exit(EXIT_USAGE)
        except (typer.Abort, KeyboardInterrupt):
            if _stop_signals:
                _exit_stopped(_stop_signals[0])
            print_error("aborted")
            sys.exit(EXIT_ABORTED)
        except TyperException as exc:  # click's usage errors (typer vendors click)
            print_error(_usage_message(exc))
            sys.exit(EXIT_USAGE)
        if _stop_signals:
            _exit_stopped(_stop_signals[0])
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
