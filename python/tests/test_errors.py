"""Every exception type, and inputs that must raise (never crash)."""

from __future__ import annotations

import ast
import itertools
import math
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import npuzzle
import numpy as np
import pytest


def test_the_classes_and_their_bases() -> None:
    assert issubclass(npuzzle.ParseError, npuzzle.Error) and issubclass(npuzzle.ParseError, ValueError)
    assert issubclass(npuzzle.UnsolvableError, ValueError)
    assert issubclass(npuzzle.IllegalMoveError, ValueError)
    assert issubclass(npuzzle.DatabaseError, OSError)
    assert issubclass(npuzzle.MissingTableError, npuzzle.DatabaseError)
    assert npuzzle.ParseError.__module__ == "npuzzle"


def test_parse_errors(db3, db23) -> None:
    with pytest.raises(npuzzle.ParseError, match="tile 5 appears twice"):
        db3.distance([1, 2, 3, 5, 5, 6, 7, 8, 0])
    with pytest.raises(npuzzle.ParseError, match="row 2 has 2 tiles, expected 3"):
        db3.distance([[1, 2, 3], [4, 5], [6, 7, 8, 0]])
    with pytest.raises(npuzzle.ParseError, match="tile -1 is out of range"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, -1])
    with pytest.raises(npuzzle.ParseError, match="out of range"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, 10**30])
    with pytest.raises(npuzzle.ParseError, match="not a tile number"):
        db3.distance([1, 2, 3, 4, 5, 6, 7, 8, 0.0])
    with pytest.raises(npuzzle.ParseError, match="the board is 2x3 but the database holds 3x3"):
        db3.distance(npuzzle.Board("123450", board="2x3"))
    with pytest.raises(npuzzle.ParseError, match="not of the form RxC"):
        npuzzle.Database(board="3y3")
    with pytest.raises(npuzzle.ParseError, match="too small"):
        npuzzle.Board("1230", board="1x4")
    with pytest.raises(npuzzle.ParseError, match="the board is empty"):
        db3.distance("   ")
    # As many tiles as another board has cells: which database to open, as
    # query names the file to pass (a tile more or less is a slip: no note).
    with pytest.raises(npuzzle.ParseError) as e:
        db3.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0")
    assert str(e.value).endswith('got 16; 16 tiles fit a 4x4 board: open a 4x4 database (Database(board="4x4"))')
    with pytest.raises(npuzzle.ParseError) as e:
        db3.distance("1234567890")
    assert "fit a" not in str(e.value)


def test_unsolvable_carries_the_reason(db3) -> None:
    with pytest.raises(npuzzle.UnsolvableError) as e:
        db3.distance("213456780")
    assert e.value.reason.startswith("the start has 1 tile inversion ")
    assert str(e.value) == "unsolvable: " + e.value.reason
    for call in (db3.solve, db3.best_moves, db3.count_solutions, db3.solutions):
        with pytest.raises(npuzzle.UnsolvableError):
            call("213456780")


def test_illegal_moves() -> None:
    with pytest.raises(npuzzle.IllegalMoveError, match=r"move 3 \(D\) takes the blank off"):
        npuzzle.Board("123456708").apply("UDD")


