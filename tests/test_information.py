"""C-INFO-1: a strategy's decisions depend only on what its seat may know.

Two states that look the same from seat 0 (its hand, the table, the pile, hand sizes, stock
size, scores) but differ in hidden cards (other hands, stock order) must give seat 0 the same
decision at every decision point (draw, play, discard, rummy call), for every registered strategy
with its default parameters and the same random stream. ``rollout`` samples the hidden cards; the
samples must come from the cards it has not seen and only from them.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.turn import discard_options, draw_options, play_candidates
from rummysim.kernels.rum500.view import observe
from rummysim.rules import Rules
from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES, choose_call, choose_discard, choose_draw, choose_play
from rummysim.strategies.rum500.knowledge import sample_unseen
from rummysim.strategies.registry import STRATEGIES
from tests.cardtext import name
from tests.kstate import make_state

DECK = [16 * s + r for s in range(4) for r in range(1, 14)] + [64, 64]
TABLE = ("run", "4S 5S 6S"), ("set", "9C 9D 9H")  # laid by seats 1 and 2 in some twins
RULE_SETS = (
    Rules(), Rules(r500_call_rummy="pile"), Rules(r500_first_meld_min=30, r500_going_out="floating"),
    # partnership play: seat 2 is seat 0's partner, and its hand is as hidden as the opponents'
    Rules.preset("partnership-500"), Rules.preset("partnership-500").with_(r500_partner_layoff="team_only"),
)


def twin_states(seed: int):
    """Two 4-player states, same from seat 0's side, different hidden cards (hands and stock)."""
    rng = random.Random(seed)
    cards = DECK[:]
    table = TABLE if seed % 2 else ()
    for _, text in table:
        for t in text.split():
            cards.remove(16 * "CDHS".index(t[1]) + "A23456789TJQK".index(t[0]) + 1)
    rng.shuffle(cards)
    mine, pile, hidden = cards[:8], cards[8:14], cards[14:]
    rules = RULE_SETS[seed % len(RULE_SETS)]
    states = []
    for variant in range(2):
        other = hidden[:]
        random.Random(seed * 7 + variant).shuffle(other)  # a different hidden world each time
        hands = {0: " ".join(name(c) for c in mine)}
        for s in (1, 2, 3):
            hands[s] = " ".join(name(c) for c in other[(s - 1) * 7 : s * 7])
        stock = " ".join(name(c) for c in other[21:])
        k = make_state(4, hands, pile=" ".join(name(c) for c in pile), stock=stock, rules=rules)
        for owner, (kind, text) in enumerate(table, start=1):
            k.add_meld(owner, kind, text)
        k.st[L.ST_TOTAL : L.ST_TOTAL + 4] = [120, -15, 40, 300]
        states.append(k)
    return states


