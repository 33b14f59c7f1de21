"""Decorator policy for every numba kernel, in one place.

All kernels are compiled with ``cache=True`` so that the CLI starts from the on-disk cache after
the first run, and with ``nogil=True`` so that callers may also run them from Python threads.
``error_model="numpy"`` avoids the zero-division checks that the default Python error model adds
to integer code in hot loops.
"""

from __future__ import annotations

import numba

njit = numba.njit(cache=True, nogil=True, error_model="numpy")
"""Decorator for scalar and array kernels."""

njit_parallel = numba.njit(cache=True, nogil=True, error_model="numpy", parallel=True)
"""Decorator for the batch runner only: the single place where ``prange`` is used."""
