"""Tests of the independent 500 Rum rules checker (rummysim.validate.rum500): card conservation,
the pack and the deal, turn order, going out and the turn structure, the engine caps, game end and
ties, flags, random legal games, concatenated games and the text replay.

Traces are hand made with ``tests/tracebuild.py`` as in ``tests/test_validate.py``.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import rummysim.validate.trace as T
from rummysim.validate import ValidationResult, validate_trace
from tests.scenarios_500 import F1, one_turn, t01_flags, t01_state
from tests.tracebuild import (
    CAP1,
    B,
    X,
    assert_ok,
    assert_rule,
    cid,
    cname,
    find,
    finish_capped,
    mutate,
    run,
)

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# --------------------------------------------------------------------------------------------
# Card conservation, pack, deal, turn order
# --------------------------------------------------------------------------------------------


def t01_done() -> B:
    b = t01_state()
    b.take(0, 1).meld(0, "set", "4H 4D 4S").discard(0, "2C")
    return finish_capped(b)


def test_C_CARD_CONSERVATION_card_appears_twice():
    b = t01_done()
    i = find(b.rows, 30, c1=0, c2=cid("2C"))
    p1_card = b.hands[1][0]  # a card that is in seat 1's hand
    assert_rule(mutate(b, i, 2, p1_card), "C-CARD-CONSERVATION", t01_flags())
    # a meld card that is still in the stock
    j = find(b.rows, 21, c3=cid("4H"))
    assert_rule(mutate(b, j, 3, b.stock[0]), "C-CARD-CONSERVATION", t01_flags())


def test_C_CARD_CONSERVATION_wrong_stock_card():
    b = t01_done()
    i = find(b.rows, 10, nth=2)  # seat 0's draw of KS
    assert b.rows[i][2] == cid("KS")
    assert_rule(mutate(b, i, 2, cid("TD")), "C-CARD-CONSERVATION", t01_flags())


def test_C_PILE_4_take_fields():
    b = t01_done()
    i = find(b.rows, 11)
    assert_rule(mutate(b, i, 4, cid("QS")), "C-CARD-CONSERVATION", t01_flags())  # wrong selected
    assert_rule(mutate(b, i, 3, 4), "TRACE-FORMAT", t01_flags())  # n_taken
    assert_rule(mutate(b, i, 2, 9), "C-PILE-4", t01_flags())  # k outside the pile


def test_R500_SETUP_2_pack_composition():
    b = t01_done()
    i = find(b.rows, 3)  # first DECK row: make a duplicate
    a = b.array()
    a[i, 3] = a[i, 2]
    assert_rule(a, "R500-SETUP-2", t01_flags())
    # a joker replaced by a natural card
    a = b.array()
    rows = b.rows
    jr, jc = next((r, c) for r in range(len(rows)) if rows[r][0] == 3
                  for c in range(2, 8) if rows[r][c] == X)
    a[jr, jc] = cid("2C")
    assert_rule(a, "R500-SETUP-2", t01_flags())


@pytest.mark.parametrize("n,flags,size", [
    (3, {}, 54), (5, {}, 108), (3, {"r500_jokers_per_deck": 0}, 52),
    (3, {"r500_jokers_per_deck": 1}, 53), (6, {"r500_jokers_per_deck": 1}, 106),
    (3, {"r500_num_decks": 2}, 108), (5, {"r500_num_decks": 1}, 54), (2, {}, 54),
    (8, {"r500_jokers_per_deck": 0}, 104),
])
def test_V500_DECKS_V500_JOKERS_pack_by_player_count(n, flags, size):
    b = B(n, dealer=n - 1, flags=flags)
    b.deal()
    assert b.rows[1][3] == size
    b.draw_discard(0)
    finish_capped(b)
    allf = {**flags, "max_turns_per_hand": 1, **CAP1}
    assert_ok(b, allf)
    # the same trace is wrong for a different pack
    other = dict(allf)
    other["r500_jokers_per_deck"] = 1 if flags.get("r500_jokers_per_deck", 2) != 1 else 2
    assert_rule(b, "R500-SETUP-3", other)


def test_V500_DECKS_explicit_single_deck_too_small():
    b = B(8, dealer=7, flags={"r500_num_decks": 1})
    b.rows.append([2, 0, 7, 54, 7, 0, 0, 0])
    assert_rule(b, "V500-DECKS", {"r500_num_decks": 1})


def test_R500_DEAL_1_deal_size():
    b = B(3, dealer=2)
    b.deal(deal_size=8)
    b.draw_discard(0)
    finish_capped(b)
    assert_rule(b, "R500-DEAL-1", F1)
    b = B(2, dealer=1)
    b.deal(deal_size=7)
    assert_rule(b, "R500-DEAL-1")


def test_R500_DEAL_3_dealer_rotation_and_R500_TURN_1():
    flags = {"max_turns_per_hand": 2, "max_hands_per_game": 2}

    def game(second_dealer=None):
        b = B(3, dealer=1)
        b.deal().draw_discard().draw_discard().end(4)
        if second_dealer is not None:
            b.dealer = second_dealer
        b.deal().draw_discard().draw_discard().end(4)
        return b.game_end(-1, capped=1)

    g = game()
    assert g.rows[find(g.rows, 2, nth=1)][2] == 2  # second dealer left of the first
    assert g.rows[find(g.rows, 5)][1] == 2  # first player left of the dealer
    assert_ok(g, flags)
    assert_rule(game(second_dealer=0), "R500-DEAL-3", flags)
    # first_player field wrong
    i = find(g.rows, 2)
    assert_rule(mutate(g, i, 5, 0), "R500-TURN-1", flags)
    # a turn out of order
    i = find(g.rows, 5, nth=1)
    a = mutate(g, i, 1, 2)
    assert_rule(a, "R500-TURN-1", flags)


def test_TRACE_FORMAT_turn_start_fields():
    b = t01_done()
    i = find(b.rows, 5, nth=5)
    assert_rule(mutate(b, i, 3, 99), "TRACE-FORMAT", t01_flags())  # stock_size
    assert_rule(mutate(b, i, 4, 99), "TRACE-FORMAT", t01_flags())  # pile_size
    assert_rule(mutate(b, i, 2, 4), "TRACE-FORMAT", t01_flags())  # turn_no


def test_TRACE_FORMAT_card_record_counts():
    b = t01_done()
    i = find(b.rows, 20)
    assert_rule(mutate(b, i, 6, 4), "TRACE-FORMAT", t01_flags())  # 4 announced, 3 given
    a = b.array()
    a = np.delete(a, i + 1, axis=0)  # one CARD missing
    assert_rule(a, "TRACE-FORMAT", t01_flags())


def test_TRACE_FORMAT_malformed_traces_never_raise():
    b = t01_done()
    a = b.array()
    assert_rule(a[:-3], "TRACE-FORMAT", t01_flags())  # truncated
    assert_rule(a[1:], "TRACE-FORMAT", t01_flags())  # no GAME_START
    assert run(np.zeros((0, 8), np.int32)).violations[0].rule_id == "TRACE-FORMAT"
    assert run(np.zeros((3, 5), np.int32)).violations[0].rule_id == "TRACE-FORMAT"
    assert run(np.zeros((3, 8), np.float64)).violations[0].rule_id == "TRACE-FORMAT"
    bad = a.copy()
    bad[10, 0] = 77
    assert_rule(bad, "TRACE-FORMAT", t01_flags())
    bad = a.copy()
    bad[-1, 6] = 5  # unused column of GAME_END
    assert_rule(bad, "TRACE-FORMAT", t01_flags())
    # random corruption: the checker reports, never raises
    rng = random.Random(1)
    for _ in range(400):
        m = a.copy()
        for _ in range(rng.randint(1, 3)):
            m[rng.randrange(len(m)), rng.randrange(8)] = rng.choice([-1, 0, 1, 2, 5, 13, 64, 99, 2**31 - 1])
        res = run(m, t01_flags())
        assert isinstance(res, ValidationResult)


# --------------------------------------------------------------------------------------------
# Going out, discarding, turn structure, caps
# --------------------------------------------------------------------------------------------


def out_game() -> B:
    b = B(3, dealer=2)
    b.deal({0: "2C 3C 4C 5C 6H 6D 6S"}, stock="9H")
    b.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S").discard(0, "9H")
    return b.end(1, out=0).game_end(-1, capped=1)


def test_R500_OUT_1_out_by_discarding_last_card():
    b = out_game()
    assert b.scores[0][2] == 32
    assert_ok(b, CAP1)
    # nothing but HAND_END may follow
    a = b.array()
    i = find(b.rows, 40)
    extra = np.array([[5, 1, 1, 46, 2, 0, 0, 0]], np.int32)
    assert_rule(np.insert(a, i, extra, axis=0), "R500-OUT-1", CAP1)
    # HAND_END reason 1 when nobody went out
    b2 = t01_done()
    i = find(b2.rows, 40)
    assert_rule(mutate(b2, i, 1, 1), "R500-OUT-1", t01_flags())


def test_R500_OUT_1_out_by_melding_everything():
    b = B(3, dealer=2)
    b.deal({0: "2C 3C 4C 5C 6H 6D 6S"}, stock="6C")
    b.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S 6C")
    assert b.hands[0] == []
    b.end(1, out=0).game_end(-1, capped=1)
    assert_ok(b, CAP1)
    # a discard after going out
    a = b.array()
    i = find(b.rows, 40)
    assert_rule(np.insert(a, i, [[30, 0, cid("9H"), 0, 0, 0, 0, 0]], axis=0), "R500-OUT-1", CAP1)


def test_R500_DISC_1_turn_needs_a_discard():
    b = t01_done()
    i = find(b.rows, 30, c1=0, c2=cid("2C"))
    a = np.delete(b.array(), i, axis=0)
    assert_rule(a, "R500-DISC-1", t01_flags())


def test_R500_DRAW_1_exactly_one_draw():
    b = t01_done()
    i = find(b.rows, 11)
    a = np.insert(b.array(), i + 1, [[10, 0, b.stock[0], 0, 0, 0, 0, 0]], axis=0)
    assert_rule(a, "R500-DRAW-1", t01_flags())
    a = np.delete(b.array(), i, axis=0)  # no draw before the meld
    assert_rule(a, "R500-DRAW-1", t01_flags())


def test_ENGINE_TURN_CAP():
    b = t01_done()
    assert_ok(b, t01_flags())
    # the same trace under a larger cap ends too early; under a smaller one too late
    assert_rule(b, "ENGINE-TURN-CAP", t01_flags(max_turns_per_hand=7))
    assert_rule(b, "ENGINE-TURN-CAP", t01_flags(max_turns_per_hand=5))


def test_ENGINE_HAND_CAP():
    b = t01_done()
    assert_rule(b, "ENGINE-HAND-CAP", {"max_turns_per_hand": 6, "max_hands_per_game": 2})


# --------------------------------------------------------------------------------------------
# T-13: game end and ties
# --------------------------------------------------------------------------------------------


def t13_first_hand(p1_keep: str) -> B:
    """3 players, target 30.  seat 1 melds four kings and keeps `p1_keep`; seat 0 goes out with 32."""
    b = B(3, dealer=0, flags={"r500_target": 30})
    b.deal({0: "2C 3C 4C 5C 6H 6D 6S", 1: "KC KD KH KS " + p1_keep}, stock="_ _ 9H")
    b.draw(1).meld(1, "set", "KC KD KH KS").discard(1, b.last)
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "2C 3C 4C 5C").meld(0, "set", "6H 6D 6S").discard(0, "9H")
    return b.end(1, out=0)


T13 = {"r500_target": 30, "max_turns_per_hand": 3, "max_hands_per_game": 2}


def test_T13_R500_END_2_tie_at_target_replays():
    b = t13_first_hand("2D 3D 3H")
    assert b.totals[:2] == [32, 32]
    b.deal().draw_discard().draw_discard().draw_discard().end(4)
    assert max(b.totals) < 30
    b.game_end(-1, capped=1)
    assert_ok(b, T13)
    # ending the game at the tie is wrong by default ...
    w = t13_first_hand("2D 3D 3H").game_end(0)
    assert_rule(w, "R500-END-2", T13)
    # ... and right with goer_wins (seat 0 went out)
    assert_ok(w, {**T13, "r500_tie_rule": "goer_wins"})
    assert_rule(b, "V500-TIE", {**T13, "r500_tie_rule": "goer_wins"})


def test_T13_R500_END_1_highest_total_wins():
    b = t13_first_hand("2D 3D 2H")
    assert b.totals[:2] == [32, 33]
    assert_ok(b.game_end(1), T13)  # B wins by default
    b2 = t13_first_hand("2D 3D 2H").game_end(1)
    assert_rule(b2, "V500-TIE", {**T13, "r500_tie_rule": "goer_wins"})
    assert_ok(t13_first_hand("2D 3D 2H").game_end(0), {**T13, "r500_tie_rule": "goer_wins"})


def test_R500_END_1_wrong_game_end_winner():
    b = t13_first_hand("2D 3D 2H").game_end(0)
    assert_rule(b, "R500-END-1", T13)
    # GAME_END while no total reached the target
    b = t13_first_hand("2D 3D 2H").game_end(1)
    assert_rule(b, "R500-END-1", {**T13, "r500_target": 500}, first=False)
    # another hand after a clear winner
    b = t13_first_hand("2D 3D 2H")
    b.deal()
    assert_rule(b, "R500-END-1", T13)


def test_V500_TARGET_game_start_field():
    b = t01_done()
    assert_rule(mutate(b, 0, 4, 1000), "V500-TARGET", t01_flags())
    assert_ok(mutate(b, 0, 4, 1000), t01_flags(r500_target=1000))


# --------------------------------------------------------------------------------------------
# Flags
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", [
    {"r500_num_decks": 2, "r500_dealers_gambit": True}, {"r500_gambit_jokers": 4},
    {"r500_gambit_jokers": 3, "r500_dealers_gambit": True},
    {"r500_persian": True, "r500_dealers_gambit": True},
    {"r500_partner_layoff": "team_only"}, {"r500_partnership": False, "r500_persian": True},
    {"r500_card_values": "5_10_15", "r500_persian": True}, {"r5k_target": 3000},
    {"r5k_rummy": "top_card"}, {"rkub_rounds": 2}, {"rkub_joker_penalty": 25},
    {"r500_no_such_flag": 1}, {"r5k_no_such_flag": 1}, {"game": "gin-rummy"},
    {"r500_jokers_per_deck": 3}, {"r500_num_decks": True},
    {"r500_stock_out_idle_turns": 0}, {"r500_card_values": "five"}, {"max_turns_per_hand": 0},
    {"std_game_hands": 3}, {"r500_first_meld_min": 501},  # past the designer range (rules.py)
    {"r500_score_divisor": 5, "r500_card_values": "face"},
    {"r500_unplayable_discard": True, "r500_going_out": "any"},
])
def test_unimplemented_flag_values_raise(flags):
    with pytest.raises(ValueError) as e:
        validate_trace(t01_done().array(), flags)
    assert list(flags)[0] in str(e.value)


def test_500_trace_checked_as_5000_rummy_is_rejected():
    """game=5000-rummy selects the 5000 checker (rummysim.validate.rum5000), which reports the 500
    Rum trace's game code and pack."""
    res = validate_trace(t01_done().array(), {"game": "5000-rummy"})
    assert res.violations and res.violations[0].rule_id == "TRACE-FORMAT"


