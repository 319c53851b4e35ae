//! Why a file is not a usable database, why it cannot be opened or written,
//! and why a question cannot be answered from it.
//!
//! Messages say what is wrong with the file, never which command to run:
//! that advice belongs to the binaries.

use crate::db::format::TableAt;
use crate::db::replace::ReplaceError;
use crate::pattern::{PatternError, SolveError, Stopped};
use crate::puzzle::cell::{Cell, Cells};
use crate::puzzle::shape::{Shape, ShapeError};
use crate::puzzle::solvability::Unsolvable;
use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

/// "1 byte", "20 bytes": a file's length in words.
fn bytes_long(bytes: u64) -> String {
    match bytes {
        1 => "1 byte".to_string(),
        _ => format!("{bytes} bytes"),
    }
}

/// Why bytes fail the checks both kinds of file share (their envelope:
/// preamble, header, and the file's exact length), before the header is
/// read for what it says. [`FormatError::Envelope`] wraps it.
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// Shorter than the fixed preamble.
    #[error(
        "the file is {} long, too short to be a database (the preamble alone is {expected})",
        bytes_long(*.got as u64)
    )]
    TooShort {
        /// Bytes needed.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Not the magic bytes of a database.
    #[error("not an npuzzle database: expected magic bytes {:?}, got {:?}", String::from_utf8_lossy(&crate::db::format::MAGIC), String::from_utf8_lossy(.got))]
    Magic {
        /// The first eight bytes.
        got: [u8; 8],
    },
    /// A pattern database of the format before version 4, under its own
    /// magic.
    #[error("this is a pattern database of an old format (magic \"NPUZPDB\", pattern format version {version}); this build reads database format version {}, which holds pattern databases and complete tables alike", crate::db::format::VERSION)]
    OldPatternFormat {
        /// The old pattern format's version.
        version: u32,
    },
    /// Another format version.
    #[error(
        "database format version {got} is not supported: this build reads versions {} to \
         {expected}",
        crate::db::format::READABLE[0]
    )]
    Version {
        /// The version this build reads ([`crate::raw::VERSION`]).
        expected: u32,
        /// The file's version.
        got: u32,
    },
    /// A version no npuzzle has written or will: the preamble is damaged
    /// (or the file only begins as a database does).
    #[error(
        "the preamble is damaged: {got} is no format version of npuzzle's (this build reads \
         versions {} to {})",
        crate::db::format::READABLE[0],
        crate::db::format::VERSION
    )]
    ImplausibleVersion {
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
    #[error(
        "the file is {} long but its header implies {expected}: it is truncated or has extra \
         bytes",
        bytes_long(*.got)
    )]
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

