"""Databases found where the command line finds them, and built on first use."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import npuzzle
import pytest


def test_first_use_builds_into_the_per_user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "npuzzle" / "2x2.db"
    assert npuzzle.locate("2x2") == str(expected) and not expected.exists()
    db = npuzzle.Database(board="2x2")
    assert Path(db.path) == expected and expected.is_file()
    assert db.distance("1230", goal=None) == 0
    # Found again, not rebuilt: a build writes a new file and renames it
    # over the old, which a timestamp (coarser than a 2x2 build) may miss.
    inode = expected.stat().st_ino
    assert npuzzle.Database(board="2x2").distance("1032") == 1
    assert expected.stat().st_ino == inode


def test_twelve_cells_are_built_only_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(npuzzle.DatabaseError, match=r'npuzzle.build\(board="3x4"\)'):
        npuzzle.Database(board="3x4")
    assert not (tmp_path / "npuzzle" / "3x4.db").exists()


def test_the_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    local = npuzzle.build("2x3", tmp_path / "data" / "2x3.db", progress=False)
    assert npuzzle.locate("2x3") == "data/2x3.db"
    assert npuzzle.Database(board="2x3").path == str(tmp_path / "data" / "2x3.db") == local
    other = npuzzle.build("2x3", tmp_path / "elsewhere.db", progress=False)
    monkeypatch.setenv("NPUZZLE_DB", other)
    assert npuzzle.Database(board="2x3").path == other
    monkeypatch.setenv("NPUZZLE_DB", str(tmp_path / "missing.db"))
    with pytest.raises(npuzzle.DatabaseError, match=r"\(from NPUZZLE_DB\)"):
        npuzzle.Database(board="2x3")
    assert npuzzle.Database(local).board == "2x3"
    assert not (tmp_path / "user" / "npuzzle" / "2x3.db").exists()


def test_build_shows_progress_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npuzzle.build("2x3", tmp_path / "p.db", progress=True)
    err = capsys.readouterr().err
    assert "building 2x3:" in err and "100%" in err
    npuzzle.build("2x3", tmp_path / "q.db")  # not interactive here: silent
    assert capsys.readouterr().err == ""
    assert os.path.getsize(tmp_path / "q.db") > 0


def test_a_pattern_build_shows_progress_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npuzzle.build("3x3", tmp_path / "p.db", partition="4-4", progress=True)
    err = capsys.readouterr().err
    assert "building 3x3:" in err and "table 2/2, cost" in err and "100%" in err


def test_a_database_from_npuzzle_db_is_named_with_advice_that_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 8: with NPUZZLE_DB naming a 2x3 file, building the 3x3
    database (the advice of old) cannot help, since NPUZZLE_DB is looked at
    first: the errors name the variable and the file, and say what works."""
    small = npuzzle.build("2x3", tmp_path / "small.db", progress=False)
    monkeypatch.setenv("NPUZZLE_DB", small)
    monkeypatch.setattr(npuzzle, "_default", None)  # as in a fresh session
    with pytest.raises(npuzzle.DatabaseError) as e:
        npuzzle.solve("867254301")
    message = str(e.value)
    # The module-level functions take no board= and no path=: the message
    # names neither, and says what they play and what else works.
    assert f"{small} holds 2x3 boards, and npuzzle's module-level functions play 3x3" in message
    assert "unset NPUZZLE_DB" in message and "npuzzle.Database()" in message
    assert "board=" not in message and "path=" not in message
    assert "npuzzle.build" not in message
    # Asked for by board=, the message names the argument and path=.
    with pytest.raises(npuzzle.DatabaseError) as e:
        npuzzle.Database(board="3x3")
    message = str(e.value)
    assert f"{small} holds 2x3 boards, not 3x3 (board=)" in message
    assert "unset NPUZZLE_DB" in message and "path=" in message
    # Without board=, the file is opened, and a 3x3 board is refused with
    # the file and where it came from.
    db = npuzzle.Database()
    assert db.board == "2x3"
    with pytest.raises(npuzzle.ParseError) as e:
        db.distance("867254301")
    assert str(e.value).startswith('bad start board "867254301": expected 6 tiles for a 2x3 board')
    assert f"the database is {small}, a 2x3 file named by NPUZZLE_DB" in str(e.value)
    assert "unset NPUZZLE_DB (board= then finds its file) or pass path=" in str(e.value)
    # The size note's advice works only once the variable is unset: board=
    # looks at its file first.
    assert 'unset NPUZZLE_DB and open a 3x3 database (Database(board="3x3"))' in str(e.value)
    with pytest.raises(npuzzle.ParseError, match=r"positions\[1\]: .*named by NPUZZLE_DB"):
        db.distances(["123450", "867254301"])
    # A file named by NPUZZLE_DB that is missing: building there helps, and
    # so does unsetting it.
    monkeypatch.setenv("NPUZZLE_DB", str(tmp_path / "missing.db"))
    with pytest.raises(npuzzle.DatabaseError, match=r"\(from NPUZZLE_DB\); build it with: .*, or unset NPUZZLE_DB"):
        npuzzle.Database(board="2x3")
    # Found the usual way, no note is added.
    monkeypatch.delenv("NPUZZLE_DB")
    with pytest.raises(npuzzle.ParseError) as e:
        npuzzle.Database(board="2x3").distance("867254301")
    assert "NPUZZLE_DB" not in str(e.value)


