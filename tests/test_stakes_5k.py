"""5000 Rummy's stakes layers: V5K-1 game points, V5K-13 Doubling, V5K-14 Limit-Poker (issue 16).

Traces are replayed by ``tests.stakes_contract`` (docs/trace-format.md, "Stakes"); the readings
of docs/rules-decisions.md E65-E75 are named in the tests.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from rummysim.checks import traced_game
from rummysim.errors import InputError, RulesError
from rummysim.kernels.common.layout import N_PARAMS
from rummysim.kernels.rum5000 import layout as L5
from rummysim.kernels.rum5000 import stakes as K
from rummysim.rules import Rules, describe
from rummysim.simulation import prepare, simulate
from rummysim.strategies import ids
from rummysim.strategies.betting import parse_betting, parse_betting_policy
from rummysim.strategies.rum5000 import betting as B
from tests.kstate5k import make5
from tests.stakes_contract import FOLD, replay_stakes

DOUBLING = ("r5k_doubling=true",)
POKER = ("r5k_limit_poker=true",)


def traced(rule, betting: str, games: int, lineup: str = "greedy", seed: int = 3):
    cfg = prepare("5000-rummy", 2, lineup, rule, betting=betting)
    for g in range(games):
        trace, row, over = traced_game(cfg, seed, g)
        assert not over
        yield trace, row


def replay_all(rule, betting: str, games: int, lineup: str = "greedy"):
    return [replay_stakes(t, row) for t, row in traced(rule, betting, games, lineup)]


# ---------------------------------------------------------------------------------------------
# configuration


def test_stakes_flags_accepted_and_implemented():
    for flag in ("r5k_doubling", "r5k_limit_poker"):
        Rules.preset("5000-rummy").with_strings([f"{flag}=true"]).check(2)
    Rules.preset("5000-rummy").with_strings(["r5k_payoff=game_point"]).check(3)
    for game in ("5000-rummy", "500-rum"):  # issue 16 point 6: every flag of both games is played
        rows = {r["flag"]: r for r in describe(Rules.preset(game))}
        assert rows and all(r["implemented"] for r in rows.values()), [f for f, r in rows.items() if not r["implemented"]]


@pytest.mark.parametrize("extra", [
    ("r5k_limit_poker=true",), ("r5k_target=3000",), ("r5k_must_go_out_to_win=true",), ("r5k_payoff=game_point",),
    ("max_hands_per_game=1",),
])
def test_E71_session_refuses_target_flags(extra):
    with pytest.raises(RulesError, match="V5K-13"):
        Rules.preset("5000-rummy").with_strings([*DOUBLING, *extra]).check(2)


def test_stakes_need_two_players():
    with pytest.raises(RulesError, match="V5K-14"):
        Rules.preset("5000-rummy").with_strings(list(POKER)).check(3)


def test_betting_option_checked():
    with pytest.raises(InputError, match="needs a stakes game"):
        prepare("5000-rummy", 2, "greedy", (), betting="threshold")
    with pytest.raises(InputError, match="unknown betting policy"):
        prepare("5000-rummy", 2, "greedy", DOUBLING, betting="bold")
    with pytest.raises(InputError, match="no parameter"):
        parse_betting_policy("accept-all:double_at=3")
    with pytest.raises(InputError, match="out of range"):
        parse_betting_policy("threshold:chips=11")
    with pytest.raises(InputError, match="3 policies for 2 players"):
        parse_betting("threshold,accept-all,aggressive", 2)
    names, rows = parse_betting("threshold:double_at=200,accept-all", 2)
    assert names == ["threshold:double_at=200", "accept-all"]
    assert rows[0, ids.BP_DOUBLE_AT] == 200 and rows[1, ids.BP_ID] == ids.BET_ACCEPT_ALL
    cfg = prepare("5000-rummy", 2, "greedy", DOUBLING, betting="threshold")
    assert cfg.params.shape == (2, N_PARAMS + ids.BP_SIZE) and cfg.betting == ["threshold", "threshold"]


# ---------------------------------------------------------------------------------------------
# the policies


def row(spec: str) -> np.ndarray:
    _, bet, _ = parse_betting_policy(spec)
    return np.concatenate([np.zeros(N_PARAMS), bet])


def view(my_table=0, opp_table=0, my_cards=10, opp_cards=10, wilds=0, to_call=0, bet_made=0, can_raise=1):
    sv = np.zeros(B.SV_SIZE, dtype=np.int64)
    sv[[B.SV_MY_TABLE, B.SV_OPP_TABLE, B.SV_MY_CARDS, B.SV_OPP_CARDS, B.SV_MY_WILDS, B.SV_TO_CALL, B.SV_BET_MADE,
        B.SV_CAN_RAISE]] = [my_table, opp_table, my_cards, opp_cards, wilds, to_call, bet_made, can_raise]
    return sv


def test_policy_thresholds():
    t = row("threshold:double_at=200:take_at=-100:beaver_at=500:bet_at=50:raise_at=150:chips=4:fold_at=-80:concede_at=-300")
    assert B.edge(view(300, 50, 8, 10, 1)) == 250 + 50 + 50
    assert B.wants_double(t, view(200)) and not B.wants_double(t, view(199))
    assert B.answer_double(t, view(500)) == B.ANSWER_BEAVER
    assert B.answer_double(t, view(-101)) == B.ANSWER_FOLD
    assert B.answer_double(t, view(-100)) == B.ANSWER_TAKE
    assert B.round_action(t, view(50)) == (B.ACT_BET, 4)
    assert B.round_action(t, view(49)) == (B.ACT_CHECK, 0)
    assert B.round_action(t, view(-81, to_call=4)) == (B.ACT_CONCEDE, 0)
    assert B.round_action(t, view(150, to_call=4)) == (B.ACT_RAISE, 4)
    assert B.round_action(t, view(150, to_call=4, can_raise=0)) == (B.ACT_CALL, 0)
    assert B.wants_concede(t, view(-301)) and not B.wants_concede(t, view(-300))


def test_policy_fixed_behaviours():
    a, never, agg = row("accept-all"), row("never-double:take_at=0"), row("aggressive")
    for e in (-900, 0, 900):
        assert not B.wants_double(a, view(e)) and B.answer_double(a, view(e)) == B.ANSWER_TAKE
        assert not B.wants_double(never, view(e)) and B.wants_double(agg, view(e))
        assert B.round_action(a, view(e)) == (B.ACT_CHECK, 0) and B.round_action(a, view(e, to_call=3)) == (B.ACT_CALL, 0)
        assert B.round_action(agg, view(e)) == (B.ACT_BET, 10) and B.answer_double(agg, view(e)) == B.ANSWER_BEAVER
        assert not B.wants_concede(a, view(e)) and not B.wants_concede(agg, view(e))
    assert B.answer_double(never, view(-1)) == B.ANSWER_FOLD and B.answer_double(never, view(0)) == B.ANSWER_TAKE


def test_E75_stake_view_ignores_hidden_cards():
    """C-INFO-1: the opponent's hidden cards change, its public hand size stays: same view, same choices."""
    k = make5(2, "5", {0: "KH KS 5C 5D 2H 3H", 1: "QC QD QH 9S 9C"}, stock="AS AH 7C 7D 8C 8D",
              rule=DOUBLING, lineup="greedy")
    k.add_meld(0, "group", "JC JD JH")
    k.add_meld(1, "group", "4C 4D 4S")
    k.g.params[:, N_PARAMS:] = row("threshold:double_at=0:beaver_at=100:take_at=-20")[N_PARAMS:]
    sv = np.zeros(B.SV_SIZE, dtype=np.int64)
    K.stake_view(k.g, 0, sv)
    before = sv.copy()
    assert list(before[:5]) == [30, 15, 6, 5, 2]
    choices = (B.wants_double(k.g.params[0], sv), B.answer_double(k.g.params[0], sv))
    k.set_hand(1, "AC AD 5S 5H TC")  # other cards, wild cards among them, same count
    K.stake_view(k.g, 0, sv)
    assert np.array_equal(sv, before)
    assert (B.wants_double(k.g.params[0], sv), B.answer_double(k.g.params[0], sv)) == choices
    k.set_hand(1, "AC AD 5S 5H TC 9H")  # a public fact changes: the view must see it
    K.stake_view(k.g, 0, sv)
    assert sv[B.SV_OPP_CARDS] == 6


