"""Pattern databases from Python: a 3x3 `4-4` file checked against the
complete 3x3 table on random (start, goal) pairs with the blank anywhere,
and a 4x4 `6-6-3` file (built in seconds) on Korf's easiest instances,
checked against their published lengths and replayed to the goal."""

from __future__ import annotations

import _thread
import random
import threading
import time
from pathlib import Path

import npuzzle
import numpy as np
import pytest

from conftest import korf, replay

KORF_GOAL = " ".join(map(str, range(16)))  # blank top-left, tile k in cell k


def easiest(count: int) -> list[tuple[int, int, str]]:
    return sorted(korf(), key=lambda row: row[1])[:count]


def random_board(rng: random.Random, cells: int) -> str:
    tiles = list(range(cells))
    rng.shuffle(tiles)
    return "".join(map(str, tiles))


def test_the_package_opens_both_kinds(db3, pat3, db44) -> None:
    assert (db3.kind, db3.partition, db3.board) == ("complete", None, "3x3")
    assert (pat3.kind, pat3.partition, pat3.board) == ("pattern", "4-4", "3x3")
    assert (db44.kind, db44.partition, db44.board) == ("pattern", "6-6-3", "4x4")
    assert db44.goal == npuzzle.Board.goal("4x4")


def test_a_3x3_pattern_file_answers_as_the_complete_table(db3, pat3) -> None:
    rng = random.Random(20)
    solvable = unsolvable = 0
    for _ in range(150):
        start, goal = random_board(rng, 9), random_board(rng, 9)
        if not db3.solvable(start, goal):
            unsolvable += 1
            for db in (db3, pat3):
                with pytest.raises(npuzzle.UnsolvableError) as e:
                    db.solve(start, goal)
                assert e.value.reason == db3.solvable(start, goal).reason
            continue
        solvable += 1
        truth = db3.distance(start, goal)
        s = pat3.solve(start, goal)
        assert s.distance == truth == pat3.distance(start, goal)
        assert pat3.play(start, s.moves) == db3.board_of(goal)
        assert s.nodes > 0 and db3.solve(start, goal).nodes == 0
        assert pat3.best_moves(start, goal) == db3.best_moves(start, goal)
        assert pat3.check(start, s.moves[:-1], goal).remaining == 1
    assert solvable > 50 and unsolvable > 50


def test_3x3_batches_through_patterns_equal_the_complete_table(db3, pat3) -> None:
    rng = random.Random(3)
    for _ in range(4):
        goal = random_board(rng, 9)
        starts = [random_board(rng, 9) for _ in range(60)]
        assert pat3.distances(starts, goal) == db3.distances(starts, goal)
        for start, moves in zip(starts, pat3.solve_many(starts, goal, threads=2)):
            if moves is None:
                assert not db3.solvable(start, goal)
            else:
                assert len(moves) == db3.distance(start, goal)
                assert pat3.play(start, moves) == db3.board_of(goal)
    array = np.array([[int(c) for c in random_board(rng, 9)] for _ in range(30)], dtype=np.uint8)
    assert pat3.distances(array).tolist() == db3.distances(array).tolist()


def test_korf_instances_solved_optimally_and_replayed(db44) -> None:
    rows = easiest(4)
    solutions = db44.solve_many([start for _, _, start in rows], goal=KORF_GOAL, threads=2)
    for (number, length, start), moves in zip(rows, solutions):
        assert len(moves) == length, number
        assert replay(tuple(int(t) for t in start.split()), moves, 4) == tuple(range(16))
    distances = db44.distances(np.array([[int(t) for t in s.split()] for _, _, s in rows]), KORF_GOAL)
    assert distances.tolist() == [length for _, length, _ in rows]


