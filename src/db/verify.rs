//! Checking a whole database: checksums, counts, every stored move, and
//! every path table's word.
//!
//! Opening a database reads only its header; this reads every table, so it
//! is a separate, explicit step (`query verify`).

use crate::db::database::Database;
use crate::db::format::{self, TableInfo};
use crate::db::goal_table::GoalTable;
use crate::puzzle::board::{Board, Move};
use crate::table::entry;
use crate::table::path_table;
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
    /// Whether the path table's stored checksum matched (`None` when the
    /// table has no path table).
    pub path_table_checksum_ok: Option<bool>,
    /// Entries that are wrong (the first few described).
    pub faults: Vec<String>,
    /// All wrong entries, including those not described.
    pub fault_count: u64,
}

impl TableReport {
    /// True when the table passed every check.
    pub fn is_ok(&self) -> bool {
        self.checksum_ok && self.path_table_checksum_ok != Some(false) && self.fault_count == 0
    }
}

/// What verifying a whole database found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// One report per table, in file order.
    pub tables: Vec<TableReport>,
    /// Padding bytes (between the preamble and the first table, and
    /// between sections) that are not zero.
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
    let sections = db.header().tables.iter().flat_map(|t| t.sections());
    format::nonzero_padding(db.bytes(), sections.map(|(_, offset, size)| (offset, size)))
}

/// Ranks per unit of parallel work within a table.
const CHUNK: usize = 1 << 16;

/// What one chunk of a table's ranks showed.
#[derive(Default)]
struct Findings {
    counts: Vec<u64>,
    faults: Vec<String>,
    fault_count: u64,
}

impl Findings {
    fn merge(mut self, other: Findings) -> Findings {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.faults.extend(other.faults);
        self.faults.truncate(FAULTS_SHOWN);
        self.fault_count += other.fault_count;
        self
    }
}

fn verify_table<B: AsRef<[u8]> + Sync>(db: &Database<B>, info: &TableInfo) -> TableReport {
    let shape = db.shape();
    let blank = info.blank as usize;
    let entries = db.table_entries(info);
    let goal = Board::canonical_goal(shape, blank);
    let target = db
        .goal_table(&goal)
        .expect("a table serves its own canonical goal");
    let found = (0..entries.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut found = Findings {
                counts: vec![0; info.counts.len()],
                ..Findings::default()
            };
            for rank in (chunk * CHUNK..((chunk + 1) * CHUNK).min(entries.len())).map(|r| r as u32)
            {
                let checked = check_entry(&target, rank);
                if let Some(count) = checked
                    .as_ref()
                    .ok()
                    .and_then(|c| found.counts.get_mut(c.distance as usize))
                {
                    *count += 1;
                }
                // A word is checked only where the entry's move is right.
                if let Err(fault) = checked.and_then(|c| check_word(&target, rank, c.step)) {
                    found.fault_count += 1;
                    if found.faults.len() < FAULTS_SHOWN {
                        let board = target.ranker().unrank(rank);
                        found.faults.push(format!("rank {rank} ({board}): {fault}"));
                    }
                }
            }
            found
        })
        .reduce(Findings::default, Findings::merge);
    let mut report = TableReport {
        blank,
        positions: info.positions,
        checksum_ok: crc32fast::hash(entries) == info.checksum,
        path_table_checksum_ok: info
            .path_table
            .zip(db.path_table(info))
            .map(|(p, bytes)| crc32fast::hash(bytes) == p.checksum),
        faults: found.faults,
        fault_count: found.fault_count,
    };
    let mut counts = found.counts;
    counts.resize(info.counts.len(), 0);
    if counts != info.counts {
        report.fault_count += 1;
        report.faults.push(format!(
            "distance counts are {counts:?}, the header says {:?}",
            info.counts
        ));
    }
    report
}

/// What a right entry says: the position's distance, and its stored move
/// with the rank it leads to (none at the goal).
struct Checked {
    distance: u32,
    step: Option<(Move, u32)>,
}

/// One entry is right when the goal alone has distance 0, and every other
/// position's move is legal and lands one step closer while no neighbour
/// is closer still. Together these make every distance the true one: the
/// stored moves give a path of that length, and a shorter path would pass a
/// neighbour closer than allowed.
fn check_entry(target: &GoalTable<'_>, rank: u32) -> Result<Checked, String> {
    let d = target
        .distance_at(rank)
        .map_err(|_| "its stored moves do not lead down to its distance".to_string())?;
    if rank == target.goal_rank() {
        return if d == 0 {
            Ok(Checked {
                distance: 0,
                step: None,
            })
        } else {
            Err(format!("the goal has distance {d}"))
        };
    }
    if d == 0 {
        return Err("distance 0 away from the goal".into());
    }
    let stored = entry::next_move(target.entries()[rank as usize]);
    let position = target.ranker().cursor_at(rank);
    let Some(next) = target.ranker().step(&position, stored) else {
        return Err(format!("move {} runs off the board", stored.letter()));
    };
    for m in Move::ALL {
        let Some(next) = target.ranker().step(&position, m) else {
            continue;
        };
        match target.distance_at(next.rank()) {
            Ok(next_d) if m == stored && next_d + 1 != d => {
                return Err(format!(
                    "distance {d}, but move {} leads to distance {next_d}",
                    m.letter()
                ))
            }
            Ok(next_d) if next_d + 1 < d => {
                return Err(format!(
                    "distance {d}, but move {} leads to distance {next_d}, which is closer",
                    m.letter()
                ))
            }
            Ok(_) => {}
            Err(_) if m == stored => {
                return Err(format!("move {} leads to a damaged entry", m.letter()))
            }
            // That neighbour's own check reports it.
            Err(_) => {}
        }
    }
    Ok(Checked {
        distance: d,
        step: Some((stored, next.rank())),
    })
}

/// A position's path word is right when it is the goal's and 0, or it is
/// its stored move followed by the word of the position that move leads to
/// (`step`, from [`check_entry`]). Together these make every word the
/// stored moves themselves, first 32 of them.
fn check_word(target: &GoalTable<'_>, rank: u32, step: Option<(Move, u32)>) -> Result<(), String> {
    let Some(words) = target.path_table() else {
        return Ok(());
    };
    let word = path_table::word_at(words, rank);
    let expected = step.map_or(0, |(m, next)| {
        path_table::word(m, path_table::word_at(words, next))
    });
    if word == expected {
        Ok(())
    } else {
        Err(format!(
            "its path word is {word:#018x}, but its move and the next position's word give \
             {expected:#018x}"
        ))
    }
}
