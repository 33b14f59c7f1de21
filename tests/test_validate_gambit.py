"""Tests of the independent checker (rummysim.validate.rum500) for Dealer's gambit (V500-GAMBIT,
RULES.md §3, AMB-22), as docs/trace-format.md "Dealer's gambit" records it: the players and the
pack with the dealer's joker (V500-GAMBIT-1), the deal rotating right with play still clockwise
(-2), the nomination (-3), wild jokers worth 0 (-4), the dealer's joker (-7), jokers in hand worth
0 (-9), and the variation with partnerships.  Doubled melds, split takes, blocks and card
conservation with cards out of play are in ``tests/test_validate_gambit_effects.py``.

Every trace is hand made with ``tests.tracebuild_gambit.GB`` (3 seats, dealer 2 so seat 0 plays
first, unless a test says otherwise); the flags are ``rummysim.Rules`` dictionaries built without
the kernels' support check.  For each rule a legal trace passes and illegal variants are flagged
with the rule's ID.
"""

from __future__ import annotations

import pytest

from rummysim.validate import validate_trace
from tests.scenarios_variations import delete, insert
from tests.tracebuild import B, assert_ok, assert_rule, find, mutate
from tests.tracebuild_gambit import GB, GTB, gambit_flags

pytestmark = pytest.mark.usefixtures("paranoid_validator")

G = gambit_flags


def capped(b: B) -> B:
    """End the hand on the turn cap and the game on the hand cap."""
    return b.end(4).game_end(-1, capped=1)


def quiet_hand(flags: dict, n: int = 3, effect: str = "wild") -> GB:
    """One hand of n stock draws and discards, ended by the turn cap (flags: ``turns=n``)."""
    b = GB(n, dealer=n - 1, flags=flags)
    b.deal(effect=effect)
    for _ in range(n):
        b.draw_discard()
    return capped(b)


def seat_tv(b: B, seat: int) -> int:
    return b.scores[seat][4]


# ============================================================================================
# V500-GAMBIT: 2-4 players, the flags
# ============================================================================================


@pytest.mark.parametrize("n", [2, 3, 4])
def test_V500_GAMBIT_two_to_four_players(n):
    f = G(n)
    b = quiet_hand(f, n)
    assert b.rows[0][7] == 1  # GAME_START column 7: Dealer's gambit
    assert_ok(b, f)


def test_V500_GAMBIT_five_players_are_refused():
    f = G(5)
    assert_rule(quiet_hand(f, 5), "V500-GAMBIT", f)


def test_V500_GAMBIT_game_start_column_7_follows_the_flag():
    f = G(3)
    assert_rule(mutate(quiet_hand(f), 0, 7, 0), "TRACE-FORMAT", f)
    base = B(3, dealer=2)
    base.deal()
    for _ in range(3):
        base.draw_discard()
    base_flags = {"max_turns_per_hand": 3, "max_hands_per_game": 1}
    assert_ok(capped(base), base_flags)
    assert_rule(mutate(base, 0, 7, 1), "TRACE-FORMAT", base_flags)


def test_V500_GAMBIT_records_need_the_variation():
    """A gambit trace checked under the base rules: its records are refused by rule ID."""
    base_flags = {"max_turns_per_hand": 3, "max_hands_per_game": 1}
    res = validate_trace(quiet_hand(G(3)).array(), base_flags)
    assert "V500-GAMBIT" in [v.rule_id for v in res.violations]


@pytest.mark.parametrize("flags", [
    {"r500_num_decks": 2, "r500_dealers_gambit": True},  # one deck (AMB-22)
    {"r500_gambit_jokers": 4},  # a companion flag without its variation
    {"r500_gambit_jokers": 3, "r500_dealers_gambit": True},
    {"r500_persian": True, "r500_dealers_gambit": True},
])
def test_V500_GAMBIT_flag_combinations_the_checker_refuses(flags):
    with pytest.raises(ValueError) as e:
        validate_trace(quiet_hand(G(3)).array(), flags)
    assert list(flags)[0] in str(e.value)


