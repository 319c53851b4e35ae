"""Answers checked against a plain breadth-first search (2x3 and 3x3)."""

from __future__ import annotations

import pickle
import random
from functools import lru_cache

import npuzzle
import numpy as np
import pytest

from conftest import neighbours, plain_bfs, replay


def text(cells: tuple[int, ...]) -> str:
    return "".join(map(str, cells))


@pytest.mark.parametrize("goal", [(1, 2, 3, 4, 5, 0), (4, 0, 2, 5, 1, 3), (0, 1, 2, 3, 4, 5)])
def test_every_2x3_position_against_a_plain_search(db23, goal: tuple[int, ...]) -> None:
    truth = plain_bfs(goal, 3)
    positions = list(truth)
    assert db23.distances(positions, goal) == [truth[p] for p in positions]
    counts = [0] * (max(truth.values()) + 1)
    for d in truth.values():
        counts[d] += 1
    assert db23.histogram(goal) == counts

    @lru_cache(maxsize=None)
    def ways(p: tuple[int, ...]) -> int:
        if truth[p] == 0:
            return 1
        return sum(ways(n) for _, n in neighbours(p, 3) if truth[n] == truth[p] - 1)

    for p in positions:
        s = db23.solve(p, goal)
        assert s.distance == truth[p] == db23.distance(list(p), goal)
        assert replay(p, s.moves, 3) == goal and db23.play(p, s.moves) == npuzzle.Board(goal, board="2x3")
        best = sorted(m for m, n in neighbours(p, 3) if truth[n] == truth[p] - 1)
        assert db23.best_moves(p, goal) == best
        assert db23.count_solutions(p, goal) == ways(p)
    # Positions of the other parity never reach the goal.
    swapped = list(goal)
    a, b = [i for i, t in enumerate(goal) if t != 0][:2]
    swapped[a], swapped[b] = swapped[b], swapped[a]
    assert not db23.solvable(swapped, goal)
    assert db23.distances([swapped], goal) == [None]


def test_3x3_against_a_plain_search(db3, bfs3) -> None:
    positions = list(bfs3)
    # Every position, in one batch.
    assert db3.distances([text(p) for p in positions]) == [bfs3[p] for p in positions]
    rng = random.Random(5)
    for p in rng.sample(positions, 300):
        s = db3.solve(text(p))
        assert s.distance == bfs3[p]
        board = npuzzle.Board(p)
        for i, b in enumerate(s.boards()):
            assert bfs3[b.cells] == bfs3[p] - i
        assert s.boards()[-1] == npuzzle.Board.goal()
        assert len(s.tiles) == s.distance
        best = sorted(m for m, n in neighbours(p, 3) if bfs3[n] == bfs3[p] - 1)
        assert db3.best_moves(board) == best
        sols = db3.solutions(p, limit=5)
        assert sols == sorted(sols) and len(set(sols)) == len(sols)
        assert all(replay(p, m, 3) == (1, 2, 3, 4, 5, 6, 7, 8, 0) for m in sols)
    counts = [0] * 32
    for d in bfs3.values():
        counts[d] += 1
    assert db3.histogram() == counts == npuzzle.histogram()


