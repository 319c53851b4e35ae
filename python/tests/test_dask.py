"""npuzzle.dask on a LocalCluster of 2 worker processes: frames of 3x3 and
2x3 boards answered as a plain BFS says, through complete tables and a 3x3
pattern file (the search path); bad rows with the command line's error
text; a worker killed mid-job; label_random the same whatever the
partitioning; and the `python -m npuzzle.dask` command line."""

from __future__ import annotations

import itertools
import json
import logging
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import npuzzle
import pytest

from conftest import find_query, plain_bfs, replay
from test_metric import plain_mtm_bfs

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
import pandas as pd  # noqa: E402 (after the skips: pandas comes with dask[dataframe])

import npuzzle.dask as nd  # noqa: E402
from npuzzle.dask.__main__ import main as cli  # noqa: E402

GOAL3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)
GOAL23 = (1, 2, 3, 4, 5, 0)
QUERY = find_query()


@pytest.fixture(scope="module")
def client(data_home: Path):  # type: ignore[no-untyped-def]
    """Two worker processes of one thread each, as the targets have."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster, distributed.Client(cluster) as c:
        yield c
    # Wait for the worker processes to be gone, so that their exit does not
    # take CPU from the tests that follow (some measure it).
    for process in multiprocessing.active_children():
        process.join(timeout=30)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, data_home: Path) -> dict[str, str]:
    """Database files at paths every worker opens (complete 3x3 and 2x3)."""
    folder = tmp_path_factory.mktemp("dask-dbs")
    return {
        board: npuzzle.build(board, folder / f"{board}.db", progress=False) for board in ("3x3", "2x3")
    }


def text(cells: tuple[int, ...]) -> str:
    return "".join(map(str, cells))


def check_against_bfs(out: pd.DataFrame, bfs: dict[tuple[int, ...], int]) -> None:
    """Every row's answer is the BFS's: the distance where the goal is
    reachable, unsolvable with a reason where not."""
    assert out["error"].isna().all()
    by_text = {text(cells): d for cells, d in bfs.items()}
    for start, distance, moves, solvable, reason in zip(
        out["start"], out["distance"], out["moves"], out["solvable"], out["reason"]
    ):
        if start in by_text:
            assert (solvable, distance, len(moves)) == (True, by_text[start], by_text[start]), start
            assert pd.isna(reason)
        else:
            assert solvable == False, start  # noqa: E712
            assert pd.isna(distance) and pd.isna(moves) and "inversion" in reason


def check_replays(out: pd.DataFrame, goal: tuple[int, ...], cols: int, limit: int | None = None) -> None:
    """The moves of (up to `limit`) solved rows lead to the goal."""
    solved = out[out["solvable"] == True][:limit]  # noqa: E712
    for start, moves in zip(solved["start"], solved["moves"]):
        assert replay(tuple(map(int, start)), moves, cols) == goal, start


def test_every_3x3_and_2x3_board_answered_as_a_plain_bfs_says(client, files, bfs3) -> None:
    # Every arrangement, so unsolvable rows too: 362,880 rows in 8 partitions.
    rows = pd.DataFrame({"start": [text(p) for p in itertools.permutations(range(9))]})
    out = nd.solve_frame(dd.from_pandas(rows, npartitions=8), db=files["3x3"]).compute()
    assert len(out) == len(rows) and list(out.index) == list(rows.index)
    assert list(out.columns) == ["start", *nd.COLUMNS]
    assert (out["solvable"] == True).sum() == len(bfs3) == 181440  # noqa: E712
    assert out["nodes"].isna().all()  # lookups, no search
    check_against_bfs(out, bfs3)
    check_replays(out.sample(3000, random_state=1), GOAL3, 3)

    bfs23 = plain_bfs(GOAL23, 3)
    rows = pd.DataFrame({"start": [text(p) for p in itertools.permutations(range(6))]})
    out = nd.solve_frame(dd.from_pandas(rows, npartitions=3), board="2x3", db=files["2x3"]).compute()
    check_against_bfs(out, bfs23)
    check_replays(out, GOAL23, 3)


def test_another_goal_and_boards_as_lists_of_uint8(client, files) -> None:
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    bfs = plain_bfs(goal, 3)
    rng = random.Random(3)
    boards = [tuple(rng.sample(range(9), 9)) for _ in range(2000)]
    column = pa.FixedSizeListArray.from_arrays(pa.array([t for b in boards for t in b], pa.uint8()), 9)
    frame = dd.from_pandas(
        pd.DataFrame({"start": pd.Series(pd.arrays.ArrowExtensionArray(column))}), npartitions=4
    )
    out = nd.solve_frame(frame, goal=text(goal), db=files["3x3"]).compute()
    out["start"] = [text(tuple(b)) for b in boards]
    check_against_bfs(out, bfs)
    check_replays(out, goal, 3)


def test_a_multi_tile_file_counts_slides(client, tmp_path: Path) -> None:
    """`distance` counts a multi-tile database's moves, slides (`U L D R2`
    is 4), as Database(metric="mtm").distance and a plain search do; it was
    the move string's characters (50 for 867254301, not 20)."""
    path = npuzzle.build("2x3", tmp_path / "2x3-mtm.db", metric="mtm", progress=False)
    db = npuzzle.Database(path, metric="mtm")
    truth = plain_mtm_bfs(GOAL23, 2, 3)
    rows = pd.DataFrame({"start": [text(p) for p in truth]})
    out = nd.solve_frame(dd.from_pandas(rows, npartitions=3), board="2x3", db=path).compute()
    assert out["error"].isna().all() and (out["solvable"] == True).all()  # noqa: E712
    assert list(out["distance"]) == [truth[p] for p in truth] == [db.distance(p) for p in truth]
    assert all(db.play(s, m) == db.goal for s, m in zip(out["start"], out["moves"]))
    labelled = nd.label_random(300, "2x3", seed=2, partitions=2, db=path).compute()
    assert list(labelled["distance"]) == [db.distance(s) for s in labelled["start"]]
    assert labelled["distance"].max() > 1
    mtm3 = npuzzle.Database(npuzzle.build("3x3", tmp_path / "3x3-mtm.db", metric="mtm", progress=False))
    one = nd.solve_frame(dd.from_pandas(pd.DataFrame({"start": ["867254301"]}), npartitions=1), db=mtm3.path)
    assert one.compute()["distance"].tolist() == [20] == [mtm3.distance("867254301")]


