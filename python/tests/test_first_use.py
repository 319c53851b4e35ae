"""Databases found where the command line finds them, and built on first use."""

from __future__ import annotations

import os
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
    # Found again, not rebuilt.
    mtime = expected.stat().st_mtime_ns
    assert npuzzle.Database(board="2x2").distance("1032") == 1
    assert expected.stat().st_mtime_ns == mtime


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
    assert npuzzle.Database(board="2x3").path == "data/2x3.db" == npuzzle.locate("2x3")
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
