//! Checking a whole database, of either kind: complete tables' checksums,
//! counts, every stored move and every path table's word; pattern tables'
//! checksums and a property of every entry that damage breaks.
//!
//! Opening a database reads only its header; this reads every table, so it
//! is a separate, explicit step (`query verify`).

use crate::db::complete::CompleteTables;
use crate::db::format::check::nonzero_padding as padding_in;
use crate::db::format::{Header, TableInfo};
use crate::db::goal_table::GoalTable;
use crate::db::patterns::PatternTables;
use crate::db::report::{Kind, Report, TableReport};
use crate::pattern::{goal_cells, PlacementRanker, UNREACHED};
use crate::puzzle::board::{Board, Move};
use crate::puzzle::cell::Cell;
use crate::table::entry;
use crate::table::path_table;
use rayon::prelude::*;
use std::time::Instant;

/// Faults listed per table before the rest are only counted.
const FAULTS_SHOWN: usize = 5;

impl<B: AsRef<[u8]> + Sync> CompleteTables<B> {
    /// Reads and checks every table, in parallel, and the padding between
    /// them (see the module's documentation).
    pub fn verify(&self) -> Report {
        verify_file(Kind::Complete, self.header(), self.bytes(), |t| {
            verify_table(self, t)
        })
    }
}

impl<B: AsRef<[u8]> + Sync + Send> PatternTables<B> {
    /// Reads and checks every table, in parallel, and the padding between
    /// them (see the module's documentation).
    pub fn verify(&self) -> Report {
        verify_file(Kind::Pattern, self.header(), self.bytes(), |t| {
            verify_pattern_table(self, t)
        })
    }
}

/// Checks every table of a file with `verify_table`, in parallel, and the
/// padding between its sections.
fn verify_file(
    kind: Kind,
    header: &Header,
    bytes: &[u8],
    verify_table: impl Fn(&TableInfo) -> TableReport + Sync,
) -> Report {
    let started = Instant::now();
    let tables = header.tables.par_iter().map(&verify_table).collect();
    let sections = header.stored_sections().into_iter();
    let padding = padding_in(bytes, sections.map(|(_, _, offset, size)| (offset, size)));
    Report::new(kind, tables, padding, started.elapsed())
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

fn verify_table<B: AsRef<[u8]> + Sync>(db: &CompleteTables<B>, info: &TableInfo) -> TableReport {
    let shape = db.shape();
    let blank = info.goal_blank as usize;
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
    let (mut faults, mut fault_count) = (found.faults, found.fault_count);
    let mut counts = found.counts;
    counts.resize(info.counts.len(), 0);
    if counts != info.counts {
        fault_count += 1;
        faults.push(format!(
            "distance counts are {counts:?}, the header says {:?}",
            info.counts
        ));
    }
    let checksums = (
        crc32fast::hash(entries) == info.checksum,
        info.path_table
            .zip(db.path_table(info))
            .map(|(p, bytes)| crc32fast::hash(bytes) == p.checksum),
    );
    TableReport::new(
        Cell::of(shape, blank),
        (1..shape.cells() as u8).collect(),
        info.entries,
        checksums,
        faults,
        fault_count,
    )
}

/// What a right entry says: the position's distance, and its stored move
/// with the rank it leads to (none at the goal).
struct Checked {
    distance: u32,
    step: Option<(Move, u32)>,
}

/// One entry is right when the goal alone has distance 0, and every other
/// position's move is legal and lands one move closer while no neighbour
/// is closer still. Together these make every distance the true one: the
/// stored moves give a path of that length, and a shorter path would pass a
/// neighbour closer than allowed. A neighbour is one move away in the
/// table's metric: under the multi-tile metric, every slide of 1 to k
/// cells, and the stored move is the first slide along its direction that
/// lands one move closer (as [`crate::table::step::toward_goal`] follows it).
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
    let longest = target.metric().longest_slide(target.ranker().shape());
    let mut landed = None;
    // The stored direction's first cell's distance, for the message when
    // no slide that way lands one move closer.
    let mut first = None;
    for m in Move::ALL {
        let mut next = position;
        for cells in 1..=longest {
            if !target.ranker().advance(&mut next, m) {
                break;
            }
            let pending = m == stored && landed.is_none();
            match target.distance_at(next.rank()) {
                Ok(next_d) if next_d + 1 < d => {
                    return Err(format!(
                        "distance {d}, but move {} leads to distance {next_d}, which is closer",
                        slide_name(m, cells)
                    ))
                }
                Ok(next_d) if pending && next_d + 1 == d => landed = Some((m, next.rank())),
                Ok(next_d) if pending && cells == 1 => first = Some(next_d),
                Ok(_) => {}
                Err(_) if pending => {
                    return Err(format!(
                        "move {} leads to a damaged entry",
                        slide_name(m, cells)
                    ))
                }
                // That neighbour's own check reports it.
                Err(_) => {}
            }
        }
    }
    let Some(step) = landed else {
        return Err(match first {
            None => format!("move {} runs off the board", stored.letter()),
            Some(next_d) if longest == 1 => format!(
                "distance {d}, but move {} leads to distance {next_d}",
                stored.letter()
            ),
            Some(_) => format!(
                "distance {d}, but no slide {} leads to distance {}",
                stored.letter(),
                d - 1
            ),
        });
    };
    Ok(Checked {
        distance: d,
        step: Some(step),
    })
}

