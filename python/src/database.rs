//! `npuzzle.Database` and the answers it gives: each method converts its
//! arguments, asks the library, and converts the answer back.

use crate::answers::{PyCheck, PySolution, PySolvability};
use crate::arguments::{self, Whole};
use crate::batch::Batch;
use crate::board::{self, play, to_board, wrap, PyBoard, SizeFrom};
use crate::errors;
use crate::interrupt::interruptible;
use crate::target::{deadline, truth_without_file, Search, Target};
use memmap2::Mmap;
use npuzzle::analysis::{
    compare, count_shortest, draw_fell_short, draw_stopped, grade, list_shortest, parse_distances,
    read_steps_on, searched_once, serving, stats, stats_toward, steps_fit, truth_of, CompareError,
    DrawError, Histogram, PositionEstimates, Sample, SampleError, Step, StepsError, Surveys,
    COSTS_COUNT, COSTS_COUNT_MAX, COSTS_SEED, DEFAULT_COMPARE_NODES, MAX_COMPARE_NODES, MAX_STEPS,
};
use npuzzle::bounded::{self, Guidance, Weight};
use npuzzle::files::shown_path;
use npuzzle::pattern::{Solution, SolveOptions};
use npuzzle::rules::excerpt;
use npuzzle::{
    files::locate, files::user_data_path, files::Location, files::Origin, rules::MAX_TABLE_CELLS,
    AnswerError, Board, CompleteTables, Database, GoalTable, Metric, Shape,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyRange, PyString};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A solution from `start` to `goal` within `weight`, with its lower bound,
/// guided by what `guidance` makes: searched on one thread without the
/// GIL, stopped by Ctrl-C (KeyboardInterrupt) or `deadline` (the error).
pub fn search_within<'a>(
    py: Python<'_>,
    (start, goal): (Board, Board),
    weight: Weight,
    deadline: Option<std::time::Instant>,
    guidance: impl FnOnce() -> Result<Guidance<'a>, AnswerError> + Send,
) -> PyResult<Result<PySolution, AnswerError>> {
    let cancel = AtomicBool::new(false);
    let search = || {
        let guidance = guidance()?;
        let options = SolveOptions {
            deadline,
            cancel: Some(&cancel),
            ..SolveOptions::default()
        };
        Ok::<_, AnswerError>(bounded::answer_within(
            &start, &goal, weight, &guidance, &options,
        )?)
    };
    let stop = || cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(interruptible(py, stop, search)?.map(PySolution::found_within))
}

/// Boards of up to this many cells get their database built on first use.
pub const AUTO_BUILD_MAX_CELLS: usize = 10;

/// An opened database, of either kind: complete tables (boards up to 12
/// cells), which answer by lookup, or pattern databases (4x4, 3x5, 5x3, 5x5,
/// 4x5, 5x4, or a smaller board's built with a `partition`), which answer
/// by searching.
///
/// Without `path`, it is found where the command line looks: `$NPUZZLE_DB`,
/// then `data/RxC.db` under the current folder, then the per-user data
/// folder. Where none exists for a board of up to 10 cells, it is built
/// into the per-user data folder (about 20 ms for 3x3); 12-cell boards and
/// pattern databases are built only by `npuzzle.build`. Safe to share
/// between threads.
///
/// The file is memory-mapped: a file renamed over it (as `npuzzle.build`
/// and `build-db` replace one) leaves this one answering, but one copied
/// over it or truncated in place while open kills the process (a bus
/// error). Copy beside it and rename. `verify()` reads every table.
///
/// Raises DatabaseError when the file is missing, damaged, or of another
/// board than `board`; ParseError when `board` is not a size ("RxC");
/// ArgumentError or ArgumentTypeError for a `path` that is not one.
///
/// >>> db = Database(board="2x3")
/// >>> db.distance("123/405")
/// 1
#[pyclass(module = "npuzzle", name = "Database", frozen)]
pub struct PyDatabase {
    /// Either kind; `tables()` is the one way to the complete tables.
    db: Database<Mmap>,
    pub path: PathBuf,
    goal: Board,
    /// Where the file was found: errors name `NPUZZLE_DB` when it came from
    /// there, since building another file would not help.
    pub origin: Origin,
    /// Said after a board's error when the file came from `NPUZZLE_DB`
    /// without `board=` and is not 3x3: the board was likely meant for
    /// the default.
    board_note: Option<String>,
}

impl PyDatabase {
    pub fn shape(&self) -> Shape {
        self.db.shape()
    }

    /// The complete tables, when the file holds them.
    pub(crate) fn tables(&self) -> Option<&CompleteTables<Mmap>> {
        self.db.complete().ok()
    }

    /// The complete tables, or the one exception for questions that need
    /// them (`what` names the question, as `histogram()`).
    fn complete(&self, py: Python<'_>, what: &str) -> PyResult<&CompleteTables<Mmap>> {
        self.tables()
            .ok_or_else(|| errors::needs_complete(py, what, self.shape()))
    }

    /// A search over the pattern databases (a complete table looks up).
    pub fn search(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, AnswerError> {
        self.db.solve(start, goal, options)
    }

    /// The database under this object, for the library's questions.
    pub fn database(&self) -> &Database<Mmap> {
        &self.db
    }

    /// `what` (`heuristics()`) counts single-tile moves, as the heuristics
    /// and the textbook searches do: refused on a multi-tile database.
    fn single_tile(&self, py: Python<'_>, what: &str) -> PyResult<()> {
        if self.db.metric() == Metric::SingleTile {
            return Ok(());
        }
        Err(errors::argument(
            py,
            format!(
                "{what} counts single-tile moves, as the heuristics and the textbook searches \
                 do; this database counts multi-tile moves"
            ),
        ))
    }

    /// The library's error as a Python exception.
    pub fn err(&self, py: Python<'_>, e: impl Into<AnswerError>) -> PyErr {
        errors::answer(
            py,
            e.into(),
            &self.path,
            self.origin,
            self.shape(),
            self.db.patterns(),
        )
    }

    /// A board of this database's size from any accepted form.
    #[inline]
    pub fn read_board(&self, obj: &Bound<'_, PyAny>) -> PyResult<Board> {
        to_board(obj, self.shape(), SizeFrom::Database).map_err(|e| match &self.board_note {
            Some(note) => errors::reworded(obj.py(), e, |message| format!("{message} ({note})")),
            None => e,
        })
    }

    /// The board argument `name` (`start`, `goal` …): `read_board`, its
    /// error naming the argument.
    #[inline]
    pub fn read_argument(&self, obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Board> {
        self.read_board(obj)
            .map_err(|e| board::bad_argument(obj, name, e))
    }

    /// The goal given, or the default one.
    #[inline]
    pub fn goal_of(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        match arguments::given(goal) {
            None => Ok(self.goal),
            Some(g) => self.read_argument(g, "goal"),
        }
    }

    /// Where answers toward the goal given (or the default one) come from;
    /// `timeout` (seconds) bounds searches from now.
    #[inline]
    pub fn target(
        &self,
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<std::time::Duration>,
    ) -> PyResult<Target<'_>> {
        self.target_toward(py, self.goal_of(goal)?, timeout)
    }

    /// [`PyDatabase::target`] toward a goal already read.
    fn target_toward(
        &self,
        py: Python<'_>,
        goal: Board,
        timeout: Option<std::time::Duration>,
    ) -> PyResult<Target<'_>> {
        match self.tables() {
            Some(db) => Ok(Target::Table(
                db.goal_table(&goal).map_err(|e| self.err(py, e))?,
            )),
            None => Ok(Target::Search(Search {
                db: self,
                goal,
                deadline: deadline(timeout),
                cancel: AtomicBool::new(false),
            })),
        }
    }

