"""The Rummikub checker's flags: RULES.md §8.6 values read into a :class:`Config`.

Every ``rkub_`` flag is checked with every value §8.6 lists (``rkub_rounds`` any positive int);
the flags of the other games must hold their defaults.
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
from rummysim.validate.rummikub.table import TableRules

#: ``game`` flag values this checker answers to
GAME_NAMES = frozenset({"rummikub", "rkub"})


@dataclass(frozen=True)
class Config:
    counterclockwise: bool  # VKUB-DIR
    joker_penalty: int  # VKUB-JOKER25
    invalid_turn: str  # RKUB-TIME-1: "reject" or "penalty_draw3"
    rounds: int  # RKUB-GAME-1
    table: TableRules  # VKUB-JOKERBOTH, VKUB-TWOJOKERS, AMB-38, AMB-39
    max_turns: int
    max_hands: int


def _other_game_default(name: str) -> tuple[str, Any] | None:
    """(kind, default) of a flag of another game, which must hold its default here."""
    for table in (RUM500_FLAGS, STANDARD_FLAGS, RUM5000_FLAGS):
        if name in table:
            return table[name][0], table[name][1]
    return None


def _check_game(flags: Mapping[str, object]) -> None:
    raw = flags.get("game", "rummikub")
    if not (isinstance(raw, str) and raw in GAME_NAMES):
        raise ValueError(f"flag game: value {raw!r} is not checked by the Rummikub checker")


def _read_rummikub(name: str, raw: object) -> Any:
    kind, _default, allowed = RUMMIKUB_FLAGS[name]
    v = norm_value(name, kind, raw)
    if allowed is None:
        if not (isinstance(v, int) and v > 0):
            raise ValueError(f"flag {name}: value {raw!r} must be a positive integer")
    elif v not in allowed:
        raise ValueError(f"flag {name}: value {raw!r} is not one of {sorted(map(str, allowed))}")
    return v


def parse_flags(flags: Mapping[str, object] | None) -> Config:
    """Read ``flags`` (RULES.md §8.6 names and values, plus ``game`` and the engine caps); a value
    the checker does not implement raises ``ValueError`` naming the flag."""
    flags = flags or {}
    _check_game(flags)
    vals = {k: spec[1] for k, spec in RUMMIKUB_FLAGS.items()}
    engine = dict(ENGINE_DEFAULTS)
    for name, raw in flags.items():
        if name == "game":
            continue
        if name in engine:
            engine[name] = engine_cap(name, raw)
        elif name in RUMMIKUB_FLAGS:
            vals[name] = _read_rummikub(name, raw)
        else:
            other = _other_game_default(name)
            if other is None:
                raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
            if norm_value(name, other[0], raw) != other[1]:
                raise ValueError(f"flag {name}: value {raw!r} belongs to another game, but the "
                                 "game is rummikub")
    return Config(
        counterclockwise=vals["rkub_direction"] == "counterclockwise",
        joker_penalty=vals["rkub_joker_penalty"],
        invalid_turn=vals["rkub_invalid_turn"],
        rounds=vals["rkub_rounds"],
        table=TableRules(
            max_jokers=vals["rkub_max_jokers_per_combo"],
            both_colours=vals["rkub_group_joker_release"] == "both_colours",
            initial_rule=vals["rkub_initial_rule"],
            manipulate_on_initial=bool(vals["rkub_manipulate_on_initial_turn"]),
        ),
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )
