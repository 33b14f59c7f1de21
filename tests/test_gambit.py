"""Dealer's gambit (V500-GAMBIT-1..9) in the 500 Rum kernels: scenarios by rule ID, whole games.

Scenarios are kernel states built from written-out cards (``tests.kstate``), played through the
engine's own functions; the whole-game tests replay traces with ``tests.gambit_replay`` (the
gambit's bookkeeping: pack, dealer's joker, nomination, doubles, splits, blocks, conservation,
scores). Decisions where RULES.md is open are docs/rules-decisions.md E48-E64, named below (E64
and more of E50, E54, E56 in tests/test_gambit_playability.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.checks import traced_game
from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.gambit import (
    apply_block, apply_split, block_allowed, split_options, split_source, start_gambit,
)
from rummysim.kernels.rum500.melds import enumerate_plays
from rummysim.kernels.rum500.scoring import score_hand
from rummysim.kernels.rum500.table import apply_play
from rummysim.kernels.rum500.turn import play_candidates, take_from_pile
from rummysim.rules import Rules
from rummysim.simulation import prepare, simulate
from rummysim.strategies.ids import GREEDY, RANDOM
from tests.cardtext import cid, mask
from tests.gambit_replay import ReplayStats, replay
from tests.kstate import make_state

GAMBIT = Rules.preset("dealers-gambit")


def state(hands: dict[int, str], pile: str = "", effect: int = L.EFFECT_WILD, dealer: int = 0, seat: int = 1,
          players: int = 3, rules: Rules = GAMBIT):
    k = make_state(players, hands, pile=pile, stock="2C 3C 4C 5C 6C", seat=seat, rules=rules)
    k.set_gambit(effect, dealer)
    return k


def plays(k, seat: int, must: int = -1, scope: int = L.PLAY_ALL) -> np.ndarray:
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = enumerate_plays(k.hands[seat, 0], int(k.st[L.ST_JOKERS + seat]), must, k.table(seat), scope, cand, 0, L.MAX_CAND)
    return cand[:n]


def find(rows: np.ndarray, typ: int, m: str, njok: int | None = None, gamb: int | None = None) -> np.ndarray:
    hits = [r for r in rows if r[L.A_TYPE] == typ and np.uint64(r[L.A_MASK]) == mask(m)
            and (njok is None or r[L.A_NJOK] == njok) and (gamb is None or r[L.A_GAMBIT] == gamb)]
    assert hits, f"no action {typ} with {m}"
    return hits[0]


def scores(k) -> list[int]:
    score_hand(k.st, k.hands, k.melds, k.rules, k.vals, k.ace_low, L.END_OUT, 1, None)
    return [int(k.st[L.ST_HAND_SCORE + s]) for s in range(int(k.st[L.ST_N]))]


# ----------------------------------------------------------------------------- configuration


def test_V500_GAMBIT_preset_and_encoding():
    """The preset: gambit on, 250 as the usual companion, an explicit target honoured; the vector
    holds the pack without the dealer's joker and jokers worth 0 (E48, E57)."""
    assert GAMBIT.r500_dealers_gambit and GAMBIT.r500_target == 250
    assert prepare("dealers-gambit", 3, "greedy", ["r500_target=500"]).rules.r500_target == 500
    for jokers in (2, 4):
        vec = prepare("dealers-gambit", 4, "greedy", [f"r500_gambit_jokers={jokers}"]).vector
        assert vec[L.R_GAMBIT] == 1 and vec[L.R_JOKERS] == jokers - 1 and vec[L.R_JOKER_VALUE] == 0
        assert vec[L.R_DECKS] == 1
    assert prepare("500-rum", 3, "greedy").vector[L.R_GAMBIT] == 0


# ----------------------------------------------------------------------------- GAMBIT-1..3


@pytest.mark.parametrize("jokers", [2, 4])
def test_V500_GAMBIT_1_pack_and_dealers_joker(jokers):
    """52 + jokers, one set aside: the shuffled pack has 53 or 55 cards; DEALERS_JOKER and NOMINATE
    follow the deck, before any turn (E48); the replay rebuilds every hand from it."""
    cfg = prepare("dealers-gambit", 2, "random", [f"r500_gambit_jokers={jokers}"])
    trace, _, over = traced_game(cfg, 3, 0)
    assert not over
    kinds = trace[:, 0].tolist()
    start = kinds.index(L.T_HAND_START)
    assert trace[start, 3] == 52 + jokers - 1
    dj = kinds.index(L.T_DEALERS_JOKER)
    assert all(k == L.T_DECK for k in kinds[start + 1:dj]) and kinds[dj + 1] == L.T_NOMINATE
    assert kinds.index(L.T_TURN_START) > dj + 1
    assert trace[dj, 1] == trace[start, 2]  # beside the dealer
    replay(trace, gambit_jokers=jokers)


