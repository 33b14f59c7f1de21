"""Sides: which seats win together, and the side columns of result rows.

A *side* is what wins a game. With one seat per side (every game played today) side k is seat k;
in a partnership game, seats 0 and 2 against 1 and 3, the map is ``(0, 1, 0, 1)``. Sides are
numbered 0..S-1 in the order of their lowest seat. Each run takes its map as an input (its game's
``GameSpec.sides`` in the registry, read in ``rummysim.simulation.prepare``) and records it in the Parquet metadata as ``rummysim.sides`` (a JSON list).

The side columns of game rows are defined here and nowhere else (:func:`side_columns`):

- ``winner_side``: the side of ``winner``, -1 when there is no single winner (like ``winner``);
- ``side_score_k``: side k's score, the score of its lowest seat (:func:`side_score_columns`).

Example:
    >>> SideMap((0, 1, 0, 1)).members(1), SideMap((0, 1, 0, 1)).label(0)
    ((1, 3), '0+2')
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import polars as pl

from rummysim.errors import InputError

WINNER_SIDE = "winner_side"
SIDE_SCORE = "side_score"


@dataclass(frozen=True)
class SideMap:
    """``of_seat[seat]`` = the seat's side; sides numbered 0..S-1 by their lowest seat."""

    of_seat: tuple[int, ...]

    def __post_init__(self) -> None:
        sides = tuple(int(s) for s in self.of_seat)
        object.__setattr__(self, "of_seat", sides)
        if not sides:
            raise InputError("a side map needs at least one seat")
        known = 0
        for seat, side in enumerate(sides):
            if not 0 <= side <= known:
                raise InputError(
                    f"side map {list(sides)}: seat {seat} has side {side}, but sides are numbered 0, 1, ... "
                    "in the order of their lowest seat"
                )
            known = max(known, side + 1)

    @classmethod
    def identity(cls, players: int) -> "SideMap":
        """Every seat its own side: the map of every game without partnerships."""
        return cls(tuple(range(players)))

    @classmethod
    def from_json(cls, value: object) -> "SideMap":
        """A map from its JSON form (a list of ints, or that list as JSON text)."""
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise InputError(f"side map {value!r} is not a JSON list") from None
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise InputError(f"side map {value!r} is not a list of side numbers")
        return cls(tuple(value))

    def to_json(self) -> list[int]:
        return list(self.of_seat)

    @property
    def n_seats(self) -> int:
        return len(self.of_seat)

    @property
    def n_sides(self) -> int:
        return max(self.of_seat) + 1

    @property
    def is_identity(self) -> bool:
        return self.n_sides == self.n_seats

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of ``side``, lowest first."""
        return tuple(seat for seat, s in enumerate(self.of_seat) if s == side)

    def lead_seat(self, side: int) -> int:
        """The side's lowest seat (the one whose score column holds the side's score)."""
        return self.of_seat.index(side)

    def label(self, side: int) -> str:
        """The side's seats as text: ``"2"`` for a one-seat side, ``"0+2"`` for a partnership."""
        return "+".join(str(seat) for seat in self.members(side))

    def play_order(self, dealer: int) -> tuple[int, ...]:
        """The sides in the order they first play in a hand dealt by ``dealer`` (play starts left
        of the dealer, seat ``dealer + 1``, and goes round to the dealer)."""
        order: list[int] = []
        for step in range(1, self.n_seats + 1):
            side = self.of_seat[(dealer + step) % self.n_seats]
            if side not in order:
                order.append(side)
        return tuple(order)


def side_of_seat_expr(sides: SideMap, seat: pl.Expr) -> pl.Expr:
    """The side of the seat in ``seat`` (Int32), -1 where ``seat`` is negative (nobody)."""
    seat = seat.cast(pl.Int32)
    if sides.is_identity:
        return pl.when(seat >= 0).then(seat).otherwise(-1)
    return pl.coalesce([pl.when(seat == s).then(pl.lit(k, dtype=pl.Int32)) for s, k in enumerate(sides.of_seat)]
                       + [pl.lit(-1, dtype=pl.Int32)])


def side_score_columns(sides: SideMap, prefix: str = "score") -> list[pl.Expr]:
    """``side_<prefix>_k`` for every side k: the score of the side's lowest seat.

    This is the one definition of a side's score. A side has one total for all its seats: with
    one seat per side it is that seat's score (``side_score_k`` copies ``score_k``); a partnership
    kernel records the team's total in the score column of the side's lowest seat (its
    :meth:`SideMap.lead_seat`), which is what this reads.
    """
    return [pl.col(f"{prefix}_{sides.lead_seat(k)}").alias(f"side_{prefix}_{k}") for k in range(sides.n_sides)]


def side_columns(sides: SideMap) -> list[pl.Expr]:
    """The side columns of game rows: ``winner_side`` (Int8) and ``side_score_0..S-1``."""
    winner = side_of_seat_expr(sides, pl.col("winner")).cast(pl.Int8).alias(WINNER_SIDE)
    return [winner, *side_score_columns(sides)]
