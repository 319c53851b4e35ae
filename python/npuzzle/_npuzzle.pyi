"""Type stubs of the compiled module npuzzle._npuzzle (checked by stubtest)."""

from collections.abc import Iterable, Iterator
from os import PathLike
from typing import Any, Literal, SupportsFloat, SupportsIndex, final, overload

# The forms arguments take, defined once for the stub and for run time.
from ._types import _ArrayLike, _BoardLike, _Moves, _Positions, _Steps

_Heuristic = Literal["misplaced", "manhattan", "linear-conflict", "manhattan+blank"]

__all__ = [
    "Error",
    "ParseError",
    "UnsolvableError",
    "IllegalMoveError",
    "DatabaseError",
    "MissingTableError",
    "NeedsCompleteTablesError",
    "SearchTimeoutError",
    "ArgumentError",
    "ArgumentTypeError",
    "Board",
    "Database",
    "Solution",
    "Solvability",
    "Check",
    "build",
    "locate",
    "_unbuildable",
    "_timeout",
    "_cores",
    "_uniform",
    "_default_database",
    "solve_within",
    "heuristics",
    "solve_many_within",
    "AUTO_BUILD_MAX_CELLS",
]

AUTO_BUILD_MAX_CELLS: int

# Every `timeout: SupportsFloat | None` (a float, or NumPy's, a Fraction, a
# Decimal) takes what query's --timeout takes: seconds
# above 0 (1e-9 at least) and at most 1e9; None is no limit. Whole numbers
# (counts, seeds, limits, threads) take any SupportsIndex: NumPy's integers.

class Error(Exception): ...
class ParseError(Error, ValueError): ...

class UnsolvableError(Error, ValueError):
    reason: str

class IllegalMoveError(Error, ValueError): ...
class DatabaseError(Error, OSError): ...
class MissingTableError(DatabaseError): ...
class NeedsCompleteTablesError(Error): ...
class SearchTimeoutError(Error, TimeoutError):
    bound: int
    nodes: int
    nodes_expanded: int
    # A batch's: what the call would have returned, the unanswered positions
    # as the unsolvable are; a draw's: the positions found; None on a single
    # position's error.
    answers: Any
    unanswered: list[int] | None

class ArgumentError(Error, ValueError):
    # A draw's that fell short: the positions found before it; None otherwise.
    answers: list[Board] | None
class ArgumentTypeError(Error, TypeError): ...

@final
class Board:
    def __new__(cls, tiles: _BoardLike, board: str | None = None) -> Board: ...
    @staticmethod
    def goal(board: str = "3x3") -> Board: ...
    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def size(self) -> str: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def blank(self) -> int: ...
    def tolist(self) -> list[list[int]]: ...
    def grid(self) -> str: ...
    def moves(self) -> str: ...
    def apply(self, moves: _Moves) -> Board: ...
    def solvable(self, goal: _BoardLike | None = None) -> Solvability: ...
    def tile_moved_by(self, move: str) -> int | None: ...
    def _repr_html_(self) -> str: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[int]: ...
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[str, str]]: ...

@final
class Solution:
    @property
    def moves(self) -> str: ...
    @property
    def single_tile_moves(self) -> str: ...
    @property
    def metric(self) -> str: ...
    @property
    def distance(self) -> int | None: ...
    @property
    def length(self) -> int: ...
    @property
    def lower_bound(self) -> int: ...
    @property
    def within(self) -> float | None: ...
    @property
    def heuristic(self) -> str | None: ...
    @property
    def tiles(self) -> list[int]: ...
    @property
    def start(self) -> Board: ...
    @property
    def goal(self) -> Board: ...
    @property
    def nodes(self) -> int: ...
    @property
    def nodes_expanded(self) -> int: ...
    def boards(self) -> list[Board]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[Any]]: ...

@final
class Solvability:
    @property
    def solvable(self) -> bool: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def explanation(self) -> str: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[Any]]: ...

@final
class Check:
    @property
    def legal(self) -> bool: ...
    @property
    def illegal_move(self) -> int | None: ...
    @property
    def reaches_goal(self) -> bool: ...
    @property
    def length(self) -> int: ...
    @property
    def optimal(self) -> int: ...
    @property
    def excess(self) -> int | None: ...
    @property
    def end(self) -> Board: ...
    @property
    def remaining(self) -> int: ...
    @property
    def away(self) -> list[int]: ...
    @property
    def reversed_reaches_goal(self) -> bool: ...
    @property
    def goal_reached_after(self) -> int | None: ...
    @property
    def is_optimal(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[Any]]: ...

