"""Tests of the independent checker (rummysim.validate.rum500) for Dealer's gambit's joker effects
and blocks (RULES.md V500-GAMBIT-5/6/8, T-18, AMB-22), as docs/trace-format.md "Dealer's gambit"
records them: a doubled meld (DOUBLE: its cards score double, the joker 0, the meld sealed), a
split take (SPLIT: which cards leave play, which go to the hand, the selected card's duty), a block
of the dealer's joker (BLOCK), and card conservation with cards out of play.

Every trace is hand made with ``tests.tracebuild_gambit.GB``; the flags are ``rummysim.Rules``
dictionaries built without the kernels' support check.  For each rule a legal trace passes and
illegal variants are flagged with the rule's ID.  The pack, the nomination, wild jokers and the
dealer's joker are in ``tests/test_validate_gambit.py``.
"""

from __future__ import annotations

import pytest

from tests.scenarios_variations import insert
from tests.tracebuild import B, assert_ok, assert_rule, cname, find, mutate
from tests.tracebuild_gambit import GB, gambit_flags

pytestmark = pytest.mark.usefixtures("paranoid_validator")

G = gambit_flags


def capped(b: B) -> B:
    return b.end(4).game_end(-1, capped=1)


def seat_tv(b: B, seat: int) -> int:
    return b.scores[seat][4]


# ============================================================================================
# V500-GAMBIT-5: double
# ============================================================================================


def t18_double(flags: dict, double: bool = True, lay_7s: bool = False, source: int = 0,
               effect: str = "double", tv: dict | None = None) -> GB:
    """RULES.md T-18 (double): dealer 0; P1 lays 7C 7D 7H with a joker on it; P2 plays; P0 then
    lays 7S off on the set if ``lay_7s``.  ``source`` 1: P1 is made the doubler with the dealer's
    joker (only the dealer may).  ``tv`` replaces table values in SCORE."""
    b = GB(3, dealer=0, flags=flags)
    b.deal({1: "7C 7D 7H X 2C 3D 9S", 0: "7S 2D 3C 4S 9C TD JD"}, stock="QD QS KD",
           effect=effect)
    b.draw(1).meld(1, "set", "7C 7D 7H")
    if double:
        b.double(1, source=source)
    b.discard(1, "QD")
    b.draw_discard(2)
    b.draw(0)
    if lay_7s:
        b.layoff(0, 0, "7S")
    b.discard(0, "KD")
    return b.end(4, tv=tv).game_end(-1, capped=1)


def test_T18_V500_GAMBIT_5_doubled_set_credits_42_and_the_joker_0():
    f = G(3)
    b = t18_double(f)
    assert b.rows[find(b.rows, 71)][1:4] == [1, 0, 0]  # seat 1 doubles meld 0 from its hand
    assert find(b.rows, 71) == find(b.rows, 21, nth=2) + 1  # right after the MELD's cards
    assert seat_tv(b, 1) == 42
    assert_ok(b, f)


def test_T18_V500_GAMBIT_5_doubled_meld_is_sealed():
    f = G(3)
    assert_rule(t18_double(f, lay_7s=True), "V500-GAMBIT-5", f)
    assert_ok(t18_double(f, double=False, lay_7s=True), f)  # an undoubled set takes the 7S


def test_V500_GAMBIT_5_the_doubled_value_is_checked():
    f = G(3)
    assert_rule(t18_double(f, tv={1: 21}), "V500-GAMBIT-5", f)  # scored single


def test_V500_GAMBIT_5_double_only_under_the_double_nomination():
    f = G(3)
    assert_rule(t18_double(f, effect="wild"), "V500-GAMBIT-3", f)
    assert_rule(t18_double(f, effect="split"), "V500-GAMBIT-3", f)