# ---------------------------------------------------------------------------------------------
# Doubling (V5K-13)


def test_E65_gammon_multiplier_on_the_hand_difference():
    assert [K.gammon_multiplier(d) for d in (5, 245, 250, 495, 500, 2000)] == [1, 1, 2, 2, 3, 3]
    seen = replay_all(DOUBLING, "accept-all", 60)
    pairs = [(d, m) for s in seen for d, m in zip(s.hand_diffs, s.multipliers)]
    assert {m for d, m in pairs if 250 <= d < 500} == {2}
    assert {m for d, m in pairs if d >= 500} == {3}
    assert {m for d, m in pairs if 0 < d < 250} == {1}


def test_doubling_traces_keep_the_contract():
    for betting in ("threshold", "threshold:double_at=50:take_at=0,never-double:take_at=-50", "aggressive"):
        seen = replay_all(DOUBLING, betting, 40, lineup="heuristic,greedy")
        assert all(s.mode == 1 and len(s.reasons) == 2 for s in seen)


def test_E66_stake_restarts_each_hand_and_E67_folds_score_nothing():
    seen = replay_all(DOUBLING, "threshold:double_at=0:take_at=60", 40)
    assert any(s.hand_stakes[0] > 1 for s in seen)
    assert all(s.start_stakes[1] == 1 for s in seen)
    folds = [r for s in seen for r in s.reasons if r == FOLD]
    assert folds  # the replay checked their zero SCORE records