def test_database_errors(tmp_path: Path) -> None:
    with pytest.raises(npuzzle.DatabaseError, match="no database at .*nothing.db; build it with: npuzzle.build"):
        npuzzle.Database(tmp_path / "nothing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all, but long enough to have a preamble" * 10)
    with pytest.raises(npuzzle.DatabaseError, match=r"not an npuzzle database.*; is path= pointing at the right file\?$"):
        npuzzle.Database(junk)
    with pytest.raises(npuzzle.DatabaseError, match="is a folder, not a regular file: a database is one file"):
        npuzzle.Database(tmp_path)
    if Path("/proc/self/status").exists():
        with pytest.raises(npuzzle.DatabaseError, match="cannot be mapped into memory, as a database is read"):
            npuzzle.Database("/proc/self/status")
    # A path with a control character is written as Python reads it back,
    # in the advice and in the repr.
    odd = tmp_path / "no\x01where\n\\\"\u202e.db"
    with pytest.raises(npuzzle.DatabaseError) as refused:
        npuzzle.Database(odd)
    advised = re.search(r'npuzzle\.build\(board="RxC", path=(".*?(?<!\\)")\)', str(refused.value))
    assert advised is not None, str(refused.value)
    # The right-to-left override is escaped, not left to turn the line.
    assert "\u202e" not in str(refused.value) and "\\u202e" in advised.group(1)
    assert ast.literal_eval(advised.group(1)) == str(odd)
    copy = Path(npuzzle.build("2x3", odd, progress=False))
    shown = repr(npuzzle.Database(copy))
    assert eval(shown, {"Database": npuzzle.Database}).path == str(odd), shown
    # A good file cut short.
    good = Path(npuzzle.build("2x3", tmp_path / "cut.db", progress=False))
    good.write_bytes(good.read_bytes()[:-1000])
    # Its header, at the end, is lost: the board and any partition with it.
    with pytest.raises(npuzzle.DatabaseError, match=r"rebuild it with: .*\(with the partition= it was built with, if any\)$"):
        npuzzle.Database(good)
    with pytest.raises(npuzzle.DatabaseError, match="holds 2x3 boards, not 3x3"):
        npuzzle.Database(npuzzle.build("2x3", tmp_path / "b.db", progress=False), board="3x3")
    # A database of another board is not replaced, and is kept.
    theirs = Path(npuzzle.build("2x3", tmp_path / "mine.db", progress=False))
    before = theirs.read_bytes()
    with pytest.raises(npuzzle.DatabaseError, match=r"mine.db holds a 2x3 database, which this 2x2 build would replace: remove it first"):
        npuzzle.build("2x2", theirs, progress=False)
    assert theirs.read_bytes() == before
    # An empty path names no file, to open or to write.
    for call in [lambda: npuzzle.Database(""), lambda: npuzzle.Database(path=""), lambda: npuzzle.build("2x3", "")]:
        with pytest.raises(npuzzle.ArgumentError, match="path= is empty: name a file"):
            call()


@pytest.mark.skipif(sys.platform != "linux", reason="a file name of any bytes is Linux's")
def test_a_file_name_that_is_not_utf8_is_a_path(tmp_path: Path) -> None:
    """A name as `os.listdir` gives it (bytes that are not UTF-8 held as
    lone surrogates), as bytes, or as a Path: built, opened, answered,
    given back and pickled as the same name; a surrogate that stands for
    no byte is refused by name."""
    raw = os.fsencode(tmp_path) + b"/caf\xe9.db"
    name = os.fsdecode(raw)
    assert npuzzle.build("2x3", name, progress=False) == name
    assert os.listdir(tmp_path) == ["caf\udce9.db"]
    forms: list[str | bytes | Path] = [name, raw, Path(name)]
    for given in forms:
        db = npuzzle.Database(given)
        assert db.path == name and db.distance("123450") == 0
        assert pickle.loads(pickle.dumps(db)).path == name
    # Shown as a literal that names the same file: in its repr, and in the
    # rebuild call and the verify() advice of a damaged copy.
    assert eval(repr(db), {"Database": npuzzle.Database}).path == name
    with open(raw, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0x02
    with open(raw, "wb") as f:
        f.write(data)
    with pytest.raises(npuzzle.DatabaseError) as raised:
        npuzzle.Database(name).verify()
    call = str(raised.value).split("rebuild it with: ")[1]
    assert eval(call, {"npuzzle": npuzzle}) == name and npuzzle.Database(name).verify()["ok"]
    with pytest.raises(npuzzle.ArgumentError, match="path= holds a lone surrogate at character 4"):
        npuzzle.Database("caf\ud800.db")


def test_verify_reads_every_table(tmp_path: Path) -> None:
    """`verify` passes a good file with `query verify --json`'s dict, and
    names a damaged one's tables and its rebuild call: one byte changed in
    the middle of a complete file and of a pattern file, which opens and
    may answer."""
    complete = Path(npuzzle.build("2x3", tmp_path / "c.db", progress=False))
    patterns = Path(npuzzle.build("3x3", tmp_path / "p.db", partition="4-4", progress=False))
    for path, kind, call in [
        (complete, "complete", 'npuzzle.build(board="2x3", path='),
        (patterns, "pattern", 'partition="4-4")'),
    ]:
        report = npuzzle.Database(path).verify()
        assert (report["kind"], report["ok"]) == (kind, True)
        assert all(t["ok"] and t["faults"] == [] for t in report["tables"])
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x02
        path.write_bytes(data)
        with pytest.raises(npuzzle.DatabaseError, match=rf"{path.name} is damaged: (table|the padding).*rebuild it with: .*{re.escape(call)}") as raised:
            npuzzle.Database(path).verify()
        damaged = raised.value.report  # type: ignore[attr-defined]
        assert damaged["ok"] is False and damaged["kind"] == kind


def test_a_damaged_distance_is_refused_not_returned(tmp_path: Path) -> None:
    """One entry of the default goal's table stored 2 too long (its move
    kept), for every 9th entry in turn: no distance read is ever wrong;
    the damaged position's is refused, as `solve` refuses it, and so are
    those whose stored move leads to it, by `check`, `best_moves` and
    `solutions` too."""
    path = Path(npuzzle.build("2x3", tmp_path / "good.db", progress=False))
    good = npuzzle.Database(path)
    starts = ["".join(map(str, p)) for p in itertools.permutations(range(6))]
    truth = {}
    for start in starts:
        try:
            truth[start] = good.distance(start)
        except npuzzle.UnsolvableError:
            pass
    assert len(truth) == 360
    first_table = 4096  # the first table's offset (docs/format.md): the goal 123450's
    data = path.read_bytes()
    for rank in range(0, 360, 9):
        damaged = bytearray(data)
        e = damaged[first_table + rank]
        damaged[first_table + rank] = (e & 0xC0) | ((e & 0x3F) + 2)
        copy = tmp_path / f"damaged-{rank}.db"
        copy.write_bytes(bytes(damaged))
        db = npuzzle.Database(copy)
        refused = []
        for start, distance in truth.items():
            try:
                assert db.distance(start) == distance, (rank, start)
            except npuzzle.DatabaseError as e:
                assert "the table for this goal is damaged at rank" in str(e), str(e)
                refused.append(start)
        assert 1 <= len(refused) <= 4, (rank, refused)
        with pytest.raises(npuzzle.DatabaseError, match="damaged"):
            db.distances(refused)
        moves = good.solve(refused[0]).moves
        for ask in (db.check, lambda start, _: db.best_moves(start), lambda start, _: db.solutions(start)):
            with pytest.raises(npuzzle.DatabaseError, match="damaged"):
                ask(refused[0], moves)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="room is set aside on Linux only")
