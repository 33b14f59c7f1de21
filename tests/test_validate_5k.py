"""Tests of the independent 5000 Rummy checker (sim/validate_5k.py).

Every trace is hand made with ``tests/tracebuild_5k.B5`` from readable card strings.  For each
rule there is a legal trace (no violation) and illegal variants flagged with the expected rule ID
(normally the first violation).  RULES.md §10 scenarios T-20 .. T-31 are played as written, with
the cards marked "chosen here" where the scenario leaves them open.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummysim.validate.rum5000 as V5
from rummysim.rules import Rules
from rummysim.validate.rum500 import ValidationResult, validate_trace
from tests.tracebuild import cid
from tests.tracebuild_5k import GAME, B5

pytestmark = pytest.mark.usefixtures("paranoid_validator")


def F(turns: int | None = None, hands: int = 1, **kw) -> dict:
    """5000 Rummy flags: a hand cap (default one hand), optionally a turn cap, plus ``kw``."""
    f = {**GAME, "max_hands_per_game": hands, **kw}
    if turns is not None:
        f["max_turns_per_hand"] = turns
    return f


def check(trace, flags: dict) -> ValidationResult:
    arr = trace.array() if isinstance(trace, B5) else trace
    return validate_trace(arr, flags)


def ok(trace, flags: dict) -> ValidationResult:
    res = check(trace, flags)
    assert res.violations == [], "\n".join(map(str, res.violations))
    assert res.games == 1
    return res


def bad(trace, rule: str, flags: dict, first: bool = True) -> ValidationResult:
    res = check(trace, flags)
    ids = [v.rule_id for v in res.violations]
    assert ids, f"expected {rule}, got no violation"
    if first:
        assert ids[0] == rule, f"expected {rule} first, got {res.violations}"
    else:
        assert rule in ids, f"expected {rule}, got {res.violations}"
    return res


def close(b: B5, reason: int, out: int = -1, **kw) -> B5:
    """End the hand and the game: a winner or tie at the target, else the hand cap (1 hand)."""
    b.end(reason, out, **kw)
    top = max(b.totals)
    if top < b.target:
        return b.game_end(-1, capped=1)
    leaders = [s for s in range(b.n) if b.totals[s] == top]
    if len(leaders) == 1:
        return b.game_end(leaders[0])
    return b.game_end(-1, mask=sum(1 << s for s in leaders))


def capped(b: B5) -> B5:
    """End on the turn cap (reason 4) and the game on the hand cap."""
    return close(b, 4)


def rows_of(b: B5, kind: int, **cols) -> list[int]:
    """Indexes of the rows of ``kind`` whose columns match (c1=..., c2=...)."""
    return [i for i, r in enumerate(b.rows) if r[0] == kind
            and all(r[int(k[1:])] == v for k, v in cols.items())]


def mutate(b: B5 | np.ndarray, i: int, col: int, val: int) -> np.ndarray:
    a = (b.array() if isinstance(b, B5) else b).copy()
    a[i, col] = val
    return a


def insert(a: B5 | np.ndarray, i: int, *rows: list[int]) -> np.ndarray:
    arr = a.array() if isinstance(a, B5) else a
    return np.insert(arr, i, np.array(rows, np.int32), axis=0)


def delete(a: B5 | np.ndarray, *idx: int) -> np.ndarray:
    arr = a.array() if isinstance(a, B5) else a
    return np.delete(arr, list(idx), axis=0)


def replace(a: B5 | np.ndarray, i: int, row: list[int]) -> np.ndarray:
    arr = (a.array() if isinstance(a, B5) else a).copy()
    arr[i] = row
    return arr


def short_hand(flags: dict | None = None) -> B5:
    """2 players, wild J, dealer 1 (P0 first).  P0 melds 3C 4C 5C, P1 melds three 9s, P0 takes
    the top discard 8S, adds 6C and goes out by discarding 8S on its second turn (+200)."""
    b = B5(2, dealer=1, flags=flags)
    b.deal("J", {0: "3C 4C 5C 6C", 1: "4D 9D 9H 9S 7S"}, upcard="2D", stock="KS 8S")
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "KS")
    b.draw(1).meld(1, "group", "9D 9H 9S").discard(1, "8S")
    b.take(0).layoff(0, 0, "6C").discard(0, "8S")
    return b


# ============================================================================================
# Dispatch and flags
# ============================================================================================


def test_short_hand_accepted_with_and_without_flags():
    b = close(short_hand(), 1, out=0)
    assert b.scores[0][2] == 200 + 20 and b.scores[1][2] == 30 - 10
    ok(b, F())
    # flags without a game: GAME_START game code 2 selects the 5000 checker
    res = validate_trace(b.array(), {"max_hands_per_game": 1})
    assert res.violations == [] and res.games == 1 and res.actions_checked > 10


def test_flags_from_Rules_as_dict_are_accepted():
    flags = Rules(game="5000-rummy").as_dict()
    flags["max_hands_per_game"] = 1
    ok(close(short_hand(), 1, out=0), flags)


@pytest.mark.parametrize("flag,value", [
    ("r5k_persian", True), ("r5k_doubling", True), ("r5k_limit_poker", True),
    ("r500_target", 1000), ("std_game_hands", 3), ("rkub_rounds", 2), ("r5k_rummy", "pile"),
    ("no_such_flag", 1), ("r5k_target", 0),
])
def test_flags_not_checked_raise(flag, value):
    with pytest.raises(ValueError, match=flag):
        validate_trace(close(short_hand(), 1, out=0).array(), {**GAME, flag: value})


def test_stakes_payoff_flag_does_not_change_play():
    ok(close(short_hand(), 1, out=0), F(r5k_payoff="game_point"))


def test_game_code_must_be_2():
    b = close(short_hand(), 1, out=0)
    bad(mutate(b, 0, 5, 0), "TRACE-FORMAT", F())


def test_500_records_are_not_5000_records():
    b = close(short_hand(), 1, out=0)
    i = rows_of(b, 5)[1]
    bad(insert(b, i + 1, [65, 1, 0, 0, 0, 0, 0, 0]), "TRACE-FORMAT", F())  # RESHUFFLE


def test_unused_columns_must_be_zero():
    b = close(short_hand(), 1, out=0)
    bad(mutate(b, rows_of(b, 30)[0], 5, 3), "TRACE-FORMAT", F())


def test_concatenated_games():
    a = close(short_hand(), 1, out=0).array()
    res = validate_trace(np.concatenate([a, a]), F())
    assert res.violations == [] and res.games == 2


# ============================================================================================
# Deal: R5K-SETUP-*, R5K-WILD-1, R5K-DEAL-*, R5K-TURN-1 (T-20)
# ============================================================================================


def t20_game(wild: str = "K") -> B5:
    """RULES.md T-20: face-up 5D, AS, KH, 2C bring hands of 6, 12, 11 and 3 (dealer 3, so P0 is
    dealt first)."""
    b = B5(4, dealer=3)
    b.deal(wild, {0: "5D", 1: "AS", 2: "KH", 3: "2C"})
    for _ in range(4):
        b.draw_discard()
    return capped(b)


def test_T20_R5K_DEAL_1_hand_size_from_face_up_card():
    b = t20_game()
    assert [(s, size) for s, _, size in b.face_ups] == [(0, 6), (1, 12), (2, 11), (3, 3)]
    ok(b, F(4))
    # 5s wild: a face-up 5D still brings 5 more cards
    b5 = t20_game(wild="5")
    assert b5.face_ups[0][2] == 6
    ok(b5, F(4))
    # a ten brings 10 more
    b10 = B5(2, dealer=1)
    b10.deal("K", {0: "TC", 1: "9D"})
    assert [size for _, _, size in b10.face_ups] == [11, 10]
    ok(capped(b10.draw_discard().draw_discard()), F(2))


def test_R5K_DEAL_1_face_up_record_must_match_the_block():
    b = t20_game()
    i = rows_of(b, 96)[1]
    bad(mutate(b, i, 3, 11), "R5K-DEAL-1", F(4))  # AS gives 12, not 11
    bad(mutate(b, i, 2, cid("KS")), "R5K-DEAL-1", F(4))
    bad(mutate(b, i, 1, 2), "TRACE-FORMAT", F(4))  # dealing order
    bad(delete(b, i), "TRACE-FORMAT", F(4))


def test_R5K_DEAL_1_blocks_follow_the_face_up_cards():
    # P0's face-up 5D and the 6th card swapped: the deal no longer matches the trace's FACE_UP
    b = t20_game()
    deck = rows_of(b, 3)[0]
    a = b.array()
    a[deck, 2], a[deck, 7] = a[deck, 7], a[deck, 2]
    res = check(a, F(4))
    assert "R5K-DEAL-1" in [v.rule_id for v in res.violations]


def test_R5K_SETUP_2_pack_is_104_cards_without_jokers():
    b = t20_game()
    deck = rows_of(b, 3)[-1]
    bad(mutate(b, deck, 3, 64), "R5K-SETUP-2", F(4))  # a joker in place of a card
    bad(mutate(b, rows_of(b, 2)[0], 3, 108), "R5K-SETUP-2", F(4))


def test_R5K_SETUP_1_two_to_five_players():
    b = t20_game()
    bad(mutate(b, 0, 1, 6), "R5K-SETUP-1", F(4))


def test_R5K_WILD_1_wild_rank_is_a_rank():
    b = t20_game()
    bad(mutate(b, rows_of(b, 2)[0], 6, 0), "R5K-WILD-1", F(4))
    bad(mutate(b, rows_of(b, 2)[0], 6, 14), "R5K-WILD-1", F(4))


def test_R5K_DEAL_3_and_R5K_TURN_1_dealer_and_first_player():
    b = t20_game()
    h = rows_of(b, 2)[0]
    bad(mutate(b, h, 2, 1), "R5K-DEAL-3", F(4))
    bad(mutate(b, h, 5, 2), "R5K-TURN-1", F(4))
    # the second seat plays out of turn
    bad(mutate(b, rows_of(b, 5)[1], 1, 2), "R5K-TURN-1", F(4))


def test_R5K_DEAL_3_dealer_moves_left_each_hand():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C", 1: "2D"})
    b.draw_discard().draw_discard()
    b.end(4)
    b.deal("K", {0: "2C", 1: "2D"})
    assert b.rows[rows_of(b, 2)[1]][2] == 0
    b.draw_discard().draw_discard()
    b.end(4).game_end(-1, capped=1)
    ok(b, F(2, hands=2))
    bad(mutate(b, rows_of(b, 2)[1], 2, 1), "R5K-DEAL-3", F(2, hands=2))


# ============================================================================================
# Values and scores: R5K-VAL-1/2, R5K-SCORE-1 (T-21)
# ============================================================================================


def t21_game(wild: str = "5") -> B5:
    """RULES.md T-21 (melds chosen here): 2 players, dealer 1.  P0 melds A-A-5 (a group of aces,
    or of 5s with aces wild), P1 melds 9C TC JC QC, P0 adds KC, then 8C 7C; P1 adds AC to P0's
    group and goes out discarding 4H.  P0 is left with 5C 2D."""
    b = B5(2, dealer=1, flags={"r5k_target": 400})
    b.deal(wild, {0: "7C AS AD 5H KC 8C 5C 2D", 1: "4H 9C TC JC QC"},
           upcard="3S", stock="3D 6D 9S AC")
    key = "A" if wild != "A" else "5"
    b.draw(0).meld(0, "group", "AS AD 5H", key=key).discard(0, "3D")
    b.draw(1).meld(1, "seq", "9C TC JC QC").discard(1, "6D")
    b.draw(0).layoff(0, 1, "KC").layoff(0, 1, "8C 7C").discard(0, "9S")
    b.draw(1).layoff(1, 0, "AC").discard(1, "4H")
    return b


def test_T21_R5K_VAL_1_2_R5K_SCORE_1_card_values():
    b = close(t21_game(), 1, out=1)
    assert b.hand(0) == ["5C", "2D"]
    assert b.scores[0][2] == 420  # 100 + 200 + 200 + 10 + 5 + 10 - 100 - 5
    ok(b, F(r5k_target=400))
    ba = close(t21_game(wild="A"), 1, out=1)
    assert ba.scores[0][2] == 820  # 5 + 400 + 400 + 10 + 5 + 10 - 5 - 5
    ok(ba, F(r5k_target=400))


def test_R5K_VAL_2_wild_card_values_by_wild_rank():
    vals = V5._card_values
    assert vals(5)[cid("5H")] == 100 and vals(5)[cid("AS")] == 200
    assert vals(12)[cid("QS")] == 200 and vals(10)[cid("TD")] == 200
    assert vals(1)[cid("AC")] == 400 and vals(1)[cid("KC")] == 10
    assert [vals(3)[cid(c)] for c in "2C 7C 8C KC".split()] == [5, 5, 10, 10]


def test_R5K_VAL_2_wild_card_scored_as_natural_is_flagged():
    b = t21_game()
    close(b, 1, out=1, tv={0: 525 - 95}, hv={0: 10})  # 5H and 5C valued 5 each
    bad(b, "R5K-VAL-2", F(r5k_target=400))


def test_R5K_SCORE_1_arithmetic():
    b = close(t21_game(), 1, out=1)
    s0 = rows_of(b, 41)[0]
    bad(mutate(b, s0, 4, 500), "R5K-SCORE-1", F(r5k_target=400))  # table value
    bad(mutate(b, s0, 2, 421), "R5K-SCORE-1", F(r5k_target=400))  # hand score
    bad(mutate(b, s0, 3, 421), "C-SCORE-3", F(r5k_target=400))  # running total


def test_R5K_GAME_2_winner_at_target():
    b = close(t21_game(), 1, out=1)
    assert b.totals == [420, 440] and b.rows[-1][1] == 1
    bad(mutate(b, len(b.rows) - 1, 1, 0), "R5K-GAME-2", F(r5k_target=400))


# ============================================================================================
# Sequences: R5K-SEQ-1/2/3 (T-22)
# ============================================================================================


def t22_game(addition: str, **layoff) -> B5:
    """RULES.md T-22: 3 players, wild K (chosen here), dealer 0.  P1 melds 5H 6H 7H, P2 adds 8H,
    then P0 adds ``addition``."""
    b = B5(3, dealer=0)
    b.deal("K", {1: "3C 5H 6H 7H", 2: "2C 8H 9C", 0: "9D 9H KS 8H 4H TH 2S 3S 4S 6S"},
           stock="4D 5D 6D")
    b.draw(1).meld(1, "seq", "5H 6H 7H").discard(1, "3C")
    b.draw(2).layoff(2, 0, "8H").discard(2, "2C")
    b.draw(0).layoff(0, 0, addition, **layoff).discard(0, "6D")
    return capped(b)


@pytest.mark.parametrize("addition", ["9H", "KS@9", "4H", "9H TH", "4H 9H"])
def test_T22_R5K_SEQ_2_additions_at_the_ends(addition):
    ok(t22_game(addition), F(3))


@pytest.mark.parametrize("addition", ["8H@9", "8H", "TH", "3S@9"])
def test_T22_R5K_SEQ_2_simple_order(addition):
    # a second 8H (at 9 or inside), a gap, a natural of another suit
    bad(t22_game(addition), "R5K-SEQ-2", F(3))


def test_R5K_SEQ_2_trace_lo_column_after_an_addition():
    b = t22_game("4H")
    bad(mutate(b, rows_of(b, 22, c1=0)[0], 4, 5), "TRACE-FORMAT", F(3))


def t22_long(p1_play) -> B5:
    """RULES.md T-22, sequence limits: 2 players, wild 9 (chosen here).  P0 melds AH..JH; P1 adds
    QH KH (13 cards) and plays ``p1_play``."""
    b = B5(2, dealer=1)
    b.deal("9", {0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH 5S",
                 1: "7C QH KH AH QS KS AS 2S"}, stock="3D 4D")
    b.draw(0).meld(0, "seq", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH").discard(0, "3D")
    b.draw(1).layoff(1, 0, "QH KH")
    p1_play(b)
    b.discard(1, "4D")
    return capped(b)


def test_T22_R5K_SEQ_1_thirteen_cards_and_the_ace_above_the_K():
    ok(t22_long(lambda b: None), F(2))
    ok(t22_long(lambda b: b.meld(1, "seq", "QS KS AS@14")), F(2))
    bad(t22_long(lambda b: b.layoff(1, 0, "AH@14")), "R5K-SEQ-1", F(2))  # a 14th card
    bad(t22_long(lambda b: b.meld(1, "seq", "2S AS KS")), "R5K-SEQ-1", F(2))  # 2-A-K
    bad(t22_long(lambda b: b.meld(1, "seq", "KS AS@14 2S", lo=13)), "R5K-SEQ-1", F(2))


def test_T22_R5K_SEQ_1_a_thirteen_card_meld_goes_out():
    b = B5(2, dealer=1)
    b.deal("9", {0: "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"}, stock="KH")
    b.draw(0).meld(0, "seq", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    close(b, 1, out=0)
    assert b.scores[0][6] == 300  # first turn, after drawing
    ok(b, F())


def test_R5K_SEQ_1_natural_card_out_of_place_in_a_new_sequence():
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 4C 5C 6D"}, stock="2S")
    b.draw(0).meld(0, "seq", "3C 4C 6D@5").discard(0, "2S")
    bad(capped(b), "R5K-SEQ-1", F(1))


def test_R5K_PLAY_2_new_meld_needs_three_cards():
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 4C 5C 6D"}, stock="2S")
    b.draw(0).meld(0, "seq", "3C 4C").discard(0, "2S")
    bad(capped(b), "R5K-PLAY-2", F(1))


def test_R5K_WILD_4_wild_cards_as_a_regular_sequence_or_group():
    b = B5(2, dealer=1)
    b.deal("K", {0: "6C KC KD KH KS KC KD"}, stock="2S 3S")
    b.draw(0).meld(0, "seq", "KC@4 KD@5 KH@6", key="S").meld(0, "group", "KS KC KD", key=9)
    b.discard(0, "2S")
    ok(capped(b), F(1))


# ============================================================================================
# Joining: R5K-SEQ-4/5/6 (T-23)
# ============================================================================================


def t23_game() -> B5:
    """RULES.md T-23: 4 players, wild J, dealer 0.  P1 melds AH 2H 3H, P2 melds 7H 8H 9H, P3
    joins them with 4H 5H 6H; P0 then adds TH."""
    b = B5(4, dealer=0)
    b.deal("J", {1: "3C AH 2H 3H", 2: "3D 7H 8H 9H", 3: "3S 4H 5H 6H", 0: "4C TH 9S 8S 7S"},
           stock="2C 2D 2S 2H")
    b.draw(1).meld(1, "seq", "AH 2H 3H").discard(1, "2C")
    b.draw(2).meld(2, "seq", "7H 8H 9H").discard(2, "2D")
    b.draw(3).join(3, 0, 1, "4H 5H 6H").discard(3, "2S")
    b.draw(0).layoff(0, 0, "TH").discard(0, "2H")
    return capped(b)


def test_T23_R5K_SEQ_5_filling_the_gap_joins_two_sequences():
    b = t23_game()
    assert b.scores[3][4] == 15  # 4H 5H 6H credited to P3
    ok(b, F(4))


def test_T23_joined_sequence_no_longer_exists_separately():
    b = t23_game()
    i = rows_of(b, 22, c1=0)[0]
    bad(mutate(b, i, 2, 1), "TRACE-FORMAT", F(4))


def test_R5K_SEQ_5_gap_must_be_filled_exactly():
    b = B5(4, dealer=0)
    b.deal("J", {1: "3C AH 2H 3H", 2: "3D 7H 8H 9H", 3: "3S 4H 5H 6H"}, stock="2C 2D 2S")
    b.draw(1).meld(1, "seq", "AH 2H 3H").discard(1, "2C")
    b.draw(2).meld(2, "seq", "7H 8H 9H").discard(2, "2D")
    b.draw(3).join(3, 0, 1, "4H 5H").discard(3, "2S")
    bad(capped(b), "R5K-SEQ-5", F(3))


def test_R5K_SEQ_5_at_most_thirteen_cards():
    b = B5(2, dealer=1)
    b.deal("K", {1: "8C AS 2S 3S 4S 5S 6S 7S 9C", 0: "8D 8S 9S TS JS QS KS AS 9D"},
           stock="2C 2D 2H 2S")
    b.draw(0).meld(0, "seq", "8S 9S TS JS QS KS AS@14").discard(0, "2C")
    b.draw(1).meld(1, "seq", "AS 2S 3S 4S 5S 6S").discard(1, "2D")
    b.draw(0).discard(0, "2H")
    b.draw(1).join(1, 1, 0, "7S").discard(1, "2S")
    bad(capped(b), "R5K-SEQ-5", F(4))


def test_R5K_SEQ_5_only_sequences_of_one_suit():
    b = B5(2, dealer=1)
    b.deal("K", {0: "6C 5S 6S 7S 9D TD JD"}, stock="2C")
    b.draw(0).meld(0, "seq", "5S 6S 7S").meld(0, "seq", "9D TD JD").join(0, 0, 1, "")
    b.discard(0, "2C")
    bad(capped(b), "R5K-SEQ-5", F(1))


def own_join(joiner: int, wild_end: bool = False, trade: bool = False) -> B5:
    """RULES.md T-23 (second part): P1 melds 5S 6S 7S (or 5S 6S JC=W(7S)) and 8S 9S TS;
    ``joiner`` joins them without adding cards, after trading 7S for JC if ``trade``."""
    b = B5(2, dealer=0)
    seven = "JC" if wild_end else "7S"
    b.deal("J", {1: f"6C 5S 6S {seven} 8S 9S TS", 0: "3D 7S 4D"}, stock="2C 2D")
    b.draw(1).meld(1, "seq", f"5S 6S {seven}@7").meld(1, "seq", "8S 9S TS")
    if joiner == 1:
        b.join(1, 0, 1)
    b.discard(1, "2C")
    b.draw(0)
    if trade:
        b.trade(0, 0, "7S", "JC", 7)
    if joiner == 0:
        b.join(0, 0, 1)
    b.discard(0, "2D")
    return capped(b)


def test_T23_R5K_SEQ_6_joining_own_adjacent_sequences():
    ok(own_join(1), F(2))


def test_T23_R5K_SEQ_6_another_seat_cannot_join_without_cards():
    bad(own_join(0), "R5K-SEQ-6", F(2))
    bad(own_join(0, wild_end=True), "R5K-SEQ-6", F(2))


def test_R5K_SEQ_6_trading_the_end_wild_counts_as_adding():
    b = own_join(0, wild_end=True, trade=True)
    assert b.scores[0][4] == 5  # 7S credited to P0
    ok(b, F(2))


def seq4_join(added: str) -> B5:
    """R5K-SEQ-4: P0 adds ``added`` to P1's 2S 3S 4S, melds its own sequence and joins."""
    b = B5(2, dealer=0)
    b.deal("K", {1: "3C 2S 3S 4S", 0: "9D 5S 6S 7S 8S 9S TS 5D 6D 7D"}, stock="2C 2D")
    b.draw(1).meld(1, "seq", "2S 3S 4S").discard(1, "2C")
    top = int(added.split()[-1][0])
    rest = " ".join(f"{r}S" for r in "56789T"[top - 4:][:3])
    b.draw(0).layoff(0, 0, added).meld(0, "seq", rest).join(0, 0, 1).discard(0, "2D")
    return capped(b)


