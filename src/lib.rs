//! Exact answers to sliding-tile puzzles by lookup instead of search.
//!
//! A database holds, for every position reachable from a goal, its distance
//! to the goal and the blank's move that leads one step closer, in one byte
//! indexed by the position's permutation rank. One table per blank cell
//! answers every goal with the blank there, after renaming the tiles, and
//! the board's reflections and rotations let one table per class of cells
//! answer every goal.
//!
//! ```
//! use npuzzle::pattern::SolveOptions;
//! use npuzzle::{build_tables, parse_board, write_database, Database, Shape};
//!
//! let shape: Shape = "2x3".parse()?;
//! let tables = build_tables(shape, &(0..shape.cells()).collect::<Vec<_>>());
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("2x3.db");
//! write_database(&path, shape, &tables)?;
//!
//! let db = Database::open(&path)?;
//! let start = parse_board("012/453", shape)?;
//! let goal = parse_board("123/450", shape)?;
//! let options = SolveOptions::default();
//! assert_eq!(db.distance(&start, &goal, &options)?, 3);
//! let solution = db.solve(&start, &goal, &options)?;
//! assert_eq!(start.replay(&solution.moves), Some(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layout
//! One folder per layer, each using only the layers above it in this list:
//! `puzzle` (boards, moves and their rules), `table` (ranks and the reverse
//! breadth-first search), `pattern` (pattern tables and IDA*, knowing
//! nothing of files), `db` (the file of either kind: writing, opening as
//! one [`Database`], answering, describing, verifying), then `io` (text and
//! JSON at speed) and `analysis` (what the tool says about a whole state
//! space). The supported types are re-exported here; [`raw`] opens the
//! file's layout to tools that need it.
//!
//! # Features
//! None by default: the library alone pulls in no command-line, web or
//! chart crates. `cli` adds the usage errors both binaries print (clap).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod db;
mod puzzle;
mod table;

pub mod analysis;
pub mod io;
pub mod pattern;

pub use db::build::{
    all_goals, build, default_blanks, default_paths, BuildError, Built, Plan, ALL_GOALS_MAX_CELLS,
    DEFAULT_PATHS_MAX_CELLS, PATHS_MAX_CELLS,
};
pub use db::complete::CompleteTables;
pub use db::database::Database;
pub use db::error::{
    shown_path, AnswerError, EnvelopeError, FormatError, NeedsCompleteTables, OpenError, WriteError,
};
pub use db::format::write::write_database;
pub use db::format::{Header, PathTableInfo, TableAt, TableInfo};
pub use db::goal_table::GoalTable;
pub use db::locate::{
    default_output, locate, user_data_dir, user_data_path, Location, Origin, DB_ENV,
};
pub use db::patterns::{PatternTables, Section};
pub use db::replace::ReplaceError;
pub use db::report::{GoalInfo, Info, Kind, PathTableSummary, Report, TableReport, TableSummary};
pub use puzzle::board::{move_string, Board, BoardError, Move};
pub use puzzle::cell::{Cell, Cells};
pub use puzzle::parse::{excerpt, parse_board, ParseError};
pub use puzzle::shape::{Shape, ShapeError, MAX_CELLS, MAX_TABLE_CELLS};
pub use puzzle::solvability;
pub use puzzle::solvability::Unsolvable;
pub use puzzle::symmetry::{self, Symmetry};
pub use table::generate::{build_table, build_table_reporting, build_tables, BuildProgress, Table};

/// The file's layout and the tables' encoding, for tools that read or write
/// databases byte by byte (fuzzers, corruption tests, benchmarks). Not
/// needed to build, open or query a database.
pub mod raw {
    pub use crate::db::format::check::{check_header, read_envelope, Checked};
    pub use crate::db::format::write::Writer;
    pub use crate::db::format::{
        bincode_config, encode_header, page_align, section_offsets, Preamble, FIRST_SECTION, MAGIC,
        MAX_HEADER_LEN, OLD_PATTERN_MAGIC, PAGE, PREAMBLE_LEN, VERSION,
    };
    pub use crate::table::entry;
    pub use crate::table::generate::{
        build_each, search_with_bitsets, search_with_lists, LIST_SEARCH_MAX_CELLS,
    };
    pub use crate::table::path_table;
    pub use crate::table::rank::{Cursor, Ranked, Ranker};
}