def test_V500_GAMBIT_2_deal_passes_to_the_right_play_clockwise():
    """The next dealer is the seat on the dealer's right; the first player is left of the dealer
    and play goes clockwise (E49)."""
    res = simulate("dealers-gambit", players=4, lineup="greedy", games=30, seed=5, hands=True)
    for _, game in res.hands.group_by("game_index"):
        dealers = game.sort("hand")["dealer"].to_list()
        assert all(b == (a - 1) % 4 for a, b in zip(dealers, dealers[1:]))
    trace, _, _ = traced_game(prepare("dealers-gambit", 4, "random"), 1, 0)
    starts = [r for r in trace if r[0] == L.T_HAND_START]
    turns = [r for r in trace if r[0] == L.T_TURN_START][:6]
    assert starts[0][5] == (starts[0][2] + 1) % 4
    assert [int(t[1]) for t in turns] == [(int(starts[0][5]) + i) % 4 for i in range(6)]


def test_V500_GAMBIT_2_winner_deals_overrides_the_right():
    cfg = prepare("dealers-gambit", 3, "random", ["r500_next_dealer=winner"])
    for g in range(5):
        trace, _, _ = traced_game(cfg, 2, g)
        replay(trace, winner_deals=True)


def test_V500_GAMBIT_3_nomination_by_parameter_and_at_random():
    """greedy names the effect of its ``nominate`` parameter; random names each effect (E50, E60)."""
    for k, effect in ((0, L.EFFECT_WILD), (1, L.EFFECT_DOUBLE), (2, L.EFFECT_SPLIT)):
        trace, _, _ = traced_game(prepare("dealers-gambit", 3, f"greedy:nominate={k}"), 1, 0)
        assert {int(r[2]) for r in trace if r[0] == L.T_NOMINATE} == {effect}
    stats = ReplayStats()
    cfg = prepare("dealers-gambit", 3, "random")
    for g in range(12):
        replay(traced_game(cfg, 4, g)[0], stats=stats)
    assert set(stats.effects) == {1, 2, 3}


def test_V500_GAMBIT_3_nomination_sees_no_hand():
    """start_gambit gives the dealer's strategy only the public observation: two deals that differ
    in every hand, the dealer's included, get the same nomination from every strategy (E50)."""
    for sid in (RANDOM, GREEDY):
        picks = []
        for hands in ({0: "AS KS QS JS TS 9S 8S", 1: "2C 3C 4C 5C 6C 7C 8C", 2: "X 2D 3D 4D 5D 6D 7D"},
                      {0: "2C 3C 4C 5C 6C 7C 8C", 1: "X 2D 3D 4D 5D 6D 7D", 2: "AS KS QS JS TS 9S 8S"}):
            k = state(hands, pile="9H", effect=L.EFFECT_NONE, dealer=0)
            g = k.game([sid] * 3)
            start_gambit(g)
            picks.append((int(k.st[L.ST_EFFECT]), k.records(L.T_NOMINATE)))
            assert k.records(L.T_DEALERS_JOKER) == [[L.T_DEALERS_JOKER, 0, 0, 0, 0, 0, 0, 0]]
            assert int(k.st[L.ST_DJ]) == L.DJ_READY
        assert picks[0] == picks[1]


# ----------------------------------------------------------------------------- GAMBIT-4 wild


def test_V500_GAMBIT_4_E53_wild_jokers_worth_zero_with_designation():
    """Under ``wild`` a joker is wild as in the base game (a run position, a set's rank: E53) and
    worth 0 on the table and in hand (E57)."""
    k = state({1: "5H 6H X X 9C"}, effect=L.EFFECT_WILD)
    run = find(plays(k, 1), L.ACT_MELD_RUN, "5H 6H", njok=1)
    assert run[L.A_VALUE] == 11
    assert find(plays(k, 1), L.ACT_MELD_SET, "9C", njok=2)[L.A_VALUE] == 9
    k.game([GREEDY] * 3)
    apply_play(k.st, k.hands, k.melds, k.rules, 1, run, 1, k.trace, L.T_LAYOFF)
    cards = k.records(L.T_CARD)
    assert any(c[3] == L.JOKER and c[4] in (4, 7) and c[5] == L.SOURCE_HAND for c in cards)
    assert scores(k)[1] == 11 - 9  # the joker left in hand counts 0, the 9C counts 9 (GAMBIT-9)


