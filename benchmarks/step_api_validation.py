"""Random legal moves through the step API, validated: thousands of games per game (issue 20 point 2).

    python benchmarks/step_api_validation.py [--games N] [--seed S]

N games per game (500 Rum, Standard Rummy, 5000 Rummy, Rummikub), shared among its
configurations below.

Every seat is an agent and picks a uniformly random legal option (in Rummikub: the chosen tiles
are played two times in three when they may be, else half the time the hint and half a random
option, so that plays get finished). Each game's trace goes through the independent validator
(``rummysim.validate``); the script prints, per configuration, the games, the actions checked and
the violations, and exits 1 if any. The configurations cover the player counts and the variations
with their own decisions (rummy calls, out-of-turn melds, the Dealer's gambit, partnerships, two
decks; 5000's calls, exchange, Polish, Persian; Rummikub's initial-meld and joker flags). The test
suite runs a few hundred of these games; this runs N per game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import rummysim
from rummysim.simulation import prepare

PLAY = -2  # Rummikub: play the chosen tiles

CONFIGS = (
    ("500-rum", 2, {}), ("500-rum", 3, {"r500_call_rummy": "pile"}), ("500-rum", 4, {"r500_dealers_gambit": True}),
    ("500-rum", 4, {"r500_partnership": True}), ("500-rum", 3, {"r500_meld_out_of_turn": True}),
    ("500-rum", 6, {"r500_num_decks": 2}), ("standard-rummy", 4, {}),
    ("5000-rummy", 2, {}), ("5000-rummy", 3, {"r5k_rummy": "any_cards", "r5k_first_turn": "exchange_upcard"}),
    ("5000-rummy", 4, {"r5k_persian": True}), ("5000-rummy", 5, {"r5k_polish": True, "r5k_rummy": "top_card"}),
    ("rummikub", 2, {}), ("rummikub", 3, {"rkub_initial_rule": "single_combo"}),
    ("rummikub", 4, {"rkub_max_jokers_per_combo": 1, "rkub_manipulate_on_initial_turn": False}),
)


def policy(rng: random.Random):
    def pick(env, agent) -> int:
        options = env.decision.options
        if options.ndim == 1 and env.infos[agent]["kind"] == "place":
            listed = options.tolist()
            if PLAY in listed and rng.random() < 2 / 3:
                return listed.index(PLAY)
            if rng.random() < 0.5:
                return env.infos[agent]["hint"]
        return rng.randrange(env.decision.n)
    return pick


def run(game: str, players: int, rules: dict, games: int, seed: int) -> tuple[int, int, int]:
    env = rummysim.env(game, players=players, seed=seed, rules=rules)
    cfg = prepare(game, players, "greedy", [f"{k}={str(v).lower()}" for k, v in rules.items()])
    validate = cfg.spec.validator()
    pick = policy(random.Random(seed))
    checked = violations = overflowed = 0
    for _ in range(games):
        env.reset()
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else pick(env, agent))
        overflowed += env.finished.overflowed
        result = validate(env.finished.trace, cfg.rules.as_dict())
        checked += result.actions_checked
        violations += len(result.violations)
    return checked, violations, overflowed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game, shared among its configurations")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    bad = 0
    per_game = {game: sum(g == game for g, _, _ in CONFIGS) for game, _, _ in CONFIGS}
    for i, (game, players, rules) in enumerate(CONFIGS):
        share = sum(g == game for g, _, _ in CONFIGS[:i])  # earlier configurations of this game
        games = args.games // per_game[game] + (share < args.games % per_game[game])
        t0 = time.perf_counter()
        checked, violations, overflowed = run(game, players, rules, games, args.seed)
        bad += violations + overflowed
        flags = " ".join(f"{k}={v}" for k, v in rules.items()) or "-"
        print(f"{game} {players}p {flags}: {games} games, {checked:,} actions checked, "
              f"{violations} violations, {overflowed} overflowed ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
