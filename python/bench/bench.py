"""The figures in python/README.md: per-call latency, batch throughput, and
npuzzle side by side with the pure-Python `slidingpuzzle` package.

    python bench/bench.py            # npuzzle alone
    python bench/bench.py --compare  # also slidingpuzzle (pip install slidingpuzzle)

Run against a release build (`pip install ./python` or `maturin develop
--release`).
"""

from __future__ import annotations

import argparse
import os
import time
import timeit

import npuzzle
import numpy as np


def best_of(f, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare", action="store_true", help="also time slidingpuzzle's A*")
    parser.add_argument("--count", type=int, default=1000, help="positions for the comparison")
    args = parser.parse_args()

    db = npuzzle.Database(board="3x3")
    print(f"npuzzle {db!r}, {os.cpu_count()} cores")

    calls = 1_000_000
    for label, stmt in [
        ('db.distance("867254301")', lambda: db.distance("867254301")),
        ("db.distance(board)  (a Board)", lambda b=npuzzle.Board("867254301"): db.distance(b)),
        ('db.solve("867254301")', lambda: db.solve("867254301")),
    ]:
        n = calls if "solve" not in label else calls // 10
        per = min(timeit.repeat(stmt, number=n, repeat=5)) / n
        print(f"{label:40} {per * 1e9:8.0f} ns per call")

    positions = db.random(range(0, 32), count=100_000, seed=1)
    array = np.tile(np.array([b.cells for b in positions], dtype=np.uint8), (10, 1))
    texts = [str(b) for b in positions] * 10
    print(f"batches of {len(array):,} positions:")
    for label, f in [
        ("distances(NumPy uint8 array)", lambda: db.distances(array)),
        ("distances(NumPy int64 array)", lambda a=array.astype(np.int64): db.distances(a)),
        ("distances(list of strings)", lambda: db.distances(texts)),
        ("solve_many(NumPy uint8 array)", lambda: db.solve_many(array)),
        ("solve_many(list of strings)", lambda: db.solve_many(texts)),
    ]:
        print(f"  {label:38} {best_of(f, 3):8.3f} s")

    if not args.compare:
        return
    from slidingpuzzle import Algorithm, from_rows, manhattan_distance, search  # type: ignore[import-not-found]

    sample = db.random(range(0, 32), count=args.count, seed=2024)
    start = time.perf_counter()
    ours = [db.solve(b).distance for b in sample]
    npuzzle_time = time.perf_counter() - start

    start = time.perf_counter()
    theirs = []
    for b in sample:
        board = from_rows(*b.tolist())
        result = search(board, alg=Algorithm.A_STAR, heuristic=manhattan_distance)
        theirs.append(len(result.solution))
    their_time = time.perf_counter() - start
    assert ours == theirs, "slidingpuzzle's A* and npuzzle disagree on an optimal length"
    print(f"the same {args.count} random 3x3 positions (distances 0-31), solved optimally:")
    print(f"  npuzzle db.solve, one by one         {npuzzle_time:8.4f} s")
    print(f"  slidingpuzzle A* + Manhattan distance {their_time:8.2f} s")
    print(f"  ratio                                 {their_time / npuzzle_time:8.0f}x")


if __name__ == "__main__":
    main()
