"""``analyze`` streams: its peak memory does not grow with the rows (issue 21, point 7).

Before, a quantile or a list inside the per-group aggregation, and Polars' sorted group-by on a
file's constant columns, held every row: about 150 bytes a row (107 MB at 10^5 rows, 242 MB at
10^6, 1.3 GB at 10^7). The rows are synthesised as benchmarks/analyze_memory.py does (which
measures 10^5 to 10^7 rows; benchmarks/README.md has its figures).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "analyze_memory.py"
GROWTH_MB = 40  # allowed from 10^5 to 10^6 rows (was about 135 MB)


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("analyze_memory", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_analyze_memory_is_flat_in_rows(tmp_path, bench):
    """The summary (``--balance`` and ``report`` run the same aggregation)."""
    metadata = bench.template_metadata(tmp_path)
    peaks = {}
    for rows in (100_000, 1_000_000):
        folder = tmp_path / f"rows-{rows}"
        bench.write_dataset(folder, rows, metadata, file_rows=16_384)
        peaks[rows], _ = bench.peak_of([str(folder), "--format", "json"])
    growth = peaks[1_000_000] - peaks[100_000]
    assert growth < GROWTH_MB, f"peak RSS {peaks[100_000]:.0f} MB at 10^5 rows, {peaks[1_000_000]:.0f} MB at 10^6"
