//! Batches: many positions toward one goal, answered over every core with
//! the GIL released: blocks of lookups for complete tables, one search per
//! position for pattern databases. Inputs are read under the GIL (a list's
//! items are Python objects); a NumPy array is copied once into bytes and
//! read without it.

use crate::answers::PySolution;
use crate::arguments::type_name;
use crate::board::{to_board, PyBoard, SizeFrom};
use crate::database::PyDatabase;
use crate::errors;
use crate::interrupt::interruptible;
use crate::target::{deadline, Target};
use npuzzle::analysis::{Evaluator, Heuristic};
use npuzzle::bounded::{self, Guidance, Weight};
use npuzzle::pattern::{SolveError, SolveOptions, Stopped};
use npuzzle::AnswerError;
use npuzzle::{Board, Move, Shape};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Positions as read from Python.
enum Positions {
    /// From a list, a tuple or any other iterable of boards.
    Boards(Vec<Board>),
    /// A NumPy integer array's bytes, C order: `count` rows of `cells`
    /// integers of `itemsize` bytes each, native byte order.
    Array {
        bytes: PyBackedBytes,
        count: usize,
        itemsize: usize,
        signed: bool,
    },
}

impl Positions {
    fn len(&self) -> usize {
        match self {
            Positions::Boards(b) => b.len(),
            Positions::Array { count, .. } => *count,
        }
    }

    /// Every position, or the error of the first row that is not a board.
    fn boards(&self, py: Python<'_>, shape: Shape) -> PyResult<Vec<Board>> {
        (0..self.len())
            .map(|i| self.get(i, shape).map_err(|m| bad_row(py, i, m)))
            .collect()
    }

    /// The error of the first row that is not a board, if any; the rows
    /// stay where they are, to be read again as they are answered.
    fn check(&self, py: Python<'_>, shape: Shape) -> PyResult<()> {
        (0..self.len()).try_for_each(|i| match self.get(i, shape) {
            Ok(_) => Ok(()),
            Err(m) => Err(bad_row(py, i, m)),
        })
    }

    /// Position `i`, or why its row is not a board.
    #[inline]
    fn get(&self, i: usize, shape: Shape) -> Result<Board, String> {
        match self {
            Positions::Boards(b) => Ok(b[i]),
            Positions::Array {
                bytes,
                itemsize,
                signed,
                ..
            } => {
                let n = shape.cells();
                let row = &bytes[i * n * itemsize..(i + 1) * n * itemsize];
                let mut cells = [0u64; npuzzle::rules::MAX_CELLS];
                for (c, item) in cells.iter_mut().zip(row.chunks_exact(*itemsize)) {
                    let value = read_int(item, *signed);
                    if value < 0 {
                        return Err(format!(
                            "tile {value} is out of range for a {shape} board (tiles are 1 to {}, \
                             and 0 is the blank)",
                            n - 1
                        ));
                    }
                    *c = value as u64;
                }
                Board::new(shape, &cells[..n])
                    .map_err(|e| npuzzle::rules::ParseError::from(e).to_string())
            }
        }
    }
}

#[inline]
fn read_int(item: &[u8], signed: bool) -> i128 {
    match (item.len(), signed) {
        (1, false) => item[0] as i128,
        (1, true) => item[0] as i8 as i128,
        (2, false) => u16::from_ne_bytes([item[0], item[1]]) as i128,
        (2, true) => i16::from_ne_bytes([item[0], item[1]]) as i128,
        (4, false) => u32::from_ne_bytes(item.try_into().unwrap_or_default()) as i128,
        (4, true) => i32::from_ne_bytes(item.try_into().unwrap_or_default()) as i128,
        (8, false) => u64::from_ne_bytes(item.try_into().unwrap_or_default()) as i128,
        _ => i64::from_ne_bytes(item.try_into().unwrap_or_default()) as i128,
    }
}

/// Positions read between checks for Ctrl-C.
const SIGNAL_EVERY: usize = 1 << 16;