def decisions(k, strategy: str, params: np.ndarray | None = None) -> list[int]:
    """Seat 0's draw, play, discard and call on state k (``params``: the strategy's defaults unless given)."""
    info = STRATEGIES[strategy]
    sid, params = info.id, (info.default_params() if params is None else params)
    rng = np.zeros(4, dtype=np.uint64)
    rng[0] = 12345
    obs = np.zeros(L.OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    # all a strategy is given: the observation, its own cards, the pile and the table
    view = k.view(obs, mine)
    n = draw_options(k.st, k.hands, k.pile, k.table(0), 0, opts, scratch, k.stack, k.budget)
    out = [int(opts[choose_draw(ALL_STRATEGIES, sid, params, view, opts, n, rng, scratch)])]
    n = play_candidates(k.st, k.hands, k.table(0), 0, L.PLAY_ALL, cand, k.stack, k.budget)
    out.append(int(choose_play(ALL_STRATEGIES, sid, params, view, cand, n, rng, scratch)))
    n = discard_options(k.st, k.hands, k.rules, 0, opts)
    out.append(int(opts[choose_discard(ALL_STRATEGIES, sid, params, view, opts, n, rng, scratch)]))
    n = int(k.st[L.ST_PILE_LEN])  # every pile card as a claim: the test is about information only
    opts[0] = -1
    opts[1 : n + 1] = np.arange(n)
    out.append(int(opts[choose_call(ALL_STRATEGIES, sid, params, view, opts, n + 1, rng, scratch)]))
    return out


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("seed", range(30))
def test_C_INFO_1_hidden_cards_do_not_change_decisions(strategy, seed):
    a, b = twin_states(seed)
    assert not np.array_equal(a.hands[1:4], b.hands[1:4]) or not np.array_equal(a.pack, b.pack)
    assert decisions(a, strategy) == decisions(b, strategy)


def test_C_INFO_1_observation_holds_no_hidden_cards():
    a, b = twin_states(3)
    obs_a, obs_b = np.zeros(L.OB_SIZE, dtype=np.int64), np.zeros(L.OB_SIZE, dtype=np.int64)
    mine_a, mine_b = np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.uint64)
    observe(a.st, a.hands, a.rules, 0, obs_a, mine_a)
    observe(b.st, b.hands, b.rules, 0, obs_b, mine_b)
    assert np.array_equal(obs_a, obs_b) and np.array_equal(mine_a, mine_b)


def hidden_cards(k) -> Counter:
    """The cards the seat cannot see: the other hands and the stock."""
    cards = Counter(k.pack[int(k.st[L.ST_STOCK_POS]) : int(k.st[L.ST_PACK_SIZE])].tolist())
    for s in range(1, int(k.st[L.ST_N])):
        cards.update(k.hand_ids(s))
    return cards


def test_C_INFO_1_rollout_samples_exactly_the_unseen_cards():
    """Every determinization is a permutation of the hidden cards (the other hands and the stock),
    so it never contains a card the seat has seen, and two draws from the stream differ."""
    for seed in range(6):
        k = twin_states(seed)[0]
        obs = np.zeros(L.OB_SIZE, dtype=np.int64)
        mine = np.zeros(2, dtype=np.uint64)
        observe(k.st, k.hands, k.rules, 0, obs, mine)
        rng = np.zeros(4, dtype=np.uint64)
        rng[0] = seed + 1
        out = np.zeros(L.MAX_PACK, dtype=np.int16)
        orders = []
        for _ in range(2):
            n = sample_unseen(k.view(obs, mine), rng, out)
            assert Counter(out[:n].tolist()) == hidden_cards(k)
            assert n == int(obs[L.OB_STOCK]) + sum(int(obs[L.OB_HAND_SIZE + s]) for s in (1, 2, 3))
            orders.append(out[:n].tolist())
        assert orders[0] != orders[1]


def test_C_INFO_1_rollout_samples_two_deck_copies():
    """With two decks a card seen once still has one unseen copy, a card seen twice none."""
    rules = Rules(r500_num_decks=2)
    k = make_state(5, {0: "5H 5H KS X", 1: "2C 3C 4C", 2: "5H", 3: "KS", 4: "AD"},
                   pile="7D KS", stock="9C 9C X", rules=rules)
    obs = np.zeros(L.OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    rng = np.zeros(4, dtype=np.uint64)
    rng[0] = 9
    out = np.zeros(L.MAX_PACK, dtype=np.int16)
    n = sample_unseen(k.view(obs, mine), rng, out)
    sample = Counter(out[:n].tolist())
    assert n == 108 - 4 - 2  # the pack less the seat's four cards and the two pile cards
    assert sample[16 * 2 + 5] == 0  # 5H: both copies in the seat's hand
    assert sample[16 * 3 + 13] == 0  # KS: one in hand, one on the pile
    assert sample[16 * 1 + 7] == 1  # 7D: one copy on the pile
    assert sample[64] == int(k.rules[L.R_JOKERS]) - 1
