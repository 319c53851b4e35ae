"""The multi-tile metric through the one Database: metric="mtm" builds and
opens data of its own, answers in slides (U3 L R2) that replay one tile at
a time, and refuses what cannot work. Published counts: lightln2,
SlidingTilesSolver, results/multitile_frontier/09-3x3-multislide.txt."""

from __future__ import annotations

from collections import deque

import npuzzle
import pytest

MTM_3X3 = [1, 4, 8, 16, 32, 64, 127, 244, 454, 856, 1576, 2854, 5117, 8588, 13466,
           19739, 26558, 31485, 30985, 23494, 11751, 3390, 589, 41, 1]


def plain_mtm_bfs(goal: tuple[int, ...], rows: int, cols: int) -> dict[tuple[int, ...], int]:
    """Multi-tile distances by a queue and a dict: the blank moves 1, 2, …
    cells in a line, each one move."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        blank = state.index(0)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            cells = list(state)
            r, c = divmod(blank, cols)
            while 0 <= r + dr < rows and 0 <= c + dc < cols:
                a, b = r * cols + c, (r + dr) * cols + c + dc
                cells[a], cells[b] = cells[b], cells[a]
                r, c = r + dr, c + dc
                nxt = tuple(cells)
                if nxt not in dist:
                    dist[nxt] = dist[state] + 1
                    queue.append(nxt)
    return dist


def expand(slides: str) -> str:
    return "".join(s[0] * int(s[1:] or 1) for s in slides.split())


def test_the_multi_tile_database_is_built_beside_the_single_tile_one() -> None:
    db = npuzzle.Database(board="3x3", metric="mtm")
    assert db.metric == "mtm"
    assert db.path.endswith("3x3-mtm.db")
    assert npuzzle.locate("3x3", metric="mtm") == db.path
    assert npuzzle.Database(board="3x3").metric == "stm"
    assert repr(db).endswith('board="3x3", metric="mtm")')
    assert "metric" not in repr(npuzzle.Database(board="3x3"))
    assert db.histogram() == MTM_3X3
    # The state space in slides; the heuristics count single tiles.
    assert db.stats()["metric"] == "mtm" and db.stats()["tables"][0]["max_distance"] == len(MTM_3X3) - 1
    with pytest.raises(npuzzle.ArgumentError, match="heuristics_survey\\(\\) counts single-tile moves"):
        db.heuristics_survey()
    s = db.solve("867254301")
    assert s.metric == "mtm" and s.distance == 20 == len(s)
    assert len(s.moves.split()) == 20
    assert s.single_tile_moves == expand(s.moves)
    assert db.play("867254301", s.single_tile_moves) == npuzzle.Board("123456780")
    # One tile per single-tile step; graded as tiles, they solve it.
    assert len(s.tiles) == len(s.single_tile_moves) == 31
    assert db.check("867254301", s.tiles).reaches_goal
    # A board after each slide, so that they pair with the moves: each is
    # the last played on by its slide, and one slide from the next.
    boards = s.boards()
    assert len(boards) == len(s) + 1 and boards[0] == s.start and boards[-1] == s.goal
    for before, slide, after in zip(boards, s.moves.split(), boards[1:]):
        assert db.play(before, slide) == after
        assert db.distance(before) == db.distance(after) + 1
    d = s.to_dict()
    assert d["distance"] == 20 and d["single_tile_moves"] == s.single_tile_moves
    assert db.count_solutions("867254301") == 2
    assert all(len(m.split()) == 20 for m in db.solutions("867254301"))
    # A student's four single-tile moves are three slides here: R R is one.
    check = db.check("123456078", "RR")
    assert check.reaches_goal and check.length == 1 and check.optimal == 1
    # A solution as this database writes it grades as it is written.
    solution = db.solve("867254301")
    check = db.check("867254301", solution.moves)
    assert check.reaches_goal and check.length == 20 and check.excess == 0
    slide = db.check("123456078", "R2")
    assert (slide.reaches_goal, slide.length, slide.excess) == (True, 1, 0)


def test_every_2x3_distance_against_a_plain_multi_tile_search() -> None:
    npuzzle.build("2x3", metric="mtm")
    db = npuzzle.Database(board="2x3", metric="mtm")
    for goal in [(1, 2, 3, 4, 5, 0), (4, 0, 2, 5, 1, 3)]:
        truth = plain_mtm_bfs(goal, 2, 3)
        positions = list(truth)
        assert db.distances(positions, goal) == [truth[p] for p in positions]
        for p, moves in zip(positions, db.solve_many(positions, goal)):
            assert len(moves.split()) == truth[p]
            assert db.play(p, expand(moves)) == npuzzle.Board(goal, board="2x3")


def test_impossible_metrics_are_refused() -> None:
    with pytest.raises(npuzzle.ArgumentError, match="unknown metric"):
        npuzzle.Database(board="2x3", metric="xtm")
    with pytest.raises(npuzzle.ArgumentTypeError):
        npuzzle.Database(board="2x3", metric=3)  # type: ignore[arg-type]
    with pytest.raises(npuzzle.ArgumentError, match="multi-tile"):
        npuzzle.Database(board="4x4", metric="mtm")
    with pytest.raises(npuzzle.ArgumentError, match="single-tile moves only"):
        npuzzle.build("4x4", metric="mtm")
    stm = npuzzle.Database(board="2x3").path
    with pytest.raises(npuzzle.DatabaseError, match="counts stm moves, not mtm"):
        npuzzle.Database(path=stm, metric="mtm")


def test_best_moves_are_slides_that_lead_one_move_closer() -> None:
    db = npuzzle.Database(board="3x3", metric="mtm")
    # Sliding two tiles at once is the one optimal move here; a single
    # tile (R) leaves 1 move to go, as many as there were.
    assert db.best_moves("123456078") == ["R2"]
    assert db.best_moves("867254301") == ["U", "U2"]
    # On every 2x3 position, against the plain search: exactly the slides
    # whose board is one move closer, each written as solutions write it.
    npuzzle.build("2x3", metric="mtm")
    db23 = npuzzle.Database(board="2x3", metric="mtm")
    goal = (1, 2, 3, 4, 5, 0)
    truth = plain_mtm_bfs(goal, 2, 3)
    for position, d in truth.items():
        closer = sorted(
            f"{letter}{'' if tiles == 1 else tiles}"
            for letter in "DLRU"
            for tiles in (1, 2)
            if _slid(position, letter, tiles, 2, 3) in truth and truth[_slid(position, letter, tiles, 2, 3)] == d - 1
        )
        assert db23.best_moves(position) == closer, position
        for move in closer:
            assert db23.play(position, move) == db23.board_of(_slid(position, move[0], int(move[1:] or 1), 2, 3))


def _slid(cells: tuple[int, ...], letter: str, tiles: int, rows: int, cols: int) -> tuple[int, ...] | None:
    """The board after the blank slides `tiles` cells toward `letter`, by the
    test's own rules; None off the board."""
    dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[letter]
    board = list(cells)
    r, c = divmod(board.index(0), cols)
    for _ in range(tiles):
        if not (0 <= r + dr < rows and 0 <= c + dc < cols):
            return None
        a, b = r * cols + c, (r + dr) * cols + c + dc
        board[a], board[b] = board[b], board[a]
        r, c = r + dr, c + dc
    return tuple(board)


