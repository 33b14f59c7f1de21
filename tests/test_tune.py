"""``rummysim tune`` (issue 18 point 3): the study resumes from its state file, refuses another
setup's, and measures the best candidate on fresh deals; strategy presets (NAME@PRESET)."""

from __future__ import annotations

import pytest

from rummysim.errors import InputError
from rummysim.strategies.registry import canonical_spec, parse_strategy, strategy_presets
from rummysim.tune import TuneSetup, tune

TINY = TuneSetup("heuristic", players=2, params=("min_gain", "max_take"), trials=3, games=16, seed=5, fresh_games=24)


def test_a_tuning_run_resumes_from_its_state_file_and_measures_fresh_deals(tmp_path):
    state = tmp_path / "study.journal"
    first = tune(TINY, state=state)
    assert first.trials == 3 and len(first.history) == 3
    assert first.best.startswith("heuristic") and set(first.best_params) == {"min_gain", "max_take"}
    assert first.fresh["ci"][0] <= first.fresh["diff"] <= first.fresh["ci"][1]
    resumed = tune(TuneSetup(**{**TINY.__dict__, "trials": 5}), state=state)
    assert resumed.trials == 5 and resumed.history[:3] == first.history  # the first three were kept
    assert resumed.tuning_diff == max(resumed.history)


def test_a_state_file_of_another_setup_is_refused(tmp_path):
    state = tmp_path / "study.journal"
    tune(TuneSetup(**{**TINY.__dict__, "trials": 1}), state=state)
    with pytest.raises(InputError, match="another setup"):
        tune(TuneSetup(**{**TINY.__dict__, "trials": 1, "seed": 6}), state=state)


@pytest.mark.parametrize(("setup", "needle"), [
    (TuneSetup("heuristic", params=("bogus",)), "has no parameter 'bogus'"),
    (TuneSetup("heuristic", params=("future",)), "tune searches"),
    (TuneSetup("random"), "has no parameter tune can search"),
    (TuneSetup("heuristic", trials=0), "--trials"),
])
def test_bad_setups_are_refused_before_any_game(setup, needle):
    with pytest.raises(InputError, match=needle):
        tune(setup)


def test_presets_are_named_parameter_sets():
    for strategy, presets in strategy_presets().items():
        for preset, values in presets.items():
            info, row = parse_strategy(f"{strategy}@{preset}")
            for key, value in values.items():
                if key != "description":
                    assert row[info.param_index(key)] == pytest.approx(value)
            assert canonical_spec(f"{strategy}@{preset}") == f"{strategy}@{preset}"
    with pytest.raises(InputError, match="has no preset 'nowhere'"):
        parse_strategy("heuristic@nowhere")
