"""Hands that reach the turn cap, for every strategy against itself (issue 18 point 5).

A hand that ends at ``max_turns_per_hand`` is a strategy bug (two seats passing a card back and
forth through the top discard), not a result. This plays independent hands (``unit="hands"``) of
every strategy (and every tuned preset of the game) against itself at 2 and 4 players in 500 Rum
and 5000 Rummy and prints the capped
hands per case; it exits 1 if any case has one. Run from the checkout:
``python benchmarks/capped_hands.py [--hands 100000] [--rollout-hands 2000] [--only search]``.
``rollout`` plays about 60 hands/s, so it gets its own, smaller count; ``--only`` keeps the named
strategies (and their presets).
"""

from __future__ import annotations

import argparse
import sys
import time

from rummysim import simulate
from rummysim.strategies.registry import STRATEGIES, strategy_presets

GAMES = ("500-rum", "5000-rummy")
PLAYERS = (2, 4)
SEED = 4


def strategies_for(game: str) -> list[str]:
    """The strategies of ``game`` and the presets tuned for it (``500-rum-2p``: game, then players)."""
    names = [name for name, info in STRATEGIES.items() if not info.games or game in info.games]
    return names + [f"{s}@{p}" for s, presets in strategy_presets().items() for p in presets
                    if p.rsplit("-", 1)[0] == game]


def capped(game: str, players: int, strategy: str, hands: int) -> tuple[int, float, float]:
    """(capped hands, mean turns per hand, seconds) of ``hands`` independent hands."""
    t0 = time.perf_counter()
    res = simulate(game, players=players, lineup=strategy, games=hands, seed=SEED, unit="hands")
    return int(res.summary["capped_hands"]), float(res.summary["mean_turns_per_hand"]), time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rollout-hands", type=int, default=2_000)
    parser.add_argument("--only", action="append", metavar="STRATEGY", help="play only these strategies")
    args = parser.parse_args()
    print(f"{'game':<11} {'players':>7} {'strategy':<24} {'hands':>8} {'capped':>6} {'turns/hand':>10} {'s':>7}")
    bad = 0
    for game in GAMES:
        for players in PLAYERS:
            for strategy in strategies_for(game):
                if args.only and strategy.split("@")[0] not in args.only:
                    continue
                n = args.rollout_hands if strategy.startswith("rollout") else args.hands
                count, turns, seconds = capped(game, players, strategy, n)
                bad += count
                print(f"{game:<11} {players:>7} {strategy:<24} {n:>8,} {count:>6} {turns:>10.1f} {seconds:>7.1f}",
                      flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