/// What reads a batch's positions: their size, and one item as a board.
pub trait BoardReader {
    fn shape(&self) -> Shape;
    fn read_board(&self, item: &Bound<'_, PyAny>) -> PyResult<Board>;
    /// The call that takes one position instead, for a batch given one.
    fn one_position_call(&self) -> &'static str;
}

/// Turns away one position (text or a `Board`) where many are expected,
/// naming `single`, the call that takes one.
pub fn many_expected(obj: &Bound<'_, PyAny>, single: &str) -> PyResult<()> {
    if obj.cast::<PyString>().is_err() && obj.cast::<PyBoard>().is_err() {
        return Ok(());
    }
    Err(errors::argument_type(
        obj.py(),
        format!(
            "expected many positions (a list of boards or a NumPy array of shape (N, cells)); \
             for one position, use {single}"
        ),
    ))
}

impl BoardReader for PyDatabase {
    fn shape(&self) -> Shape {
        PyDatabase::shape(self)
    }

    fn read_board(&self, item: &Bound<'_, PyAny>) -> PyResult<Board> {
        PyDatabase::read_board(self, item)
    }

    fn one_position_call(&self) -> &'static str {
        "distance() or solve()"
    }
}

/// Positions of one size with no database: the size `board=` gives, or
/// the first position's.
pub struct OfShape {
    pub shape: Shape,
    pub from: SizeFrom,
}

impl OfShape {
    /// One position with no database is solved by this call.
    pub const ONE_POSITION_CALL: &'static str = "solve_within()";
}

impl BoardReader for OfShape {
    fn shape(&self) -> Shape {
        self.shape
    }

    fn read_board(&self, item: &Bound<'_, PyAny>) -> PyResult<Board> {
        to_board(item, self.shape, self.from)
    }

    fn one_position_call(&self) -> &'static str {
        OfShape::ONE_POSITION_CALL
    }
}

/// Reads the positions; true when they came as a NumPy array.
fn read(db: &impl BoardReader, obj: &Bound<'_, PyAny>) -> PyResult<(Positions, bool)> {
    let py = obj.py();
    many_expected(obj, db.one_position_call())?;
    if obj.hasattr("__array_interface__")? {
        return read_array(db, obj);
    }
    // A column (a pandas Series or Index) is read through NumPy: its own
    // iteration takes four times as long. Answered as a list, as before.
    if obj.hasattr("to_numpy")? && !obj.hasattr("columns")? {
        let items = obj.call_method0("to_numpy")?.call_method0("tolist")?;
        let (positions, _) = read(db, &items)?;
        return Ok((positions, false));
    }
    // A table iterates over its column names, which are no boards.
    if obj.hasattr("columns")? && obj.hasattr("to_numpy")? {
        return Err(errors::argument_type(
            py,
            format!(
                "positions are a {}, whose items are its column names: pass its tiles as \
                 df.to_numpy() (one board per row) or a column of boards (df[\"start\"])",
                type_name(obj)
            ),
        ));
    }
    Ok((read_items(db, obj)?, false))
}

