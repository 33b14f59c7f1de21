"""``python -m rummysim``: the command line."""

from rummysim.cli import main

main()
