"""Steps per second of the step API (docs/env.md, "Speed"): random legal moves on every seat.

    python benchmarks/step_api.py [--games N]

For each engine the environment plays one warm-up game (compiling or loading the step-API
engine), then N games timed with ``env.last()`` and ``env.step()`` per step; it prints steps/s and
games/s. Rummikub's random policy plays the chosen tiles half the times it may (else a random
option), as tests/test_stepenv_rummikub.py does.
"""

from __future__ import annotations

import argparse
import random
import time

import rummysim

CASES = (("500-rum", 2), ("500-rum", 4), ("5000-rummy", 3), ("rummikub", 4))
PLAY = -2  # Rummikub's option that plays the chosen tiles


def policy(rng: random.Random):
    def pick(env) -> int:
        options = env.decision.options
        if options.ndim == 1 and PLAY in options.tolist() and rng.random() < 0.5:
            return options.tolist().index(PLAY)
        return rng.randrange(env.decision.n)
    return pick


def play(env, pick) -> int:
    steps = 0
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else pick(env))
        steps += 1
    return steps


def measure(game: str, players: int, games: int) -> tuple[float, float]:
    env = rummysim.env(game, players=players, seed=1)
    pick = policy(random.Random(1))
    env.reset()
    play(env, pick)  # warm-up: the compile or cache load
    steps, t0 = 0, time.perf_counter()
    for _ in range(games):
        env.reset()
        steps += play(env, pick)
    seconds = time.perf_counter() - t0
    return steps / seconds, games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for game, players in CASES:
        steps, games = measure(game, players, args.games)
        print(f"{game:>11} {players}p: {steps:>8,.0f} steps/s  {games:6.1f} games/s")


if __name__ == "__main__":
    main()
