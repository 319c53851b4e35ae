"""Shared set-up: every test runs in an empty folder with its own per-user
data folder, so databases are found or built only where the test says; and
a plain breadth-first search that shares no code with the library."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import deque
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A per-user data folder for the whole session (so each board's
    database is built once), and an empty current folder."""
    home = tmp_path_factory.mktemp("xdg")
    cwd = tmp_path_factory.mktemp("cwd")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        mp.delenv("NPUZZLE_DB", raising=False)
        mp.chdir(cwd)
        yield home


@pytest.fixture(autouse=True)
def _isolated(data_home: Path) -> None:
    """Every test runs isolated (see data_home)."""


@pytest.fixture(scope="session")
def db3(data_home: Path):  # type: ignore[no-untyped-def]
    import npuzzle

    return npuzzle.Database(board="3x3")


@pytest.fixture(scope="session")
def db23(data_home: Path):  # type: ignore[no-untyped-def]
    import npuzzle

    return npuzzle.Database(board="2x3")


@pytest.fixture(scope="session")
def pat3(tmp_path_factory: pytest.TempPathFactory, data_home: Path):  # type: ignore[no-untyped-def]
    """A 3x3 `4-4` pattern file, with every goal's set (all_goals)."""
    import npuzzle

    path = tmp_path_factory.mktemp("pat3") / "3x3-44.db"
    return npuzzle.Database(npuzzle.build("3x3", path, partition="4-4", all_goals=True, progress=False))


@pytest.fixture(scope="session")
def db44(data_home: Path):  # type: ignore[no-untyped-def]
    """A 4x4 `6-6-3` file built where Database(board="4x4") finds it."""
    import npuzzle

    built = npuzzle.build("4x4", partition="6-6-3", progress=False)
    db = npuzzle.Database(board="4x4")
    assert db.path == built
    return db


def korf() -> list[tuple[int, int, str]]:
    """(number, published optimal length, start) of Korf's 100."""
    rows = []
    for line in (REPO / "tests/data/korf100.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, length, *cells = line.split()
            rows.append((int(number), int(length), " ".join(cells)))
    return rows


def replay(start: tuple[int, ...], moves: str, cols: int) -> tuple[int, ...]:
    """The board after the blank's `moves` from `start`, by the test's own
    rules (an illegal move fails the test)."""
    cells = start
    for letter in moves:
        cells = dict(neighbours(cells, cols))[letter]
    return cells


def neighbours(cells: tuple[int, ...], cols: int) -> Iterator[tuple[str, tuple[int, ...]]]:
    """(move letter, board after it) for each move of the blank."""
    blank = cells.index(0)
    r, c = divmod(blank, cols)
    rows = len(cells) // cols
    for letter, dr, dc in (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            other = nr * cols + nc
            nxt = list(cells)
            nxt[blank], nxt[other] = nxt[other], 0
            yield letter, tuple(nxt)


def plain_bfs(goal: tuple[int, ...], cols: int) -> dict[tuple[int, ...], int]:
    """Distance from every position that reaches `goal`, by the textbook
    search: a queue and a dict."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        d = dist[state] + 1
        for _, nxt in neighbours(state, cols):
            if nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


@pytest.fixture(scope="session")
def bfs3() -> dict[tuple[int, ...], int]:
    return plain_bfs((1, 2, 3, 4, 5, 6, 7, 8, 0), 3)


def find_query() -> Path | None:
    """The command line's `query` binary: $NPUZZLE_QUERY, else one built
    under the workspace's target folder (or $CARGO_TARGET_DIR)."""
    given = os.environ.get("NPUZZLE_QUERY")
    if given:
        return Path(given)
    targets = [REPO / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, Path(os.environ["CARGO_TARGET_DIR"]))
    found = [t / p / "query" for t in targets for p in ("release", "debug")]
    found = [q for q in found if q.is_file()]
    if found:
        return max(found, key=lambda q: q.stat().st_mtime)
    if os.environ.get("NPUZZLE_BUILD_QUERY") and shutil.which("cargo"):
        subprocess.run(
            ["cargo", "build", "--release", "--bin", "query"], cwd=REPO, check=True
        )
        return find_query()
    return None
