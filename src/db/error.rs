//! Why a file is not a usable database, why it cannot be opened or written,
//! and why a question cannot be answered from it.
//!
//! Messages say what is wrong with the file, never which command to run:
//! that advice belongs to the binaries.

use crate::db::format::FileKind;
use crate::db::replace::ReplaceError;
use crate::pattern::SolveError;
use crate::puzzle::cell::{Cell, Cells};
use crate::puzzle::shape::{Shape, ShapeError};
use crate::puzzle::solvability::Unsolvable;
use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

/// Why bytes fail the checks both kinds of file share (their envelope:
/// preamble, header, and the file's exact length). Each kind's own error
/// wraps it ([`FormatError::Envelope`], and the pattern databases').
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// Shorter than the fixed preamble.
    #[error("the file is {got} bytes long, too short to be a database (the preamble alone is {expected})")]
    TooShort {
        /// Bytes needed.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Not this kind's magic bytes.
    #[error("not an npuzzle {}: expected magic bytes {:?}, got {:?}", kind.name, String::from_utf8_lossy(&kind.magic), String::from_utf8_lossy(.got))]
    Magic {
        /// The kind of file expected.
        kind: FileKind,
        /// The first eight bytes.
        got: [u8; 8],
    },
    /// Another format version.
    #[error("{} format version {got} is not supported: this build reads version {expected}", kind.name)]
    Version {
        /// The kind of file.
        kind: FileKind,
        /// The version this build reads ([`FileKind::version`]).
        expected: u32,
        /// The file's version.
        got: u32,
    },
    /// The preamble claims a header longer than the file or the limit.
    #[error("{DAMAGED_HEADER}: it claims {claimed} bytes, but the file has {available} after the preamble")]
    HeaderLength {
        /// Header bytes the preamble claims.
        claimed: usize,
        /// Bytes after the preamble (or the limit, if smaller).
        available: usize,
    },
    /// The header's bytes do not match the preamble's checksum.
    #[error("{DAMAGED_HEADER}: expected checksum {expected:08x}, got {got:08x}")]
    HeaderChecksum {
        /// The preamble's CRC-32.
        expected: u32,
        /// The CRC-32 of the header's bytes.
        got: u32,
    },
    /// The header's bytes do not decode.
    #[error("{DAMAGED_HEADER}: it does not decode")]
    HeaderDecode(#[source] bincode::error::DecodeError),
    /// The header decodes from fewer bytes than the preamble claims.
    #[error("{DAMAGED_HEADER}: expected {expected} bytes, decoded {got}")]
    HeaderTrailing {
        /// Header bytes the preamble claims.
        expected: usize,
        /// Bytes the header decoded from.
        got: usize,
    },
    /// The file is longer or shorter than its header implies.
    #[error("the file is {got} bytes long but its header implies {expected}: it is truncated or has extra bytes")]
    Length {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        got: u64,
        /// The board the header names.
        shape: Shape,
    },
}

impl EnvelopeError {
    /// The board the file holds, where the header could still be read.
    pub fn readable_board(&self) -> Option<Shape> {
        match self {
            EnvelopeError::Length { shape, .. } => Some(*shape),
            _ => None,
        }
    }

    /// Whether the file is not of the kind expected at all (too short, or
    /// another magic): advice to rebuild it would overwrite someone's file.
    pub fn is_foreign(&self) -> bool {
        matches!(
            self,
            EnvelopeError::Magic { .. } | EnvelopeError::TooShort { .. }
        )
    }

    /// The file's version, when it is newer than this build reads.
    pub fn newer_version(&self) -> Option<u32> {
        match *self {
            EnvelopeError::Version { expected, got, .. } if got > expected => Some(got),
            _ => None,
        }
    }
}

/// What a damaged header's messages begin with.
pub(crate) const DAMAGED_HEADER: &str =
    "the header (the end of the file) is damaged, or the file is truncated or has extra bytes";
/// What a header that decodes but contradicts itself begins with.
pub(crate) const INCONSISTENT: &str = "the header is inconsistent";

/// Why bytes are not a usable database. Every check runs at open, before any
/// table is touched; none of them reads the tables themselves.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The preamble, the header's framing or the file's length.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The header names a board this build does not support.
    #[error("{INCONSISTENT}: {0}")]
    Board(#[source] ShapeError),
    /// The header lists no table.
    #[error("{INCONSISTENT}: it lists no tables")]
    NoTables,
    /// A table's goal blank lies outside the board.
    #[error("{INCONSISTENT}: table {table} has its blank in cell {blank}, but a {shape} board has {} cells", shape.cells())]
    BlankOutside {
        /// Index of the table in the header.
        table: usize,
        /// Its goal blank cell.
        blank: usize,
        /// The file's board.
        shape: Shape,
    },
    /// Two tables serve the same goal blank cell.
    #[error("{INCONSISTENT}: two tables have their blank in cell {blank}")]
    DuplicateBlank {
        /// The cell.
        blank: usize,
    },
    /// A table's size is not the board's number of positions.
    #[error("{INCONSISTENT}: table {table} has {got} positions, expected {expected} for {shape}")]
    Positions {
        /// Index of the table in the header.
        table: usize,
        /// The board's positions per table.
        expected: u64,
        /// The table's.
        got: u64,
        /// The file's board.
        shape: Shape,
    },
    /// A table's list of counts per distance has the wrong length.
    #[error(
        "{INCONSISTENT}: table {table} has maximum distance {max_distance} and {counts} counts"
    )]
    CountsLength {
        /// Index of the table in the header.
        table: usize,
        /// Its maximum distance.
        max_distance: u8,
        /// How many counts it lists (expected `max_distance + 1`).
        counts: usize,
    },
    /// A table's counts per distance do not add up to its positions.
    #[error(
        "{INCONSISTENT}: the counts of table {table} do not add up to its {positions} positions"
    )]
    CountsTotal {
        /// Index of the table in the header.
        table: usize,
        /// Its positions.
        positions: u64,
    },
    /// A path table beside a table whose distances words cannot hold.
    #[error("{INCONSISTENT}: table {table} has a path table, but its distances reach {max_distance}, past the {limit} that path tables allow")]
    PathTableTooFar {
        /// Index of the table in the header.
        table: usize,
        /// Its maximum distance.
        max_distance: u8,
        /// The most a path table allows.
        limit: usize,
    },
    /// A pattern-database file that fails its own checks.
    #[error(transparent)]
    Pattern(#[from] crate::db::pattern_file::PatternFormatError),
    /// A section does not start where the layout puts it.
    #[error("{INCONSISTENT}: the {section} of table {table} starts at {got}, expected {expected}")]
    SectionOffset {
        /// Index of the table in the header.
        table: usize,
        /// "table" or "path table".
        section: &'static str,
        /// Where the layout puts it.
        expected: u64,
        /// Where the header says it is.
        got: u64,
    },
}

