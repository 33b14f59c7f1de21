"""One installed namespace, one package per game, one-way imports (issue 14, points 1, 2 and 6).

The distribution provides exactly one top-level import package, ``rummysim``; the repository's
design-card folders map into it (docs/architecture.md). The common kernel layer imports no game.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from importlib import import_module, metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"sim": "rummysim", "kernels": "rummysim.kernels", "strategies": "rummysim.strategies",
           "analysis": "rummysim.analysis"}


def source_packages() -> set[str]:
    """Dotted names of every package (folder with ``__init__.py``) of the four source folders."""
    names = set()
    for folder, dotted in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            if dotted == "rummysim" and rel and rel[0] in ("kernels", "strategies", "analysis"):
                continue
            names.add(".".join((dotted, *rel)))
    return names


def test_public_api_imports_from_the_one_namespace():
    from rummysim import Rules, compare, replay_game, simulate, sweep, tournament, validate_run  # noqa: F401
    from rummysim.analysis import balance, payoffs, strategies, summarize, write_report  # noqa: F401
    import rummysim

    assert callable(simulate) and callable(sweep) and callable(rummysim.summarize)


def test_python_dash_m_rummysim_runs_the_cli():
    out = subprocess.run([sys.executable, "-m", "rummysim", "rules", "list"], capture_output=True, text=True)
    assert out.returncode == 0 and "500-rum" in out.stdout


def test_pyproject_lists_every_package_and_maps_the_design_card_folders():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == source_packages()
    assert {v: k for k, v in config["package-dir"].items()} == FOLDERS


def test_installed_distribution_has_one_top_level_package():
    """The installed copy (CI installs the normal way) holds rummysim and nothing else at the top."""
    import rummysim

    location = Path(rummysim.__file__).resolve().parent
    if location == ROOT / "sim":
        pytest.skip("editable install: the installed layout is checked by CI's normal install")
    site = location.parent
    (record,) = site.glob("rummysim-*.dist-info/RECORD")
    files = [line.split(",")[0] for line in record.read_text().splitlines() if line]
    python_files = [Path(f) for f in files if f.endswith(".py")]
    assert {f.parts[0] for f in python_files} == {"rummysim"}
    installed = {".".join(f.parts[:-1]) for f in python_files if f.name == "__init__.py"}
    assert installed == source_packages()


def test_every_package_imports():
    for name in sorted(source_packages()):
        import_module(name)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_common_kernel_layer_imports_no_game():
    """Point 2: kernels/common knows no game, no strategy and no orchestration."""
    for path in (ROOT / "kernels" / "common").rglob("*.py"):
        for name in _imports(path):
            if name.startswith("rummysim."):
                assert name.startswith("rummysim.kernels.common"), f"{path.name} imports {name}"


def test_common_kernel_layer_loads_no_game_module():
    code = ("import sys, importlib, pkgutil, rummysim.kernels.common as c\n"
            "[importlib.import_module('rummysim.kernels.common.' + m.name) for m in pkgutil.iter_modules(c.__path__)]\n"
            "print(sorted(m for m in sys.modules if m.startswith('rummysim.') and 'common' not in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() in ("[]", "['rummysim.kernels']")


def test_a_game_kernel_package_imports_no_other_game():
    games = {"rum500", "rum5000", "rummikub"}
    for layer in ("kernels", "strategies"):
        for game in games:
            for path in (ROOT / layer / game).rglob("*.py"):
                for name in _imports(path):
                    assert not (games - {game}) & set(name.split(".")), f"{path} imports {name}"


def test_wheel_holds_only_the_rummysim_package(tmp_path):
    """Point 1: ``pip wheel .`` builds a wheel with one top-level package and every subpackage."""
    import shutil
    import zipfile

    # built from a copy: pip builds in the source folder, and a build/ left there could hold stale modules
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", *FOLDERS):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")} if copy is shutil.copytree else {}))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", str(source), "--no-deps", "-w", str(tmp_path)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("rummysim-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"rummysim", wheel.name.split("-py")[0] + ".dist-info"}
    packages = {n[: -len("/__init__.py")].replace("/", ".") for n in names if n.endswith("/__init__.py")}
    assert packages == source_packages()