    /// The complete table toward the goal given (or the default one), for
    /// the questions only complete tables answer (`what`).
    fn table(
        &self,
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        what: &str,
    ) -> PyResult<GoalTable<'_>> {
        let db = self.complete(py, what)?;
        let goal = self.goal_of(goal)?;
        db.goal_table(&goal).map_err(|e| self.err(py, e))
    }

    /// `start` read as a board (its errors naming it `name`), then where
    /// answers toward `goal` come from: what most questions begin with.
    fn start_and_target(
        &self,
        py: Python<'_>,
        (start, name): (&Bound<'_, PyAny>, &str),
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Board, Target<'_>)> {
        let start = self.read_argument(start, name)?;
        Ok((start, self.target(py, goal, arguments::seconds(timeout)?)?))
    }

    /// `f(target)`, without the GIL when it searches (a lookup is quicker
    /// than releasing it), its error raised as Python's.
    fn ask<T: Send>(
        &self,
        py: Python<'_>,
        target: &Target<'_>,
        f: impl FnOnce(&Target<'_>) -> Result<T, AnswerError> + Send,
    ) -> PyResult<T> {
        let answer = if target.searches() {
            target.without_gil(py, || f(target))?
        } else {
            f(target)
        };
        answer.map_err(|e| self.err(py, e))
    }

    /// The heuristic a search within a factor follows toward `goal`.
    pub fn guidance(&self, goal: &Board) -> Result<Guidance<'_>, AnswerError> {
        Guidance::for_database(&self.db, goal)
    }

    /// `within=` counts single-tile moves: refused for the multi-tile metric.
    fn single_tile_within(&self, py: Python<'_>) -> PyResult<()> {
        if self.db.metric() == Metric::SingleTile {
            return Ok(());
        }
        Err(errors::argument(
            py,
            "within= counts single-tile moves; this database counts multi-tile moves, and \
             answers them exactly without it",
        ))
    }

    /// `solve(..., within=weight)`: bounded-suboptimal, on one thread,
    /// without the GIL, stopped by Ctrl-C or `timeout`.
    fn solve_within(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        weight: Weight,
    ) -> PyResult<PySolution> {
        self.single_tile_within(py)?;
        let start = self.read_argument(start, "start")?;
        let goal = self.goal_of(goal)?;
        let deadline = deadline(arguments::seconds(timeout)?);
        let guidance = || self.guidance(&goal);
        search_within(py, (start, goal), weight, deadline, guidance)?
            .map_err(|e| errors::within(py, e, weight, |e| self.err(py, e)))
    }

    /// Opens the database at `path` or finds it for `board`, building it
    /// where that is cheap; `asker` is who wanted that board, for errors.
    pub fn open(
        py: Python<'_>,
        path: Option<PathBuf>,
        board: Option<Shape>,
        metric: Option<Metric>,
        asker: Asker,
    ) -> PyResult<Self> {
        let shape = board.unwrap_or(Shape::THREE_BY_THREE);
        if let Some(Err(e)) = metric.map(|m| m.check_tables(shape)) {
            return Err(errors::argument(py, format!("metric=\"mtm\": {e}")));
        }
        let wanted_metric = metric;
        let metric = metric.unwrap_or_default();
        let location = find_or_build(py, shape, metric, path.as_deref())?;
        let named = match location.origin {
            Origin::WorkingDir | Origin::UserData => Some(shape),
            Origin::Given | Origin::Env => board,
        };
        let db = py
            .detach(|| Database::open(&location.path))
            .map_err(|e| errors::open(py, e, location.origin, named))?;
        check_fit(py, &db, &location, (board, wanted_metric), asker)?;
        let board_note = board_note(&db, &location, board);
        let goal = Board::goal(db.shape());
        // Absolute, as the file opened: a relative path would name another
        // file after a notebook's `%cd`, or in a Dask worker that unpickles
        // this database in another folder.
        let path = std::path::absolute(&location.path).unwrap_or(location.path);
        Ok(PyDatabase {
            db,
            path,
            goal,
            origin: location.origin,
            board_note,
        })
    }
}

/// Where the database is ([`locate`]), building it in the per-user folder
/// when none is found for a board where that is cheap (up to
/// [`AUTO_BUILD_MAX_CELLS`] cells); larger boards get the call that builds
/// theirs.
fn find_or_build(
    py: Python<'_>,
    shape: Shape,
    metric: Metric,
    path: Option<&Path>,
) -> PyResult<Location> {
    let mut location = locate(shape, metric, path);
    let absent = !location.path.exists();
    let searched = matches!(location.origin, Origin::WorkingDir | Origin::UserData);
    if absent && searched {
        if shape.cells() > MAX_TABLE_CELLS {
            let target = user_data_path(shape, metric).unwrap_or(location.path.clone());
            return Err(errors::database(py, no_patterns(shape, &target)));
        }
        if shape.cells() > AUTO_BUILD_MAX_CELLS {
            let target = user_data_path(shape, metric).unwrap_or(location.path.clone());
            return Err(errors::database(
                py,
                format!(
                    "no database for {shape} boards at {}: 12-cell databases take seconds \
                         to build and 240 MB or more, so they are built only on request: {}",
                    shown_path(&target),
                    errors::build_call(&target, shape, false)
                ),
            ));
        }
        let Some(target) = user_data_path(shape, metric) else {
            return Err(errors::database(
                py,
                format!(
                    "no database for {shape} boards, and no per-user data folder to build \
                         one in (no home folder): pass path= to a file npuzzle.build wrote"
                ),
            ));
        };
        let tables = crate::making::Tables::Default;
        crate::making::build(py, shape, metric, &target, tables, false)?;
        location.path = target;
    }
    Ok(location)
}