def test_a_single_4x4_solve_with_best_moves_and_grading(db44) -> None:
    number, length, start = easiest(1)[0]
    s = db44.solve(start, KORF_GOAL)
    assert s.distance == length and s.nodes > 0
    assert s.to_dict()["nodes"] == s.nodes and s.to_dict()["distance"] == length
    assert s.boards()[-1] == npuzzle.Board(KORF_GOAL, board="4x4")
    # Along the solution, each move taken keeps it optimal.
    position = npuzzle.Board(start, board="4x4")
    for k in (length - 12, length - 3):
        here = position.apply(s.moves[:k])
        best = db44.best_moves(here, KORF_GOAL)
        assert s.moves[k] in best
        for m in "DLRU":
            if here.tile_moved_by(m) is not None:
                closer = db44.distance(here.apply(m), KORF_GOAL) == length - k - 1
                assert (m in best) == closer
    assert db44.best_moves(KORF_GOAL, KORF_GOAL) == []
    c = db44.check(start, s.moves + "RL", KORF_GOAL)
    assert (c.reaches_goal, c.optimal, c.excess, c.remaining) == (True, length, 2, 0)
    c = db44.check(start, s.moves[:-2], KORF_GOAL)
    assert (c.reaches_goal, c.remaining, c.excess) == (False, 2, None)
    # Within a factor, guided by the file's tables, named by its partition.
    w = db44.solve(start, KORF_GOAL, within=1.5)
    assert w.heuristic == w.to_dict()["heuristic"] == "patterns 6-6-3"
    assert w.lower_bound <= length <= w.length <= 1.5 * w.lower_bound


def test_estimates_toward_a_goal_the_file_does_not_answer(db44) -> None:
    # The default 6-6-3 file answers goals with the blank in a corner only:
    # its own estimate toward another is refused, but a classic heuristic
    # reads no table, so it is answered toward any goal (as heuristics()
    # answers one), in any case of its name.
    edge = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    with pytest.raises(npuzzle.MissingTableError, match="all_goals=True"):
        db44.estimates([KORF_GOAL], edge)
    assert db44.estimates([KORF_GOAL, edge], edge, heuristic="manhattan") == [1, 0]
    assert db44.estimates([edge], KORF_GOAL, heuristic="Manhattan") == [1]
    with pytest.raises(npuzzle.ArgumentError, match="heuristic= holds a lone surrogate"):
        db44.estimates([edge], KORF_GOAL, heuristic="manhattan\ud800")
    # Nor does a uniform draw need the tables: it is the one with no file.
    drawn = db44.random(count=3, seed=1, goal=edge)
    assert drawn == npuzzle.random(count=3, seed=1, board="4x4", goal=edge)


def test_heuristics_stand_where_the_distance_search_runs_out_of_time(db44) -> None:
    # The hardest of Korf's 100 (66 moves): stopped at once, its search has
    # proved a bound between the tables' estimate and the published length.
    _, length, hardest = max(korf(), key=lambda row: row[1])
    report = db44.heuristics(hardest, KORF_GOAL, timeout=0.001)
    assert report["distance"] is None
    tables = report["pattern_database"]["h"]
    assert tables <= report["lower_bound"] <= length
    for e in report["heuristics"]:
        if e["h"] <= report["lower_bound"]:
            assert (e["admissible_here"], e["overestimate"]) == (True, 0)
        else:
            assert (e["admissible_here"], e["overestimate"]) == (None, None)
    # Given the time, the same values beside the distance.
    solved = db44.heuristics(KORF_GOAL, KORF_GOAL, timeout=1.0)
    assert (solved["distance"], solved["lower_bound"]) == (0, 0)


