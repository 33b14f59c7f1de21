"""Compile-time cut: a library finalized during a nested compile skips numba's final-module
optimisation (issue 19 point 4).

When a kernel is compiled because another kernel being compiled calls it, numba finalizes the
callee's library on its own: it links in every library the callee calls and runs the whole module
pass pipeline (``CPUCodeLibrary._optimize_final_module``, the O3 pipeline twice) over the linked
subtree. The caller then links those libraries in again and optimises the whole once more, at every
call level up to the kernel called from Python. In a cold 500 Rum greedy compile that was about
11 s of CPU for the nested libraries against 1.5 s for the top one (``simulate``'s ``play_games``).

The callee's own machine code is only run when it is called directly from Python; a caller always
links in the callee's IR (``_get_module_for_linking``) and optimises it with its own final module.
So a library finalized while another compile is under way (``numba:compile`` events nested two
deep or more) keeps its per-function optimisation (``add_llvm_module``) and skips the module pass
pipeline; the top-level library is optimised as before, over the same IR, so the code of the kernel
called from Python is optimised in full (``tests/test_digests.py`` pins the rows; the steady
speed and the compile times are in benchmarks/README.md, issue 19, session 12). Such a library is
not written to the on-disk cache, so a later process that calls the function directly from Python compiles it at the top level, optimised.
Within one process, a function first compiled nested and then called directly from Python runs
its unoptimised code (correct, slower: tests do this, production entry points are top-level).

numba compiles under its global compiler lock, so the depth counter below is only changed by one
compile at a time. The hooks are checked at import (``check_numba_hooks`` in ``_jit.py``).
"""

from __future__ import annotations

from numba.core import caching, codegen, event

# libraries whose module optimisation was skipped (a flag on the library object)
UNOPTIMIZED = "_rummysim_unoptimized"


class _CompileDepth(event.Listener):
    """How many ``numba:compile`` events are under way (the dispatchers' compiles, nested)."""

    depth = 0

    def on_start(self, event):
        _CompileDepth.depth += 1

    def on_end(self, event):
        _CompileDepth.depth -= 1


def install() -> None:
    """Wrap ``_optimize_final_module`` and ``FunctionCache.save_overload`` once per process."""
    library = codegen.CPUCodeLibrary
    original = library._optimize_final_module
    if getattr(original, "_rummysim_nested", False):
        return
    event.register("numba:compile", _CompileDepth())

    def _optimize_final_module(self):
        if _CompileDepth.depth >= 2:
            setattr(self, UNOPTIMIZED, True)
            return
        original(self)

    _optimize_final_module._rummysim_nested = True
    library._optimize_final_module = _optimize_final_module

    save = caching.FunctionCache.save_overload

    def save_overload(self, sig, data):
        if getattr(getattr(data, "library", None), UNOPTIMIZED, False):
            return
        save(self, sig, data)

    caching.FunctionCache.save_overload = save_overload
