"""C-INFO-1: a strategy's decisions depend only on what its seat may know.

Two states that look the same from seat 0 (its hand, the table, the pile, hand sizes, stock
size, scores) but differ in hidden cards (other hands, stock order) must give seat 0 the same
decision at every decision point, for every strategy, with the same random stream.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kernels import layout as L
from kernels.engine import discard_options, draw_options, observe, play_candidates
from strategies.dispatch import choose_discard, choose_draw, choose_play
from strategies.registry import STRATEGIES
from tests.cardtext import name
from tests.kstate import make_state

DECK = [16 * s + r for s in range(4) for r in range(1, 14)] + [64, 64]


def twin_states(seed: int):
    rng = random.Random(seed)
    cards = DECK[:]
    rng.shuffle(cards)
    mine, pile, hidden = cards[:8], cards[8:14], cards[14:]
    states = []
    for variant in range(2):
        other = hidden[:]
        random.Random(seed * 7 + variant).shuffle(other)  # a different hidden world each time
        hands = {0: " ".join(name(c) for c in mine)}
        for s in (1, 2, 3):
            hands[s] = " ".join(name(c) for c in other[(s - 1) * 7 : s * 7])
        stock = " ".join(name(c) for c in other[21:])
        k = make_state(4, hands, pile=" ".join(name(c) for c in pile), stock=stock)
        k.st[L.ST_TOTAL : L.ST_TOTAL + 4] = [120, -15, 40, 300]
        states.append(k)
    return states


def decisions(k, sid: int) -> list[int]:
    params = STRATEGIES["greedy"].default_params() if sid == 1 else np.zeros(L.N_PARAMS)
    rng = np.zeros(4, dtype=np.uint64)
    rng[0] = 12345
    obs = np.zeros(L.OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = draw_options(k.st, k.hands, k.pile, k.melds, k.rules, k.vals, k.ace_low, 0, opts, scratch, k.stack, k.budget)
    observe(k.st, k.hands, 0, obs, mine)
    out = [int(opts[choose_draw(sid, params, obs, mine, k.pile, k.melds, k.rules, k.vals, k.ace_low, opts, n, rng, scratch)])]
    n = play_candidates(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, 0, L.PLAY_ALL, cand, k.stack, k.budget)
    out.append(int(choose_play(sid, params, obs, mine, k.pile, k.melds, k.rules, k.vals, k.ace_low, cand, n, rng, scratch)))
    n = discard_options(k.st, k.hands, k.rules, 0, opts)
    out.append(int(opts[choose_discard(sid, params, obs, mine, k.pile, k.melds, k.rules, k.vals, k.ace_low, opts, n, rng, scratch)]))
    return out


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("seed", range(30))
def test_C_INFO_1_hidden_cards_do_not_change_decisions(strategy, seed):
    a, b = twin_states(seed)
    assert not np.array_equal(a.hands[1:4], b.hands[1:4]) or not np.array_equal(a.pack, b.pack)
    sid = STRATEGIES[strategy].id
    assert decisions(a, sid) == decisions(b, sid)


def test_C_INFO_1_observation_holds_no_hidden_cards():
    a, b = twin_states(3)
    obs_a, obs_b = np.zeros(L.OB_SIZE, dtype=np.int64), np.zeros(L.OB_SIZE, dtype=np.int64)
    mine_a, mine_b = np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.uint64)
    observe(a.st, a.hands, 0, obs_a, mine_a)
    observe(b.st, b.hands, 0, obs_b, mine_b)
    assert np.array_equal(obs_a, obs_b) and np.array_equal(mine_a, mine_b)