def test_state_space_statistics_and_the_heuristics_survey(db3, bfs3) -> None:
    # Checked against the plain breadth-first search, not the tables.
    stats = db3.stats("123456780")
    table = stats["tables"][0]
    far = max(bfs3.values())
    farthest = sorted("".join(map(str, p)) for p, d in bfs3.items() if d == far)
    assert (stats["board"], table["positions"], table["max_distance"]) == ("3x3", len(bfs3), far)
    assert table["farthest"] == farthest
    assert abs(table["mean_distance"] - sum(bfs3.values()) / len(bfs3)) < 1e-9
    assert [t["goal"] for t in db3.stats()["tables"]][0] == "123456780"
    # Manhattan distance computed here, by distance, as the survey gives it.
    def manhattan(p: tuple[int, ...]) -> int:
        return sum(abs(i // 3 - (t - 1) // 3) + abs(i % 3 - (t - 1) % 3) for i, t in enumerate(p) if t)
    by_distance: dict[int, list[int]] = {}
    for p, d in bfs3.items():
        by_distance.setdefault(d, []).append(manhattan(p))
    survey = db3.heuristics_survey()
    assert (survey["goal"], survey["positions"]) == ("123456780", len(bfs3))
    named = {h["heuristic"]: h for h in survey["heuristics"]}
    for row in named["manhattan"]["by_distance"]:
        hs = by_distance[row["distance"]]
        assert (row["count"], row["min"], row["max"]) == (len(hs), min(hs), max(hs))
        assert abs(row["mean"] - sum(hs) / len(hs)) < 1e-9
    assert named["manhattan"]["inadmissible"] == named["linear-conflict"]["inadmissible"] == 0


def test_module_functions_use_the_3x3_database(bfs3) -> None:
    assert npuzzle.distance("867254301") == 31 == bfs3[(8, 6, 7, 2, 5, 4, 3, 0, 1)]
    assert npuzzle.solve("867254301").distance == 31
    assert npuzzle.default_database().board == "3x3"
    assert npuzzle.solve_many(["123456708"]) == ["R"]


def test_grading(db3) -> None:
    c = db3.check("123468750", "ULDR")
    assert (c.legal, c.reaches_goal, c.optimal, c.excess, c.is_optimal) == (True, True, 4, 0, True)
    assert c.away == []
    c = db3.check("123468750", ["U", "L", "D", "R", "L", "R"])
    assert (c.reaches_goal, c.length, c.excess, c.is_optimal) == (True, 6, 2, False)
    # From the goal, move 5 (L) goes one away and move 6 comes back: the
    # goal was reached after move 4.
    assert c.away == [5] and c.goal_reached_after == 4
    assert db3.check("123468750", "UL").goal_reached_after is None
    assert db3.check("123456780", "LR").goal_reached_after == 0
    passed = db3.check("123468750", "ULDRL")
    assert (passed.reaches_goal, passed.goal_reached_after) == (False, 4)
    assert pickle.loads(pickle.dumps(passed)) == passed
    c = db3.check("123468750", "UL")
    assert (c.legal, c.reaches_goal, c.excess, c.remaining) == (True, False, None, 2)
    assert c.end == npuzzle.Board("123406758")
    c = db3.check("123468750", "ULDRR")
    assert (c.legal, c.illegal_move, c.reaches_goal) == (False, 5, False)
    # The tiles' directions written for the blank's: said, and pickled.
    assert db3.check("123468750", "DRUL").reversed_reaches_goal
    assert not c.reversed_reaches_goal and not db3.check("123468750", "ULDR").reversed_reaches_goal
    turned = db3.check("123468750", "DRUL")
    assert pickle.loads(pickle.dumps(turned)) == turned and turned.to_dict()["reversed_reaches_goal"]
    with pytest.raises(npuzzle.ParseError, match="move 2"):
        db3.check("123468750", "UX")
    # The tiles moved, as the page takes them, grade as the blank's letters.
    for tiles in ("8 6 5 8", "8,6,5,8", [8, 6, 5, 8], ["8", "6", "5", "8"], np.array([8, 6, 5, 8]), [np.int64(8), np.uint8(6), 5, 8]):
        assert db3.check("123468750", tiles) == db3.check("123468750", "ULDR")
    with pytest.raises(npuzzle.ParseError, match="mix letters and tile numbers"):
        db3.check("123468750", "U 6")
    for tiles, says in (
        ([8, 0], "move 2 is tile 0: the tiles of a 3x3 board are 1 to 8"),
        ([300], "tile 300"),
        ([8, 2**80], f"move 2 is tile {2**80}: the tiles of a 3x3 board are 1 to 8"),
        ([-1], "move 1 is tile -1"),
        # A tile the board lacks, or a slide past its side, in any form.
        ("8 9", "move 2 is tile 9: the tiles of a 3x3 board are 1 to 8"),
        ("L U3", 'move 2 is "U3": on a 3x3 board a slide up or down moves at most 2 tiles'),
        (["L", "R3"], 'move 2 is "R3": on a 3x3 board a slide left or right moves at most 2 tiles'),
        ("UD" * 6000, "12000 moves: at most 10000 moves are graded at once"),
        (["U", "D"] * 6000, "12000 moves: at most 10000 moves are graded at once"),
        ("8 300", "move 2 is tile 300: the tiles of a 3x3 board are 1 to 8"),
        # A move left out, in a string or a list.
        ("8,,6", "move 2 is missing: there is nothing between two commas"),
        (["8", "", "6"], "move 2 is missing: the list holds an empty string there"),
        (["U", " ", "L"], "move 2 is missing: the list holds an empty string there"),
    ):
        with pytest.raises(npuzzle.ParseError, match=says):
            db3.check("123468750", tiles)
    with pytest.raises(npuzzle.ArgumentTypeError, match="not bytes"):
        db3.check("123468750", b"ULDR")
    with pytest.raises(npuzzle.ArgumentTypeError, match="move 1 is a bool"):
        db3.check("123468750", [True, 6])
    d = db3.check("123468750", "ULDRLR").to_dict()
    assert d == {
        "legal": True, "illegal_move": None, "reaches_goal": True, "length": 6, "optimal": 4,
        "excess": 2, "end": "123456780", "remaining": 0, "away": [5], "reversed_reaches_goal": False,
        "goal_reached_after": 4,
    }


def test_answers_pickle_and_compare(db3, tmp_path) -> None:
    """What the package returns crosses process boundaries (multiprocessing,
    Dask, joblib) whole, and compares equal to itself."""
    import multiprocessing
    import pickle

    answers = [
        db3.solve("867254301"),
        db3.solve("867254301", within=1.5),
        npuzzle.solve_within("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", 2, board="4x4"),
        db3.check("123468750", "ULDRLR"),
        db3.check("123468750", "ULDRR"),
        db3.solvable("213456780"),
        db3.solvable("123456708"),
    ]
    for answer in answers:
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(answer, protocol))
            assert again == answer and repr(again) == repr(answer)
    assert db3.solve("867254301") == db3.solve("867254301")
    assert db3.solve("867254301") != db3.solve("123456708")
    # Equal answers hash alike, so they go in sets and dict keys.
    assert len({*answers, *(pickle.loads(pickle.dumps(a)) for a in answers)}) == len(answers)
    assert pickle.loads(pickle.dumps(answers[0])).to_dict() == answers[0].to_dict()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        solved = pool.map(npuzzle.solve, ["867254301", "123468750"])
    assert [s.moves for s in solved] == [npuzzle.solve("867254301").moves, "ULDR"]
    # A state that is not one is refused, not turned into a wrong answer.
    for state in (
        ("867254301", "123456780", "3x3", "X", 0, None, None),  # not a move
        ("123456780", "123456780", "3x3", "UUUUUUUU", 0, None, None),  # off the board
        ("123456708", "123456780", "3x3", "R", 0, (1, 2), None),  # more expanded than generated
        ("123456708", "123456780", "3x3", "R", 0, None, (999, 1, "manhattan")),  # W below 1
    ):
        with pytest.raises(npuzzle.ArgumentTypeError, match="pickled Solution"):
            npuzzle.Solution._unpickle(state)


def test_the_version_is_the_installed_packages() -> None:
    from importlib.metadata import version

    assert npuzzle.__version__ == version("npuzzle") != "unknown"


OPTIMAL = ("bfs", "iddfs", "astar-misplaced", "astar-manhattan", "astar-linear-conflict", "idastar-manhattan")


def test_heuristics_and_the_textbook_searches_against_plain_counts(db3, pat3) -> None:
    # Misplaced tiles and Manhattan counted here, tile by tile; the
    # distance from a plain breadth-first search.
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    truth = plain_bfs(goal, 3)
    home = {t: divmod(i, 3) for i, t in enumerate(goal)}
    rng = random.Random(11)
    for start in rng.sample(sorted(truth), 25):
        report = db3.heuristics(text(start), text(goal))
        assert report["distance"] == truth[start]
        by_name = {e["heuristic"]: e for e in report["heuristics"]}
        misplaced = sum(1 for a, b in zip(start, goal) if a and a != b)
        cells = [0] * 9
        for i, t in enumerate(start):
            if t:
                (r, c), (hr, hc) = divmod(i, 3), home[t]
                cells[i] = abs(r - hr) + abs(c - hc)
        assert by_name["misplaced"]["h"] == misplaced
        assert by_name["manhattan"]["h"] == sum(cells)
        assert report["manhattan_by_cell"] == cells
        assert all(e["admissible_here"] == (e["h"] <= truth[start]) for e in by_name.values())
        # The pattern tables' own estimate, on the 4-4 file: admissible.
        tables = pat3.heuristics(text(start), text(goal))["pattern_database"]
        assert tables["partition"] == "4-4" and tables["h"] <= truth[start]
    # The searches: the optimal ones as long as the truth, every answer
    # replayed to the goal.
    start = rng.choice([p for p in truth if truth[p] == 12])
    compared = db3.compare(text(start), text(goal))
    assert compared["distance"] == 12
    for run in compared["algorithms"]:
        if run["algorithm"] in OPTIMAL:
            assert (run["length"], run["optimal"]) == (12, True)
        assert db3.play(text(start), run["moves"]) == npuzzle.Board(text(goal))
    with pytest.raises(npuzzle.ArgumentError, match="max_nodes= is a whole number from 1"):
        db3.compare(text(start), text(goal), max_nodes=0)
    # On a pattern database the truth is its search's; the searches are the same.
    searched = pat3.compare(text(start), text(goal))
    assert (searched["database"], searched["distance"]) == ("search", 12)
    def strip(runs: list[dict[str, object]]) -> list[tuple[object, ...]]:
        # Depth-first search's limit is the distance here, the farthest there.
        return [(r["algorithm"], r["moves"], r["expanded"]) for r in runs if r["algorithm"] != "dfs"]

    assert strip(searched["algorithms"]) == strip(compared["algorithms"])


def test_the_module_heuristics_need_no_file(db3) -> None:
    # On 3x3 the search over linear conflicts finds what the table holds:
    # the same dict, to a goal that is not the default one too.
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    truth = plain_bfs(goal, 3)
    for start in random.Random(3).sample(sorted(truth), 12):
        assert npuzzle.heuristics(text(start), text(goal)) == db3.heuristics(text(start), text(goal))
    # On 6x6 near the goal, the distance (ULLURD's 6, as a breadth-first
    # search to depth 6 finds it); far from it, the bound its search
    # proved by the timeout.
    six = npuzzle.Board.goal("6x6")
    near = six.apply("ULLURD")
    report = npuzzle.heuristics(near)
    assert (report["board"], report["distance"], report["lower_bound"]) == ("6x6", 6, 6)
    assert report["heuristics"][1]["h"] == sum(report["manhattan_by_cell"])
    far = npuzzle.random(board="6x6", seed=1)[0]
    stopped = npuzzle.heuristics(far, timeout=0.2)
    assert stopped["distance"] is None and "pattern_database" not in stopped
    assert stopped["lower_bound"] >= stopped["heuristics"][2]["h"]
    # The rules of every face: a size from a Board or board=, a timeout
    # above 0, an unsolvable pair named.
    assert npuzzle.heuristics(str(near), board="6x6") == report
    with pytest.raises(npuzzle.ArgumentError, match="timeout=0: .*above 0"):
        npuzzle.heuristics(near, timeout=0)
    with pytest.raises(npuzzle.UnsolvableError):
        npuzzle.heuristics("213456780")


def test_estimates_are_the_heuristics_counted_here_and_the_tables_first_bound(db3, pat3) -> None:
    np = pytest.importorskip("numpy")
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    truth = plain_bfs(goal, 3)
    home = {t: divmod(i, 3) for i, t in enumerate(goal)}
    starts = random.Random(5).sample(sorted(truth), 200)
    # Manhattan counted here, tile by tile.
    manhattan = [
        sum(abs(i // 3 - home[t][0]) + abs(i % 3 - home[t][1]) for i, t in enumerate(s) if t) for s in starts
    ]
    texts = [text(s) for s in starts]
    for db in (db3, pat3):
        assert db.estimates(texts, text(goal), heuristic="manhattan") == manhattan
    # The tables' own: the bound a search stopped before its first node
    # reports, and what heuristics() says; between Manhattan and the truth.
    tables = pat3.estimates(texts, text(goal))
    assert tables == [pat3.heuristics(t, text(goal))["pattern_database"]["h"] for t in texts]
    for t, h in list(zip(texts, tables))[:40]:
        if t == text(goal):
            continue
        with pytest.raises(npuzzle.SearchTimeoutError) as stopped:
            pat3.distance(t, text(goal), timeout=1e-9)
        assert (stopped.value.bound, stopped.value.nodes) == (h, 0), t
    assert all(m <= h <= truth[s] for m, h, s in zip(manhattan, tables, starts))
    assert sum(h > m for m, h in zip(manhattan, tables)) > 0
    # No estimate where the goal cannot be reached; NumPy in, NumPy out.
    swapped = text(goal).replace("1", "x").replace("2", "1").replace("x", "2")
    assert pat3.estimates([texts[0], swapped], text(goal)) == [tables[0], None]
    array = np.array(starts[:5], dtype=np.int64)
    out = pat3.estimates(array, text(goal), heuristic="linear-conflict")
    assert out.dtype == np.int16 and list(out) == pat3.estimates(texts[:5], text(goal), heuristic="linear-conflict")
    with pytest.raises(npuzzle.ArgumentError, match="complete tables have no estimate of their own"):
        db3.estimates(texts)
    with pytest.raises(npuzzle.ArgumentError, match='heuristic=: unknown heuristic "euclid"'):
        pat3.estimates(texts, heuristic="euclid")
    with pytest.raises(npuzzle.ArgumentTypeError, match="heuristic= is a name"):
        pat3.estimates(texts, heuristic=3)  # type: ignore[arg-type]