def test_a_3x3_pattern_file_searches_and_counts_nodes(client, pat3, bfs3) -> None:
    rng = random.Random(5)
    rows = pd.DataFrame({"start": [text(tuple(rng.sample(range(9), 9))) for _ in range(600)]})
    out = nd.solve_frame(dd.from_pandas(rows, npartitions=4), db=pat3.path, timeout=60).compute()
    check_against_bfs(out, bfs3)
    check_replays(out, GOAL3, 3)
    solved = out[out["solvable"] == True]  # noqa: E712
    assert len(solved) > 200 and (solved["nodes"] > 0).all()
    assert out[out["solvable"] == False]["nodes"].isna().all()  # noqa: E712


BAD_ROWS = ["1234", "123455780", "12345678x", "", "8 6 7 2 5 4 3 0 1", "[1,2,3]", "867254301"]


def test_bad_rows_get_the_command_lines_error_and_the_rest_is_answered(client, files) -> None:
    rows = pd.DataFrame({"start": [*BAD_ROWS, None]})
    out = nd.solve_frame(dd.from_pandas(rows, npartitions=2), db=files["3x3"]).compute()
    errors = list(out["error"])
    assert errors[:4] == [
        "bad start board: expected 9 tiles for a 3x3 board (the blank included), got 4",
        "bad start board: tile 5 appears twice (so tile 6 is missing)",
        "bad start board: unexpected character 'x' at column 9",
        "the line is empty",
    ]
    assert errors[7] == "bad start board: the value is missing (null)"
    assert list(out["distance"][4:7].fillna(-1)) == [31, -1, 31]
    assert out["solvable"][:4].isna().all() and pd.isna(errors[4]) and pd.isna(errors[6])
    if QUERY is not None:
        # Word for word what `query batch` writes for the same lines.
        lines = "".join(f"{row}\n" for row in BAD_ROWS)
        ran = subprocess.run(
            [str(QUERY), "--db", files["3x3"], "batch"], input=lines, capture_output=True, text=True, timeout=60
        )
        batch = [json.loads(line) for line in ran.stdout.splitlines()]
        assert [b.get("error") for b in batch] == [None if pd.isna(e) else e for e in errors[:7]]
        assert [b.get("distance") for b in batch] == [None if pd.isna(d) else d for d in out["distance"][:7]]