def test_R5K_SEQ_4_an_addition_of_three_cards_is_the_seats_sequence():
    ok(seq4_join("5S 6S 7S"), F(2))
    bad(seq4_join("5S 6S"), "R5K-SEQ-6", F(2))


# ============================================================================================
# Trading: R5K-TRADE-1/2/3, R5K-WILD-3, R5K-DRAW-3 (T-24)
# ============================================================================================


def t24_game(p1_turn, deep: bool = False) -> B5:
    """RULES.md T-24: 4 players, wild 2, dealer 1.  P2 melds 5H 6H 2C=W(7H); P3 melds the group
    9C 9D 2D=W(9) and the wild-card group 2H 2S 2C; P0 draws and discards; then P1 plays
    ``p1_turn`` after drawing (or, if ``deep``, after taking the pile from the upcard 8H)."""
    b = B5(4, dealer=1)
    b.deal("2", {2: "3D 5H 6H 2C", 3: "6S 9C 9D 2D 2H 2S 2C", 0: "3S 4S 5S 6C",
                 1: "7H 7D 9C 2S 4D 5D 8D TD"}, upcard="8H", stock="3C 4C 5C 6D")
    b.draw(2).meld(2, "seq", "5H 6H 2C@7").discard(2, "3C")
    b.draw(3).meld(3, "group", "9C 9D 2D", key=9).meld(3, "wild", "2H 2S 2C").discard(3, "4C")
    b.draw(0).discard(0, "5C")
    if deep:
        b.take(1, k=0)
    else:
        b.draw(1)
    p1_turn(b)
    b.discard(1, "4D")
    return capped(b)


