"""Solving and labelling positions at scale on a Dask cluster.

An optional part of the package (``pip install "./python[dask]"``): it
needs ``dask[dataframe]``, ``distributed`` and ``pyarrow``.

- ``solve_frame(df, ...)`` adds the answer columns of ``query batch`` to a
  Dask DataFrame of positions: ``distance``, ``moves``, ``solvable``,
  ``reason``, ``nodes`` and ``error``.
- ``label_random(n, ...)`` makes ``n`` uniformly random solvable
  positions, the same for a seed whatever the partition count, answered
  the same way: a training set for a learned heuristic.
- Both take ``within=W``: each answer is then at most W times the
  shortest, with ``length`` and ``lower_bound`` columns, on any board up
  to 6x6, with the board's database where there is one and with none
  otherwise.

Every worker opens the database once and keeps it; it must find the file
at the same path (shared storage, or a copy on every node). A bad row gets
the command line's error text in ``error`` and the job goes on.
``python -m npuzzle.dask solve IN.parquet OUT.parquet`` does the same from
the shell. See docs/dask.md.
"""

from __future__ import annotations

import operator
import os
from typing import SupportsIndex

try:
    import dask.dataframe as dd
    import pandas as pd
except ImportError as _missing:  # dask.dataframe raises a plain ImportError without pandas
    raise ModuleNotFoundError(
        f"npuzzle.dask needs what is not installed ({_missing}): pip install 'npuzzle[dask]' "
        f"(dask, distributed, pandas and pyarrow)",
        name=_missing.name,
    ) from _missing

from .. import ArgumentError, ArgumentTypeError, Board, Database, ParseError, solve_within
from .._npuzzle import _timeout, _unbuildable
from .._types import _BoardLike
from . import _answer, _sampling

__all__ = ["COLUMNS", "label_random", "solve_frame"]

COLUMNS = tuple(_answer.COLUMNS)


def solve_frame(
    df: dd.DataFrame,
    column: str = "start",
    goal: _BoardLike | None = None,
    board: str | None = None,
    db: str | bytes | os.PathLike[str] | Database | None = None,
    timeout: float | None = None,
    within: float | None = None,
) -> dd.DataFrame:
    """``df`` with the answers for the boards in ``column`` added, row by row.

    Boards are strings in any form the command line reads, or lists of
    tiles, of ``board``'s size (default: the database's, where ``db`` is
    a ``Database`` or a file this process can open, else 3x3). ``goal``
    (default: the tiles in order, the blank last) is every row's goal.
    ``db`` is a database file every worker can open at that path
    (default: where the command line looks for ``board``'s, built on
    first use for boards of up to 10 cells); one that holds another board
    than ``board`` is refused here, where this process can open it. ``timeout`` (seconds, above
    0, as for ``Database.solve``) bounds each row's search on a pattern
    database; a row that runs out keeps ``solvable`` true, with where the
    search stopped in ``reason``.

    Raises ArgumentTypeError for a ``df`` that is not a Dask DataFrame or a
    ``column`` of numbers, ArgumentError for a ``column`` it lacks or an
    answer column it has already, and what ``Database`` raises for the
    other arguments: npuzzle.Error, each of them.
    """
    if not isinstance(df, dd.DataFrame):
        advice = "; make one with dask.dataframe.from_pandas(df, npartitions=N)" if isinstance(df, pd.DataFrame) else ""
        raise ArgumentTypeError(f"df must be a Dask DataFrame, not {type(df).__module__}.{type(df).__qualname__}{advice}")
    if not isinstance(column, str):
        raise ArgumentTypeError(f"column= names a column of boards, as a str, not {type(column).__name__}")
    if column not in df.columns:
        raise ArgumentError(
            f"the frame has no column {column!r} (its columns: {', '.join(map(str, df.columns))}); "
            f"name the column of boards with column="
        )
    taken = [c for c in _answer.columns(within) if c in df.columns]
    if taken:
        raise ArgumentError(
            f"the frame already has the column{'s' if len(taken) > 1 else ''} "
            f"{', '.join(map(repr, taken))} that solve_frame adds; drop or rename "
            f"{'them' if len(taken) > 1 else 'it'} first"
        )
    if pd.api.types.is_numeric_dtype(df._meta[column].dtype):
        raise ArgumentTypeError(
            f"column {column!r} holds {df._meta[column].dtype}; boards are strings (such as '867254301' "
            f"or '8 6 7 2 5 4 3 0 1') or lists of tiles"
        )
    board, goal_text, path = _arguments(board, goal, db, timeout, within)
    meta = df._meta.join(_answer.empty(df._meta.index, within))
    answered: dd.DataFrame = df.map_partitions(  # type: ignore[no-untyped-call]
        _answer.answer,
        column,
        board,
        goal_text,
        path,
        timeout,
        within,
        meta=meta,
        align_dataframes=False,
    )
    return answered


