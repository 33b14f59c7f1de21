"""The cross-process lock around numba's cache-index update (``kernels.common._cache_lock``).

Two workers compiling different signatures of one function on a cold cache once crashed a CI run:
both picked the same data file name and the index pointed one signature at the other's code.
"""

from __future__ import annotations

import threading

from numba.core.caching import IndexDataCacheFile

from rummysim.kernels.common import _cache_lock, _jit

STAMP = (1.0, 100)  # the source file's (mtime, size) numba checks before trusting an index


def _racing_saves(tmp_path, monkeypatch) -> IndexDataCacheFile:
    """Save two signatures from two threads whose index reads both come before either index write,
    unless the lock makes the second wait (the barrier then times out and the save goes on)."""
    barrier = threading.Barrier(2, timeout=1.0)
    save_index = IndexDataCacheFile._save_index

    def save_index_after_the_other_read(self, overloads):
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        save_index(self, overloads)

    monkeypatch.setattr(IndexDataCacheFile, "_save_index", save_index_after_the_other_read)
    writers = [threading.Thread(target=IndexDataCacheFile(str(tmp_path), "kernel", STAMP).save,
                                args=(f"signature {i}", f"code of signature {i}")) for i in range(2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    monkeypatch.undo()
    return IndexDataCacheFile(str(tmp_path), "kernel", STAMP)


def test_concurrent_saves_of_two_signatures_keep_each_its_own_code(tmp_path, monkeypatch):
    cache = _racing_saves(tmp_path, monkeypatch)
    assert [cache.load(f"signature {i}") for i in range(2)] == ["code of signature 0", "code of signature 1"]
    assert len(list(tmp_path.glob("kernel.*.nbc"))) == 2


def test_the_lock_is_what_keeps_them_apart(tmp_path, monkeypatch):
    """Without the wrapper the same race mixes the two up (numba issue 4807): the test above can fail."""
    monkeypatch.setattr(IndexDataCacheFile, "save", IndexDataCacheFile.save.__wrapped__)
    unlocked = _racing_saves(tmp_path, monkeypatch)
    loaded = [unlocked.load(f"signature {i}") for i in range(2)]
    assert loaded != ["code of signature 0", "code of signature 1"]
    assert len(list(tmp_path.glob("kernel.*.nbc"))) == 1


def test_importing_the_kernels_policy_installs_the_lock_once():
    assert _jit.njit is not None and getattr(IndexDataCacheFile.save, "_rummysim_locked", False)
    save = IndexDataCacheFile.save
    _cache_lock.install()
    assert IndexDataCacheFile.save is save and save.__wrapped__.__module__ == "numba.core.caching"
