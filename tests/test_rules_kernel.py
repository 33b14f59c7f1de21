"""Hand-built scenarios for the 500 Rum base rules (RULES.md §10), run on the kernel functions.

Each test is named after the rule IDs it pins down. Cards are written as in RULES.md ("4H", "TD",
"X" for a joker); pile lists run bottom to top.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.duties import reset_turn
from rummysim.kernels.rum500.scoring import game_winner, score_hand
from rummysim.kernels.rum500.table import apply_play
from rummysim.kernels.rum500.turn import apply_discard, discard_options, draw_from_stock, draw_options, play_candidates, take_from_pile
from rummysim.rules import Rules
from tests.cardtext import cid, ids, jokers, mask
from tests.kstate import KState, make_state


def legal_draws(k: KState, seat: int = 0) -> list[int]:
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = draw_options(k.st, k.hands, k.pile, k.table(), seat, opts, scratch, k.stack, k.budget)
    return list(opts[:n])


def draw(k: KState, opt: int, seat: int = 0) -> bool:
    if opt == L.DRAW_NONE:
        return False
    reset_turn(k.st)
    if opt == L.DRAW_STOCK:
        draw_from_stock(k.st, k.hands, k.pack, k.rules, seat, k.trace)
    else:
        take_from_pile(k.st, k.hands, k.pile, k.rules, seat, opt, False, False, k.trace)
    return True


def candidates(k: KState, seat: int = 0) -> np.ndarray:
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = play_candidates(k.st, k.hands, k.table(), seat, L.PLAY_ALL, cand, k.stack, k.budget)
    return cand[:n].copy()


def find(k: KState, cards: str, typ: int | None = None, meld: int | None = None, seat: int = 0):
    """The candidate putting down exactly these cards (and jokers), or None."""
    want_mask = np.int64(mask(cards))
    for row in candidates(k, seat):
        if row[L.A_TYPE] == L.ACT_STOP:
            continue
        if row[L.A_MASK] == want_mask and row[L.A_NJOK] == jokers(cards):
            if (typ is None or row[L.A_TYPE] == typ) and (meld is None or row[L.A_MELD] == meld):
                return row
    return None


def play(k: KState, cards: str, typ: int | None = None, meld: int | None = None, seat: int = 0) -> None:
    row = find(k, cards, typ, meld, seat)
    assert row is not None, f"{cards} is not offered"
    apply_play(k.st, k.hands, k.melds, k.rules, seat, row, seat, k.trace, L.T_LAYOFF)


def discards(k: KState, seat: int = 0) -> list[int]:
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    n = discard_options(k.st, k.hands, k.rules, seat, opts)
    return list(opts[:n])


def t01_state() -> KState:
    return make_state(3, {0: "2C 4H 5S 8D JC KH KS"}, pile="6C 4D QS 4S AH 7D", stock="3D 9H")


def test_R500_DRAW_3_deep_take_T01():
    k = t01_state()
    assert 1 in legal_draws(k)
    draw(k, 1)
    assert k.hand_ids(0) == sorted(ids("2C 4H 5S 8D JC KH KS 4D QS 4S AH 7D"))
    # C-TURN-4: until 4D is melded there is no STOP, and every action contains 4D
    rows = candidates(k)
    assert len(rows) and all(r[L.A_TYPE] != L.ACT_STOP for r in rows)
    assert all(np.uint64(r[L.A_MASK]) >> np.uint64(cid("4D")) & np.uint64(1) for r in rows)
    play(k, "4H 4D 4S", L.ACT_MELD_SET)
    assert k.hand_ids(0) == sorted(ids("2C 5S 7D 8D JC QS KH KS AH"))  # 2-5-7-8-J-Q-K-K-A as in [002]
    assert cid("2C") in discards(k)
    apply_discard(k.st, k.hands, k.pile, 0, cid("2C"), k.trace)
    assert list(k.pile[: k.st[L.ST_PILE_LEN]]) == ids("6C 2C")
    assert k.hand_ids(0) == sorted(ids("5S 7D 8D JC QS KH KS AH"))
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, k.trace)
    hand_value = 5 + 7 + 8 + 10 + 10 + 10 + 10 + 15
    assert k.st[L.ST_HAND_SCORE] == 12 - hand_value  # credited 12 for 4H 4D 4S


def test_R500_VALUES_deep_take_credit_under_5_10_15_T01():
    k = make_state(3, {0: "2C 4H 5S 8D JC KH KS"}, pile="6C 4D QS 4S AH 7D", stock="3D",
                   rules=Rules().with_(r500_card_values="5_10_15"))
    draw(k, 1)
    row = find(k, "4H 4D 4S", L.ACT_MELD_SET)
    assert row[L.A_VALUE] == 15


def test_R500_DRAW_2_R500_DISC_2_top_card_alone_T02():
    k = t01_state()
    assert 5 in legal_draws(k)
    draw(k, 5)
    assert any(r[L.A_TYPE] == L.ACT_STOP for r in candidates(k))  # 7D may stay unmelded
    opts = discards(k)
    assert cid("7D") not in opts and cid("2C") in opts


def test_V500_TOPMUST_top_card_must_be_playable_T02():
    k = make_state(3, {0: "2C 4H 5S 8D JC KH KS"}, pile="6C 4D QS 4S AH 7D", stock="3D",
                   rules=Rules().with_(r500_top_card_must_be_played=True))
    assert 5 not in legal_draws(k)  # no meld with 7D exists
    k = make_state(3, {0: "2C 7H 7S 8D"}, pile="6C 7D", stock="3D", rules=Rules().with_(r500_top_card_must_be_played=True))
    assert 1 in legal_draws(k)
    draw(k, 1)
    assert all(r[L.A_TYPE] != L.ACT_STOP for r in candidates(k))  # the duty of C-TURN-4 applies


def test_R500_DRAW_5_illegal_deep_takes_T03():
    draws = legal_draws(t01_state())
    assert 2 not in draws  # QS fits no set and no spade run with KS
    assert 3 not in draws  # 4S + 4H lacks a third 4: 4D lies below the taken cards
    assert 0 not in draws  # 6C cannot be played either


def test_R500_DRAW_6_whole_pile_take():
    k = make_state(3, {0: "7C 8C 2D"}, pile="6C 4D QS", stock="3D")
    assert 0 in legal_draws(k)
    draw(k, 0)
    assert k.st[L.ST_PILE_LEN] == 0
    play(k, "6C 7C 8C", L.ACT_MELD_RUN)


def test_R500_SCORE_1_hand_scoring_T04():
    k = make_state(2, {0: "KC QC JS KD QD QH KH QS KS"}, stock="2C")
    k.add_meld(0, "set", "TC TD TH TS")
    k.add_meld(0, "set", "JC JD JH")
    k.add_meld(0, "run", "4S 5S 6S")
    k.st[L.ST_TOTAL] = 200
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, k.trace)
    assert k.st[L.ST_HAND_SCORE] == -5  # R500-SCORE-1: 85 - 90
    assert k.st[L.ST_TOTAL] == 195  # R500-SCORE-3


@pytest.mark.parametrize(
    "overrides, expected",
    [({}, 26), ({"r500_card_values": "5_10_15"}, 35), ({"r500_ace_low_value": "same"}, 40),
     ({"r500_ace_value": 25, "r500_ace_low_value": "same"}, 50)],
)
def test_R500_SCORE_2_V500_ACE_ace_values_T05(overrides, expected):
    k = make_state(2, {0: "AD"}, stock="2C", rules=Rules().with_(**overrides))
    k.add_meld(0, "run", "AH 2H 3H", lo=1)
    k.add_meld(0, "run", "QS KS AS", lo=12)
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, k.trace)
    assert k.st[L.ST_HAND_SCORE] == expected


def test_R500_MELD_4_no_round_the_corner_T08():
    k = make_state(2, {0: "KH AH 2H 3H QH"}, stock="2C")
    runs = {(int(r[L.A_LO]), int(r[L.A_LEN])) for r in candidates(k) if r[L.A_TYPE] == L.ACT_MELD_RUN}
    assert (12, 3) in runs and (1, 3) in runs  # QH KH AH and AH 2H 3H
    assert all(lo + n - 1 <= 14 and not (lo == 1 and lo + n - 1 == 14) for lo, n in runs)
    assert (13, 3) not in runs  # K-A-2 would need positions 13, 14, 15
    k = make_state(2, {0: "2H 9C"}, stock="2C")
    m = k.add_meld(1, "run", "QH KH AH", lo=12)
    assert find(k, "2H", L.ACT_LAYOFF, m) is None  # laying 2H off on Q-K-A is illegal


def test_V500_CORNER_round_the_corner_runs_T08():
    corner = Rules().with_(r500_round_the_corner=True)
    k = make_state(2, {0: "KH AH 2H 9C"}, stock="2C", rules=corner)
    runs = {(int(r[L.A_LO]), int(r[L.A_LEN])) for r in candidates(k) if r[L.A_TYPE] == L.ACT_MELD_RUN}
    assert (13, 3) in runs  # K-A-2 at positions 13, 14, 15
    k = make_state(2, {0: "QH KH AH 2H 3H 4H 9C"}, stock="2C", rules=corner)
    runs = {(int(r[L.A_LO]), int(r[L.A_LEN])) for r in candidates(k) if r[L.A_TYPE] == L.ACT_MELD_RUN}
    assert (12, 6) in runs  # Q-K-A-2-3-4 as one run
    k = make_state(2, {0: "KH 9C"}, stock="2C", rules=corner)
    m = k.add_meld(1, "run", "AH 2H 3H", lo=1)
    play(k, "KH", L.ACT_LAYOFF, m)  # below position 1: the run is re-based one lap up
    assert k.melds[m, L.MK_LO] == 13 and k.melds[m, L.MK_LEN] == 4
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, k.trace)
    assert k.st[L.ST_HAND_SCORE + 1] == 15 + 2 + 3  # the ace between K and 2 scores high


def test_R500_MELD_1_R500_MELD_2_two_deck_sets_T09():
    k = make_state(5, {0: "5D 5D 5H 9C"}, stock="2C")
    assert find(k, "5D 5H", L.ACT_MELD_SET) is None  # no 5D 5D 5H: repeated suit
    k = make_state(5, {0: "5D 5H 5S 9C"}, stock="2C")
    assert find(k, "5D 5H 5S", L.ACT_MELD_SET) is not None
    k = make_state(5, {0: "5C 5D 9C"}, stock="2C")
    m = k.add_meld(1, "set", "5D 5H 5S")
    assert find(k, "5C", L.ACT_LAYOFF, m) is not None
    play(k, "5C", L.ACT_LAYOFF, m)
    assert find(k, "5D", L.ACT_LAYOFF, m) is None  # 5 cards and a repeated suit
    k = make_state(5, {0: "5D 5H X 9C"}, stock="2C")
    assert find(k, "5D 5H X", L.ACT_MELD_SET) is not None  # R500-MELD-6
    k = make_state(2, {0: "5D 5H X X 9C"}, stock="2C")
    assert find(k, "5D 5H X X", L.ACT_MELD_SET) is not None


def test_R500_MELD_5_joker_designation_is_fixed_in_the_run():
    k = make_state(2, {0: "5H 7H X 9C"}, stock="2C")
    play(k, "5H 7H X", L.ACT_MELD_RUN)
    m = 0
    assert k.melds[m, L.MK_LO] == 5
    assert list(k.melds[m, L.MK_CARD : L.MK_CARD + 3]) == [cid("5H"), L.JOKER, cid("7H")]


def test_R500_MELD_8_layoff_block_of_two_on_a_run():
    k = make_state(2, {0: "8H 9H 2C"}, stock="2C")
    m = k.add_meld(1, "run", "5H 6H 7H")
    play(k, "8H 9H", L.ACT_LAYOFF, m)
    assert k.melds[m, L.MK_LEN] == 5 and k.melds[m, L.MK_OWNER + 4] == 0  # C-MELD-5: credited to P0


def test_R500_OUT_1_going_out_by_laying_down_every_card():
    k = make_state(2, {0: "4S 5S"}, pile="9D", stock="6S 2C")
    draw(k, L.DRAW_STOCK)
    play(k, "4S 5S 6S", L.ACT_MELD_RUN)
    assert k.hand_ids(0) == []


def test_C_LEGAL_1_no_play_leaves_only_the_card_that_may_not_be_discarded():
    k = make_state(2, {0: "5H 9C"}, pile="2D KD", stock="2C")
    k.add_meld(1, "run", "6C 7C 8C")
    k.add_meld(1, "set", "5C 5D 5S")
    draw(k, 1)  # KD alone: it may not be discarded (R500-DISC-2)
    play(k, "9C", L.ACT_LAYOFF)
    assert find(k, "5H", L.ACT_LAYOFF) is None  # would leave only KD in hand


@pytest.mark.parametrize("restriction, expected", [("top_single", "2C"), ("none", "2C KD"), ("any_taken", "2C")])
def test_V500_DISCSAME_discard_restrictions(restriction, expected):
    k = make_state(2, {0: "2C"}, pile="9D KD", stock="3C", rules=Rules().with_(r500_discard_restriction=restriction))
    draw(k, 1)
    assert sorted(discards(k)) == sorted(ids(expected))


def test_V500_DISCSAME_any_taken_covers_a_deep_take():
    k = make_state(2, {0: "7C 8C 2D"}, pile="6C 4D QS", stock="3C", rules=Rules().with_(r500_discard_restriction="any_taken"))
    draw(k, 0)
    play(k, "6C 7C 8C", L.ACT_MELD_RUN)
    assert discards(k) == [cid("2D")]


def test_R500_STOCK_1_empty_stock_offers_decline_and_scores_T14():
    k = make_state(3, {0: "5C", 1: "KC QD TH", 2: "2D KH"}, pile="9S", stock="", seat=1)
    draws = legal_draws(k, 1)
    assert L.DRAW_NONE in draws and L.DRAW_STOCK not in draws
    assert draw(k, L.DRAW_NONE, 1) is False
    # P0: table 30 + 10 = 40, hand 5; P1: table 20, hand 30; P2: table 0, hand 12
    k.add_meld(0, "set", "TC TD TS")
    k.add_meld(0, "run", "AH 2H 3H 4H", lo=1)
    k.add_meld(1, "set", "7C 7D 6S")  # a scoring-only fixture credited 7 + 7 + 6 = 20 to P1
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_STOCK, -1, k.trace)
    assert list(k.st[L.ST_HAND_SCORE : L.ST_HAND_SCORE + 3]) == [35, -10, -12]


def test_V500_STOCKEND_no_hand_penalty_T14():
    k = make_state(3, {0: "5C", 1: "KC QD TH", 2: "2D KH"}, stock="", rules=Rules().with_(r500_stock_out_hand_penalty=False))
    k.add_meld(0, "set", "TC TD TS")
    k.add_meld(0, "run", "AH 2H 3H 4H", lo=1)
    k.add_meld(1, "set", "7C 7D 6S")
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_STOCK, -1, k.trace)
    assert list(k.st[L.ST_HAND_SCORE : L.ST_HAND_SCORE + 3]) == [40, 20, 0]


def test_R500_END_1_R500_END_2_tie_at_the_target_T13():
    st = np.zeros(L.ST_SIZE, dtype=np.int64)
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [505, 505, 300]
    rules = make_state(3, {}).rules
    assert game_winner(st, rules, 3, 0) == -1  # R500-END-2: another hand
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [505, 510, 300]
    assert game_winner(st, rules, 3, 0) == 1
    st[L.ST_TOTAL : L.ST_TOTAL + 3] = [480, 470, 300]
    assert game_winner(st, rules, 3, 0) == -1  # R500-END-1: nobody at the target yet


def test_C_LEGAL_1_R500_DISC_2_top_take_needs_a_card_left_to_discard():
    k = make_state(5, {0: "2H"}, pile="9C 2H", stock="3C")  # two decks: the other 2H
    assert 1 not in legal_draws(k)  # both copies would be undiscardable
    k = make_state(5, {0: "2H"}, pile="9C 2H", stock="3C", rules=Rules().with_(r500_discard_restriction="none"))
    assert 1 in legal_draws(k)