def test_V500_GAMBIT_5_double_directly_follows_the_meld_it_names():
    f = G(3)
    b = t18_double(f)
    i = find(b.rows, 71)
    a = b.array()
    late = insert(a, find(b.rows, 30) + 1, list(a[i]))  # after the discard
    late = late[[r for r in range(len(late)) if r != i]]
    assert_rule(late, "V500-GAMBIT-5", f)
    assert_rule(mutate(b, i, 2, 1), "V500-GAMBIT-5", f)  # names another meld id
    assert_rule(insert(b.array(), i + 1, list(a[i])), "V500-GAMBIT-5", f)  # twice
    assert_rule(mutate(b, i, 1, 2), "V500-GAMBIT-5", f)  # a seat that did not lay the meld


def test_V500_GAMBIT_5_double_after_a_lay_off_is_refused():
    f = G(3)
    b = GB(3, dealer=0, flags=f)
    b.deal({1: "7C 7D 7H X 2C 3D 9S", 2: "7S 2D 3C 4S 9C TD JD"}, stock="QD QS KD",
           effect="double")
    b.draw(1).meld(1, "set", "7C 7D 7H").discard(1, "QD")
    b.draw(2).layoff(2, 0, "7S")
    b.rows.append([71, 2, 0, 0, 0, 0, 0, 0])
    b.discard(2, "QS")
    b.draw_discard(0)
    assert_rule(capped(b), "V500-GAMBIT-5", f)


def test_V500_GAMBIT_5_the_doubling_joker_comes_from_the_hand():
    f = G(3)
    b = GB(3, dealer=0, flags=f)
    b.deal({1: "7C 7D 7H 2C 3D 9S KC"}, stock="QD QS KD", effect="double")
    b.draw(1).meld(1, "set", "7C 7D 7H")
    b.rows.append([71, 1, 0, 0, 0, 0, 0, 0])  # seat 1 holds no joker
    assert_rule(b.discard(1, "QD"), "C-CARD-CONSERVATION", f)


def test_V500_GAMBIT_5_the_dealer_doubles_with_the_dealers_joker():
    f = G(3)
    b = GB(3, dealer=2, flags=f)
    b.deal({2: "7C 7D 7H 2C 3D 9S KC"}, stock="QD QS KD", effect="double")
    b.draw_discard(0)
    b.draw_discard(1)
    b.draw(2).meld(2, "set", "7C 7D 7H").double(2, source=1).discard(2, "KD")
    b = capped(b)
    assert seat_tv(b, 2) == 42
    assert_ok(b, f)
    # another seat may not (V500-GAMBIT-7)
    assert_rule(t18_double(f, source=1), "V500-GAMBIT-7", f)


def test_V500_GAMBIT_5_meld_and_double_lay_down_every_card():
    """R500-OUT-1: the hand emptied by the MELD and its DOUBLE goes out."""
    f = G(3)
    b = GB(3, dealer=0, flags=f)
    b.deal({1: "7C 7D 7H X 4C 5C 6C"}, stock="3C", effect="double")
    b.draw(1).meld(1, "run", "3C 4C 5C 6C").meld(1, "set", "7C 7D 7H").double(1)
    b = b.end(1, out=1).game_end(-1, capped=1)
    assert seat_tv(b, 1) == 18 + 42
    assert_ok(b, f)
    # the dealer's own last cards, doubled with the dealer's joker
    d = GB(3, dealer=1, flags=f)
    d.deal({1: "7C 7D 7H 3C 4C 5C 6C"}, stock="QD QS 2C", effect="double")
    d.draw_discard(2)
    d.draw_discard(0)
    d.draw(1).meld(1, "run", "2C 3C 4C 5C 6C").meld(1, "set", "7C 7D 7H").double(1, source=1)
    assert_ok(d.end(1, out=1).game_end(-1, capped=1), f)


def test_V500_GAMBIT_5_four_aces_doubled_score_50_each():
    f = G(3, r500_four_aces_100=True)
    b = GB(3, dealer=0, flags=f)
    b.deal({1: "AC AD AH AS X 3D 9S"}, stock="QD QS KD", effect="double")
    b.draw(1).meld(1, "set", "AC AD AH AS").double(1).discard(1, "QD")
    b.draw_discard(2)
    b.draw_discard(0)
    b = b.end(4, tv={1: 200}).game_end(-1, capped=1)  # V500-ACE: 25 each, doubled
    assert_ok(b, f)