/// Reads a NumPy array of positions: integers at once, strings or objects
/// one by one.
fn read_array(db: &impl BoardReader, obj: &Bound<'_, PyAny>) -> PyResult<(Positions, bool)> {
    let py = obj.py();
    let shape = db.shape();
    // A masked array's masked cells hold a fill value, not the user's
    // tile: refused rather than read as one.
    if obj.hasattr("mask")? && obj.hasattr("filled")? {
        let masked: usize = obj.getattr("mask")?.call_method0("sum")?.extract()?;
        if masked > 0 {
            return Err(errors::parse(
                py,
                format!(
                    "the positions are a masked array with {masked} masked value{}: drop \
                     the rows that hold them first (a[~a.mask.any(axis=1)])",
                    if masked == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    let dtype = obj.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let ndim: usize = obj.getattr("ndim")?.extract()?;
    let dims: Vec<usize> = obj.getattr("shape")?.extract()?;
    // No positions, of whatever type NumPy gave them (an empty filter
    // gives floats): no answers.
    if dims.first() == Some(&0) {
        return Ok((Positions::Boards(Vec::new()), true));
    }
    if kind == "i" || kind == "u" {
        let per_position = match dims.as_slice() {
            [_, cells] => *cells == shape.cells(),
            [_, rows, cols] => *rows == shape.rows() && *cols == shape.cols(),
            _ => false,
        };
        if !per_position {
            return Err(errors::parse(
                py,
                format!(
                    "an array of positions has shape (N, {}) or (N, {}, {}) for {shape} \
                     boards, not {} ({ndim} dimension{})",
                    shape.cells(),
                    shape.rows(),
                    shape.cols(),
                    python_tuple(&dims),
                    if ndim == 1 { "" } else { "s" }
                ),
            ));
        }
        let native: bool = dtype.getattr("isnative")?.extract()?;
        let array = if native {
            obj.clone()
        } else {
            obj.call_method1("astype", (dtype.call_method1("newbyteorder", ("=",))?,))?
        };
        let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
        // `tobytes` lays out any array (strided or not) in C order.
        let bytes: PyBackedBytes = array.call_method0("tobytes")?.extract()?;
        return Ok((
            Positions::Array {
                count: dims[0],
                bytes,
                itemsize,
                signed: kind == "i",
            },
            true,
        ));
    }
    if kind != "U" && kind != "O" && kind != "S" {
        let why = if kind == "b" {
            ": bools are not tiles"
        } else {
            ""
        };
        return Err(errors::argument_type(
            py,
            format!(
                "an array of positions holds integers (or strings), not {}{why}",
                dtype.str()?
            ),
        ));
    }
    // Strings or objects: read one by one, as a list's items are.
    let items = obj.call_method0("tolist")?;
    let (positions, _) = read(db, &items)?;
    Ok((positions, true))
}

/// Reads a list's (or any iterable's) items, one board each.
fn read_items(db: &impl BoardReader, obj: &Bound<'_, PyAny>) -> PyResult<Positions> {
    let py = obj.py();
    let mut boards = Vec::with_capacity(obj.len().unwrap_or(0));
    let mut read_one = |i: usize, item: &Bound<'_, PyAny>| {
        // Millions of items take seconds to read: Ctrl-C is heard meanwhile.
        if i.is_multiple_of(SIGNAL_EVERY) {
            py.check_signals()?;
        }
        boards.push(db.read_board(item).map_err(|e| at(py, i, e))?);
        PyResult::Ok(())
    };
    if let Ok(list) = obj.cast::<PyList>() {
        for (i, item) in list.iter().enumerate() {
            read_one(i, &item)?;
        }
    } else {
        let items = obj.try_iter().map_err(|_| {
            errors::argument_type(
                py,
                format!(
                    "positions are a list (or any iterable) of boards, or a NumPy array, not {}",
                    type_name(obj)
                ),
            )
        })?;
        for (i, item) in items.enumerate() {
            read_one(i, &item?)?;
        }
    }
    Ok(Positions::Boards(boards))
}

/// Positions that can be read only once (a generator, any iterator) as a
/// list, so that the first can be looked at before all are read; anything
/// else as it is. Ctrl-C is heard while a long iterator is read.
pub fn listed<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let again = obj.hasattr("__array_interface__")?
        || obj.cast::<PyList>().is_ok()
        || obj.cast::<pyo3::types::PyTuple>().is_ok()
        || obj.cast::<PyString>().is_ok()
        || obj.cast::<PyBoard>().is_ok();
    // What cannot be iterated is left for reading to turn away.
    let (false, Ok(items)) = (again, obj.try_iter()) else {
        return Ok(obj.clone());
    };
    let list = PyList::empty(py);
    for (i, item) in items.enumerate() {
        if i.is_multiple_of(SIGNAL_EVERY) {
            py.check_signals()?;
        }
        list.append(item?)?;
    }
    Ok(list.into_any())
}

/// The error of row `i` of an array, which is not a board (`message`).
fn bad_row(py: Python<'_>, i: usize, message: String) -> PyErr {
    errors::parse(py, format!("positions[{i}]: {message}"))
}

/// The error of item `i`, its message prefixed with `positions[i]: `.
fn at(py: Python<'_>, i: usize, e: PyErr) -> PyErr {
    errors::named(py, e, &format!("positions[{i}]"))
}

/// Lookups handed to a worker at a time: a few per worker, so that one that
/// drew a slow share does not hold up the others, and few enough that
/// Ctrl-C is seen within a fraction of a millisecond.
const MOST_LOOKUPS_AT_A_TIME: usize = 4096;

/// True when a batch is one block of lookups or less: over in less time than
/// starting threads takes (a millisecond at most), so answered on the
/// calling thread.
fn answered_here(count: usize, one_by_one: bool) -> bool {
    !one_by_one && count <= MOST_LOOKUPS_AT_A_TIME
}

/// `f(i, moves)` for every position, into a copy of `unanswered` each, over
/// `threads` workers (one per core when None): this thread and threads of
/// the pool (this thread alone for one, or when [`answered_here`]).
/// `one_by_one` hands positions to workers singly (searches, whose times
/// vary a thousandfold), else in blocks (lookups). Workers stop taking
/// positions once `stop` is set; the positions they did not reach keep
/// `unanswered`.
fn each<T: Clone + Send>(
    count: usize,
    threads: Option<usize>,
    one_by_one: bool,
    stop: &AtomicBool,
    unanswered: T,
    f: impl Fn(usize, &mut Vec<Move>) -> T + Sync + Send,
) -> Result<Vec<T>, String> {
    let threads = threads.unwrap_or_else(npuzzle::io::cores);
    let block = if one_by_one {
        1
    } else {
        (count / (4 * threads)).clamp(1, MOST_LOOKUPS_AT_A_TIME)
    };
    let mut answers = vec![unanswered; count];
    // Disjoint blocks of the answers, taken in order by whichever worker is
    // free.
    let blocks = Mutex::new(answers.chunks_mut(block).enumerate());
    let work = || {
        let mut moves = Vec::with_capacity(128);
        while !stop.load(Relaxed) {
            let next = blocks.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((k, answers)) = next else {
                return;
            };
            for (j, answer) in answers.iter_mut().enumerate() {
                *answer = f(k * block + j, &mut moves);
            }
        }
    };
    if answered_here(count, one_by_one) || threads == 1 {
        work();
    } else {
        // This thread is one of the workers; the pool lends the others.
        crate::pools::BATCH.get()?.in_place_scope(|scope| {
            for _ in 1..threads.min(count) {
                scope.spawn(|_| work());
            }
            work();
        });
    }
    Ok(answers)
}

/// Why a position got no answer.
enum Failure {
    /// Its row of a NumPy array is not a board.
    Row(String),
    /// The database could not answer (a timeout, a missing table …).
    Answer(AnswerError),
}

/// Failures as threads find them: the first position (in input order)
/// that failed, so that the error raised is the one a loop would have met
/// first, without asking again; and every position left unanswered.
#[derive(Default)]
struct Failures {
    first: Mutex<Option<(usize, Failure)>>,
    unanswered: Mutex<Vec<usize>>,
}

impl Failures {
    fn note(&self, i: usize, failure: Failure) {
        locked(&self.unanswered).push(i);
        let mut first = locked(&self.first);
        if first.as_ref().is_none_or(|(j, _)| i < *j) {
            *first = Some((i, failure));
        }
    }

    /// Position `i` left unanswered after an earlier failure.
    fn skip(&self, i: usize) {
        locked(&self.unanswered).push(i);
    }

    fn any(&self) -> bool {
        locked(&self.first).is_some()
    }

    /// `answers`, or the first failure's error (an answer's as `err` words
    /// it); when that is a timeout, with the answers found before it.
    fn answers<T>(
        self,
        py: Python<'_>,
        (answers, numpy): (Vec<T>, bool),
        err: impl FnOnce(AnswerError) -> PyErr,
    ) -> Answered<T> {
        let first = self.first.into_inner().unwrap_or_else(|e| e.into_inner());
        let Some((i, failure)) = first else {
            return Ok((answers, numpy));
        };
        let (error, timed_out) = match failure {
            Failure::Row(message) => (bad_row(py, i, message), false),
            Failure::Answer(e) => {
                let timed_out = matches!(e, AnswerError::Stopped(Stopped::TimedOut { .. }));
                (at(py, i, err(e)), timed_out)
            }
        };
        let mut unanswered = self
            .unanswered
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        unanswered.sort_unstable();
        let kept = timed_out.then_some(Kept {
            answers,
            numpy,
            unanswered,
        });
        Err(Unfinished { error, kept })
    }
}

/// What `mutex` guards, though a thread panicked holding it.
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A batch's answers, and whether the positions came as a NumPy array; or
/// why it stopped.
pub type Answered<T> = Result<(Vec<T>, bool), Unfinished<T>>;

/// Why a batch raised: its first failure's error and, where that is its
/// `timeout=` running out, the answers it found before, so that a caller
/// keeps the work done.
pub struct Unfinished<T> {
    error: PyErr,
    kept: Option<Kept<T>>,
}

/// The answers of a batch that ran out of time.
struct Kept<T> {
    /// Every position's, a placeholder where unanswered.
    answers: Vec<T>,
    numpy: bool,
    /// The positions without an answer, in input order.
    unanswered: Vec<usize>,
}

impl<T> From<PyErr> for Unfinished<T> {
    fn from(error: PyErr) -> Self {
        Unfinished { error, kept: None }
    }
}

impl<T> Unfinished<T> {
    /// The error to raise; a timeout's carries the answers found before it
    /// as `.answers`, in the form `show` gives the call's result (the
    /// unanswered as the unsolvable are), and the positions without one as
    /// `.unanswered`, and says so.
    pub fn raise<'py>(
        self,
        py: Python<'py>,
        show: impl FnOnce(Vec<T>, bool) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyErr {
        let Some(kept) = self.kept else {
            return self.error;
        };
        let (count, missing) = (kept.answers.len(), kept.unanswered.len());
        let answers = match show(kept.answers, kept.numpy) {
            Ok(answers) => answers,
            Err(e) => return e,
        };
        let error = errors::reworded(py, self.error, |message| {
            format!(
                "{message} (answered before it: {} of {count} positions, in the error's \
                 .answers; .unanswered lists the others)",
                count - missing
            )
        });
        let value = error.value(py);
        // Setting attributes on a fresh exception instance cannot fail.
        let _ = value.setattr("answers", answers);
        let _ = value.setattr("unanswered", kept.unanswered);
        error
    }
}

/// Many positions toward one goal, as `distances` and `solve_many` take
/// them.
pub struct Batch<'a, 'py> {
    db: &'a PyDatabase,
    positions: &'a Bound<'py, PyAny>,
    goal: Option<&'a Bound<'py, PyAny>>,
    /// None: every core.
    threads: Option<usize>,
    /// Seconds for the whole batch's searches.
    timeout: Option<Duration>,
}

impl<'a, 'py> Batch<'a, 'py> {
    pub fn new(
        db: &'a PyDatabase,
        positions: &'a Bound<'py, PyAny>,
        goal: Option<&'a Bound<'py, PyAny>>,
        threads: Option<usize>,
        timeout: Option<Duration>,
    ) -> Self {
        Batch {
            db,
            positions,
            goal,
            threads,
            timeout,
        }
    }
}

/// `answer(target, board, moves)` for every position of `batch`, with the
/// GIL released; `failed` stands for a position that could not be read or
/// answered, and the first such raises its error. True with the answers
/// when the positions came as a NumPy array.
fn answer_all<T: Clone + Send + Sync>(
    py: Python<'_>,
    batch: &Batch<'_, '_>,
    failed: T,
    answer: impl Fn(&Target<'_>, &Board, &mut Vec<Move>) -> Result<T, AnswerError> + Sync + Send,
) -> Answered<T> {
    let db = batch.db;
    let (positions, numpy) = read(db, batch.positions)?;
    let (shape, threads) = (db.shape(), batch.threads);
    // Searches take far longer than reading an array's rows: every row is
    // read first, so that a bad one stops the call at once, not after the
    // searches before it.
    if db.tables().is_none() {
        positions.check(py, shape)?;
    }
    // After reading, so that the timeout counts the answering only.
    let target = db.target(py, batch.goal, batch.timeout)?;
    let failures = Failures::default();
    let stop = AtomicBool::new(false);
    let stop_all = || {
        stop.store(true, Relaxed);
        target.cancel();
    };
    let answer_each = || {
        each(
            positions.len(),
            threads,
            target.searches(),
            &stop,
            failed.clone(),
            |i, moves| {
                let failure = match positions.get(i, shape) {
                    Ok(board) => match answer(&target, &board, moves) {
                        Ok(a) => return a,
                        Err(e) => Failure::Answer(e),
                    },
                    Err(message) => Failure::Row(message),
                };
                failures.note(i, failure);
                failed.clone()
            },
        )
    };
    let answers = if answered_here(positions.len(), target.searches()) {
        py.detach(answer_each)
    } else {
        interruptible(py, stop_all, answer_each)?
    }
    .map_err(|e| errors::other(py, e))?;
    failures.answers(py, (answers, numpy), |e| db.err(py, e))
}

/// An answer in a batch: `Ok(None)` when unsolvable.
fn outcome<T>(r: Result<T, AnswerError>) -> Result<Option<T>, AnswerError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.unsolvable().is_some() => Ok(None),
        Err(e) => Err(e),
    }
}

pub fn distances<'py>(py: Python<'py>, batch: &Batch<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    // Two bytes an answer: -1 when unsolvable.
    let answered = answer_all(py, batch, -1, |target, board, _| {
        Ok(outcome(target.distance(board, false))?.map_or(-1, |d| d as i16))
    });
    shown(py, answered, small_numbers)
}

/// Each position's lower bound toward the goal: `heuristic`'s, or with
/// none the pattern tables' own; -1 (None) where unsolvable, as
/// [`distances`] gives them.
pub fn estimates<'py>(
    py: Python<'py>,
    batch: &Batch<'_, 'py>,
    heuristic: Option<Heuristic>,
) -> PyResult<Bound<'py, PyAny>> {
    let goal = batch.db.goal_of(batch.goal)?;
    let evaluator = Evaluator::new(&goal);
    let heuristic = heuristic.map(|h| (h, &evaluator));
    let answered = answer_all(py, batch, -1, |target, board, _| {
        Ok(outcome(target.estimate(board, heuristic))?.map_or(-1, |h| h as i16))
    });
    shown(py, answered, small_numbers)
}