/// Refuses a file of another board than `board` asked, or of another
/// metric than `wanted_metric`, saying how to reach the right one: where
/// `NPUZZLE_DB` chose it, and what the module-level functions (which play
/// one board) can do instead.
fn check_fit(
    py: Python<'_>,
    db: &Database<Mmap>,
    location: &Location,
    (board, wanted_metric): (Option<Shape>, Option<Metric>),
    asker: Asker,
) -> PyResult<()> {
    let metric = wanted_metric.unwrap_or_default();
    if let Some(wanted) = board {
        if db.shape() != wanted && asker == Asker::ModuleFunctions {
            let advice = match location.origin {
                Origin::Env => format!(
                    "it is the file NPUZZLE_DB names, which is looked at first: unset \
                         NPUZZLE_DB to use (or build) the {wanted} database, or open this file \
                         with npuzzle.Database() and call its methods"
                ),
                _ => format!(
                    "move it aside, and the {wanted} database is found (or built) in the \
                         usual places"
                ),
            };
            return Err(errors::database(
                py,
                format!(
                    "{} holds {} boards, and npuzzle's module-level functions play \
                         {wanted}; {advice}",
                    shown_path(&location.path),
                    db.shape(),
                ),
            ));
        }
        if db.shape() != wanted && location.origin == Origin::Env {
            return Err(errors::database(
                py,
                format!(
                    "{} holds {} boards, not {wanted} (board=), and it is the file \
                         NPUZZLE_DB names, which is looked at first: {}",
                    shown_path(&location.path),
                    db.shape(),
                    errors::none_to_build(wanted, metric).unwrap_or_else(|| format!(
                        "unset NPUZZLE_DB to use (or build) the {wanted} database, or \
                             pass path= to a {wanted} file"
                    )),
                ),
            ));
        }
        if db.shape() != wanted {
            return Err(errors::database(
                py,
                format!(
                    "{} holds {} boards, not {wanted} (board=); {}",
                    shown_path(&location.path),
                    db.shape(),
                    errors::none_to_build(wanted, metric).unwrap_or_else(|| format!(
                        "build one with: {}",
                        errors::build_call(
                            &user_data_path(wanted, metric).unwrap_or_default(),
                            wanted,
                            false
                        )
                    ))
                ),
            ));
        }
    }
    if let Some(wanted) = wanted_metric {
        if db.metric() != wanted {
            // Where NPUZZLE_DB chose the file: said, and how to look elsewhere.
            let (named, unset) = match location.origin {
                Origin::Env => (
                    ", and it is the file NPUZZLE_DB names, which is looked at first",
                    "unset NPUZZLE_DB, or ",
                ),
                _ => ("", ""),
            };
            return Err(errors::database(
                py,
                format!(
                    "{} counts {} moves, not {wanted} (metric=){named}; pass metric=\"{}\", \
                         or {unset}path= to a {wanted} file (npuzzle.build(board=\"{}\", \
                         metric=\"{wanted}\") builds one)",
                    shown_path(&location.path),
                    db.metric(),
                    db.metric(),
                    db.shape()
                ),
            ));
        }
    }
    Ok(())
}

/// Where `NPUZZLE_DB` chose a file of another board than 3x3 and no board
/// was asked for, the note errors add: which file it is, and how to reach
/// another.
fn board_note(db: &Database<Mmap>, location: &Location, board: Option<Shape>) -> Option<String> {
    (location.origin == Origin::Env && board.is_none() && db.shape() != Shape::THREE_BY_THREE).then(
        || {
            format!(
                "the database is {}, a {} file named by NPUZZLE_DB; for another board, \
                 unset NPUZZLE_DB (board= then finds its file) or pass path=",
                shown_path(&location.path),
                db.shape()
            )
        },
    )
}

/// `value`'s JSON as a dict: the library's typed reports handed to Python
/// with the same fields as every other face, by construction.
pub fn json_dict<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyDict>> {
    let json = serde_json::to_string(value).expect("a report serializes");
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((json,))?.cast_into::<PyDict>()?)
}

/// `distance=` of `random`: an int K, a `range`, or the command line's
/// text ("20", "20..=25", "20..26").
fn distances_of(obj: &Bound<'_, PyAny>) -> PyResult<std::ops::RangeInclusive<u32>> {
    let py = obj.py();
    let bad = |e: npuzzle::analysis::DistanceRangeError| errors::argument(py, e.to_string());
    if obj.cast::<PyString>().is_ok() {
        return parse_distances(&arguments::text(obj, "distance")?).map_err(bad);
    }
    // Through the ints' text, so that no int is too large to be refused
    // in the library's words.
    if let Ok(range) = obj.cast::<PyRange>() {
        let (start, stop) = (range.getattr("start")?, range.getattr("stop")?);
        if range.getattr("step")?.ne(1)? {
            return Err(errors::argument(
                py,
                format!(
                    "distance={} has step {}: draw from a range of consecutive distances",
                    range.repr()?,
                    range.getattr("step")?
                ),
            ));
        }
        // An empty range named as Python writes it, not as `query` does.
        if start.ge(&stop)? {
            return Err(errors::argument(
                py,
                format!("distance={} is empty: it holds no distance", range.repr()?),
            ));
        }
        // Named as Python writes it: the text below is the library's.
        if start.lt(0)? {
            return Err(errors::argument(
                py,
                format!(
                    "distance={} starts below 0: no position lies a negative number of moves \
                     from the goal",
                    range.repr()?
                ),
            ));
        }
        let (start, stop) = (arguments::shown(&start), arguments::shown(&stop));
        return parse_distances(&format!("{start}..{stop}")).map_err(|e| match e {
            // Named as Python writes it, with the library's reason.
            npuzzle::analysis::DistanceRangeError::TooFar(_) => {
                let written = range
                    .repr()
                    .map_or_else(|_| start.clone(), |r| r.to_string());
                too_far(py, &written)
            }
            e => bad(e),
        });
    }
    let refused = || {
        errors::argument_type(
            py,
            format!(
                "distance= is a whole number of moves, a range, or text (\"20..=25\"), not {}",
                arguments::type_name(obj)
            ),
        )
    };
    // An int named as Python writes it (distance=-1), not quoted as text.
    match arguments::whole(obj, "distance").map_err(|_| refused())? {
        Whole::Value(k) => parse_distances(&k.to_string()).map_err(|e| match e {
            npuzzle::analysis::DistanceRangeError::TooFar(_) => too_far(py, &k.to_string()),
            e => bad(e),
        }),
        Whole::Negative(k) => Err(errors::argument(
            py,
            format!("distance={k} is negative: distances count moves, from 0 up"),
        )),
        Whole::TooLarge(k) => Err(too_far(py, &k)),
    }
}

/// A distance past every table, named as Python wrote it.
fn too_far(py: Python<'_>, written: &str) -> PyErr {
    let reason = npuzzle::analysis::PAST_EVERY_TABLE;
    errors::argument(py, format!("distance={written} {reason}"))
}

/// The textbook searches' `max_nodes` (by default the library's) and
/// `depth_limit` (none: the goal's farthest distance), checked.
fn search_limits(
    max_nodes: Option<&Bound<'_, PyAny>>,
    depth_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, Option<u32>)> {
    let max_nodes = arguments::whole_in(max_nodes, "max_nodes", 1..=MAX_COMPARE_NODES)?
        .unwrap_or(DEFAULT_COMPARE_NODES);
    let depth_limit = arguments::whole_in(depth_limit, "depth_limit", 0..=u32::MAX as u64)?;
    Ok((max_nodes, depth_limit.map(|d| d as u32)))
}