@pytest.mark.parametrize("effect", [L.EFFECT_DOUBLE, L.EFFECT_SPLIT])
def test_E56_jokers_not_wild_under_double_and_split(effect):
    """Under ``double`` and ``split`` jokers go into no set or run, so a joker cannot be a take's
    must-card (E56)."""
    wild = state({1: "7C 7D X X 5H 6H"}, effect=L.EFFECT_WILD)
    assert [r for r in plays(wild, 1) if r[L.A_TYPE] == L.ACT_MELD_SET]
    k = state({1: "7C 7D X X 5H 6H"}, effect=effect)
    rows = plays(k, 1)
    assert all(r[L.A_GAMBIT] in (L.AG_NONE, L.AG_DOUBLE_HAND) for r in rows)
    assert all(r[L.A_NJOK] == (1 if r[L.A_GAMBIT] == L.AG_DOUBLE_HAND else 0) for r in rows)
    assert not [r for r in rows if r[L.A_TYPE] == L.ACT_MELD_SET]  # 7C 7D X is no set now
    assert len(plays(k, 1, must=L.JOKER)) == 0


# ----------------------------------------------------------------------------- GAMBIT-5 double (T-18)


def test_V500_GAMBIT_5_T18_double_seals_and_scores_double():
    """T-18: the dealer nominates double; P1 lays 7C 7D 7H with a joker on it and is credited 42,
    the joker 0; a later lay-off of 7S is illegal because the set is sealed. The joker is not one
    of the meld's cards (E51)."""
    k = state({1: "7C 7D 7H X 2C", 2: "7S 9D"}, effect=L.EFFECT_DOUBLE)
    rows = plays(k, 1)
    plain = find(rows, L.ACT_MELD_SET, "7C 7D 7H", njok=0, gamb=L.AG_NONE)
    doubled = find(rows, L.ACT_MELD_SET, "7C 7D 7H", njok=1, gamb=L.AG_DOUBLE_HAND)
    assert plain[L.A_VALUE] == 21 and doubled[L.A_VALUE] == 42 and doubled[L.A_NCARDS] == 3
    k.game([GREEDY] * 3)
    apply_play(k.st, k.hands, k.melds, k.rules, 1, doubled, 1, k.trace, L.T_LAYOFF)
    assert k.melds[0, L.MK_LEN] == 3 and k.melds[0, L.MK_NJOK] == 0 and k.melds[0, L.MK_DOUBLE] == 1
    assert k.st[L.ST_JOKERS + 1] == 0 and k.hand_ids(1) == [cid("2C")]
    assert k.records(L.T_DOUBLE) == [[L.T_DOUBLE, 1, 0, L.SOURCE_HAND, 0, 0, 0, 0]]
    k.st[L.ST_SEAT] = 2
    assert not [r for r in plays(k, 2) if r[L.A_TYPE] == L.ACT_LAYOFF]  # sealed
    assert scores(k)[1] == 42 - 2


def test_E51_double_needs_a_valid_meld_of_its_own_and_runs_double_too():
    """The doubling joker makes no meld valid (7C 7D + joker is nothing) and any new meld, a run
    as well, may be doubled (E51)."""
    k = state({1: "7C 7D X 4S 5S 6S"}, effect=L.EFFECT_DOUBLE)
    rows = plays(k, 1)
    assert not [r for r in rows if r[L.A_TYPE] == L.ACT_MELD_SET]
    assert find(rows, L.ACT_MELD_RUN, "4S 5S 6S", gamb=L.AG_DOUBLE_HAND)[L.A_VALUE] == 30


