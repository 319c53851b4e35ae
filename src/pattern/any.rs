//! Either kind of database behind one API: a complete table answers by
//! lookup, a pattern database by IDA*, and callers that only want answers
//! need not care which.

use super::database::{PatternDatabase, PatternOpenError};
use super::error::SolveError;
use super::file::{PatternFormatError, PATTERN_MAGIC};
use super::search::{Solution, SolveOptions};
use crate::db::database::{map_file, Database};
use crate::db::error::{shown_path, LookupError, OpenError};
use crate::puzzle::board::Board;
use crate::puzzle::shape::Shape;
use crate::puzzle::solvability::Unsolvable;
use memmap2::Mmap;
use std::path::{Path, PathBuf};

/// A database of either kind. One is opened per process, so the size
/// difference of the variants (a complete database holds its routing table
/// inline) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum AnyDatabase<B = Mmap> {
    /// Complete tables: every position's distance, looked up.
    Complete(Database<B>),
    /// Pattern databases: lower bounds, searched with IDA*.
    Pattern(PatternDatabase<B>),
}

/// A database file of either kind could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum AnyOpenError {
    /// Not readable, not a file, or not a usable complete-table database
    /// (a file with neither kind's magic lands here, as [`OpenError::Format`]).
    #[error(transparent)]
    Complete(#[from] OpenError),
    /// A pattern database that is not usable.
    #[error("{} is not a usable pattern database", shown_path(path))]
    Pattern {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        problem: PatternFormatError,
    },
}

impl From<PatternOpenError> for AnyOpenError {
    fn from(e: PatternOpenError) -> AnyOpenError {
        match e {
            PatternOpenError::Open(e) => AnyOpenError::Complete(e),
            PatternOpenError::Format { path, problem } => AnyOpenError::Pattern { path, problem },
        }
    }
}

/// Why a question got no answer, from either kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// From a complete table.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// From a search over pattern databases.
    #[error(transparent)]
    Search(#[from] SolveError),
}

impl AnswerError {
    /// Why the start cannot reach the goal, when that is the reason.
    pub fn unsolvable(&self) -> Option<&Unsolvable> {
        match self {
            AnswerError::Lookup(LookupError::Unsolvable(why))
            | AnswerError::Search(SolveError::Unsolvable(why)) => Some(why),
            _ => None,
        }
    }
}

impl AnyDatabase<Mmap> {
    /// Opens and maps a database file of either kind, told apart by its
    /// magic bytes. Only the header is read and checked. The mapping's
    /// contract is [`Database::open`]'s.
    pub fn open(path: &Path) -> Result<AnyDatabase<Mmap>, AnyOpenError> {
        let map = map_file(path)?;
        if map.get(..PATTERN_MAGIC.len()) == Some(&PATTERN_MAGIC[..]) {
            return PatternDatabase::from_bytes(map)
                .map(AnyDatabase::Pattern)
                .map_err(|problem| AnyOpenError::Pattern {
                    path: path.to_path_buf(),
                    problem,
                });
        }
        Database::from_bytes(map)
            .map(AnyDatabase::Complete)
            .map_err(|problem| {
                AnyOpenError::Complete(OpenError::Format {
                    path: path.to_path_buf(),
                    problem,
                })
            })
    }
}

impl<B: AsRef<[u8]>> AnyDatabase<B> {
    /// Opens either kind from bytes in memory.
    pub fn from_bytes(bytes: B) -> Result<AnyDatabase<B>, AnyFormatError> {
        if bytes.as_ref().get(..PATTERN_MAGIC.len()) == Some(&PATTERN_MAGIC[..]) {
            return Ok(AnyDatabase::Pattern(PatternDatabase::from_bytes(bytes)?));
        }
        Ok(AnyDatabase::Complete(Database::from_bytes(bytes)?))
    }

    /// The board of every position in the database.
    pub fn shape(&self) -> Shape {
        match self {
            AnyDatabase::Complete(db) => db.shape(),
            AnyDatabase::Pattern(db) => db.shape(),
        }
    }

    /// The complete tables, if that is the kind.
    pub fn complete(&self) -> Option<&Database<B>> {
        match self {
            AnyDatabase::Complete(db) => Some(db),
            AnyDatabase::Pattern(_) => None,
        }
    }

    /// The pattern database, if that is the kind.
    pub fn pattern(&self) -> Option<&PatternDatabase<B>> {
        match self {
            AnyDatabase::Pattern(db) => Some(db),
            AnyDatabase::Complete(_) => None,
        }
    }

    /// One shortest sequence of blank moves from `start` to `goal`. A
    /// complete table looks it up (`nodes` is then 0: nothing is
    /// searched) and ignores `options`; a pattern database searches,
    /// within `options`' deadline.
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<Solution, AnswerError> {
        match self {
            AnyDatabase::Complete(db) => Ok(Solution {
                moves: db.solve(start, goal)?,
                nodes: 0,
            }),
            AnyDatabase::Pattern(db) => Ok(db.solve(start, goal, options)?),
        }
    }

    /// Fewest moves from `start` to `goal`.
    pub fn distance(
        &self,
        start: &Board,
        goal: &Board,
        options: &SolveOptions,
    ) -> Result<u32, AnswerError> {
        match self {
            AnyDatabase::Complete(db) => Ok(db.distance(start, goal)?),
            AnyDatabase::Pattern(db) => Ok(db.distance(start, goal, options)?),
        }
    }
}

/// Bytes in memory that are not a usable database of either kind.
#[derive(Debug, thiserror::Error)]
pub enum AnyFormatError {
    /// Not a usable complete-table database (nor a pattern database).
    #[error(transparent)]
    Complete(#[from] crate::db::error::FormatError),
    /// A pattern database that is not usable.
    #[error(transparent)]
    Pattern(#[from] PatternFormatError),
}
