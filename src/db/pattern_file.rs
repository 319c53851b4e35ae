//! The pattern-database file: its layout, writing it, and the checks a
//! reader makes of the header before it touches a table.
//!
//! The discipline is the complete tables' ([`crate::raw`]): a fixed
//! preamble, page-aligned sections, the header at the end, bincode 2 with
//! the same pinned configuration, a CRC-32 of the header and of every
//! table, and an atomic replace. Only the magic, the version and the header
//! differ:
//!
//! ```text
//! offset 0     preamble, 20 bytes: magic "NPUZPDB\0", version u32,
//!              header_len u32, header_crc u32 (CRC-32 of the header bytes)
//! then         zero padding to offset 4096
//! offset 4096  the pattern tables, set by set in the header's order: each
//!              one byte per placement of its tiles, indexed by the
//!              placement's partial-permutation rank (`PlacementRanker`);
//!              the byte is the fewest moves of the pattern's tiles that
//!              bring them to their cells in the set's goal (255: never
//!              reached). Each starts on a multiple of 4096.
//! the end      the header, the file's last header_len bytes: rows u8,
//!              cols u8, partition name (u64 length + UTF-8), then the sets
//!              (u64 count, then per set: goal_blank u8, then its tables:
//!              u64 count, then per table: tiles (u64 length + u8 each),
//!              placements u64, max_entry u8, counts (u64 length + u64
//!              each: placements at each entry 0 to max_entry), unreached
//!              u64, offset u64, checksum u32 = CRC-32 of the table's bytes)
//! ```
//!
//! A set's tables count moves toward the canonical goal of its blank cell
//! (tiles 1, 2, … in order around it, [`crate::Board::canonical_goal`]). Every set
//! holds the same patterns (tile numbers), and no two sets' blank cells are
//! related by a symmetry of the board: one set per class of cells answers
//! every goal of that class.
//!
//! A distinct magic rather than a `kind` field in the complete tables'
//! header: a reader of either kind tells the two apart from the first eight
//! bytes, before it decodes anything, and every reader of complete tables
//! (older builds included) refuses a pattern file as "not a database"
//! instead of misreading it. The complete tables' format is unchanged.

use crate::db::error::{EnvelopeError, WriteError, INCONSISTENT};
use crate::db::format::{
    bincode_config, check_section_offsets, read_envelope, Envelope, FileKind, SectionWriter,
};
use crate::pattern::Partition;
use crate::pattern::PatternError;
use crate::pattern::PlacementRanker;
use crate::pattern::UNREACHED;
use crate::puzzle::shape::{Shape, ShapeError};
use crate::puzzle::symmetry::Symmetry;
use bincode::{Decode, Encode};
use serde::Serialize;
use std::path::Path;

/// The first eight bytes of every pattern-database file.
pub const PATTERN_MAGIC: [u8; 8] = *b"NPUZPDB\0";

/// The pattern-database format version this build writes and reads.
///
/// Any change to the layout above, to the placement ranking or to the
/// meaning of an entry gets a new version. Readers accept only their own
/// version; an older file is rebuilt with `build-db`. Version 2 holds one
/// set of tables per class of goal blank cells (version 1: one set, for
/// the blank in the last cell).
pub const PATTERN_VERSION: u32 = 2;

/// What a pattern-database file holds.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct PatternHeader {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// The partition's name (`7-8`, `6-6-3` …), or `custom`.
    pub partition: String,
    /// One set of tables per class of goal blank cells served, in file
    /// order; the default goal's (blank in the last cell) first when built.
    pub sets: Vec<PatternSetInfo>,
}

/// One set of tables: the partition's patterns, toward one goal.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct PatternSetInfo {
    /// The goal's blank cell: the tables count moves to the goal with the
    /// blank here and the tiles in order around it.
    pub goal_blank: u8,
    /// One table per pattern, in file order.
    pub tables: Vec<PatternTableInfo>,
}

impl PatternHeader {
    /// Every table of every set, in file order, with its set's goal blank.
    pub fn tables(&self) -> impl Iterator<Item = (usize, &PatternTableInfo)> {
        self.sets
            .iter()
            .flat_map(|s| s.tables.iter().map(move |t| (s.goal_blank as usize, t)))
    }
}