def test_E68_beaver_keeps_the_right_to_double():
    seen = replay_all(DOUBLING, "aggressive", 10)
    found = False
    for s in seen:
        ev = s.events
        for j in range(len(ev) - 2):
            if ev[j][0] == L5.T_DOUBLE and ev[j + 1][0] == L5.T_BEAVER and ev[j + 2][0] == L5.T_DOUBLE:
                assert ev[j + 2][1] == ev[j + 1][1]  # the beavering seat doubles next, the doubler never
                found = True
    assert found
    assert max(st for s in seen for st in s.hand_stakes) == L5.MAX_STAKE  # the engine's safety limit holds


def test_E72_doubles_only_before_normal_turns():
    """replay_stakes requires the doubled seat's normal TURN_START right after every taken double."""
    seen = replay_all(("r5k_doubling=true", "r5k_rummy=any_cards"), "threshold:double_at=20", 30)
    assert sum(e[0] == L5.T_DOUBLE for s in seen for e in s.events) > 10


def test_E73_automatic_double_rate_and_unchanged_dealers():
    res = simulate("5000-rummy", players=2, lineup="greedy", games=4000, seed=11, rule=DOUBLING, unit="games")
    plain = simulate("5000-rummy", players=2, lineup="greedy", games=4000, seed=11, rule=["r5k_target=100"])
    assert res.games["first_dealer"].to_list() == plain.games["first_dealer"].to_list()
    auto = [K.first_dealer_tie(11, g) for g in range(4000)]
    rate = sum(auto) / 4000
    assert abs(rate - 7 / 103) < 4 * (0.068 * 0.932 / 4000) ** 0.5
    seen = replay_all(DOUBLING, "accept-all", 60, )
    assert all(s.start_stakes[0] == 1 + s.auto_double for s in seen)


# ---------------------------------------------------------------------------------------------
# Limit-Poker (V5K-14)


def test_E70_full_betting_round_between_aggressive_seats():
    seen = replay_all(POKER, "aggressive", 5)
    for s in seen:
        kinds = [e[0] for e in s.events]
        rnd = kinds[1:7]
        assert rnd == [L5.T_BET, L5.T_RAISE, L5.T_RAISE, L5.T_RAISE, L5.T_RAISE, L5.T_CALL]
        assert s.hand_stakes == [102, 102]


def test_E69_fold_in_the_round_and_concession_in_play():
    seen = replay_all(POKER, "threshold:bet_at=-1000:fold_at=1000,threshold:fold_at=0:concede_at=-40", 60)
    concessions = [e for s in seen for e in s.events if e[0] == L5.T_CONCEDE]
    assert {e[3] for e in concessions} == {0, 1}  # (kind, seat, pot, phase): in the round and in play
    assert {r for s in seen for r in s.reasons} >= {8}


def test_poker_traces_keep_the_contract():
    for betting in ("accept-all", "threshold", "threshold:concede_at=-60,never-double:fold_at=-20"):
        seen = replay_all(POKER, betting, 40, lineup="greedy,heuristic")
        assert all(s.mode == 2 for s in seen)


# ---------------------------------------------------------------------------------------------
# results


def test_stake_columns_add_up():
    res = simulate("5000-rummy", players=2, lineup="heuristic,greedy", games=300, seed=2, rule=POKER,
                   betting="threshold", hands=True, out=None)
    g, h = res.games, res.hands
    assert (g["stake_0"] + g["stake_1"]).abs().max() == 0
    assert (g["hands"] == 2).all() and not g["capped"].any()
    per_game = h.group_by("game_index").agg(pl.col("payout_0").sum()).sort("game_index")["payout_0"]
    assert per_game.to_list() == g.sort("game_index")["stake_0"].to_list()
    won = g.filter(pl.col("winner") >= 0)
    assert (won["winner"] == (won["stake_1"] > won["stake_0"]).cast(pl.Int8)).all()
    assert set(h["reason"].cast(pl.String).unique()) <= {"out", "stock_out", "idle_guard", "stall", "concede",
                                                          "turn_cap"}
    assert res.summary["stakes"][0]["betting"] == "threshold"


