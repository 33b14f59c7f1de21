"""``search``'s strength against its budget (issue 18 point 2): the curve in docs/strategies.md.

For each budget, ``search:budget=B`` plays its own base (``heuristic@500-rum-2p``, the same
parameters without the search) and the default ``heuristic`` on duplicate deals (500 Rum, 2
players, seats rotated, one thread), and its cost is measured with ``search:budget=B`` on every seat
(independent hands, one thread). Prints one markdown row per budget: the per-hand difference with
its 95% interval against each opponent, and hands/s. Run from the checkout:
``python benchmarks/search_curve.py [--games 2000] [--budgets 0,4,8,16,32,64]``; with ``--game
5000-rummy`` the same in 5000 Rummy, 3 players, against its 5000 base ``heuristic@5000-rummy-3p``.
"""

from __future__ import annotations

import argparse
import sys

from rummysim import compare, simulate

SEED = 41
SETUPS = {  # game: (players, search's base there)
    "500-rum": (2, "heuristic@500-rum-2p"),
    "5000-rummy": (3, "heuristic@5000-rummy-3p"),
}


def per_hand(a: str, b: str, game: str, games: int, seed: int) -> str:
    h = compare(a, b, game=game, players=SETUPS[game][0], games=games, seed=seed, threads=1).summary["per_hand"]
    lo, hi = h["ci"]
    return f"{h['diff']:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def hands_per_second(strategy: str, game: str, hands: int) -> float:
    return simulate(game=game, players=SETUPS[game][0], lineup=strategy, games=hands, seed=5, unit="hands",
                    threads=1).summary["hands_per_s"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="deals per comparison")
    parser.add_argument("--budgets", default="0,4,8,16,32,64", help="comma-separated budgets")
    parser.add_argument("--hands", type=int, default=3000, help="hands of the speed measurement")
    parser.add_argument("--game", default="500-rum", choices=sorted(SETUPS), help="the game (its players: see SETUPS)")
    parser.add_argument("--seed", type=int, default=SEED, help="run seed of the comparisons")
    args = parser.parse_args()
    base = SETUPS[args.game][1]
    print(f"| budget | vs {base} ({args.games} deals) | vs heuristic ({args.games} deals) | hands/s (1 thread) |")
    print("|---:|---:|---:|---:|")
    for budget in (int(b) for b in args.budgets.split(",")):
        spec = f"search:budget={budget}"
        print(f"| {budget} | {per_hand(spec, base, args.game, args.games, args.seed)} "
              f"| {per_hand(spec, 'heuristic', args.game, args.games, args.seed)} "
              f"| {hands_per_second(spec, args.game, args.hands):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
