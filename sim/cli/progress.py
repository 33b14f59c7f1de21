"""Progress on stderr for the long commands: one rich bar with ETA, and plain progress messages.

``progress_bar`` yields the callback the API functions take (``progress(done, total, *extra)``)
or None when disabled, so the API does no reporting work at all without a terminal.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from rummysim.cli.console import err_console, print_note

ProgressCallback = Callable[..., None]


def show_progress(flag: Optional[bool]) -> bool:
    """``--progress/--no-progress`` as given, else on when stderr is a terminal."""
    return sys.stderr.isatty() if flag is None else flag


@contextmanager
def progress_bar(
    label: str,
    enabled: bool,
    *,
    unit: str = "",
    note: Callable[..., str] | None = None,
    resumable: bool = False,
    eta: bool = True,
) -> Iterator[Optional[ProgressCallback]]:
    """A transient bar ``LABEL ━━━ done/total UNIT NOTE elapsed ETA remaining`` on stderr, or None.

    The callback is ``update(done, total, *extra)``; ``note(*extra)`` renders the extra values
    (e.g. the current confidence interval) after the unit. With ``resumable`` the first report is
    the work already done before this run (resumed games): the bar restarts there so the rate and
    ETA count only what this run plays. ``eta=False`` leaves out the bar's own ETA (for a caller
    whose note carries a better estimate).
    """
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(f"{unit}{{task.fields[note]}}"),
               TimeElapsedColumn())
    if eta:
        columns += (TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=None, note="")
        waiting_for_start = [resumable]

        def update(done: int, total: int, *extra: object) -> None:
            text = note(*extra) if note is not None else ""
            if waiting_for_start[0]:
                bar.reset(task, total=total, completed=done, note=text)
                waiting_for_start[0] = False
            else:
                bar.update(task, completed=done, total=total, note=text)

        yield update


def progress_log(enabled: bool) -> Optional[Callable[[str], None]]:
    """A callback printing each progress message on stderr, or None when disabled."""
    return print_note if enabled else None
