"""Greedy's draw in 500 Rum (issue 19 point 1) against the slow path it shortcuts.

``greedy_draw`` plays out the hand before a take only when an option may gain
(``greedy.cannot_gain``); the choice must stay the one made by playing out every option with
``take_gain``. Checked on positions reached by random plays of the other seats, for the default
parameters and for weights and minimum gains where the shortcut must not apply, with the skipped
options counted so that the check is not vacuous.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.melds import enumerate_plays, natural_playable
from rummysim.kernels.rum500.table import apply_play
from rummysim.kernels.rum500.turn import draw_options
from rummysim.kernels.rum500.view import observe
from rummysim.strategies.rum500.greedy import cannot_gain, greedy_draw, playout, take_gain
from rummysim.strategies.ids import GREEDY_DEADWOOD_WEIGHT, GREEDY_MIN_GAIN
from tests.cardtext import JOKER, RANKS, SUITS
from tests.kstate import KState, make_state
from tests.test_strategies import buffers, params_of

POSITIONS = 250
DECK = [f"{r}{s}" for r in RANKS for s in SUITS] + ["X", "X"]


def random_position(rng: np.random.Generator) -> KState:
    """Four seats from one deck: seat 0 short (2-10 cards, as mid-hand), the others 8-14 cards,
    a discard pile of 1-12 cards; seats 1-3 lay some random plays so that seat 0 faces sets and
    runs it may lay off on."""
    order = [DECK[i] for i in rng.permutation(len(DECK))]
    sizes = [int(rng.integers(2, 11))] + [int(rng.integers(8, 15)) for _ in range(3)]
    hands, pos = {}, 0
    for seat, size in enumerate(sizes):
        hands[seat] = " ".join(order[pos : pos + size])
        pos += size
    n_pile = int(rng.integers(1, 13))
    k = make_state(4, hands, pile=" ".join(order[pos : pos + n_pile]), stock=" ".join(order[pos + n_pile :]))
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    for _ in range(int(rng.integers(0, 8))):
        seat = int(rng.integers(1, 4))
        n = enumerate_plays(k.hands[seat, 0], k.st[L.ST_JOKERS + seat], -1, k.table(seat), L.PLAY_ALL, scratch, 0, L.MAX_CAND)
        if n > 0:
            apply_play(k.st, k.hands, k.melds, k.rules, seat, scratch[int(rng.integers(n))], seat, None, L.T_LAYOFF)
    return k


def slow_draw(params: np.ndarray, view, opts: np.ndarray, nopt: int, scratch: np.ndarray) -> int:
    """Greedy's draw with a play-out for every option: the best gain over ``min_gain``, first wins."""
    mine, jok = view.mine[0], view.obs[L.OB_MY_JOKERS]
    base = playout(mine, jok, -1, view.table, scratch)[0]
    top = view.obs[L.OB_PILE_LEN] - 1
    best, best_gain = 0, params[GREEDY_MIN_GAIN]
    for i in range(1, nopt):
        k = int(opts[i])
        gain = take_gain(params, view, k, k < top, scratch) - base
        if gain > best_gain:
            best, best_gain = i, gain
    return best


@pytest.mark.parametrize("overrides", [{}, {"min_gain": -5.0}, {"min_gain": 4.0}, {"deadwood_weight": 0.3},
                                       {"deadwood_weight": -1.0}, {"deadwood_weight": 0.0, "min_gain": -0.5}])
def test_greedy_draw_matches_the_play_out_of_every_option(overrides):
    _, params = params_of("greedy", **overrides)
    rng = np.random.default_rng(19)
    skipped = taken = 0
    for _ in range(POSITIONS):
        k = random_position(rng)
        obs, mine, opts, _, scratch, _ = buffers()
        nopt = draw_options(k.st, k.hands, k.pile, k.table(0), 0, opts, scratch, k.stack, k.budget)
        observe(k.st, k.hands, k.rules, 0, obs, mine)
        view = k.view(obs, mine)
        fast = greedy_draw(params, view, opts, nopt, scratch)
        assert fast == slow_draw(params, view, opts, nopt, scratch)
        taken += fast != 0
        top = int(k.st[L.ST_PILE_LEN]) - 1
        c = int(k.pile[top])
        fits = c == JOKER or natural_playable(c, mine[0] | np.uint64(1 << c), obs[L.OB_MY_JOKERS], k.melds,
                                                 int(k.st[L.ST_N_MELDS]), k.rules[L.R_MAX_POS], k.rules[L.R_MIN_RUN])
        skipped += not fits and cannot_gain(params[GREEDY_DEADWOOD_WEIGHT], params[GREEDY_MIN_GAIN])
    assert taken > 10
    if cannot_gain(params[GREEDY_DEADWOOD_WEIGHT], params[GREEDY_MIN_GAIN]):
        assert skipped > 50
