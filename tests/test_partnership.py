"""Partnership 500 rum, Persian rummy and Persian 5000 in the kernels (V500-PARTNER, V500-PERSIAN,
V5K-9).

The rules layer (presets, refusals by rule ID), the meld search under `team_only` lay-offs and
Persian's joker sets and doubled fours, and whole games: team totals, the two-deal Persian game
with its draws, and the fairness of the two teams under one strategy. The validator's own checks
of these games are in tests/test_validate_partnership*.py.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import rummysim
from rummysim.analysis.stats import wilson
from rummysim.errors import RulesError
from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.rum500.melds import card_playable, enumerate_plays
from rummysim.rules import Rules
from tests.cardtext import cid, mask
from tests.kstate import make_state
from tests.kstate5k import make5

PARTNERS = Rules.preset("partnership-500")
TEAM_ONLY = PARTNERS.with_(r500_partner_layoff="team_only")
PERSIAN = Rules.preset("persian-rummy")


def plays(k, seat: int, hand: str, jokers: int = 0, must: int = -1, scope: int = L.PLAY_ALL) -> np.ndarray:
    cand = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    n = enumerate_plays(mask(hand), jokers, must, k.table(seat), scope, cand, 0, L.MAX_CAND)
    return cand[:n]


# ---------------------------------------------------------------------------- rules layer

@pytest.mark.parametrize("preset, rule", [("partnership-500", "V500-PARTNER"), ("persian-rummy", "V500-PERSIAN")])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_V500_PARTNER_other_player_counts_are_refused_by_rule_id(preset, rule, players):
    with pytest.raises(RulesError, match=rule):
        rummysim.simulate(game=preset, players=players, lineup="greedy", games=1, seed=1)


@pytest.mark.parametrize("flag, value, rule", [
    ("r500_card_values", "5_10_15", "V500-PERSIAN-6"), ("r500_ace_value", 25, "V500-PERSIAN-6"),
    ("r500_score_divisor", 5, "V500-PERSIAN-6"), ("r500_four_aces_100", True, "V500-PERSIAN-6"),
    ("r500_jokers_per_deck", 1, "V500-PERSIAN-1"), ("r500_target", 1000, "V500-PERSIAN-5"),
])
def test_V500_PERSIAN_6_value_joker_and_target_flags_are_refused_E38(flag, value, rule):
    with pytest.raises(RulesError, match=rule):
        rummysim.simulate(game="persian-rummy", players=4, lineup="greedy", games=1, seed=1, rule=[f"{flag}={value}"])


# ---------------------------------------------------------------------------- meld search

def table_with_both_teams(rules: Rules):
    """Seat 1 (team 1) laid 9C 9D 9H; seat 2 (team 0, seat 0's partner) laid 4S 5S 6S."""
    k = make_state(4, {0: "9S 7S 2C", 1: "", 2: "", 3: ""}, rules=rules)
    k.add_meld(1, "set", "9C 9D 9H")
    k.add_meld(2, "run", "4S 5S 6S", lo=4)
    return k


def test_V500_PARTNER_1_any_lays_off_on_every_meld():
    k = table_with_both_teams(PARTNERS)
    targets = {int(r[L.A_MELD]) for r in plays(k, 0, "9S 7S 2C") if r[L.A_TYPE] == L.ACT_LAYOFF}
    assert targets == {0, 1}


def test_V500_PARTNER_1_team_only_lays_off_on_the_partners_meld_not_the_opponents():
    k = table_with_both_teams(TEAM_ONLY)
    targets = {int(r[L.A_MELD]) for r in plays(k, 0, "9S 7S 2C") if r[L.A_TYPE] == L.ACT_LAYOFF}
    assert targets == {1}  # the partner's run takes 7S; the opponents' set of 9s is closed to seat 0
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    assert not card_playable(cid("9S"), mask("9S"), 0, k.table(0), L.PLAY_LAYOFF_ONLY, scratch)
    assert card_playable(cid("9S"), mask("9S"), 0, k.table(1), L.PLAY_LAYOFF_ONLY, scratch)  # seat 1's own set
    assert card_playable(cid("9S"), mask("9S"), 0, k.table(3), L.PLAY_LAYOFF_ONLY, scratch)  # its partner's


def test_V500_PERSIAN_2_jokers_are_not_wild():
    k = make_state(4, {0: "4S 5S 9C 9D X", 1: "", 2: "", 3: ""}, rules=PERSIAN)
    k.add_meld(1, "run", "6H 7H 8H", lo=6)
    rows = plays(k, 0, "4S 5S 9C 9D", jokers=1)
    assert len(rows) == 0  # no 4S 5S X run, no 9C 9D X set, no joker on the run of hearts


def test_V500_PERSIAN_2_jokers_meld_only_as_sets_of_jokers_and_a_fourth_is_laid_off():
    k = make_state(4, {}, rules=PERSIAN)
    rows = plays(k, 0, "", jokers=4)
    sets = sorted((int(r[L.A_LEN]), int(r[L.A_VALUE])) for r in rows if r[L.A_TYPE] == L.ACT_MELD_SET)
    assert sets == [(3, 60), (4, 160)]  # V500-PERSIAN-3: four jokers laid together count 160
    k.add_meld(2, "set", "X X X")
    rows = plays(k, 0, "", jokers=1, scope=L.PLAY_LAYOFF_ONLY)
    assert [(int(r[L.A_MELD]), int(r[L.A_VALUE])) for r in rows] == [(0, 20)]  # the 4th joker adds 20


def test_V500_PERSIAN_3_four_sixes_laid_at_once_score_48_three_score_18():
    k = make_state(4, {}, rules=PERSIAN)
    rows = plays(k, 0, "6C 6D 6H 6S")
    values = {int(r[L.A_LEN]): int(r[L.A_VALUE]) for r in rows if r[L.A_TYPE] == L.ACT_MELD_SET and r[L.A_LEN] == 4}
    assert values == {4: 48}
    threes = {int(r[L.A_VALUE]) for r in rows if r[L.A_TYPE] == L.ACT_MELD_SET and r[L.A_LEN] == 3}
    assert threes == {18}


def test_V500_PERSIAN_2_a_deep_take_of_a_joker_needs_a_joker_play():
    k = make_state(4, {}, rules=PERSIAN)
    scratch = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    assert not card_playable(64, mask("4S 5S"), 2, k.table(0), L.PLAY_ALL, scratch)  # 2 jokers + the taken one: 3
    assert card_playable(64, mask("4S 5S"), 3, k.table(0), L.PLAY_ALL, scratch)
    assert not card_playable(64, mask("4S 5S 6S"), 1, k.table(0), L.PLAY_ALL, scratch)


# ---------------------------------------------------------------------------- whole games

@pytest.fixture(scope="module")
def partnership_games() -> pl.DataFrame:
    return rummysim.simulate(game="partnership-500", players=4, lineup="greedy,random,greedy,random", games=600,
                             seed=11, hands=True)


def test_V500_PARTNER_2_partners_share_one_team_total(partnership_games):
    g = partnership_games.games
    assert (g["score_0"] == g["score_2"]).all() and (g["score_1"] == g["score_3"]).all()
    assert (g["side_score_0"] == g["score_0"]).all() and (g["side_score_1"] == g["score_1"]).all()
    h = partnership_games.hands
    assert (h["score_0"] == h["score_2"]).all() and (h["score_1"] == h["score_3"]).all()
    totals = h.group_by("game_index").agg(pl.col("score_0").sum(), pl.col("score_1").sum()).sort("game_index")
    assert totals["score_0"].to_list() == g.sort("game_index")["score_0"].to_list()


def test_V500_PARTNER_3_the_higher_team_at_the_target_wins(partnership_games):
    g = partnership_games.games.filter(~pl.col("capped"))
    assert set(g["winner"].unique().to_list()) <= {0, 1}
    win = g.with_columns(
        pl.when(pl.col("winner") == 0).then(pl.col("score_0")).otherwise(pl.col("score_1")).alias("w"),
        pl.when(pl.col("winner") == 0).then(pl.col("score_1")).otherwise(pl.col("score_0")).alias("l"),
    )
    assert (win["w"] >= 500).all() and (win["w"] > win["l"]).all()
    assert (g["winner_side"] == g["winner"]).all()
    # greedy (seats 0+2) beats random (1+3) by far
    assert (g["winner"] == 0).mean() > 0.9


def test_V500_PERSIAN_5_exactly_two_deals_the_higher_team_wins_and_equal_totals_draw():
    res = rummysim.simulate(game="persian-rummy", players=4, lineup="greedy", games=3000, seed=5)
    g = res.games
    assert (g["hands"] == 2).all() and not g["capped"].any()
    drawn = g.filter(pl.col("winner") < 0)
    assert drawn.height > 0  # equal totals happen; they are draws, not games without an account
    assert (drawn["tied_seats"] == 15).all() and (drawn["score_0"] == drawn["score_1"]).all()
    won = g.filter(pl.col("winner") >= 0)
    assert (won["tied_seats"] == 0).all()
    higher = pl.when(pl.col("winner") == 0).then(pl.col("score_0") - pl.col("score_1")).otherwise(
        pl.col("score_1") - pl.col("score_0"))
    assert (won.select(higher.alias("d"))["d"] > 50).all()  # the winner's total includes the 50 bonus


@pytest.mark.parametrize("game", ["partnership-500", "persian-rummy"])
def test_fair_game_each_team_wins_half_of_the_decided_games(game):
    """One strategy on every seat and a random first dealer: neither team is favoured."""
    g = rummysim.simulate(game=game, players=4, lineup="greedy", games=4000, seed=23).games
    decided = g.filter(pl.col("winner") >= 0)
    lo, hi = wilson(int((decided["winner"] == 0).sum()), decided.height)
    assert lo <= 0.5 <= hi


# ---------------------------------------------------------------------------- Persian 5000

PERSIAN_5K = ("r5k_persian=true",)


def kinds_on(rows: np.ndarray, kind: int, meld: int | None = None) -> list[np.ndarray]:
    return [r for r in rows if r[L5.C_TYPE] == kind and (meld is None or r[L5.C_MELD] == meld)]


def test_V5K_9_R5K_GROUP_2_holds_per_partnership():
    k = make5(4, "K", {0: "2C", 1: "7S 7H 7D", 2: "7S 7C 7D", 3: "4C"}, rule=PERSIAN_5K)
    m = k.add_meld(0, "group", "7C 7D 7H")
    partner = k.plays(2)
    assert not kinds_on(partner, L5.P_NEW_GROUP)  # the partnership already has its group of 7s
    assert kinds_on(partner, L5.P_ADD_GROUP, m)  # and adds to it as its own
    opponent = k.plays(1)
    assert kinds_on(opponent, L5.P_NEW_GROUP)  # the other partnership may start its own group of 7s


def test_V5K_9_R5K_GROUP_2_without_partnerships_is_per_seat():
    k = make5(4, "K", {0: "2C", 1: "7S 7H 7D", 2: "7S 7C 7D", 3: "4C"})
    k.add_meld(0, "group", "7C 7D 7H")
    assert kinds_on(k.plays(2), L5.P_NEW_GROUP)  # seat 2 is nobody's partner here


def test_V5K_9_R5K_SEQ_6_partners_join_their_adjacent_sequences():
    k = make5(4, "K", {0: "2C", 1: "9S", 2: "9C", 3: "4C"}, rule=PERSIAN_5K)
    a = k.add_meld(0, "seq", "3H 4H 5H")
    b = k.add_meld(2, "seq", "6H 7H 8H")
    assert [r[L5.C_MELD2] for r in kinds_on(k.plays(2), L5.P_JOIN, a)] == [b]  # one meld area
    assert not kinds_on(k.plays(1), L5.P_JOIN)  # the opponents own neither


@pytest.fixture(scope="module")
def persian_5000_games():
    return rummysim.simulate(game="persian-5000", players=4, lineup="greedy,random,greedy,random", games=120,
                             seed=3, hands=True)


def test_V5K_9_partnership_scores_and_game_end_at_2000(persian_5000_games):
    g = persian_5000_games.games.filter(~pl.col("capped"))
    assert (g["score_0"] == g["score_2"]).all() and (g["score_1"] == g["score_3"]).all()
    won = g.filter(pl.col("winner") >= 0)
    w = won.select(pl.when(pl.col("winner") == 0).then(pl.col("score_0")).otherwise(pl.col("score_1")).alias("w"),
                   pl.when(pl.col("winner") == 0).then(pl.col("score_1")).otherwise(pl.col("score_0")).alias("l"))
    assert (w["w"] >= 2000).all() and (w["w"] > w["l"]).all()
    assert (g["winner"] == 0).mean() > 0.8  # greedy partners beat random ones
    h = persian_5000_games.hands
    assert (h["score_0"] == h["score_2"]).all()


# ---------------------------------------------------------------------------- decisions, from traces

def traces(game: str, rule: list[str], games: int, lineup: str = "greedy,random,greedy,random"):
    from rummysim.checks import traced_game
    from rummysim.simulation import prepare

    cfg = prepare(game, 4, lineup, rule)
    for i in range(games):
        trace, _, _ = traced_game(cfg, 9, i)
        yield trace.tolist()


@pytest.mark.parametrize("game, rule", [("partnership-500", ["r500_call_rummy=pile"]),
                                        ("persian-rummy", ["r500_call_rummy=top_only"]),
                                        ("persian-5000", ["r5k_rummy=top_card"])])
def test_E34_E42_no_rummy_call_on_a_partners_discard(game, rule):
    calls = 0
    for rows in traces(game, rule, 40):
        last_discarder = -1
        for r in rows:
            if r[0] == L.T_DISCARD:
                last_discarder = r[1]
            elif r[0] == L.T_TURN_START and r[5] == 1:
                calls += 1
                assert r[1] % 2 != last_discarder % 2
    assert calls > 0  # the rule was exercised


def test_E36_addopp_lay_offs_come_from_the_opponents_only():
    layoffs = 0
    for rows in traces("partnership-500", ["r500_add_opponent_hand=true"], 60, "random"):
        out_seat = None
        for r in rows:
            if r[0] == L.T_ADDOPP_LAYOFF:
                layoffs += 1
                assert out_seat is not None and r[1] % 2 != out_seat % 2
            elif r[0] == L.T_TURN_START:
                out_seat = r[1]  # the seat whose turn it is: the one that goes out, if anyone does
            elif r[0] == L.T_HAND_END:
                out_seat = None
    assert layoffs > 0
