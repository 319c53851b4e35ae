"""Exact answers to sliding-tile puzzles, by lookup instead of search.

A precomputed database holds every position's distance to the goal and a
move one step closer, so every answer is optimal and instant::

    >>> import npuzzle
    >>> npuzzle.solve("867254301").distance
    31
    >>> npuzzle.distance([[1, 2, 3], [4, 5, 6], [7, 0, 8]])
    1

The module-level functions use the 3x3 database, built into the per-user
data folder on first use (about 20 ms). ``npuzzle.Database(board="2x4")``
opens (or builds) another board's; 12-cell boards are built on request with
``npuzzle.build("3x4")``.

The 15- and 24-puzzles (4x4, 3x5, 5x3, 5x5, 4x5, 5x4) have pattern
databases instead, built on request with ``npuzzle.build("4x4")`` and
searched (IDA*): ``solve``, ``distance``, ``best_moves``, ``check`` and the
batches work on them, with ``timeout=``, and ``random(distance)`` finds
positions by random walks; what needs every position's distance
(``histogram``, ``count_solutions``, ``solutions``) raises
``NeedsCompleteTablesError``.

Any board up to 6x6 (the 24- and 35-puzzles too) is solved within a
factor of the shortest, with no database file, by
``npuzzle.solve_within(start, 1.5, board="5x5")``, and many positions at
once by ``npuzzle.solve_many_within(positions, 1.5, board="5x5")``;
``npuzzle.heuristics(start, board="6x6", timeout=10)`` gives one
position's heuristics beside its distance, or the bound its search proved.

Moves are the blank's directions (``U``, ``D``, ``L``, ``R``), as the
``query`` command line writes them; a letter with a count is a slide of
that many tiles (``R2``), as multi-tile solutions are written.
"""

from __future__ import annotations

# Imported under private names (and `annotations` deleted below), so that
# dir(npuzzle) and tab completion show the API alone.
import importlib.metadata as _metadata
import threading as _threading
import typing as _typing

from ._npuzzle import (
    AUTO_BUILD_MAX_CELLS,
    ArgumentError,
    ArgumentTypeError,
    Board,
    Check,
    Database,
    DatabaseError,
    Error,
    IllegalMoveError,
    MissingTableError,
    NeedsCompleteTablesError,
    ParseError,
    SearchTimeoutError,
    Solution,
    Solvability,
    UnsolvableError,
    _default_database,
    _timeout,
    _uniform,
    build,
    heuristics,
    locate,
    solve_many_within,
    solve_within,
)

# The names the annotations use, at run time too (typing.get_type_hints).
from ._types import _ArrayLike, _BoardLike, _Positions, _Steps

del annotations  # the __future__ feature, bound as a name by its import

try:
    __version__ = _metadata.version("npuzzle")
except _metadata.PackageNotFoundError:  # imported from a source folder, not installed
    __version__ = "unknown"

__all__ = [
    "AUTO_BUILD_MAX_CELLS",
    "ArgumentError",
    "ArgumentTypeError",
    "Board",
    "Check",
    "Database",
    "DatabaseError",
    "Error",
    "IllegalMoveError",
    "MissingTableError",
    "NeedsCompleteTablesError",
    "ParseError",
    "SearchTimeoutError",
    "Solution",
    "Solvability",
    "UnsolvableError",
    "best_moves",
    "build",
    "check",
    "compare",
    "count_solutions",
    "default_database",
    "distance",
    "distances",
    "heuristics",
    "histogram",
    "locate",
    "random",
    "solutions",
    "solvable",
    "solve",
    "solve_many",
    "solve_within",
    "solve_many_within",
]

_default: Database | None = None
_lock = _threading.Lock()


def default_database() -> Database:
    """The 3x3 database the module-level functions use, opened (or built)
    on first use. Raises DatabaseError when it cannot be (a damaged file,
    or ``NPUZZLE_DB`` naming a file of another board: the message says).

    >>> npuzzle.default_database().board
    '3x3'
    """
    global _default
    if _default is None:
        with _lock:
            if _default is None:
                _default = _default_database()
    return _default


