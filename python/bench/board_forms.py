"""`db.distance` per call for every form a board can take (the ≤ 1 µs
target of issue 21): the median of REPEAT timeit runs of NUMBER calls each,
in CPU time of this process (so that other work on a shared machine counts
less than it would in wall time; `--wall` for wall time).

    python bench/board_forms.py [--number 200000] [--repeat 7] [--wall]

Run against a release build (`pip install ./python`).
"""

from __future__ import annotations

import argparse
import statistics
import time
import timeit

import npuzzle
import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=200_000, help="calls per run")
    parser.add_argument("--repeat", type=int, default=7, help="runs (the median is shown)")
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    args = parser.parse_args()
    timer = time.perf_counter if args.wall else time.process_time

    db = npuzzle.Database(board="3x3")
    tiles = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    forms: list[tuple[str, object]] = [
        ('str "867254301"', "867254301"),
        ("Board", npuzzle.Board("867254301")),
        ("list of 9 ints", tiles),
        ("tuple of 9 ints", tuple(tiles)),
        ("list of 3 rows", [tiles[0:3], tiles[3:6], tiles[6:9]]),
        ("NumPy 1-D int64", np.array(tiles, dtype=np.int64)),
        ("NumPy 1-D uint8", np.array(tiles, dtype=np.uint8)),
        ("NumPy 3x3 int64", np.array(tiles, dtype=np.int64).reshape(3, 3)),
    ]
    clock = "wall" if args.wall else "CPU"
    print(f"db.distance(board), {clock} time, median of {args.repeat} runs of {args.number:,} calls")
    for label, board in forms:
        assert db.distance(board) == 31
        runs = timeit.repeat(
            lambda b=board: db.distance(b), number=args.number, repeat=args.repeat, timer=timer
        )
        per_call = statistics.median(runs) / args.number
        print(f"  {label:20} {per_call * 1e9:8.0f} ns")


if __name__ == "__main__":
    main()
