"""Python-side registry of the betting policies of 5000 Rummy's stakes layers (V5K-13, V5K-14).

A betting policy decides the stakes actions (double, take, beaver, fold; bet, call, raise,
concede) and is combined with any play strategy: ``--betting threshold:double_at=200`` (one
policy for every seat) or ``--betting threshold,accept-all`` (one per seat), in the
``NAME:key=value:key=value`` syntax of ``--lineup``. The numba side
(``strategies.rum5000.betting``) sees the policy id and its parameters in the seat's parameter row
after the play strategy's ``N_PARAMS`` columns (``strategies.ids`` BP_*).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.errors import InputError
from rummysim.strategies import ids
from rummysim.strategies.registry import Param, parse_settings

DEFAULT_BETTING = "accept-all"
NEVER = -1.0e9  # a threshold no edge reaches: the action is never taken
_EDGE = "points of the seat's edge (its table points minus the opponent's, +25 per card the opponent holds more, +50 per wild card in hand)"


def _threshold(name: str, default: float, what: str) -> Param:
    return Param(name, default, f"{what} ({_EDGE})", low=-1.0e9, high=1.0e9)


_TAKE_AT = _threshold("take_at", -350.0, "fold a double when the edge is below this")
_FOLD_AT = _threshold("fold_at", -100.0, "in the betting round, concede to a bet when the edge is below this")
_CONCEDE_AT = _threshold("concede_at", NEVER, "before one of its turns, concede the hand when the edge is below this")

_SLOTS = {"double_at": ids.BP_DOUBLE_AT, "take_at": ids.BP_TAKE_AT, "beaver_at": ids.BP_BEAVER_AT,
          "bet_at": ids.BP_BET_AT, "raise_at": ids.BP_RAISE_AT, "chips": ids.BP_CHIPS, "fold_at": ids.BP_FOLD_AT,
          "concede_at": ids.BP_CONCEDE_AT}


@dataclass(frozen=True)
class BettingInfo:
    """A betting policy: its name, id, what it does and its parameters."""

    name: str
    id: int
    doc: str
    params: tuple[Param, ...] = ()

    def default_row(self) -> np.ndarray:
        """The policy's row of ``ids.BP_SIZE`` numbers: its id, then every parameter slot."""
        row = np.zeros(ids.BP_SIZE, dtype=np.float64)
        row[ids.BP_ID] = self.id
        for slot in _SLOTS.values():
            row[slot] = NEVER
        for p in self.params:
            row[_SLOTS[p.name]] = p.default
        return row

    def param(self, key: str) -> Param:
        for p in self.params:
            if p.name == key:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise InputError(f"betting policy {self.name} has no parameter {key!r} (its parameters: {known})")


POLICIES: dict[str, BettingInfo] = {
    p.name: p
    for p in (
        BettingInfo("accept-all", ids.BET_ACCEPT_ALL,
                    "never doubles, bets or concedes; takes every double and calls every bet"),
        BettingInfo("never-double", ids.BET_NEVER_DOUBLE,
                    "never doubles or bets; folds or concedes by its thresholds", (_TAKE_AT, _FOLD_AT, _CONCEDE_AT)),
        BettingInfo("threshold", ids.BET_THRESHOLD, "doubles, beavers, bets, raises, folds and concedes by thresholds "
                    "on its edge", (
                        _threshold("double_at", 150.0, "double just before the opponent draws when the edge is at least this"),
                        _TAKE_AT,
                        _threshold("beaver_at", 400.0, "redouble at once (beaver) when doubled with at least this edge"),
                        _threshold("bet_at", 50.0, "open the betting round with a bet when the edge is at least this"),
                        _threshold("raise_at", 150.0, "raise a bet when the edge is at least this"),
                        Param("chips", 5.0, "chips per bet or raise", low=1.0, high=10.0),
                        _FOLD_AT, _CONCEDE_AT)),
        BettingInfo("aggressive", ids.BET_AGGRESSIVE,
                    "doubles whenever it may, beavers every double, bets and raises 10 whenever it may, never folds"),
    )
}


def betting_info(name: str) -> BettingInfo:
    if name not in POLICIES:
        raise InputError(f"unknown betting policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name]


def parse_betting_policy(spec: str) -> tuple[BettingInfo, np.ndarray, str]:
    """``NAME`` or ``NAME:key=value:...``: the policy, its row and its canonical text (the name,
    then the parameters set away from their defaults, in the policy's order).

    Example:
        >>> info, row, text = parse_betting_policy("threshold:double_at=200")
        >>> info.name, row[1], text
        ('threshold', 200.0, 'threshold:double_at=200')
    """
    name, settings = parse_settings(spec, "betting policy")
    info = betting_info(name)
    row = info.default_row()
    for key, value in settings:
        p = info.param(key)
        if p.name == "chips" and value != int(value):
            raise InputError(f"betting policy {name}: chips={value:g} is not a whole number")
        row[_SLOTS[key]] = p.check(name, value)
    changed = [f"{p.name}={row[_SLOTS[p.name]]:g}" for p in info.params if row[_SLOTS[p.name]] != p.default]
    return info, row, ":".join([info.name, *changed])


def parse_betting(text: str, n_players: int) -> tuple[list[str], np.ndarray]:
    """Canonical names per seat and the float64[n_players, BP_SIZE] rows for ``--betting``: one
    policy per seat, comma-separated, or a single one for every seat."""
    specs = [part.strip() for part in text.split(",") if part.strip()]
    if not specs:
        raise InputError("--betting is empty: give one betting policy per seat, e.g. threshold,accept-all")
    parsed = [parse_betting_policy(s) for s in specs]
    if len(parsed) == 1:
        parsed = parsed * n_players
    if len(parsed) != n_players:
        raise InputError(f"--betting names {len(parsed)} policies for {n_players} players")
    return [text for _, _, text in parsed], np.stack([row for _, row, _ in parsed])