def test_a_column_of_categories_is_read_as_its_strings(files) -> None:
    # A pandas Categorical, as Parquet stores a dictionary-encoded column.
    boards = pd.Categorical(["867254301", "123456780", "867254301", "12345678"])
    frame = dd.from_pandas(pd.DataFrame({"start": boards}), npartitions=1)
    out = nd.solve_frame(frame, db=files["3x3"]).compute(scheduler="sync")
    assert list(out["distance"].fillna(-1)) == [31, 0, 31, -1]
    assert out["error"][3].startswith("bad start board: ")


def test_columns_of_board_objects_and_of_nothing_but_nulls(files) -> None:
    # In this process (the synchronous scheduler): pandas objects that
    # pyarrow cannot type go through the library row by row.
    boards = [npuzzle.Board("867254301"), [1, 2, 3, 4, 5, 6, 7, 0, 8], npuzzle.Board("123456780"), float("nan")]
    frame = dd.from_pandas(pd.DataFrame({"start": pd.Series(boards, dtype=object)}), npartitions=1)
    with dask.config.set({"dataframe.convert-string": False}):
        out = nd.solve_frame(frame, db=files["3x3"]).compute(scheduler="sync")
    assert list(out["distance"].fillna(-1)) == [31, 1, 0, -1]
    assert out["error"][3] == "bad start board: the value is missing (null)"
    nulls = dd.from_pandas(pd.DataFrame({"start": pd.Series([None, None], dtype=object)}), npartitions=1)
    out = nd.solve_frame(nulls, db=files["3x3"]).compute(scheduler="sync")
    assert list(out["error"]) == ["bad start board: the value is missing (null)"] * 2