def solve(
    start: _BoardLike, goal: _BoardLike | None = None, *, within: _typing.SupportsFloat | None = None
) -> Solution:
    """One shortest solution on the 3x3 board (see ``Database.solve``); with
    ``within=W``, one at most W times the shortest, with its ``lower_bound``.
    Raises ParseError (a board that cannot be read), ArgumentTypeError (not a
    board at all), UnsolvableError, ArgumentError (a W outside 1 to 100);
    DatabaseError when the 3x3 database cannot be opened.

    >>> npuzzle.solve("123468750").moves
    'ULDR'
    """
    return default_database().solve(start, goal, within=within)


def distance(start: _BoardLike, goal: _BoardLike | None = None) -> int:
    """The fewest moves from ``start`` to ``goal`` on the 3x3 board.
    Raises ParseError (a board that cannot be read), ArgumentTypeError (not a
    board at all), UnsolvableError; DatabaseError when the 3x3 database cannot
    be opened.

    >>> npuzzle.distance("867254301")
    31
    """
    return default_database().distance(start, goal)


def solvable(start: _BoardLike, goal: _BoardLike | None = None) -> Solvability:
    """Whether ``start`` can reach ``goal``, with the reason when not.
    Raises ParseError (a board that cannot be read), ArgumentTypeError (not a
    board at all); DatabaseError when the 3x3 database cannot be opened.

    >>> bool(npuzzle.solvable("213456780"))
    False
    """
    return default_database().solvable(start, goal)


def best_moves(position: _BoardLike, goal: _BoardLike | None = None) -> list[str]:
    """Every move that leads one step closer to ``goal``.
    Raises ParseError (a board that cannot be read), ArgumentTypeError (not a
    board at all), UnsolvableError; DatabaseError when the 3x3 database cannot
    be opened.

    >>> npuzzle.best_moves("105432786")
    ['D', 'R']
    """
    return default_database().best_moves(position, goal)


def count_solutions(start: _BoardLike, goal: _BoardLike | None = None) -> int:
    """How many distinct shortest solutions there are.
    Raises ParseError (a board that cannot be read), ArgumentTypeError (not a
    board at all), UnsolvableError; DatabaseError when the 3x3 database cannot
    be opened.

    >>> npuzzle.count_solutions("867254301")
    40
    """
    return default_database().count_solutions(start, goal)


def solutions(start: _BoardLike, goal: _BoardLike | None = None, limit: _typing.SupportsIndex = 10) -> list[str]:
    """Up to ``limit`` shortest solutions, in alphabetical order.
    Raises ParseError (a board that cannot be read), ArgumentTypeError,
    UnsolvableError, ArgumentError (a negative ``limit``); DatabaseError when
    the 3x3 database cannot be opened.

    >>> npuzzle.solutions("105432786")
    ['DRULDRD', 'RDLURDD']
    """
    return default_database().solutions(start, goal, limit)


def histogram(goal: _BoardLike | None = None) -> list[int]:
    """How many 3x3 positions lie at each distance from ``goal``.
    Raises ParseError (a goal that cannot be read), ArgumentTypeError;
    DatabaseError when the 3x3 database cannot be opened.

    >>> len(npuzzle.histogram())
    32
    """
    return default_database().histogram(goal)


