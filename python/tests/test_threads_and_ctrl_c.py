"""Issue 21, item 1: `threads=` is refused past what `query batch --threads`
takes, in the same words; batches reuse their threads; and Ctrl-C stops
`distances`, `solve_many` and `build()` within about a second."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import npuzzle
import pytest

from conftest import find_query, korf

CORES = len(os.sched_getaffinity(0))
MOST = 4 * CORES


def run_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter, so that a hang fails by the timeout
    instead of stopping the test run."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_absurd_thread_counts_are_refused_at_once() -> None:
    # Today's code built a pool of 10,000 threads, and did not return.
    done = run_python(
        """
        import npuzzle, time
        db = npuzzle.Database(board="2x3")
        for threads in (10000, 10**6, 10**30):
            start = time.perf_counter()
            try:
                db.distances(["123450"], threads=threads)
            except npuzzle.ArgumentError as e:
                print(round(time.perf_counter() - start, 3), e)
        """,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3, done.stdout
    for line, threads in zip(lines, ("10000", "1000000", "1" + "0" * 30)):
        seconds, message = line.split(" ", 1)
        assert float(seconds) < 1
        assert message.startswith(f"threads={threads} is more than this machine can use: ")
        assert f"batch takes at most {MOST} threads (4 per core)" in message


def test_the_limit_and_its_wording_are_the_command_lines(db23) -> None:
    for refused in (0, -1):
        with pytest.raises(npuzzle.ArgumentError, match="a batch needs at least 1 thread"):
            db23.distances(["123450"], threads=refused)
    with pytest.raises(npuzzle.ArgumentError) as e:
        db23.solve_many(["123450"], threads=MOST + 1)
    assert isinstance(e.value, ValueError)
    ours = str(e.value).split(" is ", 1)[1]
    assert ours == (
        f"more than this machine can use: it has {CORES} core{'' if CORES == 1 else 's'}, "
        f"and a batch takes at most {MOST} threads (4 per core)"
    )
    assert db23.distances(["123450", "123405"], threads=MOST) == [0, 1]
    query = find_query()
    if query is None:
        pytest.skip("no query binary built: the wording is checked against the library's only")
    cli = subprocess.run(
        [str(query), "--db", db23.path, "batch", "--threads", str(MOST + 1)],
        input="123450\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 2
    assert f"--threads {MOST + 1} is {ours}" in cli.stderr


def batch_threads() -> set[int]:
    """The ids of this process's threads that the batches run on."""

    def name(task: Path) -> str:
        # Another thread of the process (an earlier test's) may end between
        # the listing and the read: it is not a batch thread.
        try:
            return (task / "comm").read_text()
        except FileNotFoundError:
            return ""

    return {
        int(task.name)
        for task in Path("/proc/self/task").iterdir()
        if name(task).startswith("npuzzle-batch")
    }


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_batches_reuse_one_set_of_threads(db3) -> None:
    """One pool of 4 threads per core serves every batch, whatever the
    count asked for: the same threads after a hundred calls."""
    positions = [str(b) for b in db3.random(range(0, 32), count=20000, seed=9)]
    expected = db3.distances(positions, threads=1)
    assert db3.distances(positions, threads=MOST) == expected
    # The pool's threads start as the system schedules them: on a busy
    # machine the last may still be starting when the call returns.
    deadline = time.monotonic() + 5
    while len(batch_threads()) < MOST and time.monotonic() < deadline:
        time.sleep(0.01)
    threads = batch_threads()
    assert len(threads) == MOST
    for _ in range(10):
        for count in range(1, MOST + 1):
            assert db3.distances(positions, threads=count) == expected
    assert batch_threads() == threads