impl FormatError {
    /// The board the file holds, where the header could still be read.
    pub fn readable_board(&self) -> Option<Shape> {
        match self {
            FormatError::Envelope(e) => e.readable_board(),
            FormatError::Pattern(e) => e.readable_board(),
            FormatError::BlankOutside { shape, .. } | FormatError::Positions { shape, .. } => {
                Some(*shape)
            }
            _ => None,
        }
    }
}

/// Characters of a path a message shows at most.
const PATH_SHOWN: usize = 160;

/// A path as messages show it: whole, or its start and its end around an
/// ellipsis when it is longer than 160 characters (`PATH_SHOWN`), so that an
/// absurd path does not flood the terminal (no usable path is that long
/// in one component, and Linux stops whole paths at 4,096 bytes).
pub fn shown_path(path: &Path) -> Cow<'_, str> {
    let text = path.to_string_lossy();
    let count = text.chars().count();
    if count <= PATH_SHOWN {
        return text;
    }
    let head: String = text.chars().take(PATH_SHOWN - 40).collect();
    let tail: String = text.chars().skip(count - 40).collect();
    format!("{head}…{tail}").into()
}

/// A database file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be read or mapped.
    #[error("cannot open {}", shown_path(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The path names a folder, a device or a pipe, not a file.
    #[error("{} is not a regular file", shown_path(path))]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is not a usable database.
    #[error("{} is not a usable database", shown_path(path))]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        problem: FormatError,
    },
}