def random(
    distance: _typing.SupportsIndex | range | str | None = None,
    count: _typing.SupportsIndex = 1,
    seed: _typing.SupportsIndex | None = None,
    goal: _BoardLike | None = None,
    *,
    board: str | None = None,
    timeout: _typing.SupportsFloat | None = None,
) -> list[Board]:
    """``count`` distinct 3x3 positions drawn uniformly at ``distance``
    (without it, ``count`` drawn uniformly and independently from every
    position, so a large draw repeats some, as ``Database.random`` draws them).
    With ``board="RxC"``: that board's positions, at ``distance`` from its
    database (``Database(board=...)``; on pattern databases found by walks,
    within ``timeout`` seconds as ``Database.random`` takes it), or without
    ``distance`` drawn uniformly with no database at all, on any board up
    to 6x6, as ``query --board RxC random`` draws them.
    Raises ArgumentError (no position at ``distance``, a ``count`` below 1 or
    past the positions at ``distance``, a ``seed`` outside 0 to 2**64 - 1),
    ArgumentTypeError, ParseError (the goal, the board); DatabaseError when
    the database cannot be opened.

    >>> npuzzle.distance(npuzzle.random(20, seed=7)[0])
    20
    >>> bool(npuzzle.random(seed=1, board="6x6")[0].solvable())
    True
    """
    if board is None:
        return default_database().random(distance, count, seed, goal, timeout=timeout)
    if distance is None:
        _timeout(timeout)  # checked as everywhere, though nothing searches
        return _uniform(board, count, seed, goal)
    return Database(board=board).random(distance, count, seed, goal, timeout=timeout)


def check(start: _BoardLike, moves: _Steps, goal: _BoardLike | None = None) -> Check:
    """Grades a 3x3 solution against the optimum.
    Raises ParseError (a board or move that cannot be read), ArgumentTypeError,
    UnsolvableError; DatabaseError when the 3x3 database cannot be opened.

    >>> npuzzle.check("123468750", "ULDR").is_optimal
    True
    """
    return default_database().check(start, moves, goal)


def compare(
    start: _BoardLike,
    goal: _BoardLike | None = None,
    *,
    max_nodes: _typing.SupportsIndex | None = None,
    depth_limit: _typing.SupportsIndex | None = None,
) -> dict[str, _typing.Any]:
    """The classic searches of a course run on a 3x3 position and checked
    against the database, as ``query compare --json`` reports them (see
    ``Database.compare``). Raises ParseError, ArgumentError,
    ArgumentTypeError, UnsolvableError; DatabaseError when the 3x3 database
    cannot be opened.

    >>> [(r["algorithm"], r["length"]) for r in npuzzle.compare("123468750")["algorithms"]][:3]
    [('bfs', 4), ('dfs', 30), ('iddfs', 4)]
    """
    return default_database().compare(
        start, goal, max_nodes=max_nodes, depth_limit=depth_limit
    )


@_typing.overload
def distances(positions: _ArrayLike, goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None) -> _typing.Any: ...
@_typing.overload
def distances(
    positions: _typing.Iterable[_BoardLike], goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None
) -> list[int | None]: ...
def distances(
    positions: _Positions, goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None
) -> _typing.Any:
    """Distances of many 3x3 positions at once (see ``Database.distances``).
    Raises ParseError (``positions[i]: ...``), ArgumentTypeError, ArgumentError
    (``threads`` past 4 per core); Ctrl-C raises KeyboardInterrupt;
    DatabaseError when the 3x3 database cannot be opened.

    >>> npuzzle.distances(["123456708", "123456780"])
    [1, 0]
    """
    return default_database().distances(positions, goal, threads=threads)


@_typing.overload
def solve_many(positions: _ArrayLike, goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None) -> _typing.Any: ...
@_typing.overload
def solve_many(
    positions: _typing.Iterable[_BoardLike], goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None
) -> list[str | None]: ...
def solve_many(
    positions: _Positions, goal: _BoardLike | None = None, *, threads: _typing.SupportsIndex | None = None
) -> _typing.Any:
    """Shortest solutions of many 3x3 positions at once.
    Raises ParseError (``positions[i]: ...``), ArgumentTypeError, ArgumentError
    (``threads`` past 4 per core); Ctrl-C raises KeyboardInterrupt;
    DatabaseError when the 3x3 database cannot be opened.

    >>> npuzzle.solve_many(["123456708"])
    ['R']
    """
    return default_database().solve_many(positions, goal, threads=threads)
