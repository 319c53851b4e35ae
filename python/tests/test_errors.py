"""Every exception type, and inputs that must raise (never crash)."""

from __future__ import annotations

import math
from pathlib import Path

import npuzzle
import numpy as np
import pytest


def test_the_classes_and_their_bases() -> None:
    assert issubclass(npuzzle.ParseError, npuzzle.Error) and issubclass(npuzzle.ParseError, ValueError)
    assert issubclass(npuzzle.UnsolvableError, ValueError)
    assert issubclass(npuzzle.IllegalMoveError, ValueError)
    assert issubclass(npuzzle.DatabaseError, OSError)
    assert issubclass(npuzzle.MissingTableError, npuzzle.DatabaseError)
    assert npuzzle.ParseError.__module__ == "npuzzle"


def test_parse_errors(db3, db23) -> None:
    with pytest.raises(npuzzle.ParseError, match="tile 5 appears twice"):
        db3.distance([1, 2, 3, 5, 5, 6, 7, 8, 0])
    with pytest.raises(npuzzle.ParseError, match="row 2 has 2 tiles, expected 3"):
        db3.distance([[1, 2, 3], [4, 5], [6, 7, 8, 0]])
    with pytest.raises(npuzzle.ParseError, match="tile -1 is out of range"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, -1])
    with pytest.raises(npuzzle.ParseError, match="out of range"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, 10**30])
    with pytest.raises(npuzzle.ParseError, match="not a tile number"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, 0.0])
    with pytest.raises(npuzzle.ParseError, match="the board is 2x3 but the database holds 3x3"):
        db3.distance(npuzzle.Board("123450", board="2x3"))
    with pytest.raises(npuzzle.ParseError, match="not of the form RxC"):
        npuzzle.Database(board="3y3")
    with pytest.raises(npuzzle.ParseError, match="too small"):
        npuzzle.Board("1230", board="1x4")
    with pytest.raises(npuzzle.ParseError, match="the board is empty"):
        db3.distance("   ")


def test_unsolvable_carries_the_reason(db3) -> None:
    with pytest.raises(npuzzle.UnsolvableError) as e:
        db3.distance("213456780")
    assert e.value.reason.startswith("the start has 1 tile inversion ")
    assert str(e.value) == "unsolvable: " + e.value.reason
    for call in (db3.solve, db3.best_moves, db3.count_solutions, db3.solutions):
        with pytest.raises(npuzzle.UnsolvableError):
            call("213456780")


def test_illegal_moves() -> None:
    with pytest.raises(npuzzle.IllegalMoveError, match=r"move 3 \(D\) takes the blank off"):
        npuzzle.Board("123456708").apply("UDD")


def test_database_errors(tmp_path: Path) -> None:
    with pytest.raises(npuzzle.DatabaseError, match="no database at .*nothing.db; build it with: npuzzle.build"):
        npuzzle.Database(tmp_path / "nothing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all, but long enough to have a preamble" * 10)
    with pytest.raises(npuzzle.DatabaseError, match="not an npuzzle database"):
        npuzzle.Database(junk)
    with pytest.raises(npuzzle.DatabaseError, match="is not a regular file"):
        npuzzle.Database(tmp_path)
    # A good file cut short.
    good = Path(npuzzle.build("2x3", tmp_path / "cut.db", progress=False))
    good.write_bytes(good.read_bytes()[:-1000])
    with pytest.raises(npuzzle.DatabaseError, match="rebuild it with"):
        npuzzle.Database(good)
    with pytest.raises(npuzzle.DatabaseError, match="holds 2x3 boards, not 3x3"):
        npuzzle.Database(npuzzle.build("2x3", tmp_path / "b.db", progress=False), board="3x3")


def test_missing_tables(tmp_path: Path) -> None:
    path = npuzzle.build("2x3", tmp_path / "one.db", blanks=[5], progress=False)
    db = npuzzle.Database(path)
    assert db.distance("123405") == 1
    with pytest.raises(npuzzle.MissingTableError, match="no table for goals with the blank in row 1, column 2") as e:
        db.distance("123405", goal="102345")
    assert "all_goals=True" in str(e.value)
    with pytest.raises(ValueError, match="not on a 2x3 board"):
        npuzzle.build("2x3", tmp_path / "x.db", blanks=[6])


@pytest.mark.parametrize(
    "junk",
    [
        None, 3, 3.5, math.nan, b"123456780", {}, {1: 2}, [], [[]], [[[1]]], [None] * 9,
        ["1"] * 9, "\x00" * 9, "é" * 9, "[" * 1000, "9" * 10000, [[1, 2, 3]] * 3,
        np.zeros(9, dtype=float), np.zeros((3, 3, 3), dtype=int), np.array(["a"] * 9),
        object(), range(9), iter(range(9)),
    ],
)
def test_bad_inputs_raise_and_never_crash(db3, junk: object) -> None:
    with pytest.raises((npuzzle.Error, TypeError)):
        db3.distance(junk)
    with pytest.raises((npuzzle.Error, TypeError, ValueError)):
        db3.distances([junk])


def test_bad_batches_name_the_position(db3) -> None:
    with pytest.raises(npuzzle.ParseError, match=r"positions\[2\]: tile 1 appears twice"):
        db3.distances(["123456780", "867254301", "113456780"])
    bad = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9]])
    with pytest.raises(npuzzle.ParseError, match=r"positions\[1\]: tile 9 is out of range"):
        db3.distances(bad)
    with pytest.raises(npuzzle.ParseError, match=r"shape \(N, 9\)"):
        db3.distances(np.zeros((4, 8), dtype=np.uint8))
    with pytest.raises(TypeError, match="many positions"):
        db3.distances("123456780")
    with pytest.raises(ValueError, match="threads"):
        db3.distances(["123456780"], threads=0)


def test_random_rejects_what_cannot_be_drawn(db3) -> None:
    with pytest.raises(ValueError, match="maximum distance is 31"):
        db3.random(32)
    with pytest.raises(ValueError, match="only 2 lie at 31"):
        db3.random(31, count=3)
    with pytest.raises(ValueError, match="negative"):
        db3.random(-1)
    with pytest.raises(ValueError, match="step"):
        db3.random(range(0, 10, 2))
