"""Run the benchmark suite: the same as ``rummysim bench`` (with rummysim installed, e.g. ``pip install -e .``).

    python benchmarks/engine.py            # default sizes (several minutes on 2 cores)
    python benchmarks/engine.py --quick    # tiny sizes, checks that the suite runs
    python benchmarks/engine.py --full     # also 10^6 games end to end, 3 cold compiles
    python benchmarks/engine.py --json     # the results as JSON on stdout

The suite itself is ``sim/bench.py`` (so that the installed ``rummysim bench`` has it); see
``benchmarks/README.md`` for what each figure means.
"""

from __future__ import annotations

import sys


from rummysim.cli.main import main  # noqa: E402

if __name__ == "__main__":
    main(["bench", *sys.argv[1:]])
