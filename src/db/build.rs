//! Building a database file: which tables, and writing each as it is done.

use crate::db::error::WriteError;
use crate::db::format::DatabaseWriter;
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry;
use crate::table::generate::{build_each, Level, LIST_SEARCH_MAX_CELLS};
use std::path::Path;
use std::time::{Duration, Instant};

/// Boards up to this many cells get a table for every goal by default.
pub const ALL_GOALS_MAX_CELLS: usize = 10;

/// Boards up to this many cells get path tables by default: the 3×3
/// board's take 1.45 MB each.
pub const DEFAULT_PATHS_MAX_CELLS: usize = 9;

/// Boards up to this many cells can have path tables (the list search
/// fills them): 2×5's take 14.5 MB each, and a 12-cell board's would take
/// 1.9 GB.
pub const PATHS_MAX_CELLS: usize = LIST_SEARCH_MAX_CELLS;

/// The goal blank cells whose tables answer every goal: one per class of
/// cells under the board's symmetries (3 for 3×3, 4 for 3×4, 3 for 2×6),
/// each the highest-numbered cell of its class, so the default goal's
/// corner (the last cell) is one of them.
pub fn all_goals(shape: Shape) -> Vec<usize> {
    // Each class lists its cells in increasing order.
    let mut blanks: Vec<usize> = symmetry::classes(shape)
        .iter()
        .filter_map(|class| class.last().copied())
        .collect();
    blanks.sort_unstable_by(|a, b| b.cmp(a));
    blanks
}

/// The tables built when none are asked for: every goal ([`all_goals`]) on
/// boards of up to [`ALL_GOALS_MAX_CELLS`] cells, where tables are small;
/// only the default goal's (blank in the last cell) beyond.
pub fn default_blanks(shape: Shape) -> Vec<usize> {
    if shape.cells() <= ALL_GOALS_MAX_CELLS {
        all_goals(shape)
    } else {
        vec![shape.cells() - 1]
    }
}

/// Whether `build-db` adds path tables ([`crate::table::path_table`]) when not
/// told: on boards of up to [`DEFAULT_PATHS_MAX_CELLS`] cells.
pub fn default_paths(shape: Shape) -> bool {
    shape.cells() <= DEFAULT_PATHS_MAX_CELLS
}

/// What a finished build made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The goal blank cell of each table, in file order.
    pub blanks: Vec<usize>,
    /// Positions over all tables.
    pub positions: u64,
    /// The largest distance of any table.
    pub max_distance: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Time spent searching (the rest is writing).
    pub searching: Duration,
}

/// Builds the tables for `blanks` (distinct cells of `shape`) and writes
/// them to `path`, replacing it atomically, each with its path table when
/// `paths` is set (boards of up to [`PATHS_MAX_CELLS`] cells). Small boards'
/// tables are built side by side; larger ones one after another, each
/// written to the file as soon as it is finished and then dropped, so
/// memory holds one table at a time. `on_level(i, level)` reports each
/// level of table `i`.
pub fn build_database(
    path: &Path,
    shape: Shape,
    blanks: &[usize],
    paths: bool,
    on_level: &(dyn Fn(usize, Level) + Sync),
) -> Result<Built, WriteError> {
    let started = Instant::now();
    let mut writer = DatabaseWriter::create(path, shape)?;
    let mut built = Built {
        blanks: blanks.to_vec(),
        positions: 0,
        max_distance: 0,
        bytes: 0,
        searching: Duration::ZERO,
    };
    let mut writing = Duration::ZERO;
    build_each(shape, blanks, paths, on_level, |table| {
        let appending = Instant::now();
        built.positions += table.entries.len() as u64;
        built.max_distance = built.max_distance.max(table.max_distance());
        writer.append(&table)?;
        writing += appending.elapsed();
        Ok::<(), WriteError>(())
    })?;
    built.searching = started.elapsed() - writing;
    built.bytes = writer.finish()?;
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_goal_takes_one_table_per_class() {
        for (size, expected) in [
            ("2x2", vec![3]),
            ("3x3", vec![8, 7, 4]),
            ("3x4", vec![11, 10, 7, 6]),
            ("2x6", vec![11, 10, 9]),
            ("2x5", vec![9, 8, 7]),
        ] {
            let shape: Shape = size.parse().unwrap();
            assert_eq!(all_goals(shape), expected, "{size}");
        }
        assert_eq!(default_blanks("3x3".parse().unwrap()), vec![8, 7, 4]);
        assert_eq!(default_blanks("4x3".parse().unwrap()), vec![11]);
    }
}
