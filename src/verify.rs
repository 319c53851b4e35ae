//! Checking a whole database: checksums, counts, and every stored move.
//!
//! Opening a database reads only its header; this reads every table, so it
//! is a separate, explicit step (`query verify`).

use crate::board::Board;
use crate::database::Database;
use crate::entry;
use crate::format::TableInfo;
use crate::rank::Ranker;
use rayon::prelude::*;

/// Faults listed per table before the rest are only counted.
const FAULTS_SHOWN: usize = 5;

/// What verifying one table found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableReport {
    /// The table's goal blank cell.
    pub blank: usize,
    /// Entries checked.
    pub positions: u64,
    /// Whether the stored checksum matched.
    pub checksum_ok: bool,
    /// Entries that are wrong (the first few described).
    pub faults: Vec<String>,
    /// All wrong entries, including those not described.
    pub fault_count: u64,
}

impl TableReport {
    /// True when the table passed every check.
    pub fn is_ok(&self) -> bool {
        self.checksum_ok && self.fault_count == 0
    }
}

/// What verifying a whole database found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One report per table, in file order.
    pub tables: Vec<TableReport>,
    /// Padding bytes (between the header and the tables, and between
    /// tables) that are not zero.
    pub nonzero_padding: u64,
}

impl Report {
    /// True when every table and all padding passed.
    pub fn is_ok(&self) -> bool {
        self.nonzero_padding == 0 && self.tables.iter().all(TableReport::is_ok)
    }
}

/// Verifies every table of a database, in parallel, and the padding between them.
pub fn verify<B: AsRef<[u8]> + Sync>(db: &Database<B>) -> Report {
    let tables = db
        .header()
        .tables
        .par_iter()
        .map(|info| verify_table(db, info))
        .collect();
    Report {
        tables,
        nonzero_padding: nonzero_padding(db),
    }
}

fn nonzero_padding<B: AsRef<[u8]>>(db: &Database<B>) -> u64 {
    let bytes = db.bytes();
    let mut end = db.header_end();
    let mut count = 0;
    for t in &db.header().tables {
        count += bytes[end..t.offset as usize]
            .iter()
            .filter(|&&b| b != 0)
            .count() as u64;
        end = (t.offset + t.positions) as usize;
    }
    count
}

fn verify_table<B: AsRef<[u8]>>(db: &Database<B>, info: &TableInfo) -> TableReport {
    let shape = db.shape();
    let blank = info.blank as usize;
    let entries = db.table_entries(info);
    let ranker = Ranker::new(shape, blank);
    let goal = Board::canonical_goal(shape, blank);
    let mut report = TableReport {
        blank,
        positions: info.positions,
        checksum_ok: crc32fast::hash(entries) == info.checksum,
        faults: Vec::new(),
        fault_count: 0,
    };
    let mut counts = vec![0u64; info.counts.len()];
    for (rank, &e) in entries.iter().enumerate() {
        let board = ranker.unrank(rank as u32);
        let d = entry::distance(e);
        if let Some(count) = counts.get_mut(d as usize) {
            *count += 1;
        }
        if let Err(fault) = check_entry(&ranker, entries, &board, &goal, e) {
            report.fault_count += 1;
            if report.faults.len() < FAULTS_SHOWN {
                report
                    .faults
                    .push(format!("rank {rank} ({board}): {fault}"));
            }
        }
    }
    if counts != info.counts {
        report.fault_count += 1;
        report.faults.push(format!(
            "distance counts are {counts:?}, the header says {:?}",
            info.counts
        ));
    }
    report
}

/// One entry is right when the goal alone has distance 0 and every other
/// position's move is legal and lands on a position one step closer.
fn check_entry(
    ranker: &Ranker,
    entries: &[u8],
    board: &Board,
    goal: &Board,
    e: u8,
) -> Result<(), String> {
    let d = entry::distance(e);
    if board == goal {
        return if d == 0 {
            Ok(())
        } else {
            Err(format!("the goal has distance {d}"))
        };
    }
    if d == 0 {
        return Err("distance 0 away from the goal".into());
    }
    let m = entry::next_move(e);
    let next = board
        .apply(m)
        .ok_or_else(|| format!("move {} runs off the board", m.letter()))?;
    let next_d = entry::distance(entries[ranker.rank(&next) as usize]);
    if next_d + 1 != d {
        return Err(format!(
            "distance {d}, but move {} leads to distance {next_d}",
            m.letter()
        ));
    }
    Ok(())
}