/// A database could not be written. The previous file, if any, is untouched.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", shown_path(path))]
pub struct WriteError {
    /// The database asked for.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: ReplaceError,
}

/// A question that needs every position's distance, asked of a file of
/// pattern tables, which hold lower bounds for a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "this needs complete tables (every position's distance); this file holds pattern \
     databases for {shape}, which answer solve, distance, batch, info and verify"
)]
pub struct NeedsCompleteTables {
    /// The file's board.
    pub shape: Shape,
}

/// Why a question got no answer, from either kind of database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The start cannot reach the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(Unsolvable),
    /// A board of another size than the database's.
    #[error("the board is {got} but the database holds {expected} boards")]
    WrongShape {
        /// The database's board.
        expected: Shape,
        /// The board asked about.
        got: Shape,
    },
    /// No table (complete tables) or set of tables (pattern tables) serves
    /// goals with the blank in this cell, nor in any cell a symmetry of the
    /// board takes it to.
    #[error(
        "the database has no table for goals with the blank in {}, nor for any cell that a \
         reflection or rotation of the board takes it to; it holds tables for the blank at \
         (row,column) {present}",
        .cell.name()
    )]
    MissingGoal {
        /// The database's board.
        shape: Shape,
        /// The goal's blank cell.
        cell: Cell,
        /// The goal blank cells whose tables the file holds.
        present: Cells,
    },
    /// A table entry that cannot be right; verifying the file finds all of
    /// them.
    #[error("the table for this goal is damaged at rank {rank}")]
    Corrupt {
        /// Where the damage showed.
        rank: u32,
    },
    /// The search's deadline passed before a solution was found.
    #[error("no solution within the time allowed: stopped at bound {bound} after {nodes} nodes")]
    TimedOut {
        /// The bound being searched.
        bound: u32,
        /// Nodes generated.
        nodes: u64,
    },
    /// The caller cancelled the search.
    #[error("search cancelled at bound {bound} after {nodes} nodes")]
    Cancelled {
        /// The bound being searched.
        bound: u32,
        /// Nodes generated.
        nodes: u64,
    },
    /// The question needs complete tables.
    #[error(transparent)]
    NeedsCompleteTables(#[from] NeedsCompleteTables),
}

impl AnswerError {
    /// Why the start cannot reach the goal, when that is the reason.
    pub fn unsolvable(&self) -> Option<&Unsolvable> {
        match self {
            AnswerError::Unsolvable(why) => Some(why),
            _ => None,
        }
    }
}

/// A search's failure as the database's answer. The tables of one set
/// answer only goals whose blank a symmetry takes to theirs; the database
/// routes each goal to such a set first, so `GoalBlank` means a set was
/// asked directly.
impl From<SolveError> for AnswerError {
    fn from(e: SolveError) -> AnswerError {
        match e {
            SolveError::Unsolvable(why) => AnswerError::Unsolvable(why),
            SolveError::WrongShape { expected, got } => AnswerError::WrongShape { expected, got },
            SolveError::GoalBlank {
                shape,
                cell,
                expected,
            } => AnswerError::MissingGoal {
                shape,
                cell,
                present: Cells::of(shape, [expected.index(shape)]),
            },
            SolveError::TimedOut { bound, nodes } => AnswerError::TimedOut { bound, nodes },
            SolveError::Cancelled { bound, nodes } => AnswerError::Cancelled { bound, nodes },
        }
    }
}