def test_T24_R5K_TRADE_1_3_natural_for_wild_credited_to_trader():
    b = t24_game(lambda b: b.trade(1, 0, "7H", "2C", 7).trade(1, 1, "9C", "2D"))
    assert sorted(b.hand(1)) == sorted("7D 2S 5D 8D TD 6D 2C 2D".split())
    assert [r[4] for r in b.scores] == [0, 15, 10, 320]  # 7H + 9C to P1; P2 keeps 5H 6H
    ok(b, F(4))


def test_T24_R5K_TRADE_1_wrong_suit_rejected():
    bad(t24_game(lambda b: b.trade(1, 0, "7D", "2C", 7)), "R5K-TRADE-1", F(4))


def test_R5K_TRADE_1_group_needs_its_rank():
    bad(t24_game(lambda b: b.trade(1, 1, "8D", "2D")), "R5K-TRADE-1", F(4))


def test_T24_R5K_TRADE_2_only_natural_for_wild():
    bad(t24_game(lambda b: b.trade(1, 0, "2S", "2C", 7)), "R5K-TRADE-2", F(4))  # wild given
    bad(t24_game(lambda b: b.trade(1, 0, "7H", "6H", 6)), "R5K-TRADE-2", F(4))  # natural taken


def test_R5K_TRADE_designation_is_where_the_wild_card_sits():
    bad(t24_game(lambda b: b.trade(1, 0, "6H", "2C", 6)), "C-CARD-CONSERVATION", F(4))


def test_T24_R5K_WILD_3_wild_card_group_never_traded_from():
    bad(t24_game(lambda b: b.trade(1, 2, "9C", "2S")), "R5K-WILD-3", F(4))