/// The moves to grade: a string as the page reads it (the blank's letters,
/// or the tiles moved as numbers, `"6 5 2"`), a list of tile numbers, or a
/// list of letters.
fn steps_of(py: Python<'_>, moves: &Bound<'_, PyAny>, shape: Shape) -> PyResult<Vec<Step>> {
    if let Ok(text) = moves.cast::<PyString>() {
        let text = arguments::text_of(text)
            .map_err(|why| errors::parse(py, format!("the move string {why}")))?;
        return read_steps_on(&text, shape).map_err(|e| errors::parse(py, e));
    }
    if moves.cast::<pyo3::types::PyBytes>().is_ok() {
        return Err(errors::argument_type(
            py,
            "moves are text or a list, not bytes: decode them first",
        ));
    }
    // A list of whole numbers is the tiles moved, each named as one.
    let items = moves.extract::<Vec<Bound<'_, PyAny>>>().unwrap_or_default();
    // A move left out (`["8", "", "1"]`), as `8,,1` is in a string.
    let blank = |item: &Bound<'_, PyAny>| {
        item.cast::<PyString>()
            .is_ok_and(|s| s.to_str().is_ok_and(|t| t.trim().is_empty()))
    };
    if let Some(i) = items.iter().position(blank) {
        return Err(errors::parse(
            py,
            format!(
                "move {} is missing: the list holds an empty string there",
                i + 1
            ),
        ));
    }
    // Python's ints and NumPy's integers (which have `__index__`).
    let whole = |item: &Bound<'_, PyAny>| {
        item.is_instance_of::<pyo3::types::PyInt>() || item.hasattr("__index__").unwrap_or(false)
    };
    // Tile numbers written as text (`["6", "5", "2"]`): read as `"6 5 2"` is.
    let digits = |item: &Bound<'_, PyAny>| {
        item.cast::<PyString>().is_ok_and(|s| {
            s.to_str()
                .is_ok_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if !items.is_empty() && items.iter().all(digits) {
        let words: Vec<String> = items.iter().map(ToString::to_string).collect();
        return read_steps_on(&words.join(" "), shape).map_err(|e| errors::parse(py, e));
    }
    if !items.is_empty() && items.iter().all(whole) {
        if items.len() > MAX_STEPS {
            return Err(errors::parse(py, StepsError::TooMany(items.len())));
        }
        let last = shape.cells() as u8 - 1;
        let tile = |(i, item): (usize, &Bound<'_, PyAny>)| {
            // Python counts a bool as an int; it is never a tile.
            if item.is_instance_of::<pyo3::types::PyBool>() {
                let message = format!("move {} is a bool, not a tile number", i + 1);
                return Err(errors::argument_type(py, message));
            }
            match item.extract::<u8>() {
                Ok(t) if (1..=last).contains(&t) => Ok(Step::Tile(t)),
                _ => Err(errors::parse(
                    py,
                    format!(
                        "move {} is tile {}: the tiles of a {shape} board are 1 to {last}",
                        i + 1,
                        excerpt(&item.to_string(), board::ARGUMENT_ECHO_LIMIT)
                    ),
                )),
            }
        };
        return items.iter().enumerate().map(tile).collect();
    }
    let slides = board::moves_of(py, moves)?;
    // A list is graded up to the length a string is.
    let cells = slides.iter().map(|&(_, tiles)| tiles).sum::<usize>();
    if cells > MAX_STEPS {
        return Err(errors::parse(py, StepsError::TooMany(cells)));
    }
    let step = |(m, tiles)| match tiles {
        1 => Step::Blank(m),
        _ => Step::Slide(m, tiles),
    };
    let steps: Vec<Step> = slides.into_iter().map(step).collect();
    steps_fit(&steps, shape).map_err(|e| errors::parse(py, e))?;
    Ok(steps)
}

/// Who asked for a database's board, so that a file of another board is
/// refused in their terms.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// `Database(board=...)`, or `Database()` for 3x3.
    Caller,
    /// The module-level functions (`npuzzle.solve`, …), which play 3x3
    /// and take no path.
    ModuleFunctions,
}

#[pymethods]
impl PyDatabase {
    #[new]
    #[pyo3(signature = (path = None, board = None, metric = None))]
    fn new(
        py: Python<'_>,
        path: Option<&Bound<'_, PyAny>>,
        board: Option<&Bound<'_, PyAny>>,
        metric: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let board = arguments::given(board).map(board::size).transpose()?;
        let metric = arguments::given(metric)
            .map(|m| arguments::metric(py, Some(m)))
            .transpose()?;
        PyDatabase::open(py, arguments::path(path)?, board, metric, Asker::Caller)
    }