def test_a_build_too_large_to_write_is_refused_before_its_search(tmp_path: Path) -> None:
    # A limit on the file size (SIGXFSZ ignored, so that it is an error):
    # the 7-8 build would search for a minute before failing to write.
    script = (
        "import resource, signal, sys, npuzzle\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (10**6, 10**6))\n"
        "try:\n"
        "    npuzzle.build('4x4', sys.argv[1], progress=False)\n"
        "except npuzzle.DatabaseError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "4x4.db")],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert "cannot write" in out.stdout, out
    assert "it needs 576.6 MB, more than this process may write to one file (1.0 MB" in out.stdout, out
    assert list(tmp_path.iterdir()) == []


def test_missing_tables(tmp_path: Path) -> None:
    path = npuzzle.build("2x3", tmp_path / "one.db", blanks=[5], progress=False)
    db = npuzzle.Database(path)
    assert db.distance("123405") == 1
    with pytest.raises(npuzzle.MissingTableError, match="no table for goals with the blank in row 1, column 2") as e:
        db.distance("123405", goal="102345")
    assert "all_goals=True" in str(e.value)
    with pytest.raises(ValueError, match="not on a 2x3 board"):
        npuzzle.build("2x3", tmp_path / "x.db", blanks=[6])
    # Both ways of choosing the tables at once: refused, as build-db
    # refuses --blank with --all-goals, rather than one dropped.
    with pytest.raises(npuzzle.ArgumentError, match="blanks= and all_goals=True choose the tables two ways"):
        npuzzle.build("2x3", tmp_path / "both.db", blanks=[1], all_goals=True)
    assert not (tmp_path / "both.db").exists()


@pytest.mark.parametrize(
    "junk",
    [
        None, 3, 3.5, math.nan, b"123456780", {}, {1: 2}, [], [[]], [[[1]]], [None] * 9,
        ["1"] * 9, "\x00" * 9, "é" * 9, "[" * 1000, "9" * 10000, [[1, 2, 3]] * 3,
        np.zeros(9, dtype=float), np.zeros((3, 3, 3), dtype=int), np.array(["a"] * 9),
        object(), range(9), iter(range(9)),
    ],
)
def test_bad_inputs_raise_and_never_crash(db3, junk: object) -> None:
    with pytest.raises((npuzzle.Error, TypeError)):
        db3.distance(junk)
    with pytest.raises((npuzzle.Error, TypeError, ValueError)):
        db3.distances([junk])


def test_bad_batches_name_the_position(db3) -> None:
    with pytest.raises(npuzzle.ParseError, match=r"positions\[2\]: tile 1 appears twice"):
        db3.distances(["123456780", "867254301", "113456780"])
    bad = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9]])
    with pytest.raises(npuzzle.ParseError, match=r"positions\[1\]: tile 9 is out of range"):
        db3.distances(bad)
    with pytest.raises(npuzzle.ParseError, match=r"shape \(N, 9\)"):
        db3.distances(np.zeros((4, 8), dtype=np.uint8))
    with pytest.raises(TypeError, match="many positions"):
        db3.distances("123456780")
    with pytest.raises(ValueError, match="threads"):
        db3.distances(["123456780"], threads=0)