def test_a_timed_out_search_is_a_solvable_row_with_the_command_lines_reason(client, db44) -> None:
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    goal = " ".join(map(str, range(16)))
    rows = pd.DataFrame({"start": [korf1, goal]})
    out = nd.solve_frame(
        dd.from_pandas(rows, npartitions=1), goal=goal, board="4x4", db=db44.path, timeout=0.001
    ).compute()
    # As `query batch` writes it: solvable (the parity said so), no distance,
    # the nodes searched, and a reason that says where the search stopped.
    stopped = r"timed out after 0.001 s \({}\): stopped at bound \d+ after (\d+) nodes"
    reason = re.fullmatch(stopped.format("timeout="), out["reason"][0])
    assert reason, out["reason"][0]
    assert out["solvable"][0] and pd.isna(out["distance"][0]) and pd.isna(out["error"][0])
    assert out["nodes"][0] == int(reason.group(1)) >= 0
    assert (out["distance"][1], out["nodes"][1] >= 0, out["error"].isna()[1]) == (0, True, True)
    if QUERY is not None:
        ran = subprocess.run(
            [str(QUERY), "--db", db44.path, "batch", "--timeout", "0.001", "--goal", goal],
            input=korf1 + "\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        line = json.loads(ran.stdout)
        assert (line["start"], line["goal"], line["solvable"]) == (korf1, goal, True)
        assert re.fullmatch(stopped.format("--timeout"), line["reason"]), line["reason"]


def test_arguments_are_checked_before_any_work(files) -> None:
    frame = dd.from_pandas(pd.DataFrame({"start": ["867254301"], "distance": [1]}), npartitions=1)
    with pytest.raises(npuzzle.ArgumentError, match="no column 'board'"):
        nd.solve_frame(frame, column="board")
    with pytest.raises(npuzzle.ArgumentError, match="already has the column 'distance'"):
        nd.solve_frame(frame)
    frame = frame.drop(columns="distance")
    # A pandas frame is named as one, with the way to a Dask frame.
    with pytest.raises(npuzzle.ArgumentTypeError, match="not pandas.DataFrame; make one with dask.dataframe.from_pandas"):
        nd.solve_frame(frame.compute())
    with pytest.raises(npuzzle.ParseError, match="49 cells"):
        nd.solve_frame(frame, board="7x7")
    # The goal named as the goal, as every face names it.
    with pytest.raises(npuzzle.ParseError, match='^bad goal board "1234": expected 9 tiles'):
        nd.solve_frame(frame, goal="1234")
    with pytest.raises(npuzzle.ParseError, match="^bad goal board: expected 9 tiles"):
        nd.label_random(2, goal=[1, 2, 3])
    # Quoted as the library quotes a board: cut short, a lone surrogate escaped.
    with pytest.raises(npuzzle.ParseError, match='^bad goal board "x{60}…": unexpected character'):
        nd.solve_frame(frame, goal="x" * 200_000)
    with pytest.raises(npuzzle.ParseError, match=r'^bad goal board "\\ud800"') as raised:
        nd.solve_frame(frame, goal="\ud800")
    str(raised.value).encode("utf-8")
    # db= and column= of the wrong type, or empty, are npuzzle's errors.
    with pytest.raises(npuzzle.ArgumentTypeError, match="db= is a Database or a file path .* not int"):
        nd.solve_frame(frame, db=5)  # type: ignore[arg-type]
    with pytest.raises(npuzzle.ArgumentError, match="db= is empty"):
        nd.solve_frame(frame, db="")
    with pytest.raises(npuzzle.ArgumentTypeError, match="column= names a column of boards, as a str, not list"):
        nd.solve_frame(frame, column=["start"])  # type: ignore[arg-type]
    # The one rule of every timeout= (and of query's --timeout), in its words.
    for timeout, why in [(0, "above 0"), (-1, "above 0"), (float("nan"), "NaN"), (float("inf"), "infinite"), (1e10, "limit")]:
        with pytest.raises(npuzzle.ArgumentError, match=f"timeout={timeout}: .*{why}"):
            nd.solve_frame(frame, timeout=timeout)
    with pytest.raises(npuzzle.ArgumentTypeError, match="not bool"):
        nd.solve_frame(frame, timeout=True)
    for bad in ({"n": 0}, {"n": 5, "seed": -1}, {"n": 5, "partitions": 0}, {"n": 5, "partitions": 6}):
        with pytest.raises(ValueError, match="must be"):
            nd.label_random(**{"n": 5, **bad})
    # Whole numbers as every argument takes them: NumPy's integers too; any
    # other type (a bool, a float, text) is ArgumentTypeError.
    np = pytest.importorskip("numpy")
    drawn = nd.label_random(np.int64(4), seed=np.uint64(3), partitions=np.int32(2), db=files["3x3"])
    assert drawn.compute(scheduler="sync")["start"].tolist() == nd.label_random(4, seed=3, partitions=2, db=files["3x3"]).compute(scheduler="sync")["start"].tolist()
    for bad in ({"n": 1.5}, {"n": "10"}, {"n": True}, {"n": 5, "seed": np.bool_(True)}):
        with pytest.raises(npuzzle.ArgumentTypeError, match="must be a whole number"):
            nd.label_random(**{"n": 5, **bad})
    # The board is the database's where none is given; another is refused
    # here, not on every worker.
    twos = dd.from_pandas(pd.DataFrame({"start": ["123405", "123450"]}), npartitions=1)
    for db in (files["2x3"], npuzzle.Database(files["2x3"])):
        answered = nd.solve_frame(twos, db=db).compute(scheduler="sync")
        assert answered["distance"].tolist() == [1, 0]
    with pytest.raises(npuzzle.ArgumentError, match="board='3x3', but .* holds 2x3 boards; leave out board="):
        nd.solve_frame(twos, board="3x3", db=files["2x3"])
    # The size as the library reads it, however written.
    assert nd.solve_frame(twos, board=" 2X3", db=files["2x3"]).compute(scheduler="sync")["distance"].tolist() == [1, 0]
    # Absurd sizes are refused at once, not left to hang a worker; a number
    # too long for Python to turn into text is named by its size.
    for bad, shown in (
        ({"n": 10**30}, "n must be a whole number from 1 to 9223372036854775807"),
        ({"n": 10**6, "partitions": 10**6 + 1}, "partitions must be a whole number from 1 to 1000000"),
        ({"n": 5, "seed": 2**64}, "seed must be a whole number from 0 to"),
        ({"n": 10**5000}, "not a number of 16610 bits"),
    ):
        with pytest.raises(npuzzle.ArgumentError, match=shown):
            nd.label_random(**bad)
    ints = dd.from_pandas(pd.DataFrame({"start": [123456780]}), npartitions=1)
    with pytest.raises(npuzzle.ArgumentTypeError, match="column 'start' holds int64; boards are strings"):
        nd.solve_frame(ints, db=files["3x3"])
    # Known only once read: a column of objects that are numbers (which
    # Dask's convert-string would otherwise turn into strings).
    with dask.config.set({"dataframe.convert-string": False}):
        objects = dd.from_pandas(pd.DataFrame({"start": pd.Series([123456780], dtype=object)}), npartitions=1)
        with pytest.raises(npuzzle.ArgumentTypeError, match="holds strings .* or lists of tiles, not int64"):
            nd.solve_frame(objects, db=files["3x3"]).compute(scheduler="sync")


def test_the_hints_take_numpys_integers(tmp_path: Path) -> None:
    """`label_random`'s whole numbers are NumPy's integers too, in its
    hints as at run time, as the core module's stubs say."""
    from test_boards import strict_mypy

    out, errors, _ = strict_mypy(
        tmp_path,
        [
            "import numpy as np",
            "import npuzzle.dask as nd",
            "nd.label_random(np.int64(4), seed=np.uint64(3), partitions=np.int32(2))",
            "nd.label_random(4.5)",
        ],
    )
    assert errors == [4], out


def test_a_worker_without_the_file_names_the_path_and_itself(client, tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere" / "3x3.db")
    frame = dd.from_pandas(pd.DataFrame({"start": ["867254301"]}), npartitions=1)
    with pytest.raises(npuzzle.DatabaseError) as raised:
        nd.solve_frame(frame, db=missing).compute()
    message = str(raised.value)
    assert missing in message and "on worker" in message and "tcp://" in message


def test_a_goal_the_file_has_no_table_for_names_the_worker(client, tmp_path: Path) -> None:
    # One table, the blank's goal cell bottom right; the goal asked has it
    # top middle, where no symmetry of 2x3 takes it.
    path = npuzzle.build("2x3", str(tmp_path / "2x3.db"), blanks=[5], progress=False)
    frame = dd.from_pandas(pd.DataFrame({"start": ["123450"]}), npartitions=1)
    with pytest.raises(npuzzle.MissingTableError) as raised:
        nd.solve_frame(frame, board="2x3", db=path, goal="102345").compute()
    message = str(raised.value)
    assert "on worker" in message and "tcp://" in message, message
    assert message.count("(on worker") == 1, message


def test_label_random_is_the_same_whatever_the_partitioning(client, files, bfs3) -> None:
    # 40,000 rows span three of the seeded blocks (16,384 each).
    frames = [nd.label_random(40_000, "3x3", seed=11, partitions=p, db=files["3x3"]).compute() for p in (1, 3, 7)]
    for other in frames[1:]:
        pd.testing.assert_frame_equal(frames[0], other)
    first = frames[0]
    assert list(first.index) == list(range(40_000))
    check_against_bfs(first, bfs3)
    check_replays(first, GOAL3, 3, limit=2000)
    assert first["solvable"].all()
    # Uniform over the reachable boards: each blank cell holds about 1/9
    # of them (4,444; a standard deviation is 63).
    blanks = first["start"].str.find("0").value_counts()
    assert len(blanks) == 9 and blanks.between(4444 - 400, 4444 + 400).all(), blanks
    assert nd.label_random(100, seed=12, db=files["3x3"]).compute()["start"].tolist() != first["start"][:100].tolist()
    # Toward another goal, every position reaches that goal.
    goal = (1, 2, 3, 8, 0, 4, 7, 6, 5)
    other = nd.label_random(2000, seed=11, partitions=2, goal=text(goal), db=files["3x3"]).compute()
    check_against_bfs(other, plain_bfs(goal, 3))
    check_replays(other, goal, 3)
    assert other["solvable"].all()


def test_a_worker_killed_mid_job_leaves_the_result_complete(client, pat3, bfs3) -> None:
    # Searches (the pattern file), in 60 partitions: long enough to kill
    # a worker while the job runs.
    rng = random.Random(9)
    rows = pd.DataFrame({"start": [text(tuple(rng.sample(range(9), 9))) for _ in range(30_000)]})
    frame = nd.solve_frame(dd.from_pandas(rows, npartitions=60), db=pat3.path)
    pids = client.run(os.getpid)
    victim = sorted(pids)[0]
    future = client.compute(frame)
    deadline = time.monotonic() + 60
    while not client.processing().get(victim) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not future.done(), "the job ended before the worker could be killed"
    os.kill(pids[victim], signal.SIGKILL)
    out = future.result(timeout=120)
    client.wait_for_workers(2, timeout=60)
    assert pids[victim] not in client.run(os.getpid).values()  # the answers came from the others
    assert list(out.index) == list(rows.index) and list(out["start"]) == list(rows["start"])
    check_against_bfs(out, bfs3)


def test_the_command_line_solves_parquet_to_parquet(client, files, tmp_path: Path, capsys) -> None:
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({"start": BAD_ROWS, "id": range(len(BAD_ROWS))}), source, row_group_size=3)
    out = tmp_path / "out.parquet"

    def solve(to: Path, *where: str, db: str = files["3x3"]) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "npuzzle.dask", "solve", str(source), str(to), "--db", db]
        return subprocess.run([*command, *where], capture_output=True, text=True, timeout=120)

    ran = solve(out, "--workers", "1")
    # Bad rows exit 2, as in `query batch`, and the output is complete.
    assert ran.returncode == 2, ran.stderr
    assert "5 of 7 rows could not be answered" in ran.stderr
    written = pd.read_parquet(out).sort_values("id")
    assert list(written["start"]) == BAD_ROWS
    assert list(written["distance"].fillna(-1)) == [-1, -1, -1, -1, 31, -1, 31]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    schema = pq.read_schema(next(out.glob("*.parquet")))
    assert (schema.field("distance").type, schema.field("moves").type) == (pa.int32(), pa.string())
    # At a running cluster's address, as on a real cluster.
    at = tmp_path / "at.parquet"
    ran = solve(at, "--scheduler", client.scheduler.address)
    assert ran.returncode == 2 and pd.read_parquet(at).sort_values("id").equals(written), ran.stderr
    # A job that fails leaves no output and no partial folder behind.
    failed = tmp_path / "failed.parquet"
    ran = solve(failed, "--scheduler", client.scheduler.address, db=str(tmp_path / "none.db"))
    assert ran.returncode == 2 and "none.db" in ran.stderr and "on worker" in ran.stderr, ran.stderr
    assert not failed.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

    # Refused before any work, with exit code 2 and a message naming why.
    other = tmp_path / "other.parquet"
    notes = tmp_path / "notes.txt"
    notes.write_text("not Parquet")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args, message in [
        ([source, out], "exists; remove it or name another output"),
        ([source, other, "--board", "7x7"], "49 cells"),
        ([source, other, "--timeout", "0"], "a timeout must be above 0 seconds; leave --timeout out"),
        ([source, other, "--workers", "0"], "expected at least 1"),
        ([source, other, "--workers", "65535"], "local workers (4 per core), got 65535; workers on more machines"),
        ([source, other, "--workers", "2", "--scheduler", "tcp://x:1"], "not allowed with argument"),
        ([source, other, "--goal", "1234"], "bad --goal '1234'"),
        ([tmp_path / "none.parquet", other], "no input at"),
        ([source, tmp_path / "no" / "o.parquet"], "no folder"),
        ([source, other, "--db", tmp_path / "none.db"], "no database file at"),
        ([source, other, "--db", tmp_path], "is a folder, not a database file (--db)"),
        ([fifo, other], "is not a file or a folder of Parquet files"),
        ([source, other, "--column", "foo"], "has no column 'foo' (its columns: start, id); name the column of boards with --column"),
        ([source, os.fsdecode(os.fsencode(tmp_path) + b"/o\xff.parquet")], "is not UTF-8, which pyarrow needs"),
        ([notes, other], "cannot read"),
    ]:
        with pytest.raises(SystemExit) as exited:
            cli(["solve", *map(str, args)])
        assert (exited.value.code, message in capsys.readouterr().err) == (2, True), args
    assert not other.exists()


