"""The step-by-step game API (issue 20): ``rummysim.env(...)``, a PettingZoo AEC environment.

Games are played by the kernels ``simulate`` runs (one engine, not two): the seats the caller
controls are marked external, and their decisions leave numba through ``numba.objmode``
(``kernels/common/external.py``, asked by each engine's ``strategies/<game>/external.py``) to a
game thread that waits for ``env.step``; ``stepenv.engines`` has what the API needs of each engine. docs/env.md
describes the design, the observation encoding and the actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rummysim.errors import InputError
from rummysim.stepenv.aec import RumEnv
from rummysim.stepenv.game import GameSetup
from rummysim.strategies.ids import EXTERNAL


def _rule_strings(rules: Mapping[str, object] | None) -> list[str]:
    def text(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    return [f"{flag}={text(value)}" for flag, value in (rules or {}).items()]


def env(game: str = "500-rum", players: int = 4, seed: int = 0, rules: Mapping[str, object] | None = None,
        lineup: str = "greedy", external: Iterable[int] | None = None, render_mode: str | None = None) -> RumEnv:
    """A step-API environment for a game: 500 Rum, Standard Rummy, 5000 Rummy, Rummikub and their
    variations (partnership games included).

    ``rules`` maps flag names to values (as ``--rule flag=value``); ``lineup`` gives every seat's
    built-in strategy: the non-external seats play it, and the external seats (all by default)
    are offered its pick as ``infos[agent]["hint"]``. ``reset()`` plays game 0 of ``seed``, then
    game 1, ...: the same games ``simulate`` plays for that seed.

    Example:
        >>> import rummysim
        >>> e = rummysim.env("500-rum", players=2, seed=7)
        >>> e.reset()
        >>> e.agent_selection
        'player_0'
    """
    from rummysim.simulation import prepare

    cfg = prepare(game, players, lineup, _rule_strings(rules))
    engine = cfg.spec.step_game()
    if engine is None:
        raise InputError(f"the step API does not play {cfg.rules.game}")
    seats = sorted(set(range(players) if external is None else (int(s) for s in external)))
    if not seats or not all(0 <= s < players for s in seats):
        raise InputError(f"external seats must be between 0 and {players - 1}: got {seats}")
    lineup_ids = cfg.lineup.copy()
    lineup_ids[seats] += EXTERNAL
    return RumEnv(engine, GameSetup(cfg.vector, lineup_ids, cfg.params, seed, 0), seats, cfg.sides, render_mode)


__all__ = ["RumEnv", "env"]
