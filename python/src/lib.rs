//! `npuzzle._npuzzle`: the npuzzle library for Python.
//!
//! This crate only converts: boards, moves and answers between Python and
//! the library, and the library's errors into Python exceptions. Every
//! answer comes from the library. The Python package (`python/npuzzle`)
//! re-exports this module and adds the module-level functions.

// Unsafe code belongs to the library's memory mapping alone (PyO3's macros
// allow their own).
#![deny(unsafe_code)]

mod answers;
mod arguments;
mod batch;
mod board;
mod database;
mod errors;
mod interrupt;
mod making;
mod pools;
mod target;

use npuzzle::rules::MAX_TABLE_CELLS;
use npuzzle::Shape;
use pyo3::prelude::*;

/// Builds the database for `board` boards, by default into the per-user
/// data folder where `Database(board=...)` finds it, and returns its path.
///
/// Boards of up to 12 cells get complete tables; 12-cell boards (3x4, 2x6)
/// take seconds and 240 MB a table, and get only the default goal's table
/// unless `all_goals` is set. `blanks` chooses the tables instead: goal
/// blank cells, numbered row by row from 0 (`build-db --blank` names the
/// same cells as ROW,COL from 1); it and `all_goals` are not given together.
///
/// 4x4, 3x5, 5x3, 5x5, 4x5 and 5x4 get pattern databases, for goals with
/// the blank in a corner (every goal with `all_goals`): `partition` names
/// the tile groups (4x4: `"7-8"` by default, about a minute on 2 cores
/// and 1.5 GB of memory, 577 MB on disk; `"6-6-3"` in a few seconds,
/// 5.8 MB, with searches of about 27 times the nodes; 5x5: `"6-6-6-6"`,
/// under a minute, 255 MB).
/// A board with complete tables gets pattern databases when `partition` is
/// given (3x3: `"4-4"`), into `path`, which is then required.
///
/// `metric="mtm"` builds multi-tile tables (a slide of 1 to k tiles in a
/// line is one move; boards of up to 12 cells, no path tables), found by
/// `Database(board=..., metric="mtm")` beside the single-tile file.
///
/// `progress` draws a bar on stderr (by default where the session is
/// interactive). Ctrl-C stops the build between two steps of its search
/// (KeyboardInterrupt), leaving no file behind: within a second up to 12
/// cells, longer for the largest pattern tables (4x4's 7-8).
///
/// Raises ParseError when `board` is not a size ("RxC"), ArgumentError for
/// a size no database is built for (6x6, 3x6 …: solve_within needs none),
/// a `partition` or `blanks` the board has not (or `partition` on a small
/// board without `path`), ArgumentTypeError for
/// arguments of the wrong type, and DatabaseError when the file cannot be
/// written.
///
/// >>> npuzzle.build("2x3").endswith("2x3.db")
/// True
#[pyfunction]
#[pyo3(
    signature = (board = None, path = None, *, partition = None, all_goals = None, blanks = None, progress = None, metric = None),
    text_signature = "(board=\"3x3\", path=None, *, partition=None, all_goals=False, blanks=None, progress=None, metric=\"stm\")"
)]
#[allow(clippy::too_many_arguments)]
fn build(
    py: Python<'_>,
    board: Option<&Bound<'_, PyAny>>,
    path: Option<&Bound<'_, PyAny>>,
    partition: Option<&Bound<'_, PyAny>>,
    all_goals: Option<&Bound<'_, PyAny>>,
    blanks: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    metric: Option<&Bound<'_, PyAny>>,
) -> PyResult<std::ffi::OsString> {
    let shape = size_or_default(board)?;
    let metric = arguments::metric(py, metric)?;
    let path = arguments::path(path)?;
    let partition = arguments::given(partition)
        .map(|p| arguments::text(p, "partition"))
        .transpose()?;
    let all_goals = arguments::flag(all_goals, "all_goals")?.unwrap_or(false);
    let blanks = arguments::cells(blanks)?;
    if blanks.is_some() && all_goals {
        // As build-db refuses --blank with --all-goals: one of them would
        // be dropped without a word.
        return Err(errors::argument(
            py,
            "blanks= and all_goals=True choose the tables two ways: give blanks= for those \
             goal blank cells' tables, or all_goals=True for every goal's",
        ));
    }
    let progress = arguments::flag(progress, "progress")?;
    let patterns = partition.is_some() || shape.cells() > MAX_TABLE_CELLS;
    if patterns && metric != npuzzle::Metric::SingleTile {
        return Err(errors::argument(
            py,
            format!(
                "metric=\"{metric}\": multi-tile tables are built for boards of up to \
                 {MAX_TABLE_CELLS} cells; pattern databases count single-tile moves only"
            ),
        ));
    }
    if patterns && shape.cells() <= MAX_TABLE_CELLS && path.is_none() {
        // The default place is where the complete tables are found.
        return Err(errors::argument(
            py,
            format!(
                "partition= on a {shape} board needs path=: the per-user data folder's {shape} \
                 database holds complete tables, which answer every question, and faster"
            ),
        ));
    }
    let target = database::build_target(py, shape, metric, path)?;
    let progress = progress.unwrap_or_else(|| making::interactive(py));
    let tables = match blanks {
        Some(blanks) => making::Tables::These(blanks),
        None if all_goals => making::Tables::AllGoals,
        None => making::Tables::Default,
    };
    if patterns {
        let partition = making::partition(py, shape, partition.as_deref())?;
        making::build_patterns(py, partition, &target, tables, progress)?;
    } else {
        making::build(py, shape, metric, &target, tables, progress)?;
    }
    // A name that is not UTF-8 comes back as `os.fsdecode` gives it.
    Ok(target.into_os_string())
}

