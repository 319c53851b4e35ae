"""``python -m npuzzle.dask solve IN.parquet OUT.parquet``: solve_frame from
the shell, Parquet to Parquet, on a local cluster or at a scheduler's
address.

Exit codes as ``query``'s: 0 when every row got an answer (unsolvable rows
are answers), 2 for bad arguments, an unusable database, or rows that could
not be answered (their ``error`` or ``reason`` column says why; the output
is written).
The output is a folder of Parquet files, written into a temporary folder
beside it and renamed into place when complete: never half-written.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import sys
import time
from pathlib import Path

from typing import Any

import dask.dataframe as dd
import distributed
import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from .. import Board, Database, Error, solve_within
from .._npuzzle import _cores, _timeout, _unbuildable
from . import solve_frame

PROG = "python -m npuzzle.dask"
# As `query batch --threads` allows threads.
WORKERS_PER_CORE = 4


def _board_size(text: str) -> str:
    try:
        Board.goal(text)
    except Error as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    try:
        _timeout(value)  # the rule of every timeout=, and of query's --timeout
    except Error as e:
        # After "timeout=X: ", the reason, its advice in the shell's terms
        # (argparse names the argument and the value itself).
        reason = str(e).partition(": ")[2]
        raise argparse.ArgumentTypeError(reason.replace("timeout= out (or None)", "--timeout out")) from None
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _workers(text: str) -> int:
    # Each worker is a Python process of its own (some 100 MB): as many as
    # `query batch` takes threads, 4 per core, and no more.
    value = _count(text)
    most = WORKERS_PER_CORE * _cores()
    if value > most:
        raise argparse.ArgumentTypeError(
            f"at most {most} local workers ({WORKERS_PER_CORE} per core), got {value}; "
            "workers on more machines join a cluster given with --scheduler"
        )
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Sliding-tile puzzles on a Dask cluster.")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    solve = commands.add_parser(
        "solve",
        help="answer every board of a Parquet file",
        description="Adds distance, moves, solvable, reason, nodes and error to every row of IN "
        "and writes OUT (a folder of Parquet files).",
    )
    solve.add_argument("input", metavar="IN", type=Path, help="a Parquet file or folder")
    solve.add_argument("output", metavar="OUT", type=Path, help="the Parquet folder to write; must not exist")
    solve.add_argument("--board", type=_board_size, default=None, help="RxC (default: the database's, else 3x3)")
    solve.add_argument("--db", metavar="FILE", help="the database, at this path on every worker")
    solve.add_argument("--goal", help="every row's goal (default: tiles in order, blank last)")
    solve.add_argument("--column", default="start", help="the column of boards (default start)")
    solve.add_argument("--timeout", type=_seconds, metavar="SECONDS", help="bound on each row's search")
    solve.add_argument(
        "--within",
        type=float,
        metavar="W",
        help="solutions at most W times the shortest (1 to 100), with length and lower_bound columns; "
        "any board up to 6x6, with or without a database",
    )
    where = solve.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running cluster's scheduler (tcp://host:8786)")
    where.add_argument(
        "--workers", type=_workers, metavar="N", help="local worker processes (default: one per core; at most 4 per core)"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    problem = _check_paths(args)
    if problem:
        p.error(problem)  # exits 2 with the usage
    # Without --board, the database's where this process sees the file (a
    # cluster's workers may see one it does not), else 3x3; with it, the
    # same as the file's.
    if args.db is not None and Path(args.db).is_file():
        try:
            held = Database(args.db).board
        except Error as e:
            p.error(f"bad --db {args.db}: {e}")
        if args.board is not None and Board.goal(args.board).size != held:
            p.error(f"--board {args.board}, but {args.db} holds {held} boards; leave out --board")
        args.board = held
    args.board = args.board or "3x3"
    if args.goal is not None:
        try:
            Board(args.goal, args.board)
        except Error as e:
            p.error(f"bad --goal {args.goal!r}: {e}")
    if args.within is not None:
        try:
            solve_within(Board.goal(args.board), args.within)
        except Error as e:
            p.error(f"bad --within {args.within!r}: {e}")
    elif args.db is None and (why := _unbuildable(Board.goal(args.board).size)) is not None:
        # solve_frame says this in its own words (within=).
        p.error(f"{why}; pass --within (for example --within 2) to solve within a factor of the shortest")
    try:
        return _solve(args)
    except (Error, OSError, ValueError, TypeError) as e:
        # An error sent back from a worker may arrive without its text.
        print(f"{PROG}: {str(e) or repr(e)}", file=sys.stderr)
        return 2


def _check_paths(args: argparse.Namespace) -> str | None:
    """Why the files named cannot be used, before any cluster starts."""
    source, out = args.input, args.output
    for role, path in (("input", source), ("output", out)):
        try:
            os.fsencode(path).decode("utf-8")
        except UnicodeDecodeError:
            shown = os.fsencode(path).decode("utf-8", "backslashreplace")
            return f"the {role}'s name {shown} is not UTF-8, which pyarrow needs of a Parquet file's; rename it"
    if not source.exists():
        return f"no input at {source}"
    if not (source.is_file() or source.is_dir()):
        return f"{source} is not a file or a folder of Parquet files (a pipe or a device cannot be read as Parquet)"
    if out.exists() or out.is_symlink():
        return f"{out} exists; remove it or name another output (the output is never overwritten)"
    if not out.parent.is_dir():
        return f"no folder {out.parent} to write {out.name} into"
    if out.resolve() == source.resolve():
        return "the output must differ from the input"
    if args.db is not None and args.scheduler is None and Path(args.db).is_dir():
        return f"{args.db} is a folder, not a database file (--db)"
    if args.db is not None and args.scheduler is None and not Path(args.db).is_file():
        return f"no database file at {args.db} (--db)"
    try:
        columns = pq.ParquetDataset(source).schema.names
    except (OSError, ValueError) as e:
        return f"cannot read {source} as Parquet: {e}"
    if not columns:
        return f"{source} holds no Parquet data"
    if args.column not in columns:
        # In the command line's words (solve_frame would name column=).
        return f"{source} has no column {args.column!r} (its columns: {', '.join(columns)}); name the column of boards with --column"
    return None


def _solve(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack:
        if args.scheduler is None:
            address = stack.enter_context(
                distributed.LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=args.workers or _cores(),
                    threads_per_worker=1,
                    processes=True,
                    # Any free port: never a clash with another cluster's.
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            )
        else:
            address = args.scheduler
        stack.enter_context(distributed.Client(address))  # type: ignore[no-untyped-call]
        started = time.perf_counter()
        # A partition per row group (pyarrow writes groups of 1 Mi rows),
        # so that every worker gets a share of one large file. Arrow types
        # throughout, so that a column of lists is written back as it came.
        frame = dd.read_parquet(args.input, split_row_groups=True, dtype_backend="pyarrow")
        answered = solve_frame(frame, args.column, args.goal, args.board, args.db, args.timeout, args.within)
        code = _write(answered, args.output, started)
    return code


def _write(answered: dd.DataFrame, out: Path, started: float) -> int:
    """Writes `answered` to `out` through a temporary folder beside it."""
    partial = out.parent / f".{out.name}.partial-{os.getpid()}"
    try:
        partial.mkdir()
        counts = answered.map_partitions(  # type: ignore[no-untyped-call]
            _write_part, str(partial), meta=_counts()
        ).compute()
        os.rename(partial, out)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    rows, unsolvable, errors = (int(counts[c].sum()) for c in ("rows", "unsolvable", "errors"))
    seconds = time.perf_counter() - started
    print(
        f"wrote {out}: {rows} rows ({unsolvable} unsolvable, {errors} not answered) in {seconds:.2f} s, "
        f"{rows / seconds:,.0f} rows/s",
        file=sys.stderr,
    )
    if errors:
        print(
            f"{PROG}: {errors} of {rows} rows could not be answered (see their error or reason column)",
            file=sys.stderr,
        )
        return 2
    return 0


def _write_part(part: pd.DataFrame, folder: str, partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """Writes one partition as `part.N.parquet`; its counts of rows,
    unsolvable rows and errors."""
    number = 0 if partition_info is None else partition_info["number"]
    # Plain Arrow types, without pandas' metadata, which pandas cannot read
    # back for a fixed-size list.
    table = pa.Table.from_pandas(part, preserve_index=False).replace_schema_metadata(None)
    # Zero-padded, so that the files sort in the rows' order. Dictionaries
    # only where values repeat: trying one on the boards and the moves
    # costs a fifth of the writing for nothing.
    path = os.path.join(folder, f"part.{number:06d}.parquet")
    pq.write_table(table, path, use_dictionary=["reason", "error"])
    counts = {
        "rows": len(part),
        "unsolvable": int((part["solvable"] == False).sum()),  # noqa: E712 (null is not False)
        # Rows that are not boards, and searches that ran out of time
        # (solvable, without moves): `query batch` counts both.
        "errors": int((part["error"].notna() | ((part["solvable"] == True) & part["moves"].isna())).sum()),  # noqa: E712
    }
    return pd.DataFrame({name: [value] for name, value in counts.items()})


def _counts() -> pd.DataFrame:
    return pd.DataFrame({name: pd.Series([], dtype="int64") for name in ("rows", "unsolvable", "errors")})


if __name__ == "__main__":
    sys.exit(main())