/// One pattern table's description.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct PatternTableInfo {
    /// The pattern's tiles (default-goal numbers), in ranking order.
    pub tiles: Vec<u8>,
    /// Entries: placements of the tiles, cells!/(cells - tiles)!.
    pub placements: u64,
    /// The largest entry other than "never reached".
    pub max_entry: u8,
    /// Placements at each entry, 0 to `max_entry`.
    pub counts: Vec<u64>,
    /// Placements never reached (entry 255); 0 unless the pattern holds
    /// every tile, when half of them cannot reach the goal.
    pub unreached: u64,
    /// Where the table starts in the file.
    pub offset: u64,
    /// CRC-32 of the table's bytes.
    pub checksum: u32,
}

impl PatternTableInfo {
    /// The header entry of the table `entries` of pattern `tiles`, stored
    /// at `offset`.
    pub fn describe(tiles: &[u8], entries: &[u8], offset: u64) -> PatternTableInfo {
        let mut histogram = [0u64; 256];
        for &e in entries {
            histogram[e as usize] += 1;
        }
        let unreached = histogram[UNREACHED as usize];
        let max_entry = (0..UNREACHED as usize)
            .rev()
            .find(|&e| histogram[e] > 0)
            .unwrap_or(0);
        PatternTableInfo {
            tiles: tiles.to_vec(),
            placements: entries.len() as u64,
            max_entry: max_entry as u8,
            counts: histogram[..=max_entry].to_vec(),
            unreached,
            offset,
            checksum: crc32fast::hash(entries),
        }
    }
}

/// The pattern databases' kind of file: [`PATTERN_MAGIC`],
/// [`PATTERN_VERSION`].
pub const PATTERN_FILE: FileKind = FileKind {
    magic: PATTERN_MAGIC,
    version: PATTERN_VERSION,
    name: "pattern database",
};

/// Why bytes are not a usable pattern database. Every check runs at open,
/// before any table is touched; none of them reads the tables themselves.
#[derive(Debug, thiserror::Error)]
pub enum PatternFormatError {
    /// The preamble, the header's framing or the file's length.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The header names a board this build does not support.
    #[error("{INCONSISTENT}: {0}")]
    Board(#[source] ShapeError),
    /// The header lists no set of tables.
    #[error("{INCONSISTENT}: it lists no sets of tables")]
    NoSets,
    /// A set's goal blank lies outside the board.
    #[error("{INCONSISTENT}: set {set} has its goal blank in cell {blank}, but a {shape} board has {} cells", shape.cells())]
    BlankOutside {
        /// Index of the set in the header.
        set: usize,
        /// Its goal blank cell.
        blank: usize,
        /// The file's board.
        shape: Shape,
    },
    /// Two sets whose goal blanks a symmetry relates: one would never be
    /// read.
    #[error("{INCONSISTENT}: sets {first} and {second} serve the same goal blank cells (cells {} and {}, which a reflection or rotation relates)", .blanks.0, .blanks.1)]
    SameClass {
        /// Index of the earlier set.
        first: usize,
        /// Index of the later set.
        second: usize,
        /// Their goal blanks.
        blanks: (usize, usize),
    },
    /// A set lists no table.
    #[error("{INCONSISTENT}: set {set} lists no tables")]
    NoTables {
        /// Index of the set in the header.
        set: usize,
    },
    /// A set's patterns are not the first set's.
    #[error(
        "{INCONSISTENT}: the tables of set {set} are not for the same patterns as those of set 0"
    )]
    OtherPatterns {
        /// Index of the set in the header.
        set: usize,
    },
    /// The tables' tiles are not a partition of the board's tiles.
    #[error("{INCONSISTENT}: {0}")]
    Partition(#[source] PatternError),
    /// A table's size is not its pattern's number of placements.
    #[error("{INCONSISTENT}: table {table} of set {set} has {got} entries, expected {expected} (one per placement of its {tiles} tiles)")]
    Placements {
        /// Index of the set in the header.
        set: usize,
        /// Index of the table in its set.
        table: usize,
        /// Tiles in its pattern.
        tiles: usize,
        /// Placements of the pattern.
        expected: u64,
        /// The header's count.
        got: u64,
    },
    /// A table's counts do not fit its maximum, or do not add up.
    #[error("{INCONSISTENT}: the counts of table {table} of set {set} do not describe its {placements} entries (one count per entry 0 to the maximum, one placement at 0, the total the placements)")]
    Counts {
        /// Index of the set in the header.
        set: usize,
        /// Index of the table in its set.
        table: usize,
        /// Its entries.
        placements: u64,
    },
    /// A table does not start where the layout puts it.
    #[error("{INCONSISTENT}: table {table} of set {set} starts at {got}, expected {expected}")]
    SectionOffset {
        /// Index of the set in the header.
        set: usize,
        /// Index of the table in its set.
        table: usize,
        /// Where the layout puts it.
        expected: u64,
        /// Where the header says it is.
        got: u64,
    },
}

