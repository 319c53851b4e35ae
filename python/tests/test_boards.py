"""Boards in every form, and the Board type."""

from __future__ import annotations

import pickle
from fractions import Fraction
import time
from pathlib import Path

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
    # Iterating gives the cells len counts, in reading order; a board is
    # read back from them.
    assert list(b) == [8, 6, 7, 2, 5, 4, 3, 0, 1] and len(list(big)) == len(big) == 12
    assert npuzzle.Board(list(big), board="3x4") == big and 0 in b and 9 not in b
    assert len({b, npuzzle.Board("867/254/301"), big}) == 2
    # A grid reads back at its own size, as rows apart by "/" do.
    for size in ("2x3", "3x4", "4x4", "5x5", "6x6", "4x3"):
        grid = npuzzle.Board.goal(size).grid()
        assert npuzzle.Board(grid) == npuzzle.Board.goal(size), size
    assert npuzzle.Board(b.grid()) == b


def test_boards_up_to_six_by_six() -> None:
    # Two-digit tiles in every form: text, rows, JSON-like lists, NumPy.
    rows = [[5 * r + c + 1 for c in range(5)] for r in range(5)]
    rows[4][4] = 0
    flat = [t for row in rows for t in row]
    text = " ".join(map(str, flat))
    goal = npuzzle.Board.goal("5x5")
    for form in (text, " / ".join(" ".join(map(str, r)) for r in rows), rows, flat, np.array(rows)):
        assert npuzzle.Board(form, board="5x5") == goal, form
    assert str(goal) == text and goal.size == "5x5" and goal.blank == 24
    assert eval(repr(goal), {"Board": npuzzle.Board}) == goal
    assert goal.apply("U").tile_moved_by("D") == 20
    six = npuzzle.Board.goal("6x6")
    assert six.tolist()[5] == [31, 32, 33, 34, 35, 0]
    # A Board is its own size; board= must agree with it.
    assert npuzzle.Board(six) == six and npuzzle.Board(goal, board="5x5") == goal
    with pytest.raises(npuzzle.ParseError, match="the board is 6x6 but board= says 5x5"):
        npuzzle.Board(six, board="5x5")
    # Without board=, nested rows give the size a refused tile is told against.
    with pytest.raises(npuzzle.ParseError, match=r"tile -1 is out of range for a 2x2 board \(tiles are 1 to 3"):
        npuzzle.Board([[1, 2], [3, -1]])
    with pytest.raises(npuzzle.ParseError, match=r"1.0 is not a tile number \(tiles are 0 to 3\)"):
        npuzzle.Board([[1, 2], [3, 1.0]])
    # A flat list's size is not known at its tile: a negative one is told
    # so, with no board's range made up.
    with pytest.raises(npuzzle.ParseError, match=r"^tile -1 is negative \(tiles are 1 and up, and 0 is the blank\)$"):
        npuzzle.Board([1, 2, 3, 4, 5, 6, 7, 8, -1])
    assert pickle.loads(pickle.dumps(six)) == six
    with pytest.raises(npuzzle.ParseError, match="tile 36 is out of range for a 6x6 board"):
        npuzzle.Board(list(range(1, 37)), board="6x6")
    with pytest.raises(npuzzle.ParseError, match="49 cells; boards stop at 36"):
        npuzzle.Board.goal("7x7")


def test_moves_on_a_board() -> None:
    b = npuzzle.Board("123456708")
    assert b.moves() == "ULR"
    assert b.apply("R") == npuzzle.Board.goal()
    assert b.apply(["U", "d"]) == b
    assert b.tile_moved_by("R") == 8 and b.tile_moved_by("D") is None
    assert npuzzle.Board.goal("2x3") == npuzzle.Board("123/450", board="2x3")


def test_bools_are_not_tiles_in_any_form(db3) -> None:
    """Issue 21, item 4: `[True, 2, …, False]` was read as tiles 1 and 0,
    while a NumPy bool array was refused for a duplicate tile."""
    as_list = [True, 2, 3, 4, 5, 6, 7, 8, False]
    for form in (as_list, tuple(as_list), np.array([True, False] * 4 + [True]), [np.True_] + list(range(2, 9)) + [0]):
        with pytest.raises(npuzzle.ParseError, match="is a bool, not a tile number: bools are not tiles"):
            db3.distance(form)
        with pytest.raises(npuzzle.ParseError, match="bools are not tiles"):
            npuzzle.Board(form)
    with pytest.raises(npuzzle.ArgumentTypeError, match="not bool: bools are not tiles"):
        db3.distances(np.zeros((2, 9), dtype=bool))


