"""Compile-time cut: numba's SSA reconstruction rewrites only the blocks that name the variable.

``ssa._run_ssa`` fixes one variable assigned more than once (a violator) at a time, with two
rewrite passes over every statement of the function (fresh names for its assignments, then the
reaching definition for each use). In the engine's large inlined functions, hundreds of violators
times thousands of statements made it about 2 s of a 30 s cold 500 Rum compile (issue 19 point 4).
A block that does not name the violator comes out of both passes as it went in (the handlers
return such statements unchanged and record nothing), so here the passes see only the blocks
that name it, and the others are carried over as numba's pass would make them: a new block with
the same statements. Which variables a block names is read once per function: a pass for one
variable only renames that variable, so what the blocks name of the others does not change.
``tests/test_jit_policy.py`` compares the IR with numba's own pass.
"""

from __future__ import annotations

from typing import Any

from numba.core import ir, ssa

ORIGINAL_RUN_SSA = getattr(ssa, "_run_ssa", None)  # numba's own (check_numba_hooks checks they exist)
ORIGINAL_REWRITE = getattr(ssa, "_run_block_rewrite", None)
_named: dict | None = None  # block label -> names of the variables its statements use or set, during one _run_ssa


def _run_ssa(blocks: dict) -> dict:
    global _named
    _named = {label: {var.name for stmt in block.body for var in stmt.list_vars()} for label, block in blocks.items()}
    try:
        return ORIGINAL_RUN_SSA(blocks)
    finally:
        _named = None


def _run_block_rewrite(blocks: dict, states: dict, handler: Any) -> dict:
    varname = states.get("varname")
    if _named is None or varname is None:
        return ORIGINAL_REWRITE(blocks, states, handler)
    naming = {label: block for label, block in blocks.items() if label not in _named or varname in _named[label]}
    rewritten = ORIGINAL_REWRITE(naming, states, handler)
    out = {}
    for label, block in blocks.items():
        if label in rewritten:
            out[label] = rewritten[label]
        else:
            carried = ir.Block(scope=block.scope, loc=block.loc)
            carried.body = list(block.body)
            out[label] = carried
    return out


def install() -> None:
    ssa._run_ssa = _run_ssa
    ssa._run_block_rewrite = _run_block_rewrite
