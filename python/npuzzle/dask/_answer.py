"""Answering one partition: a pandas DataFrame in, the same rows out with
the answer columns of `query batch` added.

Complete tables answer the whole partition in one `solve_many` call, with
the GIL released. Pattern databases search: each row is one `solve`, which
releases the GIL and spreads its search over the cores, and reports its
nodes and stops at `timeout` for that row alone, as `query batch
--timeout` does; a partition-wide `solve_many` could do neither. With
`within`, each row is one search within that factor of the shortest
(`solve(..., within=)`, or `solve_within` where the board has no database
file), and two more columns say its length and the lower bound that
proves it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from .. import Board, Database, SearchTimeoutError, Solution, UnsolvableError, solve_within
from . import _boards, _workers

# The columns added, in order, with their Arrow types. `distance` and
# `moves` are null where there is no answer; `solvable` and `reason` say
# why (a search that ran out of time is solvable, with a reason that starts
# `timed out`, as `query batch` writes it); `nodes` is the search's count
# where one ran (null for a lookup); `error` is the command line's text for
# a row that is not a board.
COLUMNS: dict[str, Any] = {
    "distance": pa.int32(),
    "moves": pa.string(),
    "solvable": pa.bool_(),
    "reason": pa.string(),
    "nodes": pa.int64(),
    "error": pa.string(),
}


# Added after those with `within`: the solution's length, and the lower
# bound on the shortest that proves it (for a search that ran out of time,
# the bound it reached). `distance` is then null unless the bound meets the
# length, as `query batch --within --format csv` writes it.
WITHIN_COLUMNS: dict[str, Any] = {"length": pa.int32(), "lower_bound": pa.int32()}


def columns(within: float | None) -> dict[str, Any]:
    """The columns added, with or without `within`."""
    return COLUMNS if within is None else {**COLUMNS, **WITHIN_COLUMNS}


def empty(index: pd.Index | None = None, within: float | None = None) -> pd.DataFrame:
    """The added columns with no rows (Dask's `meta`)."""
    return pd.DataFrame(
        {name: pd.Series([], dtype=pd.ArrowDtype(t)) for name, t in columns(within).items()},
        index=index,
    )


@_workers.naming_the_worker
def answer(
    part: pd.DataFrame,
    column: str,
    board: str,
    goal: str | None,
    path: str | None,
    timeout: float | None,
    within: float | None = None,
) -> pd.DataFrame:
    """`part` with the answer columns of the boards in `column` added."""
    db = _workers.database(path, board) if within is None else _workers.database_if_found(path, board)
    boards = _boards.read(part[column], board)
    n = len(part)
    nodes: npt.NDArray[np.int64] | None = None
    timed_out: dict[int, str] = {}
    bounds: npt.NDArray[np.int32] | None = None
    if within is None and db is not None and db.kind == "complete":
        moves_column = _look_up(db, boards, goal, n)
    else:
        moves, nodes, timed_out, bounds = _search(_solver(db, board, goal, timeout, within), boards, timeout, n)
        moves_column = pa.array(moves, type=pa.string(), from_pandas=True)
    answered = np.zeros(n, dtype=bool)
    answered[boards.rows] = True
    solved = pc.is_valid(moves_column).to_numpy(zero_copy_only=False)
    # A search that ran out of time proved nothing but solvability.
    solvable = solved.copy()
    solvable[list(timed_out)] = True
    searched = solvable if nodes is not None else solved
    reasons = _reasons(boards, np.flatnonzero(answered & ~solvable), board, goal)
    lengths = _lengths(moves_column, slides=db is not None and db.metric == "mtm")
    added = {
        "distance": lengths,
        "moves": moves_column,
        "solvable": pa.array(solvable, mask=~answered),
        "reason": _strings(n, {**reasons, **timed_out}),
        "nodes": pa.nulls(n, pa.int64()) if nodes is None else pa.array(nodes, mask=~searched),
        "error": _strings(n, boards.errors),
    }
    if within is not None:
        bound_column = pa.array(bounds, mask=~searched)
        # The length is the distance only where the bound proves it shortest.
        added["distance"] = pc.if_else(pc.equal(lengths, bound_column), lengths, pa.nulls(n, pa.int32()))
        added["length"] = lengths
        added["lower_bound"] = bound_column
    out = part.copy(deep=False)
    for name, values in added.items():
        out[name] = pd.Series(pd.arrays.ArrowExtensionArray(values), index=part.index)
    return out


def _look_up(db: Database, boards: _boards.Boards, goal: str | None, n: int) -> Any:
    """Each row's moves as an Arrow string column (null where unsolvable or
    not a board), from complete tables in one batch."""
    if len(boards.rows) == 0:
        return pa.nulls(n, pa.string())
    # One thread: a worker runs one task per thread at once. The answers
    # come as an Arrow column's buffers: a Python string per row would cost
    # more than the lookups.
    offsets, letters, valid = db._solve_many_packed(boards.cells, goal, threads=1)
    count = len(boards.rows)
    buffers = [pa.py_buffer(valid), pa.py_buffer(offsets), pa.py_buffer(letters)]
    answers = pa.Array.from_buffers(pa.large_string(), count, buffers).cast(pa.string())
    if count == n:
        return answers
    # Rows that are not boards get no answer: null, through a take.
    where = np.full(n, -1, dtype=np.int64)
    where[boards.rows] = np.arange(count)
    return answers.take(pa.array(where, mask=where < 0))


def _solver(
    db: Database | None, board: str, goal: str | None, timeout: float | None, within: float | None
) -> Callable[[list[int]], Solution]:
    """How one row is searched: `db.solve`, within `within` where given, or
    with no file at all (`solve_within`) where `db` is None."""
    if db is None:
        assert within is not None, "only a search within a factor needs no file"
        return lambda cells: solve_within(cells, within, goal, board=board, timeout=timeout)
    return lambda cells: db.solve(cells, goal, timeout=timeout, within=within)


def _search(
    solve: Callable[[list[int]], Solution], boards: _boards.Boards, timeout: float | None, n: int
) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.int64], dict[int, str], npt.NDArray[np.int32]]:
    """Each row's moves, nodes and lower bound from a search of its own
    (`solve`), and the rows whose search ran out of time, with their reason
    in `query batch`'s words (their bound: the one the search reached)."""
    moves = np.full(n, None, dtype=object)
    nodes = np.zeros(n, dtype=np.int64)
    bounds = np.zeros(n, dtype=np.int32)
    timed_out: dict[int, str] = {}
    for i, cells in zip(boards.rows.tolist(), boards.cells.tolist()):
        try:
            solution = solve(cells)
        except UnsolvableError:
            continue
        except SearchTimeoutError as e:
            timed_out[i] = f"timed out after {timeout} s (timeout=): stopped at bound {e.bound} after {e.nodes} nodes"
            nodes[i], bounds[i] = e.nodes, e.bound
            continue
        moves[i], nodes[i], bounds[i] = solution.moves, solution.nodes, solution.lower_bound
    return moves, nodes, timed_out, bounds


def _lengths(moves: Any, slides: bool) -> Any:
    """Each row's moves counted: its letters, or under the multi-tile metric
    its slides (`U L D R2`, written apart by spaces)."""
    if not slides:
        return pc.cast(pc.utf8_length(moves), pa.int32())
    words = pc.add(pc.count_substring(moves, " "), 1)
    return pc.cast(pc.if_else(pc.equal(moves, ""), 0, words), pa.int32())


def _strings(n: int, values: Mapping[int, str | None]) -> Any:
    """A string column of `n` rows, null but where `values` says."""
    if not values:
        return pa.nulls(n, pa.string())
    column = np.full(n, None, dtype=object)
    column[list(values)] = list(values.values())
    return pa.array(column, type=pa.string(), from_pandas=True)


def _reasons(
    boards: _boards.Boards, rows: npt.NDArray[np.intp], board: str, goal: str | None
) -> dict[int, str | None]:
    """Why the boards of partition rows `rows` cannot reach the goal (the
    library's parity rule, which needs no database), their tiles found in
    one search of the rows read."""
    found = np.searchsorted(boards.rows, rows)
    return {
        row: Board(cells, board).solvable(goal).reason
        for row, cells in zip(rows.tolist(), boards.cells[found].tolist())
    }
