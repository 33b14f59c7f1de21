"""``search`` in 5000 Rummy (strategies/rum5000/search.py): its 5000 defaults, C-INFO-1 when it
searches, budget 0 as its base, the play-out model's bookkeeping, and validator games.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.checks import validate_run
from rummysim.comparison import compare
from rummysim.strategies import ids
from rummysim.strategies.registry import canonical_spec, parse_lineup, parse_strategy, preset_values
from tests.test_information_5k import dealt_context, decisions, hide_differently
from tests.test_validation_bulk import assert_clean

# Every draw and discard searched, with and without the paired test
SEARCHING = ("search:late_stock=200:budget=8", "search:late_stock=200:budget=8:confidence=0")


def test_search_base_in_5000_is_the_5000_tuned_heuristic():
    """In 5000 Rummy search's heuristic columns default to heuristic@5000-rummy-3p's point; a
    value the user sets still wins, and 500 Rum keeps the 500 point."""
    _, rows_5k = parse_lineup("search", 3, "5000-rummy")[1:]
    _, tuned = parse_strategy("heuristic@5000-rummy-3p")
    assert np.array_equal(rows_5k[0, : ids.S_BUDGET], tuned[: ids.S_BUDGET])
    assert rows_5k[0, ids.S_BUDGET] == 16
    names, _, rows = parse_lineup("search:min_gain=3", 3, "5000-rummy")
    assert rows[0, ids.H_MIN_GAIN] == 3 and names[0] == "search:min_gain=3"
    assert parse_lineup("search", 2, "5000-rummy")[0][0] == "search"
    _, rows_500 = parse_lineup("search", 2, "500-rum")[1:]
    _, base_500 = parse_strategy("heuristic@500-rum-2p")
    assert np.array_equal(rows_500[0, : ids.S_BUDGET], base_500[: ids.S_BUDGET])
    assert preset_values("heuristic", "5000-rummy-3p")["discard_5000"] == 1
    assert canonical_spec("search:budget=4", "5000-rummy") == "search:budget=4"


def sampled_decisions(spec: str, seed: int, rng: np.random.Generator | None = None) -> tuple[int, int, int]:
    g, seat = dealt_context(spec, seed)
    if rng is not None:
        hide_differently(g, seat, rng)
    return decisions(g, seat)


@pytest.mark.parametrize("spec", SEARCHING)
def test_C_INFO_1_search_5000_decisions_do_not_depend_on_hidden_cards(spec):
    rng = np.random.default_rng(5)
    for seed in range(12):
        assert sampled_decisions(spec, seed) == sampled_decisions(spec, seed, rng), f"seed {seed}"


def test_the_5000_states_are_really_searched():
    """Without the paired test the search moves away from its base on some of these states, so the
    information test above checks searched decisions, not the base's."""
    moved = [sampled_decisions(SEARCHING[1], seed) != sampled_decisions("search:budget=0", seed)
             for seed in range(12)]
    assert any(moved)


def test_budget_0_plays_its_base_exactly_in_5000():
    per_hand = compare("search:budget=0", "heuristic@5000-rummy-3p", game="5000-rummy", players=3, games=12, seed=3,
                       threads=1).summary["per_hand"]
    assert per_hand["diff"] == 0.0 and per_hand["half_width"] == 0.0


@pytest.mark.parametrize("players", (2, 3, 4))
def test_search_5000_games_validate(players):
    lineup = ",".join("search:late_stock=30:budget=4" if s % 2 == 0 else "heuristic" for s in range(players))
    assert_clean(validate_run("5000-rummy", players=players, lineup=lineup, games=6, seed=50 + players))


def world_cards(w, n: int) -> int:
    """Cards in a play-out world: hands, the table's live melds, the pile and the stock not drawn."""
    from rummysim.kernels.rum5000 import layout as L5
    from rummysim.strategies.rum5000 import playout as P
    table = sum(int(w.melds[m, L5.M_LEN]) for m in range(int(w.n_melds[0])) if w.melds[m, L5.M_ALIVE])
    stock = int(w.st[P.W_STOCK_LEN] - w.st[P.W_STOCK_POS])
    return int(w.hands[:n].sum()) + table + int(w.st[P.W_PILE_LEN]) + stock


@pytest.mark.parametrize("seed", range(4))
def test_a_play_out_deals_every_unseen_card_and_keeps_every_card(seed):
    """A dealt world holds the whole pack (the unseen cards fill the other hands by their sizes and
    the stock), and a play-out from either draw loses and makes no card."""
    from rummysim.kernels.rum5000 import engine as E
    from rummysim.kernels.rum5000 import layout as L5
    from rummysim.strategies.rum5000 import search as R
    from tests.kstate5k import table_for

    g, seat = dealt_context("search", seed)
    E.observe5(g, seat, -1)
    obs, tab, w, rng = g.obs, table_for(g, seat), g.work.world, g.rngs[seat].copy()
    n = int(obs[L5.O_N])
    assert obs[L5.O_PILE_LEN] >= 1  # the upcard
    for opt in (L5.D_STOCK, int(obs[L5.O_PILE_LEN]) - 1):
        k = R.sample_unseen5(g.work, g.hands[seat], tab, g.pile, obs, rng)
        R.deal_world(w, tab, g.hands[seat], g.pile, obs[L5.O_PILE_LEN], seat, n, obs, g.work.sample, k,
                     obs[L5.O_STOCK])
        assert world_cards(w, n) == L5.DECK5
        for s in range(n):
            assert w.hands[s].sum() == obs[L5.O_HAND_SIZE + s]
        result = R.draw_outcome(w, opt, seat, n, tab.wild, tab.vals)
        assert world_cards(w, n) == L5.DECK5 and np.isfinite(result)