def test_T24_R5K_DRAW_3_no_trade_within_draw_c():
    # the deep take of the upcard 8H: its meld comes first, trades after
    ok(t24_game(lambda b: b.layoff(1, 0, "8H").trade(1, 0, "7H", "2C", 7), deep=True), F(4))
    bad(t24_game(lambda b: b.trade(1, 0, "7H", "2C", 7).layoff(1, 0, "8H"), deep=True),
        "R5K-DRAW-3", F(4))


def test_R5K_WILD_3_wild_card_groups():
    def add(card):
        return lambda b: b.layoff(1, 2, card)
    ok(t24_game(add("2S")), F(4))  # any seat adds wild cards
    bad(t24_game(add("7D")), "R5K-WILD-3", F(4))
    b = B5(2, dealer=1)
    b.deal("2", {0: "3C 2H 2S 4D"}, stock="5C")
    b.draw(0).meld(0, "wild", "2H 2S 4D").discard(0, "5C")
    bad(capped(b), "R5K-WILD-3", F(1))


# ============================================================================================
# Groups: R5K-GROUP-1/2 (T-25)
# ============================================================================================


def t25_game(p2_play, p1_last=None, p2_last=None) -> B5:
    """RULES.md T-25: 3 players, wild 2 (chosen here), dealer 0.  P1 melds 9C 9D 9H; P2 adds 9S
    and plays ``p2_play``; P0 melds its own group 9S 2C 2D; then P1 and P2 play ``p1_last`` and
    ``p2_last``."""
    b = B5(3, dealer=0)
    b.deal("2", {1: "4C 9C 9D 9H 2S", 2: "6D 9S 9C 9D 2H 9H 4S", 0: "3C 9S 2C 2D"},
           stock="5C 5D 5H 5S 6C")
    b.draw(1).meld(1, "group", "9C 9D 9H").discard(1, "5C")
    b.draw(2).layoff(2, 0, "9S")
    p2_play(b)
    b.discard(2, "5D")
    b.draw(0).meld(0, "group", "9S 2C 2D", key=9).discard(0, "5H")
    b.draw(1)
    if p1_last:
        p1_last(b)
    b.discard(1, "5S")
    b.draw(2)
    if p2_last:
        p2_last(b)
    b.discard(2, "6C")
    return capped(b)


def test_T25_R5K_GROUP_2_one_group_or_addition_per_rank():
    ok(t25_game(lambda b: None), F(5))
    ok(t25_game(lambda b: b.layoff(2, 0, "9C")), F(5))  # the same addition grows
    bad(t25_game(lambda b: b.meld(2, "group", "9C 9D 2H", key=9)), "R5K-GROUP-2", F(5))


def test_R5K_GROUP_2_owner_adds_only_to_its_own_group():
    ok(t25_game(lambda b: None, p1_last=lambda b: b.layoff(1, 0, "2S")), F(5))
    bad(t25_game(lambda b: None, p1_last=lambda b: b.layoff(1, 1, "2S")), "R5K-GROUP-2", F(5))


def test_R5K_GROUP_2_a_trade_counts_as_an_addition():
    bad(t25_game(lambda b: None, p2_last=lambda b: b.trade(2, 1, "9C", "2C")), "R5K-GROUP-2",
        F(5))


def test_T25_R5K_GROUP_1_ten_card_group_of_nines():
    b = B5(2, dealer=1)
    b.deal("2", {0: "9C 9D 9H 9S 9C 9D 9H 9S 2H 2S"}, stock="3C")
    b.draw(0).meld(0, "group", "9C 9D 9H 9S 9C 9D 9H 9S 2H 2S").discard(0, "3C")
    close(b, 1, out=0)
    assert b.scores[0][6] == 300
    ok(b, F())


def test_R5K_GROUP_1_group_cards():
    def meld(spec, key=None):
        b = B5(2, dealer=1)
        b.deal("2", {0: "4C 9C 9D 8H 2H"}, stock="3C")
        b.draw(0).meld(0, "group", spec, key=key).discard(0, "3C")
        return capped(b)
    ok(meld("9C 9D 2H"), F(1))
    bad(meld("9C 9D 8H"), "R5K-GROUP-1", F(1))
    bad(meld("9C 2H", key=9), "R5K-PLAY-2", F(1))
    bad(meld("2H 9C 9D", key=2), "R5K-GROUP-1", F(1))  # designated with the wild rank


# ============================================================================================
# Going out: R5K-OUT-1/2/3 (T-26)
# ============================================================================================


def test_T26_R5K_OUT_2_going_out_on_a_later_turn_scores_200():
    b = B5(2, dealer=1)
    b.deal("J", {0: "3C 4C 5C 6C", 1: "4D 9D 9H 9S 7S"}, upcard="2D",
           stock="2C 2H 2S 3D KS 8S")
    for _ in range(2):
        b.draw_discard(0).draw_discard(1)
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "KS")
    b.draw(1).meld(1, "group", "9D 9H 9S").discard(1, "8S")
    b.take(0).layoff(0, 0, "6C").discard(0, "8S")  # P0's 4th turn
    close(b, 1, out=0)
    assert b.scores[0][6] == 200
    ok(b, F())
    bad(mutate(b, rows_of(b, 41)[0], 6, 300), "R5K-OUT-2", F())


def t26_first(skip: bool, flags: dict | None = None, discard: bool = False) -> B5:
    """RULES.md T-26: P0's face-up card is 3C, the wild rank is J, the hand 3C 4C 5C 6C.  P0
    goes out on its first turn: after drawing 7C (+300), or without drawing (+500)."""
    b = B5(2, dealer=1, flags=flags)
    b.deal("J", {0: "3C 4C 5C 6C"}, stock="7C")
    if skip:
        b.nodraw(0, reason=2)
        if discard:
            b.meld(0, "seq", "3C 4C 5C").discard(0, "6C")
        else:
            b.meld(0, "seq", "3C 4C 5C 6C")
    else:
        b.draw(0).meld(0, "seq", "3C 4C 5C 6C 7C")
    return b


def test_T26_R5K_OUT_2_first_turn_after_drawing_scores_300():
    b = close(t26_first(False), 1, out=0)
    assert b.scores[0][6] == 300 and b.scores[0][2] == 325
    ok(b, F())


def test_T26_R5K_OUT_3_first_turn_without_drawing_scores_500():
    b = close(t26_first(True), 1, out=0)
    assert b.scores[0][2] == 520
    ok(b, F())
    s0 = rows_of(b, 41)[0]
    bad(mutate(mutate(b, s0, 6, 800), s0, 2, 820), "R5K-OUT-2", F())  # not cumulative (AMB-28)
    bad(mutate(mutate(b, s0, 6, 300), s0, 2, 320), "R5K-OUT-2", F())


def test_T26_R5K_OUT_3_no_discard_in_a_turn_without_draw():
    bad(close(t26_first(True, discard=True), 1, out=0), "R5K-OUT-3", F())


def test_R5K_OUT_3_only_on_the_first_turn():
    b = B5(2, dealer=1)
    b.deal("J", {0: "3C 4C 5C 6C"}, stock="2D 2S")
    b.draw_discard(0).draw_discard(1)
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C")
    bad(close(b, 1, out=0), "R5K-OUT-3", F())


def test_R5K_OUT_3_skipping_the_draw_means_going_out():
    b = B5(2, dealer=1)
    b.deal("J", {0: "4C 3C 5C 6C 9D"}, stock="2S")
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C").discard(0, "9D")  # last card discarded
    bad(close(b, 1, out=0), "R5K-OUT-3", F())
    b2 = B5(2, dealer=1)
    b2.deal("J", {0: "4C 3C 5C 6C 9D"}, stock="2S")
    b2.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C").discard(0, "9D")  # keeps 6C
    bad(capped(b2), "R5K-OUT-3", F(1))


def test_R5K_OUT_1_the_hand_ends_at_once():
    b = close(t26_first(False), 1, out=0)
    i = rows_of(b, 40)[0]
    bad(insert(b, i, [30, 0, cid("7C"), 0, 0, 0, 0, 0]), "R5K-OUT-1", F())
    bad(mutate(b, i, 1, 4), "R5K-OUT-1", F(1))


# ============================================================================================
# Stall end: R5K-DRAW-5 (T-27)
# ============================================================================================


def t27_game(turns: int = 9, meld_at: int | None = None) -> B5:
    """RULES.md T-27: 3 players, dealer 2; each turn takes only the top discard, does not meld
    it and discards another card.  If ``meld_at`` (a turn index), that turn's player P1 melds the
    card taken (2C) with 2H 2S instead."""
    b = B5(3, dealer=2)
    b.deal("K", {0: "5C 2C 3C 4C 6C 7C", 1: "5D 2H 2S 4D 6D 7D", 2: "5S 2D 3S 4S 6S 7S"},
           upcard="9H")
    for t in range(turns):
        seat = t % 3
        b.take(seat)
        if t == meld_at:
            b.meld(seat, "group", "2C 2H 2S")
        b.discard(seat, b.hands[seat][0])
    return b