def test_random_rejects_what_cannot_be_drawn(db3) -> None:
    with pytest.raises(npuzzle.ArgumentError, match="maximum distance is 31"):
        db3.random(32)
    with pytest.raises(npuzzle.ArgumentError, match="only 2 lie at 31"):
        db3.random(31, count=3)
    # An int is named as Python writes it, a text as text.
    with pytest.raises(npuzzle.ArgumentError, match="^distance=-1 is negative: distances count moves, from 0 up$"):
        db3.random(-1)
    with pytest.raises(npuzzle.ArgumentError, match='^"-1" is negative'):
        db3.random("-1")
    with pytest.raises(npuzzle.ArgumentError, match=f"^distance={2**70} reaches past 4 billion moves"):
        db3.random(2**70)
    with pytest.raises(ValueError, match="step"):
        db3.random(range(0, 10, 2))
    # A distance on a board no database serves points to the draw that
    # needs none, which works.
    with pytest.raises(npuzzle.DatabaseError, match=re.escape('npuzzle.random(count=10, board="6x6")')):
        npuzzle.random(5, board="6x6")
    assert len(npuzzle.random(count=10, board="6x6")) == 10
    # An empty range is named as Python writes it.
    for empty in (range(5, 5), range(9, 3), range(-2, -4)):
        said = f"distance={empty!r} is empty: it holds no distance"
        with pytest.raises(npuzzle.ArgumentError, match=f"^{re.escape(said)}$"):
            db3.random(empty)
    # So is one that starts below 0, whichever call reads it.
    said = "distance=range(-1, 2) starts below 0: no position lies a negative number of moves from the goal"
    for call in (lambda: db3.random(range(-1, 2)), lambda: db3.search_costs(range(-1, 2))):
        with pytest.raises(npuzzle.ArgumentError, match=f"^{re.escape(said)}$"):
            call()
    # So is one that reaches past 4 billion moves.
    for far in (range(30, 2**32 + 1), range(2**32, 2**33)):
        said = f"distance={far!r} reaches past 4 billion moves, farther than any position lies"
        with pytest.raises(npuzzle.ArgumentError, match=f"^{re.escape(said)}"):
            db3.random(far)
    # timeout= is checked as everywhere, even where nothing searches.
    for call in (
        lambda: db3.random(count=2, seed=1, timeout=0),
        lambda: npuzzle.random(count=2, seed=1, board="6x6", timeout=-1),
    ):
        with pytest.raises(npuzzle.ArgumentError, match="timeout="):
            call()