/// A batch's result as `show` makes it of the answers, or its error (with
/// the answers it found before a timeout).
fn shown<'py, T>(
    py: Python<'py>,
    answered: Answered<T>,
    show: impl FnOnce(Python<'py>, Vec<T>, bool) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match answered {
        Ok((answers, numpy)) => show(py, answers, numpy),
        Err(unfinished) => Err(unfinished.raise(py, |answers, numpy| show(py, answers, numpy))),
    }
}

/// `answers` (-1 for none) as a NumPy int16 array where the positions came
/// as one, else as a list with None for -1.
fn small_numbers<'py>(
    py: Python<'py>,
    answers: Vec<i16>,
    numpy: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if numpy {
        let bytes: Vec<u8> = answers.iter().flat_map(|d| d.to_ne_bytes()).collect();
        let buffer = PyByteArray::new(py, &bytes);
        return py
            .import("numpy")?
            .call_method1("frombuffer", (buffer, "int16"));
    }
    let list = PyList::empty(py);
    for d in answers {
        if d < 0 {
            list.append(py.None())?;
        } else {
            list.append(d)?;
        }
    }
    Ok(list.into_any())
}

/// Each position's shortest solution as a move string (`None` where
/// unsolvable), and whether the positions came as a NumPy array.
fn move_strings(py: Python<'_>, batch: &Batch<'_, '_>) -> Answered<Option<String>> {
    answer_all(py, batch, None, |target, board, moves| {
        Ok(outcome(target.solve_into(board, moves, false))?
            .map(|_| target.metric().notation(moves)))
    })
}