/// A slide as the multi-tile notation writes it: `U`, or `U3`.
fn slide_name(m: Move, cells: usize) -> String {
    if cells == 1 {
        m.letter().to_string()
    } else {
        format!("{}{cells}", m.letter())
    }
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

// What a clean report proves of pattern tables, table by table (every table of every set):
// - the table's bytes hash to the CRC-32 the build recorded (so any damage
//   of up to 32 bits, and all but one in 2^32 larger ones, shows);
// - independently of the checksum, every entry is at most the table's
//   recorded maximum or is the "never reached" mark, and the number of
//   entries of each value equals the header's count for it: a changed
//   byte moves one placement from one count to another, so it shows even
//   where a checksum was recomputed;
// - the goal placement's entry is 0 (the goal of the table's set), and (by the header's counts, checked
//   at open) it is the only one: the search's heuristic is 0 exactly at
//   the goal;
// - the padding between sections is zero.
//
// It does not prove that the entries are the true pattern distances: that
// is the build's correctness, which the tests check against a plain search
// and against complete tables. An admissible heuristic is what keeps
// IDA*'s answers optimal, so a file that passes `verify` is the file the
// build wrote.

/// Entries per unit of parallel work.
const PATTERN_CHUNK: usize = 1 << 20;

fn verify_pattern_table<B: AsRef<[u8]>>(db: &PatternTables<B>, info: &TableInfo) -> TableReport {
    let goal_blank = info.goal_blank as usize;
    let entries = db.table_entries(info);
    let (checksum, histogram) = rayon::join(
        || crc32fast::hash(entries),
        || {
            entries
                .par_chunks(PATTERN_CHUNK)
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
    let max = info.max_distance as usize;
    let out_of_range: u64 = histogram[max + 1..UNREACHED as usize].iter().sum();
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
    let goal_entry = entries[goal_rank as usize];
    let mut faults = Vec::new();
    if out_of_range > 0 {
        faults.push(format!(
            "{out_of_range} entries above the recorded maximum {max}"
        ));
    }
    if !count_mismatches.is_empty() {
        faults.push(format!(
            "the counts of entries {count_mismatches:?} differ from the header's"
        ));
    }
    if goal_entry != 0 {
        faults.push(format!("the goal's entry is {goal_entry}, not 0"));
    }
    // Each finding is about the whole table, and each is listed.
    let fault_count = faults.len() as u64;
    TableReport::new(
        Cell::of(shape, goal_blank),
        info.tiles.clone(),
        info.entries,
        (checksum == info.checksum, None),
        faults,
        fault_count,
    )
}
