"""Bounded-suboptimal solving, ``solve(..., within=W)``: every answer checked
against a plain breadth-first search of 3x3, its bound against the truth."""

from __future__ import annotations

import random
import time

import npuzzle
import pytest

from conftest import plain_bfs, replay


@pytest.mark.parametrize("weight", [1, 1.2, 2])
def test_answers_are_within_the_weight_and_bounded_below(db3, weight: float) -> None:
    truth = plain_bfs((1, 2, 3, 4, 5, 6, 7, 8, 0), 3)
    rng = random.Random(25)
    for start in rng.sample(sorted(truth), 60):
        s = db3.solve(start, within=weight)
        optimum = truth[start]
        assert db3.play(start, s.moves) == npuzzle.Board("123456780")
        assert s.lower_bound <= optimum <= s.length <= weight * optimum
        assert len(s) == s.length == len(s.moves)
        assert s.within == weight
        assert s.distance == (s.length if s.lower_bound == s.length else None)
        d = s.to_dict()
        assert (d["length"], d["lower_bound"], d["within"]) == (s.length, s.lower_bound, weight)
        assert d["heuristic"] == s.heuristic == "linear-conflict"
        assert d["nodes"] == s.nodes > 0 or optimum == 0
        if weight == 1:
            assert s.length == s.lower_bound == optimum == s.distance


def test_the_module_function_and_an_exact_answer(db3) -> None:
    s = npuzzle.solve("867254301", within=1.5)
    assert s.lower_bound <= 31 <= s.length <= 46
    exact = npuzzle.solve("867254301")
    assert exact.within is None and exact.lower_bound == exact.distance == exact.length == 31
    assert exact.heuristic is None
    assert "lower_bound" not in exact.to_dict()


@pytest.mark.parametrize(
    "weight, error, says",
    [
        (0.5, npuzzle.ArgumentError, "below 1"),
        (float("nan"), npuzzle.ArgumentError, "NaN"),
        (1e308, npuzzle.ArgumentError, "above the limit of 100"),
        (10**400, npuzzle.ArgumentError, "a weight of 1000000000.* is above the limit of 100"),
        (-(10**400), npuzzle.ArgumentError, "a weight of -1000000000.* is below 1"),
        (5e-324, npuzzle.ArgumentError, "a weight of 5e-324 is below 1"),
        ("abc", npuzzle.ArgumentTypeError, "not str"),
        (True, npuzzle.ArgumentTypeError, "not bool"),
    ],
)
def test_bad_weights_are_refused(db3, weight: object, error: type, says: str) -> None:
    with pytest.raises(error, match=says):
        db3.solve("867254301", within=weight)


def test_refusals_of_a_weight_stay_short() -> None:
    # Floats at their extremes and ints of 400 digits are named in a line,
    # not in the hundreds of digits their plain decimals take.
    for weight in (1e308, 5e-324, 10**400, -(10**400)):
        with pytest.raises(npuzzle.ArgumentError) as refused:
            npuzzle.solve_within("867254301", weight)
        assert len(str(refused.value)) < 300, str(refused.value)


def test_numpy_bools_are_not_weights_or_seconds() -> None:
    np = pytest.importorskip("numpy")
    for flag in (np.True_, np.False_):
        with pytest.raises(npuzzle.ArgumentTypeError, match="not bool"):
            npuzzle.solve_within("867254301", flag)
        with pytest.raises(npuzzle.ArgumentTypeError, match="not bool"):
            npuzzle.solve_within("867254301", 2, timeout=flag)


def test_unsolvable_and_timeouts_raise_as_solve_does(db3) -> None:
    with pytest.raises(npuzzle.UnsolvableError):
        db3.solve("213456780", within=1.2)
    # Some thousand expansions: the deadline, already passed, is checked.
    with pytest.raises(npuzzle.SearchTimeoutError, match=r"longer timeout=, or a larger within="):
        db3.solve("867254301", within=1, timeout=1e-9)


def test_no_file_is_needed_on_any_board(tmp_path, monkeypatch) -> None:
    # No database anywhere: the search needs none.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("NPUZZLE_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    truth = plain_bfs((1, 2, 3, 4, 5, 6, 7, 0), 4)
    rng = random.Random(36)
    for start in rng.sample(sorted(truth), 40):
        s = npuzzle.solve_within(list(start), 1.5, board="2x4")
        assert s.start == npuzzle.Board(list(start), board="2x4")
        assert s.lower_bound <= truth[start] <= s.length <= 1.5 * truth[start]
        assert s.start.apply(s.moves) == s.goal == npuzzle.Board.goal("2x4")
        assert s.to_dict()["heuristic"] == "linear-conflict"
    assert not list(tmp_path.rglob("*.db"))


