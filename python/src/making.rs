//! Building a database from Python: the library's build (complete tables,
//! or pattern databases for a partition), with a progress bar on
//! `sys.stderr` where the session is interactive.

use crate::arguments::CellArg;
use crate::errors;
use crate::interrupt::interruptible;
use npuzzle::pattern::Partition;
use npuzzle::{
    tables::all_goals, tables::default_blanks, tables::default_paths, tables::distinct_blanks,
    tables::BuildProgress, BuildError, Metric, Plan, Shape,
};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

/// Whether to show progress when not told: stderr is a terminal, or this
/// is a Jupyter kernel (whose stderr is the notebook).
pub fn interactive(py: Python<'_>) -> bool {
    let sys = match py.import("sys") {
        Ok(sys) => sys,
        Err(_) => return false,
    };
    let tty = sys
        .getattr("stderr")
        .and_then(|e| e.call_method0("isatty"))
        .and_then(|t| t.extract::<bool>())
        .unwrap_or(false);
    let jupyter = sys
        .getattr("modules")
        .and_then(|m| m.contains("ipykernel"))
        .unwrap_or(false);
    tty || jupyter
}

fn write_stderr(text: &str) {
    Python::attach(|py| {
        if let Ok(stderr) = py.import("sys").and_then(|s| s.getattr("stderr")) {
            let _ = stderr.call_method1("write", (text,));
            let _ = stderr.call_method0("flush");
        }
    });
}

/// Which tables to build.
pub enum Tables {
    /// The library's default (every goal's up to 10 cells, else the default
    /// goal's; for pattern databases, the default goal's).
    Default,
    /// One per class of symmetric cells: every goal answered.
    AllGoals,
    /// These goal blank cells', as given (`blanks=`).
    These(Vec<CellArg>),
}

impl Tables {
    /// The goal blank cells, checked; `default` when not chosen.
    fn blanks(self, py: Python<'_>, shape: Shape, default: Vec<usize>) -> PyResult<Vec<usize>> {
        match self {
            Tables::Default => Ok(default),
            Tables::AllGoals => Ok(all_goals(shape)),
            Tables::These(given) => {
                let off_the_board = |shown: String| {
                    errors::argument(
                        py,
                        format!(
                            "blanks= cell {shown} is not on a {shape} board (cells are 0 to {})",
                            shape.cells() - 1
                        ),
                    )
                };
                let mut blanks = Vec::with_capacity(given.len());
                for cell in given {
                    match cell {
                        CellArg::Cell(c) if c < shape.cells() as u64 => blanks.push(c as usize),
                        CellArg::Cell(c) => return Err(off_the_board(c.to_string())),
                        CellArg::OffEveryBoard(shown) => return Err(off_the_board(shown)),
                    }
                }
                let blanks = distinct_blanks(blanks);
                if blanks.is_empty() {
                    return Err(errors::argument(
                        py,
                        "blanks= names no cell: name at least one goal blank cell",
                    ));
                }
                Ok(blanks)
            }
        }
    }
}

/// A bar over tables built one after another, drawn when `shown`.
struct Bar {
    shape: Shape,
    shown: bool,
    /// Positions (or placements) reached so far, per table.
    reached: Mutex<Vec<u64>>,
    /// Positions (or placements) over all tables.
    total: u64,
}

impl Bar {
    fn new(shape: Shape, shown: bool, tables: usize, total: u64) -> Bar {
        Bar {
            shape,
            shown,
            reached: Mutex::new(vec![0; tables]),
            total,
        }
    }

    /// Table `table` has reached `reached`; `stage` says where its search is.
    fn update(&self, table: usize, reached: u64, stage: &str) {
        if !self.shown {
            return;
        }
        let (done, tables) = {
            let mut all = self.reached.lock().unwrap_or_else(|e| e.into_inner());
            all[table] = reached;
            (all.iter().sum::<u64>(), all.len())
        };
        let fraction = done as f64 / self.total.max(1) as f64;
        let width = 30;
        let filled = ((fraction * width as f64) as usize).min(width);
        write_stderr(&format!(
            "\rbuilding {}: [{}{}] {:>3.0}%  table {}/{tables}, {stage}",
            self.shape,
            "=".repeat(filled),
            " ".repeat(width - filled),
            fraction * 100.0,
            table + 1,
        ));
    }

    fn finish(&self) {
        if self.shown {
            write_stderr("\n");
        }
    }
}

