"""`npuzzle.solve_many_within` on 100 uniformly random 6x6 positions at W = 2
(the positions of `examples/positions.rs`, seed 1), on THREADS threads:

    cargo build --release --example positions
    python python/bench/within_many.py THREADS

Prints the wall time of the one call and the mean ratio of length to bound.
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

import npuzzle

positions = Path(__file__).resolve().parents[2] / "target" / "release" / "examples" / "positions"
drawn = subprocess.run([str(positions), "100", "1", "6x6"], capture_output=True, text=True, check=True)
starts = [line for line in drawn.stdout.splitlines() if line.strip()]
threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
started = time.perf_counter()
found = npuzzle.solve_many_within(starts, 2, board="6x6", threads=threads)
seconds = time.perf_counter() - started
ratio = statistics.mean(s.length / s.lower_bound for s in found if s is not None and s.lower_bound)
print(f"threads={threads}: {seconds:.2f} s for {len(starts)} positions; mean length / bound {ratio:.3f}")
