"""The validator stays a second opinion: ``rummysim.validate`` and ``rummysim.replay`` import
nothing from the kernels, the strategies or the config layer (rules, presets), one game's checker
nothing from the others', and no module a private name of another; the package-level
``validate_trace`` hands each game to its own checker."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import rummysim.replay
import rummysim.validate
import rummysim.validate.rum500
import rummysim.validate.rum5000
import rummysim.validate.rummikub
from rummysim.validate import VALIDATORS, validate_trace
from rummysim.validate import trace as T
from tests.scenarios_5k import close, short_hand
from tests.scenarios_500 import t01_flags, t01_state

PACKAGES = (rummysim.validate, rummysim.replay)


def _modules(package) -> list[str]:
    names = [package.__name__]
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.endswith(".__main__"):
            names.append(info.name)
    return names


def _module_files(package) -> dict[str, Path]:
    root = Path(package.__path__[0])
    return {
        package.__name__ + "".join("." + p for p in path.relative_to(root).with_suffix("").parts
                                    if p != "__init__"): path
        for path in root.rglob("*.py")
    }


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import statement in ``path``, function-level ones included."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", [alias.name for alias in node.names]))
    return out


def test_every_module_is_found():
    names = _modules(rummysim.validate) + _modules(rummysim.replay)
    assert "rummysim.validate.rum500.plays" in names and "rummysim.validate.rum5000.plays" in names
    assert "rummysim.validate.trace" in names and "rummysim.replay.common" in names


def test_no_kernel_or_strategy_module_is_loaded():
    """In a fresh interpreter, importing every module of the validator and the replay text loads
    no module of ``rummysim.kernels`` or ``rummysim.strategies`` (nor any other part of rummysim
    than the package root)."""
    names = _modules(rummysim.validate) + _modules(rummysim.replay)
    code = ("import importlib, json, sys\n"
            f"for name in {names!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rummysim'))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = json.loads(done.stdout)
    assert set(names) <= set(loaded)
    foreign = [m for m in loaded if m != "rummysim"
               and not m.startswith(("rummysim.validate", "rummysim.replay"))]
    assert foreign == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_no_import_of_kernels_strategies_or_private_names(package):
    """Every import statement, read from the source: no kernel or strategy module, and no private
    name taken from another module."""
    for module, path in _module_files(package).items():
        for imported, names in _imports(path):
            assert not imported.startswith(("rummysim.kernels", "rummysim.strategies")), module
            assert not imported.startswith(("kernels", "strategies")), module
            private = [n for n in names if n.startswith("_")]
            assert private == [], f"{module} imports {private} from {imported}"


#: the config layer: presets, flags and their expansion (the validator expands presets itself)
CONFIG_LAYER = ("rummysim.rules", "rummysim.presets", "rummysim.simulation", "rummysim.games",
                "rummysim.checks")


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_no_import_of_the_config_layer(package):
    """The validator reads a run's preset name and overrides and expands them from its own reading
    of RULES.md (``rummysim.validate.presets``): no import of the config layer, no relative import,
    and of rummysim only the validator's and the replay's own modules."""
    for module, path in _module_files(package).items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{module} has a relative import"
        for imported, _names in _imports(path):
            assert not imported.startswith(CONFIG_LAYER), f"{module} imports {imported}"
            assert imported.split(".")[0] not in ("rules", "presets"), module
            if imported.startswith("rummysim"):
                assert imported.startswith(("rummysim.validate", "rummysim.replay")), \
                    f"{module} imports {imported}"


@pytest.mark.parametrize("own,other", [
    ("rum500", "rum5000"), ("rum5000", "rum500"), ("rum500", "rummikub"), ("rum5000", "rummikub"),
    ("rummikub", "rum500"), ("rummikub", "rum5000"),
])
def test_one_games_checker_imports_nothing_of_the_others(own, other):
    package = getattr(rummysim.validate, own)
    forbidden = f"rummysim.validate.{other}"
    files = _module_files(package)
    assert len(files) >= 8
    for module, path in files.items():
        for imported, names in _imports(path):
            assert imported != forbidden and not imported.startswith(forbidden + "."), module
            if imported == "rummysim.validate":
                assert other not in names, module


def test_record_kinds_in_their_ranges():
    common = [T.GAME_START, T.HAND_START, T.DECK, T.TURN_START, T.DRAW_STOCK, T.TAKE_PILE,
              T.NO_DRAW, T.MELD, T.CARD, T.LAYOFF, T.DISCARD, T.FLOAT, T.HAND_END, T.SCORE,
              T.TEAM_SCORE, T.GAME_BONUS, T.GAME_END]
    rum500 = [T.RESTOCK, T.RESHUFFLE, T.START_PILE, T.OUT_OF_TURN, T.ADDOPP_LAYOFF,
              T.DEALERS_JOKER, T.NOMINATE, T.DOUBLE, T.SPLIT, T.BLOCK, T.OOT_ASK, T.RUMMY_ASK]
    rum5000 = [T.FACE_UP, T.TAKE_ALL, T.EXCHANGE, T.JOIN, T.TRADE,
               T.STAKES_START, T.HAND_STAKE, T.STAKE_DOUBLE, T.DOUBLE_TAKE, T.DOUBLE_FOLD, T.BEAVER,
               T.ANTE, T.CHECK, T.BET, T.CALL, T.RAISE, T.CONCEDE, T.PAYOUT, T.CALL_ASK, T.EXCHANGE_ASK]
    rummikub = [T.FIRST_TILE, T.INITIAL, T.TABLE, T.COMBO, T.TILE, T.PASS, T.ATTEMPT, T.PENALTY]
    assert all(k in T.COMMON_KINDS for k in common)
    assert all(k in T.RUM500_KINDS for k in rum500)
    assert all(k in T.RUM5000_KINDS for k in rum5000)
    assert all(k in T.RUMMIKUB_KINDS for k in rummikub)
    assert sorted(T.RECORD_NAMES) == sorted(common + rum500 + rum5000 + rummikub)


def test_game_names_pick_each_games_checker():
    assert VALIDATORS["500-rum"] is rummysim.validate.rum500.validate_trace
    assert VALIDATORS["standard-rummy"] is rummysim.validate.rum500.validate_trace
    assert VALIDATORS["5000-rummy"] is rummysim.validate.rum5000.validate_trace
    assert VALIDATORS["rummikub"] is rummysim.validate.rummikub.validate_trace
    with pytest.raises(ValueError, match="flag game"):
        validate_trace(t01_state().array(), {"game": "gin-rummy"})


def test_per_game_entry_points_match_the_package_level_one():
    a500 = t01_state().array()
    flags = t01_flags()
    assert (rummysim.validate.rum500.validate_trace(a500, flags)
            == validate_trace(a500, {**flags, "game": "500-rum"}) == validate_trace(a500, flags))
    a5k = close(short_hand(), 1, out=0).array()
    caps = {"max_hands_per_game": 1}
    res = rummysim.validate.rum5000.validate_trace(a5k, caps)
    assert res.ok and res.games == 1
    assert res == validate_trace(a5k, {**caps, "game": "5000-rummy"}) == validate_trace(a5k, caps)
    # each entry point checks its own game only
    with pytest.raises(ValueError, match="flag game"):
        rummysim.validate.rum500.validate_trace(a5k, {"game": "5000-rummy"})
    with pytest.raises(ValueError, match="flag game"):
        rummysim.validate.rum5000.validate_trace(a500, {"game": "500-rum"})
