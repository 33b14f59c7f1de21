"""What every engine's step-API decision shares: the legal options, their mask, stable ids and lookup.

Each engine's decision record (``actions.Decision``, ``rum5000.Decision5``, ``rummikub.DecisionRk``)
subclasses ``Moves`` and names its action-space size, its kind names and its id function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rummysim.errors import InputError


@dataclass(frozen=True)
class Moves:
    """One decision an engine asks of an external seat: the view, the options, the hint."""

    view: object  # the engine's seat view (its ``kind`` is the decision kind)
    options: np.ndarray  # the engine's option values (1-D), or candidate rows (2-D) for a play
    hint: int  # the pick of the seat's hint strategy
    extra: int  # a 500 Rum split's pile index (0 elsewhere)

    max_actions: ClassVar[int]
    kind_names: ClassVar[Mapping[int, str]]
    id_of: ClassVar[Callable[[int, int, object], int]]  # (kind, index, option) -> stable id

    @property
    def n(self) -> int:
        return len(self.options)

    def mask(self) -> np.ndarray:
        out = np.zeros(self.max_actions, dtype=np.int8)
        out[:self.n] = 1
        return out

    def ids(self) -> np.ndarray:
        """The stable id of every option (int64), in the options' order."""
        kind = self.view.kind
        return np.array([type(self).id_of(kind, i, option) for i, option in enumerate(self.options)], dtype=np.int64)

    def index_of(self, move_id: int) -> int:
        """The option index of the move with stable id ``move_id``; refused when it is not legal here."""
        hits = np.flatnonzero(self.ids() == int(move_id))
        if len(hits) == 0:
            raise InputError(f"move id {move_id} is not a legal {self.kind_names[self.view.kind]} here")
        return int(hits[0])
