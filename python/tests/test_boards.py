"""Boards in every form, and the Board type."""

from __future__ import annotations

import pickle

import npuzzle
import numpy as np
import pytest

FORMS = [
    "867254301",
    "867/254/301",
    "8 6 7 2 5 4 3 0 1",
    "8 6 7 / 2 5 4 / 3 0 1",
    "8,6,7,2,5,4,3,0,1",
    "8672543_1",
    "8672543.1",
    "[[8,6,7],[2,5,4],[3,0,1]]",
    "[8,6,7,2,5,4,3,0,1]",
    [8, 6, 7, 2, 5, 4, 3, 0, 1],
    (8, 6, 7, 2, 5, 4, 3, 0, 1),
    [[8, 6, 7], [2, 5, 4], [3, 0, 1]],
    ((8, 6, 7), (2, 5, 4), (3, 0, 1)),
    [(8, 6, 7), [2, 5, 4], (3, 0, 1)],
    np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]),
    np.array([[8, 6, 7], [2, 5, 4], [3, 0, 1]], dtype=np.uint8),
    [np.int64(t) for t in (8, 6, 7, 2, 5, 4, 3, 0, 1)],
]


@pytest.mark.parametrize("form", FORMS, ids=range(len(FORMS)))
def test_every_form_is_the_same_board(db3, form: object) -> None:
    assert db3.distance(form) == 31
    assert npuzzle.Board(form) == npuzzle.Board("867254301")
    assert db3.board_of(form).cells == (8, 6, 7, 2, 5, 4, 3, 0, 1)


def test_board_shows_itself() -> None:
    b = npuzzle.Board("867254301")
    assert repr(b) == 'Board("867/254/301")'
    assert str(b) == "867254301"
    assert b.grid() == "8 6 7\n2 5 4\n3 _ 1\n"
    assert b._repr_html_().count("<td") == 9
    assert eval(repr(b), {"Board": npuzzle.Board}) == b
    big = npuzzle.Board([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]])
    assert (big.size, big.rows, big.cols, big.blank) == ("3x4", 3, 4, 11)
    assert repr(big) == 'Board("1 2 3 4 / 5 6 7 8 / 9 10 11 0", board="3x4")'
    assert eval(repr(big), {"Board": npuzzle.Board}) == big
    assert pickle.loads(pickle.dumps(big)) == big
    assert big.tolist() == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]]
    assert len({b, npuzzle.Board("867/254/301"), big}) == 2


def test_moves_on_a_board() -> None:
    b = npuzzle.Board("123456708")
    assert b.moves() == "ULR"
    assert b.apply("R") == npuzzle.Board.goal()
    assert b.apply(["U", "d"]) == b
    assert b.tile_moved_by("R") == 8 and b.tile_moved_by("D") is None
    assert npuzzle.Board.goal("2x3") == npuzzle.Board("123/450", board="2x3")
