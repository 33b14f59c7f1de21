"""The heuristic family's fast paths (issue 19 point 3) against the computations they replaced, on
random tables and hands: the lay-off test by bit tests against the enumeration, ``card_outs``
reading the table only at the ``run_ends`` against the old loop over every meld (and only for the
``linked_cards``), and the stock
draw's test of every drawn card at once (``playable_cards``), the discard's test of a held card
(``may_be_held``) and a play-out's next play (``best_play``) against the enumeration."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.melds import best_play, bit_tests_exact, enumerate_plays, layoff_targets
from rummysim.rules import Rules
from rummysim.strategies.rum500.heuristic import (
    card_outs, layoff_fits, linked_cards, may_be_held, playable_cards, run_ends,
)
from tests.cardtext import JOKER, name
from tests.kstate import make_state

RULES = {
    "ace high": Rules(),
    "ace low (Standard Rummy's 13 positions)": None,  # set below from the 500 rules: max_pos 13
    "round the corner": Rules(r500_round_the_corner=True),
    "partnership, team_only": Rules(r500_partnership=True, r500_partner_layoff="team_only"),
    "four-card runs": Rules(r500_min_new_run=4),
}


def card(suit: int, pos: int) -> int:
    return 16 * suit + (pos - 1) % 13 + 1


def random_table(rng: random.Random, rules: Rules, max_pos: int):
    """A position with up to 8 random sets and runs (some with a joker) on the table; cards may
    repeat across melds, which these structural tests do not mind."""
    k = make_state(4, {}, rules=rules)
    k.set_rule(L.R_MAX_POS, max_pos)
    for _ in range(rng.randint(0, 8)):
        owner = rng.randrange(4)
        if rng.random() < 0.4:
            rank = rng.randint(1, 13)
            suits = rng.sample(range(4), rng.choice((3, 3, 4)))
            cards = [card(s, rank) for s in suits]
            if rng.random() < 0.3:
                cards[rng.randrange(len(cards))] = JOKER
            if all(c == JOKER for c in cards):
                continue
            k.add_meld(owner, "set", " ".join(name(c) for c in cards))
            if JOKER in cards:  # the joker stands for one of the drawn suits
                k.melds[int(k.st[L.ST_N_MELDS]) - 1, L.MK_SUITS] |= 1 << suits[cards.index(JOKER)]
        else:
            suit = rng.randrange(4)
            length = rng.randint(3, 7)
            lo = rng.randint(1, min(max_pos, 26) - length + 1)
            cards = [card(suit, p) for p in range(lo, lo + length)]
            if rng.random() < 0.3:
                cards[rng.randrange(1, length)] = JOKER
            k.add_meld(owner, "run", " ".join(name(c) for c in cards), lo=lo)
    return k


def old_card_outs(c, hand, melds, n_melds, max_pos):
    """``card_outs`` as it was before issue 19: the other suits one by one, every meld read."""
    def add(outs, suit, pos):
        return outs | (1 << card(suit, pos)) if 1 <= pos <= max_pos else outs

    def held(x):
        return (hand >> x) & 1 == 1

    suit, rank = c >> 4, c & 15
    outs, structure, same_rank, missing = 0, False, 0, 0
    for s in range(4):
        if s != suit:
            if held(16 * s + rank):
                same_rank += 1
            else:
                missing |= 1 << (16 * s + rank)
    if same_rank >= 1:
        outs |= missing
        structure = True
    lane = (hand >> (16 * suit)) & 0x3FFE
    lane |= lane << 13
    for p in (rank, 14):
        if p == 14 and not (rank == 1 and max_pos >= 14):
            break
        for d, ends in ((1, (-1, 2)), (-1, (-2, 1)), (2, (1,)), (-2, (-1,))):
            if 1 <= p + d <= max_pos and (lane >> (p + d)) & 1:
                for e in ends:
                    outs = add(outs, suit, p + e)
                structure = True
        for m in range(n_melds):
            if melds[m, L.MK_KIND] != L.KIND_RUN or melds[m, L.MK_KEY] != suit:
                continue
            lo = int(melds[m, L.MK_LO])
            hi = lo + int(melds[m, L.MK_LEN]) - 1
            if hi == p - 2:
                outs = add(outs, suit, p - 1)
            elif lo == p + 2:
                outs = add(outs, suit, p + 1)
    return outs & ~(1 << c), structure


def case_rules(label: str) -> tuple[Rules, int]:
    rules = RULES[label] or Rules()
    max_pos = 13 if RULES[label] is None else (26 if rules.r500_round_the_corner else 14)
    return rules, max_pos


@pytest.mark.parametrize("label", list(RULES))
def test_layoff_fits_is_the_enumerations_single_card_layoff(label):
    rules, max_pos = case_rules(label)
    rng = random.Random(19)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    checked = fits = 0
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        for seat in (-1, 0, 1):
            table = k.table(seat)
            targets, _ = layoff_targets(table.melds, table.n_melds, max_pos)
            for s in range(4):
                for r in range(1, 14):
                    c = 16 * s + r
                    want = enumerate_plays(np.uint64(1 << c), 0, c, table, L.PLAY_LAYOFF_ONLY, scratch, 0, 1) > 0
                    assert layoff_fits(c, table, scratch, targets) == want, (label, seat, name(c))
                    checked += 1
                    fits += want
    assert fits > checked // 20  # the tables leave cards that fit and cards that do not


@pytest.mark.parametrize("label", list(RULES))
def test_card_outs_reads_the_table_where_the_old_loop_found_outs(label):
    rules, max_pos = case_rules(label)
    rng = random.Random(20)
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        n_melds = int(k.st[L.ST_N_MELDS])
        ends = run_ends(k.melds, n_melds)
        naturals = [16 * s + r for s in range(4) for r in range(1, 14)]
        hand = sum(1 << c for c in rng.sample(naturals, rng.randint(1, 14)))
        for c in naturals:
            with_c = hand | (1 << c)
            outs, structure = card_outs(c, np.uint64(with_c), k.melds, n_melds, k.rules, ends)
            assert (int(outs), bool(structure)) == old_card_outs(c, with_c, k.melds, n_melds, max_pos), (label, name(c))


@pytest.mark.parametrize("label", list(RULES))
def test_cards_with_outs_are_linked(label):
    rules, max_pos = case_rules(label)
    rng = random.Random(23)
    naturals = [16 * s + r for s in range(4) for r in range(1, 14)]
    left_out = 0
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        n_melds = int(k.st[L.ST_N_MELDS])
        ends = run_ends(k.melds, n_melds)
        hand = np.uint64(sum(1 << c for c in rng.sample(naturals, rng.randint(1, 14))))
        linked = int(linked_cards(hand, max_pos, ends))
        left_out += sum(1 for c in naturals if not (linked >> c) & 1)
        for c in naturals:
            for with_c in (hand, hand | np.uint64(1 << c)):  # held, or drawn into the hand
                outs, structure = card_outs(c, with_c, k.melds, n_melds, k.rules, ends)
                if outs or structure:
                    assert (linked >> c) & 1, (label, name(c))
    assert left_out > 300 * len(naturals) // 5  # the shortcut applies often


@pytest.mark.parametrize("label", ["ace high", "ace low (Standard Rummy's 13 positions)", "four-card runs"])
def test_playable_cards_are_the_enumerations_plays_with_the_card(label):
    rules, max_pos = case_rules(label)
    rng = random.Random(21)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    naturals = [16 * s + r for s in range(4) for r in range(1, 14)]
    checked = found = 0
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        table = k.table(-1)
        hand = np.uint64(sum(1 << c for c in rng.sample(naturals, rng.randint(0, 12))))
        jok = rng.choice((0, 0, 0, 1, 1, 2))
        exact = bit_tests_exact(max_pos, table.team, int(table.rules[L.R_PARTNERSHIP]), table.gambit)
        assert exact  # elsewhere the callers ask card_playable
        playable = int(playable_cards(hand, jok, table.melds, table.n_melds, max_pos, int(table.rules[L.R_MIN_RUN])))
        for c in naturals:
            with_c = hand | np.uint64(1 << c)
            want = enumerate_plays(with_c, jok, c, table, L.PLAY_ALL, scratch, 0, 1) > 0
            assert (playable >> c) & 1 == want, (label, name(c))
            checked += 1
            found += want
    assert checked // 10 < found < checked - checked // 10  # both answers are common


@pytest.mark.parametrize("label", list(RULES))
def test_may_be_held_is_every_held_card_the_enumeration_plays(label):
    rules, max_pos = case_rules(label)
    rng = random.Random(22)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    naturals = [16 * s + r for s in range(4) for r in range(1, 14)]
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        table = k.table(-1)
        hand = np.uint64(sum(1 << c for c in rng.sample(naturals, rng.randint(1, 12))))
        jok = rng.choice((0, 0, 0, 1, 1, 2))
        exact = bit_tests_exact(max_pos, table.team, int(table.rules[L.R_PARTNERSHIP]), table.gambit)
        for c in naturals:
            if not (int(hand) >> c) & 1:
                continue
            fits = enumerate_plays(hand, jok, c, table, L.PLAY_ALL, scratch, 0, 1) > 0
            assert may_be_held(c, hand, jok, table) == (fits or not exact), (label, name(c))


@pytest.mark.parametrize("label", [*RULES, "Persian rummy"])
def test_best_play_is_the_listings_first_play_of_the_highest_value(label):
    """``best_play`` against ``enumerate_plays`` and the first row of the highest value (greedy's
    ``best_by_value``): the same row and the same count, with and without a must-card; the lay-off
    shortcut from ``layoff_targets`` included, and Persian rummy's listing."""
    if label == "Persian rummy":
        rules, max_pos = Rules(r500_persian=True, r500_partnership=True), 14
    else:
        rules, max_pos = case_rules(label)
    rng = random.Random(24)
    listing = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    best = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    naturals = [16 * s + r for s in range(4) for r in range(1, 14)]
    found = 0
    for _ in range(300):
        k = random_table(rng, rules, max_pos)
        hand = np.uint64(sum(1 << c for c in rng.sample(naturals, rng.randint(1, 14))))
        jok = rng.choice((0, 0, 0, 1, 1, 2))
        held = [c for c in naturals if (int(hand) >> c) & 1] + ([JOKER] if jok else [])
        for seat in (-1, 0, 1):
            table = k.table(seat)
            targets, joker_ok = layoff_targets(table.melds, table.n_melds, max_pos)
            for must in (-1, rng.choice(held)):
                n = enumerate_plays(hand, jok, must, table, L.PLAY_ALL, listing, 0, L.MAX_CAND)
                assert best_play(hand, jok, must, table, best, targets, joker_ok) == n, (label, seat, must)
                if n:
                    first = max(range(n), key=lambda i: (listing[i, L.A_VALUE], -i))
                    assert list(best[0]) == list(listing[first]), (label, seat, must)
                    found += 1
    assert found > 300  # plays are common