# ============================================================================================
# V500-GAMBIT-1: the pack, the dealer's joker set aside and shown
# ============================================================================================


@pytest.mark.parametrize("jokers", [2, 4])
def test_V500_GAMBIT_1_pack_is_52_cards_and_the_jokers_but_the_dealers(jokers):
    f = G(3, r500_gambit_jokers=jokers)
    b = quiet_hand(f)
    hand_start = b.rows[find(b.rows, 2)]
    assert hand_start[3] == 52 + jokers - 1  # 53 or 55 cards are shuffled and dealt
    assert b.rows[find(b.rows, 69)][1] == 2  # DEALERS_JOKER beside the dealer
    assert_ok(b, f)
    # R500-SETUP-3: the gambit's joker count replaces r500_jokers_per_deck
    assert_ok(b, {**f, "r500_jokers_per_deck": 0})


def test_V500_GAMBIT_1_every_joker_shuffled_in_is_refused():
    f = G(3)
    b = GB(3, dealer=2, flags=f)
    b.pack = lambda: B(3).pack()  # 54 cards: the dealer's joker was not set aside
    b.deal()
    for _ in range(3):
        b.draw_discard()
    assert_rule(capped(b), "V500-GAMBIT-1", f)
    # a 53-card pack checked with four jokers
    assert_rule(quiet_hand(f), "V500-GAMBIT-1", {**f, "r500_gambit_jokers": 4})


def test_V500_GAMBIT_1_the_dealers_joker_is_shown_beside_the_dealer():
    f = G(3)
    b = quiet_hand(f)
    i = find(b.rows, 69)
    assert_rule(delete(b.array(), i), "V500-GAMBIT-1", f)  # never shown
    assert_rule(mutate(b, i, 1, 0), "V500-GAMBIT-1", f)  # beside seat 0, not the dealer 2
    twice = insert(b.array(), find(b.rows, 70) + 1, [69, 2, 0, 0, 0, 0, 0, 0])
    assert_rule(twice, "V500-GAMBIT-1", f)


# ============================================================================================
# V500-GAMBIT-2: the deal rotates anti-clockwise, play is clockwise
# ============================================================================================


def two_hands(flags: dict, next_dealer: int | None = None, out_first: bool = False) -> GB:
    """Dealer 0, so seat 1 plays first; hand 2 is dealt by ``next_dealer`` (default: what the
    builder computes from RULES.md).  ``out_first``: seat 1 goes out in its first turn."""
    b = GB(3, dealer=0, flags=flags)
    if out_first:
        b.deal({1: "5H 6H 7H 8H 8C 8D 8S"}, stock="KC")
        b.draw(1).meld(1, "run", "5H 6H 7H 8H").meld(1, "set", "8C 8D 8S").discard(1, "KC")
        b.end(1, out=1)
    else:
        b.deal()
        for _ in range(3):
            b.draw_discard()
        b.end(4)
    if next_dealer is not None:
        b.dealer = next_dealer
    b.deal()
    for _ in range(3):
        b.draw_discard()
    return b.end(4).game_end(-1, capped=1)


def test_V500_GAMBIT_2_next_dealer_is_on_the_right_and_play_starts_on_the_left():
    f = G(3, hands=2)
    b = two_hands(f)
    second = b.rows[find(b.rows, 2, nth=1)]
    assert second[2] == 2 and second[5] == 0  # dealer 2 (right of 0), seat 0 plays first
    assert b.rows[find(b.rows, 5, nth=3)][1] == 0
    assert_ok(b, f)
    # dealt by the player on the left (R500-DEAL-3 of the base game)
    assert_rule(two_hands(f, next_dealer=1), "V500-GAMBIT-2", f)