def test_E58_zero_point_joker_meld_still_opens_the_turn():
    """V500-OPEN30 under ``wild``: three jokers make a 0-point set; laying it is putting cards down,
    so the opening minimum applies: with nothing to reach 30 after it, it is not offered (E58)."""
    rules = GAMBIT.with_(r500_first_meld_min=30)
    k = state({1: "X X X 2D 9C"}, effect=L.EFFECT_WILD, rules=rules)
    set3 = [r for r in plays(k, 1) if r[L.A_TYPE] == L.ACT_MELD_SET and r[L.A_NJOK] == 3]
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    assert not any(r[L.A_NJOK] == 3 for r in cand[:play_candidates(k.st, k.hands, k.table(1), 1, L.PLAY_ALL, cand,
                                                                   k.stack, k.budget)])
    assert set3 and set3[0][L.A_VALUE] == 0


# ----------------------------------------------------------------------------- GAMBIT-6 split (T-18)


def split_state(effect: int = L.EFFECT_SPLIT, hand: str = "8C 8S X 2H", seat: int = 2, dealer: int = 0):
    return state({seat: hand}, pile="3C 8H 9D KS 4D 5D", effect=effect, dealer=dealer, seat=seat)


def test_V500_GAMBIT_6_T18_split_take():
    """T-18: the dealer nominates split; pile 3C 8H 9D KS 4D 5D, P2 holds 8C 8S and a joker. P2
    takes from 8H splitting before 4D: 9D KS leave play, 8H 4D 5D go to P2, who must meld 8H, the
    joker leaves play, and the pile is 3C."""
    k = split_state()
    g = k.game([GREEDY] * 3)
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    n = split_options(g, k.stack, 2, 1, opts)
    assert opts[:n].tolist() == [-1, 6, 5, 4, 3]  # no split, then every s from top + 1 down to k + 2
    assert split_source(k.st, 2) == L.SOURCE_HAND
    apply_split(k.st, k.pile, 2, 1, 4, L.SOURCE_HAND, k.trace)
    take_from_pile(k.st, k.hands, k.pile, k.rules, 2, 1, False, True, k.trace)
    assert sorted(k.hand_ids(2)) == sorted(cid(c) for c in "8C 8S 2H 8H 4D 5D".split())
    assert k.pile[: int(k.st[L.ST_PILE_LEN])].tolist() == [cid("3C")]
    assert np.uint64(k.st[L.ST_OUT_MASK]) == mask("9D KS") and k.st[L.ST_GONE_JOKERS] == 1
    assert k.st[L.ST_MUST_CARD] == cid("8H") and k.st[L.ST_NO_DISCARD] == -1
    assert [r[:6] for r in k.records(L.T_SPLIT)] == [[L.T_SPLIT, 2, 1, 4, 2, L.SOURCE_HAND]]
    assert [r[:5] for r in k.records(L.T_TAKE_PILE)] == [[L.T_TAKE_PILE, 2, 1, 3, cid("8H")]]


def test_V500_GAMBIT_6_split_to_the_selected_card_alone_keeps_the_duty():
    """s = top + 1: only card k goes to the hand, and it must still be played (E52)."""
    k = split_state()
    k.game([GREEDY] * 3)
    apply_split(k.st, k.pile, 2, 1, 6, L.SOURCE_HAND, k.trace)
    take_from_pile(k.st, k.hands, k.pile, k.rules, 2, 1, False, True, k.trace)
    assert k.st[L.ST_MUST_CARD] == cid("8H") and int(k.st[L.ST_PILE_LEN]) == 1


def test_V500_GAMBIT_6_split_points_keep_the_take_legal():
    """Split points whose taken cards cannot play card k are not offered: 8H needs 7H 9H here."""
    k = split_state(hand="7H X 2C")
    k.pile[:7] = [cid(c) for c in "3C 8H 9D 9H KS 4D 5D".split()]
    k.st[L.ST_PILE_LEN] = 7
    g = k.game([GREEDY] * 3)
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    n = split_options(g, k.stack, 2, 1, opts)
    assert opts[:n].tolist() == [-1, 3]  # 9H (index 3) must stay among the taken cards


# ----------------------------------------------------------------------------- GAMBIT-7 dealer's joker