def test_T27_R5K_DRAW_5_stall_ends_the_hand_after_3n_turns():
    b = close(t27_game(), 6)
    assert all(r[6] == 0 for r in b.scores)  # no going-out bonus
    assert b.scores[0][2] == -sum(V5._card_values(13)[c] for c in b.hands[0])
    ok(b, F())


def test_R5K_DRAW_5_not_before_3n_turns():
    bad(close(t27_game(8), 6), "R5K-DRAW-5", F())


def test_R5K_DRAW_5_the_hand_must_end():
    b = t27_game(10)
    bad(capped(b), "R5K-DRAW-5", F(10))


def test_T27_R5K_DRAW_5_a_meld_of_the_card_taken_restarts_the_count():
    assert cid("2C") == t27_game(5).rows[rows_of(t27_game(5), 11)[4]][4]
    bad(close(t27_game(9, meld_at=4), 6), "R5K-DRAW-5", F())
    ok(close(t27_game(14, meld_at=4), 6), F())


def test_R5K_DRAW_5_no_bonus_at_a_stall_end():
    b = close(t27_game(), 6, bonus={0: 200})
    bad(b, "R5K-DRAW-5", F())


def test_R5K_DRAW_5_a_rummy_call_neither_counts_nor_resets():
    """Top-card rummy: P0 draws and melds 3C 4C 5C; then 9 stall turns, with P2's call on P1's
    discard 6C between the first and the second of them."""
    def game(stall_turns: int) -> B5:
        b = B5(3, dealer=2, flags={"r5k_rummy": "top_card"})
        b.deal("K", {0: "5C 3C 4C 5S 2S 3S", 1: "5D 6C 2D 3D 4D 7D", 2: "5H 2H 3H 4H 6H 7H"},
               upcard="9H", stock="8S")
        b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "8S")
        b.take(1).discard(1, "6C")
        b.call_(2).layoff(2, 0, "6C").discard(2, "2H")
        for t in range(stall_turns - 1):
            seat = (2 + t) % 3
            b.take(seat).discard(seat, b.hands[seat][0])
        return close(b, 6)
    ok(game(9), F(r5k_rummy="top_card"))
    bad(game(8), "R5K-DRAW-5", F(r5k_rummy="top_card"))


# ============================================================================================
# V5K-3: rummy with the top card (T-28)
# ============================================================================================


def t28_game(flags: dict | None = None, discard: str = "8H", caller: int = 2, play=None,
             after: int = 1, seq: str = "5H 6H 7H", p2: str = "5H 6H 7H 3C 4D 9S") -> B5:
    """RULES.md T-28: 4 players, wild K, dealer 1 (P2 first).  P2 melds ``seq``; P3 draws and
    discards; P0, not going out, discards ``discard``; ``caller`` calls and plays ``play``
    (default: adds the card to P2's sequence) and discards; then ``after`` plays a normal turn."""
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card", **(flags or {})})
    b.deal("K", {2: p2, 0: f"4S {discard} 2C 3D 9D", 1: "2D 4C 5C", 3: "3H 8S 9C 2S"},
           stock="2H 3S 4H 5S 6S 7S")
    b.draw(2).meld(2, "seq", seq).discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, discard)
    b.call_(caller)
    if play is None:
        b.layoff(caller, 0, discard)
    else:
        play(b)
    b.discard(caller, b.hands[caller][0])
    b.draw_discard(after)
    return capped(b)


def T28F(**kw) -> dict:
    return F(5, r5k_rummy="top_card", **kw)


def test_T28_V5K_3_top_card_call_then_the_in_turn_player():
    b = t28_game()
    assert b.scores[2][4] == 25  # 5H 6H 7H 8H, 8H credited to the caller
    ok(b, T28F())
    ok(t28_game(caller=1), T28F())  # the in-turn player may call too
    ok(t28_game(caller=3), T28F())


def test_V5K_3a_calls_need_the_variation_and_a_window():
    bad(t28_game(), "V5K-3a", F(5))  # r5k_rummy=off
    bad(t28_game(caller=0), "V5K-3a", T28F())  # the discarder


def test_V5K_3a_no_call_before_a_discard():
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "3C 5H 6H"}, upcard="7H")
    b.call_(2).discard(2, "3C")
    bad(capped(b), "V5K-3a", T28F(), first=False)


def test_V5K_3d_play_resumes_with_the_in_turn_player():
    bad(t28_game(after=3), "R5K-TURN-1", T28F())
    bad(t28_game(caller=3, after=0), "R5K-TURN-1", T28F())


def test_V5K_3c_exactly_one_play_with_the_card():
    bad(t28_game(play=lambda b: b.layoff(2, 0, "8H").meld(2, "group", "9S 9D 9C", key=9)),
        "V5K-3c", T28F(), first=False)
    bad(t28_game(play=lambda b: None), "V5K-3c", T28F())  # the card is kept


def test_V5K_3b_the_card_must_fit_the_table():
    res = bad(t28_game(discard="9D"), "V5K-3b", T28F())
    assert "R5K-SEQ-2" in [v.rule_id for v in res.violations]


def test_V5K_3c_only_the_card_just_discarded():
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "5H 6H 7H 3C 4D 9S", 0: "4S 8H 2C 3D 9D"}, stock="2H 3S 4H 5S 6S")
    b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, "8H")
    b.call_(2, k=len(b.pile) - 2).layoff(2, 0, "8H").discard(2, "3S")
    b.draw_discard(1)
    bad(capped(b), "V5K-3c", T28F())


def test_T28_V5K_3c_trade_the_card_for_a_matching_wild():
    b = t28_game(discard="7H", seq="5H 6H KD@7", p2="5H 6H KD 3C 4D 9S",
                 play=lambda b: b.trade(2, 0, "7H", "KD", 7))
    assert "KD" in b.hand(2)
    ok(b, T28F())


def test_T28_V5K_3c_a_discarded_wild_card_is_melded_not_traded():
    ok(t28_game(discard="KS", play=lambda b: b.layoff(2, 0, "KS@8")), T28F())
    b = t28_game(discard="KS", seq="5H 6H KD@7", p2="5H 6H KD 3C 4D 9S",
                 play=lambda b: b.trade(2, 0, "KS", "KD", 7))
    bad(b, "R5K-TRADE-2", T28F())


def test_V5K_3d_a_call_on_the_callers_discard():
    def game(second: int) -> B5:
        b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
        b.deal("K", {2: "5H 6H 7H 3C 4D 9H", 0: "4S 8H 2C 3D 9D", 1: "2D 4C 5C",
                     3: "3H 8S 9C 2S"}, stock="2H 3S 4H 5S 6S 7S")
        b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
        b.draw(3).discard(3, "3S")
        b.draw(0).discard(0, "8H")
        b.call_(2).layoff(2, 0, "8H").discard(2, "9H")
        b.call_(second).layoff(second, 0, "9H").discard(second, b.hands[second][0])
        b.draw_discard(1)
        return capped(b)
    ok(game(3), F(6, r5k_rummy="top_card"))
    bad(game(2), "V5K-3a", F(6, r5k_rummy="top_card"))


def test_R5K_OUT_3_a_call_does_not_use_up_the_first_turn():
    """P1 calls on P0's 8H before its own first turn, then goes out on that first turn: +300."""
    b = B5(4, dealer=1, flags={"r5k_rummy": "top_card"})
    b.deal("K", {2: "5H 6H 7H 3C 4D 9S", 0: "4S 8H 2C 3D 9D", 1: "2D 4C 5C",
                 3: "3H 8S 9C 2S"}, stock="2H 3S 4H 3C")
    b.draw(2).meld(2, "seq", "5H 6H 7H").discard(2, "2H")
    b.draw(3).discard(3, "3S")
    b.draw(0).discard(0, "8H")
    b.call_(1).layoff(1, 0, "8H").discard(1, "2D")
    b.draw(1).meld(1, "seq", "3C 4C 5C")
    close(b, 1, out=1)
    assert b.scores[1][6] == 300
    ok(b, T28F())


# ============================================================================================
# V5K-4: rummy with any cards (T-29)
# ============================================================================================


def t29_game(caller: int = 2, k: int = 0, first: str = "5H 6H 7H", more=None) -> B5:
    """RULES.md T-29: 4 players, wild Q (chosen here), dealer 3.  The pile becomes
    5H 9C 6H JD 7H 2S (P3 discarded 7H, P0 just discarded 2S); ``caller`` takes from index ``k``,
    melds ``first``, plays ``more`` and discards; then the in-turn player P1 plays."""
    b = B5(4, dealer=3, flags={"r5k_rummy": "any_cards"})
    b.deal("Q", {0: "3C 9C 2S 4C", 1: "3D 6H 4D 5D", 2: "4S JD 8H 3S 5S", 3: "3H 7H 8S 9S"},
           upcard="5H", stock="2C 2D 2H 4H 6C 7C")
    b.draw(0).discard(0, "9C")
    b.draw(1).discard(1, "6H")
    b.draw(2).discard(2, "JD")
    b.draw(3).discard(3, "7H")
    b.draw(0).discard(0, "2S")
    b.call_(caller, k=k).meld(caller, "seq", first)
    if more:
        more(b)
    b.discard(caller, "9C")
    b.draw_discard(1)
    return capped(b)


