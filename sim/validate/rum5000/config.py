"""The 5000 Rummy checker's flags: RULES.md §8.6 values read into a :class:`Config`.

``r5k_payoff`` is a stakes flag (V5K-1: play is unchanged), so every value is accepted; the
stakes layers V5K-13/14 are not checked: those flags, and every flag of another game, must hold
their defaults.  ``r5k_persian`` (V5K-9) is checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rummysim.validate.flags import (
    ENGINE_DEFAULTS,
    RUM5000_FLAGS,
    RUM500_FLAGS,
    RUMMIKUB_FLAGS,
    STANDARD_FLAGS,
    engine_cap,
    norm_value,
)

#: ``game`` flag values this checker answers to
GAME_NAMES = frozenset({"5000-rummy", "5000_rummy", "r5k", "5000"})


@dataclass(frozen=True)
class Config:
    target: Any  # "auto" or int
    must_go_out: bool
    rummy: str
    going_out: str
    michigan: bool
    polish: bool
    first_turn: str
    money: bool
    persian: bool  # V5K-9
    max_turns: int
    max_hands: int


def _other_game_default(name: str) -> tuple[str, Any] | None:
    """(kind, default) of a flag of another game, which must hold its default here."""
    if name in RUM500_FLAGS:
        return RUM500_FLAGS[name][0], RUM500_FLAGS[name][1]
    if name in STANDARD_FLAGS:
        return STANDARD_FLAGS[name][0], STANDARD_FLAGS[name][1]
    if name in RUMMIKUB_FLAGS:
        return RUMMIKUB_FLAGS[name][0], RUMMIKUB_FLAGS[name][1]
    return None


def _check_game(flags: Mapping[str, object]) -> None:
    raw = flags.get("game", "5000-rummy")
    if not (isinstance(raw, str) and raw in GAME_NAMES):
        raise ValueError(f"flag game: value {raw!r} is not checked by the 5000 Rummy checker")


def parse_flags(flags: Mapping[str, object] | None) -> Config:
    """Read ``flags`` (RULES.md §8.6 names and values, plus ``game`` and the engine caps); a value
    the checker does not implement raises ``ValueError`` naming the flag."""
    flags = flags or {}
    _check_game(flags)
    vals = {k: spec[1] for k, spec in RUM5000_FLAGS.items()}
    engine = dict(ENGINE_DEFAULTS)
    for name, raw in flags.items():
        if name == "game":
            continue
        if name in engine:
            engine[name] = engine_cap(name, raw)
            continue
        spec = RUM5000_FLAGS.get(name)
        if spec is None:
            other = _other_game_default(name)
            if other is None:
                raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
            if norm_value(name, other[0], raw) != other[1]:
                raise ValueError(f"flag {name}: value {raw!r} belongs to another game, but the "
                                 "game is 5000-rummy")
            continue
        kind, _default, allowed = spec
        v = norm_value(name, kind, raw)
        if allowed is None:
            if not (v == "auto" or (isinstance(v, int) and v > 0)):
                raise ValueError(f"flag {name}: value {raw!r} is not valid")
        elif v not in allowed:
            raise ValueError(f"flag {name}: value {raw!r} is not implemented by the checker")
        vals[name] = v
    return Config(
        target=vals["r5k_target"],
        must_go_out=bool(vals["r5k_must_go_out_to_win"]),
        rummy=vals["r5k_rummy"],
        going_out=vals["r5k_going_out"],
        michigan=bool(vals["r5k_michigan"]),
        polish=bool(vals["r5k_polish"]),
        first_turn=vals["r5k_first_turn"],
        money=bool(vals["r5k_money_cards"]),
        persian=bool(vals["r5k_persian"]),
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )


def target_for(cfg: Config, n: int) -> int:
    """R5K-GAME-1: auto = 5000 / 3000 / 2000 for 2 / 3 / 4-5 players (2000 in Persian 5000)."""
    if cfg.target != "auto":
        return cfg.target
    if cfg.persian:
        return 2000  # V5K-9
    return 5000 if n == 2 else 3000 if n == 3 else 2000
