"""The game registry: one ``GameSpec`` per game, looked up once by name.

Everything the orchestration layers (``simulate``, ``validate``, ``replay``, ``sweep``,
``compare``, ``analysis``) need to know about a game comes from its spec: the flags and presets
that belong to it, how a ``Rules`` becomes its kernels' rules vector, the batch entry points, the
independent validator and the replay formatter, the hand-end reasons and the per-hand counters,
and the seat -> side map (``sides[seat]``: every side is one seat in today's games). Entry points are named as ``"module:attribute"`` and imported on first
use, so a 500 Rum run never loads (or compiles) the 5000 Rummy kernels. Adding a game is adding a
module here (docs/architecture.md has the checklist).
"""

from __future__ import annotations

from importlib import import_module

import numpy as np

from rummysim.errors import RulesError
from rummysim.games.spec import GameSpec
from rummysim.rules import Rules

_MODULES = ("rummysim.games.rum500", "rummysim.games.rum5000", "rummysim.games.rummikub")


def _registry() -> dict[str, GameSpec]:
    specs: dict[str, GameSpec] = {}
    for module in _MODULES:
        for spec in import_module(module).SPECS:
            specs[spec.name] = spec
    return specs


GAMES: dict[str, GameSpec] = _registry()


def get_game(name: str) -> GameSpec:
    """The spec of game ``name`` (``Rules.game``); a game without kernels was refused by ``Rules.check``."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"no kernels play the game {name!r} (games: {', '.join(sorted(GAMES))})") from None


def encode_rules(rules: Rules, n_players: int) -> np.ndarray:
    """Check ``rules`` for ``n_players`` (raising the typed errors of ``rummysim.errors``) and
    encode it as its game's rules vector."""
    rules.check(n_players)
    return get_game(rules.game).encode(rules, n_players)
