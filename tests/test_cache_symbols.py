"""benchmarks/cache_symbols.py finds cached kernels that call compiled functions they do not define."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path

import llvmlite.binding as llvm

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "cache_symbols.py"

TOP = """
define i32 @_ZN4demo3topB2v2Ex(i64 %x) {
  %r = call i32 @_ZN4demo4leafB2v1Ex(i64 %x)
  ret i32 %r
}
"""
WHOLE = "define i32 @_ZN4demo4leafB2v1Ex(i64 %x) {\n  ret i32 0\n}\n" + TOP
BROKEN = "declare i32 @_ZN4demo4leafB2v1Ex(i64)\n" + TOP


def _script():
    spec = importlib.util.spec_from_file_location("cache_symbols", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entry(path: Path, ir: str) -> None:
    bitcode = llvm.parse_assembly(ir).as_bitcode()
    with path.open("wb") as handle:  # the shape numba gives a cached library: (name, "object", (object, bitcode))
        pickle.dump((1, ("top", "object", (b"", bitcode))), handle)


def test_a_cached_entry_calling_an_undefined_kernel_is_listed(tmp_path, monkeypatch, capsys):
    _entry(tmp_path / "demo.whole-1.py311.1.nbc", WHOLE)
    _entry(tmp_path / "demo.broken-1.py311.1.nbc", BROKEN)
    monkeypatch.setattr(sys, "argv", ["cache_symbols.py", str(tmp_path)])
    assert _script().main() == 1
    out = capsys.readouterr().out
    assert "demo.broken-1.py311.1.nbc (top) calls 1 undefined" in out and "_ZN4demo4leafB2v1Ex" in out
    assert "demo.whole" not in out
    assert "2 cache entries, 1 calling compiled functions they do not define" in out


def test_a_missing_cache_folder_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["cache_symbols.py", str(tmp_path / "absent")])
    assert _script().main() == 2
    assert capsys.readouterr().err.startswith("error: ")