def every_bad_argument(db3, tmp_path: Path) -> list[tuple[str, object]]:
    """(what, call) for absurd values of every argument: negative and huge
    ints, wrong types, lone surrogates."""
    board = "867254301"
    out = tmp_path / "x.db"
    calls = {
        "random(32)": lambda: db3.random(32),
        "random(31, count=3)": lambda: db3.random(31, count=3),
        "random(5, count=-1)": lambda: db3.random(5, count=-1),
        "random(5, count=0)": lambda: db3.random(5, count=0),
        "random(5, count=10**30)": lambda: db3.random(5, count=10**30),
        "random(5, count='2')": lambda: db3.random(5, count="2"),
        "random(5, count=True)": lambda: db3.random(5, count=True),
        "random(5, seed=-1)": lambda: db3.random(5, seed=-1),
        "random(5, seed=2**64)": lambda: db3.random(5, seed=2**64),
        "random(5, seed=1.5)": lambda: db3.random(5, seed=1.5),
        "random(10**30)": lambda: db3.random(10**30),
        "random(-10**30)": lambda: db3.random(-(10**30)),
        "random(range(10**30, 10**31))": lambda: db3.random(range(10**30, 10**31)),
        "random(2.5)": lambda: db3.random(2.5),
        "random(count=10**7)": lambda: db3.random(count=10**7),
        "random(goal='\\ud800')": lambda: db3.random(goal="\ud800"),
        "random('\\ud800')": lambda: db3.random("\ud800"),
        "solutions(limit=-1)": lambda: db3.solutions(board, limit=-1),
        "solutions(limit='all')": lambda: db3.solutions(board, limit="all"),
        "distance('\\ud800')": lambda: db3.distance("\ud800"),
        "distance(goal='\\ud800')": lambda: db3.distance(board, goal="\ud800"),
        "distance(timeout=-1)": lambda: db3.distance(board, timeout=-1),
        "distance(timeout='1')": lambda: db3.distance(board, timeout="1"),
        "distance(timeout=nan)": lambda: db3.distance(board, timeout=math.nan),
        "check(moves='\\ud800')": lambda: db3.check(board, "\ud800"),
        "check(moves=[0])": lambda: db3.check(board, [0]),
        "check(moves=[1.5])": lambda: db3.check(board, [1.5]),
        "check(moves=5)": lambda: db3.check(board, 5),
        "distances(threads=-1)": lambda: db3.distances([board], threads=-1),
        "distances(threads=10**30)": lambda: db3.distances([board], threads=10**30),
        "distances(threads='2')": lambda: db3.distances([board], threads="2"),
        "distances(5)": lambda: db3.distances(5),
        "Database(board=5)": lambda: npuzzle.Database(board=5),
        "Database(board='\\ud800')": lambda: npuzzle.Database(board="\ud800"),
        "Database('\\ud800')": lambda: npuzzle.Database("\ud800"),
        "Database(5)": lambda: npuzzle.Database(5),
        "Board(board=5)": lambda: npuzzle.Board(board, board=5),
        "Board.goal('\\ud800')": lambda: npuzzle.Board.goal("\ud800"),
        "locate(5)": lambda: npuzzle.locate(5),
        "build('\\ud800')": lambda: npuzzle.build("\ud800", out),
        "build(partition=5)": lambda: npuzzle.build("3x3", out, partition=5),
        "build(partition='\\ud800')": lambda: npuzzle.build("3x3", out, partition="\ud800"),
        "build(blanks=[-1])": lambda: npuzzle.build("2x3", out, blanks=[-1]),
        "build(blanks=[10**30])": lambda: npuzzle.build("2x3", out, blanks=[10**30]),
        "build(blanks='05')": lambda: npuzzle.build("2x3", out, blanks="05"),
        "build(all_goals='yes')": lambda: npuzzle.build("2x3", out, all_goals="yes"),
        "build(progress=2)": lambda: npuzzle.build("2x3", out, progress=2),
        "build(path=5)": lambda: npuzzle.build("2x3", 5),
    }
    return list(calls.items())


def test_every_bad_argument_raises_an_npuzzle_error(db3, tmp_path: Path) -> None:
    """Issue 21, item 2: `except npuzzle.Error` catches every refusal of bad
    input, which stays a ValueError (or TypeError) where it is one: no bare
    ValueError, OverflowError or UnicodeEncodeError."""
    for what, call in every_bad_argument(db3, tmp_path):
        with pytest.raises(npuzzle.Error) as e:
            call()
        assert isinstance(e.value, (ValueError, TypeError)), f"{what}: {type(e.value)}"
        assert not isinstance(e.value, (OverflowError, UnicodeError)), f"{what}: {type(e.value)}"


