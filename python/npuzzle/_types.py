"""The forms of boards, moves and positions that npuzzle's functions take.

Defined once, here: the compiled module's stub reads them, and so, at run
time, do tools that read annotations (``typing.get_type_hints``, beartype,
pydantic), which a stub alone would leave with undefined names."""

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeAlias

from ._npuzzle import Board


class _ArrayLike(Protocol):
    def tolist(self) -> Any: ...


# A row of tiles. Lists and tuples, not any Sequence[int]: bytes is one, and
# is refused (decode it to text first). Bools are refused too, though the
# type system counts them as ints.
_Row: TypeAlias = list[int] | tuple[int, ...]
# A board in any form: text ("867254301", "867/254/301", "8 6 7 2 5 4 3 0 1",
# JSON), a flat or nested list or tuple of tiles, a NumPy array (anything
# whose tolist() gives such a list), or a Board.
_BoardLike: TypeAlias = str | Board | _Row | Sequence[_Row] | _ArrayLike
# Many boards: a list (or iterable) of boards, or a NumPy integer array of
# shape (N, cells) or (N, rows, cols).
_Positions: TypeAlias = Iterable[_BoardLike] | _ArrayLike
# Moves to play: the blank's letters, a slide written with its count ("R2"),
# in a string ("U L D R2") or a list (["U", "R2"]).
# Lists, tuples and arrays: not iterators, which are refused.
_Moves: TypeAlias = str | Sequence[str] | _ArrayLike
# Moves to grade: the blank's letters, or the tiles moved ("6 5 2", [6, 5, 2]).
_Steps: TypeAlias = str | Sequence[str] | Sequence[int] | _ArrayLike
