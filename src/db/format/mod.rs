//! The database file format, one for both kinds of database: its layout,
//! writing it ([`write`]), and the checks a reader makes of the header
//! before it touches a table ([`check`]).
//!
//! ```text
//! offset 0     preamble, 20 bytes: magic "NPUZZLE\0", version u32 (6, or 7
//!              where a table repeats another, below),
//!              header_len u32, header_crc u32 (CRC-32 of the header bytes)
//! then         zero padding to offset 4096
//! offset 4096  the sections, in the header's order: each table's `entries`
//!              bytes, then, if it has one, its path table (`entries` u64
//!              words, little endian, see `path_table`). Each section starts
//!              on a multiple of 4096, after zero padding. A complete
//!              table's byte is a position's distance and move (see
//!              `entry`), indexed by rank; a pattern table's is the fewest
//!              moves of its tiles to their goal cells (255: never reached),
//!              indexed by the placement's partial-permutation rank.
//! the end      the header, the file's last header_len bytes: rows u8,
//!              cols u8, metric u8 (0 single-tile, 1 multi-tile), partition (u8 0 for complete tables; or 1, then
//!              u64 count of patterns, each u64 length + u8 tiles), then the
//!              tables (u64 count, then per table: goal_blank u8, tiles (u64
//!              length + u8 each; none for complete tables), entries u64,
//!              max_distance u8, counts (u64 length + u64 each: entries at
//!              each distance 0 to max_distance), unreached u64, offset u64,
//!              checksum u32 = CRC-32 of the table's bytes, path_table: u8 0
//!              for none, or 1 then offset u64 and checksum u32)
//! ```
//!
//! A pattern table whose search repeats an earlier table's (the same
//! tiles' goal cells and goal blank region, as when two sets' goal blanks
//! lie in one region of the pattern) gives that table's offset and has no
//! section of its own (version 7): the layout counts only the sections
//! stored.
//!
//! The partition says the kind: none, complete tables (one table per goal
//! blank cell, every position); some, pattern tables. Those come in *sets*:
//! the runs of consecutive tables with the same goal blank, each the
//! partition's patterns in order, toward the canonical goal of that cell
//! (tiles 1, 2, … in order around the blank). A pattern that a reflection
//! or rotation of the board serves from an earlier pattern's table has no
//! table in the set (version 6; version 5 files store every pattern's).
//!
//! Preamble and header are bincode 2 with a pinned configuration: little
//! endian, fixed-width integers (see [`bincode_config`]). The header comes
//! last so that tables can be written as each is built, without knowing the
//! others' maximum distances (which fix the header's length). Every offset
//! and the file's exact length follow from the header alone, and a reader
//! refuses anything else.

pub mod check;
pub mod write;

use crate::table::path_table::WORD_BYTES;
use bincode::{Decode, Encode};
use serde::Serialize;

/// The first eight bytes of every database.
pub const MAGIC: [u8; 8] = *b"NPUZZLE\0";

/// The magic of the pattern databases of format versions 1 and 2, refused
/// by name: version 4 holds both kinds under [`MAGIC`].
pub const OLD_PATTERN_MAGIC: [u8; 8] = *b"NPUZPDB\0";

/// The newest format version this build writes (to files that need it:
/// [`Header::written_version`]).
///
/// Any change to the layout above, to the entry encoding
/// ([`crate::table::entry`]), to the placement ranking or to the meaning of
/// a pattern entry gets a new version. Readers accept their own version and
/// the older ones it only extends (`READABLE`); an older file is rebuilt
/// with `build-db`. Version 2 moved the header to the end and stores
/// distances modulo 63 ([`crate::table::entry`]); version 3 added path
/// tables ([`crate::table::path_table`]); version 4 holds pattern databases
/// too (before, under their own magic [`OLD_PATTERN_MAGIC`]); version 5
/// records the metric its distances count ([`crate::rules::Metric`]);
/// version 6 stores no table for a pattern that a symmetry of the board
/// serves from an earlier pattern's table
/// ([`crate::pattern::Partition::stored_patterns`]), so a set may hold
/// fewer tables than the partition has patterns; version 7 lets a pattern
/// table that repeats an earlier set's share its bytes ([`Header::repeats`]).
pub const VERSION: u32 = 7;

