"""Designer values for the numeric flags (issue 22 point 4): any integer of a flag's range plays,
the sources' values stay the presets, and out-of-range values are refused in one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rummysim import Rules, simulate
from rummysim.checks import validate_run
from rummysim.errors import RulesError
from rummysim.rules import FLAGS
from rummysim.validate.flags import RUM500_FLAGS, RUMMIKUB_FLAGS

RANGED = [name for name, flag in FLAGS.items() if flag.int_range is not None]


def test_the_numeric_flags_have_ranges_and_the_sources_values_stay_presets():
    assert {"r500_target", "r500_first_meld_min", "r500_seven_straight_bonus", "r500_ace_value",
            "r5k_target", "rkub_joker_penalty", "std_game_hands", "max_turns_per_hand"} <= set(RANGED)
    for name in RANGED:
        flag = FLAGS[name]
        lo, hi = flag.int_range
        assert flag.allows(lo) and flag.allows(hi) and not flag.allows(lo - 1) and not flag.allows(hi + 1)
        assert all(flag.allows(v) for v in flag.values), name
    assert FLAGS["r500_target"].values == (500, 1000, 250, 100)


def test_the_validator_accepts_every_ranged_value_the_rules_accept():
    for name, table in (("r500_ace_value", RUM500_FLAGS), ("r500_first_meld_min", RUM500_FLAGS),
                        ("r500_seven_straight_bonus", RUM500_FLAGS), ("rkub_joker_penalty", RUMMIKUB_FLAGS)):
        lo, hi = FLAGS[name].int_range
        allowed = table[name][2]
        assert lo in allowed and hi in allowed and lo - 1 not in allowed and hi + 1 not in allowed, name


def test_a_non_source_target_plays_to_that_target():
    rules = Rules.preset("500-rum").with_strings(["r500_target=750"])
    res = simulate(rules=rules, players=3, games=12, seed=3, threads=1)
    games = res.games
    scores = games.select([c for c in games.columns if c.startswith("score_")]).to_numpy()
    won = games["winner"].to_numpy() >= 0
    assert won.any()
    assert (scores[won].max(axis=1) >= 750).all()
    # A 500 target would have ended some of these games earlier: the hand counts differ.
    base = simulate(rules=Rules.preset("500-rum"), players=3, games=12, seed=3, threads=1)
    assert games["hands"].sum() > base.games["hands"].sum()


@pytest.mark.parametrize("game, players, rule", [
    ("500-rum", 3, ["r500_target=750", "r500_first_meld_min=45", "r500_seven_straight_bonus=250",
                    "r500_ace_value=20"]),
    ("rummikub", 2, ["rkub_joker_penalty=40", "rkub_rounds=2"]),
])
def test_designer_values_pass_the_independent_validator(game, players, rule):
    report = validate_run(game=game, players=players, lineup="greedy", games=4, seed=5, rule=rule)
    assert report.games == 4 and report.actions_checked > 0
    assert report.violations == []


def test_out_of_range_values_are_refused_with_the_range():
    with pytest.raises(RulesError, match=r"^r500_target=0: allowed 50\.\.100000 \(presets: 500, 1000, 250, 100\)"):
        Rules().with_strings(["r500_target=0"])
    with pytest.raises(RulesError, match=r"r500_first_meld_min=501: allowed 0\.\.500"):
        Rules().with_(r500_first_meld_min=501)


def test_divisor_five_refuses_point_values_it_cannot_score():
    rules = Rules.preset("500-rum").with_(r500_card_values="5_10_15", r500_score_divisor=5, r500_first_meld_min=33)
    with pytest.raises(RulesError, match="multiples of 5"):
        rules.check(4)
    rules.with_(r500_first_meld_min=35).check(4)


def test_cli_refuses_out_of_range_in_one_line_and_shows_ranges():
    run = lambda *a: subprocess.run([sys.executable, "-m", "rummysim", *a], capture_output=True, text=True)
    r = run("simulate", "--rule", "r500_target=100001", "--games", "1")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["error: r500_target=100001: allowed 50..100000 "
                                             "(presets: 500, 1000, 250, 100) (rule V500-TARGET)"]
    r = run("rules", "show", "500-rum", "--rule", "r500_target=750")
    assert r.returncode == 0 and "50..100000" in r.stdout and "750" in r.stdout
