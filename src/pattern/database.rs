//! Opening a pattern-database file: the header checked, the tables handed
//! to the search as slices of the file's bytes.

use super::db::PatternDb;
use super::error::SolveError;
use super::file::{check_pattern_header, PatternFormatError, PatternHeader, PatternTableInfo};
use super::search::{Solution, SolveOptions};
use crate::db::database::map_file;
use crate::db::error::OpenError;
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use memmap2::Mmap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One table's bytes inside the file's: a shared handle on the whole file
/// and the table's range, so that the search reads the file in place.
#[derive(Debug)]
pub struct Section<B> {
    bytes: Arc<B>,
    range: Range<usize>,
}

impl<B: AsRef<[u8]>> AsRef<[u8]> for Section<B> {
    fn as_ref(&self) -> &[u8] {
        &(*self.bytes).as_ref()[self.range.clone()]
    }
}

/// An opened pattern database: generic over its bytes, so tests can use a
/// `Vec<u8>` and the tools a memory map.
pub struct PatternDatabase<B> {
    bytes: Arc<B>,
    header: PatternHeader,
    header_start: usize,
    db: PatternDb<Section<B>>,
}

/// A pattern-database file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum PatternOpenError {
    /// The file could not be read or mapped, or is not a regular file.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The file is not a usable pattern database.
    #[error("{} is not a usable pattern database", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        problem: PatternFormatError,
    },
}

impl PatternDatabase<Mmap> {
    /// Opens and maps a pattern-database file. Only the header is read and
    /// checked; table pages are read by the system when a search first
    /// touches them. The mapping's contract is [`crate::Database::open`]'s:
    /// the file must not be truncated or rewritten in place while open.
    pub fn open(path: &Path) -> Result<PatternDatabase<Mmap>, PatternOpenError> {
        let map = map_file(path)?;
        PatternDatabase::from_bytes(map).map_err(|problem| PatternOpenError::Format {
            path: path.to_path_buf(),
            problem,
        })
    }
}

impl<B: AsRef<[u8]>> PatternDatabase<B> {
    /// Checks the header of a pattern database held in memory. Costs time
    /// proportional to the header, not to the tables.
    pub fn from_bytes(bytes: B) -> Result<PatternDatabase<B>, PatternFormatError> {
        let (header, partition, header_start) = check_pattern_header(bytes.as_ref())?;
        let bytes = Arc::new(bytes);
        let tables = header
            .tables
            .iter()
            .map(|t| Section {
                bytes: Arc::clone(&bytes),
                range: t.offset as usize..(t.offset + t.placements) as usize,
            })
            .collect();
        let db = PatternDb::new(partition, tables)
            .expect("the header check covers the tables' number and lengths");
        Ok(PatternDatabase {
            bytes,
            header,
            header_start,
            db,
        })
    }

    /// The board of every position the database answers.
    pub fn shape(&self) -> Shape {
        self.db.shape()
    }

    /// What the file holds.
    pub fn header(&self) -> &PatternHeader {
        &self.header
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// Where the header's bytes lie: the end of the file.
    pub fn header_range(&self) -> Range<usize> {
        self.header_start..self.bytes().len()
    }

    /// The entries of one of this database's tables (`info` from its
    /// header), indexed by placement rank. Open checked that they lie in
    /// the file.
    pub fn table_entries(&self, info: &PatternTableInfo) -> &[u8] {
        &self.bytes()[info.offset as usize..(info.offset + info.placements) as usize]
    }

    /// The tables as the search reads them.
    pub fn patterns(&self) -> &PatternDb<Section<B>> {
        &self.db
    }

    /// The goal every table counts toward: tiles in order, blank last.
    pub fn default_goal(&self) -> Board {
        Board::goal(self.shape())
    }

    /// An optimal solution from `start` to `goal` by IDA*, and the nodes it
    /// generated. The goal's blank must be in the last cell or in a cell a
    /// symmetry of the board takes there (the corners).
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, SolveError> {
        self.db.solve_to(start, goal, options)
    }

    /// Fewest moves from `start` to `goal` (a solution is found to know it).
    pub fn distance(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<u32, SolveError> {
        Ok(self.solve(start, goal, options)?.moves.len() as u32)
    }
}
