"""Cross-process lock around numba's cache-index update, in every process that imports the kernels.

numba saves a compiled signature by reading the function's cache index, picking the first data
file name the index does not list, writing the index back and then the data
(``numba.core.caching.IndexDataCacheFile.save``). Two processes compiling *different* signatures of
one function at once can both read the same index, both pick ``<function>.1.nbc``, and the
index left on disk then points one signature at the other's machine code: the next process that
loads it runs code typed for other arguments and crashes (numba issue 4807, open). pytest-xdist
workers, ``rummysim warmup`` workers and Dask or process-pool sweep workers on a cold cache all
compile the same kernels at once, and a CI run crashed this way in a 500 Rum batch.

``install`` wraps ``save`` in an exclusive ``fcntl.flock`` on a lock file in the function's cache
folder, so the read, the name choice and both writes happen as one step; loads need no lock
because numba writes each file to a temporary name and renames it, and treats an index entry
whose data file is not there yet as a miss. The lock costs one open and two system calls per
compiled signature. Where ``fcntl`` does not exist (Windows) nothing is wrapped.
"""

from __future__ import annotations

import os

from numba.core import caching

LOCK_NAME = "rummysim-index.lock"


def install() -> None:
    """Wrap ``IndexDataCacheFile.save`` with the lock, once per process."""
    try:
        import fcntl
    except ImportError:  # no flock on this platform: numba's own behaviour
        return
    save = caching.IndexDataCacheFile.save
    if getattr(save, "_rummysim_locked", False):
        return

    def locked_save(self, key, data):
        with open(os.path.join(self._cache_path, LOCK_NAME), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return save(self, key, data)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    locked_save._rummysim_locked = True
    locked_save.__wrapped__ = save
    caching.IndexDataCacheFile.save = locked_save