impl PatternFormatError {
    /// The board the file holds, where the header could still be read.
    pub fn readable_board(&self) -> Option<Shape> {
        match self {
            PatternFormatError::Envelope(e) => e.readable_board(),
            PatternFormatError::BlankOutside { shape, .. } => Some(*shape),
            _ => None,
        }
    }
}

/// Encodes a header as stored.
pub fn encode_pattern_header(header: &PatternHeader) -> Vec<u8> {
    bincode::encode_to_vec(header, bincode_config()).expect("a header always encodes")
}

/// Checks everything about a pattern file that the header alone decides,
/// in the order that makes each check safe: the envelope first
/// ([`read_envelope`]: length, magic, version, checksum), then the sets'
/// goal blanks, the partition and table sizes before offsets are added up,
/// and the file's exact length last. Returns the header, the partition
/// (the same in every set) and where the header starts.
pub fn check_pattern_header(
    data: &[u8],
) -> Result<(PatternHeader, Partition, usize), PatternFormatError> {
    use PatternFormatError as E;
    let envelope: Envelope<PatternHeader> = read_envelope(data, PATTERN_FILE)?;
    let header = &envelope.header;
    let shape = Shape::for_search(header.rows as usize, header.cols as usize).map_err(E::Board)?;
    let Some(first) = header.sets.first() else {
        return Err(E::NoSets);
    };
    for (set, s) in header.sets.iter().enumerate() {
        let blank = s.goal_blank as usize;
        if blank >= shape.cells() {
            return Err(E::BlankOutside { set, blank, shape });
        }
        let earlier = header.sets[..set]
            .iter()
            .position(|e| Symmetry::mapping(shape, e.goal_blank as usize, blank).is_some());
        if let Some(first) = earlier {
            let blanks = (header.sets[first].goal_blank as usize, blank);
            return Err(E::SameClass {
                first,
                second: set,
                blanks,
            });
        }
        if s.tables.is_empty() {
            return Err(E::NoTables { set });
        }
        if !s
            .tables
            .iter()
            .map(|t| &t.tiles)
            .eq(first.tables.iter().map(|t| &t.tiles))
        {
            return Err(E::OtherPatterns { set });
        }
    }
    let patterns = first.tables.iter().map(|t| t.tiles.clone()).collect();
    let partition = Partition::new(shape, patterns).map_err(E::Partition)?;
    for (set, s) in header.sets.iter().enumerate() {
        for (table, t) in s.tables.iter().enumerate() {
            check_table(shape, set, table, t)?;
        }
    }
    // At most one set per cell, of at most 15 tables of at most u32::MAX
    // entries each (checked above): the offsets add up without overflow.
    let sections = header.tables().map(|(_, t)| (t.offset, t.placements));
    let end = check_section_offsets(sections).map_err(|m| {
        let tables = first.tables.len();
        E::SectionOffset {
            set: m.index / tables,
            table: m.index % tables,
            expected: m.expected,
            got: m.got,
        }
    })?;
    envelope.check_length(data, end, shape)?;
    Ok((envelope.header, partition, envelope.header_start))
}

