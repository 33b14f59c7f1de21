"""Numbers out of range get one line naming the range (issue 21, point 8), before any game is played."""

from __future__ import annotations

import pytest

from rummysim.cli.main import main
from rummysim.errors import InputError
from rummysim.limits import INT64_MAX, check_game_index, check_seed


def run_cli(capsys, *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    return exit_info.value.code, capsys.readouterr().err


def test_seed_range_is_int64():
    assert check_seed(0) == 0 and check_seed(INT64_MAX) == INT64_MAX
    for bad in (-1, INT64_MAX + 1, 2**64, 1.5, True):
        with pytest.raises(InputError, match=r"--seed must be a whole number between 0 and 2\^63 - 1"):
            check_seed(bad)
    with pytest.raises(InputError, match="--game-index"):
        check_game_index(-1)


@pytest.mark.parametrize("seed", [str(2**63), str(2**64), "-1"])
def test_simulate_refuses_seeds_outside_int64(capsys, seed):
    code, err = run_cli(capsys, "simulate", "--games", "5", "--seed", seed, "--no-progress")
    assert code == 2 and err.strip().startswith("error: --seed must be a whole number between 0 and 2^63 - 1")
    assert "Traceback" not in err


def test_compare_refuses_a_seed_outside_int64(capsys):
    code, err = run_cli(capsys, "compare", "greedy", "random", "--games", "10", "--seed", str(2**63))
    assert code == 2 and "--seed must be a whole number" in err


def test_hands_without_out_is_refused(capsys):
    code, err = run_cli(capsys, "simulate", "--games", "5", "--hands", "--no-progress")
    assert code == 2 and "--hands writes the hand rows" in err and "--out" in err


@pytest.mark.parametrize("index", ["-1", "100000000000000000000"])
def test_replay_refuses_a_game_index_outside_int64(capsys, index):
    code, err = run_cli(capsys, "replay", "--players", "2", "--game-index", index)
    assert code == 2 and "--game-index must be a whole number between 0 and 2^63 - 1" in err


def test_validate_needs_at_least_one_game(capsys):
    code, err = run_cli(capsys, "validate", "--games", "0", "--no-progress")
    assert code == 2 and "--games must be a whole number between 1 and" in err


def test_simulate_refuses_more_games_than_memory_holds(capsys, monkeypatch):
    """Issue 21, point 4: ``simulate --games 10^13`` is refused at once, naming the limit."""
    code, err = run_cli(capsys, "simulate", "--games", str(10**13), "--no-progress")
    assert code == 2 and "more than 1,000,000,000 games" in err and "rummysim sweep" in err
    monkeypatch.setenv("RUMMYSIM_MAX_GAMES", "100")
    code, err = run_cli(capsys, "simulate", "--games", "101", "--no-progress")
    assert code == 2 and "more than 100 games" in err