def test_V500_GAMBIT_5_open30_counts_the_doubled_value():
    f = G(3, r500_first_meld_min=30)
    assert_ok(t18_double(f), f)  # 7C 7D 7H doubled: 42
    assert_rule(t18_double(f, double=False), "V500-OPEN30", f)  # 21


def test_V500_GAMBIT_5_an_out_of_turn_meld_may_be_doubled():
    f = G(3, r500_meld_out_of_turn=True)

    def game(source: int) -> GB:
        b = GB(3, dealer=0, flags=f)
        b.deal({0: "7C 7D 7H X 2C 3D 9S"}, stock="QD QS KD", effect="double")
        b.draw(1).discard(1, "QD")
        b.oot(0).meld(0, "set", "7C 7D 7H").double(0, source=source)
        b.draw_discard(2)
        b.draw_discard(0)
        return capped(b)

    b = game(0)
    assert seat_tv(b, 0) == 42
    assert_ok(b, f)
    # the dealer's joker only on the dealer's own turns
    assert_rule(game(1), "V500-GAMBIT-7", f)


def test_V500_GAMBIT_5_a_sealed_meld_takes_no_add_opponent_lay_off():
    f = G(3, r500_add_opponent_hand=True)

    def game(meld_id: int, card: str) -> GB:
        b = GB(3, dealer=0, flags=f)
        b.deal({1: "7C 7D 7H X 4C 5C 6C", 2: "7S 2C 3D 4S 9C TD JD"}, stock="3C",
               effect="double")
        b.draw(1).meld(1, "run", "3C 4C 5C 6C").meld(1, "set", "7C 7D 7H").double(1)
        b.addopp(2, meld_id, card)
        return b.end(1, out=1).game_end(-1, capped=1)

    assert_ok(game(0, "2C"), f)  # on the undoubled run
    assert_rule(game(1, "7S"), "V500-GAMBIT-5", f)


def test_V500_GAMBIT_5_unplayable_test_ignores_sealed_melds():
    """V500-UNPLAYABLE-1: a last card that fits only a sealed meld cannot be laid off, so
    discarding it goes out."""
    f = G(3, r500_unplayable_discard=True)

    def game(double: bool, out: bool) -> GB:
        b = GB(3, dealer=0, flags=f)
        b.deal({1: "7C 7D 7H X 2C 5S 9S", 2: "2H 3H 4H 4D 5D 6D 7S"}, stock="QD 3D",
               effect="double")
        b.draw(1).meld(1, "set", "7C 7D 7H")
        if double:
            b.double(1)
        b.discard(1, "QD")
        b.draw(2).meld(2, "run", "3D 4D 5D 6D").meld(2, "run", "2H 3H 4H").discard(2, "7S")
        if out:
            return b.end(1, out=2).game_end(-1, capped=1)
        b.float_(2).draw_discard(0)
        return capped(b)

    assert_ok(game(double=True, out=True), f)
    assert_rule(game(double=True, out=False), "V500-UNPLAYABLE-1", f)
    assert_ok(game(double=False, out=False), f)  # 7S fits the open set: the player floats


def test_V500_GAMBIT_5_no_rummy_call_on_a_sealed_meld():
    f = G(4, r500_call_rummy="top_only")
    b = GB(3, dealer=0, flags=f)
    b.deal({1: "7C 7D 7H X 2C 3D 9S", 2: "7S 2D 3C 4S 9C TD JD"}, stock="QD QS KD KS",
           effect="double")
    b.draw(1).meld(1, "set", "7C 7D 7H").double(1).discard(1, "QD")
    b.draw(2).discard(2, "7S")
    b.call(0).layoff(0, 0, "7S").discard(0, b.hands[0][0])
    b.draw_discard(1)
    assert_rule(capped(b), "V500-RUMMY-5", f)


