"""Rummikub in the step API: a seat's view, its legal moves with names and stable ids, the encoding.

A Rummikub turn is composed one rack tile at a time (``strategies.rummikub.external``): each
decision offers no play (draw, or pass on an empty pool), the play of the tiles chosen so far when
they can be placed exactly (the exact solver arranges the table), and one more copy of each tile
still on the rack. The view is the observation vector (``O_*`` of ``kernels/rummikub/layout.py``:
the pool size, rack sizes, totals, first tiles, who has made the initial meld), the seat's own
rack, the tiles chosen so far and the table (C-INFO-1). docs/env.md documents the encoding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.kernels.rummikub.layout import CB_SIZE, MAX_COMBOS, O_N_COMBOS, O_POOL, O_SEAT, O_SIZE, TILE_IDS
from rummysim.rummikub import tile_text
from rummysim.stepenv.moves import Moves
from rummysim.strategies.rummikub.external import DRAW, K_PLACE, KIND_NAMES, MAX_OPTIONS, PLAY

KIND_SHIFT = 58  # the decision kind's bits in an id, as in the other engines' ids
MAX_ACTIONS = MAX_OPTIONS

# the fixed-size encoding (int64): [kind, obs[O_SIZE], rack[TILE_IDS], chosen[TILE_IDS], table]
ENC_KIND = 0
ENC_OBS = 1
ENC_RACK = ENC_OBS + O_SIZE
ENC_CHOSEN = ENC_RACK + TILE_IDS
ENC_TABLE = ENC_CHOSEN + TILE_IDS  # MAX_COMBOS rows of CB_SIZE, zeros past the last combination
ENC_SIZE = ENC_TABLE + MAX_COMBOS * CB_SIZE


@dataclass(frozen=True)
class SeatViewRk:
    """One decision's view, copied out of the engine's buffers."""

    seat: int
    kind: int  # K_PLACE
    obs: np.ndarray  # int64[O_SIZE]
    hand: np.ndarray  # int64[TILE_IDS]: the rack, copies of each tile id (the joker at 64)
    chosen: np.ndarray  # int64[TILE_IDS]: the tiles chosen for this turn's play so far
    melds: np.ndarray  # int64[n_combos, CB_SIZE]: the table's combinations

    def as_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": KIND_NAMES[self.kind], "obs": self.obs, "hand": self.hand,
                "chosen": self.chosen, "melds": self.melds}

    def encode(self) -> np.ndarray:
        out = np.zeros(ENC_SIZE, dtype=np.int64)
        out[ENC_KIND] = self.kind
        out[ENC_OBS:ENC_RACK] = self.obs
        out[ENC_RACK:ENC_CHOSEN] = self.hand
        out[ENC_CHOSEN:ENC_TABLE] = self.chosen
        out[ENC_TABLE:ENC_TABLE + self.melds.size] = self.melds.ravel()
        return out


def action_id(kind: int, index: int, option) -> int:
    """The stable id of an option: 0 the play of the chosen tiles, 1 no play, t + 2 add tile t."""
    return (kind << KIND_SHIFT) | (int(option) + 2)


def _chosen_text(view: SeatViewRk) -> str:
    tiles = [tile_text(t) for t in range(TILE_IDS) for _ in range(int(view.chosen[t]))]
    return " ".join(tiles) or "nothing"


def action_name(view: SeatViewRk, option) -> str:
    value = int(option)
    if value == DRAW:
        return "draw a tile" if view.obs[O_POOL] > 0 else "pass (the pool is empty)"
    if value == PLAY:
        return f"play {_chosen_text(view)}"
    return f"choose {tile_text(value)}"


@dataclass(frozen=True)
class DecisionRk(Moves):
    """One decision Rummikub asks of an external seat: options DRAW, PLAY (when the chosen tiles
    can be placed), then tile ids."""

    max_actions = MAX_ACTIONS
    kind_names = KIND_NAMES
    id_of = staticmethod(action_id)

    def names(self) -> list[str]:
        return [action_name(self.view, option) for option in self.options]


def decision_of_rk(kind, obs, rack, chosen, table, options, n, hint, extra) -> DecisionRk:
    """The ``DecisionRk`` an external ask of the Rummikub engine describes (its handler's arguments:
    the rack in the hand slot, the chosen tiles in the pile slot, the table's rows)."""
    obs = np.array(obs, dtype=np.int64)
    view = SeatViewRk(int(obs[O_SEAT]), int(kind), obs, np.array(rack, dtype=np.int64),
                      np.array(chosen, dtype=np.int64), np.array(table[:obs[O_N_COMBOS]], dtype=np.int64))
    return DecisionRk(view, np.array(options[:n]), int(hint), int(extra))


__all__ = ["DecisionRk", "SeatViewRk", "decision_of_rk", "K_PLACE"]