def test_heuristics_toward_a_goal_with_no_table_are_searched_as_with_no_file(db44) -> None:
    # The blank on an edge: the file (corner goals) has no table toward it,
    # so the distance is the search's over linear conflicts, with no file.
    edge = npuzzle.Board("1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15", board="4x4")
    for moves in ("DRRULL", "RDDLURRDLU", "DDDRRUUUL"):
        start = edge.apply(moves)
        report = db44.heuristics(start, edge, timeout=10.0)
        assert "pattern_database" not in report
        assert report == npuzzle.heuristics(start, edge)
        assert report["distance"] <= len(moves) and report["distance"] % 2 == len(moves) % 2
        # compare's truth too: the search over linear conflicts.
        compared = db44.compare(start, edge, max_nodes=1000, timeout=10.0)
        assert (compared["database"], compared["distance"]) == ("linear-conflict", report["distance"])
    # Toward a goal it serves, the tables' estimate is there.
    assert "pattern_database" in db44.heuristics(edge, KORF_GOAL, timeout=10.0)


def test_a_search_that_runs_out_of_time_raises(db44) -> None:
    _, _, hardest = max(korf(), key=lambda row: row[1])
    with pytest.raises(npuzzle.SearchTimeoutError, match="no solution within the time allowed") as e:
        db44.solve(hardest, KORF_GOAL, timeout=0.001)
    assert isinstance(e.value, npuzzle.Error) and isinstance(e.value, TimeoutError)
    # 6-6-3 is not 4x4's strongest partition, so the advice names one.
    assert "use a stronger partition" in str(e.value)
    # Where it stopped: the nodes generated, and no more expanded.
    assert f"after {e.value.nodes} nodes" in str(e.value)
    assert 0 <= e.value.nodes_expanded <= e.value.nodes
    # A single position's error keeps no answers: only a batch's does.
    assert (e.value.answers, e.value.unanswered) == (None, None)
    with pytest.raises(npuzzle.SearchTimeoutError, match=r"positions\[0\]: no solution within"):
        db44.solve_many([hardest, hardest], KORF_GOAL, timeout=0.001)
    for call in (db44.distance, db44.best_moves):
        with pytest.raises(npuzzle.SearchTimeoutError):
            call(hardest, KORF_GOAL, timeout=0.001)
    # A draw's advice is the draw's: more time, or less to find.
    with pytest.raises(npuzzle.SearchTimeoutError, match=r"\(timeout=0.01 s\); more time, or fewer moves or positions"):
        db44.random(62, count=1000, seed=1, timeout=0.01)
    # One rule for every timeout=, the command line's --timeout's: above 0
    # (from a nanosecond) and at most 1e9 seconds; None is no limit.
    for timeout, why in [(-1, "above 0"), (0, "above 0"), (float("inf"), "infinite"), (1e10, "limit"), (1e-10, "nanosecond")]:
        for db in (db44, npuzzle.default_database()):
            with pytest.raises(npuzzle.ArgumentError, match=f"timeout={timeout}: .*{why}"):
                db.distance("867254301" if db.board == "3x3" else KORF_GOAL, timeout=timeout)
    assert db44.distance(KORF_GOAL, KORF_GOAL, timeout=None) == 0
    # A lookup, which takes no time, never runs out.
    assert npuzzle.default_database().distance("867254301", timeout=1e-9) == 31
    with pytest.raises(npuzzle.ArgumentError, match="NaN is not a number of seconds"):
        npuzzle.default_database().distance("867254301", timeout=float("nan"))


def test_what_needs_complete_tables_raises_one_exception(pat3, db44, db3) -> None:
    assert issubclass(npuzzle.NeedsCompleteTablesError, npuzzle.Error)
    for db in (pat3, db44):
        start = db.goal
        calls = {
            "histogram()": lambda: db.histogram(),
            "stats()": lambda: db.stats(),
            "heuristics_survey()": lambda: db.heuristics_survey(),
            "count_solutions()": lambda: db.count_solutions(start),
            "solutions()": lambda: db.solutions(start),
        }
        for name, call in calls.items():
            with pytest.raises(npuzzle.NeedsCompleteTablesError) as e:
                call()
            assert str(e.value).startswith(
                f"{name} needs complete tables; this file holds pattern databases for {db.board}"
            )
    assert db3.histogram()[0] == 1