/// The versions this build reads: [`VERSION`]; version 6, whose files are
/// version 7 files with no table repeated; and version 5, whose files are
/// version 6 files with a table for every pattern.
pub const READABLE: [u32; 3] = [5, 6, VERSION];

/// Sections start on multiples of this many bytes.
pub const PAGE: u64 = 4096;

/// Length of the encoded [`Preamble`].
pub const PREAMBLE_LEN: usize = 20;

/// Headers longer than this are refused before they are decoded.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// Where the first section starts.
pub const FIRST_SECTION: u64 = PAGE;

/// The pinned bincode configuration of preamble and header.
pub fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<MAX_HEADER_LEN>()
}

/// The fixed-size start of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub struct Preamble {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`VERSION`].
    pub version: u32,
    /// Bytes of the header that follows.
    pub header_len: u32,
    /// CRC-32 of those bytes.
    pub header_crc: u32,
}

impl Preamble {
    /// The preamble of a file with these header bytes.
    pub fn of(header_bytes: &[u8]) -> Preamble {
        Preamble {
            magic: MAGIC,
            version: VERSION,
            header_len: header_bytes.len() as u32,
            header_crc: crc32fast::hash(header_bytes),
        }
    }
}

/// What the file holds, of either kind.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct Header {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// How the distances count moves: [`crate::rules::Metric::code`] (0 single-tile, 1
    /// multi-tile).
    pub metric: u8,
    /// The pattern tables' tiles, pattern by pattern (default-goal
    /// numbers), for a pattern database; `None` for complete tables. Its
    /// name (`7-8` …) is [`crate::pattern::Partition::name`], not stored.
    pub partition: Option<Vec<Vec<u8>>>,
    /// The tables, in file order: a pattern database's set by set.
    pub tables: Vec<TableInfo>,
}

/// One table's description, of either kind.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct TableInfo {
    /// The blank cell of the goal it counts toward (0-based, row by row).
    pub goal_blank: u8,
    /// A pattern table's tiles, in ranking order; empty for a complete
    /// table, which places every tile.
    pub tiles: Vec<u8>,
    /// Entries: the board's positions (cells!/2), or the pattern's
    /// placements (cells!/(cells - tiles)!).
    pub entries: u64,
    /// The largest distance stored (moves of the pattern's tiles, for a
    /// pattern table).
    pub max_distance: u8,
    /// Entries at each distance, 0 to `max_distance`.
    pub counts: Vec<u64>,
    /// Entries never reached: 0, but for a pattern that holds every tile,
    /// half of whose placements cannot reach the goal.
    pub unreached: u64,
    /// Where the table starts in the file.
    pub offset: u64,
    /// CRC-32 of the table's bytes.
    pub checksum: u32,
    /// The table's path table, if the file has one (complete tables only).
    pub path_table: Option<PathTableInfo>,
}

/// Where a table's path table lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode, Serialize)]
pub struct PathTableInfo {
    /// Where the path table starts in the file.
    pub offset: u64,
    /// CRC-32 of its bytes.
    pub checksum: u32,
}

/// Where a table is in the header, as messages name it: `table 3` of
/// complete tables, `table 3 of set 1` of a pattern database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableAt {
    /// The set, for pattern tables.
    pub set: Option<usize>,
    /// Index of the table: in the header, or in its set.
    pub table: usize,
}

impl std::fmt::Display for TableAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.set {
            None => write!(f, "table {}", self.table),
            Some(set) => write!(f, "table {} of set {set}", self.table),
        }
    }
}

impl Header {
    /// The runs of tables with the same goal blank, in file order: a
    /// pattern database's sets (for complete tables, one table each).
    pub fn sets(&self) -> impl Iterator<Item = &[TableInfo]> {
        self.tables.chunk_by(|a, b| a.goal_blank == b.goal_blank)
    }

    /// Where messages place each table, in file order: by its index in the
    /// header for complete tables, by its set and its index in the set for
    /// a pattern database.
    pub fn tables_at(&self) -> Vec<TableAt> {
        if self.partition.is_none() {
            let at = |table| TableAt { set: None, table };
            return (0..self.tables.len()).map(at).collect();
        }
        self.sets()
            .enumerate()
            .flat_map(|(set, tables)| {
                (0..tables.len()).map(move |table| TableAt {
                    set: Some(set),
                    table,
                })
            })
            .collect()
    }

