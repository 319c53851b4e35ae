"""Reading a column of boards into a matrix of tiles, row by row errors kept.

A column holds strings in any form the command line reads, or lists of
tiles (a Parquet ``list`` or ``fixed_size_list`` of integers). The common
shapes (compact strings such as ``867254301``, lists of the right length)
are read in bulk with NumPy; every other row goes through the library's own
parser, so a bad row's error is the library's message, word for word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from .. import ArgumentTypeError, Board, ParseError

# The largest board written as one digit a tile ("867254301"); from 10 cells
# on, the command line separates tiles with spaces.
_COMPACT_MAX_CELLS = 9


@dataclass
class Boards:
    """The rows of a column that are boards, and why the others are not."""

    # Row numbers (0-based, in the partition) of the boards in `cells`.
    rows: npt.NDArray[np.intp]
    # One row of tiles per board, uint8, shape (len(rows), cells).
    cells: npt.NDArray[np.uint8]
    # Row number -> the command line's error text for that row.
    errors: dict[int, str]

    @staticmethod
    def empty(cells: int) -> Boards:
        return Boards(np.zeros(0, dtype=np.intp), np.zeros((0, cells), dtype=np.uint8), {})


def bad_start(message: str) -> str:
    """A bad row's error, as `query batch` writes it."""
    return f"bad start board: {message}"


def read(values: Any, board: str) -> Boards:
    """The boards of `values` (a pandas Series, or anything pyarrow reads
    as an array) on a `board` ("RxC") board."""
    cells = len(Board.goal(board).cells)
    try:
        array = _arrow(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        # Python objects pyarrow cannot type (Boards, NumPy arrays mixed
        # with lists ...): every row through the library.
        items = list(values)
        return _through_library(np.arange(len(items)), items.__getitem__, board, Boards.empty(cells))
    if pa.types.is_null(array.type):  # nothing but missing values
        return _through_library(np.arange(len(array)), lambda i: None, board, Boards.empty(cells))
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        candidates, matrix = _compact(array, cells)
    elif _is_list_of_integers(array.type):
        candidates, matrix = _lists(array, cells)
    else:
        raise ArgumentTypeError(
            f"a column of boards holds strings (such as '867254301' or "
            f"'8 6 7 2 5 4 3 0 1') or lists of tiles, not {array.type}"
        )
    good = candidates & _permutations(matrix, cells)
    if good.all():
        return Boards(np.arange(len(matrix)), matrix, {})
    bulk = Boards(np.flatnonzero(good), matrix[good], {})
    # The other rows' values fetched in one call: a pyarrow scalar per row
    # costs more than the library's parse of it.
    rows = np.flatnonzero(~good)
    values = dict(zip(rows.tolist(), array.take(pa.array(rows)).to_pylist()))
    return _through_library(rows, values.__getitem__, board, bulk)


def _through_library(rows: npt.NDArray[np.intp], value: Any, board: str, bulk: Boards) -> Boards:
    """`bulk` with rows `rows` (whose values `value(i)` gives) read by the
    library's parser, or their errors."""
    errors: dict[int, str] = {}
    found_rows = []
    found_cells = []
    for i in rows.tolist():
        v = value(i)
        if v is None or (isinstance(v, float) and np.isnan(v)):
            errors[i] = bad_start("the value is missing (null)")
        elif isinstance(v, str) and not v.strip():
            errors[i] = "the line is empty"  # as `query batch` says it
        else:
            try:
                found_cells.append(Board(v, board).cells)
                found_rows.append(i)
            except (ParseError, TypeError) as e:
                errors[i] = bad_start(str(e))
    cells = bulk.cells.shape[1]
    all_rows = np.concatenate([bulk.rows, np.array(found_rows, dtype=np.intp)])
    all_cells = np.concatenate([bulk.cells, np.array(found_cells, dtype=np.uint8).reshape(-1, cells)])
    order = np.argsort(all_rows, kind="stable")
    return Boards(all_rows[order], all_cells[order], errors)


def text(matrix: npt.NDArray[np.uint8], board: str) -> Any:
    """Rows of tiles as a pyarrow array of boards in the command line's
    form (`str(Board)`): built in bulk where that form is one digit a tile."""
    n, cells = matrix.shape
    if cells > _COMPACT_MAX_CELLS:
        return pa.array([str(Board(row, board)) for row in matrix.tolist()], type=pa.string())
    offsets = np.arange(0, (n + 1) * cells, cells, dtype=np.int32)
    digits = (matrix + ord("0")).tobytes()
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(digits))


def _arrow(values: Any) -> Any:
    """`values` as one pyarrow array (without a copy where pandas holds
    Arrow data already)."""
    array = pa.array(values, from_pandas=True)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_dictionary(array.type):
        # A pandas Categorical, or a column Parquet stores as a dictionary.
        array = array.dictionary_decode()
    return array


def _is_list_of_integers(t: Any) -> bool:
    lists = pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
    return bool(lists and pa.types.is_integer(t.value_type))


def _compact(array: Any, cells: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]:
    """Rows of exactly `cells` bytes, read as one digit a tile; the mask of
    those rows. A byte that is not a digit of a tile becomes a number that
    `_permutations` refuses."""
    n = len(array)
    matrix = np.zeros((n, cells), dtype=np.uint8)
    if cells > _COMPACT_MAX_CELLS or n == 0:
        return np.zeros(n, dtype=bool), matrix
    lengths = pc.binary_length(array).fill_null(0).to_numpy(zero_copy_only=False)
    candidates: npt.NDArray[np.bool_] = lengths == cells
    if not candidates.any():
        return candidates, matrix
    # The selected strings, back to back in the filtered array's data buffer.
    picked = array if candidates.all() else array.filter(pa.array(candidates))
    _, offsets, data = picked.buffers()
    width = np.int64 if pa.types.is_large_string(picked.type) else np.int32
    bounds = np.frombuffer(offsets, dtype=width)[picked.offset : picked.offset + len(picked) + 1]
    text = np.frombuffer(data, dtype=np.uint8)[bounds[0] : bounds[-1]]
    matrix[candidates] = (text - ord("0")).reshape(-1, cells)
    return candidates, matrix


def _lists(array: Any, cells: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]:
    """Rows that are lists of `cells` tiles of 0 to 255, as a matrix; the
    mask of those rows."""
    n = len(array)
    lengths = pc.list_value_length(array).fill_null(-1).to_numpy(zero_copy_only=False)
    candidates = lengths == cells
    matrix = np.zeros((n, cells), dtype=np.uint8)
    if not candidates.any():
        return candidates, matrix
    values = array.filter(pa.array(candidates)).flatten().to_numpy(zero_copy_only=False)
    values = values.reshape(-1, cells)
    in_range = ((values >= 0) & (values <= 255)).all(axis=1)
    rows = np.flatnonzero(candidates)
    candidates[rows[~in_range]] = False
    matrix[rows[in_range]] = values[in_range].astype(np.uint8)
    return candidates, matrix


def _permutations(matrix: npt.NDArray[np.uint8], cells: int) -> npt.NDArray[np.bool_]:
    """Rows holding each of 0 .. cells-1 once: the tiles' bits, OR-ed,
    make exactly the lowest `cells` bits. (A 16-bit shift by 16 or more
    gives 0, so a tile past 15 sets no bit and its row fails.)"""
    seen = np.zeros(len(matrix), dtype=np.uint16)
    for column in matrix.T:
        seen |= np.left_shift(np.uint16(1), column.astype(np.uint16))
    result: npt.NDArray[np.bool_] = seen == (1 << cells) - 1
    return result