def test_6x6_and_5x5_take_boards_in_every_form() -> None:
    goal6 = npuzzle.Board.goal("6x6")
    rng = random.Random(6)
    start = goal6
    for _ in range(200):
        start = start.apply(rng.choice(start.moves()))
    s = npuzzle.solve_within(start, 2)
    assert s.length <= 2 * s.lower_bound
    assert start.apply(s.moves) == goal6
    # The same position as nested lists and as text with board=.
    assert npuzzle.solve_within(start.tolist(), 2).moves == s.moves
    assert npuzzle.solve_within(str(start), 2, board="6x6").moves == s.moves
    # Another goal, named in any form.
    five = npuzzle.Board.goal("5x5").apply("UULL")
    t = npuzzle.solve_within(npuzzle.Board.goal("5x5"), 1, goal=str(five), board="5x5")
    assert (t.length, t.lower_bound, t.distance) == (4, 4, 4)
    assert t.goal == five


def test_solve_within_refuses_bad_input_by_name() -> None:
    with pytest.raises(npuzzle.ParseError, match="7x7|36"):
        npuzzle.solve_within("1 2 3", 2, board="7x7")
    with pytest.raises(npuzzle.ArgumentError, match="below 1"):
        npuzzle.solve_within(npuzzle.Board.goal("6x6"), 0.5)
    with pytest.raises(npuzzle.UnsolvableError):
        npuzzle.solve_within("2 1 3 4 5 6 7 8 0", 2)
    with pytest.raises(npuzzle.ParseError):
        npuzzle.solve_within(npuzzle.Board.goal("6x6"), 2, goal="123456780")
    # Sizes that disagree, with no database to blame.
    five = npuzzle.Board.goal("5x5")
    with pytest.raises(npuzzle.ParseError, match="the board is 5x5 but board= says 3x3"):
        npuzzle.solve_within(five, 2, board="3x3")
    with pytest.raises(npuzzle.ParseError, match="the goal is 6x6 but the start is 5x5"):
        npuzzle.solve_within(five.apply("UL"), 2, goal=npuzzle.Board.goal("6x6"))
    # A tile of 200,000 digits is named by its start.
    with pytest.raises(npuzzle.ParseError) as huge:
        npuzzle.solve_within("9" * 200_000 + " 0", 2, board="6x6")
    assert len(str(huge.value)) < 300
    hard = npuzzle.Board.goal("6x6")
    rng = random.Random(7)
    for _ in range(400):
        hard = hard.apply(rng.choice(hard.moves()))
    with pytest.raises(npuzzle.SearchTimeoutError, match="or a larger within=") as stop:
        npuzzle.solve_within(hard, 1, timeout=1e-9)
    # The bound it stopped at is a lower bound: at least the Manhattan
    # distance (tile t's goal cell is t - 1).
    cells = list(hard.cells)
    manhattan = sum(abs(i // 6 - (t - 1) // 6) + abs(i % 6 - (t - 1) % 6) for i, t in enumerate(cells) if t)
    assert stop.value.bound >= manhattan > 0
    # At the largest W no larger one is taken: only more time is advised.
    with pytest.raises(npuzzle.SearchTimeoutError) as stop:
        npuzzle.solve_within(hard, 100, timeout=1e-9)
    assert str(stop.value).endswith("give a longer timeout=")


def test_a_board_with_no_partition_points_to_solve_within(tmp_path, monkeypatch, db3) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("NPUZZLE_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(npuzzle.DatabaseError, match=r'no database can be built.*solve_within\(start, 2, board="6x6"\)'):
        npuzzle.Database(board="6x6")
    # So is a file of another board, named by path= or NPUZZLE_DB, or none.
    other = str(db3.path)
    for call in [
        lambda: npuzzle.Database(other, board="6x6"),
        lambda: npuzzle.Database(tmp_path / "none.db", board="6x6"),
    ]:
        with pytest.raises(npuzzle.DatabaseError, match=r"no database can be built for 6x6.*solve_within") as e:
            call()
        assert "npuzzle.build" not in str(e.value)
    monkeypatch.setenv("NPUZZLE_DB", other)
    with pytest.raises(npuzzle.DatabaseError, match=r"NPUZZLE_DB names.*no database can be built for 6x6"):
        npuzzle.Database(board="6x6")
    monkeypatch.delenv("NPUZZLE_DB")
    # A board with a partition is told how to build its own tables.
    with pytest.raises(npuzzle.DatabaseError, match=r'partition 6-6-6-6.*npuzzle.build\(board="5x5"\)'):
        npuzzle.Database(board="5x5")


@pytest.mark.parametrize("weight", [1, 1.3])
def test_many_at_once_within_the_weight(db3, pat3, bfs3, weight: float) -> None:
    # Complete tables guide by linear conflicts, pattern tables by their sums:
    # either way each answer replays and keeps the promise against the truth,
    # and is the one solve(within=) gives alone.
    starts = random.Random(41).sample(sorted(bfs3), 50)
    for db in (db3, pat3):
        moves = db.solve_many([list(s) for s in starts], within=weight, threads=2)
        assert len(moves) == len(starts)
        for start, m in zip(starts, moves):
            assert replay(start, m, 3) == (1, 2, 3, 4, 5, 6, 7, 8, 0)
            assert bfs3[start] <= len(m) <= weight * bfs3[start]
        assert moves[:5] == [db.solve(list(s), within=weight).moves for s in starts[:5]]


def test_many_at_once_within_with_numpy_unsolvable_goal_and_timeout(pat3) -> None:
    np = pytest.importorskip("numpy")
    rows = np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]])
    answers = pat3.solve_many(rows, within=2)
    assert answers.dtype == object and list(answers) == ["R", None]
    # Another goal (a blank in the middle: the file has every goal's set).
    goal = "123405678"
    moves = pat3.solve_many(["123456780"], goal, within=1)
    assert pat3.play("123456780", moves[0]) == npuzzle.Board(goal)
    assert len(moves[0]) == pat3.distance("123456780", goal)
    with pytest.raises(npuzzle.ArgumentError, match="below 1"):
        pat3.solve_many(["123456780"], within=0.99)
    with pytest.raises(npuzzle.ParseError, match=r"positions\[1\]"):
        pat3.solve_many(["123456780", "1234"], within=2)
    with pytest.raises(npuzzle.ArgumentError, match="within= counts single-tile moves"):
        npuzzle.Database(board="2x3", metric="mtm").solve_many(["123450"], within=2)


