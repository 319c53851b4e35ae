//! Checking a whole pattern database: every table's checksum, and a
//! property of every entry that damage breaks.
//!
//! What a clean report proves, table by table (every table of every set):
//! - the table's bytes hash to the CRC-32 the build recorded (so any damage
//!   of up to 32 bits, and all but one in 2^32 larger ones, shows);
//! - independently of the checksum, every entry is at most the table's
//!   recorded maximum or is the "never reached" mark, and the number of
//!   entries of each value equals the header's count for it: a changed
//!   byte moves one placement from one count to another, so it shows even
//!   where a checksum was recomputed;
//! - the goal placement's entry is 0 (the goal of the table's set), and (by the header's counts, checked
//!   at open) it is the only one: the search's heuristic is 0 exactly at
//!   the goal;
//! - the padding between sections is zero.
//!
//! It does not prove that the entries are the true pattern distances: that
//! is the build's correctness, which the tests check against a plain search
//! and against complete tables. An admissible heuristic is what keeps
//! IDA*'s answers optimal, so a file that passes `verify` is the file the
//! build wrote.

use super::database::PatternDatabase;
use super::file::PatternTableInfo;
use super::placement::PlacementRanker;
use super::table::{goal_cells, UNREACHED};
use crate::db::format;
use rayon::prelude::*;

/// What verifying one pattern table found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTableReport {
    /// The blank cell of the goal its set counts toward.
    pub goal_blank: usize,
    /// The pattern's tiles.
    pub tiles: Vec<u8>,
    /// Entries checked.
    pub placements: u64,
    /// Whether the stored checksum matched.
    pub checksum_ok: bool,
    /// Entries above the recorded maximum that are not "never reached".
    pub out_of_range: u64,
    /// Entry values whose number of entries differs from the header's count.
    pub count_mismatches: Vec<u8>,
    /// The goal placement's entry (0 when sound).
    pub goal_entry: u8,
}

impl PatternTableReport {
    /// True when the table passed every check.
    pub fn is_ok(&self) -> bool {
        self.checksum_ok
            && self.out_of_range == 0
            && self.count_mismatches.is_empty()
            && self.goal_entry == 0
    }
}

/// What verifying a whole pattern database found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternReport {
    /// One report per table, set by set, in file order.
    pub tables: Vec<PatternTableReport>,
    /// Padding bytes (between the preamble and the first table, and
    /// between tables) that are not zero.
    pub nonzero_padding: u64,
}

impl PatternReport {
    /// True when every table and all padding passed.
    pub fn is_ok(&self) -> bool {
        self.nonzero_padding == 0 && self.tables.iter().all(PatternTableReport::is_ok)
    }
}

/// Entries per unit of parallel work.
const CHUNK: usize = 1 << 20;

/// Verifies every table of a pattern database, each in parallel.
pub fn verify_patterns<B: AsRef<[u8]>>(db: &PatternDatabase<B>) -> PatternReport {
    let tables = db
        .header()
        .tables()
        .map(|(goal_blank, info)| verify_table(db, goal_blank, info))
        .collect();
    let sections = db.header().tables().map(|(_, t)| (t.offset, t.placements));
    let nonzero_padding = format::nonzero_padding(db.bytes(), sections);
    PatternReport {
        tables,
        nonzero_padding,
    }
}

fn verify_table<B: AsRef<[u8]>>(
    db: &PatternDatabase<B>,
    goal_blank: usize,
    info: &PatternTableInfo,
) -> PatternTableReport {
    let entries = db.table_entries(info);
    let (checksum, histogram) = rayon::join(
        || crc32fast::hash(entries),
        || {
            entries
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut h = [0u64; 256];
                    for &e in chunk {
                        h[e as usize] += 1;
                    }
                    h
                })
                .reduce(
                    || [0u64; 256],
                    |mut a, b| {
                        for (x, y) in a.iter_mut().zip(b) {
                            *x += y;
                        }
                        a
                    },
                )
        },
    );
    let max = info.max_entry as usize;
    let out_of_range = histogram[max + 1..UNREACHED as usize].iter().sum();
    let mut count_mismatches: Vec<u8> = (0..=max)
        .filter(|&e| histogram[e] != info.counts[e])
        .map(|e| e as u8)
        .collect();
    if histogram[UNREACHED as usize] != info.unreached {
        count_mismatches.push(UNREACHED);
    }
    // The goal placement: each tile in its cell of the set's goal.
    let shape = db.shape();
    let ranker = PlacementRanker::new(shape.cells(), info.tiles.len()).expect("checked at open");
    let goal_rank = ranker.rank(goal_cells(shape, goal_blank, &info.tiles));
    PatternTableReport {
        goal_blank,
        tiles: info.tiles.clone(),
        placements: info.placements,
        checksum_ok: checksum == info.checksum,
        out_of_range,
        count_mismatches,
        goal_entry: entries[goal_rank as usize],
    }
}