def test_V500_GAMBIT_7_dealers_joker_wild_for_the_dealer_only_on_its_turn():
    """Under ``wild`` the dealer may use the dealer's joker in its own turn as a joker it does not
    hold (AG_DEALER_WILD, CARD source 1, once per hand, E54); nobody else may, nor the dealer
    out of turn."""
    k = state({0: "5H 6H 2C", 1: "5H 6H 2C"}, effect=L.EFFECT_WILD, dealer=0, seat=0)
    run = find(plays(k, 0), L.ACT_MELD_RUN, "5H 6H", njok=0, gamb=L.AG_DEALER_WILD)
    assert run[L.A_LEN] == 3
    k.st[L.ST_SEAT] = 1
    assert not [r for r in plays(k, 0) if r[L.A_GAMBIT] != 0]  # not the dealer's turn
    assert not [r for r in plays(k, 1) if r[L.A_TYPE] == L.ACT_MELD_RUN]
    k.st[L.ST_SEAT] = 0
    k.game([GREEDY] * 3)
    apply_play(k.st, k.hands, k.melds, k.rules, 0, run, 0, k.trace, L.T_LAYOFF)
    assert k.st[L.ST_DJ] == L.DJ_USED and k.hand_ids(0) == [cid("2C")]
    assert [c[5] for c in k.records(L.T_CARD) if c[3] == L.JOKER] == [L.SOURCE_DEALER]
    assert k.melds[0, L.MK_NJOK] == 1
    k.set_hand(0, "5D 5S 2C")
    assert not [r for r in plays(k, 0) if r[L.A_NJOK] > 0 or r[L.A_GAMBIT] != 0]  # used up


def test_E54_dealers_joker_doubles_and_splits():
    """The dealer's joker takes the hand's effect: it doubles a new meld of the dealer and splits
    a take by the dealer, before any joker from the dealer's hand (E54)."""
    k = state({0: "7C 7D 7H X"}, effect=L.EFFECT_DOUBLE, dealer=0, seat=0)
    doubled = find(plays(k, 0), L.ACT_MELD_SET, "7C 7D 7H", njok=0, gamb=L.AG_DOUBLE_DEALER)
    assert doubled[L.A_VALUE] == 42
    k.game([GREEDY] * 3)
    apply_play(k.st, k.hands, k.melds, k.rules, 0, doubled, 0, k.trace, L.T_LAYOFF)
    assert k.st[L.ST_DJ] == L.DJ_USED and k.st[L.ST_JOKERS] == 1
    assert k.records(L.T_DOUBLE)[0][3] == L.SOURCE_DEALER
    s = split_state(hand="8C 8S 2H", seat=0, dealer=0)
    assert split_source(s.st, 0) == L.SOURCE_DEALER
    s.game([GREEDY] * 3)
    apply_split(s.st, s.pile, 0, 1, 4, L.SOURCE_DEALER, s.trace)
    assert s.st[L.ST_DJ] == L.DJ_USED and s.st[L.ST_GONE_JOKERS] == 0


# ----------------------------------------------------------------------------- GAMBIT-8 blocking


def test_V500_GAMBIT_8_block():
    """A seat other than the dealer holding a joker may block on its own turn; both jokers leave
    play and the dealer can no longer use the dealer's joker (E55)."""
    k = state({0: "5H 6H 2C", 1: "X 9C", 2: "X"}, effect=L.EFFECT_WILD, dealer=0, seat=1)
    assert block_allowed(k.st, k.hands, k.rules, 1)
    assert not block_allowed(k.st, k.hands, k.rules, 0)  # the dealer
    k.st[L.ST_SEAT] = 2
    assert not block_allowed(k.st, k.hands, k.rules, 2)  # it would empty the hand
    assert not block_allowed(k.st, k.hands, k.rules, 1)  # not seat 1's turn
    k.st[L.ST_SEAT] = 1
    k.st[L.ST_MUST_CARD] = cid("9C")
    assert not block_allowed(k.st, k.hands, k.rules, 1)  # a take's duty first
    k.st[L.ST_MUST_CARD] = -1
    k.game([GREEDY] * 3)
    apply_block(k.st, 1, k.trace)
    assert k.st[L.ST_DJ] == L.DJ_BLOCKED and k.st[L.ST_JOKERS + 1] == 0 and k.st[L.ST_GONE_JOKERS] == 1
    assert k.records(L.T_BLOCK) == [[L.T_BLOCK, 1, 0, 0, 0, 0, 0, 0]]
    k.st[L.ST_SEAT] = 0
    assert not [r for r in plays(k, 0) if r[L.A_GAMBIT] != 0]


# ----------------------------------------------------------------------------- GAMBIT-9


