//! Building a pattern-database file: each table of each set searched,
//! written and dropped before the next is built, so that memory holds one
//! table's search at a time (7 bytes per placement: 3.6 GB for the 8-tile pattern
//! of 7-8 on 4×4).

use crate::db::error::WriteError;
use crate::db::pattern_file::PatternWriter;
use crate::pattern::Partition;
use crate::pattern::PatternError;
use crate::pattern::{build_table_toward, BuildProgress};
use crate::puzzle::shape::Shape;
use crate::puzzle::symmetry::Symmetry;
use std::path::Path;
use std::time::{Duration, Instant};

/// What a finished pattern build made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltPatterns {
    /// Entries over all tables.
    pub placements: u64,
    /// Each table's largest entry, set by set.
    pub max_entries: Vec<u8>,
    /// Time spent searching.
    pub searching: Duration,
    /// Bytes written.
    pub bytes: u64,
}

/// A pattern database could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PatternBuildError {
    /// The partition cannot be built.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// The file could not be written; the previous one, if any, is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Builds the tables of `partition` toward the default goal (tiles in
/// order, blank last), called `name` in the file, and writes them
/// atomically to `path`. `on_cost` hears each table's progress with its
/// index.
pub fn build_pattern_database(
    path: &Path,
    partition: &Partition,
    name: &str,
    on_cost: &(dyn Fn(usize, BuildProgress) + Sync),
) -> Result<BuiltPatterns, PatternBuildError> {
    let last = partition.shape().cells() - 1;
    build_pattern_sets(path, partition, name, &[last], on_cost)
}

/// [`build_pattern_database`] with one set of tables per cell of
/// `goal_blanks`, each toward the canonical goal with the blank there
/// (tiles in order around it): [`crate::all_goals`] gives one cell per
/// class, which answers every goal. The cells must be in distinct classes.
/// `on_cost` hears each table's progress with its index over all sets.
pub fn build_pattern_sets(
    path: &Path,
    partition: &Partition,
    name: &str,
    goal_blanks: &[usize],
    on_cost: &(dyn Fn(usize, BuildProgress) + Sync),
) -> Result<BuiltPatterns, PatternBuildError> {
    let shape = partition.shape();
    check_goal_blanks(shape, goal_blanks)?;
    let mut writer = PatternWriter::create(path, shape, name)?;
    let mut searching = Duration::ZERO;
    let patterns = partition.patterns();
    for (set, &blank) in goal_blanks.iter().enumerate() {
        for (table, tiles) in patterns.iter().enumerate() {
            let index = set * patterns.len() + table;
            let started = Instant::now();
            let entries = build_table_toward(shape, blank, tiles, &|p| on_cost(index, p))?;
            searching += started.elapsed();
            writer.append(blank, tiles, &entries)?;
        }
    }
    let tables = || writer.header().tables().map(|(_, t)| t);
    let placements = tables().map(|t| t.placements).sum();
    let max_entries = tables().map(|t| t.max_entry).collect();
    let bytes = writer.finish()?;
    Ok(BuiltPatterns {
        placements,
        max_entries,
        searching,
        bytes,
    })
}

/// Refuses, before any table is built, the goal blank cells a file could
/// not hold: none, one off the board, or two in the same class (the header
/// check at open would refuse the file).
fn check_goal_blanks(shape: Shape, goal_blanks: &[usize]) -> Result<(), PatternError> {
    if goal_blanks.is_empty() {
        return Err(PatternError::NoGoalBlanks);
    }
    for (i, &blank) in goal_blanks.iter().enumerate() {
        if blank >= shape.cells() {
            return Err(PatternError::GoalBlankOutside {
                blank,
                cells: shape.cells(),
            });
        }
        if let Some(&earlier) = goal_blanks[..i]
            .iter()
            .find(|&&e| Symmetry::mapping(shape, e, blank).is_some())
        {
            return Err(PatternError::GoalBlanksSameClass(earlier, blank));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_blanks_a_file_cannot_hold_are_refused_before_any_work() {
        let shape = Shape::THREE_BY_THREE;
        let partition = Partition::named(shape, "4-4").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let refused = |blanks: &[usize]| {
            let started = Instant::now();
            let err = build_pattern_sets(&path, &partition, "4-4", blanks, &|_, _| {}).unwrap_err();
            assert!(!path.exists(), "{blanks:?}");
            assert!(started.elapsed() < Duration::from_secs(1), "{blanks:?}");
            err.to_string()
        };
        assert!(refused(&[]).contains("no goal blank cell"));
        assert!(refused(&[8, 9]).contains("cell 9 is not on a board of 9 cells"));
        // Corners 8 and 0 are one class; the check runs before set 0 is built.
        assert!(refused(&[8, 0]).contains("cells 8 and 0 are in the same class"));
        build_pattern_sets(&path, &partition, "4-4", &[8, 7, 4], &|_, _| {}).unwrap();
        assert!(path.exists());
    }
}