# ============================================================================================
# V500-GAMBIT-6: split
# ============================================================================================

T18_PILE = ("8H", "9D", "KS", "4D", "5D")  # discarded in turn onto the upcard 3C


def split_game(flags: dict, discards=T18_PILE, k: int = 1, s: int = 4, source: int = 0,
               holds: str = "8C 8S X", meld: str | None = "8C 8H 8S", discard: str | None = None,
               effect: str = "split", call: bool = False, more: int = 0,
               opener: str | None = None, tail=None) -> GB:
    """RULES.md T-18 (split): 3 players, dealer 2.  The seats discard ``discards`` in turn onto
    the upcard 3C; the next seat (the dealer for five discards), holding ``holds``, splits at
    ``k``/``s`` with a joker (``source``), melds ``meld`` and discards ``discard`` (default: a card
    of its own).  ``call``: the split is made in a rummy-call turn.  ``opener``: seat 0 first melds
    this run, and the splitter lays card k off on it instead of ``meld``.  ``more`` turns of stock
    draws and discards follow, then ``tail(b)`` if given."""
    dealer = 2
    b = GB(3, dealer=dealer, flags=flags)
    seats = [(dealer + 1 + t) % 3 for t in range(len(discards))]
    splitter = (dealer + 1 + len(discards)) % 3
    hands: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for seat, card in zip(seats, discards):
        hands[seat].append(card)
    hands[splitter] += holds.split()
    if opener:
        hands[0] += opener.split()
    b.deal({seat: " ".join(h) for seat, h in hands.items()}, upcard="3C",
           stock="2C 2D 2H 3H 3S JD QC", effect=effect)
    for t, (seat, card) in enumerate(zip(seats, discards)):
        b.draw(seat)
        if opener and t == 0:
            b.meld(0, "run", opener)
        b.discard(seat, card)
    if call:
        b.turn(splitter, kind=1)
    b.split(splitter, k, s, source, start=not call)
    if opener:
        b.layoff(splitter, 0, cname(b.rows[-1][4]))
    elif meld:
        b.meld(splitter, "set", meld)
    if discard is None:
        own = [cname(c) for c in b.hands[splitter]
               if cname(c) not in discards and cname(c) != "X"]
        discard = own[0]
    b.discard(splitter, discard)
    for _ in range(more):
        b.draw_discard()
    if tail:
        tail(b)
    return capped(b)


def test_T18_V500_GAMBIT_6_split_removes_9D_KS_gives_8H_4D_5D_and_leaves_3C():
    f = G(6)
    b = split_game(f)
    split = b.rows[find(b.rows, 72)]
    assert split[1:6] == [2, 1, 4, 2, 0]  # seat 2, k=1 (8H), s=4 (4D), 2 removed, hand joker
    take = b.rows[find(b.rows, 72) + 1]
    assert take[:5] == [11, 2, 1, 3, 8 + 32]  # TAKE_PILE of 8H 4D 5D from k=1
    assert [cname(c) for c in b.out_of_play] == ["9D", "KS"]
    assert b.pile[0] == 1 + 16 * 0 + 2  # 3C is left, then seat 2's discard
    assert_ok(b, f)
    assert_ok(split_game(f, discard="5D"), f)  # the other taken cards are hand cards


def test_T18_V500_GAMBIT_6_the_selected_card_must_be_melded():
    f = G(6)
    assert_rule(split_game(f, meld=None), "V500-GAMBIT-6", f)


def test_V500_GAMBIT_6_the_selected_card_has_its_duty_even_taken_alone():
    """s = top+1: only card k is taken; it must still be played first (R500-DRAW-3, C-TURN-4)."""
    f = G(6)
    alone = split_game(f, s=6)
    assert alone.rows[find(alone.rows, 72) + 1][3] == 1  # n_taken 1
    assert_ok(alone, f)
    assert_rule(split_game(f, s=6, meld=None), "V500-GAMBIT-6", f)