def test_bad_arguments_are_named_with_their_range(db3) -> None:
    with pytest.raises(npuzzle.ArgumentError, match="count= is the number of positions to draw, 1 or more, not 0"):
        db3.random(5, count=0)
    with pytest.raises(npuzzle.ArgumentError, match="count= is the number of positions to draw, 1 or more, not -1"):
        db3.random(5, count=-1)
    with pytest.raises(npuzzle.ArgumentError, match=r"seed= is a whole number from 0 to 2\*\*64 - 1, not -1"):
        db3.random(5, seed=-1)
    with pytest.raises(npuzzle.ArgumentError, match="limit= is the most solutions to list, 0 or more, not -1"):
        db3.solutions("867254301", limit=-1)
    with pytest.raises(npuzzle.ArgumentTypeError, match="count= is a whole number, not str"):
        db3.random(5, count="2")
    # A NumPy array has __index__, which refuses it: the same error.
    np = pytest.importorskip("numpy")
    with pytest.raises(npuzzle.ArgumentTypeError, match="seed= is a whole number, not ndarray"):
        db3.random(5, seed=np.zeros(9))
    with pytest.raises(npuzzle.ArgumentTypeError, match="count= is a whole number, not ndarray"):
        db3.random(5, count=np.zeros(9))
    with pytest.raises(npuzzle.ArgumentError, match="board= holds a lone surrogate"):
        npuzzle.Database(board="3x\udc80")
    # NumPy's integers are whole numbers; an int past a float's range is
    # past the limit of timeout= (or below it), as --timeout's would be.
    assert db3.distances(db3.random(np.int64(5), count=np.int8(3), seed=np.uint64(1))) == [5, 5, 5]
    with pytest.raises(npuzzle.ArgumentError, match="above the limit of 1000000000 seconds"):
        db3.distance("867254301", timeout=10**400)
    with pytest.raises(npuzzle.ArgumentError, match="a timeout must be above 0 seconds"):
        db3.distance("867254301", timeout=-(10**400))
    # A huge limit lists them all; seeds span all 64 bits.
    assert len(db3.solutions("867254301", limit=10**30)) == 40
    assert db3.random(20, seed=2**64 - 1) == db3.random(20, seed=2**64 - 1)
    assert npuzzle.random(20, count=2, seed=1) == db3.random(20, count=2, seed=1)


def test_help_names_what_each_function_raises() -> None:
    functions = [getattr(npuzzle, name) for name in npuzzle.__all__ if callable(getattr(npuzzle, name))]
    functions = [f for f in functions if not isinstance(f, type)]
    functions += [
        member
        for name, member in vars(npuzzle.Database).items()
        if not name.startswith("_") and callable(member)
    ]
    functions += [npuzzle.Database, npuzzle.Board, npuzzle.Board.apply]
    assert len(functions) > 25
    for f in functions:
        doc = f.__doc__ or ""
        assert "Raises" in doc or "raises" in doc, f"{f.__name__}: its help names no exception"


def test_ints_past_pythons_text_limit_are_refused_as_npuzzle_errors(db3) -> None:
    # Python will not turn an int of more than 4,300 digits into text: the
    # messages name its size instead, and the error is still npuzzle's.
    huge = 10**5000
    for call in (
        lambda: npuzzle.random(5, count=huge),
        lambda: npuzzle.random(5, seed=huge),
        lambda: db3.distances(["867254301"], threads=huge),
        lambda: db3.distance([huge, 1, 2, 3, 4, 5, 6, 7, 0]),
        lambda: db3.random(range(0, huge)),
    ):
        with pytest.raises(npuzzle.Error, match="a number of 16610 bits"):
            call()
    # limit= past memory lists every solution, as documented.
    assert len(db3.solutions("867254301", limit=huge)) == 40


def test_a_huge_path_is_shown_short() -> None:
    with pytest.raises(npuzzle.DatabaseError) as e:
        npuzzle.Database("a" * 200_000)
    assert len(str(e.value)) < 1_000, len(str(e.value))


