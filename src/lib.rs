//! Exact answers to sliding-tile puzzles by lookup instead of search.
//!
//! A database holds, for every position reachable from a goal, its distance
//! to the goal and the blank's move that leads one step closer, in one byte
//! indexed by the position's [`rank`]. One table per blank cell answers
//! every goal with the blank there, after relabelling ([`relabel`]) the
//! tiles, and the board's reflections and rotations ([`symmetry`]) let one
//! table per class of cells answer every goal.
//!
//! ```
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
//! assert_eq!(db.distance(&start, &goal)?, 3);
//! let moves = db.solve(&start, &goal)?;
//! assert_eq!(start.replay(&moves), Some(goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod answer;
pub mod batch;
pub mod board;
pub mod build;
pub mod database;
pub mod entry;
pub mod format;
pub mod generate;
pub mod heuristics;
pub mod parse;
pub mod path_table;
pub mod paths;
pub mod pattern;
pub mod plot;
pub mod rank;
pub mod relabel;
mod replace;
pub mod sample;
pub mod search;
pub mod shape;
pub mod solvability;
pub mod stats;
pub mod symmetry;
pub mod verify;

pub use board::{move_string, Board, BoardError, Move};
pub use build::{build_database, Built};
pub use database::{Database, FormatError, LookupError, OpenError, Target};
pub use format::{write_database, DatabaseWriter, Header, PathTableInfo, TableInfo, WriteError};
pub use generate::{build_table, build_table_reporting, build_tables, Level, Table};
pub use parse::{parse_board, ParseError};
pub use shape::{Shape, ShapeError, MAX_CELLS, MAX_TABLE_CELLS};
pub use solvability::Unsolvable;
pub use verify::{verify, Report, TableReport};