def test_V500_GAMBIT_9_jokers_in_hand_score_zero():
    for effect in (L.EFFECT_WILD, L.EFFECT_DOUBLE, L.EFFECT_SPLIT):
        k = state({0: "X X 5C", 1: "", 2: "X KD"}, effect=effect)
        assert scores(k) == [-5, 0, -10]


# ----------------------------------------------------------------------------- whole games

REPLAY_CASES = [
    (3, "random", []), (2, "random", ["r500_gambit_jokers=4"]), (4, "random", ["r500_call_rummy=pile"]),
    (3, "random", ["r500_first_meld_min=30", "r500_meld_out_of_turn=true"]),
    (4, "random", ["r500_partnership=true", "r500_partner_layoff=team_only"]),
    (3, "random", ["r500_end_of_stock=reshuffle", "r500_add_opponent_hand=true"]),
    (3, "random", ["r500_upcard_mode=first_player_choice", "r500_boathouse=true"]),
    (3, "greedy:nominate=0:block=1", []), (3, "greedy", []), (3, "greedy:nominate=2:block=1", []),
    (4, "heuristic,cautious,digger,greedy", []),
]


@pytest.mark.parametrize("players, lineup, rule", REPLAY_CASES)
def test_V500_GAMBIT_whole_games_replay(players, lineup, rule):
    """Every record of whole games keeps V500-GAMBIT-1..9 (tests/gambit_replay.py), and the joker
    uses happen: under random every use is seen; greedy uses the dealer's joker, doubles or splits
    with its jokers, and blocks only with block=1 (E63)."""
    cfg = prepare("dealers-gambit", players, lineup, rule)
    r = cfg.rules
    stats = ReplayStats()
    for g in range(40 if lineup == "random" else 25):
        trace, row, over = traced_game(cfg, 9, g)
        assert not over and row[L.G_CAPPED] == 0
        replay(trace, gambit_jokers=r.r500_gambit_jokers, upchoice=r.r500_upcard_mode == "first_player_choice",
               first_meld_min=r.r500_first_meld_min, stats=stats)
    assert stats.dealer_joker_uses > 0
    assert (stats.blocks > 0) == (lineup == "random" or "block=1" in lineup)
    if lineup == "random":
        assert stats.doubles > 0 and stats.splits > 0 and set(stats.effects) == {1, 2, 3}
    if "nominate=2" in lineup:
        assert stats.splits > 0 and stats.cards_out_of_play > 0
    if lineup == "greedy":
        assert stats.doubles > 0


def test_E52_no_split_in_rummy_call_turns():
    """Splits happen only as a normal turn's draw (the replay fails a SPLIT in a call turn), while
    calls do happen (E52)."""
    cfg = prepare("dealers-gambit", 4, "random", ["r500_call_rummy=pile"])
    calls = splits = 0
    for g in range(30):
        trace, _, _ = traced_game(cfg, 21, g)
        replay(trace)
        calls += int(((trace[:, 0] == L.T_TURN_START) & (trace[:, 5] == 1)).sum())
        splits += int((trace[:, 0] == L.T_SPLIT).sum())
    assert calls > 0 and splits > 0


def test_dealers_gambit_simulate_cli_three_greedy(tmp_path):
    """``rummysim simulate --game dealers-gambit --players 3 --lineup greedy``: games end at 250
    with a winner, none capped, a few hands each (the target of 500 when set explicitly)."""
    res = simulate("dealers-gambit", players=3, lineup="greedy", games=200, seed=1, hands=True)
    games = res.games
    assert games["capped"].sum() == 0 and (games["winner"] >= 0).all()
    best = games.select(pl_max_score()).to_series()
    assert (best >= 250).all() and best.mean() < 400
    assert 2 <= games["hands"].mean() <= 8
    long = simulate("dealers-gambit", players=3, lineup="greedy", games=50, seed=1, rule=["r500_target=500"])
    assert (long.games.select(pl_max_score()).to_series() >= 500).all()


def pl_max_score():
    import polars as pl

    return pl.max_horizontal("score_0", "score_1", "score_2")