    /// How the database counts moves: "stm" (one tile per move) or "mtm"
    /// (a slide of 1 to k tiles in a line is one move).
    ///
    /// >>> Database(board="2x3").metric
    /// 'stm'
    #[getter]
    fn metric(&self) -> &'static str {
        self.db.metric().name()
    }

    /// The database's file, as an absolute path (the one pickling carries).
    ///
    /// >>> Database(board="2x3").path.endswith("2x3.db")
    /// True
    #[getter]
    fn path(&self) -> std::ffi::OsString {
        // Bytes that are not UTF-8 come back as `os.fsdecode` gives them.
        self.path.clone().into_os_string()
    }

    /// The size of its boards, "RxC".
    ///
    /// >>> Database(board="2x3").board
    /// '2x3'
    #[getter]
    fn board(&self) -> String {
        self.shape().to_string()
    }

    /// The default goal: tiles in order, the blank last.
    ///
    /// >>> Database(board="2x3").goal
    /// Board("123/450", board="2x3")
    #[getter]
    fn goal(&self) -> PyBoard {
        wrap(self.goal)
    }

    /// Reads a board of this database's size from any accepted form.
    /// Raises ParseError when it is not one, ArgumentTypeError when it is
    /// not of a type a board can be (bytes, a dict …).
    ///
    /// >>> Database().board_of([[8, 6, 7], [2, 5, 4], [3, 0, 1]])
    /// Board("867/254/301")
    fn board_of(&self, position: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        self.read_board(position).map(wrap)
    }

    /// "complete" for complete tables (answers looked up), "pattern" for
    /// pattern databases (answers searched for with IDA*).
    ///
    /// >>> Database(board="2x3").kind
    /// 'complete'
    #[getter]
    fn kind(&self) -> &'static str {
        self.db.kind().name()
    }

    /// The pattern databases' partition of the tiles (`"7-8"`, `"6-6-3"`,
    /// `"4-4"` …), or None for complete tables.
    ///
    /// >>> Database(board="2x3").partition is None
    /// True
    #[getter]
    fn partition(&self) -> Option<String> {
        self.db.partition().map(str::to_string)
    }

    /// The fewest moves from `start` to `goal` (by default, tiles in order
    /// and the blank last). Raises UnsolvableError when there is no way,
    /// and SearchTimeoutError when a search outlasts `timeout` seconds
    /// (pattern databases only: a lookup takes no time). Raises ParseError
    /// (or ArgumentTypeError) when `start` or `goal` is not a board of this
    /// size, the message naming which (`bad goal board …`),
    /// MissingTableError when no table serves the goal, and ArgumentError
    /// for a `timeout` the command line's `--timeout` refuses too: every
    /// `timeout=` is above 0 (1e-9 at least) and at most 1e9 seconds, and
    /// None is no limit.
    ///
    /// >>> Database().distance("867254301")
    /// 31
    #[pyo3(signature = (start, goal = None, *, timeout = None))]
    fn distance(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u32> {
        let (start, target) = self.start_and_target(py, (start, "start"), goal, timeout)?;
        self.ask(py, &target, |t| t.distance(&start, true))
    }

    /// One shortest solution from `start` to `goal`; `timeout` and what it
    /// raises as for `distance`. With `within=W` (1 to 100), a solution at
    /// most W times the shortest instead, found as `query solve --within`
    /// finds it (beam search for the solution, IDA* for the bound) over the
    /// pattern databases (over Manhattan distance and linear conflicts for
    /// complete tables), with the `lower_bound` that proves it; W outside 1
    /// to 100 raises ArgumentError.
    ///
    /// >>> Database().solve("123468750").moves
    /// 'ULDR'
    #[pyo3(signature = (start, goal = None, *, timeout = None, within = None))]
    fn solve(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        within: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySolution> {
        if let Some(within) = arguments::given(within) {
            let weight = arguments::weight(within)?;
            return self.solve_within(py, start, goal, timeout, weight);
        }
        let (start, target) = self.start_and_target(py, (start, "start"), goal, timeout)?;
        let mut moves = Vec::new();
        let nodes = self.ask(py, &target, |t| t.solve_into(&start, &mut moves, true))?;
        let pair = (start, target.goal());
        Ok(PySolution::shortest(pair, moves, target.metric(), nodes))
    }

    /// Whether `start` can reach `goal`, with the reason when it cannot.
    /// Needs no table: the parity of the tiles decides. Raises ParseError
    /// (or ArgumentTypeError) when `start` or `goal` is not a board.
    ///
    /// >>> bool(Database().solvable("867254301"))
    /// True
    #[pyo3(signature = (start, goal = None))]
    fn solvable(
        &self,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySolvability> {
        let start = self.read_argument(start, "start")?;
        let goal = self.goal_of(goal)?;
        Ok(PySolvability::of(&start, &goal))
    }

    /// Every move that keeps the solution optimal (leads one step closer to
    /// `goal`): the first moves of all shortest solutions, as letters in
    /// the order D, L, R, U. Under the multi-tile metric each is a slide,
    /// written as solutions write it (`R2`: the blank passes two tiles).
    /// Empty at the goal. Pattern databases solve each neighbour to know;
    /// `timeout` and what it raises as for `distance`.
    ///
    /// >>> Database().best_moves("105432786")
    /// ['D', 'R']
    #[pyo3(signature = (position, goal = None, *, timeout = None))]
    fn best_moves(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let (position, target) =
            self.start_and_target(py, (position, "position"), goal, timeout)?;
        let slides = self.ask(py, &target, |t| t.best_moves(&position))?;
        Ok(slides.into_iter().map(board::written).collect())
    }

    /// How many distinct shortest solutions there are. Needs complete
    /// tables (NeedsCompleteTablesError otherwise); raises as `distance`
    /// does.
    ///
    /// >>> Database().count_solutions("867254301")
    /// 40
    #[pyo3(signature = (start, goal = None))]
    fn count_solutions(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u128> {
        let target = self.table(py, goal, "count_solutions()")?;
        let start = self.read_argument(start, "start")?;
        py.detach(|| count_shortest(&target, &start))
            .map_err(|e| self.err(py, e))
    }

    /// Up to `limit` shortest solutions, in alphabetical order (a `limit`
    /// past what memory holds lists them all). Needs complete tables
    /// (NeedsCompleteTablesError otherwise); raises as `distance` does, and
    /// ArgumentError for a negative `limit`.
    ///
    /// >>> Database().solutions("105432786", limit=2)
    /// ['DRULDRD', 'RDLURDD']
    #[pyo3(signature = (start, goal = None, limit = None), text_signature = "($self, start, goal=None, limit=10)")]
    fn solutions(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let limit = arguments::limit(limit)?;
        let target = self.table(py, goal, "solutions()")?;
        let start = self.read_argument(start, "start")?;
        let listed = py
            .detach(|| list_shortest(&target, &start, limit))
            .map_err(|e| self.err(py, e))?;
        Ok(listed
            .iter()
            .map(|m| self.db.metric().notation(m))
            .collect())
    }

    /// How many positions lie at each distance from `goal`: item d is the
    /// count at d moves. Needs complete tables (NeedsCompleteTablesError
    /// otherwise); raises ParseError for a `goal` that is not a board, and
    /// MissingTableError when no table serves it.
    ///
    /// >>> Database().histogram()[:5]
    /// [1, 2, 4, 8, 16]
    #[pyo3(signature = (goal = None))]
    fn histogram(&self, py: Python<'_>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u64>> {
        Ok(Histogram::of(&self.table(py, goal, "histogram()")?).counts)
    }

    /// The state space's statistics: the dict of `query stats --json`
    /// (`board`, `metric`, and `tables`, one per table toward its own goal,
    /// or the one toward `goal` if given: `blank`, `goal`, `positions`,
    /// `max_distance`, `mean_distance`, `farthest`, every position at the
    /// largest distance). Needs complete tables (NeedsCompleteTablesError
    /// otherwise); raises ParseError and MissingTableError as `histogram`.
    ///
    /// >>> Database().stats("123456780")["tables"][0]["farthest"]
    /// ['647850321', '867254301']
    #[pyo3(signature = (goal = None))]
    fn stats<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let report = match goal {
            Some(_) => stats_toward(&self.table(py, goal, "stats()")?),
            None => {
                let db = self.complete(py, "stats()")?;
                py.detach(|| stats(db))
            }
        };
        json_dict(py, &report)
    }

    /// Reads and checks every table, as `query verify` does: checksums,
    /// counts, and what damage breaks in every entry (on complete tables,
    /// each stored move one step closer). Opening a file reads its header
    /// only, and a search reads a pattern database's entries without their
    /// checksums, so an entry damaged within range is found here
    /// (docs/guarantees.md). Returns the dict of `query verify --json`
    /// (`kind`, `ok`, `tables` with each one's `faults`,
    /// `nonzero_padding`, `entries`, `elapsed_ms`); raises DatabaseError
    /// naming the damaged tables and the rebuild call when a check fails,
    /// with that dict as its `.report`.
    /// It reads the whole file on every core (0.2 s for the 577 MB 4x4
    /// one in the page cache, on 2 cores), and Ctrl-C is felt once it
    /// ends.
    ///
    /// >>> Database(board="2x3").verify()["ok"]
    /// True
    fn verify<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let report = py.detach(|| self.db.verify());
        if report.ok {
            return json_dict(py, &report);
        }
        let mut damaged: Vec<String> = report
            .tables
            .iter()
            .filter(|t| !t.ok)
            .map(|t| t.name(report.kind))
            .collect();
        if report.nonzero_padding > 0 {
            damaged.push(format!(
                "the padding (bytes that should be zero: {})",
                report.nonzero_padding
            ));
        }
        let partition = self.db.patterns().map(|p| p.partition().name());
        let e = errors::database(
            py,
            format!(
                "{} is damaged: {}; rebuild it with: {}",
                shown_path(&self.path),
                damaged.join(", "),
                errors::build_call_with(&self.path, self.shape(), partition, false)
            ),
        );
        // Each table's faults, for a caller that lists them.
        e.value(py).setattr("report", json_dict(py, &report)?)?;
        Err(e)
    }

    /// Each classic heuristic over every position toward `goal`, beside
    /// the true distance: the dict of `query heuristics --json` (`board`,
    /// `goal`, `positions`, and `heuristics`, one per heuristic: its
    /// `by_distance` counts, means, least and most, `h_counts`,
    /// `inadmissible`, `moves`, `inconsistent`, `mean_ratio`). Needs
    /// complete tables counting single-tile moves (NeedsCompleteTablesError,
    /// ArgumentError on a multi-tile database); raises ParseError and
    /// MissingTableError as `histogram`. For one position, `heuristics`.
    ///
    /// >>> s = Database().heuristics_survey()
    /// >>> [(h["heuristic"], h["inadmissible"]) for h in s["heuristics"]]
    /// [('misplaced', 0), ('manhattan', 0), ('linear-conflict', 0), ('manhattan+blank', 4650)]
    #[pyo3(signature = (goal = None))]
    fn heuristics_survey<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.single_tile(py, "heuristics_survey()")?;
        let target = self.table(py, goal, "heuristics_survey()")?;
        let surveys = py
            .detach(|| Surveys::toward(&target))
            .map_err(|e| errors::argument(py, e.to_string()))?;
        json_dict(py, &surveys)
    }

    /// `count` distinct positions drawn uniformly from those at exactly
    /// `distance` moves from `goal`, or at any distance of a range
    /// (`range(20, 26)`, or the command line's "20..=25"). The same `seed`
    /// draws the same positions as `query random --seed`. On pattern
    /// databases (4x4, 5x5, …) each is found by a random walk from the goal,
    /// solved and cut at its distance: exactly that far, not drawn
    /// uniformly, at most 1000, all searched within `timeout` seconds
    /// (SearchTimeoutError past it, whose `answers` holds the positions
    /// found before it: the first that `seed` draws). Without `distance`,
    /// `count` positions (up to 1,000,000) drawn uniformly and independently
    /// from every one that reaches the goal, so a large draw repeats some,
    /// on any database, as `query random` without `--distance` draws them.
    ///
    /// Raises ArgumentError for a distance no position lies at, a `count`
    /// below 1 or above the positions there are, or a `seed` outside 0 to
    /// 2**64 - 1; ArgumentTypeError for arguments of the wrong type; and as
    /// `histogram` does for the goal.
    ///
    /// >>> [Database().distance(b) for b in Database().random(20, count=3, seed=1)]
    /// [20, 20, 20]
    #[pyo3(signature = (distance = None, count = None, seed = None, goal = None, *, timeout = None), text_signature = "($self, distance=None, count=1, seed=None, goal=None, *, timeout=None)")]
    fn random(
        &self,
        py: Python<'_>,
        distance: Option<&Bound<'_, PyAny>>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyBoard>> {
        let count = arguments::count(count)?;
        let seed = arguments::seed(seed)?.unwrap_or_else(npuzzle::analysis::fresh_seed);
        // Checked as everywhere, though a uniform draw searches nothing.
        let timeout = arguments::seconds(timeout)?;
        let Some(distance) = arguments::given(distance) else {
            arguments::uniform_count(py, count)?;
            // Refused where `query random` refuses the goal; the boards
            // alone are returned, so no distance is looked up.
            let goal = self.goal_of(goal)?;
            Sample::distance_table(&self.db, &goal).map_err(|e| self.err(py, e))?;
            let drawn = py.detach(|| Sample::uniform(&goal, count, seed));
            return Ok(drawn.positions.iter().map(|p| wrap(p.start)).collect());
        };
        let distances = distances_of(distance)?;
        let target = self.target(py, goal, timeout)?;
        let drawn = || target.at_distance(distances, (count, seed));
        match target.without_gil(py, drawn)? {
            Ok(drawn) => Ok(drawn.positions.iter().map(|p| wrap(p.start)).collect()),
            Err(DrawError::TimedOut {
                stopped: stop,
                found,
            }) => {
                let limit = format!("timeout={} s", timeout.unwrap_or_default().as_secs_f64());
                let positions = &found.0.positions;
                let again = format!("count={}, seed={seed}", positions.len());
                let message = draw_stopped(&stop, &limit, positions.len(), &again);
                let message = match positions.is_empty() {
                    true => message,
                    false => format!("{message}, in this error's .answers"),
                };
                let err = errors::timed_out_saying(py, &stop, message);
                let found: Vec<PyBoard> = positions.iter().map(|p| wrap(p.start)).collect();
                // Setting an attribute on a fresh exception instance cannot fail.
                let _ = err.value(py).setattr("answers", found);
                Err(err)
            }
            Err(DrawError::Answer(e)) => Err(self.err(py, e)),
            Err(e @ DrawError::Listed(SampleError::Damaged)) => {
                Err(errors::database(py, e.to_string()))
            }
            Err(e @ DrawError::Walked(_)) => {
                let again = |found| format!("count={found}, seed={seed}");
                let found: Vec<PyBoard> = (e.drawn().into_iter())
                    .flat_map(|drawn| &drawn.0.positions)
                    .map(|p| wrap(p.start))
                    .collect();
                let message = draw_fell_short(&e, again);
                if found.is_empty() {
                    return Err(errors::argument(py, message));
                }
                let err = errors::argument(py, format!("{message}, in this error's .answers"));
                // Setting an attribute on a fresh exception instance cannot fail.
                let _ = err.value(py).setattr("answers", found);
                Err(err)
            }
            Err(e) => Err(errors::argument(py, e.to_string())),
        }
    }

    /// Checks a solution, for grading: whether the moves are legal, whether
    /// they reach the goal, the optimal length, how many moves longer than
    /// optimal they are, and which moves went farther from the goal (the
    /// library's grading, as the page's `/api/check` answers it). Every
    /// position the moves pass through is looked up, or on a pattern
    /// database searched: `timeout` bounds them all, and it and what it
    /// raises are as for `distance`; ParseError too for a move that cannot
    /// be read. `moves` are the blank's letters (`"ULDR"`, or a list of
    /// them; slides as the multi-tile metric writes them, `"U3 L R2"` or
    /// `["U3", "L"]`, one move each on a multi-tile database) or, as the page
    /// takes them, the tiles moved (`"6 5 2"`, or a list of numbers).
    ///
    /// >>> c = Database().check("123468750", "ULDR")
    /// >>> c.reaches_goal, c.optimal, c.excess
    /// (True, 4, 0)
    #[pyo3(signature = (start, moves, goal = None, *, timeout = None))]
    fn check(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        moves: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCheck> {
        let start = self.read_argument(start, "start")?;
        let steps = steps_of(py, moves, self.shape())?;
        let target = self.target(py, goal, arguments::seconds(timeout)?)?;
        // The library's grading, as the page's /api/check uses it.
        let metric = self.db.metric();
        let graded = self.ask(py, &target, |t| {
            // Each distance once: on a pattern board each is a search.
            let distance = searched_once(|b: &Board| t.distance(b, true));
            grade(&start, &t.goal(), &steps, metric, distance)
        })?;
        Ok(PyCheck::of(graded))
    }

    /// Each classic heuristic's value for `start` beside its true distance
    /// to `goal`, and on a pattern database the tables' own estimate: the
    /// dict of `query heuristics START --json` (`board`, `start`, `goal`,
    /// `distance`, `lower_bound`, `heuristics`: a list of `heuristic`,
    /// `h`, `admissible_here`, `overestimate`; `pattern_database` on a
    /// pattern database: `partition`, `h`, the position's `lookup` and the
    /// `dual` lookup where the search reads it, None elsewhere;
    /// `manhattan_by_cell`). The distance is looked up, or on a pattern
    /// database searched within `timeout`; toward a goal the file holds no
    /// table for, it is searched as `npuzzle.heuristics` searches it, with
    /// no file, and `pattern_database` is left out. Where that search runs
    /// out of time, `distance` is None, `lower_bound` is the bound it
    /// proved (and at least every admissible value), and a verdict the
    /// bound does not settle is None; otherwise `lower_bound` is the
    /// distance. It raises what `distance` raises, but for the timeout and
    /// a goal the file has no table for. The heuristics count single-tile
    /// moves: ArgumentError on a multi-tile database.
    ///
    /// >>> [(e["heuristic"], e["h"]) for e in Database().heuristics("123468750")["heuristics"]]
    /// [('misplaced', 3), ('manhattan', 4), ('linear-conflict', 4), ('manhattan+blank', 4)]
    #[pyo3(signature = (start, goal = None, *, timeout = None))]
    fn heuristics<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.single_tile(py, "heuristics()")?;
        let start = self.read_argument(start, "start")?;
        let timeout = arguments::seconds(timeout)?;
        let goal = self.goal_of(goal)?;
        // A file with no table toward the goal serves as none would.
        let truth = match serving(Some(&self.db), &goal).map_err(|e| self.err(py, e))? {
            Some(_) => {
                let target = self.target_toward(py, goal, timeout)?;
                self.ask(py, &target, |t| truth_of(t.distance(&start, true)))?
            }
            None => truth_without_file(py, &start, &goal, deadline(timeout))?,
        };
        let estimates = PositionEstimates::new(&start, &goal, truth)
            .with_patterns(&self.db, &start, &goal)
            .map_err(|e| self.err(py, e))?;
        json_dict(py, &estimates)
    }

    /// The classic searches of a course (breadth-first, depth-first to
    /// `depth_limit` moves, iterative deepening, A* with misplaced tiles,
    /// with Manhattan and with linear conflicts, IDA* with Manhattan,
    /// greedy best-first) run on `start` and checked
    /// against the database: the dict of `query compare --json`
    /// (`distance`, `max_nodes` and, per algorithm, `algorithm`, `length`,
    /// `optimal`, `expanded`, `max_open`, `hit_limit`, `elapsed_ms`, …).
    /// Each search stops after `max_nodes` expansions (1 to 10,000,000,
    /// by default 2,000,000: seconds and about 700 MB on 4x4, far from the
    /// goal);
    /// `depth_limit` is the goal's farthest distance unless given (on a
    /// pattern database, whose search finds the truth within `timeout`,
    /// the distance; boards of up to 16 cells). Toward a goal a pattern
    /// database has no table for, the truth is IDA*'s over linear
    /// conflicts, as with no file (`database` is `linear-conflict`).
    /// Raises ArgumentError on
    /// multi-tile databases, past 16 cells, or for `max_nodes` or
    /// `depth_limit` out of range; UnsolvableError for a start that cannot
    /// reach the goal; as `distance` does for `timeout`.
    ///
    /// >>> [(r["algorithm"], r["expanded"]) for r in Database().compare("123468750")["algorithms"]][:2]
    /// [('bfs', 10), ('dfs', 49896)]
    #[pyo3(signature = (start, goal = None, *, max_nodes = None, depth_limit = None, timeout = None))]
    fn compare<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        max_nodes: Option<&Bound<'_, PyAny>>,
        depth_limit: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.single_tile(py, "compare()")?;
        let start = self.read_argument(start, "start")?;
        let (max_nodes, depth_limit) = search_limits(max_nodes, depth_limit)?;
        let target = self.target(py, goal, arguments::seconds(timeout)?)?;
        let compared = match &target {
            // Minutes at the most nodes: Ctrl-C stops the searches.
            Target::Table(table) => {
                let cancel = AtomicBool::new(false);
                interruptible(
                    py,
                    || cancel.store(true, Relaxed),
                    || compare(table, &start, max_nodes, depth_limit, Some(&cancel)),
                )?
            }
            Target::Search(_) => target.without_gil(py, || {
                let compared = target.compared(&start, max_nodes, depth_limit);
                compared.expect("a search target")
            })?,
        };
        match compared {
            Ok(comparison) => json_dict(py, &comparison),
            Err(CompareError::Lookup(e)) => Err(self.err(py, e)),
            Err(e) => Err(errors::argument(py, e.to_string())),
        }
    }

    /// The classic searches of `compare` averaged over `count` positions
    /// drawn at each distance of `distance` (K, `range(a, b)` or text
    /// `"a..=b"`) with `seed` (those `random` draws; all of them, or all
    /// the walks find, where fewer lie there): the dict of `query compare
    /// --distance --json` (`goal`, `seed`, `drawn`, `count`, `max_nodes`,
    /// and `rows` of `distance`, `algorithm`, `positions`, `solved`,
    /// `optimal`, `mean_expanded`, `effective_branching`,
    /// `mean_max_open`). `drawn` is `"uniform"` on complete tables and
    /// `"walks"` on pattern databases (random walks cut on their shortest
    /// solutions: exactly at each distance, but not uniform). Raises
    /// ArgumentError on multi-tile databases, on boards past 16 cells, for
    /// a distance past the goal's farthest (or one the walks do not
    /// reach), or for `count` (1 to 1,000), `seed`, `max_nodes` or
    /// `depth_limit` out of range (as for `compare`); Ctrl-C stops it.
    /// The positions are searched side by side, one a core; the counts do
    /// not depend on it.
    ///
    /// >>> [r["mean_expanded"] for r in Database().search_costs(4, count=5)["rows"]][:2]
    /// [13.8, 62474.2]
    #[pyo3(signature = (distance, count = None, seed = None, *, goal = None, max_nodes = None, depth_limit = None))]
    #[allow(clippy::too_many_arguments)]
    fn search_costs<'py>(
        &self,
        py: Python<'py>,
        distance: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
        max_nodes: Option<&Bound<'_, PyAny>>,
        depth_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.single_tile(py, "search_costs()")?;
        let distances = distances_of(distance)?;
        let most = COSTS_COUNT_MAX as u64;
        let count = arguments::whole_in(count, "count", 1..=most)?.map(|n| n as usize);
        let count = count.unwrap_or(COSTS_COUNT);
        let seed = arguments::seed(seed)?.unwrap_or(COSTS_SEED);
        let limits = search_limits(max_nodes, depth_limit)?;
        let goal = self.goal_of(goal)?;
        let cancel = AtomicBool::new(false);
        let costs = interruptible(
            py,
            || cancel.store(true, Relaxed),
            || {
                let drawn = (count, seed);
                let options = SolveOptions {
                    cancel: Some(&cancel),
                    ..SolveOptions::default()
                };
                let no_progress = |_: u32| {};
                let searched = (&options, &no_progress as &(dyn Fn(u32) + Sync));
                let db = &self.db;
                npuzzle::analysis::search_costs(db, &goal, distances, drawn, limits, searched)
            },
        )?;
        match costs {
            Ok(costs) => json_dict(py, &costs),
            Err(CompareError::Lookup(e)) => Err(self.err(py, e)),
            Err(e) => Err(errors::argument(py, e.to_string())),
        }
    }

    /// The board after `moves` from `start`: the blank's letters, and
    /// slides as solutions write them under the multi-tile metric (`"U L D
    /// R2"`, `["U", "R2"]`), as `Board.apply` takes them. Raises ParseError
    /// for a board or move that cannot be read, IllegalMoveError for a move
    /// off the board (numbered as written: `move 3 (R2) takes the blank off
    /// the board`).
    ///
    /// >>> Database().play("123468750", "ULDR")
    /// Board("123/456/780")
    fn play(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        moves: &Bound<'_, PyAny>,
    ) -> PyResult<PyBoard> {
        let start = self.read_argument(start, "start")?;
        let moves = board::moves_of(py, moves)?;
        play(py, start, &moves).map(wrap)
    }

    /// The distance of every position toward one goal, over every core,
    /// without holding the GIL. `positions` is a list of boards (any form)
    /// or a NumPy integer array of shape (N, cells) or (N, rows, cols).
    /// Unsolvable positions get -1 (None in a list). A NumPy input gives a
    /// NumPy int16 array. `threads=1` answers on one thread.
    /// Pattern databases run one search per position, spread over the
    /// threads; `timeout` (seconds) bounds the whole call, and running out
    /// raises SearchTimeoutError, whose `answers` holds the distances found
    /// before it (as this call returns them, -1 or None where unanswered)
    /// and `unanswered` the others' indexes.
    ///
    /// `threads` is 1 to 4 per core, the limit `query batch --threads`
    /// has; more raises ArgumentError. Ctrl-C stops the call within a
    /// fraction of a second (KeyboardInterrupt). Raises ParseError naming
    /// the first position that is not a board (`positions[i]: …`),
    /// ArgumentTypeError for positions of the wrong type, and as `distance`
    /// does for the goal and `timeout`.
    ///
    /// >>> Database().distances(["867254301", "123456780", "213456780"])
    /// [31, 0, None]
    #[pyo3(signature = (positions, goal = None, *, threads = None, timeout = None))]
    fn distances<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
        timeout: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let threads = arguments::threads(threads)?;
        let batch = Batch::new(self, positions, goal, threads, arguments::seconds(timeout)?);
        crate::batch::distances(py, &batch)
    }

    /// A lower bound on the distance of every position toward one goal, as
    /// `distances` takes and returns them (-1, or None in a list, where
    /// unsolvable), with no search: the pattern tables' own estimate (the
    /// bound their search starts from, as `heuristics(start)` gives it in
    /// `pattern_database`), or with `heuristic=` a classic one
    /// (`"misplaced"`, `"manhattan"`, `"linear-conflict"`, or the
    /// inadmissible `"manhattan+blank"`) on any database. Complete tables
    /// have no estimate of their own: they raise ArgumentError without
    /// `heuristic=`, and `distances` gives their exact answers. Raises
    /// ArgumentError for an unknown name and ArgumentTypeError for one
    /// that is not text, and otherwise as `distances` does.
    ///
    /// >>> Database().estimates(["867254301", "123456708"], heuristic="manhattan")
    /// [21, 1]
    #[pyo3(signature = (positions, goal = None, *, heuristic = None, threads = None))]
    fn estimates<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        heuristic: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let heuristic = match arguments::given(heuristic) {
            Some(h) => Some(arguments::heuristic(h)?),
            None if self.tables().is_some() => {
                return Err(errors::argument(
                    py,
                    "complete tables have no estimate of their own: distances() gives the \
                     exact distances, and heuristic= (misplaced, manhattan, linear-conflict, \
                     manhattan+blank) a classic estimate",
                ))
            }
            None => None,
        };
        self.single_tile(py, "estimates()")?;
        // The tables' own estimate needs a table toward the goal; a classic
        // heuristic needs none, as heuristics() and compare() read none.
        let checked = self.goal_of(goal)?;
        if heuristic.is_none() {
            self.db.check_goal(&checked).map_err(|e| self.err(py, e))?;
        }
        let threads = arguments::threads(threads)?;
        let batch = Batch::new(self, positions, goal, threads, None);
        crate::batch::estimates(py, &batch, heuristic)
    }

    /// A solution for every position, as move strings (None when
    /// unsolvable), over every core without holding the GIL: the shortest,
    /// or with `within=` one within a factor of it. Takes what `distances`
    /// takes, and raises what it raises; a NumPy input gives a NumPy array
    /// of objects.
    ///
    /// With `within=W` (1 to 100), each solution is at most W times the
    /// shortest, found as `solve(..., within=W)` finds one (one search a
    /// position, on one thread); the 24-puzzle's pattern tables answer
    /// `within=1.2` in a tenth of a second or so where the shortest can
    /// take hours. A position the bound is not proved for by `timeout`
    /// raises SearchTimeoutError, whose `answers` holds the solutions found
    /// before it (as this call returns them, None where unanswered) and
    /// `unanswered` the others' indexes.
    ///
    /// >>> Database().solve_many(["123456708", "123456780"])
    /// ['R', '']
    #[pyo3(signature = (positions, goal = None, *, threads = None, timeout = None, within = None))]
    fn solve_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
        timeout: Option<&Bound<'py, PyAny>>,
        within: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let threads = arguments::threads(threads)?;
        let batch = Batch::new(self, positions, goal, threads, arguments::seconds(timeout)?);
        match arguments::given(within) {
            Some(within) => {
                let weight = arguments::weight(within)?;
                self.single_tile_within(py)?;
                crate::batch::solve_many_within(py, &batch, weight)
            }
            None => crate::batch::solve_many(py, &batch),
        }
    }

    /// `solve_many` for npuzzle.dask: the answers as the three buffers of
    /// an Arrow ``large_string`` array (offsets, letters, validity), with no
    /// Python object per row. Not part of the public API.
    #[pyo3(signature = (positions, goal = None, *, threads = None))]
    fn _solve_many_packed<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        goal: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<crate::batch::Packed<'py>> {
        let threads = arguments::threads(threads)?;
        let batch = Batch::new(self, positions, goal, threads, None);
        crate::batch::solve_many_packed(py, &batch)
    }

    fn __repr__(&self) -> String {
        let metric = match self.db.metric() {
            Metric::SingleTile => String::new(),
            other => format!(", metric=\"{}\"", other.name()),
        };
        format!(
            "Database({}, board=\"{}\"{metric})",
            errors::python_path(&self.path),
            self.shape()
        )
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (std::ffi::OsString, String))> {
        let this = slf.get();
        Ok((
            slf.get_type().into_any(),
            (this.path.clone().into_os_string(), this.shape().to_string()),
        ))
    }
}

/// Where `build` writes when given no path.
pub fn build_target(
    py: Python<'_>,
    shape: Shape,
    metric: Metric,
    path: Option<PathBuf>,
) -> PyResult<PathBuf> {
    match path.or_else(|| user_data_path(shape, metric)) {
        Some(p) => Ok(p),
        None => Err(errors::database(
            py,
            "no per-user data folder (no home folder): pass path=".to_string(),
        )),
    }
}

/// Why a board past the complete tables' size has no database file, and
/// what to do: build its pattern tables, or, for a board with no partition
/// (6x6, 3x6 …), solve within a factor with no file at all.
fn no_patterns(shape: Shape, target: &std::path::Path) -> String {
    match npuzzle::pattern::Partition::default_for(shape) {
        Some(partition) => format!(
            "no pattern database for {shape} boards at {}: its tables (partition {}) take \
             seconds to minutes to build, so they are built only on request: {}",
            shown_path(target),
            partition.name(),
            errors::build_call(target, shape, false)
        ),
        None => errors::none_to_build(shape, Metric::SingleTile).unwrap_or_default(),
    }
}