/// One table's description on its own: its size and its counts.
fn check_table(
    shape: Shape,
    set: usize,
    table: usize,
    t: &PatternTableInfo,
) -> Result<(), PatternFormatError> {
    use PatternFormatError as E;
    let ranker = PlacementRanker::new(shape.cells(), t.tiles.len()).map_err(E::Partition)?;
    if t.placements != ranker.len() as u64 {
        return Err(E::Placements {
            set,
            table,
            tiles: t.tiles.len(),
            expected: ranker.len() as u64,
            got: t.placements,
        });
    }
    let total = t
        .counts
        .iter()
        .try_fold(t.unreached, |a, &c| a.checked_add(c));
    if t.max_entry == UNREACHED
        || t.counts.len() != t.max_entry as usize + 1
        || t.counts[0] != 1
        || total != Some(t.placements)
    {
        return Err(E::Counts {
            set,
            table,
            placements: t.placements,
        });
    }
    Ok(())
}

/// A pattern database being written, one table at a time, into a temporary
/// file that replaces `path` only when [`PatternWriter::finish`] succeeds.
/// Dropped before that, it removes the temporary file and leaves `path` as
/// it was.
pub struct PatternWriter<'a> {
    sections: SectionWriter<'a>,
    header: PatternHeader,
}

impl<'a> PatternWriter<'a> {
    /// Starts a pattern database of `shape` boards, for the partition
    /// called `name`, at `path`.
    pub fn create(path: &'a Path, shape: Shape, name: &str) -> Result<Self, WriteError> {
        Ok(PatternWriter {
            sections: SectionWriter::create(path, PATTERN_FILE)?,
            header: PatternHeader {
                rows: shape.rows() as u8,
                cols: shape.cols() as u8,
                partition: name.to_string(),
                sets: Vec::new(),
            },
        })
    }

    /// Appends the table of pattern `tiles` toward the canonical goal with
    /// the blank in `goal_blank`: to the last set when it is that goal's,
    /// else to a new set. Write one set's tables together.
    pub fn append(
        &mut self,
        goal_blank: usize,
        tiles: &[u8],
        entries: &[u8],
    ) -> Result<(), WriteError> {
        let offset = self.sections.append_section(entries)?;
        let info = PatternTableInfo::describe(tiles, entries, offset);
        match self.header.sets.last_mut() {
            Some(set) if set.goal_blank as usize == goal_blank => set.tables.push(info),
            _ => self.header.sets.push(PatternSetInfo {
                goal_blank: goal_blank as u8,
                tables: vec![info],
            }),
        }
        Ok(())
    }

    /// The header so far.
    pub fn header(&self) -> &PatternHeader {
        &self.header
    }

    /// Writes the header and the preamble, flushes everything to disk and
    /// renames the file into place. Returns the file's size.
    pub fn finish(self) -> Result<u64, WriteError> {
        self.sections.finish(&encode_pattern_header(&self.header))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding is the file format: these bytes are what the module
    /// documentation promises, written out by hand.
    #[test]
    fn the_header_encodes_to_the_documented_bytes() {
        let header = PatternHeader {
            rows: 3,
            cols: 3,
            partition: "4-4".into(),
            sets: vec![PatternSetInfo {
                goal_blank: 8,
                tables: vec![PatternTableInfo {
                    tiles: vec![1, 2],
                    placements: 72,
                    max_entry: 1,
                    counts: vec![1, 71],
                    unreached: 0,
                    offset: 4096,
                    checksum: 0xDEAD_BEEF,
                }],
            }],
        };
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &[3u8, 3][..],                         // rows, cols
            &[3, 0, 0, 0, 0, 0, 0, 0], b"4-4",     // partition
            &[1, 0, 0, 0, 0, 0, 0, 0],             // sets: 1
            &[8],                                  // goal_blank
            &[1, 0, 0, 0, 0, 0, 0, 0],             // tables: 1
            &[2, 0, 0, 0, 0, 0, 0, 0], &[1, 2],    // tiles
            &[72, 0, 0, 0, 0, 0, 0, 0],            // placements
            &[1],                                  // max_entry
            &[2, 0, 0, 0, 0, 0, 0, 0],             // counts: 2
            &[1, 0, 0, 0, 0, 0, 0, 0],             //   1
            &[71, 0, 0, 0, 0, 0, 0, 0],            //   71
            &[0, 0, 0, 0, 0, 0, 0, 0],             // unreached
            &[0, 0x10, 0, 0, 0, 0, 0, 0],          // offset 4096
            &[0xEF, 0xBE, 0xAD, 0xDE],             // checksum
        ]
        .concat();
        assert_eq!(encode_pattern_header(&header), expected);
    }
}