def test_a_misnamed_file_in_data_is_refused_to_the_module_functions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """data/3x3.db holding another board: the module-level functions say
    so, and that moving it aside lets them find or build the right one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    npuzzle.build("2x3", tmp_path / "data" / "3x3.db", progress=False)
    monkeypatch.setattr(npuzzle, "_default", None)
    with pytest.raises(npuzzle.DatabaseError) as e:
        npuzzle.distance("867254301")
    message = str(e.value)
    assert message.startswith("data/3x3.db holds 2x3 boards, and npuzzle's module-level functions play 3x3")
    assert "move it aside" in message and "board=" not in message
    (tmp_path / "data" / "3x3.db").rename(tmp_path / "aside.db")
    assert npuzzle.distance("867254301") == 31


def test_a_multi_tile_file_named_by_npuzzle_db_is_used_whatever_its_metric(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the README says, and as the command line does: $NPUZZLE_DB is
    looked at first whatever its metric (metric= checks it), so the
    module-level functions then answer in slides."""
    import subprocess
    import sys

    mtm = npuzzle.build("3x3", tmp_path / "mtm.db", metric="mtm", progress=False)
    monkeypatch.setenv("NPUZZLE_DB", mtm)
    assert npuzzle.Database(board="3x3").metric == "mtm" == npuzzle.Database().metric
    with pytest.raises(npuzzle.DatabaseError, match="counts mtm moves, not stm") as e:
        npuzzle.Database(board="3x3", metric="stm")
    # Where the file came from, and how to look elsewhere, as for a board.
    assert "it is the file NPUZZLE_DB names" in str(e.value) and "unset NPUZZLE_DB, or path=" in str(e.value)
    # A fresh interpreter: the module-level functions keep their database.
    code = "import npuzzle; print(npuzzle.distance('867254301'), npuzzle.solve('123456078').moves)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["20", "R2"]


def test_a_database_opened_by_a_relative_path_survives_a_change_of_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A notebook's `%cd`, or a Dask worker in another folder, unpickles it.
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    npuzzle.build("2x3", tmp_path / "here" / "2x3.db", progress=False)
    monkeypatch.chdir(tmp_path / "here")
    db = npuzzle.Database("2x3.db")
    assert db.path == str(tmp_path / "here" / "2x3.db")
    monkeypatch.chdir(tmp_path / "there")
    again = pickle.loads(pickle.dumps(db))
    assert again.path == db.path and again.distance("123405") == 1
