"""The two consoles of the command line and the ``error: ...`` line; no other module makes a Console.

Results go to ``out_console`` (stdout); errors, progress and notes to ``err_console`` (stderr).
Both resolve ``sys.stdout`` / ``sys.stderr`` at print time, so captured streams (pytest's
``capsys``) see everything.
"""

from __future__ import annotations

import sys

from rich.console import Console

# Piped output (files, CI logs) gets a wide page so tables keep whole flag names on one line.
out_console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
err_console = Console(stderr=True, highlight=False)


def print_error(message: str) -> None:
    """One line ``error: MESSAGE`` on stderr (the caller picks the exit code)."""
    err_console.print(f"error: {one_line(message)}", markup=False, soft_wrap=True)


def one_line(text: str) -> str:
    """``text`` with its unprintable characters escaped (``\\n``, ``\\x1e``): a path or a value
    the user gave may hold a line break, and an error stays one line."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def print_note(message: str) -> None:
    """A plain line on stderr: what is being done, plans, hints; never part of the result."""
    err_console.print(message, markup=False, soft_wrap=True)
