//! Building a pattern-database file: each table of each set searched,
//! written and dropped before the next is built, so that memory holds one
//! table's search at a time (7 bytes per placement: 3.6 GB for the 8-tile pattern
//! of 7-8 on 4×4).

use super::error::PatternError;
use super::file::PatternWriter;
use super::partition::Partition;
use super::table::{build_table_toward, BuildProgress};
use crate::db::error::WriteError;
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
    let mut writer = PatternWriter::create(path, shape, name)?;
    let mut searching = Duration::ZERO;
    let patterns = partition.patterns();
    for (set, &blank) in goal_blanks.iter().enumerate() {
        if blank >= shape.cells() {
            return Err(PatternError::GoalBlankOutside {
                blank,
                cells: shape.cells(),
            }
            .into());
        }
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
