#!/usr/bin/env python3
"""Random walks from a board's default goal (tiles in order, blank last),
one start per line, for timing searches at a known depth: each walk of N
moves never undoes its last move, so its end is at most N moves out.

Usage: scripts/walks.py ROWS COLS MOVES COUNT SEED
  scripts/walks.py 5 5 60 5 60   # the 5x5 walks of docs/benchmarks.md
"""
import random
import sys

def arguments():
    """The five numbers, or a message saying what is wrong and exit status 1."""
    try:
        if len(sys.argv) != 6:
            raise ValueError(f"5 arguments expected, got {len(sys.argv) - 1}")
        rows, cols, moves, count, seed = map(int, sys.argv[1:6])
    except ValueError as e:
        sys.exit(f"walks.py: {str(e)[:200]}\n{__doc__.strip()}")
    if not (2 <= rows <= 6 and 2 <= cols <= 6):
        # A board one cell wide leaves a walk that may not undo its last move nowhere to go.
        sys.exit(f"walks.py: a board is 2 to 6 rows by 2 to 6 columns; got {rows}x{cols}")
    if moves < 0 or count < 0:
        sys.exit(f"walks.py: MOVES and COUNT are 0 or more; got {moves} and {count}")
    return rows, cols, moves, count, seed


rows, cols, moves, count, seed = arguments()
random.seed(seed)
for _ in range(count):
    cells = list(range(1, rows * cols)) + [0]
    blank, last = rows * cols - 1, None
    for _ in range(moves):
        r, c = divmod(blank, cols)
        options = [
            (r + dr) * cols + c + dc
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr) * cols + c + dc != last
        ]
        target = random.choice(options)
        last = blank
        cells[blank], cells[target] = cells[target], cells[blank]
        blank = target
    print(" ".join(map(str, cells)))
