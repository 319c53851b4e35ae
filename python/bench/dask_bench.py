"""The issue-24 measurements: npuzzle.dask on a LocalCluster against `query
batch` on the same rows, with every answer checked against query's.

    python bench/dask_bench.py --query ../target/release/query --db3 ../data/3x3.db \
        [--rows 10000000] [--db44 /tmp/4x4-78-v4.db] [--runs 3]

1. ROWS random solvable 3x3 positions, written once as text (one a line)
   and as Parquet (a string column, row groups of 1 Mi rows). Interleaved,
   RUNS times: `query batch --format moves` and `--format csv` (one
   process, both cores) on the text; `python -m npuzzle.dask solve` on the
   Parquet (2 workers x 1 thread), whose own line gives the job's time
   apart from the cluster's start. Then every distance and move of the
   output is compared with query's CSV.
2. With --db44: 1,000 random 4x4 positions through the pattern databases
   on 2 workers, the whole command's wall time, every distance compared
   with `query batch --threads 2`'s, and every solution replayed.

Prints the load average beside every figure: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import npuzzle
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.csv as pacsv  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
from npuzzle.dask import _sampling


def load() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


def positions(n: int, board: str, seed: int, db: str, folder: Path) -> tuple[Path, Path]:
    """n random solvable positions as text lines and as Parquet."""
    starts = _sampling.starts(0, n, board, seed, None, db)["start"].array
    column = pa.array(starts)
    text, parquet = folder / f"{board}.txt", folder / f"{board}.parquet"
    with open(text, "w") as f:
        f.write("\n".join(column.to_pylist()) + "\n")
    pq.write_table(pa.table({"start": column}), parquet, row_group_size=1 << 20)
    return text, parquet


def timed(command: list[str], **kwargs: object) -> tuple[float, subprocess.CompletedProcess[str]]:
    kwargs.setdefault("stdout", subprocess.PIPE)
    started = time.perf_counter()
    ran = subprocess.run(command, text=True, stderr=subprocess.PIPE, **kwargs)  # type: ignore[call-overload]
    return time.perf_counter() - started, ran


def dask_solve(source: Path, out: Path, board: str, db: str) -> tuple[float, float, str]:
    """Whole-command wall time, the job's own time (its summary line), and
    that line."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "npuzzle.dask", "solve", str(source), str(out)]
    # From the work folder: from python/, `-m` would find the source tree's
    # npuzzle, which has no compiled module.
    wall, ran = timed([*command, "--board", board, "--db", db, "--workers", "2"], cwd=out.parent)
    if ran.returncode != 0:
        sys.exit(f"npuzzle.dask failed:\n{ran.stderr}")
    line = next(l for l in ran.stderr.splitlines() if l.startswith("wrote "))
    job = float(re.search(r"in ([0-9.]+) s", line).group(1))  # type: ignore[union-attr]
    return wall, job, line


def three_by_three(args: argparse.Namespace, folder: Path) -> None:
    n = args.rows
    print(f"making {n:,} random solvable 3x3 positions ({load()})", flush=True)
    text, parquet = positions(n, "3x3", 24, args.db3, folder)
    out = folder / "out3.parquet"
    for run in range(args.runs):
        for fmt in ("moves", "csv"):
            with open(text) as source, open(folder / f"query.{fmt}", "w") as sink:
                wall, ran = timed([args.query, "--db", args.db3, "batch", "--format", fmt], stdin=source, stdout=sink)
            print(f"run {run + 1}: query batch --format {fmt}: {wall:.2f} s, {n / wall / 1e6:.2f} M rows/s ({load()})")
        wall, job, line = dask_solve(parquet, out, "3x3", args.db3)
        print(f"run {run + 1}: npuzzle.dask solve, 2 workers x 1 thread: whole command {wall:.2f} s "
              f"({n / wall / 1e6:.2f} M rows/s), the job {job:.2f} s ({n / job / 1e6:.2f} M rows/s) ({load()})",
              flush=True)
    # Every answer equals query's, row for row.
    ours = pq.read_table(out)
    theirs = pacsv.read_csv(
        folder / "query.csv",
        convert_options=pacsv.ConvertOptions(column_types={"start": pa.string(), "moves": pa.string()}),
    )
    assert ours.num_rows == theirs.num_rows == n
    for name, kind in (("start", pa.large_string()), ("distance", pa.int64()), ("moves", pa.large_string())):
        empty = pa.scalar("" if name != "distance" else 0, kind)
        mine, query = (t.column(name).cast(kind).fill_null(empty) for t in (ours, theirs))
        assert mine.equals(query), f"the {name} column differs from query batch's"
    print(f"checked: all {n:,} distances and moves equal query batch's")


def four_by_four(args: argparse.Namespace, folder: Path) -> None:
    n = 1000
    goal = npuzzle.Board.goal("4x4")
    text, parquet = positions(n, "4x4", 24, args.db44, folder)
    with open(text) as source:
        wall, ran = timed([args.query, "--db", args.db44, "batch", "--threads", "2"], stdin=source)
    answers = [json.loads(line) for line in ran.stdout.splitlines()]
    print(f"query batch --threads 2, {n} random 4x4 positions: {wall:.2f} s ({load()})")
    out = folder / "out44.parquet"
    wall, job, line = dask_solve(parquet, out, "4x4", args.db44)
    print(f"npuzzle.dask solve, {n} random 4x4 positions, 2 workers: whole command {wall:.2f} s, the job {job:.2f} s ({load()})")
    ours = pq.read_table(out).to_pylist()
    assert len(ours) == len(answers) == n
    for mine, theirs in zip(ours, answers):
        assert mine["start"] == theirs["start"] and mine["error"] is None, mine
        assert mine["distance"] == theirs["distance"] == len(mine["moves"]), (mine, theirs)
        assert npuzzle.Board(mine["start"], "4x4").apply(mine["moves"]) == goal, mine
    total = sum(row["distance"] for row in ours)
    print(f"checked: all {n} distances equal query batch's (total {total}), every solution replayed to the goal; "
          f"{sum(row['nodes'] for row in ours) / n:,.0f} nodes per position")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--query", required=True, help="a release query binary")
    p.add_argument("--db3", required=True, help="a 3x3 database (build-db --board 3x3)")
    p.add_argument("--db44", help="a 4x4 7-8 pattern file, for the 4x4 measurement")
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--skip-3x3", action="store_true")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="dask-bench-") as work:
        if not args.skip_3x3:
            three_by_three(args, Path(work))
        if args.db44:
            four_by_four(args, Path(work))


if __name__ == "__main__":
    main()