def test_a_bad_goal_is_named_as_the_goal(db3) -> None:
    """A goal that cannot be read was worded as a bad start: "expected 9
    tiles … got 8" either way. Now the argument is named, in the command
    line's words (`bad goal board "12345678": …`)."""
    start, goal = "867254301", "12345678"
    bad_goal = r'^bad goal board "12345678": expected 9 tiles for a 3x3 board \(the blank included\), got 8$'
    calls = {
        "solve": lambda: npuzzle.solve(start, goal),
        "distance": lambda: npuzzle.distance(start, goal),
        "solvable": lambda: npuzzle.solvable(start, goal),
        "best_moves": lambda: npuzzle.best_moves(start, goal),
        "count_solutions": lambda: npuzzle.count_solutions(start, goal),
        "solutions": lambda: npuzzle.solutions(start, goal),
        "histogram": lambda: npuzzle.histogram(goal),
        "random": lambda: npuzzle.random(20, goal=goal),
        "random without a distance": lambda: npuzzle.random(goal=goal),
        "check": lambda: npuzzle.check(start, "U", goal),
        "distances": lambda: npuzzle.distances([start], goal),
        "solve_many": lambda: npuzzle.solve_many([start], goal),
        "Database.solve(within=)": lambda: db3.solve(start, goal, within=2),
        "Database.solve_many(within=)": lambda: db3.solve_many([start], goal, within=2),
        "solve_within": lambda: npuzzle.solve_within(start, 2, goal),
        "solve_many_within": lambda: npuzzle.solve_many_within([start], 2, goal),
        "Board.solvable": lambda: npuzzle.Board(start).solvable(goal),
    }
    for what, call in calls.items():
        with pytest.raises(npuzzle.ParseError, match=bad_goal):
            call()
    # The start, and best_moves' position, by their names; other forms
    # than text are named without being echoed.
    with pytest.raises(npuzzle.ParseError, match=r'^bad start board "1234": expected 9 tiles'):
        npuzzle.solve("1234", "123456780")
    with pytest.raises(npuzzle.ParseError, match=r'^bad position board "1234": '):
        db3.best_moves("1234")
    with pytest.raises(npuzzle.ParseError, match=r"^bad goal board: expected 9 tiles .* got 4$"):
        db3.distance(start, [1, 2, 3, 0])
    with pytest.raises(npuzzle.ArgumentTypeError, match=r"^bad start board: a board is text"):
        npuzzle.solve_within(b"867254301", 2)


def test_every_timeout_follows_the_command_lines_rule(db3, pat3) -> None:
    """timeout=0 was refused by npuzzle.dask ("above 0"), taken by
    Database.distance ("0 or more"), refused by `query --timeout 0`: every
    timeout= is now refused as `--timeout` is, in the same words."""
    start = "867254301"
    calls = {
        "distance": lambda t: pat3.distance(start, timeout=t),
        "solve": lambda t: pat3.solve(start, timeout=t),
        "solve(within=)": lambda t: db3.solve(start, within=2, timeout=t),
        "best_moves": lambda t: pat3.best_moves(start, timeout=t),
        "check": lambda t: pat3.check(start, "U", timeout=t),
        "distances": lambda t: pat3.distances([start], timeout=t),
        "solve_many": lambda t: pat3.solve_many([start], timeout=t),
        "solve_many(within=)": lambda t: db3.solve_many([start], within=2, timeout=t),
        "solve_within": lambda t: npuzzle.solve_within(start, 2, timeout=t),
        "solve_many_within": lambda t: npuzzle.solve_many_within([start], 2, timeout=t),
    }
    refused = [(0, "must be above 0 seconds"), (-0.5, "above 0"), (math.inf, "an infinite timeout is no limit"),
               (2e9, "above the limit of 1000000000 seconds"), (1e-12, "below a nanosecond"), (math.nan, "NaN")]
    for what, call in calls.items():
        for timeout, why in refused:
            with pytest.raises(npuzzle.ArgumentError, match=f"^timeout={timeout}: .*{why}"):
                call(timeout)
        call(None)
        call(60)


def test_blanks_asked_twice_build_the_file_of_the_cells_asked_once(tmp_path: Path) -> None:
    # The file's tables follow the order first asked, as `build-db --blank`
    # writes them: the same request gives the same bytes from every face.
    twice = npuzzle.build("2x3", tmp_path / "twice.db", blanks=[5, 0, 5], progress=False)
    once = npuzzle.build("2x3", tmp_path / "once.db", blanks=[5, 0], progress=False)
    swapped = npuzzle.build("2x3", tmp_path / "swapped.db", blanks=[0, 5], progress=False)
    assert Path(twice).read_bytes() == Path(once).read_bytes()
    assert Path(once).read_bytes() != Path(swapped).read_bytes()
    db, other = npuzzle.Database(twice), npuzzle.Database(swapped)
    assert db.distance("123405") == other.distance("123405") == 1
    # 13 by `query --board 2x3 distance --goal 012345 123045` on every goal's tables.
    assert db.distance("123045", goal="012345") == other.distance("123045", goal="012345") == 13