/// The offsets, letters and validity of a packed answer column.
pub type Packed<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// `solve_many`'s answers in the buffers of an Arrow `large_string` array:
/// 64-bit offsets, the move letters, and a validity bitmap (unset where
/// unsolvable). One allocation for all, where a Python string per row
/// costs more than the lookups (npuzzle.dask builds its column from these).
pub fn solve_many_packed<'py>(py: Python<'py>, batch: &Batch<'_, 'py>) -> PyResult<Packed<'py>> {
    // npuzzle.dask asks with no timeout= (each row's search has its own),
    // so there are no answers kept to hand back.
    let (answers, _) = move_strings(py, batch).map_err(|unfinished| unfinished.error)?;
    let mut offsets = Vec::with_capacity((answers.len() + 1) * 8);
    let mut letters = Vec::with_capacity(answers.len() * 24);
    let mut valid = vec![0u8; answers.len().div_ceil(8)];
    offsets.extend_from_slice(&0i64.to_le_bytes());
    for (i, answer) in answers.iter().enumerate() {
        if let Some(moves) = answer {
            letters.extend_from_slice(moves.as_bytes());
            valid[i / 8] |= 1 << (i % 8);
        }
        offsets.extend_from_slice(&(letters.len() as i64).to_le_bytes());
    }
    Ok((
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &letters),
        PyBytes::new(py, &valid),
    ))
}