def test_positions_at_a_distance_are_walked_on_patterns(db3, pat3, db44) -> None:
    # Each exactly as far as the complete table says, distinct, the same
    # for a seed, and the first of a larger count.
    goal = "123804765"
    drawn = pat3.random(range(18, 23), count=12, seed=5, goal=goal)
    assert len(set(drawn)) == 12
    assert all(18 <= db3.distance(b, goal) <= 22 for b in drawn)
    assert pat3.random(range(18, 23), count=3, seed=5, goal=goal) == drawn[:3]
    # On 4x4 a search says how far: the same as asked.
    far = db44.random(24, count=2, seed=1)
    assert [db44.distance(b) for b in far] == [24, 24]
    with pytest.raises(npuzzle.ArgumentError, match="at most 1000"):
        db44.random(24, count=1001)
    with pytest.raises(npuzzle.ArgumentError, match="no position 32 moves from the goal"):
        pat3.random(32, seed=1)
    # Walks that reach 29 moves a few times, then no more: the message
    # says how to draw those found, and that draws them.
    with pytest.raises(npuzzle.ArgumentError, match="no further position 29 moves") as short:
        pat3.random(29, count=40, seed=1)
    found = int(str(short.value).split("; count=")[1].split(",")[0])
    assert f"; count={found}, seed=1 draws the" in str(short.value)
    assert str(short.value).endswith("found before it, in this error's .answers")
    again = pat3.random(29, count=found, seed=1)
    assert [db3.distance(b) for b in again] == [29] * found
    # The error keeps them: the same positions, in the same order.
    assert short.value.answers == again
    # Nothing found, or another argument's error: None.
    with pytest.raises(npuzzle.ArgumentError) as none:
        pat3.random(32, seed=1)
    assert none.value.answers is None
    with pytest.raises(npuzzle.ArgumentError) as other:
        pat3.random(20, count=0)
    assert other.value.answers is None


def test_search_costs_on_patterns_average_the_walked_positions(pat3, db3) -> None:
    # Each distance's row is the mean over compare() of the positions
    # random() walks to with the same seed, each exactly that far.
    costs = pat3.search_costs(range(6, 9), count=4, seed=3, max_nodes=20000)
    assert costs["drawn"] == "walks"
    for k in range(6, 9):
        drawn = pat3.random(k, count=4, seed=3)
        assert [db3.distance(b) for b in drawn] == [k] * 4
        compared = [pat3.compare(b, max_nodes=20000) for b in drawn]
        rows = [r for r in costs["rows"] if r["distance"] == k]
        assert len(rows) == len(compared[0]["algorithms"]) == 8
        for i, row in enumerate(rows):
            runs = [c["algorithms"][i] for c in compared]
            assert row["algorithm"] == runs[0]["algorithm"]
            assert row["positions"] == 4
            assert row["mean_expanded"] == pytest.approx(sum(r["expanded"] for r in runs) / 4)
            assert row["optimal"] == sum(r["optimal"] is True for r in runs)
    # A* over Manhattan distance is optimal; a complete table draws uniformly.
    assert all(r["optimal"] == 4 for r in costs["rows"] if r["algorithm"] == "astar-manhattan")
    assert db3.search_costs(6, count=4)["drawn"] == "uniform"
    with pytest.raises(npuzzle.ArgumentError, match="no position 32 moves from the goal"):
        pat3.search_costs(32)