def test_V500_GAMBIT_6_a_split_point_right_above_k_removes_nothing():
    f = G(6)
    assert_ok(split_game(f, s=2), f)


def test_V500_GAMBIT_6_split_point_and_selected_card_in_range():
    f = G(6)
    b = split_game(f)
    i = find(b.rows, 72)
    assert_rule(mutate(b, i, 3, 1), "V500-GAMBIT-6", f)  # s = k
    assert_rule(mutate(b, i, 3, 7), "V500-GAMBIT-6", f)  # s > top + 1
    assert_rule(mutate(b, i, 2, 5), "V500-GAMBIT-6", f)  # k = top: nothing to split
    assert_rule(mutate(b, i, 4, 1), "TRACE-FORMAT", f)  # n_removed != s - k - 1


def test_V500_GAMBIT_6_the_take_follows_the_split_directly_from_k():
    f = G(6)
    b = split_game(f)
    i = find(b.rows, 72)
    assert_rule(mutate(b, i + 1, 2, 0), "V500-GAMBIT-6", f)  # TAKE_PILE from another k
    a = b.array()
    a[i + 1] = [10, 2, b.stock[0], 0, 0, 0, 0, 0]
    assert_rule(a, "V500-GAMBIT-6", f)  # a stock draw instead
    assert_rule(mutate(b, i + 1, 3, 5), "TRACE-FORMAT", f)  # n_taken of the pile before split


def test_V500_GAMBIT_6_the_pile_closes_up():
    """After the split the pile is 3C and the splitter's discard: two cards at the next turn."""
    f = G(7)
    b = split_game(f, more=1)
    assert b.rows[find(b.rows, 5, nth=6)][4] == 2
    assert_ok(b, f)
    assert_rule(mutate(b, find(b.rows, 5, nth=6), 4, 4), "TRACE-FORMAT", f)


def test_V500_GAMBIT_6_split_only_under_the_split_nomination():
    f = G(6)
    assert_rule(split_game(f, effect="double"), "V500-GAMBIT-3", f)


def test_V500_GAMBIT_6_never_in_a_rummy_call_turn():
    f = G(6, r500_call_rummy="pile")
    assert_rule(split_game(f, call=True), "V500-GAMBIT-6", f)


def test_V500_GAMBIT_6_the_splitting_joker_comes_from_the_hand():
    f = G(6)
    assert_rule(split_game(f, holds="8C 8S"), "C-CARD-CONSERVATION", f)


def test_V500_GAMBIT_6_the_dealer_splits_with_the_dealers_joker():
    f = G(6)
    b = split_game(f, holds="8C 8S", source=1)  # seat 2 is the dealer
    assert_ok(b, f)
    # seat 1 (four discards: seat 1 splits) may not use it (V500-GAMBIT-7)
    f5 = G(5)
    four = ("8H", "9D", "4D", "5D")
    assert_ok(split_game(f5, discards=four, s=3), f5)
    assert_rule(split_game(f5, discards=four, s=3, holds="8C 8S", source=1), "V500-GAMBIT-7", f5)


def test_V500_GAMBIT_6_a_selected_joker_cannot_be_melded():
    """Under split jokers are not wild: a split whose card k is a joker carries a duty no meld
    can meet (V500-GAMBIT-3)."""
    f = G(6, r500_gambit_jokers=4)
    assert_rule(split_game(f, discards=("X", "9D", "KS", "4D", "5D"), meld=None),
                "V500-GAMBIT-3", f)


def test_V500_GAMBIT_6_any_taken_forbids_discarding_a_taken_card():
    f = G(6, r500_discard_restriction="any_taken")
    assert_ok(split_game(f), f)
    assert_rule(split_game(f, discard="4D"), "V500-DISCSAME", f)


def test_V500_GAMBIT_6_new_meld_applies_to_the_selected_card():
    """V500-NEWMELD: card k goes into a new meld, never a lay-off."""
    f = G(6, r500_pickup_use="new_meld")
    assert_ok(split_game(f), f)
    laid_off = split_game(f, opener="5H 6H 7H")  # 8H laid off on seat 0's run
    assert_ok(laid_off, G(6))
    assert_rule(laid_off, "V500-NEWMELD", f)