pub fn solve_many<'py>(py: Python<'py>, batch: &Batch<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    shown(py, move_strings(py, batch), strings)
}

/// Move strings as `solve_many` returns them: a list, or for NumPy input a
/// NumPy array of objects; None where unsolvable.
fn strings<'py>(
    py: Python<'py>,
    answers: Vec<Option<String>>,
    numpy: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let list = PyList::empty(py);
    for a in answers {
        match a {
            Some(moves) => list.append(moves)?,
            None => list.append(py.None())?,
        }
    }
    if numpy {
        let numpy = py.import("numpy")?;
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("dtype", "object")?;
        let array = numpy.call_method("empty", (list.len(),), Some(&kwargs))?;
        array.set_item(pyo3::types::PySlice::full(py), list)?;
        return Ok(array);
    }
    Ok(list.into_any())
}

/// `solve_many(..., within=weight)`: each position's solution within
/// `weight` of the shortest, as move strings.
pub fn solve_many_within<'py>(
    py: Python<'py>,
    batch: &Batch<'_, 'py>,
    weight: Weight,
) -> PyResult<Bound<'py, PyAny>> {
    let db = batch.db;
    let goal = db.goal_of(batch.goal)?;
    let many = WithinMany {
        positions: batch.positions,
        goal,
        weight,
        threads: batch.threads,
        timeout: batch.timeout,
    };
    let guidance = || db.guidance(&goal);
    let err = |e| errors::within(py, e, weight, |e| db.err(py, e));
    let moves = |py, answers: Vec<Option<PySolution>>, numpy| {
        let moves = answers
            .iter()
            .map(|a| a.as_ref().map(PySolution::move_string));
        strings(py, moves.collect(), numpy)
    };
    shown(py, many.solve(py, db, guidance, err), moves)
}

