"""``search``'s strength against its budget (issue 18 point 2): the curve in docs/strategies.md.

For each budget, ``search:budget=B`` plays its own base (``heuristic@500-rum-2p``, the same
parameters without the search) and the default ``heuristic`` on duplicate deals (500 Rum, 2
players, seats rotated, one thread), and its cost is measured with ``search:budget=B`` on both seats
(independent hands, one thread). Prints one markdown row per budget: the per-hand difference with
its 95% interval against each opponent, and hands/s. Run from the checkout:
``python benchmarks/search_curve.py [--games 2000] [--budgets 0,4,8,16,32,64]``.
"""

from __future__ import annotations

import argparse
import sys

from rummysim import compare, simulate

SEED = 41
BASE = "heuristic@500-rum-2p"


def per_hand(a: str, b: str, games: int) -> str:
    h = compare(a, b, players=2, games=games, seed=SEED, threads=1).summary["per_hand"]
    lo, hi = h["ci"]
    return f"{h['diff']:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def hands_per_second(strategy: str, hands: int) -> float:
    return simulate(players=2, lineup=strategy, games=hands, seed=5, unit="hands", threads=1).summary["hands_per_s"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="deals per comparison")
    parser.add_argument("--budgets", default="0,4,8,16,32,64", help="comma-separated budgets")
    parser.add_argument("--hands", type=int, default=3000, help="hands of the speed measurement")
    args = parser.parse_args()
    print(f"| budget | vs {BASE} ({args.games} deals) | vs heuristic ({args.games} deals) | hands/s (1 thread) |")
    print("|---:|---:|---:|---:|")
    for budget in (int(b) for b in args.budgets.split(",")):
        spec = f"search:budget={budget}"
        print(f"| {budget} | {per_hand(spec, BASE, args.games)} | {per_hand(spec, 'heuristic', args.games)} "
              f"| {hands_per_second(spec, args.hands):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
