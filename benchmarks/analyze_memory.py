"""Peak memory of ``rummysim analyze`` against the number of rows (issue 21, point 7).

Writes datasets of synthetic 4-player 500 Rum game rows (Polars and numpy, no games played: the
columns, types and metadata of ``rummysim simulate`` files, in files of 4,096 rows like a
sweep's chunks, or ``--file-rows``), then runs ``rummysim analyze`` on each in a fresh process and reports its peak RSS
(``ru_maxrss`` of the child) and wall time. A flat column means memory does not grow with rows.

    python benchmarks/analyze_memory.py                      # 10^5, 10^6, 10^7 rows
    python benchmarks/analyze_memory.py --rows 100000,1000000 --views summary
    python benchmarks/analyze_memory.py --json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

FILE_ROWS = 4096  # a sweep's default chunk_size
PLAYERS = 4
VIEWS = {"summary": [], "balance": ["--balance"], "strategies": ["--strategies"]}
PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True); "
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def template_metadata(tmp: Path) -> dict[str, str]:
    """The footer of a real 10-game simulate file, so analyze reads the synthetic files as its own."""
    path = tmp / "template.parquet"
    subprocess.run([sys.executable, "-m", "rummysim", "simulate", "--players", str(PLAYERS), "--lineup",
                    "greedy,random,greedy,random", "--games", "10", "--out", str(path), "--no-progress"],
                   check=True, capture_output=True)
    return pl.read_parquet_metadata(path)


def synthetic_games(start: int, rows: int, rng: np.random.Generator) -> pl.DataFrame:
    winner = rng.integers(0, PLAYERS, rows)
    scores = {f"score_{s}": rng.integers(-200, 700, rows).astype(np.int32) for s in range(PLAYERS)}
    for s in range(PLAYERS):  # the winner reaches the target
        scores[f"score_{s}"] = np.where(winner == s, rng.integers(500, 700, rows), scores[f"score_{s}"]).astype(np.int32)
    frame = pl.DataFrame({
        "game_index": np.arange(start, start + rows, dtype=np.int64),
        "first_dealer": rng.integers(0, PLAYERS, rows).astype(np.int8),
        "winner": winner.astype(np.int8),
        "hands": rng.integers(3, 25, rows).astype(np.int32),
        "turns": rng.integers(20, 400, rows).astype(np.int32),
        "capped": np.zeros(rows, dtype=bool),
        "capped_hands": np.zeros(rows, dtype=np.int32),
        "tied_seats": np.zeros(rows, dtype=np.int8),
        **scores,
    })
    return frame.with_columns(pl.col("winner").alias("winner_side"),
                              *[pl.col(f"score_{s}").alias(f"side_score_{s}") for s in range(PLAYERS)])


def write_dataset(folder: Path, rows: int, metadata: dict[str, str], file_rows: int = FILE_ROWS) -> None:
    folder.mkdir(parents=True)
    rng = np.random.default_rng(rows)
    for k, start in enumerate(range(0, rows, file_rows)):
        synthetic_games(start, min(file_rows, rows - start), rng).write_parquet(folder / f"part-{k:05d}.parquet",
                                                                                metadata=metadata)


def peak_of(args: list[str]) -> tuple[float, float]:
    """Peak RSS (MB) and wall seconds of ``rummysim analyze ARGS`` in a fresh process."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "rummysim", "analyze", *args],
                         check=True, capture_output=True, text=True).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"rummysim analyze {' '.join(args)} failed")
    return int(out[1]) / 1024, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="100000,1000000,10000000")
    parser.add_argument("--views", default=",".join(VIEWS))
    parser.add_argument("--file-rows", type=int, default=FILE_ROWS, help="rows per file (default 4,096)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        metadata = template_metadata(base)
        for rows in (int(r) for r in args.rows.split(",")):
            folder = base / f"rows-{rows}"
            write_dataset(folder, rows, metadata, args.file_rows)
            for view in args.views.split(","):
                mb, seconds = peak_of([str(folder), "--format", "json", *VIEWS[view]])
                results.append({"rows": rows, "file_rows": args.file_rows, "view": view, "peak_rss_mb": round(mb, 1),
                                "seconds": round(seconds, 2)})
                if not args.json:
                    print(f"{rows:>12,} rows in files of {args.file_rows:,}  {view:10s}  peak RSS {mb:7.1f} MB  "
                          f"{seconds:6.2f} s", flush=True)
            for path in folder.iterdir():
                path.unlink()
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