def test_within_a_factor_with_a_database_and_with_none(client, files, pat3, bfs3, tmp_path, monkeypatch) -> None:
    rng = random.Random(12)
    boards = [tuple(rng.sample(range(9), 9)) for _ in range(300)]
    rows = pd.DataFrame({"start": [text(b) for b in boards] + ["1234"]})
    frame = dd.from_pandas(rows, npartitions=3)
    for db in (files["3x3"], pat3.path):
        out = nd.solve_frame(frame, db=db, within=1.3).compute()
        assert list(out.columns) == ["start", *nd.COLUMNS, "length", "lower_bound"]
        for start, length, bound, distance, moves, solvable in zip(
            boards, out["length"], out["lower_bound"], out["distance"], out["moves"], out["solvable"]
        ):
            if start not in bfs3:
                assert solvable == False and pd.isna(length) and pd.isna(moves)  # noqa: E712
                continue
            optimum = bfs3[start]
            assert replay(start, moves, 3) == GOAL3
            assert bound <= optimum <= length == len(moves) <= 1.3 * optimum
            # The distance is given only where the bound proves it.
            assert (distance == length) if bound == length else pd.isna(distance)
        assert "tile" in out["error"].iloc[-1]
    # A 6x6 board has no file: linear conflicts guide, in a folder with none.
    monkeypatch.chdir(tmp_path)
    goal6 = npuzzle.Board.goal("6x6")
    starts = [goal6.apply("ULDR"), goal6.apply("UULLDR"), goal6]
    frame = dd.from_pandas(pd.DataFrame({"start": [str(b) for b in starts]}), npartitions=1)
    out = nd.solve_frame(frame, board="6x6", within=2).compute(scheduler="sync")
    assert list(out["length"]) == [4, 6, 0] and (out["length"] <= 2 * out["lower_bound"]).all()
    labelled = nd.label_random(6, "6x6", seed=4, partitions=2, within=2).compute(scheduler="sync")
    assert labelled["error"].isna().all() and (labelled["length"] <= 2 * labelled["lower_bound"]).all()
    for start, moves in zip(labelled["start"], labelled["moves"]):
        assert npuzzle.Board(start, board="6x6").apply(moves) == goal6
    for bad in (0.5, float("nan"), 101, "2"):
        with pytest.raises(npuzzle.Error):
            nd.solve_frame(frame, board="6x6", within=bad)
    # Without within= a 6x6 frame needs a database, which none has: refused
    # at the call, before any worker starts, saying what to pass.
    for call in (lambda: nd.solve_frame(frame, board="6x6"), lambda: nd.label_random(4, "6x6")):
        with pytest.raises(npuzzle.ArgumentError, match="no database can be built for 6x6.*pass within="):
            call()
    # From the shell: the two columns are written, and W is checked first.
    source = tmp_path / "in6.parquet"
    pq.write_table(pa.table({"start": [str(b) for b in starts]}), source)
    command = [sys.executable, "-m", "npuzzle.dask", "solve", str(source)]
    where = ["--board", "6x6", "--scheduler", client.scheduler.address]
    ran = subprocess.run(
        [*command, str(tmp_path / "out6.parquet"), *where, "--within", "2"], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    written = pd.read_parquet(tmp_path / "out6.parquet")
    assert list(written["length"]) == [4, 6, 0] and list(written["lower_bound"]) == [4, 6, 0]
    ran = subprocess.run(
        [*command, str(tmp_path / "bad.parquet"), *where, "--within", "0.5"], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 2 and "below 1" in ran.stderr and not (tmp_path / "bad.parquet").exists(), ran.stderr
    ran = subprocess.run(
        [*command, str(tmp_path / "bad.parquet"), *where, "--within", "nan"], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 2 and "bad --within nan" in ran.stderr, ran.stderr
    # Without --within, the shell is told its own flag, not the function's.
    ran = subprocess.run([*command, str(tmp_path / "bad.parquet"), *where], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and "pass --within (for example --within 2)" in ran.stderr, ran.stderr
    assert "within=" not in ran.stderr and not (tmp_path / "bad.parquet").exists()
    # A multi-tile database cannot guide it: said when the frame is made,
    # given as a Database or as its path.
    mtm = npuzzle.Database(board="2x3", metric="mtm")
    for db in (mtm, mtm.path):
        with pytest.raises(npuzzle.ArgumentError, match="within counts single-tile moves"):
            nd.solve_frame(frame, board="2x3", db=db, within=2)