def test_a_list_of_text_or_of_boards_is_refused_with_what_to_write() -> None:
    # With no size given none is made up: the largest board's 0 to 35 was.
    for form in (list("867254301"), np.array(list("867254301"))):
        with pytest.raises(npuzzle.ParseError) as refused:
            npuzzle.solve_within(form, 1.5)
        assert str(refused.value) == (
            "bad start board: '8' is not a tile number (tiles are whole numbers, 0 the blank): a "
            'list\'s tiles are numbers, and a board written as text is one string ("867254301")'
        )
    with pytest.raises(npuzzle.ParseError, match=r"tiles are 0 to 8\): a list's tiles are numbers"):
        npuzzle.Board(list("867254301"), board="3x3")
    with pytest.raises(npuzzle.ParseError, match=r"many boards go to a batch \(solve_many, solve_many_within\)$"):
        npuzzle.solve_within(np.zeros((2, 3, 3), dtype=int), 1.5)


def test_each_refusal_of_a_form_says_why(db3) -> None:
    with pytest.raises(npuzzle.ParseError, match=r"a 0-dimensional array holds one number \(5\), not a board"):
        db3.distance(np.array(5))
    with pytest.raises(npuzzle.ArgumentTypeError, match=r"not bytes: decode text first \(b.decode\(\)\)"):
        db3.distance(b"867254301")
    with pytest.raises(npuzzle.ArgumentTypeError, match="not bytearray"):
        npuzzle.Board(bytearray(b"867254301"))
    with pytest.raises(npuzzle.ParseError, match="the board holds a lone surrogate at character 3"):
        db3.distance("86\ud800")


def test_annotations_read_at_run_time() -> None:
    """Tools that read annotations at run time (typing.get_type_hints, as
    beartype and pydantic's validate_call do) find every name they use, and
    the board forms the stub gives."""
    import importlib
    import inspect
    import typing

    modules = [npuzzle]
    try:
        modules.append(importlib.import_module("npuzzle.dask"))
    except ModuleNotFoundError:  # the dask extra is not installed
        pass
    functions = [
        f for module in modules for f in vars(module).values()
        if inspect.isfunction(f) and f.__module__.startswith("npuzzle")
    ]
    assert len(functions) > 15
    for f in functions:
        typing.get_type_hints(f)
    start = typing.get_type_hints(npuzzle.distance)["start"]
    assert set(typing.get_args(start)) >= {str, npuzzle.Board, list[int], tuple[int, ...]}


def strict_mypy(tmp_path: Path, lines: list[str]) -> tuple[str, list[int], int]:
    """mypy --strict on a sample of `lines`: its output, the line numbers
    of its errors, and its exit status."""
    mypy = pytest.importorskip("mypy.api")
    sample = tmp_path / "sample.py"
    sample.write_text("".join(line + "\n" for line in lines))
    out, _, status = mypy.run(["--strict", "--no-incremental", str(sample)])
    errors = [int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line]
    return out, errors, status


def test_the_stub_refuses_what_the_run_time_refuses(tmp_path: Path) -> None:
    """The stub's board type takes lists and tuples of ints, not any
    Sequence[int]: bytes is one, and fails at run time."""
    out, errors, status = strict_mypy(
        tmp_path,
        [
            "import npuzzle",
            "import numpy as np",
            "npuzzle.distance(b'867254301')",
            "npuzzle.distance(bytearray(b'867254301'))",
            "npuzzle.distance([8, 6, 7, 2, 5, 4, 3, 0, 1])",
            "npuzzle.distance((8, 6, 7, 2, 5, 4, 3, 0, 1))",
            "npuzzle.distance([[8, 6, 7], [2, 5, 4], [3, 0, 1]])",
            "npuzzle.distance(np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]))",
            "npuzzle.distance(npuzzle.Board('867254301'))",
            "npuzzle.distance('867254301')",
        ],
    )
    assert status == 1
    assert errors == [3, 4], out


def test_the_stub_takes_moves_as_the_run_time_does(tmp_path: Path, db3) -> None:  # type: ignore[no-untyped-def]
    """Moves are text, a list, a tuple or an array; an iterator is refused
    at run time, and so by the stub."""
    b = npuzzle.Board("123468750")
    for moves in ("ULDR", ["U", "L", "D", "R"], ("U", "L", "D", "R"), np.array(list("ULDR"))):
        assert b.apply(moves) == npuzzle.Board.goal()
    for steps in ([8, 6, 5, 8], (8, 6, 5, 8), np.array([8, 6, 5, 8])):
        assert db3.check(b, steps).is_optimal
    with pytest.raises(npuzzle.ArgumentTypeError, match="not generator"):
        b.apply(m for m in "ULDR")
    out, errors, status = strict_mypy(
        tmp_path,
        [
            "import npuzzle",
            "import numpy as np",
            "b = npuzzle.Board('123468750')",
            "b.apply(m for m in 'ULDR')",
            "npuzzle.check(b, iter([8, 6, 5, 8]))",
            "b.apply(['U', 'L', 'D', 'R'])",
            "b.apply(('U', 'L'))",
            "b.apply(np.array(list('ULDR')))",
            "npuzzle.check(b, [8, 6, 5, 8])",
            "npuzzle.check(b, np.array([8, 6, 5, 8]))",
        ],
    )
    assert status == 1
    assert errors == [4, 5], out


