"""C-INFO-1 for 5000 Rummy: every strategy decides from its own cards and public information only.

A hand is dealt, then the cards the seat cannot see (the other hands and the stock order) are
reshuffled among themselves, keeping every hand size. The seat's draw, play and discard choices,
with the same random stream, must not change.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.kernels.rum5000 import engine as E
from rummysim.kernels.rum5000.batch import switches5
from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.common.rng import STREAM_DEAL, seed_stream
from rummysim.simulation import prepare
from rummysim.strategies.rum5000 import dispatch as S
from rummysim.strategies.registry import STRATEGIES
from tests.kstate5k import table_for


def dealt_context(name: str, seed: int, game: str = "5000-rummy", players: int = 3):
    cfg = prepare(game, players, name)
    g = E.new_context5(cfg.vector, cfg.lineup, cfg.params, None, None, *switches5(cfg.vector, cfg.lineup))
    E.seed_game5(g, seed, 0)
    seed_stream(g.rng_deal, seed, 0, STREAM_DEAL, 0)
    first = E.start_hand5(g)
    return g, first


def hide_differently(g, seat: int, rng: np.random.Generator, keep_sizes: bool = True) -> None:
    """Reshuffle the other seats' cards and the stock among themselves (sizes kept, or with
    ``keep_sizes=False`` one card moved from one other hand to another: V5K-9 hides the sizes)."""
    st, hands, pack = g.st, g.hands, g.pack
    others = [s for s in range(int(st[L5.S_N])) if s != seat]
    hidden = [c for s in others for c in range(L5.CARD_IDS) for _ in range(int(hands[s, c]))]
    sizes = [int(hands[s].sum()) for s in others]
    if not keep_sizes:
        sizes[0] -= 1
        sizes[1] += 1
    stock = [int(c) for c in pack[int(st[L5.S_STOCK_POS]):]]
    pool = np.array(hidden + stock)
    rng.shuffle(pool)
    pos = 0
    for s, size in zip(others, sizes):
        hands[s, :] = 0
        for c in pool[pos:pos + size]:
            hands[s, c] += 1
        pos += size
    pack[int(st[L5.S_STOCK_POS]):] = pool[pos:]


def decisions(g, seat: int) -> tuple[int, int, int]:
    rng = g.rngs[seat].copy()
    opts = g.opts
    nopt = E.draw_options5(g, seat, True)
    E.observe5(g, seat, -1)
    obs = g.obs
    sid, params = g.lineup[seat], g.params[seat]
    table = table_for(g, seat)
    draw = S.choose5_draw(sid, g.searching, params, obs, g.hands[seat], g.pile, table, opts, nopt, rng, g.work)
    cand = g.cand
    n = E.enumerate_plays5(g.hands[seat].copy(), -1, table, seat, L5.SC_FULL, cand, True)
    play = S.choose5_play(sid, params, obs, cand, n, rng)
    cards = np.array([c for c in range(L5.CARD_IDS) if g.hands[seat, c] > 0], dtype=np.int64)
    discard = S.choose5_discard(sid, g.searching, params, obs, g.hands[seat], g.pile, table, cards, len(cards), rng, g.work)
    return int(draw), int(play), int(discard)


PLAYS_5000 = sorted(n for n, s in STRATEGIES.items() if not s.games or "5000-rummy" in s.games) + [
    "heuristic:discard_5000=1"]


@pytest.mark.parametrize("name", PLAYS_5000)
def test_C_INFO_1_5000_choices_ignore_unseen_cards(name):
    rng = np.random.default_rng(7)
    changed_something = 0
    for seed in range(12):
        g, seat = dealt_context(name, seed)
        before = decisions(g, seat)
        hands_before = g.hands.copy()
        hide_differently(g, seat, rng)
        changed_something += int(not np.array_equal(hands_before, g.hands))
        assert decisions(g, seat) == before, f"seed {seed}: {name} changed its choice when unseen cards moved"
    assert changed_something > 0


@pytest.mark.parametrize("name", PLAYS_5000)
def test_V5K_9_persian_choices_ignore_partner_cards_and_hidden_sizes(name):
    """Persian 5000: the partner's hand is as hidden as the opponents'; and hand sizes are hidden
    too (V5K-9 [INFO]), so moving a card between two other hands changes nothing either."""
    rng = np.random.default_rng(11)
    changed = 0
    for seed in range(8):
        g, seat = dealt_context(name, seed, "persian-5000", 4)
        before = decisions(g, seat)
        E.observe5(g, seat, -1)
        assert g.obs[L5.O_STOCK] == L5.UNKNOWN
        assert all(g.obs[L5.O_HAND_SIZE + s] == L5.UNKNOWN for s in range(4) if s != seat)
        hands_before = g.hands.copy()
        hide_differently(g, seat, rng, keep_sizes=False)
        changed += int(not np.array_equal(hands_before, g.hands))
        assert decisions(g, seat) == before, f"seed {seed}: {name} changed its choice when hidden cards moved"
    assert changed > 0