/// A build's error as a `DatabaseError`, with its causes, as `build-db`
/// prints them ("cannot write X: it needs 576.6 MB, …: No space left …").
fn failed(py: Python<'_>, e: &dyn std::error::Error) -> PyErr {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        message = format!("{message}: {cause}");
        source = cause.source();
    }
    errors::database(py, message)
}

/// Builds the `shape` database at `path`, the GIL released while it searches.
pub fn build(
    py: Python<'_>,
    shape: Shape,
    metric: Metric,
    path: &Path,
    tables: Tables,
    progress: bool,
) -> PyResult<npuzzle::tables::Built> {
    let blanks = tables.blanks(py, shape, default_blanks(shape))?;
    let bar = Bar::new(
        shape,
        progress,
        blanks.len(),
        // A progress total only: boards past 20 cells are refused below.
        shape.positions().unwrap_or(u64::MAX) * blanks.len() as u64,
    );
    let plan = Plan::Complete {
        shape,
        blanks,
        metric,
        paths: default_paths(shape, metric),
    };
    run(py, path, &plan, &bar, "distance")?.map_err(|e| failed(py, &e))
}

/// The payload a build unwinds with when Ctrl-C stops it.
struct Interrupted;

/// Runs `plan` into `path` without the GIL, drawing `bar` (each step
/// named `stage` and its number); Ctrl-C raises `KeyboardInterrupt` at the
/// next step. The library's build takes no cancel flag, so the progress
/// callback stops it by unwinding with [`Interrupted`]: `resume_unwind`
/// runs no panic hook (nothing is printed), rayon carries the unwind out of
/// its threads, and the temporary file is removed as it is dropped.
fn run(
    py: Python<'_>,
    path: &Path,
    plan: &Plan,
    bar: &Bar,
    stage: &str,
) -> PyResult<Result<npuzzle::tables::Built, BuildError>> {
    let stop = AtomicBool::new(false);
    let on_step = |table: usize, step: BuildProgress| {
        if stop.load(Relaxed) {
            std::panic::resume_unwind(Box::new(Interrupted));
        }
        bar.update(table, step.reached, &format!("{stage} {}", step.distance));
    };
    // In this process's pool, which the build's parallel iterators use.
    let pool = crate::pools::LIBRARY
        .get()
        .map_err(|e| errors::other(py, e))?;
    let build = || npuzzle::build(path, plan, &on_step);
    let built = interruptible(
        py,
        || stop.store(true, Relaxed),
        || pool.install(|| std::panic::catch_unwind(AssertUnwindSafe(build))),
    );
    bar.finish();
    match built? {
        Ok(built) => Ok(built),
        // Unwound past a signal that has been raised already.
        Err(payload) if payload.is::<Interrupted>() => Err(py
            .check_signals()
            .err()
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err("build stopped"))),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// The partition called `name` on `shape`, or the board's default.
pub fn partition(py: Python<'_>, shape: Shape, name: Option<&str>) -> PyResult<Partition> {
    match name {
        Some(name) => Partition::named(shape, name)
            .map_err(|e| errors::argument(py, format!("partition: {e}"))),
        None => {
            // The default is the named partition with the largest patterns.
            match Partition::default_for(shape) {
                Some(partition) => Ok(partition),
                // A size, but one no database is built for: not a parse error.
                None => Err(errors::argument(
                    py,
                    errors::none_to_build(shape, Metric::SingleTile).unwrap_or_else(|| {
                        format!("a {shape} board has no pattern database partition")
                    }),
                )),
            }
        }
    }
}

/// Builds pattern databases for `partition` at `path`: the default goal's
/// set, or one per class of goal blank cells.
pub fn build_patterns(
    py: Python<'_>,
    partition: Partition,
    path: &Path,
    tables: Tables,
    progress: bool,
) -> PyResult<()> {
    let shape = partition.shape();
    let blanks = tables.blanks(py, shape, vec![shape.cells() - 1])?;
    let plan = Plan::Patterns {
        partition,
        goal_blanks: blanks,
    };
    // The tables built: those no symmetry serves from another's.
    let bar = Bar::new(shape, progress, plan.tables(), plan.entries());
    match run(py, path, &plan, &bar, "cost")? {
        Ok(_) => Ok(()),
        Err(e @ (BuildError::Pattern(_) | BuildError::GoalBlanksSameClass(..))) => {
            Err(errors::argument(py, e.to_string()))
        }
        Err(e) => Err(failed(py, &e)),
    }
}
