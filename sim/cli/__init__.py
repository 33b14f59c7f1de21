"""The ``rummysim`` command line (see ``rummysim.cli.main``)."""

from rummysim.cli.main import app, main

__all__ = ["app", "main"]