def test_many_at_once_with_no_file(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("NPUZZLE_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    truth = plain_bfs((1, 2, 3, 4, 5, 6, 7, 0), 4)
    starts = random.Random(24).sample(sorted(truth), 40)
    found = npuzzle.solve_many_within([list(s) for s in starts], 1.5, board="2x4", threads=2)
    for start, s in zip(starts, found):
        assert s is not None
        assert s.start == npuzzle.Board(list(start), board="2x4")
        assert s.lower_bound <= truth[start] <= s.length <= 1.5 * truth[start]
        assert s.start.apply(s.moves) == s.goal == npuzzle.Board.goal("2x4")
    alone = npuzzle.solve_within(list(starts[0]), 1.5, board="2x4")
    assert (found[0].moves, found[0].lower_bound) == (alone.moves, alone.lower_bound)
    assert not list(tmp_path.rglob("*.db"))


def test_many_at_once_with_no_file_takes_its_size_from_the_positions() -> None:
    np = pytest.importorskip("numpy")
    goal6 = npuzzle.Board.goal("6x6")
    starts = [goal6.apply("ULDR"), goal6.apply("UULL"), goal6]
    # Boards, nested lists, a generator, and arrays of (N, 6, 6) or with board=.
    forms = [
        starts,
        [b.tolist() for b in starts],
        (b for b in starts),
        np.array([b.tolist() for b in starts]),
    ]
    for form in forms:
        found = npuzzle.solve_many_within(form, 2)
        assert [None if s is None else s.length for s in found] == [4, 4, 0]
    flat = np.array([b.cells for b in starts])
    assert [s.length for s in npuzzle.solve_many_within(flat, 2, board="6x6") if s is not None] == [4, 4, 0]
    with pytest.raises(npuzzle.ArgumentError, match=r"\(N, 36\) needs board="):
        npuzzle.solve_many_within(flat, 2)
    # One board's numbers are not many boards: said, and where to go.
    with pytest.raises(npuzzle.ParseError, match=r"not \(9,\): one position's numbers are solved with solve_within"):
        npuzzle.solve_many_within(np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]), 1.5)
    # No positions at all is no answers, as an empty list is.
    assert npuzzle.solve_many_within(np.array([], dtype=int), 1.5) == []
    # Text is 3x3 unless board= says otherwise; an unsolvable one is None.
    found = npuzzle.solve_many_within(["123456708", "213456780"], 1)
    assert found[0] is not None and found[0].length == 1 and found[1] is None
    assert npuzzle.solve_many_within([], 2) == []
    with pytest.raises(npuzzle.ParseError, match=r"positions\[1\]: the board is 5x5 but the first position is 6x6"):
        npuzzle.solve_many_within([goal6, npuzzle.Board.goal("5x5")], 2)
    with pytest.raises(npuzzle.ParseError, match=r"positions\[0\]"):
        npuzzle.solve_many_within(["1 2 3"], 2)
    with pytest.raises(npuzzle.ArgumentTypeError, match="expected many positions"):
        npuzzle.solve_many_within("123456780", 2)
    with pytest.raises(npuzzle.ArgumentError, match="threads=0"):
        npuzzle.solve_many_within(starts, 2, threads=0)
    with pytest.raises(npuzzle.ArgumentError, match="threads=65535"):
        npuzzle.solve_many_within(starts, 2, threads=65535)
    hard = goal6
    rng = random.Random(7)
    for _ in range(400):
        hard = hard.apply(rng.choice(hard.moves()))
    with pytest.raises(npuzzle.SearchTimeoutError, match=r"positions\[0\]: no solution within"):
        npuzzle.solve_many_within([hard] * 3, 1, timeout=1e-9)
    with pytest.raises(npuzzle.ParseError, match="bad goal board: the board is 5x5 but the first position is 6x6"):
        npuzzle.solve_many_within(starts, 2, goal=npuzzle.Board.goal("5x5"))
    with pytest.raises(npuzzle.ParseError, match="bad goal board: the board is 5x5 but board= says 6x6"):
        npuzzle.solve_many_within(starts, 2, goal=npuzzle.Board.goal("5x5"), board="6x6")


