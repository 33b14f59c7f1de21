"""Two compile-time fixes to numba's IR inliner (``njit_inline``): one deep copy per inlined
function instead of one per block, and its untyped IR built once instead of at every call site.

Every ``njit_inline`` call site makes numba's ``InlineWorker.inline_ir`` copy the callee's IR
twice, each time block by block with a fresh ``copy.deepcopy`` memo. Every block refers to the
function's one ``Scope``, and the scope holds every variable of the function, so each block's copy
copied all of the function's variables again: a 500 Rum engine compile made 1.4 million variable
copies, about a fifth of the cold compile (issue 19 point 4). ``inline_ir`` is wrapped here so that
the copies of one call share one memo: the scope and its variables are copied once, and objects
shared between blocks stay shared in the copy, as in the original IR. The compiled code does not
change (the same IR reaches typing and lowering; ``tests/test_digests.py`` pins the rows).

``InlineWorker.run_untyped_passes`` also ran numba's whole untyped pipeline over the callee at every
call site (about a tenth of the cold compile). Its result is kept per function and pipeline
settings: ``inline_ir`` copies it before changing anything, so one untouched IR serves every site.

numba compiles under its global compiler lock, so no two ``inline_ir`` calls run at once and the
module-level switch below cannot be seen by another compile. The hook is checked at import
(``check_numba_hooks`` in ``_jit.py``) against the numba version pinned in pyproject.toml.
"""

from __future__ import annotations

import copy
from typing import Any

from numba.core import inline_closurecall


class _SharedMemoCopy:
    """Stands in for the ``copy`` module inside ``inline_closurecall`` during one ``inline_ir``:
    its ``deepcopy`` reuses one memo for every block copied by that call."""

    def __init__(self) -> None:
        self.memo: dict[int, Any] = {}

    def deepcopy(self, value: Any, memo: dict[int, Any] | None = None) -> Any:
        return copy.deepcopy(value, self.memo if memo is None else memo)


def _flags_key(flags: Any) -> str:
    return repr(sorted((name, repr(value)) for name, value in flags.values().items()))


# (function, pipeline, flags) -> the function's untyped IR, never changed once built
UNTYPED_IR: dict[tuple[Any, ...], Any] = {}


def _cache_untyped_ir(worker: type) -> None:
    original = worker.run_untyped_passes

    def run_untyped_passes(self, func, enable_ssa=False):
        self.flags.enable_ssa = enable_ssa  # as numba's method does, on the caller's flags
        key = (func, self._compiler_pipeline, _flags_key(self.flags))
        if key not in UNTYPED_IR:
            UNTYPED_IR[key] = original(self, func, enable_ssa)
        return UNTYPED_IR[key]

    worker.run_untyped_passes = run_untyped_passes


def install() -> None:
    """Wrap ``InlineWorker.inline_ir`` and ``run_untyped_passes`` once per process."""
    worker = inline_closurecall.InlineWorker
    original = worker.inline_ir
    if getattr(original, "_rummysim_shared_memo", False):
        return
    _cache_untyped_ir(worker)

    def inline_ir(self, *args, **kwargs):
        inline_closurecall.copy = _SharedMemoCopy()
        try:
            return original(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = copy

    inline_ir._rummysim_shared_memo = True
    worker.inline_ir = inline_ir
