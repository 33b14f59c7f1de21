"""Each shipped strategy preset against its strategy's defaults, on fresh deals (issue 18 point 3).

The tuned presets (``strategies/presets.toml``, used as ``NAME@PRESET``) were found by ``rummysim
tune`` on its own deals; this plays each one against the strategy with its default parameters on other
deals (seed 20261201, seats rotated, the preset's game and player count) and prints the per-hand
difference with its 95% interval. It exits 1 if an interval does not lie above 0. Run from the
checkout: ``python benchmarks/tuned_presets.py [--games 6000]``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from rummysim import compare
from rummysim.strategies.registry import strategy_presets

SEED = 20261201
PRESET_NAME = re.compile(r"^(?P<game>.+)-(?P<players>\d+)p$")  # 500-rum-2p: the game, then the player count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="fresh deals per preset")
    args = parser.parse_args()
    failed = 0
    print(f"{'preset':<28} {'deals':>6} {'per hand':>9} {'95% CI':>18} {'s':>6}")
    for strategy, presets in strategy_presets().items():
        for preset, values in presets.items():
            if "rummysim tune" not in values["description"]:
                continue  # a preset not found by tuning (search@500-rum-4p: the search over a tuned base)
            m = PRESET_NAME.match(preset)
            game, players = m["game"], int(m["players"])
            t0 = time.perf_counter()
            h = compare(f"{strategy}@{preset}", strategy, game=game, players=players, games=args.games,
                        seed=SEED).summary["per_hand"]
            lo, hi = h["ci"]
            failed += lo <= 0
            print(f"{strategy + '@' + preset:<28} {args.games:>6} {h['diff']:>+9.2f} [{lo:>+7.2f}, {hi:>+7.2f}] "
                  f"{time.perf_counter() - t0:>6.0f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
