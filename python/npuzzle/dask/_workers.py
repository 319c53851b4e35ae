"""Each worker process opens a database once and keeps it.

Opening maps the file (cheap), but a partition is answered in milliseconds,
so opening once a partition would still be waste; and on boards of up to 10
cells, a worker without the file builds it on first use, which must happen
once, not once a partition.
"""

from __future__ import annotations

import functools
import os
import socket
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from .. import Database, DatabaseError, locate

P = ParamSpec("P")
R = TypeVar("R")

# (path as given, or None for the board's default place; board) -> Database.
_open: dict[tuple[str | None, str], Database] = {}
_lock = threading.Lock()


def database(path: str | None, board: str) -> Database:
    """The database at `path` (None: where the command line looks for
    `board`'s), opened on this worker's first call and kept."""
    key = (path, board)
    with _lock:
        db = _open.get(key)
        if db is None:
            db = Database(path, board)
            _open[key] = db
    return db


def database_if_found(path: str | None, board: str) -> Database | None:
    """The database that guides searches within a factor, found as `query
    solve --within` finds it: the file at `path`, which must open; else the
    board's where the command line looks, if there is one; else None (no
    file: linear conflicts guide)."""
    if path is None and not os.path.isfile(locate(board)):
        return None
    return database(path, board)


def where() -> str:
    """This worker's name and address, or this process where no Dask worker
    runs (the synchronous scheduler, threads of the client)."""
    host = socket.gethostname()
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return f"process {os.getpid()} on host {host}"
    return f"worker {worker.name} at {worker.address}, host {host}"


def naming_the_worker(task: Callable[P, R]) -> Callable[P, R]:
    """`task`, whose database errors (a file missing, damaged, of another
    board, with no table for the goal) name the worker they were raised on:
    which machine's file failed matters on a cluster."""

    @functools.wraps(task)
    def named(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return task(*args, **kwargs)
        except DatabaseError as e:
            # The same exception, its attributes kept, its message added to.
            e.args = (f"{e} (on {where()})",)
            raise

    return named
