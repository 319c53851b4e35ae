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
    s = db.solve("867254301")
    assert s.metric == "mtm" and s.distance == 20 == len(s)
    assert len(s.moves.split()) == 20
    assert s.single_tile_moves == expand(s.moves)
    assert db.play("867254301", s.single_tile_moves) == npuzzle.Board("123456780")
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
