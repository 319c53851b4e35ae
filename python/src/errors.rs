//! The exception classes, and the library's errors turned into them.
//!
//! The classes are made at import with `type(name, bases, dict)`, since
//! some have two bases (`ParseError` is an `npuzzle.Error` and a
//! `ValueError`), which `create_exception!` cannot give. Messages are the
//! library's, as the command line prints them; only the advice differs
//! where the command line names a command and Python a function.

use memmap2::Mmap;
use npuzzle::bounded::Weight;
use npuzzle::pattern::Stopped;
use npuzzle::AnswerError;
use npuzzle::{
    files::megabytes, files::shown_path, files::Origin, FormatError, Metric, OpenError,
    PatternTables, Shape, Unsolvable,
};
use pyo3::exceptions::{PyException, PyOSError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::path::Path;

/// The exception classes of the module.
pub struct Classes {
    pub error: Py<PyType>,
    pub parse: Py<PyType>,
    pub unsolvable: Py<PyType>,
    pub illegal_move: Py<PyType>,
    pub database: Py<PyType>,
    pub missing_table: Py<PyType>,
    pub needs_complete: Py<PyType>,
    pub timeout: Py<PyType>,
    pub argument: Py<PyType>,
    pub argument_type: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn make(
    py: Python<'_>,
    name: &str,
    bases: &[Bound<'_, PyType>],
    doc: &str,
) -> PyResult<Py<PyType>> {
    let dict = PyDict::new(py);
    dict.set_item("__module__", "npuzzle")?;
    dict.set_item("__doc__", doc)?;
    let class = py
        .get_type::<PyType>()
        .call1((name, PyTuple::new(py, bases)?, dict))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

fn create(py: Python<'_>) -> PyResult<Classes> {
    let exception = py.get_type::<PyException>();
    let value_error = py.get_type::<PyValueError>();
    let os_error = py.get_type::<PyOSError>();
    let error = make(
        py,
        "Error",
        &[exception],
        "Base class of every error npuzzle raises.\n\n\
         >>> issubclass(npuzzle.UnsolvableError, npuzzle.Error)\n\
         True",
    )?;
    let e = error.bind(py).clone();
    let parse = make(
        py,
        "ParseError",
        &[e.clone(), value_error.clone()],
        "A board (or board size, or move) that cannot be read, or a board of \
         another size than the database's.\n\n\
         >>> npuzzle.distance(\"12345678\")\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.ParseError: bad start board \"12345678\": expected 9 tiles for a 3x3 board (the blank included), got 8",
    )?;
    let unsolvable = make(
        py,
        "UnsolvableError",
        &[e.clone(), value_error.clone()],
        "The start can never reach the goal; `.reason` says why.\n\n\
         >>> try:\n...     npuzzle.solve(\"213456780\")\n\
         ... except npuzzle.UnsolvableError as e:\n...     print(e.reason[:39])\n\
         the start has 1 tile inversion relative",
    )?;
    let illegal_move = make(
        py,
        "IllegalMoveError",
        &[e.clone(), value_error.clone()],
        "A move that takes the blank off the board.\n\n\
         >>> npuzzle.Board(\"123456780\").apply(\"D\")\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.IllegalMoveError: move 1 (D) takes the blank off the board",
    )?;
    let database = make(
        py,
        "DatabaseError",
        &[e, os_error],
        "A database file that is missing, damaged, of another board, or not a \
         database at all; or one that cannot be written.\n\n\
         >>> npuzzle.Database(\"/nonexistent.db\")\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.DatabaseError: no database at /nonexistent.db; ...",
    )?;
    let missing_table = make(
        py,
        "MissingTableError",
        &[database.bind(py).clone()],
        "The database has no table for the goal asked about (12-cell databases \
         hold only the default goal's unless built with all_goals=True).\n\n\
         >>> import os, tempfile\n\
         >>> path = os.path.join(tempfile.mkdtemp(), \"one.db\")\n\
         >>> db = npuzzle.Database(npuzzle.build(\"2x3\", path, blanks=[5]))\n\
         >>> db.distance(\"123405\", goal=\"102345\")\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.MissingTableError: the database has no table for goals with the blank in row 1, column 2, ...",
    )?;
    let needs_complete = make(
        py,
        "NeedsCompleteTablesError",
        &[error.bind(py).clone()],
        "The question needs complete tables (every position's distance) and the \
         database holds pattern databases, which answer by searching: histograms, \
         random positions at a distance, counting or listing all shortest \
         solutions. ``solve``, ``distance``, ``best_moves``, ``check`` and the \
         batches work on both kinds.\n\n\
         >>> import os, tempfile\n\
         >>> path = os.path.join(tempfile.mkdtemp(), \"44.db\")\n\
         >>> db = npuzzle.Database(npuzzle.build(\"3x3\", path, partition=\"4-4\"))\n\
         >>> db.histogram()\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.NeedsCompleteTablesError: histogram() needs complete tables; this file holds pattern databases for 3x3...",
    )?;
    let timeout = make(
        py,
        "SearchTimeoutError",
        &[error.bind(py).clone(), py.get_type::<PyTimeoutError>()],
        "A search over pattern databases ran out of the time given by \
         ``timeout=`` (seconds) before it proved an answer; ``.bound`` is the \
         bound it was searching and ``.nodes`` the nodes it generated. A \
         batch's (``solve_many``, ``distances``, ``solve_many_within``) keeps \
         what it answered before: ``.answers`` is what the call would have \
         returned, the positions it did not answer given as the unsolvable \
         are (None; -1 in the NumPy array ``distances`` returns for an \
         array), and ``.unanswered`` lists those positions' indexes; both \
         are None on a single position's error. A draw's (``random`` on \
         pattern databases) ``.answers`` holds the positions found before \
         it, the first that its seed draws, and ``.unanswered`` is None.\n\n\
         >>> issubclass(npuzzle.SearchTimeoutError, TimeoutError)\n\
         True",
    )?;
    // What a single position's error holds; a batch's sets its own.
    timeout.bind(py).setattr("answers", py.None())?;
    timeout.bind(py).setattr("unanswered", py.None())?;
    let argument = make(
        py,
        "ArgumentError",
        &[error.bind(py).clone(), value_error.clone()],
        "An argument other than a board or moves with a value outside what it \
         takes (``threads=``, ``count=``, ``seed=``, ``limit=``, ``timeout=``, \
         ``distance=``, ``blanks=``, ``partition=``, ``path=``), or positions \
         that cannot be drawn. A draw that found some positions and then no \
         more (``random`` with ``distance=`` far out, on pattern databases) \
         keeps them: ``.answers`` holds the positions found before it, the \
         first that its seed draws; it is None on every other error.\n\n\
         >>> npuzzle.random(20, count=0)\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.ArgumentError: count= is the number of positions to draw, 1 or more, not 0",
    )?;
    argument.bind(py).setattr("answers", py.None())?;
    let argument_type = make(
        py,
        "ArgumentTypeError",
        &[error.bind(py).clone(), py.get_type::<PyTypeError>()],
        "An argument of a type the call does not take: a board as bytes, a \
         count as text, and so on.\n\n\
         >>> npuzzle.distance(b\"867254301\")\n\
         Traceback (most recent call last):\n...\n\
         npuzzle.ArgumentTypeError: bad start board: a board is text (\"867254301\"), a list or tuple of tiles or of rows, ...",
    )?;
    Ok(Classes {
        argument,
        argument_type,
        error,
        parse,
        unsolvable,
        illegal_move,
        database,
        missing_table,
        needs_complete,
        timeout,
    })
}

pub fn classes(py: Python<'_>) -> &Classes {
    CLASSES
        .get_or_try_init(py, || create(py))
        .expect("creating the exception classes cannot fail")
}

/// Adds the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let c = CLASSES.get_or_try_init(py, || create(py))?;
    m.add("Error", c.error.bind(py))?;
    m.add("ParseError", c.parse.bind(py))?;
    m.add("UnsolvableError", c.unsolvable.bind(py))?;
    m.add("IllegalMoveError", c.illegal_move.bind(py))?;
    m.add("DatabaseError", c.database.bind(py))?;
    m.add("MissingTableError", c.missing_table.bind(py))?;
    m.add("NeedsCompleteTablesError", c.needs_complete.bind(py))?;
    m.add("SearchTimeoutError", c.timeout.bind(py))?;
    m.add("ArgumentError", c.argument.bind(py))?;
    m.add("ArgumentTypeError", c.argument_type.bind(py))?;
    Ok(())
}

fn raise(py: Python<'_>, class: &Py<PyType>, message: String) -> PyErr {
    PyErr::from_type(class.bind(py).clone(), (message,))
}

/// A `ParseError`.
pub fn parse(py: Python<'_>, message: impl ToString) -> PyErr {
    raise(py, &classes(py).parse, message.to_string())
}

/// An `ArgumentError`: a value outside what its argument takes.
pub fn argument(py: Python<'_>, message: impl ToString) -> PyErr {
    raise(py, &classes(py).argument, message.to_string())
}

/// An `ArgumentTypeError`: an argument of a type the call does not take.
pub fn argument_type(py: Python<'_>, message: impl ToString) -> PyErr {
    raise(py, &classes(py).argument_type, message.to_string())
}

/// An `npuzzle.Error` of no finer class (the batch's threads would not
/// start).
pub fn other(py: Python<'_>, message: impl ToString) -> PyErr {
    raise(py, &classes(py).error, message.to_string())
}

/// An `IllegalMoveError`.
pub fn illegal_move(py: Python<'_>, message: String) -> PyErr {
    raise(py, &classes(py).illegal_move, message)
}

/// A `DatabaseError`.
pub fn database(py: Python<'_>, message: String) -> PyErr {
    raise(py, &classes(py).database, message)
}

/// An `UnsolvableError` whose `.reason` is the library's reason.
pub fn unsolvable(py: Python<'_>, why: &Unsolvable) -> PyErr {
    let reason = why.to_string();
    let err = raise(py, &classes(py).unsolvable, format!("unsolvable: {reason}"));
    // A plain attribute on a fresh exception instance: setting it cannot fail.
    let _ = err.value(py).setattr("reason", reason);
    err
}

/// A `NeedsCompleteTablesError` for `what` (the method, as `histogram()`).
pub fn needs_complete(py: Python<'_>, what: &str, shape: Shape) -> PyErr {
    raise(
        py,
        &classes(py).needs_complete,
        format!(
            "{what} needs complete tables; this file holds pattern databases for {shape}, \
             which answer solve, distance, best_moves, check, heuristics, compare (up to 16 \
             cells) and the batches by searching, and random() (at a distance, by random walks)"
        ),
    )
}

/// An answer's error, from either kind of database, with what to do where
/// the command line says it; `partition` is the pattern database's, for
/// advice.
pub fn answer(
    py: Python<'_>,
    e: AnswerError,
    path: &Path,
    origin: Origin,
    shape: Shape,
    patterns: Option<&PatternTables<Mmap>>,
) -> PyErr {
    let from = origin.note();
    let partition = patterns.map(|p| p.partition().name());
    match &e {
        AnswerError::Unsolvable(why) => unsolvable(py, why),
        AnswerError::WrongShape { .. } => parse(py, e),
        AnswerError::MissingGoal { .. } => {
            // The rebuild replaces the file: said how large it grows.
            let grows = patterns.map_or(String::new(), |p| {
                format!(
                    " (a file of about {} in place of this one's {})",
                    megabytes(p.all_goals_bytes()),
                    megabytes(p.bytes().len() as u64)
                )
            });
            raise(
                py,
                &classes(py).missing_table,
                format!(
                    "{e}; rebuild it{} with every goal's tables{grows}: {}",
                    in_file(path, origin),
                    build_call_with(path, shape, partition, true)
                ),
            )
        }
        AnswerError::Corrupt { .. } | AnswerError::DamagedPatterns { .. } => database(
            py,
            format!(
                "{e}{from}; Database({}).verify() lists the damage; rebuild it with: {}",
                python_path(path),
                build_call_with(path, shape, partition, false)
            ),
        ),
        AnswerError::Stopped(stop @ Stopped::TimedOut { .. }) => {
            // A custom partition has no name to look up: not the default.
            let default = partition
                .and_then(|p| npuzzle::pattern::Partition::named(shape, p).ok())
                .is_some_and(|p| p.is_default());
            let advice = if shape.check_complete_tables().is_ok() {
                format!("give a longer timeout=; complete tables answer at once: npuzzle.build(\"{shape}\")")
            } else if partition.is_some() && !default {
                "give a longer timeout=, or use a stronger partition".to_string()
            } else {
                "give a longer timeout=; solve(..., within=W) finds a solution within a factor of \
                 the shortest sooner"
                    .to_string()
            };
            timed_out(py, stop, &advice)
        }
        AnswerError::Stopped(Stopped::Cancelled { .. }) => {
            raise(py, &classes(py).error, e.to_string())
        }
        AnswerError::NeedsCompleteTables(_) => {
            raise(py, &classes(py).needs_complete, e.to_string())
        }
    }
}

/// A search past its `timeout=`, with `advice`, and where it stopped as
/// the attributes `bound`, `nodes` and `nodes_expanded` (for callers that
/// report it as `query batch` does: npuzzle.dask's timed-out rows).
fn timed_out(py: Python<'_>, stop: &Stopped, advice: &str) -> PyErr {
    timed_out_saying(py, stop, format!("{stop}; {advice}"))
}

/// [`timed_out`] with the whole `message` given.
pub fn timed_out_saying(py: Python<'_>, stop: &Stopped, message: String) -> PyErr {
    let err = raise(py, &classes(py).timeout, message);
    if let Stopped::TimedOut {
        bound,
        nodes,
        expanded,
    } = stop
    {
        let _ = err.value(py).setattr("bound", bound);
        let _ = err.value(py).setattr("nodes", nodes);
        let _ = err.value(py).setattr("nodes_expanded", expanded);
    }
    err
}

/// The error of a search that no file guided (`npuzzle.solve_within`).
pub fn search(py: Python<'_>, e: AnswerError) -> PyErr {
    match &e {
        AnswerError::Unsolvable(why) => unsolvable(py, why),
        _ => raise(py, &classes(py).error, e.to_string()),
    }
}

/// The error of a search within `weight`: out of time, the advice is more
/// time and, below the largest W, a larger one; any other as `other` words
/// it.
pub fn within(
    py: Python<'_>,
    e: AnswerError,
    weight: Weight,
    other: impl FnOnce(AnswerError) -> PyErr,
) -> PyErr {
    match &e {
        AnswerError::Stopped(stop @ Stopped::TimedOut { .. }) => {
            let advice = if weight.is_largest() {
                "give a longer timeout="
            } else {
                "give a longer timeout=, or a larger within="
            };
            timed_out(py, stop, advice)
        }
        _ => other(e),
    }
}

/// Names the file an error is about when `NPUZZLE_DB` chose it (the user
/// may not know it is set), else nothing.
fn in_file(path: &Path, origin: Origin) -> String {
    match origin {
        Origin::Env => format!(" ({}, from NPUZZLE_DB)", shown_path(path)),
        _ => String::new(),
    }
}

/// `e` with its message rewritten by `reword`: the same exception, its
/// class and attributes (`.reason`) kept, so `except` clauses still catch it.
pub fn reworded(py: Python<'_>, e: PyErr, reword: impl FnOnce(String) -> String) -> PyErr {
    let value = e.value(py);
    let message = value.str().map(|s| s.to_string()).unwrap_or_default();
    // Setting `args` on a fresh exception instance cannot fail.
    let _ = value.setattr("args", (reword(message),));
    e
}

/// `e` with its message prefixed by the argument that holds what it is
/// about (`positions[3]: …`).
pub fn named(py: Python<'_>, e: PyErr, name: &str) -> PyErr {
    reworded(py, e, |message| format!("{name}: {message}"))
}

/// The Python call that (re)builds the database at `path` for `shape`.
pub fn build_call(path: &Path, shape: Shape, all_goals: bool) -> String {
    build_call_with(path, shape, None, all_goals)
}

/// Why no database can be built for `shape` in `metric`, and what answers
/// there without one; `None` where `npuzzle.build` builds one.
pub fn none_to_build(shape: Shape, metric: Metric) -> Option<String> {
    let why = npuzzle::tables::unbuildable(shape, metric)?;
    Some(match metric {
        Metric::SingleTile => format!(
            "{why}, and solutions within a factor of the shortest need no file: \
             npuzzle.solve_within(start, 2, board=\"{shape}\"), nor do random positions \
             drawn uniformly, without a distance: npuzzle.random(count=10, board=\"{shape}\")"
        ),
        Metric::MultiTile => why,
    })
}

/// `path` as a Python string literal that names the same file: a byte
/// that is not UTF-8 written as the lone surrogate `os.fsdecode` gives it
/// (`\udce9` for 0xE9), so that the call shown opens that file.
pub fn python_path(path: &Path) -> String {
    let mut literal = String::from("\"");
    #[cfg(unix)]
    for chunk in std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).utf8_chunks() {
        push_escaped(&mut literal, chunk.valid());
        for byte in chunk.invalid() {
            literal.push_str(&format!("\\udc{byte:02x}"));
        }
    }
    #[cfg(not(unix))]
    push_escaped(&mut literal, &path.to_string_lossy());
    literal.push('"');
    literal
}

/// Appends `text` to a Python string literal, escaped as Python reads it:
/// Rust's `{:?}` writes a control character as `\u{1}`, which Python does
/// not. What a terminal would not show as it is (`files::is_unseen`) is
/// escaped.
fn push_escaped(literal: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\\' => literal.push_str("\\\\"),
            '"' => literal.push_str("\\\""),
            '\n' => literal.push_str("\\n"),
            '\r' => literal.push_str("\\r"),
            '\t' => literal.push_str("\\t"),
            // Control characters are all below U+0100.
            c if c.is_control() => literal.push_str(&format!("\\x{:02x}", c as u32)),
            c if npuzzle::files::is_unseen(c) => literal.push_str(&format!("\\u{:04x}", c as u32)),
            c => literal.push(c),
        }
    }
}

