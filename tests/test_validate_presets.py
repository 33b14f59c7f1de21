"""The validator expands a run's preset name and overrides itself (issue 21 point 11 b).

A wrong expansion in the config layer (``rummysim.rules``) used to be invisible: the validator
received the flags that layer had expanded, and the kernels played the same flags.  These tests
plant such bugs in the config layer and show that ``validate_run`` and ``rummysim validate`` now
report them, naming the preset and the flag; and that the validator's own tables agree with the
config layer on every preset and on the overrides that switch implications on and off.
"""

from __future__ import annotations

import pytest
import typer

from rummysim import rules as config
from rummysim import variations
from rummysim.checks import validate_run
from rummysim.cli.simulate import validate_command
from rummysim.presets import Preset
from rummysim.rules import PRESETS, Rules
from rummysim.validate import RunSettings, check_configuration
from rummysim.validate.presets import CONFIG_RULE, NAMED_PRESETS, expand


@pytest.fixture
def boathouse_draws_one(monkeypatch):
    """The planted bug of issue 21: Boathouse implying a one-card stock draw."""
    rule_id, settings = config.IMPLIES[("r500_boathouse", True)]
    monkeypatch.setitem(config.IMPLIES, ("r500_boathouse", True),
                        (rule_id, {**settings, "r500_stock_draw_count": 1}))
    assert Rules.preset("boathouse").r500_stock_draw_count == 1
    variations.clear_caches()
    yield
    variations.clear_caches()  # labels named under the planted expansion must not outlive it


def test_planted_boathouse_expansion_is_reported_by_validate_run(boathouse_draws_one):
    report = validate_run("boathouse", players=2, lineup="random", games=2, seed=1)
    config_problems = [v for v in report.violations if v.game_index == -1]
    assert [(v.rule_id, "r500_stock_draw_count=1" in v.message, "'boathouse'" in v.message)
            for v in config_problems] == [("V500-BOATHOUSE", True, True)]


def test_planted_boathouse_expansion_fails_the_validate_command(boathouse_draws_one, capsys):
    with pytest.raises(typer.Exit) as stop:
        validate_command(game="boathouse", players=2, games=1, seed=1, progress=False)
    assert stop.value.exit_code == 1
    out = capsys.readouterr().out
    assert "configuration V500-BOATHOUSE: preset 'boathouse'" in out
    assert "r500_stock_draw_count=1" in out and "gives 2" in out


def test_planted_wrong_named_preset_is_reported(monkeypatch):
    monkeypatch.setitem(PRESETS, "500-rum-long", Preset("500-rum-long", "500-rum", {"r500_target": 250}))
    report = validate_run("500-rum-long", players=2, games=1, seed=1)
    assert [(v.rule_id, "r500_target=250" in v.message) for v in report.violations] == [(CONFIG_RULE, True)]


def test_planted_bug_in_an_override_expansion_is_reported(boathouse_draws_one):
    """The overrides are expanded by the validator too: here ``--rule r500_boathouse=true``."""
    report = validate_run("500-rum", players=2, games=1, seed=1, rule=["r500_boathouse=true"])
    assert [v.rule_id for v in report.violations if v.game_index == -1] == ["V500-BOATHOUSE"]
    given = Rules.preset("500-rum")
    report = validate_run(rules=given, players=2, games=1, seed=1, rule=["r500_boathouse=true"])
    assert [v.rule_id for v in report.violations if v.game_index == -1] == ["V500-BOATHOUSE"]


def test_the_validator_knows_every_preset():
    assert set(NAMED_PRESETS) == set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_expands_alike(name):
    assert check_configuration(RunSettings(name), Rules.preset(name).as_dict()) == []


OVERRIDES = [
    ("500-rum", ("r500_boathouse=true",)),
    ("500-rum", ("r500_boathouse=true", "r500_going_out=any")),
    ("boathouse", ("r500_boathouse=false",)),
    ("boathouse", ("r500_stock_draw_count=1",)),
    ("500-rum", ("r500_no_pickup_to_hit=true", "r500_top_card_must_be_played=false")),
    ("500-rum-no-hit", ("r500_no_pickup_to_hit=false",)),
    ("500-rum-unplayable", ("r500_unplayable_discard=false",)),
    ("500-rum-divided", ("r500_score_divisor=1",)),
    ("500-rum-divided", ("r500_target=250",)),
    ("500-rum", ("r500_card_values=all5", "r500_score_divisor=5")),
    ("500-rum", ("r500_persian=true",)),
    ("persian-rummy", ("r500_persian=false",)),
    ("5000-rummy", ("r5k_target=700", "max_turns_per_hand=50")),
]


@pytest.mark.parametrize("name,overrides", OVERRIDES)
def test_overrides_expand_alike(name, overrides):
    flags = Rules.preset(name).with_strings(overrides).as_dict()
    assert check_configuration(RunSettings(name, overrides), flags) == []
    base = Rules.preset(name).as_dict()
    assert check_configuration(RunSettings(None, overrides, base), flags) == []


def test_explicit_beats_implied_and_off_resets():
    """RULES.md §3: "a flag set explicitly overrides the preset"; docs/rules-decisions.md C1."""
    on = expand(RunSettings("500-rum", ("r500_boathouse=true", "r500_going_out=floating")))
    assert on.values["r500_going_out"] == "floating" and on.values["r500_stock_draw_count"] == 2
    assert on.implied_by["r500_stock_draw_count"] == "V500-BOATHOUSE"
    off = expand(RunSettings("boathouse", ("r500_boathouse=false",)))
    assert off.values["r500_stock_draw_count"] == 1 and off.values["r500_going_out"] == "any"


def test_settings_that_cannot_be_expanded_are_violations():
    flags = Rules.preset("500-rum").as_dict()
    for settings in (RunSettings("no-such-preset"), RunSettings("500-rum", ("r500_nope=1",)),
                     RunSettings("500-rum", ("r500_boathouse=true", "r500_unplayable_discard=true"))):
        problems = check_configuration(settings, flags)
        assert [v.rule_id for v in problems] == [CONFIG_RULE]
        assert "cannot be expanded" in problems[0].message