def label_random(
    n: SupportsIndex,
    board: str | None = None,
    seed: SupportsIndex = 0,
    partitions: SupportsIndex = 1,
    *,
    goal: _BoardLike | None = None,
    db: str | bytes | os.PathLike[str] | Database | None = None,
    timeout: float | None = None,
    within: float | None = None,
) -> dd.DataFrame:
    """``n`` uniformly random positions that can reach ``goal``, in a
    ``start`` column indexed 0 to n-1, with the columns of ``solve_frame``.

    The positions depend on ``seed`` alone, not on ``partitions`` (how
    many pieces the frame is cut into: at least the workers' threads, to
    keep them all busy). ``board``, ``db`` and ``within`` as for
    ``solve_frame``. ``n``, ``seed`` and ``partitions`` are whole numbers
    (NumPy's integers too): ArgumentTypeError for another type,
    ArgumentError out of range.
    """
    # n: rows of a pandas int64 index; partitions: one Dask task each, and a
    # million is already far more than any cluster keeps busy.
    rows = _whole("n", n, 1, 2**63 - 1)
    seed_value = _whole("seed", seed, 0, 2**64 - 1)
    pieces = _whole("partitions", partitions, 1, 1_000_000)
    if pieces > rows:
        raise ArgumentError(f"partitions ({pieces}) must be at most n ({rows}): a partition holds one position or more")
    board, goal_text, path = _arguments(board, goal, db, timeout, within)
    bounds = [rows * k // pieces for k in range(pieces + 1)]
    starts = dd.from_map(  # type: ignore[no-untyped-call]
        _sampling.starts,
        bounds[:-1],
        bounds[1:],
        args=[board, seed_value, goal_text, path, within is not None],
        meta=_sampling.empty(),
        divisions=[*bounds[:-1], rows - 1],
        enforce_metadata=False,
    )
    return solve_frame(starts, "start", goal_text, board, path, timeout, within)


def _whole(name: str, value: object, least: int, most: int) -> int:
    """``value`` as a whole number from ``least`` to ``most``, as every
    whole-number argument of the package takes it: an int or NumPy's
    integers, not a bool."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise ArgumentTypeError(f"{name} must be a whole number, not a bool ({_shown(value)})")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentTypeError(
            f"{name} must be a whole number from {least} to {most}, not {type(value).__name__} ({_shown(value)})"
        ) from None
    if not least <= number <= most:
        raise ArgumentError(f"{name} must be a whole number from {least} to {most}, not {_shown(number)}")
    return number


def _arguments(
    board: str | None,
    goal: _BoardLike | None,
    db: str | bytes | os.PathLike[str] | Database | None,
    timeout: float | None,
    within: float | None = None,
) -> tuple[str, str | None, str | None]:
    """The board, the goal as text and the database's path, checked on the
    client so that a wrong argument fails here, not on every worker: the
    board is the database's where none is given, and a database of
    another board is refused (where this process can open it)."""
    if db is not None and not isinstance(db, (Database, str, bytes, os.PathLike)):
        raise ArgumentTypeError(f"db= is a Database or a file path (a str, bytes or an os.PathLike), not {type(db).__name__}")
    if db is not None and not isinstance(db, Database):
        db = os.fsdecode(db)  # a name that is not UTF-8 as Database gives it back
        if not db:
            raise ArgumentError("db= is empty: name a file, or leave db= out to use the usual places")
    if isinstance(db, Database):
        opened: Database | None = db
    elif db is not None and os.path.isfile(db):
        opened = Database(db)
    else:
        opened = None  # workers may see a file this process does not
    if board is None:
        board = opened.board if opened is not None else "3x3"
    # As the library reads it ("3X3", " 3x3"); ParseError names a bad size.
    board = Board.goal(board).size
    if opened is not None and opened.board != board:
        raise ArgumentError(
            f"board={board!r}, but {opened.path} holds {opened.board} boards; leave out board= "
            f"(the database's is taken) or pass a {board} database"
        )
    why = _unbuildable(board)
    if within is None and db is None and why is not None:
        raise ArgumentError(f"{why}; pass within= (for example within=2) to solve within a factor of the shortest")
    if within is not None:
        # The library's own check of W, on a board that takes no search.
        solve_within(Board.goal(board), within)
        if opened is not None and opened.metric != "stm":
            raise ArgumentError(
                f"within counts single-tile moves, and {opened.path} counts multi-tile moves; "
                f"pass a single-tile database, or none"
            )
    try:
        goal_text = None if goal is None else str(Board(goal, board))
    except ParseError as e:
        # Named as every other face names it.
        shown = f'"{_cut(goal)}"' if isinstance(goal, str) else ""
        raise ParseError(f"bad goal board {shown}: {e}".replace(" :", ":")) from None
    _timeout(timeout)  # the one rule of every timeout=, in its words
    if db is None:
        return board, goal_text, None
    # Absolute, so that workers started elsewhere read the file meant here.
    return board, goal_text, db.path if isinstance(db, Database) else os.path.abspath(os.fspath(db))


def _cut(text: str) -> str:
    """`text` as a message quotes it, as the library does: its first 60
    characters, and a lone surrogate (which no output can encode) escaped."""
    cut = text if len(text) <= 60 else text[:60] + "…"
    return cut.encode("utf-8", "backslashreplace").decode("utf-8")


def _shown(value: object) -> str:
    """A refused value as a message shows it: its repr, cut short, or the
    size of an int past the digits Python turns into text."""
    if isinstance(value, int) and value.bit_length() > 1000:
        return f"a number of {value.bit_length()} bits"
    return _cut(repr(value))
