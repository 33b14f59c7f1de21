"""Where a batch of games spends its time, per compiled kernel, with Linux ``perf``.

    perf record -F 4000 -o perf.data python benchmarks/profile.py --players 4 --lineup greedy
    perf report -i perf.data --no-children --sort symbol

``perf`` cannot name numba's machine code by itself. This script compiles the kernels in-process
(into a temporary cache, so that nothing is loaded from disk) and then writes
``/tmp/perf-<pid>.map``, the table of JIT symbols ``perf report`` reads, before it plays the
timed games. Functions inlined into their callers (``njit_inline``, or by LLVM) count as their
caller. The compile takes about half a minute and shows in the profile as numba and LLVM frames;
the kernels' own rows are the ``[JIT]`` ones.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="rummysim-profile-")  # compile here, never load
atexit.register(shutil.rmtree, os.environ["NUMBA_CACHE_DIR"], True)

import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

from rummysim.kernels.common import results as R  # noqa: E402
from rummysim.bench import NO_HANDS, Case, configure  # noqa: E402


def compiled_symbols() -> dict[int, str]:
    """Address -> symbol of every function compiled in this process by the kernels and strategies."""
    symbols: dict[int, str] = {}
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith(("rummysim.kernels", "rummysim.strategies")):
            continue
        for obj in vars(module).values():
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                library = cres.library
                module_ir = getattr(library, "_final_module", None)
                engine = getattr(getattr(library, "_codegen", None), "_engine", None)
                if module_ir is None or engine is None:
                    continue
                for fn in module_ir.functions:
                    if not fn.is_declaration:
                        address = engine.get_function_address(fn.name)
                        if address:
                            symbols[address] = fn.name
    return symbols


def write_perf_map(symbols: dict[int, str]) -> Path:
    """``/tmp/perf-<pid>.map``: each symbol runs up to the next one's address."""
    rows = sorted(symbols.items())
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    with path.open("w") as out:
        for i, (address, name) in enumerate(rows):
            size = rows[i + 1][0] - address if i + 1 < len(rows) else 4096
            out.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="500-rum")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--lineup", default="greedy")
    parser.add_argument("--games", type=int, default=40_000)
    args = parser.parse_args()
    numba.set_num_threads(1)
    cfg = configure(Case(args.game, args.players, args.lineup))
    if isinstance(cfg, str):
        raise SystemExit(f"error: {cfg}")
    run = cfg.spec.games_runner()
    t0 = time.perf_counter()
    run(cfg.vector, cfg.lineup, cfg.params, 1, 0, 1, np.zeros((1, R.G_SIZE), dtype=np.int64), NO_HANDS)
    print(f"compiled in {time.perf_counter() - t0:.1f} s; perf map {write_perf_map(compiled_symbols())}")
    out = np.zeros((args.games, R.G_SIZE), dtype=np.int64)
    c0 = time.process_time()
    run(cfg.vector, cfg.lineup, cfg.params, 1000, 0, args.games, out, NO_HANDS)
    cpu = time.process_time() - c0
    hands = int(out[:, R.G_HANDS].sum())
    print(f"{args.games:,} games, {hands:,} hands in {cpu:.2f} CPU-s: {hands / cpu:,.0f} hands per CPU-second")


if __name__ == "__main__":
    main()