def test_V500_GAMBIT_6_cards_out_of_play_stay_out_of_a_reshuffle():
    """Conservation: the split's cards (9D KS) and joker are out of play for the hand; a
    V500-STOCKEND reshuffle uses only the pile."""
    f = G(33, r500_end_of_stock="reshuffle")

    def tail(b: GB) -> None:
        while b.stock:
            b.draw_discard()
        seat = b.next
        b.reshuffle(seat).draw(seat, start=False)
        b.discard(seat, b.last)

    b = split_game(f, tail=tail)
    assert_ok(b, f)
    a = b.array()
    i = find(b.rows, 64)  # the first RESTOCK record
    a[i, 2] = 16 * 1 + 9  # 9D, out of play since the split
    assert_rule(a, "C-CARD-CONSERVATION", f)


# ============================================================================================
# V500-GAMBIT-8: blocking the dealer's joker
# ============================================================================================


def block_game(flags: dict, blocker: int = 0, dealer_uses: str = "", effect: str = "wild",
               blocker_hand: str = "X 2C 3D 4S 9C JC QC", blocks: int = 1) -> GB:
    """Dealer 2.  Seat ``blocker`` holds ``blocker_hand`` and records ``blocks`` BLOCKs after its
    draw; then the dealer uses the dealer's joker (``dealer_uses``: "wild" in a run, "double" on
    a set)."""
    b = GB(3, dealer=2, flags=flags)
    hands = {blocker: blocker_hand}
    if blocker != 2:
        hands[2] = "9D TD 7C 7D 7H 5S 6H"
    b.deal(hands, stock="QD QS KD KS", effect=effect)
    for seat in range(3):
        b.draw(seat)
        for _ in range(blocks if seat == blocker else 0):
            b.block(seat)
        if seat == 2 and dealer_uses == "wild":
            b.meld(2, "run", "9D TD DJ@11")
        elif seat == 2 and dealer_uses == "double":
            b.meld(2, "set", "7C 7D 7H").double(2, source=1)
        b.discard(seat, b.last)
    return capped(b)


def test_V500_GAMBIT_8_a_joker_blocks_the_dealers_joker_both_leave_play():
    f = G(3)
    b = block_game(f)
    assert b.rows[find(b.rows, 73)][1] == 0
    assert_ok(b, f)  # conservation (checked at every record): both jokers out of play


@pytest.mark.parametrize("use,effect", [("wild", "wild"), ("double", "double")])
def test_V500_GAMBIT_8_the_dealer_cannot_use_a_blocked_joker(use, effect):
    f = G(3)
    assert_ok(block_game(f, dealer_uses=use, effect=effect, blocks=0), f)
    assert_rule(block_game(f, dealer_uses=use, effect=effect), "V500-GAMBIT-8", f)


def test_V500_GAMBIT_8_the_dealer_does_not_block():
    f = G(3)
    assert_rule(block_game(f, blocker=2), "V500-GAMBIT-8", f)


def test_V500_GAMBIT_8_only_while_the_dealers_joker_is_beside_the_dealer():
    f = G(4, r500_gambit_jokers=4)
    # used by the dealer in the first round, blocked by seat 0 in the second
    b = GB(3, dealer=2, flags=f)
    b.deal({0: "X 2C 3D 4S 9C JC QC", 2: "9D TD 7C 7D 7H 5S 6H"}, stock="QD QS KD KS")
    b.draw_discard(0)
    b.draw_discard(1)
    b.draw(2).meld(2, "run", "9D TD DJ@11").discard(2, "KD")
    b.draw(0).block(0).discard(0, "KS")
    assert_rule(capped(b), "V500-GAMBIT-8", f)
    # blocked twice
    f3 = G(3, r500_gambit_jokers=4)
    assert_rule(block_game(f3, blocker_hand="X X 3D 4S 9C JC QC", blocks=2), "V500-GAMBIT-8", f3)