/// [`build_call`] for a pattern database of `partition` when it is given.
pub fn build_call_with(
    path: &Path,
    shape: Shape,
    partition: Option<&str>,
    all_goals: bool,
) -> String {
    let mut call = format!("npuzzle.build(board=\"{shape}\"");
    // The per-user file of either metric is named by the metric alone.
    let at = |metric| npuzzle::files::user_data_path(shape, metric).as_deref() == Some(path);
    if at(npuzzle::Metric::MultiTile) {
        call.push_str(", metric=\"mtm\"");
    } else if !at(npuzzle::Metric::SingleTile) {
        call.push_str(&format!(", path={}", python_path(path)));
    }
    if let Some(partition) = partition {
        call.push_str(&format!(", partition=\"{partition}\""));
    }
    if all_goals {
        call.push_str(", all_goals=True");
    }
    call.push(')');
    call
}

/// Why the database at `path` cannot be opened, worded as the command line
/// words it. `shape` is the board to name in advice, where it is known.
pub fn open(py: Python<'_>, e: OpenError, origin: Origin, shape: Option<Shape>) -> PyErr {
    let from = origin.note();
    let advice = |path: &Path, shape: Option<Shape>| match shape {
        Some(shape) => build_call(path, shape, false),
        None => {
            build_call(path, Shape::THREE_BY_THREE, false).replace("board=\"3x3\"", "board=\"RxC\"")
                + " (RxC: its board)"
        }
    };
    let message = match e {
        OpenError::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
            if let Some(why) = shape.and_then(|shape| none_to_build(shape, Metric::SingleTile)) {
                return database(
                    py,
                    format!("no database at {}{from}; {why}", shown_path(&path)),
                );
            }
            let or_unset = match origin {
                Origin::Env => ", or unset NPUZZLE_DB to look in the usual places",
                _ => "",
            };
            format!(
                "no database at {}{from}; build it with: {}{or_unset}",
                shown_path(&path),
                advice(&path, shape)
            )
        }
        e @ (OpenError::NotAFile { .. } | OpenError::Unmappable { .. }) => format!("{e}{from}"),
        OpenError::Format { path, problem } => {
            let what = match &problem {
                FormatError::Envelope(e) if e.is_foreign() => {
                    origin.foreign_file_advice("path=", &advice(&path, shape))
                }
                FormatError::Envelope(e) if e.newer_version().is_some() => format!(
                    "it was written by a newer npuzzle; upgrade this one to read it (or \
                     rebuild it with: {})",
                    advice(&path, shape)
                ),
                problem => format!(
                    "rebuild it with: {}{}",
                    advice(&path, problem.readable_board().or(shape)),
                    match problem.header_lost() {
                        true => " (with the partition= it was built with, if any)",
                        false => "",
                    }
                ),
            };
            format!(
                "{} is not a usable database{from}: {problem}; {what}",
                shown_path(&path)
            )
        }
        OpenError::Io { path, source } => {
            format!("cannot open {}{from}: {source}", shown_path(&path))
        }
    };
    database(py, message)
}
