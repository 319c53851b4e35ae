#!/usr/bin/env python3
"""Random solvable 4x4 positions toward goals off the corners (two edge and
two centre blank cells, tiles in order around the blank), each solved by
`query distance --json` through a pattern database built with --all-goals.

Usage: scripts/pattern_goals.py FILE [SEED [PER_GOAL]]
Prints one line per position: goal, start, distance, nodes (tab separated).
Run it on two partitions' files with the same seed: the first three columns
must be equal. QUERY names the binary (default target/release/query).
"""
import json
import os
import random
import subprocess
import sys

QUERY = os.environ.get("QUERY", "target/release/query")


def canonical_goal(blank):
    """Tiles 1..15 in order around the blank."""
    cells, tile = [], 1
    for cell in range(16):
        if cell == blank:
            cells.append(0)
        else:
            cells.append(tile)
            tile += 1
    return cells


def parity(start, goal):
    """Inversions (tiles numbered by their goal cells) plus both blanks' rows:
    a start reaches the goal exactly when this matches the goal's own."""
    cell = {t: i for i, t in enumerate(goal)}
    seq = [cell[t] for t in start if t != 0]
    inversions = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
    return (inversions + start.index(0) // 4 + goal.index(0) // 4) % 2


def usage(problem):
    print(f"pattern_goals.py: {problem}\nusage: scripts/pattern_goals.py FILE [SEED [PER_GOAL]]",
          file=sys.stderr)
    sys.exit(2)


def whole(text, name, least):
    """A whole number of at most 9 digits, at least `least`."""
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) >= least):
        usage(f"{name} must be a whole number from {least} to 999999999, got {text[:40]!r}")
    return int(text)


def main():
    if not 2 <= len(sys.argv) <= 4:
        usage("expected a database file, and optionally a seed and a count per goal")
    db = sys.argv[1]
    rng = random.Random(whole(sys.argv[2], "SEED", 0) if len(sys.argv) > 2 else 16)
    per_goal = whole(sys.argv[3], "PER_GOAL", 1) if len(sys.argv) > 3 else 3
    if not os.path.isfile(db):
        usage(f"{db[:200]!r} is not a file")
    goals = {
        "edge (1,2)": canonical_goal(1),
        "centre (2,2)": canonical_goal(5),
        "edge (3,1)": canonical_goal(8),
        "centre (3,3)": canonical_goal(10),
    }
    for name, goal in goals.items():
        done = 0
        while done < per_goal:
            start = list(range(16))
            rng.shuffle(start)
            if parity(start, goal) != parity(goal, goal):
                continue
            words = lambda b: " ".join(map(str, b))
            run = subprocess.run(
                [QUERY, "--board", "4x4", "--db", db, "distance", "--json",
                 "--goal", words(goal), words(start)],
                capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"pattern_goals.py: query failed (exit {run.returncode}): {run.stderr.strip()}")
            answer = json.loads(run.stdout)
            print(f"{name}\t{words(start)}\t{answer['distance']}\t{answer['nodes']}", flush=True)
            done += 1


if __name__ == "__main__":
    main()