    /// For each table in file order, the earlier table (its index) whose
    /// offset it gives, if any: a pattern table that repeats an earlier
    /// set's and shares its bytes (since version 7). Opening a file makes
    /// sure that such a table is one.
    pub fn repeats(&self) -> Vec<Option<usize>> {
        let tables = &self.tables;
        (0..tables.len())
            .map(|i| {
                tables[..i]
                    .iter()
                    .position(|e| e.offset == tables[i].offset)
            })
            .collect()
    }

    /// The version a file with this header is written as: 6, which builds
    /// before version 7 read too, unless a table repeats an earlier one.
    pub fn written_version(&self) -> u32 {
        match self.repeats().iter().any(Option::is_some) {
            true => VERSION,
            false => 6,
        }
    }

    /// The sections the file stores, in file order, as (table index,
    /// section name, offset, size): every table's but a repeat's.
    pub fn stored_sections(&self) -> Vec<(usize, &'static str, u64, u64)> {
        let repeats = self.repeats();
        (self.tables.iter().enumerate())
            .filter(|&(i, _)| repeats[i].is_none())
            .flat_map(|(i, t)| {
                t.sections()
                    .map(move |(name, at, size)| (i, name, at, size))
            })
            .collect()
    }
}

impl TableInfo {
    /// The sizes in bytes of the table's sections, in file order: its
    /// entries, then its path table if it has one.
    pub fn section_sizes(&self) -> impl Iterator<Item = u64> {
        let words = self.path_table.map(|_| self.entries * WORD_BYTES as u64);
        std::iter::once(self.entries).chain(words)
    }

    /// The table's sections as (name, offset, size), in file order.
    pub fn sections(&self) -> impl Iterator<Item = (&'static str, u64, u64)> {
        let offsets = std::iter::once(("table", self.offset))
            .chain(self.path_table.map(|p| ("path table", p.offset)));
        offsets
            .zip(self.section_sizes())
            .map(|((name, offset), size)| (name, offset, size))
    }
}

/// Rounds up to the next page boundary.
pub fn page_align(offset: u64) -> u64 {
    offset.div_ceil(PAGE) * PAGE
}

/// Where each section starts, for sections of these sizes, and where the
/// last one ends (and the header begins).
pub fn section_offsets(sizes: impl IntoIterator<Item = u64>) -> (Vec<u64>, u64) {
    let mut end = FIRST_SECTION;
    let mut offsets = Vec::new();
    for size in sizes {
        let offset = page_align(end);
        offsets.push(offset);
        end = offset + size;
    }
    (offsets, end)
}

