"""Compile-time cut: numba's liveness analysis (``analysis.compute_live_map``) on bitsets.

``compute_live_map`` finds, with two fix-points over a function's control-flow graph, the variables
that reach each block (defined or used on some path into it) and, from those, the variables live at
each block's entry. Numba does both with Python sets of variable names, uniting whole sets along
every edge at every pass; in the engine's large inlined functions (thousands of blocks and
variables) that was about 2 s of a 30 s cold 500 Rum compile (issue 19 point 4). Here the same
fix-points run on Python integers used as bitsets, one bit per variable, and only the result is
turned back into sets of names, which is all numba's callers read. Both fix-points are least
fix-points of the same monotone equations, so the sets are the same whatever order the passes take;
``tests/test_jit_policy.py`` compares the two on the functions of a real compile.

numba's module and ``ir_utils`` (which imported the function by name) both get the replacement;
``check_numba_hooks`` checks that they still have it to replace.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from numba.core import analysis, ir_utils

PARAMETERS = ("cfg", "blocks", "var_use_map", "var_def_map")  # numba's signature, checked at import
ORIGINAL = getattr(analysis, "compute_live_map", None)  # numba's own, for the tests


def _bits(names: Iterable[str], index: dict[str, int]) -> int:
    """The bitset of ``names``, numbering names not yet seen."""
    bits = 0
    for name in names:
        i = index.get(name)
        if i is None:
            i = index[name] = len(index)
        bits |= 1 << i
    return bits


def _names(bits: int, names: list[str]) -> set[str]:
    found = set()
    while bits:
        low = bits & -bits
        found.add(names[low.bit_length() - 1])
        bits ^= low
    return found


def _reaching(cfg: Any, topo_order: list, seeds: Mapping[Any, int]) -> defaultdict:
    """Per block, the variables used or defined on some path into it, itself included."""
    successors = {block: [succ for succ, _ in cfg.successors(block)] for block in topo_order}
    reach: defaultdict = defaultdict(int)
    changed = True
    while changed:
        changed = False
        for block in topo_order:
            here = reach[block] | seeds[block]
            if here != reach[block]:
                reach[block] = here
                changed = True
            for succ in successors[block]:
                grown = reach[succ] | here
                if grown != reach[succ]:
                    reach[succ] = grown
                    changed = True
    return reach


def compute_live_map(cfg: Any, blocks: Mapping, var_use_map: Mapping, var_def_map: Mapping) -> dict:
    """``analysis.compute_live_map``: the variables live at the entry of each block."""
    topo_order = cfg.topo_order()
    index: dict[str, int] = {}
    uses = {block: _bits(var_use_map[block], index) for block in var_use_map}
    defs = {block: _bits(var_def_map[block], index) for block in var_def_map}
    reach = _reaching(cfg, topo_order, {block: defs[block] | uses[block] for block in topo_order})
    predecessors = {block: [pred for pred, _ in cfg.predecessors(block)] for block in topo_order}
    live = {block: uses[block] for block in blocks.keys()}
    changed = True
    while changed:
        changed = False
        for block in reversed(topo_order):
            here = live[block]
            for pred in predecessors[block]:
                grown = live[pred] | (here & reach[pred] & ~defs[pred])
                if grown != live[pred]:
                    live[pred] = grown
                    changed = True
    names = list(index)
    return {block: _names(bits, names) for block, bits in live.items()}


def install() -> None:
    """Put the bitset version in numba's ``analysis`` and ``ir_utils`` modules (``check_numba_hooks``
    has checked that both have the function)."""
    analysis.compute_live_map = compute_live_map
    ir_utils.compute_live_map = compute_live_map