def test_a_solution_is_true_even_with_no_move(db3) -> None:  # type: ignore[no-untyped-def]
    """`if s` tells a solution from the None of an unsolvable position, at
    the goal too, where its length is 0."""
    answers = npuzzle.solve_many_within(["123456780", "867254301", "213456780"], 1.5)
    assert [s.length for s in answers if s] == [0, 31]
    at_goal = db3.solve("123456780")
    assert len(at_goal) == 0 and bool(at_goal)


def test_no_positions_in_any_array_are_no_answers(db3) -> None:  # type: ignore[no-untyped-def]
    """An empty array, of whatever type a filter that matched nothing
    gives, has no answers."""
    for empty in (np.array([]), np.zeros((0, 9)), np.zeros((0, 9), dtype=np.int64), np.array([], dtype=object)):
        assert list(db3.distances(empty)) == []
        assert list(db3.solve_many(empty)) == []


FORMS_TIMED = {
    "text": "867254301",
    "list": [8, 6, 7, 2, 5, 4, 3, 0, 1],
    "tuple": (8, 6, 7, 2, 5, 4, 3, 0, 1),
    "rows": [[8, 6, 7], [2, 5, 4], [3, 0, 1]],
    "NumPy 1-D": np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]),
}


def test_every_board_form_costs_about_what_text_does(db3) -> None:
    """Issue 21, item 3: a list, a tuple or a 1-D NumPy array cost 7 to 16
    times what text did (probing each tile for `__array__`). Timed against
    text in the same run, in CPU time (the machine is shared): within 4
    times it (about 2 here; `bench/board_forms.py` gives the figures)."""
    import statistics
    import timeit

    def per_call(board: object) -> float:
        runs = timeit.repeat(lambda: db3.distance(board), number=20_000, repeat=7, timer=time.process_time)
        return statistics.median(runs) / 20_000

    text = per_call(FORMS_TIMED["text"])
    for name, board in FORMS_TIMED.items():
        assert per_call(board) < 4 * text, f"{name}: {per_call(board) * 1e9:.0f} ns, text {text * 1e9:.0f} ns"


def test_the_stub_types_a_batch_by_what_goes_in(tmp_path: Path) -> None:
    """A list of boards gives a list, typed as one; a NumPy array gives an
    array (Any, as NumPy is optional)."""
    out, errors, status = strict_mypy(
        tmp_path,
        [
            "import npuzzle",
            "import numpy as np",
            "db = npuzzle.Database()",
            "reveal_type(npuzzle.distances(['123456708']))",
            "reveal_type(db.distances(['123456708']))",
            "reveal_type(db.solve_many([[1, 2, 3, 4, 5, 6, 7, 0, 8]], within=1.2))",
            "reveal_type(npuzzle.solve_many(np.zeros((1, 9), dtype=np.uint8)))",
            "wrong: list[int] = db.distances(['123456708'])",
        ],
    )
    revealed = [line.split("Revealed type is ")[1] for line in out.splitlines() if "Revealed type" in line]
    assert revealed == ['"list[int | None]"', '"list[int | None]"', '"list[str | None]"', '"Any"'], out
    assert errors == [8], out
    assert status == 1


def test_text_of_another_size_says_which_board_to_pass() -> None:
    """Board(str(b)) of a 4x4 Board failed with "expected 9 tiles … got 16"
    and no word of board=; rows apart by "/" give their size."""
    four = npuzzle.Board.goal("4x4")
    with pytest.raises(npuzzle.ParseError, match=r'got 16; pass board="4x4" \(or "2x8", "8x2"\)$'):
        npuzzle.Board(str(four))
    assert npuzzle.Board(str(four), board="4x4") == four
    with pytest.raises(npuzzle.ParseError, match=r'got 12; pass board="3x4" \(or "4x3", "2x6", "6x2"\)$'):
        npuzzle.Board(list(range(1, 12)) + [0])
    with pytest.raises(npuzzle.ParseError, match=r'^bad start board "1234567": expected 9 tiles .* got 7$'):
        npuzzle.solve_within("1234567", 2)
    # Rows apart by "/" say the size, as a nested list's do.
    assert npuzzle.Board("12/34/50") == npuzzle.Board([[1, 2], [3, 4], [5, 0]])
    assert npuzzle.Board("1 2 3 4 / 5 6 7 0").size == "2x4"
    for board in (four, npuzzle.Board.goal("2x3"), npuzzle.Board.goal("5x5"), npuzzle.Board.goal("2x18")):
        assert npuzzle.Board(repr(board).split('"')[1]) == board
    assert npuzzle.solve_within("12/34/05", 1).moves == "R"
    with pytest.raises(npuzzle.ParseError, match="unexpected character 'x'"):
        npuzzle.Board("12/34/5x")