def test_V500_GAMBIT_2_play_is_still_clockwise():
    f = G(3)
    b = GB(3, dealer=2, flags=f)
    b.deal()
    b.draw_discard(1)  # the dealer's right (seat 1) plays first
    b.draw_discard(0)
    b.draw_discard(2)
    assert_rule(capped(b), "R500-TURN-1", f)


def test_V500_GAMBIT_2_with_the_winner_dealing():
    """V500-WINNERDEALS: the player who went out deals; if no one did, the seat on the right."""
    f = G(3, hands=2, r500_next_dealer="winner")
    b = two_hands(f, out_first=True)
    assert b.rows[find(b.rows, 2, nth=1)][2] == 1
    assert_ok(b, f)
    assert_rule(two_hands(f, out_first=True, next_dealer=2), "V500-WINNERDEALS", f)
    quiet = two_hands(f)  # nobody out: the deal goes right
    assert quiet.rows[find(quiet.rows, 2, nth=1)][2] == 2
    assert_ok(quiet, f)


# ============================================================================================
# V500-GAMBIT-3: the nomination, before any decision, for every joker of the hand
# ============================================================================================


@pytest.mark.parametrize("effect", ["wild", "double", "split"])
def test_V500_GAMBIT_3_nomination_after_the_dealers_joker(effect):
    f = G(3)
    b = quiet_hand(f, effect=effect)
    assert b.rows[find(b.rows, 70)][1:3] == [2, {"wild": 1, "double": 2, "split": 3}[effect]]
    assert find(b.rows, 70) == find(b.rows, 69) + 1
    assert_ok(b, f)


def test_V500_GAMBIT_3_the_nomination_is_missing_or_late():
    f = G(3)
    b = quiet_hand(f)
    i = find(b.rows, 70)
    assert_rule(delete(b.array(), i), "V500-GAMBIT-3", f)  # the first turn starts without it
    a = b.array()
    late = insert(delete(a, i), find(b.rows, 5, nth=1) - 1, list(a[i]))  # after the 1st turn
    assert_rule(late, "V500-GAMBIT-3", f)
    # before the dealer's joker is shown
    swapped = b.array()
    swapped[[i - 1, i]] = swapped[[i, i - 1]]
    assert_rule(swapped, "V500-GAMBIT-1", f)


def test_V500_GAMBIT_3_the_dealer_names_one_effect_for_the_hand():
    f = G(3)
    b = quiet_hand(f)
    i = find(b.rows, 70)
    assert_rule(mutate(b, i, 1, 0), "V500-GAMBIT-3", f)  # named by seat 0, not the dealer
    second = insert(b.array(), find(b.rows, 5, nth=1), [70, 2, 2, 0, 0, 0, 0, 0])
    assert_rule(second, "V500-GAMBIT-3", f)  # a second nomination during the hand
    assert_rule(mutate(b, i, 2, 4), "TRACE-FORMAT", f)  # effect 4 does not exist


def test_V500_GAMBIT_3_nomination_comes_before_the_first_player_starts_the_pile():
    f = G(3, r500_upcard_mode="first_player_choice")
    b = GB(3, dealer=2, flags=f)
    b.deal({0: "KS"})
    b.start_pile(0, "KS")
    for _ in range(3):
        b.draw_discard()
    capped(b)
    assert find(b.rows, 66) == find(b.rows, 70) + 1
    assert_ok(b, f)
    a = b.array()
    i = find(b.rows, 70)
    a[[i, i + 1]] = a[[i + 1, i]]  # START_PILE before NOMINATE
    assert_rule(a, "V500-GAMBIT-3", f)


def joker_meld_game(flags: dict, effect: str, play=None, seat0: str = "5H X 7H 2C 3D 9S KC",
                    tv: dict | None = None) -> GB:
    """Seat 0 holds ``seat0`` and plays ``play(b)`` after its draw (default: the run 5H X@6 7H);
    ``tv`` replaces table values in SCORE."""
    b = GB(3, dealer=2, flags=flags)
    b.deal({0: seat0, 1: "QD 2D 3C 4S 9C TD JD"}, stock="QS KD KS", effect=effect)
    b.draw(0)
    (play or (lambda b: b.meld(0, "run", "5H X@6 7H")))(b)
    b.discard(0, "QS")
    b.draw_discard(1)
    b.draw_discard(2)
    return b.end(4, tv=tv).game_end(-1, capped=1)