def T29F(**kw) -> dict:
    return F(7, r5k_rummy="any_cards", **kw)


def test_T29_V5K_4_any_cards_call_then_a_full_turn():
    ok(t29_game(), T29F())
    ok(t29_game(more=lambda b: b.meld(2, "seq", "3S 4S 5S")), T29F())


def test_T29_V5K_4a_embargo_ends_with_another_seats_turn():
    ok(t29_game(caller=3), T29F())  # P3 created the rummy, but P0's turn has ended since
    bad(t29_game(caller=0), "V5K-4a", T29F())  # P0's own turn just ended


def test_V5K_4c_first_play_uses_only_the_taken_cards():
    bad(t29_game(first="5H 6H 7H 8H"), "V5K-4c", T29F())  # 8H from hand
    bad(t29_game(first="6H 7H 8H"), "V5K-4c", T29F())  # card k (5H) not in it


def test_V5K_4b_card_k_must_be_a_rummy_card():
    res = check(t29_game(k=1, first="6H 7H 8H"), T29F())
    assert res.violations and res.violations[0].rule_id == "V5K-4b"


def test_V5K_3c_top_card_mode_takes_only_the_top_card():
    res = check(t29_game(), F(7, r5k_rummy="top_card"))
    assert res.violations and res.violations[0].rule_id == "V5K-3c"


# ============================================================================================
# V5K-5 / V5K-6: floating (T-30)
# ============================================================================================


def t30_game(flags: dict, last: str = "unmeldable") -> B5:
    """RULES.md T-30: 3 players, wild J, dealer 2.  P0 melds 5H 6H 7H, adds 4H, and discards its
    last card 8H (meldable: P0 floats).  P1 discards, P2 discards 3C.  Then P0 draws KD and
    discards it (``last="unmeldable"``), or draws 3H and adds it (``last="meld"``)."""
    b = B5(3, dealer=2, flags=flags)
    third = "3H" if last == "meld" else "KD"
    b.deal("J", {0: "3D 5H 6H 7H", 1: "2C 2D 2S", 2: "4C 4D 4S 4H 3H"},
           stock=f"8H 9C 9D 4H 9S 3C {third}")
    b.draw(0).meld(0, "seq", "5H 6H 7H").discard(0, "3D")
    b.draw_discard(1).draw_discard(2)
    b.draw(0).layoff(0, 0, "4H").discard(0, "8H")
    return b


def t30_finish(b: B5, last: str = "unmeldable") -> B5:
    b.draw_discard(1)
    b.draw(2).discard(2, "3C")
    b.draw(0)
    if last == "meld":
        b.layoff(0, 0, "3H")
    else:
        b.discard(0, "KD")
    return b


UNMELD = {"r5k_going_out": "unmeldable_discard"}
MELDALL = {"r5k_going_out": "meld_all"}


def test_T30_V5K_5_meldable_last_discard_floats_unmeldable_goes_out():
    b = t30_game(UNMELD).float_(0)
    t30_finish(b)
    close(b, 1, out=0)
    assert b.scores[0][6] == 200 and b.scores[0][4] == 20
    ok(b, F(**UNMELD))


def test_V5K_5a_hand_end_after_a_meldable_last_discard():
    bad(close(t30_game(UNMELD), 1, out=0), "V5K-5a", F(**UNMELD))


def test_V5K_5a_float_after_an_unmeldable_last_discard():
    b = t30_game(UNMELD).float_(0)
    t30_finish(b).float_(0)
    bad(capped(b), "V5K-5a", F(7, **UNMELD))


def test_T30_V5K_5c_floating_seat_may_not_take_a_dead_top_card():
    b = t30_game(UNMELD).float_(0)
    b.draw_discard(1)
    b.draw(2).discard(2, "3C")
    b.take(0).discard(0, "3C")
    bad(close(b, 1, out=0), "V5K-5c", F(**UNMELD))


def test_V5K_5c_floating_seat_may_take_a_top_card_it_can_add():
    b = t30_game(UNMELD).float_(0)
    b.draw_discard(1)
    b.draw(2).discard(2, "3H")  # fits below P0's 4H 5H 6H 7H
    b.take(0).layoff(0, 0, "3H").float_(0)
    ok(capped(b), F(7, **UNMELD))


def test_V5K_5b_melding_the_last_card_floats():
    b = t30_game(UNMELD, last="meld").float_(0)
    t30_finish(b, last="meld").float_(0)
    ok(capped(b), F(7, **UNMELD))
    b2 = t30_game(UNMELD, last="meld").float_(0)
    t30_finish(b2, last="meld")
    bad(close(b2, 1, out=0), "V5K-5b", F(**UNMELD))


def test_T30_V5K_6_meld_all_discarding_the_last_card_floats():
    b = t30_game(MELDALL, last="unmeldable").float_(0)
    t30_finish(b).float_(0)
    ok(capped(b), F(7, **MELDALL))
    b2 = t30_game(MELDALL).float_(0)
    t30_finish(b2)
    bad(close(b2, 1, out=0), "V5K-6", F(**MELDALL))


def test_T30_V5K_6_meld_all_going_out_by_melding_the_last_card():
    b = t30_game(MELDALL, last="meld").float_(0)
    t30_finish(b, last="meld")
    close(b, 1, out=0)
    assert b.scores[0][6] == 200
    ok(b, F(**MELDALL))


def test_R5K_OUT_1_no_floating_without_the_variations():
    bad(capped(t30_game({}).float_(0)), "R5K-OUT-1", F(4))


def test_V5K_5b_float_only_with_zero_cards():
    b = t30_game(UNMELD)
    i = rows_of(b, 30)[0]
    bad(insert(b, i + 1, [31, 0, 0, 0, 0, 0, 0, 0]), "V5K-5b", F(4, **UNMELD))


# ============================================================================================
# V5K-7 Michigan and V5K-12 Money Cards (T-31)
# ============================================================================================


def t31_michigan(flags: dict | None = None, out: bool = True) -> B5:
    """RULES.md T-31 (cards chosen here): 3 players, wild 4, dealer 2.  P0 melds the wild-card
    group 4C 4D 4S, P1 adds a 4D to it and keeps a wild 4C and 7C, P2 melds three 3s and keeps
    AS; P0 adds 4H (400 points credited) and goes out on its second turn discarding 3D."""
    b = B5(3, dealer=2, flags=flags)
    b.deal("4", {0: "3D 4C 4D 4S", 1: "2C 4C 7C", 2: "3S 3D 3H AS"}, stock="9H 4D 9C 4H")
    b.draw(0).meld(0, "wild", "4C 4D 4S").discard(0, "9H")
    b.draw(1).layoff(1, 0, "4D").discard(1, "2C")
    b.draw(2).meld(2, "group", "3S 3D 3H").discard(2, "9C")
    if out:
        b.draw(0).layoff(0, 0, "4H").discard(0, "3D")
    return b


MICH = {"r5k_michigan": True}


def test_T31_V5K_7_michigan_collects_the_other_hands():
    b = close(t31_michigan(MICH), 1, out=0)
    assert [r[2] for r in b.scores] == [905, 100, 15]
    assert [r[5] for r in b.scores] == [0, 0, 0]
    ok(b, F(**MICH))
    base = close(t31_michigan(), 1, out=0)
    assert [r[2] for r in base.scores] == [600, -5, -185]
    ok(base, F())


def test_V5K_7_others_subtract_nothing_and_the_goer_collects():
    b = close(t31_michigan(MICH), 1, out=0, hv={1: 105})
    bad(b, "V5K-7", F(**MICH))
    b2 = close(t31_michigan(MICH), 1, out=0, bonus={0: 200})
    bad(b2, "V5K-7", F(**MICH))


def test_V5K_7_no_one_out_is_base_scoring():
    b = capped(t31_michigan(MICH, out=False))
    assert b.scores[1][5] == 105
    ok(b, F(3, **MICH))


MONEY = {"r5k_money_cards": True}


def money_pairs(wild: str = "J") -> B5:
    """RULES.md T-31 Money Cards: P0 is credited QH 7H QH 7H (groups of 7s and Qs) and goes out
    on its first turn."""
    b = B5(3, dealer=2, flags=MONEY)
    b.deal(wild, {0: "7H 7D 7S QH QD QS 7H QH"}, stock="2C")
    b.draw(0).meld(0, "group", "7H 7D 7S 7H")
    if wild == "Q":
        b.meld(0, "wild", "QH QD QS QH")
    else:
        b.meld(0, "group", "QH QD QS QH")
    b.discard(0, "2C")
    return close(b, 1, out=0)


