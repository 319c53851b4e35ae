//! Building a database from Python: the library's build, with a progress
//! bar on `sys.stderr` where the session is interactive.

use crate::errors;
use npuzzle::{all_goals, default_blanks, default_paths, BuildProgress, Plan, Shape};
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
    /// The library's default (every goal's up to 10 cells, else the default goal's).
    Default,
    /// One per class of symmetric cells: every goal answered.
    AllGoals,
    /// These goal blank cells'.
    These(Vec<usize>),
}

/// Builds the `shape` database at `path`, the GIL released while it searches.
pub fn build(
    py: Python<'_>,
    shape: Shape,
    path: &Path,
    tables: Tables,
    progress: bool,
) -> PyResult<npuzzle::Built> {
    let blanks = match tables {
        Tables::Default => default_blanks(shape),
        Tables::AllGoals => all_goals(shape),
        Tables::These(mut blanks) => {
            blanks.sort_unstable();
            blanks.dedup();
            if let Some(&bad) = blanks.iter().find(|&&b| b >= shape.cells()) {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "blanks: cell {bad} is not on a {shape} board (cells are 0 to {})",
                    shape.cells() - 1
                )));
            }
            if blanks.is_empty() {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "blanks: name at least one goal blank cell",
                ));
            }
            blanks
        }
    };
    let tables = blanks.len();
    // Positions found so far over all tables, per table.
    let found = Mutex::new(vec![0u64; tables]);
    let total = shape.positions() * tables as u64;
    let on_level = |table: usize, level: BuildProgress| {
        if !progress {
            return;
        }
        let done: u64 = {
            let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
            found[table] = level.reached;
            found.iter().sum()
        };
        let fraction = done as f64 / total as f64;
        let width = 30;
        let filled = (fraction * width as f64) as usize;
        write_stderr(&format!(
            "\rbuilding {shape}: [{}{}] {:>3.0}%  table {}/{tables}, distance {}",
            "=".repeat(filled),
            " ".repeat(width - filled.min(width)),
            fraction * 100.0,
            table + 1,
            level.distance
        ));
    };
    let plan = Plan::Complete {
        shape,
        blanks,
        paths: default_paths(shape),
    };
    let built = py.detach(|| npuzzle::build(path, &plan, &on_level));
    if progress {
        write_stderr("\n");
    }
    built.map_err(|e| {
        let source = std::error::Error::source(&e)
            .map(|s| format!(": {s}"))
            .unwrap_or_default();
        errors::database(py, format!("{e}{source}"))
    })
}
