//! Building a database from Python: the library's build, with a progress
//! bar on `sys.stderr` where the session is interactive.

use crate::errors;
use npuzzle::{all_goals, build_database, default_blanks, default_paths, Level, Shape};
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

/// Builds the `shape` database at `path` with the library's defaults (or
/// every goal's table), the GIL released while it searches.
pub fn build(
    py: Python<'_>,
    shape: Shape,
    path: &Path,
    every_goal: bool,
    progress: bool,
) -> PyResult<npuzzle::Built> {
    let blanks = if every_goal {
        all_goals(shape)
    } else {
        default_blanks(shape)
    };
    let tables = blanks.len();
    // Positions found so far over all tables, per table.
    let found = Mutex::new(vec![0u64; tables]);
    let total = shape.positions() * tables as u64;
    let on_level = |table: usize, level: Level| {
        if !progress {
            return;
        }
        let done: u64 = {
            let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
            found[table] = level.total;
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
    let built = py.detach(|| build_database(path, shape, &blanks, default_paths(shape), &on_level));
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