/// Why bytes are not a usable database, of either kind. Every check runs at
/// open, before any table is touched; none of them reads the tables
/// themselves. Tables are named by [`TableAt`]: `table 3` of complete
/// tables, `table 3 of set 1` of a pattern database.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The preamble, the header's framing or the file's length.
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The header names a board this build does not support (past 12
    /// cells, for complete tables).
    #[error("{INCONSISTENT}: {0}")]
    Board(#[source] ShapeError),
    /// The header lists no table.
    #[error("{INCONSISTENT}: it lists no tables")]
    NoTables,
    /// The header's metric byte names no metric.
    #[error("{INCONSISTENT}: its metric is {0}, expected 0 (single-tile) or 1 (multi-tile)")]
    Metric(u8),
    /// Multi-tile pattern databases are not built: their tables would need
    /// another abstraction (a slide moves tiles of several patterns).
    #[error("{INCONSISTENT}: it holds pattern tables counted in multi-tile moves, which npuzzle does not build")]
    MultiTilePatterns,
    /// A path table beside a multi-tile table: path words hold single-tile
    /// solutions.
    #[error("{INCONSISTENT}: {at} counts multi-tile moves but has a path table, which only single-tile tables have")]
    MultiTilePathTable {
        /// The table.
        at: TableAt,
    },
    /// A table's goal blank lies outside the board.
    #[error("{INCONSISTENT}: {at} has its goal blank in cell {blank}, but a {shape} board has {} cells", shape.cells())]
    BlankOutside {
        /// The table.
        at: TableAt,
        /// Its goal blank cell.
        blank: usize,
        /// The file's board.
        shape: Shape,
    },
    /// Two complete tables serve the same goal blank cell.
    #[error("{INCONSISTENT}: two tables have their blank in cell {blank}")]
    DuplicateBlank {
        /// The cell.
        blank: usize,
    },
    /// Two sets of pattern tables whose goal blanks a symmetry relates:
    /// one would never be read.
    #[error("{INCONSISTENT}: sets {first} and {second} serve the same goal blank cells (cells {} and {}, which a reflection or rotation relates)", .blanks.0, .blanks.1)]
    SameClass {
        /// Index of the earlier set.
        first: usize,
        /// Index of the later set.
        second: usize,
        /// Their goal blanks.
        blanks: (usize, usize),
    },
    /// A set's tables are not the partition's patterns, in order (all of
    /// them, or those with a table of their own).
    #[error("{INCONSISTENT}: the tables of set {set} are not for the same patterns as the partition's {patterns}, in order (or the {stored} of them that no symmetry serves from another's table)")]
    OtherPatterns {
        /// Index of the set in the header.
        set: usize,
        /// Patterns in the partition.
        patterns: usize,
        /// Patterns with a table of their own toward the set's goal.
        stored: usize,
    },
    /// The partition's tiles are not a partition of the board's tiles.
    #[error("{INCONSISTENT}: {0}")]
    Partition(#[source] PatternError),
    /// A complete table that lists tiles: it places every tile.
    #[error("{INCONSISTENT}: {at} lists tiles, but the file has no partition: its tables are complete and place every tile")]
    TilesInComplete {
        /// The table.
        at: TableAt,
    },
    /// A pattern table with a path table: only complete tables have them.
    #[error("{INCONSISTENT}: {at} has a path table, but pattern tables have none")]
    PatternPathTable {
        /// The table.
        at: TableAt,
    },
    /// A table's size is not its board's positions or its pattern's
    /// placements.
    #[error("{INCONSISTENT}: {at} has {got} entries, expected {expected} ({})", match tiles { None => format!("one per position of a {shape} board"), Some(tiles) => format!("one per placement of its {tiles} tiles") })]
    Entries {
        /// The table.
        at: TableAt,
        /// Its size by its kind.
        expected: u64,
        /// The header's count.
        got: u64,
        /// The file's board.
        shape: Shape,
        /// Tiles in its pattern (`None` for a complete table).
        tiles: Option<usize>,
    },
    /// A pattern table whose maximum is the "never reached" mark.
    #[error("{INCONSISTENT}: {at} has maximum distance {UNREACHED_MARK}, the mark of entries never reached")]
    MaxDistance {
        /// The table.
        at: TableAt,
    },
    /// A table's list of counts per distance has the wrong length.
    #[error("{INCONSISTENT}: {at} has maximum distance {max_distance} and {counts} counts")]
    CountsLength {
        /// The table.
        at: TableAt,
        /// Its maximum distance.
        max_distance: u8,
        /// How many counts it lists (expected `max_distance + 1`).
        counts: usize,
    },
    /// A table's counts do not describe its entries: one at distance 0
    /// (the goal), and with those never reached, as many as its entries.
    #[error("{INCONSISTENT}: the counts of {at} do not add up to its {entries} entries (one at distance 0, the goal; entries never reached only in a pattern table that holds every tile)")]
    CountsTotal {
        /// The table.
        at: TableAt,
        /// Its entries.
        entries: u64,
    },
    /// A path table beside a table whose distances words cannot hold.
    #[error("{INCONSISTENT}: {at} has a path table, but its distances reach {max_distance}, past the {limit} that path tables allow")]
    PathTableTooFar {
        /// The table.
        at: TableAt,
        /// Its maximum distance.
        max_distance: u8,
        /// The most a path table allows.
        limit: usize,
    },
    /// A pattern database where complete tables were asked for.
    #[error("the file holds pattern databases for {shape}, not complete tables")]
    NotComplete {
        /// The file's board.
        shape: Shape,
    },
    /// Complete tables where pattern tables were asked for.
    #[error("the file holds complete tables for {shape}, not pattern databases")]
    NotPatterns {
        /// The file's board.
        shape: Shape,
    },
    /// A table at an earlier table's offset that is not a repeat of it:
    /// only a pattern table whose search is the earlier one's (the same
    /// goal cells and goal blank region) may share its bytes, with the same
    /// size, counts and checksum.
    #[error("{INCONSISTENT}: {at} starts where {earlier} does, but is not the same table ({why})")]
    NotARepeat {
        /// The later table.
        at: TableAt,
        /// The table whose offset it gives.
        earlier: TableAt,
        /// What differs.
        why: &'static str,
    },
    /// A section does not start where the layout puts it.
    #[error("{INCONSISTENT}: the {section} of {at} starts at {got}, expected {expected}")]
    SectionOffset {
        /// The table.
        at: TableAt,
        /// "table" or "path table".
        section: &'static str,
        /// Where the layout puts it.
        expected: u64,
        /// Where the header says it is.
        got: u64,
    },
}

/// The entry of a pattern placement never reached, in messages.
const UNREACHED_MARK: u8 = crate::pattern::UNREACHED;

impl FormatError {
    /// Whether the header is lost, and with it the partition the file was
    /// built with, which advice to rebuild it then cannot name.
    pub fn header_lost(&self) -> bool {
        matches!(self, FormatError::Envelope(_))
    }

    /// The board the file holds, where the header could still be read.
    pub fn readable_board(&self) -> Option<Shape> {
        match self {
            FormatError::Envelope(e) => e.readable_board(),
            FormatError::BlankOutside { shape, .. } | FormatError::Entries { shape, .. } => {
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
    let mut text = path.to_string_lossy();
    // A control character (a newline left at the end of a variable) would
    // break the message's line or hide in it, and a right-to-left override
    // would show the rest of the line reversed: such a path is shown
    // quoted, escaped (`"/tmp/3x3.db\n"`, `"a\u{202e}b.db"`).
    if text.chars().any(is_unseen) {
        text = format!("{:?}", text.as_ref()).into();
    }
    let count = text.chars().count();
    if count <= PATH_SHOWN {
        return text;
    }
    let head: String = text.chars().take(PATH_SHOWN - 40).collect();
    let tail: String = text.chars().skip(count - 40).collect();
    format!("{head}…{tail}").into()
}

/// Whether `c` is a character that a terminal shows as nothing, or that
/// breaks or reorders the line it is in: a control character, a
/// bidirectional mark, embedding, override or isolate, a zero-width
/// character, a line or paragraph separator. Messages escape them.
pub fn is_unseen(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// A path as a word of a command given as advice (`--out PATH`), to be
/// copied into a shell: as it is where the shell reads it so, else in
/// single quotes; with a control character or bytes that are not UTF-8 in
/// `$'…'`, escaped, as bash and zsh read it. A relative path that starts
/// with `-` gets `./` before it, so that it is not read as an option.
pub fn shell_path(path: &Path) -> String {
    let mut bytes = path_bytes(path).into_owned();
    if bytes.first() == Some(&b'-') {
        bytes.splice(0..0, *b"./");
    }
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"/._-+,:@%=".contains(b);
    // `=` first is expanded by zsh.
    if !bytes.is_empty() && bytes.iter().all(plain) && bytes[0] != b'=' {
        return String::from_utf8(bytes).expect("ASCII");
    }
    let readable = std::str::from_utf8(&bytes).ok();
    if let Some(text) = readable.filter(|t| !t.chars().any(is_unseen)) {
        return format!("'{}'", text.replace('\'', "'\\''"));
    }
    let mut escaped = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\'' => escaped.push_str("\\'"),
                '\\' => escaped.push_str("\\\\"),
                '\n' => escaped.push_str("\\n"),
                '\t' => escaped.push_str("\\t"),
                '\r' => escaped.push_str("\\r"),
                c if is_unseen(c) => escaped.push_str(&format!("\\u{:04x}", c as u32)),
                c => escaped.push(c),
            }
        }
        for byte in chunk.invalid() {
            escaped.push_str(&format!("\\x{byte:02x}"));
        }
    }
    format!("$'{escaped}'")
}

/// A path's bytes: as the system has them on Unix, as text elsewhere.
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    match path.to_string_lossy() {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    }
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
    #[error(
        "{} is a {kind}, not a regular file: a database is one file",
        shown_path(path)
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is: a folder, a device, a named pipe (FIFO), …
        kind: &'static str,
    },
    /// The file opened but cannot be memory-mapped, as a database is read,
    /// because the system makes it up as it is read, as those of `/proc`
    /// (other failures to map are [`OpenError::Io`]).
    #[error(
        "{} cannot be mapped into memory, as a database is read ({system}): a database is a \
         file on a disk, not one of a system folder such as /proc",
        shown_path(path)
    )]
    Unmappable {
        /// The file.
        path: PathBuf,
        /// What the system said (in the message, so not a source as well).
        system: io::Error,
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
     databases for {shape}, which answer solve, distance, batch, check, heuristics START, \
     compare (up to 16 cells), random, info and verify"
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
    /// Pattern tables that cannot be right (the search's
    /// [`SolveError::DamagedTables`]); verifying the file finds the damage.
    #[error("the pattern tables for this goal are damaged: {damage}")]
    DamagedPatterns {
        /// What gave them away.
        damage: crate::pattern::Damage,
    },
    /// The search stopped, at its deadline or its caller's word, before
    /// it found a solution.
    #[error(transparent)]
    Stopped(#[from] Stopped),
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

    /// Why the search stopped, when it stopped before an answer.
    pub fn stopped(&self) -> Option<&Stopped> {
        match self {
            AnswerError::Stopped(why) => Some(why),
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
            SolveError::Stopped(why) => AnswerError::Stopped(why),
            SolveError::DamagedTables { damage } => AnswerError::DamagedPatterns { damage },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_messages_show_what_the_eye_would_miss() {
        assert_eq!(shown_path(Path::new("/tmp/3x3.db")), "/tmp/3x3.db");
        assert_eq!(shown_path(Path::new("my dir/3x3.db")), "my dir/3x3.db");
        assert_eq!(shown_path(Path::new("/tmp/3x3.db\n")), "\"/tmp/3x3.db\\n\"");
        let reversing = "a\u{202e}bd.3x3";
        assert_eq!(shown_path(Path::new(reversing)), "\"a\\u{202e}bd.3x3\"");
        assert_eq!(shown_path(Path::new("é/3x3.db")), "é/3x3.db");
        let long = "d/".repeat(200);
        let shown = shown_path(Path::new(&long));
        assert_eq!(shown.chars().count(), PATH_SHOWN - 40 + 1 + 40);
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_written_as_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"d x/\xff.db"));
        assert_eq!(shell_path(path), "$'d x/\\xff.db'");
    }

    #[test]
    fn paths_in_advice_are_words_a_shell_reads_back() {
        for (path, word) in [
            ("data/4x4.db", "data/4x4.db"),
            ("/a/b-c_d.e+f,g:h@i%j=k", "/a/b-c_d.e+f,g:h@i%j=k"),
            ("my dir/4x4.db", "'my dir/4x4.db'"),
            ("it's.db", "'it'\\''s.db'"),
            ("~/4x4.db", "'~/4x4.db'"),
            ("$HOME.db", "'$HOME.db'"),
            ("", "''"),
            ("/tmp/3x3.db\n", "$'/tmp/3x3.db\\n'"),
            ("-y.db", "./-y.db"),
            ("-my y.db", "'./-my y.db'"),
            ("=x.db", "'=x.db'"),
            ("a=b.db", "a=b.db"),
            ("a'b\\c\td\u{1}", "$'a\\'b\\\\c\\td\\u0001'"),
            ("a\u{202e}b d.db", "$'a\\u202eb d.db'"),
            ("é.db", "'é.db'"),
        ] {
            assert_eq!(shell_path(Path::new(path)), word, "{path:?}");
        }
    }
}
