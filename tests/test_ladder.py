"""The strength ladder (issue 18 point 7): the shipped ladders cover every bot of their game, the
docs carry them as measured, and the CLI shows them."""

from __future__ import annotations

import pytest

from rummysim.cli import main
from pathlib import Path

from rummysim.ladder import load_ladders, updated_doc
from rummysim.strategies.registry import STRATEGIES

LADDERS = ("500-rum-2p", "500-rum-4p", "5000-rummy-3p")


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize("name", LADDERS)
def test_every_bot_of_the_game_is_on_its_ladder_with_intervals_and_a_cost(name):
    ladder = load_ladders()[name]
    names = {r["strategy"] for r in ladder["rows"]}
    assert {n for n, info in STRATEGIES.items() if not info.games or ladder["game"] in info.games} <= names
    for r in ladder["rows"]:
        assert r["bt_lo"] <= r["bt_strength"] <= r["bt_hi"] and r["per_hand_lo"] <= r["per_hand"] <= r["per_hand_hi"]
        assert r["hands_per_s"] > 0
    assert [r["per_hand"] for r in ladder["rows"]] == sorted((r["per_hand"] for r in ladder["rows"]), reverse=True)


def test_docs_carry_the_ladders_as_measured():
    text = (Path(__file__).resolve().parents[1] / "docs" / "strategies.md").read_text(encoding="utf-8")
    assert updated_doc(text) == text, "run python -m rummysim.ladder after benchmarks/ladder.py"


def test_the_cli_shows_a_games_ladders(capsys):
    code, out, _ = run_cli(capsys, "strategies", "list", "--ladder", "500-rum")
    assert code in (0, None) and "500-rum-2p" in out and "500-rum-4p" in out and "heuristic" in out
    code, _, err = run_cli(capsys, "strategies", "list", "--ladder", "nowhere")
    assert code == 2 and "no strength ladder" in err