/// Many positions to solve within a factor of the shortest, toward one goal.
pub struct WithinMany<'a, 'py> {
    pub positions: &'a Bound<'py, PyAny>,
    pub goal: Board,
    /// W: how much longer than the shortest a solution may be.
    pub weight: Weight,
    /// None: every core; at most one a core ([`bounded::search_threads`]).
    pub threads: Option<usize>,
    /// Seconds for the whole batch's searches.
    pub timeout: Option<Duration>,
}

impl WithinMany<'_, '_> {
    /// Each position's solution with the lower bound that proves it (None
    /// where unsolvable): one search a position, on one thread, the
    /// positions spread over the threads without the GIL. `guidance` makes
    /// a search's heuristic; the first position (in input order) that
    /// fails raises its error as `err` words it. True with the answers when
    /// the positions came as a NumPy array.
    pub fn solve<'g>(
        &self,
        py: Python<'_>,
        reader: &impl BoardReader,
        guidance: impl Fn() -> Result<Guidance<'g>, AnswerError> + Sync,
        err: impl FnOnce(AnswerError) -> PyErr,
    ) -> Answered<Option<PySolution>> {
        let (positions, numpy) = read(reader, self.positions)?;
        // Every row of an array is read before any search, as a list's
        // items are: a bad row stops the call at once, not after the rest.
        let starts = positions.boards(py, reader.shape())?;
        // After reading, so that the timeout counts the answering only.
        let deadline = deadline(self.timeout);
        // At most one search a core, as `query batch --within` runs them.
        let threads = self.threads.map(bounded::search_threads);
        let (goal, weight) = (self.goal, self.weight);
        let failures = Failures::default();
        let stop = AtomicBool::new(false);
        let options = SolveOptions {
            deadline,
            cancel: Some(&stop),
            ..SolveOptions::default()
        };
        let search = |start: &Board| {
            let guidance = guidance()?;
            match bounded::answer_within(start, &goal, weight, &guidance, &options) {
                Ok(answer) => Ok(Some(PySolution::found_within(answer))),
                Err(SolveError::Unsolvable(_)) => Ok(None),
                Err(e) => Err(AnswerError::from(e)),
            }
        };
        let answer_each = || {
            each(starts.len(), threads, true, &stop, None, |i, _| {
                // Once a search has run out of time, each of the rest would
                // start one only to see the deadline passed (hundreds of
                // microseconds each): they are left unanswered at once.
                if failures.any() && deadline.is_some_and(|d| Instant::now() >= d) {
                    failures.skip(i);
                    return None;
                }
                search(&starts[i]).unwrap_or_else(|e| {
                    failures.note(i, Failure::Answer(e));
                    None
                })
            })
        };
        let answers = interruptible(py, || stop.store(true, Relaxed), answer_each)?
            .map_err(|e| errors::other(py, e))?;
        failures.answers(py, (answers, numpy), err)
    }
}

/// `dims` as Python writes a shape: `(9,)`, `(2, 3, 3)`.
fn python_tuple(dims: &[usize]) -> String {
    match dims {
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = dims.iter().map(usize::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}