def test_T31_V5K_12_two_pairs_of_queen_and_seven_of_hearts():
    b = money_pairs()
    assert b.scores[0][6] == 300 + 200
    ok(b, F(**MONEY))
    bad(money_pairs().array(), "R5K-OUT-2", F())  # the same bonus without the variation


def test_V5K_12_wild_queens_are_not_money_cards():
    b = money_pairs(wild="Q")
    assert b.scores[0][6] == 300
    ok(b, F(**MONEY))


def queen_in_hand(out: bool = True) -> B5:
    """P0 melds 5H 6H 7H and QH QD QS (one money pair) and goes out on its first turn, or
    keeps a 6C; P1 holds 2C QH 3C."""
    b = B5(2, dealer=1, flags=MONEY)
    b.deal("J", {0: ("" if out else "6C ") + "5H 6H 7H QH QD QS", 1: "2C QH 3C"}, stock="2D")
    b.draw(0).meld(0, "seq", "5H 6H 7H").meld(0, "group", "QH QD QS").discard(0, "2D")
    if out:
        return close(b, 1, out=0)
    return b.draw_discard(1)


def test_T31_V5K_12_queen_of_hearts_in_hand_counts_50_when_someone_went_out():
    b = queen_in_hand()
    assert b.scores[1][5] == 60 and b.scores[0][6] == 300 + 100
    ok(b, F(**MONEY))
    s1 = rows_of(b, 41)[1]
    bad(mutate(mutate(b, s1, 5, 20), s1, 2, -20), "V5K-12", F(**MONEY))
    s0 = rows_of(b, 41)[0]
    bad(mutate(mutate(b, s0, 6, 300), s0, 2, b.scores[0][2] - 100), "V5K-12", F(**MONEY))


def test_V5K_12_queen_counts_10_when_no_one_went_out():
    b = capped(queen_in_hand(out=False))
    assert b.scores[1][5] == 20
    ok(b, F(2, **MONEY))


# ============================================================================================
# Game end: R5K-GAME-1/2, V5K-2
# ============================================================================================


def test_R5K_GAME_1_target_by_player_count():
    assert t20_game().rows[0][4] == 2000
    assert t22_game("9H").rows[0][4] == 3000
    assert short_hand().rows[0][4] == 5000
    b = t20_game()
    bad(mutate(b, 0, 4, 5000), "R5K-GAME-1", F(4))
    bad(mutate(b, 0, 4, 2000), "R5K-GAME-1", F(4, r5k_target=1500))


def tie_game() -> B5:
    """2 players, wild K, dealer 1; both meld 15 points and keep a 9 (hand cap 2 turns): 5 each,
    a tie at the target 5."""
    b = B5(2, dealer=1, flags={"r5k_target": 5})
    b.deal("K", {0: "3C 4C 5C 9S", 1: "3D 4D 5D 9H"}, stock="2S 2H")
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "2S")
    b.draw(1).meld(1, "seq", "3D 4D 5D").discard(1, "2H")
    return close(b, 4)


def test_R5K_GAME_2_shared_highest_total_is_a_tie():
    b = tie_game()
    assert b.rows[-1][1:5] == [-1, 1, 0, 3]
    ok(b, F(2, r5k_target=5))
    bad(mutate(b, len(b.rows) - 1, 1, 0), "R5K-GAME-2", F(2, r5k_target=5))
    bad(mutate(b, len(b.rows) - 1, 4, 0), "R5K-GAME-2", F(2, r5k_target=5))


def test_V5K_2_only_the_player_who_went_out_wins():
    # aces wild: P0 ends on 820, P1 (who went out) on 640; target 400
    b = t21_game(wild="A")
    b.end(1, out=1)
    assert b.totals == [820, 640]
    b.game_end(1)
    ok(b, F(r5k_target=400, r5k_must_go_out_to_win=True))
    bad(b, "R5K-GAME-2", F(r5k_target=400))  # without V5K-2 the highest total wins
    bad(mutate(b, len(b.rows) - 1, 1, 0), "V5K-2", F(r5k_target=400, r5k_must_go_out_to_win=True))


def test_V5K_2_no_one_out_means_another_hand():
    def game(stop_after_one: bool) -> B5:
        b = B5(2, dealer=1, flags={"r5k_target": 400})
        b.deal("5", {0: "7C AS AD 5H KC 8C 5C 2D", 1: "4H 9C TC JC QC"}, upcard="3S",
               stock="3D 6D 9S")
        b.draw(0).meld(0, "group", "AS AD 5H", key="A").discard(0, "3D")
        b.draw(1).meld(1, "seq", "9C TC JC QC").discard(1, "6D")
        b.draw(0).layoff(0, 1, "KC").layoff(0, 1, "8C 7C").discard(0, "9S")
        b.end(4)
        if stop_after_one:
            return b.game_end(0)
        b.deal("K", {0: "2C", 1: "2D"})
        b.draw_discard().draw_discard().draw_discard()
        return b.end(4).game_end(-1, capped=1)
    flags = F(3, hands=2, r5k_target=400, r5k_must_go_out_to_win=True)
    ok(game(False), flags)
    bad(game(True), "V5K-2", flags)
    ok(game(True), F(3, hands=2, r5k_target=400))  # base rules: P0's 420 wins


def test_ENGINE_HAND_CAP_and_turn_cap():
    b = t20_game()
    bad(b, "ENGINE-TURN-CAP", F(5))  # HAND_END 4 before the cap
    bad(b, "ENGINE-HAND-CAP", F(4, hands=2))  # GAME_END capped before the cap


# ============================================================================================
# Draws: R5K-DRAW-1/2, C-TURN-4, V5K-8 Polish
# ============================================================================================


def deep_take(first=None, skip_meld: bool = False) -> B5:
    """2 players, wild K, dealer 1; the pile becomes 8C 3S 3D; P0 takes it from the 8C (index
    0), plays ``first`` (if any), then melds 8C 9C TC (unless ``skip_meld``) and discards."""
    b = B5(2, dealer=1)
    b.deal("K", {0: "3S 9C TC 4D", 1: "2H 5S 6S"}, upcard="8C", stock="2D 3D")
    b.draw(0).discard(0, "3S")
    b.draw(1).discard(1, "3D")
    b.take(0, k=0)
    if first:
        first(b)
    if not skip_meld:
        b.meld(0, "seq", "8C 9C TC")
    b.discard(0, "3S")
    return capped(b)


def test_R5K_DRAW_1_c_deep_take_melds_the_selected_card_first():
    ok(deep_take(), F(3))
    bad(deep_take(first=lambda b: b.meld(0, "seq", "2D 3D 4D")), "C-TURN-4", F(3))
    bad(deep_take(skip_meld=True), "R5K-DRAW-1", F(3))


def test_R5K_DRAW_1_b_top_card_has_no_duty_and_may_be_discarded():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9D")
    b.take(0).discard(0, "9D")
    ok(capped(b), F(1))


def test_R5K_DRAW_1_one_draw_per_turn():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9D", stock="5D")
    b.take(0).draw(0, start=False).discard(0, "5D")
    bad(capped(b), "R5K-DRAW-1", F(1))
    b2 = B5(2, dealer=1)
    b2.deal("K", {0: "2C 3C 4C"}, upcard="9D", stock="5D")
    b2.turn(0)
    b2.discard(0, "2C")
    bad(capped(b2), "R5K-DRAW-1", F(1))


def polish_game() -> B5:
    b = B5(2, dealer=1, flags={"r5k_polish": True})
    b.deal("K", {0: "2C 3C 4C", 1: "2D 3D 4D"}, upcard="9H", stock="5C 5D")
    b.draw(0).discard(0, "2C")
    b.draw(1).discard(1, "2D")
    b.take_all(0).discard(0, "3C")
    return capped(b)


def test_V5K_8_polish_takes_the_whole_pile_without_duty():
    b = polish_game()
    assert "9H" in b.hand(0) and len(b.pile) == 1
    ok(b, F(3, r5k_polish=True))
    bad(b, "V5K-8", F(3))
    i = rows_of(b, 97)[0]
    bad(mutate(b, i, 2, 2), "TRACE-FORMAT", F(3, r5k_polish=True))


# ============================================================================================
# First turn: V5K-10 Extra Card Dealt, V5K-11 Exchanging Upcard
# ============================================================================================


EXTRA = {"r5k_first_turn": "extra_card"}
EXCH = {"r5k_first_turn": "exchange_upcard"}


def extra_game(first=None) -> B5:
    """V5K-10: 3 players, dealer 2; P0 is dealt one extra card, and its first turn only
    discards (``first`` replaces that turn); P1 takes that card, P2 draws."""
    b = B5(3, dealer=2, flags=EXTRA)
    b.deal("K", {0: "3C 4C 5C 6C 9D", 1: "2D 7D 8D"})
    if first is None:
        b.nodraw(0, reason=3).discard(0, "9D")
    else:
        first(b)
    b.take(1).discard(1, "2D")
    b.draw_discard(2)
    return capped(b)


