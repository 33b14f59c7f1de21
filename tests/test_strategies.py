"""Characteristic behaviour of the strategies on hand-built positions.

Cards are written as in tests/cardtext.py ("7H", "TD", "X" for a joker). Positions are 2-player
500 Rum unless a test says otherwise; the seat deciding is seat 0.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.turn import discard_options, draw_options, play_candidates
from rummysim.kernels.rum500.view import observe
from rummysim.rules import Rules
from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES, choose_discard, choose_draw, choose_play
from rummysim.strategies.rum500.heuristic import later_chance, outlook_of
from rummysim.strategies.rum500.knowledge import sample_unseen, unseen_count, unseen_planes
from rummysim.strategies.rum500.playout import W_N_MELDS, W_PILE_LEN, W_STOCK_LEN, W_STOCK_POS, deal_world, new_world, play_rest
from rummysim.strategies.registry import STRATEGIES
from rummysim.strategies.rum500.rollout import draw_outcome
from tests.cardtext import cid, mask, name
from tests.kstate import make_state
from tests.test_information import twin_states

FULL_DECK = [name(16 * s + r) for s in range(4) for r in range(1, 14)] + ["X", "X"]


def position(mine: str, pile: str, opp: int, stock: int, rules: Rules | None = None, table=()):
    """A 2-player position: seat 0 holds ``mine``; the pile (bottom first) and the table are given;
    the opponent gets ``opp`` and the stock ``stock`` of the remaining cards (in deck order)."""
    used = mine.split() + pile.split() + [c for _, _, cards in table for c in cards.split()]
    rest = FULL_DECK[:]
    for c in used:
        rest.remove(c)
    assert opp + stock <= len(rest)
    k = make_state(2, {0: mine, 1: " ".join(rest[:opp])}, pile=pile, stock=" ".join(rest[opp:opp + stock]), rules=rules)
    for owner, kind, cards in table:
        k.add_meld(owner, kind, cards)
    return k


def buffers():
    rng = np.zeros(4, dtype=np.uint64)
    rng[0] = 4242
    return (np.zeros(L.OB_SIZE, dtype=np.int64), np.zeros(2, dtype=np.uint64), np.zeros(L.MAX_PACK + 2, dtype=np.int64),
            np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64), np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64), rng)


def params_of(strategy: str, **overrides: float) -> tuple[int, np.ndarray]:
    info = STRATEGIES[strategy]
    row = info.default_params()
    names = [p.name for p in info.params]
    for key, value in overrides.items():
        row[names.index(key)] = value
    return info.id, row


def draw_choice(k, strategy: str, **overrides: float) -> int:
    """The draw option taken: DRAW_STOCK (-1), DRAW_NONE (-2) or the pile index taken from."""
    sid, row = params_of(strategy, **overrides)
    obs, mine, opts, cand, scratch, rng = buffers()
    n = draw_options(k.st, k.hands, k.pile, k.table(), 0, opts, scratch, k.stack, k.budget)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    return int(opts[choose_draw(ALL_STRATEGIES, sid, row, k.view(obs, mine), opts, n, rng, scratch)])


def play_choice(k, strategy: str) -> str:
    """"stop" or the cards of the play chosen."""
    sid, row = params_of(strategy)
    obs, mine, opts, cand, scratch, rng = buffers()
    n = play_candidates(k.st, k.hands, k.table(), 0, L.PLAY_ALL, cand, k.stack, k.budget)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    i = choose_play(ALL_STRATEGIES, sid, row, k.view(obs, mine), cand, n, rng, scratch)
    if cand[i, L.A_TYPE] == L.ACT_STOP:
        return "stop"
    m = int(cand[i, L.A_MASK])
    return " ".join(name(c) for c in range(64) if m >> c & 1)


def discard_choice(k, strategy: str) -> str:
    sid, row = params_of(strategy)
    obs, mine, opts, cand, scratch, rng = buffers()
    n = discard_options(k.st, k.hands, k.rules, 0, opts)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    return name(int(opts[choose_discard(ALL_STRATEGIES, sid, row, k.view(obs, mine), opts, n, rng, scratch)]))


# ----------------------------------------------------------------------------- cautious


HOLDING = "7C 7D 7H 2S 9D 4H QC"  # a set of sevens and four loose cards


def test_cautious_holds_melds_early_where_greedy_lays_them():
    k = position(HOLDING, "5S", opp=13, stock=26)
    assert play_choice(k, "greedy") == "7C 7D 7H"
    assert play_choice(k, "cautious") == "stop"  # C-MELD-6: kept in hand


def test_cautious_lays_melds_when_the_stock_runs_low():
    k = position(HOLDING, "5S", opp=13, stock=14)  # risk_stock = 14
    assert play_choice(k, "cautious") == "7C 7D 7H"


def test_cautious_lays_melds_when_an_opponent_is_close_to_going_out():
    k = position(HOLDING, "5S", opp=4, stock=26)  # risk_opp_cards = 4
    assert play_choice(k, "cautious") == "7C 7D 7H"
    assert play_choice(position(HOLDING, "5S", opp=5, stock=26), "cautious") == "stop"


def test_cautious_lays_melds_to_go_out():
    k = position("7C 7D 7S 8H 9H TH 2S", "5S", opp=13, stock=26)  # both melds down leave one card to discard
    assert play_choice(k, "cautious") != "stop"


def test_cautious_avoids_a_discard_that_feeds_a_lay_off():
    table = ((1, "run", "6H 7H 8H"),)
    k = position("9H 3C 5D 2S", "KS", opp=13, stock=20, table=table)
    assert discard_choice(k, "greedy") == "9H"  # highest value, no partners
    assert discard_choice(k, "cautious") == "5D"  # 9H could be laid off on 6H-7H-8H


def test_cautious_avoids_a_discard_that_opens_a_rummy_call():
    """V500-RUMMY pile: KD on top of JD QD would give the others a claim on J-Q-K."""
    calls = Rules(r500_call_rummy="pile")
    assert discard_choice(position("KD 4C 2S 6H", "JD QD", opp=13, stock=20, rules=calls), "cautious") == "6H"
    assert discard_choice(position("KD 4C 2S 6H", "JD QD", opp=13, stock=20), "cautious") == "KD"  # no calls


# ----------------------------------------------------------------------------- digger


def test_later_chance_is_the_chance_of_drawing_an_out():
    """7H with 7C held: outs 7D and 7S (and the jokers); with 8H held as well: 6H and 9H too."""
    k = position("7H 7C 2S", "KD", opp=13, stock=20)
    obs, mine, *_ = buffers()
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    unseen0, unseen1, jokers = unseen_planes(k.view(obs, mine))
    n = unseen_count(unseen0, unseen1, jokers)
    assert n == 54 - 4 and jokers == 2
    look = outlook_of(unseen0, unseen1, jokers, 5.0, k.melds, 0)
    p = later_chance(cid("7H"), mask("7H 7C 2S"), k.melds, 0, k.rules, look)
    assert p == pytest.approx(1 - (1 - 4 / n) ** 5)
    p = later_chance(cid("7H"), mask("7H 7C 8H 2S"), k.melds, 0, k.rules, look)
    assert p == pytest.approx(1 - (1 - 6 / n) ** 5)
    assert later_chance(cid("2S"), mask("7H 7C 2S"), k.melds, 0, k.rules, look) == 0.0


def test_digger_refuses_a_deep_take_whose_net_value_is_negative():
    """3H melds with 4H 5H for 12 points but brings 46 points of cards with no outs."""
    for opp, stock in ((13, 20), (2, 2)):
        k = position("4H 5H 2C 6D 8C", "3H KC QD JS TC 9D", opp=opp, stock=stock)
        assert draw_choice(k, "digger") == L.DRAW_STOCK
        assert draw_choice(k, "greedy") == L.DRAW_STOCK


PAIRS_TAKE = ("7H 8H 2C 5D 4C", "9H KC KD JS JD 6S 6C 3S 3D TC TS")  # 9H melds; five pairs come with it


def test_digger_takes_a_deep_pile_of_pairs_early_where_greedy_does_not():
    k = position(*PAIRS_TAKE, opp=13, stock=20)
    assert draw_choice(k, "digger") == 0
    assert draw_choice(k, "greedy") == L.DRAW_STOCK  # 24 points now against 78 points taken


def test_digger_refuses_the_same_take_when_the_hand_is_about_to_end():
    k = position(*PAIRS_TAKE, opp=2, stock=2)  # little time to meld the pairs
    assert draw_choice(k, "digger") == L.DRAW_STOCK


def test_heuristic_max_take_limits_the_depth():
    k = position(*PAIRS_TAKE, opp=13, stock=20)
    assert draw_choice(k, "heuristic") == 0
    assert draw_choice(k, "heuristic", max_take=4) == L.DRAW_STOCK


# ----------------------------------------------------------------------------- rollout


def test_rollout_takes_a_deep_card_that_makes_a_big_meld():
    k = position("AH AD 5C 9S 2D 6H", "AC 7D 3S", opp=13, stock=20)
    assert draw_choice(k, "rollout") == 0  # three aces (45 points) for two small cards


def test_rollout_goes_out_with_a_deep_take():
    k = position("4H 5H 9C 9D", "6H 9S", opp=13, stock=20)  # 4H-5H-6H and three nines: out
    assert draw_choice(k, "rollout") == 0


@pytest.mark.parametrize("pile", ["3H KC QD JS TC 9D", "KC QD", "AC 7D 3S"])
def test_rollout_picks_the_option_with_the_best_mean_playout(pile):
    """The search is what it says: K determinizations from the seat's stream, every kept option
    played out on each, the best mean chosen (recomputed here step by step)."""
    k = position("4H 5H 2C 6D 8C AH AD", pile, opp=13, stock=20)
    sid, row = params_of("rollout")
    obs, mine, opts, cand, scratch, rng = buffers()
    n = draw_options(k.st, k.hands, k.pile, k.table(), 0, opts, scratch, k.stack, k.budget)
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    replay_rng = rng.copy()
    chosen = int(opts[choose_draw(ALL_STRATEGIES, sid, row, k.view(obs, mine), opts, n, rng, scratch)])
    assert n <= int(row[1])  # every option is kept (max_candidates = 4)
    totals = np.zeros(n)
    sample = np.zeros(L.MAX_PACK, dtype=np.int16)
    w = new_world()
    for _ in range(int(row[0])):
        ns = sample_unseen(k.view(obs, mine), replay_rng, sample)
        for j in range(n):
            deal_world(w, obs, mine, k.pile, k.melds, sample, ns)
            totals[j] += draw_outcome(w, k.view(obs, mine), int(opts[j]), scratch)
    assert totals.max() > totals.min()  # the options differ
    assert chosen == int(opts[int(np.argmax(totals))])


def table_cards(wmelds, n: int) -> int:
    return int(wmelds[:n, L.MK_LEN].sum())


@pytest.mark.parametrize("seed", range(12))
def test_rollout_playout_keeps_every_card_and_ends(seed):
    """The fast model conserves cards (hands + stock + pile + table) and ends the hand."""
    k = twin_states(seed)[0]
    obs, mine, opts, cand, scratch, rng = buffers()
    rng[0] = seed + 1
    observe(k.st, k.hands, k.rules, 0, obs, mine)
    sample = np.zeros(L.MAX_PACK, dtype=np.int16)
    n = sample_unseen(k.view(obs, mine), rng, sample)
    w = new_world()
    deal_world(w, obs, mine, k.pile, k.melds, sample, n)
    hands, jok, pts, stock, pile, wmelds, ints = w

    def count() -> int:
        in_hands = sum(bin(int(hands[s, 0])).count("1") + bin(int(hands[s, 1])).count("1") + int(jok[s]) for s in range(4))
        return in_hands + int(ints[W_STOCK_LEN] - ints[W_STOCK_POS]) + int(ints[W_PILE_LEN]) + table_cards(wmelds, int(ints[W_N_MELDS]))

    before = count()
    assert before == 54
    reason, out_seat = play_rest(w, 1, 4, k.rules, k.vals, k.ace_low, scratch)
    assert count() == before
    assert reason in (L.END_OUT, L.END_STOCK)
    if reason == L.END_OUT:
        assert hands[out_seat, 0] == 0 and jok[out_seat] == 0