def test_play_replays_slides_as_solutions_write_them() -> None:
    db = npuzzle.Database(board="3x3", metric="mtm")
    goal = npuzzle.Board("123456780")
    # Before, "R2" was refused: 'move 2 is "2", not a move'.
    for moves in ("R2", "r2", ["R2"], ("R", "R"), "R R", "R1R"):
        assert db.play("123456078", moves) == goal, moves
    assert npuzzle.Board("123456078").apply("R2") == goal
    s = db.solve("867254301")
    assert db.play("867254301", s.moves) == goal == db.play("867254301", s.moves.split())
    # Every 2x3 solution, as written, reaches the goal.
    db23 = npuzzle.Database(board="2x3", metric="mtm")
    positions = list(plain_mtm_bfs((1, 2, 3, 4, 5, 0), 2, 3))
    for p, moves in zip(positions, db23.solve_many(positions)):
        assert db23.play(p, moves) == db23.goal
    # The single-tile database plays them too: a slide is its tiles' moves.
    assert npuzzle.default_database().play("123456078", "R2") == goal
    # Moves are numbered as written, a slide one move.
    with pytest.raises(npuzzle.IllegalMoveError, match=r"^move 3 \(R2\) takes the blank off the board$"):
        db.play("123456780", "U L R2")
    with pytest.raises(npuzzle.IllegalMoveError, match=r"^move 2 \(U3\) takes the blank off the board$"):
        db.play("123456780", ["L", "U3"])
    # A count past any board is refused, never counted out.
    for huge, number in (("R99", 1), ("R" + "9" * 40, 1), (["U", "R" + "9" * 40], 2)):
        with pytest.raises(npuzzle.Error, match=rf"^move {number} is \"R99.*a slide moves at most 17 tiles"):
            db.play("123456078", huge)
    # A long scramble plays however many moves it has (grading stops at
    # 10000, playing does not).
    assert goal.apply("UD" * 6000) == goal == db.play(goal, "UD" * 6000)
    for bad, message in [
        ("R0", 'move 1 is "R0", not a move'),
        ("R 2", "mix letters and numbers"),
        ("6 5 2", 'move 1 is "6", not a move'),
        (["R", "UL"], 'move 2 is "UL", not a move'),
        (["R", "2"], 'move 2 is "2", not a move'),
        ("R,,L", "move 2 is missing: there is nothing between two commas"),
        (["R", "L,"], 'move 2 is "L,", not a move'),
    ]:
        with pytest.raises(npuzzle.ParseError, match=message):
            db.play("123456078", bad)
    with pytest.raises(npuzzle.ParseError, match="one move letter"):
        goal.tile_moved_by("U2")