@pytest.mark.parametrize("effect", ["double", "split"])
def test_V500_GAMBIT_3_jokers_are_wild_only_when_nominated_wild(effect):
    f = G(3)
    assert_ok(joker_meld_game(f, "wild"), f)
    assert_rule(joker_meld_game(f, effect), "V500-GAMBIT-3", f)
    # the dealer's joker is bound by the nomination too
    b = GB(3, dealer=2, flags=f)
    b.deal({2: "9D TD 2C 3C 4S 5S 6H"}, stock="QS KD KS", effect=effect)
    b.draw_discard(0)
    b.draw_discard(1)
    b.draw(2).meld(2, "run", "9D TD DJ@11").discard(2, "KS")
    assert_rule(capped(b), "V500-GAMBIT-3", f)


@pytest.mark.parametrize("effect", ["double", "split"])
def test_V500_GAMBIT_3_a_joker_taken_with_a_duty_cannot_be_melded(effect):
    """Under double and split a take with a duty whose selected card is a joker is illegal; a
    joker taken as the top card alone is simply held."""
    f = G(3)

    def game(effect: str, top_alone: bool = False) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "QD", 2: "5S 6S 2C 3C 4D 8H 9H"}, upcard="X", stock="KD KS QS", effect=effect)
        if top_alone:
            b.take(0).discard(0, "QD")  # seat 0 takes the joker alone and keeps it
            b.draw_discard(1)
            b.draw_discard(2)
            return capped(b)
        b.draw(0).discard(0, "QD")
        b.draw_discard(1)
        b.take(2, 0)  # X, QD and KS from below the top
        if effect == "wild":
            b.meld(2, "run", "X@4 5S 6S")
        b.discard(2, "2C")
        return capped(b)

    assert_ok(game("wild"), f)
    assert_rule(game(effect), "V500-GAMBIT-3", f)
    held = game(effect, top_alone=True)
    assert 64 in held.hands[0]
    assert_ok(held, f)


def test_V500_GAMBIT_3_no_joker_on_the_table_under_double_even_as_a_lay_off():
    f = G(3)

    def game(effect: str) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "5H 6H 7H 2C 3D 9S KC", 1: "X 2D 3C 4S 9C TD JD"}, stock="QS KD KS",
               effect=effect)
        b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
        b.draw(1).layoff(1, 0, "X@8").discard(1, "KD")
        b.draw_discard(2)
        return capped(b)

    assert_ok(game("wild"), f)
    assert_rule(game("double"), "V500-GAMBIT-3", f)


# ============================================================================================
# V500-GAMBIT-4: wild jokers, worth 0, with their designations
# ============================================================================================


def test_V500_GAMBIT_4_wild_joker_in_a_run_scores_0():
    f = G(3)
    b = joker_meld_game(f, "wild")
    assert b.rows[find(b.rows, 21, c3=64)][4:6] == [6, 0]  # X stands for 6H, from the hand
    assert seat_tv(b, 0) == 12  # 5H + 7H; the joker adds nothing
    assert_ok(b, f)
    # valued 15 as in the base game (R500-SCORE-2)
    assert_rule(joker_meld_game(f, "wild", tv={0: 27}), "V500-GAMBIT-4", f)


def test_V500_GAMBIT_4_wild_joker_in_a_set_stands_for_the_rank():
    f = G(3)
    b = joker_meld_game(f, "wild", seat0="5H 5C X 2C 3D 9S KC",
                        play=lambda b: b.meld(0, "set", "5H 5C X"))
    assert seat_tv(b, 0) == 10
    assert_ok(b, f)