def test_V5K_10_extra_card_and_discard_only_first_turn():
    b = extra_game()
    assert b.face_ups[0][2] == 5 and b.rows[rows_of(b, 5)[0]][4] == 0  # no upcard
    ok(b, F(3, **EXTRA))


def test_V5K_10_the_first_turn_only_discards():
    bad(extra_game(lambda b: b.draw(0).discard(0, "9D")), "V5K-10", F(3, **EXTRA))
    bad(extra_game(lambda b: b.nodraw(0, reason=3).meld(0, "seq", "3C 4C 5C").discard(0, "9D")),
        "V5K-10", F(3, **EXTRA))


def test_V5K_10_flag_and_dealing():
    b = extra_game()
    bad(b, "R5K-DEAL-1", F(3))  # without the flag the first block is one card shorter
    i = rows_of(b, 12)[0]
    bad(mutate(b, i, 2, 2), "V5K-10", F(3, **EXTRA))  # NO_DRAW 2 in the discard-only turn


def test_V5K_10_discard_only_turn_is_the_first_turn():
    """Reading: the discard-only turn is the first player's first turn (AMB-33), so its next
    turn is not a first turn for R5K-OUT-2/3."""
    b = B5(3, dealer=2, flags=EXTRA)
    b.deal("K", {0: "3C 4C 5C 6C 9D"})
    b.nodraw(0, reason=3).discard(0, "9D")
    b.draw_discard(1).draw_discard(2)
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C")
    bad(close(b, 1, out=0), "R5K-OUT-3", F(**EXTRA))


def exch_game(first) -> B5:
    """V5K-11: 3 players, dealer 2, upcard 9H; ``first`` is P0's first turn after TURN_START."""
    b = B5(3, dealer=2, flags=EXCH)
    b.deal("K", {0: "3C 4C 5C 6C", 1: "2D 7D 8D", 2: "2S 7S 8S"}, upcard="9H",
           stock="5H 5D 5S")
    b.turn(0)
    first(b)
    b.discard(0, "5H")
    b.draw_discard(1).draw_discard(2)
    return capped(b)


def test_V5K_11_a_later_seat_swaps_for_the_upcard():
    b = exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False))
    assert "9H" in b.hand(1) and b.pile[0] == cid("7D")
    ok(b, F(3, **EXCH))
    ok(exch_game(lambda b: b.exchange(2, "2S").draw(0, start=False)), F(3, **EXCH))
    ok(exch_game(lambda b: b.draw(0, start=False)), F(3, **EXCH))  # nobody swaps


def test_V5K_11_first_player_may_take_the_upcard():
    b = B5(3, dealer=2, flags=EXCH)
    b.deal("K", {0: "3C 4C 5C 6C"}, upcard="9H")
    b.take(0).discard(0, "9H")
    ok(capped(b), F(1, **EXCH))


def test_V5K_11_exchange_rules():
    bad(exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False)), "V5K-11", F(3))
    bad(exch_game(lambda b: b.exchange(1, "7D").exchange(2, "7S").draw(0, start=False)),
        "V5K-11", F(3, **EXCH))
    bad(exch_game(lambda b: b.exchange(0, "6C").draw(0, start=False)), "V5K-11", F(3, **EXCH))
    b = exch_game(lambda b: b.exchange(1, "7D").draw(0, start=False))
    i = rows_of(b, 10)[0]
    # the first player takes the swapped-in card instead of drawing
    bad(replace(b, i, [11, 0, 0, 1, cid("7D"), 0, 0, 0]), "V5K-11", F(3, **EXCH))


# ============================================================================================
# End of stock: R5K-STOCK-1
# ============================================================================================


def stock_out() -> B5:
    """2 players, wild K, dealer 1, hands of 4: every turn draws and discards the card drawn
    until the stock (95 cards) is empty."""
    b = B5(2, dealer=1)
    b.deal("K", {0: "3C 2C 4C 9S", 1: "3D 2D 4D 9D"}, upcard="9H")
    while b.stock:
        b.draw_discard()
    return b


def idle_turn(b: B5) -> B5:
    """Take the top discard and discard another card."""
    seat = b.next
    b.take()
    return b.discard(seat, b.hands[seat][0])


def test_R5K_STOCK_1_b_declining_the_pile_ends_the_hand():
    b = stock_out().nodraw(reason=0)
    ok(close(b, 2), F())
    bad(close(stock_out().nodraw(reason=0), 3), "R5K-STOCK-1", F())


def test_R5K_STOCK_1_no_stock_draw_once_empty():
    b = stock_out()
    seat = b.turn()
    b.rows.append([10, seat, cid("9H"), 0, 0, 0, 0, 0])
    bad(b.array(), "R5K-STOCK-1", F())


def test_R5K_STOCK_1_c_n_turns_without_putting_a_card_down():
    ok(close(idle_turn(idle_turn(stock_out())), 3), F())
    bad(close(idle_turn(stock_out()), 3), "R5K-STOCK-1", F())
    bad(capped(idle_turn(idle_turn(idle_turn(stock_out())))), "R5K-STOCK-1", F(98))


def test_R5K_STOCK_1_c_putting_a_card_down_resets_the_count():
    b = stock_out()
    first = b.next
    b.take().meld(first, "seq", "2C 3C 4C" if first == 0 else "2D 3D 4D")
    b.discard(first, b.hands[first][0])
    bad(close(idle_turn(b), 3), "R5K-STOCK-1", F())
    b = stock_out()
    first = b.next
    b.take().meld(first, "seq", "2C 3C 4C" if first == 0 else "2D 3D 4D")
    b.discard(first, b.hands[first][0])
    ok(close(idle_turn(idle_turn(b)), 3), F())


def test_R5K_DRAW_1_no_draw_while_the_stock_lasts():
    b = B5(2, dealer=1)
    b.deal("K", {0: "2C 3C 4C"}, upcard="9H")
    b.nodraw(0, reason=0)
    bad(close(b, 2), "R5K-DRAW-1", F())


# ============================================================================================
# Card conservation and trace bookkeeping
# ============================================================================================


def test_C_CARD_CONSERVATION_cards_must_be_where_the_trace_says():
    b = close(short_hand(), 1, out=0)
    d = rows_of(b, 30)[0]
    bad(mutate(b, d, 2, cid("QD")), "C-CARD-CONSERVATION", F())  # not held
    s = rows_of(b, 10)[0]
    bad(mutate(b, s, 2, cid("QD")), "C-CARD-CONSERVATION", F())  # not the top stock card
    t = rows_of(b, 11)[0]
    bad(mutate(b, t, 4, cid("QD")), "C-CARD-CONSERVATION", F())  # not the pile card
    c = rows_of(b, 21)[0]
    bad(mutate(b, c, 3, cid("QD")), "C-CARD-CONSERVATION", F())  # melds a card not held


def test_TRACE_FORMAT_turn_bookkeeping():
    b = close(short_hand(), 1, out=0)
    t = rows_of(b, 5)[1]
    bad(mutate(b, t, 3, 50), "TRACE-FORMAT", F())  # stock size
    bad(mutate(b, t, 2, 5), "TRACE-FORMAT", F())  # turn number
    h = rows_of(b, 40)[0]
    bad(mutate(b, h, 3, 9), "TRACE-FORMAT", F())  # turns in the hand
    bad(mutate(b, h, 2, 1), "TRACE-FORMAT", F())  # out seat
    m = rows_of(b, 20)[0]
    bad(mutate(b, m, 2, 3), "TRACE-FORMAT", F())  # meld id


def test_TRACE_FORMAT_malformed_traces_never_raise():
    a = close(short_hand(), 1, out=0).array()
    for i in range(0, len(a), 3):
        for col, val in ((0, 99), (1, -5), (2, 200), (4, 70)):
            res = validate_trace(mutate(a, i, col, val), F())
            assert isinstance(res, ValidationResult)
    assert validate_trace(a[:10], F()).violations


def test_R5K_OUT_2_going_out_in_a_call_turn_scores_200():
    """Any-cards rummy, 3 players, dealer 2: the pile becomes 5H 6H 7H; P2, before its first
    normal turn, calls, melds them and 2C 3C 4C and is out.  A call turn is not a first turn."""
    b = B5(3, dealer=2, flags={"r5k_rummy": "any_cards"})
    b.deal("K", {0: "3D 6H 4D 5D", 1: "3S 7H 4S 5S", 2: "2C 3C 4C"}, upcard="5H",
           stock="2D 2S")
    b.draw(0).discard(0, "6H")
    b.draw(1).discard(1, "7H")
    b.call_(2, k=0).meld(2, "seq", "5H 6H 7H").meld(2, "seq", "2C 3C 4C")
    close(b, 1, out=2)
    assert b.scores[2][6] == 200
    ok(b, F(r5k_rummy="any_cards"))
    s2 = rows_of(b, 41)[2]
    bad(mutate(mutate(b, s2, 6, 300), s2, 2, b.scores[2][2] + 100), "R5K-OUT-2",
        F(r5k_rummy="any_cards"))
