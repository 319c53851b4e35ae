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
//! use npuzzle::{build, parse_board, Database, Metric, Plan, Shape};
//!
//! let shape: Shape = "2x3".parse()?;
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("2x3.db");
//! let every_goal = (0..shape.cells()).collect();
//! let plan = Plan::Complete { shape, blanks: every_goal, metric: Metric::SingleTile, paths: false };
//! build(&path, &plan, &|_, _| {})?;
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
//! One folder per layer, each using only the layers earlier in this list:
//! `puzzle` (boards, moves and their rules), `table` (ranks and the reverse
//! breadth-first search), `pattern` (pattern tables and IDA*, knowing
//! nothing of files), `db` (the file of either kind: writing, opening as
//! one [`Database`], answering, describing, verifying), then `io` (text and
//! JSON at speed), `bounded` (solutions within a factor of the optimum, on
//! any board, with or without a file) and `analysis` (what the tool says
//! about a whole state space). The supported types are re-exported here; [`raw`] opens the
//! file's layout to tools that need it.
//!
//! # Features
//! None by default: the library alone pulls in no command-line, web or
//! chart crates. `cli` adds the usage errors both binaries print (clap)
//! and their handling of signals (signal-hook).
#![deny(unsafe_code)]
#![warn(missing_docs)]

// The library page's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryExample;

mod db;
mod puzzle;
mod table;

pub mod analysis;
pub mod bounded;
pub mod io;
pub mod pattern;

pub use db::build::{build, BuildError, Plan};
pub use db::complete::CompleteTables;
pub use db::database::Database;
pub use db::error::{AnswerError, FormatError, NeedsCompleteTables, OpenError};
pub use db::goal_table::GoalTable;
pub use db::patterns::PatternTables;
pub use puzzle::board::{Board, Move};
pub use puzzle::cell::Cell;
pub use puzzle::metric::Metric;
pub use puzzle::parse::parse_board;
pub use puzzle::shape::Shape;
pub use puzzle::solvability::Unsolvable;

/// The rules of boards beyond the core types: solvability, the board's
/// symmetries, sets of cells, the metrics' notation, the parser's errors,
/// the size limits, and the move sequences a search may skip.
pub mod rules {
    pub use crate::puzzle::board::{move_string, BoardError};
    pub use crate::puzzle::cell::Cells;
    pub use crate::puzzle::duplicates::{DuplicateState, Duplicates, LONGEST_STRETCH};
    pub use crate::puzzle::metric::{
        slide_notation, slides, Metric, MetricError, NoMultiTileTables,
    };
    pub use crate::puzzle::parse::{check_rows, excerpt, ParseError};
    pub use crate::puzzle::shape::{ShapeError, MAX_CELLS, MAX_TABLE_CELLS};
    pub use crate::puzzle::solvability;
    pub use crate::puzzle::symmetry::{self, Symmetry};
}

/// What a database says about itself, the same for both kinds of file:
/// [`report::Info`] from the header, [`report::Report`] from `verify`.
pub mod report {
    pub use crate::db::report::{
        GoalInfo, Info, Kind, PathTableSummary, Report, TableReport, TableSummary,
    };
}

/// Where database files are, what their headers say, and writing them
/// safely.
pub mod files {
    pub use crate::db::error::{is_unseen, shell_path, shown_path, EnvelopeError, WriteError};
    pub use crate::db::format::write::write_database;
    pub use crate::db::format::{Header, PathTableInfo, TableAt, TableInfo};
    pub use crate::db::locate::{
        default_output, env_db, file_name, file_name_board, locate, locate_all, locate_unnamed,
        user_data_dir, user_data_path, ListError, Location, Origin, DB_ENV,
    };
    pub use crate::db::patterns::Section;
    pub use crate::db::replace::{megabytes, ReplaceError};
}

/// Complete tables in memory, and the choices a build makes: which goal
/// blank cells, whether path tables, and how far a search has come.
pub mod tables {
    pub use crate::db::build::{
        all_goals, default_blanks, default_paths, distinct_blanks, unbuildable, Built,
        ALL_GOALS_MAX_CELLS, DEFAULT_PATHS_MAX_CELLS, PATHS_MAX_CELLS,
    };
    pub use crate::table::generate::{
        build_table, build_table_reporting, build_tables, BuildProgress, Table,
    };
}

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
    pub use crate::table::step::toward_goal;
}
