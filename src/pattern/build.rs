//! Building a pattern-database file: each table searched, written and
//! dropped before the next is built, so that memory holds one table's
//! search at a time (7 bytes per placement: 3.6 GB for the 8-tile pattern
//! of 7-8 on 4×4).

use super::error::PatternError;
use super::file::PatternWriter;
use super::partition::Partition;
use super::table::{build_table, BuildProgress};
use crate::db::error::WriteError;
use std::path::Path;
use std::time::{Duration, Instant};

/// What a finished pattern build made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltPatterns {
    /// Entries over all tables.
    pub placements: u64,
    /// Each table's largest entry.
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

/// Builds the tables of `partition`, called `name` in the file, and writes
/// them atomically to `path`. `on_cost` hears each table's progress with
/// its index.
pub fn build_pattern_database(
    path: &Path,
    partition: &Partition,
    name: &str,
    on_cost: &(dyn Fn(usize, BuildProgress) + Sync),
) -> Result<BuiltPatterns, PatternBuildError> {
    let shape = partition.shape();
    let mut writer = PatternWriter::create(path, shape, name)?;
    let mut searching = Duration::ZERO;
    for (index, tiles) in partition.patterns().iter().enumerate() {
        let started = Instant::now();
        let entries = build_table(shape, tiles, &|p| on_cost(index, p))?;
        searching += started.elapsed();
        writer.append(tiles, &entries)?;
    }
    let placements = writer.header().tables.iter().map(|t| t.placements).sum();
    let max_entries = writer.header().tables.iter().map(|t| t.max_entry).collect();
    let bytes = writer.finish()?;
    Ok(BuiltPatterns {
        placements,
        max_entries,
        searching,
        bytes,
    })
}