@final
class Database:
    def __new__(
        cls,
        path: str | bytes | PathLike[str] | PathLike[bytes] | None = None,
        board: str | None = None,
        metric: str | None = None,
    ) -> Database: ...
    @property
    def metric(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def board(self) -> str: ...
    @property
    def goal(self) -> Board: ...
    @property
    def kind(self) -> str: ...
    @property
    def partition(self) -> str | None: ...
    def board_of(self, position: _BoardLike) -> Board: ...
    def verify(self) -> dict[str, Any]: ...
    def distance(
        self, start: _BoardLike, goal: _BoardLike | None = None, *, timeout: SupportsFloat | None = None
    ) -> int: ...
    def solve(
        self,
        start: _BoardLike,
        goal: _BoardLike | None = None,
        *,
        timeout: SupportsFloat | None = None,
        within: SupportsFloat | None = None,
    ) -> Solution: ...
    def solvable(self, start: _BoardLike, goal: _BoardLike | None = None) -> Solvability: ...
    def best_moves(
        self, position: _BoardLike, goal: _BoardLike | None = None, *, timeout: SupportsFloat | None = None
    ) -> list[str]: ...
    def count_solutions(self, start: _BoardLike, goal: _BoardLike | None = None) -> int: ...
    def solutions(
        self, start: _BoardLike, goal: _BoardLike | None = None, limit: SupportsIndex = 10
    ) -> list[str]: ...
    def histogram(self, goal: _BoardLike | None = None) -> list[int]: ...
    def stats(self, goal: _BoardLike | None = None) -> dict[str, Any]: ...
    def heuristics_survey(self, goal: _BoardLike | None = None) -> dict[str, Any]: ...
    def random(
        self,
        distance: SupportsIndex | range | str | None = None,
        count: SupportsIndex = 1,
        seed: SupportsIndex | None = None,
        goal: _BoardLike | None = None,
        *,
        timeout: SupportsFloat | None = None,
    ) -> list[Board]: ...
    def check(
        self,
        start: _BoardLike,
        moves: _Steps,
        goal: _BoardLike | None = None,
        *,
        timeout: SupportsFloat | None = None,
    ) -> Check: ...
    def heuristics(
        self,
        start: _BoardLike,
        goal: _BoardLike | None = None,
        *,
        timeout: SupportsFloat | None = None,
    ) -> dict[str, Any]: ...
    def search_costs(
        self,
        distance: SupportsIndex | range | str,
        count: SupportsIndex | None = None,
        seed: SupportsIndex | None = None,
        *,
        goal: _BoardLike | None = None,
        max_nodes: SupportsIndex | None = None,
        depth_limit: SupportsIndex | None = None,
    ) -> dict[str, Any]: ...
    def compare(
        self,
        start: _BoardLike,
        goal: _BoardLike | None = None,
        *,
        max_nodes: SupportsIndex | None = None,
        depth_limit: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
    ) -> dict[str, Any]: ...
    def play(self, start: _BoardLike, moves: _Moves) -> Board: ...
    # A NumPy array in, a NumPy array out (typed Any: NumPy is optional);
    # an iterable of boards in, a list out; either, whichever comes.
    @overload
    def distances(
        self,
        positions: _ArrayLike,
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
    ) -> Any: ...
    @overload
    def distances(
        self,
        positions: Iterable[_BoardLike],
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
    ) -> list[int | None]: ...
    @overload
    def distances(
        self,
        positions: _Positions,
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
    ) -> Any: ...
    @overload
    def estimates(
        self,
        positions: _ArrayLike,
        goal: _BoardLike | None = None,
        *,
        heuristic: _Heuristic | None = None,
        threads: SupportsIndex | None = None,
    ) -> Any: ...
    @overload
    def estimates(
        self,
        positions: Iterable[_BoardLike],
        goal: _BoardLike | None = None,
        *,
        heuristic: _Heuristic | None = None,
        threads: SupportsIndex | None = None,
    ) -> list[int | None]: ...
    @overload
    def estimates(
        self,
        positions: _Positions,
        goal: _BoardLike | None = None,
        *,
        heuristic: _Heuristic | None = None,
        threads: SupportsIndex | None = None,
    ) -> Any: ...
    @overload
    def solve_many(
        self,
        positions: _ArrayLike,
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
        within: SupportsFloat | None = None,
    ) -> Any: ...
    @overload
    def solve_many(
        self,
        positions: Iterable[_BoardLike],
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
        within: SupportsFloat | None = None,
    ) -> list[str | None]: ...
    @overload
    def solve_many(
        self,
        positions: _Positions,
        goal: _BoardLike | None = None,
        *,
        threads: SupportsIndex | None = None,
        timeout: SupportsFloat | None = None,
        within: SupportsFloat | None = None,
    ) -> Any: ...
    def _solve_many_packed(
        self, positions: _Positions, goal: _BoardLike | None = None, *, threads: SupportsIndex | None = None
    ) -> tuple[bytes, bytes, bytes]: ...
    def __reduce__(self) -> tuple[Any, tuple[str, str]]: ...

def build(
    board: str = "3x3",
    path: str | bytes | PathLike[str] | PathLike[bytes] | None = None,
    *,
    partition: str | None = None,
    all_goals: bool = False,
    blanks: Iterable[SupportsIndex] | None = None,
    progress: bool | None = None,
    metric: str = "stm",
) -> str: ...
def locate(board: str = "3x3", *, metric: str = "stm") -> str: ...
def _unbuildable(board: str) -> str | None: ...
def _timeout(timeout: SupportsFloat | None = None) -> float | None: ...
def _cores() -> int: ...
def _uniform(
    board: str,
    count: SupportsIndex | None = None,
    seed: SupportsIndex | None = None,
    goal: _BoardLike | None = None,
) -> list[Board]: ...
def _default_database() -> Database: ...
def heuristics(
    start: _BoardLike,
    goal: _BoardLike | None = None,
    *,
    board: str | None = None,
    timeout: SupportsFloat | None = None,
) -> dict[str, Any]: ...
def solve_within(
    start: _BoardLike,
    within: SupportsFloat,
    goal: _BoardLike | None = None,
    *,
    board: str | None = None,
    timeout: SupportsFloat | None = None,
) -> Solution: ...
def solve_many_within(
    positions: _Positions,
    within: SupportsFloat,
    goal: _BoardLike | None = None,
    *,
    board: str | None = None,
    threads: SupportsIndex | None = None,
    timeout: SupportsFloat | None = None,
) -> list[Solution | None]: ...
