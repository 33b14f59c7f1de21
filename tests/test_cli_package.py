"""The CLI package: commands are plain functions called here without a subprocess or CliRunner,
and the consoles, shared options and progress bar each live in one module of ``sim/cli/``."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rummysim.cli import main
from rummysim.cli.progress import progress_bar
from rummysim.cli.rules import rules_list_command, rules_show_command, strategies_list_command, strategies_show_command
from rummysim.cli.simulate import simulate_command, validate_command
from rummysim.errors import RummysimError

CLI_DIR = Path(__file__).resolve().parent.parent / "sim" / "cli"
# --lineup (a seat pattern in compare) and --threads (per task in sweep) also have command-specific meanings.
SHARED_FLAGS = {"--game", "--players", "--rule", "--seed", "--json", "--progress/--no-progress", "--out"}


def test_simulate_command_prints_the_json_summary(capsys):
    simulate_command(players=2, lineup="greedy,random", games=20, seed=3, as_json=True, progress=False)
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 20 and summary["seed"] == 3
    assert [seat["strategy"] for seat in summary["seats"]] == ["greedy", "random"]


def test_simulate_command_prints_the_table_and_writes_the_rows(tmp_path, capsys):
    out = tmp_path / "rows.parquet"
    simulate_command(players=3, games=10, seed=1, out=out, progress=False)
    printed = capsys.readouterr().out
    assert "500-rum, 3 players, 10 games (seed 1)" in printed and f"wrote {out}" in printed
    assert out.exists()


def test_validate_command_reports_no_violations(capsys):
    validate_command(players=2, games=2, seed=4, progress=False)
    assert "violations 0" in capsys.readouterr().out


def test_rules_commands(capsys):
    rules_list_command()
    listed = capsys.readouterr().out
    assert "500-rum" in listed and "5000-rummy" in listed
    rules_show_command("500-rum", rule=["r500_target=250"])
    shown = capsys.readouterr().out
    assert "r500_target" in shown and "V500-TARGET" in shown and "250" in shown


def test_strategies_commands(capsys):
    strategies_list_command()
    listed = capsys.readouterr().out
    assert "greedy" in listed and "random" in listed
    strategies_show_command("greedy")
    assert "deadwood_weight = 1" in capsys.readouterr().out


def test_command_functions_raise_the_typed_error_that_main_turns_into_exit_2(capsys):
    with pytest.raises(RummysimError, match="unknown strategy"):
        strategies_show_command("nope")
    with pytest.raises(SystemExit) as exit_info:
        main(["strategies", "show", "nope"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("error: unknown strategy")


def test_progress_bar_is_none_when_disabled_and_takes_extra_values_when_enabled():
    with progress_bar("off", False) as update:
        assert update is None
    with progress_bar("on", True, unit="deals", note=lambda half: f"±{half}", resumable=True) as update:
        assert update is not None
        update(3, 10, 0.5)
        update(10, 10, 0.25)


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    """Calls of ``name(...)`` or ``something.name(...)``."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Name) and node.func.id == name)
        or (isinstance(node.func, ast.Attribute) and node.func.attr == name))]


def _modules() -> dict[str, ast.AST]:
    modules = {path.name: ast.parse(path.read_text(), str(path)) for path in sorted(CLI_DIR.glob("*.py"))}
    assert {"console.py", "options.py", "progress.py", "main.py", "simulate.py", "rules.py"} <= set(modules)
    return modules


def test_only_the_console_module_constructs_a_console():
    makers = {name for name, tree in _modules().items() if _calls(tree, "Console")}
    assert makers == {"console.py"}


def test_only_the_progress_module_constructs_a_progress_bar():
    makers = {name for name, tree in _modules().items() if _calls(tree, "Progress")}
    assert makers == {"progress.py"}


def test_shared_options_are_declared_only_in_the_options_module():
    declared: dict[str, set[str]] = {}
    for name, tree in _modules().items():
        for call in _calls(tree, "Option"):
            for arg in call.args:
                if isinstance(arg, ast.Constant) and arg.value in SHARED_FLAGS:
                    declared.setdefault(arg.value, set()).add(name)
    assert declared and all(modules == {"options.py"} for modules in declared.values()), declared


def test_version_and_short_help(capsys):
    """Issue 22, point 5: ``--version``, and ``-h`` as ``--help`` on the app and its commands."""
    from importlib.metadata import version

    from rummysim.cli.main import main

    for args, expected in ((["--version"], f"rummysim {version('rummysim')}"), (["-h"], "Usage: rummysim"),
                           (["simulate", "-h"], "Usage: rummysim simulate"), (["rules", "-h"], "Usage: rummysim rules")):
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        assert exit_info.value.code == 0 and expected in capsys.readouterr().out


def test_cli_start_imports_neither_numba_nor_polars():
    """``rummysim --help`` starts in a tenth of a second: the command modules import the heavy
    libraries only when a command runs."""
    import subprocess
    import sys

    code = "import sys, rummysim.cli.main; print('numba' in sys.modules, 'polars' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
