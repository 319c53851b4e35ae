"""Korf's 100 random 15-puzzle instances through the Python package:
`Database(board="4x4").solve_many(..., threads=2)`, timed over several runs
(the median is the figure), every solution checked against its published
length and replayed to the goal.

    python bench/korf100.py [--db PATH] [--runs 7] [--threads 2]

Without --db, the 4x4 database is found as the command line finds it (build
the default 7-8 one first: `npuzzle.build("4x4")` or `build-db --board 4x4`).
Exits 1 if any answer is wrong.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import npuzzle

KORF = Path(__file__).resolve().parents[2] / "tests" / "data" / "korf100.txt"
GOAL = " ".join(map(str, range(16)))  # blank top-left, tile k in cell k
PUBLISHED_TOTAL = 5305


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a 4x4 pattern database (default: found as query finds it)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.runs < 1 or args.threads < 1:
        parser.error("--runs and --threads must be at least 1")

    rows = [line.split() for line in KORF.read_text().splitlines() if line and not line.startswith("#")]
    starts = [" ".join(row[2:]) for row in rows]
    lengths = [int(row[1]) for row in rows]
    db = npuzzle.Database(args.db) if args.db else npuzzle.Database(board="4x4")
    # Touch the tables once so that the timed runs read them from memory,
    # as a long-lived process would.
    db.solve_many(starts[:1], GOAL, threads=1)

    # Wall time, and CPU time over all threads (less sensitive to a
    # machine shared with other work).
    times, cpu = [], []
    for _ in range(args.runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        solutions = db.solve_many(starts, GOAL, threads=args.threads)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)

    goal = npuzzle.Board(GOAL, board="4x4")
    wrong = [
        i + 1
        for i, (start, moves, length) in enumerate(zip(starts, solutions, lengths))
        if moves is None or len(moves) != length or npuzzle.Board(start, board="4x4").apply(moves) != goal
    ]
    total = sum(len(m) for m in solutions if m is not None)
    print(
        f"korf100 ({db.partition}, {db.path}): {100 - len(wrong)}/100 optimal and replayed, "
        f"total length {total} (published {PUBLISHED_TOTAL}); solve_many threads={args.threads}: "
        f"median {statistics.median(times):.3f} s over {args.runs} runs "
        f"({', '.join(f'{t:.3f}' for t in times)}), median CPU {statistics.median(cpu):.3f} s"
    )
    if wrong or total != PUBLISHED_TOTAL:
        print(f"wrong answers for instances {wrong}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