def test_dealers_gambit_cli_runs(tmp_path):
    import json
    import subprocess
    import sys

    out = tmp_path / "g.parquet"
    r = subprocess.run([sys.executable, "-m", "rummysim", "simulate", "--game", "dealers-gambit", "--players", "3",
                        "--lineup", "greedy", "--games", "50", "--seed", "2", "--out", str(out), "--no-progress",
                        "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 50 and summary["players"] == 3 and out.exists()


def test_rules_show_marks_the_gambit_flags_implemented():
    import re
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "rummysim", "rules", "show", "dealers-gambit", "--rule",
                        "r500_gambit_jokers=4"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = {m.group(1): m.group(2) for m in re.finditer(r"(r500_\w+)\s.*?│\s+(yes|not yet)\s+│", r.stdout)}
    assert rows["r500_dealers_gambit"] == "yes" and rows["r500_gambit_jokers"] == "yes"
    assert re.search(r"r500_gambit_jokers\s+│ 4 ", r.stdout)


def test_dealers_gambit_determinism_threads_and_chunks():
    from polars.testing import assert_frame_equal

    args = dict(game="dealers-gambit", players=3, lineup="greedy,random,greedy", games=120, seed=13, hands=True)
    base = simulate(**args, threads=2, chunk_size=120)
    for threads, chunk in ((1, 120), (2, 7)):
        other = simulate(**args, threads=threads, chunk_size=chunk)
        assert_frame_equal(base.games, other.games)
        assert_frame_equal(base.hands, other.hands)


# ----------------------------------------------------------------------------- information (C-INFO-1)


def gambit_twins(seed: int, effect: int):
    """Two 3-player gambit states, the same from seat 1's side (its hand, the pile, the table, the
    public gambit state), different in the hidden cards (the other hands and the stock)."""
    import random

    deck = [16 * s + r for s in range(4) for r in range(1, 14)]
    rng = random.Random(seed)
    rng.shuffle(deck)
    mine = deck[:8] + [L.JOKER]
    pile, hidden = deck[8:14], deck[14:]
    from tests.cardtext import name

    out = []
    for variant in range(2):
        other = hidden[:]
        random.Random(seed * 5 + variant).shuffle(other)
        hands = {1: " ".join(name(c) for c in mine), 0: " ".join(name(c) for c in other[:7]),
                 2: " ".join(name(c) for c in other[7:14])}
        k = make_state(3, hands, pile=" ".join(name(c) for c in pile), stock=" ".join(name(c) for c in other[14:]),
                       seat=1, rules=GAMBIT)
        k.set_gambit(effect, dealer=0)
        k.st[L.ST_TOTAL:L.ST_TOTAL + 3] = [40, 10, 90]
        out.append(k)
    return out


def gambit_decisions(k, strategy: str) -> list[int]:
    from rummysim.kernels.rum500.view import observe
    from rummysim.strategies.registry import STRATEGIES
    from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES, choose_play, choose_split

    info = STRATEGIES[strategy]
    rng = np.array([99, 0, 0, 0], dtype=np.uint64)
    obs = np.zeros(L.OB_SIZE, dtype=np.int64)
    mine = np.zeros(2, dtype=np.uint64)
    observe(k.st, k.hands, k.rules, 1, obs, mine)
    view = k.view(obs, mine)
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = play_candidates(k.st, k.hands, k.table(1), 1, L.PLAY_ALL, cand, k.stack, k.budget)
    if block_allowed(k.st, k.hands, k.rules, 1):
        from rummysim.kernels.rum500.gambit import add_block

        n = add_block(cand, n)
    out = [int(choose_play(ALL_STRATEGIES, info.id, info.default_params(), view, cand, n, rng, scratch))]
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    opts[0] = -1
    opts[1:4] = [5, 4, 3]  # split points for a take from pile index 1 (only information matters here)
    out.append(int(choose_split(ALL_STRATEGIES, info.id, info.default_params(), view, 1, opts, 4, rng, scratch)))
    return out


@pytest.mark.parametrize("strategy", ["random", "greedy", "heuristic", "cautious", "digger", "rollout"])
@pytest.mark.parametrize("seed", range(6))
def test_C_INFO_1_gambit_joker_choices_ignore_hidden_cards(strategy, seed):
    """Doubling, blocking, the dealer's joker and the split point depend only on what the seat may
    know (C-INFO-1): two worlds that differ in hidden cards give the same choices."""
    effect = (L.EFFECT_WILD, L.EFFECT_DOUBLE, L.EFFECT_SPLIT)[seed % 3]
    a, b = gambit_twins(seed, effect)
    assert not np.array_equal(a.hands[[0, 2]], b.hands[[0, 2]])
    assert gambit_decisions(a, strategy) == gambit_decisions(b, strategy)