def test_a_distance_walks_do_not_reach_on_5x5_ends_with_a_message(tmp_path: Path) -> None:
    # With no timeout=: the walks' ends lie about 100 moves out, and an
    # optimal search of one through small tables would take hours; a
    # quick solution of fewer moves shows each too near.
    path = npuzzle.build("5x5", tmp_path / "5x5.db", partition="4-4-4-4-4-4", progress=False)
    db = npuzzle.Database(path)
    with pytest.raises(npuzzle.ArgumentError) as e:
        db.random(200, seed=1)
    said = "no position 200 moves from the goal was found in 256 walks, none of which ended more than "
    assert str(e.value).startswith(said), str(e.value)
    assert int(str(e.value)[len(said) :].split()[0]) < 200
    # 210 is only an upper bound: positions that far are not said to exist.
    said = "positions that far, if there are any (none lies more than 210 moves out), are too rare"
    assert said in str(e.value), str(e.value)
    # Past Karlemo and Östergård's bound, refused before any walk.
    with pytest.raises(npuzzle.ArgumentError, match="none lies more than 210 moves away"):
        db.random(211)


def test_goals_no_set_serves_and_bad_builds(tmp_path: Path, db44) -> None:
    # The default 4x4 file holds sets for corner blanks only.
    # The rebuild replaces the file: the message says how large it grows
    # (the 6-6-3 file with every goal's sets: 23.1 MB, as build-db makes it).
    grows = r"with every goal's tables \(a file of about 23\.1 MB in place of this one's 5\.8 MB\)"
    with pytest.raises(npuzzle.MissingTableError, match=grows + r".*all_goals=True"):
        db44.distance(db44.goal, "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15")
    with pytest.raises(ValueError, match="needs path="):
        npuzzle.build("3x3", partition="4-4")
    with pytest.raises(ValueError, match="no partition named"):
        npuzzle.build("4x4", tmp_path / "x.db", partition="9-9")
    # A size, read well, that no database is built for: its message kept,
    # as an argument out of what build takes, not a text it cannot read.
    for size in ("2x7", "6x6"):
        with pytest.raises(npuzzle.ArgumentError, match=rf"no database can be built for {size}.*solve_within\("):
            npuzzle.build(size, tmp_path / "x.db")
    with pytest.raises(npuzzle.DatabaseError, match=r"built only on request: npuzzle.build\(board=\"3x5\"\)"):
        npuzzle.Database(board="3x5")
    with pytest.raises(npuzzle.ParseError, match="expected 16 tiles"):
        db44.distance("123456780")


def test_ctrl_c_stops_a_search(db44) -> None:
    # The ten longest instances take seconds on one thread; Ctrl-C (here
    # simulated) must stop them at once, as it stops Python code.
    hardest = [start for _, _, start in sorted(korf(), key=lambda row: -row[1])[:10]]
    threading.Timer(0.1, _thread.interrupt_main).start()
    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        db44.solve_many(hardest, KORF_GOAL, threads=1, timeout=60)
    assert time.perf_counter() - started < 3


def transpose(board: npuzzle.Board) -> npuzzle.Board:
    """The board mirrored in its diagonal: rows become columns."""
    grid = board.tolist()
    return npuzzle.Board([list(column) for column in zip(*grid)], board=f"{board.cols}x{board.rows}")


def test_3x5_and_5x3_agree_through_the_transpose(tmp_path: Path) -> None:
    # Transposing the board maps moves to moves, so a position and its
    # transpose are equally far from their goals: two files, two searches.
    wide = npuzzle.Database(npuzzle.build("3x5", tmp_path / "3x5.db", partition="6-6-2", progress=False))
    tall = npuzzle.Database(npuzzle.build("5x3", tmp_path / "5x3.db", partition="6-6-2", progress=False))
    rng = random.Random(35)
    goal = wide.goal
    for _ in range(6):
        position, walked = goal, 0
        while walked < 40:
            m = rng.choice("UDLR")
            if position.tile_moved_by(m) is not None:
                position, walked = position.apply(m), walked + 1
        s = wide.solve(position)
        assert s.distance <= walked and s.distance % 2 == walked % 2
        assert position.apply(s.moves) == goal
        assert tall.distance(transpose(position), transpose(goal)) == s.distance
    assert wide.solve_many([goal, goal.apply("UL")]) == ["", "RD"]