def test_flags_accepted_forms():
    b = t01_done()
    assert_ok(b, {**t01_flags(), "game": "500-rum", "r5k_target": "auto", "rkub_rounds": 1,
                  "std_game_hands": 5, "r500_num_decks": "auto", "r500_ace_low_value": "auto",
                  "r500_stock_out_idle_turns": "n", "r500_stock_out_hand_penalty": "true",
                  "r500_target": 500, "r500_tie_rule": "replay", "r500_going_out": "any"})


def test_flags_rules_as_dict_is_accepted():
    """The flags dict of sim.rules.Rules.as_dict() (every §8.6 flag) for the default rules."""
    from rummysim.rules import Rules

    flags = {**Rules().as_dict(), "max_turns_per_hand": 6, "max_hands_per_game": 1}
    assert_ok(t01_done(), flags)


# --------------------------------------------------------------------------------------------
# Random legal games: broad zero-violation check and speed
# --------------------------------------------------------------------------------------------


def random_game(seed: int, n: int, flags: dict) -> B:
    """Plays a whole game with a simple random legal policy (written from RULES.md)."""
    rng = random.Random(seed)
    b = B(n, dealer=rng.randrange(n), flags=flags)
    target = flags.get("r500_target", 500)
    max_turns = flags.get("max_turns_per_hand", 1000)
    max_hands = flags.get("max_hands_per_game", 200)
    idle_limit = n
    while True:
        order = b.pack()
        rng.shuffle(order)
        b.deal(order=order)
        idle = 0
        reason = 0
        while not reason:
            seat = b.next
            empty = not b.stock
            placed = False
            hand = b.hands[seat]
            top_taken = None
            deep = None
            if rng.random() < 0.7:  # look for a deep card that makes a set with two hand cards
                for k in range(len(b.pile) - 1):
                    c = b.pile[k]
                    if c == X:
                        continue
                    mates = {}
                    for h in hand:
                        if h != X and h & 15 == c & 15 and h >> 4 != c >> 4:
                            mates.setdefault(h >> 4, h)
                    if len(mates) >= 2:
                        deep = (k, [c] + list(mates.values())[:2])
                        break
            if deep is not None:
                b.take(seat, deep[0])
                b.meld(seat, "set", " ".join(cname(c) for c in deep[1]))  # R500-DRAW-3
                placed = True
            elif b.stock and (not b.pile or rng.random() < 0.85):
                b.draw(seat)
            elif b.pile and (b.stock or rng.random() < 0.8):
                b.take(seat)
                top_taken = b.last
            else:
                b.nodraw(seat)
                reason = 2
                break

            def may_place(k: int) -> bool:
                left = len(hand) - k
                return left == 0 or left >= 2 or top_taken is None

            # new sets
            for r in range(1, 14):
                nat = [c for c in hand if c != X and c & 15 == r]
                suits = {}
                for c in nat:
                    suits.setdefault(c >> 4, c)
                chosen = list(suits.values())[:4]
                if len(chosen) >= 3 and may_place(len(chosen)):
                    b.meld(seat, "set", " ".join(cname(c) for c in chosen))
                    placed = True
            # new runs (aces low only)
            for s in range(4):
                have = {c & 15 for c in hand if c != X and c >> 4 == s}
                r = 1
                while r <= 11:
                    if r in have and r + 1 in have and r + 2 in have and may_place(3):
                        ln = 3
                        while r + ln in have and r + ln <= 13 and may_place(ln + 1):
                            ln += 1
                        b.meld(seat, "run", " ".join(cname(16 * s + q) for q in range(r, r + ln)))
                        placed = True
                        have -= set(range(r, r + ln))
                        r += ln
                    else:
                        r += 1
            # lay-offs of natural cards and jokers
            for mid, m in enumerate(b.melds):
                for c in list(hand):
                    if c not in hand or not may_place(1):
                        continue
                    if m["kind"] == 0:
                        if m["count"] < 4 and (c == X or (c & 15 == m["key"] and c >> 4 not in m["suits"])):
                            b.layoff(seat, mid, cname(c))
                            placed = True
                    else:
                        if c == X:
                            if m["hi"] < 13 and m["hi"] - m["lo"] < 12 and rng.random() < 0.5:
                                b.layoff(seat, mid, f"X@{m['hi'] + 1}")
                                placed = True
                            continue
                        if c >> 4 != m["key"] or m["hi"] - m["lo"] >= 12:
                            continue
                        r = c & 15
                        if m["lo"] > 1 and r == m["lo"] - 1:
                            b.layoff(seat, mid, cname(c))
                            placed = True
                        elif m["hi"] < 13 and r == m["hi"] + 1 and r != 1:
                            b.layoff(seat, mid, cname(c))
                            placed = True
                        elif m["hi"] == 13 and r == 1 and m["lo"] > 1:
                            b.layoff(seat, mid, cname(c) + "@14")
                            placed = True
            if not hand:
                reason, out = 1, seat
                break
            choices = [c for c in hand if c != top_taken] or None
            if choices is None:  # only the taken top card left: not allowed, so it stays
                choices = hand  # (rare; kept legal by the policy below)
            card = rng.choice(choices)
            if card == top_taken and hand.count(card) <= 1:
                # cannot discard it; lay nothing: should not happen with >=2 cards
                raise AssertionError("policy stuck")
            b.discard(seat, card)
            if not hand:
                reason, out = 1, seat
                break
            idle = idle + 1 if (empty and not placed) else 0
            if idle >= idle_limit:
                reason = 3
            elif b.turns >= max_turns:
                reason = 4
        b.end(reason, out if reason == 1 else -1)
        totals = b.totals
        top = max(totals)
        if top >= target and totals.count(top) == 1:
            return b.game_end(totals.index(top))
        if b.hand_no >= max_hands:
            return b.game_end(-1, capped=1)