def test_V500_GAMBIT_4_under_5_10_15_values_the_joker_is_still_0():
    f = G(3, r500_card_values="5_10_15")
    b = joker_meld_game(f, "wild")
    assert seat_tv(b, 0) == 10  # 5 + 5
    assert_ok(b, f)


def test_V500_GAMBIT_4_open30_counts_a_wild_joker_0():
    f = G(3, r500_first_meld_min=30)
    assert_rule(joker_meld_game(f, "wild"), "V500-OPEN30", f)  # 5H X 7H: 12 points
    play = lambda b: b.meld(0, "set", "KC KH X")  # noqa: E731 - 20 points
    assert_rule(joker_meld_game(f, "wild", seat0="KH X 7H 2C 3D 9S KC", play=play),
                "V500-OPEN30", f)


# ============================================================================================
# V500-GAMBIT-7: the dealer's joker: only the dealer, on its own turns, once, never in hand
# ============================================================================================


def dealer_joker_game(flags: dict, user: int = 2, twice: bool = False, effect: str = "wild"):
    """Seat ``user`` melds 9D TD with the dealer's joker (J of diamonds) in its turn."""
    b = GB(3, dealer=2, flags=flags)
    b.deal({user: "9D TD 9C TC 2C 3C 4S"}, stock="QS KD KS", effect=effect)
    for seat in range(3):
        b.draw(seat)
        if seat == user:
            b.meld(seat, "run", "9D TD DJ@11")
            if twice:
                b.meld(seat, "run", "9C TC DJ@11")
        b.discard(seat, b.last)
    return capped(b)


def test_V500_GAMBIT_7_the_dealer_uses_the_dealers_joker_as_a_wild_card():
    f = G(3)
    b = dealer_joker_game(f)
    row = b.rows[find(b.rows, 21, c3=64)]
    assert row[1] == 2 and row[4:6] == [11, 1]  # the dealer's, standing for JD: source 1
    assert seat_tv(b, 2) == 19  # credited to the dealer, worth 0
    assert_ok(b, f)


def test_V500_GAMBIT_7_only_the_dealer_may_use_it():
    f = G(3)
    assert_rule(dealer_joker_game(f, user=1), "V500-GAMBIT-7", f)


def test_V500_GAMBIT_7_once_a_hand():
    f = G(3)
    assert_rule(dealer_joker_game(f, twice=True), "V500-GAMBIT-7", f)


def test_V500_GAMBIT_7_not_in_an_out_of_turn_meld():
    f = G(3, r500_meld_out_of_turn=True)
    b = GB(3, dealer=2, flags=f)
    b.deal({2: "9D TD 2C 3C 4S 5S 6H"}, stock="QS KD KS")
    b.draw(0).discard(0, "QS")
    b.oot(2).meld(2, "run", "9D TD DJ@11")
    b.draw_discard(1)
    b.draw_discard(2)
    assert_rule(capped(b), "V500-GAMBIT-7", f)
    # a seat's own hand joker is fine out of turn
    b = GB(3, dealer=2, flags=f)
    b.deal({2: "9D TD X 3C 4S 5S 6H"}, stock="QS KD KS")
    b.draw(0).discard(0, "QS")
    b.oot(2).meld(2, "run", "9D TD X@11")
    b.draw_discard(1)
    b.draw_discard(2)
    assert_ok(capped(b), f)


def test_V500_GAMBIT_7_not_in_an_add_opponent_lay_off():
    """V500-ADDOPP-2: lay-offs after someone went out are not the dealer's own turn."""
    f = G(3, r500_add_opponent_hand=True)

    def game(card: str) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "5H 6H 7H 8H 8C 8D 8S", 2: "4H 2C 3C 4S 5S 6D 9D"}, stock="KC")
        b.draw(0).meld(0, "run", "5H 6H 7H 8H").meld(0, "set", "8C 8D 8S").discard(0, "KC")
        b.addopp(2, 0, card)
        return b.end(1, out=0).game_end(-1, capped=1)

    assert_ok(game("4H"), f)
    assert_rule(game("DJ@9"), "V500-GAMBIT-7", f)