def test_a_board_says_whether_it_is_solvable_with_no_file(db3) -> None:
    rng = random.Random(9)
    for _ in range(300):
        cells = rng.sample(range(9), 9)
        assert bool(npuzzle.Board(cells).solvable()) == bool(db3.solvable(cells))
    # 6x6, an even width: solvable toward the goal (blank last) exactly when
    # the tiles' inversions plus the blank's row, counted from the bottom
    # from 1, are odd.
    for _ in range(300):
        cells = rng.sample(range(36), 36)
        tiles = [t for t in cells if t]
        inversions = sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1 :])
        row_from_bottom = 6 - cells.index(0) // 6
        verdict = npuzzle.Board(cells, board="6x6").solvable()
        assert bool(verdict) == ((inversions + row_from_bottom) % 2 == 1)
        assert (verdict.reason is None) == bool(verdict)
    goal = npuzzle.Board.goal("6x6")
    assert goal.solvable(goal.apply("UL")) and not goal.solvable(str(goal).replace("1 2 ", "2 1 ", 1))
    with pytest.raises(npuzzle.ParseError, match="the goal is 3x3 but the start is 6x6"):
        goal.solvable(npuzzle.Board.goal("3x3"))


def test_many_at_once_reads_every_row_first_and_arrays_of_boards() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    hard = [rng.sample(range(36), 36) for _ in range(12)]
    hard = [c for c in hard if npuzzle.Board(c, board="6x6").solvable()][:4]
    bad = list(range(36))
    bad[0] = 1
    # A bad row is refused before any search: at once, not after the rest.
    for form in (np.array([bad, *hard], dtype=np.uint8), [bad, *hard]):
        started = time.perf_counter()
        with pytest.raises(npuzzle.ParseError, match=r"positions\[0\]: .*tile 1"):
            npuzzle.solve_many_within(form, 1.05, board="6x6", timeout=30)
        assert time.perf_counter() - started < 5
    # A NumPy array of Boards takes its size from them, as a list does.
    goal4 = npuzzle.Board.goal("4x4")
    boards = np.empty(2, dtype=object)
    boards[0], boards[1] = goal4.apply("U"), goal4
    assert [s.length for s in npuzzle.solve_many_within(boards, 2) if s is not None] == [1, 0]
    # One position is pointed to the one-position call; a goal of another
    # size is named as the goal.
    with pytest.raises(npuzzle.ArgumentTypeError, match=r"solve_within\(\)"):
        npuzzle.solve_many_within(goal4, 2)
    with pytest.raises(npuzzle.ParseError, match="bad goal board: the board is 3x3 but the first position is 4x4"):
        npuzzle.solve_many_within([goal4], 2, goal=npuzzle.Board.goal("3x3"))