def test_E74_game_point_payoff_columns():
    res = simulate("5000-rummy", players=3, lineup="greedy", games=60, seed=4, rule=["r5k_payoff=game_point",
                                                                                     "r5k_target=1500"])
    g = res.games
    total = g["payoff_0"] + g["payoff_1"] + g["payoff_2"]
    assert ((total - 1.0).abs() < 1e-12).all()
    first = g.filter(pl.col("winner") == 0)
    assert (first["payoff_0"] == 1.0).all()
    plain = simulate("5000-rummy", players=3, lineup="greedy", games=60, seed=4, rule=["r5k_target=1500"])
    assert "payoff_0" not in plain.games.columns
    assert plain.games["winner"].to_list() == g["winner"].to_list()


def test_analysis_of_a_stakes_run(tmp_path):
    from rummysim.analysis import payoffs, stakes

    out = tmp_path / "d.parquet"
    simulate("5000-rummy", players=2, lineup="greedy", games=200, seed=5, rule=DOUBLING,
             betting="threshold,accept-all", hands=True, out=out)
    pay = payoffs(out, "stakes", by=[])
    games = pl.read_parquet(out)
    assert pay["mean_payoff"].to_list() == pytest.approx([games["stake_0"].mean(), games["stake_1"].mean()])
    assert pay["payoff_lo"][0] < pay["mean_payoff"][0] < pay["payoff_hi"][0]
    table = stakes(out, by=[])
    assert table["betting"].to_list() == ["threshold,accept-all"]
    hands = pl.read_parquet(tmp_path / "d.hands.parquet")
    assert table["mean_hand_stake"][0] == pytest.approx(hands["stake"].mean())
    with pytest.raises(InputError, match="stake columns"):
        plain = tmp_path / "p.parquet"
        simulate("5000-rummy", players=2, lineup="greedy", games=20, seed=5, rule=["r5k_target=500"], out=plain)
        payoffs(plain, "stakes", by=[])


def test_compare_in_stake_units():
    from rummysim.comparison import compare

    res = compare("heuristic", "greedy", game="5000-rummy", players=2, rule=DOUBLING, games=60, seed=1,
                  betting="threshold")
    assert res.summary["unit"] == "stake units" and "stake units per hand" in res.summary["verdict"]
    stakes = res.games.select("stake_0", "stake_1")
    assert (stakes["stake_0"] + stakes["stake_1"]).abs().max() == 0
    with pytest.raises(InputError, match="one betting policy"):
        compare("heuristic", "greedy", game="5000-rummy", players=2, rule=DOUBLING, games=10, betting="threshold,accept-all")


def test_replay_shows_the_stakes():
    from rummysim.checks import replay_game

    text = replay_game(3, 0, game="5000-rummy", players=2, lineup="greedy", rule=DOUBLING, betting="aggressive")
    assert "stakes: Doubling (V5K-13)" in text and "beavers: stake 4" in text and "session" in text
    assert "??" not in text
    text = replay_game(3, 0, game="5000-rummy", players=2, lineup="greedy", rule=POKER, betting="aggressive")
    assert "antes 1 · pot 2" in text and "raises 10" in text and "??" not in text


# ---------------------------------------------------------------------------------------------
# sweeps


def test_a_sweep_grid_takes_betting_policies_per_cell(tmp_path):
    from rummysim.sweeps import SweepConfigError, load_sweep, sweep

    grid = {"game": "5000-rummy", "players": 2, "lineup": "greedy", "r5k_doubling": True,
            "betting": ["accept-all", "threshold,accept-all"]}
    config = {"run": {"seed": 5, "games_per_cell": 40, "chunk_size": 20}, "grid": grid}
    cells = load_sweep(config).cells
    assert [c.betting for c in cells] == [("accept-all", "accept-all"), ("threshold", "accept-all")]
    out = sweep(config, tmp_path / "out", threads=1)
    games = pl.read_parquet(out / "**/*.parquet", hive_partitioning=True)
    alone = simulate("5000-rummy", 2, "greedy", games=40, seed=cells[1].seed, rule=DOUBLING, betting="threshold,accept-all")
    played = games.filter(pl.col("cell") == cells[1].id).sort("game_index")
    assert played["stake_0"].to_list() == alone.games["stake_0"].to_list()  # the cell plays its policies
    with pytest.raises(SweepConfigError, match="betting needs a stakes game"):
        load_sweep({"run": {"games_per_cell": 10}, "grid": {"game": "500-rum", "betting": "threshold"}}).cells


def test_tournament_scores_a_stakes_game_in_stake_units_with_one_betting_policy():
    from rummysim.comparison import tournament

    res = tournament(["greedy", "random"], game="5000-rummy", players=2, rule=DOUBLING, games=20, betting="threshold")
    assert res.summary["unit"] == "stake units"
    assert tournament(["greedy", "random"], game="5000-rummy", players=2, games=5).summary["unit"] == "points"
    with pytest.raises(InputError, match="one betting policy"):
        tournament(["greedy", "random"], game="5000-rummy", players=2, rule=DOUBLING, games=5, betting="threshold,accept-all")
