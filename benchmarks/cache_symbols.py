"""Which cached kernels call compiled functions they do not define: the kernel-link fault.

    python benchmarks/cache_symbols.py [CACHE_DIR]      # default: rummysim's numba cache folder

Twice a CI run crashed (sessions 17-19) in a ``play_games`` whose cached code called ``has_card``
and ``pos_card`` without defining them, so the calls went to address 0 in every process that
loaded the entry. Each numba cache entry (``*.nbc``) holds a library's object code and the bitcode
other libraries link. This script reads every entry under the folder and lists the compiled
functions (mangled ``_ZN`` names) its bitcode declares but does not define. A whole entry lists
none. The cause was the link order (``_relink_dropped`` in ``kernels/common/_nested_opt.py``,
session 20), which now links the dropped code again and refuses to emit a module still lacking it.
The list is printed oldest entry first, so a fault can be placed in the run's history.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import llvmlite.binding as llvm


def libraries(value: object, depth: int = 0) -> Iterator[tuple[str, bytes]]:
    """(name, bitcode) of every serialized code library in an unpickled cache entry: numba stores a
    library as ``(name, "object", (object code, bitcode))``."""
    if depth > 8:
        return
    if isinstance(value, tuple):
        if len(value) == 3 and value[1] == "object" and isinstance(value[2], tuple):
            yield str(value[0]), value[2][1]
            return
        for item in value:
            yield from libraries(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from libraries(item, depth + 1)


def undefined_kernels(bitcode: bytes) -> list[str]:
    module = llvm.parse_bitcode(bitcode)
    return [fn.name for fn in module.functions if fn.is_declaration and fn.name.startswith("_ZN")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache_dir", nargs="?", help="a numba cache folder (default: rummysim's)")
    args = parser.parse_args()
    if args.cache_dir:
        root = Path(args.cache_dir)
    else:
        from rummysim.kernels.common._jit import cache_root
        root = cache_root()
    if not root.is_dir():
        print(f"error: {root} is not a folder", file=sys.stderr)
        return 2
    entries = sorted(root.rglob("*.nbc"), key=os.path.getmtime)
    faulty = 0
    for path in entries:
        with path.open("rb") as handle:
            entry = pickle.load(handle)
        for name, bitcode in libraries(entry):
            missing = undefined_kernels(bitcode)
            if missing:
                faulty += 1
                stamp = time.strftime("%H:%M:%S", time.localtime(path.stat().st_mtime))
                print(f"{stamp} {path.relative_to(root)} ({name}) calls {len(missing)} undefined:")
                for symbol in missing:
                    print(f"    {symbol}")
    print(f"{len(entries)} cache entries, {faulty} calling compiled functions they do not define")
    return 1 if faulty else 0


if __name__ == "__main__":
    sys.exit(main())
