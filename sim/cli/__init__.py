"""The ``rummysim`` command line: ``main`` is the console entry point, ``app`` the typer app.

One module per command group (``simulate``, ``rules``, ``analysis``, ``bench``, ``compare``,
``sweep``), the shared options (``options``), consoles (``console``) and progress bar
(``progress``); ``main`` assembles them.
"""

from rummysim.cli.main import app, main

__all__ = ["app", "main"]