def test_V500_GAMBIT_7_the_dealers_joker_is_never_a_hand_card():
    """The dealer goes out when the hand cards are gone, the dealer's joker still beside it; the
    dealer's joker can never be discarded."""
    f = G(3)

    def game(dealer_hand: str, last: str) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({2: dealer_hand}, stock="QS KD KC")
        b.draw_discard(0)
        b.draw_discard(1)
        b.draw(2).meld(2, "run", "5H 6H 7H").meld(2, "set", "8C 8D 8S")
        return b.discard(2, last)

    out = GB(3, dealer=2, flags=f)
    out.deal({2: "5H 6H 7H 8H 8C 8D 8S"}, stock="QS KD KC")
    out.draw_discard(0)
    out.draw_discard(1)
    out.draw(2).meld(2, "run", "5H 6H 7H 8H").meld(2, "set", "8C 8D 8S").discard(2, "KC")
    assert_ok(out.end(1, out=2).game_end(-1, capped=1), f)
    # discarding the dealer's joker, which is not in the dealer's hand
    assert_rule(capped(game("5H 6H 7H 8C 8D 8S 9C", "X")), "C-CARD-CONSERVATION", f)


# ============================================================================================
# V500-GAMBIT-9: jokers left in hand score 0
# ============================================================================================


@pytest.mark.parametrize("values", ["face", "5_10_15"])
def test_V500_GAMBIT_9_jokers_left_in_hand_score_0(values):
    f = G(3, r500_card_values=values)

    def game(hv: dict | None = None) -> GB:
        b = GB(3, dealer=2, flags=f)
        b.deal({0: "X 2C 3D 4S 5H 9C KD"})
        for _ in range(3):
            b.draw_discard()
        return b.end(4, hv=hv).game_end(-1, capped=1)

    b = game()
    assert 64 in b.hands[0]
    assert_ok(b, f)
    joker = 15  # the joker's value in the base game under both schemes (R500-SCORE-2, V500-VALUES)
    assert_rule(game(hv={0: b.scores[0][5] + joker}), "V500-GAMBIT-9", f)


# ============================================================================================
# V500-GAMBIT with partnerships
# ============================================================================================


def test_V500_GAMBIT_with_partnerships_double_block_team_scores_and_the_deal_going_right():
    """Partnership 500 rum under Dealer's gambit (four jokers: three in the pack): seat 0 doubles
    7C 7D 7H (42 for team 0), seat 1, the dealer's partner, blocks the dealer's joker; the next
    hand is dealt by seat 2, on the right of dealer 3."""
    f = G(4, hands=2, preset="partnership-500", r500_gambit_jokers=4)
    b = GTB(f, dealer=3)
    b.deal({0: "7C 7D 7H X 2C 3D 9S", 1: "X 2D 3C 4S 9C TD JD"}, stock="QD QS KD KS",
           effect="double")
    b.draw(0).meld(0, "set", "7C 7D 7H").double(0).discard(0, "QD")
    b.draw(1).block(1).discard(1, "QS")
    b.draw_discard(2)
    b.draw_discard(3)
    b.end(4)
    assert b.scores[0][4] == 42 and b.rows[-2][0] == 42  # a TEAM_SCORE record follows
    b.deal()
    for _ in range(4):
        b.draw_discard()
    b.end(4).game_end(-1, capped=1)
    assert b.rows[find(b.rows, 2, nth=1)][2] == 2
    assert_ok(b, f)
    # the dealer's joker cannot be blocked by the dealer, partner or not
    bad = GTB(f, dealer=3)
    bad.deal({3: "X 2D 3C 4S 9C TD JD"}, effect="double")
    for _ in range(3):
        bad.draw_discard()
    bad.draw(3).block(3).discard(3, bad.last)
    assert_rule(capped(bad), "V500-GAMBIT-8", {**f, "max_hands_per_game": 1})
