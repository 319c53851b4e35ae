"""Uniformly random solvable positions, the same for a seed whatever the
partitioning.

Position `i` comes from block `i // BLOCK`, and each block draws from its
own generator, seeded by (seed, block number). A partition draws the blocks
it overlaps and keeps its rows, so the positions depend on the seed and the
row numbers only, never on how many partitions there are.

A block is uniform permutations of the tiles (the blank anywhere); those
that cannot reach the goal get two tiles other than the blank swapped. The
swap flips the permutation's parity without moving the blank, so it turns
every unsolvable position into a solvable one, one to one: solvable
positions stay uniform.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]

from .. import Board, Database
from . import _boards, _workers

# Positions per seeded block: large enough for NumPy to draw in bulk, small
# enough that a partition boundary wastes little.
BLOCK = 1 << 14


def empty() -> pd.DataFrame:
    """The `start` column with no rows (Dask's `meta`)."""
    return pd.DataFrame({"start": pd.Series([], dtype=pd.ArrowDtype(pa.string()))})


@_workers.naming_the_worker
def starts(
    lo: int, hi: int, board: str, seed: int, goal: str | None, path: str | None, file_optional: bool = False
) -> pd.DataFrame:
    """Positions `lo` to `hi - 1` as a `start` column of boards in the
    command line's form, indexed by their numbers. `file_optional`: the
    positions are to be solved within a factor, which needs no database."""
    db = _workers.database_if_found(path, board) if file_optional else _workers.database(path, board)
    cells = len(Board.goal(board).cells)
    pieces = [np.zeros((0, cells), dtype=np.uint8)]
    for b in range(lo // BLOCK, -(-hi // BLOCK)):
        block = _block(seed, b, (board, cells), db, goal)
        pieces.append(block[max(lo - b * BLOCK, 0) : min(hi - b * BLOCK, BLOCK)])
    text = _boards.text(np.concatenate(pieces), board)
    return pd.DataFrame({"start": pd.Series(pd.arrays.ArrowExtensionArray(text), index=pd.RangeIndex(lo, hi))})


def _block(
    seed: int, number: int, board_cells: tuple[str, int], db: Database | None, goal: str | None
) -> npt.NDArray[np.uint8]:
    """Block `number`'s BLOCK solvable positions, one row of tiles each."""
    board, cells = board_cells
    rng = np.random.default_rng([seed, number])
    tiles = rng.permuted(np.tile(np.arange(cells, dtype=np.uint8), (BLOCK, 1)), axis=1)
    rows = np.flatnonzero(~_solvable(db, tiles, (board, goal)))
    # The first two cells that do not hold the blank.
    blank = np.argmax(tiles[rows] == 0, axis=1)
    first = np.where(blank == 0, 1, 0)
    second = np.where(blank <= 1, 2, 1)
    a, b = tiles[rows, first], tiles[rows, second]
    tiles[rows, first], tiles[rows, second] = b, a
    return tiles


def _solvable(
    db: Database | None, tiles: npt.NDArray[np.uint8], board_goal: tuple[str, str | None]
) -> npt.NDArray[np.bool_]:
    """Which rows can reach the goal, by the library's rule."""
    board, goal = board_goal
    if db is not None and db.kind == "complete":
        return np.asarray(db.distances(tiles, goal, threads=1)) >= 0
    # A pattern database would search for a distance; the test alone is cheap.
    return np.array([bool(Board(row, board).solvable(goal)) for row in tiles.tolist()], dtype=bool)
