//! Batches: many positions toward one goal, answered over every core with
//! the GIL released. Inputs are read under the GIL (a list's items are
//! Python objects); a NumPy array is copied once into bytes and read
//! without it.

use crate::board::{to_board, PyBoard};
use crate::database::PyDatabase;
use crate::errors;
use npuzzle::{Board, GoalTable, LookupError, Move, Shape};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyList, PyString};
use rayon::prelude::*;

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
                let mut cells = [0u64; npuzzle::MAX_CELLS];
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
                Board::new(shape, &cells[..n]).map_err(|e| npuzzle::ParseError::from(e).to_string())
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

/// Reads the positions; true when they came as a NumPy array.
fn read(db: &PyDatabase, obj: &Bound<'_, PyAny>) -> PyResult<(Positions, bool)> {
    let py = obj.py();
    let shape = db.shape();
    if obj.cast::<PyString>().is_ok() || obj.cast::<PyBoard>().is_ok() {
        return Err(PyTypeError::new_err(
            "expected many positions (a list of boards or a NumPy array of shape (N, cells)); \
             for one position, use distance() or solve()",
        ));
    }
    if obj.hasattr("__array_interface__")? {
        let dtype = obj.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        let ndim: usize = obj.getattr("ndim")?.extract()?;
        let dims: Vec<usize> = obj.getattr("shape")?.extract()?;
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
                         boards, not {dims:?} ({ndim} dimensions)",
                        shape.cells(),
                        shape.rows(),
                        shape.cols()
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
            return Err(PyTypeError::new_err(format!(
                "an array of positions holds integers (or strings), not {}",
                dtype.str()?
            )));
        }
        // Strings or objects: read one by one, as a list's items are.
        let items = obj.call_method0("tolist")?;
        let (positions, _) = read(db, &items)?;
        return Ok((positions, true));
    }
    let mut boards = Vec::with_capacity(obj.len().unwrap_or(0));
    if let Ok(list) = obj.cast::<PyList>() {
        for (i, item) in list.iter().enumerate() {
            boards.push(to_board(&item, shape).map_err(|e| at(py, i, e))?);
        }
    } else {
        for (i, item) in obj.try_iter()?.enumerate() {
            boards.push(to_board(&item?, shape).map_err(|e| at(py, i, e))?);
        }
    }
    Ok((Positions::Boards(boards), false))
}

/// The error of item `i`, its message prefixed with `positions[i]: `.
fn at(py: Python<'_>, i: usize, e: PyErr) -> PyErr {
    let value = e.value(py);
    let message = value.str().map(|s| s.to_string()).unwrap_or_default();
    let class = value.get_type();
    PyErr::from_type(class, (format!("positions[{i}]: {message}"),))
}

/// `f(i, moves)` for every position, on every core or on `threads` of them.
fn each<T: Send>(
    count: usize,
    threads: Option<usize>,
    f: impl Fn(usize, &mut Vec<Move>) -> T + Sync + Send,
) -> Result<Vec<T>, String> {
    let parallel = || {
        (0..count)
            .into_par_iter()
            .map_init(|| Vec::with_capacity(128), |moves, i| f(i, moves))
            .collect()
    };
    match threads {
        Some(0) => Err("threads must be at least 1".to_string()),
        Some(1) => {
            let mut moves = Vec::with_capacity(128);
            Ok((0..count).map(|i| f(i, &mut moves)).collect())
        }
        None => Ok(parallel()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(parallel))
            .map_err(|e| e.to_string()),
    }
}

/// A lookup's outcome in a batch: `Ok(None)` when unsolvable.
fn outcome<T>(r: Result<T, LookupError>) -> Result<Option<T>, LookupError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(LookupError::Unsolvable(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The first failing position's error, worked out again on its own.
fn first_error(
    db: &PyDatabase,
    py: Python<'_>,
    positions: &Positions,
    target: &GoalTable<'_>,
    failed: usize,
) -> PyErr {
    match positions.get(failed, db.shape()) {
        Err(message) => errors::parse(py, format!("positions[{failed}]: {message}")),
        Ok(board) => match target.distance(&board) {
            Err(e) => db.err(py, e),
            Ok(_) => PyValueError::new_err(format!("positions[{failed}] failed")),
        },
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
}

impl<'a, 'py> Batch<'a, 'py> {
    pub fn new(
        db: &'a PyDatabase,
        positions: &'a Bound<'py, PyAny>,
        goal: Option<&'a Bound<'py, PyAny>>,
        threads: Option<usize>,
    ) -> Self {
        Batch {
            db,
            positions,
            goal,
            threads,
        }
    }
}

/// `answer(target, board, moves)` for every position of `batch`, with the
/// GIL released; `failed` stands for a position that could not be read or
/// looked up, and the first such raises its error, found again. True with
/// the answers when the positions came as a NumPy array.
fn answer_all<T: PartialEq + Clone + Send + Sync>(
    py: Python<'_>,
    batch: &Batch<'_, '_>,
    failed: T,
    answer: impl Fn(&GoalTable<'_>, &Board, &mut Vec<Move>) -> T + Sync + Send,
) -> PyResult<(Vec<T>, bool)> {
    let db = batch.db;
    let target = db.target(py, batch.goal)?;
    let (positions, numpy) = read(db, batch.positions)?;
    let (shape, threads) = (db.shape(), batch.threads);
    let answers = py
        .detach(|| {
            each(positions.len(), threads, |i, moves| {
                match positions.get(i, shape) {
                    Ok(board) => answer(&target, &board, moves),
                    Err(_) => failed.clone(),
                }
            })
        })
        .map_err(PyValueError::new_err)?;
    if let Some(i) = answers.iter().position(|a| *a == failed) {
        return Err(first_error(db, py, &positions, &target, i));
    }
    Ok((answers, numpy))
}

pub fn distances<'py>(py: Python<'py>, batch: &Batch<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    // Two bytes an answer: -1 when unsolvable, FAILED when not answered.
    const FAILED: i16 = i16::MIN;
    let (answers, numpy) = answer_all(py, batch, FAILED, |target, board, _| {
        match outcome(target.distance(board)) {
            Ok(Some(d)) => d as i16,
            Ok(None) => -1,
            Err(_) => FAILED,
        }
    })?;
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

pub fn solve_many<'py>(py: Python<'py>, batch: &Batch<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    let (answers, numpy) = answer_all(py, batch, Err(()), |target, board, moves| {
        moves.clear();
        match outcome(target.solve_into(board, moves)) {
            Ok(Some(_)) => Ok(Some(npuzzle::move_string(moves))),
            Ok(None) => Ok(None),
            Err(_) => Err(()),
        }
    })?;
    let list = PyList::empty(py);
    for a in answers {
        match a {
            Ok(Some(moves)) => list.append(moves)?,
            _ => list.append(py.None())?,
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
