#!/usr/bin/env python3
"""Random walks from a board's default goal (tiles in order, blank last),
one start per line, for timing searches at a known depth: each walk of N
moves never undoes its last move, so its end is at most N moves out.

Usage: scripts/walks.py ROWS COLS MOVES COUNT SEED
  scripts/walks.py 5 5 60 5 60   # the 5x5 walks of docs/benchmarks.md
"""
import random
import sys

rows, cols, moves, count, seed = map(int, sys.argv[1:6])
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