RANDOM_FLAGS = [
    (3, {"r500_target": 150}),
    (2, {"r500_target": 200, "max_turns_per_hand": 40}),
    (5, {"r500_target": 100, "r500_jokers_per_deck": 1}),
    (8, {"max_hands_per_game": 3}),
    (4, {"r500_card_values": "5_10_15", "r500_target": 150, "max_hands_per_game": 6}),
]


@pytest.mark.parametrize("seed", range(5))
def test_random_legal_games_have_no_violations(seed, monkeypatch):
    monkeypatch.setattr(T, "CHECK_CONSERVATION_EVERY_RECORD", seed == 0)
    n, flags = RANDOM_FLAGS[seed]
    b = random_game(seed, n, flags)
    res = assert_ok(b, flags)
    assert res.actions_checked > 0


def test_validate_speed(monkeypatch):
    monkeypatch.setattr(T, "CHECK_CONSERVATION_EVERY_RECORD", False)
    flags = {"r500_target": 500, "max_hands_per_game": 30}
    a = random_game(11, 4, flags).array()
    t = time.perf_counter()
    res = validate_trace(a, flags)
    dt = time.perf_counter() - t
    assert res.violations == []
    rate = len(a) / dt
    print(f"\n{len(a)} records in {dt * 1000:.1f} ms: {rate:,.0f} records/s")
    assert rate > 50_000