def test_the_stub_takes_numpy_integers_where_the_run_time_does(tmp_path: Path) -> None:
    """Counts, seeds, limits, distances and threads take NumPy's integers at
    run time (they have __index__), and the stubs say so."""
    out, errors, status = strict_mypy(
        tmp_path,
        [
            "import npuzzle",
            "import numpy as np",
            "db = npuzzle.Database()",
            "db.random(np.int64(20), count=np.int8(2), seed=np.uint64(1))",
            "npuzzle.random(np.int64(20), count=np.int64(2), seed=np.int64(1))",
            "db.solutions('867254301', limit=np.int64(2))",
            "npuzzle.solutions('867254301', limit=np.int64(2))",
            "db.distances(['867254301'], threads=np.int64(1))",
            "npuzzle.solve_many_within(['867254301'], 2, threads=np.int64(1))",
            "db.random(1.5)",
            # Seconds and weights: any number a float can be made of.
            "from fractions import Fraction",
            "db.solve('867254301', timeout=np.float32(5))",
            "npuzzle.solve_within('867254301', Fraction(6, 5), timeout=np.float64(5))",
            "db.distance('867254301', timeout='5')",
            # The module's own functions take them as the methods do.
            "npuzzle.solve('867254301', within=np.float32(1.5))",
            "npuzzle.random(count=2, board='6x6', timeout=Fraction(1, 2))",
        ],
    )
    assert errors == [10, 14], out
    assert status == 1
    # And the run time takes them.
    db = npuzzle.Database()
    assert db.solve("867254301", timeout=np.float32(5)).distance == 31
    assert npuzzle.solve_within("867254301", Fraction(6, 5), timeout=np.float64(5)).length <= 37
    assert npuzzle.solve("867254301", within=np.float32(1.5)).length <= 46


def test_dir_shows_the_api_alone() -> None:
    """Tab completion lists what dir() does: the API, not the names the
    package imports for itself (Any, Iterable, overload, threading …)."""
    public = {name for name in dir(npuzzle) if not name.startswith("_")}
    assert public - {"dask"} == set(npuzzle.__all__)


def test_numpy_reads_a_board_as_its_rows(db3) -> None:  # type: ignore[no-untyped-def]
    """np.array(board) is the tiles row by row (a 0-d array of the object
    before), in the dtype asked for, and a list of boards stacks into the
    array the batch calls take."""
    np = pytest.importorskip("numpy")
    board = npuzzle.Board("867254301")
    rows = np.array(board)
    assert rows.shape == (3, 3) and rows.tolist() == board.tolist()
    assert np.asarray(board, dtype=np.uint8).dtype == np.uint8
    assert np.array(npuzzle.Board.goal("2x5")).shape == (2, 5)
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(board, copy=False)
    stacked = np.array([board, npuzzle.Board("123456708")])
    assert db3.distances(stacked).tolist() == [31, 1]


def test_a_data_frame_of_positions_points_to_its_tiles(db3) -> None:  # type: ignore[no-untyped-def]
    """A DataFrame iterates over its column names: refused, with the two
    ways to pass its boards, each of which answers."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([[8, 6, 7, 2, 5, 4, 3, 0, 1]])
    with pytest.raises(npuzzle.ArgumentTypeError, match=r"df.to_numpy\(\)"):
        db3.distances(frame)
    assert db3.distances(frame.to_numpy()).tolist() == [31]
    assert db3.distances(pd.DataFrame({"start": ["867254301"]})["start"]) == [31]
    # A missing value, however pandas writes it, is named as one.
    for column in (
        pd.Series(["867254301", None]),
        pd.Series(["867254301", float("nan")]),
        pd.Series(["867254301", None], dtype="string"),
    ):
        with pytest.raises(npuzzle.ArgumentTypeError, match=r"positions\[1\]: the value is missing .*dropna"):
            db3.distances(column)
    # A column of any string type answers as its list does, as a list; its
    # index is not looked at.
    boards = [str(b) for b in npuzzle.random(count=50, seed=4)]
    want = db3.distances(boards)
    for column in (
        pd.Series(boards),
        pd.Series(boards, dtype="string"),
        pd.Series(boards, index=range(100, 150)),
        pd.Index(boards),
    ):
        assert db3.distances(column) == want
        assert [len(s) for s in db3.solve_many(column)] == want
    pytest.importorskip("pyarrow")
    assert db3.distances(pd.Series(boards, dtype="string[pyarrow]")) == want
