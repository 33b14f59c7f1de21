"""CLI habits (issue 22 point 5): ``--version``, ``-h`` on every command, shell completion, and
``--json`` on every command that prints results."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rummysim.cli.main import app

COMMANDS = [["simulate"], ["validate"], ["replay"], ["analyze"], ["report"], ["bench"], ["compare"],
            ["tournament"], ["sweep"], ["rules"], ["rules", "list"], ["rules", "show"], ["rules", "explain"],
            ["rules", "reference"], ["strategies"],
            ["strategies", "list"], ["strategies", "show"], ["warmup"], ["play"], ["tune"]]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummysim", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("rummysim ")


def test_every_command_is_listed_here():
    import typer.main

    group = typer.main.get_command(app)
    assert {name for name in group.commands} >= {c[0] for c in COMMANDS}
    assert {c[0] for c in COMMANDS} >= set(group.commands)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_short_help_everywhere(command):
    r = run(*command, "-h")
    assert r.returncode == 0 and r.stdout.startswith("Usage: rummysim " + " ".join(command)), r.stderr


def test_shell_completion_is_enabled():
    # typer finds the shell among the command's parent processes (shellingham), and a test run
    # started detached has none: the command runs under bash here (the trailing exit keeps bash
    # from replacing itself with it)
    r = subprocess.run(["bash", "-c", '"$0" -m rummysim --show-completion; exit $?', sys.executable],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "_rummysim_completion" in r.stdout, r.stderr
    r = run(env={"_RUMMYSIM_COMPLETE": "complete_bash", "COMP_WORDS": "rummysim rules sh", "COMP_CWORD": "2"})
    assert r.returncode == 0 and r.stdout.split() == ["show"]
    assert "--install-completion" in run("--help").stdout


def _json(*args: str):
    r = run(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_rules_and_strategies_json():
    presets = _json("rules", "list")
    assert {"name": "boathouse", "game": "500-rum"}.items() <= next(p for p in presets if p["name"] == "boathouse").items()
    shown = _json("rules", "show", "boathouse", "--rule", "r500_target=750")
    assert shown["preset"] == "boathouse" and shown["overrides"] == ["r500_target=750"]
    target = next(f for f in shown["flags"] if f["flag"] == "r500_target")
    assert target["value"] == 750 and target["default"] == 500 and target["allowed"].startswith("50..100000")
    listed = _json("strategies", "list")
    assert "greedy" in [s["name"] for s in listed["strategies"]] and listed["betting"]
    greedy = _json("strategies", "show", "greedy")
    assert greedy["name"] == "greedy" and isinstance(greedy["params"], list)


def test_validate_and_replay_json():
    report = _json("validate", "--games", "2", "--players", "2", "--seed", "1")
    assert report["games"] == 2 and report["actions_checked"] > 0 and report["violations"] == []
    replay = _json("replay", "--seed", "1", "--players", "2")
    assert replay["seed"] == 1 and replay["lines"][0].startswith("Game 0")


def test_sweep_json(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text('[run]\nname = "tiny"\nseed = 1\ngames_per_cell = 4\nchunk_size = 4\n\n'
                    '[grid]\nplayers = [2]\nlineup = ["greedy"]\n')
    out = tmp_path / "out"
    plan = _json("sweep", str(toml), "--out", str(out), "--dry-run")
    assert [c["players"] for c in plan["cells"]] == [2] and plan["cells"][0]["game"] == "500-rum"
    done = _json("sweep", str(toml), "--out", str(out), "--no-progress")
    assert done["path"] == str(out) and done["totals"]["games"] == 4 and done["session"]["games_written"] == 4


def test_seats_are_seat_k_and_positions_pk():
    import re

    from rummysim.checks import replay_game

    for game, players in (("500-rum", 4), ("5000-rummy", 3), ("rummikub", 2), ("partnership-500", 4)):
        text = replay_game(2, 0, game=game, players=players, lineup="greedy")
        assert "seat 0" in text and re.search(r"\bP\d", text) is None, game
    assert "team 0 (seats 0+2)" in replay_game(2, 0, game="partnership-500", players=4, lineup="greedy")


@pytest.mark.parametrize("command", [c for c in COMMANDS
                                     if c not in (["analyze"], ["report"], ["rules"], ["strategies"], ["play"])],
                         ids=" ".join)
def test_every_command_that_prints_results_has_json(command):
    # analyze prints tables and takes --format json; report writes HTML; the bare groups print help;
    # play is a person's game in a terminal (its record is the replay file it saves)
    assert "--json" in run(*command, "-h").stdout