# --------------------------------------------------------------------------------------------
# Misc: whole-pile take, concatenated games, text replay
# --------------------------------------------------------------------------------------------


def test_R500_DRAW_6_take_the_whole_pile():
    b = B(3, dealer=1)
    b.deal({2: "5H 5S 9H TH 2C 3C 4D"}, upcard="5D", stock="KS JH")
    b.draw_discard(2)  # KS
    b.draw_discard(0)  # JH
    b.draw(1).discard(1, b.last)
    b.take(2, 0).meld(2, "set", "5D 5H 5S").meld(2, "run", "9H TH JH").discard(2, "KS")
    flags = {"max_turns_per_hand": 4, **CAP1}
    assert_ok(finish_capped(b), flags)


def test_concatenated_games_are_replayed_in_turn():
    g1 = t01_done().array()
    g2 = out_game()
    g2.rows[0][3] = 8  # game_index
    both = np.concatenate([g1, g2.array()])
    res = validate_trace(both, t01_flags(max_turns_per_hand=6))
    assert res.games == 2 and res.violations == []
    # a violation in the second game carries its game_index and the row in the whole trace
    i = len(g1) + find(g2.rows, 30)
    bad = both.copy()
    bad[i, 2] = cid("KD")
    res = validate_trace(bad, t01_flags())
    assert res.violations[0].game_index == 8 and res.violations[0].record == i
    assert res.violations[0].rule_id == "C-CARD-CONSERVATION"


def test_replay_text_shows_deal_turns_and_scores():
    from rummysim.replay import format_trace

    txt = format_trace(t01_done().array())
    assert "seat 0 dealt  2♣ J♣ 8♦ 4♥ K♥ 4♠ 5♠" in txt
    assert "take    from pile[1] (4♦), 5 card(s): 4♦ Q♠ 4♠ A♥ 7♦" in txt
    assert "meld    #0 set of 4s: 4♥ 4♦ 4♠" in txt
    assert "pile    6♣ 2♣" in txt
    assert "seat 0  table   12" in txt and "hand cap reached" in txt
    b = one_turn("5H 6H 7H 8H X 9C 2C", lambda b: b.meld(0, "run", "5H 6H 7H 8H")
                 .layoff(0, 0, "X@9").discard(0, "2C"))
    assert "🃏(9♥)" in format_trace(b.array())
    assert "X(9H)" in format_trace(b.array(), plain=True)
    assert isinstance(format_trace(np.full((4, 8), 99, np.int32)), str)
