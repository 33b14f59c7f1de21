"""Decorator policy for every numba kernel, in one place.

All kernels are compiled with ``cache=True`` so that the CLI starts from the on-disk cache after
the first run, and with ``nogil=True`` so that callers may also run them from Python threads.
``error_model="numpy"`` avoids the zero-division checks that the default Python error model adds
to integer code in hot loops.

Numba invalidates a cached function only when *its own* file changes, not when a function it
calls in another file does, so an edit to ``engine.py`` could leave ``batch.py`` running stale
machine code. Unless ``NUMBA_CACHE_DIR`` is set by the user, the cache therefore lives in a folder
named after a hash of every kernel and strategy source file: any edit selects a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_SOURCES = (Path(__file__).parent, Path(__file__).parent.parent / "strategies")


def _source_fingerprint() -> str:
    digest = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rummysim"


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(_cache_root() / f"numba-{_source_fingerprint()}")

njit = numba.njit(cache=True, nogil=True, error_model="numpy")
"""Decorator for scalar and array kernels."""

njit_parallel = numba.njit(cache=True, nogil=True, error_model="numpy", parallel=True)
"""Decorator for the batch runner only: the single place where ``prange`` is used."""