/// Where `Database(board=...)` looks for, or builds, a database: the
/// command line's order (`$NPUZZLE_DB`, `data/RxC.db`, the per-user data
/// folder; `RxC-mtm.db` for `metric="mtm"`). Returns the path, which may
/// not exist yet. Raises ParseError
/// when `board` is not a size, ArgumentTypeError when it is not text.
///
/// >>> npuzzle.locate("3x3").endswith("3x3.db")
/// True
#[pyfunction]
#[pyo3(signature = (board = None, *, metric = None), text_signature = "(board=\"3x3\", *, metric=\"stm\")")]
fn locate(
    py: Python<'_>,
    board: Option<&Bound<'_, PyAny>>,
    metric: Option<&Bound<'_, PyAny>>,
) -> PyResult<std::ffi::OsString> {
    let shape = size_or_default(board)?;
    let metric = arguments::metric(py, metric)?;
    Ok(npuzzle::files::locate(shape, metric, None)
        .path
        .into_os_string())
}

/// Why no database can be built for `board` boards (6x6, 3x6 …), or None
/// where one can: for callers that check arguments before any work starts.
#[pyfunction]
fn _unbuildable(board: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let shape = board::size(board)?;
    Ok(npuzzle::tables::unbuildable(
        shape,
        npuzzle::Metric::SingleTile,
    ))
}

/// The 3x3 database the module-level functions use (`npuzzle.solve`, …),
/// found where `Database(board="3x3")` looks; a file of another board named
/// by NPUZZLE_DB is refused in those functions' terms.
#[pyfunction]
fn _default_database(py: Python<'_>) -> PyResult<database::PyDatabase> {
    let (shape, asker) = (Shape::THREE_BY_THREE, database::Asker::ModuleFunctions);
    database::PyDatabase::open(py, None, Some(shape), None, asker)
}

/// `timeout=` checked as every call checks it, as seconds (None for no
/// limit): for callers that check arguments before any work starts
/// (npuzzle.dask).
#[pyfunction]
#[pyo3(signature = (timeout = None))]
fn _timeout(timeout: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
    Ok(arguments::seconds(timeout)?.map(|d| d.as_secs_f64()))
}

