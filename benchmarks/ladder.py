"""The strength ladder (issue 18 point 7): every bot of a game in one tournament on duplicate deals.

For each ladder (500 Rum 2 and 4 players, 5000 Rummy 3 players) this plays a tournament of every
strategy of the game and the presets tuned for it (``strategies/presets.toml``), and measures each
strategy's cost: hands per second on one thread with the strategy on every seat. It writes
``strategies/ladder.json``, which ``rummysim strategies list --ladder GAME`` and docs/strategies.md
show: Bradley-Terry strength and mean points per hand against the field, each with its 95%
interval, beside the cost. Run from the checkout: ``python benchmarks/ladder.py [--only 500-rum-2p]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from rummysim import simulate, tournament
from rummysim.strategies.registry import STRATEGIES, strategy_presets

LADDERS = {  # name: (game, players, deals, seed)
    "500-rum-2p": ("500-rum", 2, 400, 7),
    "500-rum-4p": ("500-rum", 4, 150, 7),
    "5000-rummy-3p": ("5000-rummy", 3, 100, 7),
}
COST_HANDS = {"rollout": 200}  # hands timed per strategy (default 4,000): rollout plays ~60 a second
OUT = Path(__file__).resolve().parents[1] / "strategies" / "ladder.json"


def entrants(ladder: str, game: str) -> list[str]:
    """The strategies of ``game`` and the presets tuned for this ladder."""
    names = [n for n, info in STRATEGIES.items() if not info.games or game in info.games]
    tuned = [f"{s}@{p}" for s, presets in strategy_presets().items() for p in presets if p == ladder]
    return names + tuned


def hands_per_second(strategy: str, game: str, players: int) -> float:
    hands = COST_HANDS.get(strategy.split("@")[0], 4000)
    res = simulate(game, players=players, lineup=strategy, games=hands, seed=1, unit="hands", threads=1)
    return float(res.summary["hands_per_s"])


def ladder(name: str) -> dict:
    game, players, deals, seed = LADDERS[name]
    names = entrants(name, game)
    res = tournament(names, game=game, players=players, games=deals, seed=seed)
    rows = []
    for r in res.ranking.to_dicts():
        rows.append({
            "strategy": r["strategy"], "bt_strength": r["bt_strength"], "bt_lo": r["bt_lo"], "bt_hi": r["bt_hi"],
            "per_hand": r["diff_per_hand"], "per_hand_lo": r["diff_per_hand_lo"], "per_hand_hi": r["diff_per_hand_hi"],
            "hands_per_s": hands_per_second(r["strategy"], game, players),
        })
        print(f"{name}: {rows[-1]}", file=sys.stderr)
    return {"game": game, "players": players, "deals": deals, "seed": seed, "games": res.summary["games"],
            "date": datetime.date.today().isoformat(), "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=list(LADDERS), action="append", help="ladders to (re)play")
    args = parser.parse_args()
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in args.only or list(LADDERS):
        data[name] = ladder(name)
        OUT.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
