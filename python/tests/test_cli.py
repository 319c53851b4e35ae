"""Answers equal the command line's (`query`) on random positions. Skipped
when no `query` binary is built (see conftest.find_query)."""

from __future__ import annotations

import json
import pickle
import subprocess

import npuzzle
import pytest

from conftest import find_query

QUERY = find_query()
pytestmark = pytest.mark.skipif(QUERY is None, reason="no query binary built (cargo build --bin query)")


def query(db, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(QUERY), "--db", db.path, *args], capture_output=True, text=True, timeout=60
    )


def test_random_with_a_seed_draws_what_the_command_line_draws(db3) -> None:
    for distance, arg in [(20, "20"), (range(10, 26), "10..26"), ("3..=5", "3..=5")]:
        out = query(db3, "random", "--distance", arg, "--count", "25", "--seed", "42")
        assert out.returncode == 0, out.stderr
        drawn = db3.random(distance, count=25, seed=42)
        assert [str(b) for b in drawn] == out.stdout.split()


def test_random_without_a_distance_draws_what_the_command_line_draws(db3) -> None:
    out = query(db3, "random", "--count", "30", "--seed", "5")
    assert out.returncode == 0, out.stderr
    drawn = db3.random(count=30, seed=5)
    assert [str(b) for b in drawn] == out.stdout.split()
    # Each one reaches the goal (the table knows its distance).
    assert all(db3.distance(b) is not None for b in drawn)
    with pytest.raises(npuzzle.ArgumentError, match="count= is at most 1000000 without distance="):
        db3.random(count=1_000_001)


def test_random_with_no_database_draws_what_the_command_line_draws() -> None:
    # 6x6 has no database at all: the draw needs none.
    out = subprocess.run(
        [str(QUERY), "--board", "6x6", "random", "--count", "4", "--seed", "9"],
        capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    drawn = npuzzle.random(count=4, seed=9, board="6x6")
    assert [" ".join(str(b).split()) for b in drawn] == out.stdout.splitlines()
    # Parity by hand: even width, so inversions + blank row keep the parity
    # of the goal's (0 inversions, blank in row 5).
    for board in drawn:
        tiles = [t for t in board.cells if t]
        inversions = sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1:])
        blank_row = list(board.cells).index(0) // 6
        assert (inversions + blank_row) % 2 == 1, board


def test_solutions_and_distances_equal_the_command_line(db3) -> None:
    starts = db3.random(range(0, 32), count=40, seed=7)
    goal = "123804765"
    for start in starts:
        for g in (None, goal):
            extra = [] if g is None else ["--goal", g]
            out = query(db3, "solve", "--json", str(start), *extra)
            answer = json.loads(out.stdout)
            if answer["solvable"]:
                assert db3.solve(start, g).to_dict() == answer
                assert db3.distance(start, g) == answer["distance"]
            else:
                with pytest.raises(npuzzle.UnsolvableError) as e:
                    db3.solve(start, g)
                assert e.value.reason == answer["reason"]
                assert db3.solvable(start, g).reason == answer["reason"]
    # The searches' costs at a distance are `query compare --distance`'s.
    out = query(db3, "compare", "--distance", "4..=5", "--count", "5", "--seed", "2", "--json")
    assert db3.search_costs(range(4, 6), count=5, seed=2) == json.loads(out.stdout)
    assert db3.search_costs("4..=5", count=5, seed=2) == json.loads(out.stdout)
    # The parity test's words, either verdict, are `query solvable`'s.
    for start in [*starts[:5], npuzzle.Board("213456780"), npuzzle.Board("8 6 7 2 5 4 3 1 0")]:
        out = query(db3, "solvable", "--json", str(start))
        answer = json.loads(out.stdout)
        verdict = npuzzle.solvable(start)
        assert (bool(verdict), verdict.explanation) == (answer["solvable"], answer["reason"])
        assert verdict.reason == (None if verdict else answer["reason"])
        assert pickle.loads(pickle.dumps(verdict)) == verdict
    for start in starts[:10]:
        out = query(db3, "solve", "--all", "--json", "--limit", "5", str(start))
        answer = json.loads(out.stdout)
        assert db3.count_solutions(start) == answer["solutions"]
        assert db3.solutions(start, limit=5) == answer["listed"]


def test_histogram_equals_the_command_line(db3) -> None:
    out = query(db3, "histogram", "--json", "--goal", "123804765")
    assert db3.histogram("123804765") == json.loads(out.stdout)["counts"]


@pytest.mark.parametrize(
    "bad", ["113456780", "12345678", "1234567890", "867/254/3O1", "[[1,2,3],[4,5,6]]", "12345678x"]
)
def test_parse_errors_say_what_the_command_line_says(db3, bad: str) -> None:
    out = query(db3, "distance", bad)
    assert out.returncode == 2
    with pytest.raises(npuzzle.ParseError) as e:
        db3.distance(bad)
    # The command line prefixes `query: bad start board "…": `.
    assert out.stderr.strip().endswith(str(e.value)), (out.stderr, str(e.value))


def test_pattern_answers_equal_the_command_line(tmp_path) -> None:
    # Nodes differ from run to run in a parallel search; the rest must not.
    path = npuzzle.build("3x3", tmp_path / "44.db", partition="4-4", all_goals=True, progress=False)
    db = npuzzle.Database(path)
    for start, goal in [("867254301", None), ("283104765", "123804765"), ("123456870", None)]:
        extra = [] if goal is None else ["--goal", goal]
        out = query(db, "solve", "--json", start, *extra)
        answer = json.loads(out.stdout)
        if not answer["solvable"]:
            with pytest.raises(npuzzle.UnsolvableError) as e:
                db.solve(start, goal)
            assert e.value.reason == answer["reason"]
            continue
        mine = db.solve(start, goal).to_dict()
        assert mine.pop("nodes") > 0 and answer.pop("nodes") > 0
        assert mine.pop("nodes_expanded") > 0 and answer.pop("nodes_expanded") > 0
        # Moves may differ between optimal solutions found in another order.
        assert len(mine.pop("moves")) == len(answer.pop("moves"))
        assert mine == answer
    out = query(db, "histogram")
    assert out.returncode == 2
    with pytest.raises(npuzzle.NeedsCompleteTablesError):
        db.histogram()
