"""The legal moves of one step-API decision: the engine's own option list, with readable names.

An action is an index into the options the engine listed for the decision (draw options, play
candidates, discardable cards, call options, gambit effects, split points), in the engine's order,
which is deterministic for a position; ``Decision.options`` keeps the engine's raw values (card
ids, pile indexes, candidate rows ``A_*``) beside the names, and ``Decision.ids()`` each move's
stable id (``stepenv.action_ids``), the same for the same move in every position.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummysim.kernels.rum500.layout import (
    A_LEN, A_LO, A_MASK, A_MELD, A_NJOK, A_TYPE, ACT_BLOCK, ACT_LAYOFF, ACT_MELD_RUN, ACT_MELD_SET, ACT_STOP,
    DRAW_NONE, DRAW_STOCK, EFFECT_WILD, MAX_CAND, N_EFFECTS, OB_SEAT,
)
from rummysim.strategies.rum500.external import K_CALL, K_DISCARD, K_DRAW, K_NOMINATE, K_PLAY, K_SPLIT, KIND_NAMES
from rummysim.validate.cards import JOKER, card_name

from rummysim.stepenv.action_ids import action_id
from rummysim.stepenv.moves import Moves
from rummysim.stepenv.observation import SeatView, seat_view

MAX_ACTIONS = MAX_CAND  # the longest option list: the play candidates
EFFECT_NAMES = {EFFECT_WILD: "wild", EFFECT_WILD + 1: "double", EFFECT_WILD + 2: "split"}


@dataclass(frozen=True)
class Decision(Moves):
    """One decision the 500 Rum engine asks of an external seat."""

    max_actions = MAX_ACTIONS
    kind_names = dict(enumerate(KIND_NAMES))
    id_of = staticmethod(action_id)

    def cards(self, index: int) -> list[int]:
        """The card ids a play option puts down (the joker as 64, once per joker); [] for STOP and
        for the other kinds of decision."""
        if self.view.kind != K_PLAY:
            return []
        row = self.options[index]
        mask = int(row[A_MASK])
        return [c for c in range(64) if (mask >> c) & 1] + [JOKER] * int(row[A_NJOK])

    def names(self) -> list[str]:
        return [action_name(self.view, self.view.kind, i, option, self.extra) for i, option in enumerate(self.options)]


def decision_of(kind, obs, mine, pile, melds, options, n, hint, extra) -> Decision:
    """The ``Decision`` an external ask of the kernels describes (its arguments are those of
    ``strategies.rum500.external``'s handlers), copied out of the engine's buffers."""
    view = seat_view(int(obs[OB_SEAT]), kind, obs, mine, pile, melds)
    listed = EFFECT_WILD + np.arange(N_EFFECTS) if kind == K_NOMINATE else np.array(options[:n])
    return Decision(view, listed, int(hint), int(extra))


def _cards_of_mask(mask: int, jokers: int) -> str:
    cards = [card_name(c) for c in range(64) if (mask >> c) & 1]
    return " ".join(cards + ["X"] * jokers)


def play_name(row: np.ndarray) -> str:
    kind = int(row[A_TYPE])
    cards = _cards_of_mask(int(row[A_MASK]), int(row[A_NJOK]))
    if kind == ACT_STOP:
        return "stop"
    if kind == ACT_MELD_SET:
        return f"meld set {cards}"
    if kind == ACT_MELD_RUN:
        return f"meld run {cards} (positions {int(row[A_LO])}..{int(row[A_LO]) + int(row[A_LEN]) - 1})"
    if kind == ACT_LAYOFF:
        return f"lay off {cards} on meld {int(row[A_MELD])}"
    if kind == ACT_BLOCK:
        return "block the dealer's joker"
    return f"play type {kind}"


def _pile_take_name(view: SeatView, k: int) -> str:
    return f"take the pile from {card_name(int(view.pile[k]))} (index {k}, {len(view.pile) - k} cards)"


def action_name(view: SeatView, kind: int, index: int, option, extra: int) -> str:
    """A readable name for option ``index`` of a decision of kind ``kind`` (a call's and a split's
    first option is to decline)."""
    if kind == K_PLAY:
        return play_name(option)
    value = int(option)
    if kind == K_DRAW:
        if value == DRAW_STOCK:
            return "draw from the stock"
        if value == DRAW_NONE:
            return "decline (empty stock)"
        return _pile_take_name(view, value)
    if kind == K_DISCARD:
        return f"discard {'X' if value == JOKER else card_name(value)}"
    if kind == K_CALL:
        return "pass" if index == 0 else f"call rummy: {_pile_take_name(view, value)}"
    if kind == K_NOMINATE:
        return f"nominate {EFFECT_NAMES.get(value, value)}"
    if kind == K_SPLIT:
        return "no split" if index == 0 else f"split the take from index {extra} at {value}"
    return f"option {value}"