/// The cores this process may run on, as `threads=` and `query batch`
/// count them (a container's CPU quota included): for npuzzle.dask's
/// local workers.
#[pyfunction]
fn _cores() -> usize {
    npuzzle::io::cores()
}

/// `board=`, "3x3" when not given.
fn size_or_default(board: Option<&Bound<'_, PyAny>>) -> PyResult<Shape> {
    match arguments::given(board) {
        Some(board) => board::size(board),
        None => Ok(Shape::THREE_BY_THREE),
    }
}

/// A solution at most `within` times as long as the shortest, with no
/// database file: any board from 2x2 to 6x6, guided by Manhattan distance
/// plus linear conflicts. The `Solution` carries `length`, `lower_bound`
/// (the shortest is at least that long: `length <= within * lower_bound`
/// shows the promise kept) and `within`; `distance` is None unless the
/// bound proves the solution shortest.
///
/// The board's size is `board` ("RxC"), else a `Board`'s own or a nested
/// list's rows; text without `board` is read as 3x3. `goal` defaults to the
/// tiles in order, blank last. The search runs on one thread, without the
/// GIL; `timeout` (seconds) or Ctrl-C stops it.
///
/// Raises ParseError (a board that cannot be read), ArgumentTypeError,
/// ArgumentError (a `within` outside 1 to 100, a `timeout` not above 0:
/// the rule of `Database.distance`),
/// UnsolvableError, SearchTimeoutError (with `bound` and `nodes`).
///
/// >>> s = npuzzle.solve_within(npuzzle.Board.goal("6x6").apply("ULDR"), 2)
/// >>> (s.length, s.lower_bound, s.within)
/// (4, 4, 2.0)
#[pyfunction]
#[pyo3(signature = (start, within, goal = None, *, board = None, timeout = None))]
fn solve_within(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    within: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<answers::PySolution> {
    let weight = arguments::weight(within)?;
    let (start, goal) = start_and_goal(py, start, goal, board)?;
    let deadline = target::deadline(arguments::seconds(timeout)?);
    let guidance = || Ok(npuzzle::bounded::Guidance::linear_conflict());
    database::search_within(py, (start, goal), weight, deadline, guidance)?
        .map_err(|e| errors::within(py, e, weight, |e| errors::search(py, e)))
}

/// A start and a goal with no database to size them: the size is `board`
/// ("RxC"), else a `Board`'s own or a nested list's rows, else 3x3 for
/// text; the goal, the start's size's tiles in order, blank last, unless
/// given.
fn start_and_goal(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<(npuzzle::Board, npuzzle::Board)> {
    // A bad size is board='s, not the start's.
    if let Some(board) = arguments::given(board) {
        board::size(board)?;
    }
    let start =
        board::any_board(py, start, board).map_err(|e| board::bad_argument(start, "start", e))?;
    let goal = match arguments::given(goal) {
        Some(goal) => board::to_board(goal, start.shape(), board::SizeFrom::Start)
            .map_err(|e| board::bad_argument(goal, "goal", e))?,
        None => npuzzle::Board::goal(start.shape()),
    };
    Ok((start, goal))
}

/// Each classic heuristic's value for `start` beside its true distance to
/// `goal`, with no database file, on any board from 2x2 to 6x6: the dict
/// of `query heuristics START --json` where no file is found (see
/// `Database.heuristics`, which adds a pattern database's own estimate).
/// The distance is searched by IDA* over Manhattan distance plus linear
/// conflicts, on one thread without the GIL, holding only its path: at
/// once near the goal, and on 3x3 anywhere. Where it runs past `timeout`
/// (seconds), `distance` is None and `lower_bound` the bound it proved
/// (at least every admissible value); a verdict the bound does not settle
/// is None. Ctrl-C stops it.
///
/// The board's size is `board` ("RxC"), else a `Board`'s own or a nested
/// list's rows; text without `board` is read as 3x3. Raises ParseError,
/// ArgumentTypeError, ArgumentError (a `timeout` not above 0),
/// UnsolvableError.
///
/// >>> npuzzle.heuristics("123468750")["heuristics"][1]
/// {'heuristic': 'manhattan', 'h': 4, 'admissible_here': True, 'overestimate': 0}
/// >>> npuzzle.heuristics(npuzzle.Board.goal("6x6").apply("ULDR"))["distance"]
/// 4
#[pyfunction]
#[pyo3(signature = (start, goal = None, *, board = None, timeout = None))]
fn heuristics<'py>(
    py: Python<'py>,
    start: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let (start, goal) = start_and_goal(py, start, goal, board)?;
    let deadline = target::deadline(arguments::seconds(timeout)?);
    let truth = target::truth_without_file(py, &start, &goal, deadline)?;
    let estimates = npuzzle::analysis::PositionEstimates::new(&start, &goal, truth);
    database::json_dict(py, &estimates)
}

/// `solve_within` for many positions: a list of Solutions (None where
/// unsolvable), each at most `within` times as long as the shortest, with
/// its `lower_bound`, guided by Manhattan distance plus linear conflicts
/// with no file. One search a position, on one thread, the positions
/// spread over `threads` (every core when None; at most one a core, as
/// each search may hold 2.5 GB) without the GIL.
///
/// The positions are a list (or any iterable) of boards, or a NumPy array
/// of shape (N, cells) or (N, rows, cols), all of one size: `board`, else
/// the first position's (a `Board`'s own, a nested list's rows, an array's
/// last two dimensions; text is 3x3). `timeout` (seconds) bounds the whole
/// call; running out raises SearchTimeoutError, whose `answers` holds the
/// solutions found before it (None where unanswered) and `unanswered` the
/// others' indexes. Raises what `solve_within` raises, the error of the
/// first position that fails naming it (`positions[i]: …`).
///
/// >>> goal = npuzzle.Board.goal("6x6")
/// >>> [s.length for s in npuzzle.solve_many_within([goal.apply("ULDR"), goal], 2)]
/// [4, 0]
#[pyfunction]
#[pyo3(signature = (positions, within, goal = None, *, board = None, threads = None, timeout = None))]
fn solve_many_within(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    within: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    board: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Option<answers::PySolution>>> {
    let weight = arguments::weight(within)?;
    let threads = arguments::threads(threads)?;
    let timeout = arguments::seconds(timeout)?;
    // Before its size is looked for in it.
    batch::many_expected(positions, batch::OfShape::ONE_POSITION_CALL)?;
    // A generator is read once: into a list, whose first item gives the size.
    let positions = batch::listed(positions)?;
    let reader = match arguments::given(board) {
        Some(board) => batch::OfShape {
            shape: board::size(board)?,
            from: board::SizeFrom::Argument,
        },
        None => batch::OfShape {
            shape: first_size(py, &positions)?,
            from: board::SizeFrom::First,
        },
    };
    let goal = match arguments::given(goal) {
        Some(goal) => board::to_board(goal, reader.shape, reader.from)
            .map_err(|e| board::bad_argument(goal, "goal", e))?,
        None => npuzzle::Board::goal(reader.shape),
    };
    let many = batch::WithinMany {
        positions: &positions,
        goal,
        weight,
        threads,
        timeout,
    };
    let guidance = || Ok(npuzzle::bounded::Guidance::linear_conflict());
    let err = |e| errors::within(py, e, weight, |e| errors::search(py, e));
    match many.solve(py, &reader, guidance, err) {
        Ok((answers, _)) => Ok(answers),
        Err(unfinished) => {
            Err(unfinished.raise(py, |answers, _| Ok(answers.into_pyobject(py)?.into_any())))
        }
    }
}

/// `count` positions of a `board` board drawn uniformly from every one
/// that reaches `goal` (its default goal if None), with no database: what
/// `npuzzle.random(board=...)` draws without a distance, as `query --board
/// RxC random` does (the same seed, the same positions).
#[pyfunction]
#[pyo3(signature = (board, count = None, seed = None, goal = None))]
fn _uniform(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    count: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<board::PyBoard>> {
    let shape = board::size(board)?;
    let count = arguments::count(count)?;
    arguments::uniform_count(py, count)?;
    let seed = arguments::seed(seed)?.unwrap_or_else(npuzzle::analysis::fresh_seed);
    let goal = match arguments::given(goal) {
        Some(goal) => board::to_board(goal, shape, board::SizeFrom::Argument)
            .map_err(|e| board::bad_argument(goal, "goal", e))?,
        None => npuzzle::Board::goal(shape),
    };
    let drawn = py.detach(|| npuzzle::analysis::Sample::uniform(&goal, count, seed));
    Ok(drawn
        .positions
        .iter()
        .map(|p| board::wrap(p.start))
        .collect())
}

/// The size of many positions given no `board=`: a NumPy array's last two
/// dimensions, else the first position's as `Board()` reads it; 3x3 for
/// none (and for what is no sequence, which reading then turns away).
fn first_size(py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Shape> {
    // An array's dimensions, and whether it holds integers (or objects).
    let (dims, integers): (Option<Vec<usize>>, bool) =
        if positions.hasattr("__array_interface__")? {
            let kind = (positions.getattr("dtype")).and_then(|d| d.getattr("kind")?.extract());
            let kind: Option<String> = kind.ok();
            (
                Some(positions.getattr("shape")?.extract()?),
                matches!(kind.as_deref(), Some("i" | "u")),
            )
        } else {
            (None, false)
        };
    match dims.as_deref() {
        Some(&[_, rows, cols]) => return board::shape_of(py, &format!("{rows}x{cols}")),
        Some(&[_, cells]) if cells != Shape::THREE_BY_THREE.cells() => {
            return Err(errors::argument(
                py,
                format!("an array of shape (N, {cells}) needs board= to say the boards' size"),
            ))
        }
        Some(&[_, _]) => return Ok(Shape::THREE_BY_THREE),
        // One board's numbers, not many boards.
        Some(&[n]) if n > 0 && integers => {
            return Err(errors::parse(
                py,
                format!(
                    "an array of positions has shape (N, cells) or (N, rows, cols), not ({n},): \
                     one position's numbers are solved with solve_within"
                ),
            ))
        }
        // One dimension: an array of objects (Boards, text), read as a list.
        _ => {}
    }
    let first = match positions.len() {
        Ok(0) | Err(_) => return Ok(Shape::THREE_BY_THREE),
        Ok(_) => positions.get_item(0)?,
    };
    Ok(board::any_board(py, &first, None)
        .map_err(|e| errors::named(py, e, "positions[0]"))?
        .shape())
}

#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<database::PyDatabase>()?;
    m.add_class::<answers::PySolution>()?;
    m.add_class::<answers::PySolvability>()?;
    m.add_class::<answers::PyCheck>()?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(locate, m)?)?;
    m.add_function(wrap_pyfunction!(_unbuildable, m)?)?;
    m.add_function(wrap_pyfunction!(_timeout, m)?)?;
    m.add_function(wrap_pyfunction!(_cores, m)?)?;
    m.add_function(wrap_pyfunction!(_uniform, m)?)?;
    m.add_function(wrap_pyfunction!(_default_database, m)?)?;
    m.add_function(wrap_pyfunction!(solve_within, m)?)?;
    m.add_function(wrap_pyfunction!(heuristics, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many_within, m)?)?;
    m.add("AUTO_BUILD_MAX_CELLS", database::AUTO_BUILD_MAX_CELLS)?;
    Ok(())
}