def test_V500_GAMBIT_8_in_the_play_phase_of_the_blockers_own_turn():
    f = G(3)
    before_draw = GB(3, dealer=2, flags=f)
    before_draw.deal({0: "X 2C 3D 4S 9C TD JD"}, stock="QD QS KD")
    before_draw.turn(0)
    before_draw.block(0).draw(0, start=False).discard(0, "QD")
    assert_rule(before_draw, "V500-GAMBIT-8", f)
    between = GB(3, dealer=2, flags=f)
    between.deal({1: "X 2C 3D 4S 9C TD JD"}, stock="QD QS KD")
    between.draw_discard(0)
    between.block(1).draw_discard(1)
    assert_rule(between, "V500-GAMBIT-8", f)
    fo = G(3, r500_meld_out_of_turn=True)
    oot = GB(3, dealer=2, flags=fo)
    oot.deal({1: "X 8C 8D 8S 9C TD JD"}, stock="QD QS KD")
    oot.draw_discard(0)
    oot.oot(1).meld(1, "set", "8C 8D 8S").block(1)
    assert_rule(oot, "V500-GAMBIT-8", fo)


def test_V500_GAMBIT_8_not_while_the_takes_duty_is_unmet():
    f = G(3)

    def game(block_first: bool) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "7H", 1: "X 5H 6H 2C 3D 9S KC"}, upcard="4H", stock="QD QS KD")
        b.draw(0).discard(0, "7H")
        b.take(1, 0)  # 4H (selected) and 7H
        if block_first:
            b.block(1)
        b.meld(1, "run", "4H 5H 6H 7H")
        if not block_first:
            b.block(1)
        b.discard(1, "KC")
        b.draw_discard(2)
        return capped(b)

    assert_ok(game(block_first=False), f)
    assert_rule(game(block_first=True), "V500-GAMBIT-8", f)


def test_V500_GAMBIT_8_a_block_never_empties_the_hand():
    f = G(3)
    b = GB(3, dealer=2, flags=f)
    b.deal({0: "5C 5D 5H X 6C 6D 6H"}, stock="6S")
    b.draw(0).meld(0, "set", "5C 5D 5H").meld(0, "set", "6C 6D 6H 6S").block(0)
    assert_rule(capped(b), "V500-GAMBIT-8", f)


def test_V500_GAMBIT_8_the_blocking_joker_comes_from_the_hand():
    f = G(3)
    assert_rule(block_game(f, blocker_hand="2C"), "C-CARD-CONSERVATION", f)


def test_V500_GAMBIT_8_a_block_in_a_rummy_call_turn():
    f = G(4, r500_call_rummy="top_only")
    b = GB(3, dealer=2, flags=f)
    b.deal({0: "5H 6H 7H 8H 2C 3D 9S", 1: "X 2D 3C 4S 9C TD JD"}, stock="QD QS KD")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "8H")
    b.call(1).layoff(1, 0, "8H").block(1).discard(1, "JD")
    b.draw_discard(2)
    b.draw_discard(0)
    assert b.rows[find(b.rows, 5, nth=1)][5] == 1  # seat 1's call turn
    assert_ok(capped(b), f)


def test_V500_GAMBIT_8_a_block_puts_no_card_on_the_table():
    """R500-STOCK-2: a turn with an empty stock whose only action is a BLOCK is idle."""
    f = G(40)

    def game(idle_turns: int) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "X"})
        while b.stock:
            b.draw_discard()
        for _ in range(idle_turns):
            seat = b.next
            b.take(seat)
            if seat == 0:
                b.block(0)
            b.discard(seat, next(c for c in b.hands[seat][:-1] if c != 64))
        return b.end(3).game_end(-1, capped=1)

    b = game(3)
    assert any(r[0] == 73 for r in b.rows)
    assert_ok(b, f)
    assert_rule(game(2), "R500-STOCK-2", f)
