"""Variation labels: a preset and the fewest overrides that rebuild the rules (issue 22, point 1)."""

from __future__ import annotations

import pytest

from rummysim.errors import RulesError
from rummysim.rules import PRESETS, Rules
from rummysim.variations import Variation, overrides_between, parse_label, variation_of


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_named_by_itself_and_found_again(name):
    rules = Rules.preset(name)
    assert variation_of(rules, name) == Variation(name, ())
    assert variation_of(rules).label == name  # the nearest preset of a preset is itself
    assert parse_label(name) == rules


def test_overrides_are_relative_to_the_preset_and_rebuild_the_rules():
    rules = Rules.preset("boathouse").with_strings(["r500_target=1000"])
    v = variation_of(rules, "boathouse")
    assert v.label == "boathouse +r500_target=1000"
    assert v.rules_command == "rummysim rules show boathouse -r r500_target=1000"
    assert v.rules() == rules and parse_label(v.label) == rules
    assert len(v.label) <= 80


def test_implied_flags_are_left_out_and_an_undone_implication_is_kept():
    # switching on a preset flag from the base preset: one override, not its four flags
    on = Rules.preset("500-rum").with_strings(["r500_boathouse=true"])
    assert variation_of(on, "500-rum").overrides == ("r500_boathouse=true",)
    # ... but a flag set back to its default against the implication must stay, or it is lost
    partial = Rules.preset("500-rum").with_strings(["r500_boathouse=true", "r500_stock_draw_count=1"])
    v = variation_of(partial, "500-rum")
    assert v.overrides == ("r500_boathouse=true", "r500_stock_draw_count=1")
    assert v.rules() == partial
    assert variation_of(partial).label == "boathouse +r500_stock_draw_count=1"  # nearest preset


def test_switching_a_preset_flag_off_names_what_remains():
    off = Rules.preset("boathouse").with_strings(["r500_boathouse=false"])
    assert variation_of(off, "boathouse").overrides == ("r500_boathouse=false",)
    assert variation_of(off) == Variation("500-rum", ())  # the implied settings went back too


def test_a_preset_of_another_game_is_not_used():
    rules = Rules.preset("5000-rummy-polish")
    assert variation_of(rules, "500-rum").label == "5000-rummy-polish"


def test_overrides_between_is_empty_for_equal_rules():
    assert overrides_between(Rules.preset("500-rum-house"), Rules.preset("500-rum-house")) == ()


@pytest.mark.parametrize("text, message", [("", "empty"), ("500-rum r500_target=1000", r"expected PRESET \+FLAG"),
                                           ("no-such-preset", "unknown preset"), ("500-rum +r500_nope=1", "unknown rule flag")])
def test_bad_labels_are_refused(text, message):
    with pytest.raises(RulesError, match=message):
        parse_label(text)