def test_a_batch_that_runs_out_of_time_keeps_what_it_answered(db44) -> None:
    # One thread takes the positions in order: the two easy ones are
    # answered in microseconds, and Gasser's position, 80 moves from the
    # goal, takes the 6-6-3 tables far more than the 0.5 s allowed; the one
    # after it is not answered either.
    goal = npuzzle.Board(KORF_GOAL, board="4x4")
    gasser = (Path(__file__).parents[2] / "tests/data/hardest4x4.txt").read_text().splitlines()
    hard = npuzzle.Board(next(line for line in gasser if line.startswith("1 80 ")).split(maxsplit=2)[2], board="4x4")
    easy = [goal.apply("RDL"), goal.apply("DRRU")]
    positions = [easy[0], easy[1], hard, goal.apply("R")]
    with pytest.raises(npuzzle.SearchTimeoutError, match=r"^positions\[2\]: .* \(answered before it: 2 of 4 positions, in the error's \.answers") as e:
        db44.solve_many(positions, KORF_GOAL, threads=1, timeout=0.5)
    answers, unanswered = e.value.answers, e.value.unanswered
    assert unanswered == [2, 3] and answers[2:] == [None, None]
    for start, moves in zip(easy, answers):
        assert start.apply(moves) == goal and len(moves) == db44.distance(start, goal)
    # The same from the other batches, in the form each returns.
    with pytest.raises(npuzzle.SearchTimeoutError) as e:
        db44.distances(positions, KORF_GOAL, threads=1, timeout=0.5)
    assert (e.value.answers, e.value.unanswered) == ([3, 4, None, None], [2, 3])
    rows = np.array([p.cells for p in positions], dtype=np.uint8)
    with pytest.raises(npuzzle.SearchTimeoutError) as e:
        db44.distances(rows, KORF_GOAL, threads=1, timeout=0.5)
    assert e.value.answers.tolist() == [3, 4, -1, -1] and e.value.unanswered == [2, 3]
    with pytest.raises(npuzzle.SearchTimeoutError) as e:
        db44.solve_many(positions[:3], KORF_GOAL, within=1, threads=1, timeout=0.5)
    assert e.value.unanswered == [2] and [len(m) for m in e.value.answers[:2]] == [3, 4]
    # Once the time is out, a batch within= starts no more searches: the
    # easy positions after the hard one are left unanswered, not searched.
    with pytest.raises(npuzzle.SearchTimeoutError) as e:
        db44.solve_many([hard] + easy * 50, KORF_GOAL, within=1, threads=1, timeout=0.5)
    assert e.value.unanswered == list(range(101)) and e.value.answers == [None] * 101
    # A bad row of an array is refused before any search, though a search
    # above it would have run out of time first.
    rows[1] = 0
    with pytest.raises(npuzzle.ParseError, match=r"^positions\[1\]: "):
        db44.solve_many(rows, KORF_GOAL, threads=1, timeout=0.5)


def test_a_draw_that_runs_out_of_time_keeps_what_it_found(db44) -> None:
    # Seed 3's first positions lie few moves away and are found in
    # milliseconds; a later one's search takes far longer than 0.5 s.
    with pytest.raises(npuzzle.SearchTimeoutError) as e:
        db44.random(range(1, 62), count=1000, seed=3, timeout=0.5)
    found = e.value.answers
    assert found and e.value.unanswered is None
    many = "the one position" if len(found) == 1 else f"the {len(found)} positions"
    took = "it took" if len(found) == 1 else "they took"
    assert str(e.value).endswith(f"; count={len(found)}, seed=3 draws {many} found before it, given the time {took}, in this error's .answers")
    # They are the first the seed draws, each as far as asked.
    assert db44.random(range(1, 62), count=len(found), seed=3) == found
    assert all(1 <= d <= 61 for d in db44.distances(found))