/// Encodes a header as stored.
pub fn encode_header(header: &Header) -> Vec<u8> {
    bincode::encode_to_vec(header, bincode_config()).expect("a header always encodes")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(goal_blank: u8, tiles: Vec<u8>, entries: u64, counts: Vec<u64>) -> TableInfo {
        TableInfo {
            goal_blank,
            tiles,
            entries,
            max_distance: counts.len() as u8 - 1,
            counts,
            unreached: 0,
            offset: 4096,
            checksum: 0xDEAD_BEEF,
            path_table: None,
        }
    }

    /// The encoding is the file format: these bytes are what the module
    /// documentation above promises, written out by hand. A change here is
    /// a new format version.
    #[test]
    fn complete_tables_header_and_preamble_encode_to_the_documented_bytes() {
        let header = Header {
            rows: 3,
            cols: 3,
            metric: 1,
            partition: None,
            tables: vec![TableInfo {
                path_table: Some(PathTableInfo {
                    offset: 0x1_0000,
                    checksum: 0x0A0B_0C0D,
                }),
                ..table(8, vec![], 0x0102_0304_0506_0708, vec![1, 2])
            }],
        };
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &[3u8, 3][..],                                  // rows, cols
            &[1],                                           // metric: multi-tile
            &[0],                                           // partition: none
            &[1, 0, 0, 0, 0, 0, 0, 0],                      // tables: 1
            &[8],                                           // goal_blank
            &[0, 0, 0, 0, 0, 0, 0, 0],                      // tiles: none
            &[8, 7, 6, 5, 4, 3, 2, 1],                      // entries, little endian
            &[1],                                           // max_distance
            &[2, 0, 0, 0, 0, 0, 0, 0],                      // counts: 2
            &[1, 0, 0, 0, 0, 0, 0, 0],                      //   1
            &[2, 0, 0, 0, 0, 0, 0, 0],                      //   2
            &[0, 0, 0, 0, 0, 0, 0, 0],                      // unreached
            &[0, 0x10, 0, 0, 0, 0, 0, 0],                   // offset 4096
            &[0xEF, 0xBE, 0xAD, 0xDE],                      // checksum
            &[1],                                           // path table: present
            &[0, 0, 1, 0, 0, 0, 0, 0],                      //   offset
            &[0x0D, 0x0C, 0x0B, 0x0A],                      //   checksum
        ]
        .concat();
        let bytes = encode_header(&header);
        assert_eq!(bytes, expected);

        let preamble = bincode::encode_to_vec(Preamble::of(&bytes), bincode_config()).unwrap();
        let len = (expected.len() as u32).to_le_bytes();
        let crc = crc32fast::hash(&expected).to_le_bytes();
        let expected_preamble = [&b"NPUZZLE\0"[..], &7u32.to_le_bytes(), &len, &crc].concat();
        assert_eq!(preamble, expected_preamble);
        assert_eq!(preamble.len(), PREAMBLE_LEN);

        let no_path_table = Header {
            tables: vec![TableInfo {
                path_table: None,
                ..header.tables[0].clone()
            }],
            ..header
        };
        let bytes = encode_header(&no_path_table);
        assert_eq!(bytes, [&expected[..expected.len() - 13], &[0]].concat());
    }

    #[test]
    fn a_pattern_header_encodes_to_the_documented_bytes() {
        let header = Header {
            rows: 3,
            cols: 3,
            metric: 0,
            partition: Some(vec![vec![1, 2], vec![3]]),
            tables: vec![TableInfo {
                unreached: 3,
                ..table(8, vec![1, 2], 72, vec![1, 68])
            }],
        };
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &[3u8, 3][..],                          // rows, cols
            &[0],                                   // metric: single-tile
            &[1],                                   // partition: present
            &[2, 0, 0, 0, 0, 0, 0, 0],              //   patterns: 2
            &[2, 0, 0, 0, 0, 0, 0, 0], &[1, 2],     //   tiles 1 2
            &[1, 0, 0, 0, 0, 0, 0, 0], &[3],        //   tile 3
            &[1, 0, 0, 0, 0, 0, 0, 0],              // tables: 1
            &[8],                                   // goal_blank
            &[2, 0, 0, 0, 0, 0, 0, 0], &[1, 2],     // tiles
            &[72, 0, 0, 0, 0, 0, 0, 0],             // entries
            &[1],                                   // max_distance
            &[2, 0, 0, 0, 0, 0, 0, 0],              // counts: 2
            &[1, 0, 0, 0, 0, 0, 0, 0],              //   1
            &[68, 0, 0, 0, 0, 0, 0, 0],             //   68
            &[3, 0, 0, 0, 0, 0, 0, 0],              // unreached
            &[0, 0x10, 0, 0, 0, 0, 0, 0],           // offset 4096
            &[0xEF, 0xBE, 0xAD, 0xDE],              // checksum
            &[0],                                   // path table: none
        ]
        .concat();
        assert_eq!(encode_header(&header), expected);
    }

    #[test]
    fn tables_are_placed_by_index_or_by_set() {
        let t = |blank| table(blank, vec![], 1, vec![1]);
        let mut header = Header {
            rows: 3,
            cols: 3,
            metric: 0,
            partition: None,
            tables: vec![t(8), t(8), t(7), t(4), t(4)],
        };
        let shown =
            |h: &Header| -> Vec<String> { h.tables_at().iter().map(ToString::to_string).collect() };
        assert_eq!(
            shown(&header),
            ["table 0", "table 1", "table 2", "table 3", "table 4"]
        );
        header.partition = Some(vec![vec![1]]);
        assert_eq!(
            shown(&header),
            [
                "table 0 of set 0",
                "table 1 of set 0",
                "table 0 of set 1",
                "table 0 of set 2",
                "table 1 of set 2"
            ]
        );
        assert_eq!(header.sets().map(<[_]>::len).collect::<Vec<_>>(), [2, 1, 2]);
    }
}