def interrupted_after(call: str, setup: str, tmp_path: Path, args: list[str]) -> tuple[float, str]:
    """Runs `setup`, then `call` in a child interpreter, sends it SIGINT half
    a second into the call, and returns the seconds from the signal to the
    child's KeyboardInterrupt, and what it printed."""
    script = tmp_path / "child.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys, time
            import npuzzle
            import numpy as np
            {setup}
            print("calling", flush=True)
            try:
                {call}
            except KeyboardInterrupt:
                print("interrupted", time.perf_counter(), flush=True)
            else:
                print("finished", time.perf_counter(), flush=True)
            """
        )
    )
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    child = subprocess.Popen(
        [sys.executable, str(script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "calling\n", child.communicate()[1]
        time.sleep(0.5)
        signalled = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 0, err
    what, at = out.split()
    # perf_counter is CLOCK_MONOTONIC on Linux: the same clock in both.
    return float(at) - signalled, what


SAMPLE = (
    "db = npuzzle.Database(board='3x3'); "
    "sample = np.array([b.cells for b in db.random(range(0, 32), count=10000, seed=1)], dtype=np.uint8)"
)

# Each call takes three seconds or more on a quiet 2-core machine (30
# million lookups on one thread, 6 million solutions on one, a 12-cell
# build, searches for Korf's 100 instances: 8 s on two threads), so that one that heard
# Ctrl-C only once done would miss the bound; one that ended before the
# signal fails as "ran to the end".
LONG_CALLS = {
    "distances": (SAMPLE + "; many = np.tile(sample, (3000, 1))", "db.distances(many, threads=1)"),
    "solve_many": (SAMPLE + "; many = np.tile(sample, (600, 1))", "db.solve_many(many, threads=1)"),
    "build": ("", "npuzzle.build('3x4', 'x.db', progress=False)"),
    "solve_many, searching": (
        "db = npuzzle.Database(sys.argv[1]); starts = sys.argv[2].split(';')",
        "db.solve_many(starts, goal=' '.join(map(str, range(16))))",
    ),
    # Random 6x6 positions within 1.02 of the shortest: hours each.
    "solve_many_within": (
        "import random; rng = random.Random(0); "
        "cells = [rng.sample(range(36), 36) for _ in range(40)]; "
        "starts = [c for c in cells if npuzzle.Board(c, board='6x6').solvable()]",
        "npuzzle.solve_many_within(starts, 1.02, board='6x6', threads=2)",
    ),
    # The textbook searches on a 15-puzzle, 10 million expansions each:
    # half a minute.
    "compare, searching": (
        "db = npuzzle.Database(sys.argv[1]); start = sys.argv[2].split(';')[0]",
        "db.compare(start, goal=' '.join(map(str, range(16))), max_nodes=10_000_000)",
    ),
    # Beside complete tables: a 2x5 position 50 moves out, 10 million
    # expansions each, nearly 4 s.
    "compare": (
        "npuzzle.build('2x5', 'x.db', progress=False); db = npuzzle.Database('x.db'); "
        "far = db.random(50, count=1, seed=1)[0]",
        "db.compare(far, max_nodes=10_000_000)",
    ),
    # An endless generator of positions, read until Ctrl-C.
    "solve_many_within, reading": (
        "import itertools; endless = itertools.repeat('123456780')",
        "npuzzle.solve_many_within(endless, 2)",
    ),
}


@pytest.mark.parametrize("name", LONG_CALLS)
def test_ctrl_c_stops_a_long_call(name: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    setup, call = LONG_CALLS[name]
    args: list[str] = []
    if name in ("solve_many, searching", "compare, searching"):
        db44 = request.getfixturevalue("db44")
        args = [db44.path, ";".join(start for _, _, start in korf())]
    seconds, what = interrupted_after(call, setup, tmp_path, args)
    assert what == "interrupted", f"{name} ran to the end"
    assert seconds < 1.0, f"{name} took {seconds:.2f} s to stop after Ctrl-C"
    if name == "build":
        left = [p.name for p in tmp_path.iterdir() if p.name not in ("child.py", "data")]
        assert left == [], "the stopped build left a file"


def _batch(db3: npuzzle.Database) -> int:
    """A batch past one block, run in the batches' pool."""
    return sum(d or 0 for d in db3.distances(["867254301"] * 10_000))


def _search(pat3: npuzzle.Database) -> tuple[int, list[str]]:
    """A pattern search and best moves, split over the cores by the
    library's parallel search."""
    return pat3.distance("867254301"), pat3.best_moves("105432786")


@pytest.mark.parametrize("work", ["batch", "search"])
def test_a_forked_child_answers_after_the_parent_ran_parallel_work(db3, pat3, work: str) -> None:
    """The thread pools of a process are not in a child `os.fork()` makes
    (multiprocessing's default on Linux): each process builds its own, and
    the library's parallel work never runs in rayon's global pool, which a
    child could not replace. Before, a child's first parallel call hung."""
    import multiprocessing

    call, db, expected = {"batch": (_batch, db3, 310_000), "search": (_search, pat3, (31, ["D", "R"]))}[work]
    assert call(db) == expected
    with multiprocessing.get_context("fork").Pool(2) as children:
        answered = children.map_async(call, [db] * 2)
        # A child that hangs fails the test here rather than stopping it.
        assert answered.get(timeout=60) == [expected] * 2
