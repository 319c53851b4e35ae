//! Building a database from Python: the library's build (complete tables,
//! or pattern databases for a partition), with a progress bar on
//! `sys.stderr` where the session is interactive.

use crate::errors;
use npuzzle::pattern::Partition;
use npuzzle::{
    tables::all_goals, tables::default_blanks, tables::default_paths, tables::BuildProgress,
    BuildError, Plan, Shape,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;
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
    /// These goal blank cells'.
    These(Vec<usize>),
}

impl Tables {
    /// The goal blank cells, checked; `default` when not chosen.
    fn blanks(self, shape: Shape, default: Vec<usize>) -> PyResult<Vec<usize>> {
        match self {
            Tables::Default => Ok(default),
            Tables::AllGoals => Ok(all_goals(shape)),
            Tables::These(mut blanks) => {
                blanks.sort_unstable();
                blanks.dedup();
                if let Some(&bad) = blanks.iter().find(|&&b| b >= shape.cells()) {
                    return Err(PyValueError::new_err(format!(
                        "blanks: cell {bad} is not on a {shape} board (cells are 0 to {})",
                        shape.cells() - 1
                    )));
                }
                if blanks.is_empty() {
                    return Err(PyValueError::new_err(
                        "blanks: name at least one goal blank cell",
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

/// A build's error as a `DatabaseError`, with its cause.
fn failed(py: Python<'_>, e: &dyn std::error::Error) -> PyErr {
    let source = e.source().map(|s| format!(": {s}")).unwrap_or_default();
    errors::database(py, format!("{e}{source}"))
}

/// Builds the `shape` database at `path`, the GIL released while it searches.
pub fn build(
    py: Python<'_>,
    shape: Shape,
    path: &Path,
    tables: Tables,
    progress: bool,
) -> PyResult<npuzzle::tables::Built> {
    let blanks = tables.blanks(shape, default_blanks(shape))?;
    let bar = Bar::new(
        shape,
        progress,
        blanks.len(),
        shape.positions() * blanks.len() as u64,
    );
    let on_level = |table: usize, level: BuildProgress| {
        bar.update(
            table,
            level.reached,
            &format!("distance {}", level.distance),
        );
    };
    let plan = Plan::Complete {
        shape,
        blanks,
        paths: default_paths(shape),
    };
    let built = py.detach(|| npuzzle::build(path, &plan, &on_level));
    bar.finish();
    built.map_err(|e| failed(py, &e))
}

/// The partition called `name` on `shape`, or the board's default.
pub fn partition(py: Python<'_>, shape: Shape, name: Option<&str>) -> PyResult<Partition> {
    match name {
        Some(name) => Partition::named(shape, name)
            .map_err(|e| PyValueError::new_err(format!("partition: {e}"))),
        None => {
            // The default is the named partition with the largest patterns.
            match Partition::default_for(shape) {
                Some(partition) => Ok(partition),
                None => Err(errors::parse(
                    py,
                    format!(
                        "a {shape} board has no pattern database; boards of 13 to 16 cells \
                         have 4x4, 3x5 and 5x3 (and 3x3 has partition=\"4-4\")"
                    ),
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
    let blanks = tables.blanks(shape, vec![shape.cells() - 1])?;
    let n = shape.cells() as u64;
    // A pattern of k tiles has n!/(n-k)! placements.
    let per_set: u64 = partition
        .patterns()
        .iter()
        .map(|p| (n - p.len() as u64 + 1..=n).product::<u64>())
        .sum();
    let tables = partition.patterns().len() * blanks.len();
    let bar = Bar::new(shape, progress, tables, per_set * blanks.len() as u64);
    let on_cost = |table: usize, p: BuildProgress| {
        bar.update(table, p.reached, &format!("cost {}", p.distance));
    };
    let plan = Plan::Patterns {
        partition,
        goal_blanks: blanks,
    };
    let built = py.detach(|| npuzzle::build(path, &plan, &on_cost));
    bar.finish();
    match built {
        Ok(_) => Ok(()),
        Err(e @ (BuildError::Pattern(_) | BuildError::GoalBlanksSameClass(..))) => {
            Err(PyValueError::new_err(e.to_string()))
        }
        Err(e) => Err(failed(py, &e)),
    }
}
