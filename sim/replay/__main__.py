"""``python -m rummysim.replay trace.npy [--plain]``: print a saved trace as readable text."""

from rummysim.replay import main

raise SystemExit(main())
